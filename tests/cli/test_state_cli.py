"""The scheduler's own state as input, through the CLI: --state on simulate, explain, tree, priorities, diff and
check, and `yk state`, on the real core's dumps (tests/data/state)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.helpers.golden import check_golden
from tests.helpers.paths import DATA

STATE = DATA / "state"
PREEMPT = "tests/data/state/statedump-preempt.json"
LIMITS_END = "tests/data/state/statedump-limits-gang-end.json"
DYNAMIC = "tests/data/state/statedump-dynamic.json"
DUMPS = sorted(STATE.glob("statedump-*.json"))


def test_simulate_state_runs_the_dump_as_the_core_did(run_yk) -> None:
    """The preempt dump: prod's asks preempt batch's newest pods first, as the core's own run did (its output.jsonl:
    p-0 on node-1, b1-4 for p-1, b1-3 and b1-2 for p-2); p-3 waits for prod's preemption.delay of 10s."""
    result = run_yk("simulate", "--state", PREEMPT)
    assert result.exit_code == 0, result.output
    check_golden("state_simulate_preempt.txt", result.stdout)
    assert result.stderr.startswith(f"yk: note: {PREEMPT}: YuniKorn state dump of ")
    assert "partition default" in result.stderr


def test_simulate_state_json_states_the_assumptions(run_yk) -> None:
    result = run_yk("simulate", "--state", PREEMPT, "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assumed = [item for item in data["notModelled"] if item["feature"] == "state-dump"]
    assert [item["message"].split(":")[0] for item in assumed] == [
        "pods run until the end of the run",
        "every pod may be preempted and may trigger preemption",
        "node predicates are not checked",
    ]
    assert [e["ask"] for e in data["events"] if e["type"] == "allocate"] == ["p-0", "p-1", "p-2", "p-3"]


def test_explain_shows_the_allocation_log_beside_the_dry_run(run_yk) -> None:
    result = run_yk("explain", "--state", LIMITS_END, "a2-0")
    assert result.exit_code == 0, result.output
    check_golden("state_explain_a2-0.txt", result.stdout)


def test_explain_two_asks_with_their_logs_in_json(run_yk) -> None:
    result = run_yk("explain", "--state", LIMITS_END, "b1-1", "a2-0", "--format", "json")
    assert result.exit_code == 0
    log = json.loads(result.stdout)["schedulerLog"]
    assert [(entry["ask"], [line["message"] for line in entry["log"]]) for entry in log] == [
        ("b1-1", ["Not enough user quota"]),
        ("a2-0", ["Not enough user quota"]),
    ]
    assert log[0]["log"][0]["kind"] == "user-quota" and log[0]["log"][0]["count"] == 3
    assert log[0]["yk"].startswith("still pending: group data of user bob at maxresources")
    assert log[0]["disagreement"] == ""


def test_explain_without_a_log_has_an_empty_scheduler_log(run_yk) -> None:
    result = run_yk("explain", "--state", PREEMPT, "p-3", "--format", "json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["schedulerLog"] == []


def test_explain_markdown_has_the_log_table(run_yk) -> None:
    result = run_yk("explain", "--state", LIMITS_END, "a2-0", "--format", "markdown")
    assert result.exit_code == 0
    assert "## The scheduler's own words (allocation log, from the state dump)" in result.stdout
    assert "| Not enough user quota | 1 |" in result.stdout


def test_tree_creates_dynamic_queues_from_their_templates(run_yk) -> None:
    """root.users.alice is not in the config: the core made it from root.users's child template; so does yk, with
    its usage, and the provenance is a JSON pointer into the dump."""
    result = run_yk("tree", "--state", DYNAMIC)
    assert result.exit_code == 0, result.output
    check_golden("state_tree_dynamic.txt", result.stdout)


def test_priorities_state(run_yk) -> None:
    result = run_yk("priorities", "--state", DYNAMIC)
    assert result.exit_code == 0, result.output
    assert "Assumed: pods run until the end of the run" in result.stdout
    assert "root.prod" in result.stdout and "110" in result.stdout


def test_a_config_replaces_the_dumps(run_yk, tmp_path: Path) -> None:
    """CONFIG with --state: the dump's workload under another queue config."""
    config = tmp_path / "queues.yaml"
    config.write_text(
        "partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: '*'\n"
        "        queues:\n          - name: batch\n          - name: prod\n",
        encoding="utf-8",
    )
    result = run_yk("simulate", str(config), "--state", PREEMPT, "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["source"] == f"{config} + {PREEMPT} (the dump's workload)"
    assert [e["type"] for e in data["events"]] == ["allocate"]  # no guarantee on prod: nothing to preempt for


@pytest.mark.parametrize("dump", DUMPS, ids=lambda p: p.stem)
def test_yk_state_files_run_as_the_dump_does(run_yk, tmp_path: Path, dump: Path) -> None:
    """`yk state` writes the two files; `yk simulate` on them gives the same events and pending asks as
    `yk simulate --state` on the dump."""
    out = tmp_path / "live"
    result = run_yk("state", str(dump), "--out-dir", str(out))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"wrote {out / 'queues.yaml'}: 1 partition\nwrote {out / 'workload.yaml'}: ")
    files = run_yk("simulate", str(out / "queues.yaml"), str(out / "workload.yaml"), "--format", "json")
    direct = run_yk("simulate", "--state", str(dump), "--format", "json")
    assert files.exit_code == direct.exit_code == 0
    a, b = json.loads(files.stdout), json.loads(direct.stdout)
    assert a["events"] == b["events"]
    assert [(p["ask"], p["code"]) for p in a["pending"]] == [(p["ask"], p["code"]) for p in b["pending"]]
    validated = run_yk("validate", str(out / "queues.yaml"), "--workload", str(out / "workload.yaml"))
    assert validated.exit_code == 0, validated.output


def test_yk_state_counts_what_it_wrote(run_yk, tmp_path: Path) -> None:
    """The summary line counts each kind, singular for one."""
    out = tmp_path / "dynamic"
    result = run_yk("state", DYNAMIC, "--out-dir", str(out))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == (
        f"wrote {out / 'workload.yaml'}: 1 node, 2 applications, 2 pending requests, 1 running allocation"
    )


def test_yk_state_golden_and_refuses_to_overwrite(run_yk, here: Path) -> None:
    shutil.copy(STATE / "statedump-limits-gang-end.json", here / "dump.json")
    out = Path("live")
    assert run_yk("state", "dump.json", "--out-dir", "live").exit_code == 0
    check_golden("state_limits-gang-end_workload.yaml", (out / "workload.yaml").read_text(encoding="utf-8"))
    check_golden("state_limits-gang-end_queues.yaml", (out / "queues.yaml").read_text(encoding="utf-8"))
    again = run_yk("state", "dump.json", "--out-dir", "live")
    assert again.exit_code == 2
    assert "live/queues.yaml and live/workload.yaml exist: use --force to overwrite" in again.stderr
    assert run_yk("state", "dump.json", "--out-dir", "live", "--force").exit_code == 0


def test_yk_state_usage_errors(run_yk) -> None:
    assert "give a state dump (DUMP) or --yunikorn URL, one of them" in run_yk("state", "--out-dir", "x").stderr
    assert "say where to write" in run_yk("state", PREEMPT).stderr


def test_diff_state_shows_what_a_change_does_to_the_live_workload(run_yk, tmp_path: Path) -> None:
    out = tmp_path / "live"
    assert run_yk("state", PREEMPT, "--out-dir", str(out)).exit_code == 0
    old = out / "queues.yaml"
    new = tmp_path / "new.yaml"
    new.write_text(old.read_text(encoding="utf-8").replace("preemption.delay: 10s", "preemption.delay: 40s"))
    result = run_yk("diff", str(old), str(new), "--state", PREEMPT, "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["workload"] == PREEMPT
    [ask] = data["workloadChanges"]["run"]["asks"]
    assert (ask["application"], ask["ask"], ask["shift"], ask["changes"]) == ("prod-1", "p-3", 30, ["later"])


def test_check_state_runs_the_dynamic_assertions_on_the_dump(run_yk, tmp_path: Path) -> None:
    policy = tmp_path / "policy.yaml"
    policy.write_text(
        "priorityRange: [0, 1000]\nassertions:\n  - name: prod-starts-soon\n"
        "    starts-within: {queue: root.prod, time: 1m}\n",
        encoding="utf-8",
    )
    out = tmp_path / "live"
    assert run_yk("state", PREEMPT, "--out-dir", str(out)).exit_code == 0
    result = run_yk("check", str(policy), str(out / "queues.yaml"), "--state", PREEMPT)
    assert result.exit_code == 0, result.output
    assert f"dry run: {PREEMPT} (YuniKorn state dump)" in result.stdout
    assert "note: assumed by the dry run: pods run until the end of the run" in result.stdout
    assert "PASS prod-starts-soon" in result.stdout


def test_state_and_another_workload_is_a_usage_error(run_yk) -> None:
    both = run_yk("simulate", "--state", PREEMPT, "--cluster", "x.yaml")
    assert both.exit_code == 2
    assert "give one of --cluster, --state: each is the whole workload" in both.stderr
    with_file = run_yk("tree", "--state", PREEMPT, "-w", "w.yaml")
    assert with_file.exit_code == 2
    assert f"--state {PREEMPT} is the whole workload: give no WORKLOAD with it" in with_file.stderr


def test_explain_flags_a_log_the_dry_run_contradicts(run_yk, tmp_path: Path) -> None:
    """A request the core logged as held back by the queue's quota, which yk's dry run allocates at once: the
    state changed since the log's last line, and explain says so."""
    data = json.loads((STATE / "statedump-preempt.json").read_text(encoding="utf-8"))
    for app in data["applications"]:
        for request in app.get("requests", []):
            if request["allocationKey"] == "p-0":
                request["allocationLog"] = [
                    {"message": "Not enough queue quota", "lastOccurrence": data["timestamp"] - 5 * 10**9, "count": 4}
                ]
    dumped = tmp_path / "dump.json"
    dumped.write_text(json.dumps(data), encoding="utf-8")
    result = run_yk("explain", "--state", str(dumped), "p-0")
    assert result.exit_code == 0, result.output
    assert result.stdout.endswith(
        "  p-0:\n"
        "    core: Not enough queue quota (4x, last 5s before the dump)\n"
        "    yk:   allocated at 0s on node-1\n"
        "    differs: the core logged that a quota held it back, yet yk allocates it at once: the quota has room now "
        "(something was released or the config changed since the log's last line), or yk's model differs here\n"
    )


def test_validate_checks_a_state_dumps_config_by_json_pointer(run_yk, tmp_path: Path) -> None:
    """`yk validate DUMP`: the scheduler config inside a state dump, checked as a file is (not the dump's own keys
    as queues.yaml keys), each problem at the JSON pointer of the value."""
    assert run_yk("validate", "samples/state/fullstatedump.json").stdout == "1 file checked: no problems\n"
    data = json.loads((STATE / "statedump-preempt.json").read_text(encoding="utf-8"))
    data["config"]["Partitions"][0]["Queues"][0]["Queues"][1]["Properties"]["priority.policy"] = "fenced"
    dumped = tmp_path / "dump.json"
    dumped.write_text(json.dumps(data), encoding="utf-8")
    text = run_yk("validate", str(dumped))
    pointer = "/config/Partitions/0/Queues/0/Queues/1/Properties/priority.policy"
    assert text.exit_code == 0
    assert text.stdout.startswith(
        f'{dumped}#{pointer}: [warning] priority.policy "fenced" is undefined: YuniKorn uses default '
        "(invalid-property-value)\n"
    )
    [problem] = json.loads(run_yk("validate", str(dumped), "--format", "json").stdout)["problems"]
    assert (problem["file"], problem["pointer"], problem["rule"]) == (str(dumped), pointer, "invalid-property-value")


def test_dynamic_queues_keep_what_the_core_created_them_with(run_yk, tmp_path: Path) -> None:
    """The child template changed after the core made root.users.alice: the core keeps the queue as it made it,
    and so does yk, saying so; the pending request still waits on the old max."""
    data = json.loads((STATE / "statedump-dynamic.json").read_text(encoding="utf-8"))
    template = data["config"]["Partitions"][0]["Queues"][0]["Queues"][0]["ChildTemplate"]
    template["Resources"]["Max"] = {"memory": "100", "vcore": "10"}
    template["Properties"] = {}
    dumped = tmp_path / "dump.json"
    dumped.write_text(json.dumps(data), encoding="utf-8")
    result = run_yk("simulate", "--state", str(dumped), "--format", "json")
    assert result.exit_code == 0, result.output
    where = f"{dumped}#/queues/0/children/0/children/0"
    assert (
        "yk: note: dynamic queue root.users.alice: the core created it with max {memory: 30, vcore: 3}, its parent's "
        f"child template gives {{memory: 100, vcore: 10}} now: yk uses the dump's ({where})\n"
    ) in result.stderr
    assert (
        "yk: note: dynamic queue root.users.alice: the core created it with properties {application.sort.policy: "
        f"fair}}, its parent's child template gives none now: yk uses the dump's ({where})\n"
    ) in result.stderr
    [pending] = json.loads(result.stdout)["pending"]
    assert pending["ask"] == "nb-1" and pending["reason"].startswith("queue max reached at root.users.alice")
