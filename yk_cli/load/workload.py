"""Workload files -> core.workload.model.Workload plus located Problems (rendered exactly like `yk validate`'s).

Public API:

    load_workload(name, tree=None, *, stdin=None, dynamic_queues=False) -> tuple[Workload, list[Problem]]
    read_workload(name, tree=None, *, stdin=None, dynamic_queues=False) -> LoadedWorkload   (also keeps the text)
    parse_workload(text, file="<string>", tree=None, *, dynamic_queues=False) -> LoadedWorkload

`name` is a path or '-' for standard input; an unreadable input raises load.source.InputError. With a tree (the
partition's core.config.queues.QueueTree), applications that name a missing or parent queue are problems too
(`dynamic_queues=True` when placement rules may create queues: then only parent queues are). Problems are located
(file, span) and sorted; an application without `queue` keeps `queue=None` for the placement rules.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from yk_cli.core.config.properties import parse_go_duration
from yk_cli.core.config.queues import QueueTree
from yk_cli.core.diagnostics import Level, Path, Problem, Span
from yk_cli.core.lint.loader_rules import DUPLICATE_KEY, IGNORED_DOCUMENT
from yk_cli.core.predicates.decode import DecodeProblem, decode_labels, decode_node, decode_pod_spec
from yk_cli.core.predicates.model import Labels, PodSpec, Taint
from yk_cli.core.resources import QuantityError, Resource, parse_quantity
from yk_cli.core.workload import checks as rules
from yk_cli.core.workload.model import (
    BUILTIN_PRIORITY_CLASSES,
    Allocation,
    Application,
    Ask,
    NodeSpec,
    PriorityClass,
    TaskGroup,
    Workload,
)
from yk_cli.core.yamldoc import Node, SourceMap, plain_number
from yk_cli.load.schema import Gate, SchemaRules, compile_gate, load_schema, schema_problems
from yk_cli.load.source import collector_paused, decode_text, parse_yaml, read_input, shown_name
from yk_cli.load.yamlreader import read_plain

SCHEMA_FILE = "workload.schema.json"
SCHEMA_RULES = SchemaRules(unknown_key=rules.UNKNOWN_KEY, missing_key=rules.MISSING_KEY, wrong_type=rules.WRONG_TYPE)
NEVER = "Never"
PREEMPT_LOWER = "PreemptLowerPriority"
INT32 = (-(2**31), 2**31 - 1)


@dataclass(slots=True)
class LoadedWorkload:
    """One workload file: the workload, every located problem, and the text (for source excerpts)."""

    file: str
    workload: Workload
    problems: list[Problem] = field(default_factory=list)
    text: str = ""
    document: WorkloadDocument | None = None

    def locate(self, problems: list[Problem]) -> list[Problem]:
        """Problems addressed by workload document path, located in this file."""
        document = self.document
        out = []
        for p in problems:
            span = p.span if p.span is not None or document is None else document.span(p.path, p.anchor)
            out.append(p.located(span, self.file))
        return out

    def check(self, tree: QueueTree, dynamic_queues: bool = False) -> list[Problem]:
        """The queue checks against a partition's tree (core.workload.checks.check_workload), located."""
        return self.locate(rules.check_workload(tree, self.workload, dynamic_queues))


def load_workload(
    name: str, tree: QueueTree | None = None, *, stdin: bytes | None = None, dynamic_queues: bool = False
) -> tuple[Workload, list[Problem]]:
    """Read a workload file ('-' for stdin): the workload and its located problems. Raises InputError if unreadable."""
    loaded = read_workload(name, tree, stdin=stdin, dynamic_queues=dynamic_queues)
    return loaded.workload, loaded.problems


