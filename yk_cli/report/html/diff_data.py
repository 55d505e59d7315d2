"""The JSON document of the diff report's page: config changes, the two runs compared, and both runs' metrics."""

from __future__ import annotations

from collections import Counter

from yk_cli.core.analysis.metrics import Metrics
from yk_cli.core.diff.model import Diff, Preemption, RunChanges, SettingChange
from yk_cli.core.sim.trace import Summary
from yk_cli.report.html.data import Document, seconds, usage_document


def _summary(s: Summary) -> Document:
    return {"steps": s.steps, "allocations": s.allocations, "completions": s.completions,
            "reservations": s.reservations, "preemptions": s.preemptions, "pending": s.pending,
            "end": seconds(s.end_time)}


def _setting(c: SettingChange) -> list[str]:
    return [c.partition, c.queue_path, c.key, c.old, c.new]


def _preemption(p: Preemption) -> list[str | float | None]:
    return [seconds(p.time), p.type, f"{p.preemptor_application}/{p.preemptor_ask}", p.preemptor_queue,
            f"{p.victim_application}/{p.victim_allocation}", p.victim_queue, p.node]


def _run(run: RunChanges) -> Document:
    changes = Counter(kind for a in run.asks for kind in a.changes)
    return {
        "old": _summary(run.old_summary),
        "new": _summary(run.new_summary),
        "askChanges": [[kind, n] for kind, n in sorted(changes.items())],
        "asks": [[a.application, a.ask, a.old.queue_path, seconds(a.old.start), a.old.code,
                  a.new.queue_path, seconds(a.new.start), a.new.code, ",".join(a.changes)] for a in run.asks],
        "preemptionsAdded": [_preemption(p) for p in run.preemptions_added],
        "preemptionsRemoved": [_preemption(p) for p in run.preemptions_removed],
        "events": [[e.type, e.old_count, e.new_count] for e in run.events],
        "onlyOld": run.only_old,
        "onlyNew": run.only_new,
    }


def diff_document(diff: Diff, old: Metrics | None, new: Metrics | None) -> Document:
    """Everything the diff report shows, as plain data."""
    config = diff.config
    workload = diff.workload
    return {
        "kind": "diff",
        "old": diff.old,
        "new": diff.new,
        "source": diff.workload_source,
        "partition": diff.partition,
        "config": {
            "settings": [_setting(c) for c in config.settings],
            "queues": [[c.partition, c.kind, c.queue_path, c.old_path, c.is_leaf, c.below] for c in config.queues],
            "introduced": [[p.rule, p.level.value, p.message] for p in config.problems.introduced],
            "fixed": [[p.rule, p.level.value, p.message] for p in config.problems.fixed],
            "partitionsAdded": list(config.partitions_added),
            "partitionsRemoved": list(config.partitions_removed),
        },
        "placements": [[p.application, p.old.queue_path or "", p.old.reason, p.new.queue_path or "", p.new.reason]
                       for p in (workload.placements if workload is not None else ())],
        "priorities": [[p.application, p.ask, p.queue_path, p.old, p.new, p.cause]
                       for p in (workload.priorities if workload is not None else ())],
        "run": _run(workload.run) if workload is not None and workload.run is not None else None,
        "skipped": workload.skipped if workload is not None else "",
        "metrics": {"old": usage_document(old) if old is not None else None,
                    "new": usage_document(new) if new is not None else None},
    }
