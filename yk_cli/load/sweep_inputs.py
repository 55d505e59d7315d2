"""What a sweep sends to its workers: the config's and the workloads' texts (small, and picklable where yk's frozen
values are not), parsed once per worker process; and the evaluation of one point from them."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from yk_cli.core.assertions.model import Policy, PriorityRange
from yk_cli.core.sim.run import SimulationOptions
from yk_cli.core.sweep.evaluate import PointResult, SweepInputs, evaluate
from yk_cli.core.sweep.params import WORKLOAD_FILE, Target, parse_path
from yk_cli.core.sweep.points import Point


@dataclass(frozen=True)
class SweepSource:
    """The texts a sweep runs on, the partition, how far to run, and the parameters' paths in point order (the
    `workloads` parameter first when there are several workloads)."""

    config_text: str
    workloads: tuple[tuple[str, str], ...]
    """(name, text) of each workload."""
    partition: str
    until: int | None
    paths: tuple[str, ...]
    policies: tuple[tuple[str, str], ...] = ()
    """(name, text) of each `yk check` policy a point must hold (yk tune)."""
    digest: str = ""

    @classmethod
    def of(cls, config_text: str, workloads: tuple[tuple[str, str], ...], partition: str, until: int | None,
           paths: tuple[str, ...], policies: tuple[tuple[str, str], ...] = ()) -> SweepSource:
        """A source with its digest (what tells one sweep's parsed inputs from another's in a worker)."""
        digest = hashlib.sha256()
        named = (*(n + "\0" + t for n, t in workloads), *("policy\0" + n + "\0" + t for n, t in policies))
        for part in (config_text, partition, repr(until), repr(paths), *named):
            data = part.encode()
            digest.update(len(data).to_bytes(8, "big") + data)
        return cls(config_text, workloads, partition, until, paths, policies, digest.hexdigest())


_PARSED: dict[str, SweepInputs] = {}
"""The inputs this process parsed, by source digest (a worker parses its sweep's once)."""


def inputs_of(source: SweepSource) -> SweepInputs:
    """The source parsed: the config decoded, each workload built, each path resolved against the config's tree."""
    found = _PARSED.get(source.digest)
    if found is not None:
        return found
    from yk_cli.core.config.queues import build_queue_tree
    from yk_cli.load.config import load_config
    from yk_cli.load.workload import parse_workload

    loaded = load_config("-", stdin=source.config_text.encode(), check=False)
    config = next(c.config for c in loaded.configs if c.decoded and c.config.partitions)
    partition = next(p for p in config.partitions if p.display_name == source.partition)
    tree = build_queue_tree(partition)
    workloads = tuple((name, parse_workload(text, name).workload) for name, text in source.workloads)
    targets = tuple(Target(WORKLOAD_FILE) if path == "workloads" else parse_path(path, tree) for path in source.paths)
    policies = tuple(_policy(name, text) for name, text in source.policies)
    found = _PARSED[source.digest] = SweepInputs(
        config, source.partition, workloads, targets, SimulationOptions(until=source.until), policies
    )
    return found


def _policy(name: str, text: str) -> tuple[Policy, PriorityRange]:
    """A policy and the pod priorities its proofs cover: its own priorityRange, else yk check's default."""
    from yk_cli.core.assertions.model import DEFAULT_RANGE
    from yk_cli.load.policy import parse_policy

    policy = parse_policy(text, name)
    if policy.priority_range is not None:
        return policy, PriorityRange(*policy.priority_range, f"declared in {name}")
    return policy, PriorityRange(*DEFAULT_RANGE, "default")


def evaluate_source(source: SweepSource, point: Point) -> PointResult:
    """One point of the sweep, in whichever process runs it."""
    return evaluate(inputs_of(source), point)
