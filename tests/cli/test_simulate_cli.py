"""`yk simulate`: the document's tenant table, --until, --max-steps, --cluster, exit codes, determinism, JSON Schema."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from ruamel.yaml import YAML

from tests.cli.helpers import SCHEMA, SCHEMA_PATH, TIMED_CONFIG, ok, validator
from tests.conftest import ROOT, dedent
from tests.helpers.golden import check_golden
from yk_cli.core.sim import trace as codes
from yk_cli.report.trace_common import STOPPED

pytestmark = pytest.mark.usefixtures("in_root")
"""Run from the checkout, so that reports name files by the short relative names of the goldens."""

DUMP = "samples/cluster/dump.yaml"
FENCED = ("samples/workloads/queues/fenced-teams.yaml", "samples/workloads/fenced-teams.yaml")
CHANGES = "priorityChanges"

# The seed's "App & Queue Priorities" table: step, queue, ask priority, queue priority changes after the step.
SEED_TABLE = [
    (1, "root.system.system-high", 1, ["system-high: 1001 -> n/a", "system: 1001 -> 10"]),
    (2, "root.system.system-normal", 10, ["system-normal: 10 -> 2", "system: 10 -> 2"]),
    (3, "root.system.system-normal", 2, ["system-normal: 2 -> n/a", "system: 2 -> -997"]),
    (4, "root.tenants.tenant-a.child-a-1", 8, ["child-a-1: 8 -> 5"]),
    (5, "root.tenants.tenant-a.child-a-2", 6, ["child-a-2: 6 -> 4"]),
    (6, "root.tenants.tenant-a.child-a-1", 5, ["child-a-1: 5 -> n/a"]),
    (7, "root.tenants.tenant-a.child-a-2", 4, ["child-a-2: 4 -> n/a", "tenant-a: 10 -> n/a"]),
    (8, "root.tenants.tenant-b.child-b-1", 9, ["child-b-1: 9 -> 7"]),
    (9, "root.tenants.tenant-b.child-b-2", 8, ["child-b-2: 8 -> n/a"]),
    (10, "root.tenants.tenant-b.child-b-1", 7, ["child-b-1: 7 -> n/a", "tenant-b: 0 -> n/a", "tenants: 0 -> n/a"]),
    (11, "root.system.system-low", 3, ["system-low: -997 -> n/a", "system: -997 -> n/a"]),
]






def text_table(text: str) -> list[tuple[int, str, int, list[str]]]:
    """(step, queue, ask priority, changes) read back from the text report's step table."""
    lines = text.split("\n\n")[1].splitlines()
    header, rows = lines[0], lines[1:]
    last = header.index("QUEUE PRIORITY CHANGES")
    out: list[tuple[int, str, int, list[str]]] = []
    for line in rows:
        if line[:last].strip():
            step, _time, _event, queue, prio, *_ = line[:last].split()
            out.append((int(step), queue, int(prio.removeprefix("P")), []))
        if line[last:].strip():
            out[-1][3].append(line[last:].strip())
    return out


def json_table(data: dict[str, Any]) -> list[tuple[int, str, int, list[str]]]:
    """(step, queue, ask priority, changes) from the JSON report, changes written the document's way."""

    def show(value: int | None) -> str:
        return "n/a" if value is None else str(value)

    return [
        (
            e["step"],
            e["queuePath"],
            e["priority"],
            [
                f"{c['queuePath'].rsplit('.', 1)[-1]}: {show(c['from'])} -> {show(c['to'])}"
                for c in e["priorityChanges"]
            ],
        )
        for e in data["events"]
    ]


# --- the bundled tenant example ---------------------------------------------------------------------------------


def test_no_arguments_prints_the_documents_table(run_yk) -> None:
    text = ok(run_yk, "simulate")
    assert text_table(text) == SEED_TABLE
    assert "Summary: 11 allocations, 0 completions, 0 reservations, 0 pending; 11 steps in 0s" in text
    assert text.endswith("Pending asks: none\n")
    check_golden("simulate_tenants.txt", text)


