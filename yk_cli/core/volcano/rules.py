"""Rules for problems in Volcano inputs: the scheduler configuration and the objects of a cluster dump."""

from __future__ import annotations

from yk_cli.core.rules import Rule, error

CONF_TYPE = error(
    "volcano-conf-type",
    "A volcano-scheduler.conf value of the wrong type (or the conf is not a YAML mapping).",
    "Volcano reads its configuration with gopkg.in/yaml.v2 into SchedulerConfiguration: `actions` is one "
    "comma-separated string, `tiers` a list of `{plugins: [...]}`, each plugin a mapping with a string `name`, "
    "boolean enable flags and an `arguments` map, `configurations` a list of `{name, arguments}`. A value of another "
    "type makes yaml.v2 fail, the whole conf is refused and the scheduler keeps its previous configuration (at "
    "start-up, the built-in default).",
)
UNKNOWN_ACTION = error(
    "volcano-unknown-action",
    "An action name Volcano does not have.",
    "The `actions` string is split at commas and every name, trimmed, must be a registered action (enqueue, "
    "allocate, preempt, reclaim, backfill, shuffle, and a few others). An unknown name makes the loader fail with "
    "`failed to find Action <name>`; the scheduler then keeps its previous configuration (at start-up, the built-in "
    "default). An empty `actions` fails the same way.",
)
HIERARCHY_CONFLICT = error(
    "volcano-hierarchy-conflict",
    "drf with enableHierarchy and proportion in the same tier.",
    "Volcano's loader refuses a tier that holds both `proportion` and `drf` with `enableHierarchy: true`: "
    "`proportion and drf with hierarchy enabled conflicts`. The scheduler then keeps its previous configuration (at "
    "start-up, the built-in default). In different tiers the two load.",
)

CONF_RULES: tuple[Rule, ...] = (CONF_TYPE, UNKNOWN_ACTION, HIERARCHY_CONFLICT)
