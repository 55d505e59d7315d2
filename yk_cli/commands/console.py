"""What every command shares on the terminal: exit statuses and usage errors, format and colour choice, help
prose, writing standard output, and plain command lines parsed without typer (the fast paths)."""

from __future__ import annotations

import contextlib
import inspect
import os
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import NoReturn

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


class Exit(Exception):
    """End the command with this exit status (what it had to say is already printed): typer.Exit without typer."""

    def __init__(self, exit_code: int = 0) -> None:
        super().__init__(exit_code)
        self.exit_code = exit_code


def echo_error(message: str) -> None:
    """One line on standard error."""
    sys.stderr.write(message + "\n")


class UsageError(Exception):
    """A bad command line or an unreadable input: reported as `yk: error: ...` with exit status 2."""


def usage_message(message: str) -> str:
    """The one line printed on standard error for a usage error."""
    return f"yk: error: {message}"


def fail_usage(message: str) -> Exit:
    """Print a usage-level error and return the exit to raise."""
    echo_error(usage_message(message))
    return Exit(EXIT_USAGE)


def check_format(fmt: str, allowed: tuple[str, ...]) -> str:
    """The format name, or a usage error."""
    if fmt not in allowed:
        raise fail_usage(f"unknown format {fmt!r}; choose one of {', '.join(allowed)}")
    return fmt


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """` (did you mean 'x'?)` for the choice closest to a misspelt word (case and `_` for `-` forgiven), or ''."""
    import difflib

    known = list(choices)
    close = difflib.get_close_matches(word, known, n=1, cutoff=0.6)
    if not close:
        close = difflib.get_close_matches(word.lower().replace("_", "-"), known, n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def ci_format(fmt: str | None, allowed: Sequence[str]) -> str:
    """The format asked for, else github under GitHub Actions, else text; UsageError for a name not allowed."""
    chosen = fmt if fmt is not None else ("github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text")
    if chosen not in allowed:
        raise UsageError(f"unknown format {chosen!r}; choose one of {', '.join(allowed)}")
    return chosen


def color_wanted() -> bool:
    """Colour only when standard output is a terminal, and never under NO_COLOR or TERM=dumb (no-color.org), as
    `yk validate` and `yk diff` decide."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


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


def run_fast(command: Callable[..., None], *args: object) -> int:
    """Call a command's printing function from a fast path: 0, or the status of the Exit it raised."""
    try:
        command(*args)
    except Exit as done:
        return done.exit_code
    return 0


def write_report(path: str, chunks: Iterable[str] | str) -> None:
    """Write a report to a file (a usage error when it cannot be written) and say so on standard error."""
    text = chunks if isinstance(chunks, str) else "".join(chunks)
    try:
        with open(path, "w", encoding="utf-8", newline="") as out:
            out.write(text)
    except OSError as err:
        raise fail_usage(f"cannot write {err.filename or path}: {err.strerror or err}") from None
    echo_error(f"wrote {path} ({len(text.encode('utf-8')):,} bytes)")
