"""`yk volcano validate` reports: the `yk validate` formats, plus which scheduler conf was checked."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from yk_cli.core.diagnostics import Problem
from yk_cli.core.rules import volcano_catalogue
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
        """One line for the text report."""
        if self.origin == "default":
            return "conf: no conf found: Volcano's built-in default (enqueue, allocate, backfill)"
        if not self.loaded:
            return f"conf: {self.source}: refused by Volcano's loader, which keeps its built-in default"
        return f"conf: {self.source}"

    def as_dict(self) -> dict[str, object]:
        """The `conf` field of the JSON report."""
        out: dict[str, object] = {"origin": self.origin, "source": self.source, "loaded": self.loaded}
        if self.error:
            out["error"] = self.error
        return out


def render(
    fmt: str,
    problems: Sequence[Problem],
    texts: Mapping[str, str],
    files: int,
    conf: ConfNote,
    *,
    color: bool = False,
    width: int = 100,
    base: str = ".",
    version: str = "0.0.0",
) -> str:
    """The report in one of the formats of `yk validate` (text and json also say which conf was checked)."""
    if fmt == "text":
        if color:
            from yk_cli.report import problems_rich

            return conf.text() + "\n" + problems_rich.render(problems, texts, files, width)
        return conf.text() + "\n" + problems_text.render(problems, texts, files)
    if fmt == "json":
        data = {
            "conf": conf.as_dict(),
            "problems": [problems_json.problem_dict(p) for p in problems],
            "summary": problems_json.summary(problems, files),
        }
        return jsonout.document(data)
    if fmt == "github":
        return github.render(problems, files, base)
    if fmt == "sarif":
        return sarif.render(problems, volcano_catalogue(), version, base)
    raise ValueError(f"unknown format {fmt!r}")
