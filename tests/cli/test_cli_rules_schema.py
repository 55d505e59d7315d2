"""`yk rules`, `yk schema` and the queues.yaml JSON Schema, plus the pre-commit hooks that run `yk validate`."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from ruamel.yaml import YAML

from tests.conftest import REALWORLD, ROOT, SAMPLES
from yk_cli.core.config import model as config_structs
from yk_cli.core.config.decode import ListOf, MapOf, Scalar, Spec, Struct
from yk_cli.core.config.properties import DEFINITIONS
from yk_cli.core.lint.catalogue import all_rules
from yk_cli.core.volcano.rules import volcano_rules
from yk_cli.load.config import load_config

SCHEMA_PATH = ROOT / "schemas" / "queues.schema.json"
SCHEMA = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def load_yaml(text: str) -> Any:
    """The first document of a YAML text as plain Python data (what an editor's schema check sees)."""
    docs = list(YAML(typ="safe", pure=True).load_all(text))
    return docs[0] if docs else None


def validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(SCHEMA, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)


# --- yk rules ------------------------------------------------------------------------------------------------------


def test_rules_text_lists_every_rule_in_order(run_yk) -> None:
    result = run_yk("rules")
    assert result.exit_code == 0
    heads = [line for line in result.stdout.splitlines() if line and not line.startswith((" ", "=="))]
    everything = [*all_rules().values(), *volcano_rules().values()]
    assert heads == [f"{r.id} ({r.level.value})" for r in everything]
    groups = [line for line in result.stdout.splitlines() if line.startswith("==")]
    assert groups == [
        f"== YuniKorn queue configs: yk validate ({len(all_rules())} rules) ==",
        f"== Volcano scheduler conf and objects: yk volcano validate ({len(volcano_rules())} rules) ==",
    ]
    for rule in everything:
        assert rule.summary.split()[0] in result.stdout


def test_rules_text_exact_for_one_rule(run_yk) -> None:
    result = run_yk("rules", "duplicate-key")
    assert result.stdout == (
        "duplicate-key (error)\n"
        "  A mapping repeats a key.\n"
        "\n"
        '    yaml.v3 refuses a mapping in which a key appears twice: `mapping key "x" already defined at line\n'
        "    N`. Merge the two entries.\n"
    )


def test_rules_json(run_yk) -> None:
    result = run_yk("rules", "--format", "json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {
        "rules": [
            {"id": r.id, "group": group, "level": r.level.value, "summary": r.summary, "doc": r.doc}
            for group, rules in (("yunikorn", all_rules()), ("volcano", volcano_rules()))
            for r in rules.values()
        ]
    }


def test_rules_group_selects_one_command(run_yk) -> None:
    result = run_yk("rules", "--group", "volcano", "-f", "json")
    assert [r["id"] for r in json.loads(result.stdout)["rules"]] == list(volcano_rules())
    assert run_yk("rules", "--group", "volcano", "wrong-type").exit_code == 2
    bad = run_yk("rules", "--group", "kueue")
    assert bad.exit_code == 2
    assert "yk: error: unknown group 'kueue'; choose one of yunikorn, volcano" in bad.stderr


def test_rules_selection_keeps_the_order_given(run_yk) -> None:
    result = run_yk("rules", "-f", "json", "wrong-type", "yaml-syntax", "wrong-type")
    assert [r["id"] for r in json.loads(result.stdout)["rules"]] == ["wrong-type", "yaml-syntax"]


def test_rules_usage_errors(run_yk) -> None:
    unknown = run_yk("rules", "no-such-rule")
    assert unknown.exit_code == 2
    assert "yk: error: unknown rule 'no-such-rule'; " in unknown.stderr
    bad_format = run_yk("rules", "--format", "sarif")
    assert bad_format.exit_code == 2
    assert "yk: error: unknown format 'sarif'; choose one of text, json" in bad_format.stderr


# --- yk schema -----------------------------------------------------------------------------------------------------


def test_schema_prints_the_canonical_schema(run_yk) -> None:
    result = run_yk("schema")
    assert result.exit_code == 0
    assert result.stdout == SCHEMA_PATH.read_text(encoding="utf-8")


def test_schema_by_name(run_yk) -> None:
    for path in sorted((ROOT / "yk_cli" / "data").glob("*.schema.json")):
        result = run_yk("schema", path.name.removesuffix(".schema.json"))
        assert result.exit_code == 0
        assert result.stdout == path.read_text(encoding="utf-8")


def test_unknown_schema_is_a_usage_error(run_yk) -> None:
    result = run_yk("schema", "nope")
    assert result.exit_code == 2
    assert "yk: error: unknown schema 'nope'; choose one of queues" in result.stderr


def test_packaged_schemas_are_byte_identical_to_the_canonical_ones() -> None:
    packaged = sorted(p.name for p in (ROOT / "yk_cli" / "data").glob("*.schema.json"))
    assert "queues.schema.json" in packaged
    for name in packaged:
        assert (ROOT / "yk_cli" / "data" / name).read_bytes() == (ROOT / "schemas" / name).read_bytes(), (
            f"schemas/{name} is the source of truth: copy it to yk_cli/data/{name}"
        )


def test_packaged_schema_is_package_data() -> None:
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert "data/*.json" in package_data["yk_cli"]


def test_schema_is_a_valid_2020_12_schema() -> None:
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_schema_describes_everything() -> None:
    def walk(node: dict[str, Any], where: str, named: bool) -> None:
        if named:
            assert node.get("description"), f"{where} has no description"
        for key, child in node.get("properties", {}).items():
            walk(child, f"{where}.{key}", True)
        for key, child in node.get("$defs", {}).items():
            walk(child, f"$defs/{key}", True)
        for key in ("items", "additionalProperties"):
            if isinstance(node.get(key), dict):
                walk(node[key], f"{where}.{key}", False)
        for i, option in enumerate(node.get("anyOf", [])):
            walk(option, f"{where}.anyOf[{i}]", False)

    walk(SCHEMA, "#", True)


def resolve(node: dict[str, Any]) -> dict[str, Any]:
    """Follow a local $ref."""
    while "$ref" in node:
        node = SCHEMA["$defs"][node["$ref"].removeprefix("#/$defs/")]
    return node


def types_of(node: dict[str, Any]) -> set[str]:
    """Every JSON type a (resolved) schema node admits, looking into anyOf."""
    node = resolve(node)
    found: set[str] = set()
    kind = node.get("type")
    if kind is not None:
        found |= {kind} if isinstance(kind, str) else set(kind)
    for option in node.get("anyOf", []):
        found |= types_of(option)
    if "enum" in node:
        found |= {"string" if isinstance(v, str) else "null" if v is None else "boolean" for v in node["enum"]}
    return found


SCALAR_TYPES = {
    "string": {"string", "number", "boolean"},
    "bool": {"boolean"},
    "uint64": {"integer"},
    "float64": {"number"},
}


def check_spec(spec: Spec, node: dict[str, Any], where: str, seen: set[str]) -> None:
    """Assert a schema node has the shape of a config.py spec: same keys, strict structs, same value types."""
    if isinstance(spec, Struct):
        name = spec.go.removeprefix("configs.")
        assert node.get("$ref") == f"#/$defs/{name}", f"{where}: expected a $ref to {name}"
        if name in seen:
            return
        seen.add(name)
        definition = SCHEMA["$defs"][name]
        assert "object" in types_of(definition)
        assert definition["additionalProperties"] is False, f"{name} must refuse unknown keys"
        assert set(definition["properties"]) == set(spec.fields), f"{name}: keys differ from {spec.go}"
        for key, field in spec.fields.items():
            check_spec(field, definition["properties"][key], f"{where}.{key}", seen)
    elif isinstance(spec, ListOf):
        resolved = resolve(node)
        assert "array" in types_of(resolved), where
        check_spec(spec.item, resolved["items"], f"{where}[]", seen)
    elif isinstance(spec, MapOf):
        resolved = resolve(node)
        assert "object" in types_of(resolved), where
        extra = resolved["additionalProperties"]
        assert isinstance(extra, dict), f"{where}: a map takes any key"
        check_spec(spec.value, extra, f"{where}.*", seen)
    else:
        assert isinstance(spec, Scalar)
        want = SCALAR_TYPES[spec.go]
        assert want & types_of(node), f"{where}: {spec.go} not admitted by {types_of(node)}"


def test_schema_mirrors_the_config_structs() -> None:
    root = {"$ref": "#/$defs/SchedulerConfig"}
    SCHEMA["$defs"].setdefault("SchedulerConfig", {**SCHEMA, "description": "top"})
    try:
        seen: set[str] = set()
        check_spec(config_structs.SCHEDULER, root, "", seen)
    finally:
        del SCHEMA["$defs"]["SchedulerConfig"]
    structs = {name for name, value in vars(config_structs).items() if isinstance(value, Struct)}
    assert {getattr(config_structs, s).go.removeprefix("configs.") for s in structs} <= seen | {"SchedulerConfig"}


def test_schema_documents_every_known_property() -> None:
    props = SCHEMA["$defs"]["properties"]
    assert set(props["properties"]) == set(DEFINITIONS)
    for key, definition in DEFINITIONS.items():
        node = props["properties"][key]
        assert node["description"]
        enum = node.get("enum") or next((o["enum"] for o in node.get("anyOf", []) if "enum" in o), None)
        if definition.values:
            assert enum is not None and set(definition.values) <= set(enum), key
    assert props["additionalProperties"]["type"] == ["string", "number", "boolean", "null"]


@pytest.mark.parametrize(
    ("text", "valid"),
    [
        ("partitions: [{name: default, queues: [{name: root}]}]", True),
        ("partitions: [{name: default}]", False),
        ("partitions: [{name: default, queues: [{name: root, maxApplications: 3}]}]", False),
        ("partitions: [{queues: [{name: root, resources: {max: {memory: 4Gi, vcore: 500m}}}]}]", True),
        ("partitions: [{queues: [{name: root, resources: {max: {memory: 0.5G}}}]}]", False),
        ("partitions: [{queues: [{name: a, properties: {application.sort.policy: fair, x: 1}}]}]", True),
        ("partitions: [{queues: [{name: a, properties: {application.sort.policy: FAIR}}]}]", False),
        ("partitions: [{queues: [{name: a, properties: {priority.policy: Fence, priority.offset: -5}}]}]", True),
        ("partitions: [{queues: [{name: a, properties: {preemption.delay: 1h30m}}]}]", True),
        ("partitions: [{queues: [{name: a, properties: {preemption.delay: '45'}}]}]", False),
        ("partitions: [{queues: [{name: a, parent: 'true'}]}]", False),
        ("partitions: [{queues: [{name: a, parent: yes}]}]", True),
        ("partitions: [{queues: [{name: a, maxapplications: -1}]}]", False),
        ("partitions: [{queues: [], nodesortpolicy: {type: Fair}}]", False),
    ],
)
def test_schema_examples(text: str, valid: bool) -> None:
    assert validator().is_valid(load_yaml(text)) is valid


@pytest.mark.parametrize("path", sorted((SAMPLES / "queues").glob("*.yaml")), ids=lambda p: p.name)
def test_valid_samples_match_the_schema(path: Path) -> None:
    data = load_yaml(path.read_text())
    if isinstance(data, dict) and data.get("kind") == "ConfigMap":
        data = load_yaml(data["data"]["queues.yaml"])
    validator().validate(data)


def realworld_plain_configs() -> list[tuple[str, bool]]:
    """(file name, refused) of every real-world file that is a plain queues.yaml (no ConfigMap or data map)."""
    labels = json.loads((REALWORLD / "labels.json").read_text())
    out = []
    for name, label in sorted(labels.items()):
        text = (REALWORLD / "configs" / name).read_text()
        if re.search(r"^kind:\s*ConfigMap|^\s*queues\.yaml:", text, re.M):
            continue
        out.append((name, bool(label["refused"])))
    return out


@pytest.mark.parametrize("name", [n for n, refused in realworld_plain_configs() if not refused])
def test_accepted_realworld_configs_match_the_schema(name: str) -> None:
    validator().validate(load_yaml((REALWORLD / "configs" / name).read_text()))


def decoder_refused() -> list[str]:
    """Real-world plain configs that parse as YAML but that the strict decoder refuses (unknown-field, wrong-type)."""
    out = []
    for name, _ in realworld_plain_configs():
        rules = {p.rule for p in load_config(str(REALWORLD / "configs" / name), check=False).problems}
        if "yaml-syntax" not in rules and rules & {"unknown-field", "wrong-type"}:
            out.append(name)
    return out


@pytest.mark.parametrize("name", decoder_refused())
def test_schema_refuses_what_the_strict_decoder_refuses(name: str) -> None:
    assert not validator().is_valid(load_yaml((REALWORLD / "configs" / name).read_text()))


# --- pre-commit ----------------------------------------------------------------------------------------------------


def hooks() -> dict[str, dict[str, Any]]:
    data = YAML(typ="safe", pure=True).load((ROOT / ".pre-commit-hooks.yaml").read_text())
    return {hook["id"]: hook for hook in data}


def test_pre_commit_hooks_are_declared() -> None:
    found = hooks()
    assert set(found) == {"yk-validate", "yk-validate-configmap"}
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    for hook in found.values():
        assert hook["name"] and hook["description"]
        assert hook["language"] == "python"
        assert hook["types_or"] == ["yaml"]
        assert hook["entry"].split()[0] in scripts
        assert hook["entry"].split()[1] == "validate"
        re.compile(hook["files"])


@pytest.mark.parametrize(
    ("hook", "path", "matches"),
    [
        ("yk-validate", "queues.yaml", True),
        ("yk-validate", "deploy/queues.yml", True),
        ("yk-validate", "deploy/yunikorn-queues.yaml", True),
        ("yk-validate", "values.yaml", False),
        ("yk-validate", "deploy/myqueues.yaml", False),
        ("yk-validate-configmap", "k8s/yunikorn-configs.yaml", True),
        ("yk-validate-configmap", "k8s/scheduler-configmap.yml", True),
        ("yk-validate-configmap", "k8s/yunikorn-cm.yaml", True),
        ("yk-validate-configmap", "k8s/deployment.yaml", False),
    ],
)
def test_pre_commit_file_patterns(hook: str, path: str, matches: bool) -> None:
    assert bool(re.search(hooks()[hook]["files"], path)) is matches


def test_pre_commit_entry_runs(tmp_path: Path) -> None:
    sample = tmp_path / "queues.yaml"
    sample.write_text((SAMPLES / "queues" / "tenants.yaml").read_text())
    bad = tmp_path / "yunikorn-configs.yaml"
    bad.write_text("partitions:\n  - name: default\n    queues:\n      - name: root\n        maxApplications: 1\n")
    env = {k: v for k, v in os.environ.items() if k != "GITHUB_ACTIONS"}
    for hook in hooks().values():
        command = [sys.executable, "-m", "yk_cli", *hook["entry"].split()[1:], *hook.get("args", [])]
        ok = subprocess.run([*command, str(sample)], capture_output=True, text=True, check=False, env=env)
        assert ok.returncode == 0, ok.stdout + ok.stderr
        failed = subprocess.run([*command, str(sample), str(bad)], capture_output=True, text=True, check=False, env=env)
        assert failed.returncode == 1
        assert f"{bad}:5:9: [error] field maxApplications not found" in failed.stdout
