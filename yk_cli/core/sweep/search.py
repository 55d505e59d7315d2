"""How `yk tune` chooses the points it runs: every point of the grid, a seeded random sample of it, or bisection of
one ordered parameter; proposed in rounds, each round's verdicts told back before the next."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from yk_cli.core.sweep.params import Value
from yk_cli.core.sweep.points import MAX_POINTS, Parameter, Point, grid, ordinals

GRID, RANDOM, BISECT, AUTO = "grid", "random", "bisect", "auto"
METHODS = (AUTO, GRID, BISECT, RANDOM)
GRID_LIMIT = 1_000
"""auto: the whole grid up to this many points, a random sample of it above."""
RANDOM_COUNT, RANDOM_SEED = 100, 0
"""auto above GRID_LIMIT, and `search: random` without its own: how many points, and the seed."""
ROUND_WIDTH = 2
"""Bisection: the points of each round inside the bracket (a spec option; never the executor's worker count, so
that every executor runs the same points)."""


@dataclass(frozen=True, slots=True)
class SearchSpec:
    """The spec's `search`: the method, the random sample's size and seed, bisection's points per round."""

    method: str = AUTO
    count: int = RANDOM_COUNT
    seed: int = RANDOM_SEED
    width: int = ROUND_WIDTH


@dataclass(frozen=True, slots=True)
class Plan:
    """The search chosen for a spec and why: the method, the points of the space, and (bisection) the parameter
    and whether smaller values are better."""

    method: str
    space: int
    reason: str
    parameter: Parameter | None = None
    smaller_is_better: bool = True


def space_size(parameters: Sequence[Parameter]) -> int:
    total = 1
    for p in parameters:
        total *= len(p.values)
    return total


def plan(spec: SearchSpec, parameters: Sequence[Parameter], objective: tuple[str, str] | None) -> Plan:
    """The search for the spec; ValueError when the method asked for cannot search this space."""
    total = space_size(parameters)
    target = _objective_parameter(parameters, objective)
    bisectable = len(parameters) == 1 and target is not None and ordinals(target.values) is not None
    if spec.method == BISECT:
        if len(parameters) != 1 or target is None:
            raise ValueError("bisect searches one parameter for its smallest or largest value that meets the "
                             "constraints: give one parameter and the objective minimize or maximize it by its label")
        if not bisectable:
            raise ValueError(f"bisect needs values it can order (numbers, durations, quantities) of {target.label}")
    if spec.method == BISECT or (spec.method == AUTO and bisectable):
        assert target is not None and objective is not None
        why = "one parameter, the objective its value" if spec.method == AUTO else "asked for"
        return Plan(BISECT, total, why, target, objective[0] == "minimize")
    if spec.method == GRID or (spec.method == AUTO and total <= GRID_LIMIT):
        if total > MAX_POINTS:
            raise ValueError(f"a grid of {total:,} points is more than {MAX_POINTS:,}: search random points of it")
        return Plan(GRID, total, "asked for" if spec.method == GRID else f"at most {GRID_LIMIT:,} points")
    why = "asked for" if spec.method == RANDOM else f"more than {GRID_LIMIT:,} points"
    return Plan(RANDOM, total, why)


def _objective_parameter(parameters: Sequence[Parameter], objective: tuple[str, str] | None) -> Parameter | None:
    if objective is None:
        return None
    return next((p for p in parameters if objective[1] in (p.label, p.path)), None)


class Search:
    """Proposes rounds of points; `tell` gives each round's verdicts (True: the point meets every constraint; None:
    YuniKorn refused its config, so it has no place in bisection's order)."""

    def __init__(self, spec: SearchSpec, chosen: Plan, parameters: Sequence[Parameter]) -> None:
        self.spec, self.plan, self.parameters = spec, chosen, tuple(parameters)
        self.verdicts: dict[int, bool] = {}
        self.refused: set[int] = set()
        self._proposed = False
        self._order: list[int] = []
        if chosen.method == BISECT:
            assert chosen.parameter is not None
            places = ordinals(chosen.parameter.values) or []
            firsts: dict[float, int] = {}
            for index, place in enumerate(places):
                firsts.setdefault(place, index)
            self._order = sorted(firsts.values(), key=lambda i: places[i])
            if not chosen.smaller_is_better:
                self._order.reverse()

    def propose(self) -> list[Point]:
        """The next round's points, in point order; [] when the search is over."""
        if self.plan.method != BISECT:
            if self._proposed:
                return []
            self._proposed = True
            return grid(self.parameters) if self.plan.method == GRID else self._random()
        return [Point(i, (self.parameters[0].values[i],)) for i in sorted(self._bisect())]

    def tell(self, verdicts: Mapping[int, bool | None]) -> None:
        """The verdicts of the points proposed last."""
        for index, verdict in verdicts.items():
            if verdict is None:
                self.refused.add(index)
            else:
                self.verdicts[index] = verdict

    def _random(self) -> list[Point]:
        total = space_size(self.parameters)
        rng = random.Random(self.spec.seed)
        chosen = sorted(rng.sample(range(total), min(self.spec.count, total)))
        return [Point(i, _values_at(self.parameters, i)) for i in chosen]

    def _bisect(self) -> list[int]:
        """Point indexes to run next. The constraints are taken to hold from some value on, in the objective's
        order (self._order, best first): found on both ends, then narrowed by ROUND_WIDTH points a round to the first
        value that meets them; then the value after it, the runner-up."""
        order, known = self._live(), self.verdicts
        if not order:
            return []
        ends = [i for i in dict.fromkeys((order[0], order[-1])) if i not in known]
        if ends:  # the first round, or an end YuniKorn refused: the next value inward is the end
            return ends
        if not known[order[-1]] and not known[order[0]]:
            return []
        if known[order[0]]:
            first = 0
        else:
            high = next(pos for pos, i in enumerate(order) if known.get(i))
            low = max(pos for pos, i in enumerate(order[:high]) if i in known)
            if high - low > 1:
                width = min(self.spec.width, high - low - 1)
                picks = {low + round((high - low) * k / (width + 1)) for k in range(1, width + 1)}
                return [order[p] for p in sorted(picks) if low < p < high]
            first = high
        after = first + 1
        if after < len(order) and order[after] not in known:
            return [order[after]]
        return []

    def _live(self) -> list[int]:
        """The objective's order without the points YuniKorn refused."""
        return [i for i in self._order if i not in self.refused]

    def not_monotone(self) -> tuple[int, int] | None:
        """Bisection: two points run that contradict its assumption (a point meeting the constraints before one that
        does not, in the objective's order), or None."""
        ran = [i for i in self._live() if i in self.verdicts]
        for pos, index in enumerate(ran):
            if self.verdicts[index]:
                failing = next((j for j in ran[pos + 1 :] if not self.verdicts[j]), None)
                if failing is not None:
                    return index, failing
        return None


def _values_at(parameters: Sequence[Parameter], index: int) -> tuple[Value, ...]:
    """The values of the grid's point `index` (the last parameter varying fastest)."""
    out: list[Value] = []
    for p in reversed(parameters):
        index, at = divmod(index, len(p.values))
        out.append(p.values[at])
    return tuple(reversed(out))
