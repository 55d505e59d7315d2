"""`yk schema`: print a JSON Schema: queues.yaml, the workload file or the simulate trace (for editors, validators)."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

from yk_cli.commands.console import fail_usage, write_stdout
from yk_cli.commands.declare import argument

SUFFIX = ".schema.json"
"""Schemas ship in yk_cli/data as <name>.schema.json; the canonical copies live in schemas/."""


def schema_names() -> list[str]:
    """The names of the shipped schemas, queues first."""
    data = resources.files("yk_cli").joinpath("data")
    names = sorted(item.name.removesuffix(SUFFIX) for item in data.iterdir() if item.name.endswith(SUFFIX))
    return sorted(names, key=lambda name: name != "queues")


def schema_text(name: str = "queues") -> str:
    """The text of a shipped schema."""
    return resources.files("yk_cli").joinpath("data", f"{name}{SUFFIX}").read_text(encoding="utf-8")


@dataclass(frozen=True, slots=True)
class SchemaArgs:
    """`yk schema`'s argument."""

    name: str = argument(
        "NAME",
        "Which schema: queues (the default), workload, trace (`yk simulate --format json`), metrics (`yk simulate "
        "--metrics --format json`), sweep (`yk sweep` and `yk tune` specs), tune (`yk tune --format json`), "
        "project (.yk.yaml), "
        "policy (`yk check`), diff (`yk diff --format json`), volcano-simulate (`yk volcano simulate --format "
        "json`) or volcano-explain (`yk volcano explain --format json`).",
        "queues",
    )


HELP = """Print a JSON Schema (queues.yaml by default); point yaml-language-server at it for checks in the editor.

Example: yk schema workload > workload.schema.json"""


def schema(args: SchemaArgs) -> None:
    """`yk schema`: print the named schema."""
    name = args.name

    names = schema_names()
    if name not in names:
        raise fail_usage(f"unknown schema {name!r}; choose one of {', '.join(names)}")
    write_stdout((schema_text(name),))
