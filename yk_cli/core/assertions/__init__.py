"""`yk check`: a team's written rules about a queue config, proved on the config or checked on a dry run."""
