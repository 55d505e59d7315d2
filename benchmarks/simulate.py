"""Benchmark of the simulation engine on generated workloads: allocations/second, peak memory, growth with size.

Run: `python benchmarks/simulate.py` (all figures), `--runs N` (timed runs per size, median reported),
`--sizes 10k,50k` (a subset; `10k+gang`, `50k+gang`: every 5th application a gang; `--sizes
10k,50k-fixed,200k-fixed` grows the asks and nodes but not the queues and apps; `--sizes preempt` is the
preemption-heavy cluster below), `--no-cli` (skip the fresh-process
`yk simulate` runs), `--cli 50k,preempt` (which sizes get one), `--skip-parse` (build the Workload from the
generated data without the YAML text round trip, for quick iterations), `--write-preempt DIR` (write the
preemption-heavy queues.yaml/workload.yaml to DIR and stop, e.g. for a profile).

Generated sizes (10k, 50k, 200k, 150k, the -fixed ones) run with the partition's preemption disabled: the workloads
that do not preempt. `10k+l` and `50k+l` are the 10k and 50k workloads with user and group limits on every leaf
(with_limits: every user may run 2 applications there, the leaf's team group a quarter of its max).
`10k+p` and `50k+p` are the same workloads with preemption on: their guarantees and endless
churn make every pending ask in a guaranteed queue retry preemption every 15 virtual seconds, as the core does.

The `preempt` size is not from core/workload/generate.py: 1,000 nodes (16 vcore / 64Gi) full of low-priority allocations
(4 per node, 4 vcore / 16Gi each) in four over-guarantee leaves root.batch.b0..b3, and 5,000 high-priority asks
of the same size in root.prod, under its guarantee (40 % of the cluster) and submitted 60 s before the start
(older than the 30 s preemption.delay): every cycle preempts. It is written as queues.yaml/workload.yaml in a
temporary folder and loaded from those files, then measured like the other sizes. `preempt-250` and
`preempt-100` are the same cluster at a quarter and a tenth (for profiles); `--no-tracemalloc` skips the extra
traced run.

Per size, one fresh process generates the workload (core/workload/generate.py, in memory), renders it as YAML text and
loads it through yk's own loaders (timed apart: "load/parse"), then hands the loaded values to a second fresh
process that only simulates: its memory figures are the engine's plus the loaded workload's, not the YAML
parser's. Only the `simulate()` call is timed.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import pickle
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

from yk_cli import compiled  # noqa: E402
from yk_cli.core.workload.generate import GenerateOptions, generate  # noqa: E402
from yk_cli.report.generate_yaml import config_yaml, workload_yaml  # noqa: E402

SEED = 42
MB = 1024 * 1024
TARGET_RATE = 10_000
"""Allocations per second, on both sizes."""
TARGET_PEAK_MB = 400
"""Peak memory at 50k asks."""
TARGET_GROWTH = 5.0
"""200k asks within this factor of the 50k time."""
TARGET_PREEMPT_S = 10.0
"""The preemption-heavy size: load + simulate within this many seconds."""
TARGET_CLI_S = {"150k": 12.0, "preempt": 10.0}
"""Fresh-process `yk simulate` wall time per size."""


@dataclass(frozen=True, slots=True)
class Size:
    """One benchmark workload."""

    name: str
    nodes: int
    queues: int
    apps: int
    asks: int
    kind: str = "generated"
    """generated (core/workload/generate.py) or preempt (preempt_texts)."""
    preemption: bool = False
    """A generated size with the partition's preemption left on (its guarantees make failing asks try)."""
    gang: int = 0
    """Every gang-th application gets task groups (gang scheduling: one group per ask shape); 0: none."""
    limits: bool = False
    """A generated size with user and group limits on every leaf (see with_limits)."""

    def options(self) -> GenerateOptions:
        """The generator options for this size."""
        return GenerateOptions(nodes=self.nodes, queues=self.queues, apps=self.apps, asks=self.asks, seed=SEED)

    def label(self) -> str:
        """Human description."""
        if self.kind == "preempt":
            return (
                f"{self.nodes:,} nodes full of {self.nodes * PREEMPT_PER_NODE:,} low-priority allocations in "
                f"{self.queues - 1} over-guarantee leaves / {self.asks:,} high-priority asks in root.prod "
                f"(under guarantee, submitted -60s)"
            )
        label = f"{self.nodes:,} nodes / {self.queues:,} leaf queues / {self.apps:,} apps / {self.asks:,} asks"
        if self.gang:
            label += f" with every {self.gang}th application a gang (a task group per ask shape, 5 min timeout)"
        if self.limits:
            label += " / user and group limits on every leaf"
        if self.preemption:
            return label + " (preemption on: pending asks in guaranteed queues try it every 15 virtual s)"
        return label + " (preemption.enabled: false: a workload that does not preempt)"


