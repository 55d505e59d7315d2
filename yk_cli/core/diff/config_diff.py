"""Config-level changes: problems introduced and fixed, every effective queue setting that changed, queues added,
removed or moved, and partition settings."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from yk_cli.core.config import properties as props
from yk_cli.core.config.model import Limit, PartitionConfig, PlacementRule
from yk_cli.core.config.properties import Setting, Source, format_duration
from yk_cli.core.config.queues import Queue, QueueTree, build_queue_tree
from yk_cli.core.diagnostics import Path, Problem, Span
from yk_cli.core.diff.model import ConfigChanges, ProblemChanges, Provenance, QueueChange, SettingChange
from yk_cli.core.ordering.priority import setting_config_path
from yk_cli.core.resources import Resource, format_resource
from yk_cli.core.yamldoc import SourceMap

DURATION_KEYS = {props.PREEMPTION_DELAY, props.BACKOFF_DELAY, props.QUOTA_PREEMPTION_DELAY}
NONE = "(none)"
"""The value text of a setting that is not there (no limit, no template entry, no ACL)."""


@dataclass(frozen=True, slots=True)
class ConfigSide:
    """One side of a diff: its file, its decoded partitions (none when it could not be read), where its text is, and
    every problem `yk validate` reports on it."""

    file: str
    partitions: tuple[PartitionConfig, ...]
    source_map: SourceMap
    problems: tuple[Problem, ...] = ()

    def span(self, path: Path) -> Span | None:
        """The span of a document path's key in this file (None for an empty path)."""
        return self.source_map.span(path, "key") if path else None

    def line(self, path: Path) -> int:
        span = self.span(path)
        return span.line if span is not None else 0


def _problem_key(p: Problem) -> tuple[str, str, str]:
    return (p.rule, p.level.value, p.message)


def diff_problems(old: Iterable[Problem], new: Iterable[Problem]) -> ProblemChanges:
    """Problems only NEW has (with NEW's positions) and only OLD had, matched by rule, level and message (positions
    move when lines are added above them, so they are not compared)."""
    old_list, new_list = list(old), list(new)
    left = Counter(_problem_key(p) for p in old_list)
    right = Counter(_problem_key(p) for p in new_list)
    introduced, fixed = [], []
    for p in new_list:
        key = _problem_key(p)
        if left[key]:
            left[key] -= 1
        else:
            introduced.append(p)
    for p in old_list:
        key = _problem_key(p)
        if right[key]:
            right[key] -= 1
        else:
            fixed.append(p)
    return ProblemChanges(tuple(introduced), tuple(fixed))


def diff_config(old: ConfigSide, new: ConfigSide) -> ConfigChanges:
    """Every change between the two configs: problems, then per partition (matched by name) the queues and every
    effective setting of the queues both have (a moved queue compared at its new path)."""
    problems = diff_problems(old.problems, new.problems)
    olds = {p.display_name: p for p in old.partitions}
    news = {p.display_name: p for p in new.partitions}
    settings: list[SettingChange] = []
    queues: list[QueueChange] = []
    for name, new_partition in news.items():
        old_partition = olds.get(name)
        if old_partition is None:
            continue
        settings.extend(_partition_settings(name, old, old_partition, new, new_partition))
        old_tree, new_tree = build_queue_tree(old_partition), build_queue_tree(new_partition)
        pairs, changes = _match_queues(name, old_tree, new_tree, new)
        queues.extend(changes)
        for old_queue, new_queue in pairs:
            settings.extend(_queue_settings(name, old, old_queue, new, new_queue))
    return ConfigChanges(
        problems,
        tuple(settings),
        tuple(queues),
        tuple(n for n in news if n not in olds),
        tuple(n for n in olds if n not in news),
    )


