"""Malformed inputs: a clear problem or message and exit 1 or 2, never a traceback."""

from __future__ import annotations

import itertools
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
    assert data["problems"][0]["message"] == "aliases add more than 2,000,000 nodes to this document (a YAML bomb?)"


def test_recursive_alias(run_yk, tmp_path: Path) -> None:
    path = tmp_path / "loop.yaml"
    path.write_text("partitions: &p [*p]\n")
    code, data = validate_json(run_yk, path)
    assert code == 1
    assert data["problems"][0]["message"] == "an alias refers to the node that contains it (recursive YAML)"


@pytest.mark.parametrize("depth", [1200, 10000])
def test_deep_nesting_within_yaml_v3s_limit_is_read(run_yk, tmp_path: Path, depth: int) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text("partitions: " + "[" * depth + "]" * depth + "\n")
    code, data = validate_json(run_yk, path)
    assert code == 1
    assert [(p["line"], p["column"], p["message"]) for p in data["problems"]] == [
        (1, 14, "cannot unmarshal !!seq into configs.PartitionConfig")
    ]


@pytest.mark.parametrize("depth", [10001, 30000])
def test_nesting_past_yaml_v3s_limit_is_its_error(run_yk, tmp_path: Path, depth: int) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text("partitions: " + "[" * depth + "]" * depth + "\n")
    code, data = validate_json(run_yk, path)
    assert code == 1
    assert [(p["line"], p["column"], p["message"]) for p in data["problems"]] == [
        (1, 10013, "YAML syntax error: while increasing flow level exceeded max depth of 10000")
    ]


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


# --- bounded cost: size cap, deep queue trees, counts, excerpts -----------------------------------------------------

SMALL = "partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: '*'\n"
SMALL_WITH_LEAF = SMALL + "        queues: [{name: a}]\n"
WORKLOAD = "nodes:\n  - {name: n1, resources: {vcore: 4}}\napplications:\n  - id: a\n    queue: root.a\n    asks:\n"


def big_config(tmp_path: Path, size: int) -> Path:
    """A valid queue config padded with a comment to `size` bytes."""
    path = tmp_path / "big.yaml"
    path.write_text(SMALL_WITH_LEAF + "#" * (size - len(SMALL_WITH_LEAF) - 1) + "\n")
    assert path.stat().st_size == size
    return path


TOO_LARGE = (
    "2,097,153 bytes (2.0 MiB) is more than the 2 MiB yk reads from a queue config; Kubernetes stores at most 1 MiB "
    "in a ConfigMap"
)


def test_a_config_over_the_cap_is_refused_unparsed(run_yk, tmp_path: Path) -> None:
    path = big_config(tmp_path, 2 * 1024 * 1024 + 1)
    code, data = validate_json(run_yk, path)
    assert code == 1
    assert [(p["rule"], p["line"], p["column"], p["message"], p["hint"]) for p in data["problems"]] == [
        (
            "config-too-large",
            1,
            1,
            TOO_LARGE,
            "not parsed. If the file is meant to be this large, raise the limit: --max-size 4MiB.",
        )
    ]


def test_a_config_at_the_cap_is_read(run_yk, tmp_path: Path) -> None:
    code, data = validate_json(run_yk, big_config(tmp_path, 2 * 1024 * 1024))
    assert (code, data["problems"]) == (0, [])


@pytest.mark.parametrize("size", ["3MiB", "3Mi", "4000000", "4MB", "4m"])
def test_max_size_lifts_the_cap(run_yk, tmp_path: Path, size: str) -> None:
    result = run_yk("validate", str(big_config(tmp_path, 3 * 1024 * 1024)), "--max-size", size, "-f", "json")
    assert (result.exit_code, json.loads(result.stdout)["problems"]) == (0, [])


def test_max_size_may_lower_the_cap(run_yk, tmp_path: Path) -> None:
    path = tmp_path / "q.yaml"
    path.write_text(SMALL)
    result = run_yk("validate", str(path), "--max-size", "10", "-f", "json")
    assert result.exit_code == 1
    message = json.loads(result.stdout)["problems"][0]["message"]
    assert message.startswith("84 bytes is more than the 10 bytes yk reads")


@pytest.mark.parametrize("size", ["lots", "0", "-5", "1.5MiB", "3XB"])
def test_a_bad_max_size_is_a_usage_error(run_yk, tmp_path: Path, size: str) -> None:
    path = tmp_path / "q.yaml"
    path.write_text(SMALL)
    result = run_yk("validate", str(path), "--max-size", size)
    assert result.exit_code == 2
    assert (
        result.stderr == f"yk: error: --max-size {size!r} is not a size; give bytes or a unit such as 16MiB or 20MB\n"
    )


