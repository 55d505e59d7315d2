"""`yk sweep SPEC`: every point run and ranked by the objective (text, JSON, CSV), refused points listed, and
spec problems at their file:line:col."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from tests.conftest import ROOT

CONFIG = ROOT / "samples/workloads/queues/arrivals.yaml"
WORKLOAD = ROOT / "samples/workloads/arrivals.yaml"


def spec(tmp_path: Path, body: str) -> str:
    path = tmp_path / "spec.yaml"
    path.write_text(f"config: {CONFIG}\nworkloads: {WORKLOAD}\n{body}", encoding="utf-8")
    return str(path)


GUARANTEE = """parameters:
  - path: root.tenants.team-b.resources.guaranteed.vcore
    label: team-b vcore
    values: [0, 4, lots]
  - path: nodes.count
    values: {from: 1, to: 2, step: 1}
objective:
  minimize: p95-wait:queue=root.tenants.team-b
"""


def test_text_ranks_points_and_lists_refused_ones(run_yk, tmp_path: Path) -> None:
    result = run_yk("sweep", spec(tmp_path, GUARANTEE))
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].endswith(": 6 points, 2 refused; objective: minimize p95-wait:queue=root.tenants.team-b")
    header = lines[2].split()
    assert header[:6] == ["#", "point", "team-b", "vcore", "nodes.count", "p95-wait:queue=root.tenants.team-b"]
    ranked = [line.split()[:5] for line in lines[3:7]]
    assert ranked == [
        ["1", "2", "4", "1", "30s"],
        ["2", "3", "4", "2", "1m0s"],
        ["3", "0", "0", "1", "1m2s"],
        ["4", "1", "0", "2", "2m0s"],
    ]
    assert "Refused by YuniKorn (2):" in lines
    assert "  point 4 (team-b vcore=lots, nodes.count=1): invalid quantity" in lines
    assert lines[-1] == "Best: point 2 (team-b vcore=4, nodes.count=1): p95-wait:queue=root.tenants.team-b 30s"


def test_json_and_csv_have_every_point(run_yk, tmp_path: Path) -> None:
    path = spec(tmp_path, GUARANTEE)
    data = json.loads(run_yk("sweep", path, "--format", "json").stdout)
    assert [p["index"] for p in data["points"]] == [2, 3, 0, 1, 4, 5]
    assert data["points"][0]["values"] == {"team-b vcore": 4, "nodes.count": 1}
    assert data["points"][0]["metrics"]["p95-wait:queue=root.tenants.team-b"] == 30
    assert data["points"][-1]["refused"] == ["invalid quantity"] and data["points"][-1]["metrics"] == {}
    rows = list(csv.DictReader(io.StringIO(run_yk("sweep", path, "--format", "csv").stdout)))
    assert [r["point"] for r in rows] == ["2", "3", "0", "1", "4", "5"]
    assert rows[0]["utilization:vcore"] != "" and rows[-1]["refused"] == "invalid quantity"
    again = run_yk("sweep", path, "--format", "json").stdout
    assert again == run_yk("sweep", path, "--format", "json").stdout


def test_two_workloads_are_a_parameter(run_yk, tmp_path: Path) -> None:
    path = tmp_path / "spec.yaml"
    path.write_text(
        f"config: {CONFIG}\nworkloads: [{WORKLOAD}, {WORKLOAD}]\nparameters:\n  - path: workload.arrivals\n"
        "    values: [1, 2]\n",
        encoding="utf-8",
    )
    data = json.loads(run_yk("sweep", str(path), "--format", "json").stdout)
    assert [p["label"] for p in data["parameters"]] == ["workload", "workload.arrivals"]
    assert len(data["points"]) == 4


@pytest.mark.parametrize(
    ("body", "where", "message"),
    [
        ("parameters:\n  - path: root.tenants.team-z.maxapplications\n    values: [1]\n", "4:11",
         "queue root.tenants has no child queue 'team-z' (its children: team-a, team-b)"),
        ("parameters:\n  - path: nodes.count\n    values: [0, 2]\n", "5:13",
         "values of nodes.count: 0 is not a whole number of at least 1"),
        ("parameters:\n  - path: nodes.count\n    values: {from: 3, to: 1, step: 1}\n", "5:13",
         "values: to must not be below from"),
        ("parameters:\n  - path: nodes.count\n    valeus: [1]\n", "5:5",
         "unknown key 'valeus' (did you mean 'values'?)"),
        ("paramters: []\n", "3:1", "unknown key 'paramters' (did you mean 'parameters'?)"),
        ("parameters:\n  - path: nodes.count\n    values: [1]\nobjective:\n  minimize: p95-wiat\n", "7:13",
         "no point measured 'p95-wiat' (did you mean 'p95-wait'"),
    ],
)
def test_spec_problems_at_their_place(run_yk, tmp_path: Path, body: str, where: str, message: str) -> None:
    path = spec(tmp_path, body)
    result = run_yk("sweep", path)
    assert result.exit_code == 2
    assert f"{path}:{where}: " in result.stderr and message in result.stderr, result.stderr


def test_the_sample_spec_follows_its_schema_and_runs(run_yk, monkeypatch: pytest.MonkeyPatch) -> None:
    import jsonschema
    from ruamel.yaml import YAML

    sample = ROOT / "samples/sweep/team-b-guarantee.yaml"
    schema = json.loads((ROOT / "schemas/sweep.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(YAML(typ="safe").load(sample.read_text(encoding="utf-8")))
    monkeypatch.chdir(ROOT)
    result = run_yk("sweep", "samples/sweep/team-b-guarantee.yaml")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == (
        "yk sweep: samples/workloads/queues/arrivals.yaml + samples/workloads/arrivals.yaml: 9 points, 0 refused; "
        "objective: minimize p95-wait:queue=root.tenants.team-b"
    )
    assert result.stdout.splitlines()[-1] == (
        "Best: point 6 (team-b vcore=4, nodes.count=1): p95-wait:queue=root.tenants.team-b 30s"
    )


def test_every_executor_gives_the_same_bytes(run_yk, tmp_path: Path) -> None:
    path = spec(tmp_path, GUARANTEE)
    serial = run_yk("sweep", path, "--format", "json", "--executor", "serial").stdout
    assert run_yk("sweep", path, "--format", "json", "--executor", "local:2").stdout == serial
    pytest.importorskip("distributed", reason="Dask's distributed is not installed (pip install 'yk[dask]')")
    assert run_yk("sweep", path, "--format", "json", "--executor", "dask-local:2").stdout == serial


def test_the_cache_computes_only_new_points(run_yk, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from yk_cli.load import sweep_inputs

    computed: list[int] = []
    real = sweep_inputs.evaluate_source

    def counting(source, point):  # type: ignore[no-untyped-def]
        computed.append(point.index)
        return real(source, point)

    monkeypatch.setattr(sweep_inputs, "evaluate_source", counting)
    cache = str(tmp_path / "cache")
    small = spec(tmp_path, GUARANTEE.replace("values: [0, 4, lots]", "values: [0, 4]"))
    first = run_yk("sweep", small, "--format", "json", "--executor", "serial", "--cache", cache).stdout
    assert sorted(computed) == [0, 1, 2, 3]
    computed.clear()
    assert run_yk("sweep", small, "--format", "json", "--executor", "serial", "--cache", cache).stdout == first
    assert computed == []
    bigger = spec(tmp_path, GUARANTEE)  # a third value: two points more
    result = run_yk("sweep", bigger, "--format", "json", "--executor", "serial", "--cache", cache)
    assert sorted(computed) == [4, 5]
    assert result.stdout == run_yk("sweep", bigger, "--format", "json", "--executor", "serial").stdout


def test_a_bad_executor_is_a_usage_error(run_yk, tmp_path: Path) -> None:
    result = run_yk("sweep", spec(tmp_path, GUARANTEE), "--executor", "ray://x")
    assert result.exit_code == 2
    assert "ray://x" in result.stderr


def test_constraints_mark_the_points_that_meet_them(run_yk, tmp_path: Path) -> None:
    body = GUARANTEE + "constraints:\n  - metric: p95-wait:queue=root.tenants.team-b\n    at-most: 1m\nsearch: grid\n"
    result = run_yk("sweep", spec(tmp_path, body))
    assert result.exit_code == 0
    assert "search is yk tune's; yk sweep runs every point" in result.stderr
    rows = [line.split()[:6] for line in result.stdout.splitlines()[3:7]]
    assert rows == [
        ["1", "2", "4", "1", "yes", "30s"], ["2", "3", "4", "2", "yes", "1m0s"],
        ["3", "0", "0", "1", "no", "(1)"], ["4", "1", "0", "2", "no", "(1)"],
    ]
    data = json.loads(run_yk("sweep", spec(tmp_path, body), "--format", "json").stdout)
    assert [(p["index"], p["meets"]) for p in data["points"]] == [(2, True), (3, True), (0, False), (1, False),
                                                                   (4, False), (5, False)]
    assert data["points"][2]["unmet"] == ["p95-wait:queue=root.tenants.team-b 1m2s, at most 1m"]
    rows = list(csv.DictReader(io.StringIO(run_yk("sweep", spec(tmp_path, body), "--format", "csv").stdout)))
    assert [r["meets"] for r in rows] == ["yes", "yes", "no", "no", "no", "no"]


def test_the_html_page_is_written_to_a_file(run_yk, tmp_path: Path) -> None:
    from tests.browser.reports import DATA

    page = tmp_path / "points.html"
    result = run_yk("sweep", spec(tmp_path, GUARANTEE), "-f", "html", "--output", str(page))
    assert result.exit_code == 0, result.stderr
    match = DATA.search(page.read_text(encoding="utf-8"))
    assert match is not None
    data = json.loads(match.group(1))
    assert data["kind"] == "sweep" and data["tune"] is False and data["total"] == 6
    assert [r["index"] for r in data["refused"]] == [4, 5] and data["best"] == [2]
    assert run_yk("sweep", spec(tmp_path, GUARANTEE), "-f", "html").exit_code == 2
