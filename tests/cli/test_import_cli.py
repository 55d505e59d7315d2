"""`yk import csv|helios|pods`: the written files (goldens), byte-identical reruns, bad rows at file:line with exit 1,
usage errors with exit 2, time windows and sampling, and the round trip into `yk simulate`."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from tests.cli.helpers import OPS, mutate
from tests.helpers.golden import check_golden
from tests.helpers.paths import ROOT
from yk_cli.load.workload import read_workload

DATA = "tests/data/import"
NANOS = 1_000_000_000


@pytest.fixture(autouse=True)
def _in_checkout(monkeypatch: pytest.MonkeyPatch) -> None:
    """Inputs are named relative to the checkout, as the goldens' headers show them."""
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("CI", raising=False)


CSV_ARGS = (f"{DATA}/jobs.csv", "--nodes", "3", "--node-resources", "vcore=16,memory=64Gi,nvidia.com/gpu=2", "--queues")
HELIOS_ARGS = (f"{DATA}/helios_cluster_log.csv", "--quota", f"{DATA}/helios_gpu_number.csv")
PODS_ARGS = (f"{DATA}/pods.yaml", "--nodes-from", f"{DATA}/nodes.yaml", "--queues")
CASES = {"csv": CSV_ARGS, "helios": HELIOS_ARGS, "pods": PODS_ARGS}


def _import(run_yk, kind: str, out: Path, *args: str):
    return run_yk("import", kind, *args, "--out-dir", str(out))


