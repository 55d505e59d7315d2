"""The JSON trace's events, arrivals and pending asks, written straight to text, equal json.dumps of their dicts."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.trace_reference import reference_json
from yk_cli.commands.simulate import scenario_inputs
from yk_cli.core.ordering.priority import MIN_PRIORITY, PriorityChange
from yk_cli.core.sim.run import SimulationOptions, simulate
from yk_cli.core.sim.trace import Arrival, PendingAsk, Trace, TraceEvent, Victim
from yk_cli.report import trace_json
from yk_cli.report.jsonout import items

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted(p.name for p in (ROOT / "samples/workloads/queues").glob("*.yaml"))


def run(name: str) -> Trace:
    """The dry run of a sample workload on its queue config."""
    queues, workload = f"{ROOT}/samples/workloads/queues/{name}", f"{ROOT}/samples/workloads/{name}"
    inputs = scenario_inputs(queues, workload, None, None, True)
    assert inputs.workload is not None
    return simulate(inputs.partition, inputs.tree, inputs.workload, SimulationOptions())


@pytest.mark.parametrize("name", SAMPLES)
def test_every_sample_run_writes_the_dicts_text(name: str) -> None:
    trace = run(name)
    assert trace_json.render(trace, "src") == reference_json(trace, "src")


def test_the_sample_runs_cover_victims_changes_arrivals_and_node_reasons() -> None:
    """The samples above hold each kind of element, so the comparison there is not vacuous (fractional times are
    in the next test)."""
    seen = set()
    for name in SAMPLES:
        trace = run(name)
        seen |= {"victims" for e in trace.events if e.victims}
        seen |= {"restarted" for e in trace.events for v in e.victims if v.restarted_as}
        seen |= {"changes" for e in trace.events if e.priority_changes}
        seen |= {"arrivals" for _ in trace.arrivals}
        seen |= {"node reasons" for p in trace.pending if p.node_reasons}
    assert seen == {"victims", "restarted", "changes", "arrivals", "node reasons"}


ODD = 'quote " backslash \\ tab \t newline \n control \x01 unicode é 漢 \U0001f600'


def test_odd_values_are_written_as_json_writes_them() -> None:
    """Escapes, non-ASCII, null priorities, MinInt32 changes, empty and unsorted resources, tiny and huge times."""
    change = (PriorityChange(ODD, MIN_PRIORITY, 5), PriorityChange("root.a", -3, MIN_PRIORITY))
    victim = Victim(ODD, "app", "root.a", "n", -7, {"vcore": 1, "memory": 2**70}, ODD)
    events = [
        TraceEvent(1, 1, "allocate", ODD, ODD, ODD, None, ODD, {}, change, (victim, victim), ODD),
        TraceEvent(2, 10**20 + 1, "preempt", "q", "a", "b", -(2**40), "", {"b": 2, "a": -1}, (), (victim,), ""),
        TraceEvent(3, 1_500_000_000, "complete", "q", "a", "b", 0, "n", {"vcore": 0}, (), (), ""),
    ]
    arrivals = [
        Arrival(7, 0, ODD, ODD, ODD, MIN_PRIORITY, {}, change),
        Arrival(10**9, 3, "a", "b", "q", 2, {"x": 1}, ()),
    ]
    pending = [
        PendingAsk(ODD, ODD, ODD, 4, {"z": 1, "y": 0}, "C", ODD, 123),
        PendingAsk("a", "b", "q", MIN_PRIORITY, {}, "C", "r", -(10**9), node_reasons=((ODD, 3), ("fits", 0))),
    ]
    for e in events:
        assert trace_json.event_text(e) == items([trace_json.event_dict(e)], 4)
    for a in arrivals:
        assert trace_json.arrival_text(a) == items([trace_json.arrival_dict(a)], 4)
    for p in pending:
        assert trace_json.pending_text(p) == items([trace_json.pending_dict(p)], 4)
