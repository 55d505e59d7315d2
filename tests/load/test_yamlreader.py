"""The one YAML reader (load.yamlreader) gives exactly ruamel.yaml's composer's nodes, spans and problems, with
libyaml's C parser and with the pure-Python fallback alike; its plain data is the node reader's."""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import ROOT, SAMPLES, dedent
from tests.load.corpus import CORPUS
from tests.load.yaml_reference import parse_yaml_ruamel
from yk_cli.core.diagnostics import Span
from yk_cli.core.yamldoc import Node
from yk_cli.load import yamlreader
from yk_cli.load.source import MAX_DEPTH, MAX_EXPANDED_NODES, collector_paused, parse_yaml


def _benchmark_module() -> Any:
    spec = importlib.util.spec_from_file_location("yk_benchmark_validate", ROOT / "benchmarks" / "validate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


generate = _benchmark_module().generate


def identity(start: tuple[int, int], end: tuple[int, int]) -> Any:
    from yk_cli.core.diagnostics import Span

    line, column, end_line, end_column = start[0] + 1, start[1] + 1, end[0] + 1, end[1] + 1
    if (end_line, end_column) <= (line, column):
        end_line, end_column = line, column + 1
    return Span(line, column, end_line, end_column)


def tree(node: Node) -> tuple:
    """Everything the rest of yk reads from a node, recursively."""
    return (
        node.kind,
        node.tag,
        node.text,
        repr(node.value),
        node.style,
        node.span,
        tuple(tree(item) for item in node.items),
        tuple((tree(k), tree(v)) for k, v in node.pairs),
    )


def outcome(parsed: Any) -> tuple:
    """Documents (as trees) and problems of a parse."""
    return [tree(doc) for doc in parsed.documents], parsed.problems


PARSERS = yamlreader.available_parsers()
"""Every event source installed: libyaml through PyYAML's binding, the pure-Python fallback."""


def agrees(text: str) -> bool:
    """Assert the reader (with each event source: libyaml through PyYAML's binding, the pure-Python fallback) gives
    ruamel.yaml's composer's nodes, spans and problems, and that its plain data is the node reader's; True when the
    text has no problem."""
    expected = outcome(parse_yaml_ruamel(text))
    assert outcome(parse_yaml(text)) == expected, text
    plain = [plain_of(text)]
    for name in PARSERS[1:]:
        previous = yamlreader.use_parser(name)
        try:
            assert outcome(parse_yaml(text)) == expected, f"{name}: {text}"
            if name != "pure":  # which gives no plain data (the node reader's is used then)
                plain.append(plain_of(text))
        finally:
            yamlreader.use_parser(previous)
    assert all(found == plain[0] for found in plain), text
    return not expected[1]


def plain_of(text: str) -> tuple[bool, str]:
    """read_plain's answer, checked against the node reader's plain data when it gives one (as JSON, so that 1 and
    True and 1.0 differ)."""
    ok, data = yamlreader.read_plain(text)
    if ok:
        assert json.dumps(data) == json.dumps(node_plain(text)), text
    return ok, json.dumps(data)


def node_plain(text: str) -> Any:
    from yk_cli.load.workload import _full_parse

    document = _full_parse(text)
    assert not document.problems, text
    return document.data








@pytest.mark.parametrize(("name", "text"), CORPUS, ids=[name for name, _ in CORPUS])
def test_corpus_agrees(name: str, text: str) -> None:
    agrees(text)


def test_the_c_parser_is_installed_and_used() -> None:
    """PyYAML is a dependency (pyproject.toml), and its wheels bundle libyaml: one C path and the fallback."""
    assert PARSERS == ["pyyaml", "pure"]
    assert yamlreader.c_parser_available()
    assert yamlreader.parser_in_use() == "pyyaml"


def test_use_parser_refuses_what_is_not_installed() -> None:
    with pytest.raises(ValueError, match="not available"):
        yamlreader.use_parser("libfyaml")


def test_the_fallback_can_be_forced_and_restored() -> None:
    previous = yamlreader.use_c_parser(False)
    try:
        assert not yamlreader.c_parser_available()
        assert yamlreader.read_plain("a: 1\n") == (False, None)  # plain data comes from the node reader then
    finally:
        yamlreader.use_c_parser(previous)
    assert yamlreader.c_parser_available()
    assert yamlreader.read_plain("a: 1\n") == (True, {"a": 1})


def test_plain_data_leaves_a_flow_value_right_after_its_colon_to_the_node_reader() -> None:
    assert yamlreader.read_plain('a: ["x":y]\n') == (False, None)  # ruamel.yaml's parser refuses it
    assert yamlreader.read_plain('a: {"x":y}\n') == (False, None)  # it reads this one; the node reader decides
    assert yamlreader.read_plain('a: ["x": y]\n') == (True, {"a": [{"x": "y"}]})
    assert yamlreader.read_plain('"a": [1]\n') == (True, {"a": [1]})


def test_generated_benchmark_config_agrees() -> None:
    assert agrees(generate(departments=2, teams=2, leaves=3))


CASES = [
    "a: 1\n",
    "a: 1",
    "a: 1\n\n\n",
    "a: 1\n# c\n",
    "a: 1\n# c",
    "a:\n",
    "a:",
    "a:\n  # c\n",
    "---\na: 1\n",
    "--- # x\na: 1\n",
    "- a\n- b\n",
    "a:\n- x\n- y\nb: 1\n",
    "a: 'x'  # c\nb: \"y\"\n",
    "a: {x: 1, y: [1, 2]}\n",
    "a: x y  z   \n",
    "a: -1\n",
    "a:   value with spaces # and a comment\n",
    "a: it''s\nb: 'it''s'\nc: ''\nd: \"\"\n",
    "a: {}\nb: []\nc: { }\nd: [ ]\n",
    "a: [x, 'y', \"z\", {k: v}, [1]]\n",
    "key with spaces: v\n",
    "nvidia.com/gpu: 1\nurl: http://example.com:8080/x\n",
    "a: b#c\n",
    "a: ~\nb: null\nc: true\nd: 0x1F\ne: 1.5\nf: .inf\ng: 2001-01-01\n",
    "a:\n  b:\n    c:\n      - d: 1\n        e: 2\n      -\n        f: 3\n      - g\n",
    "- - a\n",
    "-\n  a: 1\n- \n",
    "- a: 1\n  b:\n  c: 3\n- d\n",
    "a:\n  - b\n  -\nc: 1\n",
    "a: b: c\n",
    "a: - b\n",
    "a:\n  - x\n  y: 1\n",
    "a: 1\n b: 2\n",
    "a: 1\n  b: 2\n",
    "a:\n  b: 1\n c: 2\n",
    "a: [1, 2\n",
    "a: {x: 1,}\n",
    "a: 'unclosed\n",
    'a: "esc\\n"\n',
    "a: plain\n  continued\n",
    "a: &x 1\nb: *x\n",
    "a: !!str 1\n",
    "a: |\n  text\n",
    "a: >\n  text\n",
    "a: 1\n---\nb: 2\n",
    "%YAML 1.2\n---\na: 1\n",
    "a: 1\n...\n",
    "a:\tb\n",
    "a: 1\r\nb: 2\r\n",
    "? a\n: b\n",
    "a: 1\na: 2\n",
    "<<: {a: 1}\n",
    "'quoted key': 1\n",
    "a: [x: 1]\n",
    "a: {x}\n",
    "a: 'x' y\n",
    'a: "x"#c\n',
    "plain scalar\n",
    "a: 1 # c\n# c2\n  # c3\nb: 2\n",
    "a:\n    - x\n    - y\n  \nb: 1\n",
    "a:\n- b:\n  - c\n  d: 1\n",
    "ü: é\nnames: [ä, 日本]\n",
    "a: `x`\n",
    "a: @x\n",
    "a: %x\n",
    "a: ,x\n",
    "a: x,y\n",
    "a: [a b, c]\n",
    "a: {b: c d}\n",
    "a: ---\n",
    "-1: x\n",
    "a: -\n",
    "a: :x\n",
    "a: ?x\n",
    "a: [-1, -x]\n",
    "a: [b, c]  # comment\n",
    "a: [b, c] x\n",
    "a: {b: [c, {d: e}]}\n",
    # a flow value right after its colon: libyaml takes it after any quoted key, ruamel.yaml's parser not in `[`
    'a: ["":_"]\n',
    'a: ["x":y]\n',
    'a: ["x":]\n',
    "a: [[1]:y]\n",
    "a: ['x':y, z]\n",
    'a: {"x":y}\n',
    'a: {"x":{"y":z}}\n',
    "a:\n  b: 1\n\n\n  c: 2\n",
    "",
    "# only a comment\n",
    "---\n",
]


@pytest.mark.parametrize("text", CASES)
def test_cases(text: str) -> None:
    agrees(text)


def test_handles_the_usual_shapes() -> None:
    usual = dedent(
        """
        # a config
        partitions:
          - name: default   # the partition
            placementrules:
              - name: tag
                value: namespace
                create: true
            queues:
            - name: root
              submitacl: "*"
              properties:
                application.sort.policy: fifo
                priority.offset: '10'
              resources:
                guaranteed: {vcore: 1, memory: 1Gi}
                max:
                  vcore: 10
              queues:
                - name: a
                - name: b
                  limits:
                    - limit: x
                      users: [alice, bob]
                      maxapplications: 2
        """
    )
    assert agrees(usual)


# --- nesting: yaml.v3's limits (max_flow_level and max_indents, 10,000 each), counted without recursion -----------


def messages(text: str) -> list[tuple[int, int, str]]:
    """(line, column, message) of the problems, asserting the fallback parser gives the same."""
    found = [(p.span.line, p.span.column, p.message) for p in parse_yaml(text).problems]
    for name in PARSERS[1:]:
        previous = yamlreader.use_parser(name)
        try:
            assert [(p.span.line, p.span.column, p.message) for p in parse_yaml(text).problems] == found, name
        finally:
            yamlreader.use_parser(previous)
    return found


FLOW_ERROR = f"YAML syntax error: while increasing flow level exceeded max depth of {MAX_DEPTH}"
INDENT_ERROR = f"YAML syntax error: while increasing indent level exceeded max depth of {MAX_DEPTH}"


def test_the_limit_is_yaml_v3s() -> None:
    assert MAX_DEPTH == 10_000


def test_flow_nesting_up_to_the_limit_is_read() -> None:
    assert messages("[" * MAX_DEPTH + "]" * MAX_DEPTH) == []
    node = parse_yaml("a: " + "[" * MAX_DEPTH + "x" + "]" * MAX_DEPTH).documents[0].pairs[0][1]
    for _ in range(MAX_DEPTH - 1):
        node = node.items[0]
    assert node.items[0].text == "x"


def test_flow_nesting_past_the_limit_is_yaml_v3s_error() -> None:
    assert messages("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)) == [(1, MAX_DEPTH + 1, FLOW_ERROR)]
    assert messages("a: " + "{b: " * (MAX_DEPTH + 5) + "c" + "}" * (MAX_DEPTH + 5)) == [
        (1, 4 + 4 * MAX_DEPTH, FLOW_ERROR)
    ]


def block(depth: int) -> str:
    """Mappings nested `depth` deep, one column further each (the root at column 0)."""
    return "".join(f"{' ' * i}k{i}:\n" for i in range(depth - 1)) + " " * (depth - 1) + "x: 1\n"


def test_block_nesting_counts_indentation_levels(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yamlreader, "MAX_DEPTH", 50)
    error = INDENT_ERROR.replace(str(MAX_DEPTH), "50")
    assert messages(block(50)) == []
    assert messages(block(51)) == [(51, 51, error)]
    # an indentless sequence (`- ` at its key's column) is no new indentation level, as in yaml.v3
    indentless = "".join(f"{' ' * i}k{i}:\n{' ' * i}- \n" for i in range(49)) + " " * 49 + "x: 1\n"
    assert messages(indentless) == []
    indented = "".join(f"{' ' * (2 * i)}k{i}:\n{' ' * (2 * i + 1)}- \n" for i in range(25)) + " " * 52 + "x: 1\n"
    assert messages(indented) == [(51, 53, error)]
    # flow levels are counted apart from indentation levels
    assert messages(block(49).replace("x: 1", "x: " + "[" * 50 + "]" * 50)) == []
    flow_error = FLOW_ERROR.replace(str(MAX_DEPTH), "50")
    assert messages(block(50).replace("x: 1", "x: [" + "[" * 50 + "]" * 51)) == [(50, 54 + 49, flow_error)]


def test_block_nesting_at_the_real_limit() -> None:
    text = block(MAX_DEPTH)  # about 50 MB: libyaml only (ruamel.yaml's pure-Python parser takes minutes)
    assert [p.message for p in parse_yaml(text).problems] == []
    deeper = text.replace(" " * (MAX_DEPTH - 1) + "x: 1\n", " " * (MAX_DEPTH - 1) + "x:\n" + " " * MAX_DEPTH + "y: 1\n")
    assert [(p.span.line, p.span.column, p.message) for p in parse_yaml(deeper).problems] == [
        (MAX_DEPTH + 1, MAX_DEPTH + 1, INDENT_ERROR)
    ]


# --- the alias guard counts the nodes aliases add, so a large document without aliases is read ------------------------


def problems_of(text: str) -> list[tuple[int, int, str]]:
    return [(p.span.line, p.span.column, p.message) for p in parse_yaml(text).problems]


def test_aliases_may_add_up_to_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yamlreader, "MAX_EXPANDED_NODES", 100)
    ten = "a: &a [" + ", ".join(["x"] * 9) + "]\n"  # the sequence and its 9 items: 10 nodes
    assert problems_of(ten + "b: [" + ", ".join(["*a"] * 10) + "]\n") == []  # 10 aliases add 100 nodes
    assert problems_of(ten + "b: [" + ", ".join(["*a"] * 10) + "]\nc: *a\n") == [
        (1, 1, "aliases add more than 100 nodes to this document (a YAML bomb?)")
    ]
    # an alias to a node holding aliases counts them all: 2 x (1 + 10 x 10) nodes
    nested = ten + "b: &b [" + ", ".join(["*a"] * 9) + "]\nc: [*b]\n"
    assert problems_of(nested) == [(1, 1, "aliases add more than 100 nodes to this document (a YAML bomb?)")]
    assert problems_of("a: [" + ", ".join(["x"] * 500) + "]\nb: &b 1\nc: *b\n") == []  # 503 nodes, 1 by alias


def test_a_document_without_aliases_has_no_size_limit() -> None:
    text = "items:\n" + "- 1\n" * (MAX_EXPANDED_NODES + 1)  # about 8 MB, like a large kubectl dump
    with collector_paused():  # as the commands read (the collector's passes over millions of nodes take long)
        parsed = parse_yaml(text)
    assert parsed.problems == []
    items = parsed.documents[0].pairs[0][1].items
    assert len(items) == MAX_EXPANDED_NODES + 1
    assert (items[-1].value, items[-1].span) == (1, Span(MAX_EXPANDED_NODES + 2, 3, MAX_EXPANDED_NODES + 2, 4))
    with collector_paused():
        ok, data = yamlreader.read_plain(text)
    assert ok and len(data["items"]) == MAX_EXPANDED_NODES + 1


def test_positions_of_embedded_configs_still_map_to_the_outer_file() -> None:
    def shifted(line: int, column: int) -> tuple[int, int]:
        return line + 11, column + 9

    text = "partitions:\n  - name: default\n"
    fast_doc = parse_yaml(text, shifted).documents[0]
    slow_doc = parse_yaml_ruamel(text, shifted).documents[0]
    assert tree(fast_doc) == tree(slow_doc)
    assert fast_doc.span.line == 11


# --- fuzzing: random structures in random styles, and random edits of real configs ----------------------------------

SCALARS = st.one_of(
    st.sampled_from(["x", "a b", "-1", "1.5", "true", "~", "", "null", "0x10", "2Gi", "500m", "a#b", "http://h:1/p"]),
    st.text(alphabet="abc xyz-_./:#'\"", min_size=1, max_size=6),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(["a", "b", "c d", "e.f"]), inner, max_size=3)
    ),
    max_leaves=12,
)


