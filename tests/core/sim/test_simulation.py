"""The simulation engine through small hand-written configs and workloads: exact orders, times and pending reasons.

Every scenario states what YuniKorn's core does (reference sections 5 and 6) and checks the trace against it; the
hypothesis test at the end checks invariants on random small workloads.
"""

from __future__ import annotations

import json
from typing import Any

import hypothesis
import pytest
from hypothesis import assume, given, settings

from tests.conftest import dedent
from tests.helpers.scenarios import allocated, pending, random_case, run, scenario, steps
from yk_cli.core.config.placement import Placement, place
from yk_cli.core.diagnostics import Level
from yk_cli.core.ordering import policies
from yk_cli.core.sim import trace as codes
from yk_cli.core.sim.build import build_state
from yk_cli.core.sim.commit import Arrivals, arrive, settle_all
from yk_cli.core.sim.run import Simulation, SimulationOptions, simulate
from yk_cli.load.workload import parse_workload


def one_leaf(nodesort: str = "", leaf: str = "") -> str:
    """A config whose only leaf is root.leaf; `leaf` adds flow-style keys to it (e.g. `maxapplications: 1`)."""
    sort = f"    nodesortpolicy: {nodesort}\n" if nodesort else ""
    extra = f"\n            {leaf}" if leaf else ""
    return (
        f"partitions:\n  - name: default\n{sort}    queues:\n      - name: root\n        submitacl: '*'\n"
        f"        queues:\n          - name: leaf{extra}\n"
    )


def asks(prefix: str, count: int, memory: int, priority: int = 0) -> list[dict[str, Any]]:
    """`count` asks named prefix1..prefixN, each for `memory` bytes."""
    return [
        {"name": f"{prefix}{i}", "priority": priority, "resources": {"memory": memory}} for i in range(1, count + 1)
    ]


def workload_json(memory: int, *apps: tuple[str, str, list[dict[str, Any]]]) -> str:
    """A workload of one node with `memory` bytes and applications (id, queue, asks), as JSON (which is YAML)."""
    return json.dumps(
        {
            "nodes": [{"name": "n1", "resources": {"memory": memory}}],
            "applications": [{"id": app_id, "queue": queue, "asks": items} for app_id, queue, items in apps],
        }
    )


# --- application sorting ---------------------------------------------------------------------------------------

LEAF_POLICY = """
partitions:
  - name: default
    queues:
      - name: root
        submitacl: '*'
        queues:
          - name: leaf
            properties:
              application.sort.policy: {policy}
              application.sort.priority: {priority}
"""

THREE_APPS = """
nodes:
  - {name: n1, resources: {vcore: 100, memory: 100}}
applications:
  - id: A
    queue: root.leaf
    submitTime: -20s
    asks:
      - {name: a1, priority: 1, resources: {vcore: 1}}
      - {name: a2, priority: 1, resources: {vcore: 1}}
  - id: B
    queue: root.leaf
    submitTime: -10s
    asks:
      - {name: b1, priority: 5, resources: {vcore: 1}}
      - {name: b2, priority: 5, resources: {vcore: 1}}
  - id: C
    queue: root.leaf
    submitTime: -5s
    asks:
      - {name: c1, priority: 5, resources: {vcore: 1}}
      - {name: c2, priority: 5, resources: {vcore: 1}}
"""


@pytest.mark.parametrize(
    ("policy", "priority", "expected"),
    [
        # fifo + priority: the highest-priority application first, older first among equals; it keeps going while
        # its priority stays the highest.
        ("fifo", "enabled", ["b1", "b2", "c1", "c2", "a1", "a2"]),
        # fifo without priority: plain submission order.
        ("fifo", "disabled", ["a1", "a2", "b1", "b2", "c1", "c2"]),
        # fair + priority: B and C (priority 5) share by usage, older first on a tie; then A.
        ("fair", "enabled", ["b1", "c1", "b2", "c2", "a1", "a2"]),
        # fair without priority: lowest usage first, priority (then age) breaks the ties.
        ("fair", "disabled", ["b1", "c1", "a1", "b2", "c2", "a2"]),
    ],
)
def test_application_sorting(policy: str, priority: str, expected: list[str]) -> None:
    trace = run(LEAF_POLICY.format(policy=policy, priority=priority), THREE_APPS)
    assert allocated(trace) == expected
    assert trace.pending == ()


