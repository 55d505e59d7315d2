"""`--format markdown` for `yk tree`, `yk priorities` and `yk explain`; every Mermaid chart yk puts in Markdown comes
in its ```mermaid fence."""

from __future__ import annotations

import re

import pytest

from tests.helpers.golden import check_golden

pytestmark = pytest.mark.usefixtures("in_root")
"""Run from the checkout, so that reports name files by the short relative names of the goldens."""


TENANTS = ("samples/queues/tenants.yaml", "samples/workloads/tenants.yaml")
PREEMPTION = ("samples/workloads/queues/preemption.yaml", "samples/workloads/preemption.yaml")
GUARANTEES = ("samples/workloads/queues/guarantees.yaml", "samples/workloads/guarantees.yaml")
ARRIVALS = ("samples/workloads/queues/arrivals.yaml", "samples/workloads/arrivals.yaml")
FENCE = re.compile(r"```mermaid\n(.*?)\n```\n", re.S)


def ok(run_yk, *args: str) -> str:
    result = run_yk(*args)
    assert (result.exit_code, result.stderr) == (0, ""), result.stderr
    return result.stdout


def unfenced(text: str) -> str:
    """The Markdown with every fenced Mermaid block taken out."""
    return FENCE.sub("", text)


@pytest.mark.parametrize(
    "args",
    [
        ("tree", TENANTS[0], "-f", "markdown"),
        ("tree", TENANTS[0], "-w", TENANTS[1], "-f", "markdown"),
        ("tree", GUARANTEES[0], "-w", GUARANTEES[1], "-f", "markdown", "--set-only"),
        ("simulate", *ARRIVALS, "-f", "markdown"),
        ("simulate", *ARRIVALS, "-f", "markdown", "--timeline", "node"),
        ("priorities", *TENANTS, "-f", "markdown"),
        ("explain", *TENANTS, "a1-p8", "low-p3", "-f", "markdown"),
        ("explain", *PREEMPTION, "report-1", "-f", "markdown"),
    ],
    ids=" ".join,
)
def test_every_mermaid_chart_in_markdown_is_fenced(run_yk, args: tuple[str, ...]) -> None:
    text = ok(run_yk, *args)
    rest = unfenced(text)
    for keyword in ("flowchart TD", "gantt\n", "dateFormat", "classDef"):
        assert keyword not in rest, keyword
    assert text.count("```") % 2 == 0


def test_tree_markdown_holds_the_mermaid_chart_and_the_settings(run_yk) -> None:
    text = ok(run_yk, "tree", TENANTS[0], "-f", "markdown")
    assert text.startswith("## yk tree: partition default\n\n```mermaid\nflowchart TD\n")
    (chart,) = FENCE.findall(text)
    assert chart + "\n" == ok(run_yk, "tree", TENANTS[0], "-f", "mermaid")  # the chart, fenced
    assert (
        "| `root.system.system-high` | priority.offset | 1000 | set here (samples/queues/tenants.yaml:17) |" in text
    )
    assert "Pending, running and priorities" not in text  # no workload, no time
    check_golden("tree_tenants.md", text)


def test_tree_markdown_with_a_workload(run_yk) -> None:
    text = ok(run_yk, "tree", *GUARANTEES[:1], "-w", GUARANTEES[1], "-f", "markdown")
    assert "_Pending, running and priorities at 0s, the start of the run, before any scheduling._" in text
    assert "### What each queue holds" in text
    assert "| `root.dev.ci` | n/a | 0 ({}) | 3 ({memory: 4Gi, vcore: 3}) | 1 | over guarantee · over max |" in text
    set_only = ok(run_yk, "tree", GUARANTEES[0], "--set-only", "-f", "markdown")
    assert "### Settings set in the file" in set_only
    assert "| default |" not in set_only


def test_priorities_markdown_golden(run_yk) -> None:
    check_golden("priorities_tenants.md", ok(run_yk, "priorities", *TENANTS, "-f", "markdown"))


def test_explain_markdown(run_yk) -> None:
    text = ok(run_yk, "explain", *TENANTS, "a1-p8", "low-p3", "-f", "markdown")
    assert text.startswith(
        "## yk explain: samples/queues/tenants.yaml + samples/workloads/tenants.yaml; partition default\n\n"
        "**a1-p8 goes first: at root, queue root.tenants sorts before root.system on priority: 0 vs -997 (higher "
        "first).**\n"
    )
    assert "| priority | 0 | -997 | **first difference** |" in text
    assert "| tenant-a | 10 | priority.policy fence: root.tenants.tenant-a shows only its offset 10 |" in text
    check_golden("explain_tenants.md", text)
    story = ok(run_yk, "explain", *PREEMPTION, "report-1", "-f", "markdown")
    assert "**dashboards/report-1 (root.batch.reports) was never preempted; 3 preemption tries looked at it.**" in (
        story
    )
    assert "### Tries that looked at it as a victim\n\n- at 0s, before any step, for api/api-3 (P1000)" in story


@pytest.mark.parametrize(
    ("command", "formats"),
    [
        (("tree", TENANTS[0]), "text, json, markdown, mermaid"),
        (("priorities", *TENANTS), "text, json, markdown"),
        (("explain", *TENANTS, "a1-p8", "low-p3"), "text, json, markdown"),
    ],
)
def test_an_unknown_format_lists_the_formats(run_yk, command: tuple[str, ...], formats: str) -> None:
    result = run_yk(*command, "-f", "html")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"yk: error: unknown format 'html'; choose one of {formats}\n"
