"""The YAML reader's event sources side by side: micro figures (in-process) and the loading paths end to end.

Run: `python benchmarks/yaml_parsers.py` (every libyaml source installed; `--sources pyyaml,pure` to choose among
yamlreader.available_parsers(), "pure" being ruamel.yaml's pure-Python parser, slow on these sizes), `--runs N`
(timed runs per figure, median reported; sources alternate within each round, so a change in the machine's load
falls on all of them), `--asks N` (the workload's size, 50,000 by default: benchmarks/simulate.py's 50k size).

Inputs: benchmarks/validate.py's generated 5,022-queue config (3.8 MiB) and its small sample, and the generator's
workload of `--asks` asks with its config (`yk generate`, seed 42, simulate.py's shape: 10 asks per node and per
application, 100 per leaf queue; 7.2 MiB at 50,000 asks).

Micro figures, one fresh process per source (wall and CPU seconds, medians, the garbage collector paused): all the
events of the big config as the node composer reads them (`_c_events`, tuples), `read_nodes` of the big config
(Nodes with spans, the path of `yk validate`), `read_plain` of the workload (plain data, the path of workload
loading; "pure" gives none).

End to end, each run a fresh process (wall and CPU seconds, medians; on a shared machine the CPU seconds are the
steadier figure, and ratios are of them): `yk validate` of the small sample and of the big config, as
benchmarks/validate.py runs them, start-up included; and simulate.py's load path (its "load/parse" figure:
`load_config` of the config, then `parse_workload` of the workload text), timed inside the process. The source is
chosen in the child before yk runs (`yamlreader._parser`, without importing the others).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for path in (ROOT, ROOT / "benchmarks"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

import validate  # noqa: E402  (benchmarks/validate.py: its generated config and small sample)

from yk_cli.load import yamlreader  # noqa: E402

SEED = 42

CLI = (
    "import sys\n"
    "from yk_cli.load import yamlreader\n"
    "yamlreader._parser = sys.argv[1]\n"
    "from yk_cli import cli\n"
    "sys.argv = ['yk', *sys.argv[2:]]\n"
    "cli.main()\n"
)
"""A fresh `yk` process reading YAML with the source named first."""


def write_inputs(folder: Path, asks: int) -> dict[str, Path]:
    """The big config, the workload and its config, written to folder."""
    from yk_cli.core.workload.generate import GenerateOptions, generate
    from yk_cli.report.generate_yaml import config_yaml, workload_yaml

    generated = generate(GenerateOptions(nodes=asks // 10, queues=asks // 100, apps=asks // 10, asks=asks, seed=SEED))
    paths = {
        "big": folder / "queues-5022.yaml",
        "config": folder / "queues.yaml",
        "workload": folder / "workload.yaml",
    }
    paths["big"].write_text(validate.generate(), encoding="utf-8")
    paths["config"].write_text(config_yaml(generated.config), encoding="utf-8")
    paths["workload"].write_text(workload_yaml(generated.workload), encoding="utf-8")
    return paths


def child_micro(source: str, big: str, workload: str, runs: int) -> dict[str, list[list[float]]]:
    """In this process: the micro figures of one source, each `runs` times (the collector paused, as yk pauses it
    to read a workload: it would otherwise take most of read_nodes' time, whatever the source)."""
    import gc

    gc.disable()
    yamlreader._parser = source
    big_text = Path(big).read_text(encoding="utf-8")
    workload_text = Path(workload).read_text(encoding="utf-8")
    yamlreader.read_plain("a: 1\n")  # imports the source's modules first (not timed)

    def events() -> None:
        if source == "pure":
            for _ in yamlreader._tuples(yamlreader._pure_events(big_text)):
                pass
        else:
            for _ in yamlreader._c_events(big_text):
                pass

    def nodes() -> None:
        documents, errors = yamlreader.read_nodes(big_text)
        assert len(documents) == 1 and not errors

    def plain() -> None:
        ok, data = yamlreader.read_plain(workload_text)
        assert ok and data["applications"]

    figures = [("events", events), ("read_nodes", nodes)]
    if source != "pure":  # (which gives no plain data: the node reader's is used then)
        figures.append(("read_plain", plain))
    out: dict[str, list[list[float]]] = {name: [] for name, _ in figures}
    for _ in range(runs):
        for name, work in figures:
            start, cpu = time.perf_counter(), time.process_time()
            work()
            out[name].append([time.perf_counter() - start, time.process_time() - cpu])
    return out


def child_load(source: str, config: str, workload: str) -> list[float]:
    """In this process: simulate.py's load path with one source, in wall and CPU seconds."""
    yamlreader._parser = source
    from yk_cli.load.config import load_config
    from yk_cli.load.workload import parse_workload

    config_text = Path(config).read_bytes()
    workload_text = Path(workload).read_text(encoding="utf-8")
    start, cpu = time.perf_counter(), time.process_time()
    loaded = load_config("-", stdin=config_text)
    problems = list(loaded.problems)
    result = parse_workload(workload_text, "<generated>")
    problems.extend(result.problems)
    seconds = [time.perf_counter() - start, time.process_time() - cpu]
    errors = [p for p in problems if p.level == "error"]
    if errors:
        raise SystemExit(f"generated input does not load: {errors[0].message}")
    return seconds


def fresh(command: list[str]) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds, stdout) of a fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=ROOT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sources", help="comma-separated event sources (default: every libyaml source installed)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--asks", type=int, default=50_000)
    parser.add_argument("--child-micro", nargs=3, help=argparse.SUPPRESS)
    parser.add_argument("--child-load", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_micro:
        source, big, workload = args.child_micro
        print(json.dumps(child_micro(source, big, workload, args.runs)))
        return 0
    if args.child_load:
        print(json.dumps(child_load(*args.child_load)))
        return 0

    installed = yamlreader.available_parsers()
    sources = args.sources.split(",") if args.sources else [name for name in installed if name != "pure"]
    unknown = [name for name in sources if name not in installed]
    if unknown:
        parser.error(f"not installed: {', '.join(unknown)} (installed: {', '.join(installed)})")
    runs = max(args.runs, 1)
    small = validate.small_sample()
    micro: dict[str, dict[str, list[list[float]]]] = {}
    ends: dict[str, dict[str, list[tuple[float, float]]]] = {name: {} for name in sources}
    with tempfile.TemporaryDirectory() as tmp:
        paths = write_inputs(Path(tmp), args.asks)
        me = [sys.executable, str(Path(__file__).resolve())]
        for name in sources:
            child = [*me, "--runs", str(runs), "--child-micro", name, str(paths["big"]), str(paths["workload"])]
            micro[name] = json.loads(fresh(child)[2])
        commands = {
            "validate small": ["validate", str(small)],
            "validate 5,022 queues": ["validate", "--max-size", "8MiB", str(paths["big"])],
        }
        for name in sources:  # warm-up: the file cache, .pyc files
            fresh([sys.executable, "-c", CLI, name, *commands["validate small"]])
        for _ in range(runs):
            for name in sources:
                for label, yk_args in commands.items():
                    wall, cpu, _ = fresh([sys.executable, "-c", CLI, name, *yk_args])
                    ends[name].setdefault(label, []).append((wall, cpu))
                _, _, out = fresh([*me, "--child-load", name, str(paths["config"]), str(paths["workload"])])
                wall, cpu = json.loads(out)
                ends[name].setdefault("load (simulate.py)", []).append((wall, cpu))
        workload_mib = paths["workload"].stat().st_size / 2**20
        big_mib = paths["big"].stat().st_size / 2**20

    print(f"event sources: {', '.join(sources)} (installed: {', '.join(installed)}); {runs} runs each, medians")
    print(f"load average now: {os.getloadavg()[0]:.1f}")
    first = sources[0]
    print(
        f"micro, in-process (big config {big_mib:.1f} MiB, workload {args.asks:,} asks {workload_mib:.1f} MiB): wall "
        f"seconds, CPU seconds in brackets, ratio of CPU to {first}'s"
    )
    for figure in ("events", "read_nodes", "read_plain"):
        cells = [_cell(name, micro[name].get(figure, []), micro[first][figure]) for name in sources]
        print(f"  {figure:<22} " + "  ".join(cells))
    print(f"end to end, fresh processes: wall seconds, CPU seconds in brackets, ratio of CPU to {first}'s")
    for label in ends[first]:
        print(f"  {label:<22} " + "  ".join(_cell(name, ends[name][label], ends[first][label]) for name in sources))
    print("(load (simulate.py): load_config + parse_workload, timed in the process as simulate.py's load/parse figure)")
    return 0


def _cell(name: str, figures: Sequence[Sequence[float]], base: Sequence[Sequence[float]]) -> str:
    """One source's median wall and CPU seconds, and the ratio of its CPU median to the first source's."""
    if not figures:
        return f"{name} -"
    wall, cpu = median([f[0] for f in figures]), median([f[1] for f in figures])
    return f"{name} {wall:.3f} s ({cpu:.3f}) {cpu / median([f[1] for f in base]):.2f}x"


if __name__ == "__main__":
    sys.exit(main())
