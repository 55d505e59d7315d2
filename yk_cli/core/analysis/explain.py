"""Why the scheduler serves one ask before another: the dry run's order, explained from the engine's sort keys.

The rule: run the deterministic simulation once, halted just before the first of the two asks is allocated (the
winner; SimulationOptions.halt_before_allocating), so the state is exactly what the scheduling cycle that placed
the winner saw, explain that cycle, then let the run go on to the end for what happens to both:

* the winner held a reservation: the reservation pass runs before the regular walk (verdict ``reservation``);
* the other ask was not pending in the regular walk then (not submitted yet, no queue, holding a reservation
  that does not fit yet): its reason (``other-blocked``);
* otherwise both were pending: at their lowest common ancestor the engine's own sort keys (policies.queue_key,
  app_key, ask_key, as the engine stored them) are compared field by field. If the winner's side sorts first,
  the first differing field decides (``sorted-first``); if the other side sorts first, the other ask was tried
  first and failed, and the simulator's pending diagnosis says why (``other-blocked``).

Neither ever allocated: both reasons from the trace (``both-pending``). Because the comparison reads the keys
the engine sorted with, an explanation cannot disagree with `yk simulate`.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from yk_cli.core.config.model import PartitionConfig
from yk_cli.core.config.properties import format_duration
from yk_cli.core.config.queues import QueueTree
from yk_cli.core.ordering import policies
from yk_cli.core.ordering.policies import SortKey
from yk_cli.core.ordering.priority import MIN_PRIORITY, Step, ask_step, explain_ask, show
from yk_cli.core.resources import format_quantity, format_resource
from yk_cli.core.sim import trace as codes
from yk_cli.core.sim.build import RunState
from yk_cli.core.sim.cycle import Decision
from yk_cli.core.sim.reasons import diagnose
from yk_cli.core.sim.run import Simulation, SimulationOptions
from yk_cli.core.sim.state import PENDING, AppState, AskState, QState
from yk_cli.core.sim.trace import ALLOCATE, REPLACE, RESERVE, Trace, TraceEvent
from yk_cli.core.versions import LATEST_VERSION
from yk_cli.core.workload.model import Application, Ask, Workload

SORTED_FIRST = "sorted-first"
"""Both were pending in the regular walk and the winner's side sorts first at their lowest common ancestor."""
OTHER_BLOCKED = "other-blocked"
"""The other ask sorts first, or was not pending in the walk, but could not be placed at that cycle."""
RESERVATION = "reservation"
"""The winner held a reservation: every cycle tries reserved asks before the regular walk."""
BOTH_PENDING = "both-pending"
"""Neither ask is ever allocated."""
GANG = "gang"
"""The winner took the place of a placeholder its gang holds: every cycle swaps real pods in before the walk."""
VERDICTS = (SORTED_FIRST, OTHER_BLOCKED, RESERVATION, BOTH_PENDING, GANG)

QUEUE, APPLICATION, ASK = "queue", "application", "ask"
"""Comparison levels: child queues of a parent, applications of a leaf, asks of one application."""
TIE_FIELDS = ("configuration order", "file order")
"""Fields yk adds where YuniKorn would break a complete tie at random (queues, applications)."""