def _match_queues(
    partition: str, old: QueueTree, new: QueueTree, new_side: ConfigSide
) -> tuple[list[tuple[Queue, Queue]], list[QueueChange]]:
    """Queue pairs to compare (same path, or moved) in NEW's order, and the queues added, removed and moved. A queue
    moved when its path is gone and exactly one new path ends in its name (or its parent moved and it came along);
    queues that come (go, move) with their parent are counted on the parent."""
    removed = [q for path, q in old.queues.items() if path not in new.queues]
    added = {path: q for path, q in new.queues.items() if path not in old.queues}
    moved: dict[str, str] = {}
    by_name: dict[str, list[str]] = {}
    for path in added:
        by_name.setdefault(path.rsplit(".", 1)[-1], []).append(path)
    unmatched_removed = []
    for queue in removed:  # depth-first: parents before children
        parent = queue.parent.path if queue.parent is not None else ""
        target = f"{moved[parent]}.{queue.name}" if parent in moved else ""
        if not target or target not in added or target in moved.values():
            candidates = [p for p in by_name.get(queue.name, []) if p not in moved.values()]
            same_name_removed = sum(1 for q in removed if q.name == queue.name)
            target = candidates[0] if len(candidates) == 1 and same_name_removed == 1 else ""
        if target:
            moved[queue.path] = target
        else:
            unmatched_removed.append(queue)
    changes: list[QueueChange] = []
    moved_targets = set(moved.values())
    for old_path, new_path in moved.items():
        parent = old_path.rsplit(".", 1)[0]
        if parent in moved and moved[parent] == new_path.rsplit(".", 1)[0]:
            continue  # came with its parent
        queue = new.queues[new_path]
        below = _count_below(new_path, moved_targets)
        changes.append(
            QueueChange(partition, "moved", new_path, old_path, queue.is_leaf, below, _queue_span(new_side, queue))
        )
    gone = {q.path for q in unmatched_removed}
    for queue in unmatched_removed:
        if queue.parent is not None and queue.parent.path in gone:
            continue
        survivor = new.get(queue.parent.path) if queue.parent is not None else None
        span = _queue_span(new_side, survivor) if survivor is not None else None
        changes.append(
            QueueChange(partition, "removed", queue.path, "", queue.is_leaf, _count_below(queue.path, gone), span)
        )
    fresh = {p for p in added if p not in moved_targets}
    for path in fresh:
        parent = path.rsplit(".", 1)[0]
        if parent in fresh:
            continue
        queue = new.queues[path]
        changes.append(
            QueueChange(
                partition, "added", path, "", queue.is_leaf, _count_below(path, fresh), _queue_span(new_side, queue)
            )
        )
    order = {path: i for i, path in enumerate(new.queues)}
    old_order = {path: i for i, path in enumerate(old.queues)}
    changes.sort(key=lambda c: (order.get(c.queue_path, len(order) + old_order.get(c.queue_path, 0)), c.kind))
    reverse = {v: k for k, v in moved.items()}
    pairs = []
    for path, queue in new.queues.items():
        was = path if path in old.queues else reverse.get(path)
        if was is not None:
            pairs.append((old.queues[was], queue))
    return pairs, changes


def _count_below(path: str, paths: Iterable[str]) -> int:
    prefix = path + "."
    return sum(1 for p in paths if p.startswith(prefix))


def _queue_span(side: ConfigSide, queue: Queue) -> Span | None:
    """The line of a configured queue's name ('' for the root YuniKorn inserts)."""
    if queue.config is None or queue.config.inserted:
        return None
    return side.span((*queue.config.path, "name"))


def removal_span(new_side: ConfigSide, new_owner: Queue | None, old_owner: Queue | None, old_path: Path) -> Span | None:
    """Where in NEW the text at old_path (a key of old_owner's config in OLD) was removed from: the mapping of
    new_owner that held it (`properties:`, `resources:`, ...), else new_owner's own line; None when NEW has no such
    queue written."""
    if new_owner is None or new_owner.config is None or new_owner.config.inserted:
        return None
    prefix = old_owner.config.path if old_owner is not None and old_owner.config is not None else ()
    if not prefix or old_path[: len(prefix)] != prefix:
        return _queue_span(new_side, new_owner)
    return _holder(new_side, new_owner.config.path, old_path[len(prefix) :]) or _queue_span(new_side, new_owner)


def _holder(side: ConfigSide, base: Path, suffix: Path) -> Span | None:
    """The key of the innermost mapping along base + suffix that this side still has (suffix's own last key
    excluded): where a key at that path was removed from."""
    keys = side.source_map.keys
    return next((keys[p] for end in range(len(suffix) - 1, 0, -1) if (p := (*base, *suffix[:end])) in keys), None)


