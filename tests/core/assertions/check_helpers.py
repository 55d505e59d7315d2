"""Helpers of the `yk check` tests: a partition and a policy from text, and checking one against the other."""

from __future__ import annotations

from tests.conftest import dedent
from yk_cli.core.assertions.dynamic import RunFacts
from yk_cli.core.assertions.model import Outcome, PriorityRange
from yk_cli.core.assertions.run import check_policy
from yk_cli.core.config.model import PartitionConfig
from yk_cli.core.config.placement import place_all
from yk_cli.core.config.queues import build_queue_tree
from yk_cli.core.sim.run import simulate
from yk_cli.core.workload.model import Workload
from yk_cli.load.config import load_config
from yk_cli.load.policy import parse_policy
from yk_cli.load.workload import read_workload


def partition_of(text: str) -> PartitionConfig:
    """The first partition of a queue config text (which must have no errors)."""
    result = load_config("-", stdin=dedent(text).encode())
    assert not [p for p in result.problems if p.level == "error"], result.problems
    return result.configs[0].config.partitions[0]


def outcomes(config: str, policy: str, low: int = 0, high: int = 1000, facts: RunFacts | None = None) -> list[Outcome]:
    """Check a policy text against a config text (static, or dynamic too with facts)."""
    return check_policy(
        parse_policy(dedent(policy), "policy.yaml"), partition_of(config), PriorityRange(low, high, "test"), facts
    )


def one(config: str, assertion: str, low: int = 0, high: int = 1000) -> Outcome:
    """The single static outcome of one assertion (YAML of one list item, without the leading '- ')."""
    policy = "assertions:\n  - name: it\n" + "".join(f"    {line}\n" for line in dedent(assertion).splitlines())
    (found,) = outcomes(config, policy, low, high)
    return found


def run_facts(partition: PartitionConfig, workload: Workload) -> RunFacts:
    """The dry run of a workload on a partition, with where each application was placed."""
    trace = simulate(partition, build_queue_tree(partition), workload)
    tree = build_queue_tree(partition)
    leaves = {}
    for app_id, placement in place_all(partition, tree, workload.applications).items():
        leaf = tree.get(placement.queue_path) if placement.queue_path else None
        if leaf is not None:
            leaves[app_id] = leaf
    return RunFacts(trace, workload, tree, leaves)


def workload_file(path: str) -> Workload:
    """A workload file from the repository (no errors)."""
    loaded = read_workload(path)
    return loaded.workload
