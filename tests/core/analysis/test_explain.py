"""`yk explain`: which of two asks goes first and why, always agreeing with the dry run's order."""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings

from tests.conftest import ROOT, dedent
from tests.helpers.scenarios import preempting_case
from yk_cli.core.analysis.explain import (
    BOTH_PENDING,
    OTHER_BLOCKED,
    RESERVATION,
    SORTED_FIRST,
    VERDICTS,
    Explanation,
    UnknownAsk,
    explain,
    find_ask,
)
from yk_cli.core.config.queues import build_queue_tree
from yk_cli.core.sim.run import Simulation, SimulationOptions, simulate
from yk_cli.core.sim.state import PENDING
from yk_cli.core.sim.trace import ALLOCATE
from yk_cli.core.workload.generate import GenerateOptions, generate
from yk_cli.load.config import load_config
from yk_cli.load.workload import parse_workload
from yk_cli.report.generate_yaml import config_yaml, workload_yaml

pytestmark = pytest.mark.usefixtures("in_root")
"""Run from the checkout, so that reports name files by the short relative names of the goldens."""

TENANTS = ("samples/queues/tenants.yaml", "samples/workloads/tenants.yaml")


def files(tmp_path: Path, queues: str, workload: str) -> tuple[str, str]:
    """Write an inline queue config and workload; their paths."""
    config_path, workload_path = tmp_path / "queues.yaml", tmp_path / "workload.yaml"
    config_path.write_text(dedent(queues), encoding="utf-8")
    workload_path.write_text(dedent(workload), encoding="utf-8")
    return str(config_path), str(workload_path)


def explained(run_yk, config: str, workload: str, a: str, b: str, *extra: str) -> dict[str, Any]:
    """The JSON explanation (exit status 0 asserted)."""
    result = run_yk("explain", config, workload, a, b, "--format", "json", *extra)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def field_values(data: dict[str, Any]) -> dict[str, list[Any]]:
    """Key field name -> [value of the first ask's side, value of the second's]."""
    return {f["name"]: f["values"] for f in data["comparison"]["fields"]}


# --- the tenant example ------------------------------------------------------------------------------------


def test_tenant_different_subtrees_are_decided_by_priority_at_root(run_yk) -> None:
    data = explained(run_yk, *TENANTS, "a1-p8", "low-p3")
    assert data["first"] == "child-a-1/a1-p8"
    assert data["verdict"] == SORTED_FIRST
    assert data["step"] == 4
    comparison = data["comparison"]
    assert comparison["level"] == "queue"
    assert comparison["at"] == "root"
    assert [s["name"] for s in comparison["sides"]] == ["root.tenants", "root.system"]
    assert comparison["decidedBy"] == "priority"
    assert comparison["sortsFirst"] == "root.tenants"
    values = field_values(data)
    assert values["priority"] == [0, -997]  # system fell to -997 after normal-p2 (step 3)
    assert values["fair share"] == [0.0, 3 / 64]  # three 1-vcore asks of system out of the 64-vcore cluster
    tenants, system = comparison["sides"]
    assert tenants["priorityFrom"] == "child-a-1/a1-p8"
    assert [(s["kind"], s["value"]) for s in tenants["priorityBreakdown"]] == [
        ("ask", 8),
        ("application", 8),
        ("offset", 8),
        ("fence", 10),
        ("fence", 0),
    ]
    assert system["priorityFrom"] == "system-low/low-p3"
    assert [(s["queuePath"], s["value"]) for s in system["priorityBreakdown"][2:]] == [
        ("root.system.system-low", -997),
        ("root.system", -997),
    ]
    assert data["asks"][1]["allocated"] == {"step": 11, "time": 0, "node": "node-1"}


