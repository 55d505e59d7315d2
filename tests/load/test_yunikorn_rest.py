"""load.yunikorn_rest against a real local HTTP server that answers with the core's saved REST answers
(tests/data/state/rest-preempt/) and misbehaves on demand: the full dump, the state assembled from /ws/v1 when the
dump is refused, redirects, gzip, the token, and every failure with its exact message."""

from __future__ import annotations

import gzip
import json
import shutil
import socket
import ssl
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.rest_state import STATE, comparable
from yk_cli.load.source import InputError
from yk_cli.load.yunikorn_rest import (
    CA_FILE_ENV,
    DEFAULT_TIMEOUT,
    TOKEN_ENV,
    FetchedState,
    RestError,
    fetch_state,
)

SAVED = STATE / "rest-preempt"
DUMP = json.loads((SAVED / "debug_fullstatedump.json").read_text(encoding="utf-8"))
USERS = json.loads((SAVED / "partition_default_usage_users.json").read_text(encoding="utf-8"))
DATE = "Sat, 28 Nov 2026 03:59:46 GMT"
"""The Date header of every answer of the fake scheduler."""
DATE_NS = 1_795_838_386 * 1_000_000_000  # DATE, in ns since the epoch
JSON = "application/json; charset=UTF-8"
ASSEMBLED_PATHS = [
    "/ws/v1/partitions",
    "/ws/v1/partition/default/queues",
    "/ws/v1/partition/default/nodes",
    "/ws/v1/partition/default/applications/active",
    "/ws/v1/partition/default/applications/completed",
    "/ws/v1/partition/default/applications/rejected",
    "/ws/v1/partition/default/placementrules",
    "/ws/v1/config",
    "/ws/v1/clusters",
    "/ws/v1/partition/default/usage/users",
    "/ws/v1/partition/default/usage/groups",
]


def core_error(status: int, message: str) -> bytes:
    """The body of the core's buildJSONErrorResponse."""
    return (json.dumps({"status_code": status, "message": message, "description": message}) + "\n").encode()


@dataclass
class Canned:
    """An answer the fake scheduler gives instead of the saved one."""

    status: int = 200
    body: bytes = b""
    content_type: str = JSON
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    gzip: bool | None = None
    """None: gzip as the core does (1400 bytes or more, when asked); True: always; False: never."""
    cut: int | None = None
    """Send only this many bytes of the (gzipped) body, with a Content-Length that says so."""
    length: int | None = None
    """A Content-Length other than the body's (the connection then closes early)."""


@dataclass
class Seen:
    """One request the fake scheduler got."""

    method: str
    path: str
    headers: dict[str, str]
    gzipped: bool = False


