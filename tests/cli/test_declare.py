"""commands.declare: one declaration gives the fast path's parser and typer's command the same arguments."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import pytest

from yk_cli.commands.declare import argument, option, parse_plain
from yk_cli.commands.validate import ValidateArgs


@dataclass(frozen=True, slots=True)
class Example:
    """A declaration with every kind of field."""

    first: str = argument("FIRST", "A required argument.", required=True)
    second: Optional[str] = argument("SECOND", "An optional one.")
    fmt: str = option("--format", "-f", metavar="FORMAT", help="A value.", default="text")
    steps: Optional[int] = option("--steps", metavar="N", help="A number.")
    quiet: bool = option("--quiet", "-q", help="A flag.", default=False)
    strict: Optional[bool] = option("--strict/--no-strict", help="A switch.")
    names: Optional[list[str]] = option("--name", metavar="NAME", help="Repeatable: typer's.", fast=False)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["a"], Example("a")),
        (["a", "b", "-f", "json", "--steps=3", "-q"], Example("a", "b", "json", 3, True)),
        (["--strict", "a"], Example("a", strict=True)),
        (["a", "--no-strict"], Example("a", strict=False)),
        (["--", "-a"], Example("-a")),
    ],
)
def test_plain_command_lines_give_the_declared_value(args: list[str], expected: Example) -> None:
    assert parse_plain(Example, args) == expected


@pytest.mark.parametrize(
    "args",
    [
        [],  # FIRST missing: typer's usage error
        ["a", "b", "c"],  # more arguments than declared
        ["a", "--steps", "x"],  # not a number: typer's message
        ["a", "--name", "n"],  # a field typer parses
        ["a", "--help"],
        ["a", "--unknown"],
        ["a", "-qf", "json"],  # bundled short options
    ],
)
def test_what_typer_must_parse_is_left_to_it(args: list[str]) -> None:
    assert parse_plain(Example, args) is None


def test_a_list_argument_takes_every_positional() -> None:
    parsed = parse_plain(ValidateArgs, ["a.yaml", "b.yaml", "--strict"])
    assert parsed == ValidateArgs(files=["a.yaml", "b.yaml"], strict=True)


def test_typer_shows_the_declared_options(run_yk) -> None:
    shown = run_yk("validate", "--help").stdout
    for flag in ("--format", "--workload", "--cluster", "--strict", "--no-strict", "--partition", "--max-size"):
        assert flag in shown
