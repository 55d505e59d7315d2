"""A command's arguments and options declared once, as the fields of one frozen dataclass: typer's command is
made from it (commands.application.register) and so is the fast path's parser (parse_plain), without typer.

    @dataclass(frozen=True, slots=True)
    class TreeArgs:
        config: Optional[str] = argument("CONFIG", "Queue config ...")
        fmt: str = option("--format", "-f", metavar="FORMAT", help="text, json ...", default="text")

A field's type is typer's (Optional[str], bool, Optional[int], Optional[list[str]]); a bool field with one flag is a
flag, with "--x/--no-x" a switch (Optional[bool]: None when neither is given). Fields marked fast=False are left to
typer: a command line that uses them never takes the fast path.
"""

from __future__ import annotations

import typing
from collections.abc import Sequence
from dataclasses import MISSING, Field, dataclass, field, fields
from typing import Any, TypeVar, cast

from yk_cli.commands.console import plain_arguments

T = TypeVar("T")

META = "yk"
"""The key of a field's Param in its dataclass metadata."""


@dataclass(frozen=True, slots=True)
class Param:
    """How one field is given on the command line: flags (none for a positional argument), metavar and help."""

    flags: tuple[str, ...]
    metavar: str
    help: str
    fast: bool = True
    """Whether the fast path parses it."""
    show_default: bool = True


def argument(
    metavar: str, help: str, default: Any = None, *, required: bool = False, show_default: bool = True
) -> Any:
    """A positional argument (a list-typed field takes every remaining one); a required one has no default."""
    param = Param((), metavar, help, show_default=show_default)
    if required:
        return field(metadata={META: param})
    return field(default=default, metadata={META: param})


def option(
    *flags: str, metavar: str = "", help: str = "", default: Any = None, fast: bool = True, show_default: bool = True
) -> Any:
    """An option: `--name VALUE`, a flag (bool), or a switch (`--x/--no-x`)."""
    return field(default=default, metadata={META: Param(flags, metavar, help, fast, show_default)})


def declared(cls: type) -> list[tuple[Field[Any], Param, Any]]:
    """Each field of a declaration with its Param and resolved type, in declaration order."""
    hints = typing.get_type_hints(cls)
    return [(f, f.metadata[META], hints[f.name]) for f in fields(cls)]


def _is(kind: Any, wanted: type) -> bool:
    """Whether a field type is `wanted` or Optional[wanted] (list[...] counts as list)."""
    args = (
        [a for a in typing.get_args(kind) if a is not type(None)] if typing.get_origin(kind) is typing.Union else [kind]
    )
    return any(a is wanted or typing.get_origin(a) is wanted for a in args)


def parse_plain(cls: type[T], args: Sequence[str]) -> T | None:
    """The declaration's value for a plain command line (`--opt value`, `--opt=value`, flags, switches,
    positionals), or None for anything typer must parse: help, an unknown or non-fast option, a missing value, more
    positionals than declared, a number that is not one."""
    values: dict[str, str] = {}
    flags: dict[str, str] = {}
    positional: list[tuple[str, bool]] = []
    for f, param, kind in declared(cls):
        if not param.flags:
            positional.append((f.name, _is(kind, list)))
        elif not param.fast:
            continue
        elif _is(kind, bool):
            for flag in param.flags:
                on, _, off = flag.partition("/")
                flags[on] = f.name
                if off:
                    flags[off] = "!" + f.name
        else:
            values.update({flag: f.name for flag in param.flags})
    parsed = plain_arguments(args, values, flags)
    if parsed is None:
        return None
    given, options = parsed
    out: dict[str, Any] = {}
    for key, value in options.items():
        if key.startswith("!"):
            out[key[1:]] = False
        else:
            out[key] = value
    for f, _param, kind in declared(cls):
        number = out.get(f.name)
        if isinstance(number, str) and _is(kind, int):
            if not (number.isascii() and number.isdigit()):
                return None  # typer's own message for a bad number, its usage error for a negative one
            out[f.name] = int(number)
    for name, many in positional:
        if many:
            out[name], given = list(given), []
        elif given:
            out[name], given = given[0], given[1:]
    if given or any(f.default is MISSING and f.name not in out for f in fields(cast(Any, cls))):
        return None  # more arguments than declared, or a required one missing: typer's usage error
    return cls(**out)


def required(f: Field[Any]) -> bool:
    """Whether a declared field must be given (a required argument: it has no default)."""
    return f.default is MISSING


# --- options several commands share, declared once (options.py gives them to typer-declared commands) ----------

MAX_SIZE_HELP = (
    "Largest queue config read (default 2MiB; Kubernetes stores at most 1 MiB in a ConfigMap), e.g. 16MiB; a "
    "workload or cluster dump is read up to 64MiB or this, a state dump (--state) up to 256MiB or this, the larger."
)
CONFIG_HELP = "Project config to use instead of the .yk.yaml found in the working directory or a folder above it."
NO_CONFIG_HELP = "Use no project config (.yk.yaml) at all."

MAX_SIZE = Param(("--max-size",), "SIZE", MAX_SIZE_HELP)
QUIET = Param(("--quiet", "-q"), "", "No summary line for warnings on standard error.")
PROJECT_CONFIG = Param(("--config",), "FILE", CONFIG_HELP)
NO_CONFIG = Param(("--no-config",), "", NO_CONFIG_HELP)
YUNIKORN_VERSION = Param(
    ("--yunikorn-version",), "VERSION", "YuniKorn to model; 1.5 or older applies stateaware's filter."
)
WORKLOAD_PARTITION = Param(("--partition",), "NAME", "The partition (default: the workload's `partition`).")
CI_FORMAT = Param(
    ("--format", "-f"), "FORMAT", "text, json, github or sarif (github is the default under GitHub Actions)."
)
CLUSTER = Param(
    ("--cluster",),
    "DUMP",
    "A `kubectl get nodes,pods,priorityclasses -A -o yaml` dump ('-' for stdin) as the workload. Its "
    "yunikorn-configs queues.yaml is the queue config (YuniKorn's built-in default without one), unless CONFIG "
    "is given. No WORKLOAD with it.",
)
STATE = Param(
    ("--state",),
    "FILE",
    "A saved YuniKorn state dump (`/debug/fullstatedump`; '-' for stdin): the scheduler's own config, nodes, "
    "running allocations and pending requests, all at once (CONFIG, if given, replaces its config). "
    "See docs/state.md.",
)
YUNIKORN = Param(
    ("--yunikorn",),
    "URL",
    "A running YuniKorn's REST API (e.g. http://yunikorn-service:9080), read live as --state reads a dump; "
    "read-only. Token: $YK_YUNIKORN_TOKEN.",
)
WORKLOAD = Param(
    ("--workload", "-w"), "PATH", "Workload file: nodes, applications, asks; '-' for stdin (or give it as WORKLOAD)."
)
VOLCANO_CONF = Param(
    ("--conf",),
    "FILE",
    "volcano-scheduler.conf (or its ConfigMap); default: the dump's volcano-scheduler-configmap, else Volcano's "
    "built-in default.",
)


def shared(param: Param, default: Any = None) -> Any:
    """A field declared by one of the shared Params above."""
    return field(default=default, metadata={META: param})