def test_tenant_text_report(run_yk) -> None:
    result = run_yk("explain", *TENANTS, "a1-p8", "low-p3")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert out.startswith(
        "yk explain: samples/queues/tenants.yaml + samples/workloads/tenants.yaml; partition default\n\n"
        "a1-p8 goes first: at root, queue root.tenants sorts before root.system on priority: 0 vs -997 "
        "(higher first).\n"
    )
    assert "allocated at step 4 (0s) on node-1" in out
    assert "allocated at step 11 (0s) on node-1" in out
    assert "Their branches meet at root: root sorts its child queues by priority, then fair share" in out
    lines = out.splitlines()
    priority_row = next(line for line in lines if line.lstrip().startswith("priority "))
    assert priority_row.split()[:3] == ["priority", "0", "-997"]
    assert priority_row.endswith("<- first difference")
    assert "0.04688 (vcore 3 of 64: cluster capacity)" in out
    assert "Priority of root.tenants: 0, from child-a-1/a1-p8" in out
    assert "Priority of root.system: -997, from system-low/low-p3" in out
    assert "  tenant-a             10  priority.policy fence: root.tenants.tenant-a shows only its offset 10" in out
    assert "from priority.offset -1000: set here (samples/queues/tenants.yaml:20)" in out


def test_tenant_siblings_in_a_fenced_subtree(run_yk) -> None:
    data = explained(run_yk, *TENANTS, "a1-p5", "a2-p6")
    assert data["first"] == "child-a-2/a2-p6"
    assert data["step"] == 5
    comparison = data["comparison"]
    assert comparison["at"] == "root.tenants.tenant-a"
    assert comparison["decidedBy"] == "priority"
    # child-a-1 dropped from 8 to 5 once a1-p8 ran; the fence on tenant-a keeps this inside the tenant
    assert field_values(data)["priority"] == [5, 6]
    assert data["summary"] == (
        "a2-p6 goes first: at root.tenants.tenant-a, queue root.tenants.tenant-a.child-a-2 sorts before "
        "root.tenants.tenant-a.child-a-1 on priority: 6 vs 5 (higher first)."
    )


def test_tenant_fence_hides_a_higher_ask_behind_the_tenant_offset(run_yk) -> None:
    data = explained(run_yk, *TENANTS, "b1-p9", "a2-p4")
    assert data["first"] == "child-a-2/a2-p4"
    comparison = data["comparison"]
    assert comparison["at"] == "root.tenants"
    assert field_values(data)["priority"] == [0, 10]
    assert comparison["sides"][0]["priorityBreakdown"][-1]["kind"] == "fence"


def test_tenant_same_application_by_ask_priority(run_yk) -> None:
    data = explained(run_yk, *TENANTS, "child-a-1/a1-p5", "a1-p8")
    assert data["first"] == "child-a-1/a1-p8"
    comparison = data["comparison"]
    assert comparison["level"] == "ask"
    assert comparison["at"] == "root.tenants.tenant-a.child-a-1"
    assert [f["name"] for f in comparison["fields"]] == ["priority", "creation time", "file order"]
    assert comparison["decidedBy"] == "priority"
    assert field_values(data)["priority"] == [5, 8]


