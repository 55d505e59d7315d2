"""Benchmark of the node predicates: simulate() on generated clusters with and without them (issue 21, "Speed").

Run: `python benchmarks/predicates.py` (10k and 50k, median of 5), `--runs N`, `--sizes 10k`, `--json`,
`--no-tracemalloc` (skip the extra traced run per workload), `--write DIR` (write each workload's queues.yaml and
workload.yaml to DIR/<size>-predicates and DIR/<size>-plain and stop, e.g. for a profile).

The sizes are benchmarks/simulate.py's `10k` (1,000 nodes / 100 leaf queues / 1,000 apps / 10,000 asks) and `50k`
(5,000 / 500 / 5,000 / 50,000), seed 42, the partition's preemption off (simulate.py's `without_preemption`). The
predicates workload is the same generated cluster with `yk generate --node-pools gpu=20 --constrained 30 --spread
10`: every node labelled with its hostname and one of 3 zones, the first node tainted control-plane and 20 % of the
nodes a GPU pool (labelled and tainted: 20.1 % of the nodes tainted), about 30 % of the pods with a node selector or
toleration (GPU pool, one zone, the GPU taint tolerated, root.system tolerating everything), about 10 % with a zone
topology spread constraint or hostname anti-affinity. The plain workload is that one with every predicate field
stripped (core/workload/generate.py `strip_predicates`): exactly the plain generated size, as simulate.py and
vs_core.py run it.

Each workload is generated, written as YAML and loaded through yk's loader in a fresh process and pickled; every
timed run is then a fresh process that unpickles it and times one `simulate()` call (wall and CPU), runs of the two
workloads alternating so that a change in the machine's load falls on both. Figures are medians over the runs. Peak
memory: the measuring process's max RSS (the loaded workload plus the run) and, in one extra run, the tracemalloc
peak of the `simulate()` call alone. The target: predicates at most 1.5x the plain time. It prints figures, it is not
a test.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.simulate import MB, SEED, SIZES, Size, measure, without_preemption  # noqa: E402
from yk_cli import compiled  # noqa: E402
from yk_cli.core.workload.generate import GenerateOptions, NodePools, generate, strip_predicates  # noqa: E402
from yk_cli.report.generate_yaml import config_yaml, workload_yaml  # noqa: E402

SIZE_NAMES = ("10k", "50k")
POOLS = NodePools(gpu=20, control_plane=1, zones=3)
CONSTRAINED = 30.0
"""Percent of the pods with a node selector or toleration."""
SPREAD = 10.0
"""Percent of the pods with a zone spread constraint or hostname anti-affinity."""
TARGET_RATIO = 1.5
"""simulate() with predicates within this factor of the time without."""
VARIANTS = ("plain", "predicates")


def options(size: Size) -> GenerateOptions:
    """The generator options of the predicates workload of a size."""
    return replace(size.options(), node_pools=POOLS, constrained=CONSTRAINED, spread=SPREAD)


def texts(size: Size, variant: str) -> tuple[str, str, dict[str, Any]]:
    """(queues.yaml text, workload.yaml text, shares) of one workload."""
    generated = generate(options(size))
    workload = generated.workload
    pods = sum(len(app.get("asks") or ()) + len(app.get("allocations") or ()) for app in workload["applications"])
    shares = {
        "pods": pods,
        "nodes": len(workload["nodes"]),
        "tainted_nodes": generated.tainted_nodes,
        "constrained_pods": generated.constrained_pods,
        "spread_pods": generated.spread_pods,
    }
    if variant == "plain":
        strip_predicates(workload)
        shares.update(tainted_nodes=0, constrained_pods=0, spread_pods=0)
    return without_preemption(config_yaml(generated.config), size), workload_yaml(workload), shares


def prepare(size: Size, variant: str, out: Path) -> dict[str, Any]:
    """Generate, write and load one workload; pickle (partition, workload) to out; the figures as a dict."""
    from yk_cli.load.config import load_config
    from yk_cli.load.workload import parse_workload

    started = time.perf_counter()
    config_text, workload_text, shares = texts(size, variant)
    generate_s = time.perf_counter() - started
    started = time.perf_counter()
    loaded = load_config("-", stdin=config_text.encode())
    partition = loaded.configs[0].config.partitions[0]
    result = parse_workload(workload_text, "<generated>")
    load_s = time.perf_counter() - started
    problems = [*loaded.problems, *result.problems]
    errors = [p for p in problems if p.level == "error"]
    if errors:
        raise SystemExit(f"generated input does not load: {errors[0].message}")
    with out.open("wb") as handle:
        pickle.dump((partition, result.workload), handle, protocol=pickle.HIGHEST_PROTOCOL)
    return {
        **shares,
        "generate_s": generate_s,
        "load_s": load_s,
        "warnings": len(problems),
        "workload_mb": len(workload_text.encode()) / MB,
    }


def _child(args: list[str]) -> dict[str, Any]:
    """Run one step in a fresh interpreter and return its JSON figures (or the error it died with)."""
    command = [sys.executable, str(Path(__file__).resolve()), *args]
    done = subprocess.run(command, capture_output=True, check=False, cwd=ROOT)
    if done.returncode != 0:
        tail = done.stderr.decode(errors="replace").strip().splitlines()[-15:]
        return {"error": "\n".join(tail) or f"exit {done.returncode}"}
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def run_size(name: str, runs: int, traced: bool, log: Any) -> dict[str, Any]:
    """Prepare both workloads, then time them alternately, one fresh process per run."""
    load_before = os.getloadavg()
    out: dict[str, Any] = {"variants": {}}
    with tempfile.TemporaryDirectory(prefix="benchmark-predicates-") as tmp:
        pickles = {variant: Path(tmp) / f"{variant}.pickle" for variant in VARIANTS}
        for variant in VARIANTS:
            log(f"{name}: preparing the {variant} workload ...")
            prepared = _child(["--child-prepare", name, "--variant", variant, "--pickle", str(pickles[variant])])
            if "error" in prepared:
                return {"error": prepared["error"]}
            out["variants"][variant] = {**prepared, "runs": []}
        for number in range(runs):
            order = VARIANTS if number % 2 == 0 else VARIANTS[::-1]
            for variant in order:
                measured = _child(["--child-measure", str(pickles[variant]), "--runs", "1", "--no-tracemalloc"])
                if "error" in measured:
                    return {"error": measured["error"]}
                out["variants"][variant]["runs"].append(measured)
                log(f"{name}: run {number + 1}/{runs} {variant}: {measured['median_s']:.3f} s")
        if traced:
            for variant in VARIANTS:
                measured = _child(["--child-measure", str(pickles[variant]), "--runs", "0"])
                out["variants"][variant]["tracemalloc_peak"] = measured.get("tracemalloc_peak", -1)
    out["load"] = (load_before, os.getloadavg())
    for data in out["variants"].values():
        runs_data = data["runs"]
        data["median_s"] = statistics.median(r["median_s"] for r in runs_data)
        data["cpu_median_s"] = statistics.median(r["cpu_median_s"] for r in runs_data)
        data["rss_median"] = statistics.median(r["rss_peak"] for r in runs_data)
        data["rss_loaded_median"] = statistics.median(r["rss_loaded"] for r in runs_data)
        data["times"] = [r["median_s"] for r in runs_data]
        last = runs_data[-1]
        data.update({k: last[k] for k in ("allocations", "completions", "reservations", "pending", "events")})
    return out


def measure_child(source: Path, runs: int, traced: bool) -> dict[str, Any]:
    """simulate() `runs` times (0: only the traced run) on the pickled workload; benchmarks/simulate.py's measure."""
    if runs > 0:
        return measure(source, runs, traced)
    result = measure(source, 1, True)
    return {"tracemalloc_peak": result["tracemalloc_peak"]}


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %" if whole else "-"


