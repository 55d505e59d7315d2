"""simulate, explain and priorities say at the top (text and JSON) what the dry run does not model yet."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import ROOT

CONFIG = """partitions:
  - name: default
    limits:
      - {limit: everyone, users: ['*'], maxapplications: 10}
    queues:
      - name: root
        submitacl: '*'
        queues:
          - name: a
            limits:
              - {limit: one app, users: [alice], maxapplications: 1}
          - name: b
            properties:
              application.unschedasks.backoff: "3"
          - name: c
"""
WORKLOAD = """nodes:
  - {name: n1, resources: {vcore: 4}}
applications:
  - id: app1
    queue: root.a
    user: alice
    asks:
      - {name: x, priority: 3, resources: {vcore: 1}}
  - id: app2
    queue: root.b
    asks:
      - {name: z, priority: 1, resources: {vcore: 1}}
"""
@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str]:
    config = tmp_path / "queues.yaml"
    config.write_text(CONFIG)
    workload = tmp_path / "workload.yaml"
    workload.write_text(WORKLOAD)
    return str(config), str(workload)


COMMANDS = {
    "simulate": ("simulate",),
    "priorities": ("priorities",),
    "explain-pair": ("explain", "{c}", "{w}", "x", "z"),
    "explain-pod": ("explain", "{c}", "{w}", "x"),
}


def _args(name: str, config: str, workload: str) -> list[str]:
    if name in ("simulate", "priorities"):
        return [name, config, workload]
    return [a.format(c=config, w=workload) for a in COMMANDS[name]]


@pytest.mark.parametrize("name", list(COMMANDS))
def test_backoff_and_limits_are_no_longer_reported(run_yk, files: tuple[str, str], name: str) -> None:
    """Application backoff (sim/backoff.py) and user limits (sim/ugm.py) are modelled: no notice, text or JSON."""
    result = run_yk(*_args(name, *files), "--format", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["notModelled"] == []
    text = run_yk(*_args(name, *files))
    assert text.exit_code == 0, text.stderr
    assert "Not modelled" not in text.stdout


def test_nothing_unmodelled_is_an_empty_list(run_yk) -> None:
    tenants = ("samples/queues/tenants.yaml", "samples/workloads/tenants.yaml")
    for args in (("simulate", *tenants), ("priorities", *tenants), ("explain", *tenants, "a1-p8")):
        result = run_yk(*args, "--format", "json")
        assert json.loads(result.stdout)["notModelled"] == []
        text = run_yk(*args)
        assert "Not modelled" not in text.stdout


def test_limits_are_no_longer_reported(run_yk, tmp_path: Path) -> None:
    """User and group limits are modelled (sim/ugm.py): a config with limits on every queue has no notice."""
    queues = "".join(
        f"          - name: q{i}\n            limits: [{{users: [bob], maxapplications: 1}}]\n" for i in range(7)
    )
    config = tmp_path / "queues.yaml"
    config.write_text(CONFIG.split("        queues:\n")[0] + "        queues:\n" + queues)
    workload = tmp_path / "workload.yaml"
    workload.write_text("nodes:\n  - {name: n1, resources: {vcore: 4}}\n")
    result = run_yk("simulate", str(config), str(workload), "--format", "json")
    assert json.loads(result.stdout)["notModelled"] == []


def _annotated_dump(tmp_path: Path, annotation: str) -> Path:
    """samples/cluster/dump.yaml with one more annotation on the pod spark-pi-exec-1."""
    dump = (ROOT / "samples/cluster/dump.yaml").read_text()
    marker = "  name: spark-pi-exec-1\n"
    assert marker in dump
    head, tail = dump.split(marker, 1)
    anchor = 'yunikorn.apache.org/user.info: \'{"user":"alice","groups":["team-a","spark-users"]}\'\n'
    indent = tail.split(anchor, 1)[0].rsplit("\n", 1)[1]
    tail = tail.replace(anchor, anchor + indent + annotation + "\n", 1)
    path = tmp_path / "dump.yaml"
    path.write_text(head + marker + tail)
    return path


def test_gang_scheduling_is_modelled(run_yk, tmp_path: Path) -> None:
    """A task-group-name annotation is gang scheduling, which the dry run models: no notice."""
    path = _annotated_dump(tmp_path, "yunikorn.apache.org/task-group-name: executors")
    result = run_yk("simulate", "--cluster", str(path), "--format", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["notModelled"] == []


def test_placeholder_pods_in_a_cluster_dump(run_yk, tmp_path: Path) -> None:
    """Placeholder pods already in a dump (a gang in progress) are what remains of gang scheduling to model."""
    path = _annotated_dump(tmp_path, "internal.yunikorn.apache.org/placeholder: 'true'")
    message = (
        "1 gang placeholder pod already in the dump (team-a/spark-pi-exec-1): the dry run treats them as ordinary "
        "pods (YuniKorn's recovery of a gang in progress is not modelled)"
    )
    result = run_yk("simulate", "--cluster", str(path), "--format", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["notModelled"] == [
        {"feature": "gang-scheduling", "message": message, "queues": [], "pods": ["team-a/spark-pi-exec-1"]}
    ]
    text = run_yk("simulate", "--cluster", str(path)).stdout.splitlines()
    assert text[2:4] == [f"Not modelled: {message}", ""]
    markdown = run_yk("simulate", "--cluster", str(path), "--format", "markdown").stdout.splitlines()
    assert markdown[2:4] == [f"> **Not modelled:** {message}", ""]
