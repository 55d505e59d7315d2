"""The core's allocation log beside yk's outcome (core.analysis.scheduler_log): text, Markdown and JSON."""

from __future__ import annotations

from collections.abc import Sequence

from yk_cli.core.analysis.scheduler_log import LogComparison, log_kind
from yk_cli.core.config.properties import format_duration

TITLE = "The scheduler's own words (allocation log, from the state dump)"


def _when(last: int | None) -> str:
    if last is None:
        return ""
    seconds = round(last / 1e9)
    if seconds == 0:
        return ", last within a second of the dump"
    if seconds < 0:
        return f", last {format_duration(-seconds * 1_000_000_000)} before the dump"
    return f", last {format_duration(seconds * 1_000_000_000)} after it"


def _line(count: int, message: str, last: int | None) -> str:
    return f"{message} ({count}x{_when(last)})"


def text_section(comparisons: Sequence[LogComparison]) -> str:
    """A text section (empty without any log): per request, each log line, yk's outcome, any disagreement."""
    if not comparisons:
        return ""
    out = ["", f"{TITLE}:"]
    for item in comparisons:
        out.append(f"  {item.ask}:")
        out += [f"    core: {_line(line.count, line.message, line.last)}" for line in item.lines]
        out.append(f"    yk:   {item.outcome}")
        if item.disagreement:
            out.append(f"    differs: {item.disagreement}")
    return "\n".join(out) + "\n"


def markdown_section(comparisons: Sequence[LogComparison]) -> str:
    """The same as a Markdown section with one table per request."""
    if not comparisons:
        return ""
    out = ["", f"## {TITLE}", ""]
    for item in comparisons:
        out += [f"**{item.ask}**", "", "| core's log | count | last |", "| --- | --- | --- |"]
        for line in item.lines:
            last = format_duration(line.last) if line.last is not None else ""
            message = line.message.replace("|", "\\|")
            out.append(f"| {message} | {line.count} | {last} |")
        out += ["", f"yk: {item.outcome}", ""]
        if item.disagreement:
            out += [f"> **Differs:** {item.disagreement}", ""]
    return "\n".join(out)


def json_entries(comparisons: Sequence[LogComparison]) -> list[dict[str, object]]:
    """The JSON form: per request its log lines (message, kind, count, lastOccurrence in seconds from the dump),
    yk's outcome and the disagreement ('' when none)."""
    return [
        {
            "ask": item.ask,
            "log": [
                {
                    "message": line.message,
                    "kind": log_kind(line.message),
                    "count": line.count,
                    "lastOccurrence": line.last / 1e9 if line.last is not None else None,
                }
                for line in item.lines
            ],
            "yk": item.outcome,
            "disagreement": item.disagreement,
        }
        for item in comparisons
    ]
