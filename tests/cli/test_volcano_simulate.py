"""`yk volcano simulate` end to end: every Volcano case folder, the seed-004 worked example, exit codes, output."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from tests.helpers import paths
from tests.helpers.golden import check_golden
from tests.helpers.paths import ROOT
from yk_cli.core.volcano.simulate import simulate
from yk_cli.load.volcano import load_volcano
from yk_cli.report.volcano_sim_json import render_json

pytestmark = pytest.mark.usefixtures("in_root")
"""Run from the checkout, so that reports name files by the short relative names of the goldens."""

CASES = paths.DATA / "volcano" / "cases"
SCHEMA = json.loads((ROOT / "schemas" / "volcano-simulate.schema.json").read_text())
SAMPLES = ROOT / "samples" / "volcano"


def case_dirs() -> list[Path]:
    """Every runnable case: the folders with objects.yaml, and each sub-case of a `subcases` folder (V17)."""
    out = []
    for folder in sorted(p for p in CASES.iterdir() if p.is_dir()):
        expected = json.loads((folder / "expected.json").read_text())
        if expected.get("kind") == "config":
            continue  # V05: the loader's defaults, covered by tests/load/test_volcano_load.py
        if expected.get("kind") == "subcases":
            out.extend(folder / name for name in expected["subcases"])
        else:
            out.append(folder)
    return out


def simulate_json(run_yk, *args: str) -> dict:
    result = run_yk("volcano", "simulate", *args, "--format", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    jsonschema.validate(data, SCHEMA)
    return data


def outcome(data: dict) -> tuple[dict[str, str], set[str]]:
    """(binds task -> node, evicted tasks) over every action of the session."""
    binds: dict[str, str] = {}
    evictions: set[str] = set()
    for action in data["actions"]:
        for item in action["events"]:
            if item["type"] == "bind":
                assert item["task"] not in binds
                binds[item["task"]] = item["node"]
            elif item["type"] == "evict":
                evictions.add(item["task"])
    return binds, evictions


def test_every_case_folder_is_run() -> None:
    names = [p.relative_to(CASES).as_posix() for p in case_dirs()]
    assert names == [
        "v01-queue-priority-proportion",
        "v02-queue-priority-capacity",
        "v03-equal-queues-interleave",
        "v07-reclaim-victim-queue-priority",
        "v10-reclaim-preemptable-only",
        "v13-preempt-same-queue-only",
        "v14-preempt-victim-task-order",
        "v17-jobs-in-leaf-queues/case0-leaf-queue",
        "v17-jobs-in-leaf-queues/case1-non-leaf-queue",
    ]


@pytest.mark.parametrize("folder", case_dirs(), ids=lambda p: p.relative_to(CASES).as_posix())
def test_volcano_case(run_yk, folder: Path) -> None:
    expected = json.loads((folder / "expected.json").read_text())
    args = (str(folder / "objects.yaml"), "--conf", str(folder / "volcano-scheduler.conf"))
    if folder.name == "case1-non-leaf-queue":
        # a job in a queue with children is an error of the input (volcano-job-in-parent-queue): the CLI stops on it
        # (exit 1) as on every error, and the engine's own session shows what Volcano does: nothing is scheduled
        refused = run_yk("volcano", "simulate", *args)
        assert (refused.exit_code, refused.stdout) == (1, "")
        assert "[error] PodGroup ns1/pg2 is in queue `q1`, which has child queues" in refused.stderr
        inputs = load_volcano([args[0]], args[2])
        data = json.loads(render_json(simulate(inputs.cluster, inputs.conf.effective), inputs.conf_source))
    else:
        data = simulate_json(run_yk, *args)
    binds, evictions = outcome(data)
    assert binds == expected["binds"]
    assert evictions == set(expected["evictions"])
    if "pipelined" in expected:
        pipelined: dict[str, list[str]] = {}
        for action in data["actions"]:
            for item in action["events"]:
                if item["type"] == "pipeline":
                    pipelined.setdefault(item["job"], []).append(item["node"])
        assert pipelined == expected["pipelined"]


def test_v07_reclaim_events_in_order(run_yk) -> None:
    folder = CASES / "v07-reclaim-victim-queue-priority"
    data = simulate_json(run_yk, str(folder / "objects.yaml"), "--conf", str(folder / "volcano-scheduler.conf"))
    assert data["actions"] == [
        {
            "name": "reclaim",
            "events": [
                {"type": "evict", "task": "c1/preemptee1-1", "node": "n1", "for": "c1/preemptor1", "reason": "reclaim",
                 "job": "c1/pg1", "queue": "q1"},
                {"type": "pipeline", "task": "c1/preemptor1", "node": "n1", "job": "c1/pg3", "queue": "q3"},
            ],
        }
    ]
    assert [(q["name"], q["rank"], q["share"]) for q in data["queues"]] == [
        ("q2", 1, 1.333333), ("q1", 2, 1.333333), ("q3", 3, 0.0)
    ]


def test_v01_with_default_flags_p3_does_not_bind(run_yk, tmp_path: Path) -> None:
    """V01's caveat: with proportion's flags defaulted (all on), Allocatable refuses p3 (2 cpu > 1.333 deserved)."""
    conf = tmp_path / "volcano-scheduler.conf"
    conf.write_text('actions: "allocate, reclaim"\ntiers:\n- plugins:\n  - name: proportion\n')
    data = simulate_json(run_yk, str(CASES / "v01-queue-priority-proportion" / "objects.yaml"), "--conf", str(conf))
    assert outcome(data) == ({}, set())
    refused = [e for a in data["actions"] for e in a["events"] if e["type"] == "not-allocatable"]
    assert [(e["task"], e["by"]) for e in refused] == [("ns1/p3", "proportion"), ("ns1/p2", "proportion")]


def _order(data: dict, action: str, kind: str, key: str) -> list[str]:
    events = next(a["events"] for a in data["actions"] if a["name"] == action)
    return [e[key] for e in events if e["type"] == kind]


def test_seed_example_queue_priority(run_yk) -> None:
    """Reference 10.2: A (priority 10) drains first, in enqueue and allocate; A is dropped once Overused."""
    data = simulate_json(run_yk, str(SAMPLES / "seed-example.yaml"))
    assert data["conf_source"].startswith("Volcano's built-in default configuration")
    assert _order(data, "enqueue", "enqueue", "job") == ["seed/a2", "seed/a1", "seed/b2", "seed/b1"]
    allocate = next(a["events"] for a in data["actions"] if a["name"] == "allocate")
    assert [(e["type"], e.get("job", e.get("queue"))) for e in allocate] == [
        ("bind", "seed/a2"), ("bind", "seed/a1"), ("skip-queue-overused", "a"),
        ("bind", "seed/b2"), ("bind", "seed/b1"), ("skip-queue-overused", "b"),
    ]
    jobs = {j["uid"]: (j["priority"], j["priority_source"]) for j in data["jobs"]}
    assert jobs == {
        "seed/a1": (0, "no class"), "seed/a2": (12, "PodGroup class prio-12"),
        "seed/b1": (0, "no class"), "seed/b2": (13, "PodGroup class prio-13"),
    }
    deserved = {q["name"]: q["deserved"] for q in data["queues"]}
    assert deserved == {"a": {"cpu": 2000.0, "memory": 2147483648.0, "pods": 2.0},
                        "b": {"cpu": 2000.0, "memory": 2147483648.0, "pods": 2.0}}


def test_seed_example_equal_priorities_interleave(run_yk) -> None:
    data = simulate_json(run_yk, str(SAMPLES / "seed-example-equal-priority.yaml"))
    assert _order(data, "allocate", "bind", "job") == ["seed/a2", "seed/b2", "seed/a1", "seed/b1"]


def test_seed_example_three_cpus_leaves_one_idle(run_yk) -> None:
    """Deserved 1.5 cpu per queue: A1 is refused by proportion's Allocatable, 1 cpu stays idle. B1 does not get that
    far: overcommit keeps it Pending in enqueue (minResources 4 cpu in all > 3 cpu x 1.2), which the reference's
    derivation (written without minResources) does not mention; the binds are the same."""
    data = simulate_json(run_yk, str(SAMPLES / "seed-example-3cpu.yaml"))
    binds, evictions = outcome(data)
    assert binds == {"seed/a2-task-0": "node-1", "seed/b2-task-0": "node-1"} and evictions == set()
    assert [(e["type"], e.get("job")) for e in next(a for a in data["actions"] if a["name"] == "enqueue")["events"]] \
        == [("enqueue", "seed/a2"), ("enqueue", "seed/a1"), ("enqueue", "seed/b2"), ("enqueue-rejected", "seed/b1")]
    refused = [(e["task"], e["by"]) for a in data["actions"] for e in a["events"] if e["type"] == "not-allocatable"]
    assert refused == [("seed/a1-task-0", "proportion")]


def test_seed_example_text_golden(run_yk) -> None:
    result = run_yk("volcano", "simulate", "samples/volcano/seed-example.yaml")
    assert result.exit_code == 0 and result.stderr == ""
    check_golden("volcano_simulate_seed.txt", result.stdout)


def test_seed_example_markdown_golden(run_yk) -> None:
    """The simulate family's formats (text, json, markdown), as `yk simulate` has them."""
    result = run_yk("volcano", "simulate", "samples/volcano/seed-example.yaml", "--format", "markdown")
    assert result.exit_code == 0 and result.stderr == ""
    check_golden("volcano_simulate_seed.md", result.stdout)
    proposal = run_yk("volcano", "simulate", "samples/volcano/seed-example.yaml", "-f", "markdown", "--proposal")
    assert "\n### Proposal view\n\n```text\nProposal view: design proposal" in proposal.stdout
    assert proposal.stdout.endswith("```\n")
    xml = run_yk("volcano", "simulate", "samples/volcano/seed-example.yaml", "-f", "xml")
    assert xml.exit_code == 2 and "text, json, markdown" in xml.stderr


