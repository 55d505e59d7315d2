"""A `yk sweep` spec: the base config and workloads, the parameters to vary and the objective, read and checked
key by key with every problem at once at its file:line:col."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from yk_cli.core.config.properties import parse_go_duration
from yk_cli.core.config.queues import QueueTree
from yk_cli.core.diagnostics import Span
from yk_cli.core.sweep.constraints import AT_LEAST, AT_MOST, Bound, parse_limit
from yk_cli.core.sweep.params import check_value, parse_path
from yk_cli.core.sweep.points import MAX_POINTS, Parameter, expand
from yk_cli.core.sweep.search import BISECT, METHODS, RANDOM, SearchSpec
from yk_cli.core.yamldoc import Node
from yk_cli.load.policy import did_you_mean
from yk_cli.load.source import InputError, parse_yaml, read_small_text, shown_name

TOP_KEYS = ("config", "workloads", "partition", "until", "parameters", "objective", "constraints", "search")
PARAMETER_KEYS = ("path", "label", "values")
CONSTRAINT_KEYS = ("metric", AT_MOST, AT_LEAST, "policy")
SEARCH_OPTIONS = {RANDOM: ("count", "seed"), BISECT: ("points-per-round",)}
DIRECTIONS = ("minimize", "maximize")
MAX_SPEC_BYTES = 1 << 20


Report = Callable[[Node | Span, str], None]
"""Records a problem at a node (or a span) of the spec."""


class SpecError(Exception):
    """A spec yk cannot use: every problem as `file:line:col: message`, in file order."""

    def __init__(self, messages: list[str]) -> None:
        super().__init__("\n".join(messages))
        self.messages = messages


@dataclass(frozen=True, slots=True)
class RawParameter:
    """A parameter as written: its path and values (expanded), with where they are."""

    path: str
    label: str
    values: tuple[object, ...]
    path_span: Span
    values_span: Span


@dataclass(slots=True)
class Spec:
    """A read spec: files resolved against the spec's folder, the parameters still to resolve against the config."""

    file: str
    config: str
    workloads: list[str]
    parameters: list[RawParameter]
    partition: str | None = None
    until: int | None = None
    objective: tuple[str, str] | None = None
    """(minimize or maximize, metric key)."""
    objective_span: Span | None = None
    spans: dict[str, Span] = field(default_factory=dict)
    bounds: list[tuple[Bound, Span]] = field(default_factory=list)
    """yk tune's metric bounds, with where each metric is named."""
    policies: list[tuple[str, Span]] = field(default_factory=list)
    """yk tune's `yk check` policies (files relative to the spec), with where each is named."""
    search: SearchSpec = field(default_factory=SearchSpec)
    search_span: Span | None = None


def read_spec(name: str) -> Spec:
    """Read and check a spec file; SpecError listing every problem."""
    try:
        text = read_small_text(name, MAX_SPEC_BYTES)
    except InputError as err:
        raise SpecError([str(err)]) from None
    base = Path(name).parent if name != "-" else Path(".")
    return parse_spec(text, shown_name(name), base)


