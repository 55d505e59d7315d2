"""A running YuniKorn scheduler's state over its REST API, read-only: the full state dump, or the same shape assembled.

`fetch_state(url)` GETs `{url}/debug/fullstatedump`. When that answers 401, 403 or 404 (a deployment may protect or
disable the debug endpoints), the dump's shape is assembled from `/ws/v1` instead: `partitions`, per partition its
`queues` tree, `nodes`, `applications` (active, completed and rejected: the dump holds all three, in the same
`ApplicationDAOInfo` with `requests` and `allocations`), `placementRules`, and `config` and `clusterInfo`. Either
way `data["ykUsage"]` (yk's own key: the core's dump has no user or group usage) holds
`{partition: {"users": [...], "groups": [...]}}` from `/ws/v1/partition/P/usage/users` and `/usage/groups`.

Only GET requests, ever. Bodies are read up to a limit (decompressed gzip too). Lists the core builds from Go maps
(whose order differs from call to call) are sorted, so the data does not depend on when it was read, the assembled
`timestamp` excepted. Every failure is a RestError with a one-line message naming the URL.
"""

from __future__ import annotations

import datetime
import email.utils
import http
import http.client
import json
import os
import socket
import ssl
import time
import urllib.error
import urllib.parse
import urllib.request
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from yk_cli.load.source import MAX_BYTES, InputError

TOKEN_ENV = "YK_YUNIKORN_TOKEN"
"""A bearer token, sent as `Authorization: Bearer ...` when set."""
CA_FILE_ENV = "YK_YUNIKORN_CA_FILE"
"""A PEM CA bundle to verify an https scheduler with (else the system's)."""
DEFAULT_TIMEOUT = 30.0
"""Seconds per request."""

DUMP_PATH = "/debug/fullstatedump"
OLD_DUMP_PATH = "/ws/v1/fullstatedump"
"""The dump's old address: the core answers it with a 301 to DUMP_PATH."""
FALLBACK_STATUSES = frozenset({401, 403, 404})
"""Answers of the dump that make fetch_state assemble the state from /ws/v1 instead."""
ERROR_BODY_LIMIT = 64 * 1024
"""Most bytes read of an error answer (for the core's error JSON)."""
CHUNK = 64 * 1024
APP_STATES = ("active", "completed", "rejected")
"""The dump's applications are the partition's active, then completed, then rejected ones."""
ASSEMBLED_FROM = "partitions, queues, nodes, applications, placementrules, config, clusters"
ONLY_IN_DUMP = "rmDiagnostics, logLevel, appHistory, containerHistory, eventStreams"
DUMP_LISTS = (
    "partitions",
    "applications",
    "appHistory",
    "nodes",
    "clusterInfo",
    "containerHistory",
    "queues",
    "placementRules",
    "eventStreams",
)
"""The dump's top-level keys that hold lists (absent or null when empty)."""


class RestError(InputError):
    """The scheduler could not be read: the message (one line, naming the URL) is what the CLI prints."""


class _StatusError(RestError):
    """An HTTP error answer: `status` lets fetch_state fall back on the ones the debug endpoints may give."""

    def __init__(self, message: str, url: str, status: int, phrase: str) -> None:
        super().__init__(message)
        self.url = url
        self.status = status
        self.phrase = phrase


@dataclass(frozen=True, slots=True)
class FetchedState:
    """The scheduler's state in the full state dump's shape, where it came from, and notes for the user."""

    data: dict[str, Any]
    source: str
    notes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Answer:
    """One 200 answer: the URL that gave it (after redirects), its JSON, its Date header."""

    url: str
    body: Any
    date: str | None


