"""Seeded fuzzing of every command (issue 22, item 10): mutated inputs through the CLI give a clear message and exit
0, 1 or 2, never an exception.

Each test mutates the bundled samples line by line (tests/cli/test_fuzz_validate.py's mutate: values replaced, lines
dropped, duplicated, re-indented, keys and junk inserted) and runs one command on them in-process. Hypothesis runs
derandomized (the same examples on every run), a bounded number of examples per command.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tests.cli.helpers import OPS, mutate
from tests.conftest import ROOT
from yk_cli.commands.application import app

SEEDED = settings(max_examples=40, derandomize=True, suppress_health_check=list(HealthCheck))
OK_EXITS = {0, 1, 2}

CONFIGS = ["samples/queues/tenants.yaml", "samples/queues/production.yaml", "samples/queues/production-configmap.yaml"]
WORKLOADS = [
    "samples/workloads/tenants.yaml",
    "samples/workloads/preemption.yaml",
    "samples/workloads/spark-gang.yaml",
    "samples/workloads/limits.yaml",
    "samples/workloads/node-predicates.yaml",
]
POLICIES = ["samples/policies/production.yaml", "samples/policies/production-dry-run.yaml"]
VOLCANO = ["samples/volcano/cluster.yaml", "samples/volcano/seed-example.yaml", "samples/volcano/predicates.yaml"]
DUMP = "samples/cluster/dump.yaml"
PROJECT = "rules:\n  unknown-property: disable\n  no-submit-acl: error\nignore:\n  - 'vendor/*'\nstrict: false\n"


def _text(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")


def _run(tmp: Path, *args: str) -> tuple[int, str]:
    """Run yk in tmp (so that no .yk.yaml of the checkout applies) and return (exit code, stdout + stderr)."""
    runner = CliRunner()
    old = os.getcwd()
    os.chdir(tmp)
    try:
        result = runner.invoke(app, list(args), catch_exceptions=False, env={"COLUMNS": "100", "NO_COLOR": "1"})
    finally:
        os.chdir(old)
    return result.exit_code, result.stdout + result.stderr


def _check(code: int, output: str) -> None:
    assert code in OK_EXITS, output[-2000:]
    assert "Traceback" not in output, output[-2000:]


def _write(tmp: Path, name: str, text: str) -> str:
    path = tmp / name
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return str(path)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz-cli")


MUTATION = st.tuples(st.integers(0, 100), OPS)


@SEEDED
@given(pick=MUTATION, fmt=st.sampled_from(["text", "json", "sarif", "github"]))
def test_validate(folder: Path, pick: tuple[int, list[tuple[int, int, int, int]]], fmt: str) -> None:
    config = _write(folder, "q.yaml", mutate(_text(CONFIGS[pick[0] % len(CONFIGS)]), pick[1]))
    _check(*_run(folder, "validate", config, "--format", fmt))


@SEEDED
@given(pick=MUTATION, which=st.integers(0, 100))
def test_tree_and_priorities_on_a_mutated_workload(
    folder: Path, pick: tuple[int, list[tuple[int, int, int, int]]], which: int
) -> None:
    workload = _write(folder, "w.yaml", mutate(_text(WORKLOADS[pick[0] % len(WORKLOADS)]), pick[1]))
    config = str(ROOT / CONFIGS[0])
    if which % 2:
        _check(*_run(folder, "tree", config, "-w", workload, "--format", "json"))
    else:
        _check(*_run(folder, "priorities", config, workload))


@SEEDED
@given(pick=MUTATION, mutate_config=st.booleans())
def test_simulate(folder: Path, pick: tuple[int, list[tuple[int, int, int, int]]], mutate_config: bool) -> None:
    config_text = _text(CONFIGS[0])
    workload_text = _text(WORKLOADS[pick[0] % len(WORKLOADS)])
    if mutate_config:
        config_text = mutate(config_text, pick[1])
    else:
        workload_text = mutate(workload_text, pick[1])
    config, workload = _write(folder, "q.yaml", config_text), _write(folder, "w.yaml", workload_text)
    _check(*_run(folder, "simulate", config, workload, "--max-steps", "200", "--format", "json"))


@SEEDED
@given(ops=OPS)
def test_simulate_a_mutated_cluster_dump(folder: Path, ops: list[tuple[int, int, int, int]]) -> None:
    dump = _write(folder, "dump.yaml", mutate(_text(DUMP), ops))
    _check(*_run(folder, "simulate", "--cluster", dump, "--max-steps", "200"))


@SEEDED
@given(ops=OPS, names=st.sampled_from([("high-p1",), ("low-p3",), ("high-p1", "low-p3"), ("nope",), ("/",)]))
def test_explain(folder: Path, ops: list[tuple[int, int, int, int]], names: tuple[str, ...]) -> None:
    workload = _write(folder, "w.yaml", mutate(_text(WORKLOADS[0]), ops))
    _check(*_run(folder, "explain", str(ROOT / CONFIGS[0]), workload, *names))


@SEEDED
@given(pick=MUTATION, fmt=st.sampled_from(["text", "json", "markdown", "github"]))
def test_diff(folder: Path, pick: tuple[int, list[tuple[int, int, int, int]]], fmt: str) -> None:
    base = CONFIGS[pick[0] % len(CONFIGS)]
    new = _write(folder, "new.yaml", mutate(_text(base), pick[1]))
    args = ["diff", str(ROOT / base), new]
    if base == CONFIGS[0]:
        args.append(str(ROOT / WORKLOADS[0]))
    _check(*_run(folder, *args, "--format", fmt))


@SEEDED
@given(pick=MUTATION, mutate_policy=st.booleans())
def test_check(folder: Path, pick: tuple[int, list[tuple[int, int, int, int]]], mutate_policy: bool) -> None:
    policy_text = _text(POLICIES[pick[0] % len(POLICIES)])
    config_text = _text("samples/queues/production.yaml")
    if mutate_policy:
        policy_text = mutate(policy_text, pick[1])
    else:
        config_text = mutate(config_text, pick[1])
    policy, config = _write(folder, "policy.yaml", policy_text), _write(folder, "q.yaml", config_text)
    _check(*_run(folder, "check", policy, config, str(ROOT / "samples/workloads/production.yaml")))


@SEEDED
@given(pick=MUTATION, command=st.sampled_from(["validate", "simulate"]))
def test_volcano(folder: Path, pick: tuple[int, list[tuple[int, int, int, int]]], command: str) -> None:
    dump = _write(folder, "vc.yaml", mutate(_text(VOLCANO[pick[0] % len(VOLCANO)]), pick[1]))
    _check(*_run(folder, "volcano", command, dump))


@SEEDED
@given(ops=OPS)
def test_volcano_explain(folder: Path, ops: list[tuple[int, int, int, int]]) -> None:
    dump = _write(folder, "vc.yaml", mutate(_text(VOLCANO[1]), ops))
    _check(*_run(folder, "volcano", "explain", dump, "a1", "b1"))


@SEEDED
@given(ops=OPS)
def test_project_config(tmp_path_factory: pytest.TempPathFactory, ops: list[tuple[int, int, int, int]]) -> None:
    folder = tmp_path_factory.mktemp("project")
    _write(folder, ".yk.yaml", mutate(PROJECT, ops))
    config = str(ROOT / CONFIGS[0])
    _check(*_run(folder, "validate", config))
    _check(*_run(folder, "simulate", config, str(ROOT / WORKLOADS[0]), "--summary"))
