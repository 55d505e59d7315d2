"""Property-based: mutated configs always give problems or a clean result, never an exception."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import REALWORLD, SAMPLES
from yk_cli.core.diagnostics import Level, Problem
from yk_cli.load.config import load_config

BASES = sorted(
    [p.read_text() for p in (SAMPLES / "queues").glob("*.yaml")]
    + [p.read_text() for p in sorted((REALWORLD / "configs").glob("*.yaml"))[:40]]
)
SCALARS = [
    "0",
    "-1",
    "1.5",
    "abc",
    "''",
    '"true"',
    "yes",
    "~",
    "[]",
    "{}",
    "*",
    "1Gi",
    "500m",
    "fence",
    "FAIR",
    "99999999999999999999999",
    "root",
    "ROOT",
    "a b  c",
    "- x",
    "&a x",
    "*a",
    "!!binary aGk=",
    ":",
    "#",
    "\t",
]
KEYS = [
    "name",
    "queues",
    "properties",
    "resources",
    "max",
    "guaranteed",
    "maxapplications",
    "parent",
    "limits",
    "placementrules",
    "submitacl",
    "priority.offset",
    "application.sort.policy",
    "childtemplate",
    "users",
]


def mutate(text: str, ops: list[tuple[int, int, int, int]]) -> str:
    """Apply line-level edits: replace a value, drop, duplicate or re-indent a line, insert a key or junk."""
    lines = text.splitlines()
    for op, where, pick, extra in ops:
        if not lines:
            lines = [""]
        i = where % len(lines)
        line = lines[i]
        if op == 0 and ":" in line:
            lines[i] = line.split(":", 1)[0] + ": " + SCALARS[pick % len(SCALARS)]
        elif op == 1:
            del lines[i]
        elif op == 2:
            lines.insert(i, line)
        elif op == 3:
            lines[i] = " " * (extra % 7) + line.lstrip()
        elif op == 4:
            indent = len(line) - len(line.lstrip())
            lines.insert(i, " " * indent + KEYS[pick % len(KEYS)] + ": " + SCALARS[extra % len(SCALARS)])
        elif op == 5:
            cut = extra % (len(line) + 1)
            lines[i] = line[:cut] + SCALARS[pick % len(SCALARS)] + line[cut:]
    return "\n".join(lines) + "\n"


OPS = st.lists(
    st.tuples(st.integers(0, 5), st.integers(0, 10_000), st.integers(0, 100), st.integers(0, 100)), max_size=6
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
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


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=400))
def test_arbitrary_bytes_never_raise(tmp_path_factory, data: bytes) -> None:
    path = Path(tmp_path_factory.mktemp("bytes")) / "queues.yaml"
    path.write_bytes(data)
    result = load_config(str(path))
    assert all(p.span is not None for p in result.problems)