def read_workload(
    name: str, tree: QueueTree | None = None, *, stdin: bytes | None = None, dynamic_queues: bool = False
) -> LoadedWorkload:
    """Read a workload file ('-' for stdin) into a LoadedWorkload. Raises InputError if unreadable."""
    display = shown_name(name)
    text, problem = decode_text(read_input(name, stdin))  # the bytes are not kept while the text is parsed
    if text is None:
        assert problem is not None
        return LoadedWorkload(display, Workload(), [problem.located(None, display)])
    return parse_workload(text, display, tree, dynamic_queues=dynamic_queues)


def parse_workload(
    text: str, file: str = "<string>", tree: QueueTree | None = None, *, dynamic_queues: bool = False
) -> LoadedWorkload:
    """Parse, check and convert a workload text; problems are located in `file`."""
    with collector_paused():
        document = _parse_document(text)
        problems = list(document.problems)
        data = document.data
        if not _gate()(data):
            problems.extend(schema_problems(data, load_schema(SCHEMA_FILE), SCHEMA_RULES))
        builder = _Builder()
        workload = builder.workload(data if isinstance(data, dict) else {})
        document.data = data = None  # consumed by the builder: problems are located from the text, not the data
        problems.extend(builder.problems)
        problems.extend(rules.check_names_and_nodes(workload))
        if tree is not None:
            problems.extend(rules.check_workload(tree, workload, dynamic_queues))
        loaded = LoadedWorkload(file, workload, text=text, document=document)
        loaded.problems = sorted(loaded.locate(problems), key=Problem.sort_key)
    return loaded


def build_workload(data: dict[str, Any], file: str) -> LoadedWorkload:
    """A workload document given as plain data (a state dump's, built by yk): checked and converted as a file's is;
    its problems carry document paths and no position (the caller locates them)."""
    problems: list[Problem] = []
    if not _gate()(data):
        problems.extend(schema_problems(data, load_schema(SCHEMA_FILE), SCHEMA_RULES))
    builder = _Builder()
    applications = data.get("applications")
    own = {**data, "applications": list(applications) if isinstance(applications, list) else applications}
    workload = builder.workload(own)  # the builder consumes the list of applications: a copy of it
    problems.extend(builder.problems)
    problems.extend(rules.check_names_and_nodes(workload))
    return LoadedWorkload(file, workload, sorted(problems, key=Problem.sort_key))


@cache
def _gate() -> Gate:
    """The schema's fast validity test, compiled once."""
    return compile_gate(load_schema(SCHEMA_FILE))


@dataclass(slots=True)
class WorkloadDocument:
    """The first YAML document as plain data, the syntax problems, and a way to find a document path's span."""

    data: Any
    """None once parse_workload has built the workload from it."""
    problems: list[Problem]
    root: Node | None = None
    text: str | None = None
    """Set when the reader gave plain data: the text is read again, as nodes, only if a problem needs a span."""
    _map: SourceMap | None = None

    def span(self, path: Path, anchor: str) -> Span | None:
        """The span of the key or value at a document path (nearest existing ancestor)."""
        if self._map is None:
            if self.text is not None:
                self.root = _full_parse(self.text).root
                self.text = None
            self._map = SourceMap.of(self.root)
        return self._map.span(path, anchor)


def _parse_document(text: str) -> WorkloadDocument:
    read, data = read_plain(text)
    if read:
        return WorkloadDocument(data, [], text=text)
    return _full_parse(text)


def _full_parse(text: str) -> WorkloadDocument:
    """Every node with its span, the data, and the problems (syntax, repeated keys, ignored documents)."""
    parsed = parse_yaml(text)
    problems = list(parsed.problems)
    if not parsed.documents:
        return WorkloadDocument(None, problems)
    root = parsed.documents[0]
    for extra in parsed.documents[1:]:
        problems.append(
            Problem(
                rule=IGNORED_DOCUMENT.id,
                level=Level.WARNING,
                message="only the first YAML document of a workload file is read; this one is ignored",
                span=extra.span,
            )
        )
    return WorkloadDocument(_plain(root, problems, ()), problems, root)


