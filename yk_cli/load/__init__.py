"""Loaders: files and streams -> core values, keeping source positions."""
