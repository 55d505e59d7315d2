"""`yk simulate --metrics`: the text tables (golden), the JSON document against its schema, the per-pod CSV, the
file written by --output, and the usage errors."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import jsonschema

from tests.conftest import ROOT
from tests.helpers.golden import check_golden

ARRIVALS = ("samples/workloads/queues/arrivals.yaml", "samples/workloads/arrivals.yaml")
PREEMPTION = ("samples/workloads/queues/preemption.yaml", "samples/workloads/preemption.yaml")
SCHEMA = json.loads((ROOT / "schemas" / "metrics.schema.json").read_text(encoding="utf-8"))


def test_text_report_golden(run_yk) -> None:
    result = run_yk("simulate", *ARRIVALS, "--metrics")
    assert result.exit_code == 0, result.stderr
    check_golden("metrics_arrivals.txt", result.stdout)


def test_text_report_with_preemption_golden(run_yk) -> None:
    result = run_yk("simulate", *PREEMPTION, "--metrics")
    assert result.exit_code == 0, result.stderr
    check_golden("metrics_preemption.txt", result.stdout)


def test_json_follows_its_schema_and_says_the_numbers(run_yk) -> None:
    result = run_yk("simulate", *ARRIVALS, "--metrics", "--format", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    jsonschema.Draft202012Validator(SCHEMA).validate(data)
    assert (data["end"], data["makespan"], data["bucket"]) == (300, None, 3.0)
    assert data["summary"] == {"pods": 3, "started": 2, "pending": 1, "failed": 0, "preemptions": 1,
                               "runningAtEnd": 2, "notSubmitted": 0}
    team_b = {g["key"]: g for g in data["groups"]["queue"]}["root.tenants.team-b"]
    # render waits 2m (180 s -> 300 s); render-all still waits at the end: 60 s so far
    assert team_b["wait"] == {"count": 2, "censored": 1, "p50": 60, "p90": 120, "p95": 120, "p99": 120, "max": 120}
    team_a = {q["path"]: q for q in data["queues"]}["root.tenants.team-a"]
    assert (team_a["gap"], team_a["gapShare"]) == (30, 0.1)
    assert len(data["cluster"]["series"]) == 100
    check_golden("metrics_arrivals.json", result.stdout)


def test_csv_has_one_row_per_pod(run_yk) -> None:
    result = run_yk("simulate", *ARRIVALS, "--metrics", "--format", "csv")
    assert result.exit_code == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [(r["ask"], r["submit"], r["start"], r["wait"], r["outcome"], r["pendingReason"]) for r in rows] == [
        ("web-1", "90", "120", "30", "started", ""),
        ("render", "180", "300", "120", "started", ""),
        ("render-all", "240", "", "60", "pending", "cluster-full"),
    ]
    assert rows[0]["vcore"] == "2000" and rows[0]["memory"] == str(8 * 2**30)


def test_output_writes_the_file(run_yk, tmp_path: Path) -> None:
    target = tmp_path / "pods.csv"
    result = run_yk("simulate", *ARRIVALS, "--metrics", "--format", "csv", "--output", str(target))
    assert result.exit_code == 0
    assert result.stdout == ""
    assert f"wrote {target}" in result.stderr
    assert target.read_text(encoding="utf-8").startswith("application,ask,queue,user,priority,submit,start,end")


def test_same_input_same_bytes(run_yk) -> None:
    first = run_yk("simulate", *PREEMPTION, "--metrics", "--format", "json").stdout
    assert run_yk("simulate", *PREEMPTION, "--metrics", "--format", "json").stdout == first


def test_usage_errors(run_yk, tmp_path: Path) -> None:
    csv_alone = run_yk("simulate", *ARRIVALS, "--format", "csv")
    assert csv_alone.exit_code == 2
    assert "--format csv is the per-pod table of --metrics: add --metrics" in csv_alone.stderr
    markdown = run_yk("simulate", *ARRIVALS, "--metrics", "--format", "markdown")
    assert markdown.exit_code == 2
    assert "unknown format 'markdown'; choose one of text, json, csv" in markdown.stderr
    starts = run_yk("simulate", *ARRIVALS, "--metrics", "--starts")
    assert starts.exit_code == 2
    assert "--metrics is its own report" in starts.stderr
    nowhere = run_yk("simulate", *ARRIVALS, "--metrics", "--output", str(tmp_path / "missing" / "x.txt"))
    assert nowhere.exit_code == 2
    assert "cannot write" in nowhere.stderr


def test_html_report_is_written_to_the_file(run_yk, tmp_path: Path) -> None:
    target = tmp_path / "report.html"
    result = run_yk("simulate", *PREEMPTION, "--format", "html", "--output", str(target))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    page = target.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") or page.lower().startswith("<!doctype html>")
    for name in ("root.batch.etl", "nightly-etl", "root.prod"):
        assert name in page
    again = tmp_path / "again.html"
    run_yk("simulate", *PREEMPTION, "--format", "html", "--output", str(again))
    assert again.read_bytes() == target.read_bytes()


def test_html_needs_a_file(run_yk) -> None:
    result = run_yk("simulate", *PREEMPTION, "--format", "html")
    assert result.exit_code == 2
    assert "--format html writes a file: add --output FILE" in result.stderr