def _plain(root: Node, problems: list[Problem], path: Path) -> Any:
    """A node as plain data (dict, list, str, int, float, bool, None); repeated keys are problems. Iterative: a
    document may nest up to yaml.v3's 10,000 levels (times two: flow and block)."""
    out: list[Any] = [None]
    work: list[tuple[Node, Path, Any, Any]] = [(root, path, out, 0)]
    """(node, its path, the container its value goes into, the key or index there)."""
    while work:
        node, where, container, slot = work.pop()
        if node.kind == "scalar":
            value = (
                plain_number(node.tag, node.text, node.value)
                if node.tag in ("int", "float", "bool", "null")
                else node.text
            )
            container[slot] = value
        elif node.kind == "seq":
            items: list[Any] = [None] * len(node.items)
            container[slot] = items
            work.extend((item, (*where, i), items, i) for i, item in reversed(list(enumerate(node.items))))
        else:
            container[slot] = _mapping(node, problems, where, work)
    return out[0]


def _mapping(
    node: Node, problems: list[Problem], path: Path, work: list[tuple[Node, Path, Any, Any]]
) -> dict[str, Any]:
    """A mapping's dict, its values queued on `work`; repeated and non-scalar keys are problems."""
    out: dict[str, Any] = {}
    first: dict[str, Node] = {}
    queued: list[tuple[Node, Path, Any, Any]] = []
    for key, value in node.pairs:
        if key.kind != "scalar":
            problems.append(
                rules.WRONG_TYPE.problem("a mapping key must be a plain name, not a collection", path).located(
                    key.span, ""
                )
            )
            continue
        name = key.text
        if name in first:
            problems.append(
                Problem(
                    rule=DUPLICATE_KEY.id,
                    level=Level.ERROR,
                    message=f'mapping key "{name}" already defined at line {first[name].span.line}',
                    path=(*path, name),
                    hint="merge the two entries: a repeated key would silently replace the first.",
                    anchor="key",
                    span=key.span,
                )
            )
            continue
        first[name] = key
        out[name] = None
        queued.append((value, (*path, name), out, name))
    work.extend(reversed(queued))
    return out


