"""The two HTML reports' entry points: a dry run with its metrics, and a diff with both runs' metrics."""

from __future__ import annotations

from yk_cli.core.analysis.metrics import Metrics
from yk_cli.core.config.queues import QueueTree
from yk_cli.core.diff.model import Diff
from yk_cli.core.sim.trace import Trace
from yk_cli.report.html.data import simulation_document
from yk_cli.report.html.diff_data import diff_document
from yk_cli.report.html.page import render_page


def render_simulation_html(trace: Trace, tree: QueueTree, metrics: Metrics, source: str) -> str:
    """The report of one dry run: `trace` and `metrics` of a run on `tree`; `source` names the inputs (shown)."""
    title = f"yk simulate: {source}" if source else "yk simulate"
    return render_page(title, simulation_document(trace, tree, metrics, source))


def render_diff_html(diff: Diff, old: Metrics | None = None, new: Metrics | None = None) -> str:
    """The report of a diff: the config changes, the two dry runs compared, and their metrics side by side (None:
    that side did not run)."""
    return render_page(f"yk diff: {diff.old} -> {diff.new}", diff_document(diff, old, new))
