"""`yk check` static assertions: each kind on a config that satisfies it and on one that breaks it, with the proof's
config lines and the counter-example."""

from __future__ import annotations

from tests.core.assertions.check_helpers import one

CONFIG = """
partitions:
  - name: default
    queues:
      - name: root
        adminacl: admin
        queues:
          - name: system
            submitacl: "ops sysgroup"
            properties:
              priority.offset: "1000"
            resources:
              guaranteed: {vcore: 4}
          - name: tenants
            submitacl: "*"
            properties:
              priority.policy: fence
            resources:
              guaranteed: {vcore: 8}
            queues:
              - name: a
              - name: b
                properties:
                  priority.offset: "50"
          - name: batch
            submitacl: " etl"
            properties:
              priority.offset: "-100"
            resources:
              guaranteed: {vcore: 2}
              max: {vcore: 10}
          - name: scratch
            submitacl: "*"
"""


def _texts(outcome) -> list[str]:
    return [e.text for e in outcome.evidence]


# --- cannot-preempt ------------------------------------------------------------------------------------------------


def test_cannot_preempt_proved_by_offsets_names_the_offset_lines() -> None:
    found = one(CONFIG, "cannot-preempt: {from: root.batch, victims: root.system}")
    assert found.passed and found.mode == "static"
    assert found.message == "no pod of root.batch can preempt a pod of root.system, for every priority in [0, 1000]"
    assert _texts(found)[:3] == [
        "root.batch -> root.system: even an ask of P1000 reaches only pods at P-100 or lower, below the lowest "
        "priority P0",
        "ask of P1000 in root.batch",
        "up: root.batch priority.offset -100: 1000 -> 900",
    ]
    down = next(e for e in found.evidence if e.text.startswith("down:"))
    assert down.text == "down: root.system priority.offset +1000: 900 -> -100"
    assert down.config_path == ("partitions", 0, "queues", 0, "queues", 0, "properties", "priority.offset")


def test_cannot_preempt_breaks_when_the_range_reaches_past_the_offsets() -> None:
    found = one(CONFIG, "cannot-preempt: {from: root.batch, victims: root.system}", 0, 2000)
    assert not found.passed
    assert found.message == (
        "a pod of root.batch at P2000 can preempt a pod of root.system at P0..P900: its victim search reaches pods "
        "of root.system up to P900"
    )
    assert found.counter_example == {
        "ask": {"queue": "root.batch", "priority": 2000},
        "victim": {"queue": "root.system", "priority": 900, "lowestPriority": 0},
        "searchFrom": "root",
        "level": 900,
    }
    assert found.blame == ("partitions", 0, "queues", 0, "queues", 0, "name")


def test_cannot_preempt_breaks_below_a_priority_fence_whatever_the_priorities() -> None:
    found = one(CONFIG, "cannot-preempt: {from: root.batch, victims: root.tenants}")
    assert not found.passed
    assert found.message.startswith("a pod of root.batch at P1000 can preempt a pod of root.tenants.a at P0..P1000")
    assert found.blame == ("partitions", 0, "queues", 0, "queues", 1, "properties", "priority.policy")
    assert found.counter_example is not None and found.counter_example["victim"] == {
        "queue": "root.tenants.a",
        "priority": 1000,
        "lowestPriority": 0,
    }


def test_cannot_preempt_proved_by_preemption_disabled() -> None:
    config = CONFIG.replace(
        "priority.policy: fence\n", "priority.policy: fence\n              preemption.policy: disabled\n"
    )
    found = one(config, "cannot-preempt: {from: root.batch, victims: root.tenants}")
    assert found.passed
    texts = _texts(found)
    assert "root.tenants.a has preemption.policy disabled: its pods are never victims" in texts
    assert "root.tenants.b has preemption.policy disabled: its pods are never victims" in texts
    inherited = next(e for e in found.evidence if e.text.startswith("root.tenants.a"))
    assert inherited.config_path == ("partitions", 0, "queues", 0, "queues", 1, "properties", "preemption.policy")


def test_cannot_preempt_proved_by_a_preemption_fence() -> None:
    config = CONFIG.replace(
        'priority.offset: "-100"', 'priority.offset: "-100"\n              preemption.policy: fence'
    )
    found = one(config, "cannot-preempt: {from: root.batch, victims: root.tenants}")
    assert found.passed
    assert _texts(found)[0] == (
        "root.batch -> root.tenants.a: the victim search of root.batch stops at root.batch (preemption.policy fence), "
        "and the victims are outside it"
    )


