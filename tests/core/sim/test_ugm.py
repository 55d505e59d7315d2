"""User and group limits (sim/ugm.py): which limit applies, as yunikorn-core's user-group manager resolves it, and
what the dry run does at the limit. The resolution rules follow the core's own unit tests of pkg/scheduler/ugm
(manager_test.go: the configured group order wins over the user's, leaf before parent, wildcards) and its code
(manager.go ensureGroupInternal, queue_tracker.go newQueueTracker/setLimit/headroom/canRunApp); the cases here are
ours."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers.scenarios import run, scenario
from yk_cli.core.sim import trace as codes
from yk_cli.core.sim.run import SimulationOptions, simulate
from yk_cli.core.sim.ugm import GROUP, USER, WILDCARD, Ugm, limit_config

TYPES = {"memory": 0, "vcore": 1}


def ugm_of(config: str) -> Ugm:
    partition, _, _ = scenario(config, "nodes: []\n")
    return Ugm(limit_config(partition), 2, TYPES)


def rules(config: str, user: str, groups: tuple[str, ...], path: tuple[str, ...]) -> list[tuple[str, str, str]]:
    limits = ugm_of(config).for_app(user, groups, list(path))
    return [] if limits is None else [(t.rule.kind, t.rule.who, t.rule.queue) for t in limits.trackers]


def tree(root: str = "", parent: str = "", leaf: str = "", other: str = "") -> str:
    """root > parent > leaf (and root > other), each with the limits given as YAML list text."""

    def limits(text: str, indent: int) -> str:
        return f"\n{' ' * indent}limits: {text}" if text else ""

    return (
        "partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: '*'"
        + limits(root, 8)
        + "\n        queues:\n          - name: parent"
        + limits(parent, 12)
        + "\n            queues:\n              - name: leaf"
        + limits(leaf, 16)
        + "\n          - name: other"
        + limits(other, 12)
        + "\n"
    )


LEAF = ("root", "root.parent", "root.parent.leaf")


def test_the_configured_group_order_decides_not_the_users() -> None:
    """manager_test TestGetGroup: whatever order the user's groups come in, the first group the config limits wins."""
    config = tree(leaf="[{groups: [test, test1], maxapplications: 1}]")
    assert ugm_of(config).config.group_of(("test1", "test"), "root.parent.leaf") == "test"
    assert ugm_of(config).config.group_of(("test", "test1"), "root.parent.leaf") == "test"
    assert rules(config, "u", ("test1",), LEAF) == [(GROUP, "test1", "root.parent.leaf")]


def test_group_matching_starts_at_the_leaf() -> None:
    config = tree(parent="[{groups: [dev], maxapplications: 5}]", leaf="[{groups: [ml], maxapplications: 1}]")
    # the leaf configures ml: an ml member is tracked as ml, and ml has no limit at the parent
    assert rules(config, "u", ("dev", "ml"), LEAF) == [(GROUP, "ml", "root.parent.leaf")]
    # nothing matches at the leaf: the parent's dev
    assert rules(config, "u", ("dev",), LEAF) == [(GROUP, "dev", "root.parent")]
    assert rules(config, "u", ("ops",), LEAF) == []


def test_a_wildcard_group_catches_the_rest_at_its_level_only() -> None:
    config = tree(
        root="[{groups: [dev], maxapplications: 9}, {groups: ['*'], maxapplications: 2}]",
        leaf="[{groups: [ml], maxapplications: 1}, {groups: ['*'], maxapplications: 3}]",
    )
    # at the leaf, ops is not configured but the wildcard is: group '*', and the root's '*' limit applies too
    assert rules(config, "u", ("ops",), LEAF) == [(GROUP, WILDCARD, "root"), (GROUP, WILDCARD, "root.parent.leaf")]
    # dev is configured at root only, but the leaf's wildcard matches first: dev's root limit does not apply
    assert rules(config, "u", ("dev",), LEAF) == [(GROUP, WILDCARD, "root"), (GROUP, WILDCARD, "root.parent.leaf")]
    # outside the leaf, dev is dev (root's named limit), and the root wildcard is not a dev limit
    assert rules(config, "u", ("dev",), ("root", "root.other")) == [(GROUP, "dev", "root")]


def test_user_named_over_wildcard_at_each_level() -> None:
    config = tree(
        root="[{users: ['*'], maxapplications: 4}]",
        parent="[{users: [alice], maxapplications: 2}, {users: ['*'], maxapplications: 1}]",
    )
    assert rules(config, "alice", ("alice",), LEAF) == [(USER, WILDCARD, "root"), (USER, "alice", "root.parent")]
    assert rules(config, "bob", ("bob",), LEAF) == [(USER, WILDCARD, "root"), (USER, WILDCARD, "root.parent")]


def test_a_named_entry_that_limits_nothing_still_hides_the_wildcard() -> None:
    config = tree(parent="[{users: [alice]}, {users: ['*'], maxapplications: 1}]")
    assert rules(config, "alice", (), LEAF) == []
    assert rules(config, "bob", (), LEAF) == [(USER, WILDCARD, "root.parent")]


