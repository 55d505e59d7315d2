"""Problem report formats by name: the whole plug-in system of `yk validate --format`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from yk_cli.core.diagnostics import Problem

FORMATS = ("text", "json", "github", "sarif")
"""Every `--format` name, the default first."""


def render_problems(
    fmt: str,
    problems: Sequence[Problem],
    texts: Mapping[str, str],
    files: int,
    *,
    color: bool = False,
    width: int = 100,
    base: str = ".",
    version: str = "0.0.0",
) -> str:
    """Render problems in the named format (color and width apply to text; base and version to github/sarif)."""
    if fmt == "text":
        if color:
            from yk_cli.report import problems_rich

            return problems_rich.render(problems, texts, files, width)
        from yk_cli.report import problems_text

        return problems_text.render(problems, texts, files)
    if fmt == "json":
        from yk_cli.report import problems_json

        return problems_json.render(problems, files)
    if fmt == "github":
        from yk_cli.report import github

        return github.render(problems, files, base)
    if fmt == "sarif":
        from yk_cli.core.rules import all_rules
        from yk_cli.report import sarif

        return sarif.render(problems, all_rules(), version, base)
    raise ValueError(f"unknown format {fmt!r}")
