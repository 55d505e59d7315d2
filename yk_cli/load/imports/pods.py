"""`yk import pods`: a `kubectl get pods -A -o yaml` history -> recorded jobs (one per YuniKorn application), each
pod an ask with its creation, start and finish times."""

from __future__ import annotations

from dataclasses import dataclass

from yk_cli.core.resources import Resource, add_into, k8s_quantity
from yk_cli.core.workload.imports import MIN_DURATION, RecordedAsk, RecordedJob, timestamp_nanos
from yk_cli.core.workload.imports_rules import BAD_POD
from yk_cli.core.yamldoc import Node
from yk_cli.load.imports.rows import BadRows, Imported, Tick, TraceError
from yk_cli.load.kubernetes import application_id, queue_name
from yk_cli.load.source import parse_yaml
from yk_cli.load.yamlreader import loads_like_go

USER_INFO = "yunikorn.apache.org/user.info"
USER_LABEL = "yunikorn.apache.org/username"
INT32 = (-(2**31), 2**31 - 1)


@dataclass(frozen=True, slots=True)
class PodsOptions:
    """Which pods to replay: pending ones (never started) too, or not."""

    keep_pending: bool = True


def read_jobs(display: str, text: str, options: PodsOptions, skip: bool, tick: Tick | None = None) -> Imported:
    """Every pod of the history (Lists flattened), grouped into its YuniKorn application, in file order."""
    out = Imported(display, text)
    parsed = parse_yaml(text)
    bad = BadRows(display, BAD_POD, skip)
    pods = [pod for document in parsed.documents for pod in _pods(document)]
    if not pods and not parsed.problems:
        raise TraceError(f"{display} holds no Pod: dump them with `kubectl get pods -A -o yaml`")
    if tick is not None:
        tick.total = max(len(pods), 1)
    jobs: dict[str, RecordedJob] = {}
    nodes: dict[str, None] = {}
    seen: dict[str, int] = {}
    daemons = pending = unfinished = 0
    for number, pod in enumerate(pods, 1):
        if tick is not None and not number & 1023:
            tick.done = number
        line = pod.span.line
        meta = pod.lookup("metadata")
        where = pod.lookup("metadata", "name") or meta or pod
        name, namespace = pod.lookup_text("metadata", "name"), pod.lookup_text("metadata", "namespace") or "default"
        if not name:
            bad.add_at(where.span, "a pod without metadata.name")
            continue
        key = f"{namespace}/{name}"
        if key in seen:
            bad.add_at(where.span, f"pod {key} appears again (first on line {seen[key]})")
            continue
        if any(ref.lookup_text("kind") == "DaemonSet" for ref in _items(pod.lookup("metadata", "ownerReferences"))):
            daemons += 1
            continue
        try:
            created = _time(pod, bad, line, "metadata", "creationTimestamp")
            started = _time(pod, bad, line, "status", "startTime")
            scheduled = _scheduled(pod, bad)
            finished = _finished(pod, bad)
        except _Bad:
            continue
        if created is None:
            bad.add_at(where.span, f"pod {key} has no metadata.creationTimestamp: its submit time is unknown")
            continue
        start = scheduled if scheduled is not None else started
        phase = pod.lookup_text("status", "phase")
        duration = None
        if start is None:
            pending += 1
            if not options.keep_pending:
                continue
        elif phase in ("Succeeded", "Failed"):
            if finished is None or started is None:
                unfinished += 1
                continue
            if finished < started:
                bad.add_at(where.span, f"pod {key} finished before it started")
                continue
            duration = max(finished - started, MIN_DURATION)
        if start is not None and start < created:
            start = created  # clocks of the API server and the kubelet differ by a second or so
        resources = _resources(pod, bad, key)
        if resources is None:
            continue
        seen[key] = line
        labels, annotations = _strings(meta, "labels"), _strings(meta, "annotations")
        node = pod.lookup_text("spec", "nodeName")
        if node and start is not None:
            nodes.setdefault(node)
        priority_text = pod.lookup_text("spec", "priority")
        digits = priority_text.lstrip("-")
        priority = int(priority_text) if digits.isascii() and digits.isdigit() else None
        if priority is not None and not INT32[0] <= priority <= INT32[1]:
            priority = None
        app_id = application_id(labels, annotations, namespace, pod.lookup_text("metadata", "uid"), False)
        ask = RecordedAsk(key, created, resources, 1, duration, start, priority)
        job = jobs.get(app_id)
        if job is None:
            queue = queue_name(labels, annotations) or f"root.{namespace}"
            jobs[app_id] = RecordedJob(app_id, line, created, queue, [ask], _user(labels, annotations))
        else:
            job.asks.append(ask)
            job.submit = min(job.submit, created)
    out.jobs = list(jobs.values())
    out.rows = len(pods)
    out.node_names = list(nodes)
    if tick is not None:
        tick.done = len(pods)
    if daemons:
        out.notes.append(f"{_pods_count(daemons)} of DaemonSets left out: they run on every node, no queue holds them")
    if pending:
        out.notes.append(
            f"{_pods_count(pending)} that never started (pending when dumped) "
            + ("kept: no observedStartTime, no duration" if options.keep_pending else "left out")
        )
    if unfinished:
        out.notes.append(f"{_pods_count(unfinished)} finished without a start or finishedAt time (evicted?) left out")
    out.problems = [*(p.located(p.span, display) for p in parsed.problems), *bad.problems(text)]
    out.hidden = bad.hidden()
    return out