def test_cannot_preempt_proved_by_no_guarantee() -> None:
    found = one(CONFIG, "cannot-preempt: {from: root.scratch, victims: root}")
    assert found.passed
    assert _texts(found)[0] == (
        "root.scratch has no guarantee on its path to root: its asks never preempt (law 4, the queue guarantees "
        "check fails)"
    )


def test_cannot_preempt_proved_by_preemption_off_on_the_partition() -> None:
    config = CONFIG.replace("  - name: default\n", "  - name: default\n    preemption:\n      enabled: false\n")
    found = one(config, "cannot-preempt: {from: root.batch, victims: root.tenants}")
    assert found.passed
    assert found.evidence[0].config_path == ("partitions", 0, "preemption", "enabled")


def test_cannot_preempt_common_parent_quirk_inside_a_fence() -> None:
    # b (offset 50) asks at P0: at tenants it is fenced to 0, so a's pods must be at P0 or lower
    found = one(CONFIG, "cannot-preempt: {from: root.tenants.a, victims: root.tenants.b}")
    assert found.passed  # a at P1000 -> tenants fence 0 -> down to b: 0 - 50 = -50 < 0
    found = one(CONFIG, "cannot-preempt: {from: root.tenants.b, victims: root.tenants.a}")
    assert not found.passed
    assert found.counter_example is not None and found.counter_example["victim"]["priority"] == 0


def test_cannot_preempt_covers_dynamic_queues_placement_may_create() -> None:
    config = CONFIG.replace(
        "    queues:\n      - name: root\n",
        "    placementrules:\n      - {name: tag, value: namespace, create: true, parent: {name: fixed, value: "
        "root.tenants}}\n    queues:\n      - name: root\n",
    ).replace("          - name: tenants\n", "          - name: tenants\n            parent: true\n")
    found = one(config, "cannot-preempt: {from: root.batch, victims: root.tenants}")
    assert not found.passed
    found = one(config, "cannot-preempt: {from: root.tenants, victims: root.system}")
    assert found.passed
    assert any("root.tenants.* (any queue placement rules may create below root.tenants)" in t for t in _texts(found))


def test_unknown_queue_fails_with_a_did_you_mean() -> None:
    found = one(CONFIG, "cannot-preempt: {from: root.batsh, victims: root.system}")
    assert not found.passed
    assert found.message == "queue root.batsh is not in the queue config (did you mean root.batch?)"


# --- outranks ------------------------------------------------------------------------------------------------------


def test_outranks_proved_with_the_offset_chain() -> None:
    found = one(CONFIG, "outranks: {queue: root.system, over: root.batch}")
    assert found.passed
    assert found.message == (
        "every ask of root.system outranks every ask of root.batch at root (1000 > 900), for every priority in "
        "[0, 1000]"
    )
    assert _texts(found) == [
        "lowest: an ask of P0 in root.system counts as 1000 at root.system",
        "root.system: priority.offset +1000 -> 1000",
        "highest: an ask of P1000 in root.batch counts as 900 at root.batch",
        "root.batch: priority.offset -100 -> 900",
    ]


def test_outranks_breaks_with_a_counter_example_pair() -> None:
    found = one(CONFIG, "outranks: {queue: root.system, over: root.batch}", 0, 2000)
    assert not found.passed
    assert found.counter_example == {
        "ask": {"queue": "root.system", "priority": 0, "effective": 1000},
        "over": {"queue": "root.batch", "priority": 2000, "effective": 1900},
        "comparedAt": "root",
    }
    assert found.blame == ("partitions", 0, "queues", 0, "queues", 0, "properties", "priority.offset")


def test_outranks_compares_where_the_queues_meet() -> None:
    # inside the tenants fence b's offset counts: b (P0 + 50) over a (P40 at most)
    assert one(CONFIG, "outranks: {queue: root.tenants.b, over: root.tenants.a}", 0, 40).passed
    assert not one(CONFIG, "outranks: {queue: root.tenants.b, over: root.tenants.a}", 0, 50).passed


def test_outranks_of_overlapping_queues_fails() -> None:
    found = one(CONFIG, "outranks: {queue: root.tenants.a, over: root.tenants}")
    assert not found.passed
    assert "overlap" in found.message


