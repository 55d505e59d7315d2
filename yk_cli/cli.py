"""The `yk` command line: parse options, call one function, print, exit."""

from __future__ import annotations

import contextlib
import inspect
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Annotated, Any, NoReturn

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup

from yk_cli.core.diagnostics import EXIT_USAGE

_RICH_TAG = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])")
"""What Rich would read as a markup tag (`[bold]`, `[/]`): the pattern of rich.markup.escape, without importing Rich."""


def prose(text: str | None) -> str | None:
    """Help text that wraps at any width: each paragraph of a docstring on one line (the line breaks of the source
    dropped, blank lines kept as paragraph breaks) and anything Rich would take for markup escaped."""
    if text is None:
        return None
    paragraphs = inspect.cleandoc(text).split("\n\n")
    joined = (" ".join(line.strip() for line in paragraph.splitlines()) for paragraph in paragraphs)
    return "\n\n".join(_RICH_TAG.sub(lambda m: m.group(1) * 2 + "\\" + m.group(2), p) for p in joined)


class _NamedArgument(TyperArgument):
    """An argument shown by its metavar alone (CONFIG), not followed by its Python type (`<str>`)."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return None


def _plain_help_option(option: Any) -> Any:
    """The help flag without a type column (typer shows `<bool>` for a flag with no metavar)."""
    if option is not None:
        option.metavar = ""
    return option


class YkCommand(TyperCommand):
    """A `yk` command: its docstring reflowed as prose, arguments named by their metavars, flags untyped."""

    def __init__(self, name: str | None, **kwargs: Any) -> None:
        super().__init__(name, **kwargs)
        self.help = prose(self.help)
        for param in self.params:
            if type(param) is TyperArgument:
                param.__class__ = _NamedArgument

    def get_help_option(self, ctx: Any) -> Any:
        return _plain_help_option(super().get_help_option(ctx))


class YkGroup(TyperGroup):
    """The `yk` group: its help reflowed as prose and its help flag untyped, like every YkCommand."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.help = prose(self.help)

    def get_help_option(self, ctx: Any) -> Any:
        return _plain_help_option(super().get_help_option(ctx))


ROOT_HELP = """Lint, explain and dry-run Apache YuniKorn queue configurations.

Example: yk validate queues.yaml"""

app = typer.Typer(
    name="yk",
    cls=YkGroup,
    help=ROOT_HELP,
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
        bool,
        typer.Option("--version", callback=_version, is_eager=True, metavar="", help="Print the version and exit."),
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


MAX_SIZE_HELP = "Largest queue config read (default 2MiB; Kubernetes stores at most 1 MiB in a ConfigMap), e.g. 16MiB."


@contextlib.contextmanager
def config_size(text: str | None) -> Iterator[None]:
    """Queue configs read inside the block are limited to `--max-size`, else the project config's `max-size` (a
    usage error when it is not a size)."""
    from yk_cli.commands.project import active_project
    from yk_cli.load.source import config_limit_set, parse_size

    if text is None:
        text = active_project().max_size
    limit = parse_size(text) if text is not None else None
    if text is not None and not limit:
        raise fail_usage(f"--max-size {text!r} is not a size; give bytes or a unit such as 16MiB or 20MB")
    with config_limit_set(limit):
        yield


def write_stdout(chunks: Iterable[str]) -> None:
    """Print text pieces in large writes; a closed pipe (`yk ... | head`) is not an error."""
    out = sys.stdout
    batch: list[str] = []
    size = 0
    try:
        for chunk in chunks:
            batch.append(chunk)
            size += len(chunk)
            if size >= 1 << 16:
                out.write("".join(batch))
                batch.clear()
                size = 0
        out.write("".join(batch))
        out.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, out.fileno())


def exit_process(code: int) -> NoReturn:
    """End the process now: flush the output and leave the heap to the OS instead of tearing the interpreter down
    object by object. Only the console entry point calls it, after a fast path."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(BrokenPipeError, ValueError):  # a closed pipe or stream: nothing left to print
            stream.flush()
    os._exit(code)


def plain_arguments(
    args: Sequence[str], values: dict[str, str], flags: dict[str, str] | None = None
) -> tuple[list[str], dict[str, str | bool]] | None:
    """Positional arguments and options of a plain command line (`--opt value`, `--opt=value`, `-o value`, flags,
    `--`); None for anything else (help, bundled short options, a missing value), which typer then parses."""
    flags = flags or {}
    options: dict[str, str | bool] = {}
    positional: list[str] = []
    rest = iter(args)
    for arg in rest:
        if arg == "--":
            positional.extend(rest)
            break
        if arg in flags:
            options[flags[arg]] = True
        elif arg in values:
            value = next(rest, None)
            if value is None:
                return None
            options[values[arg]] = value
        elif arg.startswith("--") and "=" in arg and arg.split("=", 1)[0] in values:
            name, value = arg.split("=", 1)
            options[values[name]] = value
        elif arg.startswith("-") and arg != "-":
            return None
        else:
            positional.append(arg)
    return positional, options


def run_fast(command: Callable[..., None], *args: str | bool | None) -> int:
    """Call a command's printing function from a fast path: 0, or the status of the typer.Exit it raised."""
    try:
        command(*args)
    except typer.Exit as done:
        return done.exit_code
    return 0


QUIET_FLAGS = {"--quiet": "quiet", "-q": "quiet"}
"""-q/--quiet (no summary line for warnings) as the fast paths parse it."""

FAST_PATHS: dict[str, str] = {
    "check": "yk_cli.commands.check",
    "validate": "yk_cli.commands.validate",
    "priorities": "yk_cli.commands.priorities",
    "tree": "yk_cli.commands.tree",
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
    app(prog_name="yk")


# Each command lives in its own module and registers itself on `app` when imported.
from yk_cli.commands import check as _check  # noqa: E402, F401
from yk_cli.commands import diff as _diff  # noqa: E402, F401
from yk_cli.commands import explain as _explain  # noqa: E402, F401
from yk_cli.commands import generate as _generate  # noqa: E402, F401
from yk_cli.commands import priorities as _priorities  # noqa: E402, F401
from yk_cli.commands import rules as _rules  # noqa: E402, F401
from yk_cli.commands import schema as _schema  # noqa: E402, F401
from yk_cli.commands import simulate as _simulate  # noqa: E402, F401
from yk_cli.commands import tree as _tree  # noqa: E402, F401
from yk_cli.commands import validate as _validate  # noqa: E402, F401
from yk_cli.commands import volcano as _volcano  # noqa: E402, F401
