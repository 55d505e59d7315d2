"""`yk volcano explain` and `--proposal` end to end: goldens on the realistic sample and the seed example, the
proposal's two tables, unknown names, the empty-set quirk, and random dumps and pairs."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers.golden import check_golden
from tests.helpers.paths import ROOT
from tests.helpers.volcano import PLUGINS, _conf, clusters
from tests.helpers.volcano_upstream import load_cases, write_inputs
from yk_cli.core.volcano.explain import UnknownName, explain_pair, pod_story
from yk_cli.core.volcano.model import Cluster
from yk_cli.core.volcano.proposal_view import ProposalObserver
from yk_cli.core.volcano.simulate import simulate
from yk_cli.report.volcano_explain_json import pair_json, pod_json, render
from yk_cli.report.volcano_explain_text import render_pair, render_pod
from yk_cli.report.volcano_sim_text import render as render_simulation

pytestmark = pytest.mark.usefixtures("in_root")
"""Run from the checkout, so that reports name files by the short relative names of the goldens."""

CLUSTER = "samples/volcano/cluster.yaml"
SEED = "samples/volcano/seed-example.yaml"
TABLE1 = "samples/volcano/proposal-table1.yaml"
QUIRK = "tests/data/volcano/explain-quirk.yaml"
SCHEMA = json.loads((ROOT / "schemas" / "volcano-explain.schema.json").read_text())
SIM_SCHEMA = json.loads((ROOT / "schemas" / "volcano-simulate.schema.json").read_text())
LABEL = "design proposal (Volcano queue-priority design, 2023), not in any Volcano release"


def explain(run_yk, *args: str) -> tuple[str, dict]:
    """Text and JSON of one explanation; both exit 0, the JSON is valid, a second run gives the same bytes."""
    text = run_yk("volcano", "explain", *args, "-q")
    assert text.exit_code == 0, text.stderr
    assert run_yk("volcano", "explain", *args, "-q").stdout == text.stdout
    result = run_yk("volcano", "explain", *args, "-q", "--format", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    jsonschema.validate(data, SCHEMA)
    return text.stdout, data


# --- the realistic sample -------------------------------------------------------------------------------------------


def test_same_queue_job_priority_decides(run_yk) -> None:
    text, data = explain(run_yk, CLUSTER, "etl/backfill-2025", "quarter-close")
    check_golden("volcano_explain_same_queue.txt", text)
    assert data["swapped"] is True and data["level"] == "jobs"
    assert data["first"]["name"] == "etl/quarter-close" and data["compared_at"] == "allocate pop 7"
    assert data["decided_by"] == {
        "plugin": "priority", "tier": 1, "first": "etl/quarter-close", "second": "etl/backfill-2025",
        "first_value": "priority 500 (PodGroup class batch-urgent)",
        "second_value": "priority 10 (PodGroup class batch-low)", "decides": True,
    }
    assert data["statements"] == []


def test_different_queues_queue_order_decides_not_job_priority(run_yk) -> None:
    text, data = explain(run_yk, CLUSTER, "ml/sweep-17", "etl/quarter-close")
    check_golden("volcano_explain_queues.txt", text)
    assert data["level"] == "queues" and not data["swapped"]
    assert data["first"]["allocate_visit"] == 5 and data["second"]["allocate_visit"] == 7
    decided = data["decided_by"]
    assert (decided["plugin"], decided["tier"], decided["first"]) == ("proportion", 2, "research")
    assert decided["first_value"] == "priority 10, share 0.6" and decided["second_value"] == "priority 0, share 0.5714"
    assert "Job priority is NOT compared across queues" in data["statements"][0]
    assert "volcano-sh/volcano#3559" in data["statements"][0]
    assert [d["plugin"] for d in data["one_queue_comparisons"]] == ["priority"]
    assert data["changes"][0].startswith("raise queue batch's spec.priority above 10")
    assert "Here etl/quarter-close has the higher job priority (500 > 100) and still goes second." in text


def test_never_served_job_says_why(run_yk) -> None:
    text, data = explain(run_yk, CLUSTER, "ml/llm-pretrain", "ml/sweep-17")
    check_golden("volcano_explain_never.txt", text)
    assert data["swapped"] and data["second"]["allocate_visit"] is None
    assert data["second"]["reasons"] == [
        "enqueue: the PodGroup stays Pending: overcommit JobEnqueueable rejects it (its minResources cpu 64, memory "
        "256Gi do not fit the cluster total x overcommit-factor, minus what is used and already admitted)"
    ]


def test_evicted_pod(run_yk) -> None:
    text, data = explain(run_yk, CLUSTER, "etl/nightly-rollup-5")
    check_golden("volcano_explain_evicted.txt", text)
    assert data["verdict"] == "evicted"
    assert data["eviction"] == {"action": "preempt", "for": "etl/quarter-close-0", "node": "node-c"}
    (record,) = data["selections"]
    assert record["status"] == "evicted" and record["decided_by"] == "priority and conformance (tier 1)"
    order = [o["task"] for o in record["order"]]
    assert order == ["etl/nightly-rollup-5", "etl/nightly-rollup-4", "etl/backfill-2025-2", "etl/backfill-2025-1"]


def test_in_the_victim_set_of_a_node_without_room(run_yk) -> None:
    """preempt tries node-a first (best score): its victims cannot free 10 cpu, so nothing is evicted there."""
    text, data = explain(run_yk, CLUSTER, "etl/nightly-rollup-0")
    check_golden("volcano_explain_no_room.txt", text)
    assert data["verdict"] == "spared" and data["eviction"] is None
    (record,) = data["selections"]
    assert record["status"] == "not needed" and record["order"] == []
    assert record["role"].startswith("in the victim set, but the 2 victims could not free enough room")


def test_eviction_undone_on_a_node_where_the_preemptor_does_not_fit(run_yk, tmp_path: Path) -> None:
    """Volcano's TestPreempt "only commit evictions on the node where preemption succeeds": the eviction on n1, where
    the preemptor still does not fit, is undone (normalPreempt's per-node statement)."""
    name = "only commit evictions on the node where preemption succeeds"
    case = next(c for c in load_cases() if c.data["name"] == name)
    dump, conf = write_inputs(case.data, tmp_path)
    _, data = explain(run_yk, str(dump), "--conf", str(conf), "c1/preemptee1")
    assert data["verdict"] == "spared" and data["eviction"] is None
    assert [r["status"] for r in data["selections"]] == ["undone"]
    assert "then undone: its statement was discarded" in data["selections"][0]["role"]
    _, data = explain(run_yk, str(dump), "--conf", str(conf), "c1/preemptee2")
    assert data["verdict"] == "evicted"


def test_spared_pod(run_yk) -> None:
    text, data = explain(run_yk, CLUSTER, "shop/checkout-0")
    check_golden("volcano_explain_spared.txt", text)
    assert data["verdict"] == "spared" and data["eviction"] is None
    assert data["selections"][0]["role"] == "never a candidate: in queue prod: preempt never crosses queues"


def test_a_pod_no_selection_looked_at(run_yk) -> None:
    _, data = explain(run_yk, CLUSTER, "ml/llm-pretrain-worker-0")
    assert data["verdict"] == "not considered" and data["selections"] == []
    assert data["reasons"][0].startswith("it is pending")


def test_node_scores_of_a_placed_pod(run_yk) -> None:
    """The node choice with every candidate's score by plugin (binpack and nodeorder of the sample's conf)."""
    text, data = explain(run_yk, CLUSTER, "ml/sweep-17-trial-2")
    (placement,) = data["placements"]
    assert placement["action"] == "allocate" and placement["node"] == "node-b" and not placement["pipelined"]
    scores = placement["scores"]
    assert scores[0]["node"] == "node-b" and scores[0]["total"] == max(s["total"] for s in scores)
    assert set(scores[0]["parts"]) == {
        "binpack", "nodeorder/leastrequested", "nodeorder/balancedresource", "nodeorder/nodeaffinity",
        "nodeorder/imagelocality", "nodeorder/tainttoleration",
    }
    assert scores[0]["total"] == sum(scores[0]["parts"].values())
    assert "Node choice (allocate): placed on node-b" in text


def test_two_tasks_of_one_job(run_yk) -> None:
    _, data = explain(run_yk, CLUSTER, "ml/bert-finetune-worker-1", "bert-finetune-worker-0")
    assert data["level"] == "tasks" and data["swapped"]
    assert [d["plugin"] for d in data["comparisons"]] == [
        "priority", "fallback: CompareTask (name index, creationTimestamp, UID)"
    ]
    assert data["first"]["reasons"] == ["nothing to place: it is already Running on node gpu-1"]


# --- the seed example and the proposal ------------------------------------------------------------------------------


def test_seed_example_with_the_proposal(run_yk) -> None:
    text, data = explain(run_yk, SEED, "seed/b2", "seed/a1", "--proposal")
    check_golden("volcano_explain_seed_proposal.txt", text)
    assert data["swapped"] and data["first"]["name"] == "seed/a1"
    assert data["decided_by"]["first_value"] == "priority 10, share 0.5"
    proposal = data["proposal"]
    assert proposal["label"] == LABEL
    assert [j["job"] for j in proposal["job_first"]] == ["seed/b2", "seed/a2", "seed/a1", "seed/b1"]
    assert proposal["volcano_job_visits"] == ["seed/a2", "seed/a1", "seed/b2", "seed/b1"]
    assert proposal["verdict"].startswith("job-first order: seed/b2 (13, PodGroup class prio-13) at 1 before seed/a1")


def test_simulate_proposal_table_2(run_yk) -> None:
    result = run_yk("volcano", "simulate", SEED, "--proposal")
    assert result.exit_code == 0
    check_golden("volcano_simulate_seed_proposal.txt", result.stdout)
    data = json.loads(run_yk("volcano", "simulate", SEED, "--proposal", "--format", "json").stdout)
    jsonschema.validate(data, SIM_SCHEMA)
    jobs = data["proposal"]["job_first"]
    assert [(j["job"], j["priority"], j["inherited"]) for j in jobs] == [
        ("seed/b2", 13, False), ("seed/a2", 12, False), ("seed/a1", 10, True), ("seed/b1", 8, True)
    ]
    assert [j["volcano_visit"] for j in jobs] == [3, 1, 2, 4]
    plain = json.loads(run_yk("volcano", "simulate", SEED, "--format", "json").stdout)
    assert "proposal" not in plain


def test_simulate_proposal_table_1_ordering(run_yk) -> None:
    result = run_yk("volcano", "simulate", TABLE1, "--proposal", "-q")
    assert result.exit_code == 0
    check_golden("volcano_simulate_table1_proposal.txt", result.stdout)
    data = json.loads(run_yk("volcano", "simulate", TABLE1, "--proposal", "--format", "json", "-q").stdout)
    jsonschema.validate(data, SIM_SCHEMA)
    proposal = data["proposal"]
    assert proposal["priority_range"] == {
        "minimum": 0.0, "maximum": 100.0, "over": "every PriorityClass of the dump and the queues' priorities"
    }
    rows = {q["queue"]: (q["priority_score"], q["drf_score"], q["proportion_score"], q["total"])
            for q in proposal["queues"]}
    assert [q["queue"] for q in proposal["queues"]] == ["b", "c", "a"]
    assert rows == {"b": (0.8, 0.8, 0.4, 2.0), "c": (0.0, 0.9, 0.7, 1.6), "a": (0.4, 0.6, -0.2, 0.8)}
    assert proposal["volcano_queue_order"] == ["b", "a", "c"]
    assert [q["priority_source"] for q in proposal["queues"]] == ["class queue-80", "class queue-0", "class queue-40"]


def test_proposal_weights_come_from_the_conf(run_yk, tmp_path: Path) -> None:
    conf = tmp_path / "volcano-scheduler.conf"
    conf.write_text(
        'actions: "enqueue, allocate"\nconfigurations:\n- name: allocate\n  arguments:\n'
        "    QueueScoreOrder.priority.weight: 3\n    QueueScoreOrder.proportion.weight: 0\n"
        "tiers:\n- plugins:\n  - name: priority\n  - name: gang\n- plugins:\n  - name: drf\n  - name: proportion\n"
    )
    data = json.loads(
        run_yk("volcano", "simulate", TABLE1, "--conf", str(conf), "--proposal", "--format", "json", "-q").stdout
    )
    proposal = data["proposal"]
    assert proposal["weights"] == {"priority": 3.0, "drf": 1.0, "proportion": 0.0}
    assert "allocate arguments" in proposal["weights_source"]
    assert [(q["queue"], q["total"]) for q in proposal["queues"]] == [("b", 3.2), ("a", 1.8), ("c", 0.9)]


def test_the_empty_set_quirk_is_named(run_yk) -> None:
    _, data = explain(run_yk, QUIRK, "ns/old-task-0")
    (record,) = data["selections"]
    assert record["status"] == "evicted" and record["decided_by"] == "drf (tier 2)"
    assert record["quirk"].startswith("tier 1 priority returned no victims, which resets the selection")
    assert [(f["tier"], f["plugin"], f["includes_pod"]) for f in record["filters"]] == [
        (1, "priority", False), (2, "drf", True)
    ]
    _, spared = explain(run_yk, QUIRK, "old-task-1")
    assert spared["verdict"] == "spared"
    assert spared["selections"][0]["role"] == "kept: drf (tier 2) did not choose it, and tier 2 decides"


# --- bad input ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((SEED, "seed/a22", "b1"),
         "yk: error: no PodGroup or pod named 'seed/a22' in the dump (did you mean seed/a2 or seed/b2 or seed/a1?)\n"),
        ((SEED, "zzz"), "yk: error: no PodGroup or pod named 'zzz' in the dump\n"),
        ((SEED, "a1", "seed/a1"), "yk: error: 'a1' and 'seed/a1' name the same PodGroup\n"),
        ((SEED, "a1", "a1-task-0"), "yk: error: seed/a1-task-0 is a task of seed/a1: nothing to order\n"),
        ((SEED, "a1"), "yk: error: seed/a1 is a PodGroup: name one of its pods (did you mean seed/a1-task-0?)\n"),
        ((SEED, "a1-task-0", "--proposal"),
         "yk: error: --proposal needs two names (X Y): the proposal changes the order, not the victims\n"),
        ((SEED,), "yk: error: give at least one dump and one name (DUMP... X [Y])\n"),
        ((SEED, SEED), "yk: error: no job or pod name after the dumps: 'samples/volcano/seed-example.yaml' is a "
                       "file\n"),
        (("missing.yaml", "a", "b"), "yk: error: missing.yaml: no such file\n"),
    ],
)
def test_usage_errors_exit_2(run_yk, args: tuple[str, ...], message: str) -> None:
    result = run_yk("volcano", "explain", *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.endswith(message), result.stderr


def test_ambiguous_short_name(run_yk, tmp_path: Path) -> None:
    other = tmp_path / "other.yaml"
    other.write_text(
        "apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: a1, namespace: other}\n"
        "spec: {queue: a, minMember: 1}\n"
    )
    result = run_yk("volcano", "explain", SEED, str(other), "a1", "b1")
    assert result.exit_code == 2
    assert result.stderr.endswith("yk: error: 'a1' is ambiguous: give the namespace, one of other/a1, seed/a1\n")
    assert run_yk("volcano", "explain", SEED, str(other), "other/a1", "b1", "-q").exit_code == 0


def test_schema_is_shipped(run_yk) -> None:
    result = run_yk("schema", "volcano-explain")
    assert result.exit_code == 0 and json.loads(result.stdout) == SCHEMA


# --- random dumps and pairs -----------------------------------------------------------------------------------------


def _names(cluster: Cluster) -> list[str]:
    return [g.uid for g in cluster.pod_groups] + [p.key for p in cluster.pods] + [p.name for p in cluster.pods]


@settings(max_examples=120)
@given(
    cluster=clusters(),
    actions=st.lists(st.sampled_from(["enqueue", "allocate", "preempt", "reclaim", "backfill"]), max_size=5),
    plugins=st.lists(st.sampled_from(PLUGINS), max_size=6, unique=True),
    hierarchy=st.booleans(),
    picks=st.tuples(st.integers(0, 50), st.integers(0, 50)),
    proposal=st.booleans(),
)
def test_random_dumps_and_pairs_never_raise(
    cluster: Cluster, actions: list[str], plugins: list[str], hierarchy: bool, picks: tuple[int, int], proposal: bool
) -> None:
    conf = _conf(actions, plugins, hierarchy)
    names = [*_names(cluster), "nope"]
    x, y = names[picks[0] % len(names)], names[picks[1] % len(names)]
    try:
        first = explain_pair(cluster, conf, x, y, proposal)
    except UnknownName:
        pass
    else:
        again = explain_pair(cluster, conf, x, y, proposal)
        assert render_pair(first) == render_pair(again)
        assert render(pair_json(first)) == render(pair_json(again))
        jsonschema.validate(pair_json(first), SCHEMA)
    try:
        story = pod_story(cluster, conf, x)
    except UnknownName:
        pass
    else:
        assert render_pod(story) == render_pod(pod_story(cluster, conf, x))
        jsonschema.validate(pod_json(story), SCHEMA)
    observer = ProposalObserver(cluster)
    result = simulate(cluster, conf, observer=observer)
    assert "Proposal view: " + LABEL in render_simulation(result, "x", observer.result())
