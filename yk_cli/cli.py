"""The `yk` command line: parse options, call one function, print, exit."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from yk_cli.core.diagnostics import EXIT_USAGE

app = typer.Typer(
    name="yk",
    help="Lint, explain and dry-run Apache YuniKorn queue configurations.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        from yk_cli import __version__

        typer.echo(f"yk {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Lint, explain and dry-run Apache YuniKorn queue configurations."""


class UsageError(Exception):
    """A bad command line or an unreadable input: reported as `yk: error: ...` with exit status 2."""


def usage_message(message: str) -> str:
    """The one line printed on standard error for a usage error."""
    return f"yk: error: {message}"


def fail_usage(message: str) -> typer.Exit:
    """Print a usage-level error and return the exit to raise."""
    typer.echo(usage_message(message), err=True)
    return typer.Exit(EXIT_USAGE)


def check_format(fmt: str, allowed: tuple[str, ...]) -> str:
    """The format name, or a usage error."""
    if fmt not in allowed:
        raise fail_usage(f"unknown format {fmt!r}; choose one of {', '.join(allowed)}")
    return fmt


def main() -> None:
    """Console-script entry point: plain `yk validate` runs without typer's parameter machinery (start-up time)."""
    args = sys.argv[1:]
    if args[:1] == ["validate"]:
        from yk_cli.commands.validate import fast_path

        code = fast_path(args[1:])
        if code is not None:
            sys.exit(code)
    app()


# Each command lives in its own module and registers itself on `app` when imported.
from yk_cli.commands import explain as _explain  # noqa: E402, F401
from yk_cli.commands import generate as _generate  # noqa: E402, F401
from yk_cli.commands import priorities as _priorities  # noqa: E402, F401
from yk_cli.commands import rules as _rules  # noqa: E402, F401
from yk_cli.commands import schema as _schema  # noqa: E402, F401
from yk_cli.commands import simulate as _simulate  # noqa: E402, F401
from yk_cli.commands import tree as _tree  # noqa: E402, F401
from yk_cli.commands import validate as _validate  # noqa: E402, F401
