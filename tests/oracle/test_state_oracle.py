"""`yk simulate --state` against the real YuniKorn core: each conformance case run by the oracle with `-state-dump`,
and yk reading that dump must give the core's trace and yk's own trace of the case's files; the same for the
tests/data/state/rest-* scenarios against the core's run in the same process.

Skipped unless the oracle is built ($YK_ORACLE, else ../shared/oracle/bin/simulate beside the repo). The whole
conformance set (simulate and preempt, 125 cases) runs: about 10 s.

Disagreements are strict xfails with the diagnosis as reason: conformance cases whose outcome depends on
`allowPreemption: false` or `preemptionPolicy: Never`, which the dump does not carry (the stated assumption: every pod
may be preempted and may preempt; `test_the_disagreements_are_the_lost_preemption_policies` shows this alone is the
difference). A gang's placeholderData in either order, and an ask's age just under or over a whole-second
preemption.delay, agree with the core.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from tests.helpers.oracle import ConversionError, oracle_binary, oracle_output, parse_output, to_oracle
from tests.helpers.paths import CONFORMANCE
from tests.helpers.rest_state import STATE
from tests.oracle.conformance import CHECK, observed
from tests.oracle.gang_oracle import canonical_oracle, canonical_yk
from yk_cli.commands.inputs import SchedulerDump
from yk_cli.commands.run_options import options_from
from yk_cli.commands.simulate import simulation_report

BINARY = oracle_binary()
CASES = sorted(
    case for kind in ("simulate", "preempt") if (CONFORMANCE / kind).is_dir() for case in (CONFORMANCE / kind).iterdir()
)
SCENARIOS = sorted(path.parent for path in STATE.glob("rest-*/scenario.json"))
POLICY_FIELDS = ("allowPreemption", "preemptionPolicy")
"""What a workload says about preemption that a state dump cannot (the core's DAOs carry neither)."""

LOST_POLICY = (
    "the dump does not carry allowPreemption: false / preemptionPolicy: Never (stated assumption: every pod may be "
    "preempted and may preempt); yk --state equals yk on the case with those fields removed"
)
DISAGREE = {
    "preempt-10012": LOST_POLICY + " (ask-q1-0 has preemptionPolicy Never: the core leaves it pending, yk preempts "
    "alloc-3 for it)",
    "preempt-10029": LOST_POLICY + " (the core preempts alloc-0 only, yk alloc-0 and alloc-2)",
    "preempt-10030": LOST_POLICY + " (the core preempts alloc-1 only, yk alloc-1 and alloc-3)",
    "preempt-10032": LOST_POLICY + " (the core preempts alloc-25, alloc-26 for ask-q1-0 on node-2, yk alloc-9, "
    "alloc-10 on node-0)",
    "preempt-10036": LOST_POLICY + " (the core preempts alloc-12 then alloc-2, yk alloc-12 and alloc-13 at once)",
    "preempt-10040": LOST_POLICY + " (the core preempts alloc-6 and places ask-q1-2, yk preempts alloc-7 and leaves "
    "ask-q1-2 pending)",
    "preempt-10046": LOST_POLICY + " (the core preempts alloc-1 then alloc-11, yk alloc-7 then alloc-1)",
    "preempt-10049": LOST_POLICY + " (the core preempts nothing, yk alloc-8 and alloc-7 for ask-q0-0/1)",
    "preempt-10059": LOST_POLICY + " (the core preempts alloc-3, alloc-5, yk alloc-4, alloc-5 then alloc-11, alloc-12)",
    "preempt-10066": LOST_POLICY + " (the core preempts alloc-6 then alloc-3, alloc-4, yk alloc-2)",
    "preempt-10073": LOST_POLICY + " (ask-q1-0 has preemptionPolicy Never: the core leaves it pending, yk preempts "
    "alloc-4 for it)",
    "preempt-10074": LOST_POLICY + " (the core preempts nothing, yk alloc-4 and alloc-5 for ask-q0-0)",
}
"""Cases whose trace from the dump differs from the core's, with the diagnosis."""

ORDERS = ("requestTime", "reversed")
"""The two orders the core may write rest-limits-gang's placeholderData in (Go map order): that of the placeholders'
requestTime, and the other one; yk makes the placeholders in requestTime order either way."""

pytestmark = [
    pytest.mark.skipif(BINARY is None, reason="the oracle is not built (set YK_ORACLE, see ../shared/oracle)"),
]

Trace = tuple[list[tuple[Any, ...]], list[str]]


def yk_state_json(dump: Path) -> dict[str, Any]:
    """`yk simulate --state DUMP --until 0s --format json`, in-process, parsed."""
    options = options_from("0s", None, "1.8")
    text = "".join(simulation_report(None, None, "json", options, cluster=SchedulerDump(state=str(dump)), quiet=True))
    data: dict[str, Any] = json.loads(text)
    return data


def trace_of(data: Mapping[str, Any]) -> Trace:
    """A yk JSON report in check.py's `observed` shape: (allocations and victims in order, sorted pending asks)."""
    seq: list[tuple[Any, ...]] = []
    for event in data.get("events", []):
        if event.get("type") == "allocate":
            seq.append(("allocate", event.get("ask"), event.get("node")))
        elif event.get("type") == "preempt":
            seq.extend(("preempt", victim.get("allocation")) for victim in event.get("victims", []))
    return seq, sorted(str(pending.get("ask")) for pending in data.get("pending", []))


def same(got: Trace, want: Trace) -> bool:
    """Equal as check.py compares them: grouped sequences and pending sets."""
    return bool(CHECK.grouped(got[0]) == CHECK.grouped(want[0]) and got[1] == want[1])


def shown(trace: Trace) -> str:
    """A trace for a failure message."""
    return f"{CHECK.grouped(trace[0])} pending {trace[1]}"


def load_workload(case: Path) -> Any:
    """A case's workload.yaml, parsed."""
    return YAML(typ="safe").load((case / "workload.yaml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def dump_of(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Path], Path]:
    """The core's state dump of a conformance case (written once per module); a refused conversion skips."""
    folder = tmp_path_factory.mktemp("dumps")
    made: dict[Path, Path] = {}

    def dump(case: Path) -> Path:
        """Run the oracle on the case with -state-dump; the dump's path."""
        if case not in made:
            assert BINARY is not None
            try:
                scenario = to_oracle((case / "queues.yaml").read_text(encoding="utf-8"), load_workload(case))
            except ConversionError as err:
                pytest.skip(f"the oracle cannot run this case: {err}")
            path = folder / f"{case.name}.json"
            done = oracle_output(BINARY, scenario, extra=("-state-dump", str(path)))
            parse_output(done.stdout, [ask["key"] for ask in scenario["asks"]], scenario["maxSteps"])  # ran whole
            made[case] = path
        return made[case]

    return dump


def case_params() -> list[Any]:
    """Every conformance case, the disagreeing ones strict xfails with their diagnosis."""
    return [
        pytest.param(case, id=case.name, marks=pytest.mark.xfail(strict=True, reason=DISAGREE[case.name]))
        if case.name in DISAGREE
        else pytest.param(case, id=case.name)
        for case in CASES
    ]


@pytest.mark.parametrize("case", case_params())
def test_state_dump_gives_the_cores_trace(case: Path, dump_of: Callable[[Path], Path]) -> None:
    got = trace_of(yk_state_json(dump_of(case)))
    want = CHECK.expected(str(case))
    files = observed(case)
    assert same(got, want), f"{case.name}: the core gave {shown(want)}; yk --state gave {shown(got)}"
    assert same(got, files), f"{case.name}: yk on the files gave {shown(files)}; yk --state gave {shown(got)}"


def without_policies(workload: Any) -> tuple[Any, bool]:
    """The workload with POLICY_FIELDS dropped from every ask and allocation; whether it had any."""
    found = False
    for app in workload.get("applications") or []:
        for key in ("asks", "allocations"):
            for pod in app.get(key) or []:
                for name in POLICY_FIELDS:
                    if name in pod:
                        del pod[name]
                        found = True
    return workload, found


@pytest.mark.parametrize("case", [pytest.param(case, id=case.name) for case in CASES if case.name in DISAGREE])
def test_the_disagreements_are_the_lost_preemption_policies(
    case: Path, dump_of: Callable[[Path], Path], tmp_path: Path
) -> None:
    """Each xfail above is the stated assumption and nothing else: yk --state equals yk on the case's own files with
    allowPreemption and preemptionPolicy removed."""
    workload, found = without_policies(load_workload(case))
    assert found, f"{case.name} sets no preemption policy: the diagnosis is wrong"
    assert not any(priority_class for priority_class in workload.get("priorityClasses") or [])
    (tmp_path / "queues.yaml").write_text((case / "queues.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    text = io.StringIO()
    YAML(typ="safe").dump(workload, text)
    (tmp_path / "workload.yaml").write_text(text.getvalue(), encoding="utf-8")
    got = trace_of(yk_state_json(dump_of(case)))
    stripped = observed(tmp_path)
    assert same(got, stripped), f"{case.name}: stripped files gave {shown(stripped)}; yk --state {shown(got)}"


# -- the rest-* scenarios (their scenario.json is the oracle's input) -------------------------------------------


@pytest.fixture(scope="module")
def scenario_run(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], tuple[Path, str, dict[str, Any]]]:
    """A rest-* scenario run by the oracle with -state-dump (once per module): (dump, the run's JSON lines, the
    scenario)."""
    folder = tmp_path_factory.mktemp("rest")
    made: dict[str, tuple[Path, str, dict[str, Any]]] = {}

    def run(name: str) -> tuple[Path, str, dict[str, Any]]:
        """Run the oracle on tests/data/state/NAME/scenario.json."""
        if name not in made:
            assert BINARY is not None
            scenario = json.loads((STATE / name / "scenario.json").read_text(encoding="utf-8"))
            dump = folder / f"{name}.json"
            done = oracle_output(BINARY, scenario, extra=("-state-dump", str(dump)))
            made[name] = (dump, done.stdout, scenario)
        return made[name]

    return run


def scenario_params() -> list[Any]:
    """(scenario, placeholderData order) for the rest-* scenarios: a gang's in both orders (ORDERS)."""
    out: list[Any] = []
    for name in (folder.name for folder in SCENARIOS):
        scenario = json.loads((STATE / name / "scenario.json").read_text(encoding="utf-8"))
        if not gang_apps(scenario):
            out.append(pytest.param(name, None, id=name))
            continue
        for order in ORDERS:
            out.append(pytest.param(name, order, id=f"{name}-placeholderData-{order}"))
    return out


def placeholder_order(state: dict[str, Any], reverse: bool) -> None:
    """Put each gang's placeholderData in the order of its placeholders' first requestTime (or the reverse)."""
    for app in state["applications"]:
        if not app.get("placeholderData"):
            continue
        first: dict[str, int] = {}
        for request in app.get("requests") or []:
            if request.get("placeholder"):
                group = request["taskGroupName"]
                first[group] = min(first.get(group, request["requestTime"]), request["requestTime"])
        app["placeholderData"].sort(key=lambda data: first[data["taskGroupName"]], reverse=reverse)


def gang_apps(scenario: Mapping[str, Any]) -> set[str]:
    """The scenario's applications with task groups."""
    return {app["id"] for app in scenario.get("apps", []) if app.get("taskGroups")}


@pytest.mark.parametrize(("name", "order"), scenario_params())
def test_state_dump_gives_the_cores_run_of_the_same_process(
    name: str, order: str | None, scenario_run: Callable[[str], tuple[Path, str, dict[str, Any]]], tmp_path: Path
) -> None:
    """yk --state of the dump the core wrote before its first cycle gives the cycles the core then ran: without gangs
    exactly (check.py's grouped form, pending too); with a gang, the placeholders (task group and node) and every
    other allocation and preemption in order, and the other applications' pending asks, leaving out what the dump
    cannot show: the gang's real pods (the shim holds them), their replacements and pending. The gang's
    placeholderData is put in each ORDERS order (the core writes either: a Go map)."""
    dump, lines, scenario = scenario_run(name)
    if order is not None:
        state = json.loads(dump.read_text(encoding="utf-8"))
        placeholder_order(state, order == "reversed")
        dump = tmp_path / "statedump.json"
        dump.write_text(json.dumps(state, indent=1), encoding="utf-8")
    asks = [ask["key"] for ask in scenario.get("asks", [])]
    data = yk_state_json(dump)
    gangs = gang_apps(scenario)
    if not gangs:
        want = parse_output(lines, asks)
        got = trace_of(data)
        assert same(got, want), f"{name}: the core gave {shown(want)}; yk --state gave {shown(got)}"
        return
    got_rest, want_rest, got_plain, want_plain = gang_comparison(data, lines, scenario)
    assert got_rest == want_rest, f"{name}: the core gave {want_rest}; yk --state gave {got_rest}"
    assert got_plain == want_plain, f"{name}: the core left {want_plain} pending; yk --state {got_plain}"


def gang_comparison(data: Mapping[str, Any], lines: str, scenario: Mapping[str, Any]) -> tuple[Any, Any, Any, Any]:
    """yk's and the core's events (placeholders as task group and node) without replacements, and the pending asks
    of applications without task groups: (yk events, core events, yk pending, core pending)."""
    gangs = gang_apps(scenario)
    want_events, want_pending = canonical_oracle(lines, [ask["key"] for ask in scenario["asks"]])
    got_events, _ = canonical_yk(dict(data))
    held = {ask["key"] for ask in scenario["asks"] if ask["app"] in gangs}
    got_plain = sorted(p["ask"] for p in data["pending"] if p["application"] not in gangs)
    return (
        [e for e in got_events if e[0] != "replace"],
        [e for e in want_events if e[0] != "replace"],
        got_plain,
        sorted(set(want_pending) - held),
    )


# -- ages: the dump's times in whole seconds toward its time -----------------------------------------------------



@pytest.mark.parametrize(
    "age",
    [
        pytest.param(60.2, id="60.2s"),
        pytest.param(60.7, id="60.7s"),
    ],
)
def test_an_ask_just_younger_than_the_preemption_delay_does_not_preempt(age: float, tmp_path: Path) -> None:
    """rest-preempt with `preemption.delay: 61s` on root.prod and the asks 60 s old: the core does not preempt in
    its first cycles (the asks are 60.x s old); yk --state of its dump, the dump's time set to when p-0 is `age`
    seconds old, must not either."""
    assert BINARY is not None
    scenario = json.loads((STATE / "rest-preempt" / "scenario.json").read_text(encoding="utf-8"))
    scenario["config"] = scenario["config"].replace("preemption.delay: '10s'", "preemption.delay: '61s'")
    assert "'61s'" in scenario["config"]
    dump = tmp_path / "statedump.json"
    done = oracle_output(BINARY, scenario, extra=("-state-dump", str(dump)))
    seq, _ = parse_output(done.stdout, [ask["key"] for ask in scenario["asks"]])
    if seq != [("allocate", "p-0", "node-1")]:  # its asks 60 s old to the whole second: 61 s by its later cycles
        pytest.skip(f"the core's asks reached 61 s before its cycles ended (wall clock): it gave {seq}")
    state = json.loads(dump.read_text(encoding="utf-8"))
    requests = {r["allocationKey"]: r for app in state["applications"] for r in app.get("requests") or []}
    state["timestamp"] = requests["p-0"]["requestTime"] + int(age * 1e9)
    dump.write_text(json.dumps(state), encoding="utf-8")
    got = trace_of(yk_state_json(dump))
    assert CHECK.grouped(got[0]) == CHECK.grouped(seq), f"yk --state gave {shown(got)}"
