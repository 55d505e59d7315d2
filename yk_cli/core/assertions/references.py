"""The queues a policy names, against the queue config: a path the config does not have (and placement cannot
create where the check would need it) is a mistake in the policy, most likely a misspelling."""

from __future__ import annotations

import difflib

from yk_cli.core.assertions.model import (
    CANNOT_PREEMPT,
    FENCED,
    GUARANTEED_AT_LEAST,
    MAX_AT_MOST,
    OUTRANKS,
    STATIC,
    Assertion,
    Policy,
    QueueRef,
)
from yk_cli.core.config.model import PartitionConfig
from yk_cli.core.config.queues import build_queue_tree
from yk_cli.core.workload.checks import may_create_queues

CONFIGURED_ONLY = frozenset((CANNOT_PREEMPT, OUTRANKS, FENCED, GUARANTEED_AT_LEAST, MAX_AT_MOST))
"""Kinds whose static proof needs a configured queue (a dynamic one has no settings of its own to prove on)."""


def unknown_queues(
    policy: Policy, partition: PartitionConfig, with_workload: bool
) -> list[tuple[Assertion, QueueRef, str]]:
    """Each queue path of the policy that cannot be in the partition, with why: not configured, where the check
    needs a configured queue (a static proof of cannot-preempt, outranks, fenced, guaranteed-at-least, max-at-most)
    or where no placement rule may create queues. In policy order."""
    tree = build_queue_tree(partition)
    creates = may_create_queues(partition)
    known = [path for path, queue in tree.queues.items() if not queue.dynamic]
    out: list[tuple[Assertion, QueueRef, str]] = []
    for assertion in policy.assertions:
        configured = assertion.kind in CONFIGURED_ONLY and STATIC in assertion.modes(with_workload)
        for ref in assertion.queue_refs:
            queue = tree.get(ref.path.strip())
            if queue is not None and not queue.dynamic:
                continue
            if creates and not configured:
                continue  # a queue placement may create: the dry run or the placement rules decide
            close = difflib.get_close_matches(ref.path.strip().lower(), known, n=1, cutoff=0.6)
            hint = f" (did you mean {close[0]}?)" if close else ""
            why = f"; {assertion.kind} is proved on the queues the config defines" if creates else ""
            out.append((assertion, ref, f"{ref.path} is not in the queue config{hint}{why}"))
    return out
