"""Rules for problems in a Kubernetes dump (`kubectl get nodes,pods,priorityclasses -A -o yaml`) read as a workload."""

from __future__ import annotations

from yk_cli.core.diagnostics import Rule, error, warning

NOT_KUBERNETES = error(
    "cluster-not-kubernetes",
    "The cluster dump holds no Kubernetes objects.",
    "`--cluster` reads the output of `kubectl get nodes,pods,priorityclasses -A -o yaml` (a `kind: List`, several "
    "`---` documents or single objects, each with `kind` and `metadata`). A document that is not a mapping with a "
    "`kind`, or a file with no object at all, cannot be a cluster snapshot.",
)
INVALID_FIELD = error(
    "cluster-invalid-field",
    "A Kubernetes object lacks a required field or has one of the wrong type.",
    "Every object needs `metadata.name`; a PriorityClass needs an integer `value`; labels, annotations, requests "
    "and allocatable must be mappings, containers a list. The object (or the field) is left out of the workload, "
    "so the dry run may differ from the cluster.",
)
BAD_QUANTITY = error(
    "cluster-bad-quantity",
    "A resource quantity Kubernetes would not accept.",
    "Kubernetes quantities are a number with an optional suffix: `500m`, `2`, `1.5Gi`, `1e3`, `128974848`. A pod "
    "with an unparsable request is left out of the workload; a node with an unparsable allocatable amount is left "
    "out with it.",
)
BAD_TIMESTAMP = warning(
    "cluster-bad-timestamp",
    "A creationTimestamp that is not an RFC 3339 time.",
    "Submit times come from `metadata.creationTimestamp` (whole seconds, relative to the newest object in the "
    "dump). An object without a readable timestamp is treated as created at that newest time.",
)
UNKNOWN_NODE = warning(
    "cluster-unknown-node",
    "A pod is bound to a node that is not in the dump.",
    "A pod with `spec.nodeName` runs on that node; when the node is missing from the dump (`kubectl get nodes,pods`"
    " was not run with both kinds, or the node is gone) the pod cannot be accounted for and is left out.",
)
UNKNOWN_PRIORITY_CLASS = warning(
    "cluster-unknown-priority-class",
    "A pod names a PriorityClass that is not in the dump and carries no spec.priority.",
    "The pod's priority comes from `spec.priority` (filled in by Kubernetes from the class). Without it yk looks "
    "the class up in the dump; include `priorityclasses` in the `kubectl get` so it can. The pod gets priority 0.",
)
DUPLICATE_OBJECT = warning(
    "cluster-duplicate-object",
    "The same object appears twice in the dump.",
    "Objects are identified by kind, namespace and name; the first occurrence is used and later ones are ignored.",
)
NO_NODES = warning(
    "cluster-no-nodes",
    "The dump has pods but no nodes.",
    "Without nodes nothing can be scheduled in the dry run. Dump them together: "
    "`kubectl get nodes,pods,priorityclasses -A -o yaml`.",
)
USER_INFO = warning(
    "cluster-user-info",
    "A yunikorn.apache.org/user.info annotation that is not valid JSON.",
    'The annotation must be JSON like `{"user": "alice", "groups": ["devs"]}`. Like YuniKorn\'s shim, yk then uses '
    "the user `nobody` with no groups, which changes placement and ACL decisions.",
)
APP_MISMATCH = warning(
    "cluster-app-mismatch",
    "Pods of one application ask for different queues.",
    "YuniKorn takes an application's queue, user and tags from its first pod; the other pods' values are ignored. "
    "yk treats the oldest pod as the first one.",
)
MULTIPLE_CONFIGS = warning(
    "cluster-multiple-configs",
    "The dump holds the same YuniKorn ConfigMap more than once.",
    "YuniKorn reads one `yunikorn-configs` (and one `yunikorn-defaults`) ConfigMap from its namespace; yk uses the "
    "first of each and ignores the rest.",
)
TASK_GROUPS = warning(
    "cluster-task-groups",
    "A gang annotation (yunikorn.apache.org/task-groups) the shim cannot read.",
    "The annotation must be a JSON list of task groups, each with a `name`, a `minMember` of at least 1 and a "
    '`minResource` map of Kubernetes quantities: `[{"name": "executors", "minMember": 4, "minResource": {"cpu": '
    '"1", "memory": "2Gi"}}]`. Like YuniKorn\'s shim, yk then schedules the application without gang scheduling. '
    "The same happens when a task group's `nodeSelector`, `tolerations`, `affinity`, `topologySpreadConstraints` "
    "or `labels` hold a value of the wrong type (the shim cannot read the annotation) or one the Kubernetes API "
    "server refuses (the shim cannot create the group's placeholder pods and falls back to normal scheduling).",
)
BAD_POD_SPEC = error(
    "cluster-bad-pod-spec",
    "A label, taint, toleration, selector, affinity, spread constraint or host port the Kubernetes API server refuses.",
    "Pods, nodes and namespaces in a dump are checked as the API server validates them on creation: label keys "
    "and values, taint effects (NoSchedule, PreferNoSchedule, NoExecute), toleration operators (Equal, Exists; an "
    "empty key needs Exists, Exists takes no value, tolerationSeconds needs NoExecute), node selector operators "
    "and their values (In/NotIn need values, Exists/DoesNotExist none, Gt/Lt one integer), matchFields on "
    "metadata.name only, pod affinity terms with a topologyKey, spread constraints with a maxSkew of at least 1 "
    "and a known whenUnsatisfiable, host ports from 1 to 65535. A live cluster cannot hold such an object: the "
    "dump was edited or made by hand. yk keeps what it can read (a selector term that does not parse matches no "
    "node, as kube-scheduler treats it), which may not be what its author meant.",
)

CLUSTER_RULES: tuple[Rule, ...] = (
    NOT_KUBERNETES,
    INVALID_FIELD,
    BAD_QUANTITY,
    BAD_TIMESTAMP,
    UNKNOWN_NODE,
    UNKNOWN_PRIORITY_CLASS,
    DUPLICATE_OBJECT,
    NO_NODES,
    USER_INFO,
    APP_MISMATCH,
    MULTIPLE_CONFIGS,
    TASK_GROUPS,
    BAD_POD_SPEC,
)
