"""`yk simulate` report formats by name."""

from __future__ import annotations

from collections.abc import Iterable

from yk_cli.core.analysis.trace_view import NO_FILTER, TraceFilter
from yk_cli.core.sim.trace import Trace
from yk_cli.report.trace_common import FORMATS


def render_trace(fmt: str, trace: Trace, source: str, chosen: TraceFilter = NO_FILTER, by: str = "queue") -> str:
    """Render a trace in the named format (text, json or markdown), or the part the filter keeps; by groups the
    Markdown timeline (queue or node)."""
    if fmt == "json":
        from yk_cli.report import trace_json

        return trace_json.render(trace, source, chosen)
    if fmt == "markdown":
        from yk_cli.report import trace_markdown

        return trace_markdown.render(trace, source, chosen, by)
    if fmt == "text":
        from yk_cli.report import trace_text

        return trace_text.render(trace, source, chosen)
    raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")


def trace_chunks(
    fmt: str, trace: Trace, source: str, chosen: TraceFilter = NO_FILTER, by: str = "queue"
) -> Iterable[str]:
    """Like render_trace, in pieces: JSON and text, the formats of large runs, are printed as they are made."""
    if fmt == "json":
        from yk_cli.report import trace_json

        return trace_json.chunks(trace, source, chosen)
    if fmt == "text":
        from yk_cli.report import trace_text

        return trace_text.chunks(trace, source, chosen)
    return (render_trace(fmt, trace, source, chosen, by),)
