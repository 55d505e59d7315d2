"""Application backoff in the dry run (yk_cli/core/sim/backoff.py, the core's Application.tryAllocate backoff).

* golden traces (tests/data/backoff/<case>; UPDATE_GOLDEN=1 rewrites);
* the counting rules of tryAllocate: what counts as unschedulable, the check before each request, the deadline
  chain on the virtual clock, the reservation pass ignoring backoff, the pending reason and its config line;
* hypothesis: no application is allocated, reserves or preempts from the normal walk while in backoff;
* against the real core at the start of fresh random runs (skipped unless the oracle is built).
"""

from __future__ import annotations

import os
import random
from textwrap import dedent

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.core.sim.finished_run import FinishedRun, finish
from tests.helpers import paths
from tests.helpers.golden import check_golden
from yk_cli.commands.run_options import options_from
from yk_cli.commands.simulate import simulation_report
from yk_cli.core.config.model import decode_config
from yk_cli.core.config.queues import build_queue_tree
from yk_cli.core.sim import cycle
from yk_cli.core.sim.run import Simulation, SimulationOptions
from yk_cli.core.sim.trace import ALLOCATE, PREEMPT, RESERVE
from yk_cli.load.source import parse_yaml
from yk_cli.load.workload import parse_workload

DATA = paths.DATA / "backoff"
CASES = sorted(p.name for p in DATA.iterdir() if p.is_dir())
S = 1_000_000_000


def queues(threshold: int, delay: str = "30s", extra: str = "") -> str:
    return f"""
partitions:
  - name: default
    queues:
      - name: root
        submitacl: '*'
        queues:
          - name: a
            properties:
              application.unschedasks.backoff: "{threshold}"
              application.unschedasks.backoff.delay: {delay}
{extra}          - name: b
"""


def run(workload: str, config: str, **options: object) -> FinishedRun:
    decoded, problems = decode_config(parse_yaml(dedent(config)).documents[0])
    assert not problems
    partition = decoded.partitions[0]
    tree = build_queue_tree(partition)
    loaded = parse_workload(dedent(workload), "w.yaml", tree)
    assert not [p for p in loaded.problems if p.level == "error"], loaded.problems
    sim = Simulation(partition, tree, loaded.workload, SimulationOptions(**options))  # type: ignore[arg-type]
    return finish(sim)


