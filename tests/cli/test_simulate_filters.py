"""`yk simulate` arrivals (rows of their own, not steps) and the report filters --queue, --app, --pending-only and
--summary: alone, combined, bad names, all three formats, goldens and the JSON Schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.cli.helpers import SCHEMA, TIMED_CONFIG, ok, validator
from tests.conftest import dedent
from tests.helpers.golden import check_golden
from yk_cli.core.analysis.trace_view import TraceFilter, unknown_names, view
from yk_cli.core.sim.trace import (
    ALLOCATE,
    PREEMPT,
    QUOTA_PREEMPT,
    Candidate,
    PreemptionAttempt,
    Summary,
    Trace,
    TraceEvent,
    Victim,
)

pytestmark = pytest.mark.usefixtures("in_root")
"""Run from the checkout, so that reports name files by the short relative names of the goldens."""

ARRIVALS = ("samples/workloads/queues/arrivals.yaml", "samples/workloads/arrivals.yaml")
PREEMPTION = ("samples/workloads/queues/preemption.yaml", "samples/workloads/preemption.yaml")
NAMESPACES = ("samples/workloads/queues/namespaces.yaml", "samples/workloads/namespaces.yaml")
FILTERED = "Filtered: "
WHOLE_RUN = "(the dry run ran the whole partition; the summary line counts all of it)"


def as_json(run_yk, *args: str) -> dict[str, Any]:
    """The JSON report; it must match the schema and be exactly json.dumps(indent=2) of itself."""
    text = ok(run_yk, "simulate", *args, "-f", "json")
    data = json.loads(text)
    validator().validate(data)
    assert text == json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    return data


def rows(data: dict[str, Any]) -> list[tuple[str, str]]:
    """(type, application/ask) of every step and arrival, arrivals placed by afterStep."""
    out: list[tuple[str, str]] = []
    arrivals = list(data["arrivals"])
    for e in data["events"]:
        while arrivals and arrivals[0]["afterStep"] < e["step"]:
            a = arrivals.pop(0)
            out.append(("arrive", f"{a['application']}/{a['ask']}"))
        out.append((e["type"], f"{e['application']}/{e['ask']}"))
    out += [("arrive", f"{a['application']}/{a['ask']}") for a in arrivals]
    return out


# --- arrivals ------------------------------------------------------------------------------------------------------


def test_arrivals_are_rows_between_the_steps_golden(run_yk) -> None:
    text = ok(run_yk, "simulate", *ARRIVALS)
    lines = text.splitlines()
    assert "      1m30s  arrive    root.tenants.team-a  P100      web-1               team-a: n/a -> 100" in lines
    assert "      4m0s   arrive    root.tenants.team-b  P10       render-all" in lines
    assert FILTERED not in text
    check_golden("simulate_arrivals.txt", text)
    check_golden("simulate_arrivals.md", ok(run_yk, "simulate", *ARRIVALS, "-f", "markdown"))


def test_arrivals_in_json(run_yk) -> None:
    data = as_json(run_yk, *ARRIVALS)
    assert data["arrivals"] == [
        {
            "time": 90,
            "afterStep": 0,
            "application": "web",
            "ask": "web-1",
            "queuePath": "root.tenants.team-a",
            "priority": 100,
            "resources": {"memory": 8589934592, "vcore": 2000},
            "priorityChanges": [
                {"queuePath": "root.tenants.team-a", "from": None, "to": 100},
                {"queuePath": "root.tenants", "from": None, "to": 100},
            ],
        },
        {
            "time": 180,
            "afterStep": 2,
            "application": "reports",
            "ask": "render",
            "queuePath": "root.tenants.team-b",
            "priority": 10,
            "resources": {"memory": 17179869184, "vcore": 4000},
            "priorityChanges": [
                {"queuePath": "root.tenants.team-b", "from": None, "to": 10},
                {"queuePath": "root.tenants", "from": None, "to": 10},
            ],
        },
        {
            "time": 240,
            "afterStep": 2,
            "application": "reports",
            "ask": "render-all",
            "queuePath": "root.tenants.team-b",
            "priority": 10,
            "resources": {"memory": 17179869184, "vcore": 4000},
            "priorityChanges": [],
        },
    ]
    assert [e["step"] for e in data["events"]] == [1, 2, 3, 4]  # arrivals are not steps
    assert data["summary"]["steps"] == len(data["events"])
    assert rows(data) == [
        ("arrive", "web/web-1"),
        ("preempt", "web/web-1"),
        ("allocate", "web/web-1"),
        ("arrive", "reports/render"),
        ("arrive", "reports/render-all"),
        ("complete", "nightly/etl-3"),
        ("allocate", "reports/render"),
    ]
    check_golden("simulate_arrivals.json", json.dumps(data, indent=2, ensure_ascii=False) + "\n")


ARRIVAL_WORKLOAD = """
nodes:
  - {name: n1, resources: {memory: 10}}
