"""The conformance comparison (tests/data/conformance/check.py, imported): yk's trace in-process against what the real
core did, exactly as check.py compares them."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

from tests.helpers.paths import CONFORMANCE
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