def fetch_state(
    url: str,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    limit: int = MAX_BYTES,
    environ: Mapping[str, str] | None = None,
) -> FetchedState:
    """The state of the scheduler at `url` (its base URL, or the dump's URL): the full state dump, else assembled
    from /ws/v1 when the dump answers 401, 403 or 404; RestError when it cannot be read."""
    client = _Client(url, timeout, limit, os.environ if environ is None else environ)
    try:
        answer = client.get(client.first_path)
    except _StatusError as err:
        if err.status not in FALLBACK_STATUSES:
            raise
        refused = (
            f"{err.url} refused ({err.status} {err.phrase}): the state was assembled from {client.base}/ws/v1 "
            f"({ASSEMBLED_FROM}); those answers come one after another from a running scheduler, so they may "
            "disagree by what changed between them"
        )
        return _assemble(client, refused)
    data = _object(answer.url, answer.body, "the body")
    for key in DUMP_LISTS:
        if data.get(key) is not None:
            _list(answer.url, data[key], key)
    notes: list[str] = []
    names = _partition_names(answer.url, data.get("partitions") or [], "partitions")
    if not names:
        notes.append(f"{answer.url}: the scheduler reports no partitions")
    usage, note = _usage(client, names)
    if usage is not None:
        data["ykUsage"] = usage
    if note:
        notes.append(note)
    _canonical(data)
    return FetchedState(data=data, source=answer.url, notes=tuple(notes))


def _assemble_state(
    url: str,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    limit: int = MAX_BYTES,
    environ: Mapping[str, str] | None = None,
) -> FetchedState:
    """The state assembled from /ws/v1 without asking for the dump first (for tests against the real core)."""
    return _assemble(_Client(url, timeout, limit, os.environ if environ is None else environ), None)


def _assemble(client: _Client, refused: str | None) -> FetchedState:
    """The full state dump's shape from /ws/v1 (keys as the core writes them, empty lists left out as it does)."""
    notes = [refused] if refused else []
    try:
        first = client.get("/ws/v1/partitions")
    except _StatusError as err:
        if err.status != 404:
            raise
        raise RestError(
            f"{err} (is {client.base} a YuniKorn scheduler's REST address? The core serves it on 9080)"
        ) from None
    partitions = _list(first.url, first.body, "the body")
    names = sorted(set(_partition_names(first.url, partitions, "the body")))
    if not names:
        notes.append(f"{first.url}: the scheduler reports no partitions")
    applications: list[Any] = []
    nodes: list[Any] = []
    queues: list[Any] = []
    rules: list[Any] = []
    for name in names:
        prefix = f"/ws/v1/partition/{urllib.parse.quote(name, safe='')}"
        answer = client.get(f"{prefix}/queues")
        queues.append(_object(answer.url, answer.body, "the body"))
        answer = client.get(f"{prefix}/nodes")
        nodes.append(_omitempty({"partitionName": name, "nodesInfo": _list(answer.url, answer.body, "the body")}))
        for state in APP_STATES:
            answer = client.get(f"{prefix}/applications/{state}")
            applications.extend(_list(answer.url, answer.body, "the body"))
        answer = client.get(f"{prefix}/placementrules")
        rules.append(_omitempty({"partition": name, "rules": _list(answer.url, answer.body, "the body")}))
    answer = client.get("/ws/v1/config")
    config = _object(answer.url, answer.body, "the body")
    answer = client.get("/ws/v1/clusters")
    clusters = _list(answer.url, answer.body, "the body")
    timestamp, stamped = _timestamp(first)
    notes.append(stamped)
    data = _omitempty(
        {
            "timestamp": timestamp,
            "partitions": partitions,
            "applications": applications,
            "nodes": nodes,
            "clusterInfo": clusters,
            "queues": queues,
            "config": config,
            "placementRules": rules,
        }
    )
    notes.append(f"the assembled state lacks what only the full state dump carries: {ONLY_IN_DUMP}")
    usage, note = _usage(client, names)
    if usage is not None:
        data["ykUsage"] = usage
    if note:
        notes.append(note)
    _canonical(data)
    source = f"{client.base} (assembled from /ws/v1: {ASSEMBLED_FROM})"
    return FetchedState(data=data, source=source, notes=tuple(notes))


def _usage(client: _Client, names: list[str]) -> tuple[dict[str, Any] | None, str | None]:
    """ykUsage for the partitions, or None and a note when an answer fails (the state is complete without it)."""
    usage: dict[str, Any] = {}
    try:
        for name in names:
            prefix = f"/ws/v1/partition/{urllib.parse.quote(name, safe='')}/usage"
            users = client.get(f"{prefix}/users")
            groups = client.get(f"{prefix}/groups")
            usage[name] = {
                "users": _list(users.url, users.body, "the body"),
                "groups": _list(groups.url, groups.body, "the body"),
            }
    except RestError as err:
        return None, f"no user and group usage (ykUsage): {err}"
    return usage, None


