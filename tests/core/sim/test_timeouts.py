"""The reservation wait timeout (sim/timeouts.py): a reservation whose ask no longer fits its queue's (or its
user's) headroom is cancelled once it is more than 2 x 60 minutes old, as Application.tryReservedAllocate does."""

from __future__ import annotations

from tests.helpers.scenarios import SECOND, run

CONFIG = """
partitions:
  - name: default
    queues:
      - name: root
        submitacl: '*'
        queues:
          - name: a
            resources: {max: {memory: 12}}
          - name: b
"""
WORKLOAD = """
nodes:
  - {name: n1, resources: {memory: 10}}
  - {name: n2, resources: {memory: 10}}
applications:
  - id: run
    queue: root.b
    allocations:
      - {name: r1, node: n1, resources: {memory: 6}, duration: 3h}
      - {name: r2, node: n2, resources: {memory: 5}, duration: 5h}
  - id: big
    queue: root.a
    submitTime: -10s
    asks:
      - {name: big, resources: {memory: 8}, submitTime: -10s}
  - id: small
    queue: root.a
    submitTime: 30m
    asks:
      - {name: s1, resources: {memory: 5}, submitTime: 30m, duration: 4h}
"""


def _steps(config: str, workload: str, **options: object) -> list[tuple[float, str, str, str]]:
    trace = run(config, workload, **options)
    return [(e.time / SECOND, e.type, e.ask, e.node) for e in trace.events]


def test_a_reservation_that_no_longer_fits_its_queue_is_cancelled_after_two_hours() -> None:
    """big reserves n2 at once (it waited 10 s); s1 takes 5 of root.a's 12 at 3h, so big (8) no longer fits the
    queue: its reservation, by then older than two hours, is cancelled in the next cycle and n2 is free again."""
    trace = run(CONFIG, WORKLOAD)
    assert [(e.time / SECOND, e.type, e.ask, e.node) for e in trace.events] == [
        (0, "reserve", "big", "n2"),
        (1802.1, "reserve", "s1", "n1"),
        (10800, "complete", "r1", "n1"),
        (10800, "allocate", "s1", "n1"),
        (10800, "unreserve", "big", "n2"),
        (18000, "complete", "r2", "n2"),
        (25200, "complete", "s1", "n1"),
        (25200, "allocate", "big", "n1"),
    ]
    assert trace.events[4].reason == (
        "cancelled: reserved for more than 2h0m0s and the ask no longer fits its queue's or its user's headroom"
    )


def test_before_two_hours_the_reservation_stays() -> None:
    """s1 arrives at once and r1 ends at 1h: s1 fills root.a at 1h, when big's reservation is one hour old; it is
    cancelled in the first cycle after its two hours."""
    workload = WORKLOAD.replace("duration: 3h}", "duration: 1h}").replace("30m", "0s")
    steps = _steps(CONFIG, workload)
    assert ("unreserve", "big") in [(kind, ask) for _, kind, ask, _ in steps]
    cancelled = next(time for time, kind, ask, _ in steps if kind == "unreserve")
    assert cancelled == 7200.1  # the first cycle after the two hours (one scheduling interval later)
