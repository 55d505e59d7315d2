"""A YuniKorn state dump (a saved `/debug/fullstatedump`, or one read live over the REST API) -> yk's checked inputs:
the scheduler config checked as `yk validate` checks a file, the workload built by the workload loader, every
problem located by a JSON pointer into the dump (`dump.json#/config/Partitions/0/Queues/1/Properties`).

The dump is read whole (json), up to a size limit (--max-size; MAX_STATE_BYTES by default): a dump of 100 MB takes
about ten times that in memory while it is converted.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path as FsPath
from typing import Any

from yk_cli.core.diagnostics import Level, Path, Problem
from yk_cli.core.lint.loader_rules import UNKNOWN_FIELD
from yk_cli.core.state.config import pointer_of
from yk_cli.core.state.convert import StateDocuments, convert_state
from yk_cli.core.state.dump import StateError, kind
from yk_cli.load.config import LoadResult, load_config
from yk_cli.load.source import (
    InputError,
    collector_paused,
    config_limit,
    config_limit_set,
    format_size,
    shown_name,
)
from yk_cli.load.workload import LoadedWorkload, build_workload

MAX_STATE_BYTES = 256 * 1024 * 1024
"""Largest state dump read (a dump of 1,000 nodes and 10,000 requests is about 4 MB)."""
POINTER_NOTE = "positions in {file} are JSON pointers (RFC 6901) into the dump"


@dataclass(slots=True)
class LoadedState:
    """A state dump as yk's inputs: the documents, the config and workload loaded from them, located problems."""

    file: str
    documents: StateDocuments
    config: LoadResult
    """The scheduler config, checked; its problems located by JSON pointer."""
    workload: LoadedWorkload
    """The workload (problems against the queue tree are added by the input pipeline)."""
    notes: list[str] = field(default_factory=list)

    def locate_config(self, path: Path) -> str:
        """`dump.json#/config/...` of a queue config document path."""
        return f"{self.file}#{pointer_of(self.documents.config_pointers, path)}"

    def locate_workload(self, problems: list[Problem]) -> list[Problem]:
        """Workload problems located by the JSON pointer of what they came from."""
        pointers = self.documents.workload_pointers
        return [replace(p, file=f"{self.file}#{pointer_of(pointers, p.path)}", span=None) for p in problems]


def scheduler_state(state: str | None, yunikorn: str | None, partition: str | None = None) -> LoadedState:
    """The scheduler's state from a saved dump (`state`) or read live from its REST API (`yunikorn`), up to
    max(MAX_STATE_BYTES, --max-size). Raises InputError (RestError for the REST API)."""
    limit = max(MAX_STATE_BYTES, config_limit())
    if state is not None:
        return read_state(state, partition, limit)
    from yk_cli.load.yunikorn_rest import fetch_state

    assert yunikorn is not None
    fetched = fetch_state(yunikorn, limit=limit)
    loaded = state_from_json(fetched.data, fetched.source, partition)
    loaded.notes[:0] = fetched.notes
    return loaded


def read_state(name: str, partition: str | None = None, limit: int | None = None) -> LoadedState:
    """Read a saved state dump ('-' for standard input). Raises InputError when it cannot be read or is not one."""
    return state_from_bytes(_read_dump(name, limit or MAX_STATE_BYTES), shown_name(name), partition)


def _read_dump(name: str, limit: int) -> bytes:
    """A dump's bytes, up to `limit` (a state dump may be larger than the other inputs yk reads)."""
    shown = shown_name(name)
    too_large = (
        f"{shown}: {{size}} is more than the {format_size(limit)} yk reads from a state dump; "
        f"give --max-size {format_size(limit * 2).replace(' ', '')} (or more) to read it"
    )
    if name == "-":
        data = sys.stdin.buffer.read(limit + 1)
        if len(data) > limit:
            raise InputError(too_large.format(size="standard input"))
        return data
    path = FsPath(name)
    if not path.exists():
        raise InputError(f"{name}: no such file")
    if path.is_dir():
        raise InputError(f"{name}: is a directory, not a file")
    try:
        with path.open("rb") as handle:
            data = handle.read(limit + 1)
    except OSError as err:
        raise InputError(f"{name}: cannot read: {err.strerror or err}") from err
    if len(data) > limit:
        size = path.stat().st_size
        raise InputError(too_large.format(size=f"{size:,} bytes ({format_size(size)})"))
    return data


def state_from_bytes(data: bytes, shown: str, partition: str | None = None) -> LoadedState:
    """A state dump's bytes (JSON) as yk's inputs. Raises InputError."""
    if not data.strip():
        raise InputError(f"{shown}: empty: not a state dump")
    try:
        parsed = json.loads(data)
    except UnicodeDecodeError as err:
        raise InputError(f"{shown}: not a state dump: not UTF-8 text (byte {err.start})") from None
    except json.JSONDecodeError as err:
        ending = data.rstrip()[-1:]
        cut = " (truncated?)" if ending not in (b"}", b"]") else ""
        raise InputError(
            f"{shown}: not a state dump: not JSON{cut}: {err.msg} (line {err.lineno}, column {err.colno})"
        ) from None
    del data
    return state_from_json(parsed, shown, partition)


def state_from_json(parsed: Any, shown: str, partition: str | None = None) -> LoadedState:
    """Parsed state dump JSON as yk's inputs. Raises InputError."""
    if not isinstance(parsed, Mapping):
        raise InputError(f"{shown}: not a state dump: a JSON object is expected, found {kind(parsed)}")
    try:
        with collector_paused():  # millions of small values, no cycles: the collector only costs time
            documents = convert_state(parsed, partition)
    except StateError as err:
        raise InputError(f"{shown}#{err}") from None
    text = json.dumps(documents.config, indent=1)  # JSON is YAML: checked by the queue config loader as it is
    with config_limit_set(max(len(text.encode("utf-8")) + 1, 1)):
        config = load_config("-", stdin=text.encode("utf-8"))
    pointers = documents.config_pointers
    config.file = shown
    config.problems = [
        _accepted(replace(p, file=f"{shown}#{pointer_of(pointers, p.path)}", span=None)) for p in config.problems
    ]
    for item in config.configs:
        item.file = shown
    loaded = build_workload(documents.workload, shown)
    loaded.workload = replace(loaded.workload, assumptions=tuple(documents.assumptions))
    state = LoadedState(shown, documents, config, loaded)
    loaded.problems = state.locate_workload(loaded.problems)
    taken = datetime.fromtimestamp(documents.timestamp // 1_000_000_000, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    version = f", YuniKorn {documents.version}" if documents.version else ""
    state.notes.append(f"{shown}: YuniKorn state dump of {taken}{version}, partition {documents.partition}")
    return state


def _accepted(problem: Problem) -> Problem:
    """A problem of the config the scheduler runs with: a field yk does not know is a newer YuniKorn's (the core
    accepted the config), a warning rather than an error that would stop every command."""
    if problem.rule != UNKNOWN_FIELD.id or problem.level != Level.ERROR:
        return problem
    return replace(
        problem,
        level=Level.WARNING,
        hint="the scheduler runs with this config, so this is a field of a YuniKorn newer than yk knows: ignored",
    )
