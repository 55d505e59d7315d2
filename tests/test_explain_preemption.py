"""`yk explain POD`: whether a pod was preempted, by whom, and the verdict of every try that looked at it."""

from __future__ import annotations

import json

import pytest

from tests.conftest import SHARED, run_program
from yk_cli.commands.explain import run_pod_story

CASE = SHARED / "conformance" / "preempt" / "preempt-10012"
pytestmark = pytest.mark.skipif(not CASE.is_dir(), reason=f"no {CASE}")


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
