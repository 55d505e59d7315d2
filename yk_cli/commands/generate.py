"""`yk generate`: write a synthetic, realistic queue config and workload (for benchmarks and trying yk at scale)."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from yk_cli.commands.console import fail_usage
from yk_cli.commands.declare import option


@dataclass(frozen=True, slots=True)
class GenerateArgs:
    """`yk generate`'s options."""

    nodes: int = option("--nodes", metavar="N", help="Nodes in the cluster (at least 1).", default=100)
    queues: int = option("--queues", metavar="N", help="Leaf queues (at least 1).", default=20)
    apps: int = option("--apps", metavar="N", help="Applications, spread over the leaf queues.", default=100)
    asks: int = option("--asks", metavar="N", help="Pending asks (pods), spread over the applications.", default=1000)
    seed: int = option("--seed", metavar="N", help="Random seed: same arguments, byte-identical files.", default=0)
    running: float = option(
        "--running",
        metavar="FRACTION",
        help="Also add running allocations, as a fraction of --asks (0 to 1).",
        default=0.0,
    )
    node_pools: Optional[str] = option(
        "--node-pools",
        metavar="SPEC",
        help="Kubernetes labels and taints on the nodes: off (the default), on, or gpu=PCT,control-plane=N,"
        "zones=N (on: gpu=10,control-plane=1,zones=3). Every node is labelled kubernetes.io/hostname and "
        "topology.kubernetes.io/zone (round robin over the zones); the first N nodes are tainted "
        "node-role.kubernetes.io/control-plane:NoSchedule; PCT % of the nodes form a GPU pool labelled "
        "pool: gpu and tainted nvidia.com/gpu=present:NoSchedule. Node sizes do not change.",
    )
    constrained: str = option(
        "--constrained",
        metavar="PCT",
        help="About PCT % of the pods (whole applications) carry a nodeSelector or toleration for the pools: the "
        "GPU pool (selector and toleration), one zone (selector), or the GPU taint tolerated only; root.system "
        "applications tolerate every taint. Implies --node-pools on.",
        default="0",
    )
    spread: str = option(
        "--spread",
        metavar="PCT",
        help="About PCT % of the pods (whole applications) carry a zone topology spread constraint (maxSkew 1, "
        "DoNotSchedule) or, applications of at most 10 pods, hostname pod anti-affinity; they are labelled "
        "app: ID. Implies --node-pools on.",
        default="0",
    )
    out_dir: Optional[str] = option(
        "--out-dir", metavar="DIR", help="Write DIR/queues.yaml and DIR/workload.yaml (DIR is created)."
    )
    config: Optional[str] = option(
        "--queues-out", metavar="PATH", help="Write the queue config (queues.yaml) to this file."
    )
    workload: Optional[str] = option("--workload-out", metavar="PATH", help="Write the workload to this file.")


HELP = """Write a synthetic cluster: a valid queue hierarchy, nodes, applications and asks, all from a seed.

--node-pools, --constrained and --spread add Kubernetes node labels and taints, and pods that select, tolerate or
spread over them (node predicates), e.g. --node-pools gpu=20 --constrained 30 --spread 10; without them the files
are those of earlier versions.

Example: yk generate --nodes 50 --asks 500 --out-dir demo"""


def generate(args: GenerateArgs) -> None:
    """`yk generate`: build the synthetic cluster from the options and write its two files."""
    nodes, queues, apps, asks, seed, running = args.nodes, args.queues, args.apps, args.asks, args.seed, args.running
    node_pools, constrained, spread = args.node_pools, args.constrained, args.spread
    out_dir, config, workload = args.out_dir, args.config, args.workload

    from yk_cli.core.workload.generate import GenerateError, GenerateOptions, check_options, parse_node_pools
    from yk_cli.core.workload.generate import generate as build
    from yk_cli.report.generate_yaml import config_yaml, workload_yaml

    if out_dir is not None and (config is not None or workload is not None):
        raise fail_usage("give either --out-dir or --queues-out and --workload-out, not both")
    if out_dir is None and (config is None or workload is None):
        raise fail_usage("say where to write: --out-dir DIR, or both --queues-out FILE and --workload-out FILE")
    try:
        constrained_pct = _percent("--constrained", constrained)
        spread_pct = _percent("--spread", spread)
        pools = parse_node_pools(node_pools) if node_pools is not None else None
        if pools is None and node_pools is None and (constrained_pct > 0 or spread_pct > 0):
            pools = parse_node_pools("on")
        options = GenerateOptions(
            nodes=nodes,
            queues=queues,
            apps=apps,
            asks=asks,
            seed=seed,
            running=running,
            node_pools=pools,
            constrained=constrained_pct,
            spread=spread_pct,
        )
        check_options(options)
    except GenerateError as err:
        raise fail_usage(str(err)) from None
    if out_dir is not None:
        config_path, workload_path = Path(out_dir) / "queues.yaml", Path(out_dir) / "workload.yaml"
    else:
        assert config is not None and workload is not None
        config_path, workload_path = Path(config), Path(workload)
    if config_path.resolve() == workload_path.resolve():
        raise fail_usage("--config and --workload must be different files")

    generated = build(options)
    command = f"yk generate --nodes {nodes} --queues {queues} --apps {apps} --asks {asks} --seed {seed}"
    if running:
        command += f" --running {running!r}"
    if pools is not None:
        command += f" --node-pools {pools.spec()}"
    if constrained_pct:
        command += f" --constrained {_shown(constrained_pct)}"
    if spread_pct:
        command += f" --spread {_shown(spread_pct)}"
    header = f"Generated by `{command}`: synthetic, not a real cluster."
    try:
        if out_dir is not None:
            Path(out_dir).mkdir(parents=True, exist_ok=True)
        _write(config_path, config_yaml(generated.config, header))
        _write(workload_path, workload_yaml(generated.workload, header))
    except OSError as err:
        raise fail_usage(f"cannot write {err.filename or ''}: {err.strerror or err}") from None
    _echo(f"wrote {config_path}: {len(generated.leaves):,} leaf queues")
    _echo(
        f"wrote {workload_path}: {nodes:,} nodes, {apps:,} applications, {asks:,} asks, "
        f"{generated.allocations:,} running allocations"
    )
    if pools is not None:
        pods = asks + generated.allocations
        _echo(
            f"  node pools: {generated.tainted_nodes:,} tainted nodes ({generated.gpu_nodes:,} in the GPU pool), "
            f"{min(pools.zones, nodes)} zones; {generated.constrained_pods:,} pods with a selector or toleration "
            f"({_share(generated.constrained_pods, pods)}), {generated.spread_pods:,} with zone spread or "
            f"anti-affinity ({_share(generated.spread_pods, pods)})"
        )


def _percent(flag: str, text: str) -> float:
    """A percentage as given (`30` or `30%`)."""
    from yk_cli.core.workload.generate import GenerateError

    try:
        return float(text.strip().removesuffix("%"))
    except ValueError:
        raise GenerateError(f"{flag} needs a percentage, e.g. 30 (got {text!r})") from None


def _shown(value: float) -> str:
    return str(int(value)) if value == int(value) else repr(value)


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %" if whole else "0 %"


def _write(path: Path, text: str) -> None:
    with path.open("w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)


def _echo(line: str) -> None:
    sys.stdout.write(line + "\n")
