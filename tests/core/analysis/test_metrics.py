"""Dry-run metrics against numbers worked out by hand: waits and their percentiles, preemption loss, the fairness
gap, usage over time; and invariants on random runs (every pod submitted ends started, pending or failed; no wait
is negative)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings

from tests.helpers.scenarios import alloc, app, ask, preempting_case, q, scenario, wl
from yk_cli.core.analysis.metrics import FAILED, PENDING, STARTED, Metrics, percentile, run_metrics
from yk_cli.core.sim.run import SimulationOptions, simulate

S = 1_000_000_000


def config(*queues: dict[str, Any]) -> str:
    return json.dumps({"partitions": [{"name": "default", "queues": [
        {"name": "root", "submitacl": "*", "queues": list(queues)}]}]})


def metrics_of(cfg: str, workload: str, **options: Any) -> Metrics:
    partition, tree, loaded = scenario(cfg, workload)
    trace = simulate(partition, tree, loaded, SimulationOptions(**options))
    return run_metrics(trace, loaded, tree)


def with_users(workload: str, users: dict[str, str]) -> str:
    data = json.loads(workload)
    for a in data["applications"]:
        a["user"] = users[a["id"]]
    return json.dumps(data)


def test_nearest_rank_percentiles() -> None:
    values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    assert [percentile(values, p) for p in (50, 90, 99, 100)] == [5, 9, 10, 10]
    assert percentile([7], 99) == 7
    assert [percentile([20, 60], p) for p in (50, 90)] == [20, 60]


# root.a (guaranteed 10) preempts b1 (5, started 10 s before the run) at once for a1 (submitted 60 s before the run,
# 30 s long); a2 arrives at 10 s and waits for a1 to end at 30 s, then runs 10 s. Node n1 of 10.
PREEMPTING = (
    config(q("a", g=10), q("b")),
    with_users(
        wl(
            app("B", "root.b", [alloc("b0", 5, age=20), alloc("b1", 5, age=10)]),
            app("A", "root.a", asks=[ask("a1", 5, duration="30s"), ask("a2", 5, submit="10s", duration="10s")]),
        ),
        {"A": "ann", "B": "bob"},
    ),
)


def test_pods_waits_and_first_start_by_hand() -> None:
    m = metrics_of(*PREEMPTING)
    rows = [(p.ask, p.outcome, p.submit // S, p.start // S, p.end // S, p.node) for p in m.pods]  # type: ignore[operator]
    assert rows == [("a1", STARTED, -60, 0, 30, "n1"), ("a2", STARTED, 10, 30, 40, "n1")]
    queue_a = {g.key: g for g in m.groups["queue"]}["root.a"]
    assert (queue_a.submitted, queue_a.started, queue_a.pending, queue_a.failed) == (2, 2, 0, 0)
    assert queue_a.waits is not None
    assert (queue_a.waits.p50, queue_a.waits.p90, queue_a.waits.max) == (20 * S, 60 * S, 60 * S)
    assert queue_a.first_start == 60 * S  # from a1's submission (-60 s) to its start (0 s)
    assert m.makespan == 40 * S
    assert m.end == 40 * S


def test_preemption_loss_in_resource_seconds() -> None:
    m = metrics_of(*PREEMPTING)
    [loss] = m.losses
    assert (loss.application, loss.allocation, loss.queue_path, loss.user) == ("B", "b1", "root.b", "bob")
    assert loss.work == {"memory": 50.0}  # 5 memory × 10 s it had run
    users = {g.key: g for g in m.groups["user"]}
    assert (users["bob"].preemptions, users["bob"].lost, users["bob"].submitted) == (1, {"memory": 50.0}, 0)
    assert (users["ann"].preemptions, users["ann"].lost) == (0, {})


def test_fairness_gap_and_usage_by_hand() -> None:
    m = metrics_of(*PREEMPTING)
    queues = {u.path: u for u in m.queues}
    # a uses 5 of its guaranteed 10 all run long; a2 waits (and fits n1) from 10 s to 30 s
    assert queues["root.a"].gap == 20 * S
    assert queues["root.a"].mean == {"memory": 5.0}
    assert queues["root.b"].peak == {"memory": 10}  # b0 and b1 until the preemption at 0 s
    assert queues["root.b"].mean == {"memory": 5.0}
    assert queues["root.b"].gap == 0  # no guarantee
    assert m.cluster.capacity == {"memory": 10}
    assert m.cluster.mean == {"memory": 10.0}
    assert len(m.cluster.series) == 100 and m.cluster.series[0] == {"memory": 10.0}


def test_pending_pods_count_with_their_wait_so_far() -> None:
    # nothing can be preempted without a guarantee: a1 waits the whole run
    cfg = config(q("a"), q("b"))
    workload = wl(app("B", "root.b", [alloc("b0", 10, age=5)]), app("A", "root.a", asks=[ask("a1", 5)]))
    m = metrics_of(cfg, workload, until=100 * S)
    [pod] = m.pods
    assert (pod.outcome, pod.code, pod.start) == (PENDING, "cluster-full", None)
    group = m.groups["queue"][0]
    assert group.waits is not None
    assert (group.waits.count, group.waits.censored, group.waits.max) == (1, 1, m.end - pod.submit)
    assert m.makespan is None


def test_a_pod_too_big_for_every_node_opens_no_gap() -> None:
    cfg = config(q("a", g=20), q("b"))
    workload = wl(app("A", "root.a", asks=[ask("huge", 50)]))
    m = metrics_of(cfg, workload)
    assert {u.path: u.gap for u in m.queues}["root.a"] == 0


@settings(max_examples=60, deadline=None)
@given(preempting_case())
def test_every_pod_ends_started_pending_or_failed_and_no_wait_is_negative(
    case: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    cfg, workload = case
    m = metrics_of(json.dumps(cfg), json.dumps(workload))
    for dimension, groups in m.groups.items():
        assert sum(g.submitted for g in groups) == len(m.pods), dimension
        for g in groups:
            assert g.started + g.pending + g.failed == g.submitted
            if g.waits is not None:
                assert 0 <= g.waits.p50 <= g.waits.p90 <= g.waits.p95 <= g.waits.p99 <= g.waits.max
    for p in m.pods:
        assert p.outcome in (STARTED, PENDING, FAILED)
        if p.start is not None:
            assert p.start >= max(p.submit, 0)
    for u in m.queues:
        assert 0 <= u.gap <= m.end


def test_predicted_against_observed_starts() -> None:
    data = json.loads(PREEMPTING[1])
    asks = data["applications"][1]["asks"]
    asks[0]["observedStartTime"] = "10s"  # predicted 0 s: 10 s early
    asks[1]["observedStartTime"] = "50s"  # predicted 30 s: 20 s early
    m = metrics_of(PREEMPTING[0], json.dumps(data))
    assert [p.observed_start for p in m.pods] == [10 * S, 50 * S]
    errors = {g.key: g.errors for g in m.groups["queue"]}
    assert errors["root.b"] is None
    found = errors["root.a"]
    assert found is not None
    assert (found.count, found.p50, found.p90, found.bias) == (2, 10 * S, 20 * S, -15 * S)