def test_fair_usage_ratio_uses_the_leaf_guarantee() -> None:
    """Usage over the leaf's guarantee: 2 of 8 vcore (0.25) weighs less than 1 of 2 (0.5), so A goes again."""
    config = """
    partitions:
      - name: default
        queues:
          - name: root
            submitacl: '*'
            queues:
              - name: leaf
                properties: {application.sort.policy: fair}
                resources: {guaranteed: {vcore: 8, memory: 8}}
    """
    workload = """
    nodes:
      - {name: n1, resources: {vcore: 100, memory: 100}}
    applications:
      - id: A
        queue: root.leaf
        submitTime: -10s
        asks:
          - {name: a1, resources: {vcore: 2}}
          - {name: a2, resources: {vcore: 2}}
      - id: B
        queue: root.leaf
        submitTime: -5s
        asks:
          - {name: b1, resources: {memory: 4}}
          - {name: b2, resources: {memory: 4}}
    """
    # a1 (tie, older); b1 (0 < 0.25); a2 (0.25 < 0.5); b2.
    assert allocated(run(config, workload)) == ["a1", "b1", "a2", "b2"]


STATEAWARE = LEAF_POLICY.format(policy="stateaware", priority="enabled")
STATEAWARE_APPS = """
nodes:
  - {name: n1, resources: {vcore: 100, memory: 100}}
applications:
  - id: A
    queue: root.leaf
    submitTime: -20s
    asks:
      - {name: a1, priority: 1, resources: {vcore: 1}}
  - id: B
    queue: root.leaf
    submitTime: -10s
    asks:
      - {name: b1, priority: 5, resources: {vcore: 1}}
      - {name: b2, priority: 5, resources: {vcore: 1}}
  - id: C
    queue: root.leaf
    submitTime: -5s
    asks:
      - {name: c1, priority: 7, resources: {vcore: 1}}
"""


def test_stateaware_is_fifo_from_yunikorn_1_6() -> None:
    trace = run(STATEAWARE, STATEAWARE_APPS, yunikorn_version="1.8")
    assert steps(trace) == [
        (0, "allocate", "c1", "n1"),
        (0, "allocate", "b1", "n1"),
        (0, "allocate", "b2", "n1"),
        (0, "allocate", "a1", "n1"),
    ]
    assert allocated(run(STATEAWARE, STATEAWARE_APPS, yunikorn_version="1.6")) == ["c1", "b1", "b2", "a1"]


def test_stateaware_filter_in_yunikorn_1_5() -> None:
    """One new application at a time: A (oldest) starts and stays Starting, which keeps B and C out."""
    at_start = run(STATEAWARE, STATEAWARE_APPS, yunikorn_version="1.5", until=0)
    assert allocated(at_start) == ["a1"]
    assert {ask: code for ask, (code, _) in pending(at_start).items()} == {
        "b1": codes.STATE_FILTER,
        "b2": codes.STATE_FILTER,
        "c1": codes.STATE_FILTER,
    }
    assert "application A is still Starting" in pending(at_start)["c1"][1]
    # A leaves Starting after 5 minutes; then B (the oldest Accepted) starts, is Running after its second
    # allocation, and C may start: submission order, whatever the priorities.
    trace = run(STATEAWARE, STATEAWARE_APPS, yunikorn_version="1.5")
    assert steps(trace) == [
        (0, "allocate", "a1", "n1"),
        (300, "allocate", "b1", "n1"),
        (300, "allocate", "b2", "n1"),
        (300, "allocate", "c1", "n1"),
    ]
    assert allocated(run(STATEAWARE, STATEAWARE_APPS, yunikorn_version="v1.4.0")) == ["a1", "b1", "b2", "c1"]


# --- queue sorting ---------------------------------------------------------------------------------------------

TWO_QUEUES = """
partitions:
  - name: default
    queues:
      - name: root
        submitacl: '*'
        properties: {{application.sort.priority: {priority}}}
        queues:
          - name: q1
            resources: {q1}
          - name: q2
            resources: {q2}
"""


def two_queue_workload(n1: int, n2: int, p1: int = 0, p2: int = 0) -> str:
    """Application A in root.q1 with n1 asks of memory 5, B in root.q2 with n2."""
    return workload_json(1000, ("A", "root.q1", asks("a", n1, 5, p1)), ("B", "root.q2", asks("b", n2, 5, p2)))


