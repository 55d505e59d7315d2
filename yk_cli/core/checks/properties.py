"""Checks of queue properties and other settings YuniKorn accepts but does not honour as written (warnings)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from yk_cli.core.config import SchedulerConfig
from yk_cli.core.diagnostics import Problem
from yk_cli.core.rules import Rule

RULES: tuple[Rule, ...] = ()
CHECKS: tuple[Callable[[SchedulerConfig], Iterable[Problem]], ...] = ()
