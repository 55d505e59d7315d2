"""`yk volcano validate`: every lint with a positive and a negative case, exact messages, positions and exit codes, the
four output formats, suppression, the V05 companions through the CLI, and random inputs that never raise."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import DATA, ROOT, dedent
from tests.helpers.golden import check_golden
from yk_cli.core.diagnostics import Level, Problem
from yk_cli.core.lint.catalogue import volcano_catalogue
from yk_cli.load.volcano_check import check_volcano

SARIF_SCHEMA = json.loads((DATA / "sarif-schema-2.1.0.json").read_text())
V05 = DATA / "volcano" / "cases" / "v05-config-defaults"
CONF_SAMPLE = "samples/volcano/invalid/volcano-scheduler.conf"
CLUSTER_SAMPLE = "samples/volcano/invalid/cluster.yaml"

CONF_HEAD = 'actions: "enqueue, allocate, backfill"\n'
"""The start of most conf snippets below (line 1)."""


def found(tmp_path: Path, text: str, name: str = "in.yaml") -> list[Problem]:
    path = tmp_path / name
    path.write_text(dedent(text))
    return check_volcano([str(path)]).problems


def brief(problems: list[Problem]) -> list[tuple[str, str, int, int, str]]:
    """(rule, level, line, column, message) of each problem."""
    return [(p.rule, p.level.value, p.span.line, p.span.column, p.message) for p in problems if p.span]


def conf_problems(tmp_path: Path, conf: str) -> list[tuple[str, str, int, int, str]]:
    path = tmp_path / "volcano-scheduler.conf"
    path.write_text(dedent(conf))
    return brief(check_volcano([str(path)]).problems)


# --- conf lints ----------------------------------------------------------------------------------------------------

CONF_CASES = [
    (
        "top-level key",
        CONF_HEAD + "tier:\n- plugins:\n  - name: gang\n",
        ("volcano-unknown-key", "warning", 2, 1, "unknown key `tier` (top level): Volcano ignores it"),
        CONF_HEAD + "tiers:\n- plugins:\n  - name: gang\n",
    ),
    (
        "enable/enabled mix",
        CONF_HEAD + "tiers:\n- plugins:\n  - name: proportion\n    enabledQueueOrder: false\n",
        (
            "volcano-unknown-key",
            "warning",
            5,
            5,
            "unknown key `enabledQueueOrder` (tier 1, plugin 1, proportion): Volcano ignores it, so `enableQueueOrder` "
            "keeps its default of true",
        ),
        CONF_HEAD + "tiers:\n- plugins:\n  - name: proportion\n    enableQueueOrder: false\n",
    ),
    (
        "flag that stays off",
        CONF_HEAD + "tiers:\n- plugins:\n  - name: capacity\n    enabledHierarchy: true\n",
        (
            "volcano-unknown-key",
            "warning",
            5,
            5,
            "unknown key `enabledHierarchy` (tier 1, plugin 1, capacity): Volcano ignores it, so `enableHierarchy` "
            "keeps its default, off",
        ),
        CONF_HEAD + "tiers:\n- plugins:\n  - name: capacity\n    enableHierarchy: true\n",
    ),
    (
        "configuration entry key",
        CONF_HEAD + "configurations:\n- name: allocate\n  argument: {predicateErrorCacheEnable: false}\n",
        (
            "volcano-unknown-key",
            "warning",
            4,
            3,
            "unknown key `argument` (configuration 1, allocate): Volcano ignores it",
        ),
        CONF_HEAD + "configurations:\n- name: allocate\n  arguments: {predicateErrorCacheEnable: false}\n",
    ),
    (
        "proposal key in action arguments",
        CONF_HEAD + "configurations:\n- name: allocate\n  arguments:\n    QueueScoreOrder.drf.weight: 2\n",
        (
            "volcano-proposal-key",
            "warning",
            5,
            5,
            "`QueueScoreOrder.drf.weight` (configuration 1, allocate arguments) has no effect: a 2023 design proposal, "
            "not in any Volcano release",
        ),
        CONF_HEAD + "configurations:\n- name: allocate\n  arguments:\n    predicateErrorCacheEnable: true\n",
    ),
    (
        "proposal key on a plugin",
        CONF_HEAD + "tiers:\n- plugins:\n  - name: priority\n    enableQueueScoreOrder: true\n",
        (
            "volcano-proposal-key",
            "warning",
            5,
            5,
            "`enableQueueScoreOrder` (tier 1, plugin 1, priority) has no effect: a 2023 design proposal, not in any "
            "Volcano release",
        ),
        CONF_HEAD + "tiers:\n- plugins:\n  - name: priority\n    enableJobOrder: true\n",
    ),
    (
        "unknown plugin",
        CONF_HEAD + "tiers:\n- plugins:\n  - name: proportoin\n",
        (
            "volcano-unknown-plugin",
            "warning",
            4,
            11,
            "unknown plugin `proportoin` (tier 1, plugin 1): Volcano logs `Failed to get plugin proportoin` and runs "
            "the session without it",
        ),
        CONF_HEAD + "tiers:\n- plugins:\n  - name: capacity\n",
    ),
    (
        "plugin listed twice",
        CONF_HEAD + "tiers:\n- plugins:\n  - name: gang\n- plugins:\n  - name: gang\n",
        (
            "volcano-duplicate-plugin",
            "warning",
            6,
            11,
            "plugin `gang` is listed again (tier 2, plugin 1; first at tier 1, plugin 1): Volcano builds it once, with "
            "the arguments of its last entry, and consults it at both places",
        ),
        CONF_HEAD + "tiers:\n- plugins:\n  - name: gang\n- plugins:\n  - name: drf\n",
    ),
    (
        "empty tier",
        CONF_HEAD + "tiers:\n- plugins: []\n- plugins:\n  - name: gang\n",
        ("volcano-empty-tier", "warning", 3, 12, "tier 1 has no plugins: it orders, filters and admits nothing"),
        CONF_HEAD + "tiers:\n- plugins:\n  - name: gang\n",
    ),
    (
        "enableHierarchy elsewhere",
        CONF_HEAD + "tiers:\n- plugins:\n  - name: gang\n    enableHierarchy: true\n",
        (
            "volcano-hierarchy-ignored",
            "warning",
            5,
            5,
            "enableHierarchy on plugin `gang` (tier 1, plugin 1) has no effect: only drf and capacity read it",
        ),
        CONF_HEAD + "tiers:\n- plugins:\n  - name: gang\n    enableHierarchy: false\n",
    ),
    (
        "unknown action argument",
        CONF_HEAD + "configurations:\n- name: allocate\n  arguments: {predicateErrorCacheEnabled: false}\n",
        (
            "volcano-unknown-argument",
            "warning",
            4,
            15,
            "action `allocate` reads no argument `predicateErrorCacheEnabled` (configuration 1): it is ignored",
        ),
        CONF_HEAD + "configurations:\n- name: enqueue\n  arguments: {anything: 1}\n",
    ),
    (
        "configuration of an action that does not run",
        CONF_HEAD + "configurations:\n- name: reclaim\n  arguments: {predicateErrorCacheEnable: false}\n",
        (
            "volcano-unused-configuration",
            "warning",
            3,
            9,
            "configuration `reclaim` (configuration 1) configures an action that is not in `actions`: `reclaim` never "
            "runs, so its arguments are never read",
        ),
        CONF_HEAD + "configurations:\n- name: backfill\n  arguments: {predicateErrorCacheEnable: false}\n",
    ),
    (
        "action listed twice",
        'actions: "enqueue, allocate, allocate"\n',
        (
            "volcano-duplicate-action",
            "warning",
            1,
            10,
            "action `allocate` is listed more than once in `actions`: it runs that many times every session",
        ),
        'actions: "enqueue, allocate"\n',
    ),
]


@pytest.mark.parametrize(("case", "positive", "expected", "negative"), CONF_CASES, ids=[c[0] for c in CONF_CASES])
def test_conf_lint(tmp_path: Path, case: str, positive: str, expected: tuple, negative: str) -> None:
    assert conf_problems(tmp_path, positive) == [expected]
    assert conf_problems(tmp_path, negative) == []


def test_conf_hints(tmp_path: Path) -> None:
    problems = check_volcano([str(_write(tmp_path, CONF_CASES[1][1]))]).problems
    assert problems[0].hint.startswith("did you mean `enableQueueOrder`? Volcano's flag names mix `enable` and")
    problems = check_volcano([str(_write(tmp_path, CONF_CASES[6][1]))]).problems
    assert problems[0].hint.startswith("did you mean `proportion`? A custom plugin")
    problems = check_volcano([str(_write(tmp_path, CONF_CASES[10][1]))]).problems
    assert problems[0].hint == (
        "did you mean `predicateErrorCacheEnable`? allocate reads: predicateErrorCacheEnable, gateRemovalWorkerNum."
    )


def _write(tmp_path: Path, text: str, name: str = "volcano-scheduler.conf") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_conf_sample_reports_every_marked_line(run_yk, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    result = run_yk("volcano", "validate", CONF_SAMPLE, "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["conf"] == {"origin": "input", "source": CONF_SAMPLE, "loaded": True}
    assert [(p["rule"], p["line"], p["column"]) for p in data["problems"]] == [
        ("volcano-proposal-key", 7, 5),
        ("volcano-proposal-key", 8, 5),
        ("volcano-unknown-argument", 11, 5),
        ("volcano-unused-configuration", 12, 9),
        ("volcano-hierarchy-ignored", 17, 5),
        ("volcano-unknown-key", 27, 5),
        ("volcano-unknown-plugin", 29, 11),
        ("volcano-duplicate-plugin", 30, 11),
        ("volcano-empty-tier", 31, 3),
        ("volcano-unknown-key", 31, 3),
    ]
    assert data["summary"] == {"files": 1, "errors": 0, "warnings": 10}
    assert run_yk("volcano", "validate", "--strict", CONF_SAMPLE).exit_code == 1


# --- object lints --------------------------------------------------------------------------------------------------

QUEUE = "apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\n"
PG = "apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\n"
PC = "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
HIERARCHY_CONF = (
    "apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: volcano-scheduler-configmap}}\ndata:\n"
    "  volcano-scheduler.conf: |\n"
    '    actions: "enqueue, allocate"\n'
    "    tiers:\n    - plugins:\n      - name: {plugin}\n        enableHierarchy: true\n---\n"
)
"""A ConfigMap (11 lines) whose conf turns on enableHierarchy for one plugin."""


def doc(*parts: str) -> str:
    return "---\n".join(parts)


OBJECT_CASES = [
    (
        "dequeueStrategy",
        QUEUE + "metadata: {name: a}\nspec:\n  dequeueStrategy: fifo\n",
        (
            "volcano-dequeue-strategy",
            "warning",
            5,
            3,
            "Queue a: spec.dequeueStrategy `fifo` has no effect: the scheduler never reads it, every queue is "
            "traversed",
        ),
        QUEUE + "metadata: {name: a}\nspec:\n  weight: 2\n",
    ),
    (
        "priorityClassName on a Queue",
        QUEUE + "metadata: {name: a}\nspec:\n  priority: 5\n  priorityClassName: high\n",
        (
            "volcano-queue-priority-class",
            "warning",
            6,
            3,
            "Queue a: spec.priorityClassName `high` has no effect: it is the 2023 design proposal's field, not in the "
            "Queue API; Volcano orders the queue by spec.priority (5) and its jobs inherit nothing from it",
        ),
        QUEUE + "metadata: {name: a}\nspec:\n  priority: 5\n",
    ),
    (
        "weight 0",
        QUEUE + "metadata: {name: a}\nspec: {weight: 0}\n",
        (
            "volcano-queue-weight",
            "error",
            4,
            16,
            "Queue a: spec.weight 0 is below the CRD minimum of 1: the API server refuses it",
        ),
        QUEUE + "metadata: {name: a}\nspec: {weight: 1}\n",
    ),
    (
        "negative priority",
        QUEUE + "metadata: {name: a}\nspec: {priority: -1}\n",
        (
            "volcano-queue-priority",
            "error",
            4,
            18,
            "Queue a: spec.priority -1 is negative: the CRD minimum is 0, the API server refuses it",
        ),
        QUEUE + "metadata: {name: a}\nspec: {priority: 0}\n",
    ),
    (
        "guarantee above deserved",
        QUEUE + "metadata: {name: a}\nspec:\n  deserved: {cpu: 2}\n  guarantee:\n    resource: {cpu: 2500m}\n",
        (
            "volcano-queue-resources",
            "error",
            7,
            21,
            "Queue a: spec.guarantee.resource cpu 2500m is above spec.deserved cpu 2: Volcano's queue webhook refuses "
            "it (guarantee should less equal than deserved)",
        ),
        QUEUE + "metadata: {name: a}\nspec:\n  deserved: {cpu: 2}\n  guarantee:\n    resource: {cpu: 2000m}\n",
    ),
    (
        "queue not open",
        QUEUE + "metadata: {name: a}\nstatus: {state: Closing}\n",
        (
            "volcano-queue-not-open",
            "warning",
            4,
            17,
            "Queue a is Closing: proportion and capacity enqueue and allocate none of its jobs (0 jobs of the input in "
            "it)",
        ),
        QUEUE + "metadata: {name: a}\nstatus: {state: Open}\n",
    ),
    (
        "missing parent",
        QUEUE + "metadata: {name: a}\nspec: {parent: b}\n",
        (
            "volcano-missing-parent",
            "error",
            4,
            16,
            "Queue a: spec.parent `b` is not a queue of the input: Volcano's queue webhook refuses it (failed to get "
            "parent queue)",
        ),
        QUEUE + "metadata: {name: a}\nspec: {parent: root}\n",
    ),
    (
        "parent loop without the capacity hierarchy",
        doc(QUEUE + "metadata: {name: a}\nspec: {parent: b}\n", QUEUE + "metadata: {name: b}\nspec: {parent: a}\n"),
        (
            "volcano-parent-cycle",
            "warning",
            4,
            16,
            "Queue a: the spec.parent chain a -> b -> a never reaches root (spec.parent is read only by capacity with "
            "enableHierarchy)",
        ),
        doc(QUEUE + "metadata: {name: a}\nspec: {parent: b}\n", QUEUE + "metadata: {name: b}\nspec: {parent: root}\n"),
    ),
    (
        "queue its own parent",
        QUEUE + "metadata: {name: a}\nspec: {parent: a}\n",
        (
            "volcano-parent-cycle",
            "error",
            4,
            16,
            "Queue a: the spec.parent chain a -> a names itself as parent: Volcano's queue webhook refuses it",
        ),
        QUEUE + "metadata: {name: a}\nspec: {}\n",
    ),
    (
        "parent loop under the capacity hierarchy",
        HIERARCHY_CONF.format(plugin="capacity")
        + doc(QUEUE + "metadata: {name: a}\nspec: {parent: b}\n", QUEUE + "metadata: {name: b}\nspec: {parent: a}\n"),
        (
            "volcano-parent-cycle",
            "error",
            15,
            16,
            "Queue a: the spec.parent chain a -> b -> a never reaches root: capacity's enableHierarchy cannot build "
            "the queue tree",
        ),
        HIERARCHY_CONF.format(plugin="capacity") + QUEUE + "metadata: {name: a}\n",
    ),
    (
        "job in a parent queue under the capacity hierarchy",
        HIERARCHY_CONF.format(plugin="capacity")
        + doc(
            QUEUE + "metadata: {name: eng}\n",
            QUEUE + "metadata: {name: dev}\nspec: {parent: eng}\n",
            PG + "metadata: {name: pg, namespace: ns}\nspec: {queue: eng}\n",
        ),
        (
            "volcano-job-in-parent-queue",
            "error",
            24,
            15,
            "PodGroup ns/pg is in queue `eng`, which has child queues (dev): with capacity's enableHierarchy this "
            "blocks the whole plugin, so no job of any queue is scheduled",
        ),
        doc(
            QUEUE + "metadata: {name: eng}\n",
            QUEUE + "metadata: {name: dev}\nspec: {parent: eng}\n",
            PG + "metadata: {name: pg, namespace: ns}\nspec: {queue: eng}\n",
        ),
    ),
    (
        "unknown queue",
        doc(QUEUE + "metadata: {name: a}\n", PG + "metadata: {name: pg}\nspec: {queue: b}\n"),
        (
            "volcano-unknown-queue",
            "warning",
            8,
            15,
            "PodGroup default/pg: queue `b` is not in the input: Volcano leaves the job out of its sessions, so it "
            "never runs",
        ),
        doc(QUEUE + "metadata: {name: a}\n", PG + "metadata: {name: pg}\nspec: {queue: a}\n"),
    ),
    (
        "HDRF annotations of different lengths",
        QUEUE + "metadata:\n  name: a\n  annotations:\n    volcano.sh/hierarchy: root/a\n"
        "    volcano.sh/hierarchy-weights: '1'\n",
        (
            "volcano-hdrf-annotations",
            "error",
            6,
            27,
            "Queue a: volcano.sh/hierarchy `root/a` has 2 parts but volcano.sh/hierarchy-weights `1` has 1: the queue "
            "webhook refuses it (must have the same length)",
        ),
        QUEUE + "metadata:\n  name: a\n  annotations:\n    volcano.sh/hierarchy: root/a\n"
        "    volcano.sh/hierarchy-weights: 1/0.5\n",
    ),
    (
        "HDRF weight not a number",
        QUEUE + "metadata:\n  name: a\n  annotations:\n    volcano.sh/hierarchy: root/a\n"
        "    volcano.sh/hierarchy-weights: 1/x\n",
        (
            "volcano-hdrf-annotations",
            "error",
            7,
            35,
            "Queue a: weight `x` in volcano.sh/hierarchy-weights `1/x` is not a number: the queue webhook refuses it",
        ),
        QUEUE + "metadata:\n  name: a\n  annotations:\n    volcano.sh/hierarchy: root/a\n"
        "    volcano.sh/hierarchy-weights: 1/3\n",
    ),
    (
        "HDRF path a prefix of another under drf's hierarchy",
        HIERARCHY_CONF.format(plugin="drf")
        + doc(
            QUEUE + "metadata:\n  name: a\n  annotations: {volcano.sh/hierarchy: root/a, "
            "volcano.sh/hierarchy-weights: 1/1}\n",
            QUEUE + "metadata:\n  name: b\n  annotations: {volcano.sh/hierarchy: root/a/b, "
            "volcano.sh/hierarchy-weights: 1/1/1}\n",
        ),
        (
            "volcano-hdrf-prefix",
            "warning",
            16,
            39,
            "Queue a: volcano.sh/hierarchy `root/a` is a prefix of queue b's path: under drf's enableHierarchy root/a "
            "is both a leaf with jobs and an inner node",
        ),
        doc(
            QUEUE + "metadata:\n  name: a\n  annotations: {volcano.sh/hierarchy: root/a, "
            "volcano.sh/hierarchy-weights: 1/1}\n",
            QUEUE + "metadata:\n  name: b\n  annotations: {volcano.sh/hierarchy: root/a/b, "
            "volcano.sh/hierarchy-weights: 1/1/1}\n",
        ),
    ),
    (
        "unknown priority class with a globalDefault",
        doc(
            PC + "metadata: {name: low}\nvalue: 10\nglobalDefault: true\n",
            PG + "metadata: {name: pg, namespace: ns}\nspec: {priorityClassName: hi}\n",
        ),
        (
            "volcano-unknown-priority-class",
            "warning",
            10,
            27,
            "PodGroup ns/pg: priorityClassName `hi` names no PriorityClass of the input: the job's priority is 10 (the "
            "value of the globalDefault class low)",
        ),
        doc(
            PC + "metadata: {name: hi}\nvalue: 10\n",
            PG + "metadata: {name: pg, namespace: ns}\nspec: {priorityClassName: hi}\n",
        ),
    ),
    (
        "unknown priority class and no class at all",
        PG + "metadata: {name: pg, namespace: ns}\nspec: {priorityClassName: hi}\n",
        (
            "volcano-unknown-priority-class",
            "warning",
            4,
            27,
            "PodGroup ns/pg: priorityClassName `hi` names no PriorityClass of the input: the job's priority is 0 (no "
            "PriorityClass of the input is globalDefault)",
        ),
        PG + "metadata: {name: pg, namespace: ns}\nspec: {}\n",
    ),
    (
        "two globalDefault classes",
        doc(
            PC + "metadata: {name: a}\nvalue: 1\nglobalDefault: true\n",
            PC + "metadata: {name: b}\nvalue: 2\nglobalDefault: true\n",
        ),
        (
            "volcano-global-default",
            "warning",
            5,
            16,
            "PriorityClass a is globalDefault, and so is b later in the input: Volcano keeps the last one seen, b "
            "(value 2), as every job's default priority",
        ),
        doc(
            PC + "metadata: {name: a}\nvalue: 1\nglobalDefault: false\n",
            PC + "metadata: {name: b}\nvalue: 2\nglobalDefault: true\n",
        ),
    ),
]


@pytest.mark.parametrize(("case", "positive", "expected", "negative"), OBJECT_CASES, ids=[c[0] for c in OBJECT_CASES])
def test_object_lint(tmp_path: Path, case: str, positive: str, expected: tuple, negative: str) -> None:
    assert brief(found(tmp_path, positive)) == [expected]
    assert brief(found(tmp_path, negative)) == []


def test_unknown_queue_needs_queues_and_never_names_default(tmp_path: Path) -> None:
    assert found(tmp_path, PG + "metadata: {name: pg}\nspec: {queue: b}\n") == []
    # Volcano creates `default` at start-up and its webhook refuses to delete it: a job in it is never unknown
    assert found(tmp_path, doc(QUEUE + "metadata: {name: a}\n", PG + "metadata: {name: pg}\n")) == []
    (problem,) = found(tmp_path, doc(QUEUE + "metadata: {name: a}\n", PG + "metadata: {name: pg}\nspec: {queue: b}\n"))
    assert problem.message.startswith("PodGroup default/pg: queue `b` is not in the input")
    assert problem.hint == "create the queue, or set spec.queue to an existing one."


def test_volcano_job_is_checked_unless_its_pod_group_is_in_the_input(tmp_path: Path) -> None:
    job = "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: j, namespace: ns}\nspec: {queue: b}\n"
    assert brief(found(tmp_path, doc(QUEUE + "metadata: {name: a}\n", job))) == [
        (
            "volcano-unknown-queue",
            "warning",
            8,
            15,
            "Volcano Job ns/j: queue `b` is not in the input: Volcano leaves the job out of its sessions, so it never "
            "runs",
        )
    ]
    group = PG + "metadata: {name: j-1234, namespace: ns}\nspec: {queue: a}\n"
    assert found(tmp_path, doc(QUEUE + "metadata: {name: a}\n", job, group)) == []


# --- suppression, formats, exit codes -----------------------------------------------------------------------------


def test_suppression_silences_warnings_only_and_names_unknown_rules(tmp_path: Path) -> None:
    text = (
        'actions: "enqueue, allocate"\ntiers:\n- plugins:\n'
        "  - name: my-plugin  # yk: disable=volcano-unknown-plugin\n"
        "  - name: gang\n    enabledVictim: true\n    enableVictim: true  # yk: disable=volcano-unknwon-key\n"
    )
    problems = check_volcano([str(_write(tmp_path, text))]).problems
    assert [(p.rule, p.span.line if p.span else 0, p.message) for p in problems] == [
        (
            "volcano-unknown-key",
            7,
            "unknown key `enableVictim` (tier 1, plugin 2, gang): Volcano ignores it, so "
            "`enabledVictim` keeps its default of true",
        ),
        (
            "unknown-rule",
            7,
            "# yk: disable=volcano-unknwon-key names no yk rule: it silences nothing (did you mean "
            "volcano-unknown-key?)",
        ),
    ]
    refused = 'actions: "enqueue, alocate"  # yk: disable=volcano-unknown-action\n'
    (error,) = check_volcano([str(_write(tmp_path, refused))]).problems
    assert error.level == Level.ERROR and error.rule == "volcano-unknown-action"


def test_text_golden_of_the_cluster_sample(run_yk, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    result = run_yk("volcano", "validate", CLUSTER_SAMPLE)
    assert result.exit_code == 1
    check_golden("volcano_validate_cluster.txt", result.stdout)
    assert result.stdout == run_yk("volcano", "validate", CLUSTER_SAMPLE).stdout


def test_sarif_golden_and_schema(run_yk, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    result = run_yk("volcano", "validate", CONF_SAMPLE, CLUSTER_SAMPLE, "--format", "sarif")
    assert result.exit_code == 1
    log = json.loads(result.stdout)
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(log)
    run = log["runs"][0]
    rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
    assert rules == list(volcano_catalogue())
    assert all(rules[r["ruleIndex"]] == r["ruleId"] for r in run["results"])
    assert len(run["results"]) == 24  # each file on its own: 10 in the conf, 14 in the cluster (its own conf)
    assert "volcano-multiple-confs" not in {r["ruleId"] for r in run["results"]}
    together = run_yk("volcano", "validate", "--one-cluster", CONF_SAMPLE, CLUSTER_SAMPLE, "--format", "sarif")
    results = json.loads(together.stdout)["runs"][0]["results"]
    assert len(results) == 23  # one cluster: the cluster sample's ConfigMap is a second conf, the first one wins
    assert results[0]["ruleId"] == "volcano-multiple-confs"
    check_golden("volcano_validate_conf.sarif", run_yk("volcano", "validate", CONF_SAMPLE, "-f", "sarif").stdout)


def test_github_format(run_yk, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    result = run_yk("volcano", "validate", CONF_SAMPLE, "--format", "github")
    lines = result.stdout.splitlines()
    assert lines[0] == f"::group::{CONF_SAMPLE}"
    assert lines[1] == (
        f"::warning file={CONF_SAMPLE},line=7,col=5,endLine=7,endColumn=26,title=volcano-proposal-key::"
        "`QueueScoreOrderEnable` (configuration 1, allocate arguments) has no effect: a 2023 design proposal, not in "
        "any Volcano release%0Ahint: Volcano orders queues by the proportion or capacity queue order (spec.priority, "
        "then share); no action reads QueueScoreOrder keys. Remove it."
    )
    assert lines[-1] == "yk: 1 file checked: 0 errors, 10 warnings"


def test_which_conf_was_checked(run_yk, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("dump.yaml").write_text(QUEUE + "metadata: {name: a}\n")
    Path("plain.conf").write_text('actions: "enqueue, allocat"\n')
    none = run_yk("volcano", "validate", "dump.yaml")
    assert (
        none.stdout.splitlines()[0] == "conf: no conf found: Volcano's built-in default (enqueue, allocate, backfill)"
    )
    assert json.loads(run_yk("volcano", "validate", "dump.yaml", "-f", "json").stdout)["conf"] == {
        "origin": "default",
        "source": "Volcano's built-in default configuration (no --conf and no volcano-scheduler-configmap)",
        "loaded": True,
    }
    refused = run_yk("volcano", "validate", "dump.yaml", "--conf", "plain.conf", "-f", "json")
    assert refused.exit_code == 1
    assert json.loads(refused.stdout)["conf"] == {
        "origin": "option",
        "source": "plain.conf",
        "loaded": False,
        "error": "failed to find Action  allocat",
    }
    text = run_yk("volcano", "validate", "dump.yaml", "--conf", "plain.conf").stdout
    assert text.splitlines()[0] == "conf: plain.conf: refused by Volcano's loader, which keeps its built-in default"


@pytest.mark.parametrize(
    ("name", "code", "first"),
    [
        ("drf-hierarchy-proportion-other-tiers.conf", 0, None),
        (
            "drf-hierarchy-proportion-same-tier.conf",
            1,
            ":10:5: [error] proportion and drf with hierarchy enabled conflicts (tier 2) (volcano-hierarchy-conflict)",
        ),
        ("unknown-action.conf", 1, ":2:10: [error] failed to find Action  allocat (volcano-unknown-action)"),
        (
            "unknown-plugin.conf",
            0,
            ":6:11: [warning] unknown plugin `no-such-plugin` (tier 1, plugin 2): Volcano logs `Failed to get plugin "
            "no-such-plugin` and runs the session without it (volcano-unknown-plugin)",
        ),
    ],
)
def test_v05_companions_through_the_cli(run_yk, name: str, code: int, first: str | None) -> None:
    path = str(V05 / "companions" / name)
    result = run_yk("volcano", "validate", str(V05 / "objects.yaml"), "--conf", path)
    assert result.exit_code == code
    lines = result.stdout.splitlines()
    if first is None:
        assert lines[1:] == ["2 files checked: no problems"]
    else:
        assert lines[1] == path + first


def test_inputs_directories_stdin_and_exit_codes(run_yk, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("d").mkdir()
    Path("d/q.yaml").write_text(QUEUE + "metadata: {name: a}\nspec: {weight: 0}\n")
    Path("empty").mkdir()
    assert run_yk("volcano", "validate", "d").exit_code == 1
    stdin = run_yk("volcano", "validate", "-", input=QUEUE + "metadata: {name: a}\n")
    assert (stdin.exit_code, stdin.stdout.splitlines()[-1]) == (0, "1 file checked: no problems")
    mixed = run_yk("volcano", "validate", "d", "missing.yaml", "empty")
    assert mixed.exit_code == 2
    assert mixed.stdout.splitlines()[-1] == "1 file checked: 1 error, 0 warnings"
    assert mixed.stderr.splitlines() == [
        "yk: error: missing.yaml: no such file",
        "yk: error: empty: no *.yaml or *.yml files in this directory",
    ]
    nothing = run_yk("volcano", "validate", "missing.yaml")
    assert (nothing.exit_code, nothing.stdout) == (2, "")
    bad_format = run_yk("volcano", "validate", "d", "--format", "xml")
    assert bad_format.exit_code == 2 and "unknown format 'xml'" in bad_format.stderr
    no_conf = run_yk("volcano", "validate", "d", "--conf", "nope.conf")
    assert no_conf.exit_code == 2 and no_conf.stderr == "yk: error: nope.conf: no such file\n"


# --- random inputs -------------------------------------------------------------------------------------------------

KEYS = [
    "actions",
    "tiers",
    "plugins",
    "name",
    "arguments",
    "configurations",
    "enableHierarchy",
    "enabledQueueOrder",
    "QueueScoreOrderEnable",
    "apiVersion",
    "kind",
    "metadata",
    "spec",
    "status",
    "state",
    "weight",
    "priority",
    "parent",
    "queue",
    "priorityClassName",
    "capability",
    "deserved",
    "guarantee",
    "resource",
    "annotations",
    "volcano.sh/hierarchy",
    "volcano.sh/hierarchy-weights",
    "globalDefault",
    "value",
    "items",
    "data",
    "volcano-scheduler.conf",
    "dequeueStrategy",
    "cpu",
]
SCALARS = [
    "Queue",
    "PodGroup",
    "PriorityClass",
    "List",
    "ConfigMap",
    "Job",
    "scheduling.volcano.sh/v1beta1",
    "scheduling.k8s.io/v1",
    "batch.volcano.sh/v1alpha1",
    "v1",
    "volcano-scheduler-configmap",
    "a",
    "b",
    "root",
    "default",
    "0",
    "-1",
    "1/0",
    "root/a",
    "true",
    "yes",
    "",
    "enqueue, allocate",
    "enqueue,,",
    "capacity",
    "drf",
    "1e400",
    "500m",
    "Closed",
    'actions: "allocate"\ntiers: [{plugins: [{name: capacity, enableHierarchy: true}]}]',
]
VALUES = st.recursive(
    st.sampled_from(SCALARS) | st.integers(-3, 3) | st.booleans() | st.none(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=5),
    max_leaves=25,
)


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(documents=st.lists(VALUES, min_size=1, max_size=4), conf=st.none() | VALUES)
def test_random_dumps_and_confs_never_raise(tmp_path: Path, documents: list[object], conf: object) -> None:
    dump = tmp_path / "dump.yaml"
    dump.write_text("---\n".join(json.dumps(d) for d in documents) + "\n")
    names = [str(dump)]
    if conf is not None:
        (tmp_path / "c.conf").write_text(json.dumps(conf) + "\n")
        names.append(str(tmp_path / "c.conf"))
    first = check_volcano(names).problems
    assert all(p.rule in volcano_catalogue() for p in first)
    assert check_volcano(names).problems == first


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(alphabet="ab:- \n{}[]\"'#|&*!\t", max_size=120))
def test_random_text_never_raises(tmp_path: Path, text: str) -> None:
    path = tmp_path / "x.yaml"
    path.write_text(text)
    assert all(p.rule in volcano_catalogue() for p in check_volcano([str(path)], str(path)).problems)