def test_no_arguments_json_golden(run_yk) -> None:
    text = ok(run_yk, "simulate", "--format", "json")
    data = json.loads(text)
    assert json_table(data) == SEED_TABLE
    assert [e["type"] for e in data["events"]] == ["allocate"] * 11
    assert {e["time"] for e in data["events"]} == {0}
    assert data["pending"] == []
    assert data["summary"]["allocations"] == 11
    check_golden("simulate_tenants.json", text)


def test_no_arguments_markdown_golden(run_yk) -> None:
    text = ok(run_yk, "simulate", "-f", "markdown")
    rows = [line for line in text.splitlines() if re.match(r"\| +\d+ \|", line)]
    assert len(rows) == 11
    for row, (step, queue, prio, changes) in zip(rows, SEED_TABLE, strict=True):
        cells = [cell.strip() for cell in row.strip("|").split(" | ")]
        assert (int(cells[0]), cells[3], cells[4], cells[7].split("<br>")) == (step, f"`{queue}`", f"P{prio}", changes)
    check_golden("simulate_tenants.md", text)


def test_the_bundled_example_is_the_sample_pair(run_yk) -> None:
    """The bundled files tell the same story as samples/queues/tenants.yaml + samples/workloads/tenants.yaml."""
    bundled = json.loads(ok(run_yk, "simulate", "-f", "json"))
    samples = json.loads(
        ok(run_yk, "simulate", "samples/queues/tenants.yaml", "samples/workloads/tenants.yaml", "-f", "json")
    )
    assert bundled["events"] == samples["events"]
    assert bundled["summary"] == samples["summary"]


# --- --until and --max-steps -------------------------------------------------------------------------------------

TIMED_WORKLOAD = """
nodes:
  - {name: n1, resources: {memory: 10}}
applications:
  - id: A
    queue: root.leaf
    asks:
      - {name: now, resources: {memory: 6}, duration: 10s}
      - {name: blocked, resources: {memory: 6}}
      - {name: at-10s, resources: {memory: 1}, submitTime: 10s}
      - {name: at-1m, resources: {memory: 1}, submitTime: 1m}
"""


@pytest.fixture
def timed(tmp_path: Path) -> tuple[str, str]:
    """A config and workload whose events happen at 0 s, 10 s and 1 min."""
    config, workload = tmp_path / "queues.yaml", tmp_path / "workload.yaml"
    config.write_text(dedent(TIMED_CONFIG))
    workload.write_text(dedent(TIMED_WORKLOAD))
    return str(config), str(workload)


def steps_of(text: str) -> list[tuple[float, str, str]]:
    return [(e["time"], e["type"], e["ask"]) for e in json.loads(text)["events"]]


def test_until_zero_shows_only_the_decisions_at_the_start(run_yk, timed: tuple[str, str]) -> None:
    data = json.loads(ok(run_yk, "simulate", *timed, "--until", "0s", "-f", "json"))
    assert [(e["time"], e["type"], e["ask"]) for e in data["events"]] == [(0, "allocate", "now")]
    assert {p["ask"]: p["code"] for p in data["pending"]} == {
        "blocked": codes.CLUSTER_FULL,
        "at-10s": codes.NOT_SUBMITTED,
        "at-1m": codes.NOT_SUBMITTED,
    }
    assert data["summary"]["stoppedBy"] == "until"
    assert data["summary"]["endTime"] == 0


def test_until_includes_what_happens_exactly_then(run_yk, timed: tuple[str, str]) -> None:
    assert steps_of(ok(run_yk, "simulate", *timed, "--until", "10s", "-f", "json")) == [
        (0, "allocate", "now"),
        (10, "complete", "now"),
        (10, "allocate", "blocked"),
        (10, "allocate", "at-10s"),
    ]
    assert steps_of(ok(run_yk, "simulate", *timed, "--until", "9.5s", "-f", "json")) == [(0, "allocate", "now")]
    everything = json.loads(ok(run_yk, "simulate", *timed, "-f", "json"))
    assert [e["ask"] for e in everything["events"]][-1] == "at-1m"
    assert everything["summary"]["stoppedBy"] == "idle"


