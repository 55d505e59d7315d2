"""The HTML reports as text: one self-contained page, its embedded data complete, byte-identical for the same
inputs, every user string escaped, and a 10,000-pod run within the size bound."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from tests.browser.reports import EVIL, embedded, large_run, small_diff, small_run
from tests.helpers.paths import ROOT
from yk_cli.report.html import render_diff_html, render_simulation_html
from yk_cli.report.html.page import asset, inline_script, json_script

MB = 1024 * 1024


def _page() -> str:
    run = small_run()
    return render_simulation_html(run.trace, run.tree, run.metrics, run.source)


def test_one_page_with_inlined_scripts_and_styles() -> None:
    page = _page()
    assert page.startswith("<!DOCTYPE html>\n<html lang=\"en\">")
    assert page.endswith("</body>\n</html>\n")
    assert page.count("<script") == 3 and page.count("</script>") == 3
    assert "<script src" not in page and "<link" not in page and "@import" not in page
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    assert asset("echarts.min.js")[:2000] in page  # the library itself, not a reference to it
    assert "ykReport" in page and ".chart {" in page


def test_the_data_holds_every_queue_pending_pod_bar_and_edge() -> None:
    run = small_run()
    data = embedded(render_simulation_html(run.trace, run.tree, run.metrics, run.source))
    assert data["kind"] == "simulation"
    assert {q["path"] for q in data["queues"]} >= set(run.tree.queues) | set(run.trace.queues)
    a = next(q for q in data["queues"] if q["path"] == "root.a")
    assert (a["leaf"], a["guaranteed"], a["sortPolicy"], a["preemptionPolicy"]) == (True, "{memory: 10}", "fifo",
                                                                                  "default")
    pending = data["pending"]["rows"]
    assert list(zip(pending["app"], pending["ask"], strict=True)) == [(p.application, p.ask) for p in run.trace.pending]
    assert EVIL in pending["app"]
    assert data["graph"]["queue"] == [["root.a", "root.b", 1]]
    assert data["graph"]["application"] == [["A", "B", 1]]
    bars = data["timeline"]["bars"]
    assert len(bars["start"]) == len(bars["end"]) == len(bars["ask"]) >= 4
    assert data["timeline"]["marks"]["victim"] == ["B/b1"]
    metrics = data["metrics"]
    assert metrics["pods"]["submitted"] == len(run.metrics.pods)
    assert {g["key"] for g in metrics["groups"]["queue"]} == {"root.a", "root.b"}
    assert len(metrics["cluster"]["series"]["memory"]) == 100
    assert set(metrics["queues"]) >= {"root", "root.a", "root.b"}
    errors = {g["key"]: g["errors"] for g in metrics["groups"]["queue"]}
    assert errors["root.a"] == {"count": 1, "p50": 10.0, "p90": 10.0, "p99": 10.0, "bias": 10.0}
    assert errors["root.b"] is None


def test_the_same_inputs_give_the_same_bytes() -> None:
    first, second = small_run(), small_run()  # two runs: other objects, the same values
    assert render_simulation_html(first.trace, first.tree, first.metrics, first.source) == render_simulation_html(
        second.trace, second.tree, second.metrics, second.source
    )
    diff, old, new = small_diff()
    again = small_diff()
    assert render_diff_html(diff, old, new) == render_diff_html(*again)


def test_the_same_bytes_in_processes_with_other_hash_seeds() -> None:
    program = (
        "import hashlib, sys\n"
        "from tests.browser.reports import small_run\n"
        "from yk_cli.report.html import render_simulation_html\n"
        "run = small_run()\n"
        "page = render_simulation_html(run.trace, run.tree, run.metrics, run.source)\n"
        "sys.stdout.write(hashlib.sha256(page.encode()).hexdigest())\n"
    )
    digests = {
        subprocess.run([sys.executable, "-c", program], cwd=ROOT, env={**os.environ, "PYTHONHASHSEED": seed},
                       capture_output=True, text=True, check=True).stdout
        for seed in ("1", "2")
    }
    assert len(digests) == 1


def test_user_strings_never_reach_the_page_as_markup() -> None:
    page = _page()
    assert EVIL not in page
    assert "<img" not in page.split('id="yk-data">', 1)[1].split("</script>", 1)[0]
    assert "x\\u003c/script\\u003e\\u003cimg src=x onerror=alert(1)\\u003e\\u0026" in page
    title = re.search(r"<title>(.*)</title>", page)
    assert title is not None and "&lt;/script&gt;&lt;img" in title.group(1) and "<img" not in title.group(1)


def test_json_and_scripts_cannot_close_their_element() -> None:
    assert json_script({"a": "</script><!-- & >"}) == '{"a":"\\u003c/script\\u003e\\u003c!-- \\u0026 \\u003e"}'
    assert inline_script('var s = "</SCRIPT>";') == 'var s = "<\\/SCRIPT>";'
    assert "</script" not in asset("echarts.min.js").lower() and "</script" not in asset("report.js").lower()


def test_diff_report_holds_both_runs_metrics() -> None:
    diff, old, new = small_diff()
    page = render_diff_html(diff, old, new)
    assert EVIL not in page
    data = embedded(page)
    assert data["kind"] == "diff"
    assert data["config"]["settings"] == [["default", "root.a", "resources.guaranteed", "", "{memory: 10}"]]
    assert data["run"]["preemptionsAdded"][0][2:5] == ["A/a1", "root.a", "B/b1"]
    assert data["metrics"]["old"]["pods"]["preemptions"] == 0
    assert data["metrics"]["new"]["pods"]["preemptions"] == 1
    assert embedded(render_diff_html(diff))["metrics"] == {"old": None, "new": None}


def test_ten_thousand_pods_stay_under_ten_megabytes() -> None:
    run = large_run()
    page = render_simulation_html(run.trace, run.tree, run.metrics, run.source)
    assert len(run.metrics.pods) >= 10_000
    assert len(page.encode("utf-8")) < 10 * MB
    data = embedded(page)
    assert len(data["pending"]["rows"]["ask"]) == len(run.trace.pending)
    assert {q["path"] for q in data["queues"]} >= set(run.tree.queues)
