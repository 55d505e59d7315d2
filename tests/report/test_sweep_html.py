"""The sweep's HTML page as text: its data document exactly, parameter scales, verdicts and best points, refused
points, escaping, byte-identical output and a 2,000-point sweep within the time and size bounds."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from tests.browser.reports import EVIL, REFUSAL, embedded, large_sweep, small_sweep
from tests.helpers.paths import ROOT
from yk_cli.core.sweep.evaluate import PointResult
from yk_cli.core.sweep.params import ARRIVALS, GUARANTEED, NODES_COUNT, PROPERTY, WORKLOAD_FILE, Target
from yk_cli.core.sweep.points import Parameter
from yk_cli.report.html import render_simulation_html, render_sweep_html
from yk_cli.report.html.page import asset
from yk_cli.report.html.sweep_data import better, scale, sweep_document, unit

MB = 1024 * 1024
NODES = Parameter("nodes.count", "nodes.count", Target(NODES_COUNT), (1, 2))
MEMORY = Parameter("prod memory", "root.prod.resources.guaranteed.memory", Target(GUARANTEED, "root.prod", "memory"),
                   ("8Gi", "16Gi"))


def _tiny() -> list[PointResult]:
    """Two measured points best first (one without utilization) and one refused."""
    return [
        PointResult(3, (2, "16Gi"), (), (("lost:vcore", 1500.0), ("p95-wait", 12.3456789), ("utilization:vcore", 0.5))),
        PointResult(0, (1, "8Gi"), (), (("lost:vcore", 0.0), ("p95-wait", 60.0), ("utilization:vcore", None))),
        PointResult(1, (1, "16Gi"), ("guaranteed above max",)),
    ]


def test_the_document_of_a_small_sweep() -> None:
    assert sweep_document("q.yaml + w.yaml", (NODES, MEMORY), _tiny(), ("minimize", "p95-wait")) == {
        "kind": "sweep",
        "source": "q.yaml + w.yaml",
        "total": 3,
        "tune": False,
        "parameters": [
            {"label": "nodes.count", "path": "nodes.count", "scale": "number", "text": ["1", "2"], "at": [1, 2],
             "better": None},
            {"label": "prod memory", "path": "root.prod.resources.guaranteed.memory", "scale": "bytes",
             "text": ["8Gi", "16Gi"], "at": [8 * 2**30, 16 * 2**30], "better": None},
        ],
        "objective": {"direction": "minimize", "key": "p95-wait", "parameter": None},
        "metrics": {
            "lost:vcore": {"unit": "work", "better": "lower"},
            "p95-wait": {"unit": "seconds", "better": "lower"},
            "utilization:vcore": {"unit": "fraction", "better": "higher"},
        },
        "points": {
            "index": [3, 0],
            "values": [[1, 0], [1, 0]],
            "metrics": {"lost:vcore": [1500, 0], "p95-wait": [12.3457, 60], "utilization:vcore": [0.5, None]},
            "unmet": None,
        },
        "refused": [{"index": 1, "values": [0, 1], "reasons": ["guaranteed above max"]}],
        "constraints": [],
        "best": [3],
        "shown": ["utilization:vcore"],
        "parallel": ["utilization:vcore"],
        "y": "m:p95-wait",
        "scatter": {"x": "m:utilization:vcore", "y": "m:p95-wait"},
    }


def test_parameter_scales() -> None:
    def of(target: Target, *values: int | float | str | bool) -> tuple[str, list[float | int | None]]:
        return scale(Parameter("p", "p", target, values), values)

    assert of(Target(NODES_COUNT), 1, 3, 2) == ("number", [1, 3, 2])
    assert of(Target(ARRIVALS), 0.5, 2.0) == ("number", [0.5, 2])
    assert of(Target(PROPERTY, "root.a", "preemption.delay"), "30s", "1m0s", "1h30m0s") == ("duration",
                                                                                          [30, 60, 5400])
    assert of(Target(GUARANTEED, "root.a", "memory"), "512Mi", "1Gi") == ("bytes", [2**29, 2**30])
    assert of(Target(GUARANTEED, "root.a", "memory"), "1000", "2000") == ("bytes", [1000, 2000])
    assert of(Target(GUARANTEED, "root.a", "vcore"), "500m", "2") == ("number", [0.5, 2])  # millicores, not minutes
    assert of(Target(PROPERTY, "root.a", "x"), "5m", "10m") == ("duration", [300, 600])  # minutes, not millicores
    assert of(Target(PROPERTY, "root.a", "application.sort.policy"), "fifo", "fair") == ("category", [None, None])
    assert of(Target(WORKLOAD_FILE), "a.yaml", "b.yaml")[0] == "category"
    assert of(Target(PROPERTY, "root.a", "x"), 1, "2")[0] == "category"  # a mix
    assert of(Target(PROPERTY, "root.a", "x"), True, False)[0] == "category"
    assert of(Target(PROPERTY, "root.a", "x"), "1", "2") == ("number", [1, 2])  # digits are no durations


def test_which_way_is_better_and_units() -> None:
    lower = ["p50-wait", "max-wait:queue=root.a", "pending", "pending:user=bob", "lost:memory", "preemptions",
             "fairness-gap:root.a", "makespan"]
    assert [better(k) for k in lower] == ["lower"] * len(lower)
    assert better("utilization:vcore") == "higher"
    assert better("something-else") is None
    assert [unit(k) for k in ("p95-wait", "fairness-gap:root.a", "makespan", "utilization:memory", "lost:vcore",
                              "pending", "preemptions")] == [
        "seconds", "seconds", "seconds", "fraction", "work", "count", "count"]


def test_one_page_with_the_sweep_script_inlined() -> None:
    s = small_sweep()
    page = render_sweep_html(s.source, s.parameters, s.ranked, s.objective)
    assert page.count("<script") == 4 and page.count("</script>") == 4
    assert asset("sweep.js")[:500] in page and page.index("pages.sweep = function") < page.index("report.lib")
    assert "</script" not in asset("sweep.js").lower()
    assert "<script src" not in page and "<link" not in page and "default-src 'none'" in page
    run_page = _simulation_page()
    assert "pages.sweep = function" not in run_page and run_page.count("<script") == 3


def _simulation_page() -> str:
    from tests.browser.reports import small_run

    run = small_run()
    return render_simulation_html(run.trace, run.tree, run.metrics, run.source)


def test_the_same_inputs_give_the_same_bytes() -> None:
    first, second = small_sweep(tune=True), small_sweep(tune=True)
    pages = [render_sweep_html(s.source, s.parameters, s.ranked, s.objective, verdicts=s.verdicts, best=s.best)
             for s in (first, second)]
    assert pages[0] == pages[1]
    program = (
        "import hashlib, sys\n"
        "from tests.browser.reports import small_sweep\n"
        "from yk_cli.report.html import render_sweep_html\n"
        "s = small_sweep(tune=True)\n"
        "page = render_sweep_html(s.source, s.parameters, s.ranked, s.objective, verdicts=s.verdicts, best=s.best)\n"
        "sys.stdout.write(hashlib.sha256(page.encode()).hexdigest())\n"
    )
    digests = {
        subprocess.run([sys.executable, "-c", program], cwd=ROOT, env={**os.environ, "PYTHONHASHSEED": seed},
                       capture_output=True, text=True, check=True).stdout
        for seed in ("1", "2")
    }
    assert len(digests) == 1


def test_user_strings_never_reach_the_page_as_markup() -> None:
    s = small_sweep(tune=True)
    page = render_sweep_html(s.source, s.parameters, s.ranked, s.objective, title=f"tune {EVIL}",
                             verdicts=s.verdicts, best=s.best)
    assert EVIL not in page
    data_text = page.split('id="yk-data">', 1)[1].split("</script>", 1)[0]
    assert "<" not in data_text and ">" not in data_text and "&" not in data_text
    assert "x\\u003c/script\\u003e\\u003cimg src=x onerror=alert(1)\\u003e\\u0026" in data_text
    title = page.split("<title>", 1)[1].split("</title>", 1)[0]
    assert title.startswith("tune x&lt;/script&gt;&lt;img") and "<img" not in title
    data = embedded(page)
    assert data["parameters"][2]["label"] == EVIL
    assert data["constraints"] == [f"p95-wait < 60s {EVIL}"]
    assert data["refused"][0]["reasons"] == [REFUSAL, "second reason"]


def test_refused_points_and_all_refused() -> None:
    s = small_sweep()
    data = sweep_document(s.source, s.parameters, s.ranked, s.objective)
    assert [r["index"] for r in data["refused"]] == [3, 6, 7]
    assert data["refused"][1]["values"] == [1, 1, 0]  # 4, 1m0s, monday.yaml
    assert data["points"]["index"] == [5, 1, 0, 4, 2]
    assert data["total"] == 8
    refused = [PointResult(i, (2, "30s", "monday.yaml"), (REFUSAL,)) for i in range(3)]
    none_ran = sweep_document(s.source, s.parameters, refused, s.objective)
    assert none_ran["points"] == {"index": [], "values": [[], [], []], "metrics": {}, "unmet": None}
    assert (none_ran["metrics"], none_ran["best"], none_ran["y"]) == ({}, [], None)
    assert none_ran["scatter"] == {"x": None, "y": None}
    assert len(none_ran["refused"]) == 3
    render_sweep_html(s.source, s.parameters, refused, s.objective)  # renders


def test_verdicts_and_best_points() -> None:
    s = small_sweep(tune=True)
    data = sweep_document(s.source, s.parameters, s.ranked, s.objective, s.verdicts, s.best)
    assert data["tune"] is True
    assert data["best"] == [5, 0]
    assert data["points"]["unmet"] == [[], [0], [], [], []]
    partial = sweep_document(s.source, s.parameters, s.ranked, s.objective, {1: ["a", "b"], 0: ["b"]}, ())
    assert partial["points"]["unmet"] == [None, [0, 1], [1], None, None]  # None: no verdict on that point
    assert partial["constraints"] == ["a", "b"]
    assert partial["best"] == []  # yk tune found no point that meets every constraint: nothing highlighted
    plain = sweep_document(s.source, s.parameters, s.ranked, s.objective)
    assert (plain["tune"], plain["best"], plain["points"]["unmet"]) == (False, [5], None)  # the top point
    assert sweep_document(s.source, s.parameters, s.ranked, None)["best"] == []


def test_the_objective_can_be_a_parameter_or_absent() -> None:
    s = small_sweep()
    by_vcore = sweep_document(s.source, s.parameters, s.ranked, ("maximize", "prod vcore"))
    assert by_vcore["objective"] == {"direction": "maximize", "key": "prod vcore", "parameter": 0}
    assert by_vcore["parameters"][0]["better"] == "higher"
    assert by_vcore["y"] == "p:0" and by_vcore["scatter"] == {"x": "m:utilization:memory", "y": "p:0"}
    assert by_vcore["shown"] == ["p95-wait", "pending", "utilization:memory"]
    none = sweep_document(s.source, s.parameters, s.ranked, None)
    assert none["objective"] is None and none["y"] == "m:p95-wait"
    assert none["metrics"]["p95-wait:queue=root.prod"]["better"] == "lower"
    on_utilization = sweep_document(s.source, s.parameters, s.ranked, ("minimize", "utilization:memory"))
    assert on_utilization["metrics"]["utilization:memory"]["better"] == "lower"  # the objective's direction wins
    assert on_utilization["scatter"] == {"x": "m:p95-wait", "y": "m:utilization:memory"}


def test_one_point_of_one_parameter() -> None:
    point = PointResult(0, (3,), (), (("p95-wait", 1.0), ("pending", 0.0)))
    data = sweep_document("s", (NODES,), [point], ("minimize", "p95-wait"))
    assert data["points"]["values"] == [[2]] and data["parameters"][0]["text"] == ["1", "2", "3"]
    assert data["best"] == [0] and data["scatter"] == {"x": "m:pending", "y": "m:p95-wait"}


@pytest.mark.parametrize("count", [2000])
def test_two_thousand_points_render_fast_and_small(count: int) -> None:
    s = large_sweep(count)
    assert len(s.ranked) == count
    timings = []
    for _ in range(3):
        start = time.perf_counter()
        page = render_sweep_html(s.source, s.parameters, s.ranked, s.objective)
        timings.append(time.perf_counter() - start)
    assert min(timings) < 1.0
    assert len(page.encode("utf-8")) < 2.5 * MB
    data = embedded(page)
    assert len(data["points"]["index"]) + len(data["refused"]) == count
    data_bytes = len(page.split('id="yk-data">', 1)[1].split("</script>", 1)[0])
    assert data_bytes < 1 * MB