class FakeScheduler:
    """A ThreadingHTTPServer on 127.0.0.1 answering with the saved REST answers, or with what `canned` says."""

    def __init__(self, tls: ssl.SSLContext | None = None) -> None:
        self.canned: dict[str, Canned] = {}
        self.seen: list[Seen] = []
        self.stopping = threading.Event()
        self.saved = json.loads((SAVED / "index.json").read_text(encoding="utf-8"))
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self.server.fake = self  # type: ignore[attr-defined]
        if tls is not None:
            self.server.socket = tls.wrap_socket(self.server.socket, server_side=True)
        host, port = self.server.server_address[:2]
        self.url = f"{'https' if tls else 'http'}://{host!s}:{port}"
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()

    def stop(self) -> None:
        """Wake sleeping handlers, stop serving, close the socket."""
        self.stopping.set()
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)

    def paths(self) -> list[str]:
        """The paths asked for, in order."""
        return [seen.path for seen in self.seen]

    def answer_for(self, path: str, headers: dict[str, str]) -> Canned:
        """The canned answer, else the saved one (the JSON /ws/v1/config for Accept: application/json), else the
        core's 301 for /ws/v1/fullstatedump, else Go's 404."""
        if path in self.canned:
            return self.canned[path]
        entries = [entry for entry in self.saved if entry["url"] == path]
        for entry in sorted(entries, key=lambda entry: not entry.get("requestHeaders")):
            wanted = entry.get("requestHeaders") or {}
            if all(headers.get(name) == value for name, value in wanted.items()):
                body = (SAVED / entry["file"]).read_bytes()
                return Canned(status=entry["status"], body=body, content_type=entry["contentType"])
        if path == "/ws/v1/fullstatedump":
            body = b'<a href="/debug/fullstatedump">Moved Permanently</a>.\n\n'
            return Canned(301, body, "text/html; charset=utf-8", {"Location": "/debug/fullstatedump"}, gzip=False)
        return Canned(404, b"404 page not found\n", "text/plain; charset=utf-8", gzip=False)

    def answer(self, handler: BaseHTTPRequestHandler) -> None:
        """Record the request and answer it."""
        headers = dict(handler.headers.items())
        seen = Seen(handler.command, handler.path, headers)
        self.seen.append(seen)
        canned = self.answer_for(handler.path, headers)
        if canned.delay and self.stopping.wait(canned.delay):
            return
        body, extra = canned.body, dict(canned.headers)
        accepts = "gzip" in headers.get("Accept-Encoding", "")
        if accepts and (canned.gzip or (canned.gzip is None and len(body) >= 1400)):
            body, seen.gzipped = gzip.compress(body), True
            extra.update({"Content-Encoding": "gzip", "Vary": "Accept-Encoding"})
        if canned.cut is not None:
            body = body[: canned.cut]
        try:
            handler.send_response(canned.status)
            handler.send_header("Content-Type", canned.content_type)
            for name, value in extra.items():
                handler.send_header(name, value)
            handler.send_header("Content-Length", str(canned.length if canned.length is not None else len(body)))
            handler.end_headers()
            handler.wfile.write(body)
        except OSError:  # the client gave up (timeout tests)
            pass


class _Handler(BaseHTTPRequestHandler):
    """Hands every request to the FakeScheduler; quiet, and with a fixed Date header."""

    def do_GET(self) -> None:
        """A GET: the only method yk may use."""
        self.server.fake.answer(self)  # type: ignore[attr-defined]

    def do_POST(self) -> None:
        """Recorded, so that a test sees it was never sent."""
        self.server.fake.answer(self)  # type: ignore[attr-defined]

    def date_time_string(self, timestamp: float | None = None) -> str:
        """A fixed Date header."""
        return DATE

    def log_message(self, format: str, *args: Any) -> None:
        """No logging."""


@pytest.fixture
def fake() -> Iterator[FakeScheduler]:
    """A fake scheduler, stopped after the test."""
    server = FakeScheduler()
    yield server
    server.stop()


@pytest.fixture
def other() -> Iterator[FakeScheduler]:
    """A second fake scheduler (another origin)."""
    server = FakeScheduler()
    yield server
    server.stop()


def fetch(url: str, **kwargs: Any) -> FetchedState:
    """fetch_state with no token and no CA file unless given."""
    kwargs.setdefault("environ", {})
    return fetch_state(url, **kwargs)


def failure(url: str, **kwargs: Any) -> str:
    """The RestError message fetch_state gives."""
    with pytest.raises(RestError) as caught:
        fetch(url, **kwargs)
    return str(caught.value)


def without_usage(data: dict[str, Any]) -> dict[str, Any]:
    """A state without yk's own key."""
    return {key: value for key, value in data.items() if key != "ykUsage"}


USAGE = {"default": {"users": USERS, "groups": []}}


def test_reads_the_full_state_dump(fake: FakeScheduler) -> None:
    state = fetch(fake.url)
    assert state.source == f"{fake.url}/debug/fullstatedump"
    assert state.notes == ()
    assert without_usage(state.data) == {**DUMP, **comparable_lists(state.data)}
    assert comparable(state.data) == comparable(DUMP)
    assert state.data["timestamp"] == DUMP["timestamp"]
    assert state.data["ykUsage"] == USAGE
    assert fake.paths() == ["/debug/fullstatedump", *ASSEMBLED_PATHS[-2:]]
    assert fake.seen[0].gzipped  # the core gzips 1400 bytes or more: this one is 18 kB
    assert {seen.method for seen in fake.seen} == {"GET"}
    assert all(seen.headers["Accept"] == "application/json" for seen in fake.seen)
    assert all(seen.headers["Accept-Encoding"] == "gzip" for seen in fake.seen)


