"""`yk explain POD`: whether a pod was preempted, by whom, and the verdict of every try that looked at it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import CONFORMANCE, run_program
from tests.helpers.golden import check_golden
from yk_cli.commands.explain import run_pod_story

CASE = CONFORMANCE / "preempt" / "preempt-10012"


def story(pod: str, fmt: str = "text") -> str:
    return run_pod_story(str(CASE / "queues.yaml"), str(CASE / "workload.yaml"), pod, fmt)


def test_a_victim_names_its_preemptor_step_node_and_why_it_qualified() -> None:
    text = story("alloc-6")
    assert "run-q0/alloc-6 (root.q0) was preempted at 0s (step 1) by ask-q1/ask-q1-1 (root.q1) to free node-1." in text
    assert "why it qualified: P-16 <= P16; created -3s" in text


def test_a_spared_pod_gets_the_law_and_the_config_line_that_protected_it() -> None:
    text = story("run-q0/alloc-7")
    assert "was never preempted; 1 preemption try looked at it." in text
    assert "higher-priority: P26 > P16" in text
    assert "[law 6: only pods of lower or equal priority, after offsets and fences]" in text
    assert f"({CASE / 'queues.yaml'}:11)" in text


def test_an_ask_that_may_not_preempt_says_so() -> None:
    text = story("ask-q1-0")
    assert "is an ask; no preemption try looked at it as a victim." in text
    assert "may not preempt: its preemptionPolicy is Never" in text


def test_json_has_the_preemptor_and_every_sighting() -> None:
    data = json.loads(story("alloc-6", "json"))
    assert data["preempted"] is True
    assert data["preemptedBy"] == {
        "step": 1,
        "time": 0,
        "application": "ask-q1",
        "ask": "ask-q1-1",
        "queuePath": "root.q1",
        "node": "node-1",
    }
    assert [s["verdict"] for s in data["sightings"]] == ["victim"]
    assert data["tries"] == []


def test_an_unknown_pod_is_a_usage_error() -> None:
    code, out, err = run_program("explain", str(CASE / "queues.yaml"), str(CASE / "workload.yaml"), "nope")
    assert code == 2
    assert out == ""
    assert "no allocation or ask named 'nope' in the run" in err
    assert "Traceback" not in err


OVER_MAX_CONFIG = """
partitions:
  - name: default
    {preemption}
    queues:
      - name: root
        submitacl: '*'
        queues:
          - name: batch
            resources: {{max: {{memory: 4}}}}
            {properties}
"""
OVER_MAX_WORKLOAD = """
nodes:
  - {name: n1, resources: {memory: 10}}
applications:
  - id: b
    queue: root.batch
    allocations:
      - {name: b1, node: n1, resources: {memory: 3}}
      - {name: b2, node: n1, resources: {memory: 3}}
    asks:
      - {name: b3, resources: {memory: 1}}
"""


@pytest.mark.parametrize(
    ("preemption", "properties", "why"),
    [
        ("", "", "quota preemption is off: the partition does not set preemption.quotapreemptionenabled"),
        (
            "preemption: {quotapreemptionenabled: true}",
            "",
            "quota preemption is on but the queue sets no quota.preemption.delay",
        ),
    ],
)
def test_a_queue_over_its_max_is_noted_once_with_why_it_stays_so(
    tmp_path: Path, preemption: str, properties: str, why: str
) -> None:
    config = tmp_path / "queues.yaml"
    config.write_text(OVER_MAX_CONFIG.format(preemption=preemption, properties=properties), encoding="utf-8")
    workload = tmp_path / "workload.yaml"
    workload.write_text(OVER_MAX_WORKLOAD, encoding="utf-8")
    code, out, _ = run_program("simulate", str(config), str(workload), "--format", "json")
    assert code == 0
    assert json.loads(out)["notes"] == [
        f"root.batch runs {{memory: 6}}, over its max {{memory: 4}}, and stays over it in this run ({why}); no new "
        "allocation fits it until enough pods finish"
    ]


def test_quota_preemption_takes_no_pod_larger_than_the_amount_over_the_max(tmp_path: Path) -> None:
    """Quota preemption on: no note at the start; at the delay both pods (3 each) are larger than the 2 over the
    max, so the core's greedy rule takes neither and the queue stays over its max (said in a note)."""
    config = tmp_path / "queues.yaml"
    preemption, properties = "preemption: {quotapreemptionenabled: true}", "properties: {quota.preemption.delay: 1m}"
    config.write_text(OVER_MAX_CONFIG.format(preemption=preemption, properties=properties), encoding="utf-8")
    workload = tmp_path / "workload.yaml"
    workload.write_text(OVER_MAX_WORKLOAD, encoding="utf-8")
    code, out, _ = run_program("simulate", str(config), str(workload), "--format", "json")
    assert code == 0
    trace = json.loads(out)
    assert [e["type"] for e in trace["events"]] == []
    assert trace["notes"] == [
        "quota preemption at 1m0s: root.batch is over its max {memory: 4} (uses {memory: 6}), but no running pod "
        "fits in the {memory: 2} to preempt; it stays so"
    ]


SAMPLE = ("samples/workloads/queues/preemption.yaml", "samples/workloads/preemption.yaml")


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_the_preemption_sample_explained_golden(fmt: str) -> None:
    """The README's preemption example: every try, every candidate and its verdict."""
    code, out, _ = run_program("simulate", *SAMPLE, "--explain-preemption", "--format", fmt)
    assert code == 0
    check_golden(f"simulate_preemption_explained.{'txt' if fmt == 'text' else 'md'}", out)


def test_the_preemption_sample_pod_story_golden() -> None:
    code, out, _ = run_program("explain", *SAMPLE, "report-1")
    assert code == 0
    check_golden("explain_pod_report-1.txt", out)
