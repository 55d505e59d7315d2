"""`yk tune SPEC`: the best point that meets the constraints, found by bisection, the grid or random points; its
change to the config at file:line and as a diff that applies; the runner-up; exit 0, 1 or 2 for CI."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT

CONFIG = ROOT / "samples/workloads/queues/arrivals.yaml"
WORKLOAD = ROOT / "samples/workloads/arrivals.yaml"
BOUND = """constraints:
  - metric: p95-wait:queue=root.tenants.team-b
    at-most: 1m
"""
SMALLEST = """parameters:
  - path: root.tenants.team-b.resources.guaranteed.vcore
    label: team-b vcore
    values: {from: 0, to: 8, step: 1}
objective:
  minimize: team-b vcore
""" + BOUND


def spec(tmp_path: Path, body: str, config: Path = CONFIG) -> str:
    path = tmp_path / "spec.yaml"
    path.write_text(f"config: {config}\nworkloads: {WORKLOAD}\n{body}", encoding="utf-8")
    return str(path)


def test_bisection_finds_the_smallest_guarantee(run_yk, tmp_path: Path) -> None:
    result = run_yk("tune", spec(tmp_path, SMALLEST), "--executor", "serial")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[1] == (
        "  search: bisect (one parameter, the objective its value): 5 of 9 points run, 2 a round; it takes the "
        "constraints to hold from some value of team-b vcore on and finds the smallest (search: grid runs every value)"
    )
    assert lines[5:9] == [
        "Best: point 4 (team-b vcore=4): team-b vcore 4",
        "  meets: p95-wait:queue=root.tenants.team-b 1m0s (at most 1m)",
        "  metrics: p95-wait 1m0s, pending 0, preemptions 2, utilization:memory 92.5%, utilization:vcore 92.5%",
        f"  change {CONFIG}:15:17: root.tenants.team-b.resources.guaranteed.vcore: not set -> 4 "
        "(add resources.guaranteed.vcore here)",
    ]
    assert lines[9] == "Runner-up: point 5 (team-b vcore=5): team-b vcore 5"
    table = lines[lines.index("Points run, best first:") + 2:][:5]
    assert [row.split()[:4] for row in table] == [
        ["1", "4", "4", "yes"], ["2", "5", "5", "yes"], ["3", "8", "8", "yes"], ["4", "0", "0", "no"],
        ["5", "3", "3", "no"],
    ]
    assert "  point 3 (team-b vcore=3): p95-wait:queue=root.tenants.team-b 2m0s, at most 1m" in lines
    assert lines[-5:] == ["               - name: team-b", "+                resources:",
                          "+                  guaranteed:", "+                    vcore: 4", "           - name: batch"]


def valid(text: str) -> dict:  # type: ignore[type-arg]
    """A `yk tune --format json` document, checked against `yk schema tune`."""
    import jsonschema

    schema = json.loads((ROOT / "schemas/tune.schema.json").read_text(encoding="utf-8"))
    data = json.loads(text)
    jsonschema.Draft202012Validator(schema).validate(data)
    return data  # type: ignore[no-any-return]


def test_the_grid_agrees_with_bisection_and_runs_every_point(run_yk, tmp_path: Path) -> None:
    bisect = valid(run_yk("tune", spec(tmp_path, SMALLEST), "-f", "json", "--executor", "serial").stdout)
    grid = valid(run_yk("tune", spec(tmp_path, SMALLEST + "search: grid\n"), "-f", "json",
                        "--executor", "serial").stdout)
    assert grid["search"] == {"method": "grid", "reason": "asked for", "space": 9, "run": 9}
    assert bisect["search"] == {"method": "bisect", "reason": "one parameter, the objective its value", "space": 9,
                                "run": 5, "points_per_round": 2, "parameter": "team-b vcore"}
    for answer in (bisect, grid):
        assert answer["meets"] is True
        assert answer["best"]["index"] == 4 and answer["runner_up"]["index"] == 5
        assert answer["best"]["changes"] == [{
            "parameter": "team-b vcore", "path": "root.tenants.team-b.resources.guaranteed.vcore",
            "where": "config", "from": None, "to": "4", "file": str(CONFIG), "line": 15, "column": 17,
            "action": "add", "keys": ["resources", "guaranteed", "vcore"], "not_in_place": None,
        }]
    assert [p["index"] for p in grid["points"]] == [4, 5, 6, 7, 8, 0, 1, 2, 3]
    assert grid["points"][5]["unmet"] == ["p95-wait:queue=root.tenants.team-b 2m0s, at most 1m"]


def test_random_search_is_seeded(run_yk, tmp_path: Path) -> None:
    body = """parameters:
  - path: root.tenants.team-b.resources.guaranteed.vcore
    values: {from: 0, to: 8, step: 1}
  - path: nodes.count
    values: [1, 2, 3]