def comparable_lists(data: dict[str, Any]) -> dict[str, Any]:
    """The lists fetch_state sorts, as it gives them (the rest of the dump must be as the core sent it)."""
    return {key: data[key] for key in ("partitions", "applications", "nodes", "clusterInfo", "queues")}


def test_sorts_what_the_core_builds_from_go_maps(fake: FakeScheduler) -> None:
    data = fetch(fake.url).data
    assert [app["applicationID"] for app in data["applications"]] == ["batch-1", "batch-2", "prod-1"]
    keys = [[alloc["allocationKey"] for alloc in app.get("allocations", [])] for app in data["applications"]]
    assert keys == [["b1-0", "b1-1", "b1-2", "b1-3", "b1-4"], ["b2-0", "b2-1", "b2-2", "b2-3"], []]
    nodes = data["nodes"][0]["nodesInfo"]
    assert [[alloc["allocationKey"] for alloc in node["allocations"]] for node in nodes] == [
        ["b1-0", "b1-1", "b1-2", "b1-3", "b1-4"],
        ["b2-0", "b2-1", "b2-2", "b2-3"],
    ]
    assert data["queues"][0]["childNames"] == ["root.batch", "root.prod"]
    assert data["placementRules"] == DUMP["placementRules"]


@pytest.mark.parametrize("suffix", ["", "/", "/debug/fullstatedump", "/debug/fullstatedump/"])
def test_takes_the_base_url_or_the_dump_url(fake: FakeScheduler, suffix: str) -> None:
    state = fetch(fake.url + suffix)
    assert state.source == f"{fake.url}/debug/fullstatedump"
    assert comparable(state.data) == comparable(DUMP)
    assert fake.paths()[0] == "/debug/fullstatedump"


def test_follows_the_cores_redirect_of_the_old_dump_url(fake: FakeScheduler) -> None:
    state = fetch(fake.url + "/ws/v1/fullstatedump")
    assert state.source == f"{fake.url}/debug/fullstatedump"
    assert comparable(state.data) == comparable(DUMP)
    assert fake.paths() == ["/ws/v1/fullstatedump", "/debug/fullstatedump", *ASSEMBLED_PATHS[-2:]]


def refused_note(url: str, status: str) -> str:
    """The note of a refused dump."""
    return (
        f"{url}/debug/fullstatedump refused ({status}): the state was assembled from {url}/ws/v1 (partitions, queues, "
        "nodes, applications, placementrules, config, clusters); those answers come one after another from a running "
        "scheduler, so they may disagree by what changed between them"
    )


def assembled_notes(url: str, status: str) -> tuple[str, ...]:
    """The notes of a state assembled after the dump answered `status`."""
    return (
        refused_note(url, status),
        f"timestamp: the Date header of {url}/ws/v1/partitions ({DATE}), to the second (the full state dump's is the "
        "core's clock in nanoseconds)",
        "the assembled state lacks what only the full state dump carries: rmDiagnostics, logLevel, appHistory, "
        "containerHistory, eventStreams",
    )


