"""Dry runs and imports with a progress bar on standard error when they take over about a second, only when it is a
terminal (never in a pipe, under CI or TERM=dumb)."""

from __future__ import annotations

import gc
import os
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from yk_cli.core.config.model import PartitionConfig
    from yk_cli.core.config.placement import Placement
    from yk_cli.core.config.queues import QueueTree
    from yk_cli.core.sim.run import SimulationOptions
    from yk_cli.core.sim.trace import Trace
    from yk_cli.core.workload.model import Workload

DELAY = 1.0
"""Seconds a run may take before the bar appears."""


def wanted() -> bool:
    """A bar only on a terminal (never in pipes or CI logs), and not under TERM=dumb."""
    if os.environ.get("TERM") == "dumb" or os.environ.get("CI"):
        return False
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


@contextmanager
def progress(label: str, total: int, read: Callable[[], tuple[int, str]]) -> Iterator[None]:
    """While the block runs: after DELAY seconds, a transient Rich bar on stderr fed by read() -> (done, detail)."""
    if not wanted():
        yield
        return
    stop = threading.Event()

    def show() -> None:
        if stop.wait(DELAY):
            return
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        columns = (
            TextColumn("{task.description}"),
            BarColumn(),
            TextColumn("{task.fields[detail]}"),
            TimeElapsedColumn(),
        )
        with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task(label, total=max(total, 1), detail="")
            while not stop.wait(0.2):
                done, detail = read()
                bar.update(task, completed=min(done, total), detail=detail)

    thread = threading.Thread(target=show, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def dry_run(
    partition: PartitionConfig,
    tree: QueueTree,
    workload: Workload,
    options: SimulationOptions,
    label: str,
    placed: Mapping[str, Placement] | None = None,
) -> Trace:
    """core.sim.run.simulate with a progress bar (allocations so far of the workload's asks, and the virtual clock);
    placed: the applications' placements on this tree, when the inputs have them (Inputs.placements)."""
    from yk_cli.core.sim.run import Simulation
    from yk_cli.core.sim.trace import ALLOCATE
    from yk_cli.report.trace_common import when

    total = sum(len(app.asks) for app in workload.applications)
    enabled = gc.isenabled()
    gc.disable()  # as simulate() does: the run builds long-lived objects and no short cycles
    try:
        sim = Simulation(partition, tree, workload, options, placed)

        seen = [0, 0]  # events looked at, allocations among them

        def read() -> tuple[int, str]:
            events = sim.events
            upto = len(events)
            seen[1] += sum(1 for e in events[seen[0] : upto] if e.type == ALLOCATE)
            seen[0] = upto
            return seen[1], f"{upto:,} steps, clock {when(sim.state.now)}"

        with progress(label, total, read):
            return sim.run()
    finally:
        if enabled:
            gc.enable()
