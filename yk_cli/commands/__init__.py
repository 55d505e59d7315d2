"""One module per `yk` command; each registers itself on the typer app."""
