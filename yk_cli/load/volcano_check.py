"""check_volcano: load Volcano inputs, run every lint, apply `# yk: disable=` comments (`yk volcano validate`).

check_volcano(names, conf=None) -> VolcanoCheck
"""

from __future__ import annotations

from dataclasses import dataclass, field

from yk_cli.core.diagnostics import Problem
from yk_cli.core.rules import volcano_catalogue
from yk_cli.core.volcano.lint_conf import lint_conf
from yk_cli.core.volcano.lint_objects import lint_objects
from yk_cli.load.suppress import unsuppressed
from yk_cli.load.volcano import VolcanoInputs, load_volcano


@dataclass(slots=True)
class VolcanoCheck:
    """The inputs as loaded and every problem found in them, sorted, suppressions applied."""

    inputs: VolcanoInputs
    problems: list[Problem] = field(default_factory=list)


def check_volcano(names: list[str], conf: str | None = None) -> VolcanoCheck:
    """Load the dumps and the conf (unreadable inputs are listed in `inputs.unreadable`, the others still read), lint
    the conf Volcano would read and every object, and drop the warnings silenced on their line."""
    inputs = load_volcano(names, conf, keep_going=True)
    problems = list(inputs.problems)
    if inputs.conf_root is not None and inputs.conf.error != "yaml syntax":
        problems.extend(p.located(p.span, inputs.conf_file) for p in lint_conf(inputs.conf_root))
    problems.extend(lint_objects(inputs.objects, inputs.conf.effective))
    known = set(volcano_catalogue())
    by_file: dict[str, list[Problem]] = {}
    for problem in problems:
        by_file.setdefault(problem.file, []).append(problem)
    kept: list[Problem] = list(by_file.pop("", []))
    for file in dict.fromkeys(inputs.files):
        if file in inputs.texts:
            kept.extend(unsuppressed(by_file.pop(file, []), inputs.texts[file], file, known))
    for rest in by_file.values():
        kept.extend(rest)
    kept.sort(key=Problem.sort_key)
    return VolcanoCheck(inputs, kept)
