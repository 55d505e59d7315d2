"""yk import's readers (load/imports) and the pure pieces they feed (core/workload/imports, report/import_yaml):
times, windows and samples, the CSV's columns and units, Helios's nodes and quotas, a pods history."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import dedent
from yk_cli.core.diagnostics import Level
from yk_cli.core.workload.imports import (
    NANOS,
    RecordedAsk,
    RecordedJob,
    Window,
    WindowError,
    parse_bound,
    queue_config,
    select,
    timestamp_nanos,
)
from yk_cli.load.imports.csv_jobs import CsvColumns, parse_resource_flag
from yk_cli.load.imports.csv_jobs import read_jobs as read_csv
from yk_cli.load.imports.helios import HeliosOptions, read_quotas
from yk_cli.load.imports.helios import read_jobs as read_helios
from yk_cli.load.imports.pods import PodsOptions
from yk_cli.load.imports.pods import read_jobs as read_pods
from yk_cli.load.imports.rows import TraceError
from yk_cli.report.import_yaml import name_text, quantity, when

GPU = "nvidia.com/gpu"


# --- times and windows ------------------------------------------------------------------------------------------


FAST_PATH_TIMES = ("2020-06-09 18:41:01", "2020-06-09T18:41:01Z", "2020-06-09T18:41:01", "2020-02-29 23:59:59",
                   "1999-12-31 00:00:00")  # fmt: skip


@pytest.mark.parametrize("text", FAST_PATH_TIMES)
def test_timestamps_on_the_fast_path_agree_with_datetime(text: str) -> None:
    expected = datetime.fromisoformat(text.replace("Z", "")).replace(tzinfo=UTC).timestamp()
    assert timestamp_nanos(text) == int(expected) * NANOS


def test_timestamps_with_a_zone_or_fraction() -> None:
    assert timestamp_nanos("2020-06-09T18:41:01+08:00") == timestamp_nanos("2020-06-09T10:41:01Z")
    assert timestamp_nanos("2020-06-09T18:41:01.5Z") == timestamp_nanos("2020-06-09T18:41:01Z") + NANOS // 2  # type: ignore[operator]


@pytest.mark.parametrize("text", ["", "soon", "2020-13-01 00:00:00", "2020-06-09 25:00:00", "2020-06-09 1:2:3", "120"])
def test_what_is_not_a_timestamp(text: str) -> None:
    assert timestamp_nanos(text) is None


def test_bounds_are_go_durations_or_rfc3339_times() -> None:
    assert parse_bound("--since", "36h") == parse_bound("--since", "36h")
    assert (parse_bound("--since", "36h").nanos, parse_bound("--since", "36h").absolute) == (36 * 3600 * NANOS, False)
    bound = parse_bound("--until", "2020-09-01T00:00:00Z")
    assert bound.absolute and bound.nanos == timestamp_nanos("2020-09-01 00:00:00")
    with pytest.raises(WindowError, match="--since 'tomorrow' is neither a Go duration"):
        parse_bound("--since", "tomorrow")


def _job(job_id: str, submit: int) -> RecordedJob:
    return RecordedJob(job_id, 0, submit * NANOS, "root.a", [RecordedAsk(job_id, submit * NANOS, {})])


def test_select_cuts_to_the_window_sorts_and_counts() -> None:
    jobs = [_job("c", 50), _job("a", 10), _job("b", 30), _job("d", 30), _job("e", 100)]
    chosen = select(jobs, Window(parse_bound("--since", "15s"), parse_bound("--until", "80s")))
    assert [job.id for job in chosen.jobs] == ["b", "d", "c"]  # by submission, file order between equal times
    assert (chosen.origin, chosen.first, chosen.outside, chosen.sampled_out) == (25 * NANOS, 10 * NANOS, 2, 0)


def test_select_refuses_an_empty_window_and_a_bad_fraction() -> None:
    with pytest.raises(WindowError, match="is not after the window's start"):
        select([_job("a", 0)], Window(parse_bound("--since", "2h"), parse_bound("--until", "1h")))
    with pytest.raises(WindowError, match="--sample must be a fraction"):
        select([_job("a", 0)], Window(sample=0.0))


def test_the_sample_is_seeded() -> None:
    def kept(seed: int) -> list[str]:
        return [job.id for job in select([_job(f"j{i}", i) for i in range(1000)], Window(sample=0.1, seed=seed)).jobs]

    assert kept(3) == kept(3)
    assert kept(3) != kept(4)
    assert 60 <= len(kept(3)) <= 140


def test_queue_config_nests_the_leaves_under_root() -> None:
    config = queue_config(["root.b.y", "a", "root.b.x", "a"])
    root = config["partitions"][0]["queues"][0]  # type: ignore[index]
    assert root == {
        "name": "root",
        "submitacl": "*",
        "queues": [
            {"name": "a"},
            {"name": "b", "queues": [{"name": "x"}, {"name": "y"}]},
        ],
    }


# --- the workload text ------------------------------------------------------------------------------------------


def test_quantities_and_names_as_the_workload_writes_them() -> None:
    assert [quantity("vcore", v) for v in (2000, 500, 1500)] == [2, "500m", "1500m"]
    assert [quantity("memory", v) for v in (2**30, 3 * 2**20, 1000, 0)] == ["1Gi", "3Mi", 1000, 0]
    assert quantity(GPU, 8) == 8
    names = ("job-1", "1425511", "no", "a b", "x/y")
    assert [name_text(v) for v in names] == ["job-1", "'1425511'", "'no'", "'a b'", "x/y"]
    assert [when(n * NANOS) for n in (0, 59, 60, 3600, 36848)] == ["0s", "59s", "1m0s", "1h0m0s", "10h14m8s"]


# --- a CSV of jobs ----------------------------------------------------------------------------------------------


def _csv(text: str, columns: CsvColumns | None = None, skip: bool = False):
    return read_csv("jobs.csv", dedent(text), columns or CsvColumns(), skip)


def test_csv_units_time_unit_and_namespaces() -> None:
    read = _csv(
        """
        id;at;run;mem_mb;cores;ns
        x;1500;2500;512;0.25;team-a
        y;3000;1000;1024;2;
        """,
        CsvColumns(
            id="id",
            submit="at",
            duration="run",
            namespace="ns",
            resources=(("memory", "mem_mb", "Mi"), ("vcore", "cores", "")),
            time_unit="ms",
            delimiter=";",
        ),
    )
    assert read.problems == []
    x, y = read.jobs
    assert (x.id, x.queue, x.submit, x.asks[0].duration) == ("x", "root.team-a", 1500 * 10**6, 2500 * 10**6)
    assert x.asks[0].resources == {"memory": 512 * 2**20, "vcore": 250}
    assert (y.queue, y.asks[0].resources) == ("root.default", {"memory": 2**30, "vcore": 2000})
    assert read.absolute is False


def test_csv_timestamps_and_go_durations() -> None:
    read = _csv(
        """
        job_id,submit_time,duration,start_time
        a,2024-06-01T08:00:00Z,1h30m,2024-06-01 08:00:05
        b,2024-06-01 08:10:00,90,
        """
    )
    assert read.problems == []
    a, b = read.jobs
    assert a.asks[0].start - a.submit == 5 * NANOS  # type: ignore[operator]
    assert (a.asks[0].duration, b.asks[0].duration, b.asks[0].start) == (5400 * NANOS, 90 * NANOS, None)
    assert read.absolute is True


def test_csv_one_kind_of_clock_per_file() -> None:
    read = _csv(
        """
        job_id,submit_time
        a,2024-06-01T08:00:00Z
        b,60
        """
    )
    assert [(p.span.line if p.span else 0, p.message) for p in read.problems] == [
        (3, "submit_time '60' is not a timestamp while line 2's is")
    ]


def test_csv_quoted_fields_and_rows_without_an_id_column() -> None:
    read = _csv(
        """
        submit_time,queue,user
        0,"root.a",alice
        5,,"smith, j"
        """
    )
    assert [(job.id, job.queue, job.user) for job in read.jobs] == [
        ("job-2", "root.a", "alice"),
        ("job-3", "root.default", "smith, j"),
    ]


def test_csv_bad_rows_become_warnings_when_skipped() -> None:
    read = _csv(
        """
        job_id,submit_time,count,priority
        a,0,0,1
        b,1,2,99999999999
        c,2,2,-5
        """,
        skip=True,
    )
    assert [job.id for job in read.jobs] == ["c"]
    assert [(p.level, p.span.line if p.span else 0, p.message) for p in read.problems] == [
        (Level.WARNING, 2, "count '0' is not a pod count (1 to 1000000)"),
        (Level.WARNING, 3, "priority '99999999999' is not a whole number within int32"),
    ]


def test_csv_missing_columns_are_usage_errors() -> None:
    with pytest.raises(TraceError, match="has no column 'submit_time' for the submit time; name it with --submit"):
        _csv("id,at\na,0\n")
    with pytest.raises(TraceError, match=r"jobs\.csv has no header row"):
        _csv("\n\n")


@pytest.mark.parametrize(
    ("text", "expected"),
    [("vcore=cpu", ("vcore", "cpu", "")), ("memory=mem_mb:Mi", ("memory", "mem_mb", "Mi")),
     (" nvidia.com/gpu = gpus ", (GPU, "gpus", ""))],
)  # fmt: skip
def test_resource_flags(text: str, expected: tuple[str, str, str]) -> None:
    assert parse_resource_flag(text) == expected


@pytest.mark.parametrize(("text", "message"), [("vcore", "write NAME=COLUMN"), ("memory=m:XB", "not a Kubernetes")])
def test_bad_resource_flags(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_resource_flag(text)


# --- Helios -------------------------------------------------------------------------------------------------------

HELIOS_HEADER = "job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time,duration,queue"


def test_helios_splits_a_job_over_its_nodes() -> None:
    text = (
        f"{HELIOS_HEADER}\n"
        "1,u,vcA,16,96,2,COMPLETED,2020-09-01 08:00:00,2020-09-01 08:00:10,2020-09-01 09:00:10,,10\n"
        "2,u,vcA,5,7,3,FAILED,2020-09-01 08:00:00,2020-09-01 08:00:00,2020-09-01 08:00:00,0,0\n"
    )
    read = read_helios("log.csv", text, HeliosOptions(), False)
    assert read.problems == []
    first, second = read.jobs
    assert [(a.name, a.count, a.resources) for a in first.asks] == [("1", 2, {GPU: 8, "vcore": 48000})]
    assert first.asks[0].duration == 3600 * NANOS  # end_time - start_time when duration is empty
    assert [(a.name, a.count, a.resources) for a in second.asks] == [
        ("2-a", 1, {GPU: 2, "vcore": 3000}),
        ("2-b", 1, {GPU: 2, "vcore": 2000}),
        ("2-c", 1, {GPU: 1, "vcore": 2000}),
    ]
    assert second.asks[0].duration == NANOS  # 0 s runs 1 s
    assert read.notes == ["1 job ran less than 1s: they run 1s (a duration must be positive)"]


def test_helios_quota_files_of_both_forms() -> None:
    daily = read_quotas("gpus.csv", "date,vcA,vcB,total\n2020-08-31,8,0,8\n2020-09-02,16,8,24\n", False)
    assert daily.problems == []
    assert daily.at(timestamp_nanos("2020-09-01 12:00:00") or 0) == ({"vcA": {GPU: 8}, "vcB": {}}, "2020-08-31")
    assert daily.at(timestamp_nanos("2020-09-03 00:00:00") or 0) == ({"vcA": {GPU: 16}, "vcB": {GPU: 8}}, "2020-09-02")
    assert daily.at(0)[1] == "2020-08-31"  # before the first day: the first row
    table = read_quotas("quota.csv", "vc,gpu,cpu,memory\nvcA,8,48,256Gi\nvcB,0,8,\n", False)
    assert table.at(0) == ({"vcA": {GPU: 8, "vcore": 48000, "memory": 256 * 2**30}, "vcB": {"vcore": 8000}}, "")


def test_helios_bad_quota_rows() -> None:
    quotas = read_quotas("quota.csv", "vc,gpu\nvcA,lots\nvcA,1\nvcA,2\n", False)
    assert [(p.span.line if p.span else 0, p.message) for p in quotas.problems] == [
        (2, "gpu 'lots' is not a quantity"),
        (4, "vc vcA repeats"),
    ]
    with pytest.raises(TraceError, match="is not a quota file"):
        read_quotas("x.csv", "name,gpu\n", False)


# --- a pods history -----------------------------------------------------------------------------------------------


def test_pods_in_json_resources_queue_and_user() -> None:
    pod = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            "name": "p",
            "namespace": "ns",
            "creationTimestamp": "2024-05-01T08:00:00Z",
            "labels": {"yunikorn.apache.org/app-id": "app-1"},
            "annotations": {"yunikorn.apache.org/queue": "root.q", "yunikorn.apache.org/user.info": '{"user": "u"}'},
        },
        "spec": {
            "nodeName": "n1",
            "overhead": {"cpu": "100m"},
            "containers": [{"name": "c", "resources": {"requests": {"cpu": "1", "nvidia.com/gpu": "2"}}}],
        },
        "status": {"phase": "Running", "startTime": "2024-05-01T08:00:30Z"},
    }
    read = read_pods("pods.json", json.dumps({"kind": "List", "items": [pod]}), PodsOptions(), False)
    assert read.problems == []
    (job,) = read.jobs
    assert (job.id, job.queue, job.user, read.node_names) == ("app-1", "root.q", "u", ["n1"])
    (ask,) = job.asks
    assert ask.resources == {"pods": 1, "vcore": 1100, GPU: 2}
    assert (ask.start - ask.submit, ask.duration) == (30 * NANOS, None)  # type: ignore[operator]


def test_pending_pods_are_kept_or_skipped() -> None:
    pod = dedent(
        """
        kind: Pod
        metadata: {name: p, namespace: ns, creationTimestamp: "2024-05-01T08:00:00Z"}
        status: {phase: Pending}
        """
    )
    kept = read_pods("p.yaml", pod, PodsOptions(), False)
    assert [(a.name, a.start) for a in kept.jobs[0].asks] == [("ns/p", None)]
    skipped = read_pods("p.yaml", pod, PodsOptions(keep_pending=False), False)
    assert skipped.jobs == []
    assert skipped.notes == ["1 pod that never started (pending when dumped) left out"]


def test_times_out_of_range_are_bad_rows_not_overflowing_durations() -> None:
    assert timestamp_nanos("9999-12-31 23:59:59") is None
    read = _csv(
        """
        job_id,submit_time,duration
        a,99999999999999999999,1
        b,0,99999999999999999999
        c,0,1e300
        """
    )
    assert [p.message for p in read.problems] == [
        "submit_time '99999999999999999999' is not a time",
        "duration '99999999999999999999' is not a run time",
        "duration '1e300' is not a run time",
    ]
    helios = read_helios(
        "log.csv",
        f"{HELIOS_HEADER}\n1,u,vcA,1,1,1,COMPLETED,2020-09-01 08:00:00,2020-09-01 08:00:00,,99999999999,0\n",
        HeliosOptions(),
        False,
    )
    assert [p.message for p in helios.problems] == ["duration '99999999999' is not a number of seconds, 0 or more"]


_CELLS = st.sampled_from(["", "0", "1", "-1", "1.5", "1e3", "nan", "inf", "2024-06-01T08:00:00Z", "2020-09-01 08:00:00",
                          "90s", "1h", "500m", "4Gi", "x", "None", '"a,b"', "99999999999999999999", " 7 ",
                          "²"])  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(_CELLS, min_size=1, max_size=13), max_size=6), st.sampled_from(["csv", "helios"]))
def test_any_table_is_read_or_refused_never_a_traceback(rows: list[list[str]], kind: str) -> None:
    header = HELIOS_HEADER if kind == "helios" else "job_id,submit_time,duration,start_time,cpu,memory,count,priority"
    text = "\n".join([header, *(",".join(row) for row in rows)]) + "\n"
    options = HeliosOptions(keep_unstarted=True)
    try:
        read = _csv(text) if kind == "csv" else read_helios("log.csv", text, options, False)
    except TraceError:
        return
    assert len(read.jobs) <= read.rows
    for job in read.jobs:
        for ask in job.asks:
            assert ask.duration is None or ask.duration >= NANOS
            assert ask.start is None or ask.start >= ask.submit
