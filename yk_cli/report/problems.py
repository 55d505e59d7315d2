"""Problem report formats by name: the whole plug-in system of `yk validate --format`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from yk_cli.core.diagnostics import Level, Problem, Rule, Span

FORMATS = ("text", "json", "github", "sarif")
"""Every `--format` name, the default first."""

INPUT_ERROR = Rule(
    "input-error",
    Level.ERROR,
    "An input yk could not check: a missing or unreadable file, a directory without YAML files, a refused input.",
    "A file that does not exist or cannot be read, a directory without *.yaml or *.yml files, a queue config without "
    "the partition --partition names, a policy or workload yk cannot use: nothing in it was checked. yk names it on "
    "standard error and exits 2 (a usage error); the json, github and sarif reports carry it too, at line 1 of the "
    "input, so that a report never leaves an input out. It is not a rule of the files themselves: it cannot be "
    "disabled.",
)
"""The problem that stands for an input in the machine-readable reports when it could not be checked."""


def input_problem(file: str, message: str) -> Problem:
    """An input-error problem at 1:1 of a file: `message` without the file's name in front (`no such file`)."""
    text = message.removeprefix(f"{file}: ").removeprefix(f"{file} ")
    return Problem(INPUT_ERROR.id, Level.ERROR, text, span=Span(1, 1, 1, 2), file=file)


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
        from yk_cli.core.lint.catalogue import all_rules
        from yk_cli.report import sarif

        rules = all_rules()
        if any(p.rule == INPUT_ERROR.id for p in problems):
            rules = {**rules, INPUT_ERROR.id: INPUT_ERROR}
        return sarif.render(problems, rules, version, base)
    raise ValueError(f"unknown format {fmt!r}")