@pytest.mark.parametrize(
    ("status", "phrase", "body", "content_type"),
    [
        (401, "401 Unauthorized", b"Unauthorized\n", "text/plain; charset=utf-8"),
        (403, "403 Forbidden", core_error(403, "debug endpoints are disabled"), JSON),
        (404, "404 Not Found", b"404 page not found\n", "text/plain; charset=utf-8"),
    ],
)
def test_assembles_the_state_from_ws_v1_when_the_dump_is_refused(
    fake: FakeScheduler, status: int, phrase: str, body: bytes, content_type: str
) -> None:
    fake.canned["/debug/fullstatedump"] = Canned(status, body, content_type)
    state = fetch(fake.url)
    assert state.source == (
        f"{fake.url} (assembled from /ws/v1: partitions, queues, nodes, applications, placementrules, config, clusters)"
    )
    assert state.notes == assembled_notes(fake.url, phrase)
    assert comparable(state.data) == comparable(DUMP)
    assert state.data["timestamp"] == DATE_NS
    assert state.data["ykUsage"] == USAGE
    only_in_dump = {"rmDiagnostics", "logLevel"}  # (appHistory, containerHistory, eventStreams: empty, left out)
    assert list(state.data) == [key for key in DUMP if key not in only_in_dump] + ["ykUsage"]
    assert fake.paths() == ["/debug/fullstatedump", *ASSEMBLED_PATHS]
    assert {seen.method for seen in fake.seen} == {"GET"}
    config = next(seen for seen in fake.seen if seen.path == "/ws/v1/config")
    assert config.headers["Accept"] == "application/json"


def test_assembled_applications_carry_requests_and_allocations(fake: FakeScheduler) -> None:
    fake.canned["/debug/fullstatedump"] = Canned(404, b"404 page not found\n", "text/plain; charset=utf-8")
    apps = {app["applicationID"]: app for app in fetch(fake.url).data["applications"]}
    assert [ask["allocationKey"] for ask in apps["prod-1"]["requests"]] == ["p-0", "p-1", "p-2", "p-3"]
    assert len(apps["batch-1"]["allocations"]) == 5


def test_the_assembled_state_does_not_depend_on_the_order_of_the_answers(fake: FakeScheduler) -> None:
    fake.canned["/debug/fullstatedump"] = Canned(403, core_error(403, "no"))
    first = fetch(fake.url).data
    apps = json.loads((SAVED / "partition_default_applications_active.json").read_text(encoding="utf-8"))
    for app in apps:
        app.get("allocations", []).reverse()
        app.get("requests", []).reverse()
    fake.canned["/ws/v1/partition/default/applications/active"] = Canned(body=json.dumps(apps[::-1]).encode())
    assert fetch(fake.url).data == first


def test_the_token_is_sent_only_when_set(fake: FakeScheduler) -> None:
    fake.canned["/debug/fullstatedump"] = Canned(403, core_error(403, "no"))
    fetch(fake.url, environ={})
    assert all("Authorization" not in seen.headers for seen in fake.seen)
    fake.seen.clear()
    fetch(fake.url, environ={TOKEN_ENV: "  s3cret\n"})
    assert len(fake.seen) == len(ASSEMBLED_PATHS) + 1
    assert {seen.headers.get("Authorization") for seen in fake.seen} == {"Bearer s3cret"}
    fake.seen.clear()
    fetch(fake.url, environ={TOKEN_ENV: ""})
    assert all("Authorization" not in seen.headers for seen in fake.seen)


def test_the_token_does_not_follow_a_redirect_to_another_origin(fake: FakeScheduler, other: FakeScheduler) -> None:
    fake.canned["/debug/fullstatedump"] = Canned(302, b"", headers={"Location": f"{other.url}/debug/fullstatedump"})
    state = fetch(fake.url, environ={TOKEN_ENV: "s3cret"})
    assert state.source == f"{other.url}/debug/fullstatedump"
    assert fake.seen[0].headers["Authorization"] == "Bearer s3cret"
    assert other.paths() == ["/debug/fullstatedump"]
    assert "Authorization" not in other.seen[0].headers


def test_a_redirect_to_another_scheme_is_refused(fake: FakeScheduler) -> None:
    fake.canned["/debug/fullstatedump"] = Canned(301, b"", headers={"Location": "ftp://example.com/dump"})
    assert failure(fake.url) == (
        f"{fake.url}/debug/fullstatedump redirected to ftp://example.com/dump, not an http(s) URL"
    )


def test_gzip_is_decoded_whatever_the_size(fake: FakeScheduler) -> None:
    fake.canned["/ws/v1/partition/default/usage/users"] = Canned(body=json.dumps(USERS).encode(), gzip=True)
    state = fetch(fake.url)
    assert fake.seen[1].gzipped
    assert state.data["ykUsage"] == USAGE


