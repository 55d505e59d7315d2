"""`yk diff` on the seed document's tenant example (issue 22): the start order across queues at the same virtual time
(first in every format, `--fail-on order-change`, concise on big workloads), the line a removed key is cited at, the
header when NEW has errors, `--format sarif`, and `git:` revisions that look like options."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import jsonschema
import pytest

from tests.conftest import ROOT, SAMPLES
from tests.helpers import paths
from tests.helpers.golden import check_golden

DATA = paths.DATA / "diff"
SCHEMA = json.loads((ROOT / "schemas" / "diff.schema.json").read_text(encoding="utf-8"))
SARIF_SCHEMA = json.loads((paths.DATA / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
TENANTS = ("old.yaml", "new.yaml", "wl.yaml")


@pytest.fixture
def tenants(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """old.yaml: samples/queues/tenants.yaml; new.yaml: the same with system-low's offset raised to 2000 and the three
    fences removed (tests/data/diff/tenants-unfenced.yaml); wl.yaml: samples/workloads/tenants.yaml."""
    shutil.copy(SAMPLES / "queues" / "tenants.yaml", tmp_path / "old.yaml")
    shutil.copy(DATA / "tenants-unfenced.yaml", tmp_path / "new.yaml")
    shutil.copy(SAMPLES / "workloads" / "tenants.yaml", tmp_path / "wl.yaml")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def scenario(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """tests/data/diff's old.yaml, new.yaml and wl.yaml (the scenario of tests/cli/test_diff.py)."""
    for name in ("old.yaml", "new.yaml", "wl.yaml"):
        shutil.copy(DATA / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(run_yk, *args: str) -> tuple[int, str, str]:
    result = run_yk("diff", *args)
    return result.exit_code, result.stdout, result.stderr


def as_json(run_yk, *args: str) -> dict:
    code, out, err = run(run_yk, *args, "-f", "json")
    assert err == ""
    data = json.loads(out)
    jsonschema.Draft202012Validator(SCHEMA).validate(data)
    data["_exit"] = code
    return data


def test_the_data_file_is_the_sample_changed_as_the_issue_says() -> None:
    sample = (SAMPLES / "queues" / "tenants.yaml").read_text(encoding="utf-8").splitlines()
    changed = [line.replace('priority.offset: "-1000"', 'priority.offset: "2000"') for line in sample]
    changed = [line for line in changed if line.strip() != 'priority.policy: "fence"']
    assert len(sample) - len(changed) == 3
    unfenced = (DATA / "tenants-unfenced.yaml").read_text(encoding="utf-8").splitlines()
    assert unfenced[3:] == changed[3:]  # below the three comment lines


# --- item 2: the start order across queues ------------------------------------------------------------------------

OLD_AND_NEW_STEPS = [
    ("system-low", "low-p3", 11, 1, 10, 0),
    ("system-normal", "normal-p2", 3, 11, 0, 8),
    ("system-normal", "normal-p10", 2, 7, 0, 5),
    ("child-a-1", "a1-p8", 4, 3, 2, 1),
    ("child-a-2", "a2-p6", 5, 4, 2, 1),
    ("child-a-1", "a1-p5", 6, 5, 2, 1),
    ("child-a-2", "a2-p4", 7, 6, 2, 1),
    ("child-b-1", "b1-p9", 8, 8, 1, 1),
    ("child-b-2", "b2-p8", 9, 9, 1, 1),
    ("child-b-1", "b1-p7", 10, 10, 1, 1),
    ("system-high", "high-p1", 1, 2, 0, 1),
]
"""Every ask of the tenant example: step before, step after, asks it now starts ahead of, asks it now starts behind
(the ones that moved most first)."""


def test_low_p3_moves_from_step_11_to_step_1(run_yk, tenants: Path) -> None:
    data = as_json(run_yk, *TENANTS)
    assert data["summary"].startswith(
        "11 asks start in another order (system-low/low-p3: step 11 -> 1 at 0s, now ahead of 10 asks it used to "
        "follow), "
    )
    run_ = data["workloadChanges"]["run"]
    assert run_["orders"] == [] and run_["asks"] == []  # within each queue, and in time, nothing moved
    order = run_["startOrder"]
    assert [
        (
            r["application"],
            r["ask"],
            r["before"]["step"],
            r["after"]["step"],
            r["aheadOf"]["total"],
            r["behind"]["total"],
        )
        for r in order
    ] == OLD_AND_NEW_STEPS
    assert order[0] == {
        "application": "system-low",
        "ask": "low-p3",
        "queuePath": "root.system.system-low",
        "before": {"start": 0, "step": 11},
        "after": {"start": 0, "step": 1},
        "aheadOf": {
            "total": 10,
            "asks": [
                "system-high/high-p1",
                "child-a-1/a1-p8",
                "child-a-2/a2-p6",
                "child-a-1/a1-p5",
                "child-a-2/a2-p4",
            ],
        },
        "behind": {"total": 0, "asks": []},
    }
    assert order[-1]["behind"] == {"total": 1, "asks": ["system-low/low-p3"]}


def test_the_order_is_the_first_thing_the_text_report_shows(run_yk, tenants: Path) -> None:
    code, out, err = run(run_yk, *TENANTS)
    assert (code, err) == (0, "")
    assert out.splitlines()[:8] == [
        "yk diff: old.yaml -> new.yaml; workload wl.yaml, partition default",
        "",
        "Summary: 11 asks start in another order (system-low/low-p3: step 11 -> 1 at 0s, now ahead of 10 asks it used "
        "to follow), 8 asks with a higher priority, 4 setting changes, 0 new errors",
        "",
        "Start order changed at the same virtual time (11 asks in 7 queues):",
        "  ASK                       QUEUE                            TIME  STEP      NOW AHEAD OF (USED TO FOLLOW)"
        "                                         NOW BEHIND (USED TO LEAD)",
        "  system-low/low-p3         root.system.system-low           0s    11 -> 1   10: system-high/high-p1, "
        "child-a-1/a1-p8, child-a-2/a2-p6 and 7 more  -",
        "  system-normal/normal-p2   root.system.system-normal        0s    3 -> 11   -"
        "                                                                     8: system-low/low-p3, child-a-1/a1-p8, "
        "child-a-2/a2-p6 and 5 more",
    ]
    # the two dry runs agree on every count: one line says so
    assert out.endswith(
        "\nDry runs before and after: 11 allocations, 0 completions, 0 reservations, 0 pending; 11 steps in 0s "
        "(nothing left to do)\n"
    )


@pytest.mark.parametrize(
    ("fmt", "name"),
    [("text", "txt"), ("json", "json"), ("markdown", "md"), ("github", "github.txt"), ("sarif", "sarif")],
)
def test_tenant_goldens(run_yk, tenants: Path, fmt: str, name: str) -> None:
    code, out, err = run(run_yk, *TENANTS, "-f", fmt)
    assert (code, err) == (0, "")
    check_golden(f"diff_tenants.{name}", out)
    assert run(run_yk, *TENANTS, "-f", fmt)[1] == out  # byte-identical


def test_markdown_and_github_show_the_order_first(run_yk, tenants: Path) -> None:
    markdown = run(run_yk, *TENANTS, "-f", "markdown")[1].splitlines()
    assert markdown[4] == "### Start order changed at the same virtual time (11 asks in 7 queues)"
    assert markdown[8] == (
        "| system-low/low-p3 | `root.system.system-low` | 0s | 11 → 1 | 10: system-high/high-p1, child-a-1/a1-p8, "
        "child-a-2/a2-p6 and 7 more |   |"
    )
    github = run(run_yk, *TENANTS, "-f", "github")[1].splitlines()
    assert github[0] == (
        "::notice file=new.yaml,line=20,col=19,title=yk diff%3A start order::start order of 1 ask changed: "
        "system-low/low-p3: step 11 -> 1 at 0s, now ahead of 10 asks it used to follow"
    )
    assert github[1].startswith(
        "::warning file=new.yaml,title=yk diff%3A start order::start order of 3 asks changed: "
        "system-normal/normal-p2: step 3 -> 11 at 0s, now behind 8 asks it used to lead; "
    )


def test_sarif_is_valid_and_puts_the_order_first(run_yk, tenants: Path) -> None:
    code, out, err = run(run_yk, *TENANTS, "-f", "sarif")
    assert (code, err) == (0, "")
    log = json.loads(out)
    jsonschema.validate(log, SARIF_SCHEMA)
    [sarif_run] = log["runs"]
    rules = [r["id"] for r in sarif_run["tool"]["driver"]["rules"]]
    results = sarif_run["results"]
    assert [(r["ruleId"], r["level"]) for r in results][:4] == [
        ("diff-start-order", "note"),
        ("diff-start-order", "warning"),
        ("diff-start-order", "warning"),
        ("diff-start-order", "warning"),
    ]
    assert all(rules[r["ruleIndex"]] == r["ruleId"] for r in results)
    first = results[0]["locations"][0]["physicalLocation"]
    assert first["artifactLocation"] == {"uri": "new.yaml", "uriBaseId": "%SRCROOT%"}
    assert first["region"]["startLine"] == 20
    assert results[-1]["ruleId"] == "diff-summary" and results[-1]["level"] == "note"
    assert len({r["partialFingerprints"]["ykProblem/v1"] for r in results}) == len(results)


def test_sarif_carries_introduced_problems_and_the_gate(run_yk, tenants: Path) -> None:
    broken = (tenants / "new.yaml").read_text().replace('submitacl: "*"', 'submitacl: "*"\n        maxApplications: 3')
    (tenants / "broken.yaml").write_text(broken)
    code, out, err = run(run_yk, "old.yaml", "broken.yaml", "wl.yaml", "-f", "sarif")
    assert (code, err) == (1, "")
    log = json.loads(out)
    jsonschema.validate(log, SARIF_SCHEMA)
    results = log["runs"][0]["results"]
    problem = next(r for r in results if r["ruleId"] == "unknown-field")
    assert problem["level"] == "error" and problem["locations"][0]["physicalLocation"]["region"]["startLine"] == 9
    assert results[-1]["ruleId"] == "diff-summary" and results[-1]["level"] == "error"
    assert results[-1]["message"]["text"].endswith("(fails: new-errors)")


def test_fail_on_order_change(run_yk, tenants: Path) -> None:
    code, out, _err = run(run_yk, *TENANTS, "--fail-on", "order-change")
    assert code == 1 and "Fails: order-change (--fail-on order-change)" in out
    assert run(run_yk, *TENANTS)[0] == 0  # not by default
    assert run(run_yk, "old.yaml", "old.yaml", "wl.yaml", "--fail-on", "order-change")[0] == 0
    assert run(run_yk, "old.yaml", "new.yaml", "--fail-on", "order-change")[0] == 0  # no workload, no order
    data = as_json(run_yk, *TENANTS, "--fail-on", "new-errors,order-change")
    assert data["failing"] == ["order-change"] and data["_exit"] == 1


def test_a_start_that_moved_in_time_is_no_reorder(run_yk, scenario: Path) -> None:
    data = as_json(run_yk, "old.yaml", "new.yaml", "wl.yaml", "--fail-on", "order-change")
    assert data["workloadChanges"]["run"]["startOrder"] == [] and data["_exit"] == 0
    assert len(data["workloadChanges"]["run"]["asks"]) == 3  # later, earlier: the shifts say it


def test_order_change_holds_on_an_order_within_a_queue() -> None:
    from yk_cli.core.diff.model import ConfigChanges, Diff, OrderChange, RunChanges, WorkloadChanges
    from yk_cli.core.diff.verdict import holds, parse_fail_on
    from yk_cli.core.sim.trace import Summary

    summary = Summary()
    within = RunChanges(summary, summary, orders=(OrderChange("root.a", 2, 2, 0, ("x/1", "x/2"), ("x/2", "x/1")),))
    [condition] = parse_fail_on(["order-change"])
    assert holds(Diff("a", "b", ConfigChanges(), WorkloadChanges(run=within)), condition)
    assert not holds(Diff("a", "b", ConfigChanges(), WorkloadChanges(run=RunChanges(summary, summary))), condition)


def _brute(old: list[tuple[int, str]], new: list[tuple[int, str]]) -> dict[str, tuple[set[str], set[str]]]:
    """Per ask: the asks it now starts ahead of (it followed them) and behind (it led them), at the same time in
    each run; inputs are (time, name) in start order."""
    pos_old = {name: (i, t) for i, (t, name) in enumerate(old)}
    pos_new = {name: (i, t) for i, (t, name) in enumerate(new)}
    out: dict[str, tuple[set[str], set[str]]] = {}
    for x in pos_new:
        ahead = {
            y
            for y in pos_new
            if y != x
            and pos_old[x][1] == pos_old[y][1]
            and pos_new[x][1] == pos_new[y][1]
            and pos_old[y][0] < pos_old[x][0]
            and pos_new[x][0] < pos_new[y][0]
        }
        behind = {
            y
            for y in pos_new
            if y != x
            and pos_old[x][1] == pos_old[y][1]
            and pos_new[x][1] == pos_new[y][1]
            and pos_old[x][0] < pos_old[y][0]
            and pos_new[y][0] < pos_new[x][0]
        }
        if ahead or behind:
            out[x] = (ahead, behind)
    return out


@pytest.mark.parametrize("seed", range(40))
def test_reorders_agree_with_every_pair_compared(seed: int) -> None:
    from yk_cli.core.diff.model import AskRun
    from yk_cli.core.diff.run_diff import PASSED, _reorders

    rng = random.Random(seed)
    names = [f"n{i}" for i in range(rng.randint(2, 40))]
    times = {name: rng.choice((0, 0, 0, 5, 9)) for name in names}
    later = {name: times[name] + rng.choice((0, 0, 0, 1)) for name in names}
    old_order = sorted(names, key=lambda n: (times[n], rng.random()))
    new_order = sorted(names, key=lambda n: (later[n], rng.random()))
    old = {("app", n): AskRun("root.a", times[n], step=i + 1) for i, n in enumerate(old_order)}
    new = {("app", n): AskRun("root.a", later[n], step=i + 1) for i, n in enumerate(new_order)}
    found = _reorders(old, [("app", n) for n in old_order], new, [("app", n) for n in new_order])
    expected = _brute([(times[n], n) for n in old_order], [(later[n], n) for n in new_order])
    assert {r.ask: (r.ahead_total, r.behind_total) for r in found} == {
        k: (len(a), len(b)) for k, (a, b) in expected.items()
    }
    rank = {n: i for i, n in enumerate(new_order)}
    for r in found:
        ahead, behind = expected[r.ask]
        assert list(r.ahead) == [f"app/{n}" for n in sorted(ahead, key=rank.__getitem__)[:PASSED]]
        assert list(r.behind) == [f"app/{n}" for n in sorted(behind, key=rank.__getitem__)[:PASSED]]
    magnitudes = [r.ahead_total + r.behind_total for r in found]
    assert magnitudes == sorted(magnitudes, reverse=True)


def _big(tmp_path: Path, queues: int = 6, asks: int = 60) -> None:
    """queues leaf queues, each with one application of asks asks at 0s; NEW raises q3's offset above the others."""

    def config(offset: int) -> str:
        lines = ["partitions:", "  - name: default", "    queues:", "      - name: root", "        submitacl: '*'"]
        lines.append("        queues:")
        for i in range(queues):
            lines += [f"          - name: q{i}", "            properties:"]
            lines.append(f'              priority.offset: "{offset if i == 3 else 0}"')
        return "\n".join(lines) + "\n"

    rng = random.Random(7)
    workload = ["nodes:", "  - {name: n1, resources: {vcore: 100000}}", "applications:"]
    for i in range(queues):
        workload += [f"  - id: app{i}", f"    queue: root.q{i}", "    asks:"]
        workload += [
            f"      - {{name: t{i}-{k}, priority: {rng.randint(0, 9)}, resources: {{vcore: 1}}}}" for k in range(asks)
        ]
    (tmp_path / "old.yaml").write_text(config(0))
    (tmp_path / "new.yaml").write_text(config(100))
    (tmp_path / "wl.yaml").write_text("\n".join(workload) + "\n")


def test_a_big_workload_stays_concise_and_deterministic(
    run_yk, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from yk_cli.report.diff_common import ORDER_ROWS

    _big(tmp_path)
    monkeypatch.chdir(tmp_path)
    code, out, err = run(run_yk, *TENANTS)
    assert (code, err) == (0, "")
    assert run(run_yk, *TENANTS)[1] == out
    lines = out.splitlines()
    start = lines.index("Start order changed at the same virtual time (358 asks in 6 queues):")
    section = lines[start : lines.index("", lines.index("", start) + 1)]
    assert section[1:3] == [
        "  QUEUE    ASKS  NOW AHEAD OF SOME  NOW BEHIND SOME",
        "  root.q3    60                 60                0",
    ]
    asks = [line for line in section if line.startswith("  app")]
    assert len(asks) == ORDER_ROWS and asks[0].startswith("  app3/t3-")
    assert section[-1] == "  ... and 338 more asks (--format json lists them all)"
    assert max(len(line) for line in section) < 200
    data = as_json(run_yk, *TENANTS)
    assert len(data["workloadChanges"]["run"]["startOrder"]) == 358  # JSON has them all
    assert all(len(r["aheadOf"]["asks"]) <= 5 for r in data["workloadChanges"]["run"]["startOrder"])
    markdown = run(run_yk, *TENANTS, "-f", "markdown")[1]
    assert "_… and 308 more asks (`--format json` lists them all)._" in markdown
    github = run(run_yk, *TENANTS, "-f", "github")[1].splitlines()
    assert [line.split("::")[1].split(",")[0] for line in github[:2]] == [
        "notice file=new.yaml",
        "warning file=new.yaml",
    ]
    assert github[0].endswith("; ... (60 in all)") and github[1].endswith("; ... (298 in all)")


# --- item 3: the line a change is cited at, and the header --------------------------------------------------------


def test_a_removed_fence_is_cited_where_it_was_removed(run_yk, tenants: Path) -> None:
    new = (tenants / "new.yaml").read_text().splitlines()
    data = as_json(run_yk, *TENANTS)
    settings = [(s["queuePath"], s["key"], s["line"], s["removed"]) for s in data["config"]["settings"]]
    assert settings == [
        ("root.system.system-low", "priority.offset", 20, False),
        ("root.tenants", "priority.policy", 22, True),
        ("root.tenants.tenant-a", "priority.policy", 25, True),
        ("root.tenants.tenant-b", "priority.policy", 31, True),
    ]
    assert [new[n - 1].strip() for n in (22, 25, 31)] == ["properties:"] * 3  # the mapping that held the fence
    priorities = {(p["ask"], p["cause"], p["removed"], p["line"]) for p in data["workloadChanges"]["priorities"]}
    assert ("low-p3", "priority.offset", False, 20) in priorities
    assert ("a1-p8", "priority.policy", True, 25) in priorities and ("b2-p8", "priority.policy", True, 31) in priorities
    assert new[25].strip() == 'priority.offset: "10"'  # line 26: unchanged, never cited
    text = run(run_yk, *TENANTS)[1]
    assert (
        "  child-a-1/a1-p8    root.tenants.tenant-a.child-a-1       0     18  root.tenants.tenant-a: priority.policy "
        "fence: root.tenants.tenant-a shows only its offset 10 -> priority.offset +10 (priority.policy removed, "
        "new.yaml:25)\n" in text
    )
    assert (
        "  root.tenants.tenant-a   priority.policy  fence   default  set here (line 27)  default             "
        "new.yaml:25 (removed)\n" in text
    )
    assert "new.yaml:26" not in text
    github = run(run_yk, *TENANTS, "-f", "github")[1]
    assert ",line=26," not in github
    assert (
        "::notice file=new.yaml,line=25,col=17,title=yk diff%3A effective priority::effective priority of 4 asks "
        "(priority.policy removed here): child-a-1/a1-p8 rises 0 -> 18;" in github
    )
    assert (
        "::notice file=new.yaml,line=22,col=13,title=yk diff%3A priority.policy::root.tenants: priority.policy fence "
        "-> default (removed here; was set here (line 23); now default)\n" in github
    )


def test_a_fence_added_is_cited_on_its_own_line(run_yk, tenants: Path) -> None:
    data = as_json(run_yk, "new.yaml", "old.yaml", "wl.yaml")
    old = (tenants / "old.yaml").read_text().splitlines()
    causes = {(p["ask"], p["cause"], p["removed"], p["line"]) for p in data["workloadChanges"]["priorities"]}
    assert ("a1-p8", "priority.policy", False, 27) in causes
    assert old[26].strip() == 'priority.policy: "fence"'


def test_a_key_removed_with_its_mapping_cites_the_queue(run_yk, scenario: Path) -> None:
    data = as_json(run_yk, "old.yaml", "new.yaml", "wl.yaml")
    [a_offset] = [s for s in data["config"]["settings"] if s["queuePath"] == "root.teams.a"]
    assert (a_offset["removed"], a_offset["line"]) == (True, 11)
    assert (scenario / "new.yaml").read_text().splitlines()[10].strip() == "- name: a"


def test_a_partition_key_removed_cites_its_mapping(run_yk, scenario: Path) -> None:
    base = (scenario / "old.yaml").read_text()
    with_two = base.replace(
        "  - name: default\n",
        "  - name: default\n    preemption:\n      enabled: false\n      quotapreemptionenabled: true\n",
    )
    with_one = base.replace("  - name: default\n", "  - name: default\n    preemption:\n      enabled: false\n")
    (scenario / "two.yaml").write_text(with_two)
    (scenario / "one.yaml").write_text(with_one)
    [change] = as_json(run_yk, "two.yaml", "one.yaml")["config"]["settings"]
    assert (change["key"], change["removed"], change["line"]) == ("preemption.quotapreemptionenabled", True, 3)
    assert with_one.splitlines()[2].strip() == "preemption:"


def test_the_header_when_new_has_errors(run_yk, tenants: Path) -> None:
    broken = (tenants / "new.yaml").read_text().replace('submitacl: "*"', 'submitacl: "*"\n        maxApplications: 3')
    (tenants / "broken.yaml").write_text(broken)
    code, out, _err = run(run_yk, "old.yaml", "broken.yaml", "wl.yaml")
    assert code == 1
    assert out.splitlines()[0] == "yk diff: old.yaml -> broken.yaml; workload wl.yaml"
    assert as_json(run_yk, "old.yaml", "broken.yaml", "wl.yaml")["partition"] is None
    markdown = run(run_yk, "old.yaml", "broken.yaml", "wl.yaml", "-f", "markdown")[1]
    assert markdown.splitlines()[0] == "## yk diff: old.yaml -> broken.yaml; workload wl.yaml"
    named = run(run_yk, "old.yaml", "broken.yaml", "wl.yaml", "--partition", "default")[1]
    assert named.splitlines()[0] == "yk diff: old.yaml -> broken.yaml; workload wl.yaml, partition default"


# --- item 10: git revisions that look like options -----------------------------------------------------------------


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


@pytest.fixture
def repo(tenants: Path) -> Path:
    _git(tenants, "init", "-q", "-b", "main")
    (tenants / "sub").mkdir()
    shutil.copy(tenants / "old.yaml", tenants / "sub" / "q.yaml")
    _git(tenants, "add", "old.yaml", "sub/q.yaml")
    _git(tenants, "commit", "-q", "-m", "old")
    return tenants


def test_a_revision_that_starts_with_a_dash_is_refused(run_yk, repo: Path) -> None:
    code, out, err = run(run_yk, "git:--output=written.txt:old.yaml", "old.yaml")
    assert (code, out) == (2, "")
    assert err == (
        "yk: error: git:--output=written.txt:old.yaml: the revision '--output=written.txt' starts with '-': a "
        "revision, not an option, is expected\n"
    )
    assert not (repo / "written.txt").exists()
    assert run(run_yk, "old.yaml", "git:-p:old.yaml")[0] == 2


def test_git_gets_the_revision_after_end_of_options(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from yk_cli.load import gitref

    calls: list[list[str]] = []
    real = subprocess.run

    def spy(args: list[str], **kwargs: object) -> subprocess.CompletedProcess[bytes]:
        calls.append(list(args))
        return real(args, **kwargs)  # type: ignore[call-overload, no-any-return]

    monkeypatch.setattr(gitref.subprocess, "run", spy)
    assert gitref.git_show("git:main:old.yaml") == (repo / "old.yaml").read_bytes()
    assert calls == [["git", "show", "--end-of-options", "main:old.yaml"]]


def test_a_git_path_that_is_a_directory_is_unreadable(run_yk, repo: Path) -> None:
    code, out, err = run(run_yk, "git:main:sub", "old.yaml")
    assert (code, out, err) == (2, "", "yk: error: git:main:sub: 'sub' is a directory at main, not a file\n")
    code, _out, err = run(run_yk, "git:main:sub/q.yaml", "old.yaml")
    assert (code, err) == (0, "")


# --- the README's `yk diff` examples reproduce --------------------------------------------------------------------


def _readme_examples() -> list[tuple[str, list[str]]]:
    """The console blocks of the `yk diff` section of docs/diff.md: (command, expected lines)."""
    text = (ROOT / "docs" / "diff.md").read_text(encoding="utf-8")
    section = text[text.index("## `yk diff`\n") : text.index("\n## ", text.index("## `yk diff`\n") + 1)]
    out = []
    for block in section.split("```console\n")[1:]:
        lines = block[: block.index("```")].splitlines()
        assert lines[0].startswith("$ yk diff ")
        out.append((lines[0][2:], lines[1:]))
    return out


def _shows(expected: list[str], actual: list[str]) -> None:
    """Every run of lines between `...` lines appears, in order, as consecutive lines of the output (the first from
    the start); a line ending in `, ...` is a prefix."""
    chunks: list[list[str]] = [[]]
    for line in expected:
        if line == "...":
            chunks.append([])
        else:
            chunks[-1].append(line)
    at = 0
    for i, chunk in enumerate(chunk for chunk in chunks if chunk):

        def matches(start: int, chunk: list[str] = chunk) -> bool:
            window = actual[start : start + len(chunk)]
            if len(window) < len(chunk):
                return False
            return all(
                a.startswith(e[:-3]) if e.endswith(", ...") else a == e for e, a in zip(chunk, window, strict=True)
            )

        starts = [at] if i == 0 else range(at, len(actual))
        found = next((s for s in starts if matches(s)), None)
        assert found is not None, f"not in the output, in this order: {chunk}"
        at = found + len(chunk)


def test_the_readme_examples_reproduce(run_yk, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    examples = _readme_examples()
    assert len(examples) == 3
    tenants, metrics, scenario = examples
    monkeypatch.chdir(ROOT)
    for example in (tenants, metrics):
        code, out, err = run(run_yk, *example[0].split()[2:])
        assert (code, err) == (0, "")
        _shows(example[1], out.splitlines())
    shutil.copy(DATA / "old.yaml", tmp_path / "old.yaml")
    shutil.copy(DATA / "new.yaml", tmp_path / "new.yaml")
    shutil.copy(DATA / "wl.yaml", tmp_path / "workload.yaml")
    monkeypatch.chdir(tmp_path)
    code, out, err = run(run_yk, *scenario[0].split()[2:])
    assert (code, err) == (0, "")
    _shows(scenario[1], out.splitlines())