objective:
  minimize: p95-wait
search: {random: {count: 4, seed: 11}}
""" + BOUND
    first = valid(run_yk("tune", spec(tmp_path, body), "-f", "json", "--executor", "serial").stdout)
    assert first["search"]["run"] == 4 and first["search"]["seed"] == 11
    again = run_yk("tune", spec(tmp_path, body), "-f", "json", "--executor", "local:2")
    assert json.loads(again.stdout) == first
    indexes = sorted(p["index"] for p in first["points"])
    other = json.loads(run_yk("tune", spec(tmp_path, body.replace("seed: 11", "seed: 12")), "-f", "json",
                              "--executor", "serial").stdout)
    assert sorted(p["index"] for p in other["points"]) != indexes


def test_no_point_meeting_the_constraints_exits_1(run_yk, tmp_path: Path) -> None:
    path = spec(tmp_path, SMALLEST.replace("at-most: 1m", "at-most: 10s"))
    data = valid(run_yk("tune", path, "--executor", "serial", "-f", "json").stdout)
    assert data["meets"] is False and data["best"] is None and data["nearest"]["index"] == 8
    result = run_yk("tune", path, "--executor", "serial", "--patch", str(tmp_path / "fix.diff"))
    assert result.exit_code == 1
    assert "No point meets the constraints (2 run, 0 refused)." in result.stdout
    assert "Nearest: point 8 (team-b vcore=8) misses: p95-wait:queue=root.tenants.team-b 30s, at most 10s" in (
        result.stdout)
    assert "--patch: no change to the config to write (no point meets the constraints)" in result.stderr
    assert not (tmp_path / "fix.diff").exists()


def test_a_policy_is_a_constraint(run_yk, tmp_path: Path) -> None:
    policy = tmp_path / "rules.yaml"
    policy.write_text("assertions:\n  - name: team-a-fast\n    starts-within: {queue: root.tenants.team-a, "
                      "time: 10s}\n", encoding="utf-8")
    result = run_yk("tune", spec(tmp_path, SMALLEST + "  - policy: rules.yaml\n"), "--executor", "serial")
    assert result.exit_code == 1
    assert (f"  point 8 (team-b vcore=8): {policy}: team-a-fast: web/web-1 of queue root.tenants.team-a waits 30s "
            "(1 start later of 1; wanted within 10s)") in result.stdout.splitlines()
    policy.write_text("assertions:\n  - name: team-a-fast\n    starts-within: {queue: root.tenants.team-a, "
                      "time: 1m}\n", encoding="utf-8")
    result = run_yk("tune", spec(tmp_path, SMALLEST + "  - policy: rules.yaml\n"), "--executor", "serial")
    assert result.exit_code == 0 and "Best: point 4 (team-b vcore=4): team-b vcore 4" in result.stdout


def test_the_patch_applies_and_the_patched_config_meets_the_bound(run_yk, tmp_path: Path) -> None:
    if shutil.which("patch") is None:
        pytest.skip("no patch(1) on this machine")
    config = tmp_path / "queues.yaml"
    config.write_text(CONFIG.read_text(encoding="utf-8"), encoding="utf-8")
    result = run_yk("tune", spec(tmp_path, SMALLEST, config), "--executor", "serial", "--patch",
                    str(tmp_path / "fix.diff"))
    assert result.exit_code == 0, result.stderr
    diff = (tmp_path / "fix.diff").read_text(encoding="utf-8")
    assert diff.startswith("--- a/queues.yaml\n+++ b/queues.yaml\n")  # outside the working folder: its name alone
    subprocess.run(["patch", "-p1", "-i", str(tmp_path / "fix.diff")], cwd=tmp_path, check=True, capture_output=True)
    checked = run_yk("simulate", str(config), str(WORKLOAD), "--metrics", "--format", "json")
    queues = {g["key"]: g for g in json.loads(checked.stdout)["groups"]["queue"]}
    assert queues["root.tenants.team-b"]["wait"]["p95"] == 60


def test_the_sample_runs_as_docs_sweep_md_says(run_yk, monkeypatch: pytest.MonkeyPatch) -> None:
    import jsonschema
    from ruamel.yaml import YAML

    sample = ROOT / "samples/sweep/team-b-smallest-guarantee.yaml"
    schema = json.loads((ROOT / "schemas/sweep.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(YAML(typ="safe").load(sample.read_text(encoding="utf-8")))
    monkeypatch.chdir(ROOT)
    result = run_yk("tune", "samples/sweep/team-b-smallest-guarantee.yaml")
    assert result.exit_code == 0
    assert "Best: point 4 (team-b vcore=4): team-b vcore 4" in result.stdout.splitlines()


@pytest.mark.parametrize(
    ("body", "where", "message"),
    [
        (SMALLEST.replace("at-most: 1m", "at-most: soon"), "11:14", "at-most: 'soon' is not a duration"),
        (SMALLEST.replace("at-most", "at-mots"), "10:5", "unknown key 'at-mots' (did you mean 'at-most'?)"),
        (SMALLEST + "search: bisekt\n", "12:9", "search: auto, grid, bisect, random"),
        (SMALLEST + "search: {random: {count: 0, seed: 1}}\n", "12:26", "count: from 1 to 100,000"),
        (SMALLEST.replace("minimize: team-b vcore", "minimize: p95-wait") + "search: bisect\n", "12:9",
         "search: bisect searches one parameter for its smallest or largest value"),
        (SMALLEST + "  - policy: missing.yaml\n", "12:13", "missing.yaml: no such file"),
        (SMALLEST.replace("p95-wait:queue=root.tenants.team-b", "p95-wait:queue=root.tenants.team-z"), "10:13",
         "no point measured 'p95-wait:queue=root.tenants.team-z' (did you mean"),
    ],
)
def test_spec_problems_exit_2_at_their_place(run_yk, tmp_path: Path, body: str, where: str, message: str) -> None:
    path = spec(tmp_path, body)
    result = run_yk("tune", path, "--executor", "serial")
    assert result.exit_code == 2, result.stdout
    assert f"{path}:{where}: " in result.stderr and message in result.stderr, result.stderr


def test_a_tune_needs_an_objective(run_yk, tmp_path: Path) -> None:
    result = run_yk("tune", spec(tmp_path, SMALLEST.replace("objective:\n  minimize: team-b vcore\n", "")))
    assert result.exit_code == 2 and "objective: yk tune needs one" in result.stderr


def test_a_policy_naming_a_queue_the_config_lacks(run_yk, tmp_path: Path) -> None:
    (tmp_path / "rules.yaml").write_text("assertions:\n  - name: x\n    fenced: {queue: root.nope, fence: priority}\n",
                                         encoding="utf-8")
    result = run_yk("tune", spec(tmp_path, SMALLEST + "  - policy: rules.yaml\n"))
    assert result.exit_code == 2
    assert f"{tmp_path / 'rules.yaml'}:3:21: assertion 'x': fenced: queue" in result.stderr, result.stderr


def test_every_executor_gives_the_same_answer(run_yk, tmp_path: Path) -> None:
    path = spec(tmp_path, SMALLEST)
    serial = run_yk("tune", path, "-f", "json", "--executor", "serial").stdout
    assert run_yk("tune", path, "-f", "json", "--executor", "local:2").stdout == serial
    pytest.importorskip("distributed", reason="Dask's distributed is not installed (pip install 'yk[dask]')")
    assert run_yk("tune", path, "-f", "json", "--executor", "dask-local:2").stdout == serial


def test_the_recorded_day_is_its_import(run_yk, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    result = run_yk("import", "csv", "samples/recorded/day.csv", "--nodes", "10", "--node-resources",
                    "vcore=32,memory=128Gi", "--out-dir", str(tmp_path), "--quiet")
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "workload.yaml").read_bytes() == (ROOT / "samples/recorded/workload.yaml").read_bytes()


def test_the_console_examples_of_docs_sweep_md_reproduce(run_yk, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each `$ yk tune ...` block of docs/sweep.md shows the start of what the command prints."""
    import re
    import shlex

    monkeypatch.chdir(ROOT)
    text = (ROOT / "docs/sweep.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```console\n\$ (yk tune [^\n]*)\n(.*?)```", text, re.DOTALL)
    assert len(blocks) == 2
    for command, shown in blocks:
        expected = shown.split("\n...\n")[0].rstrip("\n").splitlines()
        result = run_yk(*shlex.split(command)[1:], "--executor", "serial")
        assert result.exit_code == 0, result.stderr
        assert result.stdout.splitlines()[: len(expected)] == expected


def test_the_html_page_shows_the_bound_against_the_parameter(run_yk, tmp_path: Path) -> None:
    from tests.browser.reports import DATA

    page = tmp_path / "tune.html"
    result = run_yk("tune", spec(tmp_path, SMALLEST), "--executor", "serial", "-f", "html", "--output", str(page))
    assert result.exit_code == 0 and result.stdout == "" and f"wrote {page}" in result.stderr
    match = DATA.search(page.read_text(encoding="utf-8"))
    assert match is not None
    data = json.loads(match.group(1))
    assert data["tune"] is True and data["best"] == [4, 5] and data["points"]["index"] == [4, 5, 8, 0, 3]
    assert data["y"] == "m:p95-wait:queue=root.tenants.team-b"
    assert data["scatter"] == {"x": "m:p95-wait:queue=root.tenants.team-b", "y": "p:0"}
    missing = run_yk("tune", spec(tmp_path, SMALLEST), "-f", "html")
    assert missing.exit_code == 2 and "--format html writes a file: add --output FILE" in missing.stderr
