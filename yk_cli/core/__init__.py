"""The pure domain core: standard library only, no I/O."""
