"""observedStartTime: an ask's recorded start (yk import) read by the workload loader, expanded by count, checked."""

from __future__ import annotations

from tests.conftest import dedent
from yk_cli.load.workload import parse_workload

NANOS = 1_000_000_000


def test_observed_start_is_read_as_nanoseconds_and_expanded_by_count() -> None:
    loaded = parse_workload(
        dedent(
            """
            applications:
              - id: job-1
                submitTime: 10s
                asks:
                  - {name: a, resources: {vcore: 1}, observedStartTime: 1m30s, count: 2}
                  - {name: b, resources: {vcore: 1}, observedStartTime: 0s}
                  - {name: c, resources: {vcore: 1}}
            """
        )
    )
    assert loaded.problems == []
    starts = {ask.name: ask.observed_start for ask in loaded.workload.asks()}
    assert starts == {"a-0": 90 * NANOS, "a-1": 90 * NANOS, "b": 0, "c": None}


def test_a_negative_observed_start_is_allowed_like_a_submit_time() -> None:
    loaded = parse_workload("applications:\n  - id: x\n    asks:\n      - {name: a, observedStartTime: -5s}\n")
    assert loaded.problems == []
    assert loaded.workload.asks()[0].observed_start == -5 * NANOS


def test_a_bad_observed_start_is_a_located_problem() -> None:
    loaded = parse_workload("applications:\n  - id: x\n    asks:\n      - {name: a, observedStartTime: 5}\n")
    assert [(p.rule, p.message, p.span.line if p.span else 0) for p in loaded.problems] == [
        ("workload-bad-duration", "observedStartTime: '5' is not a Go duration", 4)
    ]
    assert loaded.workload.asks()[0].observed_start is None
