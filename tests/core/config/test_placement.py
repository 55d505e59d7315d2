"""Placement rules as YuniKorn's placement manager applies them: rules, parents, create, filters, ACLs, templates."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import dedent
from yk_cli.core.config import properties as props
from yk_cli.core.config.go_regexp import go_compile, go_compile_error
from yk_cli.core.config.model import PartitionConfig, decode_config
from yk_cli.core.config.placement import (
    DEFAULT_QUEUES_YAML,
    RECOVERY_QUEUE,
    TAG_CREATE_FORCE,
    TAG_GUARANTEED,
    TAG_MAX_APPS,
    TAG_QUOTA,
    Placement,
    build_rules,
    default_partition,
    parse_acl,
    place,
    place_all,
    summarize,
)
from yk_cli.core.config.queues import QueueTree, build_queue_tree
from yk_cli.core.diagnostics import Level
from yk_cli.core.workload.model import Allocation, Application
from yk_cli.load.config import load_config
from yk_cli.load.source import parse_yaml


def partition(text: str) -> PartitionConfig:
    """The first partition of a queues.yaml snippet."""
    parsed = parse_yaml(dedent(text))
    assert not parsed.problems
    config, problems = decode_config(parsed.documents[0])
    assert not problems, problems
    return config.partitions[0]


def setup(text: str) -> tuple[PartitionConfig, QueueTree]:
    part = partition(text)
    return part, build_queue_tree(part)


def app(
    queue: str | None = None,
    user: str = "alice",
    groups: tuple[str, ...] = (),
    tags: dict[str, str] | None = None,
    app_id: str = "app-1",
    running: bool = False,
) -> Application:
    allocations = (Allocation("a/p", app_id, "node-1", 0, {"vcore": 1}),) if running else ()
    return Application(
        id=app_id, queue=queue, submit_time=0, seq=0, user=user, groups=groups, tags=tags or {}, allocations=allocations
    )


def placed(text: str, application: Application) -> Placement:
    part, tree = setup(text)
    return place(part, tree, application)


TREE = """
partitions:
  - name: default
    placementrules: PLACEHOLDER
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: tenants
            parent: true
            childtemplate:
              maxapplications: 4
              properties:
                application.sort.policy: fair
                priority.offset: "5"
              resources:
                guaranteed: {vcore: "1", memory: 1Gi}
                max: {vcore: "4", memory: 4Gi}
          - name: users
            parent: true
          - name: batch
          - name: general