def test_fair_queue_order_follows_usage_over_guarantee() -> None:
    config = TWO_QUEUES.format(priority="enabled", q1="{guaranteed: {memory: 10}}", q2="{guaranteed: {memory: 40}}")
    # Both at share 0 with equal pending: configuration order. Then q1 is at 5/10 while q2 climbs 5/40 at a time
    # up to 20/40; at the tie q2 has nothing left.
    assert allocated(run(config, two_queue_workload(4, 4))) == ["a1", "b1", "b2", "b3", "b4", "a2", "a3", "a4"]


def test_fair_queue_order_over_max_without_guarantee() -> None:
    config = TWO_QUEUES.format(priority="enabled", q1="{max: {memory: 20}}", q2="{max: {memory: 80}}")
    trace = run(config, two_queue_workload(5, 6))
    # Share = usage / max. At 0 / 0 q2 has more pending; at 0.25 / 0.25 q1 has more pending.
    assert allocated(trace) == ["b1", "a1", "b2", "b3", "b4", "a2", "b5", "b6", "a3", "a4"]
    code, reason = pending(trace)["a5"]
    assert code == codes.QUEUE_MAX
    assert reason.startswith("queue max reached at root.q1:")


def test_queue_priority_before_fairness_unless_the_parent_disables_it() -> None:
    guarantees = {"q1": "{guaranteed: {memory: 10}}", "q2": "{guaranteed: {memory: 10}}"}
    workload = two_queue_workload(3, 3, p1=0, p2=9)
    first = run(TWO_QUEUES.format(priority="enabled", **guarantees), workload)
    assert allocated(first) == ["b1", "b2", "b3", "a1", "a2", "a3"]
    # Fairness first: equal shares go to the higher priority, then the lower share.
    second = run(TWO_QUEUES.format(priority="disabled", **guarantees), workload)
    assert allocated(second) == ["b1", "a1", "b2", "a2", "b3", "a3"]


# --- node sorting ----------------------------------------------------------------------------------------------

# Reference 5.4: node a at 80% vcore / 10% memory, node b at 40% / 60%.
NODES_AB = """
nodes:
  - {name: a, resources: {vcore: 10, memory: 100}, occupied: {vcore: 8, memory: 10}}
  - {name: b, resources: {vcore: 10, memory: 100}, occupied: {vcore: 4, memory: 60}}
applications:
  - id: A
    queue: root.leaf
    asks:
      - {name: x, resources: {vcore: 100m, memory: 1}}
"""


@pytest.mark.parametrize(
    ("nodesort", "node"),
    [
        ("{type: fair}", "a"),  # a 0.45 < b 0.5: least used first
        ("{type: fair, resourceweights: {vcore: 4, memory: 1}}", "b"),  # a 0.66 > b 0.44
        ("{type: binpacking}", "b"),  # most used first
        ("{type: binpacking, resourceweights: {vcore: 4, memory: 1}}", "a"),
    ],
)
def test_node_choice_with_weights(nodesort: str, node: str) -> None:
    trace = run(one_leaf(nodesort=nodesort), NODES_AB)
    assert steps(trace) == [(0, "allocate", "x", node)]


def test_node_usage_numbers_of_the_reference_example() -> None:
    capacity = {"vcore": 10_000, "memory": 100}
    a, b = {"vcore": 2_000, "memory": 90}, {"vcore": 6_000, "memory": 40}
    weights = {"vcore": 4.0, "memory": 1.0}
    assert policies.node_usage(capacity, a, policies.DEFAULT_WEIGHTS) == pytest.approx(0.45)
    assert policies.node_usage(capacity, b, policies.DEFAULT_WEIGHTS) == pytest.approx(0.5)
    assert policies.node_usage(capacity, a, weights) == pytest.approx(0.66)
    assert policies.node_usage(capacity, b, weights) == pytest.approx(0.44)


def test_fair_node_order_spreads_and_ties_go_to_the_node_name() -> None:
    workload = """
    nodes:
      - {name: n2, resources: {memory: 100}}
      - {name: n1, resources: {memory: 100}}
      - {name: n3, resources: {memory: 100}, schedulable: false}
    applications:
      - id: A
        queue: root.leaf
        asks:
          - {name: x1, resources: {memory: 10}}
          - {name: x2, resources: {memory: 10}}
          - {name: x3, resources: {memory: 10}}
    """
    fair = run(one_leaf(nodesort="{type: fair}"), workload)
    assert [(e.ask, e.node) for e in fair.events] == [("x1", "n1"), ("x2", "n2"), ("x3", "n1")]
    packed = run(one_leaf(nodesort="{type: binpacking}"), workload)
    assert [(e.ask, e.node) for e in packed.events] == [("x1", "n1"), ("x2", "n1"), ("x3", "n1")]