def test_connection_refused() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    assert failure(url) == f"cannot reach {url}/debug/fullstatedump: connection refused"


def test_unknown_host() -> None:
    assert failure("http://no-such-host.invalid:9080").startswith(
        "cannot reach http://no-such-host.invalid:9080/debug/fullstatedump: unknown host no-such-host.invalid ("
    )


def test_a_server_error_gives_the_cores_message(fake: FakeScheduler) -> None:
    fake.canned["/debug/fullstatedump"] = Canned(500, core_error(500, "json: unsupported value: NaN"))
    assert failure(fake.url) == (
        f"{fake.url}/debug/fullstatedump answered 500 Internal Server Error: json: unsupported value: NaN"
    )


def test_a_server_error_without_the_cores_json(fake: FakeScheduler) -> None:
    fake.canned["/debug/fullstatedump"] = Canned(502, b"<html><body>Bad gateway</body></html>", "text/html")
    assert failure(fake.url) == f"{fake.url}/debug/fullstatedump answered 502 Bad Gateway"
    fake.canned["/debug/fullstatedump"] = Canned(503, b"upstream connect error\nmore", "text/plain")
    assert (
        failure(fake.url) == f"{fake.url}/debug/fullstatedump answered 503 Service Unavailable: upstream connect error"
    )


def test_not_a_scheduler(fake: FakeScheduler) -> None:
    fake.canned["/debug/fullstatedump"] = Canned(404, b"404 page not found\n", "text/plain")
    fake.canned["/ws/v1/partitions"] = Canned(404, b"404 page not found\n", "text/plain")
    assert failure(fake.url) == (
        f"{fake.url}/ws/v1/partitions answered 404 Not Found: 404 page not found (is {fake.url} a YuniKorn "
        "scheduler's REST address? The core serves it on 9080)"
    )


def test_an_error_on_the_rest_api_stops_the_assembly(fake: FakeScheduler) -> None:
    fake.canned["/debug/fullstatedump"] = Canned(404, b"404 page not found\n", "text/plain")
    fake.canned["/ws/v1/partition/default/nodes"] = Canned(404, core_error(404, "Partition not found"))
    assert failure(fake.url) == f"{fake.url}/ws/v1/partition/default/nodes answered 404 Not Found: Partition not found"


@pytest.mark.parametrize(
    ("environ", "hint"),
    [
        ({}, "(set YK_YUNIKORN_TOKEN to a bearer token the scheduler accepts)"),
        ({TOKEN_ENV: "stale"}, "(the scheduler refused the token in YK_YUNIKORN_TOKEN)"),
    ],
)
def test_refusals_of_the_rest_api_mention_the_token(fake: FakeScheduler, environ: dict[str, str], hint: str) -> None:
    fake.canned["/debug/fullstatedump"] = Canned(401, b"Unauthorized\n", "text/plain")
    fake.canned["/ws/v1/partitions"] = Canned(403, core_error(403, "forbidden"))
    assert failure(fake.url, environ=environ) == f"{fake.url}/ws/v1/partitions answered 403 Forbidden: forbidden {hint}"


def test_a_truncated_body(fake: FakeScheduler) -> None:
    body = (SAVED / "debug_fullstatedump.json").read_bytes()
    fake.canned["/debug/fullstatedump"] = Canned(body=body, gzip=False, cut=1000)
    # the 1,000 bytes end inside "maxUsedResource": json's error is at the string that never ends, byte 991
    assert failure(fake.url) == f"{fake.url}/debug/fullstatedump sent a body that is not JSON (truncated?) at byte 991"
    fake.canned["/debug/fullstatedump"] = Canned(body=body, gzip=False, cut=989)  # just after `,\n      `
    assert failure(fake.url) == f"{fake.url}/debug/fullstatedump sent a body that is not JSON (truncated?) at byte 989"