def test_output_is_byte_identical(run_yk) -> None:
    folder = CASES / "v14-preempt-victim-task-order"
    args = ("volcano", "simulate", str(folder / "objects.yaml"), "--conf", str(folder / "volcano-scheduler.conf"))
    for fmt in ("text", "json", "markdown"):
        first = run_yk(*args, "--format", fmt).stdout
        assert first == run_yk(*args, "--format", fmt).stdout


def test_conf_from_the_dump_configmap(run_yk, tmp_path: Path) -> None:
    dump = tmp_path / "dump.yaml"
    dump.write_text(
        (SAMPLES / "seed-example.yaml").read_text()
        + "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: volcano-scheduler-configmap\n"
        "    namespace: volcano-system\n  data:\n    volcano-scheduler.conf: |\n"
        '      actions: "allocate"\n      tiers:\n      - plugins:\n        - name: priority\n'
    )
    data = simulate_json(run_yk, str(dump))
    assert data["conf_source"] == f'{dump} (ConfigMap volcano-scheduler-configmap, data["volcano-scheduler.conf"])'
    assert data["conf"] == {"actions": ["allocate"], "tiers": [["priority"]]}
    # No queue-order plugin: the older queue (a) drains first; no Allocatable limit, so every job binds.
    assert _order(data, "allocate", "bind", "job") == ["seed/a2", "seed/a1", "seed/b2", "seed/b1"]


