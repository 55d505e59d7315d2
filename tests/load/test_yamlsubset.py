"""load.yamlsubset: every text the subset reader reads, libyaml reads to the same plain data; the texts it declines
go to libyaml; and the shapes generators write are read by it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.load.corpus import CORPUS
from yk_cli.load import yamlreader, yamlsubset
from yk_cli.load.source import collector_paused
from yk_cli.load.workload import parse_workload
from yk_cli.load.yamlreader import _plain_value, read_plain
from yk_cli.load.yamlsubset import read_subset


def libyaml(text: str) -> tuple[bool, Any]:
    """read_plain with the subset reader and the JSON path off: libyaml's events."""
    previous_subset = yamlreader.use_subset(False)
    previous_json = yamlreader.use_json(False)
    try:
        return read_plain(text)
    finally:
        yamlreader.use_subset(previous_subset)
        yamlreader.use_json(previous_json)


def typed(data: Any) -> str:
    """Plain data as text that tells 1, 1.0, True and "1" apart, in the mappings' order."""
    return json.dumps(data)


def agrees(text: str) -> bool:
    """Assert that the subset reader, when it reads the text, gives libyaml's plain data; True when it read it."""
    data = read_subset(text, _plain_value)
    if data is None:
        return False
    ok, expected = libyaml(text)
    assert ok, f"the subset reader read a text libyaml does not read as plain data:\n{text}"
    assert typed(data) == typed(expected), text
    ok, read = read_plain(text)
    assert ok and typed(read) == typed(data)
    return True


GENERATED = """\
partition: default
priorityClasses:
  - {name: batch-low, value: 10, preemptionPolicy: PreemptLowerPriority, allowPreemption: true}
  - {name: standard, value: 100, globalDefault: true}
nodes:
  - {name: node-0001, resources: {vcore: 32, memory: 128Gi, pods: 110}}
  - {name: node-0002, resources: {vcore: 32, memory: 128Gi, pods: 110}, labels: {zone: a}}
applications:
  - id: app-0001
    queue: root.parent-01.leaf-08
    submitTime: -284s
    user: tenant-1-user4
    groups: [tenant-1, data]
    asks:
      - {name: app-0001-0, priorityClass: high, resources: {vcore: 1, memory: 4Gi, pods: 1}, submitTime: -284s}
      - {name: app-0001-1, priority: 0x10, resources: {vcore: 1.5, memory: 1e3}, count: 1_000, duration: ~}
"""

def nested_block(levels: int) -> str:
    """A block mapping this many levels deep, each one space further in."""
    return "a:\n" + "".join(" " * (i + 1) + "b:\n" for i in range(levels))


def nested_flow(levels: int) -> str:
    """A flow sequence this many levels deep."""
    return "a: " + "[" * levels + "]" * levels + "\n"


READ = [
    GENERATED,
    "---\na: 1\n",
    "# a comment first\na: 1\n  # an indented comment\nb:\n\n  c: 2\n",
    "a:\n- 1\n- 2\nb: 3\n",  # a sequence at its key's indent
    "- a: 1\n  b:\n  - x\n  c: 2\n- 3\n",
    "-\n  a: 1\n-\n- b\n",
    "a:\nb: 2\nc:\n",  # nulls
    "a:\n  b:\n    c: 1\n  d: 2\ne: 3\n",
    "-   a: 1\n    b: 2\n",
    "a: 'it''s'\nb: \"x: y, {z} # w\"\nc: ''\nd: \"\"\ne: '1'\n",
    "- 'quoted'\n- \"1\"\n",
    "a: {}\nb: []\nc: [[], {}, [x, [y]], {d: {e: []}}]\n",
    "a: several words  here\nthe key: value\n",
    "a: ~\nb: null\nc: Null\nd: true\ne: False\nf: yes\ng: .inf\nh: -.INF\ni: .nan\nj: 2001-12-14\n",
    "a: 1\nb: -1\nc: +1\nd: 0o17\ne: 0b101\nf: 1.0\ng: 12345678901234567890123\nh: 0.1e-3\ni: 010\n",
    "<<: a\n~: b\nnull: c\n1: d\ntrue: e\n",
    "é: 日本\nключ: [ü, ß]\n",
    "a: -b\nc: --d\ne: -1s\n",
    "a: b?c\nd: e&f\ng: h!i\nj: k*l\nm: n|o\np: q>r\ns: t%u\nv: w@x\ny: z-\n",
    "   a: 1\n   b: 2\n",
    "...: 1\n---: 2\n--: 3\n",
    "a: 1   \nb:    2\n",
    "- [1, 2]\n- {a: b}\n",
    "a: {b: 'x', c: \"1\", d: '', e: \"\", f: 'it''s', g: 'x: y, {z}', h: [' ', \"[\"]}\n",
    "labels: {kubernetes.io/hostname: cp-1, node-role.kubernetes.io/control-plane: '', zone: a}\n",
    nested_block(300),
    nested_flow(300),
    "".join(" " * (2 * i) + "- a:\n" for i in range(200)) + " " * 400 + "- 1\n",
]