def test_a_truncated_gzip_body(fake: FakeScheduler) -> None:
    fake.canned["/debug/fullstatedump"] = Canned(body=(SAVED / "debug_fullstatedump.json").read_bytes(), cut=500)
    message = failure(fake.url)
    assert message.startswith(f"{fake.url}/debug/fullstatedump sent a gzip body that ends early (truncated?) after ")
    assert message.endswith(" bytes decompressed")


def test_a_connection_closed_before_the_end_of_the_body(fake: FakeScheduler) -> None:
    fake.canned["/debug/fullstatedump"] = Canned(body=b'{"partitions": []}', length=100)
    assert failure(fake.url) == f"{fake.url}/debug/fullstatedump closed the connection after 18 of 100 bytes"


def test_a_body_that_is_not_utf8(fake: FakeScheduler) -> None:
    fake.canned["/debug/fullstatedump"] = Canned(body=b'{"logLevel": "\xff"}')
    assert failure(fake.url) == f"{fake.url}/debug/fullstatedump sent a body that is not UTF-8 at byte 14"


def test_a_body_over_the_limit(fake: FakeScheduler) -> None:
    size = (SAVED / "debug_fullstatedump.json").stat().st_size
    assert failure(fake.url, limit=10_000) == (
        f"{fake.url}/debug/fullstatedump sent a gzip body of more than 10000 bytes decompressed, over the limit of "
        "10000 bytes"
    )
    fake.canned["/debug/fullstatedump"] = Canned(body=(SAVED / "debug_fullstatedump.json").read_bytes(), gzip=False)
    assert failure(fake.url, limit=10_000) == (
        f"{fake.url}/debug/fullstatedump sent a body of {size} bytes, over the limit of 10000 bytes"
    )
    assert fetch(fake.url, limit=size).data["logLevel"] == "fatal"


def test_a_gzip_bomb_is_stopped_at_the_limit(fake: FakeScheduler) -> None:
    fake.canned["/debug/fullstatedump"] = Canned(body=b" " * 50_000_000, gzip=True)
    assert failure(fake.url, limit=1_000_000) == (
        f"{fake.url}/debug/fullstatedump sent a gzip body of more than 1000000 bytes decompressed, over the limit of "
        "1000000 bytes"
    )


def test_a_timeout(fake: FakeScheduler) -> None:
    fake.canned["/debug/fullstatedump"] = Canned(delay=5.0)
    start = time.monotonic()
    assert failure(fake.url, timeout=0.5) == f"no answer from {fake.url}/debug/fullstatedump within 0.5 s"
    assert time.monotonic() - start < 3
    assert DEFAULT_TIMEOUT == 30.0


@pytest.mark.parametrize(
    "url",
    ["ftp://example.com/", "yunikorn-service:9080", "example.com", "http://", "http://host:port", "file:///etc/passwd"],
)
def test_not_an_http_url(url: str) -> None:
    assert failure(url) == f"not an http(s) URL: {url}"


@pytest.mark.parametrize("url", ["http://exa mple.com", "http://host:9080/a\tb", "http://host/\x00"])
def test_a_url_with_a_space_or_a_control_character(url: str) -> None:
    assert failure(url) == f"not an http(s) URL: {url!r} (it holds a space or a control character)"


def test_a_url_with_credentials_or_a_query_is_refused() -> None:
    assert failure("http://user:pw@host:9080") == (
        "not an http(s) URL yk takes: credentials in the URL; set YK_YUNIKORN_TOKEN for a bearer token"
    )
    assert failure("http://host:9080/?x=1") == (
        "not an http(s) URL yk takes: http://host:9080/?x=1 (a scheduler's base URL has no query or fragment)"
    )


def test_an_empty_partition_list(fake: FakeScheduler) -> None:
    fake.canned["/debug/fullstatedump"] = Canned(404, b"404 page not found\n", "text/plain")
    fake.canned["/ws/v1/partitions"] = Canned(body=b"[]\n")
    state = fetch(fake.url)
    notes = assembled_notes(fake.url, "404 Not Found")
    assert state.notes == (notes[0], f"{fake.url}/ws/v1/partitions: the scheduler reports no partitions", *notes[1:])
    config = json.loads((SAVED / "config.json").read_text(encoding="utf-8"))
    assert state.data == {"timestamp": DATE_NS, "clusterInfo": DUMP["clusterInfo"], "config": config, "ykUsage": {}}
    assert fake.paths() == ["/debug/fullstatedump", "/ws/v1/partitions", "/ws/v1/config", "/ws/v1/clusters"]


