"""No silent pass: every document of a config file is a queue config, or yk says what it saw instead."""

from __future__ import annotations

import base64
import gzip
from pathlib import Path

import pytest

from yk_cli.load.config import load_config

EXPECTED = (
    "yk reads a queue config (partitions: ...), a ConfigMap holding queues.yaml, a List of those, "
    "or Helm values with yunikornDefaults"
)
DEFAULT = (
    "YuniKorn uses its built-in default queue config (partition default, root with submitacl '*', "
    "a tag rule on namespace with create: true)"
)
QUEUES = """    partitions:
      - name: default
        queues:
          - name: root
            submitacl: '*'
"""
Found = tuple[str, str, int, int, str]


def problems(tmp_path: Path, text: str) -> list[Found]:
    path = tmp_path / "input.yaml"
    path.write_text(text)
    out = []
    for p in load_config(str(path)).problems:
        assert p.span is not None
        out.append((p.rule, str(p.level), p.span.line, p.span.column, p.message))
    return out


DEPLOYMENT = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
"""
POD = """kind: Pod
apiVersion: v1
metadata: {name: job-1, namespace: batch}
spec:
  containers: [{name: c, image: busybox}]
"""
NAMELESS = """apiVersion: v1
kind: Secret
data: {password: cGFzcw==}
"""


@pytest.mark.parametrize(
    ("text", "line", "what"),
    [
        (DEPLOYMENT, 2, 'a Kubernetes Deployment (apps/v1) "web"'),
        (POD, 1, 'a Kubernetes Pod (v1) "job-1"'),
        (NAMELESS, 2, "a Kubernetes Secret (v1)"),
        ("apiVersion: v1\nspec: {}\n", 1, "a Kubernetes object without kind (v1)"),
        ("kind: Ingress\n", 1, "a Kubernetes Ingress"),
    ],
)
def test_a_kubernetes_object_given_by_mistake_is_an_error(tmp_path: Path, text: str, line: int, what: str) -> None:
    assert problems(tmp_path, text) == [
        (
            "not-a-queue-config",
            "error",
            line,
            1,
            f"{what} is not a queue config: {EXPECTED}; nothing in this file was checked",
        )
    ]


def test_two_objects_are_both_reported(tmp_path: Path) -> None:
    rules = [(p[0], p[2]) for p in problems(tmp_path, DEPLOYMENT + "---\n" + POD)]
    assert rules == [("not-a-queue-config", 2), ("not-a-queue-config", 8)]


def test_object_beside_a_queue_config_is_a_warning(tmp_path: Path) -> None:
    configmap = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: yunikorn-configs}\ndata:\n  queues.yaml: |\n"
    text = configmap + QUEUES.replace("    ", "    ", 1) + "---\n" + DEPLOYMENT
    assert problems(tmp_path, text) == [
        (
            "skipped-document",
            "warning",
            13,
            1,
            f'a Kubernetes Deployment (apps/v1) "web" is not a queue config: yk skipped it ({EXPECTED})',
        )
    ]


def test_list_of_other_objects_is_an_error(tmp_path: Path) -> None:
    text = "apiVersion: v1\nkind: List\nitems:\n  - {kind: Pod, metadata: {name: a}}\n  - {kind: Pod}\n"
    assert problems(tmp_path, text) == [
        (
            "not-a-queue-config",
            "error",
            2,
            1,
            f"a Kubernetes List (2 Pod) holds no queue config: {EXPECTED}; nothing in this file was checked",
        )
    ]


def test_empty_list_is_an_error(tmp_path: Path) -> None:
    assert [p[4] for p in problems(tmp_path, "apiVersion: v1\nkind: List\nitems: []\n")] == [
        f"a Kubernetes List (no items) holds no queue config: {EXPECTED}; nothing in this file was checked"
    ]


def test_objects_in_a_list_beside_its_configmap_are_not_reported(tmp_path: Path) -> None:
    text = (
        "kind: List\nitems:\n  - {kind: Pod, metadata: {name: a}}\n"
        "  - kind: ConfigMap\n    metadata: {name: yunikorn-configs}\n    data:\n      queues.yaml: |\n"
        "        partitions: [{name: default, queues: [{name: root, submitacl: '*'}]}]\n"
    )
    assert problems(tmp_path, text) == []


@pytest.mark.parametrize("name", ["yunikorn-configs", "yunikorn-defaults"])
def test_yunikorn_configmap_without_queues_yaml(tmp_path: Path, name: str) -> None:
    text = f"kind: ConfigMap\nmetadata: {{name: {name}}}\ndata:\n  log.level: INFO\n"
    assert problems(tmp_path, text) == [
        ("no-queue-config", "warning", 3, 1, f"ConfigMap {name} has no queues.yaml key: {DEFAULT}")
    ]


@pytest.mark.parametrize(
    "text",
    [
        "kind: ConfigMap\nmetadata: {name: app-settings}\ndata:\n  log.level: INFO\n",
        "kind: ConfigMap\nmetadata: {name: app-settings}\ndata:\n  config.yaml: |\n    partitions: []\n",
    ],
)
def test_other_configmap_without_queues_yaml_alone(tmp_path: Path, text: str) -> None:
    assert problems(tmp_path, text) == [
        (
            "no-queue-config",
            "warning",
            3,
            1,
            "ConfigMap app-settings has no queues.yaml key: nothing in this file was checked "
            "(YuniKorn reads its queue config from the yunikorn-configs and yunikorn-defaults ConfigMaps)",
        )
    ]


def test_other_configmap_beside_the_queue_config_is_quiet(tmp_path: Path) -> None:
    text = (
        "kind: ConfigMap\nmetadata: {name: app-settings}\ndata: {a: b}\n---\n"
        "kind: ConfigMap\nmetadata: {name: yunikorn-configs}\ndata:\n  queues.yaml: |\n" + QUEUES
    )
    assert problems(tmp_path, text) == []


def test_plain_config_with_kubernetes_keys_is_refused_like_yunikorn(tmp_path: Path) -> None:
    text = "apiVersion: v1\nkind: QueueConfig\nmetadata:\n  name: q\n" + QUEUES.replace("    ", "", 1).replace(
        "\n    ", "\n"
    )
    assert problems(tmp_path, text) == [
        ("unknown-field", "error", 1, 1, "field apiVersion not found in type configs.SchedulerConfig"),
        ("unknown-field", "error", 2, 1, "field kind not found in type configs.SchedulerConfig"),
        ("unknown-field", "error", 3, 1, "field metadata not found in type configs.SchedulerConfig"),
    ]


def test_plain_config_with_kind_only(tmp_path: Path) -> None:
    text = "kind: Queues\npartitions:\n  - name: default\n    queues: [{name: root, submitacl: '*'}]\n"
    path = tmp_path / "input.yaml"
    path.write_text(text)
    [problem] = load_config(str(path)).problems
    assert (problem.rule, problem.span.line if problem.span else 0, problem.message) == (
        "unknown-field",
        1,
        "field kind not found in type configs.SchedulerConfig",
    )
    assert problem.hint == (
        "queues.yaml is not a Kubernetes object: remove apiVersion, kind and metadata, or put the config "
        "in a ConfigMap under `data: queues.yaml: |`."
    )


@pytest.mark.parametrize("text", ["", "# only a comment\n", "---\n", "---\n...\n---\n"])
def test_empty_file_is_a_warning(tmp_path: Path, text: str) -> None:
    assert [(p[0], p[1], p[4]) for p in problems(tmp_path, text)] == [
        ("no-queue-config", "warning", f"the file is empty: {DEFAULT}")
    ]


def test_empty_file_position(tmp_path: Path) -> None:
    assert problems(tmp_path, "")[0][2:4] == (1, 1)


@pytest.mark.parametrize("value", ["''", "|\n", "~"])
def test_empty_queues_yaml_entry(tmp_path: Path, value: str) -> None:
    text = f"kind: ConfigMap\nmetadata: {{name: yunikorn-configs}}\ndata:\n  queues.yaml: {value}\n"
    found = problems(tmp_path, text)
    if value == "~":
        assert [p[0] for p in found] == ["wrong-type"]
        return
    assert found == [
        (
            "no-queue-config",
            "warning",
            4,
            16,
            f'ConfigMap yunikorn-configs, data["queues.yaml"] is empty: {DEFAULT}',
        )
    ]


def test_empty_gzip_entry(tmp_path: Path) -> None:
    blob = base64.b64encode(gzip.compress(b"")).decode()
    text = f"kind: ConfigMap\nmetadata: {{name: yunikorn-configs}}\nbinaryData:\n  queues.yaml.gz: {blob}\n"
    assert [(p[0], p[4]) for p in problems(tmp_path, text)] == [
        ("no-queue-config", f'ConfigMap yunikorn-configs, binaryData["queues.yaml.gz"] is empty: {DEFAULT}')
    ]


def test_empty_document_beside_a_config_is_ignored(tmp_path: Path) -> None:
    assert problems(tmp_path, QUEUES.replace("\n    ", "\n")[4:] + "---\n") == []


def test_helm_values_are_checked(tmp_path: Path) -> None:
    text = (
        "image:\n  tag: 1.7.0\nyunikornDefaults:\n  queues.yaml: |\n    partitions:\n      - name: default\n"
        "        queues:\n          - name: root\n            submitacl: '*'\n"
        "            properties: {priority.offset: x}\n"
    )
    path = tmp_path / "values.yaml"
    path.write_text(text)
    result = load_config(str(path))
    assert [c.origin for c in result.configs] == ['Helm values yunikornDefaults, key "queues.yaml"']
    assert [(p.rule, p.span.line if p.span else 0) for p in result.problems] == [("invalid-property-value", 10)]


def test_helm_values_without_queues_yaml(tmp_path: Path) -> None:
    text = "image:\n  tag: 1.7.0\nyunikornDefaults:\n  service.schedulingInterval: 1s\n"
    assert problems(tmp_path, text) == [
        (
            "no-queue-config",
            "warning",
            3,
            1,
            "Helm values without yunikornDefaults queues.yaml: nothing in this file was checked (the chart's "
            f"yunikorn-defaults ConfigMap gets no queue config; without one in yunikorn-configs, {DEFAULT})",
        )
    ]


def test_cli_deployment_exits_1(run_yk, tmp_path: Path) -> None:
    path = tmp_path / "deploy.yaml"
    path.write_text(DEPLOYMENT)
    result = run_yk("validate", str(path))
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == (
        f'{path}:2:1: [error] a Kubernetes Deployment (apps/v1) "web" is not a queue config: {EXPECTED}; '
        "nothing in this file was checked (not-a-queue-config)"
    )
    assert result.stdout.splitlines()[-1] == "1 file checked: 1 error, 0 warnings"


def test_cli_tree_refuses_a_deployment(run_yk, tmp_path: Path) -> None:
    path = tmp_path / "deploy.yaml"
    path.write_text(DEPLOYMENT)
    result = run_yk("tree", str(path))
    assert result.exit_code == 1
    assert "not-a-queue-config" in result.stderr
