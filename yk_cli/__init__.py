"""yk: lint, explain and dry-run Apache YuniKorn queue configurations."""

from yk_cli import compiled

__version__ = "0.1.0"

compiled.install()