class UnknownAsk(ValueError):
    """An ask name that is not in the workload (a usage error), with close matches."""

    def __init__(self, message: str, suggestions: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.suggestions = tuple(suggestions)


@dataclass(frozen=True, slots=True)
class AskFacts:
    """One of the two asks and what happens to it over the whole run."""

    application: str
    ask: str
    queue_path: str
    """Its leaf queue ('' when the application has none)."""
    priority: int
    submit_time: int
    """Nanoseconds: the ask's creation time."""
    step: int | None = None
    """The trace step that allocates it (None: never allocated)."""
    time: int | None = None
    node: str = ""
    code: str = ""
    """Never allocated: the pending reason code at the end of the run."""
    reason: str = ""


@dataclass(frozen=True, slots=True)
class KeyField:
    """One field of the sort key, on both sides: a JSON-ready value and its text."""

    name: str
    values: tuple[object, object]
    texts: tuple[str, str]


@dataclass(frozen=True, slots=True)
class PrioritySide:
    """Where one side's priority comes from: the pending ask that drives it and the breakdown up to the side."""

    value: int
    driver: str
    """application/ask whose priority it is."""
    steps: tuple[Step, ...]


@dataclass(frozen=True, slots=True)
class Comparison:
    """The two branches at their lowest common ancestor, compared with the engine's sort key."""

    level: str
    """queue (child queues of `at`), application (applications of the leaf `at`) or ask (asks of one application)."""
    at: str
    """The lowest common ancestor queue (the leaf for application and ask comparisons)."""
    names: tuple[str, str]
    """The child queue paths, application ids or ask names compared (side of the first ask, side of the second)."""
    order: str
    """How `at` sorts them, in words."""
    fields: tuple[KeyField, ...]
    deciding: int
    """Index of the first differing field."""
    first: int
    """0 or 1: the side that sorts first."""
    priorities: tuple[PrioritySide, PrioritySide]
    tie: bool = False
    """Decided by yk's stable tie-breaker where YuniKorn would pick at random."""

    @property
    def deciding_field(self) -> KeyField:
        """The first field that differs."""
        return self.fields[self.deciding]


_NO_FACTS = AskFacts("", "", "", 0, 0)
"""A placeholder while the run that tells the facts is still going."""


@dataclass(frozen=True, slots=True)
class Explanation:
    """Which of two asks the scheduler serves first, and why."""

    asks: tuple[AskFacts, AskFacts]
    winner: int | None
    """0 or 1 (index into asks), None when neither is ever allocated."""
    verdict: str
    """One of VERDICTS."""
    summary: str
    """The answer in one sentence."""
    step: int | None = None
    """The step at which the winner is allocated."""
    time: int | None = None
    comparison: Comparison | None = None
    other_code: str = ""
    """Why the other ask was not placed at that cycle (a pending reason code; '' when it simply sorts later)."""
    other_reason: str = ""
    reserved_at: int | None = None
    """Verdict reservation: the step at which the winner reserved its node."""
    reserved_node: str = ""
    reserved_time: int | None = None


def find_ask(workload: Workload, name: str) -> tuple[Application, Ask]:
    """The ask named `ask` or `application/ask` (a kubectl dump's: `namespace/pod` or `application/namespace/pod`);
    raises UnknownAsk with close matches."""
    asks = {(app.id, ask.name): (app, ask) for app in workload.applications for ask in app.asks}
    full = [asks[pair] for pair in asks if f"{pair[0]}/{pair[1]}" == name]
    bare = [asks[pair] for pair in asks if pair[1] == name]
    if full or bare:
        return (full or bare)[0]
    for app in workload.applications:
        if any(alloc.name == name or f"{app.id}/{alloc.name}" == name for alloc in app.allocations):
            raise UnknownAsk(f"{name!r} is an allocation already running in {app.id}, not a pending ask")
    names = [ask.name for app in workload.applications for ask in app.asks]
    names += [f"{app.id}/{ask.name}" for app in workload.applications for ask in app.asks]
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.6)
    owner = next((app.id for app in workload.applications if name.startswith(f"{app.id}/")), None)
    if owner is not None:
        raise UnknownAsk(f"no ask {name[len(owner) + 1 :]!r} in application {owner}", close)
    app_id = name.rpartition("/")[0]
    if app_id and not any("/" in ask.name for app in workload.applications for ask in app.asks):  # a dump's: ns/pod
        raise UnknownAsk(f"no application {app_id!r} in the workload", close)
    raise UnknownAsk(f"no ask {name!r} in the workload", close)


def explain(
    partition: PartitionConfig,
    tree: QueueTree,
    workload: Workload,
    first: str,
    second: str,
    yunikorn_version: str = LATEST_VERSION,
) -> Explanation:
    """Which of the two named asks is allocated first, and why (UnknownAsk for a name not in the workload)."""
    picked = (find_ask(workload, first), find_ask(workload, second))
    if picked[0][1] is picked[1][1]:
        raise UnknownAsk(f"{first!r} and {second!r} are the same ask: name two different asks")
    halt = tuple((app.id, ask.name) for app, ask in picked)
    options = SimulationOptions(yunikorn_version=yunikorn_version, halt_before_allocating=halt)
    run = Simulation(partition, tree, workload, options)
    if not run.run_until_halt():
        trace = run.finish()
        pair = _pair(trace, picked)
        summary = (
            f"Neither is ever allocated: {pair[0].ask} {pair[0].reason}; {pair[1].ask} {pair[1].reason}."
            if pair[0].reason or pair[1].reason
            else "Neither is ever allocated."
        )
        return Explanation(pair, None, BOTH_PENDING, summary)
    # one run: explain from the state just before the first of the two is allocated, then finish the run
    state = run.state
    decision = run.halted
    assert isinstance(decision, Decision)
    asks = tuple(_ask_state(state, ask) for _, ask in picked)
    winner = 0 if decision.ask is asks[0] else 1
    assert decision.ask is asks[winner], "the run halts before one of the two"
    step = len(run.events) + 1
    if decision.kind == REPLACE:
        found = _explain_gang(state, decision, (asks[0], asks[1]), winner, step)
    else:
        found = _explain_cycle(state, run.events, (asks[0], asks[1]), winner, step, state.now)
    return replace(found, asks=_pair(run.resume(), picked))


