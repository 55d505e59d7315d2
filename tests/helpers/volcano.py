"""Volcano test inputs shared across folders: random cluster dumps and scheduler confs (hypothesis), and a dump
rewritten as the JSON `kubectl -o json` prints."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import strategies as st

from yk_cli.core.volcano.conf import PluginOption, SchedulerConf, Tier, _defaulted
from yk_cli.core.volcano.model import Cluster, Node, Pod, PodGroup, PriorityClass, Queue
from yk_cli.load.source import parse_yaml

GI = 2**30 * 1000
"""A Gi of memory in Volcano's milli-units."""


@st.composite
def clusters(draw: st.DrawFn) -> Cluster:
    n_nodes = draw(st.integers(0, 3))
    nodes = tuple(
        Node(f"n{i}", {"cpu": draw(st.integers(0, 4)) * 1000, "memory": draw(st.integers(0, 4)) * GI,
                       "pods": draw(st.integers(0, 5)) * 1000},
             ready=draw(st.booleans()), unschedulable=draw(st.booleans()))
        for i in range(n_nodes)
    )
    queue_names = ["q0", "q1", "q2"][: draw(st.integers(1, 3))]
    queues = tuple(
        Queue(name, weight=draw(st.integers(0, 3)), priority=draw(st.integers(0, 2)),
              capability=draw(st.sampled_from([None, {"cpu": 2000}, {"cpu": 0, "memory": GI}])),
              deserved=draw(st.sampled_from([None, {"cpu": 1000}, {"cpu": 3000, "memory": 2 * GI}])),
              guarantee=draw(st.sampled_from([None, {"cpu": 500}])),
              reclaimable=draw(st.booleans()), parent=draw(st.sampled_from([None, "q0"])) if name != "q0" else None,
              created=draw(st.sampled_from([None, 1.0, 2.0])))
        for name in queue_names
    )
    groups = tuple(
        PodGroup("ns", f"g{i}", queue=draw(st.sampled_from([*queue_names, "missing", "default"])),
                 min_member=draw(st.integers(0, 3)), phase=draw(st.sampled_from(["Pending", "Inqueue", "Running"])),
                 priority_class_name=draw(st.sampled_from(["", "hi", "nope"])),
                 min_resources=draw(st.sampled_from([None, {"cpu": 1000}, {"cpu": 5000, "memory": GI}])))
        for i in range(draw(st.integers(0, 4)))
    )
    pods = []
    for i in range(draw(st.integers(0, 8))):
        phase = draw(st.sampled_from(["Pending", "Running", "Succeeded"]))
        placed = phase != "Pending" or draw(st.booleans())
        node = draw(st.sampled_from(["", *[n.name for n in nodes]])) if placed else ""
        pods.append(Pod(
            "ns" if draw(st.booleans()) else "kube-system", f"p-x-{i}", f"uid-{i}",
            group=draw(st.sampled_from(["", *[g.name for g in groups]])),
            request={"cpu": draw(st.integers(0, 3)) * 500, "memory": draw(st.integers(0, 2)) * GI, "pods": 1000},
            priority=draw(st.sampled_from([None, 5, 50])), preemptable=draw(st.booleans()), node_name=node,
            phase=phase, scheduler_name=draw(st.sampled_from(["volcano", "default-scheduler"])),
            preemption_policy=draw(st.sampled_from(["", "Never"])),
        ))
    classes = (PriorityClass("hi", 10, global_default=draw(st.booleans())),)
    return Cluster(queues=queues, pod_groups=groups, pods=tuple(pods), priority_classes=classes, nodes=nodes)



def _conf(draw_actions: list[str], plugins: list[str], hierarchy: bool) -> SchedulerConf:
    options = []
    for name in plugins:
        flags = _defaulted({"enableHierarchy": hierarchy} if name == "capacity" else {})
        options.append(PluginOption(name, flags))
    half = len(options) // 2
    return SchedulerConf(tuple(draw_actions), (Tier(tuple(options[:half])), Tier(tuple(options[half:]))))



PLUGINS = ["priority", "gang", "conformance", "drf", "proportion", "capacity", "overcommit", "predicates", "binpack"]


def plain(node):  # type: ignore[no-untyped-def]
    """A YAML node as the JSON `kubectl -o json` would print for it."""
    if node.kind == "map":
        return {k.text: plain(v) for k, v in node.pairs}
    if node.kind == "seq":
        return [plain(item) for item in node.items]
    return node.value if node.style == "" and node.tag in ("int", "bool", "null") else node.text



def as_json(path: Path, tmp_path: Path) -> Path:
    (document,) = parse_yaml(path.read_text()).documents
    target = tmp_path / (path.parent.name + "-" + path.stem + ".json")
    target.write_text(json.dumps(plain(document), indent=2))
    return target
