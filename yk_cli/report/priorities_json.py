"""`yk priorities --format json`: queues with YuniKorn's REST names and every ask's breakdown, one object a line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from json.encoder import encode_basestring as _string  # what json.dumps(ensure_ascii=False) makes of a str

from yk_cli.core.ordering.priority import Cause, Step
from yk_cli.report.priorities_common import PriorityView
from yk_cli.report.tree_common import absent_dict, at_dict, depth_first, json_value, priority_json
from yk_cli.report.unmodelled import unmodelled_dicts


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
    """`{"partition", "at", "notModelled", "queues": [...], "asks": [...], "notPending": [...], "rejected": [...]}`
    with one queue or ask per line."""
    return "".join(chunks(view))


def chunks(view: PriorityView) -> Iterator[str]:
    """The report in pieces, one per ask (large reports are printed as they are made)."""
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
    yield (
        "{\n"
        f'  "partition": {json.dumps(view.partition)},\n'
        f'  "at": {json.dumps(at_dict(view.at, view.steps), ensure_ascii=False)},\n'
        f'  "notModelled": {_lines([json.dumps(u, ensure_ascii=False) for u in unmodelled_dicts(view.unmodelled)])},\n'
        f'  "queues": {_lines([json.dumps(q, ensure_ascii=False) for q in queues])},\n'
    )
    encoded: dict[int, str] = {}

    def step_json(step: Step) -> str:
        text = encoded.get(id(step))
        if text is None:
            text = encoded[id(step)] = json.dumps(step_dict(view, step), ensure_ascii=False)
        return text

    if not view.asks:
        yield '  "asks": [],\n'
    else:
        chains: dict[tuple[str, int], str] = {}
        separator = '  "asks": [\n    '
        for item in view.asks:
            ask, steps = item.ask, item.steps
            chain_key = (item.queue_path, ask.priority)
            chain = chains.get(chain_key)
            if chain is None:  # the queue steps depend only on the leaf and the ask's priority
                chain = chains[chain_key] = "".join(f", {step_json(step)}" for step in steps[2:])
            yield (
                f'{separator}{{"application": {_string(item.application)}, "ask": {_string(ask.name)}, '
                f'"queuePath": {_string(item.queue_path)}, "priority": {ask.priority}, '
                f'"priorityClass": {_string(ask.priority_class) if ask.priority_class else "null"}, '
                f'"applicationPriority": {_number(item.app_priority)}, "effectivePriority": {_number(item.effective)}, '
                f'"steps": [{step_json(steps[0])}, {step_json(steps[1])}{chain}]}}'
            )
            separator = ",\n    "
        yield "\n  ],\n"
    absent = [json.dumps(absent_dict(item), ensure_ascii=False) for item in view.absent]
    yield f'  "notPending": {_lines(absent)},\n'
    rejected = [json.dumps({"application": app.id, "reason": reason}) for app, reason in view.rejected]
    yield f'  "rejected": {_lines(rejected)}\n}}\n'


def _number(priority: int) -> str:
    value = priority_json(priority)
    return "null" if value is None else str(value)


def _lines(items: list[str]) -> str:
    if not items:
        return "[]"
    return "[\n    " + ",\n    ".join(items) + "\n  ]"
