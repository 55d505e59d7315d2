"""`yk explain POD` with node predicates: every node's verdict on the pod when it was placed, else at the end."""

from __future__ import annotations

import json

from tests.helpers.paths import DATA
from yk_cli.commands.explain import run_pod_story

CASE = DATA / "predicates"


def story(pod: str, fmt: str = "text") -> str:
    return run_pod_story(str(CASE / "queues.yaml"), str(CASE / "workload.yaml"), pod, fmt)


def test_a_placed_pod_shows_the_chosen_node_the_others_that_fit_and_why_the_rest_did_not() -> None:
    text = story("web-2")
    assert text.endswith(
        "The nodes when it was allocated (step 4, 0s):\n"
        "  NODE   ORDER  VERDICT  WHY\n"
        "  cp-1   1      fails    TaintToleration: node(s) had untolerated taint(s)\n"
        "  gpu-1  4      fails    TaintToleration: node(s) had untolerated taint(s)\n"
        "  n1     2      chosen\n"
        "  n2     3      fits\n"
        "(ORDER: the partition's node order then; the first node that fits and passes takes the pod)\n"
    )


def test_a_pending_pod_shows_every_node_at_the_end_with_the_plugin_that_failed() -> None:
    text = story("db/db-2")
    assert (
        "Still pending: 0/4 nodes are available: 2 node(s) didn't match pod anti-affinity rules, "
        "2 node(s) had untolerated taint(s).\n" in text
    )
    assert "  n1     4      fails    InterPodAffinity: node(s) didn't match pod anti-affinity rules\n" in text
    big = story("train-big")
    assert "  gpu-1  3      fails    NodeResourcesFit: Insufficient nvidia.com/gpu\n" in big
    assert "  n1     4      fails    NodeAffinity: node(s) didn't match Pod's node affinity/selector\n" in big


def test_json_has_every_node_verdict() -> None:
    data = json.loads(story("train", "json"))
    affinity = {
        "verdict": "fails",
        "plugin": "NodeAffinity",
        "reasons": ["node(s) didn't match Pod's node affinity/selector"],
    }
    assert data["nodes"] == {
        "event": "allocate",
        "step": 1,
        "time": 0,
        "verdicts": [
            {
                "node": "cp-1",
                "order": 1,
                "verdict": "fails",
                "plugin": "TaintToleration",
                "reasons": ["node(s) had untolerated taint(s)"],
            },
            {"node": "gpu-1", "order": 2, "verdict": "chosen", "plugin": "", "reasons": []},
            {"node": "n1", "order": 3, **affinity},
            {"node": "n2", "order": 4, **affinity},
        ],
    }
