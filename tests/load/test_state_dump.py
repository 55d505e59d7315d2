"""Reading a YuniKorn state dump (`--state FILE`) on bad and odd input, through the CLI: one exact message and exit 2
for a dump yk cannot read, never a traceback; unknown fields ignored, fields yk can do without left out; a dump of
about 100 MB; and the dump equal to the queues.yaml and workload.yaml convert_state makes of it."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.paths import DATA, ROOT
from yk_cli.core.state.convert import convert_state
from yk_cli.report.generate_yaml import config_yaml, workload_yaml

STATE = DATA / "state"
PREEMPT = STATE / "statedump-preempt.json"
PLAIN = STATE / "statedump-plain.json"
GANG = STATE / "statedump-limits-gang.json"
SAVED = [STATE / f"statedump-{name}{end}.json" for name in ("plain", "preempt", "limits-gang") for end in ("", "-end")]
BIG_BYTES = 100_000_000
"""The large dump's size, about."""
MEMORY_BOUND = 3 * 1024**3
"""Peak resident memory allowed for `yk tree --state` of the large dump (bytes)."""

Run = Callable[..., Any]

pytestmark = pytest.mark.usefixtures("here")


def dump_data(source: Path = PREEMPT) -> dict[str, Any]:
    """A saved dump, parsed (a fresh copy)."""
    data: dict[str, Any] = json.loads(source.read_text(encoding="utf-8"))
    return data


def write(name: str, data: Any) -> str:
    """Write JSON to NAME in the working directory; NAME."""
    Path(name).write_text(json.dumps(data, indent=1), encoding="utf-8")
    return name


def changed(name: str, change: Callable[[dict[str, Any]], object], source: Path = PREEMPT) -> str:
    """A copy of a saved dump with one change, written to NAME; NAME."""
    data = dump_data(source)
    change(data)
    return write(name, data)


def refused(run_yk: Run, *args: str, input: str | None = None) -> str:
    """`yk simulate --state ARGS` exits 2 with one line on standard error and nothing on standard output: that line."""
    result = run_yk("simulate", "--state", *args, input=input)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return str(lines[0])


def requesting(data: dict[str, Any]) -> dict[str, Any]:
    """The first application with pending requests."""
    return next(app for app in data["applications"] if app.get("requests"))


# -- unreadable dumps -------------------------------------------------------------------------------------------