def parse_spec(text: str, shown: str, base: Path) -> Spec:
    """Check a spec's text; paths in it are relative to `base`."""
    parsed = parse_yaml(text)
    if parsed.problems:
        raise SpecError([f"{shown}:{p.span.line}:{p.span.column}: {p.message}" for p in parsed.problems if p.span])
    documents = [d for d in parsed.documents if d is not None]
    found: list[tuple[int, int, str]] = []

    def bad(node: Node | Span, message: str) -> None:
        span = node if isinstance(node, Span) else node.span
        found.append((span.line, span.column, message))

    if len(documents) != 1 or documents[0].kind != "map":
        raise SpecError([f"{shown}:1:1: a sweep spec is one YAML mapping (config, workloads, parameters, ...)"])
    root = documents[0]
    for key, _ in root.pairs:
        if key.text not in TOP_KEYS:
            bad(key, f"unknown key {key.text!r}{did_you_mean(key.text, TOP_KEYS)}; the keys are {', '.join(TOP_KEYS)}")
    spec = Spec(shown, "", [], [])
    config = root.get("config")
    if config is None or config.kind != "scalar" or not config.text.strip():
        bad(config or root, "config: give the queue config's file (relative to the spec)")
    else:
        spec.config = os.path.normpath(base / config.text.strip())
        spec.spans["config"] = config.span
    workloads = root.get("workloads")
    items = workloads.items if workloads is not None and workloads.kind == "seq" else None
    if workloads is not None and workloads.kind == "scalar" and workloads.text.strip():
        items = [workloads]
    if not items or any(i.kind != "scalar" or not i.text.strip() for i in items):
        bad(workloads or root, "workloads: give one workload file, or a list of them (relative to the spec)")
    else:
        spec.workloads = [os.path.normpath(base / i.text.strip()) for i in items]
        spec.spans["workloads"] = (workloads or root).span
    partition = root.get("partition")
    if partition is not None:
        if partition.kind != "scalar" or not partition.text.strip():
            bad(partition, "partition: a partition name")
        else:
            spec.partition = partition.text.strip()
    until = root.get("until")
    if until is not None:
        parsed_until = parse_go_duration(until.text.strip()) if until.kind == "scalar" else None
        if parsed_until is None or parsed_until < 0:
            bad(until, f"until: {until.text!r} is not a duration (e.g. 24h, 90m)")
        else:
            spec.until = parsed_until
    _parameters(root.get("parameters"), root, spec, bad)
    _objective(root.get("objective"), spec, bad)
    _constraints(root.get("constraints"), spec, base, bad)
    _search(root.get("search"), spec, bad)
    if found:
        raise SpecError([f"{shown}:{line}:{column}: {message}" for line, column, message in sorted(found)])
    return spec


def _parameters(node: Node | None, root: Node, spec: Spec, bad: Report) -> None:
    if node is None or node.kind != "seq" or not node.items:
        bad(node or root, "parameters: a list of {path, values} (label optional)")
        return
    labels: set[str] = set()
    for item in node.items:
        if item.kind != "map":
            bad(item, "a parameter is a mapping: {path: ..., values: ...}")
            continue
        for key, _ in item.pairs:
            if key.text not in PARAMETER_KEYS:
                bad(key, f"unknown key {key.text!r}{did_you_mean(key.text, PARAMETER_KEYS)}; a parameter has "
                         f"{', '.join(PARAMETER_KEYS)}")
        path, values, label = item.get("path"), item.get("values"), item.get("label")
        if path is None or path.kind != "scalar" or not path.text.strip():
            bad(path or item, "path: the setting to vary (e.g. root.prod.resources.guaranteed.vcore)")
            continue
        if values is None:
            bad(item, "values: a list, {from, to, step} or {random: {low, high, count, seed}}")
            continue
        try:
            expanded = expand(_plain(values))
        except ValueError as err:
            bad(values, f"values: {err}")
            continue
        name = label.text.strip() if label is not None and label.kind == "scalar" else path.text.strip()
        if name in labels:
            bad(label or path, f"{name!r} names two parameters: give each its own label")
        labels.add(name)
        spec.parameters.append(RawParameter(path.text.strip(), name, expanded, path.span, values.span))


def _objective(node: Node | None, spec: Spec, bad: Report) -> None:
    if node is None:
        return
    if node.kind != "map" or len(node.pairs) != 1 or node.pairs[0][0].text not in DIRECTIONS:
        bad(node, "objective: {minimize: METRIC} or {maximize: METRIC} (e.g. minimize: p95-wait:queue=root.prod)")
        return
    key, value = node.pairs[0]
    if value.kind != "scalar" or not value.text.strip():
        bad(value, "the metric to optimize (e.g. p95-wait, utilization:vcore, fairness-gap:root.prod)")
        return
    spec.objective = (key.text, value.text.strip())
    spec.objective_span = value.span


