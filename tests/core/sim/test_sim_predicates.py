"""Node predicates in the dry run: where the core calls the shim's predicates and what a failure does there.

Each scenario is one of ../shared/oracle/examples/predicates-*.json (the real core with the shim's predicates)
written as a yk workload; the expected traces are what the oracle printed for it. The rest pins the core's rules
from its source (yunikorn-core be3bb487): the single best node of a reservation, required nodes, placeholders.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import run_program
from tests.helpers.golden import check_golden
from tests.helpers.scenarios import SECOND, allocated, pending, run, steps
from yk_cli.core.sim import trace as codes
from yk_cli.report.trace_text import render as render_text

ONE_LEAF = """
partitions:
  - name: default
    queues:
      - name: root
        submitacl: '*'
        queues:
          - name: a
"""


def test_taints_tolerations_and_cordoned_nodes() -> None:
    """predicates-taints: plain pods only where no NoSchedule/NoExecute taint is; Equal and Exists tolerations; a
    NoExecute toleration does not cover NoSchedule; tolerate-all skips the cordoned node (the core never offers it);
    a required node on a cordoned node needs the unschedulable toleration, else it keeps the node reserved."""
    trace = run(
        ONE_LEAF,
        """
        nodes:
          - {name: node-a, resources: {memory: 100}, taints: [{key: dedicated, value: team-x, effect: NoSchedule}]}
          - name: node-b
            resources: {memory: 100}
            labels: {pool: gpu}
            taints: [{key: gpu, value: "true", effect: NoExecute}, {key: spot, value: "yes", effect: PreferNoSchedule}]
          - {name: node-c, resources: {memory: 30}}
          - {name: node-d, resources: {memory: 100}, schedulable: false}
        applications:
          - id: app
            queue: root.a
            asks:
              - {name: plain-0, priority: 10, resources: {memory: 20}}
              - {name: plain-1, priority: 9, resources: {memory: 20}}
              - name: teamx-0
                priority: 8
                resources: {memory: 20}
                tolerations: [{key: dedicated, operator: Equal, value: team-x, effect: NoSchedule}]
              - {name: gpu-0, priority: 7, resources: {memory: 20}, tolerations: [{key: gpu, operator: Exists}]}
              - name: wrong-effect
                priority: 6
                resources: {memory: 20}
                tolerations: [{key: dedicated, value: team-x, effect: NoExecute}]
              - {name: all-0, priority: 5, resources: {memory: 20}, tolerations: [{operator: Exists}]}
              - name: ds-0
                priority: 4
                resources: {memory: 20}
                requiredNode: node-d
                tolerations: [{key: node.kubernetes.io/unschedulable, operator: Exists, effect: NoSchedule}]
              - {name: ds-1, priority: 3, resources: {memory: 20}, requiredNode: node-d}
        """,
    )
    placed = [(e.ask, e.node) for e in trace.events if e.type == codes.ALLOCATE]
    assert placed == [
        ("plain-0", "node-c"),
        ("teamx-0", "node-a"),
        ("gpu-0", "node-b"),
        ("all-0", "node-a"),
        ("ds-0", "node-d"),
    ]
    # (the oracle stops before the 2 s reservation delay passes; yk's clock goes on: plain-1 reserves the untainted
    # node, wrong-effect's best node is then node-a, whose taint it does not tolerate: nothing reserved)
    assert [(e.time / SECOND, e.ask, e.node) for e in trace.events if e.type == codes.RESERVE] == [
        (0.0, "ds-1", "node-d"),
        (2.1, "plain-1", "node-c"),
    ]
    reasons = pending(trace)
    assert reasons["wrong-effect"] == (
        codes.NO_NODE_FITS,
        "0/4 nodes are available: 1 Insufficient memory, 1 node(s) were unschedulable, "
        "2 node(s) had untolerated taint(s).",
    )
    assert [p.node_reasons for p in trace.pending if p.ask == "wrong-effect"] == [
        (("Insufficient memory", 1), ("node(s) were unschedulable", 1), ("node(s) had untolerated taint(s)", 2))
    ]
    assert reasons["ds-1"] == (
        codes.NODE_PREDICATES,
        "its required node node-d fails its node predicates (NodeUnschedulable: node(s) were unschedulable): "
        "the node stays reserved for it",
    )


def test_node_affinity_operators_and_node_name() -> None:
    """predicates-affinity: nodeSelector AND required terms, terms ORed, In/Gt/Lt/DoesNotExist/NotIn, matchFields
    on metadata.name, an empty term matches nothing, nodeName."""
    terms = "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: %s}}}"
    two_terms = (
        "[{matchExpressions: [{key: pool, operator: In, values: [tpu]}]}, "
        '{matchExpressions: [{key: zone, operator: In, values: [a]}, {key: rack, operator: Lt, values: ["2"]}]}]'
    )
    no_zone_c = "[{matchExpressions: [{key: pool, operator: Exists}, {key: zone, operator: NotIn, values: [a, b]}]}]"
    trace = run(
        ONE_LEAF,
        f"""
        nodes:
          - {{name: n-gpu-a-1, resources: {{memory: 20}}, labels: {{pool: gpu, zone: a, rack: "1"}}}}
          - {{name: n-gpu-b-3, resources: {{memory: 20}}, labels: {{pool: gpu, zone: b, rack: "3"}}}}
          - {{name: n-cpu-a-2, resources: {{memory: 20}}, labels: {{pool: cpu, zone: a, rack: "2"}}}}
          - {{name: n-cpu-b-4, resources: {{memory: 20}}, labels: {{pool: cpu, zone: b, rack: "4"}}}}
          - {{name: n-plain, resources: {{memory: 20}}}}
        applications:
          - id: app
            queue: root.a
            asks:
              - name: gpu-zone-b
                priority: 10
                resources: {{memory: 10}}
                nodeSelector: {{pool: gpu}}
                {terms % "[{matchExpressions: [{key: zone, operator: In, values: [b]}]}]"}
              - name: rack-gt-3
                priority: 9
                resources: {{memory: 10}}
                {terms % '[{matchExpressions: [{key: rack, operator: Gt, values: ["3"]}]}]'}
              - name: two-terms
                priority: 8
                resources: {{memory: 10}}
                {terms % two_terms}
              - name: by-name
                priority: 7
                resources: {{memory: 10}}
                {terms % "[{matchFields: [{key: metadata.name, operator: In, values: [n-cpu-a-2]}]}]"}
              - name: no-rack
                priority: 6
                resources: {{memory: 10}}
                {terms % "[{matchExpressions: [{key: rack, operator: DoesNotExist}]}]"}
              - name: no-zone-c
                priority: 5
                resources: {{memory: 10}}
                {terms % no_zone_c}
              - name: empty-term
                priority: 4
                resources: {{memory: 10}}
                {terms % "[{}]"}
              - {{name: node-name, priority: 3, resources: {{memory: 10}}, nodeName: n-gpu-a-1}}
        """,
    )
    placed = [(e.ask, e.node) for e in trace.events if e.type == codes.ALLOCATE]
    assert placed == [
        ("gpu-zone-b", "n-gpu-b-3"),
        ("rack-gt-3", "n-cpu-b-4"),
        ("two-terms", "n-gpu-a-1"),
        ("by-name", "n-cpu-a-2"),
        ("no-rack", "n-plain"),
        ("node-name", "n-gpu-a-1"),
    ]
    assert pending(trace)["empty-term"] == (
        codes.NODE_PREDICATES,
        "0/5 nodes are available: 5 node(s) didn't match Pod's node affinity/selector.",
    )


def test_preemption_only_where_the_preemptor_passes_the_predicates() -> None:
    """predicates-preempt: the PreemptionPredicates of a node whose taint the preemptor does not tolerate answer -1
    (node predicates do not depend on the victims): the victim comes from the gpu node; a preemptor that tolerates
    nothing preempts nothing."""
    config = """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: '*'
                queues:
                  - name: low
                    resources:
                      guaranteed: {memory: 10}
                  - name: high
                    resources:
                      guaranteed: {memory: 40}
    """
    workload = """
        nodes:
          - {name: node-0, resources: {memory: 40}, taints: [{key: dedicated, value: team-x, effect: NoSchedule}]}
          - name: node-1
            resources: {memory: 40}
            labels: {pool: gpu}
            taints: [{key: gpu, value: "true", effect: NoExecute}]
        applications:
          - id: batch
            queue: root.low
            tolerations: [{operator: Exists}]
            allocations:
              - {name: low-0, node: node-0, resources: {memory: 20}, startTime: -400s}
              - {name: low-1, node: node-0, resources: {memory: 20}, startTime: -300s}
              - {name: low-2, node: node-1, resources: {memory: 20}, startTime: -200s}
              - {name: low-3, node: node-1, resources: {memory: 20}, startTime: -100s}
          - id: svc
            queue: root.high
            asks:
              - name: svc-gpu
                priority: 100
                resources: {memory: 20}
                submitTime: -60s
                tolerations: [{key: gpu, operator: Exists, effect: NoExecute}]
              - {name: svc-none, priority: 50, resources: {memory: 20}, submitTime: -60s}
    """
    trace = run(config, workload)
    assert [(e.type, e.ask, e.node) for e in trace.events if e.type in (codes.PREEMPT, codes.ALLOCATE)] == [
        (codes.PREEMPT, "svc-gpu", "node-1"),
        (codes.ALLOCATE, "svc-gpu", "node-1"),
    ]
    assert [v.allocation for e in trace.events for v in e.victims] == ["low-3"]
    assert pending(trace)["svc-none"][0] == codes.CLUSTER_FULL  # checked before any node
    explained = run(config, workload, explain_preemption=True)
    notes = {
        c.allocation: (c.verdict, c.detail)
        for attempt in explained.attempts
        if attempt.ask == "svc-gpu"
        for c in attempt.candidates
    }
    assert notes["low-0"] == (
        codes.NODE_UNAVAILABLE,
        "node-0 is excluded: the ask fails its node predicates there even with the victims gone "
        "(TaintToleration: node(s) had untolerated taint(s))",
    )


def test_reservation_takes_the_single_best_node_or_none() -> None:
    """predicates-reserve: the core reserves the best-fitting node among every node it tried, failing ones included;
    when that node fails the ask's predicates nothing is reserved (the next-best node is not tried)."""
    config = ONE_LEAF.replace(
        "    queues:\n      - name: root",
        "    nodesortpolicy:\n      type: binpacking\n    queues:\n      - name: root",
        1,
    )
    workload = """
        nodes:
          - {name: node-a, resources: {memory: 100}%s}
          - {name: node-b, resources: {memory: 10}}
        applications:
          - id: run
            queue: root.a
            allocations:
              - {name: run-a, node: node-a, resources: {memory: 95}, tolerations: [{key: dedicated, operator: Exists}]}
              - {name: run-b, node: node-b, resources: {memory: 5}}
          - id: app
            queue: root.a
            asks:
              - {name: big, resources: {memory: 10}, submitTime: -60s}
    """
    tainted = run(config, workload % ", taints: [{key: dedicated, value: team-x, effect: NoSchedule}]")
    assert steps(tainted) == []
    assert pending(tainted)["big"] == (
        codes.NO_NODE_FITS,
        "0/2 nodes are available: 1 Insufficient memory, 1 node(s) had untolerated taint(s).",
    )
    control = run(config, workload % "")
    assert steps(control) == [(0.0, codes.RESERVE, "big", "node-a")]


