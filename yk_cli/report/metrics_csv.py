"""`yk simulate --metrics --format csv`: one row per pod (submit, start, end, node, queue, user, preemptions, the
final pending reason, and each resource type it asks for), for notebooks and spreadsheets."""

from __future__ import annotations

import csv
from io import StringIO

from yk_cli.core.analysis.metrics import Metrics
from yk_cli.report.metrics_json import seconds

COLUMNS = (
    "application", "ask", "queue", "user", "priority", "submit", "start", "end", "wait", "node", "preemptions",
    "outcome", "pendingReason", "observedStart", "restartOf",
)
"""The fixed columns; one column per resource type follows (YuniKorn's units: vcore millicores, memory bytes)."""


def _cell(value: object) -> str:
    return "" if value is None else str(value)


def render(metrics: Metrics) -> str:
    """The CSV text (RFC 4180, \\n line ends); times in seconds from the start of the run, a wait of a pod still
    pending is its wait so far."""
    resources = sorted({k for p in metrics.pods for k in p.resources})
    out = StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow((*COLUMNS, *resources))
    for p in metrics.pods:
        until = p.start if p.start is not None else metrics.end if p.outcome == "pending" else None
        wait = seconds(until - p.submit) if until is not None else None
        writer.writerow((
            p.application, p.ask, p.queue_path, p.user, p.priority, _cell(seconds(p.submit)),
            _cell(seconds(p.start)), _cell(seconds(p.end)), _cell(wait),
            p.node, p.preemptions, p.outcome, p.code, _cell(seconds(p.observed_start)), p.restart_of,
            *(_cell(p.resources.get(k)) for k in resources),
        ))
    return out.getvalue()
