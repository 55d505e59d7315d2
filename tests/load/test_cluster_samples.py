"""The bundled cluster dumps: dump.yaml is clean, each invalid one shows exactly the problems its header promises.

Header lines are `# expect: <rule> <line>:<col>`; every problem load_cluster reports has a position.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from yk_cli.load.kubernetes import load_cluster

DUMP = SAMPLES / "cluster" / "dump.yaml"
INVALID = sorted((SAMPLES / "cluster" / "invalid").glob("*.yaml"))
EXPECT = re.compile(r"^# expect: (?P<rule>[a-z0-9-]+) (?P<line>\d+):(?P<column>\d+)$", re.M)

Expectation = tuple[str, int, int]


def expectations(path: Path) -> list[Expectation]:
    """The `# expect: rule line:col` header lines of an invalid sample."""
    return [(m["rule"], int(m["line"]), int(m["column"])) for m in EXPECT.finditer(path.read_text())]


def reported(path: Path) -> set[Expectation]:
    _, _, problems = load_cluster(str(path))
    assert all(p.span is not None for p in problems), problems
    return {(p.rule, p.span.line, p.span.column) for p in problems if p.span is not None}


def test_sample_dump_has_no_problems() -> None:
    workload, queues_yaml, problems = load_cluster(str(DUMP))
    assert problems == []
    assert workload.nodes and workload.applications and queues_yaml


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.stem)
def test_invalid_sample_reports_what_it_promises(path: Path) -> None:
    expected = expectations(path)
    assert expected, f"{path.name} has no '# expect: rule line:col' header"
    found = reported(path)
    for item in expected:
        assert item in found, f"{path.name}: expected {item}, found {sorted(found, key=str)}"
    assert {rule for rule, _, _ in found} <= {rule for rule, _, _ in expected}, sorted(found, key=str)


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.stem)
def test_invalid_sample_is_named_after_its_rule(path: Path) -> None:
    assert path.stem in {rule for rule, _, _ in expectations(path)}