def test_max_steps(run_yk) -> None:
    data = json.loads(ok(run_yk, "simulate", "--max-steps", "3", "-f", "json"))
    assert json_table(data) == SEED_TABLE[:3]
    assert data["summary"]["stoppedBy"] == "max-steps"
    assert len(data["pending"]) == 8
    assert {p["code"] for p in data["pending"]} == {codes.STOPPED}
    text = ok(run_yk, "simulate", "--max-steps", "0")
    assert "No scheduling steps." in text
    assert "(--max-steps reached)" in text


def test_yunikorn_version_option(run_yk) -> None:
    """No queue of the example is stateaware: the same steps (1.5's Starting timers only move the end time)."""
    legacy = json.loads(ok(run_yk, "simulate", "--yunikorn-version", "1.5", "-f", "json"))
    assert json_table(legacy) == SEED_TABLE
    assert ok(run_yk, "simulate", "--yunikorn-version", "v1.6.2") == ok(run_yk, "simulate")


# --- exit codes --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("nope.yaml", "samples/workloads/tenants.yaml"), 2, "yk: error: nope.yaml: no such file"),
        (("samples/queues/tenants.yaml", "nope.yaml"), 2, "yk: error: nope.yaml: no such file"),
        (("samples/queues/tenants.yaml",), 2, "give both CONFIG and WORKLOAD"),
        (("samples/queues/tenants.yaml", "samples"), 2, "is a directory"),
        (
            ("samples/queues/invalid/duplicate-queue-name.yaml", "samples/workloads/tenants.yaml"),
            1,
            "(duplicate-queue-name)",
        ),
        (("samples/queues/tenants.yaml", "samples/workloads/invalid/workload-bad-quantity.yaml"), 1, "error"),
        (("samples/queues/tenants.yaml", "samples/workloads/invalid/workload-unknown-queue.yaml"), 1, "error"),
        (("--format", "yaml"), 2, "yk: error: unknown format 'yaml'; choose one of text, json, markdown"),
        (("--until", "soon"), 2, "yk: error: --until 'soon' is not a duration"),
        (("--until", "-5s"), 2, "yk: error: --until '-5s' is not a duration"),
        (("--until", "10"), 2, "yk: error: --until '10' is not a duration"),
        (("--max-steps", "-1"), 2, "yk: error: --max-steps must not be negative"),
        (("--max-steps", "many"), 2, ""),
        (("--yunikorn-version", "latest"), 2, "yk: error: not a YuniKorn version: 'latest'"),
        (("--cluster", "nope.yaml"), 2, "yk: error: nope.yaml: no such file"),
        (("--cluster", DUMP, "samples/queues/tenants.yaml", "samples/workloads/tenants.yaml"), 2, "not WORKLOAD"),
        (("--cluster", "samples/cluster/invalid/cluster-bad-quantity.yaml"), 1, "(cluster-bad-quantity)"),
        (("--cluster", "samples/cluster/invalid/cluster-not-kubernetes.yaml"), 1, "(cluster-not-kubernetes)"),
        (("samples/queues/invalid/duplicate-queue-name.yaml", "--cluster", DUMP), 1, "(duplicate-queue-name)"),
        (("nope.yaml", "--cluster", DUMP), 2, "yk: error: nope.yaml: no such file"),
        (("samples/queues/tenants.yaml", "--cluster", DUMP, "--partition", "other"), 2, "no partition 'other'"),
    ],
)
def test_exit_codes(run_yk, args: tuple[str, ...], code: int, message: str) -> None:
    result = run_yk("simulate", *args)
    assert result.exit_code == code, result.stderr
    assert result.stdout == ""
    assert message in result.stderr