def test_workload_without_predicates_keeps_plain_sizes() -> None:
    """Labels alone constrain nothing: asks keep their plain vectors (the engine's fast path) and nothing changes."""
    workload = """
        nodes:
          - {name: n1, resources: {memory: 10}, labels: {zone: a}}
          - {name: n2, resources: {memory: 10}}
        applications:
          - id: app
            queue: root.a
            labels: {app: web}
            asks:
              - {name: a, count: 3, resources: {memory: 6}}
    """
    trace = run(ONE_LEAF, workload, until=1)
    assert allocated(trace) == ["a-0", "a-1"]
    assert pending(trace)["a-2"] == (codes.NO_NODE_FITS, "no node has {memory: 6} free")
    assert [p.node_reasons for p in trace.pending] == [()]


def test_gang_real_pod_goes_elsewhere_when_its_placeholder_node_fails() -> None:
    """tryPlaceholderAllocate: a real pod replaces a placeholder only on a node that passes its reserve predicates;
    failing all of them, the first compatible pair's real pod goes to the first node that holds it and passes its
    allocate predicates, and that placeholder is released."""
    workload = """
        nodes:
          - {name: n1, resources: {memory: 20}, taints: [{key: spot, value: "yes", effect: NoSchedule}]}
          - {name: n2, resources: {memory: 20}}
        applications:
          - id: other
            queue: root.a
            allocations:
              - {name: filler, node: n2, resources: {memory: %s}}
          - id: gang
            queue: root.a
            taskGroups:
              - {name: tg, minMember: 1, minResource: {memory: 10}, tolerations: [{key: spot, operator: Exists}]}
            asks:
              - {name: real, resources: {memory: 10}, taskGroupName: tg%s}
    """
    moved = run(ONE_LEAF, workload % (10, ""))
    assert [(e.type, e.ask, e.node) for e in moved.events] == [
        (codes.PLACEHOLDER, "tg-gang-tg-0", "n1"),
        (codes.REPLACE, "real", "n2"),
    ]
    assert "(task group tg) on another node: n1 fails its node predicates;" in moved.events[1].reason
    stuck = run(ONE_LEAF, workload % (15, ""), until=60)
    assert [(e.type, e.ask, e.node) for e in stuck.events] == [(codes.PLACEHOLDER, "tg-gang-tg-0", "n1")]
    tolerant = run(ONE_LEAF, workload % (10, ", tolerations: [{key: spot, operator: Exists}]"))
    assert [(e.type, e.ask, e.node) for e in tolerant.events] == [
        (codes.PLACEHOLDER, "tg-gang-tg-0", "n1"),
        (codes.REPLACE, "real", "n1"),
    ]