def test_tenant_json_exact(run_yk) -> None:
    data = explained(run_yk, *TENANTS, "b2-p8", "b1-p7")
    assert data == {
        "source": "samples/queues/tenants.yaml + samples/workloads/tenants.yaml",
        "partition": "default",
        "notModelled": [],
        "asks": [
            {
                "application": "child-b-2",
                "ask": "b2-p8",
                "queuePath": "root.tenants.tenant-b.child-b-2",
                "priority": 8,
                "submitTime": 0,
                "allocated": {"step": 9, "time": 0, "node": "node-1"},
                "pending": None,
            },
            {
                "application": "child-b-1",
                "ask": "b1-p7",
                "queuePath": "root.tenants.tenant-b.child-b-1",
                "priority": 7,
                "submitTime": 0,
                "allocated": {"step": 10, "time": 0, "node": "node-1"},
                "pending": None,
            },
        ],
        "first": "child-b-2/b2-p8",
        "verdict": "sorted-first",
        "summary": (
            "b2-p8 goes first: at root.tenants.tenant-b, queue root.tenants.tenant-b.child-b-2 sorts before "
            "root.tenants.tenant-b.child-b-1 on priority: 8 vs 7 (higher first)."
        ),
        "step": 9,
        "time": 0,
        "comparison": {
            "level": "queue",
            "at": "root.tenants.tenant-b",
            "order": (
                "root.tenants.tenant-b sorts its child queues by priority, then fair share, then pending, then "
                "configuration order (application.sort.priority enabled)"
            ),
            "sides": [
                {
                    "name": "root.tenants.tenant-b.child-b-2",
                    "priority": 8,
                    "priorityFrom": "child-b-2/b2-p8",
                    "priorityBreakdown": [
                        {
                            "queuePath": "root.tenants.tenant-b.child-b-2",
                            "kind": "ask",
                            "value": 8,
                            "detail": "spec.priority 8",
                            "causes": [],
                        },
                        {
                            "queuePath": "root.tenants.tenant-b.child-b-2",
                            "kind": "application",
                            "value": 8,
                            "detail": "application child-b-2: currentPriority 8 (its highest pending ask)",
                            "causes": [],
                        },
                        {
                            "queuePath": "root.tenants.tenant-b.child-b-2",
                            "kind": "offset",
                            "value": 8,
                            "detail": "priority.offset +0",
                            "causes": ["priority.offset 0: default"],
                        },
                    ],
                },
                {
                    "name": "root.tenants.tenant-b.child-b-1",
                    "priority": 7,
                    "priorityFrom": "child-b-1/b1-p7",
                    "priorityBreakdown": [
                        {
                            "queuePath": "root.tenants.tenant-b.child-b-1",
                            "kind": "ask",
                            "value": 7,
                            "detail": "spec.priority 7",
                            "causes": [],
                        },
                        {
                            "queuePath": "root.tenants.tenant-b.child-b-1",
                            "kind": "application",
                            "value": 7,
                            "detail": "application child-b-1: currentPriority 7 (its highest pending ask)",
                            "causes": [],
                        },
                        {
                            "queuePath": "root.tenants.tenant-b.child-b-1",
                            "kind": "offset",
                            "value": 7,
                            "detail": "priority.offset +0",
                            "causes": ["priority.offset 0: default"],
                        },
                    ],
                },
            ],
            "fields": [
                {"name": "priority", "values": [8, 7], "texts": ["8", "7"]},
                {
                    "name": "fair share",
                    "values": [0.0, 0.015625],
                    "texts": ["0 (nothing allocated)", "0.01562 (vcore 1 of 64: cluster capacity)"],
                },
                {
                    "name": "pending",
                    "values": [{"memory": 1073741824, "vcore": 1000}, {"memory": 1073741824, "vcore": 1000}],
                    "texts": ["{memory: 1Gi, vcore: 1}", "{memory: 1Gi, vcore: 1}"],
                },
                {"name": "configuration order", "values": [1, 0], "texts": ["#2 among siblings", "#1 among siblings"]},
            ],
            "decidedBy": "priority",
            "sortsFirst": "root.tenants.tenant-b.child-b-2",
            "tie": False,
        },
        "other": None,
        "reservation": None,
    }


# --- other sort keys ---------------------------------------------------------------------------------------

FAIR_QUEUES = """
    partitions:
      - name: default
        queues:
          - name: root
            submitacl: "*"
            queues:
              - name: batch
                properties:
                  application.sort.priority: disabled
                queues:
                  - name: busy
                    resources: {guaranteed: {vcore: 10}}
                  - name: idle
                    resources: {guaranteed: {vcore: 10}}
"""
FAIR_WORKLOAD = """
    nodes:
      - {name: node-1, resources: {vcore: 16, memory: 64Gi}}
    applications:
      - id: busy-app
        queue: root.batch.busy
        allocations:
          - {name: busy-running, node: node-1, priority: 0, resources: {vcore: 4}}
        asks:
          - {name: urgent, priority: 100, resources: {vcore: 1}}
      - id: idle-app
        queue: root.batch.idle
        asks:
          - {name: routine, priority: 0, resources: {vcore: 1}}
"""


