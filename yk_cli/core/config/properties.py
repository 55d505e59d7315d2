"""Queue properties: one parser per property (YuniKorn's fallbacks included), inheritance and provenance."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

SORT_POLICY = "application.sort.policy"
SORT_PRIORITY = "application.sort.priority"
PRIORITY_POLICY = "priority.policy"
PRIORITY_OFFSET = "priority.offset"
PREEMPTION_POLICY = "preemption.policy"
PREEMPTION_DELAY = "preemption.delay"
BACKOFF = "application.unschedasks.backoff"
BACKOFF_DELAY = "application.unschedasks.backoff.delay"
QUOTA_PREEMPTION_DELAY = "quota.preemption.delay"

INT32_MIN = -(2**31)
INT32_MAX = 2**31 - 1
NANOS_PER_SECOND = 1_000_000_000


@dataclass(frozen=True, slots=True)
class Parsed:
    """The value YuniKorn uses for a property text, and why it differs from what was written (if it does)."""

    value: object
    ok: bool = True
    note: str = ""
    """For a rejected value: YuniKorn's reason. For an accepted one: a remark such as a deprecation."""


@dataclass(frozen=True, slots=True)
class PropertyDef:
    """A property YuniKorn knows: its parser, default and where it takes effect."""

    key: str
    parse: Callable[[str], Parsed]
    default: object
    default_text: str
    leaf_only: bool = False
    summary: str = ""
    values: tuple[str, ...] = ()


def _choice(key: str, choices: Mapping[str, object], default: object, case_sensitive: bool) -> Callable[[str], Parsed]:
    def parse(text: str) -> Parsed:
        probe = text if case_sensitive else text.lower()
        if probe in choices:
            return Parsed(choices[probe])
        return Parsed(default, ok=False, note=f"undefined {key} value {text!r}")

    return parse


def parse_sort_policy(text: str) -> Parsed:
    """application.sort.policy: case-sensitive fifo/fair; stateaware is a deprecated alias of fifo (v1.6+)."""
    if text in ("", "fifo"):
        return Parsed("fifo")
    if text == "fair":
        return Parsed("fair")
    if text == "stateaware":
        return Parsed("fifo", note="stateaware is deprecated since YuniKorn 1.6 and behaves exactly like fifo")
    hint = ""
    if text.lower() in ("fifo", "fair", "stateaware"):
        hint = f" (the policy name is case-sensitive: write {text.lower()!r})"
    return Parsed("fifo", ok=False, note=f"undefined application sort policy {text!r}{hint}")


def parse_sort_priority(text: str) -> Parsed:
    """application.sort.priority: enabled/disabled in any case; anything else means enabled."""
    lowered = text.lower()
    if lowered == "enabled":
        return Parsed(True)
    if lowered == "disabled":
        return Parsed(False)
    return Parsed(True, ok=False, note=f"unknown {SORT_PRIORITY} value: {text}")


_GO_INT = re.compile(r"[+-]?[0-9]+")


def parse_priority_offset(text: str) -> Parsed:
    """priority.offset: Go strconv.ParseInt(v, 10, 32); anything else gives 0."""
    if not _GO_INT.fullmatch(text):
        return Parsed(0, ok=False, note=f'strconv.ParseInt: parsing "{text}": invalid syntax')
    value = int(text)
    if not INT32_MIN <= value <= INT32_MAX:
        return Parsed(0, ok=False, note=f'strconv.ParseInt: parsing "{text}": value out of range')
    return Parsed(value)


_DURATION_UNITS = {
    "ns": 1,
    "us": 1_000,
    "µs": 1_000,
    "μs": 1_000,
    "ms": 1_000_000,
    "s": NANOS_PER_SECOND,
    "m": 60 * NANOS_PER_SECOND,
    "h": 3600 * NANOS_PER_SECOND,
}
_DURATION_PART = re.compile(r"([0-9]*)(?:\.([0-9]*))?([a-zµμ]+)")


