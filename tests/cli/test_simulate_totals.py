"""Filters never change what `yk simulate` counts: the totals per queue (text, Markdown, JSON `queueTotals`) are the
whole run's with --pending-only, --app or --queue too (--queue only lists fewer queues, and says its total is theirs);
and the --timeline axis ends where the run ended."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

from yk_cli.core.analysis.trace_view import in_subtree

pytestmark = pytest.mark.usefixtures("in_root")
"""Run from the checkout, so that reports name files by the short relative names of the goldens."""

ARRIVALS = ("samples/workloads/queues/arrivals.yaml", "samples/workloads/arrivals.yaml")
PREEMPTION = ("samples/workloads/queues/preemption.yaml", "samples/workloads/preemption.yaml")
NAMESPACES = ("samples/workloads/queues/namespaces.yaml", "samples/workloads/namespaces.yaml")


def ok(run_yk, *args: str) -> str:
    result = run_yk("simulate", *args)
    assert (result.exit_code, result.stderr) == (0, ""), result.stderr
    return result.stdout


def totals(run_yk, *args: str) -> list[dict[str, Any]]:
    return json.loads(ok(run_yk, *args, "-f", "json", "-q"))["queueTotals"]


def test_pending_only_keeps_the_summary_table(run_yk) -> None:
    """The issue's case: team-b was `ALLOCATED 0 ... ARRIVED 0` with --pending-only against `1 ... 2` without."""
    table = (
        "QUEUE                ALLOCATED  PENDING  PREEMPTED  COMPLETED  ARRIVED\n"
        "root.tenants.team-a          1        0          0          0        1\n"
        "root.tenants.team-b          1        1          0          0        2\n"
        "root.batch                   0        0          1          1        0\n"
        "total                        2        1          1          1        3\n"
    )
    assert ok(run_yk, *ARRIVALS, "--summary").endswith("\n\n" + table)
    assert ok(run_yk, *ARRIVALS, "--summary", "--pending-only").endswith(
        "\n\nTotals per queue over the whole run (filters choose what is shown, never what is counted):\n" + table
    )
    assert totals(run_yk, *ARRIVALS, "--summary", "--pending-only") == totals(run_yk, *ARRIVALS, "--summary")
    assert totals(run_yk, *ARRIVALS, "--pending-only")[1] == {
        "queuePath": "root.tenants.team-b",
        "allocated": 1,
        "pending": 1,
        "preempted": 0,
        "completed": 0,
        "arrived": 2,
    }


def test_markdown_says_the_totals_are_the_runs(run_yk) -> None:
    text = ok(run_yk, *ARRIVALS, "--summary", "--app", "web", "-f", "markdown")
    assert text.endswith(
        "### By queue\n\n"
        "_Totals per queue over the whole run (filters choose what is shown, never what is counted)._\n\n"
        "| Queue | Allocated | Pending | Preempted | Completed | Arrived |\n"
        "|---|---:|---:|---:|---:|---:|\n"
        "| `root.tenants.team-a` | 1 | 0 | 0 | 0 | 1 |\n"
        "| `root.tenants.team-b` | 1 | 1 | 0 | 0 | 2 |\n"
        "| `root.batch` | 0 | 0 | 1 | 1 | 0 |\n"
        "| total | 2 | 1 | 1 | 1 | 3 |\n"
    )


FILTERS: list[tuple[str, ...]] = [
    (),
    ("--pending-only",),
    ("--summary",),
    ("--app", "{1}"),
    ("--app", "{2}", "--app", "{1}", "--pending-only"),
    ("--queue", "{q}"),
    ("--queue", "{q}", "--pending-only"),
    ("--queue", "{q}", "--app", "{2}", "--summary"),
]
SAMPLES = {
    "arrivals": (ARRIVALS, {"1": "nightly", "2": "web", "q": "root.tenants"}),
    "preemption": (PREEMPTION, {"1": "nightly-etl", "2": "api", "q": "root.batch"}),
}


