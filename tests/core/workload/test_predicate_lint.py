"""core/predicate_lint: the dry-run warnings about node constraints (pod-matches-no-node, toleration-matches-no-taint,
soft-constraint-ignored, task-group-predicates-differ), their exact messages and positions, in workload files and
kubectl dumps, and on the command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import dedent
from yk_cli.core.diagnostics import Level
from yk_cli.core.lint.catalogue import all_rules
from yk_cli.core.workload.predicate_lint import PREDICATE_LINT_RULES, lint_predicates
from yk_cli.load.kubernetes import cluster_from_bytes
from yk_cli.load.workload import parse_workload

MINE = {rule.id for rule in PREDICATE_LINT_RULES}
SORT_ORDER = (
    "the first node in its node sort order (the partition's nodesortpolicy: fair by default, or binpacking) that "
    "passes the Filters"
)
Found = tuple[str, int, int, str, str]
"""(rule, line, column, message, hint)"""

NODES = """
nodes:
  - name: cp-1
    resources: {vcore: 8}
    labels: {node-role.kubernetes.io/control-plane: ""}
    taints: [{key: node-role.kubernetes.io/control-plane, effect: NoSchedule}]
  - name: gpu-1
    resources: {vcore: 8}
    labels: {pool: gpu, zone: a}
    taints: [{key: nvidia.com/gpu, value: present, effect: NoSchedule}]
  - {name: node-1, resources: {vcore: 8}, labels: {pool: cpu, zone: a}}
  - {name: node-2, resources: {vcore: 8}, labels: {pool: cpu, zone: b}}
"""


def with_nodes(applications: str) -> str:
    """NODES (11 lines), then the applications."""
    return dedent(NODES) + dedent(applications)


def lint(text: str) -> list[Found]:
    """The predicate warnings of a workload (which must have no other problem), located."""
    loaded = parse_workload(dedent(text), "w.yaml")
    others = [p for p in loaded.problems if p.rule not in MINE]
    assert others == []
    out = []
    for p in loaded.problems:
        assert p.level == Level.WARNING and p.span is not None and p.file == "w.yaml"
        out.append((p.rule, p.span.line, p.span.column, p.message, p.hint))
    return out


def test_the_rules_are_documented_warnings_every_command_knows() -> None:
    assert [r.id for r in PREDICATE_LINT_RULES] == [
        "pod-matches-no-node",
        "toleration-matches-no-taint",
        "soft-constraint-ignored",
        "task-group-predicates-differ",
    ]
    for rule in PREDICATE_LINT_RULES:
        assert rule.level == Level.WARNING and rule.summary.endswith(".") and len(rule.doc) > 300
        assert all_rules()[rule.id] is rule


CLEAN = with_nodes(
    """
applications:
  - id: train
    asks:
      - name: trainer
        count: 2
        resources: {vcore: 1}
        nodeSelector: {pool: gpu}
        tolerations:
          - {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}
          - {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: 300}
          - {key: example.com/elsewhere, operator: Exists}
      - name: system
        resources: {vcore: 1}
        tolerations: [{operator: Exists}]
        affinity:
          nodeAffinity:
            requiredDuringSchedulingIgnoredDuringExecution:
              nodeSelectorTerms:
                - matchExpressions: [{key: node-role.kubernetes.io/control-plane, operator: Exists}]
                - matchFields: [{key: metadata.name, operator: In, values: [node-2]}]
      - {name: pinned, resources: {vcore: 1}, nodeName: node-1}
      - name: spread
        resources: {vcore: 1}
        labels: {app: web}
        topologySpreadConstraints:
          - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}}
  - id: gang
    taskGroups:
      - name: workers
        minMember: 2
        minResource: {vcore: 1}
        nodeSelector: {pool: gpu}
        tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
    asks:
      - name: worker
        count: 2
        resources: {vcore: 1}
        taskGroupName: workers
        nodeSelector: {pool: gpu}
        tolerations:
          - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 300}
          - {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}
