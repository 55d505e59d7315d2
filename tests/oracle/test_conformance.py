"""What the real YuniKorn core did: every conformance case (tests/data/conformance) without preemption, run in-process.

The comparison is check.py's own (tests/data/conformance/check.py, imported): allocations in order with their nodes,
victims before an allocation as a set, and the pending set. All 125 cases must agree: the 50 under simulate/,
the 45 under preempt/ in which the core preempted nothing and the 30 in which it did.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.conftest import CONFORMANCE
from yk_cli.commands.run_options import options_from
from yk_cli.commands.simulate import simulation_report


def _check_module() -> ModuleType:
    """The conformance check.py as a module."""
    path = CONFORMANCE / "check.py"
    spec = importlib.util.spec_from_file_location("yk_conformance_check", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CHECK = _check_module()


def _preempts(case: Path) -> bool:
    """Whether the real core preempted anything in this case."""
    events = json.loads((case / "expected.json").read_text(encoding="utf-8"))["events"]
    return any(event["type"] == "preempt" for event in events)


def _cases(kind: str, *, preempting: bool | None = None) -> list[Path]:
    folder = CONFORMANCE / kind
    cases = sorted(path for path in folder.iterdir() if (path / "expected.json").is_file())
    return [case for case in cases if preempting is None or _preempts(case) == preempting]


SIMULATE = _cases("simulate")
PREEMPT_FREE = _cases("preempt", preempting=False)
PREEMPTING = _cases("preempt", preempting=True)


def observed(case: Path, version: str = "1.8") -> tuple[list[tuple[Any, ...]], list[str]]:
    """check.py's `observed`, in-process: `yk simulate queues.yaml workload.yaml --until 0s --format json` (check.py
    runs yk's default version, 1.8; the core that made the cases is the later one yk calls 1.9)."""
    report = simulation_report(
        str(case / "queues.yaml"), str(case / "workload.yaml"), "json", options_from("0s", None, version)
    )
    text = "".join(report)
    data = json.loads(text)
    seq: list[tuple[Any, ...]] = []
    for event in data.get("events", []):
        if event.get("type") == "allocate":
            seq.append(("allocate", event.get("ask"), event.get("node")))
        elif event.get("type") == "preempt":
            seq.extend(("preempt", victim.get("allocation")) for victim in event.get("victims", []))
    return seq, sorted(pending.get("ask") for pending in data.get("pending", []))


def agree(case: Path, version: str = "1.8") -> None:
    """Assert yk's trace equals the real core's, exactly as check.py compares them."""
    want_seq, want_pending = CHECK.expected(str(case))
    got_seq, got_pending = observed(case, version)
    assert CHECK.grouped(got_seq) == CHECK.grouped(want_seq), f"{case.name}: allocation order differs from the core"
    assert got_pending == want_pending, f"{case.name}: pending set differs from the core"


@pytest.mark.parametrize("case", SIMULATE, ids=lambda case: case.name)
def test_simulate_case(case: Path) -> None:
    agree(case)


@pytest.mark.parametrize("case", PREEMPT_FREE, ids=lambda case: case.name)
def test_preempt_case_without_preemption(case: Path) -> None:
    agree(case)


@pytest.mark.parametrize("case", PREEMPTING, ids=lambda case: case.name)
def test_preempt_case_with_preemption(case: Path) -> None:
    agree(case)
    agree(case, "1.9")  # the core the cases came from: with the max fence of YUNIKORN-3241
    seq, _ = observed(case)
    assert any(event[0] == "preempt" for event in seq), f"{case.name}: yk preempted nothing"


def test_the_case_sets_are_the_documented_ones() -> None:
    """The README promises 50 simulate cases and 75 preempt cases of which 30 preempt."""
    assert len(SIMULATE) == 50
    assert len(_cases("preempt")) == 75
    assert len(_cases("preempt", preempting=True)) == 30
    assert len(PREEMPT_FREE) == 45
