"""`-q` silences the one-line warning summary for workloads and cluster dumps alike, on every command that reads
them; without it the line points at the warnings, which `yk validate --workload` / `--cluster` print in full."""

from __future__ import annotations

import pytest

from tests.conftest import SAMPLES

CONFIG = str(SAMPLES / "queues" / "tenants.yaml")
WORKLOAD = str(SAMPLES / "workloads" / "invalid" / "workload-priority-mismatch.yaml")
DUMP = str(SAMPLES / "cluster" / "invalid" / "cluster-user-info.yaml")
POLICY = str(SAMPLES / "policies" / "production.yaml")

COMMANDS = [
    ["tree", CONFIG, "-w", WORKLOAD],
    ["priorities", CONFIG, WORKLOAD],
    ["simulate", CONFIG, WORKLOAD],
    ["simulate", "--cluster", DUMP],
    ["check", POLICY, str(SAMPLES / "queues" / "production.yaml"), "--cluster", DUMP],
]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda args: " ".join(a.rsplit("/", 1)[-1] for a in args))
def test_quiet_silences_the_summary(run_yk, args: list[str]) -> None:
    loud = run_yk(*args)
    assert loud.exit_code in (0, 1)
    assert loud.stderr.startswith("1 warning in ")
    quiet = run_yk(*args, "-q")
    assert (quiet.exit_code, quiet.stderr, quiet.stdout) == (loud.exit_code, "", loud.stdout)


@pytest.mark.parametrize(("option", "name"), [("--workload", WORKLOAD), ("--cluster", DUMP)])
def test_validate_prints_what_the_summary_counts(run_yk, option: str, name: str) -> None:
    args = [CONFIG, option, name] if option == "--workload" else [option, name]
    result = run_yk("validate", *args)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.startswith(f"{name}:")
    assert result.stdout.endswith(" 0 errors, 1 warning\n")