def test_warnings_do_not_stop_the_run(run_yk) -> None:
    result = run_yk("simulate", "--cluster", "samples/cluster/invalid/cluster-unknown-node.yaml")
    assert result.exit_code == 0
    assert (
        result.stderr
        == "1 warning in samples/cluster/invalid/cluster-unknown-node.yaml: cluster-unknown-node (line 102)\n"
    )
    assert result.stdout.startswith("yk simulate: samples/cluster/invalid/cluster-unknown-node.yaml")


# --- --cluster ---------------------------------------------------------------------------------------------------


def test_cluster_dump_golden(run_yk) -> None:
    text = ok(run_yk, "simulate", "--cluster", DUMP)
    assert text.startswith(f"yk simulate: {DUMP} (queue config from its ConfigMap); partition default: 7 nodes")
    check_golden("simulate_cluster.txt", text)
    output = ok(run_yk, "simulate", "--cluster", DUMP, "-f", "json")
    validator().validate(json.loads(output))
    check_golden("simulate_cluster.json", output)


def test_cluster_dump_places_pods_like_the_shim(run_yk) -> None:
    data = json.loads(ok(run_yk, "simulate", "--cluster", DUMP, "-f", "json"))
    queues = {item["ask"]: item["queuePath"] for item in data["events"] + data["pending"]}
    assert queues["team-a/spark-pi-exec-2"] == "root.tenants.team-a"  # queue label, `provided`
    assert queues["team-b/log-agent-7xk2p"] == "root.tenants.team-b"  # no label: tag under the fixed root.tenants
    assert queues["data-science/report-1-render"] == "root.analytics.data-science"  # tag under the parentqueue tag
    asks = {item["ask"] for item in data["events"] + data["pending"]}
    assert "team-a/nightly-report-28461120-7kq2x" not in asks  # Succeeded
    assert not any(ask.startswith("kube-system/") for ask in asks)  # default-scheduler pods only occupy nodes


def test_cluster_from_stdin_gives_the_same_trace(run_yk) -> None:
    from_file = json.loads(ok(run_yk, "simulate", "--cluster", DUMP, "-f", "json"))
    text = (ROOT / DUMP).read_text(encoding="utf-8")
    from_stdin = json.loads(ok(run_yk, "simulate", "--cluster", "-", "-f", "json", input=text))
    assert from_stdin["source"] == "<stdin> (queue config from its ConfigMap)"
    assert from_stdin["events"] == from_file["events"]
    assert from_stdin["pending"] == from_file["pending"]


def test_cluster_with_another_queue_config(run_yk) -> None:
    text = ok(run_yk, "simulate", "samples/queues/tenants.yaml", "--cluster", DUMP, "--until", "0s")
    assert text.startswith(f"yk simulate: samples/queues/tenants.yaml + {DUMP}; partition default:")
    data = json.loads(ok(run_yk, "simulate", "samples/queues/tenants.yaml", "--cluster", DUMP, "-f", "json"))
    reasons = {p["ask"]: p["reason"] for p in data["pending"]}
    queues = {e["ask"]: e["queuePath"] for e in data["events"]}
    # root.tenants.team-a does not exist here; the application already runs (its driver), so YuniKorn's hidden
    # recovery rule places it in root.@recovery@ and its pending executors run there
    assert queues["team-a/spark-pi-exec-2"] == "root.@recovery@"
    assert reasons["team-b/log-agent-7xk2p"].startswith("rejected by the placement rules:")  # names no queue


def without_configmap(tmp_path: Path) -> str:
    """The sample dump without its yunikorn-configs ConfigMap."""
    yaml = YAML()
    dump = yaml.load((ROOT / DUMP).read_text(encoding="utf-8"))
    dump["items"] = [item for item in dump["items"] if item["kind"] != "ConfigMap"]
    path = tmp_path / "dump.yaml"
    with path.open("w", encoding="utf-8") as out:
        yaml.dump(dump, out)
    return str(path)


