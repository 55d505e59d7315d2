"""Property-based: mutated configs always give problems or a clean result, never an exception."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.cli.helpers import OPS, mutate
from tests.conftest import REALWORLD, SAMPLES
from yk_cli.core.diagnostics import Level, Problem
from yk_cli.load.config import load_config

BASES = sorted(
    [p.read_text() for p in (SAMPLES / "queues").glob("*.yaml")]
    + [p.read_text() for p in sorted((REALWORLD / "configs").glob("*.yaml"))[:40]]
)






@settings(max_examples=300)
@given(base=st.sampled_from(BASES), ops=OPS)
def test_mutated_configs_never_raise(tmp_path_factory, base: str, ops: list[tuple[int, int, int, int]]) -> None:
    path = Path(tmp_path_factory.mktemp("fuzz")) / "queues.yaml"
    text = mutate(base, ops)
    path.write_text(text)
    result = load_config(str(path))
    lines = text.count("\n") + 1
    for problem in result.problems:
        assert isinstance(problem, Problem)
        assert problem.level in (Level.ERROR, Level.WARNING)
        assert problem.span is not None and 1 <= problem.span.line <= lines
        assert problem.message


@settings(max_examples=200)
@given(data=st.binary(max_size=400))
def test_arbitrary_bytes_never_raise(tmp_path_factory, data: bytes) -> None:
    path = Path(tmp_path_factory.mktemp("bytes")) / "queues.yaml"
    path.write_bytes(data)
    result = load_config(str(path))
    assert all(p.span is not None for p in result.problems)
