"""Check every assertion of a policy: static ones on the config, dynamic ones on the dry run, in file order."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from yk_cli.core.assertions.model import DYNAMIC, STATIC, Assertion, Outcome, Policy, PriorityRange
from yk_cli.core.assertions.scope import Scope
from yk_cli.core.assertions.static import check_static
from yk_cli.core.config.model import PartitionConfig
from yk_cli.core.workload.model import Workload

if TYPE_CHECKING:
    from yk_cli.core.assertions.dynamic import RunFacts


def needs_workload(policy: Policy) -> list[Assertion]:
    """The assertions that can only be checked on a dry run (or ask for one with `check: dynamic|both`)."""
    return [a for a in policy.assertions if DYNAMIC in a.modes(False)]


def check_policy(
    policy: Policy, partition: PartitionConfig, priorities: PriorityRange, facts: RunFacts | None
) -> list[Outcome]:
    """Every outcome, assertion by assertion in file order, static before dynamic for an assertion checked both
    ways; dynamic modes need facts (the caller refuses a policy that needs them without a workload)."""
    scope = Scope.of(partition, priorities)
    out: list[Outcome] = []
    for assertion in policy.assertions:
        for mode in assertion.modes(facts is not None):
            if mode == STATIC:
                out.append(check_static(scope, assertion))
            else:
                from yk_cli.core.assertions.dynamic import check_dynamic  # the dry run's vocabulary, only when needed

                assert facts is not None
                out.append(check_dynamic(facts, assertion))
    return out


def range_of_cluster(workload: Workload) -> tuple[int, int]:
    """The pod priorities of a cluster dump: its PriorityClasses' values and every pod's priority, and 0 (a pod
    without a class) unless a class is the global default."""
    values: list[int] = [pc.value for pc in workload.priority_classes if pc.path]
    if not any(pc.global_default for pc in workload.priority_classes):
        values.append(0)
    for app in workload.applications:
        values.extend(ask.priority for ask in app.asks)
        values.extend(alloc.priority for alloc in app.allocations)
    return min(values), max(values)


def summary_counts(outcomes: Iterable[Outcome]) -> tuple[int, int]:
    """(passed, failed)."""
    passed = failed = 0
    for outcome in outcomes:
        if outcome.passed:
            passed += 1
        else:
            failed += 1
    return passed, failed