def test_fair_share_decides_when_the_parent_disables_priority_sorting(run_yk, tmp_path: Path) -> None:
    data = explained(run_yk, *files(tmp_path, FAIR_QUEUES, FAIR_WORKLOAD), "urgent", "routine")
    assert data["first"] == "idle-app/routine"
    comparison = data["comparison"]
    assert comparison["at"] == "root.batch"
    assert [f["name"] for f in comparison["fields"]][:2] == ["fair share", "priority"]
    assert comparison["decidedBy"] == "fair share"
    values = field_values(data)
    assert values["fair share"] == [0.4, 0.0]
    assert values["priority"] == [100, 0]  # the higher priority loses: fairness comes first under root.batch
    texts = {f["name"]: f["texts"] for f in comparison["fields"]}
    assert texts["fair share"][0] == "0.4 (vcore 4 of 10: guaranteed)"
    assert "(application.sort.priority disabled)" in comparison["order"]
    assert "on fair share: 0 vs 0.4 (lower first)" in data["summary"]


FIFO_QUEUES = """
    partitions:
      - name: default
        queues:
          - name: root
            submitacl: "*"
            queues:
              - name: jobs
                properties:
                  application.sort.policy: fifo
                  application.sort.priority: disabled
"""
FIFO_WORKLOAD = """
    nodes:
      - {name: node-1, resources: {vcore: 4, memory: 16Gi}}
    applications:
      - id: late
        queue: root.jobs
        submitTime: -10s
        asks:
          - {name: late-ask, priority: 50, resources: {vcore: 1}}
      - id: early
        queue: root.jobs
        submitTime: -30s
        asks:
          - {name: early-ask, priority: 1, resources: {vcore: 1}}
"""


def test_fifo_submission_time_decides_inside_a_leaf(run_yk, tmp_path: Path) -> None:
    data = explained(run_yk, *files(tmp_path, FIFO_QUEUES, FIFO_WORKLOAD), "late-ask", "early-ask")
    assert data["first"] == "early/early-ask"
    comparison = data["comparison"]
    assert comparison["level"] == "application"
    assert comparison["at"] == "root.jobs"
    assert [s["name"] for s in comparison["sides"]] == ["late", "early"]
    assert [f["name"] for f in comparison["fields"]] == ["submission time", "file order", "priority"]
    assert comparison["decidedBy"] == "submission time"
    assert field_values(data)["submission time"] == [-10, -30]
    assert "on submission time: -30s vs -10s (older first)" in data["summary"]


def test_fifo_with_priority_enabled_lets_priority_win(run_yk, tmp_path: Path) -> None:
    queues = FIFO_QUEUES.replace("application.sort.priority: disabled", "application.sort.priority: enabled")
    data = explained(run_yk, *files(tmp_path, queues, FIFO_WORKLOAD), "late-ask", "early-ask")
    assert data["first"] == "late/late-ask"
    assert data["comparison"]["decidedBy"] == "priority"


def test_fair_leaf_usage_ratio_decides(run_yk, tmp_path: Path) -> None:
    queues = """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                queues:
                  - name: shared
                    resources: {guaranteed: {vcore: 10}}
                    properties:
                      application.sort.policy: fair
    """
    workload = """
        nodes:
          - {name: node-1, resources: {vcore: 16}}
        applications:
          - id: heavy
            queue: root.shared
            allocations:
              - {name: heavy-run, node: node-1, resources: {vcore: 4}}
            asks: [{name: heavy-ask, priority: 5, resources: {vcore: 1}}]
          - id: light
            queue: root.shared
            allocations:
              - {name: light-run, node: node-1, resources: {vcore: 1}}
            asks: [{name: light-ask, priority: 5, resources: {vcore: 1}}]
    """
    data = explained(run_yk, *files(tmp_path, queues, workload), "heavy-ask", "light-ask")
    assert data["first"] == "light/light-ask"
    comparison = data["comparison"]
    assert comparison["level"] == "application"
    assert [f["name"] for f in comparison["fields"]] == ["priority", "usage ratio", "submission time", "file order"]
    assert comparison["decidedBy"] == "usage ratio"
    assert field_values(data)["usage ratio"] == [[0.4], [0.1]]
    texts = {f["name"]: f["texts"] for f in comparison["fields"]}
    assert texts["usage ratio"] == [
        "0.4 (largest: vcore 4 of guaranteed 10)",
        "0.1 (largest: vcore 1 of guaranteed 10)",
    ]
    assert "on usage ratio: 0.1 vs 0.4 (lower first)" in data["summary"]


