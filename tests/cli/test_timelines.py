"""`yk simulate --starts`, `--timeline` (text) and the Mermaid gantt of `--format markdown`."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.mermaid_gantt import blocks, check
from tests.conftest import ROOT
from yk_cli.commands import progress

pytestmark = pytest.mark.usefixtures("in_root")
"""Run from the checkout, so that reports name files by the short relative names of the goldens."""

ARRIVALS = ("samples/workloads/queues/arrivals.yaml", "samples/workloads/arrivals.yaml")


def ok(run_yk, *args: str) -> str:
    result = run_yk("simulate", *args)
    assert (result.exit_code, result.stderr) == (0, "")
    return result.stdout


def test_starts_table(run_yk) -> None:
    assert ok(run_yk, *ARRIVALS, "--starts") == (
        "yk simulate: samples/workloads/queues/arrivals.yaml + samples/workloads/arrivals.yaml; partition default: "
        "2 nodes, 3 applications, 3 asks\n\n"
        "APPLICATION/ASK     QUEUE                PRIORITY  SUBMIT  START  WAIT  NODE (REASON)\n"
        "web/web-1           root.tenants.team-a  P100      1m30s   2m0s   30s   node-1\n"
        "reports/render      root.tenants.team-b  P10       3m0s    5m0s   2m0s  node-2\n"
        "reports/render-all  root.tenants.team-b  P10       4m0s    never  -     (cluster-full: the cluster is full: "
        "{memory: 56Gi, vcore: 14} of {memory: 64Gi, vcore: 16} in use, the ask needs {memory: 16Gi, vcore: 4}; no "
        "preemption: no guarantee on root.tenants.team-b or its parents)\n\n"
        "Summary: 2 allocations, 1 completion, 1 reservation, 1 preemption, 1 pending; 4 steps in 5m0s (nothing left "
        "to do)\n"
    )


def test_starts_markdown_and_usage(run_yk) -> None:
    text = ok(run_yk, *ARRIVALS, "--starts", "-f", "markdown")
    assert "| web/web-1 | `root.tenants.team-a` | P100 | 1m30s | 2m0s | 30s | node-1 |" in text
    result = run_yk("simulate", *ARRIVALS, "--starts", "-f", "json")
    assert result.exit_code == 2 and "--starts is a text or markdown table" in result.stderr
    result = run_yk("simulate", *ARRIVALS, "--starts", "--timeline")
    assert result.exit_code == 2 and "not both" in result.stderr
    result = run_yk("simulate", *ARRIVALS, "--timeline", "pod")
    assert result.exit_code != 0


def test_timeline_text(run_yk) -> None:
    text = ok(run_yk, *ARRIVALS, "--timeline")
    lines = text.splitlines()
    assert lines[2] == "Timeline by queue (virtual clock, 0s to 5m0s):"  # the run's end, not past it
    rows = {line.split("│")[0].strip(): line.split("│")[1] for line in lines[3:6]}
    assert set(rows) == {"root.batch", "root.tenants.team-a", "root.tenants.team-b"}
    width = len(rows["root.batch"])
    assert all(len(cells) == width for cells in rows.values())
    assert rows["root.batch"].count("✕") == 1  # etl-2 preempted at 2m
    assert rows["root.tenants.team-a"].startswith(" ") and rows["root.tenants.team-a"].rstrip().endswith("█")
    assert rows["root.tenants.team-b"] == " " * (width - 1) + "█"  # render starts at 5m0s, as the run ends
    assert lines[-1].startswith("Summary: 2 allocations")
    assert "\x1b[" not in text  # plain characters off a terminal
    by_node = ok(run_yk, *ARRIVALS, "--timeline", "node")
    assert "Timeline by node" in by_node and "  node-1 │" in by_node
    assert ok(run_yk, "--timeline", *ARRIVALS) == text  # --timeline alone, before the files


def _markdown_inputs() -> list[tuple[str, str]]:
    pairs = [
        (str(Path("samples/workloads/queues") / p.name), str(Path("samples/workloads") / p.name))
        for p in sorted((ROOT / "samples/workloads/queues").glob("*.yaml"))
        if (ROOT / "samples/workloads" / p.name).exists()
    ]
    return [("samples/queues/tenants.yaml", "samples/workloads/tenants.yaml"), *pairs]


@pytest.mark.parametrize(("config", "workload"), _markdown_inputs())
@pytest.mark.parametrize("by", ["queue", "node"])
def test_every_sample_gantt_parses(run_yk, config: str, workload: str, by: str) -> None:
    result = run_yk("simulate", config, workload, "-f", "markdown", "--timeline", by, "-q")
    assert result.exit_code == 0, result.stderr
    found = blocks(result.stdout)
    if "| Step |" in result.stdout:
        assert len(found) == 1
        sections = check(found[0])
        assert sum(len(tasks) for tasks in sections.values()) >= 1


def test_gantt_rejects_what_mermaid_would_misread() -> None:
    good = ["gantt", "    dateFormat HH:mm:ss", "    section root.a", "    a-1 :done, 00:00:00, 00:01:00"]
    check(good)
    for bad in (
        "    a:1 :00:00:00, 00:01:00",
        "    a-1 :00:01:00, 00:00:00",
        "    a-1 :00:00:00",
        "    a#1 :00:00:00, 1s",
    ):
        with pytest.raises(AssertionError):
            check([*good[:3], bad])


def test_no_progress_bar_off_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    assert progress.wanted() is False
    with progress.progress("x", 10, lambda: (1, "")):
        pass
    assert capsys.readouterr().err == ""


PROGRESS_SCRIPT = """
import time
from yk_cli.commands import progress
progress.DELAY = 0.1
done = [0]
def read():
    done[0] += 3
    return done[0], "clock 1m0s"
with progress.progress("dry run", 10, read):
    time.sleep(1.0)
"""


def _on_a_terminal(env: dict[str, str]) -> str:
    """Run PROGRESS_SCRIPT with its standard error on a pseudo-terminal: what reached the terminal."""
    import os
    import pty
    import subprocess
    import sys

    leader, follower = pty.openpty()
    done = subprocess.run(
        [sys.executable, "-c", PROGRESS_SCRIPT], stderr=follower, stdout=subprocess.DEVNULL, cwd=ROOT,
        env=env, timeout=60, check=True,
    )
    os.close(follower)
    assert done.returncode == 0
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal is closed once everything is read
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    return b"".join(chunks).decode("utf-8", "replace")


def test_a_progress_bar_on_a_terminal_and_none_under_ci() -> None:
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("CI", "GITHUB_ACTIONS")}
    env.update({"TERM": "xterm-256color", "COLUMNS": "100"})
    shown = _on_a_terminal(env)
    assert "dry run" in shown and "clock 1m0s" in shown and "━" in shown
    assert _on_a_terminal({**env, "CI": "true"}) == ""
    assert _on_a_terminal({**env, "TERM": "dumb"}) == ""