def test_standard_input_over_the_cap(run_yk) -> None:
    result = run_yk("validate", "-", "-f", "json", "--max-size", "100", input=SMALL + "#" * 200 + "\n")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["problems"][0]["message"] == (
        "standard input is more than the 100 bytes yk reads from a queue config; Kubernetes stores at most 1 MiB in "
        "a ConfigMap"
    )


@pytest.mark.parametrize(
    "command",
    [["tree"], ["priorities", "WORKLOAD"], ["simulate", "WORKLOAD"], ["explain", "WORKLOAD", "x"]],
    ids=lambda c: c[0],
)
def test_every_command_that_reads_a_config_refuses_one_over_the_cap(run_yk, tmp_path: Path, command: list[str]) -> None:
    path = big_config(tmp_path, 2 * 1024 * 1024 + 1)
    workload = tmp_path / "w.yaml"
    workload.write_text(WORKLOAD + "      - {name: x, resources: {vcore: 1}}\n")
    args = [command[0], str(path), *[str(workload) if a == "WORKLOAD" else a for a in command[1:]]]
    result = run_yk(*args)
    assert result.exit_code == 1
    assert f"{path}:1:1: [error] {TOO_LARGE} (config-too-large)" in result.stderr
    assert "Traceback" not in result.stderr
    assert run_yk(*args, "--max-size", "4MiB").exit_code == 0


def test_a_gzip_bomb_in_binary_data_stops_at_the_cap(run_yk, tmp_path: Path) -> None:
    import base64
    import gzip

    packed = base64.b64encode(gzip.compress((SMALL + "#" * (3 << 20) + "\n").encode())).decode()
    path = tmp_path / "cm.yaml"
    path.write_text(f"kind: ConfigMap\nmetadata: {{name: yunikorn-configs}}\nbinaryData:\n  queues.yaml.gz: {packed}\n")
    code, data = validate_json(run_yk, path)
    assert code == 1
    assert [(p["rule"], p["line"], p["message"]) for p in data["problems"]] == [
        (
            "yaml-syntax",
            4,
            "binaryData queues.yaml.gz unpacks to more than the 2 MiB yk reads from a queue config (--max-size)",
        )
    ]


def test_excerpt_of_a_minified_one_line_config_is_cut_around_the_range(run_yk, tmp_path: Path) -> None:
    names = [f'{{"name": "q{i}"}}' for i in range(5000)]
    queues = ", ".join([*names[:2500], '{"name": "mid", "bogus": 1}', *names[2500:]])
    root = f'{{"name": "root", "submitacl": "*", "queues": [{queues}]}}'
    text = f'{{"partitions": [{{"name": "default", "queues": [{root}]}}]}}'
    path = tmp_path / "min.json"
    path.write_text(text + "\n")
    result = run_yk("validate", str(path))
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    column = text.index('"bogus"') + 1
    assert lines[0].startswith(f"{path}:1:{column}: [error] ")
    assert max(len(line) for line in lines) < 260
    source = text[column - 1 - 40 : column - 1 - 40 + 200]
    assert lines[1] == f"    1 | …{source}…"
    assert lines[2] == "      | " + " " * 41 + "^" * len('"bogus"')


def test_excerpt_of_a_short_line_is_whole(run_yk, tmp_path: Path) -> None:
    path = tmp_path / "q.yaml"
    path.write_text(SMALL.replace("submitacl: '*'", "bogus: 1"))
    lines = run_yk("validate", str(path)).stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if "(unknown-field)" in line)
    assert lines[at + 1 : at + 3] == ["    5 |         bogus: 1", "      |         ^^^^^"]


def deep_tree(levels: int) -> str:
    """A queue config whose tree is `levels` queues deep (root, l1, l2, ...)."""
    lines = ["partitions:", "- name: default", "  queues:"]
    indent = "  "
    for i in range(levels):
        lines.append(f"{indent}- name: {'root' if i == 0 else f'l{i}'}")
        if i == 0:
            lines.append(f"{indent}  submitacl: '*'")
        if i < levels - 1:
            lines.append(f"{indent}  queues:")
        indent += "  "
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("levels", [110, 498])
def test_deep_queue_trees_are_valid_as_in_yunikorn(run_yk, tmp_path: Path, levels: int) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text(deep_tree(levels))
    assert validate_json(run_yk, path) == (0, {"problems": [], "summary": {"files": 1, "errors": 0, "warnings": 0}})
    leaf = "root." + ".".join(f"l{i}" for i in range(1, levels))
    workload = tmp_path / "w.yaml"
    workload.write_text(
        WORKLOAD.replace("queue: root.a", f"queue: {leaf}") + "      - {name: x, resources: {vcore: 1}}\n"
    )
    for args in (["tree", "-f", "json"], ["priorities", str(workload)], ["simulate", str(workload)]):
        result = run_yk(args[0], str(path), *args[1:])
        assert result.exit_code == 0, result.stderr


