"""Sweep parameters: paths parsed against the config's tree, values expanded (lists, ranges, seeded samples), and
applied to the config and the workload; one point evaluated by hand."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.helpers.scenarios import scenario
from yk_cli.core.config.model import decode_config
from yk_cli.core.config.queues import build_queue_tree
from yk_cli.core.sweep.evaluate import SweepInputs, evaluate
from yk_cli.core.sweep.params import (
    ARRIVALS,
    GUARANTEED,
    MAX,
    MAXAPPLICATIONS,
    NODES_COUNT,
    NODES_SIZE,
    PROPERTY,
    Target,
    apply_config,
    apply_workload,
    check_value,
    parse_path,
)
from yk_cli.core.sweep.points import Parameter, Point, expand, grid
from yk_cli.load.source import parse_yaml

CONFIG = """
partitions:
  - name: default
    queues:
      - name: root
        submitacl: '*'
        queues:
          - name: prod
            resources: {guaranteed: {memory: 4}}
          - name: batch
"""
WORKLOAD = """
nodes:
  - {name: n1, resources: {memory: 10}, labels: {pool: a}}
  - {name: n2, resources: {memory: 10}, labels: {pool: b}}
applications:
  - id: B
    queue: root.batch
    allocations: [{name: b0, node: n2, resources: {memory: 10}}]
  - id: P
    queue: root.prod
    submitTime: 10s
    asks: [{name: p0, resources: {memory: 6}, duration: 10s}]
