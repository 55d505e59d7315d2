"""Benchmark of core/predicates/placed.py (PlacedPods) with pod_plugins' prepare()/failure() on top, in-process.

Run: `python benchmarks/placed.py` (3 timed runs of each version, medians), `--runs N`, `--nodes N`, `--pods N`,
`--apps N`, `--every N` (every Nth app constrained, default 10; 1: every app), `--compare REV` (the git revision
whose placed.py and pod_plugins.py are the "before" version, loaded from git into temporary modules; default the
last one that updated every registered count on every add), `--no-compare` (the working tree's version only).

The cluster: 5,000 nodes (labels kubernetes.io/hostname and one of 3 zones), 10 namespaces, 50,000 pods of 1,000
apps (Deployments: 50 pods each, labels `app: app-N` and `tier: web|batch`, app N in namespace ns-(N % 10)); every
10th app carries a constraint on its own pods (`app: app-N`): half of them a zone topology spread constraint
(maxSkew 1, DoNotSchedule), the other half a required anti-affinity on kubernetes.io/hostname. The pods arrive
shuffled (seed 42), so each constraint registers with some of its app's pods placed already. Per pod: prepare()
once, then failure() on nodes in round-robin order until one passes (at most 20 tries), and add() there. Then every
10th pod is removed again, each followed by a prepare() + failure() of a constrained pod.

Figures: CPU seconds of the add phase and of the remove phase, median over the runs, per version, and whether both
versions placed every pod on the same node (identical verdicts). It prints figures, it is not a test.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from yk_cli.core.predicates.model import (  # noqa: E402
    LabelSelector,
    Namespace,
    NodeFacts,
    PodAffinityTerm,
    PodSpec,
    TopologySpreadConstraint,
    labels_of,
)

SEED = 42
BEFORE = "8108416"
"""The last revision of placed.py that updates every registered count on add/remove (no inverted index)."""
ZONES = ("zone-a", "zone-b", "zone-c")
HOSTNAME, ZONE = "kubernetes.io/hostname", "topology.kubernetes.io/zone"
TRIES = 20


def cluster(
    nodes: int, pods: int, apps: int, every: int = 10
) -> tuple[list[NodeFacts], list[Namespace], list[PodSpec]]:
    """The nodes, namespaces and pods (in arrival order)."""
    names = [f"node-{i:05d}" for i in range(nodes)]
    facts = [NodeFacts(name, labels_of({HOSTNAME: name, ZONE: ZONES[i % 3]})) for i, name in enumerate(names)]
    namespaces = [Namespace(f"ns-{i}", labels_of({"team": f"t{i % 3}"})) for i in range(10)]
    specs = []
    for a in range(apps):
        labels = labels_of({"app": f"app-{a}", "tier": "web" if a % 2 else "batch"})
        own = LabelSelector(labels_of({"app": f"app-{a}"}))
        spread: tuple[TopologySpreadConstraint, ...] = ()
        anti: tuple[PodAffinityTerm, ...] = ()
        if a % (2 * every) == 0:
            spread = (TopologySpreadConstraint(1, ZONE, label_selector=own),)
        elif a % (2 * every) == every:
            anti = (PodAffinityTerm(HOSTNAME, own),)
        specs.append(PodSpec(f"ns-{a % 10}", labels, topology_spread=spread, pod_anti_affinity=anti))
    per_app = pods // apps
    arrivals = [specs[a] for a in range(apps) for _ in range(per_app)]
    random.Random(SEED).shuffle(arrivals)
    return facts, namespaces, arrivals


def load_version(rev: str | None, tmp: Path) -> tuple[Any, Any]:
    """(PlacedPods, prepare) of the working tree (rev None) or of placed.py + pod_plugins.py at a git revision."""
    if rev is None:
        from yk_cli.core.predicates.placed import PlacedPods
        from yk_cli.core.predicates.pod_plugins import prepare

        return PlacedPods, prepare
    modules: dict[str, ModuleType] = {}
    for name in ("placed", "pod_plugins"):
        text = subprocess.run(
            ["git", "show", f"{rev}:yk_cli/core/predicates/{name}.py"], cwd=ROOT, check=True, capture_output=True
        ).stdout.decode()
        text = text.replace("from yk_cli.core.predicates.placed import", "from yk_placed_before import")
        path = tmp / f"yk_{name}_before.py"
        path.write_text(text)
        spec = importlib.util.spec_from_file_location(f"yk_{name}_before", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[f"yk_{name}_before"] = module
        spec.loader.exec_module(module)
        modules[name] = module
    return modules["placed"].PlacedPods, modules["pod_plugins"].prepare


def run(
    version: tuple[Any, Any], facts: list[NodeFacts], namespaces: list[Namespace], arrivals: list[PodSpec]
) -> tuple[float, float, list[str]]:
    """(add phase CPU s, remove phase CPU s, the node of every pod)."""
    placed_pods, prepare = version
    placed = placed_pods(facts, namespaces)
    where: list[str] = []
    count = len(facts)
    started = time.process_time()
    for cursor, pod in enumerate(arrivals):
        state = prepare(pod, placed)
        chosen = facts[cursor % count]
        for k in range(TRIES):
            node = facts[(cursor + k) % count]
            if state.failure(node) is None:
                chosen = node
                break
        placed.add(pod, chosen.name)
        where.append(chosen.name)
    added = time.process_time() - started
    probe = next((p for p in arrivals if p.topology_spread), arrivals[0])
    started = time.process_time()
    for i in range(0, len(arrivals), 10):
        placed.remove(arrivals[i], where[i])
        prepare(probe, placed).failure(facts[i % count])
    removed = time.process_time() - started
    return added, removed, where


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--nodes", type=int, default=5_000)
    parser.add_argument("--pods", type=int, default=50_000)
    parser.add_argument("--apps", type=int, default=1_000)
    parser.add_argument("--every", type=int, default=10, help="every Nth app constrained (default 10)")
    parser.add_argument("--compare", default=BEFORE, metavar="REV")
    parser.add_argument("--no-compare", action="store_true")
    args = parser.parse_args()
    facts, namespaces, arrivals = cluster(args.nodes, args.pods, args.apps, args.every)
    constrained = sum(1 for p in arrivals if p.topology_spread or p.pod_anti_affinity)
    print(
        f"{len(facts)} nodes, {len(arrivals)} pods of {args.apps} apps, {constrained} pods with a spread "
        f"constraint or anti-affinity; median of {args.runs} runs (CPU seconds)"
    )
    with tempfile.TemporaryDirectory(prefix="benchmark-placed-") as tmp:
        versions = {"after": load_version(None, Path(tmp))}
        if not args.no_compare:
            versions = {"before": load_version(args.compare, Path(tmp)), **versions}
        figures: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in versions}
        placements: dict[str, list[str]] = {}
        for _ in range(args.runs):
            for name, version in versions.items():
                added, removed, where = run(version, facts, namespaces, arrivals)
                figures[name][0].append(added)
                figures[name][1].append(removed)
                placements[name] = where
    for name, (adds, removes) in figures.items():
        label = f"{name} ({args.compare})" if name == "before" else f"{name} (working tree)"
        print(
            f"{label:24} add {statistics.median(adds):7.2f} s   remove {statistics.median(removes):6.2f} s   "
            f"(runs: {', '.join(f'{a:.2f}' for a in adds)})"
        )
    if len(placements) == 2:
        same = placements["before"] == placements["after"]
        print("same placements:", "yes" if same else "NO")


if __name__ == "__main__":
    main()
