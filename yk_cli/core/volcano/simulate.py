"""simulate(cluster, conf): one Volcano scheduling session, start to end, as plain result values.

    result = simulate(cluster, conf)
    result.actions      # [(name, [Event, ...])] in the configured order
    result.queues       # the queue table at session open (QueueRow)
    result.jobs         # the job table at session open (JobRow), by queue, with each PodGroup's phase at close
    result.framework    # the open session's plugins and comparator chains, for explanations

The session is opened once (snapshot, plugins as configured, per-plugin queue state), the configured actions run in
order on it, and every bind, eviction, pipeline and admission is recorded as an Event. The session is then closed as
Volcano closes it (the plugins' OnSessionClose, then each job's PodGroup phase: JobRow.phase_after). Actions yk does
not model and plugins it does not know are reported in `notes`, never silently skipped.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace

from yk_cli.core.volcano import resource as res
from yk_cli.core.volcano.actions import NODE_RULE, TOPOLOGY_AWARE, Actions
from yk_cli.core.volcano.capacity import CapacityPlugin
from yk_cli.core.volcano.conf import SIMULATED_ACTIONS, SchedulerConf
from yk_cli.core.volcano.framework import Framework, Plugin, _Slot
from yk_cli.core.volcano.model import Cluster
from yk_cli.core.volcano.observe import Observer
from yk_cli.core.volcano.plugins import NOT_MODELLED, DrfPlugin, builders, gang_ready
from yk_cli.core.volcano.predicates import argument_bool
from yk_cli.core.volcano.proportion import ProportionPlugin
from yk_cli.core.volcano.session import PENDING, Event, JobInfo, Session, close_session, open_session


@dataclass(frozen=True, slots=True)
class QueueRow:
    """One queue at session open: its spec, the share plugin's numbers and its rank in QueueOrderFn."""

    name: str
    priority: int
    weight: int
    rank: int | None
    """1-based position in QueueOrderFn among the queues that hold jobs; None for a queue without jobs."""
    share_plugin: str
    deserved: dict[str, float | str]
    allocated: dict[str, float | str]
    share: float | None
    dominant: str
    overused: bool | None
    real_capability: dict[str, float | str]
    state: str
    decided_by: str
    """Why this queue ranks after the one before it (the comparison that decided), "" for the first."""


@dataclass(frozen=True, slots=True)
class JobRow:
    """One job at session open."""

    uid: str
    queue: str
    priority: int
    priority_source: str
    min_available: int
    ready_tasks: int
    pending_tasks: int
    ready: bool
    """gang's JobReadyFn: every role at its minTaskMember and ready + pending best-effort tasks >= minAvailable."""
    phase: str
    phase_after: str
    """The PodGroup phase the session writes when it closes (session.phase_at_close); "" until it has."""
    drf_share: float | None
    rank: int
    decided_by: str


@dataclass(slots=True)
class SimulationResult:
    """Everything one simulated session produced."""

    conf: SchedulerConf
    dims: tuple[str, ...]
    queues: list[QueueRow]
    jobs: list[JobRow]
    actions: list[tuple[str, list[Event]]]
    notes: list[str]
    node_rule: str
    session: Session
    framework: Framework
    queues_after: list[QueueRow] = field(default_factory=list)


def build_framework(ssn: Session, conf: SchedulerConf) -> Framework:
    """Open every configured plugin yk models, in tier order (a name not modelled or unknown does nothing)."""
    fw = Framework(ssn, conf)
    ssn.framework = fw
    known = builders()
    instances: dict[str, Plugin] = {}
    for tier_index, tier in enumerate(conf.tiers, start=1):
        for option in tier.plugins:
            builder = known.get(option.name)
            if builder is None:
                if option.name in NOT_MODELLED:
                    note = f"plugin {option.name} ({NOT_MODELLED[option.name]}) is not modelled: yk leaves it out"
                else:
                    note = (f"plugin {option.name!r} is not a Volcano plugin yk knows: Volcano logs 'Failed to get "
                            "plugin' and runs without it, and so does yk")
                if note not in fw.notes:
                    fw.notes.append(note)
                continue
            if option.name not in instances:
                instances[option.name] = builder(option)
            fw.slots.append(_Slot(tier_index, instances[option.name], option))
            if option.name == "drf" and option.flags.get("enableHierarchy") is True:
                fw.notes.append(
                    "drf has enableHierarchy: true: its hierarchical queue order and reclaim (HDRF) are not modelled; "
                    "yk orders and reclaims as if drf had no hierarchy"
                )
    for plugin in instances.values():
        fw.plugins[plugin.name] = plugin
        plugin.open(ssn)
    capacity = instances.get("capacity")
    if isinstance(capacity, CapacityPlugin) and not capacity.ready:
        fw.notes.append(f"capacity refuses every queue in this session: {capacity.why_not_ready}")
    fw.build()
    return fw


