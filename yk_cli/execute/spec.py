"""Executor strings ("serial", "local", "local:N", "dask-local", "dask-local:N", "dask://HOST:PORT") as values."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

Kind = Literal["serial", "local", "dask-local", "dask"]

DASK_PORT = 8786
"""The Dask scheduler's default port, used when `dask://HOST` names none."""

FORMS = (
    "serial (in this process), local or local:N (N worker processes), dask-local or dask-local:N (a Dask cluster of "
    f"N workers started on 127.0.0.1), dask://HOST:PORT (an existing Dask scheduler; PORT defaults to {DASK_PORT})"
)


@dataclass(frozen=True)
class ExecutorSpec:
    """Where the evaluations run: a kind, its worker count when the string gave one, a Dask scheduler's address."""

    kind: Kind
    workers: int | None = None
    address: str | None = None
    """tcp://HOST:PORT, for kind "dask"."""


def parse_executor(text: str) -> ExecutorSpec:
    """The executor a string names; a ValueError listing the forms for anything else."""
    value = text.strip()
    if value == "serial":
        return ExecutorSpec("serial", 1)
    if value.startswith("dask://"):
        return ExecutorSpec("dask", None, _dask_address(text, value))
    name, sep, count = value.partition(":")
    if name in ("local", "dask-local"):
        kind: Kind = "local" if name == "local" else "dask-local"
        return ExecutorSpec(kind, _count(text, count) if sep else None)
    raise ValueError(f"unknown executor {text!r}: use {FORMS}")


def default_workers(jobs: int | None) -> int:
    """`jobs` when given (at least 1), else the cores this process may run on."""
    if jobs is not None:
        if jobs < 1:
            raise ValueError(f"jobs must be at least 1, not {jobs}")
        return jobs
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # macOS and Windows have no affinity
        return max(1, os.cpu_count() or 1)


def _count(text: str, count: str) -> int:
    if not count.isdigit() or int(count) < 1:
        raise ValueError(f"bad executor {text!r}: the worker count after ':' must be a whole number of at least 1")
    return int(count)


def _dask_address(text: str, value: str) -> str:
    parts = urlsplit(value)
    try:
        port = parts.port
    except ValueError:
        raise ValueError(f"bad executor {text!r}: the port must be a number (dask://HOST:PORT)") from None
    host = parts.hostname
    if not host or parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError(f"bad executor {text!r}: a Dask scheduler is named dask://HOST:PORT")
    shown = f"[{host}]" if ":" in host else host
    return f"tcp://{shown}:{port or DASK_PORT}"