ZONES = """
nodes:
  - {name: n1, resources: {vcore: 8}, labels: {kubernetes.io/hostname: n1, topology.kubernetes.io/zone: a}}
  - {name: n2, resources: {vcore: 8}, labels: {kubernetes.io/hostname: n2, topology.kubernetes.io/zone: a}}
  - {name: n3, resources: {vcore: 8}, labels: {kubernetes.io/hostname: n3, topology.kubernetes.io/zone: b}}
"""


def test_topology_spread_anti_affinity_and_host_ports_follow_the_pods_placed() -> None:
    """The pod-dependent Filters run on every try against the pods placed so far: a zone spread of maxSkew 1 keeps
    the zones within one pod, a hostname anti-affinity puts one pod per node, a host port one pod per node; the
    pods left over wait with kube-scheduler's reason."""
    trace = run(
        ONE_LEAF,
        ZONES
        + """
        applications:
          - id: web
            queue: root.a
            labels: {app: web}
            topologySpreadConstraints:
              - maxSkew: 1
                topologyKey: topology.kubernetes.io/zone
                whenUnsatisfiable: DoNotSchedule
                labelSelector: {matchLabels: {app: web}}
            asks:
              - {name: web, count: 5, resources: {vcore: 1}}
          - id: db
            queue: root.a
            labels: {app: db}
            affinity:
              podAntiAffinity:
                requiredDuringSchedulingIgnoredDuringExecution:
                  - {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: db}}}
            asks:
              - {name: db, count: 4, resources: {vcore: 1}}
          - id: ports
            queue: root.a
            hostPorts: [8080]
            asks:
              - {name: p, count: 4, resources: {vcore: 1}}
        """.replace("\n        ", "\n"),
    )
    placed = [(e.ask, e.node) for e in trace.events if e.type == codes.ALLOCATE]
    assert placed == [
        ("web-0", "n1"),
        ("web-1", "n3"),
        ("web-2", "n2"),
        ("web-3", "n3"),
        ("web-4", "n1"),
        ("db-0", "n2"),
        ("db-1", "n1"),
        ("db-2", "n3"),
        ("p-0", "n2"),
        ("p-1", "n1"),
        ("p-2", "n3"),
    ]
    assert pending(trace) == {
        "db-3": (codes.NODE_PREDICATES, "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules."),
        "p-3": (
            codes.NODE_PREDICATES,
            "0/3 nodes are available: 3 node(s) didn't have free ports for the requested pod ports.",
        ),
    }


