"""Sweeps: many dry runs of one config and workload with settings varied (yk sweep, yk tune)."""