def report(results: dict[str, dict[str, Any]], runs: int) -> str:
    """The figures as text."""
    load = os.getloadavg()
    lines = [
        f"yk node predicates benchmark (seed {SEED}, median of {runs} fresh-process runs per workload, "
        f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, {compiled.engine_description()})",
        f"predicates: --node-pools {POOLS.spec()} --constrained {CONSTRAINED:g} --spread {SPREAD:g}; "
        "plain: the same workload with every predicate field stripped",
        f"load average now: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}",
        "",
    ]
    for name, result in results.items():
        size = SIZES[name]
        lines.append(f"[{name}] {size.label()}")
        if "error" in result:
            lines += ["  FAILED:", *(f"    {line}" for line in result["error"].splitlines()), ""]
            continue
        before, after = result["load"]
        lines.append(
            f"  load average (1/5/15 min): {before[0]:.2f} {before[1]:.2f} {before[2]:.2f} before, "
            f"{after[0]:.2f} {after[1]:.2f} {after[2]:.2f} after"
        )
        pred = result["variants"]["predicates"]
        lines.append(
            f"  predicates: {pred['tainted_nodes']:,} of {pred['nodes']:,} nodes tainted "
            f"({_pct(pred['tainted_nodes'], pred['nodes'])}), {pred['constrained_pods']:,} of {pred['pods']:,} pods "
            f"with a selector or toleration ({_pct(pred['constrained_pods'], pred['pods'])}), "
            f"{pred['spread_pods']:,} with zone spread or anti-affinity ({_pct(pred['spread_pods'], pred['pods'])})"
        )
        for variant in VARIANTS:
            data = result["variants"][variant]
            times = ", ".join(f"{t:.3f}" for t in data["times"])
            peak = data.get("tracemalloc_peak", -1)
            lines.append(
                f"  {variant:>10}: simulate() median {data['median_s']:.3f} s (CPU {data['cpu_median_s']:.3f} s; "
                f"runs {times}); max RSS {data['rss_median'] / MB:,.0f} MB "
                f"(loaded {data['rss_loaded_median'] / MB:,.0f} MB)"
                + (f", simulate() tracemalloc peak {peak / MB:,.1f} MB" if peak >= 0 else "")
            )
            lines.append(
                f"  {'':>10}  allocations {data['allocations']:,}, completions {data['completions']:,}, "
                f"reservations {data['reservations']:,}, still pending {data['pending']:,}; "
                f"load/parse {data['load_s']:.2f} s ({data['workload_mb']:.1f} MB of YAML)"
            )
        plain = result["variants"]["plain"]
        ratio = pred["median_s"] / plain["median_s"] if plain["median_s"] else float("nan")
        cpu = pred["cpu_median_s"] / plain["cpu_median_s"] if plain["cpu_median_s"] else float("nan")
        rss = pred["rss_median"] / plain["rss_median"] if plain["rss_median"] else float("nan")
        verdict = "ok" if ratio <= TARGET_RATIO else "MISSED"
        line = f"  predicates / plain: time {ratio:.2f}x (CPU {cpu:.2f}x), max RSS {rss:.2f}x"
        if pred.get("tracemalloc_peak", -1) > 0 and plain.get("tracemalloc_peak", -1) > 0:
            line += f", tracemalloc peak {pred['tracemalloc_peak'] / plain['tracemalloc_peak']:.2f}x"
        lines += [f"{line}   target time <= {TARGET_RATIO}x: {verdict}", ""]
    return "\n".join(lines)


