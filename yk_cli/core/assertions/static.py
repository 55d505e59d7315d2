"""Static assertions: proved on the queue config alone, for every pod priority in the range, with the config text
each step rests on."""

from __future__ import annotations

from collections.abc import Callable

from yk_cli.core.assertions.chains import ALL, LEVEL, SKIPPED, carried, child_towards, common_ancestor, reach
from yk_cli.core.assertions.model import (
    CAN_SUBMIT,
    CANNOT_PREEMPT,
    CANNOT_SUBMIT,
    FENCED,
    GUARANTEED_AT_LEAST,
    MAX_AT_MOST,
    OUTRANKS,
    STATIC,
    Assertion,
    Evidence,
    Outcome,
)
from yk_cli.core.assertions.scope import Scope, property_line, queue_line, shown
from yk_cli.core.assertions.submit import check_submit
from yk_cli.core.config import properties as props
from yk_cli.core.config.queues import Queue
from yk_cli.core.diagnostics import Path
from yk_cli.core.resources import format_quantity, format_resource

DAEMONSET_NOTE = (
    "covers queue preemption; a DaemonSet pod (required node) preempts on its own node whatever the queues, and quota "
    "preemption is not a pod preempting another"
)


def check_static(scope: Scope, assertion: Assertion) -> Outcome:
    """Prove (or refute) one assertion on the config."""
    return _PROVERS[assertion.kind](scope, assertion)


def _fail(assertion: Assertion, message: str, blame: Path | None = None, **more: object) -> Outcome:
    evidence = more.pop("evidence", ())
    hint = more.pop("hint", "")
    example = more.pop("counter_example", None)
    assert isinstance(evidence, tuple) and isinstance(hint, str)
    return Outcome(
        assertion,
        STATIC,
        False,
        message,
        evidence,
        blame,
        hint,
        example if isinstance(example, dict) else None,
    )


def _queues(scope: Scope, assertion: Assertion, *paths: str) -> list[Queue] | Outcome:
    found: list[Queue] = []
    for path in paths:
        queue = scope.find(path)
        if queue is None:
            return _fail(assertion, scope.unknown(path))
        found.append(queue)
    return found


class _Proof:
    """Evidence lines in order, each once."""

    def __init__(self) -> None:
        self.lines: list[Evidence] = []
        self._seen: set[tuple[str, Path | None, int]] = set()

    def add(self, *evidence: Evidence) -> None:
        for item in evidence:
            key = (item.text, item.config_path, item.depth)
            if key not in self._seen:
                self._seen.add(key)
                self.lines.append(item)


def _cannot_preempt(scope: Scope, assertion: Assertion) -> Outcome:
    found = _queues(scope, assertion, assertion.queue, assertion.other)
    if isinstance(found, Outcome):
        return found
    source, victims = found
    low, high = scope.priorities.low, scope.priorities.high
    partition = scope.partition
    title = f"no pod of {source.path} can preempt a pod of {victims.path}"
    if partition.preemption_enabled is False:
        return Outcome(
            assertion,
            STATIC,
            True,
            title + f": partition {partition.display_name} turns queue preemption off",
            (
                Evidence("preemption.enabled: false", (*partition.path, "preemption", "enabled")),
                Evidence(DAEMONSET_NOTE),
            ),
        )
    proof = _Proof()
    for ask_leaf in scope.leaves(source):
        if not any(q.guaranteed for q in ask_leaf.ancestors()):
            proof.add(
                Evidence(
                    f"{shown(ask_leaf)} has no guarantee on its path to root: its asks never preempt (law 4, the queue "
                    "guarantees check fails)",
                    queue_line(ask_leaf),
                )
            )
            continue
        for victim in scope.leaves(victims):
            if victim is ask_leaf:
                proof.add(Evidence(f"{shown(victim)}: pods never preempt pods of their own queue (law 3)"))
                continue
            if victim.preemption_policy == "disabled":
                proof.add(
                    Evidence(
                        f"{shown(victim)} has preemption.policy disabled: its pods are never victims",
                        property_line(victim, props.PREEMPTION_POLICY),
                    )
                )
                continue
            result = reach(ask_leaf, victim, high)
            pair = f"{shown(ask_leaf)} -> {shown(victim)}"
            if not result.outcome:
                proof.add(
                    Evidence(
                        f"{pair}: the victim search of {ask_leaf.path} stops at {result.fence_root.path} "
                        "(preemption.policy fence), and the victims are outside it",
                        property_line(result.fence_root, props.PREEMPTION_POLICY),
                    )
                )
                continue
            if result.outcome == SKIPPED:
                assert result.at is not None
                proof.add(
                    Evidence(
                        f"{pair}: even an ask of P{high} stops at the priority fence {result.at.path} (offset "
                        f"{result.at.priority_offset} > {result.level})",
                        property_line(result.at, props.PRIORITY_POLICY),
                    ),
                    *result.steps,
                )
                continue
            if result.outcome == LEVEL and result.level < low:
                proof.add(
                    Evidence(
                        f"{pair}: even an ask of P{high} reaches only pods at P{result.level} or lower, below the "
                        f"lowest priority P{low}"
                    ),
                    *result.steps,
                )
                continue
            top = high if result.outcome == ALL else min(result.level, high)
            blame = property_line(result.at, props.PRIORITY_POLICY) if result.at is not None else queue_line(victim)
            why = (
                f"below the priority fence {result.at.path} every pod is a victim whatever its priority"
                if result.outcome == ALL and result.at is not None
                else f"its victim search reaches pods of {victim.path} up to P{result.level}"
            )
            return _fail(
                assertion,
                f"a pod of {ask_leaf.path} at P{high} can preempt a pod of {victim.path} at P{low}..P{top}: {why}",
                blame,
                evidence=(
                    *result.steps,
                    Evidence(
                        f"{shown(victim)} gives victims whenever it is over its guarantee (its preemption.policy is "
                        f"{victim.preemption_policy})",
                        queue_line(victim),
                    ),
                ),
                hint=f"preemption.policy: disabled on {victims.path} protects its pods; a preemption.policy: fence on "
                f"{source.path} keeps its asks' victims inside it; offsets that keep {victims.path}'s pods above the "
                f"ask as seen from {source.path} work for priorities up to P{high}",
                counter_example={
                    "ask": {"queue": ask_leaf.path, "priority": high},
                    "victim": {"queue": victim.path, "priority": top, "lowestPriority": low},
                    "searchFrom": result.fence_root.path,
                    "level": result.level,
                },
            )
    proof.add(Evidence(DAEMONSET_NOTE))
    return Outcome(
        assertion,
        STATIC,
        True,
        f"{title}, for every priority in [{low}, {high}]",
        tuple(proof.lines),
    )


