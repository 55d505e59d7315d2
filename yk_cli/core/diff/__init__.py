"""`yk diff`: what a queue config change does: config changes, effective priorities, two dry runs compared."""
