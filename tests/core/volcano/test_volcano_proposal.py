"""The 2023 queue-priority design proposal (seed 004): both of its tables, reproduced from its own inputs."""

from __future__ import annotations

import pytest

from yk_cli.core.volcano.proposal import JobFacts, QueueFacts, job_first_order, queue_scores


def test_table_1_queue_score_order() -> None:
    scores = queue_scores(
        [
            QueueFacts("QueueA", priority=40, drf_share=0.3, proportion_share=1.2),
            QueueFacts("QueueB", priority=80, drf_share=0.4, proportion_share=0.5),
            QueueFacts("QueueC", priority=0, drf_share=0.5, proportion_share=0.3),
        ],
        minimum=0,
        maximum=100,
    )
    assert [s.name for s in scores] == ["QueueB", "QueueC", "QueueA"]
    rows = {s.name: (s.priority_score, s.drf_score, s.proportion_score, s.total) for s in scores}
    assert rows["QueueA"] == pytest.approx((0.4, 0.7, -0.2, 0.9))
    assert rows["QueueB"] == pytest.approx((0.8, 0.6, 0.5, 1.9))
    assert rows["QueueC"] == pytest.approx((0.0, 0.5, 0.7, 1.2))


def test_weights_and_a_flat_priority_range() -> None:
    facts = [QueueFacts("a", 5, 0.0, 0.5), QueueFacts("b", 5, 0.0, 0.25, created=1.0)]
    only_proportion = queue_scores(facts, 5, 5, {"proportion": 2.0})
    assert [(s.name, s.total) for s in only_proportion] == [("b", 1.5), ("a", 1.0)]
    tie = queue_scores([QueueFacts("b", 0, 0, 0, created=2.0), QueueFacts("a", 0, 0, 0, created=2.0)], 0, 0)
    assert [s.name for s in tie] == ["a", "b"], "equal totals and times: the smaller name"
    older = queue_scores([QueueFacts("a", 0, 0, 0, created=2.0), QueueFacts("b", 0, 0, 0, created=1.0)], 0, 0)
    assert [s.name for s in older] == ["b", "a"], "equal totals: the older queue"


def test_table_2_job_first_reflection() -> None:
    jobs = [
        JobFacts("A1", "A", None),
        JobFacts("A2", "A", 12),
        JobFacts("B1", "B", None),
        JobFacts("B2", "B", 13),
    ]
    order = job_first_order(jobs, {"A": 10, "B": 8}, ["A", "B"])
    assert [r.job for r in order] == ["B2", "A2", "A1", "B1"]
    assert [(r.priority, r.inherited) for r in order] == [(13, False), (12, False), (10, True), (8, True)]


def test_job_first_ties_follow_the_queue_order_then_age_then_id() -> None:
    jobs = [JobFacts("x/2", "B", 5, created=1.0), JobFacts("x/1", "A", 5, created=3.0), JobFacts("x/0", "A", 5)]
    assert [r.job for r in job_first_order(jobs, {}, ["A", "B"])] == ["x/0", "x/1", "x/2"]