def owner(queue: Queue, origin: str) -> Queue | None:
    """The queue (the queue itself or an ancestor) whose config holds a setting's text."""
    return next((q for q in queue.ancestors() if q.path == origin), None)


# --- queue settings --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Value:
    text: str
    provenance: Provenance
    path: Path = ()
    """Where its text is in that side's file (() for a default)."""


def _setting_text(setting: Setting) -> str:
    value = setting.value
    if setting.key == props.SORT_PRIORITY:
        return "enabled" if value else "disabled"
    if setting.key in DURATION_KEYS and isinstance(value, int):
        return format_duration(value)
    return str(value)


def _property(side: ConfigSide, queue: Queue, key: str) -> _Value:
    setting = queue.setting(key)
    if setting.source == Source.DEFAULT:
        return _Value(_setting_text(setting), Provenance("default"))
    path = setting_config_path(queue, setting)
    provenance = Provenance(setting.source.value, setting.origin, side.line(path), setting.fallback, setting.text)
    return _Value(_setting_text(setting), provenance, path)


def _written(side: ConfigSide, queue: Queue, text: str, is_set: bool, path: Path) -> _Value:
    if not is_set:
        return _Value(text, Provenance("default"))
    return _Value(text, Provenance("set", queue.path, side.line(path), text=text), path)


def _resource_text(resource: Resource | None) -> str:
    return format_resource(resource) if resource else NONE


def _limits_text(limits: Iterable[Limit]) -> str:
    parts = []
    for limit in limits:
        who = ", ".join([*(f"user {u}" for u in limit.users), *(f"group {g}" for g in limit.groups)]) or "nobody"
        caps = []
        if limit.maxapplications:
            caps.append(f"maxapplications {limit.maxapplications}")
        if limit.maxresources:
            caps.append("maxresources {" + ", ".join(f"{k}: {v}" for k, v in sorted(limit.maxresources.items())) + "}")
        parts.append(f"{who}: {', '.join(caps) or 'no cap'}")
    return "; ".join(parts) or NONE


def queue_values(side: ConfigSide, queue: Queue) -> dict[str, _Value]:
    """Every effective setting of a configured queue, by key, with its provenance."""
    out = {key: _property(side, queue, key) for key in props.DEFINITIONS}
    config = queue.config
    out["kind"] = _Value("leaf" if queue.is_leaf else "parent", Provenance("set" if config else "default"))
    if config is None or queue.parent is None:
        return out
    res = config.resources
    out["resources.guaranteed"] = _written(
        side, queue, _resource_text(queue.guaranteed), res.guaranteed_set, (*res.path, "guaranteed")
    )
    out["resources.max"] = _written(side, queue, _resource_text(queue.max), res.max_set, (*res.path, "max"))
    out["maxapplications"] = _written(
        side,
        queue,
        str(config.maxapplications or NONE),
        bool(config.maxapplications),
        (*config.path, "maxapplications"),
    )
    for acl in ("submitacl", "adminacl"):
        text = getattr(config, acl)
        out[acl] = _written(side, queue, repr(text) if text else NONE, bool(text), (*config.path, acl))
    out["limits"] = _written(side, queue, _limits_text(config.limits), bool(config.limits), (*config.path, "limits"))
    return out


def _template_values(side: ConfigSide, queue: Queue) -> dict[str, _Value]:
    """The child template in effect on a parent, item by item (empty when none applies)."""
    template = queue.template
    if queue.is_leaf or template is None:
        return {}
    owner = next((q for q in queue.ancestors() if q.path == queue.template_origin), None)
    source = "set" if queue.template_origin == queue.path else "inherited"
    out: dict[str, _Value] = {}

    def add(key: str, text: str, path: Path) -> None:
        line = side.line(path) if owner is not None else 0
        out[f"childtemplate.{key}"] = _Value(text, Provenance(source, queue.template_origin, line, text=text), path)

    for key, text in sorted(template.properties.items()):
        if key and text:
            add(key, text, (*template.path, "properties", key))
    res = template.resources
    for key, values in (("resources.guaranteed", res.guaranteed), ("resources.max", res.max)):
        if any(k and v for k, v in values.items()):
            text = "{" + ", ".join(f"{k}: {v}" for k, v in sorted(values.items())) + "}"
            add(key, text, (*res.path, key.split(".")[1]))
    if template.maxapplications:
        add("maxapplications", str(template.maxapplications), (*template.path, "maxapplications"))
    return out


