"""Rules for problems in Volcano inputs: the scheduler configuration and the objects of a cluster dump."""

from __future__ import annotations

from yk_cli.core.diagnostics import Rule, error, warning
from yk_cli.core.lint.loader_rules import UNKNOWN_RULE, YAML_SYNTAX

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
    "occurrence is used (the message says where it is); later ones are left out. Each file is a cluster of its own "
    "unless `--one-cluster` reads the inputs as one (as `yk volcano simulate` reads its dumps): then check that the "
    "same dump was not given twice.",
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

UNKNOWN_KEY = warning(
    "volcano-unknown-key",
    "A key of volcano-scheduler.conf that Volcano does not have: it is silently ignored.",
    "Volcano decodes its configuration with gopkg.in/yaml.v2, which is not strict: a key that is no field of the "
    "struct at that place is dropped without a word. At the top level the keys are actions, tiers, configurations "
    "and metrics; a tier has only plugins; a configuration only name and arguments; a plugin entry has name, "
    "arguments and its enable flags. The flag names mix two spellings: enableJobOrder, enableHierarchy, "
    "enableJobReady, enableJobPipelined, enableTaskOrder, enablePreemptable, enableReclaimable, enablePreemptive, "
    "enableQueueOrder, enablePredicate, enableBestNode, enableNodeOrder, enableTargetJob, enableReservedNodes, "
    "enableJobEnqueued and enableJobStarving start with `enable`; enabledClusterOrder, enabledVictim, "
    "enabledOverused, enabledAllocatable, enabledHyperNodeOrder, enabledSubJobReady, enabledSubJobPipelined, "
    "enabledSubJobOrder and enabledHyperNodeGradient with `enabled`. A misspelt flag such as enabledQueueOrder is "
    "ignored, so the real flag keeps its default: true for every flag but enableHierarchy and enabledClusterOrder, "
    "which stay off. A warning, not an error: Volcano loads the configuration, it just does not do what the key "
    "says. yk names the closest real key.",
)
PROPOSAL_KEY = warning(
    "volcano-proposal-key",
    "A key of the 2023 queue-priority design (QueueScoreOrder...), which no Volcano release reads.",
    "The design document Volcano Priority For Queue (February 2023; issue #2660, PRs #2656 and #2673, all closed "
    "unmerged) proposed a weighted queue score switched on with the action arguments `QueueScoreOrderEnable` and "
    "`QueueScoreOrder.<plugin>.weight`. Nothing of it was merged: Volcano v1.10 shipped an integer Queue "
    "`spec.priority` instead, compared first by the proportion and capacity queue order. An action's arguments "
    "map accepts any key, so the proposal's keys load and have no effect anywhere (action configurations, plugin "
    "arguments or plugin entries).",
)
UNKNOWN_PLUGIN = warning(
    "volcano-unknown-plugin",
    "A plugin name the Volcano scheduler does not register.",
    "Plugin names are not checked when the configuration loads. When a session opens, a name without a registered "
    "builder only logs `Failed to get plugin` and the session runs without it, so everything that plugin would "
    "order, filter or admit silently does not happen. The names registered at volcano-sh/volcano HEAD: binpack, "
    "capacity, cdp, conformance, deviceshare, drf, extender, gang, network-topology-aware, nodegroup, nodeorder, "
    "numa-aware, overcommit, pdb, predicates, priority, proportion, rescheduling, resource-strategy-fit, "
    "resourcequota, sla, task-topology, tdm and usage. A custom plugin loaded from the scheduler's plugins "
    "directory has its own name: silence the warning on that line with `# yk: disable=volcano-unknown-plugin`.",
)
DUPLICATE_PLUGIN = warning(
    "volcano-duplicate-plugin",
    "The same plugin is listed more than once in the tiers.",
    "The session builds one plugin instance per name (the arguments of the last entry with that name win) and "
    "consults its functions at every place the name is listed, each time with that entry's enable flags. Listing "
    "a plugin twice therefore does not give it two configurations; it mostly makes the tier order hard to read. "
    "Keep one entry.",
)
EMPTY_TIER = warning(
    "volcano-empty-tier",
    "A tier without plugins.",
    "A tier whose `plugins` list is missing, null or empty contributes nothing: no order, no filter, no vote. It "
    "is usually a leftover of an edit or a mis-indented plugin list (the plugins then belong to no tier or to the "
    "previous key).",
)
HIERARCHY_IGNORED = warning(
    "volcano-hierarchy-ignored",
    "enableHierarchy on a plugin that does not read it.",
    "Only drf (hierarchical DRF over the volcano.sh/hierarchy annotations) and capacity (queues nested with "
    "spec.parent) read enableHierarchy. On any other plugin the flag has no effect.",
)
UNKNOWN_ARGUMENT = warning(
    "volcano-unknown-argument",
    "An action argument the action does not read.",
    "Each action reads a fixed set of keys from its `configurations` entry: allocate predicateErrorCacheEnable "
    "and gateRemovalWorkerNum; backfill and reclaim predicateErrorCacheEnable; preempt predicateErrorCacheEnable, "
    "enableTopologyAwarePreemption, topologyAwarePreemptWorkerNum, minCandidateNodesPercentage, "
    "minCandidateNodesAbsolute and maxCandidateNodesAbsolute; gangpreempt and gangreclaim maxDomains and "
    "allowWholeBundle. Any other key is accepted and ignored. enqueue and shuffle are not checked.",
)
UNUSED_CONFIGURATION = warning(
    "volcano-unused-configuration",
    "A `configurations` entry whose arguments no action reads.",
    "An action reads the arguments of the first `configurations` entry with its name, and only when it runs. An "
    "entry naming no Volcano action, an action missing from `actions`, or a second entry for the same action is "
    "never read.",
)
DUPLICATE_ACTION = warning(
    "volcano-duplicate-action",
    "An action listed twice in `actions`.",
    "The actions run in the order written, every scheduling session; an action listed twice runs twice per "
    "session. That is rarely intended and doubles its cost.",
)

