"""Executor strings: every form, and a ValueError that lists the forms for anything else."""

from __future__ import annotations

import pytest

from tests.execute import toy
from yk_cli.execute import FORMS, ExecutorSpec, parse_executor, run_all
from yk_cli.execute.spec import default_workers


@pytest.mark.parametrize(
    ("text", "spec"),
    [
        ("serial", ExecutorSpec("serial", 1)),
        ("local", ExecutorSpec("local")),
        ("local:3", ExecutorSpec("local", 3)),
        ("dask-local", ExecutorSpec("dask-local")),
        ("dask-local:2", ExecutorSpec("dask-local", 2)),
        ("dask://scheduler.example:8786", ExecutorSpec("dask", None, "tcp://scheduler.example:8786")),
        ("dask://10.0.0.5", ExecutorSpec("dask", None, "tcp://10.0.0.5:8786")),
        ("dask://[::1]:9000", ExecutorSpec("dask", None, "tcp://[::1]:9000")),
    ],
)
def test_the_forms(text: str, spec: ExecutorSpec) -> None:
    assert parse_executor(text) == spec


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("ray://head:10001", "unknown executor 'ray://head:10001'"),
        ("threads", "unknown executor 'threads'"),
        ("", "unknown executor ''"),
        ("local:0", "at least 1"),
        ("local:two", "whole number"),
        ("dask-local:", "whole number"),
        ("dask://", "dask://HOST:PORT"),
        ("dask://host:port", "the port must be a number"),
        ("dask://host:8786/path", "dask://HOST:PORT"),
    ],
)
def test_bad_strings_are_value_errors(text: str, says: str) -> None:
    with pytest.raises(ValueError) as raised:
        parse_executor(text)
    assert says in str(raised.value)


def test_an_unknown_executor_lists_the_forms() -> None:
    with pytest.raises(ValueError) as raised:
        run_all(abs, None, [1], "processes")
    assert str(raised.value) == f"unknown executor 'processes': use {FORMS}"
    for form in ("serial", "local:N", "dask-local:N", "dask://HOST:PORT"):
        assert form in str(raised.value)


def test_workers_default_to_the_cores() -> None:
    assert default_workers(3) == 3
    assert default_workers(None) >= 1
    with pytest.raises(ValueError, match="at least 1"):
        default_workers(0)


def test_jobs_count_only_when_the_string_gives_no_count(shared: toy.Shared) -> None:
    assert run_all(toy.seeded, shared, [1], "serial", jobs=0) == [toy.seeded(shared, 1)]
    with pytest.raises(ValueError, match="jobs must be at least 1"):
        run_all(toy.seeded, shared, [], "local", jobs=0)
