"""The Spark team sample (samples/workloads/spark-team.yaml): gangs (driver and executors task groups) under a user
limit (one job at a time per user) and a group limit (the data group's vcore), end to end through the CLI.

Golden traces (tests/golden/simulate_spark-team.*; UPDATE_GOLDEN=1 rewrites): the whole run, and the pending asks
at 1m with the gang wait, the limit and the limit's config line.
"""

from __future__ import annotations

import json

import pytest

from tests.conftest import ROOT
from tests.helpers.golden import check_golden

SAMPLE = ("samples/workloads/queues/spark-team.yaml", "samples/workloads/spark-team.yaml")


@pytest.fixture(autouse=True)
def _in_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def test_golden_whole_run(run_yk) -> None:
    result = run_yk("simulate", *SAMPLE)
    assert result.exit_code == 0, result.stderr
    check_golden("simulate_spark-team.txt", result.stdout)


def test_golden_pending_at_one_minute(run_yk) -> None:
    result = run_yk("simulate", *SAMPLE, "--until", "1m", "--pending-only")
    assert result.exit_code == 0, result.stderr
    check_golden("simulate_spark-team-1m.txt", result.stdout)


def test_who_waits_for_what_at_one_minute(run_yk) -> None:
    result = run_yk("simulate", *SAMPLE, "--until", "1m", "--format", "json")
    assert result.exit_code == 0, result.stderr
    pending = {p["ask"]: p for p in json.loads(result.stdout)["pending"]}
    assert sorted(pending) == [
        "ml-driver", *(f"ml-exec-{i}" for i in range(5)), "report-driver", "report-exec-0", "report-exec-1"
    ]
    assert {p["code"] for p in pending.values()} == {"gang-reserving"}
    report = pending["report-driver"]["reason"]
    assert report.startswith("held by the shim while gang report places its placeholders: task group driver: 0 of 1")
    assert "user alice at maxapplications 1 of root.spark (the limit for every user, *): 1 of 1 applications" in report
    assert report.endswith("(samples/workloads/queues/spark-team.yaml:13)")
    ml = pending["ml-exec-0"]["reason"]
    assert "task group executors: 4 of 5 placeholders placed; tg-ml-executors-4 waits: group data of user bob" in ml
    assert ml.endswith("(samples/workloads/queues/spark-team.yaml:16)")


def test_the_held_job_starts_when_the_first_is_done(run_yk) -> None:
    events = json.loads(run_yk("simulate", *SAMPLE, "--format", "json").stdout)["events"]
    first = {e["application"]: e["time"] for e in reversed(events) if e["type"] == "placeholder"}
    assert first == {"etl": 0, "ml": 5, "report": 120}
    replaced = [e["ask"] for e in events if e["type"] == "replace" and e["application"] == "report"]
    assert replaced == ["report-driver", "report-exec-0", "report-exec-1"]