def test_cluster_without_configmap_uses_the_built_in_config(run_yk, tmp_path: Path) -> None:
    dump = without_configmap(tmp_path)
    data = json.loads(ok(run_yk, "simulate", "--cluster", dump, "-f", "json"))
    assert data["source"] == f"{dump} (no yunikorn-configs ConfigMap: YuniKorn's built-in default queue config)"
    queues = {item["ask"]: item["queuePath"] for item in data["events"] + data["pending"]}
    # One tag rule on namespace with create: every namespace gets root.<namespace>.
    assert queues["data-science/report-1-render"] == "root.data-science"
    assert queues["team-b/log-agent-7xk2p"] == "root.team-b"


def test_cluster_without_configmap_places_labelled_pods_by_namespace(run_yk, tmp_path: Path) -> None:
    data = json.loads(ok(run_yk, "simulate", "--cluster", without_configmap(tmp_path), "-f", "json"))
    queues = {item["ask"]: item["queuePath"] for item in data["events"] + data["pending"]}
    assert queues["team-a/spark-pi-exec-2"] == "root.team-a", (
        "the built-in config has no `provided` rule, so YuniKorn ignores the pod's queue label and the tag rule "
        "puts it in root.team-a"
    )


def test_cluster_configmap_problems_are_located_in_the_dump(run_yk, tmp_path: Path) -> None:
    dump = tmp_path / "dump.yaml"
    dump.write_text(
        dedent("""
        apiVersion: v1
        kind: List
        items:
          - apiVersion: v1
            kind: Node
            metadata: {name: n1}
            status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
          - apiVersion: v1
            kind: ConfigMap
            metadata: {name: yunikorn-configs, namespace: yunikorn}
            data:
              queues.yaml: |
                partitions:
                  - name: default
                    queues:
                      - name: root
                        submitacl: '*'
                        queues:
                          - name: a
                          - name: A
        """)
    )
    result = run_yk("simulate", "--cluster", str(dump))
    assert result.exit_code == 1
    assert f"{dump}:20:27: [error] duplicate child name found with name 'A', level 1 (duplicate-queue-name)" in (
        result.stderr
    )
    assert re.search(r"^ +20 \| +- name: A$", result.stderr, re.MULTILINE)  # the excerpt is the dump's own line


def test_help_documents_cluster(run_yk) -> None:
    result = run_yk("simulate", "--help")
    assert result.exit_code == 0
    flat = " ".join(result.stdout.replace("│", " ").split())
    assert "--cluster" in flat
    assert "yk simulate new-queues.yaml --cluster dump.yaml" in flat


# --- determinism ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        (),
        ("-f", "json"),
        (*FENCED, "-f", "markdown"),
        ("--cluster", DUMP, "-f", "json"),
    ],
    ids=["tenants-text", "tenants-json", "fenced-markdown", "cluster-json"],
)
def test_output_does_not_depend_on_the_hash_seed(args: tuple[str, ...]) -> None:
    outputs = set()
    for seed in ("0", "1", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run(
            [sys.executable, "-m", "yk_cli", "simulate", *args], capture_output=True, cwd=ROOT, env=env, check=True
        )
        outputs.add(done.stdout)
    assert len(outputs) == 1


def test_same_input_same_bytes(run_yk) -> None:
    assert ok(run_yk, "simulate", *FENCED, "-f", "json") == ok(run_yk, "simulate", *FENCED, "-f", "json")


# --- the JSON Schema ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        (),
        ("--max-steps", "4"),
        (*FENCED,),
        ("--cluster", DUMP),
        ("--cluster", DUMP, "--until", "0s"),
    ],
)
def test_json_matches_the_schema(run_yk, args: tuple[str, ...]) -> None:
    validator().validate(json.loads(ok(run_yk, "simulate", *args, "-f", "json")))