def _explain_gang(
    state: RunState, decision: Decision, asks: tuple[AskState, AskState], w: int, step: int
) -> Explanation:
    """The winner replaces one of its gang's placeholders: the placeholder pass runs before the regular walk."""
    winner, other = asks[w], asks[1 - w]
    assert decision.placeholder is not None
    code, reason = _other_status(state, other)
    summary = (
        f"{winner.name} goes first: its gang {winner.app.id} holds placeholders, and every scheduling cycle swaps a "
        f"real pod in for a placeholder of its task group ({winner.ask.task_group}: {decision.placeholder.name} on "
        f"{decision.node.name}) before the regular walk over queues"
    )
    if code:
        summary += f"; {other.name} {_reason_phrase(code, reason)}"
    return Explanation((_NO_FACTS, _NO_FACTS), w, GANG, summary + ".", step, state.now, None, code, reason)


def _pair(trace: Trace, picked: tuple[tuple[Application, Ask], ...]) -> tuple[AskFacts, AskFacts]:
    return (_facts(trace, *picked[0]), _facts(trace, *picked[1]))


def _facts(trace: Trace, app: Application, ask: Ask) -> AskFacts:
    for event in trace.events:
        if event.type in (ALLOCATE, REPLACE) and event.application == app.id and event.ask == ask.name:
            return AskFacts(
                app.id, ask.name, event.queue_path, ask.priority, ask.submit_time, event.step, event.time, event.node
            )
    for pending in trace.pending:
        if pending.application == app.id and pending.ask == ask.name:
            return AskFacts(
                app.id,
                ask.name,
                pending.queue_path,
                ask.priority,
                ask.submit_time,
                code=pending.code,
                reason=pending.reason,
            )
    return AskFacts(app.id, ask.name, "", ask.priority, ask.submit_time)  # pragma: no cover - every ask is one


def _ask_state(state: RunState, ask: Ask) -> AskState:
    for found in state.asks:
        if found.ask is ask:
            return found
    raise AssertionError(f"ask {ask.name} is not in the run")  # pragma: no cover - the run holds every ask


def _explain_cycle(
    state: RunState, events: Sequence[TraceEvent], asks: tuple[AskState, AskState], w: int, step: int, time: int
) -> Explanation:
    """Explain the cycle at which asks[w] is allocated, from the state just before it (the asks' facts are filled
    in once the run has ended)."""
    facts = (_NO_FACTS, _NO_FACTS)
    winner, other = asks[w], asks[1 - w]
    if winner.reserved is not None:
        reserve_step = reserve_time = None
        for e in events[: step - 1]:
            if e.type == RESERVE and e.application == winner.app.id and e.ask == winner.name:
                reserve_step, reserve_time = e.step, e.time
        code, reason = _other_status(state, other)
        node = winner.reserved.name
        since = f" since step {reserve_step}" if reserve_step is not None else ""
        summary = (
            f"{winner.name} goes first: it holds a reservation on node {node}{since}, and every scheduling cycle "
            "tries reserved asks before the regular walk over queues."
        )
        return Explanation(
            facts, w, RESERVATION, summary, step, time, None, code, reason, reserve_step, node, reserve_time
        )
    if other.status != PENDING or other.reserved is not None:
        code, reason = diagnose(state, other)
        summary = f"{winner.name} goes first: {other.name} {_reason_phrase(code, reason)}."
        return Explanation(facts, w, OTHER_BLOCKED, summary, step, time, None, code, reason)
    comparison = compare(state, asks[0], asks[1])
    if comparison.first == w:
        code, reason = _other_status(state, other)
        summary = f"{winner.name} goes first: {_decision_phrase(comparison)}."
        return Explanation(facts, w, SORTED_FIRST, summary, step, time, comparison, code, reason)
    code, reason = diagnose(state, other)
    summary = (
        f"{winner.name} goes first: {other.name} sorts first ({_decision_phrase(comparison)}), "
        f"but {_reason_phrase(code, reason)}."
    )
    return Explanation(facts, w, OTHER_BLOCKED, summary, step, time, comparison, code, reason)


