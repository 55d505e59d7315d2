"""Volcano's node scores (core/volcano/scoring.py): binpack against its own unit test's numbers, nodeorder against the
worked numbers of SCORING.md, and the fast total (the score index's) against the full scores on random clusters."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from tests.helpers.volcano import clusters
from tests.helpers.volcano_upstream import UPSTREAM, objects
from yk_cli.core.volcano.conf import PluginOption, SchedulerConf, Tier
from yk_cli.core.volcano.model import Cluster
from yk_cli.core.volcano.scoring import NodeScorer
from yk_cli.core.volcano.session import PENDING, Session, open_session
from yk_cli.load.volcano import load_volcano


def _conf(*plugins: tuple[str, dict[str, object]]) -> SchedulerConf:
    options = tuple(PluginOption(n, {"enableNodeOrder": True}, a) for n, a in plugins)
    return SchedulerConf(("allocate",), (Tier(options),))


def _session(tmp_path: Path, case: dict) -> Session:
    dump = tmp_path / "objects.json"
    dump.write_text(json.dumps(objects(case)), encoding="utf-8")
    return open_session(load_volcano([str(dump)], None).cluster, "volcano")


def _binpack_cases() -> list:
    doc = YAML(typ="safe").load((UPSTREAM / "scores.yaml").read_text(encoding="utf-8"))
    return [pytest.param(c, id=f"{c['name']}#{c['case']}:{c['task']}") for s in doc["sources"] for c in s["cases"]]


@pytest.mark.parametrize("case", _binpack_cases())
def test_binpack_scores_as_volcanos_test(tmp_path: Path, case: dict) -> None:
    """binpack_test.go TestNode: each node's score of each task (the later revision's numbers where it has them:
    a node where a weighted resource does not fit scores 0)."""
    ssn = _session(tmp_path, case)
    scorer = NodeScorer(_conf(("binpack", case["arguments"])), ssn.dims, ssn.nodes)
    task = next(t for j in ssn.jobs.values() for t in j.tasks if t.key == case["task"])
    expected = case.get("expectedLater", case["expected"])
    got = {s.node.name: s.total for s in scorer.scores(task, ssn.nodes)}
    assert got == pytest.approx(expected, abs=case["tolerance"])


def test_nodeorder_worked_numbers(tmp_path: Path) -> None:
    """SCORING.md's worked example: 1 cpu / 1G on empty nodes of 2 cpu / 4Gi and 4 cpu / 8Gi."""
    case = {
        "nodes": [{"name": "n1", "cpu": "2", "memory": "4Gi"}, {"name": "n2", "cpu": "4", "memory": "8Gi"}],
        "queues": [{"name": "c1"}],
        "podGroups": [{"name": "pg1", "namespace": "c1", "queue": "c1", "phase": "Inqueue"}],
        "pods": [{"namespace": "c1", "name": "p1", "cpu": "1", "memory": "1G", "group": "pg1"}],
    }
    ssn = _session(tmp_path, case)
    task = next(iter(ssn.jobs.values())).tasks[0]
    least = NodeScorer(_conf(("nodeorder", {})), ssn.dims, ssn.nodes).scores(task, ssn.nodes)
    assert [(s.node.name, dict(s.parts)) for s in least] == [
        ("n2", {"nodeorder/leastrequested": 81.0, "nodeorder/balancedresource": 93.0, "nodeorder/nodeaffinity": 0.0,
                "nodeorder/imagelocality": 0.0, "nodeorder/tainttoleration": 300.0}),
        ("n1", {"nodeorder/leastrequested": 63.0, "nodeorder/balancedresource": 86.0, "nodeorder/nodeaffinity": 0.0,
                "nodeorder/imagelocality": 0.0, "nodeorder/tainttoleration": 300.0}),
    ]
    most = NodeScorer(_conf(("nodeorder", {"leastrequested.weight": 0, "mostrequested.weight": 1})), ssn.dims,
                      ssn.nodes).scores(task, ssn.nodes)
    assert [(s.node.name, s.total) for s in most] == [("n1", 36 + 86 + 600.0 / 2), ("n2", 18 + 93 + 300.0)]


