"""Shared test helpers and fixtures: run the CLI in-process (run_yk) or as its own process (run_program) with a pinned
terminal width, dedent, the checkout's paths (tests/helpers/paths.py), the working-directory fixtures, and the
hypothesis profiles.

Hypothesis profiles, chosen with HYPOTHESIS_PROFILE (default "default"):
    default   no deadline (a dry run's first example pays for imports and caches), no too_slow health check; the
              example counts are each test's own @settings(max_examples=N) (100 where a test sets none)
    ci        the default one, derandomized and without the example database: the same examples on every run
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from typer.testing import CliRunner

from tests.helpers.paths import CONFORMANCE, DATA, GOLDEN, REALWORLD, ROOT, SAMPLES
from yk_cli.cli import app

__all__ = ["CONFORMANCE", "DATA", "GOLDEN", "REALWORLD", "ROOT", "SAMPLES", "dedent", "run_program", "run_yk"]

settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", parent=settings.get_profile("default"), derandomize=True, database=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture
def in_root(monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run from the checkout, so that reports name files by their short relative names (those of the goldens).
    A module whose every test needs it says `pytestmark = pytest.mark.usefixtures("in_root")`."""
    monkeypatch.chdir(ROOT)
    return ROOT


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run from a fresh temporary folder (files written by a test have short relative names); the folder."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def run_yk(monkeypatch: pytest.MonkeyPatch):
    """Run `yk ARGS` in-process; returns the click Result (exit_code, stdout, stderr)."""
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    monkeypatch.setenv("COLUMNS", "100")
    runner = CliRunner()

    def run(*args: str, input: str | None = None):
        return runner.invoke(app, list(args), input=input, catch_exceptions=False)

    return run


def run_program(*args: str) -> tuple[int, str, str]:
    """Run `python -m yk_cli ARGS` as its own process (the console entry point: fast paths, early exit) from the
    checkout, with the terminal width run_yk pins: exit status, stdout, stderr."""
    env = {**os.environ, "COLUMNS": "100"}
    env.pop("GITHUB_ACTIONS", None)
    done = subprocess.run([sys.executable, "-m", "yk_cli", *args], capture_output=True, text=True, cwd=ROOT, env=env)
    return done.returncode, done.stdout, done.stderr


def dedent(text: str) -> str:
    """Strip the common indentation of a triple-quoted YAML snippet."""
    return textwrap.dedent(text).lstrip("\n")
