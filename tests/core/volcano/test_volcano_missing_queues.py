"""Volcano dumps that do not hold every queue their jobs name (issue 22, item 10): Volcano creates the `default`
queue itself, so yk assumes it and says so; a job in any other missing queue is left out of the session (as
Volcano's snapshot leaves it out) while its pods still hold their nodes, and no action, explanation or story
looks a queue up that the session does not have."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from yk_cli.core.volcano.conf import PluginOption, SchedulerConf, Tier, _defaulted
from yk_cli.core.volcano.explain import UnknownName, explain_pair, pod_story
from yk_cli.core.volcano.model import Cluster, Node, Pod, PodGroup, Queue
from yk_cli.core.volcano.proposal_view import ProposalObserver
from yk_cli.core.volcano.session import ASSUMED_DEFAULT_QUEUE
from yk_cli.core.volcano.simulate import simulate
from yk_cli.report.volcano_explain_text import render_pair, render_pod
from yk_cli.report.volcano_sim_json import render_json
from yk_cli.report.volcano_sim_text import render

GI = 2**30 * 1000

DUMP = """\
apiVersion: v1
kind: List
items:
- apiVersion: scheduling.volcano.sh/v1beta1
  kind: Queue
  metadata: {name: team-a, creationTimestamp: "2024-01-01T00:00:00Z"}
  spec: {weight: 1}
- apiVersion: v1
  kind: Node
  metadata: {name: node-1}
  status:
    allocatable: {cpu: "2", memory: 4Gi, pods: "110"}
    conditions: [{type: Ready, status: "True"}]
- apiVersion: scheduling.volcano.sh/v1beta1
  kind: PodGroup
  metadata: {name: old, namespace: ns, creationTimestamp: "2024-01-01T00:00:00Z"}
  spec: {minMember: 1}
  status: {phase: Running}
- apiVersion: v1
  kind: Pod
  metadata: {name: old-0, namespace: ns, uid: u1, annotations: {scheduling.k8s.io/group-name: old}}
  spec:
    schedulerName: volcano
    nodeName: node-1
    containers: [{name: c, resources: {requests: {cpu: "2", memory: 1Gi}}}]
  status: {phase: Running}
- apiVersion: scheduling.volcano.sh/v1beta1
  kind: PodGroup
  metadata: {name: new, namespace: ns, creationTimestamp: "2024-01-01T00:00:00Z"}
  spec: {minMember: 1, queue: team-a}
  status: {phase: Inqueue}
- apiVersion: v1
  kind: Pod
  metadata: {name: new-0, namespace: ns, uid: u2, annotations: {scheduling.k8s.io/group-name: new}}
  spec:
    schedulerName: volcano
    containers: [{name: c, resources: {requests: {cpu: "1", memory: 1Gi}}}]
  status: {phase: Pending}
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: volcano-scheduler-configmap, namespace: volcano-system}
  data:
    volcano-scheduler.conf: |
      actions: "enqueue, allocate, reclaim, preempt"
      tiers:
      - plugins: [{name: priority}, {name: gang}, {name: conformance}]
      - plugins: [{name: drf}, {name: predicates}, {name: proportion}, {name: nodeorder}]