# --- headroom and maxapplications ------------------------------------------------------------------------------

LEVELS = """
partitions:
  - name: default
    queues:
      - name: root
        submitacl: '*'
        queues:
          - name: parent
            resources: {max: {memory: 30}}
            queues:
              - name: small
                resources: {max: {memory: 20}}
              - name: open
          - name: other
"""


def test_max_headroom_at_every_level_names_the_queue() -> None:
    workload = workload_json(
        50,
        ("S", "root.parent.small", asks("s", 5, 5, 30)),
        ("O", "root.parent.open", asks("o", 3, 5, 20)),
        ("T", "root.other", asks("t", 6, 5, 10)),
    )
    trace = run(LEVELS, workload)
    assert allocated(trace) == ["s1", "s2", "s3", "s4", "o1", "o2", "t1", "t2", "t3", "t4"]
    assert pending(trace) == {
        "s5": (
            codes.QUEUE_MAX,
            "queue max reached at root.parent.small: {memory: 20} of max {memory: 20} in use, the ask needs "
            "{memory: 5}",
        ),
        "o3": (
            codes.QUEUE_MAX,
            "queue max reached at root.parent: {memory: 30} of max {memory: 30} in use, the ask needs {memory: 5}",
        ),
        "t5": (
            codes.CLUSTER_FULL,
            "the cluster is full: {memory: 50} of {memory: 50} in use, the ask needs {memory: 5}",
        ),
        "t6": (
            codes.CLUSTER_FULL,
            "the cluster is full: {memory: 50} of {memory: 50} in use, the ask needs {memory: 5}",
        ),
    }


def test_a_type_without_max_is_unlimited() -> None:
    config = one_leaf(leaf="resources: {max: {vcore: 1}}")
    workload = """
    nodes:
      - {name: n1, resources: {vcore: 10, memory: 100}}
    applications:
      - id: A
        queue: root.leaf
        asks:
          - {name: m1, resources: {memory: 60}}
          - {name: v1, resources: {vcore: 1}}
          - {name: v2, resources: {vcore: 1}}
    """
    trace = run(config, workload)
    assert allocated(trace) == ["m1", "v1"]
    assert pending(trace)["v2"][0] == codes.QUEUE_MAX


MAXAPPS = """
partitions:
  - name: default
    queues:
      - name: root
        submitacl: '*'
        queues:
          - name: parent
            maxapplications: 2
            queues:
              - name: x
                maxapplications: 1
              - name: y
"""
MAXAPPS_WORKLOAD = """
nodes:
  - {name: n1, resources: {memory: 100}}
applications:
  - id: A
    queue: root.parent.x
    submitTime: -30s
    asks:
      - {name: a1, resources: {memory: 5}, duration: 60s}
  - id: B
    queue: root.parent.x
    submitTime: -20s
    asks:
      - {name: b1, resources: {memory: 5}}
  - id: C
    queue: root.parent.y
    submitTime: -10s
    asks:
      - {name: c1, resources: {memory: 5}}
  - id: D
    queue: root.parent.y
    submitTime: -5s
    asks:
      - {name: d1, resources: {memory: 5}}
"""


def test_maxapplications_on_the_queue_and_an_ancestor() -> None:
    trace = run(MAXAPPS, MAXAPPS_WORKLOAD, until=0)
    assert allocated(trace) == ["a1", "c1"]
    assert pending(trace) == {
        "b1": (codes.MAX_APPLICATIONS, "maxapplications reached at root.parent.x: 1 of 1 applications run"),
        "d1": (codes.MAX_APPLICATIONS, "maxapplications reached at root.parent: 2 of 2 applications run"),
    }


def test_a_finished_application_makes_room_for_the_next() -> None:
    """A ends at 60 s: one more application may start below root.parent, and x (share 0) sorts before y."""
    trace = run(MAXAPPS, MAXAPPS_WORKLOAD)
    assert steps(trace) == [
        (0, "allocate", "a1", "n1"),
        (0, "allocate", "c1", "n1"),
        (60, "complete", "a1", "n1"),
        (60, "allocate", "b1", "n1"),
    ]
    assert pending(trace)["d1"][0] == codes.MAX_APPLICATIONS