"""
)


def test_a_workload_whose_constraints_all_hold_is_clean() -> None:
    assert lint(CLEAN) == []


def test_a_workload_without_constraints_is_clean() -> None:
    assert lint("nodes:\n  - {name: n, resources: {vcore: 1}}\napplications:\n  - id: a\n    asks: [{name: x}]\n") == []


# --- pod-matches-no-node ---------------------------------------------------------------------------------------------


def test_a_selector_no_node_matches_with_did_you_mean() -> None:
    found = lint(
        with_nodes(
            """
        applications:
          - id: train
            asks:
              - {name: trainer, count: 3, resources: {vcore: 1}, nodeSelector: {pool: gpus}}
        """
        )
    )
    assert found == [
        (
            "pod-matches-no-node",
            15,
            72,
            "application train: 3 pods (first: ask trainer-0) can run on none of the 4 nodes: no node has all the "
            "labels of its nodeSelector pool=gpus",
            "no node has label pool=gpus; did you mean pool=gpu?",
        )
    ]


@pytest.mark.parametrize(
    ("constraint", "column", "what", "hint"),
    [
        (
            "nodeSelector: {pool: gpu, zone: b}",
            59,
            "no node has all the labels of its nodeSelector pool=gpu, zone=b",
            "each of its labels is on some node, but no node has them all.",
        ),
        (
            "nodeSelector: {disktype: ssd}",
            59,
            "no node has all the labels of its nodeSelector disktype=ssd",
            "no node has a label disktype.",
        ),
        (
            "nodeSelector: {zones: a}",
            59,
            "no node has all the labels of its nodeSelector zones=a",
            "no node has a label zones; did you mean zone?",
        ),
        (
            "nodeSelector: {pool: tpu}",
            59,
            "no node has all the labels of its nodeSelector pool=tpu",
            "no node has label pool=tpu; nodes label pool with: cpu, gpu.",
        ),
        (
            "nodeName: node-3",
            55,
            "its nodeName node-3 is not a node of the workload",
            "did you mean node node-2?",
        ),
        (
            "{nodeName: node-1, nodeSelector: {pool: gpu}}",
            77,
            "node node-1, which its nodeName names, does not have the labels of its nodeSelector",
            "node node-1 has labels pool=cpu, zone=a.",
        ),
        (
            "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: "
            "[{matchExpressions: [{key: pool, operator: In, values: [tpu]}]}]}}}",
            119,
            "no node matches its required node affinity",
            "its terms are ORed and the expressions of a term ANDed; compare the keys and values with the nodes' "
            "labels.",
        ),
        (
            "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: "
            "[{matchFields: [{key: metadata.name, operator: In, values: [node-9]}]}]}}}",
            119,
            "no node matches its required node affinity",
            "not nodes of the workload: node-9.",
        ),
        (
            "{nodeSelector: {pool: gpu}, affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
            "{nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In, values: [b]}]}]}}}}",
            146,
            "no node both has the labels of its nodeSelector pool=gpu and matches its required node affinity",
            "its terms are ORed and the expressions of a term ANDed; compare the keys and values with the nodes' "
            "labels.",
        ),
    ],
)
def test_says_which_constraint_matches_no_node(constraint: str, column: int, what: str, hint: str) -> None:
    if not constraint.startswith("{"):
        constraint = "{" + constraint + "}"
    ask = "{name: solo, resources: {vcore: 1}, " + constraint[1:]
    found = lint(with_nodes("applications:\n  - id: app\n    asks:\n      - " + ask + "\n"))
    message = f"application app: ask solo can run on none of the 4 nodes: {what}"
    assert [(f[0], f[1], f[3], f[4]) for f in found] == [("pod-matches-no-node", 15, message, hint)]
    assert found[0][2] == column


def test_taints_and_cordons_do_not_count_and_task_groups_are_checked_too() -> None:
    found = lint(
        """
        nodes:
          - {name: gpu-1, resources: {vcore: 8}, labels: {pool: gpu}, schedulable: false,
             taints: [{key: gpu, effect: NoSchedule}]}
        applications:
          - id: gang
            taskGroups:
              - {name: ok, minMember: 1, minResource: {vcore: 1}, nodeSelector: {pool: gpu},
                 tolerations: [{key: gpu, operator: Exists}]}
              - {name: bad, minMember: 4, minResource: {vcore: 1}, nodeSelector: {pool: cpu}}
        """
    )
    assert found == [
        (
            "pod-matches-no-node",
            9,
            74,
            "application gang: the 4 placeholders of task group bad cannot run on the only node: no node has all the "
            "labels of its nodeSelector pool=cpu",
            "no node has label pool=cpu; nodes label pool with: gpu.",
        )
    ]


def test_one_warning_per_application_and_constraints() -> None:
    found = lint(
        with_nodes(
            """
        applications:
          - id: a
            nodeSelector: {pool: tpu}
            asks:
              - {name: x, resources: {vcore: 1}}
              - {name: y, count: 2, resources: {vcore: 1}}
          - id: b
            asks:
              - {name: z, resources: {vcore: 1}, nodeSelector: {pool: tpu}}
        """
        )
    )
    assert [(f[0], f[1], f[3]) for f in found] == [
        (
            "pod-matches-no-node",
            16,
            "application a: 3 pods (first: ask x) can run on none of the 4 nodes: no node has all the labels of its "
            "nodeSelector pool=tpu",
        ),
        (
            "pod-matches-no-node",
            20,
            "application b: ask z can run on none of the 4 nodes: no node has all the labels of its nodeSelector "
            "pool=tpu",
        ),
    ]


def test_a_workload_without_nodes_has_no_node_to_match() -> None:
    assert lint("applications:\n  - id: a\n    asks: [{name: x, nodeSelector: {pool: gpu}}]\n") == []


# --- toleration-matches-no-taint -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("toleration", "what", "hint"),
    [
        (
            "{key: nvidia.com/gpus, operator: Exists, effect: NoSchedule}",
            "no node has a taint with key nvidia.com/gpus",
            "did you mean nvidia.com/gpu? nodes have nvidia.com/gpu=present:NoSchedule.",
        ),
        (
            "{key: gpu, operator: Exists}",
            "no node has a taint with key gpu",
            "did you mean nvidia.com/gpu? nodes have nvidia.com/gpu=present:NoSchedule.",
        ),
        (
            "{key: nvidia.com/gpu, operator: Equal, value: presnt}",
            "the taints with key nvidia.com/gpu have value present",
            "did you mean value: present? (operator: Exists tolerates every value)",
        ),
        (
            "{key: nvidia.com/gpu, value: absent, effect: NoSchedule}",
            "the taints with key nvidia.com/gpu have value present",
            "operator: Exists tolerates every value.",
        ),
        (
            "{key: nvidia.com/gpu, operator: Exists, effect: NoExecute}",
            "the taint nvidia.com/gpu=present:NoSchedule has effect NoSchedule, not NoExecute",
            "did you mean effect: NoSchedule? (leave effect out to tolerate every effect)",
        ),
    ],
)
def test_a_toleration_that_misses_a_similar_taint(toleration: str, what: str, hint: str) -> None:
    found = lint(
        with_nodes(
            f"""
        applications:
          - id: train
            asks:
              - name: trainer
                resources: {{vcore: 1}}
                tolerations: [{toleration}]
        """
        )
    )
    shown = (
        toleration.replace("value: absent", "operator: Equal, value: absent")
        if "operator" not in toleration
        else toleration
    )
    message = f"application train: toleration {shown} of ask trainer tolerates no taint of any node: {what}"
    assert found == [("toleration-matches-no-taint", 17, 23, message, hint)]


def test_the_control_plane_taint_did_you_mean_and_what_is_not_reported() -> None:
    found = lint(
        with_nodes(
            """
        applications:
          - id: a
            asks:
              - name: legacy
                resources: {vcore: 1}
                tolerations: [{key: node-role.kubernetes.io/master, operator: Exists, effect: NoSchedule}]
              - name: both
                resources: {vcore: 1}
                tolerations:
                  - {key: node-role.kubernetes.io/master, operator: Exists, effect: NoSchedule}
                  - {key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule}
              - name: unrelated
                resources: {vcore: 1}
                tolerations:
                  - {key: example.com/dedicated, operator: Exists}
                  - {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute}
                  - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute}
                  - {key: node.kubernetes.io/memory-pressure, operator: Exists, effect: NoSchedule}
        """
        )
    )
    assert found == [
        (
            "toleration-matches-no-taint",
            17,
            23,
            "application a: toleration {key: node-role.kubernetes.io/master, operator: Exists, effect: NoSchedule} "
            "of ask legacy tolerates no taint of any node: no node has a taint with key node-role.kubernetes.io/master",
            "did you mean node-role.kubernetes.io/control-plane? nodes have "
            "node-role.kubernetes.io/control-plane:NoSchedule.",
        )
    ]


def test_one_toleration_warning_per_application_counting_placeholders() -> None:
    found = lint(
        with_nodes(
            """
        applications:
          - id: a
            tolerations: [{key: nvidia.com/gpus, operator: Exists}]
            taskGroups:
              - {name: g, minMember: 3, minResource: {vcore: 1}}
            asks:
              - {name: x, count: 2, resources: {vcore: 1}}
              - {name: y, resources: {vcore: 1}, taskGroupName: g}
        """
        )
    )
    assert [(f[0], f[1], f[2], f[3]) for f in found] == [
        (
            "toleration-matches-no-taint",
            18,
            9,
            "application a: toleration {key: nvidia.com/gpus, operator: Exists} of 6 pods (first: ask x-0) tolerates "
            "no taint of any node: no node has a taint with key nvidia.com/gpus",
        )
    ]


# --- soft-constraint-ignored -----------------------------------------------------------------------------------------

SOFT = """
nodes:
  - {name: node-1, resources: {vcore: 8}, labels: {zone: a}}
  - {name: spot-1, resources: {vcore: 8}, taints: [{key: spot, value: "yes", effect: PreferNoSchedule}]}
  - {name: spot-2, resources: {vcore: 8}, taints: [{key: spot, value: "yes", effect: PreferNoSchedule}]}