# --- fenced --------------------------------------------------------------------------------------------------------


def test_fenced_priority_on_the_path() -> None:
    found = one(CONFIG, "fenced: {queue: root.tenants.a, fence: priority}")
    assert found.passed
    assert found.message == "root.tenants.a is behind a priority fence"
    assert found.evidence[0].config_path == ("partitions", 0, "queues", 0, "queues", 1, "properties", "priority.policy")


def test_fenced_says_which_fence_is_missing() -> None:
    found = one(CONFIG, "fenced: root.tenants.a")
    assert not found.passed
    assert found.message == "root.tenants.a has no preemption fence on its path"
    assert not one(CONFIG, "fenced: {queue: root.batch, fence: priority}").passed


# --- guaranteed-at-least / max-at-most -----------------------------------------------------------------------------


def test_guaranteed_at_least() -> None:
    found = one(CONFIG, "guaranteed-at-least: {queue: root.system, resources: {vcore: 4}}")
    assert found.passed
    assert found.evidence[0].config_path == (
        "partitions",
        0,
        "queues",
        0,
        "queues",
        0,
        "resources",
        "guaranteed",
        "vcore",
    )
    found = one(CONFIG, "guaranteed-at-least: {queue: root.system, resources: {vcore: 4500m, memory: 1Gi}}")
    assert not found.passed
    assert found.message == (
        "root.system guarantees less than {memory: 1Gi, vcore: 4500m}: memory not guaranteed, vcore 4 < 4500m"
    )


def test_max_at_most_takes_the_smallest_max_up_the_tree() -> None:
    config = CONFIG.replace(
        "              - name: b\n", "              - name: b\n                resources: {max: {memory: 8Gi}}\n"
    )
    config = config.replace("guaranteed: {vcore: 8}", "guaranteed: {vcore: 8}\n              max: {vcore: 12}")
    found = one(config, "max-at-most: {queue: root.tenants.b, resources: {vcore: 12}}")
    assert found.passed
    assert found.evidence[0].text == "root.tenants.b can use at most vcore 12 (the max of root.tenants)"
    found = one(config, "max-at-most: {queue: root.tenants.b, resources: {vcore: 10, memory: 1Gi}}")
    assert not found.passed
    assert found.message == "root.tenants.b can use more than {memory: 1Gi, vcore: 10}: memory 8Gi > 1Gi, vcore 12 > 10"
    found = one(config, "max-at-most: {queue: root.tenants.b, resources: {nvidia.com/gpu: 1}}")
    assert found.message == "root.tenants.b can use more than {nvidia.com/gpu: 1}: no max for nvidia.com/gpu"


# --- can-submit / cannot-submit ------------------------------------------------------------------------------------


def test_can_submit_through_the_acl_and_placement() -> None:
    found = one(CONFIG, "can-submit: {user: bob, groups: [sysgroup], queue: root.system}")
    assert found.passed
    assert _texts(found) == [
        "the submitacl 'ops sysgroup' of root.system lets user bob (groups sysgroup) in",
        "placement: rule provided puts an application asking for root.system there",
    ]
    assert one(CONFIG, "can-submit: {group: etl, queue: root.batch}").passed
    assert one(CONFIG, "can-submit: {user: admin, queue: root.batch}").passed  # root's adminacl


def test_can_submit_fails_on_the_acl() -> None:
    found = one(CONFIG, "can-submit: {user: alice, queue: root.system}")
    assert not found.passed
    assert found.message == "user alice cannot submit to root.system: the ACLs do not let them in"
    assert found.blame == ("partitions", 0, "queues", 0, "queues", 0, "submitacl")


def test_cannot_submit() -> None:
    assert one(CONFIG, "cannot-submit: {user: alice, queue: root.system}").passed
    found = one(CONFIG, "cannot-submit: {user: alice, queue: root.tenants.a}")
    assert not found.passed
    assert found.message == "user alice can submit to root.tenants.a: the submitacl of root.tenants lets them in"
    assert found.blame == ("partitions", 0, "queues", 0, "queues", 1, "submitacl")


def test_can_submit_fails_when_placement_does_not_reach_the_queue() -> None:
    # a queue that does not exist: the provided rule (create: false) does not make it
    found = one(CONFIG, "can-submit: {user: alice, queue: root.tenants.c}")
    assert not found.passed
    assert "the placement rules do not put an application asking for it there" in found.message
