"""load.yunikorn_rest against the real YuniKorn core's web service: the oracle (../shared/oracle) serves each
scenario of tests/data/state/rest-*/ before its first cycle (`-serve-before`: the state stays frozen while it
serves), and fetch_state reads its full state dump, and the state assembled from /ws/v1 agrees with that dump.

Skipped unless the oracle is built ($YK_ORACLE, else ../shared/oracle/bin/simulate beside the repo).
"""

from __future__ import annotations

import json
import queue
import signal
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.oracle import oracle_binary
from tests.helpers.rest_state import STATE, comparable
from yk_cli.load.yunikorn_rest import _assemble_state, fetch_state

BINARY = oracle_binary()
SCENARIOS = sorted(path.parent for path in STATE.glob("rest-*/scenario.json"))
START_TIMEOUT = 60.0

pytestmark = [
    pytest.mark.skipif(BINARY is None, reason="the oracle is not built (set YK_ORACLE, see ../shared/oracle)"),
]


def serving_address(process: subprocess.Popen[str]) -> str:
    """The HOST:PORT the oracle prints when it listens (a thread reads its stdout: a pipe read may block)."""
    stdout = process.stdout
    assert stdout is not None
    found: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        """Read lines until the serving one."""
        for line in stdout:
            event = json.loads(line)
            if event.get("type") == "serving":
                found.put(str(event["address"]))
                return
        found.put(None)

    threading.Thread(target=read, daemon=True).start()
    try:
        address = found.get(timeout=START_TIMEOUT)
    except queue.Empty:
        address = None
    if address is None:
        raise AssertionError(f"the oracle did not start serving (exit status {process.poll()})")
    return address


@pytest.fixture(scope="module", params=SCENARIOS, ids=lambda folder: folder.name)
def core(request: pytest.FixtureRequest) -> Iterator[str]:
    """The base URL of the real core serving one scenario, stopped (SIGTERM) after the module's tests."""
    assert BINARY is not None
    scenario: Path = request.param / "scenario.json"
    command = [str(BINARY), "-log-level", "FATAL", "-serve-before", "-serve", "127.0.0.1:0", str(scenario)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        yield f"http://{serving_address(process)}"
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()


def test_fetch_state_reads_the_full_state_dump(core: str) -> None:
    state = fetch_state(core, environ={})
    assert state.source == f"{core}/debug/fullstatedump"
    assert state.notes == ()
    assert {"timestamp", "partitions", "queues", "nodes", "config", "placementRules", "rmDiagnostics"} <= set(
        state.data
    )
    assert [partition["name"] for partition in state.data["partitions"]] == ["default"]
    assert set(state.data["ykUsage"]) == {"default"}


def test_fetch_state_follows_the_cores_redirect(core: str) -> None:
    state = fetch_state(f"{core}/ws/v1/fullstatedump", environ={})
    assert state.source == f"{core}/debug/fullstatedump"
    assert state.notes == ()


def test_the_assembled_state_agrees_with_the_full_state_dump(core: str) -> None:
    dump = fetch_state(core, environ={})
    assembled = _assemble_state(core, environ={})
    assert assembled.source.startswith(f"{core} (assembled from /ws/v1: ")
    assert comparable(assembled.data) == comparable(dump.data)
    # fetch_state sorts what the core builds from Go maps: equal without `unordered` too
    for key in ("partitions", "applications", "nodes", "clusterInfo", "queues", "config", "placementRules", "ykUsage"):
        assert assembled.data.get(key) == dump.data.get(key), key
    assert abs(assembled.data["timestamp"] - dump.data["timestamp"]) < 60 * 10**9
    assert assembled.data["timestamp"] % 10**9 == 0
    assert set(dump.data) - set(assembled.data) <= {"rmDiagnostics", "logLevel", "appHistory", "containerHistory"}


def key_paths(value: object, path: str = "") -> set[str]:
    """Every key path of a JSON value (list items as `[]`): its shape, whatever the times and names in it."""
    if isinstance(value, dict):
        return {path} | {sub for key, item in value.items() for sub in key_paths(item, f"{path}.{key}")}
    if isinstance(value, list):
        return {path} | {sub for item in value for sub in key_paths(item, f"{path}[]")}
    return {path}


def test_the_saved_dump_has_the_live_dumps_shape(core: str, request: pytest.FixtureRequest) -> None:
    """What tests/load/test_yunikorn_rest.py serves is what the core sends: the saved dump of the scenario has the key
    paths of the live one (times differ from run to run)."""
    folder = SCENARIOS[[folder.name for folder in SCENARIOS].index(request.node.callspec.id)]
    saved = json.loads((folder / "debug_fullstatedump.json").read_text(encoding="utf-8"))
    live = fetch_state(core, environ={}).data
    assert key_paths({key: value for key, value in live.items() if key != "ykUsage"}) == key_paths(saved)