def _timestamp(answer: _Answer) -> tuple[int, str]:
    """The dump's timestamp (ns since the epoch) from an answer's Date header, and the note saying so."""
    when = None
    if answer.date:
        try:
            when = email.utils.parsedate_to_datetime(answer.date)
        except (TypeError, ValueError):
            when = None
    if when is None:
        return time.time_ns(), f"timestamp: this machine's clock ({answer.url} sent no usable Date header)"
    if when.tzinfo is None:  # "-0000": UTC, its source unknown (RFC 5322)
        when = when.replace(tzinfo=datetime.UTC)
    return int(when.timestamp()) * 1_000_000_000, (
        f"timestamp: the Date header of {answer.url} ({answer.date}), to the second (the full state dump's is the "
        "core's clock in nanoseconds)"
    )


class _Client:
    """GET requests to one scheduler: its base URL, headers, TLS context, timeout and body limit."""

    def __init__(self, url: str, timeout: float, limit: int, environ: Mapping[str, str]) -> None:
        self.base, self.first_path = _split_url(url)
        self.timeout = timeout
        self.limit = limit
        self.token = (environ.get(TOKEN_ENV) or "").strip()
        if any(char in self.token for char in "\r\n\0"):
            raise RestError(f"{TOKEN_ENV} holds a line break or NUL: it cannot be sent in a header")
        self.ca_file = environ.get(CA_FILE_ENV) or None
        handlers: list[urllib.request.BaseHandler] = [_Redirects()]
        if self.base.startswith("https:"):
            handlers.append(urllib.request.HTTPSHandler(context=self._tls_context()))
        self.opener = urllib.request.build_opener(*handlers)

    def _tls_context(self) -> ssl.SSLContext:
        """The system's CA bundle, or the one CA_FILE_ENV names."""
        try:
            return ssl.create_default_context(cafile=self.ca_file)
        except (OSError, ssl.SSLError) as err:
            cause = getattr(err, "strerror", None) or getattr(err, "reason", None) or str(err)
            raise RestError(f"cannot use {CA_FILE_ENV}={self.ca_file}: {cause}") from None

    def get(self, path: str) -> _Answer:
        """GET base + path: its JSON (not yet checked for shape); RestError (_StatusError for HTTP errors)."""
        url = self.base + path
        request = urllib.request.Request(url, method="GET")
        request.add_header("Accept", "application/json")
        request.add_header("Accept-Encoding", "gzip")
        if self.token:
            request.add_header("Authorization", f"Bearer {self.token}")
        deadline = time.monotonic() + self.timeout
        try:
            with self.opener.open(request, timeout=self.timeout) as response:
                answered = response.geturl()
                body = _read_body(response, answered, self.limit, lambda: self._check_deadline(deadline, url))
                return _Answer(url=answered, body=_json(answered, body), date=response.headers.get("Date"))
        except urllib.error.HTTPError as err:
            raise self._status_error(err) from None
        except urllib.error.URLError as err:
            raise self._unreachable(url, err.reason) from None
        except http.client.IncompleteRead:
            raise RestError(f"{url} closed the connection before the end of its body") from None
        except http.client.InvalidURL as err:
            raise RestError(f"not an http(s) URL: {url} ({err})") from None
        except http.client.RemoteDisconnected:
            raise RestError(f"{url} closed the connection without an answer") from None
        except http.client.HTTPException as err:
            raise RestError(f"{url} did not answer in HTTP: {type(err).__name__} {err}".rstrip()) from None
        except OSError as err:
            raise self._unreachable(url, err) from None
        except ValueError as err:
            raise RestError(f"cannot read {url}: {err}") from None

    def _check_deadline(self, deadline: float, url: str) -> None:
        """RestError when a request has taken longer than the timeout in all (a slow trickle of bytes included)."""
        if time.monotonic() > deadline:
            raise RestError(f"no answer from {url} within {self.timeout:g} s")

    def _unreachable(self, url: str, reason: object) -> RestError:
        """The RestError for a request that got no HTTP answer: timeout, TLS, refused, unknown host."""
        if isinstance(reason, TimeoutError):
            return RestError(f"no answer from {url} within {self.timeout:g} s")
        if isinstance(reason, ssl.SSLCertVerificationError):
            return RestError(f"TLS failure talking to {url}: {reason.verify_message}; {self._ca_hint()}")
        if isinstance(reason, ssl.SSLError):
            cause = reason.reason or str(reason)
            return RestError(f"TLS failure talking to {url}: {cause}; {self._ca_hint()}")
        if isinstance(reason, ConnectionRefusedError):
            return RestError(f"cannot reach {url}: connection refused")
        if isinstance(reason, socket.gaierror):
            host = urllib.parse.urlsplit(url).hostname
            return RestError(f"cannot reach {url}: unknown host {host} ({reason.strerror})")
        if isinstance(reason, OSError):
            return RestError(f"cannot reach {url}: {reason.strerror or reason}")
        return RestError(f"cannot reach {url}: {reason}")

    def _ca_hint(self) -> str:
        """What to do about a TLS failure."""
        if self.ca_file:
            return f"{CA_FILE_ENV} names {self.ca_file}: is that the CA bundle that signed the scheduler's certificate?"
        return f"set {CA_FILE_ENV} to the PEM CA bundle that signed the scheduler's certificate"

    def _status_error(self, err: urllib.error.HTTPError) -> _StatusError:
        """An HTTP error answer as a _StatusError: status, reason, the core's error message, what to do on 401/403."""
        url = err.url or err.filename or self.base
        try:
            phrase = http.HTTPStatus(err.code).phrase
        except ValueError:
            phrase = str(err.reason or "").strip()
        message = f"{url} answered {err.code} {phrase}".rstrip()
        detail = _error_detail(err, url, min(self.limit, ERROR_BODY_LIMIT))
        if detail:
            message += f": {detail}"
        if err.code in (401, 403):
            if self.token:
                message += f" (the scheduler refused the token in {TOKEN_ENV})"
            else:
                message += f" (set {TOKEN_ENV} to a bearer token the scheduler accepts)"
        return _StatusError(message, url, err.code, phrase)


