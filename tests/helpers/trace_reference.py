"""The JSON trace as one json.dumps of report/trace_json.py's *_dict functions: what its streamed text must equal."""

from __future__ import annotations

import json

from yk_cli.core.analysis.preemption_loops import find_loops
from yk_cli.core.analysis.trace_view import NO_FILTER, view
from yk_cli.core.sim.trace import Trace
from yk_cli.report import trace_json
from yk_cli.report.unmodelled import unmodelled_dicts


def reference_json(trace: Trace, source: str) -> str:
    """The whole unfiltered document, indented by the json module."""
    document = {
        "source": source,
        "partition": trace.partition,
        "filters": trace_json.filters_dict(NO_FILTER),
        "notes": list(trace.notes),
        "notModelled": unmodelled_dicts(trace.unmodelled),
        "events": [trace_json.event_dict(e) for e in trace.events],
        "arrivals": [trace_json.arrival_dict(a) for a in trace.arrivals],
        "pending": [trace_json.pending_dict(p) for p in trace.pending],
        "attempts": [trace_json.attempt_dict(a) for a in trace.attempts],
        "loops": [trace_json.loop_dict(loop) for loop in find_loops(trace)],
        "queueTotals": [trace_json.totals_dict(t) for t in view(trace).totals],
        "summary": trace_json.summary_dict(trace.summary),
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