def test_configuration_order_tie_is_flagged(run_yk, tmp_path: Path) -> None:
    workload = """
        nodes:
          - {name: node-1, resources: {vcore: 4}}
        applications:
          - id: one
            queue: root.batch.busy
            asks: [{name: one-ask, resources: {vcore: 1}}]
          - id: two
            queue: root.batch.idle
            asks: [{name: two-ask, resources: {vcore: 1}}]
    """
    data = explained(run_yk, *files(tmp_path, FAIR_QUEUES, workload), "two-ask", "one-ask")
    assert data["first"] == "one/one-ask"
    assert data["comparison"]["decidedBy"] == "configuration order"
    assert data["comparison"]["tie"] is True
    result = run_yk("explain", *files(tmp_path, FAIR_QUEUES, workload), "two-ask", "one-ask")
    assert "YuniKorn would pick at random" in result.stdout


# --- asks that cannot be placed ----------------------------------------------------------------------------

SMALL_QUEUES = """
    partitions:
      - name: default
        queues:
          - name: root
            submitacl: "*"
            queues:
              - name: a
              - name: b
"""
HUGE_WORKLOAD = """
    nodes:
      - {name: node-1, resources: {vcore: 8, memory: 32Gi}}
      - {name: node-2, resources: {vcore: 8, memory: 32Gi}}
    applications:
      - id: giant
        queue: root.a
        asks:
          - {name: huge, priority: 100, resources: {vcore: 12}}
          - {name: huge-too, priority: 100, resources: {vcore: 10}}
      - id: modest
        queue: root.b
        asks:
          - {name: small, priority: 1, resources: {vcore: 1}}
"""


def test_an_ask_that_never_fits_loses_with_its_reason(run_yk, tmp_path: Path) -> None:
    data = explained(run_yk, *files(tmp_path, SMALL_QUEUES, HUGE_WORKLOAD), "huge", "small")
    assert data["first"] == "modest/small"
    assert data["verdict"] == OTHER_BLOCKED
    assert data["comparison"]["sortsFirst"] == "root.a"  # huge sorts first (priority 100) but cannot be placed
    assert data["other"]["code"] == "node-too-small"
    assert data["asks"][0]["allocated"] is None
    assert data["asks"][0]["pending"] == {"code": "node-too-small", "reason": "no node is large enough for {vcore: 12}"}
    assert data["summary"] == (
        "small goes first: huge sorts first (at root, queue root.a sorts before root.b on priority: 100 vs 1 "
        "(higher first)), but could not be placed then: no node is large enough for {vcore: 12}."
    )
    text = run_yk("explain", *files(tmp_path, SMALL_QUEUES, HUGE_WORKLOAD), "huge", "small").stdout
    assert "never allocated: no node is large enough for {vcore: 12}" in text
    assert "At step 1 (0s) huge could not be placed: no node is large enough for {vcore: 12} (node-too-small)." in text


def test_both_pending(run_yk, tmp_path: Path) -> None:
    data = explained(run_yk, *files(tmp_path, SMALL_QUEUES, HUGE_WORKLOAD), "huge", "huge-too")
    assert data["verdict"] == BOTH_PENDING
    assert data["first"] is None
    assert data["comparison"] is None
    assert data["summary"] == (
        "Neither is ever allocated: huge no node is large enough for {vcore: 12}; "
        "huge-too no node is large enough for {vcore: 10}."
    )


def test_other_not_submitted_yet(run_yk, tmp_path: Path) -> None:
    workload = """
        nodes:
          - {name: node-1, resources: {vcore: 8}}
        applications:
          - id: now
            queue: root.a
            asks: [{name: now-ask, priority: 0, resources: {vcore: 1}}]
          - id: later
            queue: root.b
            submitTime: 30s
            asks: [{name: later-ask, priority: 1000, resources: {vcore: 1}}]
    """
    data = explained(run_yk, *files(tmp_path, SMALL_QUEUES, workload), "later-ask", "now-ask")
    assert data["first"] == "now/now-ask"
    assert data["verdict"] == OTHER_BLOCKED
    assert data["comparison"] is None
    assert data["other"] == {"code": "not-submitted", "reason": "not submitted yet: arrives at 30s"}
    assert data["summary"] == "now-ask goes first: later-ask is not submitted yet: arrives at 30s."


