"""What `yk tree` and `yk priorities` say about a queue setting: its value in words and where it came from."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from yk_cli.core import properties as props
from yk_cli.core.config import Resources
from yk_cli.core.diagnostics import Path
from yk_cli.core.priority import MIN_PRIORITY, Cause, PriorityCache, setting_config_path
from yk_cli.core.properties import Setting, Source, format_duration
from yk_cli.core.queue_guarantee import QueueGuarantee
from yk_cli.core.queues import Queue, QueueTree
from yk_cli.core.workload import Application, QueueUsage

Locate = Callable[[Path], str]
"""A document path in the queue config -> `file:line` ('' when it is not in the file)."""

SHOWN_KEYS = (
    props.SORT_POLICY,
    props.SORT_PRIORITY,
    props.PRIORITY_POLICY,
    props.PRIORITY_OFFSET,
    props.PREEMPTION_POLICY,
    props.PREEMPTION_DELAY,
)
"""Properties every queue lists (the others only when something sets them)."""
OTHER_KEYS = (props.BACKOFF, props.BACKOFF_DELAY, props.QUOTA_PREEMPTION_DELAY)
DURATION_KEYS = {props.PREEMPTION_DELAY, props.BACKOFF_DELAY, props.QUOTA_PREEMPTION_DELAY}


def depth_first(tree: QueueTree) -> list[Queue]:
    """Every queue, parents before children, children in config order (dynamic queues under their parents)."""
    out: list[Queue] = []
    stack = [tree.root]
    while stack:
        queue = stack.pop()
        out.append(queue)
        stack.extend(reversed(queue.children))
    return out


def nowhere(path: Path) -> str:
    """A Locate that knows no file."""
    return ""


def value_text(setting: Setting) -> str:
    """A setting's value as YuniKorn's config would spell it."""
    value = setting.value
    if setting.key == props.SORT_PRIORITY:
        return "enabled" if value else "disabled"
    if setting.key in DURATION_KEYS and isinstance(value, int):
        return format_duration(value)
    return str(value)


def shown_settings(queue: Queue) -> list[Setting]:
    """The settings a queue lists: the main ones that apply to it, then any other one something sets."""
    out = []
    for key in SHOWN_KEYS:
        setting = queue.setting(key)
        leaf_only = key in (props.SORT_POLICY, props.PREEMPTION_DELAY)
        if leaf_only and not queue.is_leaf and setting.source == Source.DEFAULT:
            continue  # a parent sorts its children fair and has no delay of its own
        out.append(setting)
    for key in OTHER_KEYS:
        setting = queue.setting(key)
        if setting.source != Source.DEFAULT:
            out.append(setting)
    return out


def set_settings(queue: Queue) -> list[Setting]:
    """The known properties the file sets on this very queue (a bad value YuniKorn replaces included)."""
    return [s for s in (queue.setting(key) for key in (*SHOWN_KEYS, *OTHER_KEYS)) if s.source == Source.SET]


def queue_location(queue: Queue, locate: Locate) -> str:
    """`file:line` of a configured queue's name ('' for a dynamic queue or the root YuniKorn inserts)."""
    if queue.config is None or queue.config.inserted:
        return ""
    return locate((*queue.config.path, "name"))


@dataclass(frozen=True, slots=True)
class Written:
    """A value as the file writes it on a queue: its key, text, JSON value and `file:line`."""

    key: str
    text: str
    value: object
    where: str


def written_limits(queue: Queue, locate: Locate) -> list[Written]:
    """The limits and the child template the file sets on a queue, as written: resources.guaranteed, resources.max,
    maxapplications, then childtemplate.<property> and childtemplate.<limit>."""
    config = queue.config
    if config is None:
        return []
    template = config.childtemplate
    out = _limits(config.resources, config.maxapplications, config.path, "", locate)
    for key, text in template.properties.items():
        out.append(Written(f"childtemplate.{key}", text, text, locate((*template.path, "properties", key))))
    out.extend(_limits(template.resources, template.maxapplications, template.path, "childtemplate.", locate))
    return out


def _limits(resources: Resources, maxapplications: int, path: Path, prefix: str, locate: Locate) -> list[Written]:
    out = []
    for key, written, is_set in (
        ("guaranteed", resources.guaranteed, resources.guaranteed_set),
        ("max", resources.max, resources.max_set),
    ):
        if is_set:
            text = "{" + ", ".join(f"{name}: {text}" for name, text in sorted(written.items())) + "}"
            where = locate((*path, "resources", key))
            out.append(Written(f"{prefix}resources.{key}", text, dict(sorted(written.items())), where))
    if maxapplications:
        where = locate((*path, "maxapplications"))
        out.append(Written(f"{prefix}maxapplications", str(maxapplications), maxapplications, where))
    return out


