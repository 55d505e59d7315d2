"""Gang scheduling in the dry run (yk_cli/core/sim/gang.py).

* golden traces: one case per gang feature (tests/data/gang/<case>, the oracle's hand-made examples:
  ../shared/oracle/examples/gang-*.json) and the Spark sample in text, JSON and Markdown (UPDATE_GOLDEN=1 rewrites);
* each state transition, after the core's own tests (yunikorn-core objects/application_test.go, written anew here):
  TestStateChangeOnPlaceholderAdd, TestTimeoutPlaceholderSoft, TestTimeoutPlaceholderHard,
  TestTimeoutPlaceholderAllocReleased, TestCanReplace, TestTryPlaceholderAllocate, TestPlaceholderBiggerThanReal,
  TestPlaceholderSmallerThanReal, TestTryPlaceHolderAllocateDifferentTaskGroups, partition_test.go
  TestAddAppTaskGroup (fifo only) and AddApplication's max check;
* the workload loader and the cluster-dump annotations;
* hypothesis invariants: a Hard gang never runs partly, placeholders never outlive their timeout, and the engine's
  check mode (every retry in full) gives the same trace.
"""

from __future__ import annotations

import json
from textwrap import dedent

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.core.sim.finished_run import FinishedRun, finish
from tests.helpers import paths
from tests.helpers.golden import check_golden
from tests.helpers.paths import ROOT
from yk_cli.commands.run_options import options_from
from yk_cli.commands.simulate import simulation_report
from yk_cli.core.config.model import decode_config
from yk_cli.core.config.queues import build_queue_tree
from yk_cli.core.sim import gang as g
from yk_cli.core.sim.run import Simulation, SimulationOptions, simulate
from yk_cli.core.sim.trace import GANG_TIMEOUT, PLACEHOLDER, PLACEHOLDER_RELEASE, PREEMPT, REPLACE, Trace
from yk_cli.load.source import parse_yaml
from yk_cli.load.workload import parse_workload

DATA = paths.DATA / "gang"
SAMPLE = ("samples/workloads/queues/spark-gang.yaml", "samples/workloads/spark-gang.yaml")
CASES = sorted(p.name for p in DATA.iterdir() if p.is_dir())

QUEUES = """
partitions:
  - name: default
    queues:
      - name: root
        submitacl: '*'
        queues:
          - name: a
            resources:
              max: {memory: 30}
          - name: fair
            properties: {application.sort.policy: fair}
"""


def _partition(queues: str):  # type: ignore[no-untyped-def]
    decoded, problems = decode_config(parse_yaml(dedent(queues)).documents[0])
    assert not problems
    partition = decoded.partitions[0]
    return partition, build_queue_tree(partition)


def run(workload: str, queues: str = QUEUES, **options: object) -> FinishedRun:
    """A finished simulation of a workload text on a queue config text (the state is kept for inspection)."""
    partition, tree = _partition(queues)
    loaded = parse_workload(dedent(workload), "w.yaml", tree)
    assert not [p for p in loaded.problems if p.level == "error"], loaded.problems
    sim = Simulation(partition, tree, loaded.workload, SimulationOptions(**options))  # type: ignore[arg-type]
    return finish(sim)


def steps(sim: FinishedRun) -> list[tuple[str, str, str]]:
    return [(e.type, e.ask, e.node) for e in sim.trace_result.events]


def gang_of(sim: FinishedRun, app: str) -> g.Gang:
    assert sim.state.gang is not None
    return next(x for a, x in sim.state.gang.by_app.items() if a.id == app)


# -- golden traces ----------------------------------------------------------------------------------------------


def test_every_feature_has_a_case() -> None:
    assert CASES == [
        "fewer-real",
        "fits",
        "larger-real",
        "over-max",
        "timeout-hard",
        "timeout-soft",
        "two-groups",
        "vs-nongang",
    ]


def _report(queues: str, workload: str, fmt: str = "text") -> str:
    return "".join(simulation_report(queues, workload, fmt, options_from(None, None, "1.8")))


def test_golden_feature_traces() -> None:
    for case in CASES:
        folder = DATA / case
        text = _report(str(folder / "queues.yaml"), str(folder / "workload.yaml"))
        check_golden(f"gang_{case}.txt", text.replace(str(DATA) + "/", ""))