def render(value: object, indent: int, rng: random.Random) -> list[str]:
    """Block YAML for value in randomly chosen but valid styles (flow, quoting, comments, indentless sequences)."""
    pad = " " * indent
    if isinstance(value, dict):
        if not value:
            return [pad + "{}"]
        out = []
        for key, inner in value.items():
            out += _entry(f"{pad}{key}:", inner, indent, rng)
        return out
    if isinstance(value, list):
        if not value:
            return [pad + "[]"]
        out = []
        for inner in value:
            out += _entry(f"{pad}-", inner, indent, rng)
        return out
    return [pad + _scalar(str(value), rng)]


def _entry(head: str, inner: object, indent: int, rng: random.Random) -> list[str]:
    comment = rng.choice(["", "", "  # note"])
    if isinstance(inner, (dict, list)) and inner and rng.random() < 0.7:
        step = rng.choice([2, 4]) if not (isinstance(inner, list) and head.endswith(":") and rng.random() < 0.3) else 0
        lines = [head + comment]
        if rng.random() < 0.2:
            lines.append(" " * (indent + 1) + "# between")
        return lines + render(inner, indent + step, rng)
    return [f"{head} {_flow(inner, rng)}{comment}".rstrip() if inner != "" else head + comment]


def _flow(value: object, rng: random.Random) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v, rng)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v, rng) for v in value) + "]"
    return _scalar(str(value), rng)


