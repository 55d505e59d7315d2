"""yk tune's searches on spaces whose answers are known by hand: the grid in one round, seeded random samples,
bisection's rounds (both directions, both ends, contradictions), and the constraints' bounds."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yk_cli.core.sweep.constraints import AT_LEAST, AT_MOST, Bound, meets, parse_limit
from yk_cli.core.sweep.evaluate import PointResult
from yk_cli.core.sweep.params import GUARANTEED, NODES_COUNT, Target
from yk_cli.core.sweep.points import Parameter, ordinals
from yk_cli.core.sweep.search import AUTO, BISECT, GRID, RANDOM, Search, SearchSpec, plan

GUARANTEE = Parameter("prod vcore", "root.prod.resources.guaranteed.vcore", Target(GUARANTEED, "root.prod", "vcore"),
                      tuple(range(0, 17)))
NODES = Parameter("nodes", "nodes.count", Target(NODES_COUNT), (1, 2, 3))


def run(search: Search, holds: Callable[[object], bool]) -> list[list[int]]:
    """Every round's point indexes, the verdict of a point being holds(its value)."""
    rounds = []
    while batch := search.propose():
        rounds.append([p.index for p in batch])
        search.tell({p.index: holds(p.values[0]) for p in batch})
    return rounds


def bisection(parameter: Parameter, direction: str = "minimize", width: int = 2) -> Search:
    spec = SearchSpec(BISECT, width=width)
    return Search(spec, plan(spec, [parameter], (direction, parameter.label)), [parameter])


def test_bisection_finds_the_smallest_guarantee_in_few_rounds() -> None:
    search = bisection(GUARANTEE)
    rounds = run(search, lambda v: v >= 11)  # type: ignore[operator]
    assert rounds == [[0, 16], [5, 11], [7, 9], [10], [12]]
    assert {i for i, ok in search.verdicts.items() if ok} == {16, 11, 12}
    assert min(i for i, ok in search.verdicts.items() if ok) == 11
    assert search.not_monotone() is None


@pytest.mark.parametrize("threshold", range(0, 18))
def test_bisection_answers_every_threshold(threshold: int) -> None:
    for width in (1, 2, 3):
        search = bisection(GUARANTEE, width=width)
        run(search, lambda v: v >= threshold)  # type: ignore[operator]
        met = sorted(i for i, ok in search.verdicts.items() if ok)
        assert (met[0] if met else None) == (threshold if threshold <= 16 else None)
        assert len(search.verdicts) <= 2 + width * 5 + 1
        if 0 < threshold < 16:
            assert threshold + 1 in search.verdicts  # the runner-up ran


def test_bisection_for_the_largest_value_runs_the_other_way() -> None:
    search = bisection(GUARANTEE, "maximize")
    run(search, lambda v: v <= 6)  # type: ignore[operator]
    met = sorted(i for i, ok in search.verdicts.items() if ok)
    assert met[-1] == 6 and 5 in met


def test_bisection_orders_durations_and_quantities_and_drops_repeats() -> None:
    delay = Parameter("delay", "root.a.properties.preemption.delay", Target("property", "root.a", "preemption.delay"),
                      ("2m", "30s", "1m", "30s", "5m"))
    search = bisection(delay)
    rounds = run(search, lambda v: v in ("1m", "2m", "5m"))
    assert rounds[0] == [1, 4]  # 30s (the first of two) and 5m: the ends
    assert search.verdicts[2] and not search.verdicts[1]  # 1m meets, 30s does not: 1m is the smallest
    assert search.verdicts[0]  # the runner-up, 2m
    assert 3 not in search.verdicts
    assert ordinals(("16Gi", "500m", "4")) == [16 * 2**30 * 1000, 500, 4000]
    assert ordinals(("fifo", "fair")) is None and ordinals((True, False)) is None


def test_bisection_says_when_the_constraints_are_not_monotone() -> None:
    search = bisection(GUARANTEE)
    run(search, lambda v: v in (0, 1, 5, 16))
    assert search.verdicts[0]
    assert search.not_monotone() is None  # 0 meets: the answer, and 1 (the runner-up) too; nothing contradicts
    search = bisection(GUARANTEE)
    run(search, lambda v: v >= 11 and v != 12)  # type: ignore[operator]
    assert search.not_monotone() == (11, 12)