def test_golden_spark_sample() -> None:
    import os

    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        for fmt, suffix in (("text", "txt"), ("json", "json"), ("markdown", "md")):
            check_golden(f"simulate_spark-gang.{suffix}", _report(*SAMPLE, fmt))
    finally:
        os.chdir(cwd)


def test_spark_sample_json_is_valid_against_the_schema() -> None:
    import jsonschema

    schema = json.loads((ROOT / "schemas" / "trace.schema.json").read_text(encoding="utf-8"))
    data = json.loads(_report(str(ROOT / SAMPLE[0]), str(ROOT / SAMPLE[1]), "json"))
    jsonschema.validate(data, schema)
    kinds = {e["type"] for e in data["events"]}
    assert {PLACEHOLDER, REPLACE, PLACEHOLDER_RELEASE, GANG_TIMEOUT} <= kinds
    assert {p["code"] for p in data["pending"]} == {"gang-failed"}


# -- state transitions, after the core's own tests ----------------------------------------------------------------

GANG = """
nodes:
  - {{name: n1, resources: {{memory: 100}}}}
applications:
  - id: other
    queue: root.a
    allocations:
      - {{name: o, node: n1, resources: {{memory: {used}}}}}
  - id: gang
    queue: root.{queue}
    gangSchedulingStyle: {style}
    placeholderTimeoutInSeconds: 2
    taskGroups:
      - {{name: workers, minMember: 3, minResource: {{memory: 10}}}}
    asks:
      - {{name: w, count: {real}, resources: {{memory: {size}}}, taskGroupName: workers}}
"""


def gang_run(style: str = "Soft", used: int = 0, real: int = 3, size: int = 10, queue: str = "a") -> FinishedRun:
    return run(GANG.format(style=style, used=used, real=real, size=size, queue=queue))


def test_accepted_until_every_placeholder_is_allocated_then_running() -> None:
    """TestStateChangeOnPlaceholderAdd / TestGangAllocChange: Accepted until the allocated placeholders equal the
    PlaceholderAsk, Running in the cycle of the last one; the real pods are sent only then."""
    sim = run(GANG.format(style="Soft", used=0, real=3, size=10, queue="a"), max_steps=2)
    found = gang_of(sim, "gang")
    assert (found.core, found.shim) == (g.ACCEPTED, g.RESERVING)
    assert [a.name for a in found.held] == ["w-0", "w-1", "w-2"]
    sim = run(GANG.format(style="Soft", used=0, real=3, size=10, queue="a"), max_steps=3)
    found = gang_of(sim, "gang")
    assert (found.core, found.shim, found.held) == (g.RUNNING, g.RUNNING, [])
    assert found.timer == 2_000_000_000


def test_each_real_pod_replaces_a_placeholder_of_its_group_on_its_node() -> None:
    """TestTryPlaceholderAllocate: a real pod takes a placeholder's place; the timer is cleared with the last one."""
    sim = gang_run()
    assert steps(sim) == [
        ("placeholder", "tg-gang-workers-0", "n1"),
        ("placeholder", "tg-gang-workers-1", "n1"),
        ("placeholder", "tg-gang-workers-2", "n1"),
        ("replace", "w-0", "n1"),
        ("replace", "w-1", "n1"),
        ("replace", "w-2", "n1"),
    ]
    found = gang_of(sim, "gang")
    assert found.timer is None and not any(found.allocated) and found.core == g.RUNNING
    assert sim.trace_result.summary.allocations == 3


def test_soft_timeout_resumes_and_the_real_pods_run_as_ordinary_asks() -> None:
    """TestTimeoutPlaceholderSoft: Resuming, 2 allocated then 1 pending placeholder released, Accepted once the last
    release is confirmed; canReplace is false, so the real pods are ordinary asks (TestCanReplace)."""
    sim = gang_run(used=10)
    assert steps(sim) == [
        ("placeholder", "tg-gang-workers-0", "n1"),
        ("placeholder", "tg-gang-workers-1", "n1"),
        ("gang-timeout", "", ""),
        ("allocate", "w-0", "n1"),
        ("allocate", "w-1", "n1"),
    ]
    found = gang_of(sim, "gang")
    assert (found.core, found.shim) == (g.ACCEPTED, g.RUNNING)
    assert [(x.replaced, x.timed_out, x.can_replace()) for x in found] == [(0, 3, False)]
    timeout = sim.trace_result.events[2]
    assert timeout.time == 2_000_000_000
    assert "2 allocated and 1 pending placeholders released" in timeout.reason
    assert [v.allocation for v in timeout.victims] == ["tg-gang-workers-0", "tg-gang-workers-1"]


