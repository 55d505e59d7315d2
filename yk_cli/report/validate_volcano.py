"""`yk volcano validate` reports: the `yk validate` formats, plus which scheduler conf was checked."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from yk_cli.core.diagnostics import Problem
from yk_cli.core.lint.catalogue import volcano_catalogue
from yk_cli.report import github, jsonout, problems_json, problems_text, sarif


@dataclass(frozen=True, slots=True)
class ConfNote:
    """Which volcano-scheduler.conf the run checked and whether Volcano would load it."""

    origin: str
    """"option" (--conf), "input" (found among the inputs) or "default" (none: the built-in default)."""
    source: str
    loaded: bool
    error: str = ""

    def text(self) -> str:
        """What the text report says after `conf:`."""
        if self.origin == "default":
            return "no conf found: Volcano's built-in default (enqueue, allocate, backfill)"
        if not self.loaded:
            return f"{self.source}: refused by Volcano's loader, which keeps its built-in default"
        return self.source

    def as_dict(self) -> dict[str, object]:
        """The `conf` field of the JSON report."""
        out: dict[str, object] = {"origin": self.origin, "source": self.source, "loaded": self.loaded}
        if self.error:
            out["error"] = self.error
        return out


def conf_lines(confs: Sequence[tuple[str, ConfNote]]) -> str:
    """The text report's first lines: `conf: ...` when every file was checked against the same conf, else one
    `conf of FILE: ...` line per file."""
    notes = list(dict.fromkeys(note for _, note in confs))
    if len(notes) == 1:
        return f"conf: {notes[0].text()}\n"
    return "".join(f"conf of {file}: {note.text()}\n" for file, note in confs)


def render(
    fmt: str,
    problems: Sequence[Problem],
    texts: Mapping[str, str],
    files: int,
    confs: Sequence[tuple[str, ConfNote]],
    *,
    color: bool = False,
    width: int = 100,
    base: str = ".",
    version: str = "0.0.0",
) -> str:
    """The report in one of the formats of `yk validate`; text and json also say which conf each file was checked
    against (`confs`: (file, conf) in file order)."""
    if fmt == "text":
        if color:
            from yk_cli.report import problems_rich

            return conf_lines(confs) + problems_rich.render(problems, texts, files, width)
        return conf_lines(confs) + problems_text.render(problems, texts, files)
    if fmt == "json":
        notes = list(dict.fromkeys(note for _, note in confs))
        data: dict[str, object] = {}
        if len(notes) == 1:
            data["conf"] = notes[0].as_dict()
        data["confs"] = [{"file": file, **note.as_dict()} for file, note in confs]
        data["problems"] = [problems_json.problem_dict(p) for p in problems]
        data["summary"] = problems_json.summary(problems, files)
        return jsonout.document(data)
    if fmt == "github":
        return github.render(problems, files, base)
    if fmt == "sarif":
        from yk_cli.report.problems import INPUT_ERROR

        rules = volcano_catalogue()
        if any(p.rule == INPUT_ERROR.id for p in problems):
            rules = {**rules, INPUT_ERROR.id: INPUT_ERROR}
        return sarif.render(problems, rules, version, base)
    raise ValueError(f"unknown format {fmt!r}")


def volcano_warning_summary(warnings: list[Problem], files: list[str], dumps: list[str], conf: str | None) -> str:
    """One line for the warnings of the inputs, as in YuniKorn mode: how many in which file, and the command that
    prints them in full: `2 warnings in dump.yaml: run yk volcano validate dump.yaml`."""
    import shlex

    parts = []
    for file in [*files, *sorted({p.file for p in warnings} - set(files))]:
        count = sum(1 for p in warnings if p.file == file)
        if count:
            parts.append(f"{count} warning{'s' * (count != 1)} in {file or 'the inputs'}")
    if "-" in dumps or conf == "-":
        return f"{'; '.join(parts)}: run yk volcano validate"
    read = len(files) - (conf is not None)
    words = ["yk", "volcano", "validate", *(["--one-cluster"] if read > 1 else []), *dumps]
    words += ["--conf", conf] if conf is not None else []
    return f"{'; '.join(parts)}: run {' '.join(shlex.quote(w) for w in words)}"
