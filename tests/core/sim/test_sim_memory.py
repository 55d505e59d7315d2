"""The dry run's preemption tries leave no cyclic garbage behind: the run has the garbage collector off, so every
reference cycle a try created would keep the try's working state in memory until the run ends (issue 13)."""

from __future__ import annotations

import gc
from collections import Counter

from benchmarks.simulate import SIZES, preempt_texts
from tests.helpers.scenarios import scenario
from yk_cli.core.sim.run import SimulationOptions, simulate


def test_preemption_tries_leave_no_reference_cycles() -> None:
    partition, tree, workload = scenario(*preempt_texts(SIZES["preempt-100"]))
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        trace = simulate(partition, tree, workload, SimulationOptions())
        gc.collect()
        kinds = Counter(type(item).__name__ for item in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if enabled:
            gc.enable()
    assert len(trace.attempts) == 500  # every one of the 500 asks tried to preempt
    assert trace.summary.preemptions == 160
    # what is left is the run's own state (asks, applications, nodes, allocations), freed once the run is over
    assert not {"Attempt", "Snapshot", "generator"} & set(kinds), kinds
    assert kinds["AskState"] == 500