def test_a_truncated_dump(run_yk: Run) -> None:
    raw = PREEMPT.read_bytes()
    Path("cut.json").write_bytes(raw[: len(raw) // 2])
    assert refused(run_yk, "cut.json") == (
        "yk: error: cut.json: not a state dump: not JSON (truncated?): Unterminated string starting at (line 364, "
        "column 15)"
    )


def test_a_dump_cut_between_values_says_truncated(run_yk: Run) -> None:
    raw = PREEMPT.read_bytes()
    Path("cut.json").write_bytes(raw[: raw.index(b"\n", len(raw) // 2)])
    message = refused(run_yk, "cut.json")
    assert message.startswith("yk: error: cut.json: not a state dump: not JSON (truncated?): ")


def test_not_json(run_yk: Run) -> None:
    Path("dump.yaml").write_text("partitions: [default]\n", encoding="utf-8")
    assert refused(run_yk, "dump.yaml") == (
        "yk: error: dump.yaml: not a state dump: not JSON: Expecting value (line 1, column 1)"
    )


def test_not_utf8(run_yk: Run) -> None:
    Path("dump.json").write_bytes(b'{"partitions": "\xff"}')
    assert refused(run_yk, "dump.json") == "yk: error: dump.json: not a state dump: not UTF-8 text (byte 16)"


def test_a_json_list(run_yk: Run) -> None:
    assert refused(run_yk, write("dump.json", [1, 2])) == (
        "yk: error: dump.json: not a state dump: a JSON object is expected, found a list"
    )


def test_an_object_with_none_of_the_dumps_keys(run_yk: Run) -> None:
    assert refused(run_yk, write("dump.json", {"kind": "Pod", "items": []})) == (
        "yk: error: dump.json#/: not a YuniKorn state dump: none of partitions, applications, nodes, queues, config "
        "at the top level"
    )


def test_a_dump_without_config(run_yk: Run) -> None:
    assert refused(run_yk, changed("dump.json", lambda d: d.pop("config"))) == (
        "yk: error: dump.json#/config: the dump has no scheduler config (`config`): yk needs the queues it runs with"
    )


def test_applications_not_a_list(run_yk: Run) -> None:
    assert refused(run_yk, changed("dump.json", lambda d: d.update(applications="prod-1"))) == (
        "yk: error: dump.json#/applications: expected a list, found a string"
    )


def test_a_priority_that_is_not_a_number(run_yk: Run) -> None:
    def change(data: dict[str, Any]) -> None:
        requesting(data)["requests"][0]["priority"] = "abc"

    assert refused(run_yk, changed("dump.json", change)) == (
        "yk: error: dump.json#/applications/2/requests/0/priority: expected an integer, found a string 'abc'"
    )


def test_an_application_without_a_queue(run_yk: Run) -> None:
    assert refused(run_yk, changed("dump.json", lambda d: d["applications"][0].pop("queueName"))) == (
        "yk: error: dump.json#/applications/0/queueName: application batch-1 has no queueName"
    )


def test_an_allocation_key_used_twice(run_yk: Run) -> None:
    def change(data: dict[str, Any]) -> None:
        first, second = (app for app in data["applications"] if app.get("allocations"))
        second["allocations"].append(copy.deepcopy(first["allocations"][0]))

    assert refused(run_yk, changed("dump.json", change)) == (
        "yk: error: dump.json#/applications/1/allocations/4/allocationKey: allocation key b1-4 is used twice"
    )


def test_a_partition_the_dump_does_not_have(run_yk: Run) -> None:
    name = write("dump.json", dump_data())
    assert refused(run_yk, name, "--partition", "nope") == (
        "yk: error: dump.json#/partitions: the dump has no partition 'nope' (it has: default)"
    )


def two_partitions(data: dict[str, Any]) -> None:
    """The preempt dump as partition `alpha`, with an empty partition `beta` beside it."""
    first = data["partitions"][0]
    data["partitions"] = [{**first, "name": "alpha"}, {**copy.deepcopy(first), "name": "beta"}]
    config = data["config"]["Partitions"][0]
    data["config"]["Partitions"] = [{**config, "Name": "alpha"}, {**copy.deepcopy(config), "Name": "beta"}]
    for key, field in (("applications", "partition"), ("nodes", "partitionName"), ("queues", "partition")):
        for item in data[key]:
            item[field] = "alpha"


def test_two_partitions_and_no_default_need_partition(run_yk: Run) -> None:
    name = changed("dump.json", two_partitions)
    assert (
        refused(run_yk, name)
        == "yk: error: dump.json#/partitions: the dump has 2 partitions (alpha, beta): choose one with --partition NAME"
    )
    alpha = run_yk("simulate", "--state", name, "--partition", "alpha", "--until", "0s")
    assert alpha.exit_code == 0, alpha.output
    assert alpha.stdout.startswith(
        "yk simulate: dump.json (YuniKorn state dump); partition alpha: 2 nodes, 3 applications, 4 asks\n"
    )
    beta = run_yk("simulate", "--state", name, "--partition", "beta", "--until", "0s")
    assert beta.exit_code == 0, beta.output
    assert "partition beta: 0 nodes, 0 applications, 0 asks" in beta.stdout


def test_a_dump_over_the_size_limit(run_yk: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    """The limit is max(MAX_STATE_BYTES, --max-size (default 2 MiB)): MAX_STATE_BYTES made small here, a dump of
    3 MB is over the default --max-size, and --max-size raises it."""
    monkeypatch.setattr("yk_cli.load.state.MAX_STATE_BYTES", 1024)
    big_dump(Path("dump.json"), 3_000_000)
    size = Path("dump.json").stat().st_size
    assert refused(run_yk, "dump.json") == (
        f"yk: error: dump.json: {size:,} bytes (2.8 MiB) is more than the 2 MiB yk reads from a state dump; "
        "give --max-size 4MiB (or more) to read it"
    )
    raised = run_yk("tree", "--state", "dump.json", "--max-size", "4MiB")
    assert raised.exit_code == 0, raised.output


def test_standard_input_over_the_size_limit(run_yk: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("yk_cli.load.state.MAX_STATE_BYTES", 1024)
    big_dump(Path("dump.json"), 3_000_000)
    assert refused(run_yk, "-", input=Path("dump.json").read_text(encoding="utf-8")) == (
        "yk: error: <stdin>: standard input is more than the 2 MiB yk reads from a state dump; "
        "give --max-size 4MiB (or more) to read it"
    )


def test_empty_standard_input(run_yk: Run) -> None:
    assert refused(run_yk, "-", input="") == (
        "yk: error: <stdin>: empty: not a state dump"
    )


def test_a_missing_file_and_a_directory(run_yk: Run) -> None:
    assert refused(run_yk, "nowhere.json") == "yk: error: nowhere.json: no such file"
    Path("folder").mkdir()
    assert refused(run_yk, "folder") == "yk: error: folder: is a directory, not a file"


# -- odd but readable dumps -------------------------------------------------------------------------------------


def simulated(run_yk: Run, name: str, *args: str) -> str:
    """`yk simulate --state NAME ARGS` succeeds: its standard output, the file's name replaced by <dump>."""
    result = run_yk("simulate", "--state", name, *args)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.stderr
    return str(result.stdout).replace(name, "<dump>")


UNKNOWN_FIELDS: dict[str, Callable[[dict[str, Any]], object]] = {
    "top level": lambda d: d.update(futureTopLevel={"shape": [1, 2]}),
    "application": lambda d: d["applications"][0].update(futureField=[None]),
    "allocation": lambda d: d["applications"][0]["allocations"][0].update(futureFlag=True),
    "request": lambda d: requesting(d)["requests"][0].update(schedulingHints={"gpu": "a100"}),
    "node": lambda d: d["nodes"][0]["nodesInfo"][0].update(topology="rack-1"),
    "queue": lambda d: d["queues"][0].update(futureQueueField="x"),
    "config": lambda d: d["config"]["Partitions"][0].update(FutureSetting=3),
}


@pytest.mark.parametrize(
    "where",
    [
        where
        for where in UNKNOWN_FIELDS
    ],
)
def test_unknown_fields_are_ignored_silently(run_yk: Run, where: str) -> None:
    plain = write("plain.json", dump_data())
    name = changed("dump.json", UNKNOWN_FIELDS[where])
    result = run_yk("simulate", "--state", name)
    assert result.exit_code == 0, result.output
    said = [line for line in result.stderr.splitlines() if not line.startswith("yk: note: dump.json: ")]
    if where == "config":  # the core runs with it: a newer YuniKorn's field, a warning (yk validate dump.json)
        assert said == [
            "yk: note: positions in dump.json are JSON pointers (RFC 6901) into the dump",
            "1 warning in dump.json: run yk validate dump.json",
        ]
    else:
        assert said == []
    assert simulated(run_yk, name) == simulated(run_yk, plain)


def test_no_timestamp_is_an_assumption(run_yk: Run) -> None:
    base = simulated(run_yk, write("plain.json", dump_data()), "--format", "json")
    text = simulated(run_yk, changed("dump.json", lambda d: d.pop("timestamp")), "--format", "json")
    data, want = json.loads(text), json.loads(base)
    assumed = [item["message"] for item in data["notModelled"] if item["feature"] == "state-dump"]
    assert assumed[0] == "the dump has no `timestamp`: the start of the run is its latest request or allocation time"
    assert data["events"] == want["events"]
    assert data["pending"] == want["pending"]


def test_no_timestamp_and_no_times(run_yk: Run) -> None:
    def change(data: dict[str, Any]) -> None:
        data.pop("timestamp")
        for app in data["applications"]:
            app.pop("submissionTime", None)
            for key, time_key in (("requests", "requestTime"), ("allocations", "allocationTime")):
                for item in app.get(key) or []:
                    item.pop(time_key, None)

    text = simulated(run_yk, changed("dump.json", change), "--until", "0s")
    assert "Assumed: the dump has no `timestamp` and no times: every request and allocation starts at 0s\n" in text


def test_cluster_info_and_placement_rules_are_not_needed(run_yk: Run) -> None:
    def change(data: dict[str, Any]) -> None:
        for key in ("clusterInfo", "placementRules", "rmDiagnostics", "logLevel", "partitions", "queues"):
            data.pop(key)

    plain = write("plain.json", dump_data())
    assert simulated(run_yk, changed("dump.json", change)) == simulated(run_yk, plain)


def test_no_nodes_and_no_running_pods_leaves_every_ask_pending(run_yk: Run) -> None:
    data = json.loads(simulated(run_yk, changed("dump.json", lambda d: d.pop("nodes"), PLAIN), "--format", "json"))
    assert data["events"] == []
    assert sorted(p["ask"] for p in data["pending"]) == sorted(
        r["allocationKey"] for app in dump_data(PLAIN)["applications"] for r in app["requests"]
    )


def test_no_nodes_under_running_pods_is_an_error_at_each_pod(run_yk: Run) -> None:
    result = run_yk("simulate", "--state", changed("dump.json", lambda d: d.pop("nodes")))
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    first = (
        "dump.json#/applications/0/allocations/0: [error] allocation b1-4 runs on node node-0, which is not under "
        "`nodes` (workload-unknown-node)"
    )
    assert first in result.output.splitlines()
    assert result.output.count("(workload-unknown-node)") == 9
    assert "1 file checked: 9 errors, 0 warnings" in result.output


def test_an_empty_partition_is_an_empty_run(run_yk: Run) -> None:
    def change(data: dict[str, Any]) -> None:
        data["applications"] = []
        data["nodes"] = []

    text = simulated(run_yk, changed("dump.json", change))
    assert text.startswith(
        "yk simulate: <dump> (YuniKorn state dump); partition default: 0 nodes, 0 applications, 0 asks"
    )
    assert "No scheduling steps.\n" in text
    assert "Summary: 0 allocations, 0 completions, 0 reservations, 0 pending; 0 steps in 0s" in text


def test_standard_input(run_yk: Run) -> None:
    result = run_yk("simulate", "--state", "-", "--format", "json", input=PREEMPT.read_text(encoding="utf-8"))
    assert result.exit_code == 0, result.output
    from_file = json.loads(simulated(run_yk, write("dump.json", dump_data()), "--format", "json"))
    data = json.loads(result.stdout)
    assert data["source"] == "<stdin> (YuniKorn state dump)"
    assert result.stderr.startswith("yk: note: <stdin>: YuniKorn state dump of ")
    assert data["events"] == from_file["events"]


GO_MAP_LISTS: dict[str, tuple[Path, Callable[[dict[str, Any]], object]]] = {
    "applications": (PREEMPT, lambda d: d["applications"].reverse()),
    "requests": (PREEMPT, lambda d: [app["requests"].reverse() for app in d["applications"] if app.get("requests")]),
    "allocations": (
        PREEMPT,
        lambda d: [app["allocations"].reverse() for app in d["applications"] if app.get("allocations")],
    ),
    "nodes": (PREEMPT, lambda d: d["nodes"][0]["nodesInfo"].reverse()),
    "placeholderData": (
        GANG,
        lambda d: [app["placeholderData"].reverse() for app in d["applications"] if app.get("placeholderData")],
    ),
}


@pytest.mark.parametrize(
    "lists",
    [
        name
        for name in GO_MAP_LISTS
    ],
)
def test_the_order_of_lists_the_core_builds_from_go_maps_does_not_matter(run_yk: Run, lists: str) -> None:
    source, change = GO_MAP_LISTS[lists]
    base = simulated(run_yk, write("base.json", dump_data(source)), "--format", "json")
    assert simulated(run_yk, changed("dump.json", change, source), "--format", "json") == base.replace(
        "base.json", "<dump>"
    )


# -- the same inputs two ways -----------------------------------------------------------------------------------

LOCATION = re.compile(r" \((?:[^()\s]+#/[^()\s]*|[^()\s]+\.yaml:\d+)\)")
"""Where a pending reason points into the queue config: `dump.json#/config/...` or `queues.yaml:12`."""


def comparable(text: str) -> dict[str, Any]:
    """A `yk simulate --format json` report without its source, the dump's assumptions and config locations."""
    data: dict[str, Any] = json.loads(LOCATION.sub(" (<config>)", text))
    data.pop("source")
    data["notModelled"] = [item for item in data["notModelled"] if item.get("feature") != "state-dump"]
    return data


@pytest.mark.parametrize("dump", SAVED, ids=lambda path: path.stem)
def test_the_dump_runs_as_the_documents_it_converts_to(run_yk: Run, dump: Path) -> None:
    """`yk simulate --state D` equals `yk simulate QUEUES WORKLOAD` of convert_state(D) written out as YAML; and
    --state gives the same bytes twice."""
    documents = convert_state(dump_data(dump))
    Path("queues.yaml").write_text(config_yaml(documents.config), encoding="utf-8")
    Path("workload.yaml").write_text(workload_yaml(documents.workload), encoding="utf-8")
    state = run_yk("simulate", "--state", str(dump), "--format", "json", "-q")
    files = run_yk("simulate", "queues.yaml", "workload.yaml", "--format", "json", "-q")
    assert state.exit_code == 0, state.output
    assert files.exit_code == 0, files.output
    assert comparable(state.stdout) == comparable(files.stdout)
    for fmt in ("json", "text"):
        first = run_yk("simulate", "--state", str(dump), "--format", fmt)
        second = run_yk("simulate", "--state", str(dump), "--format", fmt)
        assert (first.exit_code, first.stdout, first.stderr) == (second.exit_code, second.stdout, second.stderr)


# -- a large dump -----------------------------------------------------------------------------------------------

SUFFIX = "\x00"
"""Stands for `-cN` in the template of one copy (JSON writes it as \\u0000, found nowhere else)."""


def big_dump(path: Path, size: int = BIG_BYTES) -> tuple[int, int]:
    """Write about `size` bytes of dump: the preempt dump's nodes and applications repeated, every node, application
    and allocation key renamed NAME-cN; (nodes, applications) written."""
    base = dump_data()
    nodes = base["nodes"][0]["nodesInfo"]
    apps = base["applications"]
    for node in nodes:
        node["nodeID"] += SUFFIX
        for alloc in node.get("allocations") or []:
            alloc.update(
                allocationKey=alloc["allocationKey"] + SUFFIX,
                nodeId=alloc["nodeId"] + SUFFIX,
                applicationId=alloc["applicationId"] + SUFFIX,
            )
    for app in apps:
        app["applicationID"] += SUFFIX
        for key in ("requests", "allocations"):
            for item in app.get(key) or []:
                item["allocationKey"] += SUFFIX
                item["applicationId"] += SUFFIX
                if "nodeId" in item:
                    item["nodeId"] += SUFFIX
    token = json.dumps(SUFFIX)[1:-1]
    node_text = ",\n".join(json.dumps(node, indent=1) for node in nodes)
    app_text = ",\n".join(json.dumps(app, indent=1) for app in apps)
    copies = size // (len(node_text) + len(app_text)) + 1
    base["nodes"][0]["nodesInfo"] = ["@NODES@"]
    base["applications"] = ["@APPS@"]
    texts = {"@NODES@": node_text, "@APPS@": app_text}
    parts = re.split(r'"(@NODES@|@APPS@)"', json.dumps(base, indent=1))  # text, marker, text, marker, text
    with path.open("w", encoding="utf-8") as out:
        for index, part in enumerate(parts):
            if index % 2 == 0:
                out.write(part)
            else:
                out.write(",\n".join(texts[part].replace(token, f"-c{i}") for i in range(copies)))
    return copies * len(nodes), copies * len(apps)


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, int, int]]:
    """A dump of about 100 MB (written once per module): (path, nodes, applications)."""
    path = tmp_path_factory.mktemp("big") / "statedump-big.json"
    nodes, apps = big_dump(path)
    yield path, nodes, apps
    path.unlink()


def peak_memory(*args: str) -> tuple[int, int, str, str]:
    """Run `yk ARGS` in a child Python (the CLI in-process there): (exit status, peak resident bytes of the child
    (ru_maxrss), stdout, stderr)."""
    script = (
        "import resource, sys\n"
        "from yk_cli.commands.registry import app\n"
        "code = 0\n"
        "try:\n"
        "    app(sys.argv[1:], prog_name='yk')\n"
        "except SystemExit as exit:\n"
        "    code = exit.code or 0\n"
        "sys.stdout.flush()\n"
        "print(f'maxrss={resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}', file=sys.stderr)\n"
        "sys.exit(code)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, cwd=ROOT, timeout=300, check=False
    )
    found = re.search(r"maxrss=(\d+)", done.stderr)
    assert found is not None, done.stderr[-2000:]
    return done.returncode, int(found[1]) * 1024, done.stdout, done.stderr[: found.start()]




def test_a_dump_of_100_mb_is_read(big: tuple[Path, int, int]) -> None:
    path, _, _ = big
    done = subprocess.run(
        [sys.executable, "-m", "yk_cli", "tree", "--state", str(path)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr


def test_a_dump_of_100_mb_in_bounded_memory(big: tuple[Path, int, int]) -> None:
    """`yk tree --state` of the large dump: exit 0,
    every application counted, peak memory under MEMORY_BOUND."""
    path, nodes, apps = big
    size = path.stat().st_size
    assert BIG_BYTES <= size < BIG_BYTES * 1.1
    started = time.monotonic()
    code, peak, stdout, stderr = peak_memory("tree", "--state", str(path))
    took = time.monotonic() - started
    print(f"yk tree --state: {size:,} bytes, {nodes} nodes, {apps} applications: {took:.1f} s, peak RSS {peak:,} bytes")
    assert code == 0, stderr
    assert f"{apps // 3} applications" in stdout  # each of the three queues holds one application per copy
    assert peak < MEMORY_BOUND
