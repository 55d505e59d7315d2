"""Benchmark of the simulation engine on generated workloads: allocations/second, peak memory, growth with size.

Run: `python benchmarks/simulate.py` (all figures), `--runs N` (timed runs per size, median reported),
`--sizes 10k,50k` (a subset), `--no-cli` (skip the fresh-process `yk simulate` run).

Each size runs in a fresh Python process so its memory figures are its own. Only the `simulate()` call is
timed; generating, writing and loading the workload (YAML text -> Workload) are reported apart.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from yk_cli.core.generate import GenerateOptions, generate  # noqa: E402
from yk_cli.report.generate_yaml import config_yaml, workload_yaml  # noqa: E402

SEED = 42
MB = 1024 * 1024
TARGET_RATE = 10_000
"""Allocations per second, on both sizes."""
TARGET_PEAK_MB = 400
"""Peak memory at 50k asks."""
TARGET_GROWTH = 5.0
"""200k asks within this factor of the 50k time."""


@dataclass(frozen=True, slots=True)
class Size:
    """One benchmark workload."""

    name: str
    nodes: int
    queues: int
    apps: int
    asks: int

    def options(self) -> GenerateOptions:
        """The generator options for this size."""
        return GenerateOptions(nodes=self.nodes, queues=self.queues, apps=self.apps, asks=self.asks, seed=SEED)

    def label(self) -> str:
        """Human description."""
        return f"{self.nodes:,} nodes / {self.queues:,} leaf queues / {self.apps:,} apps / {self.asks:,} asks"


SIZES = {
    "10k": Size("10k", 1_000, 100, 1_000, 10_000),
    "50k": Size("50k", 5_000, 500, 5_000, 50_000),
    "200k": Size("200k", 20_000, 2_000, 20_000, 200_000),
}
"""Sizes grow together (10 asks per node and per app, 100 asks per leaf queue), so time should grow linearly."""


def _load(config_text: str, workload_text: str) -> tuple[Any, Any, Any]:
    """YAML texts -> (PartitionConfig, QueueTree, Workload) through yk's own loaders."""
    from yk_cli.core.queues import build_queue_tree
    from yk_cli.load.config import load_config
    from yk_cli.load.workload import parse_workload

    loaded = load_config("-", stdin=config_text.encode())
    partition = loaded.configs[0].config.partitions[0]
    tree = build_queue_tree(partition)
    result = parse_workload(workload_text, "<generated>", tree)
    errors = [p for p in (*loaded.problems, *result.problems) if p.level == "error"]
    if errors:
        raise SystemExit(f"generated input does not load: {errors[0].message}")
    return partition, tree, result.workload


def _allocations(trace: Any) -> int:
    """Allocate events in a trace."""
    events = getattr(trace, "events", trace)
    count = 0
    for event in events:
        kind = getattr(event, "type", getattr(event, "kind", ""))
        if str(getattr(kind, "value", kind)).lower() in ("allocate", "allocated"):
            count += 1
    return count


def _pending(trace: Any) -> int:
    return len(getattr(trace, "pending", ()))