def write(names: list[str], folder: Path) -> None:
    """Write every workload's files to folder/<size>-<variant>/."""
    for name in names:
        for variant in VARIANTS:
            config_text, workload_text, _ = texts(SIZES[name], variant)
            out = folder / f"{name}-{variant}"
            out.mkdir(parents=True, exist_ok=True)
            (out / "queues.yaml").write_text(config_text, encoding="utf-8")
            (out / "workload.yaml").write_text(workload_text, encoding="utf-8")
            print(f"wrote {out}/queues.yaml and workload.yaml")


def main() -> None:
    """Parse options; the parent runs every step in fresh child processes and prints the figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs per workload (median reported)")
    parser.add_argument("--sizes", default=",".join(SIZE_NAMES), help=f"comma-separated, from {', '.join(SIZE_NAMES)}")
    parser.add_argument("--json", action="store_true", help="print the raw figures as JSON")
    parser.add_argument("--no-tracemalloc", action="store_true", help="skip the extra traced run per workload")
    parser.add_argument("--write", metavar="DIR", type=Path, help="write the workloads' files to DIR and stop")
    parser.add_argument("--child-prepare", help=argparse.SUPPRESS)
    parser.add_argument("--child-measure", help=argparse.SUPPRESS)
    parser.add_argument("--variant", choices=VARIANTS, help=argparse.SUPPRESS)
    parser.add_argument("--pickle", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_prepare:
        print(json.dumps(prepare(SIZES[args.child_prepare], args.variant, Path(args.pickle))))
        return
    if args.child_measure:
        print(json.dumps(measure_child(Path(args.child_measure), args.runs, not args.no_tracemalloc)))
        return
    names = [n.strip() for n in args.sizes.split(",") if n.strip()]
    unknown = [n for n in names if n not in SIZE_NAMES]
    if unknown or not names or args.runs < 1:
        parser.error(f"unknown size {unknown[0]!r}" if unknown else "--runs must be at least 1 and --sizes given")
    if args.write:
        write(names, args.write)
        return

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    results = {name: run_size(name, args.runs, not args.no_tracemalloc, log) for name in names}
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print(report(results, args.runs))


if __name__ == "__main__":
    main()