def provenance(queue: Queue, setting: Setting, locate: Locate, row: Queue | None = None) -> str:
    """`set here (f:12)`, `inherited from root.a (f:7)`, `from root.a's child template (f:9)`, `default`, or the
    fallback YuniKorn uses after a bad value, with where the bad text is.

    With `row` (the queue a report line is about, when the setting is another queue's): `inherited from <queue>`
    when row inherits that very text, else `set on <queue>`; never `set here` for a queue that does not set it.
    """
    if setting.source == Source.DEFAULT:
        return "default"
    where = locate(setting_config_path(queue, setting))
    at = f" ({where})" if where else ""
    if row is not None and row is not queue and setting.source != Source.TEMPLATE:
        own = row.setting(setting.key)
        inherits = own.source == Source.INHERITED and own.origin == setting.origin
        origin = f"inherited from {setting.origin}" if inherits else f"set on {setting.origin}"
    elif setting.source == Source.SET:
        origin = "set here"
    elif setting.source == Source.INHERITED:
        origin = f"inherited from {setting.origin}"
    else:
        origin = f"from {setting.origin}'s child template"
    if setting.fallback:
        return f"YuniKorn's fallback after a bad value {setting.text!r}, {origin}{at}"
    return origin + at


def provenance_dict(queue: Queue, setting: Setting, locate: Locate) -> dict[str, object]:
    """The JSON form of a setting's provenance."""
    out: dict[str, object] = {"value": json_value(setting), "source": setting.source.value}
    if setting.source != Source.DEFAULT:
        out["origin"] = setting.origin
        out["text"] = setting.text
        where = locate(setting_config_path(queue, setting))
        if where:
            out["location"] = where
    if setting.fallback:
        out["fallback"] = True
    if setting.note:
        out["note"] = setting.note
    return out


def json_value(setting: Setting) -> object:
    """A setting's value for JSON: durations as Go duration text, the rest as they are."""
    if setting.key in DURATION_KEYS and isinstance(setting.value, int):
        return format_duration(setting.value)
    return setting.value


def cause_text(cause: Cause, locate: Locate, queues: Mapping[str, Queue], row: str = "") -> str:
    """`priority.offset 10 set here (f:28)` for one cause of a step; row is the queue the step is about."""
    queue = queues.get(cause.queue_path)
    setting = cause.setting
    if queue is None:  # pragma: no cover - causes always name queues of the tree
        return f"{setting.key} {value_text(setting)}"
    return f"{setting.key} {value_text(setting)}: {provenance(queue, setting, locate, queues.get(row))}"


def priority_json(priority: int) -> int | None:
    """A current priority for JSON: null for YuniKorn's MinInt32 (nothing pending)."""
    return None if priority == MIN_PRIORITY else priority


@dataclass(frozen=True, slots=True)
class TreeView:
    """Everything `yk tree` shows: the tree, where config text is, and (with a workload) usage and priorities."""

    tree: QueueTree
    partition: str
    locate: Locate = nowhere
    usage: Mapping[str, QueueUsage] | None = None
    cache: PriorityCache | None = None
    rejected: Sequence[tuple[Application, str]] = ()
    guarantees: Mapping[str, QueueGuarantee] | None = None
    set_only: bool = False
    """Show only the values the file sets on each queue, with their lines (`yk tree --set-only`)."""

    def guarantee(self, queue: Queue) -> QueueGuarantee | None:
        """The queue's allocation against its guarantee and max, or None without a workload."""
        return self.guarantees.get(queue.path) if self.guarantees is not None else None

    def priority(self, queue: Queue) -> int | None:
        """The queue's current priority (MinInt32 for n/a), or None without a workload."""
        return self.cache.queue_priority(queue.path) if self.cache is not None else None


STATE_WORDS = {"under": "under guarantee", "at": "at guarantee", "over": "over guarantee", "none": "no guarantee"}


def guarantee_words(guarantee: QueueGuarantee) -> str:
    """`over guarantee`, or with mixed types `under guarantee (memory over, vcore under)`."""
    words = STATE_WORDS[guarantee.state]
    if guarantee.mixed:
        words += " (" + ", ".join(f"{name} {state}" for name, state in guarantee.types.items()) + ")"
    return words


def unknown_properties(queue: Queue) -> list[tuple[str, str, Source, str]]:
    """Property keys YuniKorn keeps but ignores: (key, text, source, origin), sorted by key."""
    return [(key, text, source, origin) for key, (text, source, origin) in sorted(queue.properties.unknown().items())]


def unknown_location(queue: Queue, key: str, source: Source, origin: str, locate: Locate) -> str:
    """`file:line` of an unknown property's text."""
    fake = Setting(key, None, source, origin, "")
    return locate(setting_config_path(queue, fake))