def run_size(size: Size, runs: int) -> dict[str, Any]:
    """Generate, load and simulate one size `runs` times (plus one traced run for memory); figures as a dict."""
    from yk_cli.core.simulation import SimulationOptions, simulate

    started = time.perf_counter()
    generated = generate(size.options())
    generate_s = time.perf_counter() - started
    started = time.perf_counter()
    config_text = config_yaml(generated.config)
    workload_text = workload_yaml(generated.workload)
    write_s = time.perf_counter() - started
    del generated
    started = time.perf_counter()
    partition, tree, workload = _load(config_text, workload_text)
    load_s = time.perf_counter() - started
    del config_text, workload_text
    gc.collect()
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024

    times: list[float] = []
    allocations = pending = 0
    for _ in range(runs):
        from yk_cli.core.queues import build_queue_tree

        tree = build_queue_tree(partition)  # a fresh tree: the engine may keep state on it
        gc.collect()
        started = time.perf_counter()
        trace = simulate(partition, tree, workload, SimulationOptions())
        times.append(time.perf_counter() - started)
        allocations, pending = _allocations(trace), _pending(trace)
        del trace
    rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024

    from yk_cli.core.queues import build_queue_tree

    tree = build_queue_tree(partition)
    gc.collect()
    tracemalloc.start()
    baseline = tracemalloc.get_traced_memory()[0]
    trace = simulate(partition, tree, workload, SimulationOptions())
    peak = tracemalloc.get_traced_memory()[1] - baseline
    tracemalloc.stop()
    del trace
    median = statistics.median(times)
    return {
        "size": size.name,
        "label": size.label(),
        "generate_s": generate_s,
        "write_s": write_s,
        "load_s": load_s,
        "times": times,
        "median_s": median,
        "allocations": allocations,
        "pending": pending,
        "rate": allocations / median if median > 0 else 0.0,
        "tracemalloc_peak": peak,
        "rss_before": rss_before,
        "rss_peak": rss_after,
    }


def run_cli(size: Size) -> dict[str, Any]:
    """`yk generate` files, then `yk simulate` on them as a fresh process: wall time and its peak RSS."""
    with tempfile.TemporaryDirectory(prefix="yk-bench-") as tmp:
        out = Path(tmp)
        generated = generate(size.options())
        (out / "queues.yaml").write_text(config_yaml(generated.config), encoding="utf-8")
        (out / "workload.yaml").write_text(workload_yaml(generated.workload), encoding="utf-8")
        del generated
        workload_mb = (out / "workload.yaml").stat().st_size / MB
        command = [sys.executable, "-m", "yk_cli", "simulate", str(out / "queues.yaml"), str(out / "workload.yaml")]
        command += ["--format", "json"]
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, check=False)
        wall = time.perf_counter() - started
        rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
        allocations = 0
        if done.returncode in (0, 1):
            try:
                data = json.loads(done.stdout)
                allocations = sum(1 for e in data.get("events", ()) if e.get("type") == "allocate")
            except (ValueError, AttributeError):
                allocations = 0
        return {
            "command": "yk simulate queues.yaml workload.yaml --format json",
            "returncode": done.returncode,
            "stderr": done.stderr.decode(errors="replace")[-2000:],
            "wall_s": wall,
            "rss_peak": rss,
            "workload_mb": workload_mb,
            "allocations": allocations,
        }


