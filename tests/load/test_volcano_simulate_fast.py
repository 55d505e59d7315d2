"""load/volcano_fast.py reads `-o json` dumps into exactly the cluster load_volcano builds, and gives up otherwise."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from tests.helpers import paths
from tests.helpers.paths import ROOT
from tests.helpers.volcano import as_json
from yk_cli.core.diagnostics import Level
from yk_cli.load.volcano import load_volcano
from yk_cli.load.volcano_check import lint_inputs
from yk_cli.load.volcano_fast import load_volcano_fast

DUMPS = sorted((paths.DATA / "volcano" / "cases").rglob("objects.yaml")) + sorted(
    (ROOT / "samples" / "volcano").glob("*.yaml")
)






@pytest.mark.parametrize("path", DUMPS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_same_cluster_as_the_full_loader(path: Path, tmp_path: Path) -> None:
    json_file = str(as_json(path, tmp_path))
    fast = load_volcano_fast([json_file])
    assert fast is not None
    slow = load_volcano([str(path)])
    assert slow.problems == []
    # the lints' warnings, without a position (simulate only counts them): the same as yk volcano validate's
    assert all(p.file == json_file and p.span is None and p.level == Level.WARNING for p in fast.problems)
    assert sorted((p.rule, p.message) for p in fast.problems) == sorted((p.rule, p.message) for p in lint_inputs(slow))
    assert fast.cluster == slow.cluster
    assert replace(fast.conf.effective, origin="") == replace(slow.conf.effective, origin="")
    assert fast.conf_source.replace(json_file, str(path)) == slow.conf_source


def test_gives_up_where_the_full_loader_must_report(tmp_path: Path) -> None:
    assert load_volcano_fast([str(DUMPS[0])]) is None  # YAML
    assert load_volcano_fast([str(tmp_path)]) is None  # a directory
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"},
                               "status": {"allocatable": {"cpu": "lots"}}}))
    assert load_volcano_fast([str(bad)]) is None
    cm = tmp_path / "cm.json"
    cm.write_text(json.dumps({"apiVersion": "v1", "kind": "ConfigMap",
                              "metadata": {"name": "volcano-scheduler-configmap"},
                              "data": {"volcano-scheduler.conf": "actions: allocate"}}))
    loaded = load_volcano_fast([str(cm)])
    assert loaded is not None and loaded.conf.effective.actions == ("allocate",)
    assert loaded.conf_source == f'{cm} (ConfigMap volcano-scheduler-configmap, data["volcano-scheduler.conf"])'
    cm.write_text(cm.read_text().replace("actions: allocate", "actions: alocate"))
    assert load_volcano_fast([str(cm)]) is None, "a conf problem needs the full loader's positions"
    twice = tmp_path / "twice.json"
    node = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}}
    twice.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": [node, node]}))
    assert load_volcano_fast([str(twice)]) is None


def test_cli_gives_the_same_output_for_yaml_and_json(run_yk, tmp_path: Path) -> None:
    path = ROOT / "samples" / "volcano" / "seed-example.yaml"
    from_yaml = run_yk("volcano", "simulate", str(path), "--format", "json").stdout
    from_json = run_yk("volcano", "simulate", str(as_json(path, tmp_path)), "--format", "json").stdout
    assert from_yaml == from_json