def test_hard_timeout_fails_and_the_real_pods_are_never_sent() -> None:
    """TestTimeoutPlaceholderHard: Failing, the placeholders go, Failed; the shim never sends the real pods."""
    sim = gang_run(style="Hard", used=10)
    assert [s[0] for s in steps(sim)] == ["placeholder", "placeholder", "gang-timeout"]
    found = gang_of(sim, "gang")
    assert (found.core, found.shim) == (g.FAILED, g.FAILED)
    pending = sim.trace_result.pending
    assert [(p.ask, p.code) for p in pending] == [
        ("w-0", "gang-failed"),
        ("w-1", "gang-failed"),
        ("w-2", "gang-failed"),
    ]


def test_a_running_gang_releases_only_its_unused_placeholders() -> None:
    """TestTimeoutPlaceholderAllocReleased: fewer real pods than placeholders; at the timeout the unused ones go and
    the application stays Running."""
    sim = gang_run(real=1)
    assert [s[0] for s in steps(sim)] == ["placeholder"] * 3 + ["replace", "gang-timeout"]
    found = gang_of(sim, "gang")
    assert found.core == g.RUNNING and not any(found.allocated)
    assert "its 2 unused placeholders released" in sim.trace_result.events[-1].reason


def test_a_larger_real_pod_has_the_placeholders_released_and_runs_plainly() -> None:
    """TestTryPlaceHolderAllocateLargerRequest / TestPlaceholderSmallerThanReal: every placeholder of the group is
    released in the cycle, nothing is allocated for the gang in it; then the real pods are ordinary asks."""
    sim = run(GANG.format(style="Soft", used=0, real=2, size=15, queue="a").replace("minMember: 3", "minMember: 2"))
    assert [s[0] for s in steps(sim)] == ["placeholder", "placeholder", "placeholder-release", "allocate", "allocate"]
    release = sim.trace_result.events[2]
    assert len(release.victims) == 2 and release.ask == "w-0"


def test_a_smaller_real_pod_replaces_and_frees_the_difference() -> None:
    """TestPlaceholderBiggerThanReal / TestTryPlaceHolderAllocateSmallerRequest: the queue ends at the real sizes."""
    sim = gang_run(size=8)
    assert [s[0] for s in steps(sim)] == ["placeholder"] * 3 + ["replace"] * 3
    assert sim.state.queues["root.a"].allocated[sim.state.type_index["memory"]] == 24


def test_real_pods_replace_placeholders_of_their_own_group() -> None:
    """TestTryPlaceHolderAllocateDifferentTaskGroups: each real pod replaces a placeholder of its own group."""
    sim = run(
        """
        nodes:
          - {name: n1, resources: {memory: 100}}
        applications:
          - id: spark
            queue: root.a
            taskGroups:
              - {name: driver, minMember: 1, minResource: {memory: 10}}
              - {name: exec, minMember: 2, minResource: {memory: 5}}
            asks:
              - {name: e0, resources: {memory: 5}, taskGroupName: exec}
              - {name: d, priority: 10, resources: {memory: 10}, taskGroupName: driver, originator: true}
              - {name: e1, resources: {memory: 5}, taskGroupName: exec}
        """
    )
    replaced = [(e.ask, e.reason.split("placeholder ")[1].split(" ")[0]) for e in sim.trace_result.events[3:]]
    assert replaced == [("d", "tg-spark-driver-0"), ("e0", "tg-spark-exec-0"), ("e1", "tg-spark-exec-1")]
    assert {e.priority for e in sim.trace_result.events[:3]} == {10}  # the originator's


def test_a_gang_larger_than_its_queue_max_is_rejected() -> None:
    """partition.AddApplication: a PlaceholderAsk above the queue's max rejects the application."""
    sim = run(GANG.format(style="Soft", used=0, real=1, size=10, queue="a").replace("minMember: 3", "minMember: 4"))
    assert steps(sim) == []
    [pending] = sim.trace_result.pending
    assert pending.code == "gang-rejected"
    assert pending.reason == (
        "application rejected: its task groups ask {memory: 40} of placeholders, larger than the max {memory: 30} of "
        "root.a (task group request larger than max queue allocation)"
    )