def test_unmodelled_action_and_unknown_plugin_are_reported(run_yk, tmp_path: Path) -> None:
    conf = tmp_path / "c.conf"
    conf.write_text('actions: "enqueue, shuffle, allocate"\ntiers:\n- plugins:\n  - name: proportion\n'
                    "  - name: binpack\n  - name: my-plugin\n")
    data = simulate_json(run_yk, str(SAMPLES / "seed-example.yaml"), "--conf", str(conf))
    assert [a["name"] for a in data["actions"]] == ["enqueue", "shuffle", "allocate"]
    assert data["actions"][1]["events"] == []
    assert data["notes"] == [
        "plugin 'my-plugin' is not a Volcano plugin yk knows: Volcano logs 'Failed to get plugin' and runs without "
        "it, and so does yk",
        "action shuffle is not modelled: yk reports it and does nothing for it",
    ]


def test_conf_that_does_not_load_stops_with_exit_1(run_yk, tmp_path: Path) -> None:
    conf = tmp_path / "c.conf"
    conf.write_text('actions: "enqueue, allocat"\n')
    result = run_yk("volcano", "simulate", str(SAMPLES / "seed-example.yaml"), "--conf", str(conf))
    assert result.exit_code == 1 and result.stdout == ""
    assert f"{conf}:1:10: [error] failed to find Action  allocat (volcano-unknown-action)" in result.stderr
    assert "Volcano would refuse it and keep its previous configuration" in result.stderr


def test_bad_object_is_an_error(run_yk, tmp_path: Path) -> None:
    dump = tmp_path / "d.yaml"
    dump.write_text("apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus:\n  allocatable: {cpu: lots}\n")
    result = run_yk("volcano", "simulate", str(dump))
    assert result.exit_code == 1
    assert "volcano-bad-quantity" in result.stderr


def test_usage_errors_exit_2(run_yk, tmp_path: Path) -> None:
    missing = run_yk("volcano", "simulate", str(tmp_path / "nope.yaml"))
    assert missing.exit_code == 2 and missing.stderr.startswith("yk: error: ")
    fmt = run_yk("volcano", "simulate", str(SAMPLES / "seed-example.yaml"), "--format", "sarif")
    assert fmt.exit_code == 2 and "unknown format 'sarif'" in fmt.stderr


def test_schema_command_prints_it(run_yk) -> None:
    result = run_yk("schema", "volcano-simulate")
    assert result.exit_code == 0 and json.loads(result.stdout) == SCHEMA