CONF_LINT_RULES: tuple[Rule, ...] = (
    UNKNOWN_KEY,
    PROPOSAL_KEY,
    UNKNOWN_PLUGIN,
    DUPLICATE_PLUGIN,
    EMPTY_TIER,
    HIERARCHY_IGNORED,
    UNKNOWN_ARGUMENT,
    UNUSED_CONFIGURATION,
    DUPLICATE_ACTION,
)

DEQUEUE_STRATEGY = warning(
    "volcano-dequeue-strategy",
    "Queue spec.dequeueStrategy, which the scheduler never reads.",
    "The Queue API defines spec.dequeueStrategy (fifo or traverse), but no code of the scheduler reads it at "
    "volcano-sh/volcano HEAD (the PR that would have used it, #4580, is open). Every queue behaves as traverse: a "
    "job that does not fit is passed over and the next one tried.",
)
QUEUE_PRIORITY_CLASS = warning(
    "volcano-queue-priority-class",
    "Queue spec.priorityClassName: the 2023 design proposal's field, which no Volcano release has.",
    "The 2023 queue-priority design (volcano-sh/volcano #2660, API PR volcano-sh/apis#99, both closed unmerged) "
    "gave the Queue a Kubernetes PriorityClass through spec.priorityClassName and let jobs without a class inherit "
    "it. Volcano v1.10 shipped an integer spec.priority instead. spec.priorityClassName is not in the Queue API: the "
    "API server drops it as an unknown field, the scheduler never reads it, and jobs inherit nothing from their "
    "queue. Set spec.priority (an integer, higher first) for the queue and a priorityClassName on each PodGroup or "
    "Volcano Job. `yk volcano simulate --proposal` and `yk volcano explain --proposal` read the field to show what "
    "the design would have done.",
)
UNKNOWN_PRIORITY_CLASS = warning(
    "volcano-unknown-priority-class",
    "A PodGroup (or Volcano Job) priorityClassName that names no PriorityClass of the input.",
    "At every session Volcano gives each job the value of the globalDefault PriorityClass (0 when there is none) "
    "and replaces it with the value of the PodGroup's priorityClassName when that class exists. An unknown name "
    "falls back silently, so the job is ordered as if no class were written; yk says which value it gets. The "
    "queue's priority plays no part (a job never inherits it). If the class exists in the cluster, add `kubectl "
    "get priorityclasses` to the dump.",
)
GLOBAL_DEFAULT = warning(
    "volcano-global-default",
    "More than one PriorityClass is marked globalDefault.",
    "Kubernetes' Priority admission normally refuses a second globalDefault class. If several exist anyway, "
    "Volcano's cache keeps the last one its informer delivers as the default of every job without a known class "
    "(yk takes the last one of the input, in input order). Keep one.",
)
QUEUE_WEIGHT = error(
    "volcano-queue-weight",
    "A Queue spec.weight below 1.",
    "The Queue CRD declares spec.weight with a minimum of 1 (default 1, maximum 65535), so the API server refuses "
    "a weight of 0 or less. Proportion shares the cluster among queues in proportion to their weights; a queue "
    "with weight 0 would deserve nothing.",
)
QUEUE_PRIORITY = error(
    "volcano-queue-priority",
    "A negative Queue spec.priority.",
    "spec.priority is an int32 with a CRD minimum of 0: the API server refuses a negative value. Proportion and "
    "capacity compare it first in their queue order, higher first.",
)
QUEUE_RESOURCES = error(
    "volcano-queue-resources",
    "A Queue whose deserved is above its capability, or whose guarantee is above its deserved or capability.",
    "Volcano's queue admission webhook refuses a Queue unless guarantee <= deserved <= capability (`deserved "
    "should less equal than capability`, `guarantee should less equal than capability`, `guarantee should less "
    "equal than deserved`). yk compares resource by resource, where both lists name the resource. In the "
    "scheduler, capacity caps deserved at the capability anyway.",
)
QUEUE_NOT_OPEN = warning(
    "volcano-queue-not-open",
    "A Queue whose status.state is not Open.",
    "Proportion and capacity refuse to enqueue or allocate jobs of a queue that is Closed, Closing or Unknown. "
    "Closing a queue is a deliberate act, hence a warning: the jobs in it wait until it opens again.",
)
UNKNOWN_QUEUE = warning(
    "volcano-unknown-queue",
    "A PodGroup (or Volcano Job) whose queue is not in the input.",
    "Volcano's snapshot leaves out a job whose queue it does not know, so its pods never run; yk volcano simulate "
    "and explain run the session without it and say so. The PodGroup webhook refuses such a PodGroup at creation, "
    "but a queue can be missing from a dump or from manifests applied in the wrong order. A PodGroup without "
    "spec.queue is in `default`, which is never unknown: Volcano creates it at start-up and its webhook refuses to "
    "delete it. yk checks this only when the input holds at least one Queue.",
)
MISSING_PARENT = error(
    "volcano-missing-parent",
    "A Queue whose spec.parent names a queue that is not in the input.",
    "Volcano's queue webhook refuses a Queue whose parent does not exist (`failed to get parent queue`), and it "
    "refuses to delete a queue that has children, so a missing parent cannot be part of a working cluster. `root` "
    "always exists and is the parent of every queue without spec.parent.",
)
PARENT_CYCLE = warning(
    "volcano-parent-cycle",
    "Queues whose spec.parent chain loops and never reaches root.",
    "The capacity plugin with enableHierarchy builds the queue tree from root down through spec.parent; queues in "
    "a loop are outside that tree. The webhook refuses a queue that names itself as parent (an error), but a "
    "longer loop can be made by updating parents one after another. Under capacity's enableHierarchy a loop is an "
    "error (the hierarchy cannot be built); without it spec.parent is not read, so it is a warning.",
)
JOB_IN_PARENT_QUEUE = error(
    "volcano-job-in-parent-queue",
    "A job in a queue that has child queues, under capacity's enableHierarchy.",
    "With enableHierarchy on the capacity plugin only leaf queues may hold jobs. A single job in a queue with "
    "children makes the plugin's hierarchy check fail for the whole session: Allocatable, JobEnqueueable and "
    "Reclaimable then refuse every job of every queue, so nothing is scheduled at all. The vcjob webhook refuses "
    "such a Job, but PodGroups made by other controllers are not checked. Move the job to a leaf queue.",
)
HDRF_ANNOTATIONS = error(
    "volcano-hdrf-annotations",
    "volcano.sh/hierarchy and volcano.sh/hierarchy-weights that Volcano's queue webhook refuses.",
    "For hierarchical DRF (drf with enableHierarchy) a Queue carries its path in the annotation "
    "volcano.sh/hierarchy (root/eng/team-a) and one weight per level in volcano.sh/hierarchy-weights (1/2/1). The "
    "queue webhook refuses the Queue when the two have different numbers of parts (`must have the same length`) "
    "or when a weight is not a number or not above 0.",
)
HDRF_PREFIX = warning(
    "volcano-hdrf-prefix",
    "A queue's volcano.sh/hierarchy path is a prefix of another queue's, under drf's enableHierarchy.",
    "In hierarchical DRF every queue is a leaf of the path tree: a queue at root/eng beside one at root/eng/dev "
    "makes root/eng both a leaf with jobs and an inner node, and the two compete in ways the design does not "
    "intend. The webhook refuses creating the shorter path after the longer one exists, but not the other order. "
    "Checked only when drf has enableHierarchy.",
)

