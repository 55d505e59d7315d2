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

NOT_KUBERNETES = error(
    "volcano-not-kubernetes",
    "A document of the dump that is not a Kubernetes object.",
    "`yk volcano` reads `kubectl get queues,podgroups,pods,priorityclasses,nodes -A -o yaml` output: a `kind: List`, "
    "several `---` documents or single objects, each a mapping with `kind` and `metadata`. Anything else cannot be "
    "part of a cluster snapshot.",
)
INVALID_FIELD = error(
    "volcano-invalid-field",
    "A Volcano or Kubernetes object lacks a required field or has one of the wrong type.",
    "Every object needs `metadata.name` (and pods and PodGroups a namespace, `default` when absent); a Queue's "
    "`spec.weight` and `spec.priority` are integers, a PodGroup's `spec.minMember` too, a PriorityClass needs an "
    "integer `value`; labels, annotations and resource lists are mappings. The API server would refuse such an "
    "object, so it cannot be in a real cluster: yk leaves it out of the session and says so.",
)
BAD_QUANTITY = error(
    "volcano-bad-quantity",
    "A resource quantity Kubernetes would not accept.",
    "Kubernetes quantities are a number with an optional suffix: `500m`, `2`, `1.5Gi`, `1e3`. An object with an "
    "unparsable quantity (a pod request, a node's allocatable, a queue's capability, deserved or guarantee, a "
    "PodGroup's minResources) is left out of the session.",
)
DUPLICATE_OBJECT = error(
    "volcano-duplicate-object",
    "The same object appears twice in the input.",
    "Objects are identified by kind, namespace and name, as in the API server, which cannot hold two. The first "
    "occurrence is used; later ones are left out. Check that the same dump was not given twice.",
)
BAD_TIMESTAMP = error(
    "volcano-bad-timestamp",
    "A creationTimestamp that is not an RFC 3339 time.",
    "Volcano orders queues and jobs of equal rank by `metadata.creationTimestamp` (older first). An unreadable "
    "timestamp cannot come from the API server; yk treats the object as having none (it then ties with every "
    "other object without one and its name decides).",
)
MULTIPLE_CONFS = error(
    "volcano-multiple-confs",
    "More than one volcano-scheduler.conf in the input.",
    "The scheduler reads one configuration. The dump holds several `volcano-scheduler-configmap` ConfigMaps (or "
    "`--conf` names a file that holds several): pass the one the scheduler mounts with `--conf`.",
)

OBJECT_RULES: tuple[Rule, ...] = (
    NOT_KUBERNETES,
    INVALID_FIELD,
    BAD_QUANTITY,
    DUPLICATE_OBJECT,
    BAD_TIMESTAMP,
    MULTIPLE_CONFS,
)
