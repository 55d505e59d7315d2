"""Did-you-mean for what a user types on the command line: rule ids of `yk rules` (cli.did_you_mean), `yk diff
--fail-on` conditions."""

from __future__ import annotations

import pytest

from tests.conftest import SAMPLES
from yk_cli.commands.console import did_you_mean


@pytest.mark.parametrize(
    ("word", "choices", "expected"),
    [
        ("unknown-propety", ["unknown-property", "unknown-field"], " (did you mean 'unknown-property'?)"),
        ("prioritydrop", ["priority-drop", "later-start"], " (did you mean 'priority-drop'?)"),
        ("Priority_Drop", ["priority-drop", "later-start"], " (did you mean 'priority-drop'?)"),
        ("xyzzy", ["priority-drop", "later-start"], ""),
    ],
)
def test_did_you_mean(word: str, choices: list[str], expected: str) -> None:
    assert did_you_mean(word, choices) == expected


def test_rules_suggests_the_closest_rule(run_yk) -> None:
    result = run_yk("rules", "unknown-propety")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "yk: error: unknown rule 'unknown-propety' (did you mean 'unknown-property'?); `yk rules` lists them all\n"
    )


def test_rules_names_every_unknown_rule(run_yk) -> None:
    result = run_yk("rules", "unknown-propety", "xyzzy", "wrong-type")
    assert result.exit_code == 2
    assert result.stderr == (
        "yk: error: unknown rules 'unknown-propety' (did you mean 'unknown-property'?), 'xyzzy'; `yk rules` lists "
        "them all\n"
    )


def test_rules_says_which_group_has_a_rule(run_yk) -> None:
    result = run_yk("rules", "volcano-unknown-plugin", "--group", "yunikorn")
    assert result.exit_code == 2
    assert result.stderr == (
        "yk: error: unknown rule 'volcano-unknown-plugin' (a rule of --group volcano); `yk rules` lists them all\n"
    )


def test_fail_on_suggests_the_closest_condition(run_yk) -> None:
    config = str(SAMPLES / "queues" / "tenants.yaml")
    result = run_yk("diff", config, config, "--fail-on", "prioritydrop")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "yk: error: --fail-on 'prioritydrop' (did you mean 'priority-drop'?): choose among new-errors, later-start, "
        "new-pending, new-preemption, priority-drop, placement-change, order-change, p50-wait, p90-wait, p95-wait, "
        "p99-wait, max-wait, utilization, fairness-gap, any\n"
    )