def test_bisection_steps_over_the_values_yunikorn_refuses() -> None:
    search = bisection(GUARANTEE)
    rounds = []
    while batch := search.propose():  # a max of 12 cores: YuniKorn refuses a guarantee above it
        rounds.append([p.index for p in batch])
        search.tell({p.index: None if p.values[0] > 12 else p.values[0] >= 9 for p in batch})  # type: ignore[operator]
    assert rounds[:5] == [[0, 16], [15], [14], [13], [12]]
    assert min(i for i, ok in search.verdicts.items() if ok) == 9 and search.verdicts[10]
    assert search.refused == {13, 14, 15, 16}


def test_neither_end_meets_ends_the_bisection() -> None:
    search = bisection(GUARANTEE)
    assert run(search, lambda v: False) == [[0, 16]]


def test_grid_is_one_round_and_random_a_seeded_sample() -> None:
    parameters = [NODES, GUARANTEE]
    grid = Search(SearchSpec(GRID), plan(SearchSpec(GRID), parameters, None), parameters)
    rounds = run(grid, lambda v: True)
    assert rounds == [list(range(51))]
    spec = SearchSpec(RANDOM, count=5, seed=7)
    first = Search(spec, plan(spec, parameters, None), parameters).propose()
    again = Search(spec, plan(spec, parameters, None), parameters).propose()
    assert first == again and len(first) == 5 and [p.index for p in first] == sorted(p.index for p in first)
    for point in first:  # the values are the grid's at the index
        assert point.values == ((1, 2, 3)[point.index // 17], point.index % 17)
    other = Search(SearchSpec(RANDOM, count=5, seed=8), plan(spec, parameters, None), parameters).propose()
    assert other != first


def test_auto_chooses_by_the_space() -> None:
    assert plan(SearchSpec(AUTO), [GUARANTEE], ("minimize", "prod vcore")).method == BISECT
    assert plan(SearchSpec(AUTO), [GUARANTEE], ("minimize", "p95-wait")).method == GRID
    big = [Parameter(f"p{i}", f"nodes[x={i}].count", Target(NODES_COUNT), tuple(range(1, 11))) for i in range(4)]
    chosen = plan(SearchSpec(AUTO), big, ("minimize", "p95-wait"))
    assert (chosen.method, chosen.space) == (RANDOM, 10_000)
    with pytest.raises(ValueError, match="one parameter"):
        plan(SearchSpec(BISECT), [NODES, GUARANTEE], ("minimize", "nodes"))
    with pytest.raises(ValueError, match="objective minimize or maximize it"):
        plan(SearchSpec(BISECT), [GUARANTEE], ("minimize", "p95-wait"))


def test_bounds_read_their_units_and_judge_points() -> None:
    assert parse_limit("p95-wait:queue=root.a", "5m") == 300
    assert parse_limit("max-wait", 90) == 90
    assert parse_limit("utilization:vcore", "60%") == 0.6
    assert parse_limit("utilization:vcore", 0.75) == 0.75
    assert parse_limit("preemptions", 3) == 3
    for metric, bad in (("p95-wait", "soon"), ("utilization:vcore", 60), ("pending", -1), ("pending", True)):
        with pytest.raises(ValueError):
            parse_limit(metric, bad)
    wait = Bound("p95-wait", AT_MOST, 60.0, "1m")
    busy = Bound("utilization:vcore", AT_LEAST, 0.5, "50%")
    good = PointResult(0, (1,), numbers=(("p95-wait", 60.0), ("utilization:vcore", 0.5)))
    assert meets(good, (wait, busy))
    assert not meets(PointResult(1, (1,), numbers=(("p95-wait", 60.5), ("utilization:vcore", 0.9))), (wait, busy))
    assert not meets(PointResult(2, (1,), numbers=(("p95-wait", None),)), (wait,))  # nothing measured meets nothing
    assert not meets(PointResult(3, (1,), errors=("invalid quantity",)), ())
    assert not meets(PointResult(4, (1,), numbers=good.numbers, failed=("p.yaml: rule: broken",)), (wait, busy))


@given(st.integers(min_value=0, max_value=17), st.integers(min_value=1, max_value=4),
       st.lists(st.integers(min_value=0, max_value=40), min_size=1, max_size=25, unique=True))
def test_bisection_matches_the_grid_on_monotone_constraints(threshold: int, width: int, values: list[int]) -> None:
    parameter = Parameter("v", "nodes.count", Target(NODES_COUNT), tuple(values))
    search = bisection(parameter, width=width)
    run(search, lambda v: v >= threshold)  # type: ignore[operator]
    met = [parameter.values[i] for i, ok in search.verdicts.items() if ok]
    expected = [v for v in values if v >= threshold]
    assert (min(met) if met else None) == (min(expected) if expected else None)
