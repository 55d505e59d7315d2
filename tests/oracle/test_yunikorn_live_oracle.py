"""`yk simulate --yunikorn URL` and `yk explain --yunikorn URL POD` against the real YuniKorn core serving each
tests/data/state/rest-* scenario before its first cycle (`-serve-before`), compared with `--state` of the saved dump
of the same start state (tests/data/state/statedump-NAME.json).

Skipped unless the oracle is built ($YK_ORACLE, else ../shared/oracle/bin/simulate beside the repo). The served state
is frozen but real time passes while it serves (asks grow older: submit times and "Ns left" differ by the seconds
the test takes), so pending reasons and explanations are compared with their durations and the source's name
replaced.
"""

from __future__ import annotations

import json
import queue
import re
import signal
import subprocess
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from click.testing import Result

from tests.conftest import run_program
from tests.helpers.oracle import oracle_binary
from tests.helpers.rest_state import STATE

BINARY = oracle_binary()
START_TIMEOUT = 60.0
NAMES = sorted(path.parent.name.removeprefix("rest-") for path in STATE.glob("rest-*/scenario.json"))
PODS = {"plain": ("nb-big", "web-0"), "preempt": ("b1-4", "p-3", "b2-2"), "limits-gang": ("a2-0", "b1-1")}
"""Pods to explain per scenario: pending asks, a preemption victim, plain allocations."""
DURATION = re.compile(r"-?\b\d+(?:\.\d+)?(?:ms|h\d+m\d+s|h\d+m|m\d+s|h|m|s)\b")

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


@pytest.fixture(scope="module")
def serve() -> Iterator[Callable[[str], str]]:
    """The base URL of the real core serving a scenario (started once per module, stopped with SIGTERM after it)."""
    assert BINARY is not None
    running: dict[str, tuple[subprocess.Popen[str], str]] = {}

    def start(name: str) -> str:
        """Serve tests/data/state/rest-NAME/scenario.json before its first cycle."""
        if name not in running:
            scenario = STATE / f"rest-{name}" / "scenario.json"
            command = [str(BINARY), "-log-level", "FATAL", "-serve-before", "-serve", "127.0.0.1:0", str(scenario)]
            process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            running[name] = (process, f"http://{serving_address(process)}")
        return running[name][1]

    try:
        yield start
    finally:
        for process, _ in running.values():
            process.send_signal(signal.SIGTERM)
            try:
                process.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.communicate()


def saved(name: str) -> str:
    """The saved start-state dump of a scenario, relative to the checkout (as run_program runs)."""
    return f"tests/data/state/statedump-{name}.json"


def comparable(text: str, source: str) -> dict[str, Any]:
    """A `yk simulate --format json` report without what differs by source and time: the source's name, and the
    pending asks' submit times and durations."""
    data: dict[str, Any] = json.loads(text.replace(source, "<dump>"))
    pending = [
        {**p, "submitTime": None, "reason": DURATION.sub("<t>", str(p.get("reason")))} for p in data.get("pending", [])
    ]
    return {"events": data.get("events"), "pending": pending}


@pytest.mark.parametrize("name", NAMES)
def test_simulate_yunikorn_equals_the_saved_dump(name: str, serve: Callable[[str], str], run_yk: Any) -> None:
    """The CLI in-process (typer) and as its own process (the fast path) on the live core, against --state."""
    url = serve(name)
    live: Result = run_yk("simulate", "--yunikorn", url, "--until", "0s", "--format", "json", "-q")
    assert live.exit_code == 0, live.output
    code, stdout, stderr = run_program("simulate", "--yunikorn", url, "--until", "0s", "--format", "json", "-q")
    assert code == 0, stderr
    base = run_yk("simulate", "--state", saved(name), "--until", "0s", "--format", "json", "-q")
    assert base.exit_code == 0, base.output
    want = comparable(base.stdout, saved(name))
    assert want["events"], "the saved dump gave no events"
    assert comparable(live.stdout, f"{url}/debug/fullstatedump") == want
    assert comparable(stdout, f"{url}/debug/fullstatedump") == want


def test_yunikorn_notes_name_the_url(serve: Callable[[str], str], run_yk: Any) -> None:
    url = serve("preempt")
    result = run_yk("simulate", "--yunikorn", url, "--until", "0s")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"yk simulate: {url}/debug/fullstatedump (YuniKorn state dump); partition default")
    assert f"yk: note: {url}/debug/fullstatedump: YuniKorn state dump of " in result.stderr


@pytest.mark.parametrize(("name", "pod"), [(name, pod) for name in NAMES for pod in PODS[name]])
def test_explain_yunikorn_equals_the_saved_dump(name: str, pod: str, serve: Callable[[str], str], run_yk: Any) -> None:
    """`yk explain --yunikorn URL POD` says what `yk explain --state FILE POD` says, durations aside."""
    url = serve(name)
    live = run_yk("explain", "--yunikorn", url, pod)
    base = run_yk("explain", "--state", saved(name), pod)
    assert base.exit_code == 0, base.output
    assert live.exit_code == base.exit_code, live.output
    source = f"{url}/debug/fullstatedump"
    got = DURATION.sub("<t>", live.stdout.replace(source, "<dump>"))
    want = DURATION.sub("<t>", base.stdout.replace(saved(name), "<dump>"))
    assert pod in want
    assert got == want