DECLINED = [
    "a: 1 # a comment after a value\n",
    "a: &x 1\nb: *x\n",
    "a: !!str 1\n",
    "a: |\n  text\n",
    "a: >\n  text\n",
    "a: multi\n  line\n",
    "a: {b: 1,\n  c: 2}\n",
    "a: [b,\n  c]\n",
    "a: {'b': 1}\n",
    "a: {\"b\": 1}\n",
    "a: ['x'y]\n",
    "a: [y'x']\n",
    "a: ['x' , y]\n",
    "a: {b: 'x'c}\n",
    "a: ['x'[y]]\n",
    "a: [b, ]\n",
    "a: {b: 1, }\n",
    "a: {b}\n",
    "a: [b: c]\n",
    "a: {b:}\n",
    "a: {b: }\n",
    "a: {b:  c}\n",
    "a: { b: c }\n",
    "a: [b ,c]\n",
    "a: 1\na: 2\n",
    "a: {b: 1, b: 2}\n",
    "- {b: 1, b: 2}\n",
    "a: 1\n---\nb: 2\n",
    "a: 1\n...\n",
    "--- a: 1\n",
    "a:\t1\n",
    "a: 1\r\n",
    "a:b\n",
    "a: b: c\n",
    "a: b:c\n",
    "- - a\n",
    "a: b#c\n",
    "%YAML 1.2\n---\na: 1\n",
    "? a\n: b\n",
    "'a': b\n",
    '"a": b\n',
    "k" * 1_001 + ": v\n",
    "a: -\n",
    "a: - b\n",
    "a:\n  b: 1\n c: 2\n",
    "a: 1\n  b: 2\n",
    "- a\nb: c\n",
    "a: b\n- c\n",
    "plain scalar\n",
    "{a: 1}\n",
    "[1, 2]\n",
    "",
    "# only a comment\n",
    "a: \"x\\ty\"\n",
    "a: 'x\n  y'\n",
    "a: [b]c\n",
    "a: {b: c}d\n",
    "a: b, c\n",
    "a: b]\n",
    "a: @b\n",
    "a: `b\n",
    "a: ,b\n",
    "  a: 1\nb: 2\n",
    nested_block(1_200),  # deeper than MAX_NESTING (YAML allows 10,000)
    nested_flow(1_200),
]


@pytest.mark.parametrize("text", READ)
def test_the_subset_is_read_as_libyaml_reads_it(text: str) -> None:
    assert agrees(text), text


@pytest.mark.parametrize("text", DECLINED)
def test_what_the_subset_reader_leaves_to_libyaml(text: str) -> None:
    assert read_subset(text, _plain_value) is None
    previous = yamlreader.use_subset(False)
    try:
        expected = read_plain(text)
    finally:
        yamlreader.use_subset(previous)
    assert read_plain(text) == expected


