"""Problem report formats by name: the whole plug-in system of `yk validate --format`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from yk_cli.core.diagnostics import Problem

FORMATS = ("text", "json", "github", "sarif")


def render_problems(
    fmt: str, problems: Sequence[Problem], texts: Mapping[str, str], files: int, color: bool = False
) -> str:
    """Render problems in the named format."""
    if fmt == "json":
        from yk_cli.report import problems_json

        return problems_json.render(problems, files)
    if fmt == "text":
        from yk_cli.report import problems_text

        return problems_text.render(problems, texts, files)
    raise ValueError(f"unknown format {fmt!r}")
