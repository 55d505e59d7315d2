"""Volcano's own unit-test tables, transcribed (tests/data/volcano/upstream), run through `yk volcano simulate`: the
exact binds, evictions, pipelined jobs and PodGroup phases each Go case asserts."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from tests.helpers.paths import ROOT
from tests.helpers.volcano_upstream import Case, load_cases, mismatches, outcome, write_inputs

SCHEMA = json.loads((ROOT / "schemas" / "volcano-simulate.schema.json").read_text())
CASES = load_cases()


def _param(case: Case) -> object:
    marks = []
    if "skip" in case.data:
        marks.append(pytest.mark.skip(reason=case.data["skip"]))
    elif "xfail" in case.data:
        marks.append(pytest.mark.xfail(reason=case.data["xfail"], strict=True))
    return pytest.param(case, id=case.id, marks=marks)


def test_case_names_are_unique_and_sourced() -> None:
    ids = [case.id for case in CASES]
    assert len(ids) == len(set(ids))
    for case in CASES:
        assert case.source.startswith("pkg/scheduler/") and case.source.endswith("_test.go"), case.id
        assert len(case.commit) == 40, case.id


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_upstream_case(run_yk, tmp_path: Path, case: Case) -> None:
    dump, conf = write_inputs(case.data, tmp_path)
    result = run_yk("volcano", "simulate", str(dump), "--conf", str(conf), "--format", "json", "-q")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    jsonschema.validate(data, SCHEMA)
    assert mismatches(case.data.get("expect", {}), outcome(data)) == []