def test_a_gang_in_a_fair_queue_is_rejected() -> None:
    """TestAddAppTaskGroup / TestSupportTaskGroup: task groups run in fifo queues only."""
    sim = gang_run(queue="fair")
    assert steps(sim) == []
    assert {p.reason for p in sim.trace_result.pending} == {
        "application rejected: queue root.fair sorts its applications fair, and YuniKorn runs task groups in fifo "
        "queues only (unsupported sort type)"
    }


def test_a_gang_with_running_pods_skips_the_reservation_stage() -> None:
    """skipReservationStage: an application that already has a bound pod gets no placeholders."""
    sim = run(
        """
        nodes:
          - {name: n1, resources: {memory: 100}}
        applications:
          - id: gang
            queue: root.a
            taskGroups:
              - {name: workers, minMember: 2, minResource: {memory: 5}}
            allocations:
              - {name: running, node: n1, resources: {memory: 5}}
            asks:
              - {name: w, resources: {memory: 5}, taskGroupName: workers}
        """
    )
    assert steps(sim) == [("allocate", "w", "n1")]


def test_a_held_pod_names_its_gang_and_what_it_waits_for() -> None:
    sim = gang_run(used=10, real=1)
    stopped = run(GANG.format(style="Soft", used=10, real=1, size=10, queue="a"), until=1_000_000_000)
    [pending] = stopped.trace_result.pending
    assert pending.code == "gang-reserving"
    assert pending.reason == (
        "held by the shim while gang gang places its placeholders: task group workers: 2 of 3 placeholders placed; "
        "tg-gang-workers-2 waits: queue max reached at root.a: {memory: 30} of max {memory: 30} in use, the ask "
        "needs {memory: 10}; at 2s the placeholders time out and YuniKorn resumes it as a plain application"
    )
    assert [s[0] for s in steps(sim)] == ["placeholder", "placeholder", "gang-timeout", "allocate"]


def test_a_preempted_placeholder_is_not_recreated() -> None:
    """Placeholders are ordinary victims (not originators, preemptable); the shim creates no new one, so the gang
    waits for its timeout."""
    sim = run(
        """
        nodes:
          - {name: n1, resources: {memory: 30}}
        applications:
          - id: gang
            queue: root.low
            submitTime: -60s
            placeholderTimeoutInSeconds: 600
            taskGroups:
              - {name: workers, minMember: 4, minResource: {memory: 10}}
            asks:
              - {name: w, count: 4, resources: {memory: 10}, taskGroupName: workers}
          - id: urgent
            queue: root.high
            submitTime: 30s
            asks:
              - {name: u, priority: 100, resources: {memory: 10}, submitTime: -60s}
        """,
        queues="""
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: '*'
                queues:
                  - name: high
                    resources: {guaranteed: {memory: 20}}
                  - name: low
        """,
    )
    kinds = [s[0] for s in steps(sim)]
    assert kinds[:4] == ["placeholder"] * 3 + ["preempt"]
    preempt = sim.trace_result.events[3]
    assert [v.allocation for v in preempt.victims] == ["tg-gang-workers-2"]
    found = gang_of(sim, "gang")
    assert [x.placed for x in found] == [2] and found.shim in (g.RUNNING, g.RESERVING)
    assert kinds[-1] == "allocate" or GANG_TIMEOUT in kinds


def test_placeholder_timeout_counts_from_the_application_creation() -> None:
    """adjustTimeout: the timer is the timeout counted from the application's creation time."""
    sim = run(
        GANG.format(style="Soft", used=10, real=3, size=10, queue="a").replace(
            "id: gang\n", "id: gang\n    submitTime: -1s\n"
        )
    )
    timeout = next(e for e in sim.trace_result.events if e.type == GANG_TIMEOUT)
    assert timeout.time == 1_000_000_000


# -- loading ----------------------------------------------------------------------------------------------------


