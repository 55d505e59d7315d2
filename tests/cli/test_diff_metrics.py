"""`yk diff --metrics`: both runs' metrics side by side (text, Markdown, JSON with its schemas, the HTML file), and
the --fail-on conditions on them (a wait percentile that grows, utilization that falls, a fairness gap that grows)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from tests.conftest import ROOT
from yk_cli.core.diff.verdict import FailOn, parse_fail_on

OLD = "samples/workloads/queues/arrivals.yaml"
WORKLOAD = "samples/workloads/arrivals.yaml"


@pytest.fixture
def new_config(tmp_path: Path) -> str:
    """arrivals.yaml with a guarantee on team-b too: its pods preempt batch and wait half as long."""
    text = (ROOT / OLD).read_text(encoding="utf-8").replace(
        "              - name: team-b\n",
        "              - name: team-b\n                resources:\n"
        "                  guaranteed: {vcore: 4, memory: 16Gi}\n",
    )
    path = tmp_path / "new.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_text_section(run_yk, new_config: str) -> None:
    result = run_yk("diff", OLD, new_config, WORKLOAD, "--metrics")
    assert result.exit_code == 0, result.stderr
    section = result.stdout[result.stdout.index("Metrics, OLD -> NEW"):]
    assert section.splitlines()[1:] == [
        "  QUEUE                        P50           P95           P99           MAX  PENDING",
        "  (all pods)           1m0s -> 30s  2m0s -> 1m0s  2m0s -> 1m0s  2m0s -> 1m0s   1 -> 0",
        "  root.batch                     -             -             -             -        0",
        "  root.tenants.team-a          30s           30s           30s           30s        0",
        "  root.tenants.team-b  1m0s -> 30s  2m0s -> 1m0s  2m0s -> 1m0s  2m0s -> 1m0s   1 -> 0",
        "  fairness gap: root.tenants.team-a 30s; root.tenants.team-b no guarantee -> 30s",
        "  cluster utilization (mean): memory 92.5%, vcore 92.5%",
        "  makespan: -; preempted runs: 1 -> 2",
    ]


def test_no_metrics_without_asking(run_yk, new_config: str) -> None:
    assert "Metrics" not in run_yk("diff", OLD, new_config, WORKLOAD).stdout


def test_waits_that_grow_fail(run_yk, new_config: str) -> None:
    # from NEW back to OLD: team-b's p95 doubles (1m -> 2m), its fairness gap is gone with its guarantee
    result = run_yk("diff", new_config, OLD, WORKLOAD, "--fail-on", "p95-wait=+10%,fairness-gap=+10%")
    assert result.exit_code == 1
    assert "Fails: p95-wait=+10% (--fail-on p95-wait=+10%,fairness-gap=+10%)" in result.stdout
    assert run_yk("diff", new_config, OLD, WORKLOAD, "--fail-on", "p95-wait=+150%").exit_code == 0
    assert run_yk("diff", OLD, new_config, WORKLOAD, "--fail-on", "p95-wait=+10%,max-wait=+0%").exit_code == 0


def test_utilization_that_falls_fails(run_yk, tmp_path: Path) -> None:
    # without team-a's guarantee web-1 never preempts a batch pod, so the cluster stays full (100 %); with it, the
    # preempted pod's room is idle a while (92.5 %): a fall of 7.5 % of the old value
    text = (ROOT / OLD).read_text(encoding="utf-8").replace(
        "                resources:\n                  guaranteed: {vcore: 4, memory: 16Gi}\n", ""
    )
    unguaranteed = tmp_path / "unguaranteed.yaml"
    unguaranteed.write_text(text, encoding="utf-8")
    result = run_yk("diff", str(unguaranteed), OLD, WORKLOAD, "--fail-on", "utilization=-5%")
    assert result.exit_code == 1
    assert "  cluster utilization (mean): memory 100.0% -> 92.5%, vcore 100.0% -> 92.5%" in result.stdout
    assert run_yk("diff", str(unguaranteed), OLD, WORKLOAD, "--fail-on", "utilization=-10%").exit_code == 0
    assert run_yk("diff", OLD, str(unguaranteed), WORKLOAD, "--fail-on", "utilization=-5%").exit_code == 0


def test_json_has_both_metrics_documents(run_yk, new_config: str) -> None:
    result = run_yk("diff", OLD, new_config, WORKLOAD, "--metrics", "--format", "json")
    data = json.loads(result.stdout)
    diff_schema = json.loads((ROOT / "schemas" / "diff.schema.json").read_text(encoding="utf-8"))
    metrics_schema = json.loads((ROOT / "schemas" / "metrics.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(diff_schema).validate(data)
    metrics = data["workloadChanges"]["metrics"]
    for side in ("old", "new"):
        jsonschema.Draft202012Validator(metrics_schema).validate(metrics[side])
    assert (metrics["old"]["summary"]["pending"], metrics["new"]["summary"]["pending"]) == (1, 0)
    assert metrics["waits"] == ["p50", "p90", "p95", "p99", "max"]


def test_markdown_section(run_yk, new_config: str) -> None:
    out = run_yk("diff", OLD, new_config, WORKLOAD, "--metrics", "--format", "markdown").stdout
    assert "### Metrics" in out
    assert "| (all pods) | 1m0s -> 30s | 2m0s -> 1m0s | 2m0s -> 1m0s | 2m0s -> 1m0s | 1 -> 0 |" in out
    assert "| `root.tenants.team-b` | no guarantee -> 30s |" in out


def test_html_file(run_yk, new_config: str, tmp_path: Path) -> None:
    target = tmp_path / "diff.html"
    result = run_yk("diff", OLD, new_config, WORKLOAD, "--format", "html", "--output", str(target))
    assert result.exit_code == 0, result.stderr
    page = target.read_text(encoding="utf-8")
    assert "root.tenants.team-b" in page and "<script" in page
    assert run_yk("diff", OLD, new_config, WORKLOAD, "--format", "html").exit_code == 2


def test_parse_metric_conditions() -> None:
    assert parse_fail_on(["p95-wait=+10%,utilization=-5%", "fairness-gap=25%"]) == [
        FailOn("p95-wait", share=0.1), FailOn("utilization", share=0.05), FailOn("fairness-gap", share=0.25),
    ]
    assert [str(c) for c in parse_fail_on(["max-wait=+0%", "utilization=-2.5%"])] == ["max-wait=+0%",
                                                                                     "utilization=-2.5%"]
    for bad, message in (
        ("p95-wait=10", "give a percentage (p95-wait=+10%)"),
        ("p95-wait=-10%", "p95-wait takes a growth (p95-wait=+10%)"),
        ("utilization=+5%", "utilization takes a fall (utilization=-10%)"),
        ("p95-wait=+x%", "give a percentage"),
        ("p42-wait=+1%", "did you mean"),
    ):
        with pytest.raises(ValueError, match=bad.split("=")[0]) as caught:
            parse_fail_on([bad])
        assert message in str(caught.value)