SIZES = {
    "10k": Size("10k", 1_000, 100, 1_000, 10_000),
    "50k": Size("50k", 5_000, 500, 5_000, 50_000),
    "200k": Size("200k", 20_000, 2_000, 20_000, 200_000),
    "50k-fixed": Size("50k-fixed", 5_000, 100, 1_000, 50_000),
    "200k-fixed": Size("200k-fixed", 20_000, 100, 1_000, 200_000),
    "150k": Size("150k", 5_000, 500, 5_000, 150_000),
    "10k+l": Size("10k+l", 1_000, 100, 1_000, 10_000, limits=True),
    "50k+l": Size("50k+l", 5_000, 500, 5_000, 50_000, limits=True),
    "10k+p": Size("10k+p", 1_000, 100, 1_000, 10_000, preemption=True),
    "10k+gang": Size("10k+gang", 1_000, 100, 1_000, 10_000, gang=5),
    "50k+gang": Size("50k+gang", 5_000, 500, 5_000, 50_000, gang=5),
    "10k+lg": Size("10k+lg", 1_000, 100, 1_000, 10_000, limits=True, gang=5),
    "50k+lg": Size("50k+lg", 5_000, 500, 5_000, 50_000, limits=True, gang=5),
    "50k+p": Size("50k+p", 5_000, 500, 5_000, 50_000, preemption=True),
    "preempt": Size("preempt", 1_000, 5, 90, 5_000, kind="preempt"),
    "preempt-250": Size("preempt-250", 250, 5, 90, 1_250, kind="preempt"),
    "preempt-100": Size("preempt-100", 100, 5, 90, 500, kind="preempt"),
}
"""The default series grows the whole cluster with the asks (10 asks per node and per app, 100 per leaf queue).
The -fixed series grows nodes with the asks but keeps the 10k size's 100 leaf queues and 1,000 apps. Generated sizes
run with the partition's preemption disabled (the generated configs have guarantees and every pod ends, so with it
on, every pending ask in a guaranteed queue of a full cluster retries preemption every 15 virtual seconds, as the
core does); the +p sizes keep it on."""
SERIES = {"": ("10k", "50k", "200k"), "-fixed": ("10k", "50k-fixed", "200k-fixed")}


PREEMPT_PER_NODE = 4
"""Running allocations per node in the preempt size."""
PREEMPT_LEAVES = 4
PREEMPT_BATCH_APPS = 10
"""Applications per batch leaf."""
PREEMPT_PROD_APPS = 50


