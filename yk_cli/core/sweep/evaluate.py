"""One point of a sweep: its settings applied to the config and the workload, YuniKorn's verdict on the config,
the dry run and the numbers of its metrics (a flat mapping of metric keys, the same keys at every point)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from yk_cli.core.analysis.metrics import PENDING, Metrics, run_metrics, waits_of
from yk_cli.core.assertions.model import Policy, PriorityRange
from yk_cli.core.config.model import PartitionConfig, SchedulerConfig
from yk_cli.core.config.placement import Placement, place_all
from yk_cli.core.config.queues import QueueTree, build_queue_tree
from yk_cli.core.diagnostics import Level
from yk_cli.core.lint.checks import run_checks
from yk_cli.core.sim.run import SimulationOptions, simulate
from yk_cli.core.sim.trace import Trace
from yk_cli.core.sweep.params import (
    ARRIVALS,
    NODES_COUNT,
    NODES_SIZE,
    WORKLOAD_FILE,
    Target,
    Value,
    apply_config,
    apply_workload,
)
from yk_cli.core.sweep.points import Point
from yk_cli.core.workload.model import Workload

NANOS = 1_000_000_000
WAITS = ("p50", "p90", "p95", "p99", "max")
WORKLOAD_TARGETS = (NODES_COUNT, NODES_SIZE, ARRIVALS)


@dataclass(frozen=True, slots=True)
class SweepInputs:
    """What every point starts from (sent to each worker once): the config, its partition, the workload, the
    parameters' targets in order and how far to run."""

    config: SchedulerConfig
    partition: str
    workloads: tuple[tuple[str, Workload], ...]
    """(name, workload): one workload, or several (then the point's `workload` parameter names one)."""
    targets: tuple[Target, ...]
    options: SimulationOptions = field(default_factory=SimulationOptions)
    policies: tuple[tuple[Policy, PriorityRange], ...] = ()
    """`yk check` policies whose every assertion a point must hold (yk tune's constraints), each with the pod
    priorities its static proofs cover."""


@dataclass(frozen=True, slots=True)
class PointResult:
    """A point's outcome: YuniKorn's errors on its config (then no run), else its metrics' numbers."""

    index: int
    values: tuple[Value, ...]
    errors: tuple[str, ...] = ()
    numbers: tuple[tuple[str, float | None], ...] = ()
    """(metric key, value) in key order: waits and times in seconds, utilization as a fraction, work lost in
    YuniKorn's units times seconds; None where a scope has nothing to measure."""
    failed: tuple[str, ...] = ()
    """The policies' assertions the point breaks, as `FILE: NAME: message` (static and dry-run checks)."""

    def number(self, key: str) -> float | None:
        return dict(self.numbers).get(key)


def evaluate(inputs: SweepInputs, point: Point) -> PointResult:
    """Apply the point, check the config as YuniKorn would, run it and measure it."""
    config, workload = inputs.config, inputs.workloads[0][1]
    for target, value in zip(inputs.targets, point.values, strict=True):
        if target.kind == WORKLOAD_FILE:
            workload = dict(inputs.workloads)[str(value)]
        elif target.kind in WORKLOAD_TARGETS:
            workload = apply_workload(workload, target, value)
        else:
            config = apply_config(config, inputs.partition, target, value)
    errors = tuple(sorted({p.message for p in run_checks(config) if p.level == Level.ERROR}))
    if errors:
        return PointResult(point.index, point.values, errors)
    partition = next(p for p in config.partitions if p.display_name == inputs.partition)
    tree = build_queue_tree(partition)
    trace = simulate(partition, build_queue_tree(partition), workload, inputs.options)
    placed = place_all(partition, tree, workload.applications)
    queue_of = {app: p.queue_path for app, p in placed.items() if p.queue_path}
    metrics = run_metrics(trace, workload, tree, queue_of)
    failed = _failed(inputs, partition, trace, workload, tree, placed) if inputs.policies else ()
    return PointResult(point.index, point.values, (), tuple(sorted(numbers(metrics).items())), failed)


def _failed(
    inputs: SweepInputs,
    partition: PartitionConfig,
    trace: Trace,
    workload: Workload,
    tree: QueueTree,
    placed: Mapping[str, Placement],
) -> tuple[str, ...]:
    """The assertions of the point's policies that do not hold: static ones on its config, dynamic ones on its run."""
    from yk_cli.core.assertions.dynamic import RunFacts
    from yk_cli.core.assertions.run import check_policy

    leaves = {app: leaf for app, p in placed.items() if p.queue_path and (leaf := tree.get(p.queue_path)) is not None}
    facts = RunFacts(trace, workload, tree, leaves)
    out: list[str] = []
    for policy, priorities in inputs.policies:
        for outcome in check_policy(policy, partition, priorities, facts):
            if not outcome.passed:
                out.append(f"{policy.file}: {outcome.assertion.name}: {outcome.message}")
    return tuple(dict.fromkeys(out))


def numbers(metrics: Metrics) -> dict[str, float | None]:
    """The metric keys of a run: every pod's and each queue's and user's waits (`p95-wait`, `p95-wait:queue=PATH`,
    `p95-wait:user=NAME`) and pending pods; per resource type the mean utilization (`utilization:TYPE`) and work
    lost (`lost:TYPE`); each guaranteed queue's fairness gap (`fairness-gap:PATH`); preempted runs and makespan."""
    out: dict[str, float | None] = {}
    _waits(out, "", waits_of(metrics.pods, metrics.end))
    out["pending"] = float(sum(1 for p in metrics.pods if p.outcome == PENDING))
    for dimension in ("queue", "user"):
        for g in metrics.groups[dimension]:
            _waits(out, f":{dimension}={g.key}", g.waits)
            out[f"pending:{dimension}={g.key}"] = float(g.pending)
    cluster = metrics.cluster
    for name, share in cluster.utilization(cluster.mean).items():
        out[f"utilization:{name}"] = share
    lost: dict[str, float] = {}
    for loss in metrics.losses:
        for name, work in loss.work.items():
            lost[name] = lost.get(name, 0.0) + work
    for name in cluster.capacity:
        out[f"lost:{name}"] = lost.get(name, 0.0)
    for q in metrics.queues:
        if q.guaranteed:
            out[f"fairness-gap:{q.path}"] = q.gap / NANOS
    out["preemptions"] = float(len(metrics.losses))
    out["makespan"] = metrics.makespan / NANOS if metrics.makespan is not None else None
    return out


def _waits(out: dict[str, float | None], scope: str, waits: object) -> None:
    for which in WAITS:
        value = getattr(waits, which) if waits is not None else None
        out[f"{which}-wait{scope}"] = value / NANOS if value is not None else None


def metric_keys(results: Sequence[PointResult]) -> list[str]:
    """Every metric key any point measured, sorted."""
    return sorted({key for r in results for key, _ in r.numbers})
