"""Benchmark of `yk volcano simulate`: a seeded dump of 1,000 nodes, 100 queues, 5,000 PodGroups and 50,000 pods
through enqueue + allocate + reclaim (Volcano's default tiers), as a whole process.

Run: `python benchmarks/volcano.py` (3 timed runs, median reported; target <= 10 s on the 2-core machine),
`--runs N`, `--write DIR` (write dump.json and volcano-scheduler.conf to DIR and stop, e.g. for a profile).

The dump is written as `kubectl get ... -o json` writes it: yk reads such JSON through its fast path
(load/volcano_fast.py). The same dump as YAML (21 MB) goes through yk's positional YAML reader: it loads, with
the same result, but takes about four times as long and 1.1 GB -- use `-o json` for clusters of this size.

The dump: nodes of 32 cpu / 128Gi / 110 pods; queues of weight 1-4 and priority 0-3, a fifth with a capability;
50 PodGroups per queue with 1-19 pods each (minMember up to their size), three PriorityClasses; about 40 % of the
groups Running with their pods bound (placed first-fit), the rest Pending or Inqueue with pending pods, so that
allocate fills the free room and reclaim has starving jobs in queues below their deserved share.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEED = 42
TARGET_SECONDS = 10.0
NODES, QUEUES, GROUPS, PODS = 1_000, 100, 5_000, 50_000
CONF = """actions: "enqueue, allocate, reclaim"
tiers:
- plugins:
  - name: priority
  - name: gang
  - name: conformance
- plugins:
  - name: overcommit
  - name: drf
  - name: predicates
  - name: proportion
  - name: nodeorder
"""


def dump(seed: int = SEED) -> dict:
    """The cluster as a kubectl List (plain data; written as JSON, which is YAML)."""
    rng = random.Random(seed)
    items: list[dict] = []
    free = []
    for i in range(NODES):
        name = f"node-{i:04d}"
        items.append({"apiVersion": "v1", "kind": "Node", "metadata": {"name": name},
                      "status": {"allocatable": {"cpu": "32", "memory": "128Gi", "pods": "110"},
                                 "conditions": [{"type": "Ready", "status": "True"}]}})
        free.append([name, 32000, 128 * 1024, 110])
    for name, value in (("low", 10), ("mid", 100), ("high", 1000)):
        items.append({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": name},
                      "value": value})
    for q in range(QUEUES):
        spec: dict = {"weight": rng.randint(1, 4), "priority": rng.randint(0, 3)}
        if q % 5 == 0:
            spec["capability"] = {"cpu": str(rng.randint(200, 800)), "memory": f"{rng.randint(800, 3200)}Gi"}
        items.append({"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "Queue",
                      "metadata": {"name": f"queue-{q:03d}", "creationTimestamp": f"2024-01-01T00:{q // 60:02d}:"
                                   f"{q % 60:02d}Z"}, "spec": spec, "status": {"state": "Open"}})
    sizes = []
    for _ in range(GROUPS // 2):  # pairs of 10 - d and 10 + d pods: 50,000 in all
        spread = rng.randint(-9, 9)
        sizes += [PODS // GROUPS - spread, PODS // GROUPS + spread]
    cursor = 0
    for g, size in enumerate(sizes):
        queue = f"queue-{g % QUEUES:03d}"
        name = f"job-{g:05d}"
        ns = f"team-{g % 20:02d}"
        running = rng.random() < 0.4
        cpu = rng.choice([250, 500, 1000, 2000])
        mem = rng.choice([512, 1024, 2048, 4096])
        group = {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "PodGroup",
                 "metadata": {"name": name, "namespace": ns,
                              "creationTimestamp": f"2024-01-02T{g // 3600:02d}:{g // 60 % 60:02d}:{g % 60:02d}Z"},
                 "spec": {"queue": queue, "minMember": rng.randint(1, size),
                          "priorityClassName": rng.choice(["low", "mid", "high", ""]),
                          "minResources": {"cpu": f"{cpu * size}m", "memory": f"{mem * size}Mi"}},
                 "status": {"phase": "Running" if running else rng.choice(["Pending", "Inqueue"])}}
        items.append(group)
        for p in range(size):
            spec = {"schedulerName": "volcano",
                    "containers": [{"name": "main", "image": "app:1",
                                    "resources": {"requests": {"cpu": f"{cpu}m", "memory": f"{mem}Mi"}}}]}
            phase = "Pending"
            if running:
                while cursor < len(free) and (free[cursor][1] < cpu or free[cursor][2] < mem or free[cursor][3] < 1):
                    cursor += 1
                if cursor < len(free):
                    slot = free[cursor]
                    slot[1] -= cpu
                    slot[2] -= mem
                    slot[3] -= 1
                    spec["nodeName"] = slot[0]
                    phase = "Running"
            items.append({"apiVersion": "v1", "kind": "Pod",
                          "metadata": {"name": f"{name}-task-{p}", "namespace": ns, "uid": f"{ns}-{name}-{p}",
                                       "annotations": {"scheduling.k8s.io/group-name": name}},
                          "spec": spec, "status": {"phase": phase}})
    return {"apiVersion": "v1", "kind": "List", "items": items}


def write(folder: Path) -> tuple[Path, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "dump.json"
    target.write_text(json.dumps(dump(), indent=2), encoding="utf-8")
    conf = folder / "volcano-scheduler.conf"
    conf.write_text(CONF, encoding="utf-8")
    return target, conf


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--write", metavar="DIR")
    args = parser.parse_args()
    if args.write:
        write(Path(args.write))
        print(f"wrote {args.write}/dump.json and volcano-scheduler.conf")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        target, conf = write(Path(tmp))
        command = [sys.executable, "-m", "yk_cli", "volcano", "simulate", str(target), "--conf", str(conf),
                   "--format", "json"]
        times = []
        summary = {}
        for _ in range(args.runs):
            start = time.perf_counter()
            done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
            times.append(time.perf_counter() - start)
            if done.returncode != 0:
                print(done.stderr, file=sys.stderr)
                return 1
            summary = json.loads(done.stdout)["summary"]
    median = statistics.median(times)
    print(f"{NODES} nodes, {QUEUES} queues, {GROUPS} PodGroups, {PODS} pods; enqueue, allocate, reclaim")
    print(f"result: {summary['binds']} binds, {summary['evictions']} evictions, {summary['pipelined']} pipelined")
    print("runs: " + ", ".join(f"{t:.2f} s" for t in times))
    print(f"median: {median:.2f} s (target <= {TARGET_SECONDS:.0f} s) {'OK' if median <= TARGET_SECONDS else 'SLOW'}")
    return 0 if median <= TARGET_SECONDS else 1


if __name__ == "__main__":
    raise SystemExit(main())
