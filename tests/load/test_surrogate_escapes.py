"""A lone surrogate escape (`"\\ud800"`) is refused by the YAML reader with its position, as Go's YAML decoders refuse
it, whichever parser reads the text and whichever command reads it; JSON inputs read as Go's encoding/json does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import SAMPLES, run_program
from yk_cli.load import yamlreader
from yk_cli.load.kubernetes import cluster_from_bytes
from yk_cli.load.source import parse_yaml
from yk_cli.load.workload import parse_workload

QUEUES = (
    "partitions:\n"
    "  - name: default\n"
    "    queues:\n"
    "      - name: root\n"
    "        submitacl: '*'\n"
    "        properties:\n"
    '          note: "a\\ud800b"\n'
)
MESSAGE = (
    "YAML syntax error: while scanning a double-quoted scalar found invalid Unicode character escape code \\ud800 "
    "(a surrogate)"
)


@pytest.mark.parametrize("parser", yamlreader.available_parsers())
@pytest.mark.parametrize(
    ("text", "line", "column", "escape"),
    [
        ('a: "x\\ud800y"\n', 1, 6, "\\ud800"),
        ('a: "x\\uDFFF"\n', 1, 6, "\\uDFFF"),
        ('a: "ok \\ud83d\\ude00"\n', 1, 8, "\\ud83d"),  # a pair of \u escapes: yaml.v3 refuses each half
        ('a: "x\\U0000DC00"\n', 1, 6, "\\U0000DC00"),
        ('a:\n  - "first line\n    then \\udabc"\n', 3, 10, "\\udabc"),
        ('{"k\\ud800": 1}\n', 1, 4, "\\ud800"),
    ],
)
def test_the_reader_refuses_a_surrogate_escape_at_its_position(
    parser: str, text: str, line: int, column: int, escape: str
) -> None:
    previous = yamlreader.use_parser(parser)
    try:
        parsed = parse_yaml(text)
    finally:
        yamlreader.use_parser(previous)
    assert [(p.rule, p.message, p.span.line, p.span.column) for p in parsed.problems if p.span] == [
        (
            "yaml-syntax",
            "YAML syntax error: while scanning a double-quoted scalar found invalid Unicode character escape code "
            f"{escape} (a surrogate)",
            line,
            column,
        )
    ]


@pytest.mark.parametrize(
    "text",
    [
        "a: 'x\\ud800'\n",  # single quotes: no escapes, a backslash and letters
        "a: x\\ud800\n",  # plain: the same
        '# "\\ud800"\na: 1\n',  # a comment
        'a: "\\U0001F600 \\u00e9"\n',  # escapes of characters
    ],
)
def test_text_that_only_looks_like_a_surrogate_escape_is_read(text: str) -> None:
    assert parse_yaml(text).problems == []


def test_a_workload_in_json_with_a_surrogate_escape_is_refused_at_its_position() -> None:
    text = '{"nodes": [{"name": "n\\udc00", "resources": {"vcore": 1}}]}'
    loaded = parse_workload(text, "w.json")
    assert [(p.rule, p.span.line if p.span else 0, p.span.column if p.span else 0) for p in loaded.problems] == [
        ("yaml-syntax", 1, 23)
    ]


def test_json_like_go_reads_a_lone_surrogate_as_the_replacement_character() -> None:
    assert yamlreader.loads_like_go('{"user": "al\\ud800ice", "g\\udfff": ["\\ud83d\\ude00"]}') == {
        "user": "al\ufffdice",
        "g\ufffd": ["\U0001f600"],
    }
    assert yamlreader.loads_like_go('["plain"]') == ["plain"]


def _configs(tmp_path: Path) -> Path:
    path = tmp_path / "q.yaml"
    path.write_text(QUEUES, encoding="utf-8")
    return path


@pytest.mark.parametrize("fmt", ["text", "json", "github", "sarif"])
def test_validate_reports_a_surrogate_escape_in_every_format(tmp_path: Path, fmt: str) -> None:
    path = _configs(tmp_path)
    code, out, err = run_program("validate", str(path), "-f", fmt)
    assert (code, err) == (1, "")
    if fmt == "json":
        (problem,) = json.loads(out)["problems"]
        assert (problem["rule"], problem["line"], problem["column"], problem["message"]) == (
            "yaml-syntax",
            7,
            19,
            MESSAGE,
        )
    elif fmt == "text":
        assert out.startswith(f"{path}:7:19: [error] {MESSAGE} (yaml-syntax)\n")
    else:
        assert "ud800" in out


def test_diff_reports_a_surrogate_escape(tmp_path: Path) -> None:
    path = _configs(tmp_path)
    code, out, err = run_program("diff", str(SAMPLES / "queues" / "tenants.yaml"), str(path))
    assert "Traceback" not in err
    assert f"{path}:7:19: [error] {MESSAGE} (yaml-syntax)" in out + err
    assert code in (1, 2)


def test_volcano_validate_reports_a_surrogate_escape(tmp_path: Path) -> None:
    conf = tmp_path / "volcano-scheduler.conf"
    conf.write_text('actions: "enqueue, allocate"\ntiers:\n- plugins:\n  - name: "prio\\ud800rity"\n', encoding="utf-8")
    for fmt in ("text", "json", "github", "sarif"):
        code, out, err = run_program("volcano", "validate", str(conf), "-f", fmt)
        assert (code, "Traceback" in err) == (1, False), err
        assert "ud800" in out


def test_a_dump_user_info_with_a_lone_surrogate_reads_as_go_does(tmp_path: Path) -> None:
    sample = (SAMPLES / "cluster" / "invalid" / "cluster-user-info.yaml").read_text(encoding="utf-8")
    bad = "yunikorn.apache.org/user.info: \"{'user': 'alice', 'groups': ['team-a']}\""
    assert bad in sample
    dump = tmp_path / "dump.yaml"
    dump.write_text(
        sample.replace(bad, 'yunikorn.apache.org/user.info: \'{"user": "al\\ud800ice", "groups": ["team-a"]}\''),
        encoding="utf-8",
    )
    workload, _, problems = cluster_from_bytes(dump.read_bytes(), str(dump))
    assert problems == []
    assert [(app.user, app.groups) for app in workload.applications] == [("al\ufffdice", ("team-a",))]
    code, _out, err = run_program("simulate", "--cluster", str(dump), "-f", "json")
    assert (code, err) == (0, "")


def test_a_json_dump_with_a_surrogate_escape_is_refused_at_its_position(tmp_path: Path) -> None:
    dump = tmp_path / "dump.json"
    dump.write_text(
        '{"apiVersion": "v1", "kind": "List", "items": [{"kind": "Node", "metadata": {"name": "n\\ud800"}}]}'
    )
    code, _out, err = run_program("simulate", "--cluster", str(dump))
    assert code == 1
    assert "Traceback" not in err
    assert f"{dump}:1:88: [error] {MESSAGE} (yaml-syntax)" in err