def parse_go_duration(text: str) -> int | None:
    """Go's time.ParseDuration in nanoseconds, or None when Go would refuse the text."""
    if text in ("0", "+0", "-0"):
        return 0
    rest = text
    sign = 1
    if rest[:1] in "+-" and rest:
        sign = -1 if rest[0] == "-" else 1
        rest = rest[1:]
    if not rest:
        return None
    total = 0
    pos = 0
    while pos < len(rest):
        match = _DURATION_PART.match(rest, pos)
        if not match or match.end() == pos:
            return None
        whole, frac, unit = match.group(1), match.group(2), match.group(3)
        if not whole and not frac:
            return None
        if unit not in _DURATION_UNITS:
            return None
        scale = _DURATION_UNITS[unit]
        value = int(whole or "0") * scale
        if frac:
            value += int(frac) * scale // 10 ** len(frac)
        total += value
        pos = match.end()
    if total > 2**63 - 1:
        return None
    return sign * total


def format_duration(nanos: int) -> str:
    """Go's Duration.String(): 30s, 1m30s, 1h30m0s, 1.5s, 500ms."""
    if nanos == 0:
        return "0s"
    sign = "-" if nanos < 0 else ""
    n = abs(nanos)
    if n < NANOS_PER_SECOND:
        for unit, scale in (("ms", 1_000_000), ("µs", 1_000), ("ns", 1)):
            if n >= scale:
                return sign + _trim(n, scale) + unit
    hours, n = divmod(n, 3600 * NANOS_PER_SECOND)
    minutes, n = divmod(n, 60 * NANOS_PER_SECOND)
    seconds = _trim(n, NANOS_PER_SECOND) + "s"
    if hours:
        return f"{sign}{hours}h{minutes}m{seconds}"
    if minutes:
        return f"{sign}{minutes}m{seconds}"
    return sign + seconds


def _trim(value: int, scale: int) -> str:
    whole, frac = divmod(value, scale)
    if not frac:
        return str(whole)
    digits = str(frac).rjust(len(str(scale)) - 1, "0").rstrip("0")
    return f"{whole}.{digits}"


def _positive_duration(key: str, default: int) -> Callable[[str], Parsed]:
    def parse(text: str) -> Parsed:
        nanos = parse_go_duration(text)
        if nanos is None:
            return Parsed(default, ok=False, note=f'time: invalid duration "{text}"')
        if nanos <= 0:
            return Parsed(default, ok=False, note=f"{key} must be positive: {text}")
        return Parsed(nanos)

    return parse


def parse_backoff(text: str) -> Parsed:
    """application.unschedasks.backoff: strconv.ParseUint(v, 10, 64)."""
    if not text.isdigit() or not text.isascii() or int(text) > 2**64 - 1:
        return Parsed(0, ok=False, note=f'strconv.ParseUint: parsing "{text}": invalid syntax')
    return Parsed(int(text))


DEFINITIONS: dict[str, PropertyDef] = {
    d.key: d
    for d in (
        PropertyDef(
            SORT_POLICY,
            parse_sort_policy,
            "fifo",
            "fifo",
            leaf_only=True,
            summary="how a leaf queue orders its applications",
            values=("fifo", "fair", "stateaware"),
        ),
        PropertyDef(
            SORT_PRIORITY,
            parse_sort_priority,
            True,
            "enabled",
            summary="whether priority sorts children (on a parent) or applications (on a leaf) first",
            values=("enabled", "disabled"),
        ),
        PropertyDef(
            PRIORITY_POLICY,
            _choice(
                PRIORITY_POLICY,
                {"": "default", "default": "default", "fence": "fence"},
                "default",
                case_sensitive=False,
            ),
            "default",
            "default",
            summary="fence: the queue's priority is only its offset",
            values=("default", "fence"),
        ),
        PropertyDef(PRIORITY_OFFSET, parse_priority_offset, 0, "0", summary="added to the queue's priority (int32)"),
        PropertyDef(
            PREEMPTION_POLICY,
            _choice(
                PREEMPTION_POLICY,
                {"": "default", "default": "default", "fence": "fence", "disabled": "disabled"},
                "default",
                case_sensitive=False,
            ),
            "default",
            "default",
            summary="fence: preemption stays inside; disabled: pods are not preempted",
            values=("default", "fence", "disabled"),
        ),
        PropertyDef(
            PREEMPTION_DELAY,
            _positive_duration(PREEMPTION_DELAY, 30 * NANOS_PER_SECOND),
            30 * NANOS_PER_SECOND,
            "30s",
            leaf_only=True,
            summary="how long an ask waits before it may trigger preemption",
        ),
        PropertyDef(
            BACKOFF,
            parse_backoff,
            0,
            "0",
            summary="skip an application after this many unschedulable asks in one pass (0: off)",
        ),
        PropertyDef(
            BACKOFF_DELAY,
            _positive_duration(BACKOFF_DELAY, 30 * NANOS_PER_SECOND),
            30 * NANOS_PER_SECOND,
            "30s",
            summary="how long a backed-off application is skipped",
        ),
        PropertyDef(
            QUOTA_PREEMPTION_DELAY,
            _positive_duration("delay", 0),
            0,
            "0s",
            summary="quota preemption delay (YuniKorn 1.8+); 0 disables quota preemption",
        ),
    )
}