applications:
  - id: A
    queue: root.leaf
    asks:
      - {name: now, resources: {memory: 6}, duration: 10s}
      - {name: waited, resources: {memory: 1}, submitTime: -30s}
      - {name: at-10s, resources: {memory: 1}, submitTime: 10s}
      - {name: nothing, resources: {memory: 0}, submitTime: 20s}
  - id: B
    queue: root.leaf
    submitTime: 1m
    asks:
      - {name: early, priority: 5, resources: {memory: 1}, submitTime: 5s}
"""


@pytest.fixture
def arriving(tmp_path: Path) -> tuple[str, str]:
    config, workload = tmp_path / "queues.yaml", tmp_path / "workload.yaml"
    config.write_text(dedent(TIMED_CONFIG))
    workload.write_text(dedent(ARRIVAL_WORKLOAD))
    return str(config), str(workload)


def test_only_asks_arriving_after_the_start_are_rows(run_yk, arriving: tuple[str, str]) -> None:
    """Asks at 0 (a negative submitTime too) are the starting state; an ask for nothing never arrives; an ask
    arrives with its application when that is later."""
    data = as_json(run_yk, *arriving)
    assert [(a["time"], a["ask"], a["afterStep"]) for a in data["arrivals"]] == [(10, "at-10s", 2), (60, "early", 4)]
    assert data["arrivals"][1]["priorityChanges"] == [{"queuePath": "root.leaf", "from": None, "to": 5}]
    assert rows(data) == [
        ("allocate", "A/waited"),
        ("allocate", "A/now"),
        ("arrive", "A/at-10s"),
        ("complete", "A/now"),
        ("allocate", "A/at-10s"),
        ("arrive", "B/early"),
        ("allocate", "B/early"),
    ]


def test_until_before_an_arrival_leaves_no_row(run_yk, arriving: tuple[str, str]) -> None:
    data = as_json(run_yk, *arriving, "--until", "30s")
    assert [a["ask"] for a in data["arrivals"]] == ["at-10s"]
    assert {p["ask"]: p["code"] for p in data["pending"]}["early"] == "not-submitted"
    text = ok(run_yk, "simulate", *arriving, "--until", "9s")
    assert " arrive " not in text


def test_restarted_victims_are_not_arrivals(run_yk) -> None:
    data = as_json(run_yk, *PREEMPTION)
    assert data["arrivals"] == []
    assert "etl-2.r1" in {p["ask"] for p in data["pending"]}


def test_explain_is_not_affected_by_arrivals(run_yk) -> None:
    """yk explain names steps by their numbers, which arrivals do not take."""
    out = ok(run_yk, "explain", *ARRIVALS, "web-1", "render")
    assert (
        "  web-1   web          root.tenants.team-a  P100      1m30s      allocated at step 2 (2m0s) on node-1" in out
    )
    assert (
        "  render  reports      root.tenants.team-b  P10       3m0s       allocated at step 4 (5m0s) on node-2" in out
    )
    assert " arrive " not in out


# --- the filters, alone ----------------------------------------------------------------------------------------------


def test_queue_filter_text_and_json_goldens(run_yk) -> None:
    text = ok(run_yk, "simulate", *ARRIVALS, "--queue", "root.tenants")
    assert text.splitlines()[2] == f"{FILTERED}queue root.tenants and below {WHOLE_RUN}"
    assert "Shown: 3 of 4 steps, 3 of 3 arrivals, 1 of 1 pending ask" in text
    check_golden("simulate_arrivals_tenants.txt", text)
    data = as_json(run_yk, *ARRIVALS, "--queue", "root.tenants")
    assert data["filters"] == {
        "active": True,
        "queues": ["root.tenants"],
        "applications": [],
        "pendingOnly": False,
        "summaryOnly": False,
    }
    assert [e["step"] for e in data["events"]] == [1, 2, 4]  # the batch completion is left out
    assert data["summary"]["steps"] == 4  # the summary counts the whole run
    check_golden("simulate_arrivals_tenants.json", json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def test_queue_filter_keeps_a_preemption_by_its_victims_whole(run_yk) -> None:
    """root.batch's pod is a victim of team-a's ask: the step is shown, preemptor and all, in every format."""
    data = as_json(run_yk, *ARRIVALS, "--queue", "root.batch")
    assert rows(data) == [("preempt", "web/web-1"), ("complete", "nightly/etl-3")]
    assert [v["allocation"] for v in data["events"][0]["victims"]] == ["etl-2"]
    assert data["arrivals"] == [] and data["pending"] == []
    assert data["queueTotals"] == [
        {"queuePath": "root.batch", "allocated": 0, "pending": 0, "preempted": 1, "completed": 1, "arrived": 0}
    ]
    text = ok(run_yk, "simulate", *ARRIVALS, "--queue", "root.batch")
    assert "preempted nightly/etl-2 (root.batch, P0, {memory: 16Gi, vcore: 4})" in text
    markdown = ok(run_yk, "simulate", *ARRIVALS, "--queue", "root.batch", "-f", "markdown")
    assert "| 1 | 2m0s | preempt | `root.tenants.team-a` |" in markdown
    assert f"> **Filtered:** queue root.batch and below {WHOLE_RUN}" in markdown
    assert "**Shown:** 2 of 4 steps, 0 of 3 arrivals, 0 of 1 pending ask" in markdown


def test_queue_filter_victims_outside_the_subtree_are_shown_but_not_counted(run_yk) -> None:
    data = as_json(run_yk, *PREEMPTION, "--queue", "root.prod")
    preempt = data["events"][0]
    assert preempt["type"] == "preempt"
    assert {v["queuePath"] for v in preempt["victims"]} == {"root.batch.etl"}  # outside, shown whole
    assert [t["queuePath"] for t in data["queueTotals"]] == ["root.prod"]
    assert data["queueTotals"][0]["preempted"] == 0


def test_queue_paths_are_case_insensitive_and_cover_dynamic_queues(run_yk) -> None:
    upper = as_json(run_yk, *ARRIVALS, "--queue", "ROOT.Tenants.TEAM-A")
    assert upper["filters"]["queues"] == ["root.tenants.team-a"]
    assert rows(upper) == [("arrive", "web/web-1"), ("preempt", "web/web-1"), ("allocate", "web/web-1")]
    dynamic = as_json(run_yk, *NAMESPACES, "--queue", "root.tenants.analytics")  # created by a placement rule
    assert {e["queuePath"] for e in dynamic["events"]} == {"root.tenants.analytics"}
    assert dynamic["events"]


def test_app_filter(run_yk) -> None:
    data = as_json(run_yk, *ARRIVALS, "--app", "reports")
    assert rows(data) == [
        ("arrive", "reports/render"),
        ("arrive", "reports/render-all"),
        ("allocate", "reports/render"),
    ]
    assert [p["ask"] for p in data["pending"]] == ["render-all"]
    victim = as_json(run_yk, *ARRIVALS, "--app", "nightly")
    assert rows(victim) == [("preempt", "web/web-1"), ("complete", "nightly/etl-3")]  # a victim of web's ask
    both = as_json(run_yk, *ARRIVALS, "--app", "web", "--app", "nightly")
    assert [e["step"] for e in both["events"]] == [1, 2, 3]
    text = ok(run_yk, "simulate", *ARRIVALS, "--app", "web", "--app", "nightly")
    assert f"{FILTERED}applications web, nightly {WHOLE_RUN}" in text


def test_pending_only(run_yk) -> None:
    text = ok(run_yk, "simulate", *ARRIVALS, "--pending-only")
    assert text == (
        "yk simulate: samples/workloads/queues/arrivals.yaml + samples/workloads/arrivals.yaml; partition default: "
        "2 nodes, 3 applications, 3 asks\n"
        "\n"
        f"{FILTERED}pending asks only {WHOLE_RUN}\n"
        "\n"
        "Summary: 2 allocations, 1 completion, 1 reservation, 1 preemption, 1 pending; 4 steps in 5m0s "
        "(nothing left to do)\n"
        "\n"
        "Pending asks (1):\n"
        "APPLICATION/ASK     QUEUE                PRIORITY  REASON\n"
        "reports/render-all  root.tenants.team-b  P10       the cluster is full: {memory: 56Gi, vcore: 14} of "
        "{memory: 64Gi, vcore: 16} in use, the ask needs {memory: 16Gi, vcore: 4}; no preemption: no guarantee on "
        "root.tenants.team-b or its parents\n"
    )
    data = as_json(run_yk, *ARRIVALS, "--pending-only")
    assert (data["events"], data["arrivals"], data["attempts"]) == ([], [], [])
    assert [p["ask"] for p in data["pending"]] == ["render-all"]
    assert data["queueTotals"] == as_json(run_yk, *ARRIVALS)["queueTotals"]  # filters never change the totals
    markdown = ok(run_yk, "simulate", *ARRIVALS, "--pending-only", "-f", "markdown")
    assert "| Step |" not in markdown
    assert "| reports | render-all | `root.tenants.team-b` | P10 |" in markdown


def test_summary_golden(run_yk) -> None:
    text = ok(run_yk, "simulate", *ARRIVALS, "--summary")
    assert "STEP" not in text and "Pending asks" not in text
    check_golden("simulate_arrivals_summary.txt", text)
    data = as_json(run_yk, *ARRIVALS, "--summary")
    assert (data["events"], data["arrivals"], data["pending"], data["attempts"]) == ([], [], [], [])
    assert [(t["queuePath"], t["allocated"], t["pending"], t["preempted"]) for t in data["queueTotals"]] == [
        ("root.tenants.team-a", 1, 0, 0),
        ("root.tenants.team-b", 1, 1, 0),
        ("root.batch", 0, 0, 1),
    ]
    assert data["summary"]["endTime"] == 300
    markdown = ok(run_yk, "simulate", *ARRIVALS, "--summary", "-f", "markdown")
    assert markdown.endswith(
        "### By queue\n\n"
        "| Queue | Allocated | Pending | Preempted | Completed | Arrived |\n"
        "|---|---:|---:|---:|---:|---:|\n"
        "| `root.tenants.team-a` | 1 | 0 | 0 | 0 | 1 |\n"
        "| `root.tenants.team-b` | 1 | 1 | 0 | 0 | 2 |\n"
        "| `root.batch` | 0 | 0 | 1 | 1 | 0 |\n"
        "| total | 2 | 1 | 1 | 1 | 3 |\n"
    )


# --- combined ------------------------------------------------------------------------------------------------------


def test_queue_and_app_must_both_match(run_yk) -> None:
    web = as_json(run_yk, *ARRIVALS, "--queue", "root.tenants", "--app", "web")
    assert rows(web) == [("arrive", "web/web-1"), ("preempt", "web/web-1"), ("allocate", "web/web-1")]
    assert web["pending"] == []
    none = as_json(run_yk, *ARRIVALS, "--queue", "root.tenants", "--app", "nightly")
    assert (none["events"], none["arrivals"], none["pending"]) == ([], [], [])
    assert [t["queuePath"] for t in none["queueTotals"]] == ["root.tenants.team-a", "root.tenants.team-b"]
    text = ok(run_yk, "simulate", *ARRIVALS, "--queue", "root.tenants", "--app", "nightly")
    assert "No scheduling step matches the filter." in text
    assert "Shown: 0 of 4 steps, 0 of 3 arrivals, 0 of 1 pending ask" in text


def test_queue_with_pending_only_and_summary(run_yk) -> None:
    data = as_json(run_yk, *ARRIVALS, "--queue", "root.tenants.team-a", "--pending-only")
    assert data["pending"] == [] and data["events"] == []
    summary = as_json(run_yk, *ARRIVALS, "--queue", "root.tenants", "--pending-only", "--summary")
    assert summary["filters"] == {
        "active": True,
        "queues": ["root.tenants"],
        "applications": [],
        "pendingOnly": True,
        "summaryOnly": True,
    }
    assert [(t["queuePath"], t["allocated"], t["pending"]) for t in summary["queueTotals"]] == [
        ("root.tenants.team-a", 1, 0),
        ("root.tenants.team-b", 1, 1),
    ]
    text = ok(run_yk, "simulate", *ARRIVALS, "--queue", "root.tenants", "--app", "reports", "--summary")
    assert f"{FILTERED}queue root.tenants and below; application reports; summary only {WHOLE_RUN}" in text
    assert text.endswith(
        "Totals per queue over the whole run, for queue root.tenants and below (filters choose what is shown, never "
        "what is counted):\n"
        "QUEUE                  ALLOCATED  PENDING  PREEMPTED  COMPLETED  ARRIVED\n"
        "root.tenants.team-a            1        0          0          0        1\n"
        "root.tenants.team-b            1        1          0          0        2\n"
        "total of these queues          2        1          0          0        3\n"
    )


def test_filters_with_explain_preemption(run_yk) -> None:
    """A try is kept when its ask matches or one of the pods it considered does."""
    full = as_json(run_yk, *PREEMPTION, "--explain-preemption")
    system = as_json(run_yk, *PREEMPTION, "--explain-preemption", "--queue", "root.system")
    assert system["events"] == []
    assert system["attempts"] == [
        a for a in full["attempts"] if any(c["queuePath"] == "root.system" for c in a["candidates"])
    ]
    assert system["attempts"]
    text = ok(run_yk, "simulate", *PREEMPTION, "--explain-preemption", "--pending-only")
    assert "Preemption attempts" not in text


# --- bad names -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("--queue", "root.tenant"),
            "yk: error: --queue root.tenant: no such queue in the partition (did you mean root.tenants?)\n",
        ),
        (
            ("--queue", "tenants.team-a"),
            "yk: error: --queue tenants.team-a: no such queue in the partition (did you mean root.tenants.team-a?)\n",
        ),
        (
            ("--queue", "root.zzzzzzzz"),
            "yk: error: --queue root.zzzzzzzz: no such queue in the partition (it has: "
            "root, root.tenants, root.tenants.team-a, root.tenants.team-b, root.batch)\n",
        ),
        (("--queue", " "), "yk: error: --queue needs a queue path, e.g. root.tenants\n"),
        (("--app", "webb"), "yk: error: --app webb: no such application in the workload (did you mean web?)\n"),
        (
            ("--app", "Reports"),
            "yk: error: --app Reports: no such application in the workload (did you mean reports?)\n",
        ),
        (
            ("--app", "zzzzzzzz"),
            "yk: error: --app zzzzzzzz: no such application in the workload (it has: nightly, web, reports)\n",
        ),
        (
            ("--app", "web", "--queue", "root.batchh"),
            "yk: error: --queue root.batchh: no such queue in the partition (did you mean root.batch?)\n",
        ),
    ],
)
def test_unknown_queue_or_application_is_a_usage_error(run_yk, args: tuple[str, ...], message: str) -> None:
    for fmt in ("text", "json"):
        result = run_yk("simulate", *ARRIVALS, *args, "-f", fmt)
        assert result.exit_code == 2
        assert result.stdout == ""
        assert result.stderr == message


def test_unknown_names_lists_long_queue_lists_briefly() -> None:
    queues = [f"root.q{i}" for i in range(20)]
    assert unknown_names(TraceFilter(("root.zzzzzzzz",)), queues, []) == [
        "--queue root.zzzzzzzz: no such queue in the partition (it has: root.q0, root.q1, root.q2, root.q3, root.q4, "
        "root.q5, root.q6, root.q7, ... (20 in all))"
    ]
    assert unknown_names(TraceFilter(("root.q1",), ("a",)), queues, ["a"]) == []


# --- the JSON Schema -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ("--queue", "root.tenants"),
        ("--app", "nightly"),
        ("--pending-only",),
        ("--summary",),
        ("--queue", "root.tenants", "--app", "reports", "--pending-only", "--summary"),
    ],
)
def test_filtered_json_matches_the_schema_and_lists_keys_in_order(run_yk, args: tuple[str, ...]) -> None:
    data = as_json(run_yk, *ARRIVALS, *args)
    assert list(data) == SCHEMA["required"]
    assert list(data["filters"]) == SCHEMA["properties"]["filters"]["required"]
    assert data["filters"]["active"] is True
    for item in data["queueTotals"]:
        assert list(item) == SCHEMA["$defs"]["QueueTotals"]["required"]
    for item in data["arrivals"]:
        assert list(item) == SCHEMA["$defs"]["Arrival"]["required"]


def test_schema_refuses_a_filtered_document_that_claims_to_be_full(run_yk) -> None:
    check = validator()
    summary = as_json(run_yk, *ARRIVALS, "--summary")
    full = as_json(run_yk, *ARRIVALS)
    with pytest.raises(jsonschema.ValidationError):
        check.validate({**summary, "events": full["events"]})  # --summary with steps
    with pytest.raises(jsonschema.ValidationError):
        check.validate({**full, "filters": {**full["filters"], "pendingOnly": True}})  # steps with --pending-only
    with pytest.raises(jsonschema.ValidationError):
        check.validate({**full, "filters": {**full["filters"], "queues": ["root.batch"]}})  # active false, a queue
    with pytest.raises(jsonschema.ValidationError):
        check.validate({**full, "arrivals": [{**full["arrivals"][0], "time": 0}]})  # an arrival at the start


# --- the view on constructed traces ---------------------------------------------------------------------------------


def _event(step: int, kind: str, queue: str, app: str, ask: str, victims: tuple[Victim, ...] = ()) -> TraceEvent:
    return TraceEvent(step, 0, kind, queue, app, ask, 0 if app else None, "n1", {"memory": 1}, (), victims)


def _victim(app: str, name: str, queue: str) -> Victim:
    return Victim(name, app, queue, "n1", 0, {"memory": 1})


QUOTA_TRACE = Trace(
    events=(
        _event(1, ALLOCATE, "root.a.x", "X", "x1"),
        _event(2, QUOTA_PREEMPT, "root.a", "", "", (_victim("X", "x0", "root.a.x"), _victim("Y", "y0", "root.a.y"))),
        _event(3, PREEMPT, "root.b", "B", "b1", (_victim("Y", "y1", "root.a.y"),)),
    ),
    pending=(),
    summary=Summary(steps=3),
    attempts=(
        PreemptionAttempt(0, 2, "B", "b1", "root.b", 0, "node", "root", "preempted", "n1"),
        PreemptionAttempt(
            0,
            2,
            "C",
            "c1",
            "root.c",
            0,
            "node",
            "root",
            "x",
            "",
            (Candidate("y1", "Y", "root.a.y", "n1", 0, "victim"),),
        ),
    ),
    queues=("root", "root.a", "root.a.x", "root.a.y", "root.b", "root.c"),
)


def test_quota_preempt_steps_match_by_their_queue_or_a_victim() -> None:
    def steps(chosen: TraceFilter) -> list[int]:
        return [e.step for e in view(QUOTA_TRACE, chosen).events]

    assert steps(TraceFilter(("root.a",))) == [1, 2, 3]
    assert steps(TraceFilter(("root.a.x",))) == [1, 2]  # a victim below the quota queue
    assert steps(TraceFilter(("root.b",))) == [3]
    assert steps(TraceFilter((), ("Y",))) == [2, 3]  # no ask of its own: only its victims match an application
    assert steps(TraceFilter(("root.a.x",), ("Y",))) == []  # both kinds on the same row
    shown = view(QUOTA_TRACE, TraceFilter(("root.a.y",)))
    assert [(t.queue_path, t.preempted, t.allocated) for t in shown.totals] == [("root.a.y", 2, 0)]
    assert [a.application for a in shown.attempts] == ["C"]  # by a candidate of root.a.y


def test_unfiltered_view_is_the_trace() -> None:
    shown = view(QUOTA_TRACE)
    assert shown.events == QUOTA_TRACE.events
    assert shown.attempts == QUOTA_TRACE.attempts
    # a preempt step counts for its victims' queues; its ask is counted when it is allocated
    assert [(t.queue_path, t.allocated, t.preempted) for t in shown.totals] == [("root.a.x", 1, 1), ("root.a.y", 0, 2)]


def test_loops_are_kept_with_one_of_their_steps() -> None:
    ring = Trace(
        events=(
            TraceEvent(
                1,
                0,
                PREEMPT,
                "root.a",
                "A",
                "a1",
                0,
                "n1",
                {},
                (),
                (Victim("b1", "B", "root.b", "n1", 0, {}, "b1.r1"),),
            ),
            TraceEvent(
                2,
                0,
                PREEMPT,
                "root.b",
                "B",
                "b1.r1",
                0,
                "n1",
                {},
                (),
                (Victim("a1", "A", "root.a", "n1", 0, {}, "a1.r2"),),
            ),
        ),
        pending=(),
        summary=Summary(steps=2),
        queues=("root", "root.a", "root.b", "root.c"),
    )
    assert len(view(ring).loops) == 1
    assert len(view(ring, TraceFilter(("root.a",))).loops) == 1
    assert view(ring, TraceFilter(("root.c",))).loops == ()


def test_help_says_filters_never_change_the_run(run_yk) -> None:
    result = run_yk("simulate", "--help")
    flat = " ".join(result.stdout.replace("│", " ").split())
    assert (
        "--queue, --app, --pending-only and --summary choose what is shown (they combine); the dry run always runs "
        "the whole partition." in flat
    )
    assert "Filters change what is shown, never what is simulated" in flat


def test_the_docs_summary_example_is_real_output(run_yk) -> None:
    from tests.conftest import ROOT

    docs = (ROOT / "docs" / "simulate.md").read_text(encoding="utf-8")
    block = docs.split(
        "$ yk simulate samples/workloads/queues/arrivals.yaml samples/workloads/arrivals.yaml --summary\n"
    )[1]
    shown = [line for line in block.split("```")[0].splitlines() if line != "..."]
    out = ok(run_yk, "simulate", *ARRIVALS, "--summary")
    assert "\n".join(shown) in out
    assert len(shown) == 7  # the summary line, a blank, the header, three queues, the total
