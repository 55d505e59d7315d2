"""Property parsers with YuniKorn's fallbacks, and which properties a queue inherits (core/config/properties.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import dedent
from yk_cli.core.config import properties as props
from yk_cli.core.config.properties import Source, format_duration, inherit, parse_go_duration, parse_property
from yk_cli.core.config.queues import QueueTree, build_queue_tree
from yk_cli.load.config import load_config

SECOND = props.NANOS_PER_SECOND


@pytest.mark.parametrize(
    ("text", "value", "ok"),
    [
        ("", 0, False),
        ("abc", 0, False),
        (" 5", 0, False),
        ("5 ", 0, False),
        ("5\n", 0, False),
        ("1.5", 0, False),
        ("0x10", 0, False),
        ("1_000", 0, False),
        ("2147483648", 0, False),
        ("-2147483649", 0, False),
        ("+7", 7, True),
        ("-5", -5, True),
        ("0", 0, True),
        ("2147483647", 2147483647, True),
        ("-2147483648", -2147483648, True),
    ],
)
def test_priority_offset_is_go_parseint_32(text: str, value: int, ok: bool) -> None:
    parsed = parse_property(props.PRIORITY_OFFSET, text)
    assert (parsed.value, parsed.ok) == (value, ok)


def test_priority_offset_out_of_range_says_so() -> None:
    assert parse_property(props.PRIORITY_OFFSET, "2147483648").note.endswith("value out of range")
    assert parse_property(props.PRIORITY_OFFSET, "abc").note.endswith("invalid syntax")


@pytest.mark.parametrize(
    ("text", "nanos", "ok"),
    [
        ("0s", 30 * SECOND, False),
        ("0", 30 * SECOND, False),
        ("-1s", 30 * SECOND, False),
        ("abc", 30 * SECOND, False),
        ("45", 30 * SECOND, False),
        ("", 30 * SECOND, False),
        (" 30s", 30 * SECOND, False),
        ("5S", 30 * SECOND, False),
        ("1h30", 30 * SECOND, False),
        ("1d", 30 * SECOND, False),
        ("1h30m", 90 * 60 * SECOND, True),
        ("1500ms", 1_500_000_000, True),
        ("45s", 45 * SECOND, True),
        (".5s", SECOND // 2, True),
        ("+2m", 120 * SECOND, True),
        ("1µs", 1_000, True),
    ],
)
def test_preemption_delay_is_a_positive_go_duration(text: str, nanos: int, ok: bool) -> None:
    parsed = parse_property(props.PREEMPTION_DELAY, text)
    assert (parsed.value, parsed.ok) == (nanos, ok)


@pytest.mark.parametrize("key", [props.BACKOFF_DELAY, props.PREEMPTION_DELAY])
def test_other_delays_fall_back_to_30s(key: str) -> None:
    assert parse_property(key, "0s").value == 30 * SECOND
    assert parse_property(key, "10s").value == 10 * SECOND


def test_quota_preemption_delay_falls_back_to_zero() -> None:
    parsed = parse_property(props.QUOTA_PREEMPTION_DELAY, "0")
    assert (parsed.value, parsed.ok) == (0, False)
    assert parse_property(props.QUOTA_PREEMPTION_DELAY, "15m").value == 15 * 60 * SECOND


def test_go_duration_edge_cases() -> None:
    assert parse_go_duration("-0") == 0
    assert parse_go_duration("5.s") == 5 * SECOND
    assert parse_go_duration(".s") is None
    assert parse_go_duration("+") is None
    assert parse_go_duration("9999999999h") is None


@pytest.mark.parametrize(
    ("nanos", "text"),
    [(30 * SECOND, "30s"), (90 * 60 * SECOND, "1h30m0s"), (1_500_000_000, "1.5s"), (500_000, "500µs")],
)
def test_format_duration_like_go(nanos: int, text: str) -> None:
    assert format_duration(nanos) == text


@pytest.mark.parametrize(
    ("text", "value", "ok"),
    [
        ("fifo", "fifo", True),
        ("", "fifo", True),
        ("fair", "fair", True),
        ("stateaware", "fifo", True),
        ("Fair", "fifo", False),
        ("FIFO", "fifo", False),
        ("StateAware", "fifo", False),
        ("priority", "fifo", False),
    ],
)
def test_sort_policy_is_case_sensitive(text: str, value: str, ok: bool) -> None:
    parsed = parse_property(props.SORT_POLICY, text)
    assert (parsed.value, parsed.ok) == (value, ok)


def test_stateaware_carries_a_deprecation_note() -> None:
    assert "deprecated" in parse_property(props.SORT_POLICY, "stateaware").note


@pytest.mark.parametrize(
    ("text", "value", "ok"),
    [
        ("enabled", True, True),
        ("DISABLED", False, True),
        ("Disabled", False, True),
        ("no", True, False),
        ("", True, False),
    ],
)
def test_sort_priority_ignores_case_and_defaults_to_enabled(text: str, value: bool, ok: bool) -> None:
    parsed = parse_property(props.SORT_PRIORITY, text)
    assert (parsed.value, parsed.ok) == (value, ok)


@pytest.mark.parametrize(
    ("key", "text", "value", "ok"),
    [
        (props.PRIORITY_POLICY, "FENCE", "fence", True),
        (props.PRIORITY_POLICY, "Default", "default", True),
        (props.PRIORITY_POLICY, "", "default", True),
        (props.PRIORITY_POLICY, "fenced", "default", False),
        (props.PRIORITY_POLICY, "disabled", "default", False),
        (props.PREEMPTION_POLICY, "Fence", "fence", True),
        (props.PREEMPTION_POLICY, "DISABLED", "disabled", True),
        (props.PREEMPTION_POLICY, "", "default", True),
        (props.PREEMPTION_POLICY, "off", "default", False),
    ],
)
def test_priority_and_preemption_policies_ignore_case(key: str, text: str, value: str, ok: bool) -> None:
    parsed = parse_property(key, text)
    assert (parsed.value, parsed.ok) == (value, ok)


@pytest.mark.parametrize(("text", "value", "ok"), [("3", 3, True), ("0", 0, True), ("-1", 0, False), ("+3", 0, False)])
def test_backoff_is_an_unsigned_integer(text: str, value: int, ok: bool) -> None:
    parsed = parse_property(props.BACKOFF, text)
    assert (parsed.value, parsed.ok) == (value, ok)


def test_unknown_keys_are_kept_as_text() -> None:
    assert parse_property("timestamp", "1705067238").value == "1705067238"


PARENT = {
    props.PRIORITY_POLICY: "fence",
    props.PRIORITY_OFFSET: "10",
    props.PREEMPTION_POLICY: "fence",
    props.SORT_POLICY: "fair",
    props.SORT_PRIORITY: "disabled",
    props.PREEMPTION_DELAY: "10s",
    props.BACKOFF: "3",
    props.BACKOFF_DELAY: "5s",
    props.QUOTA_PREEMPTION_DELAY: "15m",
    "timestamp": "1705067238",
}


def test_inheritance_filter() -> None:
    parent = inherit(None, PARENT, "root.p")
    child = inherit(parent, {}, "root.p.c")
    assert props.PRIORITY_POLICY not in child.entries
    assert props.PRIORITY_OFFSET not in child.entries
    assert props.PREEMPTION_POLICY not in child.entries
    inherited = set(PARENT) - {props.PRIORITY_POLICY, props.PRIORITY_OFFSET, props.PREEMPTION_POLICY}
    assert set(child.entries) == inherited
    assert all(child.entries[k] == (PARENT[k], Source.INHERITED, "root.p") for k in inherited)
    assert child.setting(props.PRIORITY_POLICY).source == Source.DEFAULT
    assert child.setting(props.PRIORITY_OFFSET).value == 0


@pytest.mark.parametrize(
    ("text", "passes"), [("disabled", True), ("DISABLED", True), ("fence", False), ("default", False)]
)
def test_only_disabled_preemption_policy_is_inherited(text: str, passes: bool) -> None:
    child = inherit(inherit(None, {props.PREEMPTION_POLICY: text}, "root.p"), {}, "root.p.c")
    assert (props.PREEMPTION_POLICY in child.entries) is passes


def test_inheritance_reaches_grandchildren_and_own_values_win() -> None:
    parent = inherit(None, PARENT, "root.p")
    child = inherit(parent, {props.SORT_POLICY: "fifo"}, "root.p.c")
    grandchild = inherit(child, {}, "root.p.c.g")
    assert grandchild.setting(props.SORT_POLICY).value == "fifo"
    assert grandchild.setting(props.SORT_POLICY).origin == "root.p.c"
    assert grandchild.setting(props.PREEMPTION_DELAY).value == 10 * SECOND
    assert grandchild.setting(props.PREEMPTION_DELAY).origin == "root.p"


def test_rejected_inherited_text_falls_back_with_provenance() -> None:
    child = inherit(inherit(None, {props.PREEMPTION_DELAY: "0s"}, "root.p"), {}, "root.p.c")
    setting = child.setting(props.PREEMPTION_DELAY)
    assert (setting.value, setting.fallback, setting.source, setting.origin) == (
        30 * SECOND,
        True,
        Source.INHERITED,
        "root.p",
    )


def _tree(text: str, tmp_path: Path) -> QueueTree:
    path = tmp_path / "queues.yaml"
    path.write_text(dedent(text))
    result = load_config(str(path), check=False)
    assert not result.problems
    return build_queue_tree(result.configs[0].config.partitions[0])


TEMPLATE_TREE = """
    partitions:
      - name: default
        queues:
          - name: root
            properties:
              preemption.policy: disabled
              application.sort.policy: fair
            childtemplate:
              properties:
                priority.offset: "5"
                preemption.delay: ""
            queues:
              - name: static
              - name: group
                parent: true
                childtemplate: {}
    """


def test_dynamic_queues_get_only_template_properties(tmp_path: Path) -> None:
    tree = _tree(TEMPLATE_TREE, tmp_path)
    assert tree.get("root.static").properties.entries[props.PREEMPTION_POLICY][1] == Source.INHERITED
    dynamic = tree.add_dynamic("root.ns")
    assert dynamic.dynamic and dynamic.is_leaf
    assert dict(dynamic.properties.entries) == {props.PRIORITY_OFFSET: ("5", Source.TEMPLATE, "root")}
    assert dynamic.preemption_policy == "default"
    assert dynamic.sort_policy == "fifo"


def test_dynamic_queue_without_template_gets_defaults(tmp_path: Path) -> None:
    tree = _tree(TEMPLATE_TREE.replace('priority.offset: "5"', 'priority.offset: ""'), tmp_path)
    dynamic = tree.add_dynamic("root.ns")
    assert dynamic.properties.entries == {}
    assert dynamic.preemption_policy == "default"


def test_empty_childtemplate_is_no_template(tmp_path: Path) -> None:
    tree = _tree(TEMPLATE_TREE, tmp_path)
    assert tree.get("root.group").template_origin == "root"
    assert tree.add_dynamic("root.group.ns").priority_offset == 5