def _constraints(node: Node | None, spec: Spec, base: Path, bad: Report) -> None:
    if node is None:
        return
    if node.kind != "seq":
        bad(node, "constraints: a list of {metric, at-most | at-least} and {policy: FILE}")
        return
    for item in node.items:
        if item.kind != "map":
            bad(item, "a constraint is {metric: METRIC, at-most: LIMIT}, {metric: METRIC, at-least: LIMIT} or "
                      "{policy: FILE}")
            continue
        for key, _ in item.pairs:
            if key.text not in CONSTRAINT_KEYS:
                bad(key, f"unknown key {key.text!r}{did_you_mean(key.text, CONSTRAINT_KEYS)}; a constraint has "
                         f"{', '.join(CONSTRAINT_KEYS)}")
        policy, metric = item.get("policy"), item.get("metric")
        relations = [(r, v) for r in (AT_MOST, AT_LEAST) if (v := item.get(r)) is not None]
        if policy is not None:
            if metric is not None or relations:
                bad(item, "a policy constraint is {policy: FILE} alone")
            elif policy.kind != "scalar" or not policy.text.strip():
                bad(policy, "policy: a `yk check` policy file (relative to the spec)")
            else:
                spec.policies.append((os.path.normpath(base / policy.text.strip()), policy.span))
            continue
        if metric is None or metric.kind != "scalar" or not metric.text.strip():
            bad(metric or item, "metric: the metric to bound (e.g. p95-wait:queue=root.prod)")
            continue
        if not relations:
            bad(item, f"{metric.text.strip()}: give at-most, at-least or both")
        for relation, value in relations:
            written = value.value if value.kind == "scalar" else None
            try:
                limit = parse_limit(metric.text.strip(), written)
            except ValueError as err:
                bad(value, f"{relation}: {err}")
                continue
            shown = value.text.strip() if isinstance(written, str) else str(written)
            spec.bounds.append((Bound(metric.text.strip(), relation, limit, shown), metric.span))


def _search(node: Node | None, spec: Spec, bad: Report) -> None:
    if node is None:
        return
    spec.search_span = node.span
    method: str | None = node.text.strip() if node.kind == "scalar" else None
    options: Node | None = None
    if node.kind == "map" and len(node.pairs) == 1:
        method, options = node.pairs[0][0].text, node.pairs[0][1]
    if method not in METHODS:
        bad(node, f"search: {', '.join(METHODS)}, {{random: {{count, seed}}}} or {{bisect: {{points-per-round}}}}")
        return
    found: dict[str, int] = {}
    if options is not None:
        allowed = SEARCH_OPTIONS.get(method, ())
        if options.kind != "map":
            bad(options, f"{method}: {{{', '.join(allowed)}}}" if allowed else f"{method} takes no options")
            return
        for key, value in options.pairs:
            if key.text not in allowed:
                hint = did_you_mean(key.text, allowed) if allowed else ""
                bad(key, f"unknown key {key.text!r}{hint}; {method} takes {', '.join(allowed) or 'no options'}")
            elif not isinstance(value.value, int) or isinstance(value.value, bool) or value.value < 0:
                bad(value, f"{key.text}: a whole number")
            elif key.text != "seed" and not 1 <= value.value <= MAX_POINTS:
                bad(value, f"{key.text}: from 1 to {MAX_POINTS:,}")
            else:
                found[key.text] = value.value
    base = SearchSpec()
    spec.search = SearchSpec(
        method, found.get("count", base.count), found.get("seed", base.seed), found.get("points-per-round", base.width)
    )


def _plain(node: Node) -> object:
    """A node as plain data (mappings, lists, resolved scalars)."""
    if node.kind == "map":
        return {k.text: _plain(v) for k, v in node.pairs}
    if node.kind == "seq":
        return [_plain(i) for i in node.items]
    return node.value


def resolve(spec: Spec, tree: QueueTree) -> list[Parameter]:
    """The parameters' targets in the config's queue tree; SpecError at the spec's lines when one does not fit."""
    found: list[tuple[int, int, str]] = []
    out = []
    for raw in spec.parameters:
        try:
            target = parse_path(raw.path, tree)
        except ValueError as err:
            found.append((raw.path_span.line, raw.path_span.column, str(err)))
            continue
        wrong = [why for why in (check_value(target, v) for v in raw.values) if why]  # type: ignore[arg-type]
        if wrong:
            found.append((raw.values_span.line, raw.values_span.column, f"values of {raw.path}: {wrong[0]}"))
            continue
        out.append(Parameter(raw.label, raw.path, target, raw.values))  # type: ignore[arg-type]
    if found:
        raise SpecError([f"{spec.file}:{line}:{column}: {message}" for line, column, message in sorted(found)])
    return out