def test_json_with_every_event_kind_matches_the_schema(run_yk, timed: tuple[str, str], tmp_path: Path) -> None:
    data = json.loads(ok(run_yk, "simulate", *timed, "-f", "json"))
    assert {e["type"] for e in data["events"]} == {"allocate", "complete"}
    validator().validate(data)
    config = tmp_path / "reserve.yaml"
    config.write_text(dedent(TIMED_CONFIG))
    workload = tmp_path / "reserve-workload.yaml"
    workload.write_text(
        dedent("""
        nodes:
          - {name: n1, resources: {memory: 10}}
          - {name: n2, resources: {memory: 4}}
        applications:
          - id: A
            queue: root.leaf
            allocations:
              - {name: r1, node: n1, resources: {memory: 6}, duration: 5s}
            asks:
              - {name: big, resources: {memory: 8}, submitTime: -10s}
              - {name: huge, resources: {memory: 100}}
        """)
    )
    data = json.loads(ok(run_yk, "simulate", str(config), str(workload), "-f", "json"))
    assert [e["type"] for e in data["events"]] == ["reserve", "complete", "allocate"]
    assert data["events"][-1]["reason"] == "from its reservation"
    assert data["events"][1]["time"] == 5
    validator().validate(data)


def test_schema_is_a_valid_2020_12_schema_with_descriptions_everywhere() -> None:
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(SCHEMA)

    def walk(node: dict[str, Any], where: str) -> None:
        assert node.get("description"), f"{where} has no description"
        for key, child in node.get("properties", {}).items():
            walk(child, f"{where}.{key}")
        for key, child in node.get("$defs", {}).items():
            walk(child, f"$defs/{key}")
        for key in ("items", "additionalProperties"):
            if isinstance(node.get(key), dict):
                walk(node[key], f"{where}.{key}")

    walk(SCHEMA, "#")


def test_schema_enums_are_the_codes_yk_uses() -> None:
    defs = SCHEMA["$defs"]
    assert tuple(defs["Event"]["properties"]["type"]["enum"]) == codes.EVENT_TYPES
    assert tuple(defs["Pending"]["properties"]["code"]["enum"]) == codes.REASON_CODES
    assert set(defs["Summary"]["properties"]["stoppedBy"]["enum"]) == set(STOPPED)


def test_schema_lists_every_key_in_output_order(run_yk) -> None:
    data = json.loads(ok(run_yk, "simulate", "--max-steps", "4", "-f", "json"))
    defs = SCHEMA["$defs"]
    assert list(data) == SCHEMA["required"]
    assert list(data["events"][0]) == defs["Event"]["required"]
    assert list(data["pending"][0]) == defs["Pending"]["required"]
    assert list(data["summary"]) == defs["Summary"]["required"]
    assert list(data["events"][0]["priorityChanges"][0]) == ["queuePath", "from", "to"]


def test_packaged_trace_schema_is_byte_identical(run_yk) -> None:
    packaged = ROOT / "yk_cli" / "data" / "trace.schema.json"
    assert packaged.read_bytes() == SCHEMA_PATH.read_bytes(), (
        "schemas/trace.schema.json is the source of truth: copy it to yk_cli/data/trace.schema.json"
    )
    assert ok(run_yk, "schema", "trace") == SCHEMA_PATH.read_text(encoding="utf-8")


@pytest.mark.parametrize("args", [(), ("--until", "0s"), ("--max-steps", "0")])
def test_json_is_printed_in_pieces_exactly_as_one_indented_document(args: tuple[str, ...]) -> None:
    """The streamed JSON equals json.dumps(document, indent=2), with and without events and pending asks."""
    from tests.helpers.trace_reference import reference_json
    from yk_cli.commands.run_options import options_from
    from yk_cli.core.config.queues import build_queue_tree
    from yk_cli.core.sim.run import simulate
    from yk_cli.load.config import load_config
    from yk_cli.load.workload import load_workload
    from yk_cli.report import trace_json

    config = load_config(str(ROOT / "samples/queues/tenants.yaml")).configs[0].config.partitions[0]
    workload, _ = load_workload(str(ROOT / "samples/workloads/tenants.yaml"))
    until = args[1] if args[:1] == ("--until",) else None
    steps = int(args[1]) if args[:1] == ("--max-steps",) else None
    for load in (workload, type(workload)()):
        trace = simulate(config, build_queue_tree(config), load, options_from(until, steps, "1.8"))
        assert trace_json.render(trace, "src") == reference_json(trace, "src")