def test_a_running_application_is_not_held_by_maxapplications() -> None:
    workload = """
    nodes:
      - {name: n1, resources: {memory: 100}}
    applications:
      - id: A
        queue: root.leaf
        submitTime: -10s
        asks:
          - {name: a1, resources: {memory: 5}}
          - {name: a2, resources: {memory: 5}, submitTime: 20s}
      - id: B
        queue: root.leaf
        asks:
          - {name: b1, resources: {memory: 5}}
    """
    trace = run(one_leaf(leaf="maxapplications: 1"), workload)
    assert steps(trace) == [(0, "allocate", "a1", "n1"), (20, "allocate", "a2", "n1")]
    assert pending(trace)["b1"][0] == codes.MAX_APPLICATIONS


# --- time: completions, arrivals and reservations --------------------------------------------------------------

TWO_LEAVES = """
partitions:
  - name: default
    queues:
      - name: root
        submitacl: '*'
        queues:
          - name: big
          - name: small
"""
RESERVING = """
nodes:
  - {name: n1, resources: {memory: 10}}
  - {name: n2, resources: {memory: 10}}
applications:
  - id: R
    queue: root.small
    submitTime: -60s
    allocations:
      - {name: r1, node: n1, resources: {memory: 6}, startTime: -60s, duration: 30s}
      - {name: r2, node: n2, resources: {memory: 6}, startTime: -60s, duration: 90s}
  - id: X
    queue: root.big
    submitTime: -10s
    asks:
      - {name: x1, priority: 10, resources: {memory: 8}}
  - id: Y
    queue: root.small
    submitTime: 5s
    asks:
      - {name: y1, resources: {memory: 4}}
      - {name: y2, resources: {memory: 4}, submitTime: 6s}
"""


def test_reservations_and_completions() -> None:
    """x1 waited 10 s and fits no node: it reserves n1 (FitInScore tie, node order), which y1 may not use; y2, two
    seconds (and a cycle) after it arrives, reserves n2; each completion lets the reserved ask in at that time."""
    trace = run(TWO_LEAVES, RESERVING)
    assert steps(trace) == [
        (0, "reserve", "x1", "n1"),
        (5, "allocate", "y1", "n2"),
        (8.1, "reserve", "y2", "n2"),
        (30, "complete", "r1", "n1"),
        (30, "allocate", "x1", "n1"),
        (90, "complete", "r2", "n2"),
        (90, "allocate", "y2", "n2"),
    ]
    assert [e.reason for e in trace.events if e.type == codes.ALLOCATE] == [
        "",
        "from its reservation",
        "from its reservation",
    ]
    assert trace.summary.reservations == 2
    assert trace.summary.completions == 2
    assert trace.pending == ()


def test_a_reserved_node_is_reported_as_the_reason() -> None:
    trace = run(TWO_LEAVES, RESERVING, until=7)
    assert allocated(trace) == ["y1"]
    assert pending(trace) == {
        "x1": (
            codes.CLUSTER_FULL,
            "the cluster is full: {memory: 16} of {memory: 20} in use, the ask needs {memory: 8}",
        ),
        "y2": (codes.NODE_RESERVED, "node n1 has room but is reserved by X/x1"),
    }
    later = run(TWO_LEAVES, RESERVING, until=10)
    assert pending(later)["y2"] == (codes.RESERVED, "reserved node n2: waits for {memory: 4} to be free there")


@pytest.mark.parametrize(("submit", "reserved_at"), [("-3s", 0.0), ("-2s", 0.1), ("0s", 2.1)])
def test_an_ask_reserves_only_when_older_than_two_seconds(submit: str, reserved_at: float) -> None:
    """The cluster has room for a1 but no node has; n2 is too small even empty, so a1 reserves n1."""
    workload = f"""
    nodes:
      - {{name: n1, resources: {{memory: 10}}}}
      - {{name: n2, resources: {{memory: 4}}}}
    applications:
      - id: R
        queue: root.leaf
        allocations:
          - {{name: r1, node: n1, resources: {{memory: 6}}, duration: 60s}}
      - id: A
        queue: root.leaf
        submitTime: {submit}
        asks:
          - {{name: a1, resources: {{memory: 8}}}}
    """
    trace = run(one_leaf(), workload)
    assert steps(trace) == [
        (reserved_at, "reserve", "a1", "n1"),
        (60, "complete", "r1", "n1"),
        (60, "allocate", "a1", "n1"),
    ]