def test_the_generated_shape_reads_to_this_data() -> None:
    data = read_subset(GENERATED, _plain_value)
    assert data["nodes"][1] == {
        "name": "node-0002",
        "resources": {"vcore": 32, "memory": "128Gi", "pods": 110},
        "labels": {"zone": "a"},
    }
    assert data["applications"][0]["groups"] == ["tenant-1", "data"]
    assert data["applications"][0]["asks"][1] == {
        "name": "app-0001-1",
        "priority": 16,
        "resources": {"vcore": 1.5, "memory": 1000.0},
        "count": 1000,
        "duration": None,
    }


def test_the_corpus_reads_alike() -> None:
    read = [name for name, text in CORPUS if agrees(text)]
    assert len(read) >= 20, read  # the samples' workloads and many configs are in the subset


@pytest.mark.parametrize("text", [GENERATED, READ[3], "a: 1\na: 2\n", "a: {b: 1, b: 2}\n", "a: [1,\n 2]\n"])
def test_workloads_load_alike_with_and_without_the_subset_reader(text: str) -> None:
    def outcome() -> tuple[Any, list[str]]:
        with collector_paused():
            parsed = parse_workload(text, "w.yaml")
        problems = [f"{p.file}:{p.span}: {p.level} {p.rule}: {p.message} ({p.hint})" for p in parsed.problems]
        return parsed.workload, problems

    fast = outcome()
    previous = yamlreader.use_subset(False)
    try:
        assert outcome() == fast
    finally:
        yamlreader.use_subset(previous)


def test_the_subset_reader_can_be_turned_off_and_on() -> None:
    assert yamlreader.use_subset(False) is True
    try:
        assert read_subset("a: 1\n", _plain_value) == {"a": 1}  # the function itself still reads
    finally:
        assert yamlreader.use_subset(True) is False


SCALARS = st.one_of(
    st.sampled_from(
        [
            "1", "-1", "1.0", "1e3", "0x1F", "1_000", ".inf", "true", "False", "yes", "null", "~", "2001-12-14",
            "4Gi", "-284s", "a b", "a  b", "é", "<<", "-", "- a", "a:b", "a: b", "a #b", "a#b", "", "'", '"', "#",
            "&a", "*a", "!a", "|", ">", "?", "? a", "-a", "a,b", "[a]", "{a}", "a]", "%", "@", "`", "\\", "a\\b",
        ]
    ),
    st.text(alphabet="ab-:# ,[]{}'\"\\.1", max_size=5),
)
KEYS = st.one_of(st.sampled_from(["a", "b", "a b", "1", "null", "-a", "a:", "a b:", "k"]), SCALARS)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(KEYS, inner, max_size=3)),
    max_leaves=12,
)


def scalar_text(text: str, quote: int) -> str:
    """A scalar as written: plain, single- or double-quoted."""
    if quote == 1:
        return "'" + text.replace("'", "''") + "'"
    if quote == 2:
        return '"' + text + '"'
    return text


def write(value: Any, draw: Any, indent: int, flow: bool, quotes: bool = True) -> list[str]:
    """YAML lines for a value, in block style (or flow, once chosen), with drawn indents, quotes (unless
    `quotes` is False) and layouts."""
    if isinstance(value, dict | list) and (flow or not value):
        return [flow_text(value, draw, quotes)]
    if isinstance(value, dict):
        lines = []
        for key, inner in value.items():
            head = f"{key}:"
            if isinstance(inner, dict | list) and inner and not draw(st.booleans()):
                step = draw(st.sampled_from([0, 1, 2, 4])) if isinstance(inner, list) else draw(st.sampled_from([1, 2]))
                lines.append(" " * indent + head)
                lines += write(inner, draw, indent + step, False, quotes)
            else:
                lines.append(" " * indent + head + " " + write(inner, draw, 0, True, quotes)[0])
        return lines
    if isinstance(value, list):
        lines = []
        for inner in value:
            if isinstance(inner, dict) and inner and draw(st.booleans()):
                body = write(inner, draw, indent + 2, False, quotes)
                lines.append(" " * indent + "- " + body[0][indent + 2 :])
                lines += body[1:]
            elif isinstance(inner, dict | list) and inner and draw(st.booleans()):
                lines.append(" " * indent + "-")
                lines += write(inner, draw, indent + draw(st.sampled_from([1, 2])), False, quotes)
            else:
                lines.append(" " * indent + "- " + write(inner, draw, 0, True, quotes)[0])
        return lines
    return [scalar_text(value, draw(st.sampled_from([0, 0, 0, 1, 2])) if quotes else 0)]


