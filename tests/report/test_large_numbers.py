"""Large numbers are printed as written (digits), never as floats such as 1e+20."""

from __future__ import annotations

from pathlib import Path

from yk_cli.core.yamldoc import plain_number, resolve_plain

QUEUES = "partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: '*'\n        queues:\n"
BIG = "100000000000000000000"


def test_plain_number_keeps_whole_numbers() -> None:
    assert resolve_plain(BIG) == ("float", 1e20)
    assert plain_number("float", BIG, 1e20) == 10**20
    assert plain_number("float", "-1_000_000_000_000_000_000_000", -1e21) == -(10**21)
    assert plain_number("float", "1e20", 1e20) == 1e20
    assert plain_number("float", "1.5", 1.5) == 1.5
    assert plain_number("int", "7", 7) == 7


def _run(run_yk, tmp_path: Path, workload: str) -> list[str]:
    config = tmp_path / "queues.yaml"
    config.write_text(QUEUES + "          - name: a\n")
    path = tmp_path / "workload.yaml"
    path.write_text(workload)
    result = run_yk("priorities", str(config), str(path))
    assert result.exit_code == 1
    assert "e+" not in result.stderr
    return [line for line in result.stderr.splitlines() if "[error]" in line]


def test_block_and_flow_quantities(run_yk, tmp_path: Path) -> None:
    workload = (
        f"nodes:\n  - {{name: n1, resources: {{vcore: {BIG}}}}}\n  - name: n2\n    resources:\n      memory: {BIG}\n"
    )
    path = tmp_path / "workload.yaml"
    assert _run(run_yk, tmp_path, workload) == [
        f"{path}:2:35: [error] vcore: '{BIG}' is not a YuniKorn quantity (invalid quantity: overflow) "
        "(workload-bad-quantity)",
        f"{path}:5:15: [error] memory: '{BIG}' is not a YuniKorn quantity (invalid quantity: overflow) "
        "(workload-bad-quantity)",
    ]


def test_priority(run_yk, tmp_path: Path) -> None:
    workload = (
        "nodes:\n  - {name: n1, resources: {vcore: 4}}\napplications:\n  - id: app\n    queue: root.a\n    asks:\n"
        f"      - {{name: x, priority: {BIG}, resources: {{vcore: 1}}}}\n"
        f"      - name: y\n        priority: {BIG}\n        resources: {{vcore: 1}}\n"
    )
    path = tmp_path / "workload.yaml"
    assert _run(run_yk, tmp_path, workload) == [
        f"{path}:7:29: [error] `applications[0].asks[0].priority` must be at most 2147483647, not the number {BIG} "
        "(workload-wrong-type)",
        f"{path}:9:19: [error] `applications[0].asks[1].priority` must be at most 2147483647, not the number {BIG} "
        "(workload-wrong-type)",
    ]


def test_config_offset_and_quantity(run_yk, tmp_path: Path) -> None:
    config = tmp_path / "queues.yaml"
    config.write_text(
        QUEUES + f"          - name: a\n            resources: {{max: {{vcore: {BIG}}}}}\n"
        f"            properties: {{priority.offset: {BIG}}}\n"
    )
    result = run_yk("validate", str(config))
    assert result.exit_code == 1
    assert [line for line in result.stdout.splitlines() if line.startswith(str(config))] == [
        f"{config}:8:38: [error] invalid quantity: overflow (invalid-quantity)",
        f'{config}:9:43: [warning] priority.offset "{BIG}" is outside the int32 range (-2147483648..2147483647): '
        "YuniKorn uses 0 (invalid-property-value)",
    ]
