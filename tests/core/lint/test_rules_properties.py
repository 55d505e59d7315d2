"""The warning rules of `yk validate`: what YuniKorn accepts but does not do as written
(core/lint/checks/properties.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import dedent
from yk_cli.core.diagnostics import Level
from yk_cli.core.lint.catalogue import all_rules
from yk_cli.core.lint.checks.properties import RULES
from yk_cli.load.config import load_config

MINE = {rule.id for rule in RULES}
Found = tuple[str, str, int, int, str]


def found(tmp_path: Path, text: str) -> list[Found]:
    """(rule, level, line, column, message) of every problem yk reports for a queues.yaml text."""
    path = tmp_path / "queues.yaml"
    path.write_text(dedent(text))
    result = load_config(str(path))
    out = []
    for p in result.problems:
        assert p.span is not None
        out.append((p.rule, str(p.level), p.span.line, p.span.column, p.message))
    return out


def warn(rule: str, line: int, column: int, message: str) -> Found:
    """An expected warning."""
    return (rule, "warning", line, column, message)


def test_every_rule_is_a_documented_warning() -> None:
    assert len(MINE) == len(RULES) == 21
    for rule in RULES:
        assert rule.level == Level.WARNING
        assert rule.summary and len(rule.doc) > 200, rule.id
        assert all_rules()[rule.id] is rule


ROOT = """
    partitions:
      - name: default
        queues:
          - name: root
            submitacl: '*'
    """


# --- invalid-property-value ------------------------------------------------------------------------------------------

INVALID_VALUES = """
    partitions:
      - name: default
        queues:
          - name: root
            submitacl: '*'
            queues:
              - name: batch
                resources:
                  guaranteed: {memory: 1Gi}
                properties:
                  application.sort.policy: {sort}
                  priority.offset: "{offset}"
                  preemption.delay: "{delay}"
                  priority.policy: "{priority}"
                  application.unschedasks.backoff: "{backoff}"
    """


def _values(
    sort: str = "fair", offset: str = "5", delay: str = "10s", priority: str = "fence", backoff: str = "2"
) -> str:
    return (
        INVALID_VALUES.replace("{sort}", sort)
        .replace("{offset}", offset)
        .replace("{delay}", delay)
        .replace("{priority}", priority)
        .replace("{backoff}", backoff)
    )


def test_invalid_values_name_the_value_used_instead(tmp_path: Path) -> None:
    text = _values(sort="Fair", offset="abc", delay="0s", priority="fenced", backoff="-1")
    assert found(tmp_path, text) == [
        warn(
            "invalid-property-value",
            11,
            40,
            'application.sort.policy "Fair" is undefined: YuniKorn uses fifo (policy names are case-sensitive; '
            'write "fair")',
        ),
        warn("invalid-property-value", 12, 32, 'priority.offset "abc" is not an int32: YuniKorn uses 0'),
        warn("invalid-property-value", 13, 33, 'preemption.delay "0s" must be positive: YuniKorn uses 30s'),
        warn("invalid-property-value", 14, 32, 'priority.policy "fenced" is undefined: YuniKorn uses default'),
        warn(
            "invalid-property-value",
            15,
            48,
            'application.unschedasks.backoff "-1" is not an unsigned integer: YuniKorn uses 0 (off)',
        ),
    ]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"offset": " 5"}, 'priority.offset " 5" is not an int32 (spaces are not allowed): YuniKorn uses 0'),
        ({"offset": "1.5"}, 'priority.offset "1.5" is not an int32: YuniKorn uses 0'),
        (
            {"offset": "2147483648"},
            'priority.offset "2147483648" is outside the int32 range (-2147483648..2147483647): YuniKorn uses 0',
        ),
        ({"delay": "45"}, 'preemption.delay "45" is not a duration (a unit is required): YuniKorn uses 30s'),
        ({"delay": "-1s"}, 'preemption.delay "-1s" must be positive: YuniKorn uses 30s'),
        ({"delay": "abc"}, 'preemption.delay "abc" is not a duration: YuniKorn uses 30s'),
        (
            {"sort": "priority"},
            'application.sort.policy "priority" is undefined: YuniKorn uses fifo (known policies: fifo, fair)',
        ),
    ],
)
def test_invalid_value_variants(tmp_path: Path, kwargs: dict[str, str], message: str) -> None:
    assert [f[4] for f in found(tmp_path, _values(**kwargs))] == [message]


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"offset": "+7"}, {"offset": "-2147483648"}, {"delay": "1h30m"}, {"delay": "1500ms"}, {"priority": "FENCE"}],
)
def test_valid_values_are_clean(tmp_path: Path, kwargs: dict[str, str]) -> None:
    assert found(tmp_path, _values(**kwargs)) == []


def test_empty_values_are_flagged_not_skipped(tmp_path: Path) -> None:
    assert [(f[0], f[2]) for f in found(tmp_path, _values(offset="", delay=""))] == [
        ("empty-property-value", 12),
        ("empty-property-value", 13),
    ]


def test_invalid_values_inside_a_childtemplate(tmp_path: Path) -> None:
    text = """
        partitions:
          - name: default
            placementrules:
              - name: tag
                value: namespace
                create: true
            queues:
              - name: root
                submitacl: '*'
                childtemplate:
                  properties:
                    quota.preemption.delay: "0"
    """
    assert found(tmp_path, text) == [
        warn(
            "invalid-property-value",
            12,
            37,
            'quota.preemption.delay "0" must be positive: YuniKorn uses 0s, so quota preemption stays off for this '
            "queue",
        )
    ]


# --- deprecated-sort-policy ------------------------------------------------------------------------------------------

SANDBOX = """
    partitions:
      - name: default
        queues:
          - name: root
            submitacl: '*'
            queues:
              - name: sandbox
                properties:
                  application.sort.policy: {value}
    """


def test_stateaware_is_deprecated(tmp_path: Path) -> None:
    assert found(tmp_path, SANDBOX.replace("{value}", "stateaware")) == [
        warn(
            "deprecated-sort-policy",
            9,
            40,
            'application.sort.policy "stateaware" is deprecated since YuniKorn 1.6: YuniKorn uses fifo (no more '
            "one-application-at-a-time start-up)",
        )
    ]


def test_fifo_is_not_deprecated(tmp_path: Path) -> None:
    assert found(tmp_path, SANDBOX.replace("{value}", "fifo")) == []


# --- unknown-property ------------------------------------------------------------------------------------------------

UNKNOWN = """
    partitions:
      - name: default
        queues:
          - name: root
            submitacl: '*'
            properties:
              {key}: "{value}"
            queues:
              - name: child
    """


@pytest.mark.parametrize(
    ("key", "suggestion"),
    [
        ("priority.ofset", "priority.offset"),
        ("application.sort.priorty", "application.sort.priority"),
        ("preemption_delay", "preemption.delay"),
        ("Priority.Policy", "priority.policy"),
    ],
)
def test_unknown_key_with_did_you_mean(tmp_path: Path, key: str, suggestion: str) -> None:
    value = {"preemption.delay": "10s", "priority.policy": "default"}.get(suggestion, "5")
    problems = found(tmp_path, UNKNOWN.replace("{key}", key).replace("{value}", value))
    assert problems == [
        warn(
            "unknown-property",
            7,
            11,
            f'unknown property "{key}": YuniKorn logs `queue property skipped key={key} value={value}` for each of '
            f'the 2 queues that carry it (static children inherit it) and ignores it (did you mean "{suggestion}"?)',
        )
    ]


def test_unknown_key_without_suggestion_matches_the_core_log(tmp_path: Path) -> None:
    text = UNKNOWN.replace("{key}", "timestamp").replace("{value}", "1705067238")
    assert [f[4] for f in found(tmp_path, text)] == [
        'unknown property "timestamp": YuniKorn logs `queue property skipped key=timestamp value=1705067238` for '
        "each of the 2 queues that carry it (static children inherit it) and ignores it"
    ]


def test_known_key_is_clean(tmp_path: Path) -> None:
    assert found(tmp_path, UNKNOWN.replace("{key}", "application.sort.priority").replace("{value}", "disabled")) == []


# --- property-on-root ------------------------------------------------------------------------------------------------

ON_ROOT = """
    partitions:
      - name: default
        queues:
          - name: root
            submitacl: '*'
            properties:
              {key}: "{value}"
            queues:
              - name: batch
    """


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        (
            "priority.offset",
            "100",
            "priority.offset 100 on root does not change scheduling order (root's priority is never compared); it is "
            "only added to the priority of every ask whose preemption victim search reaches root, which may then "
            "preempt pods in other top-level queues up to 100 above its own priority",
        ),
        (
            "priority.offset",
            "-50",
            "priority.offset -50 on root does not change scheduling order (root's priority is never compared); it is "
            "only added to the priority of every ask whose preemption victim search reaches root, which may then "
            "preempt pods in other top-level queues only 50 or more below its own priority",
        ),
        (
            "priority.policy",
            "fence",
            "priority.policy fence on root does not change scheduling order (root's priority is never compared); it "
            "only replaces the priority of every ask whose preemption victim search reaches root by root's offset "
            "(0), whatever the ask's own priority",
        ),
        (
            "preemption.policy",
            "Fence",
            "preemption.policy fence on root has no effect: root already ends every preemption victim search",
        ),
    ],
)
def test_property_on_root(tmp_path: Path, key: str, value: str, message: str) -> None:
    column = 11 + len(key) + 2
    assert found(tmp_path, ON_ROOT.replace("{key}", key).replace("{value}", value)) == [
        warn("property-on-root", 7, column, message)
    ]


@pytest.mark.parametrize(
    ("key", "value"), [("priority.offset", "0"), ("priority.policy", "default"), ("preemption.policy", "disabled")]
)
def test_harmless_root_properties_are_clean(tmp_path: Path, key: str, value: str) -> None:
    assert found(tmp_path, ON_ROOT.replace("{key}", key).replace("{value}", value)) == []


# --- leaf-property-on-parent -----------------------------------------------------------------------------------------

ON_PARENT = """
    partitions:
      - name: default
        queues:
          - name: root
            submitacl: '*'
            queues:
              - name: tenants
                properties:
                  {key}: "{value}"
                queues:
                  - name: a
                    resources:
                      guaranteed: {memory: 1Gi}
                  - name: b
                    resources:
                      guaranteed: {memory: 1Gi}
                    properties:
                      {key}: "{own}"
    """


def _on_parent(key: str, value: str, own: str) -> str:
    return ON_PARENT.replace("{key}", key).replace("{value}", value).replace("{own}", own)


def test_sort_policy_on_parent_reaches_static_leaves_only(tmp_path: Path) -> None:
    assert found(tmp_path, _on_parent("application.sort.policy", "fair", "fifo")) == [
        warn(
            "leaf-property-on-parent",
            9,
            40,
            'application.sort.policy "fair" on parent root.tenants does not apply to the parent itself (a parent '
            "always sorts its child queues fair); YuniKorn passes it down to its static leaf: root.tenants.a; but "
            "dynamic queues created under it get nothing (only childtemplate properties), so they use fifo",
        )
    ]


def test_delay_on_parent_overridden_everywhere_has_no_effect(tmp_path: Path) -> None:
    text = _on_parent("preemption.delay", "10s", "5s").replace(
        "- name: a\n", "- name: a\n" + " " * 20 + "properties: {preemption.delay: 1s}\n"
    )
    assert found(tmp_path, text) == [
        warn(
            "leaf-property-on-parent",
            9,
            33,
            'preemption.delay "10s" on parent root.tenants has no effect: it does not apply to the parent itself (a '
            "parent has no asks of its own), every static leaf below sets its own value, and dynamic queues created "
            "under it get nothing (only childtemplate properties), so they use 30s",
        )
    ]


def test_default_value_on_parent_and_values_on_leaves_are_clean(tmp_path: Path) -> None:
    assert found(tmp_path, _on_parent("application.sort.policy", "fifo", "fair")) == []
    assert found(tmp_path, _on_parent("preemption.delay", "30s", "10s")) == []


# --- not-inherited-by-dynamic ----------------------------------------------------------------------------------------

DYNAMIC = """
    partitions:
      - name: default
        placementrules:
          - name: tag
            value: namespace
            create: {create}
        queues:
          - name: root
            submitacl: '*'
            properties:
              preemption.policy: disabled
              application.sort.priority: disabled
            childtemplate:
              properties:
                {template}
            queues:
              - name: default
    """


def _dynamic(create: str = "true", template: str = "x.y: z") -> str:
    return DYNAMIC.replace("{create}", create).replace("{template}", template)


def test_dynamic_queues_do_not_inherit(tmp_path: Path) -> None:
    problems = [f for f in found(tmp_path, _dynamic()) if f[0] != "unknown-property"]
    assert problems == [
        warn(
            "not-inherited-by-dynamic",
            11,
            30,
            'preemption.policy "disabled" on root reaches only configured queues: the dynamic queues that placement '
            "rule tag can create under root inherit no properties (YuniKorn gives them only childtemplate "
            "properties), so their pods can be preempted",
        ),
        warn(
            "not-inherited-by-dynamic",
            12,
            38,
            'application.sort.priority "disabled" on root reaches only configured queues: the dynamic queues that '
            "placement rule tag can create under root inherit no properties (YuniKorn gives them only childtemplate "
            "properties), so they use the default enabled",
        ),
    ]


def test_template_entries_or_no_dynamic_queues_are_clean(tmp_path: Path) -> None:
    template = "preemption.policy: disabled\n" + " " * 16 + "application.sort.priority: disabled"
    assert found(tmp_path, _dynamic(template=template)) == []
    no_create = _dynamic(create="false", template=template)
    assert [f[0] for f in found(tmp_path, no_create)] == ["unused-childtemplate"]


# --- priority-offset-range -------------------------------------------------------------------------------------------

OFFSETS = """
    partitions:
      - name: default
        queues:
          - name: root
            submitacl: '*'
            queues:
              - name: tenants
                properties:
                  priority.offset: "{parent}"
                queues:
                  - name: vip
                    properties:
                      priority.offset: "{leaf}"
    """


def test_offsets_above_system_cluster_critical(tmp_path: Path) -> None:
    text = OFFSETS.replace("{parent}", "600000000").replace("{leaf}", "500000000")
    assert found(tmp_path, text) == [
        warn(
            "priority-offset-range",
            9,
            32,
            "priority offsets add up to +1100000000 at root.tenants: a pod at the highest user PriorityClass "
            "(1000000000) gets queue priority 2100000000, at or above system-cluster-critical (2000000000), so it is "
            "sorted ahead of queues running system-critical pods and may preempt them",
        )
    ]


def test_offsets_into_the_int32_clamp(tmp_path: Path) -> None:
    text = OFFSETS.replace("{parent}", "0").replace("{leaf}", "2147483000")
    assert [f[2:] for f in found(tmp_path, text)] == [
        (
            13,
            36,
            "priority offsets add up to +2147483000 at root.tenants.vip: a pod at the highest user PriorityClass "
            "(1000000000) gets queue priority 2147483647, at or above system-cluster-critical (2000000000), so it is "
            "sorted ahead of queues running system-critical pods and may preempt them; every pod of priority 648 or "
            "more gets the clamped value 2147483647, so YuniKorn can no longer tell those priorities apart",
        )
    ]


def test_offsets_into_the_low_clamp(tmp_path: Path) -> None:
    text = OFFSETS.replace("{parent}", "-1500000000").replace("{leaf}", "-1000000000")
    assert [f[2:] for f in found(tmp_path, text)] == [
        (
            9,
            32,
            "priority offsets add up to -2500000000 at root.tenants: every pod of priority 352516352 or less "
            "(priority 0, no PriorityClass, included) gets the clamped value -2147483648, the value YuniKorn gives a "
            "queue with no pending requests, so those priorities can no longer be told apart",
        )
    ]


def test_a_fence_resets_the_sum(tmp_path: Path) -> None:
    text = OFFSETS.replace("{parent}", "600000000").replace("{leaf}", "500000000")
    text = text.replace('"500000000"', '"500000000"\n' + " " * 22 + "priority.policy: fence")
    assert found(tmp_path, text) == []


def test_ordinary_offsets_are_clean(tmp_path: Path) -> None:
    assert found(tmp_path, OFFSETS.replace("{parent}", "1000").replace("{leaf}", "-1000")) == []


# --- preemption rules ------------------------------------------------------------------------------------------------

PREEMPTION = """
    partitions:
      - name: default
        preemption:
          enabled: {enabled}
          quotapreemptionenabled: {quota}
        queues:
          - name: root
            submitacl: '*'
            queues:
              - name: team
                resources:
                  guaranteed: {memory: 4Gi}
                  max: {memory: 8Gi}
                properties:
                  {key}: {value}
    """


def _preemption(key: str, value: str, enabled: str = "true", quota: str = "true") -> str:
    return (
        PREEMPTION.replace("{enabled}", enabled)
        .replace("{quota}", quota)
        .replace("{key}", key)
        .replace("{value}", value)
    )


def test_fence_on_a_leaf(tmp_path: Path) -> None:
    assert found(tmp_path, _preemption("preemption.policy", "fence")) == [
        warn(
            "preemption-fence-on-leaf",
            15,
            34,
            "preemption.policy fence on leaf root.team stops the victim search at the leaf itself, and YuniKorn "
            "never preempts inside the asking queue: its asks can never preempt (only DaemonSet pods tied to a node "
            "still do; its pods can still be preempted from outside)",
        )
    ]


def test_fence_on_a_parent_is_clean(tmp_path: Path) -> None:
    text = """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: '*'
                queues:
                  - name: team
                    properties:
                      preemption.policy: fence
                    queues:
                      - name: inner
                        resources:
                          guaranteed: {memory: 4Gi}
    """
    assert found(tmp_path, text) == []


def test_preemption_settings_when_preemption_is_off(tmp_path: Path) -> None:
    assert found(tmp_path, _preemption("preemption.delay", "2m", enabled="false")) == [
        warn(
            "preemption-disabled",
            15,
            33,
            'preemption.delay "2m" has no effect: partition default sets preemption.enabled: false, so YuniKorn '
            "never preempts for queue guarantees (only DaemonSet pods still preempt, and that ignores queue settings)",
        )
    ]
    assert found(tmp_path, _preemption("preemption.delay", "2m")) == []


def test_quota_delay_without_quota_preemption(tmp_path: Path) -> None:
    assert found(tmp_path, _preemption("quota.preemption.delay", "15m", quota="false")) == [
        warn(
            "quota-preemption-disabled",
            15,
            39,
            'quota.preemption.delay "15m" has no effect: quota preemption is off in partition default '
            "(preemption.quotapreemptionenabled is false)",
        )
    ]
    assert found(tmp_path, _preemption("quota.preemption.delay", "15m")) == []


def test_delay_without_any_guarantee(tmp_path: Path) -> None:
    text = _preemption("preemption.delay", "10s").replace("                  guaranteed: {memory: 4Gi}\n", "")
    assert found(tmp_path, text) == [
        warn(
            "preemption-delay-no-guarantee",
            14,
            33,
            'preemption.delay "10s" on root.team has no effect: YuniKorn preempts only for asks whose queue or a '
            "parent has a guarantee, and neither root.team nor any parent has resources.guaranteed",
        )
    ]


def test_template_offsets_reach_dynamic_leaves(tmp_path: Path) -> None:
    text = """
        partitions:
          - name: default
            placementrules:
              - name: tag
                value: namespace
                create: true
                parent: {name: fixed, value: tenants}
            queues:
              - name: root
                submitacl: '*'
                queues:
                  - name: tenants
                    parent: true
                    properties:
                      priority.offset: "800000000"
                    childtemplate:
                      properties:
                        priority.offset: "300000000"
    """
    assert found(tmp_path, text) == [
        warn(
            "priority-offset-range",
            15,
            32,
            "priority offsets add up to +1100000000 at root.tenants: a pod at the highest user PriorityClass "
            "(1000000000) gets queue priority 2100000000, at or above system-cluster-critical (2000000000), so it is "
            "sorted ahead of queues running system-critical pods and may preempt them",
        )
    ]


# --- queue settings --------------------------------------------------------------------------------------------------

RESOURCES = """
    partitions:
      - name: default
        queues:
          - name: root
            submitacl: '*'
            queues:
              - name: frozen
                resources:
                  max: {max}
    """


def test_zero_max_is_ignored(tmp_path: Path) -> None:
    assert found(tmp_path, RESOURCES.replace("{max}", '{vcore: "0", memory: "0"}')) == [
        warn(
            "zero-resources",
            9,
            15,
            "max of root.frozen has only zero values: YuniKorn ignores it, so root.frozen has no max: only parent "
            "queues and the cluster size limit it",
        )
    ]


def test_zero_memory_next_to_positive_values_blocks_pods(tmp_path: Path) -> None:
    assert found(tmp_path, RESOURCES.replace("{max}", "{memory: 0, vcore: 10}")) == [
        warn(
            "zero-resources",
            9,
            29,
            "memory in the max of root.frozen is 0 next to positive values: YuniKorn keeps it, so no pod that "
            "requests memory can run in root.frozen",
        )
    ]


def test_positive_max_and_zero_gpu_are_clean(tmp_path: Path) -> None:
    assert found(tmp_path, RESOURCES.replace("{max}", "{memory: 8Gi, nvidia.com/gpu: 0}")) == []


TEMPLATES = """
    partitions:
      - name: default
        placementrules:
          - name: tag
            value: namespace
            create: {create}
        queues:
          - name: root
            submitacl: '*'
            queues:
              - name: namespaces
                {parent}
                childtemplate:
                  maxapplications: 10
    """


def test_zero_childtemplate_max_is_dropped(tmp_path: Path) -> None:
    text = TEMPLATES.replace("{create}", "true").replace("{parent}", "parent: true")
    text = text.replace("maxapplications: 10", "resources: {max: {memory: 0}}")
    assert found(tmp_path, text) == [
        warn(
            "zero-resources",
            14,
            27,
            "childtemplate max of root.namespaces has only zero values: YuniKorn ignores it, so the dynamic queues "
            "created from it have no max: only parent queues and the cluster size limit them",
        )
    ]


def test_childtemplate_on_a_leaf(tmp_path: Path) -> None:
    assert found(tmp_path, TEMPLATES.replace("{create}", "true").replace("{parent}", "")) == [
        warn(
            "childtemplate-on-leaf",
            13,
            13,
            "childtemplate on leaf queue root.namespaces is ignored: only a parent hands a template to the dynamic "
            "queues created below it",
        )
    ]


def test_childtemplate_never_used(tmp_path: Path) -> None:
    assert found(tmp_path, TEMPLATES.replace("{create}", "false").replace("{parent}", "parent: true")) == [
        warn(
            "unused-childtemplate",
            13,
            13,
            "childtemplate on root.namespaces is never used: no placement rule has create: true in partition "
            "default, so YuniKorn creates no dynamic queue",
        )
    ]


def test_childtemplate_on_a_parent_with_create_is_clean(tmp_path: Path) -> None:
    assert found(tmp_path, TEMPLATES.replace("{create}", "true").replace("{parent}", "parent: true")) == []


# --- placement, ACLs, partition settings ---------------------------------------------------------------------------

RULE = """
    partitions:
      - name: default
        placementrules:
          - name: {name}
            value: namespace
            create: true
        queues:
          - name: root
            submitacl: '*'
    """


def test_unknown_placement_rule(tmp_path: Path) -> None:
    assert found(tmp_path, RULE.replace("{name}", "namespace")) == [
        warn(
            "unknown-placement-rule",
            4,
            15,
            'placement rule "namespace" does not exist: partition default loads with no placement rules at all, so '
            "every application is rejected (`application rejected: no placement rule matched`); a reload with this "
            "config is refused (`unknown rule name specified namespace, failing placement rule config`)",
        )
    ]


def test_recovery_rule_cannot_be_configured(tmp_path: Path) -> None:
    assert [f[4] for f in found(tmp_path, RULE.replace("{name}", "recovery"))] == [
        'placement rule "recovery" is internal and cannot be configured: partition default loads with no placement '
        "rules at all, so every application is rejected (`application rejected: no placement rule matched`); a "
        "reload with this config is refused"
    ]


INCOMPLETE = """
    partitions:
      - name: default
        placementrules:
          - name: {name}
            create: true
            {extra}
        queues:
          - name: root
            submitacl: '*'
    """


@pytest.mark.parametrize(
    ("name", "extra", "why"),
    [
        ("tag", "", "(`a tag queue rule must have a tag name set`)"),
        ("fixed", "", "(`a fixed queue rule must have a queue name set`)"),
        (
            "fixed",
            "value: root.a\n            parent: {name: user}",
            "(a fixed rule with a fully qualified queue cannot have a parent rule)",
        ),
    ],
)
def test_placement_rule_incomplete(tmp_path: Path, name: str, extra: str, why: str) -> None:
    assert found(tmp_path, INCOMPLETE.replace("{name}", name).replace("{extra}", extra)) == [
        warn(
            "placement-rule-incomplete",
            4,
            15,
            f"{name} rule cannot be built {why}: partition default loads with no placement rules at all, so every "
            "application is rejected (`application rejected: no placement rule matched`); a reload with this config "
            "is refused",
        )
    ]


@pytest.mark.parametrize("extra", ["value: namespace", "value: root.a"])
def test_complete_rules_are_clean(tmp_path: Path, extra: str) -> None:
    text = INCOMPLETE.replace("{name}", "fixed" if "root" in extra else "tag").replace("{extra}", extra)
    assert [f for f in found(tmp_path, text) if f[0] == "placement-rule-incomplete"] == []


@pytest.mark.parametrize("name", ["tag", "Tag"])
def test_known_placement_rules_are_clean(tmp_path: Path, name: str) -> None:
    assert found(tmp_path, RULE.replace("{name}", name)) == []


ACL = """
    partitions:
      - name: default
        queues:
          - name: root
            submitacl: '{acl}'
            queues:
              - name: team
                adminacl: '{admin}'
    """


def test_no_submit_acl(tmp_path: Path) -> None:
    assert found(tmp_path, ACL.replace("{acl}", "").replace("{admin}", "")) == [
        warn(
            "no-submit-acl",
            4,
            15,
            "no queue in partition default has a submitacl or adminacl that lets anyone in: YuniKorn rejects every "
            "application (an empty ACL denies everyone; only YuniKorn's built-in default config sets submitacl '*' on "
            "root)",
        )
    ]


@pytest.mark.parametrize(("acl", "admin"), [("*", ""), ("", "alice"), (" devs", ""), ("", " *")])
def test_any_granting_acl_is_enough(tmp_path: Path, acl: str, admin: str) -> None:
    assert found(tmp_path, ACL.replace("{acl}", acl).replace("{admin}", admin)) == []


def test_acl_names_the_parser_drops(tmp_path: Path) -> None:
    text = ACL.replace("{acl}", "alice,* system:authenticated").replace("{admin}", "system:serviceaccount:ns:sa")
    assert found(tmp_path, text) == [
        warn(
            "acl-invalid-name",
            5,
            20,
            'group "system:authenticated" in the submitacl of root is ignored: YuniKorn\'s ACL parser only accepts '
            "group names matching ^[_a-zA-Z][a-zA-Z0-9_-]*$, so it grants nothing",
        ),
        warn(
            "acl-invalid-name",
            5,
            20,
            'user "*" in the submitacl of root is ignored: YuniKorn\'s ACL parser drops it; the wildcard only works '
            "alone ('*')",
        ),
        warn(
            "acl-invalid-name",
            8,
            23,
            'user "system:serviceaccount:ns:sa" in the adminacl of root.team is ignored: YuniKorn\'s ACL parser only '
            "accepts user names matching ^[_a-zA-Z][a-zA-Z0-9_.@-]*[$]?$, so it grants nothing",
        ),
    ]


def test_tab_is_not_an_acl_separator(tmp_path: Path) -> None:
    text = ACL.replace("{acl}", "*").replace("{admin}", "alice\tdevs")
    assert [f[4] for f in found(tmp_path, text)] == [
        'user "alice\tdevs" in the adminacl of root.team is ignored: YuniKorn\'s ACL parser drops it (only a single '
        "space separates users from groups, not a tab)"
    ]


WEIGHTS = """
    partitions:
      - name: default
        nodesortpolicy:
          type: binpacking
          resourceweights: {weights}
        usergroupresolver:
          type: {resolver}
        queues:
          - name: root
            submitacl: '*'
    """


def _weights(weights: str = "{vcore: 4.0, memory: 1.0}", resolver: str = "os") -> str:
    return WEIGHTS.replace("{weights}", weights).replace("{resolver}", resolver)


def test_node_sort_weights(tmp_path: Path) -> None:
    assert found(tmp_path, _weights("{cpu: 4.0, memory: 1.0}")) == [
        warn(
            "node-sort-weights",
            5,
            25,
            'resourceweights "cpu" matches no node resource (YuniKorn calls it "vcore"): this weight of 4 is ignored',
        )
    ]
    assert [f[4] for f in found(tmp_path, _weights("{nvidia.com/gpu: 1.0}"))] == [
        "resourceweights of partition default gives no weight to vcore or memory: once weights are set only the "
        "listed types (nvidia.com/gpu) count, so node sorting ignores CPU and memory usage"
    ]
    assert [f[4] for f in found(tmp_path, _weights("{vcore: 0, memory: 0}"))] == [
        "resourceweights of partition default has no positive weight: every node scores the same, so nodes are tried "
        "in node-ID order"
    ]


def test_unknown_user_group_resolver(tmp_path: Path) -> None:
    assert found(tmp_path, _weights(resolver="LDAP")) == [
        warn(
            "unknown-user-group-resolver",
            7,
            13,
            'usergroupresolver type "LDAP" is unknown (os, ldap; case-sensitive): YuniKorn resolves no groups and '
            "uses only the groups the shim sends",
        )
    ]


def test_partition_settings_are_clean(tmp_path: Path) -> None:
    assert found(tmp_path, _weights()) == []
    assert found(tmp_path, _weights("{vcore: 1, memory: 1, nvidia.com/gpu: 2}", "ldap")) == []


# --- suppression and --strict ----------------------------------------------------------------------------------------


def test_disable_comment_silences_the_warning_on_its_line(tmp_path: Path) -> None:
    text = SANDBOX.replace("{value}", "stateaware  # yk: disable=deprecated-sort-policy")
    assert found(tmp_path, text) == []
    other = SANDBOX.replace("{value}", "stateaware  # yk: disable=unknown-property")
    assert [f[0] for f in found(tmp_path, other)] == ["deprecated-sort-policy"]


def test_disable_comment_takes_a_list(tmp_path: Path) -> None:
    text = _values(sort="Fair  # yk: disable=unknown-property, invalid-property-value")
    assert found(tmp_path, text) == []


def test_strict_makes_warnings_fail(run_yk, tmp_path: Path) -> None:
    path = tmp_path / "queues.yaml"
    path.write_text(dedent(SANDBOX.replace("{value}", "stateaware")))
    plain = run_yk("validate", str(path))
    assert plain.exit_code == 0, plain.stdout
    assert "deprecated-sort-policy" in plain.stdout
    strict = run_yk("validate", "--strict", str(path))
    assert strict.exit_code == 1, strict.stdout
    assert "deprecated-sort-policy" in strict.stdout


def test_strict_on_a_clean_file_exits_0(run_yk, tmp_path: Path) -> None:
    path = tmp_path / "queues.yaml"
    path.write_text(dedent(ROOT))
    assert run_yk("validate", "--strict", str(path)).exit_code == 0