class _Redirects(urllib.request.HTTPRedirectHandler):
    """Redirects of GET requests to http(s) only, the bearer token kept only on the same scheme, host and port."""

    max_redirections = 5

    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: Any,
        code: int,
        msg: str,
        headers: Any,
        newurl: str,
    ) -> urllib.request.Request | None:
        """The redirected request: refused to another scheme than http(s); no token to another origin."""
        target = urllib.parse.urlsplit(urllib.parse.urljoin(req.full_url, newurl))
        if target.scheme not in ("http", "https"):
            raise RestError(f"{req.full_url} redirected to {newurl}, not an http(s) URL")
        new = super().redirect_request(req, fp, code, msg, headers, newurl)
        if new is not None:
            origin = urllib.parse.urlsplit(req.full_url)
            if (origin.scheme, origin.netloc) != (target.scheme, target.netloc):
                new.remove_header("Authorization")
        return new


def _split_url(url: str) -> tuple[str, str]:
    """The scheduler's base URL (no trailing slash) and the path to ask for the dump; RestError if not http(s)."""
    text = url.strip()
    if any(char.isspace() or not char.isprintable() for char in text):
        raise RestError(f"not an http(s) URL: {url!r} (it holds a space or a control character)")
    try:
        parts = urllib.parse.urlsplit(text)
        port_ok = parts.port is None or parts.port > 0
    except ValueError:
        raise RestError(f"not an http(s) URL: {url}") from None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname or not port_ok:
        raise RestError(f"not an http(s) URL: {url}")
    if parts.username is not None or parts.password is not None:
        raise RestError(f"not an http(s) URL yk takes: credentials in the URL; set {TOKEN_ENV} for a bearer token")
    if parts.query or parts.fragment:
        raise RestError(f"not an http(s) URL yk takes: {url} (a scheduler's base URL has no query or fragment)")
    path = parts.path.rstrip("/")
    first = DUMP_PATH
    for suffix in (DUMP_PATH, OLD_DUMP_PATH):
        if path.endswith(suffix):
            path, first = path[: -len(suffix)], suffix
            break
    return urllib.parse.urlunsplit((parts.scheme.lower(), parts.netloc, path, "", "")), first


