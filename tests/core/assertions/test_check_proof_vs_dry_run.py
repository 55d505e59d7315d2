"""A static `cannot-preempt` proof is never contradicted by the dry run of a random workload within the declared
priority range: random queue trees (offsets, priority fences, preemption fences, disabled, guarantees) and random
full clusters with pending asks, every pair of queues."""

from __future__ import annotations

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.core.assertions.check_helpers import partition_of, run_facts
from yk_cli.core.assertions.model import CANNOT_PREEMPT, STATIC, Assertion, PriorityRange
from yk_cli.core.assertions.scope import Scope
from yk_cli.core.assertions.static import check_static
from yk_cli.core.diagnostics import Span
from yk_cli.core.sim.trace import PREEMPT
from yk_cli.core.workload.model import Allocation, Application, Ask, NodeSpec, Workload

LOW, HIGH = 0, 100
NODE_VCORE = 8
MILLI = 1000
SPAN = Span(1, 1, 1, 2)

offsets = st.sampled_from([0, 0, 0, -150, -60, 40, 120])
leaf_settings = st.fixed_dictionaries(
    {
        "offset": offsets,
        "pfence": st.booleans(),
        "preemption": st.sampled_from(["default", "default", "default", "fence", "disabled"]),
        "guarantee": st.sampled_from([0, 4, 8, 16]),
    }
)
parent_settings = st.fixed_dictionaries(
    {
        "offset": offsets,
        "pfence": st.booleans(),
        "preemption": st.sampled_from(["default", "default", "fence", "disabled"]),
        "guarantee": st.sampled_from([0, 100]),
        "children": st.lists(leaf_settings, min_size=1, max_size=3),
    }
)
trees = st.lists(st.one_of(leaf_settings, parent_settings), min_size=2, max_size=4)


def _queue_yaml(name: str, settings_: dict, indent: int) -> list[str]:
    pad = " " * indent
    out = [f"{pad}- name: {name}"]
    props = []
    if settings_["offset"]:
        props.append(f'{pad}    priority.offset: "{settings_["offset"]}"')
    if settings_["pfence"]:
        props.append(f"{pad}    priority.policy: fence")
    if settings_["preemption"] != "default":
        props.append(f"{pad}    preemption.policy: {settings_['preemption']}")
    if props:
        out += [f"{pad}  properties:", *props]
    if settings_["guarantee"]:
        out += [f"{pad}  resources:", f"{pad}    guaranteed: {{vcore: {settings_['guarantee']}}}"]
    children = settings_.get("children")
    if children:
        out.append(f"{pad}  queues:")
        for i, child in enumerate(children):
            out += _queue_yaml(f"{name}-{i}", child, indent + 4)
    return out


def _config(tree: list[dict]) -> str:
    lines = [
        "partitions:",
        "  - name: default",
        "    queues:",
        "      - name: root",
        "        submitacl: '*'",
        "        queues:",
    ]
    for i, top in enumerate(tree):
        lines += _queue_yaml(f"q{i}", top, 10)
    return "\n".join(lines) + "\n"


def _leaves(tree: list[dict]) -> list[str]:
    out = []
    for i, top in enumerate(tree):
        if top.get("children"):
            out += [f"root.q{i}.q{i}-{j}" for j in range(len(top["children"]))]
        else:
            out.append(f"root.q{i}")
    return out


@st.composite
def scenarios(draw: st.DrawFn) -> tuple[str, Workload]:
    tree = draw(trees)
    leaves = _leaves(tree)
    node_count = draw(st.integers(1, 3))
    nodes = tuple(NodeSpec(f"node-{n}", {"vcore": NODE_VCORE * MILLI}) for n in range(node_count))
    apps: list[Application] = []
    seq = 0
    for n in range(node_count):  # fill every node with running pods of random queues and priorities
        free = NODE_VCORE
        while free > 0:
            size = min(free, draw(st.integers(1, 4)))
            free -= size
            leaf = draw(st.sampled_from(leaves))
            seq += 1
            alloc = Allocation(
                f"run-{seq}",
                f"app-{seq}",
                f"node-{n}",
                draw(st.integers(LOW, HIGH)),
                {"vcore": size * MILLI},
                start_time=-draw(st.integers(1, 600)) * 10**9,
                seq=seq,
            )
            apps.append(Application(f"app-{seq}", leaf, -(10**12), seq, allocations=(alloc,)))
    for _ in range(draw(st.integers(2, 8))):  # pending asks that will wait past preemption.delay
        seq += 1
        ask = Ask(
            f"ask-{seq}",
            f"app-{seq}",
            draw(st.integers(LOW, HIGH)),
            {"vcore": draw(st.integers(1, 4)) * MILLI},
            submit_time=draw(st.sampled_from([0, 0, 10, 40])) * 10**9,
            seq=seq,
            duration=draw(st.sampled_from([None, 60 * 10**9])),
        )
        apps.append(Application(f"app-{seq}", draw(st.sampled_from(leaves)), 0, seq, asks=(ask,)))
    return _config(tree), Workload(nodes=nodes, applications=tuple(apps))


def _under(path: str, queue: str) -> bool:
    return path == queue or path.startswith(queue + ".")


@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(scenarios())
def test_static_cannot_preempt_is_never_contradicted_by_a_dry_run(scenario: tuple[str, Workload]) -> None:
    config, workload = scenario
    partition = partition_of(config)
    facts = run_facts(partition, workload)
    preemptions = [
        (event.queue_path, victim.queue_path, event.step)
        for event in facts.trace.events
        if event.type == PREEMPT
        for victim in event.victims
    ]
    event("the dry run preempts" if preemptions else "the dry run does not preempt")
    scope = Scope.of(partition, PriorityRange(LOW, HIGH, "test"))
    queues = [path for path in scope.tree.queues if path != "root"]
    for source in queues:
        for victims in queues:
            assertion = Assertion("p", CANNOT_PREEMPT, SPAN, queue=source, other=victims)
            outcome = check_static(scope, assertion)
            assert outcome.mode == STATIC
            if not outcome.passed:
                continue
            contradicted = [(a, v, s) for a, v, s in preemptions if _under(a, source) and _under(v, victims)]
            assert not contradicted, (source, victims, contradicted, [e.text for e in outcome.evidence], config)


def test_the_generator_makes_preemptions_happen() -> None:
    """The property above is not vacuous: this fixed scenario from the same generator's shape preempts, and the
    static check refuses to prove the pair that the dry run shows."""
    config = _config(
        [
            {"offset": 0, "pfence": False, "preemption": "default", "guarantee": 8},
            {"offset": 0, "pfence": False, "preemption": "default", "guarantee": 0},
        ]
    )
    running = tuple(
        Application(
            f"run-{i}",
            "root.q1",
            -(10**12),
            i,
            allocations=(
                Allocation(f"r-{i}", f"run-{i}", "node-0", 10, {"vcore": 2 * MILLI}, start_time=-i * 10**9, seq=i),
            ),
        )
        for i in range(4)
    )
    asking = Application("ask", "root.q0", 0, 9, asks=(Ask("a", "ask", 50, {"vcore": 2 * MILLI}, 0, 9),))
    workload = Workload(nodes=(NodeSpec("node-0", {"vcore": NODE_VCORE * MILLI}),), applications=(*running, asking))
    partition = partition_of(config)
    facts = run_facts(partition, workload)
    assert any(e.type == PREEMPT for e in facts.trace.events)
    scope = Scope.of(partition, PriorityRange(LOW, HIGH, "test"))
    assert not check_static(scope, Assertion("p", CANNOT_PREEMPT, SPAN, queue="root.q0", other="root.q1")).passed