def steps(sim: FinishedRun) -> list[tuple[int, str, str]]:
    return [(e.time // S, e.type, e.ask) for e in sim.trace_result.events]


def pending(sim: FinishedRun) -> dict[str, tuple[str, str]]:
    return {p.ask: (p.code, p.reason) for p in sim.trace_result.pending}


# Two nodes of 10 (cluster headroom 20): a 15 fits the headroom but no node, so it counts as unschedulable.
NODES = """
nodes:
  - {name: n1, resources: {memory: 10}}
  - {name: n2, resources: {memory: 10}}
"""


def test_every_case_has_a_golden() -> None:
    assert CASES == ["basic", "chain"]


def test_golden_traces() -> None:
    for case in CASES:
        folder = DATA / case
        options = options_from(None, None, "1.8")
        for fmt, suffix in (("text", "txt"), ("json", "json")):
            text = "".join(simulation_report(str(folder / "queues.yaml"), str(folder / "workload.yaml"), fmt, options))
            check_golden(f"backoff_{case}.{suffix}", text.replace(str(DATA) + "/", ""))


def test_the_walk_stops_before_the_request_after_the_threshold() -> None:
    workload = (
        NODES
        + """
applications:
  - id: A
    queue: root.a
    asks:
      - {name: a1, priority: 3, resources: {memory: 15}}
      - {name: a2, priority: 2, resources: {memory: 15}}
      - {name: a3, priority: 1, resources: {memory: 5}}
"""
    )
    assert steps(run(workload, queues(2))) == []
    # with a threshold of 3 the walk reaches a3 (the check comes before each request, not after each failure)
    assert steps(run(workload, queues(3))) == [(0, ALLOCATE, "a3")]
    # off (0) and on another leaf: a3 is placed
    assert steps(run(workload, queues(0))) == [(0, ALLOCATE, "a3")]
    assert steps(run(workload.replace("root.a", "root.b"), queues(1))) == [(0, ALLOCATE, "a3")]


def test_pending_reason_names_the_deadline_the_count_and_the_line() -> None:
    workload = (
        NODES
        + """
applications:
  - id: A
    queue: root.a
    asks:
      - {name: a1, priority: 3, resources: {memory: 15}}
      - {name: a3, priority: 1, resources: {memory: 5}}
"""
    )
    sim = run(workload, queues(1, "1m"))
    found = pending(sim)
    # backed off at 0s; the asks turn old at 2.1s (a change), so A is walked again at 1m0s and backs off until 2m0s
    assert sim.trace_result.summary.end_time == 60 * S
    assert found["a3"] == (
        "backoff",
        "application A in backoff until 2m0s after 1 unschedulable ask (application.unschedasks.backoff 1, delay "
        "1m0s); it fits now and waits for the deadline",
    )
    assert found["a1"][1].endswith("; besides: no node is large enough for {memory: 15}")
    where = next(p.where for p in sim.trace_result.pending if p.ask == "a3")
    assert where == ("partitions", 0, "queues", 0, "queues", 0, "properties", "application.unschedasks.backoff")


def test_asks_that_fail_a_headroom_or_need_a_node_do_not_count() -> None:
    """Not enough queue quota and not enough user quota go on to the next ask uncounted."""
    limit = (
        "            resources: {max: {memory: 12}}\n            limits: [{users: [ann], maxresources: {memory: 11}}]\n"
    )
    workload = (
        NODES
        + """
applications:
  - id: A
    queue: root.a
    user: ann
    asks:
      - {name: over-queue, priority: 4, resources: {memory: 14}}
      - {name: over-user, priority: 3, resources: {memory: 12}}
      - {name: fits, priority: 1, resources: {memory: 5}}
"""
    )
    assert steps(run(workload, queues(1, extra=limit))) == [(0, ALLOCATE, "fits")]


def test_a_running_allocation_after_the_last_counted_ask_triggers_it() -> None:
    """The request list holds the asks allocated in the run: after one unschedulable ask, the allocated low-priority
    ask is the next request, so the application backs off (and a node freed meanwhile waits for the deadline)."""
    workload = (
        NODES
        + """
applications:
  - id: filler
    queue: root.b
    asks:
      - {name: f1, resources: {memory: 6}, duration: 20s}
  - id: A
    queue: root.a
    asks:
      - {name: low, priority: 1, resources: {memory: 4}}
      - {name: high, priority: 9, resources: {memory: 8}, submitTime: 10s}
"""
    )
    got = steps(run(workload, queues(1)))
    # at 10s high fits the headroom (10 left) but no node (6 and 4 free): counted, then low is the next request
    assert got == [(0, ALLOCATE, "low"), (0, ALLOCATE, "f1"), (20, "complete", "f1"), (40, ALLOCATE, "high")]
    # without the allocated request after it, a single unschedulable ask sets no deadline: high reserves when old
    # enough (12.1s) and is placed at 20s
    alone = workload.replace("      - {name: low, priority: 1, resources: {memory: 4}}\n", "")
    alone = alone.replace(
        "  - id: A\n",
        "  - id: other\n    queue: root.b\n    asks:\n      - {name: low, resources: {memory: 4}}\n  - id: A\n",
    )
    assert steps(run(alone, queues(1))) == [
        (0, ALLOCATE, "f1"),
        (0, ALLOCATE, "low"),
        (12, RESERVE, "high"),
        (20, "complete", "f1"),
        (20, ALLOCATE, "high"),
    ]


def test_the_deadline_chain_and_parked_deadlines() -> None:
    """Backed off at 0s with a 30 s delay: the walks fall on 30s, 60s, ...; a node freed at 45s is used at 60s. With
    nothing changing, a deadline does not move the clock."""
    workload = (
        NODES
        + """
applications:
  - id: busy
    queue: root.b
    allocations:
      - {name: busy-1, node: n1, resources: {memory: 8}, duration: 45s}
      - {name: busy-2, node: n2, resources: {memory: 8}}
  - id: A
    queue: root.a
    asks:
      - {name: big, priority: 5, resources: {memory: 3}, submitTime: -10s}
      - {name: small, priority: 1, resources: {memory: 1}, submitTime: -10s}
"""
    )
    # big is old at once: it reserves n1 at 0s, counts in the next cycle and A backs off until 30s
    sim = run(workload, queues(1))
    assert steps(sim) == [
        (0, RESERVE, "big"),
        (45, "complete", "busy-1"),
        (45, ALLOCATE, "big"),  # the reservation pass ignores backoff
        (60, ALLOCATE, "small"),  # the next point of the chain after the change at 45s
    ]
    # never anything to change: the run ends at 0s, A parked, its deadline 30s
    quiet = workload.replace(", duration: 45s", "")
    sim = run(quiet, queues(1))
    assert sim.trace_result.summary.end_time == 0
    assert pending(sim)["small"][1].startswith("application A in backoff until 30s after 1 unschedulable ask")


def test_other_applications_go_on() -> None:
    workload = (
        NODES
        + """
applications:
  - id: A
    queue: root.a
    asks:
      - {name: a1, priority: 3, resources: {memory: 15}}
      - {name: a2, priority: 1, resources: {memory: 5}}
  - id: B
    queue: root.a
    asks:
      - {name: b1, resources: {memory: 5}}
"""
    )
    assert steps(run(workload, queues(1))) == [(0, ALLOCATE, "b1")]


# -- hypothesis -------------------------------------------------------------------------------------------------


@st.composite
def backoff_case(draw: st.DrawFn) -> tuple[str, str]:
    """Random crowded workloads on two leaves with random backoff thresholds and delays, durations and arrivals."""
    lines = [
        "partitions:",
        "  - name: default",
        "    queues:",
        "      - name: root",
        "        submitacl: '*'",
        "        queues:",
    ]
    for leaf in ("a", "b"):
        lines.append(f"          - name: {leaf}")
        threshold = draw(st.integers(0, 3))
        if threshold:
            lines.append("            properties:")
            lines.append(f'              application.unschedasks.backoff: "{threshold}"')
            lines.append(f"              application.unschedasks.backoff.delay: {draw(st.sampled_from(['5s', '30s']))}")
        if draw(st.booleans()):
            lines.append(f"            resources: {{max: {{memory: {draw(st.integers(8, 30))}}}}}")
    nodes = [
        f"  - {{name: n{i}, resources: {{memory: {draw(st.integers(4, 12))}}}}}" for i in range(draw(st.integers(1, 3)))
    ]
    apps = []
    for i in range(draw(st.integers(1, 5))):
        asks = []
        for j in range(draw(st.integers(1, 4))):
            duration = draw(st.sampled_from(["", ", duration: 7s", ", duration: 40s"]))
            asks.append(
                f"      - {{name: x{i}-{j}, priority: {draw(st.integers(0, 3))}, resources: {{memory: "
                f"{draw(st.integers(1, 14))}}}, submitTime: {draw(st.sampled_from([-5, 0, 3, 20]))}s{duration}}}"
            )
        apps.append(
            f"  - id: app{i}\n    queue: root.{draw(st.sampled_from(['a', 'b']))}\n    asks:\n" + "\n".join(asks)
        )
    workload = "nodes:\n" + "\n".join(nodes) + "\napplications:\n" + "\n".join(apps) + "\n"
    return "\n".join(lines) + "\n", workload


@settings(max_examples=150)
@given(backoff_case())
def test_no_application_is_placed_from_the_walk_while_in_backoff(case: tuple[str, str]) -> None:
    config, workload = case
    seen: list[str] = []
    original = cycle.find_decision

    def checked(state):  # type: ignore[no-untyped-def]
        decision = original(state)
        if decision is not None and decision.kind in (ALLOCATE, RESERVE, PREEMPT) and decision.reserved is None:
            app = decision.ask.app
            assert app.backoff <= state.now, f"{app.id} placed at {state.now} while in backoff until {app.backoff}"
            seen.append(decision.ask.name)
        return decision

    import yk_cli.core.sim.run as run_module

    run_module.find_decision = checked  # type: ignore[assignment]
    try:
        sim = run(workload, config)
    finally:
        run_module.find_decision = original  # type: ignore[assignment]
    assert len(seen) <= len(sim.trace_result.events)
    state = sim.state
    if state.backoff is not None:
        for app, entry in state.backoff.entries.items():
            assert (
                entry.parked
                or entry.deadline == entry.base + state.backoff.settings[app.leaf].delay
                or entry.epoch == -1
            )
            assert entry.count >= 1


# -- against the real core (skipped unless the oracle is built, see tests/helpers/oracle.py) ----------------------


def _oracle_case(rng: random.Random) -> tuple[str, str]:
    """Two leaves with random backoff thresholds (delay 1h: no deadline passes in the core's run), fragmented nodes,
    applications submitted 10 s apart (whole seconds, as the core orders them without ties)."""
    lines = [
        "partitions:",
        "  - name: default",
        "    preemption: {enabled: false}",
        "    queues:",
        "      - name: root",
    ]
    lines += ["        submitacl: '*'", "        queues:"]
    for leaf in ("a", "b"):
        lines.append(f"          - name: {leaf}")
        threshold = rng.choice([0, 1, 2, 3])
        if threshold:
            lines += ["            properties:", f'              application.unschedasks.backoff: "{threshold}"']
            lines.append("              application.unschedasks.backoff.delay: 1h")
        if rng.random() < 0.4:
            lines.append(f"            resources: {{max: {{memory: {rng.randint(8, 30)}Gi}}}}")
    nodes = [
        f"  - {{name: n{i}, resources: {{memory: {rng.randint(4, 12)}Gi, vcore: 16}}}}"
        for i in range(rng.randint(1, 3))
    ]
    apps = []
    for i in range(rng.randint(1, 5)):
        at = -100 + 10 * i
        asks = [
            f"      - {{name: x{i}-{j}, priority: {rng.randint(0, 3)}, resources: {{memory: {rng.randint(1, 14)}Gi, "
            f"vcore: 1}}, submitTime: {at}s}}"
            for j in range(rng.randint(1, 5))
        ]
        apps.append(
            f"  - id: app{i}\n    queue: root.{rng.choice('ab')}\n    submitTime: {at}s\n    asks:\n" + "\n".join(asks)
        )
    return "\n".join(lines) + "\n", "nodes:\n" + "\n".join(nodes) + "\napplications:\n" + "\n".join(apps) + "\n"


ORACLE_COUNT = int(os.environ.get("YK_ORACLE_COUNT", "30"))


@pytest.mark.parametrize("index", range(ORACLE_COUNT))
def test_the_start_agrees_with_the_core(index: int) -> None:
    """At the start (every cycle of the core's run falls before any deadline) yk places and leaves pending the same
    asks in the same order as the real core with backoff on (40 seeds agreed when written, 9 with applications
    left in backoff)."""
    from ruamel.yaml import YAML

    from tests.helpers.oracle import oracle_binary, run_oracle, to_oracle

    binary = oracle_binary()
    if binary is None:
        pytest.skip("the oracle is not built (set YK_ORACLE, see ../shared/oracle)")
    config, workload = _oracle_case(random.Random(f"bo-{index}"))
    seq, core_pending = run_oracle(binary, to_oracle(config, YAML(typ="safe").load(workload)))
    sim = run(workload, config, until=0)
    ours = [("allocate", e.ask, e.node) for e in sim.trace_result.events if e.type == ALLOCATE]
    assert ours == [s for s in seq if s[0] == "allocate"]
    assert sorted(pending(sim)) == core_pending
