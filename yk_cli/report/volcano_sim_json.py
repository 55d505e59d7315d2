"""`yk volcano simulate --format json`: one object (schemas/volcano-simulate.schema.json)."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from yk_cli.core.volcano.proposal_view import ProposalResult
from yk_cli.core.volcano.session import Event
from yk_cli.core.volcano.simulate import SimulationResult
from yk_cli.report.volcano_proposal import proposal_json

UNITS = {"cpu": "millicores", "memory": "bytes", "pods": "count", "ephemeral-storage": "milli-bytes"}


def event_json(item: Event) -> dict[str, Any]:
    """An event as `{"type": ..., <its fields in order>}`."""
    out: dict[str, Any] = {"type": item.type}
    out.update(item.fields)
    return out


def simulation_json(
    result: SimulationResult, conf_source: str, proposal: ProposalResult | None = None
) -> dict[str, Any]:
    """The whole result as JSON-ready data."""
    conf = result.conf
    binds = sum(1 for _, events in result.actions for e in events if e.type == "bind")
    evictions = sum(1 for _, events in result.actions for e in events if e.type == "evict")
    pipelined = sum(1 for _, events in result.actions for e in events if e.type == "pipeline")
    data = {
        "conf_source": conf_source,
        "conf": {
            "actions": list(conf.actions),
            "tiers": [[p.name for p in tier.plugins] for tier in conf.tiers],
        },
        "node_rule": result.node_rule,
        "units": {name: UNITS.get(name, "milli-units") for name in result.dims},
        "notes": list(result.notes),
        "queues": [asdict(row) for row in result.queues],
        "jobs": [asdict(row) for row in result.jobs],
        "actions": [{"name": name, "events": [event_json(e) for e in events]} for name, events in result.actions],
        "queues_after": [asdict(row) for row in result.queues_after],
        "summary": {"binds": binds, "evictions": evictions, "pipelined": pipelined},
    }
    if proposal is not None:
        data["proposal"] = proposal_json(proposal)
    return data


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def render_json(result: SimulationResult, conf_source: str, proposal: ProposalResult | None = None) -> str:
    """JSON text, one line per top-level key, per queue and job row, per action and per event (a final newline).

    Written piecewise with the C encoder: indenting a 50,000-event session with `indent=` is several times slower."""
    data = simulation_json(result, conf_source, proposal)
    parts = ["{\n"]
    keys = list(data)
    for index, key in enumerate(keys):
        value = data[key]
        comma = "," if index < len(keys) - 1 else ""
        if key == "actions":
            parts.append(f'  "{key}": [')
            for i, action in enumerate(value):
                parts.append("\n" if i == 0 else ",\n")
                parts.append(f'    {{"name": {_compact(action["name"])}, "events": [')
                events = action["events"]
                if events:
                    parts.append("\n      " + ",\n      ".join(_compact(e) for e in events) + "\n    ")
                parts.append("]}")
            parts.append(("\n  " if value else "") + "]" + comma + "\n")
        elif key in ("queues", "jobs", "queues_after") and value:
            rows = ",\n    ".join(_compact(row) for row in value)
            parts.append(f'  "{key}": [\n    {rows}\n  ]{comma}\n')
        else:
            parts.append(f'  "{key}": {_compact(value)}{comma}\n')
    parts.append("}\n")
    return "".join(parts)