def _child(args: list[str]) -> dict[str, Any]:
    """Run one measurement in a fresh interpreter and return its JSON figures."""
    command = [sys.executable, str(Path(__file__).resolve()), *args]
    done = subprocess.run(command, capture_output=True, check=False, cwd=ROOT)
    if done.returncode != 0:
        tail = done.stderr.decode(errors="replace").strip().splitlines()[-15:]
        return {"error": "\n".join(tail) or f"exit {done.returncode}"}
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def _mark(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def _report(results: dict[str, dict[str, Any]], cli: dict[str, Any] | None, runs: int) -> str:
    lines = [f"yk simulation benchmark (seed {SEED}, median of {runs} runs, Python {sys.version.split()[0]}, "]
    lines[0] += f"{os.cpu_count()} CPUs)"
    lines.append("")
    for name, r in results.items():
        lines.append(f"[{name}] {SIZES[name].label()}")
        if "error" in r:
            lines.append("  FAILED:")
            lines.extend(f"    {line}" for line in r["error"].splitlines())
            lines.append("")
            continue
        runs_text = ", ".join(f"{t:.2f}" for t in r["times"])
        lines.append(
            f"  generate {r['generate_s']:.2f} s, write YAML {r['write_s']:.2f} s, load/parse {r['load_s']:.2f} s"
        )
        lines.append(f"  simulate: median {r['median_s']:.3f} s  (runs: {runs_text} s)")
        lines.append(f"  allocations {r['allocations']:,}, still pending {r['pending']:,}")
        rate_ok = r["rate"] >= TARGET_RATE
        lines.append(f"  allocations/s {r['rate']:,.0f}   target >= {TARGET_RATE:,}: {_mark(rate_ok)}")
        peak = r["tracemalloc_peak"] / MB
        rss = r["rss_peak"] / MB
        before = r["rss_before"] / MB
        line = f"  peak memory: simulate() tracemalloc {peak:,.0f} MB; process max RSS {rss:,.0f} MB "
        line += f"(after loading: {before:,.0f} MB)"
        if name == "50k":
            line += f"   target <= {TARGET_PEAK_MB} MB: {_mark(max(peak, rss) <= TARGET_PEAK_MB)}"
        lines.append(line)
        lines.append("")
    ok = {n: r for n, r in results.items() if "error" not in r}
    if ok:
        lines.append("growth (simulate() median):")
        for name, r in ok.items():
            per_ask = r["median_s"] / SIZES[name].asks * 1e6
            lines.append(f"  {name:>5} asks: {r['median_s']:8.3f} s  ({per_ask:.1f} µs/ask)")
        if "50k" in ok and "200k" in ok:
            ratio = ok["200k"]["median_s"] / ok["50k"]["median_s"]
            lines.append(
                f"  200k / 50k = {ratio:.2f}x (linear is 4x)   target <= {TARGET_GROWTH:.0f}x: "
                f"{_mark(ratio <= TARGET_GROWTH)}"
            )
        if "10k" in ok and "50k" in ok:
            lines.append(f"  50k / 10k = {ok['50k']['median_s'] / ok['10k']['median_s']:.2f}x (linear is 5x)")
        lines.append("")
    if cli is not None:
        lines.append(f"[cli] {cli.get('command', 'yk simulate')} on the 50k workload, fresh process")
        if "error" in cli:
            lines.append(f"  FAILED: {cli['error']}")
        else:
            lines.append(
                f"  exit {cli['returncode']}, wall {cli['wall_s']:.2f} s (start-up + load + simulate + JSON), "
                f"max RSS {cli['rss_peak'] / MB:,.0f} MB, workload file {cli['workload_mb']:.1f} MB, "
                f"allocations {cli['allocations']:,}"
            )
            if cli["returncode"] not in (0, 1):
                lines.extend(f"    {line}" for line in cli["stderr"].splitlines()[-10:])
            elif cli["allocations"]:
                lines.append(f"  end-to-end allocations/s {cli['allocations'] / cli['wall_s']:,.0f}")
    return "\n".join(lines)


def main() -> None:
    """Parse options; the parent runs every size in a child process and prints the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="timed simulate() runs per size (median reported)")
    parser.add_argument("--sizes", default="10k,50k,200k", help="comma-separated subset of 10k,50k,200k")
    parser.add_argument("--no-cli", action="store_true", help="skip the fresh-process `yk simulate` run")
    parser.add_argument("--json", action="store_true", help="print the raw figures as JSON")
    parser.add_argument("--child-size", help=argparse.SUPPRESS)
    parser.add_argument("--child-cli", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_size:
        print(json.dumps(run_size(SIZES[args.child_size], args.runs)))
        return
    if args.child_cli:
        print(json.dumps(run_cli(SIZES[args.child_cli])))
        return
    names = [n.strip() for n in args.sizes.split(",") if n.strip()]
    unknown = [n for n in names if n not in SIZES]
    if unknown or args.runs < 1:
        parser.error(f"unknown size {unknown[0]!r}" if unknown else "--runs must be at least 1")
    results: dict[str, dict[str, Any]] = {}
    for name in names:
        print(f"running {name} ...", file=sys.stderr, flush=True)
        results[name] = _child(["--child-size", name, "--runs", str(args.runs)])
    cli = None
    if not args.no_cli:
        print("running yk simulate on the 50k files ...", file=sys.stderr, flush=True)
        cli = _child(["--child-cli", "50k"])
    if args.json:
        print(json.dumps({"sizes": results, "cli": cli}, indent=2))
    else:
        print(_report(results, cli, args.runs))


if __name__ == "__main__":
    main()
