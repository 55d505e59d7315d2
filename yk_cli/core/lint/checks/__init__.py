"""Semantic checks of a decoded config: each module declares its rules and yields problems by document path."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from yk_cli.core.config.model import SchedulerConfig
from yk_cli.core.diagnostics import Problem, Rule
from yk_cli.core.lint import resource_names
from yk_cli.core.lint.checks import properties, validator

Check = Callable[[SchedulerConfig], Iterable[Problem]]

CHECK_RULES: tuple[Rule, ...] = (*validator.RULES, *properties.RULES, resource_names.RESOURCE_NAME_TYPO)
CHECKS: tuple[Check, ...] = (*validator.CHECKS, *properties.CHECKS, resource_names.check_config_resource_names)


def run_checks(config: SchedulerConfig) -> list[Problem]:
    """Every problem every check finds in the config (unlocated, addressed by document path)."""
    problems: list[Problem] = []
    for check in CHECKS:
        problems.extend(check(config))
    return problems
