"""End-to-end behaviour of `yk validate`: exit codes, positions, stdin, unreadable inputs."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import dedent

CONFIGMAP = dedent(
    """
    apiVersion: v1
    kind: ConfigMap
    metadata:
      name: yunikorn-configs
    data:
      log.level: INFO
      queues.yaml: |
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                maxApplications: 3
    """
)


def test_configmap_positions_are_outer_file_positions(run_yk, tmp_path: Path) -> None:
    path = tmp_path / "cm.yaml"
    path.write_text(CONFIGMAP)
    result = run_yk("validate", str(path), "--format", "json")
    assert result.exit_code == 1
    problem = json.loads(result.stdout)["problems"][0]
    assert problem == {
        "file": str(path),
        "line": 13,
        "column": 13,
        "endLine": 13,
        "endColumn": 28,
        "level": "error",
        "rule": "unknown-field",
        "message": "field maxApplications not found in type configs.QueueConfig",
        "path": "partitions[0].queues[0].maxApplications",
        "hint": "did you mean `maxapplications`? YuniKorn's keys are all lower case and case-sensitive.",
    }


def test_missing_file_is_a_usage_error(run_yk, tmp_path: Path) -> None:
    result = run_yk("validate", str(tmp_path / "nope.yaml"))
    assert result.exit_code == 2
    assert "no such file" in result.stderr


def test_directory_is_a_usage_error(run_yk, tmp_path: Path) -> None:
    result = run_yk("validate", str(tmp_path))
    assert result.exit_code == 2
    assert "is a directory" in result.stderr


def test_stdin(run_yk) -> None:
    result = run_yk(
        "validate",
        "-",
        input="partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: '*'\n",
    )
    assert result.exit_code == 0, result.stdout
    assert result.stdout.endswith("1 file checked: no problems\n")