def test_queue_max_blocks_the_higher_priority_ask(run_yk, tmp_path: Path) -> None:
    queues = SMALL_QUEUES.replace("- name: a\n", "- name: a\n                resources: {max: {vcore: 2}}\n")
    workload = """
        nodes:
          - {name: node-1, resources: {vcore: 8}}
        applications:
          - id: capped
            queue: root.a
            allocations:
              - {name: capped-run, node: node-1, resources: {vcore: 2}}
            asks: [{name: capped-ask, priority: 1000, resources: {vcore: 1}}]
          - id: free
            queue: root.b
            asks: [{name: free-ask, priority: 0, resources: {vcore: 1}}]
    """
    data = explained(run_yk, *files(tmp_path, queues, workload), "capped-ask", "free-ask")
    assert data["first"] == "free/free-ask"
    assert data["verdict"] == OTHER_BLOCKED
    assert data["other"]["code"] == "queue-max"
    assert "queue max reached at root.a" in data["other"]["reason"]


def test_reservation_pass_goes_first(run_yk, tmp_path: Path) -> None:
    workload = """
        nodes:
          - {name: n1, resources: {vcore: 4}}
          - {name: n2, resources: {vcore: 4}}
        applications:
          - id: big-app
            queue: root.a
            submitTime: -5s
            allocations:
              - {name: fill-1, node: n1, resources: {vcore: 2}, duration: 10s}
              - {name: fill-2, node: n2, resources: {vcore: 2}}
            asks: [{name: big, priority: 0, resources: {vcore: 4}}]
          - id: late-app
            queue: root.b
            submitTime: 10s
            asks: [{name: late-ask, priority: 100, resources: {vcore: 2}}]
    """
    config, work = files(tmp_path, SMALL_QUEUES, workload)
    data = explained(run_yk, config, work, "late-ask", "big")
    assert data["first"] == "big-app/big"
    assert data["verdict"] == RESERVATION
    assert data["reservation"] == {"node": "n1", "step": 1, "time": 0}
    assert (data["step"], data["time"]) == (3, 10)
    assert data["asks"][0]["allocated"] == {"step": 4, "time": 10, "node": "n2"}
    text = run_yk("explain", config, work, "late-ask", "big").stdout
    assert "every scheduling cycle tries reserved asks before the regular walk" in text
    assert "big reserved node n1 at step 1 (0s)" in text


STATEAWARE_QUEUES = """
    partitions:
      - name: default
        queues:
          - name: root
            submitacl: "*"
            queues:
              - name: jobs
                properties:
                  application.sort.policy: stateaware
"""
STATEAWARE_WORKLOAD = """
    nodes:
      - {name: node-1, resources: {vcore: 8}}
    applications:
      - id: first-app
        queue: root.jobs
        submitTime: -20s
        asks:
          - {name: first-1, priority: 0, resources: {vcore: 1}}
          - {name: first-2, priority: 0, resources: {vcore: 1}}
      - id: second-app
        queue: root.jobs
        submitTime: -10s
        asks:
          - {name: second-1, priority: 50, resources: {vcore: 1}}
"""


def test_state_filter_with_yunikorn_1_5(run_yk, tmp_path: Path) -> None:
    config, work = files(tmp_path, STATEAWARE_QUEUES, STATEAWARE_WORKLOAD)
    legacy = explained(run_yk, config, work, "second-1", "first-2", "--yunikorn-version", "1.5")
    assert legacy["first"] == "first-app/first-2"
    assert legacy["verdict"] == OTHER_BLOCKED
    assert legacy["comparison"]["decidedBy"] == "priority"
    assert legacy["comparison"]["sortsFirst"] == "second-app"
    assert legacy["other"]["code"] == "state-filter"
    assert "first-app is still Starting" in legacy["other"]["reason"]
    current = explained(run_yk, config, work, "second-1", "first-2")
    assert current["first"] == "second-app/second-1"  # 1.6+: stateaware is fifo, priority first
    assert current["verdict"] == SORTED_FIRST


