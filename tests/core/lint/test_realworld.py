"""The 76 published configs: yk's error verdict equals the real scheduler's, and every problem points at a real line."""

from __future__ import annotations

import json

import pytest

from tests.conftest import REALWORLD
from yk_cli.core.diagnostics import Level
from yk_cli.load.config import load_config

LABELS: dict[str, dict[str, object]] = json.loads((REALWORLD / "labels.json").read_text())


@pytest.mark.parametrize("name", sorted(LABELS))
def test_error_verdict_matches_yunikorn(name: str) -> None:
    path = REALWORLD / "configs" / name
    result = load_config(str(path))
    errors = [p for p in result.problems if p.level == Level.ERROR]
    label = LABELS[name]
    assert bool(errors) == label["refused"], (label["error"], [(p.rule, p.message) for p in result.problems])
    lines = path.read_text().count("\n") + 1
    for p in result.problems:
        assert p.span is not None and 1 <= p.span.line <= lines, p
        assert p.span.column >= 1, p


def test_all_76_configs_are_labelled() -> None:
    assert len(LABELS) == 76