def preempt_texts(size: Size, seed: int = SEED) -> tuple[str, str]:
    """The preemption-heavy size as (queues.yaml, workload.yaml) text: seeded, byte-identical for one seed.

    Every node (16 vcore / 64Gi) runs PREEMPT_PER_NODE allocations of 4 vcore / 16Gi, one per batch leaf, with
    priority 0-9 and a start time between 2 h and 1 min ago. root.batch guarantees 2.5 % of the cluster (each
    leaf a quarter of that), so every batch leaf is over its guarantee and gives victims. root.prod guarantees
    40 %; its asks (priority 1000, the size of one allocation) have waited 60 s, past the 30 s preemption.delay.
    """
    import random

    rng = random.Random(seed)
    vcore, memory = 16, 64
    per = vcore // PREEMPT_PER_NODE
    total_vcore, total_mem = size.nodes * vcore, size.nodes * memory
    leaf_vcore, leaf_mem = total_vcore // 160, total_mem // 160
    config = [
        "partitions:",
        "  - name: default",
        "    queues:",
        "      - name: root",
        "        submitacl: '*'",
        "        queues:",
        "          - name: prod",
        "            resources:",
        f"              guaranteed: {{vcore: {total_vcore * 2 // 5}, memory: {total_mem * 2 // 5}Gi}}",
        "          - name: batch",
        "            resources:",
        f"              guaranteed: {{vcore: {leaf_vcore * PREEMPT_LEAVES}, memory: {leaf_mem * PREEMPT_LEAVES}Gi}}",
        "            queues:",
    ]
    for leaf in range(PREEMPT_LEAVES):
        config += [
            f"              - name: b{leaf}",
            "                resources:",
            f"                  guaranteed: {{vcore: {leaf_vcore}, memory: {leaf_mem}Gi}}",
        ]
    work = ["partition: default", "nodes:"]
    work += [
        f"  - {{name: node-{n:04d}, resources: {{vcore: {vcore}, memory: {memory}Gi}}}}" for n in range(size.nodes)
    ]
    work.append("applications:")
    running: dict[tuple[int, int], list[str]] = {}
    for n in range(size.nodes):
        for slot in range(PREEMPT_PER_NODE):
            leaf = slot % PREEMPT_LEAVES
            app = rng.randrange(PREEMPT_BATCH_APPS)
            start = rng.randrange(60, 7200)
            running.setdefault((leaf, app), []).append(
                f"      - {{name: b{leaf}-{app}-run-{n:04d}-{slot}, node: node-{n:04d}, priority: {rng.randrange(10)}, "
                f"resources: {{vcore: {per}, memory: {memory // PREEMPT_PER_NODE}Gi}}, startTime: -{start}s}}"
            )
    for leaf in range(PREEMPT_LEAVES):
        for app in range(PREEMPT_BATCH_APPS):
            work += [f"  - id: batch-b{leaf}-{app:02d}", f"    queue: root.batch.b{leaf}", "    submitTime: -2h"]
            work += ["    allocations:", *running.get((leaf, app), [])]
    for app in range(PREEMPT_PROD_APPS):
        work += [f"  - id: prod-{app:02d}", "    queue: root.prod", "    submitTime: -60s", "    asks:"]
        for k in range(app, size.asks, PREEMPT_PROD_APPS):
            work.append(
                f"      - {{name: prod-{app:02d}-{k:05d}, priority: 1000, "
                f"resources: {{vcore: {per}, memory: {memory // PREEMPT_PER_NODE}Gi}}, submitTime: -60s}}"
            )
    return "\n".join(config) + "\n", "\n".join(work) + "\n"


def with_limits(config: dict[str, Any], size: Size) -> dict[str, Any]:
    """The generated config with `limits:` on every leaf when the size asks for them: every user may run 2
    applications there (the wildcard user entry), and the leaf's team group (its parent's name, which the generated
    applications list among their groups) may use a quarter of the leaf's max. Applications of 2-6 users share a
    leaf, so both hold back work."""
    if not size.limits:
        return config

    def visit(queue: dict[str, Any], parent: str) -> None:
        children = queue.get("queues")
        if children:
            for child in children:
                visit(child, queue["name"])
            return
        if parent == "root":
            return
        limits: list[dict[str, Any]] = [
            {"limit": f"the {parent} team", "groups": [parent], "maxresources": _quarter(queue)},
            {
                "limit": "two applications per user",
                "users": ["*"],
                "maxapplications": min(2, queue.get("maxapplications") or 2),
            },
        ]
        if not limits[0]["maxresources"]:
            del limits[0]
        queue["limits"] = limits

    for partition in config["partitions"]:
        for root in partition["queues"]:
            visit(root, "root")
    return config


