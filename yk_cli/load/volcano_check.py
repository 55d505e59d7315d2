"""check_volcano: load Volcano inputs, run every lint, apply `# yk: disable=` comments (`yk volcano validate`).

    check_volcano(names, conf=None, one_cluster=False) -> VolcanoCheck
    lint_inputs(inputs) -> [Problem]

Each file is checked on its own, as `yk validate` checks files: its objects are one cluster, checked against
`--conf` when given, else the file's own scheduler conf (a volcano-scheduler-configmap in it, or the file is a plain
volcano-scheduler.conf), else Volcano's built-in default. With one_cluster, every input is one cluster, read as
`yk volcano simulate` reads its dumps (a dump split over several files): one conf for all, and an object in two
files is a duplicate. `yk volcano simulate` and `explain` stop on the problems lint_inputs finds in what they read.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from yk_cli.core.diagnostics import Problem
from yk_cli.core.lint.catalogue import volcano_catalogue
from yk_cli.core.volcano.lint_conf import lint_conf
from yk_cli.core.volcano.lint_objects import lint_objects
from yk_cli.load.source import read_input
from yk_cli.load.suppress import unsuppressed
from yk_cli.load.volcano import VolcanoInputs, expand_dumps, load_volcano


@dataclass(slots=True)
class VolcanoCheck:
    """The inputs as loaded and every problem found in them, sorted, suppressions applied. `inputs` holds every
    file read and its text (and, with one cluster, the cluster and its conf); `parts` is what each file was checked
    as: one VolcanoInputs per file (its conf: `conf_origin`, `conf_source`, `conf`), or the one cluster."""

    inputs: VolcanoInputs
    problems: list[Problem] = field(default_factory=list)
    parts: list[VolcanoInputs] = field(default_factory=list)


def lint_inputs(inputs: VolcanoInputs) -> list[Problem]:
    """Every problem of loaded inputs: the loader's, the lints of the conf Volcano would read and of every object,
    without the warnings silenced on their line; sorted."""
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
            kept.extend(unsuppressed(by_file.pop(file, []), inputs.texts[file], file, lambda: known))
    for rest in by_file.values():
        kept.extend(rest)
    kept.sort(key=Problem.sort_key)
    return kept


def check_volcano(names: list[str], conf: str | None = None, one_cluster: bool = False) -> VolcanoCheck:
    """Load and lint the inputs (see the module docstring). Unreadable inputs are listed in `inputs.unreadable`,
    the others still checked; InputError only when the --conf file cannot be read."""
    if one_cluster:
        inputs = load_volcano(names, conf, keep_going=True)
        return VolcanoCheck(inputs, lint_inputs(inputs), [inputs])
    stdin = read_input("-") if conf == "-" else None  # the conf from standard input, read once for every file
    merged = load_volcano([], conf, keep_going=True, stdin=stdin)
    parts: list[VolcanoInputs] = []
    problems: dict[Problem, None] = dict.fromkeys(lint_inputs(merged))  # the --conf file's, once
    files, unreadable = expand_dumps(names)
    merged.unreadable = [message for _, message in unreadable]
    for file in files:
        part = load_volcano([file], conf, keep_going=True, stdin=stdin)
        merged.unreadable.extend(part.unreadable)
        if not part.unreadable:
            parts.append(part)
            merged.texts.update(part.texts)
            merged.files.extend(part.files)
            problems.update(dict.fromkeys(lint_inputs(part)))
    merged.files = list(dict.fromkeys(merged.files))
    return VolcanoCheck(merged, sorted(problems, key=Problem.sort_key), parts)