def test_a_later_entry_for_the_same_user_replaces_the_earlier() -> None:
    config = tree(leaf="[{users: [alice], maxapplications: 1}, {users: [alice], maxapplications: 3}]")
    limits = ugm_of(config).for_app("alice", (), list(LEAF))
    assert limits is not None and [t.rule.maxapps for t in limits.trackers] == [3]


def test_partition_limits_are_roots() -> None:
    config = (
        "partitions:\n  - name: default\n    limits: [{users: [alice], maxapplications: 1}]\n"
        "    queues:\n      - name: root\n        queues:\n          - name: a\n"
    )
    assert rules(config, "alice", (), ("root", "root.a")) == [(USER, "alice", "root")]


def test_an_upper_case_queue_name_never_matches() -> None:
    """The user-group manager keys limits by the names as written; queue paths are lower case."""
    config = tree(leaf="[{users: [alice], maxapplications: 1}]").replace("name: leaf", "name: Leaf")
    assert rules(config, "alice", (), LEAF) == []


def test_all_zero_maxresources_limit_nothing() -> None:
    config = tree(leaf="[{users: [alice], maxresources: {memory: 0}}]")
    assert rules(config, "alice", (), LEAF) == []


def test_headroom_is_the_smallest_over_user_and_group_levels() -> None:
    config = tree(
        parent="[{users: [alice], maxresources: {memory: 50, vcore: 4}}]",
        leaf="[{groups: [dev], maxresources: {memory: 30}}]",
    )
    ugm = ugm_of(config)
    mine = ugm.for_app("alice", ("dev",), list(LEAF))
    other = ugm.for_app("carol", ("dev",), list(LEAF))
    assert mine is not None and other is not None
    assert mine.headroom() == [30, 4000]  # vcore in millicores
    other.add((20, 1000))  # carol's allocation counts for the dev group, not for alice
    assert mine.headroom() == [10, 4000]
    mine.add((5, 3000))
    assert mine.headroom() == [5, 1000]
    other.remove((20, 1000), remove_app=True)
    assert mine.headroom() == [25, 1000]


def test_an_application_runs_from_its_first_allocation_until_nothing_is_left() -> None:
    config = tree(leaf="[{users: [alice], maxapplications: 1}]")
    ugm = ugm_of(config)
    first = ugm.for_app("alice", (), list(LEAF))
    second = ugm.for_app("alice", (), list(LEAF))
    assert first is not None and second is not None
    assert first.can_run() and second.can_run()
    first.add((1, 0))
    assert first.can_run() and not second.can_run()
    first.remove((1, 0), remove_app=False)  # nothing runs, but an ask still waits: still counted
    assert not second.can_run()
    first.remove((0, 0), remove_app=True)
    assert second.can_run()


def test_groups_come_from_the_users_earlier_application() -> None:
    """UserGroupCache.ConvertUGI: groups given once are remembered for the user; none ever: the user's own name."""
    ugm = ugm_of(tree())
    assert ugm.groups_of("alice", ()) == ("alice",)
    assert ugm.groups_of("bob", ("dev", "ml")) == ("dev", "ml")
    assert ugm.groups_of("bob", ()) == ("dev", "ml")


QUEUES = """
partitions:
  - name: default
    queues:
      - name: root
        submitacl: '*'
        queues:
          - name: a
            limits:
              - limit: one running application per user
                users: [alice]
                maxapplications: 1
          - name: b
            limits:
              - {limit: dev shares 30, groups: [dev], maxresources: {memory: 30}}
"""


def test_at_the_limit_the_application_waits_and_starts_when_the_other_ends() -> None:
    workload = """
    nodes: [{name: n, resources: {memory: 100}}]
    applications:
      - {id: alice-1, queue: root.a, user: alice,
         asks: [{name: a1, priority: 1, resources: {memory: 10}, duration: 30s}]}
      - {id: alice-2, queue: root.a, user: alice, asks: [{name: a2, priority: 9, resources: {memory: 10}}]}
      - {id: bob-1, queue: root.a, user: bob, asks: [{name: b1, resources: {memory: 10}}]}
    """
    trace = run(QUEUES, workload, until=10)
    assert [(e.ask, e.time) for e in trace.events] == [("a2", 0), ("b1", 0)]
    [pending] = trace.pending
    assert (pending.ask, pending.code) == ("a1", codes.USER_MAX_APPLICATIONS)
    assert pending.reason == "user alice at maxapplications 1 of root.a: 1 of 1 applications run"
    assert pending.where == ("partitions", 0, "queues", 0, "queues", 0, "limits", 0)


def test_a_group_quota_holds_the_ask_and_never_preempts() -> None:
    workload = """
    nodes: [{name: n, resources: {memory: 100}}]
    applications:
      - id: carol-1
        queue: root.b
        user: carol
        groups: [dev]
        asks: [{name: c1, resources: {memory: 20}}, {name: c2, resources: {memory: 20}}]
    """
    trace = run(QUEUES, workload)
    assert [e.ask for e in trace.events] == ["c1"]
    [pending] = trace.pending
    assert pending.code == codes.USER_QUOTA
    assert pending.reason == (
        "group dev of user carol at maxresources {memory: 30} of root.b: {memory: 20} in use, the ask needs "
        "{memory: 20}"
    )