"""


def with_rules(rules: str) -> str:
    """TREE with a flow-style placementrules list."""
    return TREE.replace("PLACEHOLDER", rules)


# --------------------------------------------------------------------------------------------------- provided rule


def test_provided_fully_qualified_existing_leaf() -> None:
    result = placed(with_rules("[{name: provided}]"), app("root.batch"))
    assert (result.queue_path, result.rule, result.created) == ("root.batch", "provided", False)


def test_provided_is_case_insensitive_on_lookup() -> None:
    assert placed(with_rules("[{name: provided}]"), app("root.BATCH")).queue_path == "root.batch"


def test_provided_relative_goes_below_root() -> None:
    assert placed(with_rules("[{name: provided}]"), app("batch")).queue_path == "root.batch"


def test_provided_relative_replaces_dots_and_lower_cases() -> None:
    result = placed(with_rules("[{name: provided, create: true}]"), app("Team.A"))
    assert result.queue_path == "root.team_dot_a"
    assert result.created and result.created_queues == ("root.team_dot_a",)


def test_provided_missing_queue_without_create_is_rejected() -> None:
    result = placed(with_rules("[{name: provided}]"), app("root.nope"))
    assert result.queue_path is None
    assert "root.nope does not exist and create is false" in result.reason


def test_provided_with_parent_rule() -> None:
    rules = "[{name: provided, create: true, parent: {name: fixed, value: tenants}}]"
    result = placed(with_rules(rules), app("web"))
    assert result.queue_path == "root.tenants.web"
    assert result.rule == "provided, parent fixed (tenants)"


def test_provided_qualified_ignores_parent_rule() -> None:
    rules = "[{name: provided, parent: {name: fixed, value: tenants}}]"
    assert placed(with_rules(rules), app("root.batch")).queue_path == "root.batch"


def test_provided_without_queue_falls_through() -> None:
    rules = "[{name: provided}, {name: fixed, value: batch}]"
    result = placed(with_rules(rules), app(None))
    assert result.queue_path == "root.batch"
    assert result.trace == ("provided: the application names no queue",)


def test_invalid_queue_name_rejects_outright() -> None:
    rules = "[{name: provided, create: true}, {name: fixed, value: batch}]"
    result = placed(with_rules(rules), app("bad name!"))
    assert result.queue_path is None
    assert result.reason.startswith("rule provided failed: invalid queue name")


def test_provided_parent_queue_is_not_a_target() -> None:
    rules = "[{name: provided}, {name: fixed, value: batch}]"
    result = placed(with_rules(rules), app("root.tenants"))
    assert result.queue_path == "root.batch"
    assert "root.tenants is a parent queue" in result.trace[0]


# ------------------------------------------------------------------------------------------------------ user rule


def test_user_rule_replaces_dots() -> None:
    rules = "[{name: user, create: true, parent: {name: fixed, value: root.users}}]"
    result = placed(with_rules(rules), app(user="john.doe"))
    assert result.queue_path == "root.users.john_dot_doe"


def test_user_rule_without_create_needs_the_queue() -> None:
    result = placed(with_rules("[{name: user}]"), app(user="batch"))
    assert result.queue_path == "root.batch"
    assert placed(with_rules("[{name: user}]"), app(user="carol")).queue_path is None


def test_missing_user_is_nobody() -> None:
    result = placed(with_rules("[{name: user, create: true}]"), app(user=""))
    assert result.queue_path == "root.nobody"


# ----------------------------------------------------------------------------------------------------- fixed rule


def test_fixed_qualified() -> None:
    assert placed(with_rules("[{name: fixed, value: ROOT.Batch}]"), app()).queue_path == "root.batch"


def test_fixed_relative_with_user_parent() -> None:
    text = with_rules(
        "[{name: fixed, value: scratch, create: true, parent: {name: user, create: true, "
        "parent: {name: fixed, value: root.users}}}]"
    )
    result = placed(text, app(user="bob"))
    assert result.queue_path == "root.users.bob.scratch"
    assert result.created_queues == ("root.users.bob", "root.users.bob.scratch")


def test_fixed_qualified_with_parent_leaves_the_manager_without_rules() -> None:
    text = with_rules("[{name: fixed, value: root.batch, parent: {name: user}}]")
    result = placed(text, app())
    assert result.queue_path is None
    assert "cannot have a fixed queue rule with qualified queue name" in result.reason
    assert build_rules(partition(text))[0] == ()


def test_fixed_pointing_at_parent_tries_next_rule() -> None:
    result = placed(with_rules("[{name: fixed, value: root.tenants}, {name: fixed, value: batch}]"), app())
    assert result.queue_path == "root.batch"


# ------------------------------------------------------------------------------------------------------- tag rule


def test_tag_rule_namespace_creates_queue() -> None:
    rules = "[{name: tag, value: namespace, create: true, parent: {name: fixed, value: root.tenants}}]"
    result = placed(with_rules(rules), app(tags={"namespace": "Team-A"}))
    assert result.queue_path == "root.tenants.team-a"
    assert result.rule == "tag (namespace), parent fixed (root.tenants)"


def test_tag_names_match_case_insensitively() -> None:
    result = placed(with_rules("[{name: tag, value: NameSpace}]"), app(tags={"namespace": "batch"}))
    assert result.queue_path == "root.batch"


def test_tag_value_may_be_fully_qualified() -> None:
    result = placed(with_rules("[{name: tag, value: namespace}]"), app(tags={"namespace": "root.batch"}))
    assert result.queue_path == "root.batch"


def test_tag_with_parent_tag_namespace_parentqueue() -> None:
    rules = (
        "[{name: tag, value: namespace, create: true, parent: {name: tag, value: namespace.parentqueue}}, "
        "{name: tag, value: namespace, create: true}]"
    )
    text = with_rules(rules)
    with_parent = placed(text, app(tags={"namespace": "ml", "namespace.parentqueue": "root.tenants"}))
    assert with_parent.queue_path == "root.tenants.ml"
    without = placed(text, app(tags={"namespace": "ml"}))
    assert without.queue_path == "root.ml"
    assert "parent rule tag (namespace.parentqueue) did not match" in without.trace[0]


def test_missing_tag_is_no_match() -> None:
    result = placed(with_rules("[{name: tag, value: namespace, create: true}]"), app())
    assert result.queue_path is None
    assert "the application has no 'namespace' tag" in result.reason


# ---------------------------------------------------------------------------------------- parents, create, leaves


def test_parent_rule_returning_a_leaf_rejects() -> None:
    rules = "[{name: user, create: true, parent: {name: fixed, value: batch}}, {name: fixed, value: general}]"
    result = placed(with_rules(rules), app())
    assert result.queue_path is None
    assert result.reason == "rule user, parent fixed (batch) failed: parent rule returned a leaf queue: root.batch"


def test_cannot_create_below_a_leaf() -> None:
    result = placed(with_rules("[{name: provided, create: true}]"), app("root.batch.sub"))
    assert result.queue_path is None
    assert "root.batch.sub, which cannot be created: its parent root.batch is a leaf queue" in result.reason


def test_parent_rule_without_create_must_find_its_queue() -> None:
    rules = "[{name: user, create: true, parent: {name: tag, value: team}}]"
    result = placed(with_rules(rules), app(tags={"team": "nope"}))
    assert result.queue_path is None
    assert "root.nope does not exist and create is false" in result.reason


def test_parent_chain_creates_intermediate_dynamic_parents() -> None:
    rules = "[{name: user, create: true, parent: {name: tag, value: team, create: true}}]"
    part, tree = setup(with_rules(rules))
    result = place(part, tree, app(tags={"team": "red"}, user="eve"))
    assert result.created_queues == ("root.red", "root.red.eve")
    parent = tree.get("root.red")
    assert parent is not None and parent.dynamic and not parent.is_leaf


# ------------------------------------------------------------------------------------------------------- filters


def test_filter_allow_list() -> None:
    rules = "[{name: user, create: true, filter: {type: allow, users: [alice, bob]}}, {name: fixed, value: batch}]"
    text = with_rules(rules)
    assert placed(text, app(user="alice")).queue_path == "root.alice"
    other = placed(text, app(user="carol"))
    assert other.queue_path == "root.batch"
    assert other.trace == ("user: user 'carol' is filtered out",)


def test_filter_deny_list_and_groups() -> None:
    rules = "[{name: user, create: true, filter: {type: deny, groups: [contractors, interns]}}]"
    text = with_rules(rules)
    assert placed(text, app(user="dan", groups=("staff",))).queue_path == "root.dan"
    assert placed(text, app(user="dan", groups=("interns",))).queue_path is None


def test_filter_single_entry_is_a_regex() -> None:
    rules = "[{name: user, create: true, filter: {users: ['^svc-.*']}}, {name: fixed, value: batch}]"
    text = with_rules(rules)
    assert placed(text, app(user="svc-etl")).queue_path == "root.svc-etl"
    assert placed(text, app(user="alice")).queue_path == "root.batch"


def test_filter_regex_is_a_search_not_a_full_match() -> None:
    rules = "[{name: user, create: true, filter: {type: deny, users: ['test$']}}, {name: fixed, value: batch}]"
    text = with_rules(rules)
    assert placed(text, app(user="loadtest")).queue_path == "root.batch"
    assert placed(text, app(user="tester")).queue_path == "root.tester"


def test_empty_deny_filter_denies_everyone() -> None:
    rules = "[{name: user, create: true, filter: {type: deny}}, {name: fixed, value: batch}]"
    assert placed(with_rules(rules), app(user="alice")).queue_path == "root.batch"


def test_filter_type_is_compared_exactly_at_runtime() -> None:
    # the validator accepts DENY, but the rule only denies for the exact text "deny"
    rules = "[{name: user, create: true, filter: {type: DENY, users: [alice]}}]"
    assert placed(with_rules(rules), app(user="alice")).queue_path == "root.alice"


def test_filter_runs_on_the_parent_rule_too() -> None:
    rules = (
        "[{name: user, create: true, parent: {name: fixed, value: root.users, filter: {users: [alice]}}}, "
        "{name: fixed, value: batch}]"
    )
    result = placed(with_rules(rules), app(user="bob"))
    assert result.queue_path == "root.batch"
    assert "parent rule fixed (root.users) did not match: user 'bob' is filtered out" in result.trace[0]


# ------------------------------------------------------------------------------- filters: Go's regexp (RE2 syntax)
# Python's re and RE2 part ways on these; YuniKorn compiles filters with Go's regexp, yk with the real RE2.

RE2_REFUSES = [
    ("(?=svc)", "invalid perl operator: (?="),
    ("^(?!svc)", "invalid perl operator: (?!"),
    ("(?<=x)y", "invalid perl operator: (?<="),
    (r"^(a)\1$", r"invalid escape sequence: \1"),
    (r"^bob\Z", r"invalid escape sequence: \Z"),
    ("^a++$", "bad repetition operator: ++"),
    ("^a{2}+$", "bad repetition operator: {2}+"),
    ("(?P=n)", "invalid perl operator: (?P"),
    ("^a{1001}$", "invalid repetition size: {1001}"),
    (r"^\C$", r"invalid escape sequence: \C"),
]


@pytest.mark.parametrize(("pattern", "reason"), RE2_REFUSES)
def test_go_regexp_refuses_what_re2_refuses(pattern: str, reason: str) -> None:
    assert go_compile(pattern) is None
    assert go_compile_error(pattern) == reason


@pytest.mark.parametrize("pattern", [r"^\pL+$", r"^\p{Greek}+$", r"^bob\z", r"^\Qa.b\E$", "^[[:alpha:]]+$", "(?U)a+"])
def test_go_regexp_accepts_re2_syntax_python_re_refuses(pattern: str) -> None:
    assert go_compile(pattern) is not None
    assert go_compile_error(pattern) is None


@pytest.mark.parametrize(
    ("pattern", "name", "hit"),
    [
        (r"^\w+$", "zoë", False),  # \w is ASCII-only in RE2 (Unicode in Python's re)
        (r"^\pL+$", "zoë", True),
        (r"^\d+$", "١٢", False),  # \d is ASCII-only too
        (r"^\p{Greek}+$", "αβγ", True),
        ("^bob$", "bob\n", False),  # $ is the end of text, not "before a final newline"
        ("(?i)^ALICE$", "alice", True),
        ("a|ab", "xab", True),
        (r"^\Qa.b\E$", "a.b", True),
        (r"^\Qa.b\E$", "axb", False),
    ],
)
def test_go_regexp_matches_like_go(pattern: str, name: str, hit: bool) -> None:
    compiled = go_compile(pattern)
    assert compiled is not None
    assert (compiled.search(name) is not None) is hit


def test_filter_regex_with_ascii_word_class_filters_non_ascii_users() -> None:
    rules = r"[{name: user, create: true, filter: {users: ['^\w+$']}}, {name: fixed, value: batch}]"
    text = with_rules(rules)
    assert placed(text, app(user="alice")).queue_path == "root.alice"
    result = placed(text, app(user="zoë"))
    assert result.queue_path == "root.batch"
    assert result.trace[0] == "user: user 'zoë' is filtered out"


def test_filter_regex_go_refuses_matches_nobody_at_runtime() -> None:
    # newFilter: a regexp that does not compile leaves neither an expression nor a name, so nobody matches
    rules = "[{name: user, create: true, filter: {users: ['(?=svc)']}}, {name: fixed, value: batch}]"
    assert placed(with_rules(rules), app(user="svc-etl")).queue_path == "root.batch"


def test_validator_refuses_a_lookahead_filter_with_re2s_reason(tmp_path: Path) -> None:
    path = tmp_path / "queues.yaml"
    path.write_text(with_rules("[{name: user, create: true, filter: {users: ['(?=svc)']}}]"))
    problems = [p for p in load_config(str(path)).problems if p.level == Level.ERROR]
    assert [(p.rule, p.message, p.hint, p.span.line if p.span else 0) for p in problems] == [
        (
            "invalid-filter-list",
            "invalid rule filter user list is not a proper list or regexp: [(?=svc)]",
            "'(?=svc)' is not a valid user name, and Go's regexp (RE2 syntax) refuses it: invalid perl operator: (?=.",
            4,
        )
    ]


def test_validator_accepts_a_unicode_class_filter(tmp_path: Path) -> None:
    path = tmp_path / "queues.yaml"
    path.write_text(with_rules(r"[{name: user, create: true, filter: {groups: ['^\p{Lu}']}}]"))
    assert [p.rule for p in load_config(str(path)).problems if p.level == Level.ERROR] == []


# ---------------------------------------------------------------------------------------------------------- ACLs

ACL_TREE = """
partitions:
  - name: default
    placementrules:
      - name: provided
        create: true
      - name: fixed
        value: open
    queues:
      - name: root
        submitacl: "admin"
        queues:
          - name: open
            submitacl: "*"
          - name: team
            submitacl: "alice,bob devs"
            queues:
              - name: leaf
          - name: closed
            submitacl: ""
          - name: admins
            adminacl: "ops"