@pytest.mark.parametrize("kind", sorted(CASES))
def test_each_format_writes_its_golden_files(run_yk, tmp_path: Path, kind: str) -> None:
    result = _import(run_yk, kind, tmp_path, *CASES[kind])
    assert result.exit_code == 0, result.stderr
    check_golden(f"import_{kind}_workload.yaml", (tmp_path / "workload.yaml").read_text(encoding="utf-8"))
    check_golden(f"import_{kind}_queues.yaml", (tmp_path / "queues.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("kind", sorted(CASES))
def test_the_same_input_gives_byte_identical_files_wherever_written(run_yk, tmp_path: Path, kind: str) -> None:
    first, second = tmp_path / "a", tmp_path / "elsewhere" / "b"
    assert _import(run_yk, kind, first, *CASES[kind]).exit_code == 0
    assert _import(run_yk, kind, second, *CASES[kind], "--quiet").exit_code == 0
    for name in ("workload.yaml", "queues.yaml"):
        assert (first / name).read_bytes() == (second / name).read_bytes()


def test_csv_summary_and_notes(run_yk, tmp_path: Path) -> None:
    result = _import(run_yk, "csv", tmp_path, *CSV_ARGS)
    assert result.stdout == (
        f"wrote {tmp_path}/queues.yaml: 3 leaf queues\n"
        f"wrote {tmp_path}/workload.yaml: 3 nodes, 6 applications, 9 asks (from 6 rows of {DATA}/jobs.csv)\n"
    )
    assert result.stderr == (
        f"yk: note: {DATA}/jobs.csv was recorded by another scheduler: observedStartTime is its start of each job, "
        "and yk simulate predicts YuniKorn's\n"
        "yk: note: 1 job ran less than 1s: they run 1s (a duration must be positive)\n"
    )


def test_helios_says_aloud_where_the_trace_came_from(run_yk, tmp_path: Path) -> None:
    result = _import(run_yk, "helios", tmp_path, *HELIOS_ARGS)
    assert result.exit_code == 0
    assert "recorded by another scheduler (Slurm, Helios)" in result.stderr
    assert "1 job that never started (no start_time) left out (--keep-unstarted keeps them)" in result.stderr
    workload = (tmp_path / "workload.yaml").read_text(encoding="utf-8")
    assert "# Recorded by another scheduler: Slurm on SenseTime's Helios GPU datacenter" in workload
    assert "github.com/S-Lab-System-Group/HeliosData" in workload
    assert result.stdout.splitlines()[-1] == (
        f"wrote {tmp_path}/workload.yaml: 16 nodes, 5 applications, 7 asks (from 6 rows of "
        f"{DATA}/helios_cluster_log.csv)"
    )


def test_helios_quota_table_states_gang_and_unstarted(run_yk, tmp_path: Path) -> None:
    result = _import(
        run_yk,
        "helios",
        tmp_path,
        f"{DATA}/helios_cluster_log.csv",
        "--quota",
        f"{DATA}/helios_quota.csv",
        "--quota-max",
        "--nodes",
        "4",
        "--states",
        "completed,cancelled",
        "--keep-unstarted",
        "--gang",
    )
    assert result.exit_code == 0, result.stderr
    check_golden("import_helios_options_workload.yaml", (tmp_path / "workload.yaml").read_text(encoding="utf-8"))
    check_golden("import_helios_options_queues.yaml", (tmp_path / "queues.yaml").read_text(encoding="utf-8"))
    assert "2 jobs in other states than CANCELLED, COMPLETED left out" in result.stderr


# --- bad rows ---------------------------------------------------------------------------------------------------


def test_bad_csv_rows_are_reported_at_their_line_and_nothing_is_written(run_yk, tmp_path: Path) -> None:
    result = _import(run_yk, "csv", tmp_path, f"{DATA}/jobs_bad.csv")
    assert result.exit_code == 1
    assert not (tmp_path / "workload.yaml").exists()
    headlines = [line for line in result.stderr.splitlines() if line.startswith(DATA)]
    assert headlines == [
        f"{DATA}/jobs_bad.csv:3:3: [error] submit_time 'soon' is not a time (import-bad-row)",
        f"{DATA}/jobs_bad.csv:4:6: [error] duration '-5' is not a run time (import-bad-row)",
        f"{DATA}/jobs_bad.csv:5:9: [error] cpu 'lots' is not a vcore quantity (import-bad-row)",
        f"{DATA}/jobs_bad.csv:6:1: [error] job id a repeats the one on line 2 (import-bad-row)",
        f"{DATA}/jobs_bad.csv:7:1: [error] the row has 4 fields, the header 5 (import-bad-row)",
    ]
    assert "    5 | d,20,60,lots,1Gi\n      |         ^^^^\n      hint: write cores (2, 0.5, 500m)" in result.stderr
    assert result.stderr.endswith(
        "1 file checked: 5 errors, 0 warnings\n"
        "yk: nothing written: fix the rows, or leave them out with --skip-bad-rows\n"
    )


def test_skip_bad_rows_leaves_them_out_with_a_warning_each(run_yk, tmp_path: Path) -> None:
    result = _import(run_yk, "csv", tmp_path, f"{DATA}/jobs_bad.csv", "--skip-bad-rows")
    assert result.exit_code == 0
    assert f"{DATA}/jobs_bad.csv:3:3: [warning] submit_time 'soon' is not a time (import-bad-row)" in result.stderr
    assert "yk: note: 5 bad rows left out (--skip-bad-rows)" in result.stderr
    loaded = read_workload(str(tmp_path / "workload.yaml"))
    assert [app.id for app in loaded.workload.applications] == ["a", "f"]


def test_bad_helios_rows(run_yk, tmp_path: Path) -> None:
    result = _import(run_yk, "helios", tmp_path, f"{DATA}/helios_bad.csv", "--nodes", "2")
    assert result.exit_code == 1
    headlines = [line for line in result.stderr.splitlines() if line.startswith(DATA)]
    assert headlines == [
        f"{DATA}/helios_bad.csv:3:14: [error] node_num 0 is not a node count: a job runs on at least 1 node "
        "(import-bad-row)",
        f"{DATA}/helios_bad.csv:4:10: [error] gpu_num 'one' is not a whole number, 0 or more (import-bad-row)",
        f"{DATA}/helios_bad.csv:5:46: [error] start_time 2020-09-01 07:00:00 is before submit_time 2020-09-01 "
        "08:03:00 (import-bad-row)",
        f"{DATA}/helios_bad.csv:6:6: [error] vc is empty: a job needs its VC (import-bad-row)",
    ]


def test_bad_pods_are_reported_at_the_field(run_yk, tmp_path: Path) -> None:
    result = _import(run_yk, "pods", tmp_path, f"{DATA}/pods_bad.yaml", "--node-resources", "vcore=8")
    assert result.exit_code == 1
    headlines = [line for line in result.stderr.splitlines() if line.startswith(DATA)]
    assert headlines == [
        f"{DATA}/pods_bad.yaml:7:11: [error] pod ns/no-time has no metadata.creationTimestamp: its submit time is "
        "unknown (import-bad-pod)",
        f"{DATA}/pods_bad.yaml:24:25: [error] pod ns/bad-cpu: cpu 'lots' is not a Kubernetes quantity "
        "(import-bad-pod)",
        f"{DATA}/pods_bad.yaml:33:16: [error] status.startTime 'yesterday' is not an RFC 3339 time (import-bad-pod)",
    ]


def test_a_row_the_csv_module_cannot_read_is_a_bad_row(run_yk, tmp_path: Path) -> None:
    trace = tmp_path / "huge.csv"
    trace.write_text(f'job_id,submit_time\na,0\nb,"{"x" * 200_000}"\nc,2\n', encoding="utf-8")
    result = _import(run_yk, "csv", tmp_path / "out", str(trace), "--skip-bad-rows")
    assert result.exit_code == 0
    assert f"{trace}:3:1: [warning] the row cannot be read as CSV: field larger than field limit (131072)" in (
        result.stderr
    )
    assert _applications(tmp_path / "out") == [("a", 0), ("c", 2)]


def test_a_pods_history_with_a_yaml_error_stops(run_yk, tmp_path: Path) -> None:
    trace = tmp_path / "pods.yaml"
    trace.write_text("items:\n  - kind: Pod\n    metadata: {name: [\n", encoding="utf-8")
    result = _import(run_yk, "pods", tmp_path / "out", str(trace))
    assert result.exit_code == 1
    assert "(yaml-syntax)" in result.stderr
    assert "yk: nothing written" in result.stderr


def test_more_bad_rows_than_shown_are_counted(run_yk, tmp_path: Path) -> None:
    rows = "\n".join(f"j{i},never,60" for i in range(60))
    trace = tmp_path / "many.csv"
    trace.write_text(f"job_id,submit_time,duration\n{rows}\n", encoding="utf-8")
    result = _import(run_yk, "csv", tmp_path / "out", str(trace))
    assert result.exit_code == 1
    assert result.stderr.count("[error]") == 50
    assert "… and 10 more bad rows (the first 50 are shown)" in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("csv", f"{DATA}/jobs.csv", "--submit", "submitted"), "has no column 'submitted' for the submit time"),
        (("csv", f"{DATA}/jobs.csv", "--resource", "vcore=cpus"), "has no column 'cpus' for resource vcore (did you "
         "mean 'cpu'?)"),
        (("csv", f"{DATA}/jobs.csv", "--resource", "vcore"), "--resource 'vcore': write NAME=COLUMN"),
        (("csv", f"{DATA}/jobs.csv", "--since", "yesterday"), "--since 'yesterday' is neither a Go duration"),
        (("csv", f"{DATA}/jobs.csv", "--sample", "1.5"), "--sample must be a fraction above 0 and at most 1"),
        (("csv", f"{DATA}/jobs.csv", "--since", "1h", "--until", "30m"), "is not after the window's start"),
        (("csv", f"{DATA}/jobs.csv", "--nodes", "2"), "give --nodes N and --node-resources LIST together"),
        (("csv", f"{DATA}/missing.csv"), "missing.csv: no such file"),
        (("helios", f"{DATA}/jobs.csv", "--nodes", "1"), "is not a Helios cluster_log.csv: it has no column vc"),
        (("helios", f"{DATA}/helios_cluster_log.csv"), "the Helios trace has no node list: give --nodes N"),
        (("helios", f"{DATA}/helios_cluster_log.csv", "--nodes", "1", "--states", "DONE"), "DONE is not a Helios"),
        (("helios", f"{DATA}/helios_cluster_log.csv", "--quota", f"{DATA}/jobs.csv"), "is not a quota file"),
        (("pods", f"{DATA}/pods.yaml"), "the pods ran on nodes the history does not describe"),
        (("pods", f"{DATA}/nodes.yaml"), "nodes.yaml holds no Pod: dump them with `kubectl get pods -A -o yaml`"),
    ],
)
def test_usage_errors_exit_2(run_yk, tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    result = run_yk("import", *args, "--out-dir", str(tmp_path))
    assert result.exit_code == 2
    assert result.stderr.startswith("yk: error: ")
    assert message in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


def test_out_dir_is_required(run_yk) -> None:
    result = run_yk("import", "csv", f"{DATA}/jobs.csv")
    assert (result.exit_code, result.stderr) == (2, "yk: error: say where to write: --out-dir DIR\n")


# --- windows and sampling ---------------------------------------------------------------------------------------


def _applications(folder: Path) -> list[tuple[str, int]]:
    workload = read_workload(str(folder / "workload.yaml")).workload
    return [(app.id, app.submit_time // NANOS) for app in workload.applications]


def test_a_relative_window_counts_from_the_first_submission(run_yk, tmp_path: Path) -> None:
    result = _import(run_yk, "csv", tmp_path, f"{DATA}/jobs.csv", "--since", "1m", "--until", "2h")
    assert result.exit_code == 0
    assert _applications(tmp_path) == [("train-1", 0), ("train-2", 60), ("web-1", 90)]
    assert "yk: note: 3 jobs submitted outside the window left out" in result.stderr
    asks = read_workload(str(tmp_path / "workload.yaml")).workload.asks()
    assert [(ask.name, ask.observed_start) for ask in asks][:1] == [("train-1-0", 1 * NANOS)]
    assert "# Times count from 1m0s on the trace's clock (--since)." in (tmp_path / "workload.yaml").read_text()


def test_an_absolute_window_on_a_trace_of_timestamps(run_yk, tmp_path: Path) -> None:
    result = _import(
        run_yk, "helios", tmp_path, *HELIOS_ARGS, "--since", "2020-09-01T08:05:00Z", "--until", "24h"
    )
    assert result.exit_code == 0
    # --until 24h counts from the first submission (08:00:00), like --since would: 1425516 (07:59 the next day) is in
    assert _applications(tmp_path) == [("1425514", 300), ("1425515", 3300), ("1425516", 86040)]
    text = (tmp_path / "workload.yaml").read_text()
    assert "# Times count from 2020-09-01T08:05:00Z (--since)." in text
    assert "observedStartTime: 1200s" in text  # started 08:25, 20 minutes after the window's start


def test_sampling_is_seeded_and_deterministic(run_yk, tmp_path: Path) -> None:
    rows = "\n".join(f"j{i:03d},{i},60" for i in range(200))
    trace = tmp_path / "many.csv"
    trace.write_text(f"job_id,submit_time,duration\n{rows}\n", encoding="utf-8")
    runs = []
    for name, seed in (("a", "7"), ("b", "7"), ("c", "8")):
        result = _import(run_yk, "csv", tmp_path / name, str(trace), "--sample", "0.25", "--seed", seed)
        assert result.exit_code == 0
        runs.append(_applications(tmp_path / name))
    assert runs[0] == runs[1]
    assert runs[0] != runs[2]
    assert 30 <= len(runs[0]) <= 70
    # times count from the window's start, the first submission, kept or not: job jNNN was submitted at NNN s
    assert all(submit == int(job[1:]) for job, submit in runs[0])


# --- into yk simulate -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(CASES))
def test_imported_files_load_and_run_in_yk_simulate(run_yk, tmp_path: Path, kind: str) -> None:
    assert _import(run_yk, kind, tmp_path, *CASES[kind]).exit_code == 0
    result = run_yk("simulate", str(tmp_path / "queues.yaml"), str(tmp_path / "workload.yaml"))
    assert result.exit_code == 0, result.stderr
    assert "Summary:" in result.stdout
    loaded = read_workload(str(tmp_path / "workload.yaml"))
    assert loaded.problems == []
    assert any(ask.observed_start is not None for ask in loaded.workload.asks())


def test_observed_start_times_survive_the_round_trip(run_yk, tmp_path: Path) -> None:
    assert _import(run_yk, "csv", tmp_path, *CSV_ARGS).exit_code == 0
    asks = read_workload(str(tmp_path / "workload.yaml")).workload.asks()
    starts = {ask.name: (ask.submit_time // NANOS, ask.observed_start) for ask in asks}
    assert starts["etl-1"] == (0, 5 * NANOS)
    assert starts["etl-2-2"] == (30, 90 * NANOS)
    assert starts["train-2"] == (120, None)
    assert starts["report-1"] == (7200, 7300 * NANOS)


# --- help -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["", "csv", "helios", "pods"])
def test_help_is_prose_and_ends_with_an_example(run_yk, monkeypatch: pytest.MonkeyPatch, command: str) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    result = run_yk("import", *([command] if command else []), "--help")
    assert result.exit_code == 0
    head = result.stdout.split("╭", 1)[0]
    lines = [line.strip() for line in head.splitlines() if line.strip()]
    assert lines[0].startswith("Usage: yk import")
    assert lines[-1].startswith(f"Example: yk import {command or 'helios'}")
    assert "<str>" not in result.stdout and "<float>" not in result.stdout


# --- progress -------------------------------------------------------------------------------------------------


def test_reading_and_writing_report_progress(run_yk, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both phases go through commands.progress.progress (a bar on a terminal after about a second, nothing in a
    pipe), and what it reads counts the rows read and the applications written."""
    from contextlib import contextmanager

    from yk_cli.commands import progress

    seen: list[tuple[str, int, tuple[int, str]]] = []

    @contextmanager
    def recording(label: str, total: int, read):  # type: ignore[no-untyped-def]
        yield
        seen.append((label, total, read()))

    monkeypatch.setattr(progress, "progress", recording)
    assert _import(run_yk, "csv", tmp_path, *CSV_ARGS).exit_code == 0
    assert seen == [
        (f"importing {DATA}/jobs.csv", 7, (6, "6 rows")),
        (f"writing {tmp_path}/workload.yaml", 6, (6, "6 applications")),
    ]
    assert progress.wanted() is False  # the test's stderr is no terminal: no bar


# --- never a traceback ----------------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(OPS)
def test_a_mutated_pods_history_is_read_or_reported(run_yk, tmp_path: Path, ops) -> None:  # type: ignore[no-untyped-def]
    trace = tmp_path / "pods.yaml"
    trace.write_text(mutate((ROOT / DATA / "pods.yaml").read_text(encoding="utf-8"), ops), encoding="utf-8")
    result = _import(run_yk, "pods", tmp_path / "out", str(trace), "--node-resources", "vcore=8", "--skip-bad-rows")
    assert result.exit_code in (0, 1, 2), result.stderr
    assert "Traceback" not in result.stderr