def test_running_pods_anti_affinity_keeps_matching_pods_away() -> None:
    """InterPodAffinity's symmetry: a running pod's required anti-affinity rejects an incoming pod it matches, on
    every node of its topology domain (here the zone), although the incoming pod has no constraint of its own."""
    trace = run(
        ONE_LEAF,
        ZONES
        + """
        applications:
          - id: loner
            queue: root.a
            allocations:
              - name: loner
                node: n1
                resources: {vcore: 1}
                affinity:
                  podAntiAffinity:
                    requiredDuringSchedulingIgnoredDuringExecution:
                      - {topologyKey: topology.kubernetes.io/zone, labelSelector: {matchLabels: {app: web}}}
          - id: web
            queue: root.a
            labels: {app: web}
            asks:
              - {name: web, count: 2, resources: {vcore: 1}}
          - id: other
            queue: root.a
            asks:
              - {name: other, resources: {vcore: 1}}
        """.replace("\n        ", "\n"),
    )
    assert [(e.ask, e.node) for e in trace.events if e.type == codes.ALLOCATE] == [
        ("web-0", "n3"),
        ("web-1", "n3"),
        ("other", "n2"),
    ]


LOW_AND_HIGH = """
partitions:
  - name: default
    queues:
      - name: root
        submitacl: '*'
        queues:
          - name: low
            resources: {guaranteed: {vcore: 1}}
          - name: high
            resources: {guaranteed: {vcore: 8}}
"""
"""Two guaranteed leaves for the pod-dependent preemption tests: low's pods are over its guarantee, high under."""