def _share_plugin(fw: Framework) -> ProportionPlugin | CapacityPlugin | None:
    for plugin in fw.plugins.values():
        if isinstance(plugin, ProportionPlugin | CapacityPlugin):
            return plugin
    return None


def queue_rows(ssn: Session, fw: Framework) -> list[QueueRow]:
    """The queue table: every queue of the dump, those with jobs ranked by QueueOrderFn."""
    with_jobs = sorted({j.queue for j in ssn.jobs.values()})
    ranked = fw.queue_chain.sorted([ssn.queues[q] for q in with_jobs])
    rank = {q.name: i for i, q in enumerate(ranked, start=1)}
    why = {b.name: fw.queue_chain.decide(a, b).text() for a, b in itertools.pairwise(ranked)}
    plugin = _share_plugin(fw)
    rows = []
    dims = ssn.dims
    for name in sorted(ssn.queues, key=lambda q: (rank.get(q, len(rank) + 1), q)):
        queue = ssn.queues[name]
        attr = plugin.attrs.get(name) if plugin is not None else None
        overused = None
        if isinstance(plugin, ProportionPlugin) and attr is not None:
            overused = res.less_equal(attr.deserved, attr.allocated)
        rows.append(
            QueueRow(
                name=name,
                priority=queue.priority,
                weight=queue.queue.weight,
                rank=rank.get(name),
                share_plugin=plugin.name if plugin is not None else "",
                deserved=res.as_json(attr.deserved, dims) if attr is not None else {},
                allocated=res.as_json(attr.allocated, dims) if attr is not None else {},
                share=round(attr.share, 6) if attr is not None else None,
                dominant=dims[attr.dominant] if attr is not None and attr.dominant >= 0 else "",
                overused=overused,
                real_capability=res.as_json(attr.real_capability, dims) if attr is not None else {},
                state=queue.queue.state,
                decided_by=why.get(name, ""),
            )
        )
    return rows


def job_rows(ssn: Session, fw: Framework) -> list[JobRow]:
    """The job table: per queue (in queue order), the jobs in JobOrderFn order."""
    drf = fw.plugins.get("drf")
    rows = []
    by_queue: dict[str, list[JobInfo]] = {}
    for job in ssn.jobs.values():
        by_queue.setdefault(job.queue, []).append(job)
    for queue in sorted(by_queue):
        ordered = fw.job_chain.sorted(by_queue[queue])
        for i, job in enumerate(ordered, start=1):
            rows.append(
                JobRow(
                    uid=job.uid,
                    queue=queue,
                    priority=job.priority,
                    priority_source=job.priority_source,
                    min_available=job.min_available,
                    ready_tasks=job.ready_task_num(),
                    pending_tasks=sum(1 for t in job.tasks if t.status == PENDING),
                    ready=gang_ready(job),
                    phase=job.phase,
                    phase_after="",
                    drf_share=round(drf.share_of(job), 6) if isinstance(drf, DrfPlugin) else None,
                    rank=i,
                    decided_by=fw.job_chain.decide(ordered[i - 2], job).text() if i > 1 else "",
                )
            )
    return rows


def simulate(
    cluster: Cluster, conf: SchedulerConf, scheduler_name: str = "volcano", observer: Observer | None = None
) -> SimulationResult:
    """Run one session of `conf` on `cluster` (see the module docstring); `observer` hears the actions' moments."""
    ssn = open_session(cluster, scheduler_name)
    ssn.enqueue_configured = "enqueue" in conf.actions
    fw = build_framework(ssn, conf)
    notes = list(ssn.notes) + list(fw.notes)
    queues = queue_rows(ssn, fw)
    jobs = job_rows(ssn, fw)
    if observer is not None:
        observer.opened(ssn, fw)
    runner = Actions(ssn, fw, observer)
    soft = sorted({m for node in ssn.nodes for t in node.tasks.values() for m in t.pod.spec.soft}
                  | {m for job in ssn.jobs.values() for t in job.tasks for m in t.pod.spec.soft})
    notes.extend(n for n in runner.scorer.unmodelled(soft) if n not in notes)
    actions: list[tuple[str, list[Event]]] = []
    for name in conf.actions:
        start = len(ssn.events)
        if name in SIMULATED_ACTIONS:
            getattr(runner, name)()
        else:
            notes.append(f"action {name} is not modelled: yk reports it and does nothing for it")
        actions.append((name, ssn.events[start:]))
    if argument_bool(conf.action_arguments("preempt"), TOPOLOGY_AWARE, False):
        notes.append("preempt's enableTopologyAwarePreemption is on: Volcano starts its dry run of the candidate "
                     "nodes at a random one (and stops after minCandidateNodesPercentage of them); yk starts at the "
                     "first by name, so with several candidates it may pick another node")
    fw.close()
    phases = close_session(ssn)
    jobs = [replace(row, phase_after=phases[row.uid]) for row in jobs]
    result = SimulationResult(conf, ssn.dims, queues, jobs, actions, notes, NODE_RULE, ssn, fw)
    result.queues_after = queue_rows(ssn, fw)
    return result