"""


@pytest.mark.parametrize(
    ("queue", "user", "groups", "expected"),
    [
        ("root.team.leaf", "alice", (), "root.team.leaf"),
        ("root.team.leaf", "carol", ("devs",), "root.team.leaf"),
        ("root.team.leaf", "carol", (), "root.open"),
        ("root.closed", "carol", (), "root.open"),
        ("root.closed", "admin", (), "root.closed"),
        ("root.admins", "ops", (), "root.admins"),
        ("root.team.new", "bob", (), "root.team.new"),
        ("root.team.new", "mallory", (), "root.open"),
    ],
)
def test_submit_acl(queue: str, user: str, groups: tuple[str, ...], expected: str) -> None:
    assert placed(ACL_TREE, app(queue, user=user, groups=groups)).queue_path == expected


def test_acl_rejection_reason() -> None:
    text = ACL_TREE.replace("      - name: fixed\n        value: open\n", "")
    result = placed(text, app("root.closed", user="carol", groups=("devs",)))
    assert result.queue_path is None
    assert result.reason == (
        "no placement rule matched: provided: user 'carol' (groups devs) may not submit to root.closed "
        "(no submitacl/adminacl up to root)"
    )


def test_acl_parsing() -> None:
    assert parse_acl("*").everyone
    assert parse_acl(" *").everyone
    assert parse_acl("alice *").allows("anyone", ())
    assert not parse_acl("").allows("alice", ())
    acl = parse_acl("alice,bob devs,ops")
    assert acl.allows("bob", ()) and acl.allows("x", ("ops",)) and not acl.allows("x", ("dev",))
    assert not parse_acl("alice  devs").allows("alice", ())  # two spaces: YuniKorn refuses the queue
    assert not parse_acl("1bad").allows("1bad", ())  # invalid user names are ignored
    assert not parse_acl("system:serviceaccount:ci:bot").allows("system:serviceaccount:ci:bot", ())
    assert not parse_acl(" data.eng").allows("x", ("data.eng",))  # no dots in ACL group names


def test_inserted_root_has_no_acl() -> None:
    text = """
    partitions:
      - name: default
        queues:
          - name: a
          - name: b
            submitacl: "*"
    """
    assert placed(text, app("root.a")).queue_path is None
    assert placed(text, app("root.b")).queue_path == "root.b"


# ------------------------------------------------------------------------------------------------ dynamic queues


def test_dynamic_leaf_takes_only_the_child_template() -> None:
    part, tree = setup(
        with_rules("[{name: tag, value: namespace, create: true, parent: {name: fixed, value: tenants}}]")
    )
    result = place(part, tree, app(tags={"namespace": "ns1"}))
    queue = tree.get(result.queue_path or "")
    assert queue is not None and queue.dynamic and queue.is_leaf
    assert queue.maxapplications == 4
    assert queue.guaranteed == {"vcore": 1000, "memory": 2**30}
    assert queue.max == {"vcore": 4000, "memory": 4 * 2**30}
    assert queue.sort_policy == "fair"
    assert queue.priority_offset == 5
    assert queue.setting(props.SORT_POLICY).source == props.Source.TEMPLATE


def test_dynamic_parent_copies_the_template_pointer() -> None:
    rules = (
        "[{name: user, create: true, parent: {name: tag, value: team, create: true, "
        "parent: {name: fixed, value: tenants}}}]"
    )
    part, tree = setup(with_rules(rules))
    result = place(part, tree, app(tags={"team": "red"}, user="eve"))
    assert result.queue_path == "root.tenants.red.eve"
    middle, leaf = tree.get("root.tenants.red"), tree.get("root.tenants.red.eve")
    assert middle is not None and leaf is not None
    assert middle.max is None and middle.maxapplications == 0 and not middle.properties.entries
    assert leaf.max == {"vcore": 4000, "memory": 4 * 2**30} and leaf.maxapplications == 4


def test_dynamic_leaf_ignores_parent_properties() -> None:
    text = """
    partitions:
      - name: default
        placementrules: [{name: provided, create: true}]
        queues:
          - name: root
            submitacl: "*"
            properties:
              preemption.policy: disabled
              application.sort.policy: fair
    """
    part, tree = setup(text)
    place(part, tree, app("adhoc"))
    queue = tree.get("root.adhoc")
    assert queue is not None
    assert queue.preemption_policy == "default" and queue.sort_policy == "fifo"


def test_second_application_reuses_the_dynamic_queue() -> None:
    part, tree = setup(with_rules("[{name: provided, create: true}]"))
    first = place(part, tree, app("root.x", app_id="a"))
    second = place(part, tree, app("root.x", app_id="b"))
    assert first.created and not second.created
    assert second.queue_path == "root.x"


def test_namespace_tags_set_limits_of_dynamic_leaves_only() -> None:
    quota = '{"resources":{"memory":{"value":1073741824},"vcore":{"value":2000}}}'
    tags = {"namespace": "ns", TAG_QUOTA: quota, TAG_MAX_APPS: "7"}
    part, tree = setup(
        with_rules("[{name: tag, value: namespace, create: true, parent: {name: fixed, value: tenants}}]")
    )
    place(part, tree, app(tags=tags))
    queue = tree.get("root.tenants.ns")
    assert queue is not None
    assert queue.max == {"memory": 2**30, "vcore": 2000}
    assert queue.guaranteed is None  # replaced together with max, like YuniKorn's setResources
    assert queue.maxapplications == 7
    guaranteed = {"namespace": "batch", TAG_GUARANTEED: quota}
    part, tree = setup(with_rules("[{name: tag, value: namespace}]"))
    place(part, tree, app(tags=guaranteed))
    static = tree.get("root.batch")
    assert static is not None and static.guaranteed is None


# --------------------------------------------------------------------------------- defaults, fallbacks, recovery


def test_default_config_places_by_namespace() -> None:
    part = default_partition()
    tree = build_queue_tree(part)
    result = place(part, tree, app(tags={"namespace": "payments"}))
    assert result.queue_path == "root.payments" and result.created
    assert place(part, tree, app()).queue_path is None


def test_default_yaml_matches_default_partition() -> None:
    parsed = decode_config(parse_yaml(DEFAULT_QUEUES_YAML).documents[0])[0].partitions[0]
    built = default_partition()
    assert [(r.name, r.value, r.create) for r in parsed.placementrules] == [
        (r.name, r.value, r.create) for r in built.placementrules
    ]
    assert parsed.root.submitacl == built.root.submitacl == "*"


def test_empty_rule_list_is_implicit_provided_without_create() -> None:
    text = TREE.replace("    placementrules: PLACEHOLDER\n", "").replace("name: general", "name: default")
    assert placed(text, app("root.batch")).queue_path == "root.batch"
    assert placed(text, app("root.new")).queue_path == "root.default"  # falls back to root.default
    assert build_rules(partition(text)) == (("provided", "recovery"), "")


def test_root_default_fallback_only_when_it_exists() -> None:
    text = TREE.replace("    placementrules: PLACEHOLDER\n", "")
    result = placed(text, app("root.new"))
    assert result.queue_path is None
    assert result.reason == "no placement rule matched: provided: root.new does not exist and create is false"


def test_unknown_rule_name_rejects_everything() -> None:
    result = placed(with_rules("[{name: namespace}]"), app("root.batch"))
    assert result.queue_path is None
    assert "unknown rule name specified namespace" in result.reason


def test_recovery_rule_only_for_running_applications() -> None:
    text = TREE.replace("PLACEHOLDER", "[{name: provided}]")
    part, tree = setup(text)
    pending = place(part, tree, app("root.gone", app_id="pending"))
    assert pending.queue_path is None
    running = place(part, tree, app("root.gone", app_id="running", running=True))
    assert (running.queue_path, running.rule, running.created) == (RECOVERY_QUEUE, "recovery", True)
    recovery = tree.get(RECOVERY_QUEUE)
    assert recovery is not None and recovery.preemption_policy == "disabled" and recovery.sort_policy == "fifo"
    tagged = place(part, tree, app("root.gone", app_id="tagged", tags={TAG_CREATE_FORCE: "false"}, running=True))
    assert tagged.queue_path is None
    forced = place(part, tree, app("root.batch", app_id="ok", tags={TAG_CREATE_FORCE: "true"}))
    assert forced.queue_path == "root.batch"  # the normal rules still come first


def test_recovery_queue_bypasses_acls() -> None:
    part, tree = setup(ACL_TREE.replace("      - name: fixed\n        value: open\n", ""))
    result = place(part, tree, app("root.closed", user="carol", running=True))
    assert result.queue_path == RECOVERY_QUEUE


# ------------------------------------------------------------------------------------------------------ batches


def test_place_all_orders_by_submit_time_and_summarizes() -> None:
    part, tree = setup(with_rules("[{name: provided, create: true}]"))
    late = Application(id="late", queue="root.x", submit_time=5, seq=0, user="u")
    early = Application(id="early", queue="root.x", submit_time=1, seq=1, user="u")
    bad = Application(id="bad", queue="root.batch.x", submit_time=3, seq=2, user="u")
    result = place_all(part, tree, [late, early, bad])
    assert list(result) == ["early", "bad", "late"]
    assert result["early"].created and not result["late"].created
    summary = summarize(result)
    assert (summary.placed, summary.rejected, summary.created_queues) == (2, 1, ("root.x",))


def test_placement_is_deterministic() -> None:
    def run() -> list[Placement]:
        part, tree = setup(with_rules("[{name: tag, value: namespace, create: true}, {name: user, create: true}]"))
        apps = [app(tags={"namespace": f"ns{i % 3}"} if i % 2 else {}, user=f"u{i}", app_id=str(i)) for i in range(12)]
        return [place(part, tree, a) for a in apps]

    assert run() == run()


# ------------------------------------------------------------------------------------------ the production sample


def production() -> tuple[PartitionConfig, QueueTree]:
    from tests.conftest import SAMPLES
    from yk_cli.load.config import load_config

    result = load_config(str(SAMPLES / "queues" / "production.yaml"))
    assert result.problems == []
    part = result.configs[0].config.partitions[0]
    return part, build_queue_tree(part)


@pytest.mark.parametrize(
    ("application", "queue", "rule"),
    [
        (app("root.batch.etl", user="etl-runner"), "root.batch.etl", "provided"),
        (app("root.batch.gpu", user="x", groups=("ml-researchers",)), "root.batch.gpu", "provided"),
        (
            app(user="x", tags={"namespace": "ml", "namespace.parentqueue": "root.tenants"}),
            "root.tenants.ml",
            "tag (namespace), parent tag (namespace.parentqueue)",
        ),
        (app(user="system:serviceaccount:ci-runner:default"), "root.batch.ci", "fixed (root.batch.ci)"),
        (app(user="alice", tags={"namespace": "web"}), "root.users.alice", "user, parent fixed (root.users)"),
        (
            app(user="system:serviceaccount:web:default", tags={"namespace": "web"}),
            "root.tenants.web",
            "tag (namespace), parent fixed (root.tenants)",
        ),
        (app("root.platform", user="mallory"), "root.users.mallory", "user, parent fixed (root.users)"),
    ],
)
def test_production_sample_places_as_its_header_says(application: Application, queue: str, rule: str) -> None:
    part, tree = production()
    result = place(part, tree, application)
    assert (result.queue_path, result.rule) == (queue, rule)


def test_production_sample_dynamic_queues_use_the_templates() -> None:
    part, tree = production()
    place(part, tree, app(user="system:serviceaccount:web:default", tags={"namespace": "web"}))
    place(part, tree, app(user="alice"))
    web, alice = tree.get("root.tenants.web"), tree.get("root.users.alice")
    assert web is not None and alice is not None
    assert (web.maxapplications, web.sort_policy, web.preemption_delay) == (20, "fair", 60 * 10**9)
    assert web.priority_fence is False  # the parent's fence is not inherited by dynamic queues
    assert (alice.maxapplications, alice.max) == (3, {"vcore": 4000, "memory": 16 * 2**30})


def test_production_configmap_holds_the_same_config() -> None:
    from tests.conftest import SAMPLES
    from yk_cli.load.configmap import configmap_entries

    plain = (SAMPLES / "queues" / "production.yaml").read_text()
    wrapped = parse_yaml((SAMPLES / "queues" / "production-configmap.yaml").read_text()).documents[0]
    entries, problems = configmap_entries(wrapped)
    assert problems == []
    assert entries["queues.yaml"] == plain[plain.index("partitions:") :]
