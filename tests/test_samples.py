"""The bundled samples: valid ones are clean, each invalid one shows exactly the problems its header promises."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from yk_cli.core.rules import all_rules
from yk_cli.load.config import load_config

VALID = sorted((SAMPLES / "queues").glob("*.yaml"))
INVALID = sorted((SAMPLES / "queues" / "invalid").glob("*.yaml"))
EXPECT = re.compile(r"^# expect: (?P<rule>[a-z0-9-]+) (?P<line>\d+):(?P<column>\d+)$", re.M)


def expectations(path: Path) -> list[tuple[str, int, int]]:
    """The `# expect: rule line:col` header lines of an invalid sample."""
    return [(m["rule"], int(m["line"]), int(m["column"])) for m in EXPECT.finditer(path.read_text())]


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_valid_sample_has_no_problems(path: Path) -> None:
    result = load_config(str(path))
    assert result.problems == []
    assert result.configs and all(c.decoded for c in result.configs)


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.name)
def test_invalid_sample_reports_what_it_promises(path: Path) -> None:
    expected = expectations(path)
    assert expected, f"{path.name} has no '# expect: rule line:col' header"
    found = {(p.rule, p.span.line, p.span.column) for p in load_config(str(path)).problems if p.span}
    for item in expected:
        assert item in found, f"{path.name}: expected {item}, found {sorted(found)}"
    assert {rule for rule, _, _ in found} <= {rule for rule, _, _ in expected}, sorted(found)


def test_every_rule_has_an_invalid_sample() -> None:
    covered = {rule for path in INVALID for rule, _, _ in expectations(path)}
    missing = sorted(set(all_rules()) - covered)
    assert not missing, f"rules without a sample in samples/queues/invalid/: {missing}"