def _queue_settings(
    partition: str, old_side: ConfigSide, old: Queue, new_side: ConfigSide, new: Queue
) -> list[SettingChange]:
    before, after = queue_values(old_side, old), queue_values(new_side, new)
    if old.template_origin == old.path or new.template_origin == new.path:
        before.update(_template_values(old_side, old))
        after.update(_template_values(new_side, new))
        for key in {**before, **after}:
            if key.startswith("childtemplate."):
                before.setdefault(key, _Value(NONE, Provenance("default")))
                after.setdefault(key, _Value(NONE, Provenance("default")))
    out = []
    for key, value in after.items():
        was = before.get(key)
        if was is None or was.text == value.text:
            continue
        removed = bool(was.path) and not value.path
        if value.path:
            span = new_side.span(value.path)
        elif removed:
            origin = was.provenance.origin
            span = removal_span(
                new_side, owner(new, origin) if origin != old.path else new, owner(old, origin), was.path
            )
            span = span or _queue_span(new_side, new)
        else:
            span = _queue_span(new_side, new)
        out.append(
            SettingChange(
                partition, new.path, key, was.text, value.text, was.provenance, value.provenance, span, removed
            )
        )
    return out


# --- partition settings ----------------------------------------------------------------------------------------


def _rule_text(rule: PlacementRule) -> str:
    text = rule.name + (f" {rule.value}" if rule.value else "") + (" create" if rule.create else "")
    flt = rule.filter
    if flt.type or flt.users or flt.groups:
        who = ", ".join([*flt.users, *(f"group {g}" for g in flt.groups)])
        text += f" filter {flt.type or 'allow'} [{who}]"
    if rule.parent is not None:
        text += f" parent ({_rule_text(rule.parent)})"
    return text


def _partition_values(side: ConfigSide, p: PartitionConfig) -> dict[str, _Value]:
    def value(text: str, is_set: bool, path: Path) -> _Value:
        if not is_set:
            return _Value(text, Provenance("default"))
        return _Value(text, Provenance("set", p.display_name, side.line(path), text=text), path)

    def flag(v: bool | None, default: str) -> str:
        return default if v is None else str(v).lower()

    weights = ", ".join(f"{k}: {v:g}" for k, v in sorted(p.nodesortpolicy.resourceweights.items()))
    sort = p.nodesortpolicy
    return {
        "placementrules": value(
            "; ".join(_rule_text(r) for r in p.placementrules) or NONE,
            bool(p.placementrules),
            (*p.path, "placementrules"),
        ),
        "preemption.enabled": value(
            flag(p.preemption_enabled, "true"), p.preemption_enabled is not None, (*p.path, "preemption", "enabled")
        ),
        "preemption.quotapreemptionenabled": value(
            flag(p.quota_preemption_enabled, "false"),
            p.quota_preemption_enabled is not None,
            (*p.path, "preemption", "quotapreemptionenabled"),
        ),
        "nodesortpolicy.type": value(sort.type or "fair", bool(sort.type), (*sort.path, "type")),
        "nodesortpolicy.resourceweights": value(
            "{" + weights + "}" if weights else NONE, bool(weights), (*sort.path, "resourceweights")
        ),
        "limits": value(_limits_text(p.limits), bool(p.limits), (*p.path, "limits")),
        "usergroupresolver": value(
            p.usergroupresolver or NONE, bool(p.usergroupresolver), (*p.path, "usergroupresolver")
        ),
    }


def _partition_settings(
    name: str, old_side: ConfigSide, old: PartitionConfig, new_side: ConfigSide, new: PartitionConfig
) -> list[SettingChange]:
    before, after = _partition_values(old_side, old), _partition_values(new_side, new)
    out = []
    for key, value in after.items():
        was = before[key]
        if was.text != value.text:
            removed = bool(was.path) and not value.path
            span = new_side.span(value.path) if value.path else None
            if removed and was.path[: len(old.path)] == old.path:
                span = _holder(new_side, new.path, was.path[len(old.path) :])
            span = span or new_side.span((*new.path, "name"))
            out.append(
                SettingChange(name, "", key, was.text, value.text, was.provenance, value.provenance, span, removed)
            )
    return out
