"""yk's own messages name a YAML value in words (`a string `x``, `a mapping`); YuniKorn's verbatim messages keep
yaml.v3's tags (`cannot unmarshal !!str ...`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import dedent, run_program
from yk_cli.load.source import parse_yaml


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{a: 1}", "a mapping"),
        ("[1]", "a list"),
        ("fair", "a string `fair`"),
        ("'3'", "a string `3`"),
        ("-1m", "a string `-1m`"),
        ("3", "a whole number `3`"),
        ("1.5", "a number `1.5`"),
        ("true", "a boolean `true`"),
        ("null", "null"),
        ("~", "an empty value"),
        ("a very long string of text", "a string `a very long strin...`"),
    ],
)
def test_in_words(text: str, words: str) -> None:
    (node,) = parse_yaml(f"{text}\n").documents
    assert node is not None
    assert node.in_words() == words


def test_a_configmap_entry_of_the_wrong_type(tmp_path: Path) -> None:
    path = tmp_path / "cm.yaml"
    path.write_text(
        dedent(
            """
            apiVersion: v1
            kind: ConfigMap
            metadata:
              name: yunikorn-configs
            data:
              queues.yaml: {partitions: []}
            """
        ),
        encoding="utf-8",
    )
    code, out, _ = run_program("validate", str(path))
    assert code == 1
    assert out.startswith(
        f"{path}:6:16: [error] queues.yaml must be a string holding the queue config, found a mapping (wrong-type)\n"
    )


def test_an_object_field_of_the_wrong_type(tmp_path: Path) -> None:
    path = tmp_path / "pod.yaml"
    path.write_text(
        dedent(
            """
            apiVersion: v1
            kind: Pod
            metadata:
              name: p
              namespace: default
              annotations:
                scheduling.k8s.io/group-name: pg
            spec:
              schedulerName: volcano
              containers: {name: c}
            """
        ),
        encoding="utf-8",
    )
    code, out, _ = run_program("volcano", "validate", str(path))
    assert code == 1
    assert f"{path}:10:15: [error] spec.containers must be a list, found a mapping (volcano-invalid-field)\n" in out


def test_yunikorn_verbatim_messages_keep_yaml_tags(tmp_path: Path) -> None:
    path = tmp_path / "q.yaml"
    path.write_text("partitions:\n  - name: default\n    queues: {name: root}\n", encoding="utf-8")
    code, out, _ = run_program("validate", str(path))
    assert code == 1
    assert "cannot unmarshal !!map into []configs.QueueConfig" in out