# --- usage -------------------------------------------------------------------------------------------------


def test_unknown_ask_is_a_usage_error_with_suggestions(run_yk) -> None:
    result = run_yk("explain", *TENANTS, "a1-p9", "low-p3")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("yk: error: no ask 'a1-p9' in the workload (did you mean ")
    assert "a1-p8" in result.stderr


def test_unknown_application_and_same_ask(run_yk) -> None:
    result = run_yk("explain", *TENANTS, "nobody/a1-p8", "low-p3")
    assert result.exit_code == 2
    assert "no application 'nobody' in the workload" in result.stderr
    result = run_yk("explain", *TENANTS, "child-a-2/a1-p8", "low-p3")
    assert result.exit_code == 2
    assert "no ask 'a1-p8' in application child-a-2" in result.stderr
    result = run_yk("explain", *TENANTS, "a1-p8", "child-a-1/a1-p8")
    assert result.exit_code == 2
    assert "the same ask" in result.stderr


def test_running_allocation_is_not_an_ask(run_yk, tmp_path: Path) -> None:
    result = run_yk("explain", *files(tmp_path, FAIR_QUEUES, FAIR_WORKLOAD), "busy-running", "routine")
    assert result.exit_code == 2
    assert "is an allocation already running in busy-app" in result.stderr


def test_input_problems_are_reported_like_validate(run_yk, tmp_path: Path) -> None:
    missing = run_yk("explain", "no-such-file.yaml", TENANTS[1], "a1-p8", "low-p3")
    assert missing.exit_code == 2
    assert missing.stderr.startswith("yk: error:")
    bad = tmp_path / "bad.yaml"
    bad.write_text("partitions:\n  - name: default\n    queues:\n      - name: notroot\n", encoding="utf-8")
    result = run_yk("explain", str(bad), TENANTS[1], "a1-p8", "low-p3")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    version = run_yk("explain", *TENANTS, "a1-p8", "low-p3", "--yunikorn-version", "latest")
    assert version.exit_code == 2
    fmt = run_yk("explain", *TENANTS, "a1-p8", "low-p3", "--format", "yaml")
    assert fmt.exit_code == 2


def test_find_ask_direct() -> None:
    result = load_config(TENANTS[0])
    partition = result.configs[0].config.partitions[0]
    workload = parse_workload(Path(TENANTS[1]).read_text(encoding="utf-8"), TENANTS[1]).workload
    app, ask = find_ask(workload, "child-b-1/b1-p7")
    assert (app.id, ask.name) == ("child-b-1", "b1-p7")
    with pytest.raises(UnknownAsk) as err:
        find_ask(workload, "b1-p77")
    assert "b1-p7" in err.value.suggestions
    assert explain(partition, build_queue_tree(partition), workload, "a1-p8", "low-p3").winner == 0


def test_output_is_deterministic(run_yk) -> None:
    first = run_yk("explain", *TENANTS, "a2-p4", "b1-p9")
    second = run_yk("explain", *TENANTS, "a2-p4", "b1-p9")
    assert first.stdout == second.stdout


def test_output_does_not_depend_on_the_hash_seed() -> None:
    outputs = set()
    for hash_seed in ("0", "1", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-m", "yk_cli", "explain", *TENANTS, "b1-p9", "a2-p4", "--format", "json"],
            capture_output=True,
            check=True,
            env=env,
            cwd=ROOT,
        )
        outputs.add(done.stdout)
    assert len(outputs) == 1


# --- consistency with the dry run --------------------------------------------------------------------------


