"""Bytes -> YAML nodes with spans, via ruamel.yaml's composer, with limits that keep hostile input harmless."""

from __future__ import annotations

import contextlib
import gc
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path as FsPath
from pathlib import PurePath

from yk_cli.core.diagnostics import Level, Problem, Span
from yk_cli.core.lint.loader_rules import YAML_SYNTAX
from yk_cli.core.yamldoc import Node
from yk_cli.load.yamlreader import MAX_DEPTH as MAX_DEPTH
from yk_cli.load.yamlreader import MAX_EXPANDED_NODES as MAX_EXPANDED_NODES
from yk_cli.load.yamlreader import read_nodes

MAX_BYTES = 64 * 1024 * 1024
"""Largest input read (workloads, cluster dumps) unless `--max-size` is larger (see input_limit)."""
MAX_CONFIG_BYTES = 2 * 1024 * 1024
"""Largest queue config read by default (`--max-size` changes it): Kubernetes stores at most 1 MiB in a ConfigMap."""
_CONFIG_LIMIT: ContextVar[int] = ContextVar("config_limit", default=MAX_CONFIG_BYTES)
RECURSION_LIMIT = 20_000
"""Python's recursion limit while yk runs: the decoder, checks, dry run and renderers walk a queue tree recursively,
a few frames per level, so a tree at MAX_DEPTH needs more than Python's default 1,000 (Python-to-Python calls use
no C stack since 3.11, so this is safe)."""
if sys.getrecursionlimit() < RECURSION_LIMIT:
    sys.setrecursionlimit(RECURSION_LIMIT)

Position = Callable[[int, int], tuple[int, int]]
"""Maps a 0-based (line, column) of the parsed text to a 1-based (line, column) of the file shown to the user."""


def identity_position(line: int, column: int) -> tuple[int, int]:
    """Positions of a text that is the file itself."""
    return line + 1, column + 1


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while large, all-alive structures are built (about 3x faster).

    Nothing yk builds is cyclic garbage, so loaders and commands that make many values run inside it. On the way
    out, what was made is moved to the oldest generation (freeze, then unfreeze): otherwise the first collection
    after the pause would scan all of it as young objects (0.25 s after a 100,000-ask workload).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.freeze()
            gc.unfreeze()
            gc.enable()


class InputError(Exception):
    """An input that cannot be read at all (missing, a directory, too large): a usage-level failure."""


class InputTooLarge(InputError):
    """An input over its size limit, refused before it is read: `size` is None when unknown (standard input)."""

    def __init__(self, name: str, size: int | None, limit: int) -> None:
        super().__init__(f"{name}: {size if size is not None else 'more than ' + str(limit)} bytes is too large")
        self.size = size
        self.limit = limit


def config_limit() -> int:
    """The largest queue config yk reads now (MAX_CONFIG_BYTES unless `--max-size` said otherwise)."""
    return _CONFIG_LIMIT.get()


@contextmanager
def config_limit_set(limit: int | None) -> Iterator[None]:
    """Read queue configs up to `limit` bytes inside the block (None: the default)."""
    token = _CONFIG_LIMIT.set(limit if limit is not None else MAX_CONFIG_BYTES)
    try:
        yield
    finally:
        _CONFIG_LIMIT.reset(token)


def format_size(size: int) -> str:
    """A byte count for people: `4 MiB`, `1.5 MiB`, `512 KiB`, `900 bytes`."""
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= scale:
            value = size / scale
            return f"{value:.0f} {unit}" if value == int(value) else f"{value:.1f} {unit}"
    return f"{size} bytes"


_SIZE_UNITS = {"": 1, "b": 1, "k": 1000, "kb": 1000, "m": 10**6, "mb": 10**6, "g": 10**9, "gb": 10**9}
_SIZE_UNITS |= {"ki": 1 << 10, "kib": 1 << 10, "mi": 1 << 20, "mib": 1 << 20, "gi": 1 << 30, "gib": 1 << 30}


def parse_size(text: str) -> int | None:
    """`--max-size` text as bytes (`16MiB`, `16Mi`, `20M`, `5000000`), or None when it is not a size."""
    number = text.strip().rstrip("bBiIkKmMgG ")
    unit = text.strip()[len(number) :].strip().lower()
    if not number.isdigit() or unit not in _SIZE_UNITS:
        return None
    return int(number) * _SIZE_UNITS[unit]


@dataclass(slots=True)
class ParsedText:
    """The documents of one YAML text and the syntax-level problems met while parsing it."""

    documents: list[Node] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


YAML_SUFFIXES = (".yaml", ".yml")


MAX_WALK_ENTRIES = 10_000
"""How many files and folders yk looks at below one directory input before it gives up (a config or dump directory
holds a few files; a walk of `/` or a home folder would take minutes and read what it should not)."""


def yaml_files_below(name: str, limit: int = MAX_WALK_ENTRIES) -> list[str]:
    """The *.yaml and *.yml files below a directory, in path order. Hidden folders are pruned before descending
    (hidden files left out), symbolic links to folders are not followed, and the walk stops with InputError after
    `limit` entries or when it finds no YAML file."""
    found: list[str] = []
    pending = [name]
    seen = 0
    while pending:
        folder = pending.pop()
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    seen += 1
                    if seen > limit:
                        raise InputError(
                            f"{name}: more than {limit:,} files and folders below this directory: yk reads a "
                            "directory of a few files; name the files instead"
                        )
                    if entry.name.startswith("."):
                        continue
                    if entry.is_dir(follow_symlinks=False):
                        pending.append(entry.path)
                    elif entry.name.endswith(YAML_SUFFIXES) and entry.is_file():
                        found.append(entry.path)
        except OSError as err:
            raise InputError(f"{folder}: cannot read: {err.strerror or err}") from err
    if not found:
        raise InputError(f"{name}: no *.yaml or *.yml files in this directory")
    return sorted(str(PurePath(file)) for file in found)  # as pathlib names them: `./d/a.yaml` is `d/a.yaml`


