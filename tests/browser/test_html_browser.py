"""The HTML reports in a real browser: Debian's Chromium driven by Playwright's Python client (no browser download).

Each report is opened from a file:// URL and must log no console error or warning, make no request but for the
file itself, open no dialog (no injected script ran), show every queue and every pending pod, and draw every
chart (a series and painted pixels on its canvas). Skipped when playwright or Chromium is missing
(`pip install playwright`, `apt-get install -y chromium`); YK_CHROMIUM names another Chromium binary.
YK_UPDATE_SCREENSHOT=1 rewrites docs/images/html-report.png from the 10,000-pod report.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.browser.reports import EVIL, embedded, large_run, small_diff, small_run
from tests.helpers.paths import ROOT
from yk_cli.report.html import render_diff_html, render_simulation_html

CHROMIUM = Path(os.environ.get("YK_CHROMIUM", "/usr/bin/chromium"))
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SCREENSHOT = ROOT / "docs" / "images" / "html-report.png"
SIMULATION_CHARTS = {"utilization", "timeline", "queue-usage", "waits", "preemption-graph"}
PAGE_ROWS = 50
TIMEOUT_MS = 60_000


def _missing() -> str:
    """Why the browser tests cannot run here ('' when they can)."""
    if importlib.util.find_spec("playwright") is None:
        return "playwright is not installed (pip install playwright: the test extra has it)"
    if not CHROMIUM.is_file():
        return f"no Chromium at {CHROMIUM} (apt-get install -y chromium, or YK_CHROMIUM=/path/to/chromium)"
    return ""


pytestmark = pytest.mark.skipif(bool(_missing()), reason=_missing() or "browser available")

DRAWN = """() => Object.keys(ykReport.charts).sort().map(name => {
  const chart = ykReport.charts[name];
  const canvas = chart.getDom().querySelector("canvas");
  const pixels = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
  let painted = 0;
  for (let i = 3; i < pixels.length; i += 4) if (pixels[i] > 0) painted++;
  return [name, (chart.getOption().series || []).length, painted];
})"""


@dataclass
class Opened:
    """A report open in a page, with everything it logged and asked for."""

    page: Any
    url: str
    console: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)

    def check_clean(self) -> None:
        """No console error or warning, no request but the file itself, no dialog."""
        assert self.console == []
        assert self.requests == [self.url]
        assert self.dialogs == []
        assert self.page.evaluate("ykReport.errors") == []
        assert self.page.evaluate("document.querySelectorAll('img, iframe, object, embed').length") == 0

    def drawn(self) -> dict[str, tuple[int, int]]:
        """Each chart's number of series and painted pixels."""
        return {name: (series, painted) for name, series, painted in self.page.evaluate(DRAWN)}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def open_report(browser: Any, tmp_path: Path) -> Iterator[Any]:
    contexts: list[Any] = []

    def opener(text: str, name: str = "report.html") -> Opened:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        contexts.append(context)
        context.route("http*://**/*", lambda route: route.abort())  # recorded below, never sent
        page = context.new_page()
        opened = Opened(page, path.as_uri())
        page.on("console", lambda m: opened.console.append(f"{m.type}: {m.text}") if m.type in ("error", "warning")
                else None)
        page.on("pageerror", lambda error: opened.console.append(f"pageerror: {error}"))
        page.on("request", lambda request: opened.requests.append(request.url))
        page.on("dialog", lambda dialog: (opened.dialogs.append(dialog.message), dialog.dismiss()))
        page.goto(opened.url)
        page.wait_for_function("window.ykReport && window.ykReport.ready", timeout=TIMEOUT_MS)
        page.wait_for_function("Object.values(ykReport.finished).every(Boolean)", timeout=TIMEOUT_MS)
        return opened

    yield opener
    for context in contexts:
        context.close()


def _check_simulation(opened: Opened, data: dict[str, Any], tree_paths: set[str], pending: list[str]) -> None:
    """Every queue in the tree table, every pending pod in the pending table's rows, every chart drawn."""
    page = opened.page
    shown = page.eval_on_selector_all("#queue-tree tr[data-queue]", "rows => rows.map(r => r.dataset.queue)")
    assert shown == [q["path"] for q in data["queues"]]
    assert set(shown) >= tree_paths
    rows = page.evaluate("ykReport.tables.pending.allRows().map(r => r[0] + '/' + r[1])")
    assert rows == pending
    in_dom = page.eval_on_selector_all('table[data-table="pending"] tbody tr', "rows => rows.length")
    assert in_dom == min(len(pending), PAGE_ROWS)
    drawn = opened.drawn()
    assert set(drawn) == SIMULATION_CHARTS
    for name, (series, painted) in drawn.items():
        assert series > 0 and painted > 1000, name


