"""Issue 22, item 11: one way to pass a workload (-w/--workload PATH, the positional WORKLOAD as an alias) in every
command that takes one, and --cluster DUMP as the workload of tree, priorities and explain as simulate loads it."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

import pytest

from tests.conftest import ROOT

QUEUES = str(ROOT / "samples/queues/tenants.yaml")
WORKLOAD = str(ROOT / "samples/workloads/tenants.yaml")
POLICY = str(ROOT / "samples/policies/production.yaml")
PRODUCTION = str(ROOT / "samples/queues/production.yaml")
FENCED = str(ROOT / "samples/workloads/fenced-teams.yaml")
DUMP = str(ROOT / "samples/cluster/dump.yaml")
TWICE = "yk: error: give the workload once: WORKLOAD or -w/--workload PATH, not both\n"

# Each command: the arguments before the workload, after it.
COMMANDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "simulate": ((QUEUES,), ()),
    "priorities": ((QUEUES,), ()),
    "tree": ((QUEUES,), ()),
    "explain": ((QUEUES,), ("a1-p8", "low-p3")),
    "explain-pod": ((QUEUES,), ("a1-p8",)),
    "diff": ((QUEUES, QUEUES), ()),
    "check": ((POLICY, PRODUCTION), ()),
}
WORKLOADS = {"check": FENCED}


def command_line(name: str, workload: Sequence[str]) -> list[str]:
    before, after = COMMANDS[name]
    return [name.removesuffix("-pod"), *before, *workload, *after]


def fast_path_of(name: str) -> Callable[[Sequence[str]], int | None] | None:
    import importlib

    from yk_cli.cli import FAST_PATHS

    module = FAST_PATHS.get(name.removesuffix("-pod"))
    return importlib.import_module(module).fast_path if module else None


@pytest.mark.parametrize("name", COMMANDS)
@pytest.mark.parametrize("flag", ["-w", "--workload"])
def test_the_option_and_the_positional_give_the_same_output(run_yk, name: str, flag: str) -> None:
    workload = WORKLOADS.get(name, WORKLOAD)
    positional = run_yk(*command_line(name, [workload]))
    option = run_yk(*command_line(name, [flag, workload]))
    assert positional.exit_code == 0, positional.stderr
    assert (option.exit_code, option.stdout, option.stderr) == (0, positional.stdout, positional.stderr)
    assert positional.stdout


@pytest.mark.parametrize("name", [n for n in COMMANDS if fast_path_of(n) is not None])
def test_the_fast_path_takes_the_option_too(run_yk, capsys: pytest.CaptureFixture[str], name: str) -> None:
    workload = WORKLOADS.get(name, WORKLOAD)
    expected = run_yk(*command_line(name, [workload])).stdout
    fast_path = fast_path_of(name)
    assert fast_path is not None
    for args in (command_line(name, [workload]), command_line(name, ["-w", workload])):
        capsys.readouterr()
        assert fast_path(args[1:]) == 0
        assert capsys.readouterr().out == expected


@pytest.mark.parametrize("name", COMMANDS)
def test_both_forms_are_a_usage_error(run_yk, capsys: pytest.CaptureFixture[str], name: str) -> None:
    workload = WORKLOADS.get(name, WORKLOAD)
    args = command_line(name, [workload, "--workload", workload])
    result = run_yk(*args)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", TWICE)
    fast_path = fast_path_of(name)
    if fast_path is not None:
        capsys.readouterr()
        assert fast_path(args[1:]) == 2
        assert capsys.readouterr() == ("", TWICE)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("tree", "--cluster", DUMP, "-w", WORKLOAD), "give WORKLOAD or --cluster DUMP, not both"),
        (("tree", QUEUES, WORKLOAD, "--cluster", DUMP), "give WORKLOAD or --cluster DUMP, not both"),
        (("priorities", QUEUES, WORKLOAD, "--cluster", DUMP), "give WORKLOAD or --cluster DUMP, not both"),
        (("priorities", "--cluster", DUMP, "--workload", WORKLOAD), "give WORKLOAD or --cluster DUMP, not both"),
        (("explain", "--cluster", DUMP, "-w", WORKLOAD, "a1-p8"), "give WORKLOAD or --cluster DUMP, not both"),
        (("explain", QUEUES, WORKLOAD, "a1-p8", "--cluster", DUMP), "give WORKLOAD or --cluster DUMP, not both"),
        (("explain", QUEUES, "-w", WORKLOAD, WORKLOAD, "a1-p8"), TWICE.removeprefix("yk: error: ").strip()),
        (("check", POLICY, PRODUCTION, "-w", FENCED, "--cluster", DUMP), "give WORKLOAD or --cluster DUMP, not both"),
        (("diff", QUEUES, QUEUES, "-w", WORKLOAD, "--cluster", DUMP), "give WORKLOAD or --cluster DUMP, not both"),
        (
            ("simulate", "--cluster", DUMP, "-w", WORKLOAD),
            "--cluster DUMP is the workload: give CONFIG (optional) and the dump, not WORKLOAD",
        ),
        (("tree",), "give a queue config (CONFIG), or --cluster DUMP, --state FILE or --yunikorn URL"),
        (
                ("tree", "-w", WORKLOAD),
                "give a queue config (CONFIG), or --cluster DUMP, --state FILE or --yunikorn URL",
            ),
        (
                ("priorities", QUEUES),
                "give CONFIG and a workload (WORKLOAD or -w/--workload PATH), or --cluster DUMP, --state FILE or "
                "--yunikorn URL",
            ),
        (
            ("explain", QUEUES, "a1-p8"),
            "give CONFIG WORKLOAD ASK_A [ASK_B] (or -w/--workload PATH or --cluster DUMP for the workload): 2 "
            "arguments given",
        ),
        (("explain", "--cluster", DUMP), "with --cluster DUMP give [CONFIG] ASK_A [ASK_B]: 0 arguments given"),
        (("explain", QUEUES, "-w", WORKLOAD), "with -w/--workload give CONFIG ASK_A [ASK_B]: 1 argument given"),
    ],
)
def test_usage_errors_say_what_to_give(run_yk, args: tuple[str, ...], message: str) -> None:
    result = run_yk(*args)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"yk: error: {message}\n")


def simulate_json(*args: str) -> dict:  # type: ignore[type-arg]
    from typer.testing import CliRunner

    from yk_cli.cli import app

    result = CliRunner().invoke(app, ["simulate", *args, "--format", "json"], catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_priorities_on_a_dump_lists_its_queues_and_pods(run_yk) -> None:
    trace = simulate_json("--cluster", DUMP)
    result = run_yk("priorities", "--cluster", DUMP, "--format", "json")
    assert result.exit_code == 0, result.stderr
    view = json.loads(result.stdout)
    queues = {q["queuePath"] for q in view["queues"]}
    leaves = {e["queuePath"] for e in trace["events"]} | {p["queuePath"] for p in trace["pending"]}
    assert leaves and leaves <= queues
    asks = {(a["application"], a["ask"], a["queuePath"]) for a in view["asks"]}
    for pending in trace["pending"]:  # pending at the end of the run: pending at its start too
        assert (pending["application"], pending["ask"], pending["queuePath"]) in asks


def test_tree_and_priorities_on_a_dump_agree_with_simulate_text(run_yk) -> None:
    simulated = run_yk("simulate", "--cluster", DUMP)
    tree = run_yk("tree", "--cluster", DUMP)
    priorities = run_yk("priorities", "--cluster", DUMP)
    assert simulated.exit_code == tree.exit_code == priorities.exit_code == 0
    for queue in ("root.tenants.team-a", "root.tenants.team-b", "root.tenants.ml", "root.analytics.data-science"):
        leaf = queue.rsplit(".", 1)[1]
        assert queue in simulated.stdout and leaf in tree.stdout and leaf in priorities.stdout
    assert "samples/cluster/dump.yaml:" in tree.stdout  # settings located in the dump's ConfigMap
    assert "ask team-b/etl-42-transform · application etl-42" in priorities.stdout


def test_at_works_with_a_dump(run_yk) -> None:
    for command in ("tree", "priorities"):
        start = run_yk(command, "--cluster", DUMP)
        later = run_yk(command, "--cluster", DUMP, "--at", "15s")
        assert start.exit_code == later.exit_code == 0
        assert "at 15s" in later.stdout and later.stdout != start.stdout


@pytest.mark.parametrize("command", ["tree", "priorities"])
def test_a_dump_with_a_config_is_the_config_given(run_yk, command: str) -> None:
    from_dump = run_yk(command, "--cluster", DUMP)
    with_config = run_yk(command, QUEUES, "--cluster", DUMP, "--quiet")
    assert with_config.exit_code == 0, with_config.stderr
    assert "system-high" in with_config.stdout and "system-high" not in from_dump.stdout


PENDING = ("team-a/web-5d8f7c9b4-q8z2n", "team-b/etl-42-transform")


def test_explain_two_pods_of_a_dump_gives_simulates_reasons(run_yk) -> None:
    trace = simulate_json("--cluster", DUMP)
    reasons = {p["ask"]: p["reason"] for p in trace["pending"]}
    result = run_yk("explain", "--cluster", DUMP, *PENDING)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith(f"yk explain: {DUMP} (queue config from its ConfigMap); partition default")
    for ask in PENDING:
        assert f"{ask} {reasons[ask]}" in result.stdout


def test_explain_names_a_dumps_pods_as_simulate_shows_them(run_yk) -> None:
    trace = simulate_json("--cluster", DUMP)
    applications = {p["ask"]: p["application"] for p in trace["pending"]}
    short = run_yk("explain", "--cluster", DUMP, *PENDING)
    long = run_yk("explain", "--cluster", DUMP, *(f"{applications[a]}/{a}" for a in PENDING))
    assert short.exit_code == long.exit_code == 0
    assert short.stdout == long.stdout
    story = run_yk("explain", "--cluster", DUMP, "team-b/log-agent-7xk2p")
    assert story.exit_code == 0, story.stderr
    assert "yunikorn-team-b-autogen/team-b/log-agent-7xk2p (root.tenants.team-b)" in story.stdout
    unknown = run_yk("explain", "--cluster", DUMP, "team-a/nope", PENDING[1])
    assert unknown.exit_code == 2 and unknown.stderr.startswith("yk: error: no ask 'team-a/nope' in the workload")


def test_explain_on_a_dump_takes_a_config_first(run_yk) -> None:
    result = run_yk("explain", "--cluster", DUMP, QUEUES, PENDING[1], "--quiet")
    assert result.exit_code == 0, result.stderr
    assert f"{QUEUES} + {DUMP}" in result.stdout
    both = run_yk("explain", "--cluster", DUMP, QUEUES, *PENDING, "--quiet")
    assert both.exit_code == 0 and f"{QUEUES} + {DUMP}" in both.stdout


def test_the_same_dump_gives_the_same_bytes(run_yk) -> None:
    for args in (
        ("tree", "--cluster", DUMP),
        ("priorities", "--cluster", DUMP),
        ("explain", "--cluster", DUMP, *PENDING),
    ):
        assert run_yk(*args).stdout == run_yk(*args).stdout
