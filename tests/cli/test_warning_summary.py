"""tree, priorities, simulate and explain: warnings as one summary line on standard error (-q: none); errors in full."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import dedent, run_program
from yk_cli.core.diagnostics import Level, Problem, Span

# 15 warnings (yk validate shows them in full), and a workload with one warning of its own.
NOISY = """
partitions:
  - name: default
    queues:
      - name: root
        submitacl: '*'
        queues:
""" + "".join(
    f"""          - name: q{i}
            properties:
              priority.offset: ''
              application.sort.policy: ' '
              application.unschedasks.backoff.delay: ~
"""
    for i in range(5)
)

WORKLOAD = """
nodes:
  - {name: node-1, resources: {vcore: 8}}
applications:
  - id: app-a
    queue: root.q0
    asks:
      - {name: a, priority: 1, resources: {vcore: 1}}
  - id: app-b
    queue: root.q1
    asks:
      - {name: b, priority: 2, resources: {vcore: 1}}
"""

MISMATCH = (
    WORKLOAD.replace("priority: 2,", "priority: 2, priorityClass: gold,")
    + """
priorityClasses:
  - {name: gold, value: 1000}
"""
)


@pytest.fixture
def noisy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    monkeypatch.chdir(tmp_path)
    Path("queues.yaml").write_text(dedent(NOISY))
    Path("workload.yaml").write_text(dedent(WORKLOAD))
    return "queues.yaml", "workload.yaml"


CONFIG_LINE = "15 warnings in queues.yaml: run yk validate queues.yaml\n"


@pytest.mark.parametrize(
    "args",
    [
        ("tree", "queues.yaml"),
        ("tree", "queues.yaml", "-w", "workload.yaml"),
        ("priorities", "queues.yaml", "workload.yaml"),
        ("simulate", "queues.yaml", "workload.yaml"),
        ("explain", "queues.yaml", "workload.yaml", "a", "b"),
        ("explain", "queues.yaml", "workload.yaml", "a"),
    ],
)
def test_config_warnings_are_one_line_and_quiet_silences_it(run_yk, noisy, args: tuple[str, ...]) -> None:
    result = run_yk(*args)
    assert (result.exit_code, result.stderr) == (0, CONFIG_LINE)
    assert result.stdout
    for flag in ("-q", "--quiet"):
        quiet = run_yk(*args, flag)
        assert (quiet.exit_code, quiet.stdout, quiet.stderr) == (0, result.stdout, "")


def test_yk_validate_still_shows_every_warning(run_yk, noisy) -> None:
    result = run_yk("validate", "queues.yaml")
    assert result.stdout.count("[warning]") == 15
    assert result.stdout.endswith("1 file checked: 0 errors, 15 warnings\n")


def test_workload_warnings_name_their_rules_and_lines(run_yk, noisy) -> None:
    Path("workload.yaml").write_text(dedent(MISMATCH))
    result = run_yk("priorities", "queues.yaml", "workload.yaml")
    assert result.exit_code == 0
    assert result.stderr == (
        "15 warnings in queues.yaml: run yk validate queues.yaml; "
        "1 warning in workload.yaml: workload-priority-mismatch (line 11)\n"
    )
    assert run_yk("priorities", "queues.yaml", "workload.yaml", "-q").stderr == ""


def test_errors_still_print_in_full_even_when_quiet(run_yk, noisy) -> None:
    Path("workload.yaml").write_text(dedent(WORKLOAD).replace("root.q1", "root.nowhere"))
    expected = run_yk("validate", "queues.yaml").stdout.splitlines()
    for quiet in ((), ("-q",)):
        result = run_yk("simulate", "queues.yaml", "workload.yaml", *quiet)
        assert (result.exit_code, result.stdout) == (1, "")
        lines = result.stderr.splitlines()
        assert lines[:-5] == expected[:-1]  # every warning excerpt, as yk validate prints it
        assert lines[-5].startswith("workload.yaml:9:12: [error] application app-b: queue root.nowhere does not exist")
        assert lines[-1] == "2 files checked: 1 error, 15 warnings"


def test_standard_input_has_no_file_to_name(run_yk, noisy) -> None:
    result = run_yk("tree", "-", input=Path("queues.yaml").read_text())
    assert (result.exit_code, result.stderr) == (0, "15 warnings in <stdin>: run yk validate\n")


def test_a_cluster_dump_names_its_rules(run_yk) -> None:
    dump = "samples/cluster/invalid/cluster-unknown-priority-class.yaml"
    result = run_yk("simulate", "--cluster", dump)
    assert (result.exit_code, result.stderr) == (0, f"1 warning in {dump}: cluster-unknown-priority-class (line 177)\n")
    assert run_yk("simulate", "--cluster", dump, "-q").stderr == ""


@pytest.mark.parametrize(
    "args",
    [
        ("tree", "queues.yaml", "-q"),
        ("tree", "queues.yaml", "--quiet", "-w", "workload.yaml"),
        ("tree", "queues.yaml"),
        ("priorities", "queues.yaml", "workload.yaml", "--quiet"),
        ("priorities", "-q", "queues.yaml", "workload.yaml"),
        ("priorities", "queues.yaml", "workload.yaml"),
    ],
)
def test_the_fast_paths_take_quiet_too(run_yk, noisy, args: tuple[str, ...]) -> None:
    from yk_cli.commands import priorities, tree

    expected = run_yk(*args)
    assert (expected.exit_code, expected.stderr) == (0, "" if {"-q", "--quiet"} & set(args) else CONFIG_LINE)
    fast = {"tree": tree.fast_path, "priorities": priorities.fast_path}[args[0]]
    assert fast(args[1:]) == 0  # handled without typer


def test_the_program_prints_the_summary(noisy) -> None:
    config = str(Path("queues.yaml").resolve())
    code, out, err = run_program("tree", config)
    assert (code, err) == (0, f"15 warnings in {config}: run yk validate {config}\n")
    assert out.startswith("root  (partition default)")
    assert run_program("tree", config, "-q")[2] == ""


def test_summary_lists_at_most_five_lines_per_rule() -> None:
    from yk_cli.report.problems_text import warning_summary

    def warn(line: int, rule: str = "workload-unknown-key") -> Problem:
        return Problem(rule, Level.WARNING, "m", span=Span(line, 1, line, 2), file="w.yaml")

    many = [warn(n) for n in (9, 3, 4, 5, 6, 7, 3)] + [warn(2, "workload-priority-mismatch")]
    assert warning_summary(many, ["q.yaml", "w.yaml"], []) == (
        "8 warnings in w.yaml: workload-priority-mismatch (line 2), workload-unknown-key (lines 3, 4, 5, 6, 7, …)"
    )