def test_the_workload_keys() -> None:
    loaded = parse_workload(
        dedent(
            """
            applications:
              - id: a
                gangSchedulingStyle: Hard
                placeholderTimeoutInSeconds: 30
                taskGroups:
                  - {name: tg, minMember: 2, minResource: {vcore: 500m, memory: 1Gi}}
                asks:
                  - {name: x, taskGroupName: tg, resources: {vcore: 500m}}
            """
        )
    )
    assert loaded.problems == []
    [app] = loaded.workload.applications
    assert (app.gang_style, app.placeholder_timeout) == ("Hard", 30_000_000_000)
    [tg] = app.task_groups
    assert (tg.name, tg.min_member, tg.min_resource) == ("tg", 2, {"vcore": 500, "memory": 1073741824})
    assert app.asks[0].task_group == "tg"


def _pod(name: str, second: int, annotations: dict[str, str]) -> dict[str, object]:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            "name": name,
            "namespace": "spark",
            "creationTimestamp": f"2024-01-01T00:00:0{second}Z",
            "labels": {"applicationId": "job-1"},
            "annotations": annotations,
        },
        "spec": {
            "schedulerName": "yunikorn",
            "containers": [{"name": "c", "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}],
        },
    }


def test_the_cluster_annotations() -> None:
    """The shim's annotations: task groups (k8s quantities, plus the pods: 1 of every pod), a pod's task group,
    schedulingPolicyParameters; the application takes them from its first pod."""
    from yk_cli.load.kubernetes import cluster_from_bytes

    groups = [
        {"name": "driver", "minMember": 1, "minResource": {"cpu": "1", "memory": "1Gi"}},
        {"name": "exec", "minMember": 2, "minResource": {"cpu": "500m", "memory": "1Gi"}},
    ]
    driver = {
        "yunikorn.apache.org/task-groups": json.dumps(groups),
        "yunikorn.apache.org/task-group-name": "driver",
        "yunikorn.apache.org/schedulingPolicyParameters": "placeholderTimeoutInSeconds=60 gangSchedulingStyle=Hard",
    }
    node = {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": "n1"},
        "status": {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "110"}},
    }
    items = [_pod("driver", 0, driver), _pod("exec-1", 1, {"yunikorn.apache.org/task-group-name": "exec"}), node]
    text = json.dumps({"apiVersion": "v1", "kind": "List", "items": items})
    workload, _, problems = cluster_from_bytes(text.encode(), "dump.json")
    assert problems == []
    [app] = workload.applications
    assert (app.gang_style, app.placeholder_timeout) == ("Hard", 60_000_000_000)
    assert [(t.name, t.min_member, t.min_resource) for t in app.task_groups] == [
        ("driver", 1, {"pods": 1, "vcore": 1000, "memory": 1073741824}),
        ("exec", 2, {"pods": 1, "vcore": 500, "memory": 1073741824}),
    ]
    assert [a.task_group for a in app.asks] == ["driver", "exec"]


def test_an_unreadable_task_groups_annotation_is_a_warning() -> None:
    from yk_cli.load.kubernetes import cluster_from_bytes

    text = dedent(
        """
        apiVersion: v1
        kind: Pod
        metadata:
          name: p
          annotations: {yunikorn.apache.org/task-groups: '[{"name": "x"}]'}
        spec: {schedulerName: yunikorn, containers: [{name: c}]}
        """
    )
    workload, _, problems = cluster_from_bytes(text.encode(), "dump.yaml")
    assert [(p.rule, p.message) for p in problems if p.rule == "cluster-task-groups"] == [
        (
            "cluster-task-groups",
            "yunikorn.apache.org/task-groups cannot be read (task group x has no minMember of at least 1): no gang "
            "scheduling",
        )
    ]
    assert workload.applications[0].task_groups == ()


# -- invariants -------------------------------------------------------------------------------------------------


