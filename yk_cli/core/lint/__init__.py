"""`yk validate`'s rules: the catalogue of every rule, the config checks, and a project's `.yk.yaml` settings."""