applications:
  - id: web
    queue: root.a
    labels: {app: web}
    topologySpreadConstraints:
      - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}}
      - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway,
         labelSelector: {matchLabels: {app: web}}}
    asks:
      - {name: web, count: 3, resources: {vcore: 1}}
      - name: cache
        resources: {vcore: 1}
        affinity:
          nodeAffinity:
            preferredDuringSchedulingIgnoredDuringExecution:
              - {weight: 10, preference: {matchExpressions: [{key: zone, operator: In, values: [a]}]}}
          podAffinity:
            preferredDuringSchedulingIgnoredDuringExecution:
              - {weight: 10, podAffinityTerm: {topologyKey: zone, labelSelector: {matchLabels: {app: web}}}}
  - id: batch
    queue: root.a
    taskGroups:
      - name: g
        minMember: 2
        minResource: {vcore: 1}
        affinity:
          podAntiAffinity:
            preferredDuringSchedulingIgnoredDuringExecution:
              - {weight: 1, podAffinityTerm: {topologyKey: zone, labelSelector: {matchLabels: {app: batch}}}}
"""


def test_soft_constraints_one_warning_per_application_and_kind() -> None:
    found = lint(SOFT)
    sort = f"YuniKorn runs no Score plugin and places each pod on {SORT_ORDER}"
    hint = (
        "make it required (requiredDuringSchedulingIgnoredDuringExecution, whenUnsatisfiable: DoNotSchedule) if it "
        "must hold, or drop it."
    )
    assert found == [
        (
            "soft-constraint-ignored",
            3,
            52,
            "2 nodes (first: spot-1) have taint spot=yes:PreferNoSchedule, which YuniKorn ignores: kube-scheduler "
            "would put the pods that do not tolerate it on other nodes when it can (TaintToleration score); YuniKorn "
            f"runs no Score plugin, treats the node as untainted and places each pod on {SORT_ORDER}",
            "use effect NoSchedule to keep pods that do not tolerate it off the node, or drop the taint.",
        ),
        (
            "soft-constraint-ignored",
            14,
            9,
            "application web: 4 pods (first: ask web-0) carry topology spread ScheduleAnyway, which YuniKorn "
            f"ignores: kube-scheduler would prefer the nodes that lower the skew (PodTopologySpread score); {sort}",
            hint,
        ),
        (
            "soft-constraint-ignored",
            20,
            15,
            "application web: ask cache carries preferred node affinity, which YuniKorn ignores: kube-scheduler "
            f"would prefer the nodes its terms match (NodeAffinity score); {sort}",
            hint,
        ),
        (
            "soft-constraint-ignored",
            23,
            15,
            "application web: ask cache carries preferred pod affinity, which YuniKorn ignores: kube-scheduler "
            f"would prefer the nodes near the pods its terms match (InterPodAffinity score); {sort}",
            hint,
        ),
        (
            "soft-constraint-ignored",
            33,
            15,
            "application batch: the 2 placeholders of task group g carry preferred pod anti-affinity, which "
            "YuniKorn ignores: kube-scheduler would prefer the nodes away from the pods its terms match "
            f"(InterPodAffinity score); {sort}",
            hint,
        ),
    ]


# --- task-group-predicates-differ ------------------------------------------------------------------------------------


def test_a_task_group_whose_placeholders_are_constrained_otherwise() -> None:
    found = lint(
        with_nodes(
            """
        applications:
          - id: spark
            taskGroups:
              - {name: driver, minMember: 1, minResource: {vcore: 1}}
              - name: executors
                minMember: 2
                minResource: {vcore: 1}
                nodeSelector: {pool: cpu}
                topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}]
            asks:
              - {name: driver, resources: {vcore: 1}, taskGroupName: driver}
              - name: exec
                count: 3
                resources: {vcore: 1}
                taskGroupName: executors
                nodeSelector: {pool: gpu}
                tolerations: [{key: nvidia.com/gpu, operator: Exists}]
        """
        )
    )
    assert found == [
        (
            "task-group-predicates-differ",
            19,
            23,
            "application spark: task group executors differs from its 3 pods (first: exec-0) in nodeSelector, "
            "tolerations and topologySpreadConstraints: its placeholders may reserve nodes the real pods cannot use, "
            "and a real pod then goes to another node or waits",
            "nodeSelector: pool=cpu in the task group, pool=gpu in exec-0; tolerations: (none) in the task group, "
            "{key: nvidia.com/gpu, operator: Exists} in exec-0; give the task group exactly the nodeSelector, "
            "tolerations, affinity and topologySpreadConstraints of its pods.",
        )
    ]


def test_the_order_of_tolerations_and_the_admission_tolerations_do_not_count() -> None:
    found = lint(
        """
        applications:
          - id: gang
            taskGroups:
              - name: g
                minMember: 1
                minResource: {vcore: 1}
                tolerations: [{key: a, operator: Exists}, {key: b, operator: Exists}]
            asks:
              - name: x
                taskGroupName: g
                tolerations:
                  - {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: 300}
                  - {key: b, operator: Exists}
                  - {key: a, operator: Exists}
              - name: y
                taskGroupName: g
                affinity:
                  podAntiAffinity:
                    requiredDuringSchedulingIgnoredDuringExecution:
                      - {topologyKey: zone, labelSelector: {matchLabels: {app: y}}}
                tolerations: [{key: a, operator: Exists}, {key: b, operator: Exists}]
        """
    )
    assert [(f[0], f[1], f[3]) for f in found] == [
        (
            "task-group-predicates-differ",
            4,
            "application gang: task group g differs from its pod y in affinity: its placeholders may reserve nodes the "
            "real pods cannot use, and a real pod then goes to another node or waits",
        )
    ]


# --- kubectl dumps and the command line ------------------------------------------------------------------------------

DUMP = """
apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: Node
    metadata: {name: gpu-1, labels: {pool: gpu}}
    spec:
      taints: [{key: nvidia.com/gpu, value: present, effect: NoSchedule}]
    status: {allocatable: {cpu: "8", memory: 32Gi, pods: "110"}}
  - apiVersion: v1
    kind: Node
    metadata: {name: node-1, labels: {pool: cpu}}
    status: {allocatable: {cpu: "8", memory: 32Gi, pods: "110"}}
  - apiVersion: v1
    kind: Pod
    metadata:
      name: trainer
      namespace: ml
      creationTimestamp: "2024-06-01T11:00:00Z"
      labels: {yunikorn.apache.org/app-id: train}
      annotations:
        yunikorn.apache.org/task-group-name: workers
        yunikorn.apache.org/task-groups: '[{"name": "workers", "minMember": 1, "minResource": {"cpu": "1"},
          "nodeSelector": {"pool": "gpu"}, "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists"}]}]'
    spec:
      schedulerName: yunikorn
      nodeSelector: {pool: gpu}
      tolerations:
        - {key: nvidia.com/gpu, operator: Exists}
        - {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: 300}
        - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 300}
      containers: [{name: c, image: busybox, resources: {requests: {cpu: "1"}}}]
    status: {phase: Pending}
  - apiVersion: v1
    kind: Pod
    metadata:
      name: web
      namespace: shop
      creationTimestamp: "2024-06-01T11:00:00Z"
      labels: {yunikorn.apache.org/app-id: web}
    spec:
      schedulerName: yunikorn
      tolerations: [{key: nvidia.com/gpus, operator: Exists}]
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms: [{matchExpressions: [{key: pool, operator: In, values: [arm]}]}]
      containers: [{name: c, image: busybox, resources: {requests: {cpu: "1"}}}]
    status: {phase: Pending}
