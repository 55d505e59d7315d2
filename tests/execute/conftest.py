"""Fixtures of the executor tests: a folder for the toy's markers and its shared inputs."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.execute import toy


@pytest.fixture
def shared(tmp_path: Path) -> toy.Shared:
    """4 MB of shared bytes, evaluations of about 50 ms, markers in tmp_path."""
    return toy.make_shared(tmp_path)
