"""`yk --help` and `yk CMD --help`: prose that wraps, meaningful metavars, an example last; through every path."""

from __future__ import annotations

import re

import pytest

from tests.conftest import run_program

COMMANDS = ("explain", "generate", "import", "priorities", "rules", "schema", "simulate", "tree", "validate")

TYPE_LABEL = re.compile(r"<(str|bool|int|float|path|file|list\[[a-z]+\])>")

UNBROKEN = {
    # Words around a line break of the docstring's source, which must read as one line at 200 columns.
    "": "Lint, explain and dry-run Apache YuniKorn queue configurations.",
    "explain": "then the sort key at the queue where their branches meet (priority with its breakdown, fair share, "
    "pending, submission time, usage ratio, ask order)",
    "generate": "Write a synthetic cluster: a valid queue hierarchy, nodes, applications and asks, all from a seed.",
    "import": "Turn recorded workloads into yk workload files, to replay them with yk simulate: a CSV of jobs, the "
    "Helios GPU cluster trace, or a kubectl pods history.",
    "priorities": "For every pending ask: its effective priority as seen from root with the breakdown along its queue "
    "path (like Slurm's sprio): ask, application, each queue's offset,",
    "rules": "List the rules `yk validate` and `yk volcano validate` report: id, level, summary and full "
    "documentation, grouped by command.",
    "schema": "Print a JSON Schema (queues.yaml by default); point yaml-language-server at it for checks in the "
    "editor.",
    "simulate": "Inputs: CONFIG and WORKLOAD; or --cluster DUMP, or YuniKorn's own state (--state FILE, a saved "
    "/debug/fullstatedump, or --yunikorn URL, live),",
    "tree": "Every setting says where it came from (set here, inherited, template, default, YuniKorn's fallback), with "
    "fences, offsets, sorting and limits;",
    "validate": "Lint YuniKorn queue configs: every problem at once, with file:line:col and YuniKorn's own verdict.",
}


def description(help_text: str) -> list[str]:
    """The lines of the help's description: after the usage line, before the first panel, stripped, no blanks."""
    head = help_text.split("╭", 1)[0]
    lines = [line.strip() for line in head.splitlines() if line.strip()]
    assert lines[0].startswith("Usage: yk")
    return lines[1:]


def command_args(command: str) -> list[str]:
    return [command] if command else []


@pytest.mark.parametrize("command", ["", *COMMANDS])
@pytest.mark.parametrize("columns", ["80", "120"])
def test_help_is_prose_with_metavars_and_ends_with_an_example(run_yk, monkeypatch, command: str, columns: str) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    result = run_yk(*command_args(command), "--help")
    assert result.exit_code == 0
    assert result.stderr == ""
    assert TYPE_LABEL.search(result.stdout) is None, result.stdout
    assert max(len(line) for line in result.stdout.splitlines()) <= int(columns)
    lines = description(result.stdout)
    assert lines[-1].startswith(f"Example: yk {command}".rstrip()), result.stdout


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_help_paragraphs_are_unbroken_at_200_columns(run_yk, monkeypatch, command: str) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    result = run_yk(*command_args(command), "--help")
    assert result.exit_code == 0
    lines = description(result.stdout)
    assert any(UNBROKEN[command] in line for line in lines), lines


EXAMPLES = {
    "": "Example: yk validate queues.yaml",
    "explain": "Example: yk explain queues.yaml workload.yaml a1-p8 b1-p9",
    "generate": "Example: yk generate --nodes 50 --asks 500 --out-dir demo",
    "import": "Example: yk import helios cluster_log.csv --until 24h --out-dir venus",
    "priorities": "Example: yk priorities queues.yaml workload.yaml --format json",
    "rules": "Example: yk rules empty-property-value",
    "schema": "Example: yk schema workload > workload.schema.json",
    "simulate": "Example: yk simulate queues.yaml workload.yaml --until 10m",
    "tree": "Example: yk tree queues.yaml --workload workload.yaml",
    "validate": "Example: yk validate queues.yaml --format sarif",
}


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_the_example_is_the_last_line(run_yk, command: str) -> None:
    assert description(run_yk(*command_args(command), "--help").stdout)[-1] == EXAMPLES[command]


def test_flags_have_no_type_and_options_name_their_value(run_yk) -> None:
    out = run_yk("simulate", "--help").stdout
    rows = {line.split()[1]: line for line in out.splitlines() if line.startswith("│ --")}
    assert rows["--until"].split()[2] == "TIME"
    assert rows["--max-steps"].split()[2] == "N"
    assert rows["--cluster"].split()[2] == "DUMP"
    assert rows["--format"].split()[3] == "FORMAT"
    assert rows["--explain-preemption"].split()[2] == "List"
    assert rows["--help"].split()[2:4] == ["-h", "Show"]


def test_nothing_in_the_text_is_taken_for_markup(run_yk) -> None:
    """Backticks, brackets, stars and underscores reach the terminal as written (no Markdown, no Rich tags)."""
    assert "List the rules `yk validate` and `yk volcano validate` report" in run_yk("rules", "--help").stdout
    assert "`partition`" in run_yk("priorities", "--help").stdout
    assert "ASK_A" in run_yk("explain", "--help").stdout
    from yk_cli.commands.console import prose

    assert prose("a [bold]b[/bold] *c* _d_\n`e`") == "a \\[bold]b\\[/bold] *c* _d_ `e`"


@pytest.mark.parametrize("command", ["", *COMMANDS])
@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_through_the_program_is_the_same(run_yk, command: str, flag: str) -> None:
    """`python -m yk_cli CMD --help`: the console entry point (fast paths for validate, tree, priorities) too."""
    expected = run_yk(*command_args(command), flag)
    assert run_program(*command_args(command), flag) == (0, expected.stdout, "")


@pytest.mark.parametrize("args", [("tree", "q.yaml", "--help"), ("priorities", "q.yaml", "w.yaml", "-h")])
def test_help_after_arguments_bypasses_the_fast_path(args: tuple[str, ...]) -> None:
    code, out, err = run_program(*args)
    assert (code, err) == (0, "")
    assert out.lstrip().startswith(f"Usage: yk {args[0]} [OPTIONS]")