def _outranks(scope: Scope, assertion: Assertion) -> Outcome:
    found = _queues(scope, assertion, assertion.queue, assertion.other)
    if isinstance(found, Outcome):
        return found
    upper, lower = found
    meet = common_ancestor(upper, lower)
    if meet is None:
        return _fail(
            assertion,
            f"{upper.path} and {lower.path} overlap (one is inside the other): their asks never meet in queue sorting",
            queue_line(upper),
        )
    low, high = scope.priorities.low, scope.priorities.high
    side_up, side_down = child_towards(meet, upper), child_towards(meet, lower)
    worst_up = min(((carried(leaf, low, side_up), leaf) for leaf in scope.leaves(upper)), key=lambda item: item[0][0])
    worst_down = max(
        ((carried(leaf, high, side_down), leaf) for leaf in scope.leaves(lower)), key=lambda item: item[0][0]
    )
    (value_up, steps_up), leaf_up = worst_up
    (value_down, steps_down), leaf_down = worst_down
    evidence: list[Evidence] = [
        Evidence(
            f"lowest: an ask of P{low} in {shown(leaf_up)} counts as {value_up} at {side_up.path}",
            None,
        ),
        *steps_up,
        Evidence(
            f"highest: an ask of P{high} in {shown(leaf_down)} counts as {value_down} at {side_down.path}",
            None,
        ),
        *steps_down,
    ]
    if not meet.sort_priority:
        evidence.append(
            Evidence(
                f"note: {meet.path} has application.sort.priority disabled: it orders its children by fair share "
                "first, priority only breaks ties",
                property_line(meet, props.SORT_PRIORITY),
            )
        )
    if value_up > value_down:
        return Outcome(
            assertion,
            STATIC,
            True,
            f"every ask of {upper.path} outranks every ask of {lower.path} at {meet.path} ({value_up} > "
            f"{value_down}), for every priority in [{low}, {high}]",
            tuple(evidence),
        )
    blame = _chain_blame(steps_up) or queue_line(side_up)
    return _fail(
        assertion,
        f"an ask of P{low} in {leaf_up.path} counts as {value_up} at {side_up.path}, not above an ask of P{high} in "
        f"{leaf_down.path}, which counts as {value_down} at {side_down.path}",
        blame,
        evidence=tuple(evidence),
        hint=f"raise priority.offset on {side_up.path} (or lower it on {side_down.path}) by more than "
        f"{value_down - value_up}, or fence {side_down.path} with priority.policy: fence and a low offset",
        counter_example={
            "ask": {"queue": leaf_up.path, "priority": low, "effective": value_up},
            "over": {"queue": leaf_down.path, "priority": high, "effective": value_down},
            "comparedAt": meet.path,
        },
    )


def _chain_blame(steps: tuple[Evidence, ...]) -> Path | None:
    return next((s.config_path for s in reversed(steps) if s.config_path is not None), None)


