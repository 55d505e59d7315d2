"""Helpers of the CLI tests: line-level mutations of inputs (fuzzing), the simulate report's JSON Schema and a
run that must succeed, a small timed config, a queue tree from text."""

from __future__ import annotations

import json

import jsonschema
from hypothesis import strategies as st

from tests.conftest import ROOT, dedent
from yk_cli.core.config.model import decode_config
from yk_cli.core.config.queues import QueueTree, build_queue_tree
from yk_cli.load.source import parse_yaml

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


SCHEMA_PATH = ROOT / "schemas" / "trace.schema.json"



SCHEMA = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))



def ok(run_yk, *args: str, input: str | None = None) -> str:
    """Run yk; it must succeed with nothing on stderr. Returns stdout."""
    result = run_yk(*args, input=input)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    return result.stdout



def validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(SCHEMA, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)



TIMED_CONFIG = """
partitions:
  - name: default
    queues:
      - name: root
        submitacl: '*'
        queues:
          - name: leaf
"""


def tree_of(yaml_text: str) -> QueueTree:
    """The default partition's tree of an inline queue config."""
    config, problems = decode_config(parse_yaml(dedent(yaml_text)).documents[0])
    assert problems == []
    return build_queue_tree(config.partitions[0])