def _other_status(state: RunState, ask: AskState) -> tuple[str, str]:
    """Why the other ask could not have been placed at that cycle either ('', '' when it could)."""
    code, reason = diagnose(state, ask)
    return ("", "") if code == codes.STOPPED else (code, reason)


def _reason_phrase(code: str, reason: str) -> str:
    if code == codes.NOT_SUBMITTED:
        return f"is {reason}"
    if code in (codes.UNPLACED, codes.QUEUE_MISSING):
        return f"cannot be placed: {reason}"
    return f"could not be placed then: {reason}"


def compare(state: RunState, a: AskState, b: AskState) -> Comparison:
    """Compare two pending, unreserved asks where their branches meet, with the keys the engine sorted with."""
    leaf_a, leaf_b = a.app.leaf, b.app.leaf
    assert leaf_a is not None and leaf_b is not None
    if a.app is b.app:
        keys = (a.entry[:-1], b.entry[:-1])
        fields = _fields(policies.ASK_FIELDS, keys, lambda name, i: _ask_value(name, (a, b)[i]))
        sides = (_ask_priority(a), _ask_priority(b))
        order = f"application {a.app.id} sorts its asks by {_then(policies.ASK_FIELDS)}"
        return _comparison(ASK, leaf_a.path, (a.name, b.name), order, fields, keys, sides)
    if leaf_a is leaf_b:
        apps = (a.app, b.app)
        keys = (_app_key(a.app), _app_key(b.app))
        names = policies.app_fields(leaf_a.policy, leaf_a.sort_priority)
        fields = _fields(names, keys, lambda name, i: _app_value(state, name, apps[i]))
        sides = (_app_priority(state, a), _app_priority(state, b))
        order = (
            f"{leaf_a.path} sorts its applications by {_then(names)} "
            f"(application.sort.policy {leaf_a.policy}, application.sort.priority {_enabled(leaf_a)})"
        )
        return _comparison(APPLICATION, leaf_a.path, (a.app.id, b.app.id), order, fields, keys, sides)
    lca, child_a, child_b = _meet(leaf_a, leaf_b)
    children = (child_a, child_b)
    keys = (_queue_key(child_a), _queue_key(child_b))
    names = policies.queue_fields(lca.sort_priority)
    fields = _fields(names, keys, lambda name, i: _queue_value(state, name, children[i]))
    sides = (_queue_priority(state, child_a, a), _queue_priority(state, child_b, b))
    order = f"{lca.path} sorts its child queues by {_then(names)} (application.sort.priority {_enabled(lca)})"
    return _comparison(QUEUE, lca.path, (child_a.path, child_b.path), order, fields, keys, sides)


def _comparison(
    level: str,
    at: str,
    names: tuple[str, str],
    order: str,
    fields: tuple[KeyField, ...],
    keys: tuple[SortKey, SortKey],
    sides: tuple[PrioritySide, PrioritySide],
) -> Comparison:
    deciding = policies.first_difference(keys[0], keys[1])
    assert deciding >= 0, "two different sort entries never compare equal"
    first = 0 if keys[0] < keys[1] else 1
    tie = fields[deciding].name in TIE_FIELDS
    return Comparison(level, at, names, order, fields, deciding, first, sides, tie)


def _then(names: Sequence[str]) -> str:
    return ", then ".join(names)


def _enabled(queue: QState) -> str:
    return "enabled" if queue.sort_priority else "disabled"


def _meet(leaf_a: QState, leaf_b: QState) -> tuple[QState, QState, QState]:
    """The lowest common ancestor of two different leaves and its child on each path."""
    above_a = {id(q): q for q in leaf_a.ancestors()}
    child_b = leaf_b
    queue: QState | None = leaf_b
    while queue is not None and id(queue) not in above_a:
        child_b = queue
        queue = queue.parent
    assert queue is not None, "every queue is below root"
    child_a = leaf_a
    while child_a.parent is not queue:
        assert child_a.parent is not None
        child_a = child_a.parent
    return queue, child_a, child_b


def _queue_key(queue: QState) -> SortKey:
    """The entry the engine sorted the queue with (its key when it is kept only for a single child)."""
    entry = queue.entry if queue.entry else queue.key()
    return entry[:-1]


