"""File names and regions as CI systems want them: relative to the checkout, forward slashes, 1-based."""

from __future__ import annotations

import posixpath
from urllib.parse import quote

from yk_cli.core.diagnostics import Problem, Span

NO_SPAN = Span(1, 1, 1, 2)
"""Where a problem without a position is reported: the first character of the file."""


def span_of(problem: Problem) -> Span:
    """The problem's span, or the start of the file when it has none (1-based, end column exclusive)."""
    span = problem.span
    if span is None or span.line < 1 or span.column < 1:
        return NO_SPAN
    end_line, end_column = span.end_line, span.end_column
    if (end_line, end_column) <= (span.line, span.column):
        end_line, end_column = span.line, span.column + 1
    return Span(span.line, span.column, end_line, max(end_column, 1))


def is_pseudo(file: str) -> bool:
    """Whether a file name stands for something that is not a file (`<stdin>`)."""
    return file.startswith("<") and file.endswith(">")


def relative_path(file: str, base: str) -> tuple[str, bool]:
    """(the path with forward slashes, relative to base when under it, else absolute; whether it is under base)."""
    if is_pseudo(file):
        return file, False
    file, base = file.replace("\\", "/"), base.replace("\\", "/")
    drive = len(file) > 2 and file[1] == ":" and file[2] == "/"
    joined = posixpath.normpath(file if drive else posixpath.join(base, file))
    base = posixpath.normpath(base)
    if base == "/":
        return joined.lstrip("/"), True
    prefix = base + "/"
    if joined.startswith(prefix):
        return joined[len(prefix) :], True
    return joined, False


def artifact_uri(file: str, base: str) -> tuple[str, bool]:
    """(a URI reference for the file, whether it is relative to base): percent-encoded, `file://` when outside."""
    path, under = relative_path(file, base)
    if under:
        return quote(path, safe="/"), True
    if is_pseudo(file):
        return quote(path, safe=""), False
    return "file://" + quote(path if path.startswith("/") else "/" + path, safe="/:"), False