def _read_body(response: Any, url: str, limit: int, check: Callable[[], None]) -> bytes:
    """The body, gzip decoded, at most `limit` bytes (RestError beyond, before reading it when its length says so);
    `check` runs after every chunk (the request's deadline)."""
    encoding = (response.headers.get("Content-Encoding") or "identity").strip().lower()
    if encoding not in ("identity", "gzip", "x-gzip"):
        raise RestError(f"{url} sent a body in an encoding yk does not read (Content-Encoding: {encoding})")
    gzipped = encoding != "identity"
    length = response.headers.get("Content-Length")
    if not gzipped and length and length.strip().isdigit() and int(length) > limit:
        raise RestError(f"{url} sent a body of {int(length)} bytes, over the limit of {limit} bytes")
    out = bytearray()
    received = 0
    decoder = zlib.decompressobj(wbits=31) if gzipped else None
    try:
        while chunk := response.read(CHUNK):
            check()
            received += len(chunk)
            if decoder is None:
                out += chunk
                if len(out) > limit:
                    raise RestError(f"{url} sent a body of more than {limit} bytes, over the limit of {limit} bytes")
                continue
            while chunk:
                out += decoder.decompress(chunk, limit + 1 - len(out))
                if len(out) > limit:
                    raise RestError(
                        f"{url} sent a gzip body of more than {limit} bytes decompressed, over the limit of "
                        f"{limit} bytes"
                    )
                if decoder.eof:
                    chunk = decoder.unused_data
                    if chunk:
                        decoder = zlib.decompressobj(wbits=31)
                else:
                    chunk = decoder.unconsumed_tail
    except zlib.error as err:
        raise RestError(f"{url} sent a gzip body that is corrupt ({err})") from None
    if length and length.strip().isdigit() and received < int(length):
        raise RestError(f"{url} closed the connection after {received} of {int(length)} bytes")
    if decoder is not None and not decoder.eof:
        raise RestError(f"{url} sent a gzip body that ends early (truncated?) after {len(out)} bytes decompressed")
    return bytes(out)


def _error_detail(err: urllib.error.HTTPError, url: str, limit: int) -> str:
    """The core's error JSON `message`, else the first line of a plain-text body, else nothing."""
    try:
        body = _read_body(err, url, limit, lambda: None)
    except (RestError, OSError, http.client.HTTPException, AttributeError, ValueError):
        return ""
    finally:
        err.close()
    text = body.decode("utf-8", errors="replace").strip()
    try:
        value = json.loads(text)
    except ValueError:
        value = None
    if isinstance(value, dict) and isinstance(value.get("message"), str):
        return " ".join(value["message"].split())
    content_type = (err.headers.get("Content-Type") or "").lower() if err.headers else ""
    if content_type.startswith("text/plain") and text:
        line = " ".join(text.splitlines()[0].split())
        return line if len(line) <= 200 else line[:199] + "…"
    return ""


def _json(url: str, body: bytes) -> Any:
    """A body's JSON; RestError at the byte where it stops being UTF-8 or JSON."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as err:
        raise RestError(f"{url} sent a body that is not UTF-8 at byte {err.start}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        at = len(text[: err.pos].encode("utf-8"))
        raise RestError(f"{url} sent a body that is not JSON (truncated?) at byte {at}") from None
    except (ValueError, RecursionError) as err:
        raise RestError(f"{url} sent a body yk cannot read as JSON ({err})") from None


def _kind(value: Any) -> str:
    """A JSON value's kind, for shape errors."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a string"
    return "a number"


def _object(url: str, value: Any, what: str) -> dict[str, Any]:
    """`value` if it is a JSON object, else RestError."""
    if not isinstance(value, dict):
        raise RestError(f"{url} sent JSON of the wrong shape: {what} is {_kind(value)}, not an object")
    return value