def _scalar(text: str, rng: random.Random) -> str:
    style = rng.choice(["plain", "plain", "single", "double"])
    if style == "single":
        return "'" + text.replace("'", "''") + "'"
    if style == "double":
        return '"' + text + '"'
    return text


@settings(max_examples=300)
@given(value=st.dictionaries(st.sampled_from(["a", "b", "c"]), VALUES, min_size=1, max_size=3), seed=st.integers())
def test_random_documents(value: dict[str, object], seed: int) -> None:
    agrees("\n".join(render(value, 0, random.Random(seed))) + "\n")


MUTABLE = [text for _, text in CORPUS if not parse_yaml_ruamel(text).problems][:30]


@settings(max_examples=400)
@given(index=st.integers(0, max(len(MUTABLE) - 1, 0)), data=st.data())
def test_random_edits_of_real_configs(index: int, data: st.DataObject) -> None:
    if not MUTABLE:
        pytest.skip("no corpus")
    text = MUTABLE[index]
    for _ in range(data.draw(st.integers(1, 3))):
        pos = data.draw(st.integers(0, len(text)))
        edit = data.draw(st.sampled_from(["delete", "insert", "replace"]))
        char = data.draw(st.sampled_from(list(" -:#'\"{}[],\n&*|>?x1")))
        if edit == "delete":
            text = text[:pos] + text[pos + 1 :]
        elif edit == "insert":
            text = text[:pos] + char + text[pos:]
        else:
            text = text[:pos] + char + text[pos + 1 :]
    agrees(text)


def test_corpus_file_list_is_not_empty() -> None:
    assert CORPUS, json.dumps([str(p) for p in Path(SAMPLES).rglob("*")])


def test_an_empty_value_before_an_explicit_key_is_placed_as_ruamel_places_it() -> None:
    """Found by test_random_edits_of_real_configs: libyaml puts the empty value of `c:` at the key after `?`,
    ruamel.yaml right after the `?`."""
    agrees('a:\n  b: 1\n  c:\n  ? cpu: "8"\n    e: 1\n  d: 3\n')
    agrees("c:\n?   x\n: 1\n")
