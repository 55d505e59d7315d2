"""yk: lint, explain and dry-run Apache YuniKorn queue configurations."""

__version__ = "0.1.0"
