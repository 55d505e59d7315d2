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


def test_a_directory_without_yaml_files_is_a_usage_error(run_yk, tmp_path: Path) -> None:
    result = run_yk("validate", str(tmp_path))
    assert result.exit_code == 2
    assert result.stderr == f"yk: error: {tmp_path}: no *.yaml or *.yml files in this directory\n"
    assert result.stdout == ""


CLEAN = "partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: '*'\n"
BAD = "partitions:\n  - name: default\n    queues:\n      - name: root\n        maxApplications: 3\n"


def test_a_directory_is_searched_for_yaml_files(run_yk, tmp_path: Path) -> None:
    (tmp_path / "teams" / "a").mkdir(parents=True)
    (tmp_path / ".hidden").mkdir()
    (tmp_path / "teams" / "a" / "queues.yml").write_text(BAD, encoding="utf-8")
    (tmp_path / "teams" / "b.yaml").write_text(CLEAN, encoding="utf-8")
    (tmp_path / "teams" / "notes.txt").write_text("not yaml", encoding="utf-8")
    (tmp_path / ".hidden" / "x.yaml").write_text(BAD, encoding="utf-8")
    result = run_yk("validate", "--format", "json", str(tmp_path))
    assert result.exit_code == 1, result.stderr
    files = {p["file"] for p in json.loads(result.stdout)["problems"]}
    assert files == {str(tmp_path / "teams" / "a" / "queues.yml")}
    assert json.loads(result.stdout)["summary"]["files"] == 2


def test_a_missing_file_among_many_is_reported_after_the_others_are_checked(run_yk, tmp_path: Path) -> None:
    good = tmp_path / "good.yaml"
    good.write_text(CLEAN, encoding="utf-8")
    result = run_yk("validate", str(tmp_path / "nope.yaml"), str(good))
    assert result.exit_code == 2
    assert result.stdout.endswith("1 file checked: no problems\n")
    assert result.stderr == f"yk: error: {tmp_path / 'nope.yaml'}: no such file\n"


def test_stdin(run_yk) -> None:
    result = run_yk(
        "validate",
        "-",
        input="partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: '*'\n",
    )
    assert result.exit_code == 0, result.stdout
    assert result.stdout.endswith("1 file checked: no problems\n")