@st.composite
def gang_workloads(draw: st.DrawFn) -> str:
    """A crowded cluster with gang and plain applications in two fifo leaves (one with a max)."""
    nodes = draw(st.integers(1, 3))
    lines = ["nodes:"]
    lines += [f"  - {{name: n{i}, resources: {{memory: {draw(st.sampled_from((20, 40, 60)))}}}}}" for i in range(nodes)]
    lines.append("applications:")
    for i in range(draw(st.integers(1, 4))):
        queue = draw(st.sampled_from(("a", "b")))
        submit = draw(st.sampled_from(("0s", "0s", "5s", "-30s")))
        lines += [f"  - id: app{i}", f"    queue: root.{queue}", f"    submitTime: {submit}"]
        asks = []
        if draw(st.booleans()):
            style = draw(st.sampled_from(("Soft", "Hard")))
            timeout = draw(st.sampled_from((1, 5, 60)))
            lines += [
                f"    gangSchedulingStyle: {style}",
                f"    placeholderTimeoutInSeconds: {timeout}",
                "    taskGroups:",
            ]
            for group in range(draw(st.integers(1, 2))):
                members = draw(st.integers(1, 4))
                size = draw(st.sampled_from((5, 10, 15)))
                lines.append(f"      - {{name: g{group}, minMember: {members}, minResource: {{memory: {size}}}}}")
                real = draw(st.integers(0, members + 1))
                real_size = draw(st.sampled_from((size, size, 5, 20)))
                duration = draw(st.sampled_from(("", ", duration: 10s")))
                if real:
                    asks.append(
                        f"      - {{name: g{group}-{i}, count: {real}, resources: {{memory: {real_size}}}, "
                        f"taskGroupName: g{group}{duration}}}"
                    )
        else:
            count = draw(st.integers(1, 3))
            priority = draw(st.integers(0, 20))
            asks.append(f"      - {{name: p{i}, count: {count}, priority: {priority}, resources: {{memory: 10}}}}")
        if asks:
            lines += ["    asks:", *asks]
    return "\n".join(lines) + "\n"


INVARIANT_QUEUES = """
partitions:
  - name: default
    queues:
      - name: root
        submitacl: '*'
        queues:
          - name: a
            resources: {max: {memory: 40}, guaranteed: {memory: 20}}
          - name: b
            resources: {guaranteed: {memory: 20}}
"""


def _held_placeholders(trace: Trace) -> dict[str, list[int]]:
    """Per application, the placement times of its placeholders still allocated at the end."""
    placed: dict[str, tuple[str, int]] = {}
    for e in trace.events:
        if e.type == PLACEHOLDER:
            placed[e.ask] = (e.application, e.time)
        elif e.type == REPLACE:
            placed.pop(e.reason.split("placeholder ")[1].split(" ")[0], None)
        if e.type in (PLACEHOLDER_RELEASE, GANG_TIMEOUT, PREEMPT):
            for v in e.victims:
                placed.pop(v.allocation, None)
    out: dict[str, list[int]] = {}
    for app, time in placed.values():
        out.setdefault(app, []).append(time)
    return out


@settings(max_examples=80)
@given(gang_workloads())
def test_gang_invariants(text: str) -> None:
    sim = run(text, queues=INVARIANT_QUEUES)
    trace: Trace = sim.trace_result
    gangs = sim.state.gang
    by_app = {a.id: x for a, x in (gangs.by_app.items() if gangs is not None else [])}
    # a Hard gang never runs partly: a real pod of it runs only after every task group was placed
    for app_id, found in by_app.items():
        first_real = next(
            (e for e in trace.events if e.application == app_id and e.type in ("allocate", "replace")), None
        )
        if found.style == "Hard" and first_real is not None:
            placed = [e for e in trace.events[: first_real.step] if e.application == app_id and e.type == PLACEHOLDER]
            assert len(placed) >= sum(x.min_member for x in found), text
    # placeholders never outlive their timeout
    for app_id, times in _held_placeholders(trace).items():
        found = by_app[app_id]
        first = min(e.time for e in trace.events if e.application == app_id and e.type == PLACEHOLDER)
        assert trace.summary.end_time < first + found.timeout, text
        assert max(times) >= first
    # the check mode (every preemption retry in full, which never goes idle: up to a fixed time) changes nothing
    partition, tree = _partition(INVARIANT_QUEUES)
    workload = parse_workload(dedent(text), "w.yaml", tree).workload
    until = 200_000_000_000
    fast = simulate(partition, tree, workload, SimulationOptions(until=until))
    checked = Simulation(partition, tree, workload, SimulationOptions(until=until))
    checked.state.every_retry = True
    assert [(e.type, e.ask, e.node, e.time) for e in checked.run().events] == [
        (e.type, e.ask, e.node, e.time) for e in fast.events
    ]