OBJECT_LINT_RULES: tuple[Rule, ...] = (
    DEQUEUE_STRATEGY,
    QUEUE_PRIORITY_CLASS,
    UNKNOWN_PRIORITY_CLASS,
    GLOBAL_DEFAULT,
    QUEUE_WEIGHT,
    QUEUE_PRIORITY,
    QUEUE_RESOURCES,
    QUEUE_NOT_OPEN,
    UNKNOWN_QUEUE,
    MISSING_PARENT,
    PARENT_CYCLE,
    JOB_IN_PARENT_QUEUE,
    HDRF_ANNOTATIONS,
    HDRF_PREFIX,
)

VOLCANO_RULES: tuple[Rule, ...] = (*CONF_RULES, *CONF_LINT_RULES, *OBJECT_RULES, *OBJECT_LINT_RULES)
"""Every rule of `yk volcano validate`, in documentation order (besides yaml-syntax and unknown-rule)."""

SHARED_RULE_IDS = (YAML_SYNTAX.id, UNKNOWN_RULE.id)
"""Rules of `yk validate` that `yk volcano validate` reports too (unreadable YAML, a misspelt suppression)."""


def volcano_rules() -> dict[str, Rule]:
    """Every Volcano rule by id, in documentation order."""
    return {rule.id: rule for rule in VOLCANO_RULES}
