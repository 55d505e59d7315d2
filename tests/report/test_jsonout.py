"""report/jsonout: orjson's text is byte for byte the standard library's `json.dumps(indent=2, ensure_ascii=False)`,
on edge values, on every golden and test JSON file, and on every JSON report the samples make; with orjson off the
standard library writes the same bytes."""

from __future__ import annotations

import enum
import json
import math
import random
import struct
from collections import OrderedDict
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import ROOT, SAMPLES
from tests.helpers.samples import WORKLOADS, _config_of
from yk_cli.report import jsonout

orjson = pytest.importorskip("orjson")


def stdlib(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


@pytest.fixture(params=["orjson", "stdlib"])
def encoder(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every test below runs with orjson on and with it forced off."""
    monkeypatch.setattr(jsonout, "orjson", orjson if request.param == "orjson" else None)
    return str(request.param)


class Colour(enum.Enum):
    RED = "red"


class Level(enum.IntEnum):
    HIGH = 3


class Name(str):
    pass


class Count(int):
    pass


class Ratio(float):
    pass


EDGES: list[Any] = [
    {},
    [],
    "",
    None,
    True,
    False,
    0,
    {"a": {}, "b": [], "c": [{}], "d": [[]], "e": {"f": {"g": []}}},
    [1, [2, [3, [4, {}]]]],
    # integers at and past orjson's 64-bit range (it refuses the latter: the standard library writes them)
    2**63 - 1,
    2**63,
    2**64 - 1,
    2**64,
    -(2**63),
    -(2**63) - 1,
    10**40,
    [1, 10**30, {"big": -(10**25)}],
    # floats: where orjson's text is Python's repr and where it is not (below 1e-4, NaN, infinities)
    1.0,
    -0.0,
    0.1,
    1.5,
    1e16,
    1e20,
    1e22,
    1.7976931348623157e308,
    1e-4,
    9.9e-5,
    1e-5,
    1.5e-7,
    1e-9,
    1e-10,
    5e-324,
    {"time": 1e-09, "other": 2},
    [float("nan")],
    {"x": float("inf"), "y": None},
    [float("-inf"), 1],
    # strings: quotes, backslashes, control characters, non-ASCII, line separators, a lone surrogate
    "quote \" backslash \\ slash /",
    "".join(chr(c) for c in range(32)) + "\x7f",
    "é ü ß 中文 🚀 \u2028 \u2029 \ufeff",
    {"ключ": "значение", "emoji 🎉": ["✓"]},
    "lone \ud800 surrogate",
    # keys that are not strings (the standard library converts them, orjson refuses them)
    {1: "int", 2.5: "float", False: "bool", None: "none"},
    {"nested": {3: [1, 2]}},
    # containers and types orjson would write differently or refuse
    (1, 2, (3,)),
    {"t": ()},
    OrderedDict([("b", 1), ("a", 2)]),
    Name("sub"),
    {Name("k"): Count(4)},
    Level.HIGH,
    [Ratio(0.5)],
    # key order is kept, never sorted
    {"z": 1, "a": 2, "m": {"y": 1, "b": 2}},
]


@pytest.mark.parametrize("value", EDGES, ids=lambda v: repr(v)[:40])
def test_edge_values(encoder: str, value: Any) -> None:
    assert jsonout.dumps(value) == stdlib(value)
    assert jsonout.document(value) == stdlib(value) + "\n"


@pytest.mark.parametrize("depth", [0, 2, 4, 6])
def test_nested_and_items_are_the_text_inside_a_document(encoder: str, depth: int) -> None:
    values = [v for v in EDGES if not isinstance(v, tuple)]
    for value in values:
        assert jsonout.nested(value, depth) == stdlib(value).replace("\n", "\n" + " " * depth)
    if depth:
        joined = (",\n" + " " * depth).join(stdlib(v).replace("\n", "\n" + " " * depth) for v in values)
        assert jsonout.items(values, depth) == joined
        assert jsonout.items(tuple(values), depth) == joined
        assert jsonout.items([], depth) == ""
        # the items are what stands between the brackets of the array at that depth
        document = stdlib({"k": values}) if depth == 4 else None
        if document is not None:
            assert f'{{\n  "k": [\n    {jsonout.items(values, 4)}\n  ]\n}}' == document


def test_a_type_json_refuses_is_refused_either_way(encoder: str) -> None:
    for value in (Colour.RED, {"when": object()}, {1, 2}, b"bytes"):
        with pytest.raises(TypeError):
            jsonout.dumps(value)
    circular: list[Any] = []
    circular.append(circular)
    with pytest.raises(ValueError, match="Circular"):
        jsonout.dumps(circular)


def test_random_floats_of_every_magnitude(encoder: str) -> None:
    rng = random.Random(13)
    values = [rng.random() * 10.0**e for e in range(-320, 308) for _ in range(20)]
    values += [struct.unpack("<d", rng.randbytes(8))[0] for _ in range(20000)]
    values = [v for v in values if math.isfinite(v)]
    # one value per call (a float that must fall back spoils only its own document), then all at once
    assert [jsonout.dumps(v) for v in values] == [stdlib(v) for v in values]
    assert jsonout.dumps(values) == stdlib(values)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(),
    lambda children: st.lists(children, max_size=5)
    | st.dictionaries(st.text(max_size=8) | st.integers(-5, 5), children, max_size=5),
    max_leaves=30,
)


@settings(max_examples=400)
@given(json_values)
def test_random_documents(value: Any) -> None:
    saved, jsonout.orjson = jsonout.orjson, orjson
    try:
        assert jsonout.dumps(value) == stdlib(value)
        assert jsonout.nested(value, 4) == stdlib(value).replace("\n", "\n    ")
    finally:
        jsonout.orjson = saved


def test_the_fast_path_is_taken_for_plain_documents(monkeypatch: pytest.MonkeyPatch) -> None:
    """The speed is real: yk's usual values (str keys, 64-bit ints, finite floats from 1e-4, nulls) go through
    orjson, and only the values it would write otherwise fall back."""
    monkeypatch.setattr(jsonout, "orjson", orjson)
    plain = {"step": 1, "time": 1.5, "node": "node-1", "priority": None, "resources": {"vcore": 1000}, "v": [], "e": {}}
    assert jsonout._fast(plain) is not None
    assert jsonout._fast([plain] * 3) is not None
    for slow in ({"time": 1e-9}, {"x": float("nan")}, {1: 2}, [2**64], Name("x")):
        assert jsonout._fast(slow) is None


def test_yk_json_stdlib_turns_orjson_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("YK_JSON", "stdlib")
    assert jsonout._orjson() is None
    monkeypatch.delenv("YK_JSON")
    assert jsonout._orjson() is orjson


# --- every JSON file under tests/ ------------------------------------------------------------------------------

TEST_JSON = sorted(p for p in (ROOT / "tests").rglob("*") if p.suffix in (".json", ".sarif") and p.is_file())
"""Goldens (tests/golden) and test data (oracle cases, conformance, SARIF schema, ...)."""

NOT_INDENTED = {"priorities_fenced-teams.json"}
"""Goldens written piecewise in another layout (one ask per line), not by the indenting encoder."""


def test_there_are_json_files_to_compare() -> None:
    assert len(TEST_JSON) > 100
    assert len([p for p in TEST_JSON if p.parent.name == "golden"]) >= 14


@pytest.mark.parametrize("path", TEST_JSON, ids=lambda p: str(p.relative_to(ROOT / "tests")))
def test_every_json_file_under_tests(encoder: str, path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    value = json.loads(text)
    assert jsonout.document(value) == stdlib(value) + "\n"
    if path.parent.name == "golden" and path.name not in NOT_INDENTED:
        assert jsonout.document(value) == text  # the golden itself, byte for byte
        if encoder == "orjson":
            assert jsonout._fast(value) is not None


# --- every JSON report the samples make ----------------------------------------------------------------------




QUEUES = sorted((SAMPLES / "queues").glob("*.yaml")) + sorted((SAMPLES / "queues" / "invalid").glob("*.yaml"))
VOLCANO = sorted((SAMPLES / "volcano").glob("*.yaml"))


def _commands() -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = []
    for workload in WORKLOADS:
        pair = (_config_of(workload), str(workload.relative_to(ROOT)))
        out.append(("simulate", *pair, "--format", "json"))
        out.append(("simulate", *pair, "--format", "json", "--explain-preemption"))
        out.append(("tree", pair[0], "-w", pair[1], "--format", "json"))
        out.append(("priorities", *pair, "--format", "json"))
    out.append(("simulate", "--format", "json"))
    out.append(("simulate", "--cluster", "samples/cluster/dump.yaml", "--format", "json"))
    for config in QUEUES:
        name = str(config.relative_to(ROOT))
        out += [("validate", name, "--format", "json"), ("validate", name, "--format", "sarif")]
    for policy in sorted((SAMPLES / "policies").glob("*.yaml")):
        for fmt in ("json", "sarif"):
            files = ("samples/queues/production.yaml", "samples/workloads/production.yaml")
            out.append(("check", str(policy.relative_to(ROOT)), *files, "-f", fmt))
    tenants = ("samples/queues/tenants.yaml", "samples/workloads/tenants.yaml")
    out.append(("explain", *tenants, "a1-p8", "low-p3", "-f", "json"))
    for conf in VOLCANO:
        name = str(conf.relative_to(ROOT))
        out += [("volcano", "validate", name, "-f", "json"), ("volcano", "simulate", name, "-f", "json")]
        out.append(("volcano", "simulate", name, "--proposal", "-f", "json"))
    out += [("rules", "-f", "json"), ("rules", "--group", "volcano", "-f", "json")]
    return out


@pytest.mark.parametrize("args", _commands(), ids=" ".join)
def test_every_sample_report_is_the_same_with_orjson_off(
    run_yk, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...]
) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(jsonout, "orjson", orjson)
    made: list[bool] = []
    fast_path = jsonout._fast

    def counted(value: Any) -> bytes | None:
        out = fast_path(value)
        made.append(out is not None)
        return out

    monkeypatch.setattr(jsonout, "_fast", counted)
    fast = run_yk(*args)
    taken = list(made)
    monkeypatch.setattr(jsonout, "orjson", None)
    slow = run_yk(*args)
    assert (fast.exit_code, fast.stdout, fast.stderr) == (slow.exit_code, slow.stdout, slow.stderr)
    assert fast.stdout.startswith("{"), fast.stdout[:300] + fast.stderr
    if args[:2] != ("priorities", args[1]) and args[:2] != ("volcano", "simulate"):  # those write compact lines
        assert taken and all(taken), taken  # orjson wrote every piece
