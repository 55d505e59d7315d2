"""The bundled samples: valid ones are clean, each invalid one shows exactly the problems its header promises."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import ROOT, SAMPLES
from yk_cli.core.diagnostics import Problem
from yk_cli.core.lint.catalogue import all_rules
from yk_cli.load.config import load_config
from yk_cli.load.inputs import lint_workload

VALID = sorted((SAMPLES / "queues").glob("*.yaml"))
INVALID = sorted((SAMPLES / "queues" / "invalid").glob("*.yaml"))
WORKLOADS = sorted((SAMPLES / "workloads").glob("*.yaml"))
INVALID_WORKLOADS = sorted((SAMPLES / "workloads" / "invalid").glob("*.yaml"))
INVALID_CLUSTERS = sorted((SAMPLES / "cluster" / "invalid").glob("*.yaml"))
"""Checked by tests/load/test_cluster_samples.py; counted here so one test covers every rule."""
CONFIG = re.compile(r"^# config: (?P<path>\S+)$", re.M)
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


def workload_problems(path: Path) -> list[Problem]:
    """A workload's problems against the queue config its `# config:` header names (default: the tenant sample)."""
    header = CONFIG.search(path.read_text())
    config = load_config(str(ROOT / (header["path"] if header else "samples/queues/tenants.yaml")))
    assert config.problems == []
    problems: list[Problem] = []
    assert lint_workload(str(path), config, None, problems, {}, []) is None
    return problems


@pytest.mark.parametrize("path", WORKLOADS, ids=lambda p: p.name)
def test_valid_workload_sample_has_no_problems(path: Path) -> None:
    assert workload_problems(path) == []


@pytest.mark.parametrize("path", INVALID_WORKLOADS, ids=lambda p: p.name)
def test_invalid_workload_sample_reports_what_it_promises(path: Path) -> None:
    expected = expectations(path)
    found = [(p.rule, p.span.line, p.span.column) for p in workload_problems(path) if p.span]
    assert found == expected


TOO_BIG_FOR_A_SAMPLE = {"config-too-large", "workload-too-many-asks"}
"""Rules whose sample would be a 2 MiB file or a million asks: tests/cli/test_bad_input.py makes them instead."""
IMPORTED = {"import-bad-row", "import-bad-pod"}
"""Rules of `yk import`'s inputs: their samples are tests/data/import/*_bad.* (tests/cli/test_import_cli.py)."""


def test_every_rule_has_an_invalid_sample() -> None:
    samples = [*INVALID, *INVALID_WORKLOADS, *INVALID_CLUSTERS]
    covered = {rule for path in samples for rule, _, _ in expectations(path)} | TOO_BIG_FOR_A_SAMPLE | IMPORTED
    missing = sorted(set(all_rules()) - covered)
    assert not missing, f"rules without an invalid sample (samples/{{queues,workloads,cluster}}/invalid/): {missing}"
