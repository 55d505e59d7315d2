"""The JSON path of load.yamlreader.read_plain: a JSON text read by the json module gives exactly what the YAML
reader gives for it (values, and through parse_workload the same problems at the same file:line:col), and every
text on which the two could differ is left to the YAML reader."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import DATA, ROOT, SAMPLES
from tests.load.corpus import CORPUS
from yk_cli.load import yamlreader
from yk_cli.load.source import MAX_DEPTH, collector_paused
from yk_cli.load.workload import _full_parse, parse_workload
from yk_cli.load.yamlreader import _NOT_JSON, _json_plain, read_plain


def yaml_reader(text: str) -> tuple[str, list[tuple[str, str, Any]]]:
    """The YAML reader's plain data (as JSON text, so that 1, 1.0 and True differ) and problems, the JSON path off."""
    previous = yamlreader.use_json(False)
    try:
        ok, data = read_plain(text)
        if ok:
            return json.dumps(data), []
        document = _full_parse(text)
        return json.dumps(document.data), [(p.rule, p.message, p.span) for p in document.problems]
    finally:
        yamlreader.use_json(previous)


def agrees(text: str) -> bool:
    """Assert that the JSON path, when it reads the text, gives the YAML reader's data, and that it leaves alone
    every text the YAML reader finds a problem in; True when the JSON path read it."""
    data = _json_plain(text) if yamlreader._c_parser_for(text) else _NOT_JSON  # as read_plain takes it
    if data is _NOT_JSON:
        return False
    expected, problems = yaml_reader(text)
    assert problems == [], text
    assert json.dumps(data) == expected, text
    assert read_plain(text) == (True, data)
    return True


def workload_outcome(text: str, name: str = "w.json") -> tuple[Any, list[str]]:
    loaded = parse_workload(text, name)
    return loaded.workload, [f"{p.file}:{p.span}: {p.level} {p.rule}: {p.message} ({p.hint})" for p in loaded.problems]


def as_json_texts(data: Any) -> list[str]:
    """Ways JSON writers put the same data: indented, compact, minified, ASCII-only."""
    return [
        json.dumps(data, indent=2),
        json.dumps(data),
        json.dumps(data, separators=(",", ":")),
        json.dumps(data, indent=4, ensure_ascii=False),
    ]


def plain_corpus() -> list[tuple[str, Any]]:
    """(name, plain data) of every text of the YAML reader's corpus that reads without problems to a collection."""
    out = []
    for name, text in CORPUS:
        ok, data = read_plain(text)
        if ok and isinstance(data, dict | list) and not _has_nan(data):
            out.append((name, data))
    return out