def test_completion_frees_capacity_for_a_later_ask_at_its_time() -> None:
    workload = """
    nodes:
      - {name: n1, resources: {memory: 10}}
    applications:
      - id: A
        queue: root.leaf
        asks:
          - {name: first, resources: {memory: 10}, duration: 30s}
          - {name: later, resources: {memory: 10}, submitTime: 45s, duration: 1m}
          - {name: last, resources: {memory: 4}, submitTime: 50s}
    """
    trace = run(one_leaf(), workload)
    assert steps(trace) == [
        (0, "allocate", "first", "n1"),
        (30, "complete", "first", "n1"),
        (45, "allocate", "later", "n1"),  # the cluster is full: `last` fails root's headroom and never reserves
        (105, "complete", "later", "n1"),
        (105, "allocate", "last", "n1"),
    ]
    early = run(one_leaf(), workload, until=40)
    assert pending(early)["later"] == (codes.NOT_SUBMITTED, "not submitted yet: arrives at 45s")
    assert early.summary.stopped_by == "until"


def test_node_reasons_too_small_and_no_node_fits() -> None:
    workload = """
    nodes:
      - {name: n1, resources: {memory: 10}}
      - {name: n2, resources: {memory: 10}}
    applications:
      - id: R
        queue: root.leaf
        allocations:
          - {name: r1, node: n1, resources: {memory: 6}}
          - {name: r2, node: n2, resources: {memory: 6}}
      - id: A
        queue: root.leaf
        asks:
          - {name: huge, resources: {memory: 11}}
          - {name: split, resources: {memory: 5}}
    """
    trace = run(one_leaf(), workload, until=0)
    assert pending(trace) == {
        "huge": (
            codes.CLUSTER_FULL,
            "the cluster is full: {memory: 12} of {memory: 20} in use, the ask needs {memory: 11}",
        ),
        "split": (codes.NO_NODE_FITS, "no node has {memory: 5} free"),
    }
    roomy = workload.replace("{memory: 6}", "{memory: 1}")
    assert pending(run(one_leaf(), roomy, until=0))["huge"] == (
        codes.NODE_TOO_SMALL,
        "no node is large enough for {memory: 11}",
    )


def test_max_steps_stops_and_reports_what_could_run() -> None:
    trace = run(LEAF_POLICY.format(policy="fifo", priority="enabled"), THREE_APPS, max_steps=2)
    assert allocated(trace) == ["b1", "b2"]
    assert trace.summary.stopped_by == "max-steps"
    assert {code for code, _ in pending(trace).values()} == {codes.STOPPED}


def test_queue_missing_is_a_pending_reason() -> None:
    """Reached without the CLI's checks: the engine still explains the ask."""
    partition, tree, _ = scenario(one_leaf(), "nodes: []")
    loaded = parse_workload(
        dedent("""
        nodes:
          - {name: n1, resources: {memory: 10}}
        applications:
          - id: A
            queue: root.nope
            asks:
              - {name: a1, resources: {memory: 1}}
        """)
    )
    trace = simulate(partition, tree, loaded.workload)
    assert pending(trace) == {"a1": (codes.QUEUE_MISSING, "queue root.nope does not exist")}


def test_inputs_are_not_changed() -> None:
    partition, tree, workload = scenario(TWO_LEAVES, RESERVING)
    before = (repr(partition), sorted(tree.queues), repr(workload))
    first = simulate(partition, tree, workload)
    assert (repr(partition), sorted(tree.queues), repr(workload)) == before
    assert simulate(partition, tree, workload) == first


# --- engine gaps (see the report): what the real core does, which yk does not do yet ----------------------------


def test_required_node_ask_runs_only_on_its_node() -> None:
    workload = """
    nodes:
      - {name: n1, resources: {memory: 10}}
      - {name: n2, resources: {memory: 10}}
    applications:
      - id: D
        queue: root.leaf
        asks:
          - {name: d1, resources: {memory: 1}, requiredNode: n2}
    """
    trace = run(one_leaf(), workload)
    assert [(e.ask, e.node) for e in trace.events] == [("d1", "n2")], (
        "an ask with requiredNode n2 must run on n2 (YuniKorn's tryRequiredNode only uses the required node)"
    )


def test_placement_rules_apply_to_applications_that_name_a_queue() -> None:
    config = """
    partitions:
      - name: default
        placementrules:
          - name: fixed
            value: root.b
        queues:
          - name: root
            submitacl: '*'
            queues:
              - name: a
              - name: b
    """
    workload = """
    nodes:
      - {name: n1, resources: {memory: 10}}
    applications:
      - id: A
        queue: root.a
        asks:
          - {name: x, resources: {memory: 1}}
    """
    trace = run(config, workload)
    assert [e.queue_path for e in trace.events] == ["root.b"], (
        "the rules have no `provided` rule, so YuniKorn (and yk_cli.core.config.placement.place) put the application "
        "in root.b: a named queue is only the provided rule's input"
    )


