"""The checks of YuniKorn's config validator and queue builder: each one a reason YuniKorn refuses a config."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from yk_cli.core.config import SchedulerConfig
from yk_cli.core.diagnostics import Problem
from yk_cli.core.rules import Rule

RULES: tuple[Rule, ...] = ()
CHECKS: tuple[Callable[[SchedulerConfig], Iterable[Problem]], ...] = ()
