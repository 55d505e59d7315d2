"""User and group limits end to end: `yk simulate` names the limit and its config line, in a workload and in a
cluster dump whose pods carry the `yunikorn.apache.org/user.info` annotation; `yk explain` names a limit that made
an ask wait; the limits sample's trace."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import ROOT
from tests.helpers import paths
from tests.helpers.golden import check_golden

DUMP = ROOT / "samples" / "cluster" / "dump.yaml"


def _dump_with_limit(tmp_path: Path, limit: str) -> Path:
    """The sample dump, its ConfigMap's team-b queue given a limit entry (YAML lines at the queue's indent)."""
    text = DUMP.read_text(encoding="utf-8")
    anchor = "                      - name: team-b\n"
    assert anchor in text
    text = text.replace(anchor, anchor + limit, 1)
    path = tmp_path / "dump.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_group_limit_from_user_info_in_a_cluster_dump(run_yk, tmp_path: Path) -> None:
    """bob's pods say groups team-b (and ml): the team-b group may run one application in root.tenants.team-b,
    so bob's second application waits, with the limit's line in the dump."""
    limit = (
        "                        limits:\n"
        "                          - limit: one team-b application at a time\n"
        "                            groups: [team-b]\n"
        "                            maxapplications: 1\n"
    )
    dump = _dump_with_limit(tmp_path, limit)
    lines = dump.read_text(encoding="utf-8").splitlines()
    line = lines.index("                          - limit: one team-b application at a time") + 1
    result = run_yk("simulate", "--cluster", str(dump), "--pending-only", "--format", "json")
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["notModelled"] == []
    waiting = [p for p in document["pending"] if p["code"] == "user-max-applications"]
    assert [p["ask"] for p in waiting] == ["team-b/etl-42-ingest", "team-b/etl-42-transform"]
    assert waiting[0]["reason"] == (
        f"group team-b of user bob at maxapplications 1 of root.tenants.team-b: 1 of 1 applications run ({dump}:{line})"
    )


def _one_application_per_user(tmp_path: Path) -> tuple[Path, Path]:
    """queues.yaml with root.a limited to one application per user (the limit entry on line 9), and the path for
    the workload."""
    config = tmp_path / "queues.yaml"
    config.write_text(
        "partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: '*'\n"
        "        queues:\n          - name: a\n            limits:\n"
        "              - {limit: one each, users: ['*'], maxapplications: 1}\n",
        encoding="utf-8",
    )
    return config, tmp_path / "workload.yaml"


def test_explain_names_the_limit(run_yk, tmp_path: Path) -> None:
    config, workload = _one_application_per_user(tmp_path)
    workload.write_text(
        "nodes: [{name: n, resources: {memory: 10}}]\napplications:\n"
        "  - {id: first, queue: root.a, user: alice, asks: [{name: x, priority: 1, resources: {memory: 1}, "
        "duration: 10s}],\n     allocations: [{name: r, node: n, resources: {memory: 1}, duration: 10s}]}\n"
        "  - {id: second, queue: root.a, user: alice, asks: [{name: y, priority: 5, resources: {memory: 1}}]}\n",
        encoding="utf-8",
    )
    result = run_yk("explain", str(config), str(workload), "x", "y")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[2] == (
        "x goes first: y sorts first (in root.a, application second sorts before first on priority: 5 vs 1 "
        "(higher first)), but could not be placed then: user alice at maxapplications 1 of root.a (the limit for "
        "every user, *): 1 of 1 applications run."
    )


def test_explain_of_one_pod_still_waiting_names_the_limit_and_its_line(run_yk, tmp_path: Path) -> None:
    """`yk explain CONFIG WORKLOAD POD`: the "Still pending" line gives the limit's config line, as yk simulate's
    pending reason does."""
    config, workload = _one_application_per_user(tmp_path)
    workload.write_text(
        "nodes: [{name: n, resources: {memory: 10}}]\napplications:\n"
        "  - {id: first, queue: root.a, user: alice, asks: [{name: x, resources: {memory: 1}}]}\n"
        "  - {id: second, queue: root.a, user: alice, asks: [{name: y, resources: {memory: 1}}]}\n",
        encoding="utf-8",
    )
    reason = "user alice at maxapplications 1 of root.a (the limit for every user, *): 1 of 1 applications run"
    simulated = run_yk("simulate", str(config), str(workload), "--pending-only", "--format", "json")
    assert simulated.exit_code == 0, simulated.stderr
    assert [p["reason"] for p in json.loads(simulated.stdout)["pending"]] == [f"{reason} ({config}:9)"]
    result = run_yk("explain", str(config), str(workload), "y")
    assert result.exit_code == 0, result.stderr
    assert f"Still pending: {reason} ({config}:9)" in result.stdout.splitlines()
    story = run_yk("explain", str(config), str(workload), "y", "--format", "json")
    assert story.exit_code == 0, story.stderr
    assert f"{reason} ({config}:9)" in story.stdout


SAMPLE = ("samples/workloads/queues/limits.yaml", "samples/workloads/limits.yaml")
SAMPLE_TRACE = paths.DATA / "limits-sample.txt"


def test_the_limits_sample_trace(run_yk) -> None:
    """Golden trace: alice's third report waits for her first to finish (maxapplications 2 for every user of
    root.analytics); dave's second notebook waits for the data-science group's 24Gi, erin's third for her 16Gi."""
    result = run_yk("simulate", *SAMPLE)
    assert result.exit_code == 0, result.stderr
    check_golden(SAMPLE_TRACE, result.stdout)
