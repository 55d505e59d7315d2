"""`yk volcano simulate --format json`: one object (schemas/volcano-simulate.schema.json)."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from yk_cli.core.volcano.session import Event
from yk_cli.core.volcano.simulate import SimulationResult

UNITS = {"cpu": "millicores", "memory": "bytes", "pods": "count", "ephemeral-storage": "milli-bytes"}


def event_json(item: Event) -> dict[str, Any]:
    """An event as `{"type": ..., <its fields in order>}`."""
    out: dict[str, Any] = {"type": item.type}
    out.update(item.fields)
    return out


def simulation_json(result: SimulationResult, conf_source: str) -> dict[str, Any]:
    """The whole result as JSON-ready data."""
    conf = result.conf
    binds = sum(1 for _, events in result.actions for e in events if e.type == "bind")
    evictions = sum(1 for _, events in result.actions for e in events if e.type == "evict")
    pipelined = sum(1 for _, events in result.actions for e in events if e.type == "pipeline")
    return {
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


def render_json(result: SimulationResult, conf_source: str) -> str:
    """Indented JSON text with a final newline."""
    return json.dumps(simulation_json(result, conf_source), indent=2, ensure_ascii=False) + "\n"
