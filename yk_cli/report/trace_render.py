"""`yk simulate` report formats by name."""

from __future__ import annotations

from collections.abc import Iterable

from yk_cli.core.trace import Trace
from yk_cli.report.trace_common import FORMATS


def render_trace(fmt: str, trace: Trace, source: str) -> str:
    """Render a trace in the named format (text, json or markdown)."""
    if fmt == "json":
        from yk_cli.report import trace_json

        return trace_json.render(trace, source)
    if fmt == "markdown":
        from yk_cli.report import trace_markdown

        return trace_markdown.render(trace, source)
    if fmt == "text":
        from yk_cli.report import trace_text

        return trace_text.render(trace, source)
    raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")


def trace_chunks(fmt: str, trace: Trace, source: str) -> Iterable[str]:
    """Like render_trace, in pieces: JSON, the large format, is printed as it is made."""
    if fmt == "json":
        from yk_cli.report import trace_json

        return trace_json.chunks(trace, source)
    return (render_trace(fmt, trace, source),)