def expand_inputs(names: list[str] | tuple[str, ...], unwalked: dict[str, str] | None = None) -> list[str]:
    """The inputs with every directory replaced by the YAML files below it (yaml_files_below); a directory that
    cannot be walked stays as it is, and unwalked (when given) gets its name -> why."""
    out: list[str] = []
    for name in names:
        if name == "-" or not os.path.isdir(name):
            out.append(name)
            continue
        try:
            out.extend(yaml_files_below(name))
        except InputError as err:
            out.append(name)
            if unwalked is not None:
                unwalked[name] = str(err)
    return out


def input_limit() -> int:
    """The largest workload or cluster dump yk reads now: MAX_BYTES, or `--max-size` when that is larger."""
    return max(MAX_BYTES, config_limit())


def read_input(name: str, stdin: bytes | None = None, limit: int | None = None) -> bytes:
    """Read a file (or '-' for standard input) as bytes, or raise InputError with a clear message. With a limit, a
    larger input raises InputTooLarge without being read (standard input: after limit + 1 bytes)."""
    if limit is not None:
        return _read_limited(name, stdin, limit)
    most = input_limit()
    if name == "-":
        data = stdin if stdin is not None else sys.stdin.buffer.read(most + 1)
        if len(data) > most:
            raise InputError(
                f"{STDIN}: standard input is more than the {format_size(most)} yk reads from a workload or cluster "
                "dump (--max-size raises it)"
            )
        return data
    path = FsPath(name)
    if not path.exists():
        raise InputError(f"{name}: no such file")
    if path.is_dir():
        raise InputError(f"{name}: is a directory, not a file")
    try:
        size = path.stat().st_size
        if size > most:
            raise InputError(
                f"{name}: {size:,} bytes ({format_size(size)}) is more than the {format_size(most)} yk reads from a "
                "workload or cluster dump (--max-size raises it)"
            )
        return path.read_bytes()
    except OSError as err:
        raise InputError(f"{name}: cannot read: {err.strerror or err}") from err


STDIN = "<stdin>"
"""How problems and reports name standard input ('-' on the command line)."""


def shown_name(name: str) -> str:
    """An input's name as problems and reports show it: the path, or <stdin> for '-'."""
    return STDIN if name == "-" else name


def _read_limited(name: str, stdin: bytes | None, limit: int) -> bytes:
    display = shown_name(name)
    if name == "-":
        data = stdin if stdin is not None else sys.stdin.buffer.read(limit + 1)
        if len(data) > limit:
            raise InputTooLarge(display, len(data) if stdin is not None else None, limit)
        return data
    path = FsPath(name)
    if path.is_file():
        with contextlib.suppress(OSError):
            size = path.stat().st_size
            if size > limit:
                raise InputTooLarge(display, size, limit)
    data = read_input(name)
    if len(data) > limit:  # a pipe or a device: its size shows only once read
        raise InputTooLarge(display, len(data), limit)
    return data


def syntax_problem(message: str, line: int, column: int, hint: str = "") -> Problem:
    """A YAML syntax problem at a 1-based position."""
    return Problem(
        rule=YAML_SYNTAX.id,
        level=Level.ERROR,
        message=message,
        hint=hint,
        span=Span(line, column, line, column + 1),
    )


def decode_text(data: bytes) -> tuple[str | None, Problem | None]:
    """UTF-8 text of the bytes (a BOM is dropped), or a problem at the first byte that is not UTF-8 or is NUL."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        return None, syntax_problem(
            f"invalid UTF-8 byte 0x{data[err.start]:02x}: YuniKorn reads queue configs as UTF-8 text",
            line,
            column,
            "is this a binary file? Save the config as UTF-8.",
        )
    nul = text.find("\x00")
    if nul >= 0:
        line = text.count("\n", 0, nul) + 1
        column = nul - (text.rfind("\n", 0, nul) + 1) + 1
        return None, syntax_problem("NUL character in the file: this is not YAML text", line, column)
    return text, None


def parse_yaml(text: str, position: Position = identity_position) -> ParsedText:
    """Compose every document of a YAML text into Nodes (load.yamlreader); a syntax error becomes a problem, never an
    exception."""

    def span_of(start: tuple[int, int], end: tuple[int, int]) -> Span:
        line, column = position(*start)
        end_line, end_column = position(*end)
        if (end_line, end_column) <= (line, column):
            end_line, end_column = line, column + 1
        return Span(line, column, end_line, end_column)

    documents, errors = read_nodes(text, None if position is identity_position else span_of)
    result = ParsedText(documents=documents)
    for error in errors:
        if error.span is not None:
            result.problems.append(syntax_problem(error.message, error.span.line, error.span.column, error.hint))
        else:
            result.problems.append(syntax_problem(error.message, *position(*error.mark), error.hint))
    return result


def read_small_text(name: str, limit: int) -> str:
    """The text of a small input ('-' for standard input): InputError as `file: message` when it cannot be read, or
    `file:line:col: message` when it is not UTF-8 text."""
    data = read_input(name, limit=limit)
    text, problem = decode_text(data)
    if text is None:
        assert problem is not None
        span = problem.span
        where = f"{span.line}:{span.column}" if span is not None else "1:1"
        raise InputError(f"{shown_name(name)}:{where}: {problem.message}")
    return text