def test_preemption_checks_the_pod_dependent_predicates_with_the_victims_gone() -> None:
    """The shim's PreemptionPredicates remove the victims one by one from the core's start index and run the
    Filters after each: a preemptor with anti-affinity against n1's older pod passes there only once that pod is a
    victim too (index 1, score 2), so n2 (index 0) wins. With both nodes alike, n1 wins by name, and the core then
    keeps only the victims its resources need (TryPreemption's final filter): the reserved node still fails the
    anti-affinity and the ask keeps waiting there, as the real scheduler would."""
    config = LOW_AND_HIGH
    workload = """
        nodes:
          - {name: n1, resources: {vcore: 4}, labels: {kubernetes.io/hostname: n1}}
          - {name: n2, resources: {vcore: 4}, labels: {kubernetes.io/hostname: n2}}
        applications:
          - id: batch
            queue: root.low
            allocations:
              - {name: b1, node: n1, resources: {vcore: 2}, startTime: -300s, labels: {app: batch}}
              - {name: x1, node: n1, resources: {vcore: 2}, startTime: -200s}
              - {name: b2, node: n2, resources: {vcore: 2}, startTime: -100s, labels: {app: batch}}
              - {name: b3, node: n2, resources: {vcore: 2}, startTime: -50s, labels: {app: batch}}
          - id: svc
            queue: root.high
            asks:
              - name: api
                priority: 100
                submitTime: -60s
                resources: {vcore: 2}
                affinity:
                  podAntiAffinity:
                    requiredDuringSchedulingIgnoredDuringExecution:
                      - {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: batch}}}
    """
    trace = run(
        config,
        workload.replace(", labels: {app: batch}}\n              - {name: b3", "}\n              - {name: b3").replace(
            "startTime: -50s, labels: {app: batch}", "startTime: -50s"
        ),
    )
    assert [(e.type, e.ask, e.node) for e in trace.events] == [
        (codes.PREEMPT, "api", "n2"),
        (codes.ALLOCATE, "api", "n2"),
    ]
    assert [v.allocation for e in trace.events for v in e.victims] == ["b3"]
    trace = run(config, workload)
    assert [(e.type, e.ask, e.node) for e in trace.events] == [(codes.PREEMPT, "api", "n1")]
    assert [v.allocation for e in trace.events for v in e.victims] == ["x1"]
    assert pending(trace)["api"] == (
        codes.NODE_PREDICATES,
        "its reserved node n1 fails its node predicates (InterPodAffinity: node(s) didn't match pod anti-affinity "
        "rules): the node stays reserved for it; it preempted once already (an ask preempts at most once)",
    )