"""


def test_a_dump_gets_the_same_warnings_naming_its_pods() -> None:
    workload, _, problems = cluster_from_bytes(dedent(DUMP).encode(), "dump.yaml")
    assert problems == []
    assert [(p.rule, p.message) for p in lint_predicates(workload)] == [
        (
            "pod-matches-no-node",
            "application web: ask shop/web can run on none of the 2 nodes: no node matches its required node affinity",
        ),
        (
            "toleration-matches-no-taint",
            "application web: toleration {key: nvidia.com/gpus, operator: Exists} of ask shop/web tolerates no taint "
            "of any node: no node has a taint with key nvidia.com/gpus",
        ),
    ]


QUEUES = """
partitions:
  - name: default
    queues:
      - name: root
        submitacl: '*'
        queues:
          - name: a
"""


def test_simulate_names_the_rules_and_lines_in_its_summary_line(run_yk, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("queues.yaml").write_text(dedent(QUEUES))
    Path("workload.yaml").write_text(dedent(SOFT))
    result = run_yk("simulate", "queues.yaml", "workload.yaml")
    assert result.exit_code == 0
    assert result.stderr == "5 warnings in workload.yaml: soft-constraint-ignored (lines 3, 14, 20, 23, 33)\n"
    Path("dump.yaml").write_text(dedent(DUMP))
    result = run_yk("simulate", "--cluster", "dump.yaml")
    assert result.exit_code == 0
    assert result.stderr == "2 warnings in dump.yaml: pod-matches-no-node, toleration-matches-no-taint\n"


def test_with_an_error_the_warnings_are_shown_in_full(run_yk, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("queues.yaml").write_text(dedent(QUEUES))
    applications = "applications:\n  - id: a\n    queue: root.nowhere\n    asks:\n"
    workload = with_nodes(applications + "      - {name: x, nodeSelector: {pool: gpus}}\n")
    Path("workload.yaml").write_text(workload)
    result = run_yk("simulate", "queues.yaml", "workload.yaml")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[4:] == [
        "workload.yaml:16:33: [warning] application a: ask x can run on none of the 4 nodes: no node has all the "
        "labels of its nodeSelector pool=gpus (pod-matches-no-node)",
        "   16 |       - {name: x, nodeSelector: {pool: gpus}}",
        "      |                                 ^^^^^^^^^^^^",
        "      hint: no node has label pool=gpus; did you mean pool=gpu?",
        "2 files checked: 1 error, 1 warning",
    ]