@pytest.mark.parametrize("name", list(SAMPLES))
@pytest.mark.parametrize("chosen", FILTERS, ids=[" ".join(f) or "none" for f in FILTERS])
def test_no_filter_changes_a_count(run_yk, name: str, chosen: tuple[str, ...]) -> None:
    """Every filter gives the whole run's totals, of every queue or (with --queue) of the queues it keeps."""
    sample, names = SAMPLES[name]
    args = tuple(names.get(arg.strip("{}"), arg) if arg.startswith("{") else arg for arg in chosen)
    whole = totals(run_yk, *sample)
    queues = tuple(args[i + 1] for i, flag in enumerate(args) if flag == "--queue")
    kept = [t for t in whole if in_subtree(t["queuePath"], queues)]
    assert kept
    assert totals(run_yk, *sample, *args) == kept


def test_the_whole_run_totals_add_up_to_the_summary(run_yk) -> None:
    for sample in (ARRIVALS, PREEMPTION, NAMESPACES):
        data = json.loads(ok(run_yk, *sample, "-f", "json", "-q"))
        summary, rows = data["summary"], data["queueTotals"]
        assert sum(t["pending"] for t in rows) == summary["pending"]
        assert sum(t["completed"] for t in rows) == summary["completions"]
        assert sum(t["preempted"] for t in rows) == summary["preemptions"]
        assert sum(t["arrived"] for t in rows) == len(data["arrivals"])


def test_a_queue_filter_labels_its_total(run_yk) -> None:
    text = ok(run_yk, *ARRIVALS, "--summary", "--queue", "root.tenants")
    assert text.endswith(
        "Totals per queue over the whole run, for queue root.tenants and below (filters choose what is shown, never "
        "what is counted):\n"
        "QUEUE                  ALLOCATED  PENDING  PREEMPTED  COMPLETED  ARRIVED\n"
        "root.tenants.team-a            1        0          0          0        1\n"
        "root.tenants.team-b            1        1          0          0        2\n"
        "total of these queues          2        1          0          0        3\n"
    )


# --- the timeline's axis ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("by", ["queue", "node"])
def test_the_timeline_axis_ends_at_the_runs_end(run_yk, by: str) -> None:
    lines = ok(run_yk, *ARRIVALS, "--timeline", by).splitlines()
    assert lines[2] == f"Timeline by {by} (virtual clock, 0s to 5m0s):"
    labels = next(line for line in lines if line.strip().startswith("0s "))
    assert labels.split() == ["0s", "2m30s", "5m0s"]
    assert lines[-1].endswith("4 steps in 5m0s (nothing left to do)")


def test_a_run_at_0s_has_one_tick(run_yk) -> None:
    lines = ok(run_yk, "--timeline").splitlines()
    assert lines[2] == "Timeline by queue (virtual clock, every step at 0s):"
    axis = next(i for i, line in enumerate(lines) if "└" in line)
    assert lines[axis].count("┬") == 1
    assert lines[axis + 1].strip() == "0s"


def test_the_gantt_ends_at_the_runs_end(run_yk) -> None:
    """Bars still running at the end stop at 00:05:00 (the run ended at 5m0s; it was drawn to 00:05:30); only one that
    starts as the run ends is one second long, Mermaid's shortest bar."""
    text = ok(run_yk, *ARRIVALS, "-f", "markdown")
    gantt = text.split("```mermaid\n")[1].split("```")[0].splitlines()
    assert "    web-1 :active, 00:02:00, 00:05:00" in gantt
    assert "    render :active, 00:05:00, 00:05:01" in gantt


def test_every_filter_combination_runs(run_yk) -> None:
    flags = ("--pending-only", "--summary")
    for n in range(len(flags) + 1):
        for combo in itertools.combinations(flags, n):
            assert ok(run_yk, *ARRIVALS, *combo)