def _app_key(app: AppState) -> SortKey:
    entry = app.entry if app.entry is not None else app.key()
    return entry[:-1]


def _fields(
    names: Sequence[str], keys: tuple[SortKey, SortKey], value: Callable[[str, int], tuple[object, str]]
) -> tuple[KeyField, ...]:
    out = []
    for name in names:
        va, ta = value(name, 0)
        vb, tb = value(name, 1)
        out.append(KeyField(name, (va, vb), (ta, tb)))
    assert len(out) == len(keys[0]) == len(keys[1])
    return tuple(out)


def _priority_value(priority: int) -> tuple[object, str]:
    return (None if priority == MIN_PRIORITY else priority), show(priority)


def _seconds(nanos: int) -> int | float:
    return nanos // 1_000_000_000 if nanos % 1_000_000_000 == 0 else nanos / 1e9


def _number(value: float) -> str:
    return f"{value:.4g}"


def _resources(state: RunState, vector: Sequence[int | float]) -> dict[str, int]:
    return {state.types[i]: int(v) for i, v in enumerate(vector) if v}


def _queue_value(state: RunState, name: str, queue: QState) -> tuple[object, str]:
    if name == "priority":
        return _priority_value(queue.prio.current)
    if name == "fair share":
        share = queue.share()
        return share, _share_text(state, queue, share)
    if name == "pending":
        pending = _resources(state, queue.pending)
        return dict(sorted(pending.items())), format_resource(pending)
    assert name == "configuration order"
    return queue.order, f"#{queue.order + 1} among siblings"


def _share_text(state: RunState, queue: QState, share: float) -> str:
    """`0.04688 (vcore 3 of max 64)`: the share and the type that gives it."""
    allocated = queue.allocated
    if not any(allocated[i] > 0 for i, _ in queue.fair_dens):
        return "0 (nothing allocated)"
    for i, den in queue.fair_dens:
        used = allocated[i]
        if used <= 0:
            continue
        part = (1.0 if used > 0 else 0.0) if den <= 0 else used / den
        if part == share:
            name = state.types[i]
            of = f"{name} {format_quantity(name, used)} of {format_quantity(name, den)}"
            return f"{_number(share)} ({of}: {_basis(queue, name)})"
    return _number(share)  # pragma: no cover - the share is one of the parts


def _basis(queue: QState, name: str) -> str:
    """What a fair-share denominator is: the queue's guarantee, its own max, an ancestor's max or the cluster."""
    if queue.guaranteed is not None and name in queue.guaranteed:
        return "guaranteed"
    holder: QState | None = queue
    while holder is not None:
        if holder.parent is None:
            return "cluster capacity"
        limits = holder.queue.max
        if limits is not None and name in limits:
            return "max" if holder is queue else f"max of {holder.path}"
        holder = holder.parent
    return "max"  # pragma: no cover - root ends the walk


def _app_value(state: RunState, name: str, app: AppState) -> tuple[object, str]:
    if name == "priority":
        return _priority_value(app.priority())
    if name == "submission time":
        return _seconds(app.submit), format_duration(app.submit)
    if name == "file order":
        return app.seq, f"#{app.seq + 1} in the workload"
    assert name == "usage ratio"
    shares = [share for share in policies.usage_shares_of(app.allocated, app.usage_dens) if share]
    if not shares:
        return [], "0 (nothing allocated)"
    top = max(range(len(app.allocated)), key=lambda i: _usage_share(app, i))  # the first of equal largest shares
    kind, used, den = state.types[top], app.allocated[top], app.usage_dens[top]
    if den:
        largest = f"{kind} {format_quantity(kind, used)} of guaranteed {format_quantity(kind, den)}"
    else:
        largest = f"{kind} {used}: no guarantee, the raw amount counts"
    return shares, f"{', '.join(_number(s) for s in shares)} (largest: {largest})"


def _usage_share(app: AppState, i: int) -> float:
    used, den = app.allocated[i], app.usage_dens[i]
    return float(used) if den == 0 else used / den


def _ask_value(name: str, ask: AskState) -> tuple[object, str]:
    if name == "priority":
        return _priority_value(ask.priority)
    if name == "creation time":
        return _seconds(ask.created), format_duration(ask.created)
    assert name == "file order"
    return ask.entry[2], (
        f"#{ask.ask.seq + 1} in the workload (YuniKorn's sorted insert puts an equal ask that arrives later in "
        "front of the others unless it sorts last)"
    )


