"""The HTML reports' entry points: a dry run with its metrics, a diff with both runs' metrics, and a sweep."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from yk_cli.core.analysis.metrics import Metrics
from yk_cli.core.config.queues import QueueTree
from yk_cli.core.diff.model import Diff
from yk_cli.core.sim.trace import Trace
from yk_cli.core.sweep.evaluate import PointResult
from yk_cli.core.sweep.points import Parameter
from yk_cli.report.html.data import simulation_document
from yk_cli.report.html.diff_data import diff_document
from yk_cli.report.html.page import SWEEP_SCRIPT, render_page
from yk_cli.report.html.sweep_data import sweep_document


def render_simulation_html(trace: Trace, tree: QueueTree, metrics: Metrics, source: str) -> str:
    """The report of one dry run: `trace` and `metrics` of a run on `tree`; `source` names the inputs (shown)."""
    title = f"yk simulate: {source}" if source else "yk simulate"
    return render_page(title, simulation_document(trace, tree, metrics, source))


def render_diff_html(diff: Diff, old: Metrics | None = None, new: Metrics | None = None) -> str:
    """The report of a diff: the config changes, the two dry runs compared, and their metrics side by side (None:
    that side did not run)."""
    return render_page(f"yk diff: {diff.old} -> {diff.new}", diff_document(diff, old, new))


def render_sweep_html(
    source: str,
    parameters: Sequence[Parameter],
    ranked: Sequence[PointResult],
    objective: tuple[str, str] | None,
    *,
    title: str = "yk sweep",
    verdicts: Mapping[int, Sequence[str]] | None = None,
    best: Sequence[int] = (),
    focus: Sequence[str] = (),
) -> str:
    """The trade-off page of a sweep: `ranked` best first (points with errors are configs YuniKorn refused),
    `objective` (direction, metric key or parameter label) or None. For yk tune, `verdicts` maps a point's index to
    the constraints it does not meet (empty: it meets them all) and `best` lists the points to highlight, best
    first; without verdicts and `best`, the top point of an objective is highlighted. `focus`: the metrics the
    charts show first when the objective is a parameter (yk tune's bounds)."""
    document = sweep_document(source, parameters, ranked, objective, verdicts, best, focus)
    return render_page(f"{title}: {source}" if source else title, document, (SWEEP_SCRIPT,))