"""
"""A running pod of a PodGroup without spec.queue (so `default`), no Queue `default` in the dump, and a job of
queue team-a that reclaims: `KeyError: 'default'` in the reclaim action before the fix."""


@pytest.fixture
def dump(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.chdir(tmp_path)
    Path("dump.yaml").write_text(DUMP, encoding="utf-8")
    return "dump.yaml"


def test_default_queue_is_assumed_and_reclaimed_from(run_yk, dump: str) -> None:
    result = run_yk("volcano", "simulate", dump)
    assert (result.exit_code, result.stderr) == (0, "")
    text = result.stdout
    assert "  - assumed: queue default as Volcano creates it at start-up (weight 1, reclaimable, no" in text
    assert "  2     default  0         1       " in text
    assert "  evict      ns/old-0 on node-1 for ns/new-0 (reclaim; job ns/old, queue default)\n" in text
    assert "  pipeline   ns/new-0 -> node-1   (waits for the node's releasing pods; job ns/new, queue team-a)\n" in text
    data = json.loads(run_yk("volcano", "simulate", dump, "-f", "json").stdout)
    assert ASSUMED_DEFAULT_QUEUE in data["notes"]
    story = run_yk("volcano", "explain", dump, "ns/old-0")
    assert story.exit_code == 0
    assert "Answer: Evicted by reclaim on node node-1 to make room for ns/new-0." in story.stdout
    assert "note: assumed: queue default as Volcano creates it" in story.stdout
    pair = run_yk("volcano", "explain", dump, "ns/old", "ns/new")
    assert pair.exit_code == 0 and "queue default" in pair.stdout


def test_no_assumption_when_the_dump_holds_default_or_no_job_names_it() -> None:
    pod = Pod("ns", "a-0", "u", group="a", request={"cpu": 1000, "pods": 1000})
    named = Cluster(pod_groups=(PodGroup("ns", "a", queue="team"),), pods=(pod,), queues=(Queue("team"),))
    assert ASSUMED_DEFAULT_QUEUE not in simulate(named, _conf(["allocate"])).notes
    held = Cluster(pod_groups=(PodGroup("ns", "a"),), pods=(pod,), queues=(Queue("default", weight=3),))
    result = simulate(held, _conf(["allocate"]))
    assert ASSUMED_DEFAULT_QUEUE not in result.notes
    assert [(row.name, row.weight) for row in result.queues] == [("default", 3)]


def _conf(actions: list[str]) -> SchedulerConf:
    first = tuple(PluginOption(n, _defaulted({})) for n in ("priority", "gang", "conformance"))
    second = tuple(PluginOption(n, _defaulted({})) for n in ("drf", "predicates", "proportion", "nodeorder"))
    return SchedulerConf(tuple(actions), (Tier(first), Tier(second)))


def _cluster(running_queue: str, pending_queue: str, queues: tuple[str, ...]) -> Cluster:
    node = Node("node-1", {"cpu": 2000, "memory": 4 * GI, "pods": 110_000}, ready=True)
    request = {"cpu": 2000, "memory": GI, "pods": 1000}
    pods = (
        Pod("ns", "old-0", "u1", group="old", request=request, node_name="node-1", phase="Running"),
        Pod("ns", "new-0", "u2", group="new", request=dict(request, cpu=1000)),
    )
    groups = (
        PodGroup("ns", "old", queue=running_queue, min_member=1, phase="Running"),
        PodGroup("ns", "new", queue=pending_queue, min_member=1, phase="Inqueue"),
    )
    return Cluster(queues=tuple(Queue(q) for q in queues), pod_groups=groups, pods=pods, nodes=(node,))


CASES = list(
    itertools.product(
        ["default", "ghost", "team-a", "team-b"],
        ["default", "ghost", "team-a"],
        [(), ("team-a",), ("team-a", "team-b")],
        [["enqueue", "allocate", "reclaim", "preempt"], ["allocate", "preempt", "reclaim"]],
    )
)


@pytest.mark.parametrize(("running", "pending", "queues", "actions"), CASES)
def test_missing_queues_never_raise(running: str, pending: str, queues: tuple[str, ...], actions: list[str]) -> None:
    cluster, conf = _cluster(running, pending, queues), _conf(actions)
    result = simulate(cluster, conf)
    render(result, "x")
    render_json(result, "x")
    observer = ProposalObserver(cluster)
    render(simulate(cluster, conf, observer=observer), "x", observer.result())
    held = set(queues) | ({"default"} if "default" in (running, pending) else set())
    assert {row.name for row in result.queues} == held
    for name in ("ns/old-0", "ns/new-0"):
        render_pod(pod_story(cluster, conf, name))
    try:
        render_pair(explain_pair(cluster, conf, "ns/old", "ns/new", False))
    except UnknownName:  # pragma: no cover - both jobs are in the dump
        raise
    evicted = [e for _, events in result.actions for e in events if e.type == "evict"]
    if running not in held:  # the job is not in the session: its pod is never a victim
        assert evicted == []


def test_a_pod_of_a_job_outside_the_session_is_never_a_candidate() -> None:
    cluster = _cluster("ghost", "team-a", ("team-a",))
    story = pod_story(cluster, _conf(["allocate", "reclaim"]), "ns/old-0")
    assert story.verdict == "spared"
    (record,) = story.records
    assert (record.action, record.status) == ("reclaim", "excluded")
    assert record.role == "never a candidate: its job ns/old is not in the session (queue 'ghost' does not exist)"
