"""The sort keys of core.ordering.policies:
the numbers of the reference (sections 5.1-5.4) and the documented tie rules."""

from __future__ import annotations

import pytest

from yk_cli.core.config.model import NodeSortingPolicy, PartitionConfig
from yk_cli.core.ordering import policies

GI = 2**30


def partition(kind: str = "", weights: dict[str, float] | None = None) -> PartitionConfig:
    """A partition with only a node sort policy."""
    return PartitionConfig("default", (), (), nodesortpolicy=NodeSortingPolicy(kind, weights or {}))


# --- nodes (5.4) --------------------------------------------------------------------------------------------------

NODE_A = ({"vcore": 10_000, "memory": 100 * GI}, {"vcore": 2_000, "memory": 90 * GI})  # 80% vcore, 10% memory
NODE_B = ({"vcore": 10_000, "memory": 100 * GI}, {"vcore": 6_000, "memory": 40 * GI})  # 40% vcore, 60% memory


@pytest.mark.parametrize(
    ("weights", "usage_a", "usage_b"),
    [(None, 0.45, 0.5), ({"vcore": 4.0, "memory": 1.0}, 0.66, 0.44)],
)
def test_node_usage_is_a_weighted_average(weights: dict[str, float] | None, usage_a: float, usage_b: float) -> None:
    weights = policies.node_weights(partition("", weights))
    assert policies.node_usage(*NODE_A, weights) == pytest.approx(usage_a)
    assert policies.node_usage(*NODE_B, weights) == pytest.approx(usage_b)


@pytest.mark.parametrize(
    ("kind", "weights", "first"),
    [
        ("fair", None, "a"),
        ("fair", {"vcore": 4.0, "memory": 1.0}, "b"),
        ("binpacking", None, "b"),
        ("binpacking", {"vcore": 4.0, "memory": 1.0}, "a"),
    ],
)
def test_node_order_of_the_reference_example(kind: str, weights: dict[str, float] | None, first: str) -> None:
    part = partition(kind, weights)
    policy, chosen = policies.node_policy(part), policies.node_weights(part)
    keys = {
        name: policies.node_key(policies.node_score(policy, policies.node_usage(cap, free, chosen)), name)
        for name, (cap, free) in (("a", NODE_A), ("b", NODE_B))
    }
    assert min(keys, key=keys.__getitem__) == first


def test_node_policy_names_are_case_sensitive_and_default_to_fair() -> None:
    assert policies.node_policy(partition("binpacking")) == policies.BINPACKING
    assert policies.node_policy(partition("")) == policies.FAIR
    assert policies.node_policy(partition("Binpacking")) == policies.FAIR  # the validator refuses it anyway


def test_configured_weights_drop_unlisted_types() -> None:
    """Once weights are configured only the listed types count; no weights means vcore and memory at 1."""
    assert policies.node_weights(partition()) == {"memory": 1.0, "vcore": 1.0}
    weights = policies.node_weights(partition("fair", {"nvidia.com/gpu": 1.0}))
    cap = {"vcore": 8_000, "memory": 8 * GI, "nvidia.com/gpu": 4}
    assert policies.node_usage(cap, {"vcore": 0, "memory": 0, "nvidia.com/gpu": 3}, weights) == pytest.approx(0.25)


def test_equal_node_scores_tie_on_the_name() -> None:
    assert sorted([policies.node_key(0.5, "n2"), policies.node_key(0.5, "n10")]) == [(0.5, "n10"), (0.5, "n2")]


def test_fit_in_score_prefers_the_tightest_node() -> None:
    """FitInScore of an ask in free resources: per free type, the share left over (1 when the ask wants none)."""
    ask = {"memory": 4}
    assert policies.fit_in_score(ask, {"memory": 4}) == 0.0
    assert policies.fit_in_score(ask, {"memory": 8}) == 0.5
    assert policies.fit_in_score(ask, {"memory": 2}) == 0.0  # too small: counts as a fit (YuniKorn's arithmetic)
    assert policies.fit_in_score(ask, {"memory": 8, "vcore": 1000}) == 1.5
    assert policies.fit_in_score(ask, {"memory": 0, "vcore": -1}) == 0.0  # nothing free: skipped


# --- queues (5.1) -------------------------------------------------------------------------------------------------


def test_fair_share_uses_the_guarantee_else_the_fair_max() -> None:
    assert policies.fair_share({"memory": 4}, {"memory": 8}, {"memory": 100}) == 0.5
    assert policies.fair_share({"memory": 4}, None, {"memory": 100}) == 0.04
    assert policies.fair_share({"memory": 4, "vcore": 3000}, {"memory": 8}, {"vcore": 4000}) == 0.75  # the largest
    assert policies.fair_share({"memory": 4}, None, None) == 0.0  # no denominator at all: ignored
    assert policies.fair_share({"memory": 4}, {"memory": 0}, None) == 1.0  # a zero guarantee with usage
    assert policies.fair_share({"memory": 0}, {"memory": 0}, None) == 0.0


