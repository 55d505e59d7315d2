"""The sweep's HTML page in a real browser (Debian's Chromium through Playwright, as test_html_browser.py): no console
error, no request but the file, every chart drawn, the select boxes redraw the trade-off and its Pareto front, the
table sorts, and the refused points are listed with YuniKorn's reasons. Skipped without playwright or Chromium."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from tests.browser.reports import EVIL, REFUSAL, Sweep, large_sweep, small_sweep
from tests.browser.test_html_browser import _missing, browser, open_report  # noqa: F401 (the fixtures)
from yk_cli.core.sweep.evaluate import PointResult
from yk_cli.report.html import render_sweep_html

pytestmark = pytest.mark.skipif(bool(_missing()), reason=_missing() or "browser available")
CHARTS = {"parameter-0", "parameter-1", "parameter-2", "trade-off", "parallel"}


def _page(s: Sweep) -> str:
    return render_sweep_html(s.source, s.parameters, s.ranked, s.objective, verdicts=s.verdicts, best=s.best)


def _drawn_everywhere(opened: Any, charts: set[str]) -> None:
    drawn = opened.drawn()
    assert set(drawn) == charts
    for name, (series, painted) in drawn.items():
        assert series > 0 and painted > 1000, name


def _column(opened: Any, table: str, column: int) -> list[str]:
    return opened.page.eval_on_selector_all(
        f'table[data-table="{table}"] tbody tr', f"rows => rows.map(r => r.cells[{column}].textContent)")


def _front(points: Sequence[PointResult], x: str, y: str, x_lower: bool, y_lower: bool,
           skip: frozenset[int] = frozenset()) -> set[int]:
    """The indexes of the points no other point beats on both metrics (each in its better direction)."""
    values = [(r.index, r.number(x), r.number(y)) for r in points if not r.errors and r.index not in skip]
    signed = [(i, a if x_lower else -a, b if y_lower else -b) for i, a, b in values if a is not None and b is not None]
    return {i for i, a, b in signed
            if not any(c <= a and d <= b and (c < a or d < b) for _, c, d in signed)}


def test_small_tune_page_is_clean_complete_and_drawn(open_report: Any) -> None:  # noqa: F811
    s = small_sweep(tune=True)
    opened = open_report(_page(s), "sweep.html")
    opened.check_clean()
    _drawn_everywhere(opened, CHARTS)
    page = opened.page
    assert EVIL in page.title()
    best = page.locator("#summary p.best").all_text_contents()
    assert best == [f"best: point 5 (prod vcore=4, delay=30s, {EVIL}={EVIL}.yaml): p95-wait:queue=root.prod 10s",
                    f"runner-up: point 0 (prod vcore=2, delay=30s, {EVIL}=monday.yaml): p95-wait:queue=root.prod 46s"]
    assert _column(opened, "points", 1) == ["5", "1", "0", "4", "2"]
    headers = page.locator('table[data-table="points"] th').all_text_contents()
    assert headers == ["#", "point", "prod vcore", "delay", EVIL, "p95-wait:queue=root.prod", "p95-wait", "pending",
                       "utilization:memory", "constraints unmet"]
    assert _column(opened, "points", 5) == ["10s", "30s", "46s", "1m15s", "-"]  # sweep_report's formats
    assert _column(opened, "points", 6) == ["20s", "1m30s", "30s", "1h6m40s", "12s"]
    assert _column(opened, "points", 8) == ["75.0%", "90.0%", "50.0%", "95.0%", "25.0%"]
    assert _column(opened, "points", 9) == ["none", f"p95-wait < 60s {EVIL}", "none", "none", "none"]
    assert page.eval_on_selector_all('table[data-table="points"] tr.best', "rows => rows.map(r => r.dataset.point)") \
        == ["5", "0"]
    assert _column(opened, "refused", 0) == ["3", "6", "7"]
    assert _column(opened, "refused", 4) == [f"{REFUSAL}\nsecond reason"] * 3
    assert page.locator("#refused td.reasons").first.inner_text() == f"{REFUSAL}\nsecond reason"  # one per line
    # the failing point is hollow and grey, and off the front; the best two are marked in every chart
    option = page.evaluate("ykReport.charts['trade-off'].getOption().series.map(s => [s.name, s.data.length])")
    assert option == [["points", 3], ["misses a constraint", 1], ["Pareto front", 2], ["best", 1], ["runner-up", 1]]
    front = _front(s.ranked, "utilization:memory", "p95-wait:queue=root.prod", False, True, frozenset({1}))
    assert set(page.evaluate("ykReport.sweep.front")) == front == {5, 4}
    assert page.evaluate("ykReport.charts['parallel'].getOption().series.map(s => s.name)") == [
        "points", "misses a constraint", "no colour value", "best", "runner-up"]


def test_the_select_boxes_change_the_trade_off(open_report: Any) -> None:  # noqa: F811
    s = small_sweep()
    opened = open_report(_page(s), "sweep.html")
    page = opened.page
    scatter = page.locator("#trade-off")
    assert page.evaluate("ykReport.sweep.axes") == ["m:utilization:memory", "m:p95-wait:queue=root.prod"]
    assert set(page.evaluate("ykReport.sweep.front")) == _front(
        s.ranked, "utilization:memory", "p95-wait:queue=root.prod", False, True) == {5, 1, 4}
    scatter.locator("select").nth(0).select_option("m:pending")
    scatter.locator("select").nth(1).select_option("m:p95-wait")
    assert page.evaluate("ykReport.sweep.axes") == ["m:pending", "m:p95-wait"]
    axis = page.evaluate("[ykReport.charts['trade-off'].getOption().xAxis[0].name, "
                         "ykReport.charts['trade-off'].getOption().yAxis[0].name]")
    assert axis == ["pending", "p95-wait"]
    assert set(page.evaluate("ykReport.sweep.front")) == _front(s.ranked, "pending", "p95-wait", True, True) == {5, 2}
    assert "2 points on the Pareto front" in scatter.locator("[data-note=front]").text_content()
    scatter.locator("select").nth(0).select_option("p:0")  # a parameter that is not the objective: no direction
    assert page.evaluate("ykReport.sweep.front") == []
    assert "No Pareto front" in scatter.locator("[data-note=front]").text_content()
    page.locator("#by-parameter select").first.select_option("m:utilization:memory")
    names = page.evaluate("[0, 1, 2].map(i => ykReport.charts['parameter-' + i].getOption().yAxis[0].name)")
    assert names == ["utilization:memory"] * 3
    _drawn_everywhere(opened, CHARTS)
    opened.check_clean()


def test_the_points_table_sorts(open_report: Any) -> None:  # noqa: F811
    s = small_sweep()
    opened = open_report(_page(s), "sweep.html")
    table = opened.page.locator('table[data-table="points"]')
    table.get_by_role("button", name="p95-wait", exact=True).click()
    assert _column(opened, "points", 1) == ["2", "5", "0", "1", "4"]  # 12.5s, 20s, 30s, 1m30s, 1h6m40s
    assert table.locator("th[aria-sort=ascending]").text_content() == "p95-wait"
    table.get_by_role("button", name="p95-wait", exact=True).click()
    assert _column(opened, "points", 1) == ["4", "1", "0", "5", "2"]
    table.get_by_role("button", name="p95-wait:queue=root.prod").click()
    assert _column(opened, "points", 1) == ["5", "1", "0", "4", "2"]  # the point without a number last
    table.get_by_role("button", name="p95-wait:queue=root.prod").click()
    assert _column(opened, "points", 1) == ["4", "0", "1", "5", "2"]  # still last
    table.get_by_role("button", name=EVIL).click()  # categories in the given order
    assert _column(opened, "points", 4) == ["monday.yaml"] * 3 + [f"{EVIL}.yaml"] * 2
    opened.page.locator("#points input[type=search]").fill("monday")
    assert _column(opened, "points", 1) == ["0", "4", "2"]  # filtered, in the sorted order
    opened.check_clean()


def test_two_thousand_points(open_report: Any) -> None:  # noqa: F811
    s = large_sweep()
    opened = open_report(_page(s), "sweep.html")
    opened.check_clean()
    _drawn_everywhere(opened, {"parameter-0", "parameter-1", "parameter-2", "trade-off", "parallel"})
    page = opened.page
    measured = [r for r in s.ranked if not r.errors]
    assert len(_column(opened, "points", 0)) == 50
    assert page.evaluate("ykReport.tables.points.count") == len(measured)
    assert page.evaluate("ykReport.tables.refused.count") == len(s.ranked) - len(measured)
    front = _front(s.ranked, "utilization:memory", "p95-wait:queue=root.prod", False, True)
    assert set(page.evaluate("ykReport.sweep.front")) == front and front
    lines = page.evaluate("ykReport.charts.parallel.getOption().series.reduce((n, s) => n + s.data.length, 0)")
    assert lines == len(measured)
    page.locator('table[data-table="points"]').get_by_role("button", name="utilization:vcore").click()
    page.locator('table[data-table="points"]').get_by_role("button", name="utilization:vcore").click()
    top = max(measured, key=lambda r: (r.number("utilization:vcore") or 0.0))
    assert _column(opened, "points", 1)[0] == str(top.index)


def test_every_point_refused(open_report: Any) -> None:  # noqa: F811
    s = small_sweep()
    refused = [PointResult(i, (2, "30s", "monday.yaml"), (f"{REFUSAL} {i}",)) for i in range(3)]
    opened = open_report(render_sweep_html(s.source, s.parameters, refused, s.objective), "sweep.html")
    opened.check_clean()
    assert opened.drawn() == {}
    assert _column(opened, "refused", 4) == [f"{REFUSAL} {i}" for i in range(3)]
    assert opened.page.locator("#by-parameter .empty").text_content() == "No point ran: YuniKorn refused every config."


def test_one_point_of_one_parameter_without_an_objective(open_report: Any) -> None:  # noqa: F811
    s = small_sweep()
    point = s.ranked[0]
    one = PointResult(point.index, point.values[:1], (), point.numbers)
    opened = open_report(render_sweep_html("s.yaml", s.parameters[:1], [one], None), "sweep.html")
    opened.check_clean()
    _drawn_everywhere(opened, {"parameter-0", "trade-off", "parallel"})
    assert "No objective" in opened.page.locator("#summary").text_content()
    assert opened.page.evaluate("ykReport.sweep.front") == [point.index]
