"""Checks of queue properties and other settings YuniKorn accepts but does not honour as written (warnings).

Every rule here is a warning: YuniKorn loads the config, then does something other than what it says. The checks
live in topic modules; this module collects their rules and checks in documentation order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from yk_cli.core.config.model import SchedulerConfig
from yk_cli.core.diagnostics import Problem, Rule
from yk_cli.core.lint.checks import (
    access,
    partition_settings,
    placement,
    preemption,
    priority_range,
    property_scope,
    property_values,
    queue_settings,
)

_MODULES = (
    property_values,
    property_scope,
    priority_range,
    preemption,
    queue_settings,
    placement,
    access,
    partition_settings,
)

RULES: tuple[Rule, ...] = tuple(rule for module in _MODULES for rule in module.RULES)
CHECKS: tuple[Callable[[SchedulerConfig], Iterable[Problem]], ...] = tuple(
    check for module in _MODULES for check in module.CHECKS
)