def test_queue_keys_put_priority_or_fairness_first() -> None:
    high_used = policies.queue_key(True, 10, 0.9, policies.pending_key([1]), 0)
    low_idle = policies.queue_key(True, 5, 0.0, policies.pending_key([1]), 1)
    assert high_used < low_idle  # priority first
    high_used = policies.queue_key(False, 10, 0.9, policies.pending_key([1]), 0)
    low_idle = policies.queue_key(False, 5, 0.0, policies.pending_key([1]), 1)
    assert low_idle < high_used  # fair share first
    assert policies.queue_fields(True)[:2] == ("priority", "fair share")
    assert policies.queue_fields(False)[:2] == ("fair share", "priority")


def test_more_pending_first_then_configuration_order() -> None:
    """'More pending' is YuniKorn's partial order (>= in every type, > in one); yk extends it lexicographically."""
    more = policies.queue_key(True, 0, 0.0, policies.pending_key([5, 5]), 1)
    less = policies.queue_key(True, 0, 0.0, policies.pending_key([4, 5]), 0)
    assert more < less
    mixed_a = policies.queue_key(True, 0, 0.0, policies.pending_key([5, 1]), 1)
    mixed_b = policies.queue_key(True, 0, 0.0, policies.pending_key([1, 5]), 0)
    assert mixed_a < mixed_b  # incomparable for YuniKorn (random): yk decides by the first resource type
    tie_a = policies.queue_key(True, 0, 0.0, policies.pending_key([1, 1]), 0)
    tie_b = policies.queue_key(True, 0, 0.0, policies.pending_key([1, 1]), 1)
    assert tie_a < tie_b  # complete tie: configuration order


# --- applications (5.2) and asks (5.3) ----------------------------------------------------------------------------


def test_usage_ratio_quirk_counts_unguaranteed_types_raw() -> None:
    """CompUsageRatio: a type the leaf does not guarantee contributes its raw amount (bytes dominate)."""
    small = policies.usage_shares({"vcore": 8000, "memory": 1}, {"vcore": 8000}, 2)
    large = policies.usage_shares({"vcore": 1000, "memory": 2}, {"vcore": 8000}, 2)
    assert small == (1.0, 1.0) and large == (2.0, 0.125)
    assert small < large  # memory 1 byte beats a whole guarantee of vcore
    assert policies.usage_shares({}, None, 2) == (0.0, 0.0)


@pytest.mark.parametrize(
    ("policy", "priority_first", "fields"),
    [
        ("fifo", True, ("priority", "submission time", "file order")),
        ("fifo", False, ("submission time", "file order", "priority")),
        ("fair", True, ("priority", "usage ratio", "submission time", "file order")),
        ("fair", False, ("usage ratio", "priority", "submission time", "file order")),
    ],
)
def test_application_key_fields(policy: str, priority_first: bool, fields: tuple[str, ...]) -> None:
    key = policies.app_key(policy, priority_first, 7, 100, (0.5,), 3, "item")
    assert policies.app_fields(policy, priority_first) == fields
    assert len(key) == len(fields) + 1 and key[-1] == "item"


def test_fifo_without_priority_is_arrival_order() -> None:
    """Equal submission times keep file order before priority: the core never sees two equal nanosecond times."""
    first = policies.app_key("fifo", False, -5, 0, (), 0)
    second = policies.app_key("fifo", False, 100, 0, (), 1)
    assert first < second
    assert policies.app_key("fifo", True, 100, 0, (), 1) < policies.app_key("fifo", True, -5, 0, (), 0)


def test_ask_key_priority_creation_then_file_order() -> None:
    keys = [
        policies.ask_key(1, 10, 0),
        policies.ask_key(5, 20, 1),
        policies.ask_key(5, 10, 3),
        policies.ask_key(5, 10, 2),
    ]
    assert sorted(keys) == [keys[3], keys[2], keys[1], keys[0]]


def test_first_difference() -> None:
    assert policies.first_difference((1, 2, 3), (1, 2, 4)) == 2
    assert policies.first_difference((1, 2), (1, 2)) == -1


def test_stateaware_admits_running_starting_and_one_accepted() -> None:
    apps = [("r", "Running", True, 5), ("a1", "Accepted", True, 2), ("a2", "Accepted", True, 1), ("n", "New", False, 0)]
    admitted = policies.stateaware_admitted(apps, lambda a: a[1], lambda a: a[2], lambda a: (a[3], a[0]))
    assert {a[0] for a in admitted} == {"r", "a2"}  # the oldest accepted one
    starting = [*apps, ("s", "Starting", False, 9)]
    admitted = policies.stateaware_admitted(starting, lambda a: a[1], lambda a: a[2], lambda a: (a[3], a[0]))
    assert {a[0] for a in admitted} == {"r"}  # a Starting app, even without pending asks, keeps accepted ones out