def flow_tree(levels: int) -> str:
    """deep_tree in flow style: `levels` queues deep on one line, two flow levels per queue."""
    text = "partitions: [{name: default, queues: ["
    for i in range(levels):
        text += "{name: " + ("root, submitacl: '*'" if i == 0 else f"l{i}") + (", queues: [" if i < levels - 1 else "")
    return text + "}" + "]}" * (levels - 1) + "]}]\n"


def test_a_queue_tree_past_the_old_nesting_limit_is_valid(run_yk, tmp_path: Path) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text(flow_tree(1200))
    assert validate_json(run_yk, path) == (0, {"problems": [], "summary": {"files": 1, "errors": 0, "warnings": 0}})


def test_a_queue_tree_past_yaml_v3s_nesting_limit_is_refused(run_yk, tmp_path: Path) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text(flow_tree(5000))  # 2 + 2 x 5000 flow levels: yaml.v3 stops at 10,000
    code, data = validate_json(run_yk, path)
    assert code == 1
    depths = itertools.accumulate({"[": 1, "{": 1, "]": -1, "}": -1}.get(char, 0) for char in path.read_text())
    column = next(i for i, depth in enumerate(depths, start=1) if depth > 10000)  # where the 10,001st bracket opens
    assert [(p["line"], p["column"], p["message"]) for p in data["problems"]] == [
        (1, column, "YAML syntax error: while increasing flow level exceeded max depth of 10000")
    ]


def test_a_huge_count_is_a_workload_problem(run_yk, tmp_path: Path) -> None:
    config = tmp_path / "q.yaml"
    config.write_text(SMALL_WITH_LEAF)
    workload = tmp_path / "w.yaml"
    workload.write_text(WORKLOAD + "      - {name: x, resources: {vcore: 1}, count: 99999999999999}\n")
    result = run_yk("simulate", str(config), str(workload))
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (
        f"{workload}:7:49: [error] `applications[0].asks[0].count` must be at most 1000000, not the number "
        "99999999999999 (workload-wrong-type)"
    )


def test_too_many_asks_in_all_is_a_workload_problem(run_yk, tmp_path: Path) -> None:
    config = tmp_path / "q.yaml"
    config.write_text(SMALL_WITH_LEAF)
    workload = tmp_path / "w.yaml"
    asks = "".join(f"      - {{name: x{i}, resources: {{vcore: 1}}, count: 400000}}\n" for i in range(3))
    workload.write_text(WORKLOAD + asks)
    result = run_yk("simulate", str(config), str(workload))
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (
        f"{workload}:9:50: [error] this count takes the workload past 1,000,000 asks in all, more than yk "
        "simulates (workload-too-many-asks)"
    )


def test_a_workload_over_the_cap_is_refused_and_max_size_raises_the_cap(
    run_yk, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Workloads (and cluster dumps) are read up to 64 MiB, or --max-size when larger (here the cap is made small)."""
    from yk_cli.load import source

    monkeypatch.setattr(source, "MAX_BYTES", 3 * 1024 * 1024)
    config = tmp_path / "q.yaml"
    config.write_text(SMALL_WITH_LEAF)
    workload = tmp_path / "w.yaml"
    entry = "      - {name: x, resources: {vcore: 1}}\n"
    workload.write_text(WORKLOAD + "#" * (3 * 1024 * 1024) + "\n" + entry)
    size = workload.stat().st_size
    refused = run_yk("simulate", str(config), str(workload))
    assert refused.exit_code == 2
    assert refused.stderr.strip() == (
        f"yk: error: {workload}: {size:,} bytes (3.0 MiB) is more than the 3 MiB yk reads from a workload or "
        "cluster dump (--max-size raises it)"
    )
    read = run_yk("simulate", str(config), str(workload), "--max-size", "4MiB", "--summary")
    assert read.exit_code == 0 and "1 allocation" in read.stdout
    piped = run_yk("simulate", str(config), "-", input=workload.read_text())
    assert piped.exit_code == 2
    assert piped.stderr.strip() == (
        "yk: error: <stdin>: standard input is more than the 3 MiB yk reads from a workload or cluster dump "
        "(--max-size raises it)"
    )
