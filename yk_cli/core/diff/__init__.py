"""`yk diff`: what a queue config change does — config-level changes, effective priorities, and two dry runs compared."""