"""
S = 1_000_000_000


def tree_and_config():  # type: ignore[no-untyped-def]
    decoded, problems = decode_config(parse_yaml(CONFIG.lstrip()).documents[0])
    assert problems == []
    return build_queue_tree(decoded.partitions[0]), decoded


def test_paths() -> None:
    tree, _ = tree_and_config()
    assert parse_path("root.prod.resources.guaranteed.memory", tree) == Target(GUARANTEED, "root.prod", "memory")
    assert parse_path("root.batch.resources.max.vcore", tree) == Target(MAX, "root.batch", "vcore")
    assert parse_path("root.prod.properties.preemption.delay", tree) == Target(PROPERTY, "root.prod",
                                                                                 "preemption.delay")
    assert parse_path("root.maxapplications", tree) == Target(MAXAPPLICATIONS, "root")
    assert parse_path("nodes[pool=a].count", tree) == Target(NODES_COUNT, selector=("pool", "a"))
    assert parse_path("nodes.size", tree) == Target(NODES_SIZE)
    assert parse_path("workload.arrivals", tree) == Target(ARRIVALS)
    with pytest.raises(ValueError, match="queue root has no child queue 'nope' \\(its children: prod, batch\\)"):
        parse_path("root.nope.maxapplications", tree)
    with pytest.raises(ValueError, match="no queue of the config starts it"):
        parse_path("prod.maxapplications", tree)
    with pytest.raises(ValueError, match=r"resources\.guaranted\.memory is no setting of queue root\.prod"):
        parse_path("root.prod.resources.guaranted.memory", tree)
    with pytest.raises(ValueError, match=r"nodes\[LABEL=VALUE\]\.count"):
        parse_path("nodes[pool].count", tree)
    assert check_value(Target(NODES_COUNT), 0) == "0 is not a whole number of at least 1"
    assert check_value(Target(ARRIVALS), -1) == "-1 is not a positive factor"
    assert check_value(Target(GUARANTEED, "root.prod", "memory"), "16Gi") == ""


def test_values() -> None:
    assert expand([1, "2", True]) == (1, "2", True)
    assert expand({"from": 2, "to": 8, "step": 3}) == (2, 5, 8)
    assert expand({"from": 0.5, "to": 1.5, "step": 0.5}) == (0.5, 1.0, 1.5)
    assert expand({"from": "30s", "to": "2m", "step": "30s"}) == ("30s", "1m0s", "1m30s", "2m0s")
    assert expand({"from": "16Gi", "to": "48Gi", "step": "16Gi"}) == ("16Gi", "32Gi", "48Gi")
    sample = expand({"random": {"low": 1, "high": 100, "count": 4, "seed": 7}})
    assert sample == expand({"random": {"low": 1, "high": 100, "count": 4, "seed": 7}})
    assert len(sample) == 4 and all(isinstance(v, int) and 1 <= v <= 100 for v in sample)
    for bad, message in (
        ([], "no values"),
        ({"from": 1, "to": 0, "step": 1}, "to must not be below from"),
        ({"from": 1, "to": 2, "step": 0}, "step must be positive"),
        ({"from": "1Gi", "to": "2Mi", "step": "1Mi"}, "quantities of one unit"),
        ({"random": {"low": 1, "high": 2}}, "give low, high, count and seed"),
        ("8", "give a list"),
    ):
        with pytest.raises(ValueError, match=message):
            expand(bad)


def test_grid_order() -> None:
    a = Parameter("a", "nodes.count", Target(NODES_COUNT), (1, 2))
    b = Parameter("b", "nodes.size", Target(NODES_SIZE), (0.5, 1.0, 2.0))
    assert [p.values for p in grid([a, b])] == [(1, 0.5), (1, 1.0), (1, 2.0), (2, 0.5), (2, 1.0), (2, 2.0)]


def test_apply_config_and_workload() -> None:
    _, config = tree_and_config()
    changed = apply_config(config, "default", Target(GUARANTEED, "root.prod", "memory"), 8)
    prod = changed.partitions[0].root.queues[0]
    assert prod.resources.guaranteed == {"memory": "8"}
    changed = apply_config(changed, "default", Target(PROPERTY, "root.batch", "preemption.policy"), "disabled")
    assert changed.partitions[0].root.queues[1].properties == {"preemption.policy": "disabled"}
    assert config.partitions[0].root.queues[0].resources.guaranteed == {"memory": "4"}  # the base is untouched
    _, _, workload = scenario(CONFIG, WORKLOAD)
    one = apply_workload(workload, Target(NODES_COUNT, selector=("pool", "b")), 0 + 1)
    assert [n.name for n in one.nodes] == ["n1", "n2"]
    fewer = apply_workload(workload, Target(NODES_COUNT), 1)
    assert [n.name for n in fewer.nodes] == ["n1"]
    assert fewer.applications[0].allocations == ()  # b0 ran on n2, cut away
    more = apply_workload(workload, Target(NODES_COUNT), 5)
    assert [n.name for n in more.nodes] == ["n1", "n2", "n1~2", "n2~2", "n1~3"]
    bigger = apply_workload(workload, Target(NODES_SIZE, selector=("pool", "a")), 1.5)
    assert [n.capacity for n in bigger.nodes] == [{"memory": 15}, {"memory": 10}]
    faster = apply_workload(workload, Target(ARRIVALS), 2)
    assert faster.applications[1].submit_time == 5 * S
    assert workload.applications[1].submit_time == 10 * S


def test_evaluate_one_point_by_hand() -> None:
    _, config = tree_and_config()
    _, _, workload = scenario(CONFIG, WORKLOAD)
    targets = (Target(NODES_COUNT),)
    shared = SweepInputs(config, "default", (("w", workload),), targets)
    # one node: b0 is gone with n2, p0 starts as it arrives; two nodes: p0 fits n1 at once too
    for count in (1, 2):
        result = evaluate(shared, Point(0, (count,)))
        assert result.errors == ()
        assert result.number("p95-wait:queue=root.prod") == 0.0
        assert result.number("pending") == 0.0
    bad = evaluate(replace(shared, targets=(Target(GUARANTEED, "root.prod", "memory"),)), Point(1, ("lots",)))
    assert bad.errors == ("invalid quantity",) and bad.numbers == ()