def parse_property(key: str, text: str) -> Parsed:
    """The value YuniKorn uses for one property text (unknown keys are kept as text)."""
    definition = DEFINITIONS.get(key)
    if definition is None:
        return Parsed(text)
    return definition.parse(text)


class Source(StrEnum):
    """Where a queue's effective property value came from."""

    SET = "set"
    INHERITED = "inherited"
    TEMPLATE = "template"
    DEFAULT = "default"


@dataclass(frozen=True, slots=True)
class Setting:
    """One effective property of a queue, with its provenance."""

    key: str
    value: object
    """The value YuniKorn uses (the default when the written text was rejected)."""
    source: Source
    origin: str = ""
    """The queue path the text was written on (set/inherited) or whose child template supplied it."""
    text: str | None = None
    """The text in effect before parsing; None when no text applies (the default)."""
    fallback: bool = False
    """True when YuniKorn rejected the text and uses the default instead."""
    note: str = ""


@dataclass(frozen=True, slots=True)
class QueueProperties:
    """The effective property map of one queue: text in effect and where each entry came from."""

    entries: dict[str, tuple[str, Source, str]] = field(default_factory=dict)
    """key -> (text, source, origin queue path)."""

    def setting(self, key: str) -> Setting:
        """The effective setting of a known property, the default when absent or rejected."""
        definition = DEFINITIONS[key]
        entry = self.entries.get(key)
        if entry is None:
            return Setting(key, definition.default, Source.DEFAULT)
        text, source, origin = entry
        parsed = definition.parse(text)
        if not parsed.ok:
            return Setting(key, definition.default, source, origin, text, fallback=True, note=parsed.note)
        return Setting(key, parsed.value, source, origin, text, note=parsed.note)

    def unknown(self) -> dict[str, tuple[str, Source, str]]:
        """Entries YuniKorn keeps but ignores (unknown keys)."""
        return {k: v for k, v in self.entries.items() if k not in DEFINITIONS}


def inherit(parent: QueueProperties | None, own: Mapping[str, str], own_path: str) -> QueueProperties:
    """A static queue's effective map: the parent's entries filtered as YuniKorn does, overwritten by its own."""
    entries: dict[str, tuple[str, Source, str]] = {}
    if parent is not None:
        for key, (text, _source, origin) in parent.entries.items():
            filtered = _filter_parent_property(key, text)
            if filtered is None:
                continue
            entries[key] = (text, Source.INHERITED, origin)
    for key, text in own.items():
        entries[key] = (text, Source.SET, own_path)
    return QueueProperties(entries)


def from_template(template: Mapping[str, str], parent_path: str) -> QueueProperties:
    """A dynamic leaf's map: only the parent's child-template properties (empty keys or values dropped)."""
    return QueueProperties({k: (v, Source.TEMPLATE, parent_path) for k, v in template.items() if k and v})


def _filter_parent_property(key: str, text: str) -> str | None:
    """YuniKorn's filterParentProperty; None where the filtered value is just the default (not shown as inherited)."""
    if key in (PRIORITY_POLICY, PRIORITY_OFFSET):
        return None
    if key == PREEMPTION_POLICY:
        return text if text.lower() == "disabled" else None
    return text
