"""Benchmark of the HTML report (`yk simulate --format html`): a seeded 10,000-ask dry run, rendered in-process.

Run: `python benchmarks/html_report.py` (3 timed runs, median reported; target <= 5 s on the 2-core machine),
`--runs N`, `--asks N` (another size: nodes, queues and apps scale with it), `--no-preemption` (the partition's
preemption off, as benchmarks/simulate.py's plain sizes), `--write FILE` (also write the last report to FILE, e.g.
to open it in a browser).

The workload is core/workload/generate.py's (seed 42): 1,000 nodes, 100 leaf queues, 1,000 applications and 10,000
asks for the default size, written as YAML text and loaded through yk's own loaders. The dry run and its metrics
run once, untimed; only `render_simulation_html` is timed, and the report's size is printed beside the 10 MB bound.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from yk_cli.core.analysis.metrics import Metrics, run_metrics  # noqa: E402
from yk_cli.core.config.queues import QueueTree, build_queue_tree  # noqa: E402
from yk_cli.core.sim.run import SimulationOptions, simulate  # noqa: E402
from yk_cli.core.sim.trace import Trace  # noqa: E402
from yk_cli.core.workload.generate import GenerateOptions, generate  # noqa: E402
from yk_cli.report.generate_yaml import config_yaml, workload_yaml  # noqa: E402
from yk_cli.report.html import render_simulation_html  # noqa: E402

SEED = 42
ASKS = 10_000
TARGET_SECONDS = 5.0
TARGET_MB = 10.0
MB = 1024 * 1024


@dataclass(frozen=True, slots=True)
class Run:
    """A finished dry run and its metrics: the report's inputs."""

    trace: Trace
    tree: QueueTree
    metrics: Metrics
    source: str


def dry_run(asks: int = ASKS, preemption: bool = True, seed: int = SEED) -> Run:
    """Generate a workload of `asks` asks (a node, an application and a hundredth of a leaf per 10 asks), load it,
    run it and measure it."""
    from yk_cli.load.config import load_config
    from yk_cli.load.workload import parse_workload

    scale = max(1, asks // 10)
    options = GenerateOptions(nodes=scale, queues=max(2, scale // 10), apps=scale, asks=asks, seed=seed)
    generated = generate(options)
    config_text = config_yaml(generated.config)
    if not preemption:
        head = "  - name: default\n"
        config_text = config_text.replace(head, head + "    preemption: {enabled: false}\n", 1)
    loaded = load_config("-", stdin=config_text.encode())
    partition = loaded.configs[0].config.partitions[0]
    tree = build_queue_tree(partition)
    result = parse_workload(workload_yaml(generated.workload), "<generated>")
    errors = [p for p in [*loaded.problems, *result.problems] if p.level == "error"]
    if errors:
        raise SystemExit(f"generated input does not load: {errors[0].message}")
    trace = simulate(partition, tree, result.workload, SimulationOptions())
    queue_of = {a.id: a.queue for a in result.workload.applications if a.queue}
    metrics = run_metrics(trace, result.workload, tree, queue_of)
    return Run(trace, tree, metrics, f"generated (seed {seed}, {asks:,} asks)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--asks", type=int, default=ASKS)
    parser.add_argument("--no-preemption", action="store_true")
    parser.add_argument("--write", metavar="FILE")
    args = parser.parse_args()
    started = time.perf_counter()
    run = dry_run(args.asks, not args.no_preemption)
    print(f"dry run and metrics: {time.perf_counter() - started:.2f} s ({len(run.metrics.pods):,} pods, "
          f"{len(run.trace.events):,} steps, {len(run.trace.pending):,} pending, "
          f"{run.trace.summary.preemptions:,} preemptions)")
    times = []
    text = ""
    for i in range(args.runs):
        started = time.perf_counter()
        text = render_simulation_html(run.trace, run.tree, run.metrics, run.source)
        times.append(time.perf_counter() - started)
        print(f"run {i + 1}: {times[-1]:.3f} s")
    size = len(text.encode("utf-8")) / MB
    median = statistics.median(times)
    verdict = "met" if median <= TARGET_SECONDS else "MISSED"
    print(f"median: {median:.3f} s (target <= {TARGET_SECONDS:.0f} s: {verdict})")
    print(f"report: {size:.2f} MB (bound {TARGET_MB:.0f} MB: {'met' if size <= TARGET_MB else 'MISSED'})")
    if args.write:
        Path(args.write).write_text(text, encoding="utf-8")
        print(f"wrote {args.write}")
    return 0 if median <= TARGET_SECONDS and size <= TARGET_MB else 1


if __name__ == "__main__":
    sys.exit(main())