WEIGHTS = st.fixed_dictionaries({}, optional={
    "leastrequested.weight": st.integers(0, 3), "mostrequested.weight": st.integers(0, 3),
    "balancedresource.weight": st.integers(0, 3), "tainttoleration.weight": st.integers(0, 3),
})
BINPACK = st.fixed_dictionaries({}, optional={
    "binpack.weight": st.integers(0, 10), "binpack.cpu": st.integers(-1, 3), "binpack.memory": st.integers(0, 3),
})


@settings(max_examples=60, deadline=None)
@given(cluster=clusters(), weights=WEIGHTS, binpack=BINPACK, order=st.booleans())
def test_fast_total_is_the_full_total(cluster: Cluster, weights: dict, binpack: dict, order: bool) -> None:
    """The score index's total (one number, the hot path) equals the sum of the parts the full scores give, for every
    pending task and node, whenever the task's scores depend on resources only."""
    ssn = open_session(cluster, "volcano")
    plugins = [("nodeorder", dict(weights)), ("binpack", dict(binpack))]
    scorer = NodeScorer(_conf(*(plugins if order else plugins[::-1])), ssn.dims, ssn.nodes)
    for job in ssn.jobs.values():
        for task in job.tasks:
            if task.status != PENDING or not scorer.resource_only(task):
                continue
            full = {s.node.name: s.total for s in scorer.scores(task, ssn.nodes)}
            assert {n.name: scorer.total(task, n) for n in ssn.nodes} == full


def test_a_tie_is_said_aloud(run_yk, tmp_path: Path) -> None:
    """Eight equal nodes: Volcano would pick at random; yk takes the smallest name and lists (five of) the others."""
    case = {
        "nodes": [{"name": f"n{i}", "cpu": "4", "memory": "8Gi", "pods": "10"} for i in range(1, 9)],
        "queues": [{"name": "q"}],
        "podGroups": [{"name": "g", "namespace": "ns", "queue": "q", "minMember": 1, "phase": "Inqueue"}],
        "pods": [{"namespace": "ns", "name": f"p-{i}", "cpu": "1", "memory": "1Gi", "group": "g"} for i in range(2)],
    }
    dump = tmp_path / "objects.json"
    dump.write_text(json.dumps(objects(case)), encoding="utf-8")
    text = run_yk("volcano", "simulate", str(dump), "-q")
    assert "bind       ns/p-0 -> n1   (job ns/g, queue q; a tie with n2, n3, n4, n5, n6 and more)\n" in text.stdout
    data = json.loads(run_yk("volcano", "simulate", str(dump), "-q", "--format", "json").stdout)
    first = data["actions"][1]["events"][0]
    assert first == {"type": "bind", "task": "ns/p-0", "node": "n1", "job": "ns/g", "queue": "q", "score": 474.0,
                     "tie": ["n2", "n3", "n4", "n5", "n6"], "tie_more": True}
    explained = json.loads(run_yk("volcano", "explain", str(dump), "ns/p-0", "-q", "--format", "json").stdout)
    (placement,) = explained["placements"]
    assert placement["node"] == "n1" and placement["tie"] == [f"n{i}" for i in range(2, 9)]


@settings(max_examples=60, deadline=None)
@given(cluster=clusters())
def test_requests_from_the_node_vectors_are_the_pod_walk(cluster: Cluster) -> None:
    """When every pod on a node asks for cpu and memory, the kube requests its scorers read are derived from its
    vectors (used + pipelined - evicted); they equal the walk over its pods that is used otherwise."""
    ssn = open_session(cluster, "volcano")
    pending = [t for j in ssn.jobs.values() for t in j.tasks if t.status == PENDING]
    vectors = NodeScorer(_conf(("nodeorder", {})), ssn.dims, ssn.nodes, pending)
    vectors.defaults_apply = False
    walk = NodeScorer(_conf(("nodeorder", {})), ssn.dims, ssn.nodes, pending)
    walk.defaults_apply = True
    for node in ssn.nodes:
        if any(t.resreq[0] == 0 or t.resreq[1] == 0 for t in node.tasks.values()):
            continue  # a pod without a cpu or memory request: the walk adds kube's defaults, the vectors cannot
        a, b = vectors._node_requested(node), walk._node_requested(node)
        assert (a.nonzero_cpu, a.nonzero_memory) == pytest.approx((b.nonzero_cpu, b.nonzero_memory))
        assert a.actual == pytest.approx(b.actual)