PLACED_WORKLOAD = """
nodes:
  - {name: n1, resources: {memory: 10}}
applications:
  - {id: late, queue: root.b, submitTime: 5s, asks: [{name: l, resources: {memory: 2}}]}
  - {id: early, queue: root.a, asks: [{name: e, resources: {memory: 2}}]}
  - {id: nowhere, queue: root.c, asks: [{name: n, resources: {memory: 2}}]}
"""
"""In file order; YuniKorn places them by submit time: early, nowhere, late."""


def provided_rule(create: bool) -> str:
    """A config of root.a and root.b whose only placement rule is `provided` (creating the queue, or not)."""
    return (
        "partitions:\n  - name: default\n    placementrules:\n      - name: provided\n"
        f"        create: {str(create).lower()}\n    queues:\n      - name: root\n        submitacl: '*'\n"
        "        queues:\n          - name: a\n          - name: b\n"
    )


NOT_HERE = "not placed here"


def test_a_dry_run_takes_the_callers_placements_when_no_rule_creates_queues() -> None:
    """yk simulate places each application once (Inputs.place, in file order) and hands the placements to the run:
    the trace is the same as when the run places them itself, and the placement notes come in placement order."""
    partition, tree, workload = scenario(provided_rule(False), PLACED_WORKLOAD)
    placed = {app.id: place(partition, tree, app) for app in workload.applications}
    own = Simulation(partition, tree, workload, SimulationOptions())
    given_run = Simulation(partition, tree, workload, SimulationOptions(), placed)
    assert given_run.placement_notes == own.placement_notes
    assert list(given_run.placement_notes) == ["nowhere"]
    assert given_run.run() == own.run()
    wrong = {app.id: Placement(None, "", reason=NOT_HERE) for app in workload.applications}
    taken = Simulation(partition, tree, workload, SimulationOptions(), wrong)
    assert list(taken.placement_notes.items()) == [(a, NOT_HERE) for a in ("early", "nowhere", "late")]


def test_a_dry_run_places_again_when_a_rule_may_create_queues() -> None:
    """With a create rule the order of placing matters (and the run places on its own copy of the tree): the
    caller's placements are not used, even wrong ones."""
    partition, tree, workload = scenario(provided_rule(True), PLACED_WORKLOAD)
    wrong = {app.id: Placement(None, "", reason=NOT_HERE) for app in workload.applications}
    trace = Simulation(partition, tree, workload, SimulationOptions(), wrong).run()
    assert trace == simulate(partition, tree, workload, SimulationOptions())
    assert sorted({e.queue_path for e in trace.events}) == ["root.a", "root.b", "root.c"]


# --- invariants on random workloads ----------------------------------------------------------------------------





