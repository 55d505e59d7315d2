"""What `yk tree` and `yk priorities` say about a queue setting: its value in words and where it came from."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from yk_cli.core.analysis.snapshot import Absent
from yk_cli.core.config import properties as props
from yk_cli.core.config.guarantees import QueueGuarantee
from yk_cli.core.config.model import Resources
from yk_cli.core.config.properties import Setting, Source, format_duration
from yk_cli.core.config.queues import Queue, QueueTree
from yk_cli.core.diagnostics import Path
from yk_cli.core.ordering.priority import MIN_PRIORITY, Cause, PriorityCache, setting_config_path
from yk_cli.core.workload.model import Application, QueueUsage

NANOS = 1_000_000_000

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
    at: int = 0
    """With a workload: the virtual time usage and priorities are those of (nanoseconds from the start)."""
    steps: int = 0
    """Steps of the dry run before that time."""
    absent: Sequence[Absent] = ()
    """Asks of placed applications not pending then (arriving later, requesting nothing, held by the shim)."""

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


def moment_words(at: int, steps: int) -> str:
    """`at 0s, the start of the run, before any scheduling`, `at 2m0s of the dry run, before its first step` or `at
    5m0s of the dry run, after step 3, before it schedules at 5m0s`: the time a snapshot (yk priorities, yk tree -w)
    describes."""
    when = format_duration(at)
    if at == 0 and steps == 0:
        return "at 0s, the start of the run, before any scheduling"
    if steps == 0:
        return f"at {when} of the dry run, before its first step"
    return f"at {when} of the dry run, after step {steps}, before it schedules at {when}"


ABSENT_WORDS = {
    "later": "not yet arrived",
    "never": "never pending: requests no resources (YuniKorn refuses such an ask)",
    "held": "held by the shim (a gang's pod waiting for its placeholders, or of a failed gang)",
}
ABSENT_CODES = {"later": "not-arrived", "never": "requests-nothing", "held": "held-by-shim"}
"""The JSON `why` of an ask not pending at the stated time."""


def absent_groups(absent: Sequence[Absent]) -> list[tuple[str, list[Absent]]]:
    """The asks not pending at the stated time by why: those arriving later (in arrival order), then the others."""
    groups: dict[str, list[Absent]] = {}
    for item in absent:
        groups.setdefault(item.why, []).append(item)
    return [(why, groups[why]) for why in ABSENT_WORDS if why in groups]


def absent_title(why: str, items: Sequence[Absent], at: int) -> str:
    """`Not yet arrived at 0s: 3 asks (first at 1m30s)`, and the like for the other groups."""
    count = f"{len(items)} ask{'' if len(items) == 1 else 's'}"
    when = format_duration(at)
    if why == "later":
        return f"Not yet arrived at {when}: {count} (first at {format_duration(items[0].arrival)})"
    if why == "held":
        return f"Held by the shim at {when}: {count} (a gang's pods wait for their placeholders, or the gang failed)"
    return f"Never pending: {count} request no resources (YuniKorn refuses such an ask)"


def absent_applications(items: Sequence[Absent]) -> str:
    """`web (1 ask), reports (2 asks)`: the applications of a group, in order."""
    counts: dict[str, int] = {}
    for item in items:
        counts[item.application] = counts.get(item.application, 0) + 1
    return ", ".join(f"{app} ({n} ask{'' if n == 1 else 's'})" for app, n in counts.items())


def absent_lines(absent: Sequence[Absent], at: int) -> list[str]:
    """The asks not pending at the stated time as text, by why: a title and a table per group, a blank line after
    each (nothing when every ask is pending)."""
    out: list[str] = []
    for why, items in absent_groups(absent):
        rows = [("APPLICATION/ASK", "QUEUE", "PRIORITY", "ARRIVES" if why == "later" else "ARRIVED")]
        for item in items:
            arrival = format_duration(item.arrival) if why != "never" else "never"
            rows.append((f"{item.application}/{item.ask.name}", item.queue_path, f"P{item.ask.priority}", arrival))
        w = [max(len(r[i]) for r in rows) for i in range(3)]
        out.append(absent_title(why, items, at))
        out.extend(f"  {r[0]:<{w[0]}}  {r[1]:<{w[1]}}  {r[2]:<{w[2]}}  {r[3]}".rstrip() for r in rows)
        out.append("")
    return out


def at_dict(at: int, steps: int) -> dict[str, object]:
    """The virtual time a report describes: seconds from the start, as a duration, the steps before it, in words."""
    return {
        "time": _seconds(at),
        "duration": format_duration(at),
        "afterStep": steps,
        "description": moment_words(at, steps),
    }


def absent_dict(item: Absent) -> dict[str, object]:
    """An ask not pending at the stated time: why (not-arrived, requests-nothing, held-by-shim) and when it arrives
    (seconds from the start; null for one that never does)."""
    return {
        "application": item.application,
        "ask": item.ask.name,
        "queuePath": item.queue_path,
        "priority": item.ask.priority,
        "why": ABSENT_CODES[item.why],
        "arrival": None if item.why == "never" else _seconds(item.arrival),
    }


def _seconds(nanos: int) -> int | float:
    return nanos // NANOS if nanos % NANOS == 0 else nanos / NANOS