def flow_text(value: Any, draw: Any, quotes: bool) -> str:
    """A value in flow style."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key}: {flow_text(inner, draw, quotes)}" for key, inner in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(flow_text(inner, draw, quotes) for inner in value) + "]"
    return scalar_text(value, draw(st.sampled_from([0, 0, 0, 1, 2])) if quotes else 0)


@settings(max_examples=600, deadline=None)
@given(data=st.data())
def test_random_documents_read_alike(data: st.DataObject) -> None:
    value = data.draw(st.one_of(st.dictionaries(KEYS, VALUES, min_size=1, max_size=4), st.lists(VALUES, min_size=1)))
    text = "\n".join(write(value, data.draw, data.draw(st.sampled_from([0, 0, 2])), False)) + "\n"
    agrees(text)


@settings(max_examples=600, deadline=None)
@given(data=st.data())
def test_random_edits_never_read_otherwise(data: st.DataObject) -> None:
    lines = GENERATED.splitlines(keepends=True)
    start = data.draw(st.integers(0, len(lines) - 1))
    text = "".join(lines[start : start + data.draw(st.integers(1, 8))])
    for _ in range(data.draw(st.integers(1, 3))):
        pos = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 2))
        char = data.draw(st.sampled_from([*" \n:,'\"{}[]#-&*!|>?%@~1a.", "", "  ", "- ", ": ", "\n  ", "\n- "]))
        text = text[:pos] + char + text[pos + cut :]
    agrees(text)


SAFE = st.text(alphabet="abcxyz019.-_/é", min_size=1, max_size=6).filter(
    lambda s: s[0] not in "-" and yamlreader._plain_value(s) == s
)


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_generator_style_documents_are_read_by_the_subset(data: st.DataObject) -> None:
    value = data.draw(
        st.dictionaries(
            SAFE,
            st.recursive(SAFE, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(SAFE, inner, max_size=3)),
            min_size=1,
            max_size=4,
        )
    )
    text = "\n".join(write(value, data.draw, 0, False, quotes=False)) + "\n"
    assert agrees(text), text


@pytest.mark.parametrize("block, chunk", [(1, 1), (7, 3), (64, 2)])
def test_small_blocks_and_pieces_read_alike(monkeypatch: pytest.MonkeyPatch, block: int, chunk: int) -> None:
    expected = [typed(read_subset(text, _plain_value)) for text in READ]
    monkeypatch.setattr(yamlsubset, "BLOCK", block)
    monkeypatch.setattr(yamlsubset, "CHUNK", chunk)
    assert [typed(read_subset(text, _plain_value)) for text in READ] == expected
    assert all(read_subset(text, _plain_value) is None for text in DECLINED)


@pytest.mark.parametrize("pools", [None, "on"])
def test_yk_generate_writes_workloads_the_subset_reader_reads(pools: str | None) -> None:
    from yk_cli.core.workload.generate import GenerateOptions, generate, parse_node_pools
    from yk_cli.report.generate_yaml import workload_yaml

    node_pools = parse_node_pools(pools) if pools is not None else None
    options = GenerateOptions(
        nodes=20, queues=4, apps=10, asks=200, seed=7, running=0.2, node_pools=node_pools,
        constrained=30.0 if pools else 0.0, spread=10.0 if pools else 0.0,
    )
    text = workload_yaml(generate(options).workload)
    assert agrees(text)  # read by the subset reader (big generated workloads stay on the fast path), as libyaml does
