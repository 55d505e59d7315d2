"""`yk tree` colours a terminal's output as every other command does: never under NO_COLOR or TERM=dumb."""

from __future__ import annotations

import io
import re
import sys

import pytest

from yk_cli.commands.simulate import SimulateArgs, print_simulation
from yk_cli.commands.tree import TreeArgs, print_tree

ANSI = re.compile(r"\x1b\[[0-9;]*m")
TENANTS = "samples/queues/tenants.yaml"


class _Terminal(io.StringIO):
    """A standard output that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def _tree(monkeypatch: pytest.MonkeyPatch) -> str:
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stdout", terminal)
    print_tree(TreeArgs(TENANTS, workload="samples/workloads/tenants.yaml", no_config=True))
    return terminal.getvalue()


@pytest.fixture
def colour_terminal(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    return monkeypatch


def test_a_terminal_gets_colour(colour_terminal: pytest.MonkeyPatch) -> None:
    assert ANSI.search(_tree(colour_terminal))


@pytest.mark.parametrize(("name", "value"), [("NO_COLOR", "1"), ("TERM", "dumb")])
def test_no_color_and_a_dumb_terminal_get_plain_text(
    colour_terminal: pytest.MonkeyPatch, name: str, value: str
) -> None:
    coloured = _tree(colour_terminal)
    colour_terminal.setenv(name, value)
    plain = _tree(colour_terminal)
    assert "\x1b[" not in plain
    assert plain == ANSI.sub("", coloured)


def test_simulate_timeline_follows_the_same_rule(colour_terminal: pytest.MonkeyPatch) -> None:
    def timeline() -> str:
        terminal = _Terminal()
        colour_terminal.setattr(sys, "stdout", terminal)
        print_simulation(SimulateArgs(timeline="queue", no_config=True))
        return terminal.getvalue()

    assert ANSI.search(timeline())
    colour_terminal.setenv("TERM", "dumb")
    assert "\x1b[" not in timeline()
