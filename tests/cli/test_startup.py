"""Start-up: plain `yk validate`, `yk simulate`, `yk check`, `yk tree` and `yk priorities` run without typer (nor
rich, pydantic, jsonschema, networkx, or orjson for a text report); `yk simulate`'s fast path prints what typer's
path prints."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT
from yk_cli.commands.simulate import fast_path

HEAVY = ("typer", "click", "rich", "pydantic", "jsonschema", "networkx", "orjson", "yk_cli.commands.application")


def imported_by(*args: str, watched: tuple[str, ...] = HEAVY) -> tuple[int, list[str]]:
    """Run `yk ARGS` through the console entry point in a fresh interpreter: its exit status and which of `watched`
    (HEAVY unless told) it imported."""
    code = (
        "import atexit, sys; from yk_cli import cli; sys.argv = ['yk', *sys.argv[1:]]\n"
        f"atexit.register(lambda: print(sorted(m for m in {watched!r} if m in sys.modules)))\n"
        "cli.exit_process = sys.exit  # the fast paths' os._exit would skip atexit\n"
        "cli.main()"
    )
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT)
    return done.returncode, eval(done.stdout.splitlines()[-1])


@pytest.mark.parametrize(
    ("args", "needed"),
    [
        (("validate", "samples/queues/tenants.yaml"), []),
        (("validate", "samples/queues/invalid/duplicate-key.yaml"), []),
        (("simulate", "samples/queues/tenants.yaml", "samples/workloads/tenants.yaml"), []),
        (("simulate", "samples/queues/tenants.yaml", "samples/workloads/tenants.yaml", "-f", "markdown"), []),
        (("tree", "samples/queues/tenants.yaml", "-f", "mermaid"), []),
        (("tree", "samples/queues/tenants.yaml"), ["rich"]),  # the tree is drawn by Rich
        (("priorities", "samples/queues/tenants.yaml", "samples/workloads/tenants.yaml"), []),
        (("check", "samples/policies/production.yaml", "samples/queues/production.yaml"), []),
    ],
)
def test_plain_commands_import_no_typer(args: tuple[str, ...], needed: list[str]) -> None:
    code, heavy = imported_by(*args)
    assert heavy == needed
    assert code == (1 if "invalid" in args[1] else 0)


def test_json_reports_bring_only_orjson() -> None:
    assert imported_by("simulate", "-f", "json") == (0, ["orjson"])
    assert imported_by("validate", "samples/queues/tenants.yaml", "-f", "sarif") == (0, ["orjson"])


YAML_PARSERS = ("yaml", "ruamel.yaml", "_ruamel_yaml")
"""PyYAML (libyaml's parser) and ruamel.yaml (the pure-Python fallback): tens of milliseconds to import each."""


@pytest.mark.parametrize(
    ("args", "needed"),
    [
        (("--version",), []),
        (("rules",), []),
        (("validate", "samples/queues/tenants.yaml"), ["yaml"]),  # libyaml reads it: ruamel.yaml stays unimported
        (("simulate", "samples/queues/tenants.yaml", "samples/workloads/tenants.yaml"), ["yaml"]),
    ],
)
def test_a_yaml_parser_is_imported_only_to_read_yaml(args: tuple[str, ...], needed: list[str]) -> None:
    assert imported_by(*args, watched=YAML_PARSERS) == (0, needed)


def test_what_needs_typer_still_gets_it() -> None:
    code, heavy = imported_by("simulate", "--queue", "root.tenants", "--summary")
    assert code == 0
    assert "typer" in heavy and "yk_cli.commands.application" in heavy


# --- the fast path of `yk simulate` ------------------------------------------------------------------------------

TENANTS = ("samples/queues/tenants.yaml", "samples/workloads/tenants.yaml")
PREEMPTION = ("samples/workloads/queues/preemption.yaml", "samples/workloads/preemption.yaml")


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["-f", "json"],
        [*TENANTS],
        [*TENANTS, "--format", "markdown"],
        [*TENANTS, "--format=json", "--until", "30s"],
        [*TENANTS, "--max-steps", "3", "--pending-only"],
        [*TENANTS, "--summary", "-q"],
        [*TENANTS, "--starts"],
        [*TENANTS, "--starts", "-f", "markdown"],
        [*TENANTS, "--yunikorn-version", "1.5", "--partition", "default"],
        [*PREEMPTION, "--explain-preemption"],
        [*PREEMPTION, "-f", "json", "--explain-preemption"],
        ["--cluster", "samples/cluster/dump.yaml", "--pending-only"],
        ["samples/queues/tenants.yaml", "--cluster", "samples/cluster/dump.yaml", "-f", "json"],
        ["--", *TENANTS],
        ["--no-config", *TENANTS, "--max-size", "1MiB"],
        # errors: the same messages and exit codes
        [*TENANTS, "--format", "xml"],
        [*TENANTS, "--starts", "-f", "json"],
        [*TENANTS, "--until", "soon"],
        [*TENANTS, "--yunikorn-version", "x"],
        [*TENANTS, "--max-size", "big"],
        [*TENANTS, "--partition", "nope"],
        ["samples/queues/tenants.yaml"],
        ["missing.yaml", "samples/workloads/tenants.yaml"],
        [TENANTS[0], "--cluster", "samples/cluster/dump.yaml", TENANTS[1]],
        ["samples/queues/invalid/duplicate-key.yaml", TENANTS[1]],
    ],
)
def test_fast_path_matches_typer(
    run_yk, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    monkeypatch.chdir(ROOT)
    expected = run_yk("simulate", *args)
    capsys.readouterr()
    code = fast_path(args)
    out, err = capsys.readouterr()
    assert (code, out, err) == (expected.exit_code, expected.stdout, expected.stderr)
    assert out or err


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        [*TENANTS, "-h"],
        [*TENANTS, "--queue", "root.tenants"],
        [*TENANTS, "--app", "a1"],
        [*TENANTS, "--timeline"],
        [*TENANTS, "--timeline", "node"],
        [*TENANTS, "--max-steps", "abc"],
        [*TENANTS, "--max-steps", "-1"],
        [*TENANTS, "extra.yaml"],
        [*TENANTS, "--format"],
        [*TENANTS, "-qf", "json"],
        [*TENANTS, "--bogus"],
    ],
)
def test_fast_path_leaves_the_rest_to_typer(args: list[str]) -> None:
    assert fast_path(args) is None


def test_the_program_prints_what_typer_prints(run_yk) -> None:
    """Through the console entry point in its own process (fast path, early exit), as in-process through typer."""
    from tests.conftest import run_program

    for args in ((*TENANTS,), (*TENANTS, "-f", "json"), ("missing.yaml", TENANTS[1]), (*TENANTS, "--max-steps", "x")):
        done = run_program("simulate", *args)
        expected = run_yk("simulate", *args)
        assert done == (expected.exit_code, expected.stdout, expected.stderr)