def _int(value: Any) -> int | None:
    """A whole number within int32 (bools and floats with a fraction are not)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, float):
        if not value.is_integer():
            return None
        value = int(value)
    if isinstance(value, int) and INT32[0] <= value <= INT32[1]:
        return value
    return None


def _str(raw: dict[str, Any], key: str, default: str = "") -> str:
    value = raw.get(key)
    return value if isinstance(value, str) else default


def _bool(raw: dict[str, Any], key: str, default: bool) -> bool:
    value = raw.get(key)
    return value if isinstance(value, bool) else default


def _list(raw: dict[str, Any], key: str) -> list[Any]:
    value = raw.get(key)
    return value if isinstance(value, list) else []


_UNSEEN: Any = object()


POD_KEYS = (
    "namespace",
    "labels",
    "nodeSelector",
    "tolerations",
    "affinity",
    "topologySpreadConstraints",
    "hostPorts",
    "nodeName",
)
"""A pod's namespace, labels and node constraints in a workload (Kubernetes' field names)."""
POD_SPEC_HINT = "the Kubernetes API server refuses such a pod or node: fix the value (Kubernetes' own field rules)."
_POD_KEY_SET = frozenset(POD_KEYS)
APP_POD_KEYS = tuple(key for key in POD_KEYS if key != "nodeName")
"""What an application sets for all its pods (an ask's own key wins)."""


class _Builder:
    """Plain workload data -> core values; values the schema refuses fall back to defaults (already reported)."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.classes: dict[str, PriorityClass] = {}
        self.global_default: PriorityClass | None = None
        self.quantities: dict[tuple[str, Any, type], int] = {}
        self.resource_maps: dict[tuple[Any, ...], Resource] = {}
        self.durations: dict[str | int, int | None] = {}
        self.ask_shapes: dict[tuple[Any, ...], tuple[int, bool, bool, str, bool, str, str]] = {}
        self.ask_seq = 0
        self.alloc_seq = 0
        self.ask_total = 0
        """Asks made so far (counts expanded), against MAX_ASKS."""
        self.too_many = False
        self.app_pod: dict[str, Any] = {}
        """The current application's namespace, labels and node constraints: the defaults of its pods."""
        self.app_path: Path = ()
        self.reported: set[Path] = set()
        self.placeholders: list[str] = []
        """Allocations marked `placeholder` (gang placeholders already running): ordinary pods in the dry run."""

    def workload(self, raw: dict[str, Any]) -> Workload:
        """The whole workload; raw's applications are consumed (see applications)."""
        classes = tuple(
            self.priority_class(item, ("priorityClasses", i)) for i, item in self._items(raw, "priorityClasses")
        )
        for pc in BUILTIN_PRIORITY_CLASSES:
            self.classes.setdefault(pc.name, pc)
        for pc in classes:
            self.classes.setdefault(pc.name, pc)
        defaults = [pc for pc in classes if pc.global_default]
        if defaults:
            self.global_default = min(defaults, key=lambda pc: pc.value)
        nodes = tuple(self.node(item, ("nodes", i)) for i, item in self._items(raw, "nodes"))
        applications = self.applications(_list(raw, "applications"))
        return Workload(
            partition=_str(raw, "partition", "default") or "default",
            priority_classes=classes,
            nodes=nodes,
            applications=applications,
            gang_pods=tuple(self.placeholders),
        )

    def applications(self, items: list[Any]) -> tuple[Application, ...]:
        """Every application; each one's plain data is dropped from `items` once it is built, so that a large
        workload is never held twice (as plain data and as values) at once."""
        apps = []
        for i, item in enumerate(items):
            if isinstance(item, dict):
                apps.append(self.application(item, i, ("applications", i)))
            items[i] = None
        return tuple(apps)

    @staticmethod
    def _items(raw: dict[str, Any], key: str) -> list[tuple[int, dict[str, Any]]]:
        return [(i, item) for i, item in enumerate(_list(raw, key)) if isinstance(item, dict)]

    def priority_class(self, raw: dict[str, Any], path: Path) -> PriorityClass:
        """One PriorityClass."""
        policy = raw.get("preemptionPolicy")
        return PriorityClass(
            name=_str(raw, "name"),
            value=_int(raw.get("value")) or 0,
            preemption_policy=policy if policy in (PREEMPT_LOWER, NEVER) else PREEMPT_LOWER,
            allow_preemption=_bool(raw, "allowPreemption", True),
            global_default=_bool(raw, "globalDefault", False),
            path=path,
        )

    def node(self, raw: dict[str, Any], path: Path) -> NodeSpec:
        """One node."""
        name = _str(raw, "name")
        labels: Labels = ()
        taints: tuple[Taint, ...] = ()
        if "labels" in raw or "taints" in raw:
            facts, problems = decode_node(raw.get("labels"), raw.get("taints"), False, name)
            self.pod_problems(problems, path)
            labels, taints = facts.labels, facts.taints
        return NodeSpec(
            name=name,
            capacity=self.resources(raw, "resources", path),
            schedulable=_bool(raw, "schedulable", True),
            occupied=self.resources(raw, "occupied", path),
            path=path,
            labels=labels,
            taints=taints,
        )

    def pod_problems(self, problems: list[DecodeProblem], path: Path) -> None:
        """Node constraints the Kubernetes API server refuses, reported once per place."""
        for problem in problems:
            where = (*path, *problem.path)
            if where not in self.reported:
                self.reported.add(where)
                self.problems.append(rules.BAD_POD_SPEC.problem(problem.message, where, hint=POD_SPEC_HINT))

    def pod(self, raw: dict[str, Any], defaults: dict[str, Any], path: Path, app_path: Path) -> PodSpec | None:
        """An ask's, allocation's or task group's node constraints, namespace and labels: its own keys, else its
        application's (None when neither sets any)."""
        if not defaults and _POD_KEY_SET.isdisjoint(raw):
            return None
        merged: dict[str, Any] = {}
        own: dict[str, Any] = {}
        for key in POD_KEYS:
            if key in raw:
                own[key] = merged[key] = raw[key]
            elif key in defaults:
                merged[key] = defaults[key]
        namespace = merged.pop("namespace", None)
        labels = merged.pop("labels", None)
        spec, problems = decode_pod_spec(
            merged,
            namespace if isinstance(namespace, str) and namespace else "default",
            {k: v for k, v in labels.items() if isinstance(k, str) and isinstance(v, str)}
            if isinstance(labels, dict)
            else {},
        )
        if labels is not None:
            _, label_problems = decode_labels(labels, ("labels",))
            problems = [*problems, *label_problems]
        self.pod_problems([p for p in problems if p.path and p.path[0] in own], path)
        self.pod_problems([p for p in problems if not p.path or p.path[0] not in own], app_path)
        return spec

    def application(self, raw: dict[str, Any], seq: int, path: Path) -> Application:
        """One application with its asks and allocations."""
        app_id = _str(raw, "id")
        submit = self.duration(raw, "submitTime", path, 0)
        queue = raw.get("queue")
        groups = raw.get("groups")
        tags = raw.get("tags")
        restart = _bool(raw, "restartOnPreemption", False)
        self.app_pod = {key: raw[key] for key in APP_POD_KEYS if key in raw}
        self.app_path = path
        asks: list[Ask] = []
        for i, item in self._items(raw, "asks"):
            asks.extend(self.asks(item, app_id, submit, restart, (*path, "asks", i)))
        allocations = tuple(
            self.allocation(item, app_id, restart, (*path, "allocations", i))
            for i, item in self._items(raw, "allocations")
        )
        timeout = _int(raw.get("placeholderTimeoutInSeconds"))
        style = raw.get("gangSchedulingStyle")
        return Application(
            id=app_id,
            queue=queue.strip() if isinstance(queue, str) and queue.strip() else None,
            submit_time=submit,
            seq=seq,
            user=_str(raw, "user"),
            groups=tuple(g for g in groups if isinstance(g, str)) if isinstance(groups, list) else (),
            tags={k: v for k, v in tags.items() if isinstance(v, str)} if isinstance(tags, dict) else {},
            asks=tuple(asks),
            allocations=allocations,
            path=path,
            task_groups=tuple(
                self.task_group(item, (*path, "taskGroups", i)) for i, item in self._items(raw, "taskGroups")
            ),
            gang_style=style if style in ("Soft", "Hard") else "Soft",
            placeholder_timeout=timeout * 1_000_000_000 if timeout is not None and timeout > 0 else None,
            placed=_bool(raw, "placed", False),
        )

    def task_group(self, raw: dict[str, Any], path: Path) -> TaskGroup:
        """One task group of a gang application."""
        members = _int(raw.get("minMember"))
        return TaskGroup(
            name=_str(raw, "name"),
            min_member=members if members is not None and members > 0 else 1,
            min_resource=dict(self.resources(raw, "minResource", path)),
            path=path,
            pod=self.pod(raw, self.app_pod, path, self.app_path),
        )

    def asks(self, raw: dict[str, Any], app_id: str, app_submit: int, app_restart: bool, path: Path) -> list[Ask]:
        """One ask entry, expanded by its count; `app_restart` is the application's restartOnPreemption."""
        get = raw.get
        name = get("name")
        if name.__class__ is not str:
            name = ""
        shape = (
            get("priority"),
            get("priorityClass"),
            get("preemptionPolicy"),
            get("allowPreemption"),
            get("requiredNode"),
            get("originator"),
        )
        group = get("taskGroupName")
        try:
            attrs = self.ask_shapes.get(shape)
        except TypeError:  # an unhashable value: the schema reports it
            attrs = None
        if attrs is None:
            attrs = self.ask_attributes(raw, path)
            if not self.problems:
                with contextlib.suppress(TypeError):
                    self.ask_shapes[shape] = attrs
        priority, preempt_other, allow, required, originator, class_name, source = attrs
        restart = _bool(raw, "restartOnPreemption", app_restart)
        resources = self.resources(raw, "resources", path)
        durations = self.durations
        submit = get("submitTime")
        submit = durations.get(submit) if submit.__class__ is str else None  # the common case, parsed before
        if submit is None:
            submit = self.duration(raw, "submitTime", path, app_submit)
        duration = get("duration")
        if duration is not None:
            nanos = durations.get(duration) if duration.__class__ is str else None
            duration = nanos if nanos is not None and nanos > 0 else self.duration(raw, "duration", path, None, True)
        observed = get("observedStartTime")
        if observed is not None:
            nanos = durations.get(observed) if observed.__class__ is str else None
            observed = nanos if nanos is not None else self.duration(raw, "observedStartTime", path, None)
        count = get("count")
        if count.__class__ is not int or count < 1 or count > rules.MAX_COUNT:  # a bad count: the schema says so
            names = [name]
        elif self.ask_total + count > rules.MAX_ASKS:
            names = [name]
            if not self.too_many:
                self.too_many = True
                self.problems.append(rules.too_many_asks((*path, "count")))
        else:
            names = [f"{name}-{i}" for i in range(count)]
        self.ask_total += len(names)
        pod = self.pod(raw, self.app_pod, path, self.app_path)
        out = []
        seq = self.ask_seq
        for ask_name in names:
            out.append(
                Ask(
                    ask_name,
                    app_id,
                    priority,
                    resources,
                    submit,
                    seq,
                    duration,
                    allow,
                    preempt_other,
                    required,
                    originator,
                    class_name,
                    path,
                    source,
                    restart,
                    group if group.__class__ is str else "",
                    pod=pod,
                    observed_start=observed,
                )
            )
            seq += 1
        self.ask_seq = seq
        return out

    def ask_attributes(self, raw: dict[str, Any], path: Path) -> tuple[int, bool, bool, str, bool, str, str]:
        """What an ask's priority, class and preemption keys resolve to (equal keys resolve alike)."""
        priority, pc, source = self.priority(raw, path)
        policy = raw.get("preemptionPolicy")
        if policy not in (PREEMPT_LOWER, NEVER):
            policy = pc.preemption_policy if pc is not None else PREEMPT_LOWER
        allow = _bool(raw, "allowPreemption", pc.allow_preemption if pc is not None else True)
        required = _str(raw, "requiredNode")
        originator = _bool(raw, "originator", False)
        return priority, policy != NEVER, allow, required, originator, pc.name if pc is not None else "", source

    def allocation(self, raw: dict[str, Any], app_id: str, app_restart: bool, path: Path) -> Allocation:
        """One running allocation; `app_restart` is the application's restartOnPreemption."""
        priority, pc, _ = self.priority(raw, path)
        alloc = Allocation(
            name=_str(raw, "name"),
            application=app_id,
            node=_str(raw, "node"),
            priority=priority,
            resources=self.resources(raw, "resources", path),
            start_time=self.duration(raw, "startTime", path, 0),
            seq=self.alloc_seq,
            duration=self.duration(raw, "duration", path, None, positive=True),
            allow_preemption=_bool(raw, "allowPreemption", pc.allow_preemption if pc is not None else True),
            originator=_bool(raw, "originator", False),
            priority_class=pc.name if pc is not None else "",
            path=path,
            restart_on_preemption=_bool(raw, "restartOnPreemption", app_restart),
            pod=self.pod(raw, self.app_pod, path, self.app_path),
        )
        self.alloc_seq += 1
        if _bool(raw, "placeholder", False):
            self.placeholders.append(alloc.name)
        return alloc

    def priority(self, raw: dict[str, Any], path: Path) -> tuple[int, PriorityClass | None, str]:
        """Explicit priority, else the PriorityClass's value, else the globalDefault class's, else 0; the class; why."""
        explicit = _int(raw.get("priority"))
        name = raw.get("priorityClass")
        pc: PriorityClass | None = None
        if isinstance(name, str) and name:
            pc = self.classes.get(name)
            if pc is None:
                known = sorted(self.classes)
                self.problems.append(
                    rules.UNKNOWN_PRIORITY_CLASS.problem(
                        f"priority class {name} is not defined",
                        (*path, "priorityClass"),
                        hint=f"known classes: {', '.join(known)}.",
                    )
                )
            elif explicit is not None and explicit != pc.value:
                self.problems.append(
                    rules.PRIORITY_MISMATCH.problem(
                        f"priority {explicit} differs from priority class {name}'s value {pc.value}; "
                        f"yk uses {explicit}",
                        (*path, "priority"),
                        hint="Kubernetes refuses such a pod; keep only one of `priority` and `priorityClass`.",
                    )
                )
        else:
            pc = self.global_default
        if explicit is not None:
            return explicit, pc, "priority"
        if pc is not None:
            return pc.value, pc, "globalDefault" if pc is self.global_default and not name else "priorityClass"
        if self.global_default is not None:
            return self.global_default.value, None, "globalDefault"
        return 0, None, ""

    def resources(self, parent: dict[str, Any], key: str, parent_path: Path) -> Resource:
        """The quantity map at parent[key] in YuniKorn units; unparsable quantities are problems and left out.

        Equal maps (asks repeat a few shapes) are parsed once and the one map is shared by every value that has it:
        workload values are immutable (a hundred thousand asks of a few shapes hold a few maps, not a copy each).
        """
        raw = parent.get(key)
        if raw.__class__ is not dict:
            return {}
        try:
            signature = (tuple(raw.items()), tuple(map(type, raw.values())))
            known = self.resource_maps.get(signature)
        except TypeError:  # an unhashable value: the schema reports it
            signature, known = None, None
        if known is not None:
            return known
        path = (*parent_path, key)
        out: Resource = {}
        cache = self.quantities
        for name, value in raw.items():
            if isinstance(value, bool) or not isinstance(value, int | float | str):
                continue  # the schema reports the type
            amount = cache.get((name, value, value.__class__))
            if amount is None:
                text = str(value)
                try:
                    amount = parse_quantity(name, text)
                except QuantityError as err:
                    self.problems.append(
                        rules.BAD_QUANTITY.problem(
                            f"{name}: {text!r} is not a YuniKorn quantity ({err})",
                            (*path, name),
                            hint="a whole number with an optional suffix: vcore 2 or 500m, memory 1Gi or 512M; "
                            "no decimals, no sign.",
                        )
                    )
                    continue
                cache[name, value, value.__class__] = amount
            out[name] = amount
        if signature is not None and len(out) == len(raw):
            self.resource_maps[signature] = out
        return out

    def duration(self, raw: dict[str, Any], key: str, path: Path, default: Any, positive: bool = False) -> Any:
        """A Go duration in nanoseconds (the default when absent or invalid; invalid ones are problems)."""
        value = raw.get(key)
        if value is None or isinstance(value, bool) or not isinstance(value, int | str):
            return default
        nanos = self.durations.get(value, _UNSEEN)
        if nanos is _UNSEEN:
            nanos = self.durations[value] = parse_go_duration(str(value))
        text = str(value)
        if nanos is None:
            hint = "add a unit: s, m, h, ms (only 0 may go without)." if text.lstrip("+-").isdigit() else ""
            self.problems.append(
                rules.BAD_DURATION.problem(
                    f"{key}: {text!r} is not a Go duration",
                    (*path, key),
                    hint=hint or "write e.g. 0s, -60s, 1m30s or 1500ms.",
                )
            )
            return default
        if positive and nanos <= 0:
            self.problems.append(
                rules.BAD_DURATION.problem(
                    f"{key}: {text} is not positive", (*path, key), hint="leave it out for a pod that runs forever."
                )
            )
            return default
        return nanos
