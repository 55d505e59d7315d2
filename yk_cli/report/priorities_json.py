"""`yk priorities --format json`: queues with YuniKorn's REST names and every ask's breakdown, one object a line."""

from __future__ import annotations

import json

from yk_cli.core.priority import Cause, Step
from yk_cli.report.priorities_common import PriorityView
from yk_cli.report.tree_common import depth_first, json_value, priority_json


def cause_dict(view: PriorityView, cause: Cause) -> dict[str, object]:
    """A property behind a step, with its provenance and config line."""
    setting = cause.setting
    out: dict[str, object] = {
        "queuePath": cause.queue_path,
        "key": setting.key,
        "value": json_value(setting),
        "source": setting.source.value,
    }
    if setting.origin:
        out["origin"] = setting.origin
    where = view.locate(cause.config_path)
    if where:
        out["location"] = where
    if setting.fallback:
        out["fallback"] = True
        out["text"] = setting.text
    return out


def step_dict(view: PriorityView, step: Step) -> dict[str, object]:
    """One step of a breakdown."""
    out: dict[str, object] = {
        "queuePath": step.queue_path,
        "kind": step.kind,
        "value": priority_json(step.value),
        "detail": step.detail,
        "prioritySorting": step.sorting,
        "causes": [cause_dict(view, c) for c in step.causes],
    }
    if step.note:
        out["note"] = step.note
    return out


def render(view: PriorityView) -> str:
    """`{"partition", "queues": [...], "asks": [...], "rejected": [...]}` with one queue or ask per line."""
    queues = []
    for queue in depth_first(view.tree):
        queues.append(
            {
                "queuePath": queue.path,
                "currentPriority": priority_json(view.cache.queue_priority(queue.path)),
                "priorityOffset": queue.priority_offset,
                "isPriorityFence": queue.priority_fence,
                "prioritySorting": queue.sort_priority,
                "sortingPolicy": queue.sort_policy,
                "isLeaf": queue.is_leaf,
            }
        )
    encoded: dict[int, str] = {}

    def step_json(step: Step) -> str:
        text = encoded.get(id(step))
        if text is None:
            text = encoded[id(step)] = json.dumps(step_dict(view, step), ensure_ascii=False)
        return text

    asks = []
    for item in view.asks:
        head = json.dumps(
            {
                "application": item.application,
                "ask": item.ask.name,
                "queuePath": item.queue_path,
                "priority": item.ask.priority,
                "priorityClass": item.ask.priority_class or None,
                "applicationPriority": priority_json(item.app_priority),
                "effectivePriority": priority_json(item.effective),
            },
            ensure_ascii=False,
        )
        asks.append(f'{head[:-1]}, "steps": [{", ".join(step_json(s) for s in item.steps)}]}}')
    rejected = [json.dumps({"application": app.id, "reason": reason}) for app, reason in view.rejected]
    return (
        "{\n"
        f'  "partition": {json.dumps(view.partition)},\n'
        f'  "queues": {_lines([json.dumps(q, ensure_ascii=False) for q in queues])},\n'
        f'  "asks": {_lines(asks)},\n'
        f'  "rejected": {_lines(rejected)}\n'
        "}\n"
    )


def _lines(items: list[str]) -> str:
    if not items:
        return "[]"
    return "[\n    " + ",\n    ".join(items) + "\n  ]"
