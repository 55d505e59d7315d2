"""`yk priorities --at TIME` and `yk tree -w --at TIME`: the state at a stated virtual time (default 0s, the start of
the run, before any scheduling), asks that arrive later listed apart, in every format; and the property that the
priorities shown are those `yk simulate` schedules with at that time."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_program
from yk_cli.core.analysis.snapshot import TIMER_STEPS, _at_start, _from_run, state_at
from yk_cli.core.config.queues import build_queue_tree
from yk_cli.core.ordering.priority import MIN_PRIORITY
from yk_cli.core.sim.run import simulate
from yk_cli.core.sim.trace import Arrival, TraceEvent

pytestmark = pytest.mark.usefixtures("in_root")
"""Run from the checkout, so that reports name files by the short relative names of the goldens."""

ARRIVALS = ("samples/workloads/queues/arrivals.yaml", "samples/workloads/arrivals.yaml")
TENANTS = ("samples/queues/tenants.yaml", "samples/workloads/tenants.yaml")
GANG = ("samples/workloads/queues/spark-gang.yaml", "samples/workloads/spark-gang.yaml")
START = "at 0s, the start of the run, before any scheduling"
LATER_TABLE = (
    "Not yet arrived at 0s: 3 asks (first at 1m30s)\n"
    "  APPLICATION/ASK     QUEUE                PRIORITY  ARRIVES\n"
    "  web/web-1           root.tenants.team-a  P100      1m30s\n"
    "  reports/render      root.tenants.team-b  P10       3m0s\n"
    "  reports/render-all  root.tenants.team-b  P10       4m0s\n"
)


def ok(run_yk, *args: str) -> str:
    result = run_yk(*args)
    assert (result.exit_code, result.stderr) == (0, ""), result.stderr
    return result.stdout


def priorities(run_yk, *args: str) -> dict[str, int | None]:
    data = json.loads(ok(run_yk, "priorities", *args, "-f", "json"))
    return {q["queuePath"]: q["currentPriority"] for q in data["queues"]}


# --- the case ---------------------------------------------------------------------------------------------


def test_asks_that_have_not_arrived_do_not_count(run_yk) -> None:
    """web-1 arrives at 1m30s: at the start team-a has nothing pending (yk simulate reaches 100 only at 1m30s)."""
    text = ok(run_yk, "priorities", *ARRIVALS)
    assert text == (
        f"Queue priorities in partition default {START} (n/a: nothing pending)\n"
        "\n"
        "QUEUE       PRIORITY  OFFSET  FENCE  SORTS BY\n"
        "root             n/a       0         priority, then fairness\n"
        "  tenants        n/a       0         priority, then fairness\n"
        "    team-a       n/a       0         priority, then fifo\n"
        "    team-b       n/a       0         priority, then fifo\n"
        "  batch          n/a       0         priority, then fifo\n"
        "\n" + LATER_TABLE + "\n"
        "No pending asks at 0s.\n"
    )


def test_at_a_later_time(run_yk) -> None:
    assert priorities(run_yk, *ARRIVALS, "--at", "1m30s")["root.tenants.team-a"] == 100
    assert priorities(run_yk, *ARRIVALS, "--at", "89s")["root.tenants.team-a"] is None
    text = ok(run_yk, "priorities", *ARRIVALS, "--at", "3m")
    assert text.startswith(
        "Queue priorities in partition default at 3m0s of the dry run, after step 2, before it schedules at 3m0s "
        "(n/a: nothing pending)\n"
    )
    assert "Not yet arrived at 3m0s: 1 ask (first at 4m0s)\n  APPLICATION/ASK" in text
    assert "\nask render · application reports · root.tenants.team-b · effective priority 10\n" in text
    assert "web-1" not in text  # allocated at 2m0s: running, not pending
    assert priorities(run_yk, *ARRIVALS, "--at", "3m") == {
        "root": 10,
        "root.tenants": 10,
        "root.tenants.team-a": None,
        "root.tenants.team-b": 10,
        "root.batch": None,
    }
    late = ok(run_yk, "priorities", *ARRIVALS, "--at", "2h")  # after the run's end: its last state
    assert "at 2h0m0s of the dry run, after step 4" in late and "Not yet arrived" not in late


def test_the_json_states_the_time_and_the_asks_apart(run_yk) -> None:
    data = json.loads(ok(run_yk, "priorities", *ARRIVALS, "-f", "json"))
    assert data["at"] == {"time": 0, "duration": "0s", "afterStep": 0, "description": START}
    assert data["asks"] == []
    assert data["notPending"] == [
        {
            "application": "web",
            "ask": "web-1",
            "queuePath": "root.tenants.team-a",
            "priority": 100,
            "why": "not-arrived",
            "arrival": 90,
        },
        {
            "application": "reports",
            "ask": "render",
            "queuePath": "root.tenants.team-b",
            "priority": 10,
            "why": "not-arrived",
            "arrival": 180,
        },
        {
            "application": "reports",
            "ask": "render-all",
            "queuePath": "root.tenants.team-b",
            "priority": 10,
            "why": "not-arrived",
            "arrival": 240,
        },
    ]
    assert list(data) == ["partition", "at", "notModelled", "queues", "asks", "notPending", "rejected"]
    later = json.loads(ok(run_yk, "priorities", *ARRIVALS, "-f", "json", "--at", "1m30s"))
    assert later["at"]["description"] == "at 1m30s of the dry run, before its first step"
    assert [a["ask"] for a in later["asks"]] == ["web-1"]


def test_markdown_states_the_time(run_yk) -> None:
    text = ok(run_yk, "priorities", *ARRIVALS, "-f", "markdown")
    assert text.startswith(f"## yk priorities: partition default {START}\n")
    assert (
        "### Not yet arrived at 0s: 3 asks (first at 1m30s)\n\n"
        "| Application | Ask | Queue | Priority | Arrives |\n"
        "|---|---|---|---:|---|\n"
        "| web | web-1 | `root.tenants.team-a` | P100 | 1m30s |\n"
    ) in text
    assert text.endswith("### Pending asks at 0s\n\nNo pending asks at 0s.\n")
    tenants = ok(run_yk, "priorities", *TENANTS, "-f", "markdown")
    assert "| `root.system.system-high` | 1001 | 1000 |   | priority, then fifo |" in tenants
    assert "**ask a1-p8** · application child-a-1 · `root.tenants.tenant-a.child-a-1` · effective priority **0**" in (
        tenants
    )


# --- yk tree -w --------------------------------------------------------------------------------------------------


def test_tree_counts_only_what_is_there_at_the_time(run_yk) -> None:
    text = ok(run_yk, "tree", ARRIVALS[0], "-w", ARRIVALS[1])
    lines = text.splitlines()
    assert lines[0] == f"Pending, running and priorities {START}"
    assert "│   ├── team-a  leaf · priority n/a · under guarantee" in lines
    assert "│   │     pending 0 asks {} · running 0 allocations {} · 1 application" in lines
    assert "      pending 0 asks {} · running 4 allocations {memory: 64Gi, vcore: 16} · 1 application" in lines
    assert text.endswith("\n\n" + LATER_TABLE)
    later = ok(run_yk, "tree", ARRIVALS[0], "-w", ARRIVALS[1], "--at", "3m").splitlines()
    assert "│   └── team-b  leaf · priority 10 · no guarantee" in later
    assert "│   │     pending 0 asks {} · running 1 allocation {memory: 8Gi, vcore: 2} · 1 application" in later
    assert "      pending 0 asks {} · running 3 allocations {memory: 48Gi, vcore: 12} · 1 application" in later


def test_tree_json_mermaid_and_markdown_state_the_time(run_yk) -> None:
    data = json.loads(ok(run_yk, "tree", ARRIVALS[0], "-w", ARRIVALS[1], "-f", "json", "--at", "90s"))
    assert data["at"]["description"] == "at 1m30s of the dry run, before its first step"
    assert [(a["ask"], a["why"], a["arrival"]) for a in data["notPending"]] == [
        ("render", "not-arrived", 180),
        ("render-all", "not-arrived", 240),
    ]
    team_a = data["children"][0]["children"][0]
    assert (team_a["queuename"], team_a["currentPriority"], team_a["pendingAsks"]) == ("root.tenants.team-a", 100, 1)
    assert "at" not in json.loads(ok(run_yk, "tree", ARRIVALS[0], "-f", "json"))  # no workload, no time
    mermaid = ok(run_yk, "tree", ARRIVALS[0], "-w", ARRIVALS[1], "-f", "mermaid")
    assert mermaid.startswith("flowchart TD\n")
    assert (
        '    when["<b>At 0s, the start of the run, before any scheduling</b><br/>Not yet arrived at 0s: 3 asks (first '
        "at 1m30s)<br/>web/web-1 (root.tenants.team-a, P100) at 1m30s<br/>"
    ) in mermaid
    markdown = ok(run_yk, "tree", ARRIVALS[0], "-w", ARRIVALS[1], "-f", "markdown")
    assert markdown.startswith(
        f"## yk tree: partition default\n\n_Pending, running and priorities {START}._\n\n```mermaid\nflowchart TD\n"
    )
    assert "### Not yet arrived at 0s: 3 asks (first at 1m30s)" in markdown


def test_gang_pods_are_held_and_their_placeholders_pending(run_yk) -> None:
    text = ok(run_yk, "priorities", *GANG)
    assert "Held by the shim at 0s: 5 asks (a gang's pods wait for their placeholders, or the gang failed)" in text
    assert (
        "ask tg-spark-etl-driver-0 (placeholder of task group driver) · application spark-etl · root.spark · "
        "effective priority 10\n"
        "  ask                  10  placeholder of task group driver: 10, the priority of its application's "
        "originator pod (0 without one)\n"
    ) in text


# --- usage ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["soon", "-5s", "10", ""])
def test_a_bad_time_is_a_usage_error(run_yk, value: str) -> None:
    for command in (("priorities", *ARRIVALS), ("tree", ARRIVALS[0], "-w", ARRIVALS[1])):
        result = run_yk(*command, "--at", value)
        assert result.exit_code == 2 and result.stdout == ""
        assert result.stderr == (
            f"yk: error: --at {value!r} is not a duration from the start of the run (e.g. 0s, 90s, 5m, 1h30m)\n"
        )


def test_tree_at_needs_a_workload(run_yk) -> None:
    result = run_yk("tree", ARRIVALS[0], "--at", "5m")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "yk: error: --at needs a workload (--workload W, --cluster DUMP or --state FILE): it is the time of its dry "
        "run\n"
    )


@pytest.mark.parametrize(
    "args",
    [
        ("priorities", *ARRIVALS, "--at", "3m"),
        ("priorities", *ARRIVALS, "--at", "3m", "-f", "markdown"),
        ("tree", ARRIVALS[0], "-w", ARRIVALS[1], "--at", "3m", "-f", "json"),
    ],
)
def test_the_program_prints_what_the_command_prints(run_yk, args: tuple[str, ...]) -> None:
    """The fast path (no typer) takes --at as typer does."""
    assert run_program(*args) == (0, ok(run_yk, *args), "")


# --- the property: the priorities are the simulation's own ---------------------------------------------------------


def _pairs() -> list[tuple[str, str]]:
    pairs = [TENANTS]
    for config in sorted((ROOT / "samples/workloads/queues").glob("*.yaml")):
        workload = ROOT / "samples/workloads" / config.name
        if workload.exists():
            pairs.append((f"samples/workloads/queues/{config.name}", f"samples/workloads/{config.name}"))
    return pairs


def _inputs(config: str, workload: str):  # type: ignore[no-untyped-def]
    from yk_cli.commands.inputs import checked_inputs

    with contextlib.redirect_stderr(io.StringIO()):
        return checked_inputs(config, workload, None, None, True, place=True)


def _queues(snapshot) -> dict[str, int]:  # type: ignore[no-untyped-def]
    return {path: snapshot.cache.queue_priority(path) for path in snapshot.cache.queues if path != "root"}


def _rows(events: tuple[TraceEvent, ...], arrivals: tuple[Arrival, ...]) -> list[TraceEvent | Arrival]:
    out: list[TraceEvent | Arrival] = []
    pending = list(arrivals)
    for event in events:
        while pending and pending[0].after_step < event.step:
            out.append(pending.pop(0))
        out.append(event)
    return out + pending


@pytest.mark.parametrize(("config", "workload"), _pairs(), ids=lambda p: Path(p).stem)
def test_each_step_starts_from_the_priorities_shown_at_its_time(config: str, workload: str) -> None:
    """At the time of every scheduling step, the queue priorities the step changes start from what `--at` shows."""
    inputs = _inputs(config, workload)
    trace = simulate(inputs.partition, build_queue_tree(inputs.partition), inputs.workload)
    seen: set[int] = set()
    for event in trace.events:
        if event.type in TIMER_STEPS or event.time in seen:
            continue
        seen.add(event.time)
        snapshot = state_at(inputs.partition, inputs.tree, inputs.workload, inputs.placed, event.time)
        for change in event.priority_changes:
            assert snapshot.cache.queue_priority(change.queue_path) == change.old, (event, change)


def _generated(tmp_path: Path, seed: int) -> tuple[str, str]:
    from yk_cli.core.workload.generate import GenerateOptions, generate
    from yk_cli.report.generate_yaml import config_yaml, workload_yaml

    made = generate(GenerateOptions(nodes=6, queues=5, apps=12, asks=60, seed=seed, running=0.3))
    config, workload = tmp_path / "queues.yaml", tmp_path / "workload.yaml"
    config.write_text(config_yaml(made.config), encoding="utf-8")
    workload.write_text(workload_yaml(made.workload), encoding="utf-8")
    return str(config), str(workload)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_time_agrees_with_the_trace_replayed(tmp_path: Path, seed: int) -> None:
    """From the priorities at 0s, the trace's own priority changes (steps and arrivals, in order) give, at the time of
    every scheduling step, exactly the priorities `--at` shows then (root aside: the trace never lists it)."""
    inputs = _inputs(*_generated(tmp_path, seed))
    trace = simulate(inputs.partition, build_queue_tree(inputs.partition), inputs.workload)
    assert not any(v.restarted_as for e in trace.events for v in e.victims)  # (their asks' changes are not listed)
    current = _queues(state_at(inputs.partition, inputs.tree, inputs.workload, inputs.placed, 0))
    checked: set[int] = {0}
    for item in _rows(trace.events, trace.arrivals):
        if isinstance(item, TraceEvent) and item.type not in TIMER_STEPS and item.time not in checked:
            checked.add(item.time)
            shown = _queues(state_at(inputs.partition, inputs.tree, inputs.workload, inputs.placed, item.time))
            assert shown == current, item.time
        for change in item.priority_changes:
            if change.queue_path != "root":
                current[change.queue_path] = change.new
    assert len(checked) > 10


@pytest.mark.parametrize(("config", "workload"), _pairs(), ids=lambda p: Path(p).stem)
def test_the_start_read_from_the_workload_is_the_dry_runs(config: str, workload: str) -> None:
    """Without gangs, the state at 0s is read from the workload; the dry run halted at 0s gives the same."""
    inputs = _inputs(config, workload)
    if any(app.task_groups for app in inputs.workload.applications):
        pytest.skip("gangs: the state at 0s always comes from the dry run")
    read, run = _at_start(inputs.tree, inputs.placed), _from_run(inputs.partition, inputs.tree, inputs.workload, 0, "")
    assert _queues(read) == _queues(run)
    assert [(a.id, [k.name for k in a.asks], len(a.allocations)) for a, _ in read.placed] == [
        (a.id, [k.name for k in a.asks], len(a.allocations)) for a, _ in run.placed
    ]
    assert [(a.ask.name, a.why, a.arrival) for a in read.absent] == [(a.ask.name, a.why, a.arrival) for a in run.absent]


def test_nothing_pending_is_n_a() -> None:
    inputs = _inputs(*ARRIVALS)
    snapshot = state_at(inputs.partition, inputs.tree, inputs.workload, inputs.placed, 0)
    assert snapshot.cache.queue_priority("root") == MIN_PRIORITY
    assert [a.ask.name for a in snapshot.later] == ["web-1", "render", "render-all"]


# --- the documentation's examples ---------------------------------------------------------------------------------


def _console(path: Path, command: str) -> tuple[list[str], list[str]]:
    """The command line and the shown lines (up to a `...`) of the console block that starts with `$ command`."""
    text = path.read_text(encoding="utf-8")
    block = text.split(f"$ {command}\n", 1)[1].split("```", 1)[0]
    shown = block.split("\n...", 1)[0].rstrip("\n").splitlines()
    return command.split()[1:], shown


@pytest.mark.parametrize(
    ("doc", "command"),
    [
        ("docs/workload-tree-priorities.md", f"yk priorities {' '.join(ARRIVALS)} --at 3m"),
        ("README.md", f"yk priorities {' '.join(TENANTS)}"),
        ("docs/workload-tree-priorities.md", f"yk priorities {' '.join(ARRIVALS)}"),
    ],
)
def test_the_documented_examples_reproduce(run_yk, doc: str, command: str) -> None:
    args, shown = _console(ROOT / doc, command)
    out = ok(run_yk, *args).splitlines()
    assert out[: len(shown)] == shown