USERS = ("alice", "bob", "carol")


@st.composite
def limited_case(draw: st.DrawFn) -> tuple[str, str, dict[str, Any]]:
    """Random limits on a two-level tree and a workload whose asks all arrive at the start (no running allocation):
    then no user or group may ever go above a limit (a completed application that gets new asks later may, in the
    core too)."""
    limits: dict[str, list[dict[str, Any]]] = {"root": [], "root.p": [], "root.p.x": [], "root.p.y": []}
    for path in limits:
        for who in draw(st.lists(st.sampled_from(["alice", "bob", "*", "g:dev", "g:ops"]), max_size=2, unique=True)):
            entry: dict[str, Any] = {"groups" if who.startswith("g:") else "users": [who.removeprefix("g:")]}
            if draw(st.booleans()):
                entry["maxapplications"] = draw(st.integers(1, 2))
            else:
                entry["maxresources"] = {"memory": draw(st.integers(5, 30))}
            limits[path].append(entry)

    def block(path: str, indent: int) -> str:
        return f"\n{' ' * indent}limits: {limits[path]}" if limits[path] else ""

    config = (
        "partitions:\n  - name: default\n    preemption: {enabled: false}\n    queues:\n      - name: root\n"
        "        submitacl: '*'" + block("root", 8) + "\n        queues:\n          - name: p" + block("root.p", 12)
        + "\n            queues:\n              - name: x" + block("root.p.x", 16)
        + "\n              - name: y" + block("root.p.y", 16) + "\n"
    )  # fmt: skip
    apps = []
    for i in range(draw(st.integers(1, 6))):
        asks = [
            {"name": f"a{i}-{k}", "priority": draw(st.integers(0, 3)),
             "resources": {"memory": draw(st.integers(1, 12))}, "duration": f"{draw(st.integers(1, 20))}s"}
            for k in range(draw(st.integers(1, 4)))
        ]  # fmt: skip
        app = {"id": f"app{i}", "queue": draw(st.sampled_from(["root.p.x", "root.p.y"])),
               "user": draw(st.sampled_from(USERS)), "asks": asks}  # fmt: skip
        if draw(st.booleans()):
            app["groups"] = draw(st.lists(st.sampled_from(["dev", "ops"]), min_size=1, max_size=2, unique=True))
        apps.append(app)
    nodes = [
        {"name": f"n{i}", "resources": {"memory": draw(st.integers(10, 40))}} for i in range(draw(st.integers(1, 3)))
    ]
    workload = json.dumps({"nodes": nodes, "applications": apps})
    return config, workload, limits


@settings(max_examples=150)
@given(limited_case())
def test_no_user_or_group_ever_goes_above_its_limit(case: tuple[str, str, dict[str, Any]]) -> None:
    """Replayed against fresh trackers, every allocation of the trace fits every limit that applies when it is made
    (maxapplications for an application's first allocation, maxresources for every one)."""
    config, workload_text, _ = case
    partition, tree_, workload = scenario(config, workload_text)
    trace = simulate(partition, tree_, workload, SimulationOptions())
    fresh = Ugm(limit_config(partition), 1, {"memory": 0})
    limits_of = {
        app.id: fresh.for_app(app.user, fresh.groups_of(app.user, app.groups), ["root", "root.p", app.queue])
        for app in workload.applications
    }
    memory = {(a.id, k.name): k.resources["memory"] for a in workload.applications for k in a.asks}
    waiting = {a.id: {k.name for k in a.asks} for a in workload.applications}
    running = {a.id: 0 for a in workload.applications}
    for event in trace.events:
        limits = limits_of[event.application]
        size = (memory[(event.application, event.ask)],)
        if event.type == "allocate":
            waiting[event.application].discard(event.ask)
            running[event.application] += 1
            if limits is None:
                continue
            assert limits.can_run(), f"{event.ask}: a maxapplications limit exceeded"
            room = limits.headroom()
            assert room is None or room[0] >= size[0], f"{event.ask}: a maxresources limit exceeded"
            limits.add(size)
        elif event.type == "complete":
            running[event.application] -= 1
            if limits is not None:
                limits.remove(size, running[event.application] == 0 and not waiting[event.application])


@pytest.mark.parametrize("user", ["", "nobody"])
def test_an_application_without_user_runs_as_nobody(user: str) -> None:
    config = tree(leaf="[{users: [nobody], maxapplications: 1}]")
    workload = f"""
    nodes: [{{name: n, resources: {{memory: 10}}}}]
    applications:
      - {{id: one, queue: root.parent.leaf, user: '{user}', asks: [{{name: x, resources: {{memory: 1}}}}]}}
      - {{id: two, queue: root.parent.leaf, asks: [{{name: y, resources: {{memory: 1}}}}]}}
    """
    trace = run(config, workload)
    assert [e.ask for e in trace.events] == ["x"]
    assert [p.code for p in trace.pending] == [codes.USER_MAX_APPLICATIONS]