def test_a_dump_without_partitions(fake: FakeScheduler) -> None:
    fake.canned["/debug/fullstatedump"] = Canned(body=b'{"timestamp": 1, "logLevel": "info"}')
    state = fetch(fake.url)
    assert state.data == {"timestamp": 1, "logLevel": "info", "ykUsage": {}}
    assert state.notes == (f"{fake.url}/debug/fullstatedump: the scheduler reports no partitions",)


@pytest.mark.parametrize(
    ("path", "body", "message"),
    [
        ("/debug/fullstatedump", b"[]", "the body is a list, not an object"),
        ("/debug/fullstatedump", b'{"queues": {}}', "queues is an object, not a list"),
        ("/ws/v1/partitions", b"{}", "the body is an object, not a list"),
        ("/ws/v1/partitions", b"[{}]", "the body[0].name is null, not a name"),
        ("/ws/v1/partition/default/queues", b"[]", "the body is a list, not an object"),
        ("/ws/v1/partition/default/applications/active", b'"none"', "the body is a string, not a list"),
        ("/ws/v1/config", b"1", "the body is a number, not an object"),
    ],
)
def test_json_of_the_wrong_shape(fake: FakeScheduler, path: str, body: bytes, message: str) -> None:
    if path != "/debug/fullstatedump":
        fake.canned["/debug/fullstatedump"] = Canned(403, core_error(403, "no"))
    fake.canned[path] = Canned(body=body)
    assert failure(fake.url) == f"{fake.url}{path} sent JSON of the wrong shape: {message}"


def test_usage_that_cannot_be_read_is_a_note(fake: FakeScheduler) -> None:
    fake.canned["/ws/v1/partition/default/usage/groups"] = Canned(500, core_error(500, "boom"))
    state = fetch(fake.url)
    assert "ykUsage" not in state.data
    assert state.notes == (
        f"no user and group usage (ykUsage): {fake.url}/ws/v1/partition/default/usage/groups answered 500 Internal "
        "Server Error: boom",
    )
    assert comparable(state.data) == comparable(DUMP)


def test_a_rest_error_is_an_input_error() -> None:
    assert issubclass(RestError, InputError)


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and its key (openssl; skipped without it)."""
    if shutil.which("openssl") is None:
        pytest.skip("no openssl to make a certificate with")
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
         "-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1"],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


@pytest.fixture
def tls_fake(certificate: tuple[Path, Path]) -> Iterator[FakeScheduler]:
    """A fake scheduler behind https with the self-signed certificate."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(*certificate)
    server = FakeScheduler(tls=context)
    yield server
    server.stop()


def test_https_with_the_ca_file(tls_fake: FakeScheduler, certificate: tuple[Path, Path]) -> None:
    state = fetch(tls_fake.url, environ={CA_FILE_ENV: str(certificate[0])})
    assert state.source == f"{tls_fake.url}/debug/fullstatedump"
    assert comparable(state.data) == comparable(DUMP)


def test_https_without_the_ca_file(tls_fake: FakeScheduler, certificate: tuple[Path, Path]) -> None:
    assert failure(tls_fake.url) == (
        f"TLS failure talking to {tls_fake.url}/debug/fullstatedump: self-signed certificate; set YK_YUNIKORN_CA_FILE "
        "to the PEM CA bundle that signed the scheduler's certificate"
    )


def test_a_ca_file_that_cannot_be_read(tmp_path: Path) -> None:
    missing = tmp_path / "missing.pem"
    assert failure("https://127.0.0.1:1", environ={CA_FILE_ENV: str(missing)}) == (
        f"cannot use YK_YUNIKORN_CA_FILE={missing}: No such file or directory"
    )
