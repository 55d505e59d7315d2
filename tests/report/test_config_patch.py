"""A config's settings changed in its own text: values set where written (quotes kept), keys added under the
nearest block or flow mapping (JSON quoting kept), the edits' positions, and a diff `patch` applies."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from yk_cli.load.config import load_config
from yk_cli.report.config_patch import ADD, SET, patch, unified_diff

YAML = """\
partitions:
  - name: default
    queues:
      - name: root
        submitacl: '*'
        queues:
          - name: prod
            resources:
              guaranteed: {vcore: 4, memory: 16Gi}
            properties:
              preemption.delay: "30s"
            maxapplications: 5

          - name: batch
"""
PROD = ("partitions", 0, "queues", 0, "queues", 0)
BATCH = ("partitions", 0, "queues", 0, "queues", 1)


def loaded(tmp_path: Path, text: str, name: str = "queues.yaml"):  # type: ignore[no-untyped-def]
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = load_config(str(path))
    return result.text, result.configs[0].source_map


def queues(tmp_path: Path, text: str, name: str = "again.yaml") -> dict[str, object]:
    """Each queue's resources, properties and maxapplications, as yk decodes the text."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = load_config(str(path))
    assert not [p for p in result.problems if p.level.name == "ERROR"], result.problems
    out: dict[str, object] = {}
    stack = list(result.configs[0].config.partitions[0].queues or ())
    while stack:
        q = stack.pop()
        out[q.name] = (q.resources.guaranteed, q.resources.max, q.properties, q.maxapplications)
        stack.extend(q.queues)
    return out


def test_values_are_set_where_written_and_keys_added_where_they_belong(tmp_path: Path) -> None:
    text, source_map = loaded(tmp_path, YAML)
    done = patch(text, source_map, [
        ((*PROD, "resources", "guaranteed", "vcore"), "8"),
        ((*PROD, "resources", "guaranteed", "nvidia.com/gpu"), "2"),
        ((*PROD, "properties", "preemption.delay"), "1m"),
        ((*PROD, "properties", "priority.offset"), "10"),
        ((*PROD, "maxapplications",), "7"),
        ((*BATCH, "resources", "max", "vcore"), "20"),
        ((*PROD, "resources", "max", "memory"), "64Gi"),
    ])
    assert [(e.action, e.line, e.column, e.keys) for e in done.edits] == [
        (SET, 9, 35, ()),
        (ADD, 9, 27, ("nvidia.com/gpu",)),
        (SET, 11, 33, ()),
        (ADD, 11, 15, ("priority.offset",)),
        (SET, 12, 30, ()),
        (ADD, 14, 13, ("resources", "max", "vcore")),
        (ADD, 9, 15, ("max", "memory")),
    ]
    assert done.text is not None
    assert unified_diff(text, done.text, "queues.yaml").replace("\n \n", "\n\n") == """\
--- a/queues.yaml
+++ b/queues.yaml
@@ -6,9 +6,15 @@
         queues:
           - name: prod
             resources:
-              guaranteed: {vcore: 4, memory: 16Gi}
+              guaranteed: {vcore: 8, memory: 16Gi, nvidia.com/gpu: 2}
+              max:
+                memory: 64Gi
             properties:
-              preemption.delay: "30s"
-            maxapplications: 5
+              preemption.delay: "1m"
+              priority.offset: 10
+            maxapplications: 7

           - name: batch
+            resources:
+              max:
+                vcore: 20
"""
    assert queues(tmp_path, done.text) == {
        "root": ({}, {}, {}, 0),
        "prod": ({"vcore": "8", "memory": "16Gi", "nvidia.com/gpu": "2"}, {"memory": "64Gi"},
                 {"preemption.delay": "1m", "priority.offset": "10"}, 7),
        "batch": ({}, {"vcore": "20"}, {}, 0),
    }


def test_json_keeps_its_quoting(tmp_path: Path) -> None:
    config = {"partitions": [{"name": "default", "queues": [{"name": "root", "queues": [
        {"name": "prod", "resources": {"guaranteed": {"vcore": "4"}}}]}]}]}
    text, source_map = loaded(tmp_path, json.dumps(config, indent=1), "queues.json")
    done = patch(text, source_map, [
        ((*PROD, "resources", "guaranteed", "vcore"), "6"),
        ((*PROD, "resources", "guaranteed", "memory"), "8Gi"),
        ((*PROD, "properties", "preemption.delay"), "1m"),
    ])
    assert done.text is not None
    assert json.loads(done.text)["partitions"][0]["queues"][0]["queues"][0] == {
        "name": "prod", "resources": {"guaranteed": {"vcore": "6", "memory": "8Gi"}},
        "properties": {"preemption.delay": "1m"},
    }


def test_a_multi_line_value_is_described_not_edited(tmp_path: Path) -> None:
    folded = YAML.replace('preemption.delay: "30s"', "preemption.delay: >-\n                30s")
    text, source_map = loaded(tmp_path, folded)
    done = patch(text, source_map, [((*PROD, "properties", "preemption.delay"), "1m")])
    assert done.text is None and done.edits[0].reason == "the value spans several lines"


def test_the_diff_applies_with_patch(tmp_path: Path) -> None:
    if shutil.which("patch") is None:
        pytest.skip("no patch(1) on this machine")
    text, source_map = loaded(tmp_path, YAML)
    done = patch(text, source_map, [((*BATCH, "resources", "guaranteed", "vcore"), "3")])
    assert done.text is not None
    (tmp_path / "fix.diff").write_text(unified_diff(text, done.text, "queues.yaml"), encoding="utf-8")
    subprocess.run(["patch", "-p1", "-i", "fix.diff"], cwd=tmp_path, check=True, capture_output=True)
    assert (tmp_path / "queues.yaml").read_text(encoding="utf-8") == done.text
