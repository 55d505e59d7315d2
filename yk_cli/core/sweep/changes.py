"""What a point of a sweep changes from the base config and workload: each parameter's value there and at the
point, and for a queue setting the document path it is written at (or would be)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from yk_cli.core.config.queues import QueueTree
from yk_cli.core.diagnostics import Path
from yk_cli.core.sweep.params import (
    ARRIVALS,
    GUARANTEED,
    MAX,
    MAXAPPLICATIONS,
    NODES_COUNT,
    NODES_SIZE,
    PROPERTY,
    WORKLOAD_FILE,
    Value,
    text_of,
)
from yk_cli.core.sweep.points import Parameter
from yk_cli.core.workload.model import Workload

CONFIG, CLUSTER, WORKLOAD = "config", "cluster", "workload"


@dataclass(frozen=True, slots=True)
class SettingChange:
    """One parameter at a point: where it lives (the config, the cluster's nodes, the workload), its base value
    (None: not written in the config), its value at the point, and for a config setting its document path."""

    label: str
    path: str
    where: str
    base: str | None
    value: str
    document_path: Path | None = None

    @property
    def changed(self) -> bool:
        return self.base != self.value


def changes(
    parameters: Sequence[Parameter], values: Sequence[Value], tree: QueueTree, workload: Workload, workload_name: str
) -> list[SettingChange]:
    """Every parameter's change at a point, in parameter order (an unchanged one too: the caller shows or hides it)."""
    out = []
    for parameter, value in zip(parameters, values, strict=True):
        target, new = parameter.target, text_of(value)
        if target.kind == WORKLOAD_FILE:
            out.append(SettingChange(parameter.label, parameter.path, WORKLOAD, workload_name, new))
        elif target.kind == ARRIVALS:
            out.append(SettingChange(parameter.label, parameter.path, WORKLOAD, "1", new))
        elif target.kind == NODES_SIZE:
            out.append(SettingChange(parameter.label, parameter.path, CLUSTER, "1", new))
        elif target.kind == NODES_COUNT:
            selector = target.selector
            count = sum(1 for n in workload.nodes if selector is None or dict(n.labels).get(selector[0]) == selector[1])
            out.append(SettingChange(parameter.label, parameter.path, CLUSTER, str(count), new))
        else:
            queue = tree.get(target.queue)
            config = queue.config if queue is not None else None
            if config is None or config.inserted:
                out.append(SettingChange(parameter.label, parameter.path, CONFIG, None, new))
                continue
            base: str | None = None
            if target.kind in (GUARANTEED, MAX):
                which = GUARANTEED if target.kind == GUARANTEED else MAX
                base = getattr(config.resources, which).get(target.key)
                where: Path = (*config.path, "resources", which, target.key)
            elif target.kind == PROPERTY:
                base = config.properties.get(target.key)
                where = (*config.path, "properties", target.key)
            else:
                assert target.kind == MAXAPPLICATIONS
                base = str(config.maxapplications) if config.maxapplications else None
                where = (*config.path, "maxapplications")
            out.append(SettingChange(parameter.label, parameter.path, CONFIG, base, new, where))
    return out
