"""`yk validate --format text`: yamllint-style lines with a source excerpt and a hint under each problem."""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set

from yk_cli.core.diagnostics import Level, Problem
from yk_cli.report.problems_json import summary


def headline(p: Problem) -> str:
    """`file:line:col: [level] message (rule)`: the parsable first line of a problem."""
    span = p.span
    if span is None and "#/" in p.file:  # a JSON pointer into a state dump: no line to give
        return f"{p.file}: [{p.level.value}] {p.message} ({p.rule})"
    where = f"{p.file}:{span.line}:{span.column}" if span else f"{p.file}:1:1"
    return f"{where}: [{p.level.value}] {p.message} ({p.rule})"


EXCERPT_MAX = 200
"""Most characters of a source line shown under a problem (a minified one-line file is cut around the range)."""
EXCERPT_BEFORE = 40
"""Characters kept before the offending range when a line is cut."""
ELLIPSIS = "…"


def excerpt_parts(p: Problem, lines: Sequence[str]) -> tuple[int, str, int, int] | None:
    """(line number, source line, 0-based start column, width) of the offending range, or None when not in the file.
    A line longer than EXCERPT_MAX is cut to EXCERPT_MAX characters around the range, marked with `…`."""
    span = p.span
    if span is None or not 0 < span.line <= len(lines):
        return None
    source = lines[span.line - 1].rstrip("\n").expandtabs(1)
    start = max(span.column - 1, 0)
    end = span.end_column - 1 if span.end_line == span.line else len(source)
    width = max(1, min(end, len(source)) - start) if start < len(source) else 1
    if len(source) <= EXCERPT_MAX:
        return span.line, source, start, width
    width = min(width, EXCERPT_MAX - EXCERPT_BEFORE)
    left = max(0, min(start - EXCERPT_BEFORE, len(source) - EXCERPT_MAX))
    right = left + EXCERPT_MAX
    prefix = ELLIPSIS if left > 0 else ""
    suffix = ELLIPSIS if right < len(source) else ""
    return span.line, prefix + source[left:right] + suffix, start - left + len(prefix), width


def excerpt(p: Problem, lines: Sequence[str]) -> list[str]:
    """The offending source line with a caret underline, or nothing when the position is not in the file."""
    parts = excerpt_parts(p, lines)
    if parts is None:
        return []
    line, source, start, width = parts
    gutter = f"{line:>5} | "
    return [gutter + source, " " * (len(gutter) - 2) + "| " + " " * start + "^" * width]


def render(problems: Sequence[Problem], texts: Mapping[str, str], files: int) -> str:
    """Every problem with its excerpt and hint, then the summary line."""
    out: list[str] = []
    split = {name: text.splitlines() for name, text in texts.items()}
    for p in problems:
        out.append(headline(p))
        out.extend(excerpt(p, split.get(p.file, [])))
        if p.hint:
            out.append(f"      hint: {p.hint}")
    out.append(summary_line(problems, files))
    return "\n".join(out) + "\n"


def summary_line(problems: Sequence[Problem], files: int) -> str:
    """`2 files checked: 1 error, 3 warnings`."""
    counts = summary(problems, files)
    errors, warnings = counts["errors"], counts["warnings"]
    noun = "file" if files == 1 else "files"
    if not problems:
        return f"{files} {noun} checked: no problems"
    return (
        f"{files} {noun} checked: {errors} error{'s' if errors != 1 else ''}, "
        f"{warnings} warning{'s' if warnings != 1 else ''}"
    )


def is_failing(p: Problem, strict: bool) -> bool:
    """Whether a problem fails the run."""
    return p.level == Level.ERROR or (strict and p.level == Level.WARNING)


def _document(problem: Problem) -> str:
    """The file a problem is in (a state dump's problem names a JSON pointer into it after `#`)."""
    return problem.file.split("#/", 1)[0]


def warning_summary(
    warnings: list[Problem], files: list[str], config_problems: list[Problem], existing: Set[str] = frozenset()
) -> str:
    """One line for warnings an earlier `yk validate` (or the workload's author) has seen: how many in which file,
    and where to read them: `3 warnings in queues.yaml: run yk validate queues.yaml`; for the workload, which rules
    at which lines: `1 warning in workload.yaml: workload-priority-mismatch (line 10)`. existing: the files that are
    files on disk (the others, standard input say, get a plain `run yk validate`)."""
    parts = []
    for file in [*files, *sorted({_document(p) for p in warnings} - set(files))]:
        mine = [p for p in warnings if _document(p) == file]
        if not mine:
            continue
        hints = []
        if any(p in config_problems for p in mine):
            hints.append(f"run yk validate {file}" if file in existing else "run yk validate")
        lines: dict[str, list[int]] = {}
        for problem in sorted((p for p in mine if p not in config_problems), key=Problem.sort_key):
            found = lines.setdefault(problem.rule, [])
            if problem.span is not None and problem.span.line not in found:
                found.append(problem.span.line)
        for rule, numbers in lines.items():
            shown = ", ".join(map(str, numbers[:5])) + (", …" if len(numbers) > 5 else "")
            hints.append(f"{rule} (line{'s' if len(numbers) > 1 else ''} {shown})" if numbers else rule)
        count = f"{len(mine)} warning{'s' if len(mine) != 1 else ''}"
        parts.append(f"{count} in {file}: {', '.join(hints)}")
    return "; ".join(parts)
