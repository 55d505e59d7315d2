"""Malformed inputs: a clear problem or message and exit 1 or 2, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest


def validate_json(run_yk, path: Path) -> tuple[int, dict]:
    result = run_yk("validate", str(path), "--format", "json")
    return result.exit_code, json.loads(result.stdout) if result.stdout.strip().startswith("{") else {}


def test_empty_file_is_an_empty_config(run_yk, tmp_path: Path) -> None:
    path = tmp_path / "empty.yaml"
    path.write_text("")
    code, data = validate_json(run_yk, path)
    assert code == 0
    assert data["summary"] == {"files": 1, "errors": 0, "warnings": 1}
    assert data["problems"][0]["rule"] == "no-queue-config"


def test_comment_only_file_is_an_empty_config(run_yk, tmp_path: Path) -> None:
    path = tmp_path / "comments.yaml"
    path.write_text("# nothing here yet\n")
    code, _ = validate_json(run_yk, path)
    assert code == 0


def test_binary_file(run_yk, tmp_path: Path) -> None:
    path = tmp_path / "blob.yaml"
    path.write_bytes(b"partitions:\n  - name: \xff\xfe\x00\x01\n")
    code, data = validate_json(run_yk, path)
    assert code == 1
    problem = data["problems"][0]
    assert (problem["rule"], problem["line"], problem["column"]) == ("yaml-syntax", 2, 11)
    assert problem["message"] == "invalid UTF-8 byte 0xff: YuniKorn reads queue configs as UTF-8 text"


def test_nul_byte(run_yk, tmp_path: Path) -> None:
    path = tmp_path / "nul.yaml"
    path.write_bytes(b"partitions: []\n\x00\n")
    code, data = validate_json(run_yk, path)
    assert code == 1
    assert data["problems"][0]["line"] == 2


def test_yaml_bomb_is_bounded(run_yk, tmp_path: Path) -> None:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 10):
        prev, cur = chr(96 + i), chr(97 + i)
        lines.append(f"{cur}: &{cur} [" + ",".join([f"*{prev}"] * 9) + "]")
    path = tmp_path / "bomb.yaml"
    path.write_text("\n".join(lines) + "\n")
    code, data = validate_json(run_yk, path)
    assert code == 1
    assert data["problems"][0]["message"] == "aliases expand this document beyond 2,000,000 nodes (a YAML bomb?)"


def test_recursive_alias(run_yk, tmp_path: Path) -> None:
    path = tmp_path / "loop.yaml"
    path.write_text("partitions: &p [*p]\n")
    code, data = validate_json(run_yk, path)
    assert code == 1
    assert data["problems"][0]["message"] == "an alias refers to the node that contains it (recursive YAML)"


@pytest.mark.parametrize("depth", [300, 5000])
def test_very_deep_nesting(run_yk, tmp_path: Path, depth: int) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text("partitions: " + "[" * depth + "]" * depth + "\n")
    code, data = validate_json(run_yk, path)
    assert code == 1
    assert data["problems"][0]["message"] == "nesting is deeper than 200 levels"


def test_huge_number_for_uint(run_yk, tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    path.write_text(
        "partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: '*'\n"
        "        maxapplications: 123456789012345678901234567890\n"
    )
    code, data = validate_json(run_yk, path)
    assert code == 1
    problem = data["problems"][0]
    assert (problem["rule"], problem["line"], problem["column"]) == ("wrong-type", 6, 26)
    assert problem["message"] == "cannot unmarshal !!float `1234567...` into uint64"


def test_non_string_key(run_yk, tmp_path: Path) -> None:
    path = tmp_path / "key.yaml"
    path.write_text(
        "partitions:\n  - name: default\n    queues:\n      - name: root\n"
        "        submitacl: '*'\n        ? [a, b]\n        : x\n"
    )
    code, data = validate_json(run_yk, path)
    assert code == 1
    assert data["problems"][0]["rule"] == "wrong-type"
    assert data["problems"][0]["message"] == "cannot unmarshal !!seq into string"


def test_document_that_is_a_scalar(run_yk, tmp_path: Path) -> None:
    path = tmp_path / "scalar.yaml"
    path.write_text("just some text\n")
    code, data = validate_json(run_yk, path)
    assert code == 1
    assert data["problems"][0]["message"] == "cannot unmarshal !!str `just so...` into configs.SchedulerConfig"


def test_unreadable_inputs_exit_2_without_traceback(run_yk, tmp_path: Path) -> None:
    for args in ([str(tmp_path / "missing.yaml")], [str(tmp_path)]):
        result = run_yk("validate", *args)
        assert result.exit_code == 2
        assert "Traceback" not in result.stdout + result.stderr


def test_one_bad_file_does_not_hide_the_others(run_yk, tmp_path: Path) -> None:
    good = tmp_path / "good.yaml"
    good.write_text("partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: '*'\n")
    bad = tmp_path / "bad.yaml"
    bad.write_text("partitions:\n\t- name: x\n")
    result = run_yk("validate", str(good), str(bad), "--format", "json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["summary"]["files"] == 2
    assert {p["file"] for p in data["problems"]} == {str(bad)}
