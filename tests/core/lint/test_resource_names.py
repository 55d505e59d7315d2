"""Misspelt resource names (issue 22, item 7): resource-name-typo in configs, workload-resource-name-typo in workloads
and dumps, with did-you-mean; never a false alarm on the bundled samples and real-world configs."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import REALWORLD, ROOT
from yk_cli.core.lint.resource_names import WELL_KNOWN, resource_typo
from yk_cli.load.config import load_config
from yk_cli.load.kubernetes import cluster_from_bytes

RULES = {"resource-name-typo", "workload-resource-name-typo"}


@pytest.mark.parametrize(
    ("name", "known", "meant"),
    [
        ("vcpu", WELL_KNOWN, "vcore"),
        ("cpu", WELL_KNOWN, "vcore"),
        ("CPU", WELL_KNOWN, "vcore"),
        ("mem", WELL_KNOWN, "memory"),
        ("memroy", WELL_KNOWN, "memory"),
        ("Memory", WELL_KNOWN, "memory"),
        ("pod", WELL_KNOWN, "pods"),
        ("gpu", WELL_KNOWN, "nvidia.com/gpu"),
        ("nvidia.com/gpus", WELL_KNOWN, "nvidia.com/gpu"),
        ("ephemeral_storage", WELL_KNOWN, "ephemeral-storage"),
        ("example.com/fpga", (*WELL_KNOWN, "example.com/fpgas"), "example.com/fpgas"),
        # not typos: known names, other extended resources, other sizes of one family
        ("vcore", WELL_KNOWN, None),
        ("nvidia.com/gpu", WELL_KNOWN, None),
        ("example.com/foo", WELL_KNOWN, None),
        ("hugepages-32Mi", (*WELL_KNOWN, "hugepages-2Mi"), None),
        ("amd.com/gpu", ("nvidia.com/gpu",), None),
        ("gpu", ("vcore", "memory"), None),  # an alias only suggests what is known
    ],
)
def test_resource_typo(name: str, known: tuple[str, ...], meant: str | None) -> None:
    assert resource_typo(name, known) == meant


def test_the_config_sample_warns_at_the_misspelt_keys(run_yk) -> None:
    result = run_yk("validate", "samples/queues/invalid/resource-name-typo.yaml", "--format", "text")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == (
        "samples/queues/invalid/resource-name-typo.yaml:14:17: [warning] resource `vcpu` in the max of root.batch is "
        "not a resource the Kubernetes shim reports: it applies to nothing (did you mean `vcore`?) (resource-name-typo)"
    )
    assert "17:17: [warning] resource `cpu` in the guaranteed of root.batch" in result.stdout
    assert result.stdout.rstrip().endswith("1 file checked: 0 errors, 2 warnings")
    assert run_yk("validate", "--strict", "samples/queues/invalid/resource-name-typo.yaml").exit_code == 1


def test_limits_and_child_templates_are_checked() -> None:
    text = (
        "partitions:\n  - name: default\n    limits:\n      - {limit: p, users: ['*'], maxresources: {vcores: 8}}\n"
        "    queues:\n      - name: root\n        submitacl: '*'\n        queues:\n          - name: tenants\n"
        "            parent: true\n            childtemplate:\n              resources: {max: {Memory: 1Gi}}\n"
    )
    found = [(p.rule, p.span.line, p.span.column) for p in load_config("-", stdin=text.encode()).problems if p.span]
    assert ("resource-name-typo", 4, 49) in found
    assert ("resource-name-typo", 12, 33) in found


def test_a_dump_warns_by_pod_name(run_yk, tmp_path: Path) -> None:
    text = (ROOT / "samples/cluster/dump.yaml").read_text()
    assert "nvidia.com/gpu: " in text
    dump = tmp_path / "dump.yaml"
    dump.write_text(
        text.replace("nvidia.com/gpu: ", "nvidia.com/gpus: ").replace("nvidia.com/gpus: ", "nvidia.com/gpu: ", 1)
    )
    result = run_yk("validate", "--cluster", str(dump), "--format", "text")
    lines = [line for line in result.stdout.splitlines() if "workload-resource-name-typo" in line]
    assert lines and all("(did you mean `nvidia.com/gpu`?)" in line for line in lines), result.stdout


TRUE_POSITIVES = {
    "055-core-reference-queues.yaml": "(did you mean `nvidia.com/gpu`?)",
    "069-core-webservice-limit-zero-cpu.yaml": "(did you mean `vcore`?)",
    "075-doe-gang-doc-cpu-cm.yaml": "(did you mean `vcore`?)",
}
"""Real-world configs that write `cpu` where YuniKorn reads vcore (SOURCES.md: "resources given as cpu instead of
vcore"), or `gpu` (the core's reference config): with the Kubernetes shim those limits and guarantees apply to
nothing."""


def test_real_world_configs_that_write_cpu_are_caught_and_nothing_else_is() -> None:
    configs = [*ROOT.glob("samples/queues/*.yaml"), *REALWORLD.rglob("*.yaml")]
    assert len(configs) > 10
    flagged = {}
    for path in configs:
        found = [p for p in load_config(str(path)).problems if p.rule in RULES]
        if found:
            flagged[path.name] = TRUE_POSITIVES.get(path.name, "?")
            assert all(flagged[path.name] in p.message for p in found), path
    assert flagged == TRUE_POSITIVES


def test_no_bundled_dump_is_a_false_alarm() -> None:
    for path in ROOT.glob("samples/cluster/*.yaml"):
        _, _, problems = cluster_from_bytes(path.read_bytes(), str(path))
        assert not [p for p in problems if p.rule in RULES], path