def check_invariants(config: str, workload_text: str, version: str) -> None:
    """Replay the trace: nodes and queues never over capacity or max, asks placed once, pending asks explained."""
    partition, tree, workload = scenario(config, workload_text)
    trace = simulate(partition, tree, workload, SimulationOptions(yunikorn_version=version))
    capacity = {n.name: n.capacity for n in workload.nodes}
    schedulable = {n.name for n in workload.nodes if n.schedulable}
    node_used = {n.name: dict(n.occupied) for n in workload.nodes}
    queue_of = {app.id: f"root.{app.queue.removeprefix('root.')}" for app in workload.applications}
    queue_used: dict[str, dict[str, int]] = {path: {} for path in tree.queues}

    def ancestors(path: str) -> list[str]:
        parts = path.split(".")
        return [".".join(parts[:i]) for i in range(len(parts), 0, -1)]

    def add(target: dict[str, int], resources: dict[str, int], sign: int) -> None:
        for name, value in resources.items():
            target[name] = target.get(name, 0) + sign * value

    for app in workload.applications:
        for alloc in app.allocations:
            add(node_used[alloc.node], alloc.resources, 1)
            for path in ancestors(queue_of[app.id]):
                add(queue_used[path], alloc.resources, 1)
    all_asks = {ask.name for ask in workload.asks()}
    placed: list[str] = []
    reserved: dict[str, str] = {}  # node -> ask holding it
    last_time = 0
    for number, event in enumerate(trace.events, start=1):
        assert event.step == number
        assert event.time >= last_time, "the virtual clock went backwards"
        last_time = event.time
        if event.type == codes.RESERVE:
            assert event.node not in reserved, f"step {number}: node {event.node} reserved twice"
            reserved[event.node] = event.ask
            continue
        if event.type == codes.UNRESERVE:
            reserved.pop(event.node, None)
            continue
        if event.type == codes.PREEMPT:  # the victims go; the node is the ask's until it is placed there
            for victim in event.victims:
                add(node_used[victim.node], victim.resources, -1)
                for path in ancestors(victim.queue_path):
                    add(queue_used[path], victim.resources, -1)
            reserved = {node: ask for node, ask in reserved.items() if ask != event.ask}
            assert reserved.get(event.node) in (None, event.ask), f"step {number}: {event.node} reserved by another"
            reserved[event.node] = event.ask
            all_asks.update(v.restarted_as for v in event.victims if v.restarted_as)
            continue
        sign = 1 if event.type == codes.ALLOCATE else -1
        assert event.type in (codes.ALLOCATE, codes.COMPLETE)
        if sign == 1:
            assert event.ask in all_asks and event.ask not in placed, f"step {number}: {event.ask} placed twice"
            assert event.node in schedulable, f"step {number}: {event.node} is not schedulable"
            holder = reserved.get(event.node)
            assert holder in (None, event.ask), f"step {number}: {event.node} is reserved by {holder}"
            reserved = {node: ask for node, ask in reserved.items() if ask != event.ask}
            placed.append(event.ask)
        add(node_used[event.node], event.resources, sign)
        for path in ancestors(event.queue_path):
            add(queue_used[path], event.resources, sign)
        if sign == 1:
            for name, used in node_used[event.node].items():
                assert used <= capacity[event.node].get(name, 0), f"step {number}: node {event.node} over capacity"
            for path in ancestors(event.queue_path):
                limit = tree.queues[path].max or {}
                for name in event.resources:
                    if name in limit:
                        assert queue_used[path][name] <= limit[name], f"step {number}: {path} over its max {name}"
    waiting = {p.ask for p in trace.pending}
    assert waiting.isdisjoint(placed)
    assert waiting | set(placed) == all_asks, "every ask is either placed or pending"
    for p in trace.pending:
        assert p.code in codes.REASON_CODES and p.reason, f"{p.ask} pends without a reason"
    assert trace.summary.allocations == len(placed)
    assert trace.summary.pending == len(trace.pending)
    for kind in sorted({e.type for e in trace.events} | {f"pending {p.code}" for p in trace.pending}):
        hypothesis.event(kind)  # --hypothesis-show-statistics shows what the random cases exercised


@settings(max_examples=150)
def _counted(config: str, workload_text: str, together: bool) -> list[tuple[object, ...]]:
    """The counts and flags of every queue and application after the asks due at time 0 arrive (one by one, or
    as one commit.Arrivals batch where the engine batches them), with every sort entry settled."""
    partition, tree, workload = scenario(config, workload_text)
    state, _ = build_state(partition, tree, workload, legacy=False)
    batch = Arrivals()
    for time, _, ask in state.clock.arrivals:
        if time == 0 and ask.fit:
            if together and ask.app.limits is None:
                batch.add(state, ask)
            else:
                batch.close(state)
                arrive(state, ask)
    batch.close(state)
    settle_all(state)
    queues = [
        (q.path, q.sizes, q.new_sizes, q.held_sizes, q.old, q.required, q.pending, q.open, q.open_children, q.blocked)
        for q in state.queues.values()
    ]
    apps = [(a.app.id, a.sizes, a.old, a.required, a.npending, a.state, a.active) for a in state.apps]
    entries = [[e[-1].path for e in q.children] + [e[-1].app.id for e in q.apps] for q in state.queues.values()]
    return [*queues, *apps, *map(tuple, entries)]


@given(random_case())
def test_asks_arriving_together_are_counted_as_one_by_one(case: tuple[str, str, str]) -> None:
    """commit.Arrivals climbs the tree once per application and kind of ask: the state is the one per-ask arrivals
    give, counts, open and blocked flags and sort orders alike."""
    config, workload, _ = case
    assume(not any(p.level == Level.ERROR for p in parse_workload(workload).problems))
    assert _counted(config, workload, True) == _counted(config, workload, False)


@given(random_case())
def test_invariants_on_random_workloads(case: tuple[str, str, str]) -> None:
    config, workload, version = case
    loaded = parse_workload(workload)
    assume(not any(p.level == Level.ERROR for p in loaded.problems))  # e.g. allocations over a node's capacity
    check_invariants(config, workload, version)