def _quarter(queue: dict[str, Any]) -> dict[str, str]:
    """A quarter of the queue's max (vcore in whole cores, memory in Gi), {} without one."""
    top = queue.get("resources", {}).get("max") or {}
    out = {}
    if "vcore" in top:
        out["vcore"] = str(max(1, int(str(top["vcore"])) // 4))
    memory = str(top.get("memory", ""))
    if memory.endswith("Gi"):
        out["memory"] = f"{max(1, int(memory[:-2]) // 4)}Gi"
    return out


def without_preemption(config_text: str, size: Size) -> str:
    """The generated config with `preemption: {enabled: false}` on its partition (unless the size keeps it on)."""
    head = "  - name: default\n"
    if size.preemption or head not in config_text:
        return config_text
    return config_text.replace(head, head + "    preemption: {enabled: false}\n", 1)


def with_gangs(workload: dict[str, Any], every: int) -> dict[str, Any]:
    """Every `every`-th application as a gang: one task group per distinct ask shape (minMember its asks of that
    shape, minResource the shape), its asks naming their group, a 5-minute placeholder timeout (20% with 5)."""
    if not every:
        return workload
    for i, app in enumerate(workload.get("applications") or []):
        if i % every != every - 1 or not app.get("asks"):
            continue
        groups: dict[str, dict[str, Any]] = {}
        for ask in app["asks"]:
            shape = json.dumps(ask.get("resources") or {}, sort_keys=True)
            group = groups.setdefault(
                shape, {"name": f"g{len(groups)}", "minMember": 0, "minResource": dict(ask.get("resources") or {})}
            )
            group["minMember"] += int(ask.get("count", 1))
            ask["taskGroupName"] = group["name"]
        app["taskGroups"] = list(groups.values())
        app["placeholderTimeoutInSeconds"] = 300
    return workload


def write_size(size: Size, out: Path) -> None:
    """Write the size's queues.yaml and workload.yaml to out."""
    out.mkdir(parents=True, exist_ok=True)
    if size.kind == "preempt":
        config_text, workload_text = preempt_texts(size)
    else:
        generated = generate(size.options())
        config_text = without_preemption(config_yaml(with_limits(generated.config, size)), size)
        workload_text = workload_yaml(with_gangs(generated.workload, size.gang))
    (out / "queues.yaml").write_text(config_text, encoding="utf-8")
    (out / "workload.yaml").write_text(workload_text, encoding="utf-8")


def _max_rss() -> int:
    """This process's peak resident set size in bytes (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def prepare(size: Size, out: Path, skip_parse: bool) -> dict[str, Any]:
    """Generate a size, load it through yk's loaders, and pickle (partition, workload) to out; timings as a dict."""
    from yk_cli.load.config import load_config
    from yk_cli.load.workload import parse_workload

    if size.kind == "preempt":
        return _prepare_preempt(size, out)
    started = time.perf_counter()
    generated = generate(size.options())
    with_gangs(generated.workload, size.gang)
    generate_s = time.perf_counter() - started
    started = time.perf_counter()
    config_text = without_preemption(config_yaml(with_limits(generated.config, size)), size)
    workload_text = workload_yaml(generated.workload)
    write_s = time.perf_counter() - started
    started = time.perf_counter()
    loaded = load_config("-", stdin=config_text.encode())
    partition = loaded.configs[0].config.partitions[0]
    problems = list(loaded.problems)
    if skip_parse:
        from yk_cli.load.workload import _Builder  # the loader's own plain data -> Workload step

        builder = _Builder()
        workload = builder.workload(generated.workload)
        problems.extend(builder.problems)
    else:
        result = parse_workload(workload_text, "<generated>")
        workload = result.workload
        problems.extend(result.problems)
    load_s = time.perf_counter() - started
    errors = [p for p in problems if p.level == "error"]
    if errors:
        raise SystemExit(f"generated input does not load: {errors[0].message}")
    with out.open("wb") as handle:
        pickle.dump((partition, workload), handle, protocol=pickle.HIGHEST_PROTOCOL)
    return {
        "generate_s": generate_s,
        "write_s": write_s,
        "load_s": load_s,
        "load_kind": "plain data -> Workload (no YAML)" if skip_parse else "YAML text -> Workload",
        "workload_mb": len(workload_text.encode()) / MB,
        "load_rss": _max_rss(),
    }


def _prepare_preempt(size: Size, out: Path) -> dict[str, Any]:
    """The preempt size: write queues.yaml/workload.yaml to a temporary folder and load them from there."""
    from yk_cli.load.config import load_config
    from yk_cli.load.workload import parse_workload

    with tempfile.TemporaryDirectory(prefix="benchmark-preempt-") as tmp:
        folder = Path(tmp)
        started = time.perf_counter()
        config_text, workload_text = preempt_texts(size)
        generate_s = time.perf_counter() - started
        started = time.perf_counter()
        (folder / "queues.yaml").write_text(config_text, encoding="utf-8")
        (folder / "workload.yaml").write_text(workload_text, encoding="utf-8")
        write_s = time.perf_counter() - started
        started = time.perf_counter()
        loaded = load_config(str(folder / "queues.yaml"))
        partition = loaded.configs[0].config.partitions[0]
        problems = list(loaded.problems)
        result = parse_workload((folder / "workload.yaml").read_text(encoding="utf-8"), str(folder / "workload.yaml"))
        problems.extend(result.problems)
        load_s = time.perf_counter() - started
    errors = [p for p in problems if p.level == "error"]
    if errors:
        raise SystemExit(f"preempt input does not load: {errors[0].message}")
    with out.open("wb") as handle:
        pickle.dump((partition, result.workload), handle, protocol=pickle.HIGHEST_PROTOCOL)
    return {
        "generate_s": generate_s,
        "write_s": write_s,
        "load_s": load_s,
        "load_kind": "queues.yaml + workload.yaml files -> Workload",
        "workload_mb": len(workload_text.encode()) / MB,
        "load_rss": _max_rss(),
    }


def measure(source: Path, runs: int, traced: bool = True) -> dict[str, Any]:
    """Simulate the pickled (partition, workload) `runs` times, then (traced) once under tracemalloc."""
    from yk_cli.core.config.queues import build_queue_tree
    from yk_cli.core.sim.run import SimulationOptions, simulate

    with source.open("rb") as handle:
        partition, workload = pickle.load(handle)
    gc.collect()
    rss_loaded = _max_rss()
    times: list[float] = []
    cpu: list[float] = []
    summary: dict[str, int] = {}
    for _ in range(runs):
        tree = build_queue_tree(partition)
        gc.collect()
        started, cpu_started = time.perf_counter(), time.process_time()
        trace = simulate(partition, tree, workload, SimulationOptions())
        times.append(time.perf_counter() - started)
        cpu.append(time.process_time() - cpu_started)
        summary = _summary(trace)
        del trace, tree
    rss_peak = _max_rss()
    traced_peak = -1
    if traced:
        tree = build_queue_tree(partition)
        gc.collect()
        tracemalloc.start()
        baseline = tracemalloc.get_traced_memory()[0]
        trace = simulate(partition, tree, workload, SimulationOptions())
        traced_peak = tracemalloc.get_traced_memory()[1] - baseline
        tracemalloc.stop()
        del trace
    median = statistics.median(times)
    return {
        "times": times,
        "median_s": median,
        "cpu_median_s": statistics.median(cpu),
        **summary,
        "rate": summary["allocations"] / median if median > 0 else 0.0,
        "victim_rate": summary["victims"] / median if median > 0 else 0.0,
        "tracemalloc_peak": traced_peak,
        "rss_loaded": rss_loaded,
        "rss_peak": rss_peak,
    }


def _summary(trace: Any) -> dict[str, int]:
    """Counts from a trace: allocations, completions, reservations, still pending, trace events."""
    summary = trace.summary
    return {
        "allocations": int(summary.allocations),
        "completions": int(summary.completions),
        "reservations": int(summary.reservations),
        "victims": int(summary.preemptions),
        "preempt_events": sum(1 for event in trace.events if event.type == "preempt"),
        "attempts": len(trace.attempts),
        "pending": len(trace.pending),
        "events": len(trace.events),
    }


def run_cli(size: Size) -> dict[str, Any]:
    """Write the size's files, then run `yk simulate` on them as a fresh process: wall and CPU time, peak RSS."""
    with tempfile.TemporaryDirectory(prefix="benchmark-simulate-") as tmp:
        out = Path(tmp)
        write_size(size, out)
        command = [sys.executable, "-m", "yk_cli", "simulate", str(out / "queues.yaml"), str(out / "workload.yaml")]
        command += ["--format", "json"]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, check=False)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        allocations = victims = 0
        if done.returncode in (0, 1):
            try:
                data = json.loads(done.stdout)
                events = data.get("events", ())
                allocations = sum(1 for e in events if e.get("type") == "allocate")
                victims = sum(len(e.get("victims", ())) for e in events if e.get("type") == "preempt")
            except (ValueError, AttributeError):
                allocations = 0
        return {
            "command": "yk simulate queues.yaml workload.yaml --format json",
            "returncode": done.returncode,
            "stderr": done.stderr.decode(errors="replace")[-2000:],
            "wall_s": wall,
            "cpu_s": (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime),
            "rss_peak": after.ru_maxrss * 1024,
            "allocations": allocations,
            "victims": victims,
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


def run_size(name: str, runs: int, skip_parse: bool, traced: bool = True) -> dict[str, Any]:
    """Prepare in one fresh process, measure in another; the load averages before and after."""
    before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="benchmark-simulate-") as tmp:
        data = Path(tmp) / "input.pickle"
        prepared = _child(["--child-prepare", name, "--pickle", str(data), *(["--skip-parse"] if skip_parse else [])])
        if "error" in prepared:
            return prepared
        measure = ["--child-measure", name, "--pickle", str(data), "--runs", str(runs)]
        measured = _child([*measure, *([] if traced else ["--no-tracemalloc"])])
        return {**prepared, **measured, "load_avg": (before, os.getloadavg()[0])}


def _mark(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def _report(results: dict[str, dict[str, Any]], cli: dict[str, dict[str, Any]] | None, runs: int) -> str:
    lines = [
        f"yk simulation benchmark (seed {SEED}, median of {runs} runs, Python {sys.version.split()[0]}, "
        f"{os.cpu_count()} CPUs, {compiled.engine_description()})",
        "",
    ]
    for name, r in results.items():
        lines.append(f"[{name}] {SIZES[name].label()}")
        if "load_avg" in r:
            lines[-1] += f"  (1-min load average {r['load_avg'][0]:.1f} -> {r['load_avg'][1]:.1f})"
        if "error" in r:
            lines.append("  FAILED:")
            lines.extend(f"    {line}" for line in r["error"].splitlines())
            lines.append("")
            continue
        lines.append(
            f"  generate {r['generate_s']:.2f} s, write YAML {r['write_s']:.2f} s ({r['workload_mb']:.1f} MB), "
            f"load/parse {r['load_s']:.2f} s ({r['load_kind']}; loader process max RSS {r['load_rss'] / MB:,.0f} MB)"
        )
        runs_text = ", ".join(f"{t:.3f}" for t in r["times"])
        lines.append(f"  simulate(): median {r['median_s']:.3f} s  (runs: {runs_text} s)")
        lines.append(
            f"  allocations {r['allocations']:,}, completions {r['completions']:,}, reservations "
            f"{r['reservations']:,}, still pending {r['pending']:,}, trace events {r['events']:,}"
        )
        lines.append(f"  simulate() CPU time: median {r['cpu_median_s']:.3f} s")
        if SIZES[name].kind == "preempt":
            whole = r["load_s"] + r["median_s"]
            lines.append(
                f"  preemptions: {r['preempt_events']:,} preempt events, {r['victims']:,} victims, "
                f"{r['victim_rate']:,.1f} victims/s; load + simulate {whole:.2f} s"
                + (
                    f"   target <= {TARGET_PREEMPT_S:.0f} s: {_mark(whole <= TARGET_PREEMPT_S)}"
                    if name == "preempt"
                    else ""
                )
            )
        elif SIZES[name].preemption:
            lines.append(
                f"  allocations/s {r['rate']:,.0f}; preemption tries {r['attempts']:,}, preempt events "
                f"{r['preempt_events']:,}, victims {r['victims']:,} (no target: a preempting workload)"
            )
        else:
            lines.append(
                f"  allocations/s {r['rate']:,.0f}   target >= {TARGET_RATE:,}: {_mark(r['rate'] >= TARGET_RATE)}"
            )
        traced, rss, loaded = r["tracemalloc_peak"] / MB, r["rss_peak"] / MB, r["rss_loaded"] / MB
        line = f"  peak memory: process max RSS {rss:,.0f} MB (workload loaded: {loaded:,.0f} MB)"
        if r["tracemalloc_peak"] >= 0:
            line += f"; simulate() tracemalloc peak {traced:,.0f} MB"
        if name.startswith("50k"):
            line += f"   target <= {TARGET_PEAK_MB} MB: {_mark(rss <= TARGET_PEAK_MB)}"
        lines.append(line)
        lines.append("")
    ok = {n: r for n, r in results.items() if "error" not in r}
    for suffix, (small, middle, large) in SERIES.items():
        series = [n for n in (small, middle, large) if n in ok]
        if len(series) < 2:
            continue
        lines.append(f"growth (simulate() median){' with 100 leaf queues and 1,000 apps' if suffix else ''}:")
        for name in series:
            r = ok[name]
            per_ask = r["median_s"] / SIZES[name].asks * 1e6
            lines.append(f"  {name:>10}: {r['median_s']:8.3f} s  ({per_ask:.1f} µs/ask)")
        if small in ok and middle in ok:
            lines.append(f"  {middle} / {small} = {ok[middle]['median_s'] / ok[small]['median_s']:.2f}x (linear is 5x)")
        if middle in ok and large in ok:
            ratio = ok[large]["median_s"] / ok[middle]["median_s"]
            lines.append(
                f"  {large} / {middle} = {ratio:.2f}x (linear is 4x)   target <= {TARGET_GROWTH:.0f}x: "
                f"{_mark(ratio <= TARGET_GROWTH)}"
            )
        lines.append("")
    for size_name, c in (cli or {}).items():
        lines.append(f"[cli {size_name}] `{c.get('command', 'yk simulate')}` on the {size_name} files, fresh process")
        if "error" in c:
            lines.append(f"  FAILED: {c['error']}")
            continue
        target = TARGET_CLI_S.get(size_name)
        lines.append(
            f"  exit {c['returncode']}, wall {c['wall_s']:.2f} s (start-up + load + simulate + JSON), "
            f"CPU {c['cpu_s']:.2f} s, "
            f"max RSS {c['rss_peak'] / MB:,.0f} MB, allocations {c['allocations']:,}, victims {c['victims']:,}"
            + (f"   target <= {target:.0f} s: {_mark(c['wall_s'] <= target)}" if target else "")
            + (
                f", <= {TARGET_PEAK_MB} MB: {_mark(c['rss_peak'] <= TARGET_PEAK_MB * MB)}"
                if size_name == "150k"
                else ""
            )
        )
        if c["returncode"] not in (0, 1) or not c["allocations"]:
            lines.extend(f"    {line}" for line in c["stderr"].strip().splitlines()[-5:])
    return "\n".join(lines)


def main() -> None:
    """Parse options; the parent runs every step in fresh child processes and prints the figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="timed simulate() runs per size (median reported)")
    parser.add_argument("--sizes", default="10k,50k,200k,preempt", help=f"comma-separated, from {', '.join(SIZES)}")
    parser.add_argument("--no-cli", action="store_true", help="skip the fresh-process `yk simulate` runs")
    parser.add_argument("--cli", default="50k,150k", help="sizes that get a fresh-process `yk simulate` run")
    parser.add_argument("--write-preempt", metavar="DIR", help="write the preempt size's files to DIR and stop")
    parser.add_argument("--skip-parse", action="store_true", help="build the Workload without the YAML round trip")
    parser.add_argument("--json", action="store_true", help="print the raw figures as JSON")
    parser.add_argument("--no-tracemalloc", action="store_true", help="skip the extra run under tracemalloc")
    parser.add_argument("--child-prepare", help=argparse.SUPPRESS)
    parser.add_argument("--child-measure", help=argparse.SUPPRESS)
    parser.add_argument("--child-cli", help=argparse.SUPPRESS)
    parser.add_argument("--pickle", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_prepare:
        print(json.dumps(prepare(SIZES[args.child_prepare], Path(args.pickle), args.skip_parse)))
        return
    if args.child_measure:
        print(json.dumps(measure(Path(args.pickle), args.runs, not args.no_tracemalloc)))
        return
    if args.child_cli:
        print(json.dumps(run_cli(SIZES[args.child_cli])))
        return
    if args.write_preempt:
        write_size(SIZES["preempt"], Path(args.write_preempt))
        return
    names = [n.strip() for n in args.sizes.split(",") if n.strip()]
    cli_names = [] if args.no_cli else [n.strip() for n in args.cli.split(",") if n.strip()]
    unknown = [n for n in (*names, *cli_names) if n not in SIZES]
    if unknown or args.runs < 1:
        parser.error(f"unknown size {unknown[0]!r}" if unknown else "--runs must be at least 1")
    results: dict[str, dict[str, Any]] = {}
    for name in names:
        print(f"running {name} ...", file=sys.stderr, flush=True)
        results[name] = run_size(name, args.runs, args.skip_parse, not args.no_tracemalloc)
    cli: dict[str, dict[str, Any]] = {}
    for name in cli_names:
        print(f"running yk simulate on the {name} files ...", file=sys.stderr, flush=True)
        cli[name] = _child(["--child-cli", name])
    if args.json:
        print(json.dumps({"sizes": results, "cli": cli}, indent=2))
    else:
        print(_report(results, cli, args.runs))


if __name__ == "__main__":
    main()