def _has_nan(value: Any) -> bool:
    if isinstance(value, float):
        return math.isnan(value) or math.isinf(value)
    if isinstance(value, dict):
        return any(_has_nan(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_nan(v) for v in value)
    return False


PLAIN = plain_corpus()


def test_the_corpus_is_at_hand() -> None:
    assert len(PLAIN) > 100


@pytest.mark.parametrize(("name", "data"), PLAIN, ids=[name for name, _ in PLAIN])
def test_corpus_rewritten_as_json(name: str, data: Any) -> None:
    for text in as_json_texts(data):
        assert agrees(text), f"{name}: the JSON path left a plain JSON text to the YAML reader"


WORKLOADS = sorted(
    [*SAMPLES.rglob("workload*.yaml"), *(DATA / "oracle-gang").glob("*/workload.yaml")],
    key=lambda p: str(p),
)


@pytest.mark.parametrize("path", WORKLOADS, ids=[str(p.relative_to(ROOT)) for p in WORKLOADS])
def test_workloads_rewritten_as_json_give_the_same_workload_and_problems(path: Path) -> None:
    ok, data = read_plain(path.read_text())
    if not ok:
        pytest.skip("not plain data (anchors or a syntax error): no JSON to write")
    for text in as_json_texts(data):
        fast = workload_outcome(text)
        previous = yamlreader.use_json(False)
        try:
            slow = workload_outcome(text)
        finally:
            yamlreader.use_json(previous)
        assert fast == slow


def test_invalid_workload_problems_point_into_the_json_file() -> None:
    text = '{\n  "nodes": [\n    {"name": "n1", "resources": {"vcore": "2x"}}\n  ],\n  "applications": []\n}\n'
    assert _json_plain(text) is not _NOT_JSON
    _, problems = workload_outcome(text, "w.json")
    assert problems == [
        "w.json:Span(line=3, column=43, end_line=3, end_column=47): error workload-bad-quantity: "
        "vcore: '2x' is not a YuniKorn quantity (invalid quantity) (a whole number with an optional suffix: "
        "vcore 2 or 500m, memory 1Gi or 512M; no decimals, no sign.)"
    ]


TRICKY = [
    '{"a": 1, "a": 2}',  # yaml.v3 refuses a repeated key
    '{"a": {"b": 1, "b": 1}}',
    '[{"x": 1}, {"x": 1, "x": 2}]',
    '{"a": "x:y", "a": "z"}',  # a repeated key beside a colon in a string: as many colons as json's members
    '{"a": "x:y", "b": {"c": ":", "d": "::"}}',  # colons in strings, no repeated key
    '{"a": [{"' + "k" * 151 + '": 1}]}',  # one character past the JSON path's longest key, deep inside
    '{"a": NaN}',  # json's extensions: strings in YAML
    '{"a": Infinity}',
    '{"a": -Infinity}',
    '{"a": 123456789012345678901234567890}',
    '{"a": -9223372036854775809, "b": 1e400, "c": -0.0, "d": 1E5, "e": 0.1}',
    '{"a": "x\\/y", "b": "\\b\\f\\n\\r\\t\\"\\\\", "c": "\\u00e9\\u0000\\u001f"}',
    '{"a": "\\ud83d\\ude00"}',  # a surrogate pair: json pairs it, YAML parsers do not
    '{"a": "\\udfff"}',
    '{"é": "日本", "ключ": ["ü"]}',
    '{"a": 1} # a YAML comment after the JSON',
    "# a comment first\n{\"a\": 1}",
    '---\n{"a": 1}',
    '{"a": 1}\n---\n{"b": 2}',
    '{"a"\n: 1}',  # a key on another line than its colon: not a YAML simple key
    '{"a": 1,\n "b"\n\n  : 2}',
    '{"' + "k" * 200 + '": 1}',  # longer than the JSON path reads
    '{"' + "k" * 1100 + '": 1}',  # longer than YAML's simple keys
    "{}",
    "[]",
    "  \n [1, [2, [3, {}]]]\n\n",
    "[" * 500 + "]" * 500,
    "[" * 5000 + "]" * 5000,  # deeper than the json module recurses
    '{"a": true, "b": false, "c": null, "d": "true", "e": "1"}',
    '{"a": [1, 2,]}',  # not JSON (a trailing comma); YAML reads it
    "{'a': 1}",  # not JSON (single quotes); YAML reads it
    '{"a": 01}',  # not JSON
    '{"<<": {"a": 1}, "~": "null"}',
    '{"a":1,"b":[1,2,{"c":"d"}]}',
    '{"a": "x\tb"}',  # a raw tab: json refuses it, and it is left to ruamel.yaml
    '\ufeff{"a": 1}',  # a byte-order mark
    '{"a": 1}\r\n',
    '{"a": "\u2028"}',
    "[1, 2.5, -3, 4e2]",
]


@pytest.mark.parametrize("text", TRICKY)
def test_tricky_inputs_read_alike(text: str) -> None:
    agrees(text)
    fast = workload_outcome(text)
    previous = yamlreader.use_json(False)
    try:
        slow = workload_outcome(text)
    finally:
        yamlreader.use_json(previous)
    assert fast == slow


def test_what_the_json_path_reads_and_leaves() -> None:
    read = [text for text in TRICKY if agrees(text)]
    assert '{"a": 1, "a": 2}' not in read
    assert '{"a": "x:y", "a": "z"}' not in read
    assert '{"a": "x:y", "b": {"c": ":", "d": "::"}}' in read
    assert '{"a": [{"' + "k" * 151 + '": 1}]}' not in read
    assert '{"a": NaN}' not in read
    assert '{"a": "\\ud83d\\ude00"}' not in read
    assert '{"a"\n: 1}' not in read
    assert '{"a": 1} # a YAML comment after the JSON' not in read
    assert "[" * 500 + "]" * 500 in read
    assert '{"a": 123456789012345678901234567890}' in read
    assert read_plain('{"a": 123456789012345678901234567890}') == (True, {"a": 123456789012345678901234567890})
    assert '{"é": "日本", "ключ": ["ü"]}' in read


def test_json_deeper_than_yamls_limit_is_left_to_the_yaml_reader() -> None:
    previous = sys.getrecursionlimit()
    sys.setrecursionlimit(100_000)  # so that the json module reads past 10,000 levels
    try:
        deep = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
        assert json.loads(deep) is not None
        assert _json_plain(deep) is _NOT_JSON
        at_limit = "[" * MAX_DEPTH + "]" * MAX_DEPTH
        assert _json_plain(at_limit) is not _NOT_JSON
    finally:
        sys.setrecursionlimit(previous)


def test_a_repeated_key_is_reported_as_the_yaml_reader_reports_it() -> None:
    _, problems = workload_outcome('{"nodes": [],\n "nodes": []}\n')
    assert problems == [
        'w.json:Span(line=2, column=2, end_line=2, end_column=9): error duplicate-key: mapping key "nodes" already '
        "defined at line 1 (merge the two entries: a repeated key would silently replace the first.)"
    ]


def test_the_json_path_can_be_turned_off_and_on() -> None:
    assert yamlreader.use_json(False) is True
    try:
        assert _json_plain('{"a": 1}') == {"a": 1}  # the function itself still reads
    finally:
        assert yamlreader.use_json(True) is False


JSON_VALUES = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(10**30), max_value=10**30),
        st.floats(allow_nan=False),
        st.text(max_size=8),
        st.sampled_from(["true", "null", "1", "0x10", "~", "-", "a: b", "#", "é", "\\", "\u2028", "\x00"]),
    ),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)),
    max_leaves=20,
)


@settings(max_examples=400)
@given(
    value=st.one_of(st.lists(JSON_VALUES, max_size=4), st.dictionaries(st.text(max_size=6), JSON_VALUES, max_size=4)),
    indent=st.sampled_from([None, 0, 1, 2]),
    ascii_only=st.booleans(),
)
def test_random_json_reads_as_yaml_reads_it(value: Any, indent: int | None, ascii_only: bool) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    with collector_paused():
        agrees(text)


@settings(max_examples=300)
@given(data=st.data())
def test_random_edits_of_json_never_read_otherwise(data: st.DataObject) -> None:
    text = json.dumps(data.draw(JSON_VALUES.filter(lambda v: isinstance(v, dict | list))), indent=1)
    for _ in range(data.draw(st.integers(1, 3))):
        pos = data.draw(st.integers(0, len(text)))
        char = data.draw(st.sampled_from(list(' \n:,"{}[]#-1aeE.\\u')))
        text = text[:pos] + char + text[pos:]
    agrees(text)
