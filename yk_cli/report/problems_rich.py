"""`yk validate` on a terminal: the plain text report, coloured with rich (same lines, same order)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from io import StringIO

from yk_cli.core.diagnostics import Level, Problem
from yk_cli.report.problems_text import excerpt_parts, summary_line

LEVEL_STYLES = {Level.ERROR: "bold red", Level.WARNING: "bold yellow"}
"""Style of the `[level]` tag, the caret line and the highlighted range."""
LOCATION_STYLE = "bold"
RULE_STYLE = "dim"
GUTTER_STYLE = "blue"
HINT_STYLE = "italic cyan"


def render(problems: Sequence[Problem], texts: Mapping[str, str], files: int, width: int = 100) -> str:
    """Every problem with its coloured excerpt and hint, then the summary line, as ANSI-styled text."""
    from rich.console import Console
    from rich.text import Text

    console = Console(
        file=StringIO(),
        force_terminal=True,
        color_system="standard",
        width=width,
        highlight=False,
        emoji=False,
        markup=False,
        soft_wrap=True,
        legacy_windows=False,
    )
    split = {name: text.splitlines() for name, text in texts.items()}
    for p in problems:
        style = LEVEL_STYLES.get(p.level, "bold")
        span = p.span
        where = f"{p.file}:{span.line}:{span.column}" if span else f"{p.file}:1:1"
        head = Text()
        head.append(where, LOCATION_STYLE)
        head.append(": ")
        head.append(f"[{p.level.value}]", style)
        head.append(f" {p.message} ")
        head.append(f"({p.rule})", RULE_STYLE)
        console.print(head)
        parts = excerpt_parts(p, split.get(p.file, []))
        if parts is not None:
            line, source, start, length = parts
            gutter = f"{line:>5} | "
            code = Text()
            code.append(gutter, GUTTER_STYLE)
            code.append(source[:start])
            code.append(source[start : start + length], f"{style} underline")
            code.append(source[start + length :])
            console.print(code)
            caret = Text()
            caret.append(" " * (len(gutter) - 2) + "| ", GUTTER_STYLE)
            caret.append(" " * start)
            caret.append("^" * length, style)
            console.print(caret)
        if p.hint:
            console.print(Text(f"      hint: {p.hint}", HINT_STYLE))
    levels = {p.level for p in problems}
    summary_style = "bold red" if Level.ERROR in levels else "bold yellow" if levels else "bold green"
    console.print(Text(summary_line(problems, files), summary_style))
    output = console.file.getvalue()  # type: ignore[attr-defined]
    return str(output)