def _check_coherent(explanation: Explanation, trace_steps: dict[str, int], names: tuple[str, str]) -> None:
    """The winner is the ask the dry run allocates first, and the stated reason holds."""
    allocated = [trace_steps.get(name) for name in names]
    assert explanation.verdict in VERDICTS
    if all(step is None for step in allocated):
        assert explanation.winner is None
        assert explanation.verdict == BOTH_PENDING
        return
    steps = [step if step is not None else float("inf") for step in allocated]
    expected = 0 if steps[0] < steps[1] else 1
    assert explanation.winner == expected
    assert explanation.step == allocated[expected]
    comparison = explanation.comparison
    if explanation.verdict == SORTED_FIRST:
        assert comparison is not None
        assert comparison.first == expected
    elif explanation.verdict == OTHER_BLOCKED:
        assert explanation.other_code and explanation.other_code != "stopped"
        assert comparison is None or comparison.first != expected
    else:
        assert explanation.verdict == RESERVATION
        assert explanation.reserved_node


@pytest.mark.parametrize("seed", range(3))
def test_winner_is_always_the_ask_the_simulation_allocates_first(seed: int) -> None:
    options = GenerateOptions(nodes=6, queues=6, apps=12, asks=60, seed=seed, running=0.3)
    generated = generate(options)
    result = load_config("-", stdin=config_yaml(generated.config).encode())
    partition = result.configs[0].config.partitions[0]
    tree = build_queue_tree(partition)
    workload = parse_workload(workload_yaml(generated.workload), "<generated>").workload
    trace = simulate(partition, tree, workload)
    steps = {f"{e.application}/{e.ask}": e.step for e in trace.events if e.type == ALLOCATE}
    names = [f"{app.id}/{ask.name}" for app in workload.applications for ask in app.asks]
    rng = random.Random(seed)
    verdicts = set()
    for _ in range(40):
        a, b = rng.sample(names, 2)
        explanation = explain(partition, tree, workload, a, b)
        _check_coherent(explanation, steps, (a, b))
        verdicts.add(explanation.verdict)
    assert SORTED_FIRST in verdicts


def test_comparison_reads_the_keys_the_engine_sorted_with() -> None:
    """At the halted cycle the explained sides are in the engine's own sort order."""
    result = load_config(TENANTS[0])
    partition = result.configs[0].config.partitions[0]
    tree = build_queue_tree(partition)
    workload = parse_workload(Path(TENANTS[1]).read_text(encoding="utf-8"), TENANTS[1]).workload
    run = Simulation(partition, tree, workload, SimulationOptions(halt_before_step=4))
    run.run()
    state = run.state
    order = [entry[-1].path for entry in state.root.children]
    assert order == ["root.tenants", "root.system"]
    assert all(entry[:-1] == entry[-1].key()[:-1] for entry in state.root.children)
    assert sum(1 for ask in state.asks if ask.status == PENDING) == 8


def _resumed_matches(config: str, work: str) -> int:
    """For every pair of asks in the workload: halting before the first of them is allocated and resuming gives the
    trace of an uninterrupted run. Returns how many runs halted."""
    from tests.helpers.scenarios import scenario

    partition, tree, loaded = scenario(config, work)
    whole = simulate(partition, tree, loaded, SimulationOptions())
    names = [(app.id, ask.name) for app in loaded.applications for ask in app.asks]
    halted = 0
    for pair in itertools.pairwise(names):
        run = Simulation(partition, tree, loaded, SimulationOptions(halt_before_allocating=pair))
        if run.run_until_halt():
            halted += 1
            trace = run.resume()
        else:
            trace = run.finish()
        assert trace.events == whole.events
        assert trace.pending == whole.pending
        assert [(a.time, a.ask, a.outcome) for a in trace.attempts] == [
            (a.time, a.ask, a.outcome) for a in whole.attempts
        ]
    return halted


def test_explain_runs_once_and_resuming_changes_nothing() -> None:
    config = (ROOT / "yk_cli" / "data" / "tenants-queues.yaml").read_text(encoding="utf-8")
    work = (ROOT / "yk_cli" / "data" / "tenants-workload.yaml").read_text(encoding="utf-8")
    assert _resumed_matches(config, work) > 0


@settings(max_examples=40)
@given(preempting_case())
def test_resuming_after_a_halt_changes_nothing_on_random_workloads(case: tuple[dict, dict]) -> None:
    _resumed_matches(json.dumps(case[0]), json.dumps(case[1]))
