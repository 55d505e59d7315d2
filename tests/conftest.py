"""Shared test helpers: run the CLI in-process with a pinned terminal width."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest
from typer.testing import CliRunner

from tests.helpers.paths import CONFORMANCE, DATA, GOLDEN, REALWORLD, ROOT, SAMPLES
from yk_cli.cli import app

__all__ = ["CONFORMANCE", "DATA", "GOLDEN", "REALWORLD", "ROOT", "SAMPLES", "dedent", "run_program", "run_yk"]



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
