"""Property values YuniKorn silently replaces, deprecated values and unknown property keys."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator

from yk_cli.core.config import properties as props
from yk_cli.core.config.model import SchedulerConfig
from yk_cli.core.config.queues import QueueTree
from yk_cli.core.diagnostics import Problem, warning
from yk_cli.core.lint.checks.walk import PropertyEntry, partition_trees, property_entries, subtree

INVALID_VALUE = warning(
    "invalid-property-value",
    "A queue property value YuniKorn cannot parse: it silently uses the default instead.",
    "YuniKorn's validator never looks at property values. When a queue is built, each known property is "
    "parsed; a value that does not parse is logged at debug level only and the default is used, so the "
    "config loads and the queue quietly behaves differently from what is written. The parsers are strict: "
    "`priority.offset` is Go's strconv.ParseInt(v, 10, 32) (no spaces, no decimals, no hex, int32 range; "
    "`+7` is fine) and falls back to 0; `preemption.delay` and `application.unschedasks.backoff.delay` are "
    "Go durations that must be positive and carry a unit (`45` or `0s` fall back to 30s); "
    "`quota.preemption.delay` must be a positive duration (else 0: quota preemption stays off; the core "
    "logs `quota preemption delay configuration error`); `application.unschedasks.backoff` is an unsigned "
    "integer (else 0: off). `application.sort.policy` is case-sensitive: only `fifo`, `fair` (and the "
    "deprecated `stateaware`) are known, anything else, `Fair` included, means fifo. "
    "`application.sort.priority` accepts enabled/disabled in any case, anything else means enabled. "
    "`priority.policy` (default, fence) and `preemption.policy` (default, fence, disabled) ignore case, "
    "anything else means default. The seed design documents describe the same fallbacks but not the "
    "case-sensitivity of `application.sort.policy`. Values in a childtemplate are checked too: the dynamic "
    "queues created from it get the same fallback. Fix: write a value from the lists above.",
)
DEPRECATED_SORT_POLICY = warning(
    "deprecated-sort-policy",
    "application.sort.policy stateaware: removed in YuniKorn 1.6, it now means fifo.",
    "Up to YuniKorn 1.5 the `stateaware` policy let only one application at a time be in its starting "
    "phase (all running applications plus at most one `Starting`, or else the oldest `Accepted` one), then "
    "sorted them fifo. YuniKorn 1.6 removed it (YUNIKORN-2483): the value is still accepted, logs a "
    "deprecation warning, and behaves exactly like `fifo`, with no start-up throttling. The seed sorting "
    "document still describes the old behaviour. Fix: write `fifo` (or `fair`); to limit how many "
    "applications run at once use `maxapplications`.",
)
UNKNOWN_PROPERTY = warning(
    "unknown-property",
    "A queue property key YuniKorn does not know: it is kept but ignored.",
    "Queue properties are a free-form map, so a misspelt or invented key is not an error: YuniKorn keeps "
    "it in the queue's property map, passes it down to the static child queues like any other property, "
    "and ignores it on every queue, logging `queue property skipped key=<key> value=<value>` once per "
    "queue that carries it. Keys are case-sensitive. The known keys are application.sort.policy, "
    "application.sort.priority, priority.policy, priority.offset, preemption.policy, preemption.delay, "
    "application.unschedasks.backoff, application.unschedasks.backoff.delay and (YuniKorn 1.8+) "
    "quota.preemption.delay. Fix: correct the key (yk suggests the closest known one) or remove it.",
)

EMPTY_VALUE = warning(
    "empty-property-value",
    "A queue property with an empty, blank or null value: YuniKorn uses the default.",
    "An empty value is almost always a hole left by templating (`priority.offset: {{ .Values.offset }}`) or an "
    "unfinished edit. A YAML null (`~`, or nothing after the colon) is the same as `''` to YuniKorn: properties "
    "are a map of strings. What YuniKorn then does depends on the parser: `priority.offset`, "
    "`application.sort.priority`, `preemption.delay`, `application.unschedasks.backoff`, "
    "`application.unschedasks.backoff.delay` and `quota.preemption.delay` log a parse error "
    '(`strconv.ParseInt: parsing "": invalid syntax`, `time: invalid duration ""`, ...) and use their '
    "default; `application.sort.policy`, `priority.policy` and `preemption.policy` read `''` as their default "
    "without a log line. A value of spaces only is rejected by every parser. An empty value on a queue still "
    "overrides what the queue would inherit: `application.sort.policy: ''` under a `fair` parent means fifo. "
    "In a childtemplate, empty values are dropped, so dynamic queues use the default. yk names the value used "
    "instead. Fix: write the value you mean, or remove the key to use the default (or inherit).",
)

RULES = (INVALID_VALUE, DEPRECATED_SORT_POLICY, UNKNOWN_PROPERTY, EMPTY_VALUE)
_EMPTY_MEANS_DEFAULT = (props.SORT_POLICY, props.PRIORITY_POLICY, props.PREEMPTION_POLICY)

_NUMBER = re.compile(r"[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)")
_CHOICES = {
    props.SORT_PRIORITY: "enabled or disabled",
    props.PRIORITY_POLICY: "default or fence",
    props.PREEMPTION_POLICY: "default, fence or disabled",
}


def check_property_values(config: SchedulerConfig) -> Iterator[Problem]:
    """Rejected values, the deprecated sort policy and unknown keys, on queues and in child templates."""
    trees = {id(partition): tree for partition, tree in partition_trees(config)}
    for entry in property_entries(config):
        if entry.key not in props.DEFINITIONS:
            yield _unknown(entry, _carriers(trees.get(id(entry.partition)), entry))
            continue
        if entry.key == props.SORT_POLICY and entry.text == "stateaware":
            yield DEPRECATED_SORT_POLICY.problem(
                'application.sort.policy "stateaware" is deprecated since YuniKorn 1.6: YuniKorn uses fifo '
                "(no more one-application-at-a-time start-up)",
                entry.path,
                hint='write "fifo" (or "fair"); use maxapplications to limit running applications',
            )
            continue
        if entry.text.strip() == "":
            message, hint = empty_value(entry)
            yield EMPTY_VALUE.problem(message, entry.path, hint=hint)
            continue
        parsed = props.parse_property(entry.key, entry.text)
        if not parsed.ok:
            message, hint = rejection(entry.key, entry.text)
            yield INVALID_VALUE.problem(message, entry.path, hint=hint)


def empty_value(entry: PropertyEntry) -> tuple[str, str]:
    """The message and hint for an empty, blank or null property value: what YuniKorn does and uses instead."""
    key, text = entry.key, entry.text
    definition = props.DEFINITIONS[key]
    used = definition.default_text
    if key == props.QUOTA_PREEMPTION_DELAY:
        used = "0s, so quota preemption stays off for this queue"
    hint = "write the value you mean, or remove the key to use the default"
    if text == "":
        quoted = f'{key} "" (empty or null)'
        if entry.template:
            dropped = "YuniKorn drops empty template values, dynamic queues use"
            return f"{quoted} in the childtemplate: {dropped} {used}", hint
        if key in _EMPTY_MEANS_DEFAULT:
            return f"{quoted}: YuniKorn uses {used} (an empty value means the default, without a log line)", hint
    else:
        quoted = f'{key} "{text}" (blank)'
    where = " in the childtemplate" if entry.template else ""
    note = props.parse_property(key, text).note
    return f"{quoted}{where}: YuniKorn logs a parse error ({note}) and uses {used}", hint


def rejection(key: str, text: str) -> tuple[str, str]:
    """The message and hint for a value YuniKorn rejects: what it uses instead and how to write it."""
    definition = props.DEFINITIONS[key]
    quoted = f'{key} "{text}"'
    used = f"YuniKorn uses {definition.default_text}"
    stripped = text.strip()
    if key == props.SORT_POLICY:
        lowered = text.lower()
        if lowered in ("fifo", "fair"):
            return (
                f'{quoted} is undefined: {used} (policy names are case-sensitive; write "{lowered}")',
                f'write "{lowered}"',
            )
        if lowered == "stateaware":
            return f"{quoted} is undefined: {used} (stateaware is deprecated anyway)", 'write "fifo" or "fair"'
        return f"{quoted} is undefined: {used} (known policies: fifo, fair)", 'write "fifo" or "fair"'
    if key in _CHOICES:
        extra = " (remove the spaces)" if stripped != text and props.parse_property(key, stripped).ok else ""
        return f"{quoted} is undefined: {used}{extra}", f"write {_CHOICES[key]}"
    if key == props.PRIORITY_OFFSET:
        if stripped != text and props.parse_priority_offset(stripped).ok:
            return f"{quoted} is not an int32 (spaces are not allowed): {used}", f'write "{stripped}"'
        if props.parse_priority_offset(text).note.endswith("value out of range"):
            return (
                f"{quoted} is outside the int32 range (-2147483648..2147483647): {used}",
                "use an offset within the int32 range (well below 1000000000 keeps user priorities apart)",
            )
        return f"{quoted} is not an int32: {used}", "write a whole number such as 100 or -50"
    if key in (props.PREEMPTION_DELAY, props.BACKOFF_DELAY, props.QUOTA_PREEMPTION_DELAY):
        return _duration_rejection(key, text, quoted, used)
    return f"{quoted} is not an unsigned integer: {used} (off)", "write a whole number such as 3 (0 means off)"


def _duration_rejection(key: str, text: str, quoted: str, used: str) -> tuple[str, str]:
    """Message and hint for a duration property value YuniKorn rejects."""
    nanos = props.parse_go_duration(text)
    stripped = text.strip()
    if key == props.QUOTA_PREEMPTION_DELAY:
        used = "YuniKorn uses 0s, so quota preemption stays off for this queue"
    if nanos is not None:
        return f"{quoted} must be positive: {used}", 'write a positive duration such as "30s" or "5m"'
    if _NUMBER.fullmatch(stripped):
        return (
            f"{quoted} is not a duration (a unit is required): {used}",
            f'write "{stripped}s" for seconds (units: ns, us, ms, s, m, h)',
        )
    if stripped != text and props.parse_go_duration(stripped) is not None:
        return f"{quoted} is not a duration (spaces are not allowed): {used}", f'write "{stripped}"'
    return f"{quoted} is not a duration: {used}", 'write a Go duration such as "30s", "2m" or "1h30m"'


def _carriers(tree: QueueTree | None, entry: PropertyEntry) -> int:
    """How many configured queues end up with this property: its own queue and those inheriting it from there."""
    queue = tree.get(entry.queue) if tree is not None and not entry.template else None
    if queue is None or queue.config is None or queue.config.path != entry.config.path:
        return 1
    return sum(1 for q in subtree(queue) if q.properties.entries.get(entry.key, ("", None, ""))[2] == queue.path)


def _unknown(entry: PropertyEntry, carriers: int) -> Problem:
    """An unknown-property problem with a did-you-mean suggestion."""
    suggestion = suggest_key(entry.key)
    where = " in the childtemplate" if entry.template else ""
    log = f"logs `queue property skipped key={entry.key} value={entry.text}`"
    if carriers > 1:
        log += f" for each of the {carriers} queues that carry it (static children inherit it)"
    if suggestion:
        return UNKNOWN_PROPERTY.problem(
            f'unknown property "{entry.key}"{where}: YuniKorn {log} and ignores it (did you mean "{suggestion}"?)',
            entry.path,
            hint=f'rename the key to "{suggestion}"',
            anchor="key",
        )
    return UNKNOWN_PROPERTY.problem(
        f'unknown property "{entry.key}"{where}: YuniKorn {log} and ignores it',
        entry.path,
        hint="remove it, or use a known key: " + ", ".join(props.DEFINITIONS),
        anchor="key",
    )


def suggest_key(key: str) -> str:
    """The known property key closest to a misspelt one, or ''."""
    normalised = key.lower().replace("_", ".").replace("-", ".").replace(" ", "")
    if normalised in props.DEFINITIONS:
        return normalised
    matches = difflib.get_close_matches(normalised, list(props.DEFINITIONS), n=1, cutoff=0.75)
    return matches[0] if matches else ""


CHECKS = (check_property_values,)
