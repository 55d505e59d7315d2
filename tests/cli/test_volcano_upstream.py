"""Volcano's own unit-test tables, transcribed (tests/data/volcano/upstream), run through `yk volcano simulate`: the
exact binds, evictions, pipelined jobs and PodGroup phases each Go case asserts."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from tests.helpers.paths import ROOT
from tests.helpers.volcano_upstream import UPSTREAM, Case, load_cases, mismatches, outcome, write_inputs
from yk_cli.core.volcano.simulate import simulate
from yk_cli.load.volcano import load_volcano
from yk_cli.report.volcano_sim_json import render_json

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
    if "refusedBy" in case.data:
        # an input the API server's webhooks would refuse (yk's lint error stops the CLI, exit 1); the engine's own
        # session shows what Volcano does with it when it gets into the cache anyway, as the Go test puts it there
        assert result.exit_code == 1 and result.stdout == ""
        assert f"[error] {case.data['refusedBy']}" in result.stderr or case.data["refusedBy"] in result.stderr
        inputs = load_volcano([str(dump)], str(conf))
        data = json.loads(render_json(simulate(inputs.cluster, inputs.conf.effective), inputs.conf_source))
    else:
        assert result.exit_code == 0, result.stderr
        data = json.loads(result.stdout)
    jsonschema.validate(data, SCHEMA)
    assert mismatches(case.data.get("expect", {}), outcome(data)) == []


def test_the_readme_lists_every_skipped_case() -> None:
    """tests/data/volcano/upstream/README.md names each case that cannot apply to a dry run, with its test."""
    readme = (UPSTREAM / "README.md").read_text(encoding="utf-8")
    missing = [case.id for case in CASES if "skip" in case.data
               and f'* {case.data["test"]} "{case.data["name"]}":' not in readme]
    assert missing == []