def _pods(node: Node) -> list[Node]:
    """The Pods of a document: itself, or the items of a List."""
    if node.kind != "map":
        return []
    kind = node.lookup_text("kind")
    if kind == "Pod":
        return [node]
    if kind.endswith("List"):
        return [item for item in _items(node.lookup("items")) if item.lookup_text("kind") in ("Pod", "")]
    return []


def _items(node: Node | None) -> list[Node]:
    return node.items if node is not None and node.kind == "seq" else []


def _strings(node: Node | None, key: str) -> dict[str, str]:
    found = node.lookup(key) if node is not None else None
    if found is None or found.kind != "map":
        return {}
    return {k.text: v.text for k, v in found.pairs if k.kind == "scalar" and v.kind == "scalar" and v.tag != "null"}


class _Bad(Exception):
    """A pod with an unreadable time: reported, left out."""


def _time(pod: Node, bad: BadRows, line: int, *keys: str) -> int | None:
    """An RFC 3339 time in Unix nanoseconds; None when absent; _Bad when unreadable (reported)."""
    text = pod.lookup_text(*keys)
    if not text:
        return None
    nanos = timestamp_nanos(text.strip())
    if nanos is None:
        where = pod.lookup(*keys)
        message = f"{'.'.join(keys)} {text!r} is not an RFC 3339 time"
        if where is not None:
            bad.add_at(where.span, message)
        else:
            bad.add(line, -1, message)
        raise _Bad
    return nanos


def _scheduled(pod: Node, bad: BadRows) -> int | None:
    """When the pod was bound: its PodScheduled condition's lastTransitionTime (status True), else None."""
    for condition in _items(pod.lookup("status", "conditions")):
        if condition.lookup_text("type") == "PodScheduled" and condition.lookup_text("status") == "True":
            return _time(condition, bad, condition.span.line, "lastTransitionTime")
    return None


def _finished(pod: Node, bad: BadRows) -> int | None:
    """The last containers' finishedAt once every container terminated, else None."""
    statuses = _items(pod.lookup("status", "containerStatuses"))
    last: int | None = None
    for status in statuses:
        moment = _time(status, bad, status.span.line, "state", "terminated", "finishedAt")
        if moment is None:
            return None
        last = moment if last is None else max(last, moment)
    return last


def _resources(pod: Node, bad: BadRows, key: str) -> Resource | None:
    """The pod's requests as the shim sums them: `pods: 1`, its containers, the largest init container, overhead."""
    total: Resource = {"pods": 1}
    spec = pod.lookup("spec")
    containers = _items(spec.lookup("containers") if spec is not None else None)
    inits: Resource = {}
    for container in _items(spec.lookup("initContainers") if spec is not None else None):
        request = _requests(container.lookup("resources", "requests"), bad, key)
        if request is None:
            return None
        for name, amount in request.items():
            inits[name] = max(inits.get(name, 0), amount)
    for container in containers:
        request = _requests(container.lookup("resources", "requests"), bad, key)
        if request is None:
            return None
        add_into(total, request)
    for name, amount in inits.items():
        total[name] = max(total.get(name, 0), amount)
    overhead = _requests(spec.lookup("overhead") if spec is not None else None, bad, key)
    if overhead is None:
        return None
    add_into(total, overhead)
    return total


def _requests(node: Node | None, bad: BadRows, key: str) -> Resource | None:
    if node is None or node.kind != "map":
        return {}
    out: Resource = {}
    for name, value in node.pairs:
        amount = k8s_quantity(name.text, value.text) if value.kind == "scalar" else None
        if amount is None or amount < 0:
            bad.add_at(value.span, f"pod {key}: {name.text} {value.text!r} is not a Kubernetes quantity")
            return None
        out["vcore" if name.text == "cpu" else name.text] = amount
    return out


def _user(labels: dict[str, str], annotations: dict[str, str]) -> str:
    """The user of yunikorn.apache.org/user.info (JSON), else the username label, else none."""
    info = annotations.get(USER_INFO, "")
    if info:
        try:
            raw = loads_like_go(info)
        except ValueError:
            raw = None
        if isinstance(raw, dict):
            user = {str(k).lower(): v for k, v in raw.items()}.get("user")
            if isinstance(user, str) and user:
                return user
    return labels.get(USER_LABEL, "")



def _pods_count(count: int) -> str:
    return f"{count:,} pod{'s' if count != 1 else ''}"
