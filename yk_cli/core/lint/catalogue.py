"""Rule metadata: every rule id yk can report, its level and its documentation (the source of `yk rules`)."""

from __future__ import annotations

from yk_cli.core.diagnostics import Rule
from yk_cli.core.lint.checks import CHECK_RULES
from yk_cli.core.lint.loader_rules import LOADER_RULES
from yk_cli.core.volcano.rules import SHARED_RULE_IDS, volcano_rules
from yk_cli.core.workload.checks import WORKLOAD_RULES
from yk_cli.core.workload.cluster_rules import CLUSTER_RULES
from yk_cli.core.workload.imports_rules import IMPORT_RULES
from yk_cli.core.workload.predicate_lint import PREDICATE_LINT_RULES


def all_rules() -> dict[str, Rule]:
    """Every rule yk knows, by id, in documentation order."""

    rules: dict[str, Rule] = {}
    for rule in (*LOADER_RULES, *CHECK_RULES, *CLUSTER_RULES, *WORKLOAD_RULES, *PREDICATE_LINT_RULES, *IMPORT_RULES):
        if rule.id in rules:
            raise ValueError(f"rule {rule.id} declared twice")
        rules[rule.id] = rule
    return rules


RULE_GROUPS = (
    ("yunikorn", "YuniKorn queue configs: yk validate"),
    ("volcano", "Volcano scheduler conf and objects: yk volcano validate"),
)
"""The groups `yk rules` lists, in order: (id, title)."""


def volcano_catalogue() -> dict[str, Rule]:
    """Every rule `yk volcano validate` can report, by id: the shared loader rules, then the Volcano rules."""

    shared = all_rules()
    return {**{i: shared[i] for i in SHARED_RULE_IDS}, **volcano_rules()}


def grouped_rules() -> dict[str, dict[str, Rule]]:
    """Each group's own rules by id (a rule shared by both groups is listed under yunikorn only)."""

    yunikorn = all_rules()
    volcano = volcano_rules()
    clash = sorted(set(yunikorn) & set(volcano))
    if clash:
        raise ValueError(f"rules declared in both groups: {clash}")
    return {"yunikorn": yunikorn, "volcano": volcano}