def test_small_report_is_clean_complete_and_drawn(open_report: Any) -> None:
    run = small_run()
    text = render_simulation_html(run.trace, run.tree, run.metrics, run.source)
    opened = open_report(text)
    opened.check_clean()
    pending = [f"{p.application}/{p.ask}" for p in run.trace.pending]
    assert f"{EVIL}/{EVIL}" in pending
    _check_simulation(opened, embedded(text), set(run.tree.queues), pending)
    cells = opened.page.locator('table[data-table="pending"] td').all_text_contents()
    assert EVIL in cells  # shown as text, exactly as written
    assert EVIL in opened.page.title()
    headers = opened.page.locator('table[data-table="groups"] th').all_text_contents()
    assert "observed starts" in headers  # a2 has a recorded start


def test_ten_thousand_pods_report(open_report: Any, tmp_path: Path) -> None:
    run = large_run()
    text = render_simulation_html(run.trace, run.tree, run.metrics, run.source)
    opened = open_report(text)
    opened.check_clean()
    pending = [f"{p.application}/{p.ask}" for p in run.trace.pending]
    _check_simulation(opened, embedded(text), set(run.tree.queues), pending)
    bars = opened.page.evaluate("""(() => {
      const o = ykReport.charts.timeline.getOption();
      return o.series.reduce((n, s) => n + s.data.length, 0);
    })()""")
    assert bars == len(embedded(text)["timeline"]["bars"]["start"]) + run.trace.summary.preemptions
    shot = tmp_path / "html-report.png"
    opened.page.screenshot(path=str(shot), clip={"x": 0, "y": 0, "width": 1400, "height": 1900}, full_page=True)
    assert shot.stat().st_size > 50_000
    if os.environ.get("YK_UPDATE_SCREENSHOT") == "1":
        SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
        SCREENSHOT.write_bytes(shot.read_bytes())


def test_tables_page_filter_and_charts_switch(open_report: Any) -> None:
    run = large_run()
    opened = open_report(render_simulation_html(run.trace, run.tree, run.metrics, run.source))
    page = opened.page
    pending = page.locator("#pending")
    first = pending.locator("tbody tr").first.text_content()
    pending.get_by_role("button", name="next").click()
    assert pending.locator("tbody tr").first.text_content() != first
    target = run.trace.pending[-1]
    pending.get_by_role("searchbox").fill(target.ask)
    assert target.ask in pending.locator("tbody").text_content()
    assert page.evaluate("ykReport.tables.pending.order.length") < len(run.trace.pending)
    page.locator("#timeline select").select_option("node")
    page.locator("#waits select").select_option("user")
    page.locator("#preemptions select").select_option("application")
    page.wait_for_function("Object.values(ykReport.finished).every(Boolean)", timeout=TIMEOUT_MS)
    rows = page.evaluate("ykReport.charts.timeline.getOption().yAxis[0].data")
    assert set(rows) <= {*embedded_nodes(run), "(none)"} and len(rows) > 1
    for name, (series, painted) in opened.drawn().items():
        assert series > 0 and painted > 1000, name
    opened.check_clean()


def embedded_nodes(run: Any) -> set[str]:
    """The nodes that ran something in a run."""
    return {e.node for e in run.trace.events if e.node}


def test_diff_report_is_clean_and_drawn(open_report: Any) -> None:
    diff, old, new = small_diff()
    opened = open_report(render_diff_html(diff, old, new), "diff.html")
    opened.check_clean()
    drawn = opened.drawn()
    assert set(drawn) == {"waits-compared", "utilization"}
    for name, (series, painted) in drawn.items():
        assert series > 0 and painted > 1000, name
    page = opened.page
    for table in ("settings", "preemptions-added", "groups-compared", "queues-compared", "run-summary"):
        assert page.locator(f'table[data-table="{table}"]').count() == 1, table
    assert EVIL in page.title()
    assert page.evaluate("ykReport.tables['queues-compared'].allRows().map(r => r[0])") == sorted(
        {q.path for q in old.queues} | {q.path for q in new.queues}
    )