def _list(url: str, value: Any, what: str) -> list[Any]:
    """`value` if it is a JSON list (null, a Go nil slice, is the empty list), else RestError."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise RestError(f"{url} sent JSON of the wrong shape: {what} is {_kind(value)}, not a list")
    return value


def _partition_names(url: str, partitions: list[Any], what: str) -> list[str]:
    """The `name` of each partition, in order; RestError when one is not an object with a non-empty name."""
    names: list[str] = []
    for index, partition in enumerate(partitions):
        item = _object(url, partition, f"{what}[{index}]")
        name = item.get("name")
        if not isinstance(name, str) or not name:
            raise RestError(f"{url} sent JSON of the wrong shape: {what}[{index}].name is {_kind(name)}, not a name")
        names.append(name)
    return names


def _omitempty(values: dict[str, Any]) -> dict[str, Any]:
    """The keys whose value is not an empty list (the core's `omitempty` on its lists)."""
    return {key: value for key, value in values.items() if value != []}


def _sort_by(items: Any, *fields: str) -> None:
    """Sort a list of objects in place by some of their fields (anything else sorts first, as "")."""
    if isinstance(items, list):
        items.sort(key=lambda item: tuple(str(item.get(f, "")) if isinstance(item, dict) else "" for f in fields))


def _sort_strings(items: Any) -> None:
    """Sort a list of strings in place (left alone if it holds anything else)."""
    if isinstance(items, list) and all(isinstance(item, str) for item in items):
        items.sort()


def _each(items: Any) -> list[dict[str, Any]]:
    """The objects of a list (nothing for anything that is not a list)."""
    return [item for item in items if isinstance(item, dict)] if isinstance(items, list) else []


def _canonical(data: dict[str, Any]) -> None:
    """Sort in place the lists the core builds from Go maps, whose order differs from call to call."""
    _sort_by(data.get("partitions"), "name")
    _sort_by(data.get("applications"), "partition", "applicationID")
    for app in _each(data.get("applications")):
        _sort_by(app.get("requests"), "allocationKey")
        _sort_by(app.get("allocations"), "allocationKey")
        _sort_by(app.get("placeholderData"), "taskGroupName")
        _sort_strings(app.get("reservations"))
    _sort_by(data.get("nodes"), "partitionName")
    for partition in _each(data.get("nodes")):
        _sort_by(partition.get("nodesInfo"), "nodeID")
        for node in _each(partition.get("nodesInfo")):
            _sort_by(node.get("allocations"), "allocationKey")
            _sort_by(node.get("foreignAllocations"), "allocationKey")
            _sort_strings(node.get("reservations"))
    _sort_by(data.get("clusterInfo"), "partition")
    _sort_by(data.get("queues"), "partition")
    for queue in _each(data.get("queues")):
        _canonical_queue(queue)
    _sort_by(data.get("placementRules"), "partition")
    usage = data.get("ykUsage")
    for tables in usage.values() if isinstance(usage, dict) else ():
        if isinstance(tables, dict):
            _sort_by(tables.get("users"), "userName")
            _sort_by(tables.get("groups"), "groupName")
            for tracker in _each(tables.get("users")) + _each(tables.get("groups")):
                _sort_strings(tracker.get("applications"))
                if isinstance(tracker.get("queues"), dict):
                    _canonical_usage(tracker["queues"])


def _canonical_queue(queue: dict[str, Any]) -> None:
    """Sort a queue tree's children by name, all the way down (iteratively: trees may be deep)."""
    stack = [queue]
    while stack:
        node = stack.pop()
        _sort_by(node.get("children"), "queuename")
        _sort_strings(node.get("childNames"))
        stack.extend(_each(node.get("children")))


def _canonical_usage(queue: dict[str, Any]) -> None:
    """Sort a usage tracker's queue tree: children by path, running applications by ID."""
    stack = [queue]
    while stack:
        node = stack.pop()
        _sort_by(node.get("children"), "queuePath")
        _sort_strings(node.get("runningApplications"))
        stack.extend(_each(node.get("children")))