def _fenced(scope: Scope, assertion: Assertion) -> Outcome:
    found = _queues(scope, assertion, assertion.queue)
    if isinstance(found, Outcome):
        return found
    (queue,) = found
    path = [q for q in queue.ancestors() if q.parent is not None]
    needs = ("priority", "preemption") if assertion.fence == "both" else (assertion.fence,)
    evidence: list[Evidence] = []
    missing: list[str] = []
    for need in needs:
        if need == "priority":
            holder = next((q for q in path if q.priority_fence), None)
            key, effect = props.PRIORITY_POLICY, "asks below it count only as its offset outside it"
        else:
            holder = next((q for q in path if q.preemption_policy == "fence"), None)
            key, effect = props.PREEMPTION_POLICY, "asks below it preempt only inside it"
        if holder is None:
            missing.append(need)
            evidence.append(Evidence(f"no queue from {queue.path} up to root's children has {key} fence"))
        else:
            evidence.append(Evidence(f"{holder.path} has {key} fence: {effect}", property_line(holder, key)))
    which = " and ".join(f"{n} fence" for n in needs)
    if not missing:
        return Outcome(assertion, STATIC, True, f"{queue.path} is behind a {which}", tuple(evidence))
    keys = " and ".join(f"{n}.policy: fence" for n in missing)
    return _fail(
        assertion,
        f"{queue.path} has no {' and no '.join(f'{n} fence' for n in missing)} on its path",
        queue_line(queue),
        evidence=tuple(evidence),
        hint=f"set {keys} on {queue.path} or a parent below root",
    )


def _guaranteed(scope: Scope, assertion: Assertion) -> Outcome:
    found = _queues(scope, assertion, assertion.queue)
    if isinstance(found, Outcome):
        return found
    (queue,) = found
    have = queue.guaranteed or {}
    evidence: list[Evidence] = []
    short: list[str] = []
    blame: Path | None = None
    for name, want in sorted(assertion.resources.items()):
        line = _resource_line(queue, "guaranteed", name)
        value = have.get(name)
        if value is None:
            short.append(f"{name} not guaranteed")
            evidence.append(Evidence(f"{queue.path} guarantees no {name}", line or queue_line(queue)))
            blame = blame or line or _limits_line(queue, "guaranteed")
        elif value < want:
            short.append(f"{name} {format_quantity(name, value)} < {format_quantity(name, want)}")
            evidence.append(Evidence(f"{queue.path} guarantees {name} {format_quantity(name, value)}", line))
            blame = blame or line
        else:
            evidence.append(Evidence(f"{queue.path} guarantees {name} {format_quantity(name, value)}", line))
    wanted = format_resource(assertion.resources)
    if not short:
        return Outcome(assertion, STATIC, True, f"{queue.path} guarantees at least {wanted}", tuple(evidence))
    return _fail(
        assertion,
        f"{queue.path} guarantees less than {wanted}: {', '.join(short)}",
        blame or _limits_line(queue, "guaranteed"),
        evidence=tuple(evidence),
        hint=f"raise resources.guaranteed of {queue.path} (YuniKorn ignores a guarantee whose values are all 0)",
    )


def _max(scope: Scope, assertion: Assertion) -> Outcome:
    found = _queues(scope, assertion, assertion.queue)
    if isinstance(found, Outcome):
        return found
    (queue,) = found
    evidence: list[Evidence] = []
    over: list[str] = []
    blame: Path | None = None
    for name, want in sorted(assertion.resources.items()):
        bound: tuple[int, Queue] | None = None
        for q in queue.ancestors():
            if q.max is not None and name in q.max and (bound is None or q.max[name] < bound[0]):
                bound = (q.max[name], q)
        if bound is None:
            over.append(f"no max for {name}")
            evidence.append(
                Evidence(
                    f"no queue from {queue.path} up to root limits {name}: only the cluster's size does",
                    queue_line(queue),
                )
            )
            blame = blame or _limits_line(queue, "max")
            continue
        value, holder = bound
        line = _resource_line(holder, "max", name)
        whose = "its max" if holder is queue else f"the max of {holder.path}"
        evidence.append(Evidence(f"{queue.path} can use at most {name} {format_quantity(name, value)} ({whose})", line))
        if value > want:
            over.append(f"{name} {format_quantity(name, value)} > {format_quantity(name, want)}")
            blame = blame or line
    wanted = format_resource(assertion.resources)
    if not over:
        return Outcome(assertion, STATIC, True, f"{queue.path} can use at most {wanted}", tuple(evidence))
    return _fail(
        assertion,
        f"{queue.path} can use more than {wanted}: {', '.join(over)}",
        blame,
        evidence=tuple(evidence),
        hint=f"lower (or set) resources.max on {queue.path} or a parent",
    )


def _resource_line(queue: Queue, which: str, name: str) -> Path | None:
    if queue.config is None:
        return None
    written = getattr(queue.config.resources, which)
    key = next((k for k in written if k == name), None)
    return (*queue.config.resources.path, which, key) if key is not None else None


def _limits_line(queue: Queue, which: str) -> Path | None:
    if queue.config is None:
        return queue_line(queue)
    resources = queue.config.resources
    if getattr(resources, f"{which}_set"):
        return (*resources.path, which)
    return queue_line(queue)


_PROVERS: dict[str, Callable[[Scope, Assertion], Outcome]] = {
    CANNOT_PREEMPT: _cannot_preempt,
    OUTRANKS: _outranks,
    FENCED: _fenced,
    GUARANTEED_AT_LEAST: _guaranteed,
    MAX_AT_MOST: _max,
    CAN_SUBMIT: check_submit,
    CANNOT_SUBMIT: check_submit,
}
