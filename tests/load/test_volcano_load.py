"""Loading Volcano inputs: the scheduler conf as Volcano's loader reads it (V05) and dumps as snapshot objects."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers.paths import DATA
from yk_cli.core.volcano.conf import DEFAULTED_FLAGS, UNDEFAULTED_FLAGS, default_conf
from yk_cli.core.volcano.model import Pod
from yk_cli.load.volcano import load_volcano

CASES = DATA / "volcano" / "cases"
V05 = CASES / "v05-config-defaults"


def test_v05_loader_defaults() -> None:
    expect = json.loads((V05 / "expected.json").read_text())["expect"]
    loaded = load_volcano([], str(V05 / "volcano-scheduler.conf"))
    assert loaded.conf.loaded and loaded.problems == []
    conf = loaded.conf.effective
    assert list(conf.actions) == expect["actions"]
    assert [[p.name for p in tier.plugins] for tier in conf.tiers] == expect["tiers"]
    for plugin in conf.plugins():
        assert dict(plugin.flags) == expect["flags_of_every_plugin"]
    assert dict(conf.configurations) == {}
    assert set(expect["flags_of_every_plugin"]) == set(DEFAULTED_FLAGS + UNDEFAULTED_FLAGS)


@pytest.mark.parametrize(
    ("name", "loads", "error", "rule", "line", "column"),
    [
        ("drf-hierarchy-proportion-other-tiers.conf", True, "", None, 0, 0),
        ("unknown-plugin.conf", True, "", None, 0, 0),
        (
            "drf-hierarchy-proportion-same-tier.conf",
            False,
            "proportion and drf with hierarchy enabled conflicts",
            "volcano-hierarchy-conflict",
            10,
            5,
        ),
        ("unknown-action.conf", False, "failed to find Action  allocat", "volcano-unknown-action", 2, 10),
    ],
)
def test_v05_companions(name: str, loads: bool, error: str, rule: str | None, line: int, column: int) -> None:
    path = V05 / "companions" / name
    loaded = load_volcano([], str(path))
    assert loaded.conf.loaded is loads
    assert loaded.conf.error == error
    if rule is None:
        assert loaded.problems == []
        return
    (problem,) = loaded.problems
    assert (problem.rule, problem.file, problem.span is not None) == (rule, str(path), True)
    assert problem.span is not None and (problem.span.line, problem.span.column) == (line, column)
    assert loaded.conf.effective == default_conf(), "a conf that fails to load leaves Volcano on its default"


def test_conf_type_errors_are_all_reported(tmp_path: Path) -> None:
    conf = tmp_path / "volcano-scheduler.conf"
    conf.write_text("actions: [enqueue]\ntiers:\n- plugins:\n  - name: gang\n    enableJobOrder: 'yes'\n")
    loaded = load_volcano([], str(conf))
    assert not loaded.conf.loaded
    assert [(p.rule, p.message, p.span.line if p.span else 0) for p in loaded.problems] == [
        ("volcano-conf-type", "cannot unmarshal !!seq into string", 1),
        ("volcano-conf-type", "cannot unmarshal !!str `yes` into bool", 5),
    ]


def test_yaml11_booleans_and_arguments(tmp_path: Path) -> None:
    conf = tmp_path / "c.conf"
    conf.write_text(
        'actions: "allocate"\ntiers:\n- plugins:\n  - name: gang\n    enableJobOrder: off\n'
        "    enableHierarchy: yes\n    arguments: {a: 1}\n"
        "configurations:\n- name: allocate\n  arguments: {x: 'y'}\n"
    )
    conf_loaded = load_volcano([], str(conf)).conf
    (plugin,) = conf_loaded.effective.plugins()
    assert plugin.flags["enableJobOrder"] is False and plugin.flags["enableHierarchy"] is True
    assert plugin.flags["enabledClusterOrder"] is None and not plugin.enabled("enabledClusterOrder")
    assert dict(plugin.arguments) == {"a": 1}
    assert dict(conf_loaded.effective.action_arguments("allocate")) == {"x": "y"}


def test_configmap_in_dump_positions_map_to_the_outer_file(tmp_path: Path) -> None:
    dump = tmp_path / "dump.yaml"
    dump.write_text(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: volcano-scheduler-configmap\n"
        "  namespace: volcano-system\ndata:\n  volcano-scheduler.conf: |\n"
        '    actions: "enqueue, alocate"\n    tiers:\n    - plugins:\n      - name: gang\n'
    )
    loaded = load_volcano([str(dump)])
    assert loaded.conf_source.endswith('(ConfigMap volcano-scheduler-configmap, data["volcano-scheduler.conf"])')
    (problem,) = loaded.problems
    assert problem.message == "failed to find Action  alocate"
    assert problem.hint.startswith("did you mean `allocate`?")
    assert problem.span is not None and (problem.span.line, problem.span.column) == (8, 14)


def test_no_conf_means_the_builtin_default(tmp_path: Path) -> None:
    loaded = load_volcano([str(CASES / "v07-reclaim-victim-queue-priority" / "objects.yaml")])
    assert loaded.conf.effective == default_conf()
    assert loaded.conf_source.startswith("Volcano's built-in default configuration")


def test_v07_objects() -> None:
    loaded = load_volcano([str(CASES / "v07-reclaim-victim-queue-priority" / "objects.yaml")])
    cluster = loaded.cluster
    assert [(q.name, q.priority, q.weight) for q in cluster.queues] == [("q1", 5, 1), ("q2", 10, 1), ("q3", 1, 1)]
    assert [(g.uid, g.queue, g.priority_class_name, g.phase) for g in cluster.pod_groups] == [
        ("c1/pg1", "q1", "mid-priority", "Inqueue"),
        ("c1/pg2", "q2", "mid-priority", "Inqueue"),
        ("c1/pg3", "q3", "mid-priority", "Inqueue"),
    ]
    first = cluster.pods[0]
    assert first == Pod(
        namespace="c1",
        name="preemptee1-1",
        uid="c1-preemptee1-1",
        group="pg1",
        request={"cpu": 1000, "memory": 10**12, "pods": 1000},
        init_request={"pods": 1000},
        node_name="n1",
        phase="Running",
        scheduler_name="volcano",
    )
    assert [p.preemptable for p in cluster.pods] == [True, False, True, False, True]
    assert [(n.name, n.allocatable, n.ready) for n in cluster.nodes] == [
        ("n1", {"cpu": 4000, "memory": 4 * 2**30 * 1000, "pods": 10000}, True)
    ]


def test_bad_objects_are_located_and_left_out(tmp_path: Path) -> None:
    dump = tmp_path / "dump.yaml"
    dump.write_text(
        "apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {name: a}\nspec: {weight: heavy}\n"
        "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n"
        "  - resources: {requests: {cpu: lots}}\n"
        "---\n- just\n- a list\n"
        "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n"
    )
    loaded = load_volcano([str(dump)])
    assert loaded.cluster.queues == () and loaded.cluster.pods == ()
    assert loaded.ignored_kinds == {"Deployment": 1}
    assert [(p.rule, p.span.line if p.span else 0, p.message) for p in loaded.problems] == [
        ("volcano-invalid-field", 4, "Queue spec.weight must be an integer, found !!str `heavy`"),
        ("volcano-bad-quantity", 11, "container 0 requests: cpu lots is not a Kubernetes quantity"),
        (
            "volcano-not-kubernetes",
            13,
            "expected a Kubernetes object (a mapping with kind and metadata), found !!seq",
        ),
    ]


def test_vcjob_and_bare_pod_get_the_pod_groups_volcano_would_make(tmp_path: Path) -> None:
    dump = tmp_path / "dump.yaml"
    dump.write_text(
        "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: train, namespace: ml}\n"
        "spec:\n  queue: gpu\n  priorityClassName: high\n  minAvailable: 2\n  tasks:\n"
        "  - name: worker\n    replicas: 3\n    template:\n      spec:\n        containers:\n"
        "        - resources: {requests: {cpu: '2'}}\n"
        "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: solo\n  namespace: ml\n  uid: u-1\n"
        "  annotations: {scheduling.volcano.sh/queue-name: batch}\nspec:\n  schedulerName: volcano\n"
        "  containers:\n  - resources: {requests: {cpu: 500m}}\n"
    )
    loaded = load_volcano([str(dump)])
    job, solo = loaded.cluster.pod_groups
    assert (job.uid, job.queue, job.priority_class_name, job.min_member) == ("ml/train", "gpu", "high", 2)
    assert job.min_resources == {"cpu": 4000, "pods": 2000}
    assert (solo.uid, solo.queue, solo.min_member) == ("ml/podgroup-u-1", "batch", 1)
    assert loaded.cluster.pods[0].group == "podgroup-u-1"