SAMPLE = ("samples/workloads/queues/node-predicates.yaml", "samples/workloads/node-predicates.yaml")


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_the_node_predicates_sample_golden(fmt: str) -> None:
    """samples/workloads/node-predicates.yaml (the README's example): every placement and every pending line."""
    code, out, err = run_program("simulate", *SAMPLE, "--format", fmt)
    assert (code, err) == (0, "")
    check_golden(f"simulate_node_predicates.{'json' if fmt == 'json' else 'txt'}", out)


@settings(max_examples=25)
@given(st.data())
def test_inert_predicate_fields_change_nothing(data: st.DataObject) -> None:
    """A workload's trace is byte-identical once node labels, pod namespaces and labels, tolerations of taints no
    node has, and a nodeSelector every node matches are added: pods without a constraint that can fail run on the
    engine's plain path, exactly as before node predicates existed."""
    nodes = data.draw(st.integers(1, 4))
    asks = data.draw(
        st.lists(st.tuples(st.integers(1, 6), st.integers(-5, 5), st.integers(0, 2)), min_size=1, max_size=8)
    )
    lines = ["nodes:"]
    for i in range(nodes):
        lines.append(f"  - {{name: n{i}, resources: {{memory: {data.draw(st.integers(4, 12))}}}%s}}")
    lines += ["applications:", "  - id: app", "    queue: root.a%s", "    asks:"]
    for j, (memory, priority, age) in enumerate(asks):
        lines.append(
            f"      - {{name: a{j}, priority: {priority}, resources: {{memory: {memory}}}, submitTime: -{age}s%s}}"
        )
    plain = "\n".join(lines).replace("%s", "")
    inert = "\n".join(
        line.replace("%s", ", labels: {pool: any, zone: z1}")
        if line.startswith("  - {name: n")
        else line.replace("%s", "\n    namespace: team\n    labels: {app: x}")
        if line.startswith("    queue:")
        else line.replace("%s", ", nodeSelector: {pool: any}, tolerations: [{key: spot, operator: Exists}]")
        for line in lines
    )
    assert render_text(run(ONE_LEAF, plain), "w") == render_text(run(ONE_LEAF, inert), "w")


def test_explain_preemption_names_the_nodes_the_preemptor_fails_even_with_the_victims_gone() -> None:
    """A preemptor with pod affinity to a cache pod: removing victims cannot help on a node without one, nor on the
    node whose only cache pod would be a victim; --explain-preemption says so for every candidate there."""
    config = LOW_AND_HIGH
    workload = """
        nodes:
          - {name: n1, resources: {vcore: 4}, labels: {kubernetes.io/hostname: n1}}
          - {name: n2, resources: {vcore: 4}, labels: {kubernetes.io/hostname: n2}}
        applications:
          - id: batch
            queue: root.low
            allocations:
              - {name: b1, node: n1, resources: {vcore: 2}, startTime: -300s}
              - {name: cache, node: n1, resources: {vcore: 2}, startTime: -200s, labels: {app: cache}}
              - {name: b2, node: n2, resources: {vcore: 2}, startTime: -100s}
              - {name: b3, node: n2, resources: {vcore: 2}, startTime: -50s}
          - id: svc
            queue: root.high
            asks:
              - name: api
                priority: 100
                submitTime: -60s
                resources: {vcore: 2}
                affinity:
                  podAffinity:
                    requiredDuringSchedulingIgnoredDuringExecution:
                      - {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: cache}}}
    """
    trace = run(config, workload, explain_preemption=True)
    assert steps(trace) == []
    notes = {c.allocation: (c.verdict, c.detail) for a in trace.attempts for c in a.candidates}
    why = "the ask fails its node predicates there even with the victims gone (InterPodAffinity: node(s) didn't match"
    assert notes["b3"] == (codes.NODE_UNAVAILABLE, f"n2 is excluded: {why} pod affinity rules)")
    assert notes["cache"] == (codes.NODE_UNAVAILABLE, f"n1 is excluded: {why} pod affinity rules)")
