"""A finished dry run kept for a test to inspect: the trace it returned and the engine's state at the end.

(The engine's classes are native classes once mypyc compiles them: a test cannot hang new attributes on them.)
"""

from __future__ import annotations

from dataclasses import dataclass

from yk_cli.core.sim.build import RunState
from yk_cli.core.sim.run import Simulation
from yk_cli.core.sim.trace import Trace


@dataclass(frozen=True)
class FinishedRun:
    """What Simulation.run() returned, with the simulation it ran."""

    sim: Simulation
    trace_result: Trace

    @property
    def state(self) -> RunState:
        return self.sim.state


def finish(sim: Simulation) -> FinishedRun:
    """Run the simulation to its end."""
    return FinishedRun(sim, sim.run())