def _ask_priority(ask: AskState) -> PrioritySide:
    leaf = ask.app.leaf
    assert leaf is not None
    return PrioritySide(ask.priority, f"{ask.app.id}/{ask.name}", (ask_step(leaf.queue, ask.ask),))


def _app_priority(state: RunState, ask: AskState) -> PrioritySide:
    """The application's priority: its highest pending ask (the named one when it is among the highest)."""
    app = ask.app
    leaf = app.leaf
    assert leaf is not None
    priority = app.priority()
    driver = ask if ask.priority == priority else _highest_pending(state, app, priority)
    _, steps = explain_ask(leaf.queue, driver.ask, priority)
    return PrioritySide(priority, f"{app.id}/{driver.name}", tuple(steps[:2]))


def _highest_pending(state: RunState, app: AppState, priority: int) -> AskState:
    """The first pending ask of the application (file order) at the given priority."""
    for ask in _every_ask(state):
        if ask.app is app and ask.status == PENDING and ask.priority == priority:
            return ask
    raise AssertionError(f"no pending ask of {app.id} at priority {priority}")  # pragma: no cover


def _every_ask(state: RunState) -> list[AskState]:
    """The workload's asks, then the gang placeholders of the run (they count for priorities too)."""
    gangs = state.gang
    return [*state.asks, *gangs.placeholders] if gangs is not None else state.asks


def _queue_priority(state: RunState, queue: QState, ask: AskState) -> PrioritySide:
    """A child queue's priority and the breakdown, up to that queue, of the pending ask that drives it.

    The driver is the explained ask when its value at the queue is the queue's priority, else the first pending
    ask below the queue (file order) with the highest value there.
    """
    current = queue.prio.current
    prefix = queue.path + "."
    values: dict[tuple[str, int], int] = {}
    best: tuple[int, AskState] | None = None
    for candidate in [ask, *(a for a in _every_ask(state) if a is not ask)]:
        leaf = candidate.app.leaf
        if leaf is None or candidate.status != PENDING or not (leaf is queue or leaf.path.startswith(prefix)):
            continue
        key = (leaf.path, candidate.priority)
        value = values.get(key)
        if value is None:
            value = values[key] = _chain(leaf, candidate, queue)[-1].value
        if best is None or value > best[0]:
            best = (value, candidate)
        if value == current:
            break
    if best is None:  # pragma: no cover - a queue with a pending ask below it
        return PrioritySide(current, "", ())
    driver = best[1]
    return PrioritySide(current, f"{driver.app.id}/{driver.name}", _chain(driver.app.leaf, driver, queue))


def _chain(leaf: QState | None, ask: AskState, top: QState) -> tuple[Step, ...]:
    """explain_ask's steps for a pending ask, from the ask up to and including the queue top."""
    assert leaf is not None
    _, steps = explain_ask(leaf.queue, ask.ask, ask.app.priority())
    cut = next(i for i, s in enumerate(steps) if i >= 2 and s.queue_path == top.path)
    return tuple(steps[: cut + 1])


HIGHER_FIRST = {"priority"}
LOWER_FIRST = {"fair share", "usage ratio"}
EARLIER_FIRST = {"submission time", "creation time"}


def _decision_phrase(comparison: Comparison) -> str:
    """`at root, root.tenants sorts before root.system on priority: 0 vs -997 (higher first)`."""
    first = comparison.first
    field = comparison.deciding_field
    names = comparison.names
    where = f"at {comparison.at}, " if comparison.level == QUEUE else f"in {comparison.at}, "
    what = {QUEUE: "queue ", APPLICATION: "application ", ASK: "ask "}[comparison.level]
    head = f"{where}{what}{names[first]} sorts before {names[1 - first]} on {field.name}"
    values = f"{_short(field, first)} vs {_short(field, 1 - first)}"
    if field.name in HIGHER_FIRST:
        rule = "higher first"
    elif field.name in LOWER_FIRST:
        rule = "lower first"
    elif field.name in EARLIER_FIRST:
        rule = "older first"
    elif field.name == "pending":
        rule = "more pending first"
    else:
        rule = "a complete tie: YuniKorn would pick at random, yk keeps " + field.name
    return f"{head}: {values} ({rule})"


def _short(field: KeyField, side: int) -> str:
    """A field's value without its figures (fair share and usage ratio texts carry used/guaranteed details)."""
    if field.name in LOWER_FIRST:
        return field.texts[side].split(" (", 1)[0]
    return field.texts[side]
