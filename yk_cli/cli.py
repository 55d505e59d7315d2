"""The `yk` command line's entry point: a plain invocation of a command in FAST_PATHS runs without typer (start-up
time); everything else goes to the typer application (yk_cli.commands.registry), imported on first use.

Nothing in yk imports this module: the commands share yk_cli.commands.console.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

from yk_cli.commands.console import exit_process

FAST_PATHS: dict[str, str] = {
    "check": "yk_cli.commands.check",
    "validate": "yk_cli.commands.validate",
    "priorities": "yk_cli.commands.priorities",
    "tree": "yk_cli.commands.tree",
    "simulate": "yk_cli.commands.simulate",
}
"""Commands whose plain invocations skip typer's parameter machinery (start-up time): module -> `fast_path(args)`."""


def main() -> None:
    """Console-script entry point: a plain invocation of a command in FAST_PATHS runs without typer's parameter
    machinery and ends the process as soon as its output is written; everything else goes through typer."""
    args = sys.argv[1:]
    if args[:1] and args[0] in FAST_PATHS:
        import importlib

        fast_path: Callable[[Sequence[str]], int | None] = importlib.import_module(FAST_PATHS[args[0]]).fast_path
        code = fast_path(args[1:])
        if code is not None:
            exit_process(code)
    from yk_cli.commands.registry import app

    app(prog_name="yk")


def __getattr__(name: str) -> Any:
    """The typer application and its classes (`from yk_cli.cli import app`), imported when first asked for."""
    if name == "app":
        from yk_cli.commands.registry import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
