"""`yk check` dynamic assertions on the dry run: each kind satisfied and broken, with the dry-run step named."""

from __future__ import annotations

from tests.conftest import SAMPLES
from tests.core.assertions.check_helpers import outcomes, partition_of, run_facts, workload_file

PREEMPTION_CONFIG = (SAMPLES / "workloads" / "queues" / "preemption.yaml").read_text()
PRODUCTION_CONFIG = (SAMPLES / "queues" / "production.yaml").read_text()


def _facts(config: str, workload: str):
    return run_facts(partition_of(config), workload_file(str(SAMPLES / "workloads" / workload)))


def _check(config: str, workload: str, assertion: str):
    policy = "assertions:\n  - name: it\n" + "".join(f"    {line}\n" for line in assertion.splitlines())
    return outcomes(config, policy, facts=_facts(config, workload))


def test_cannot_preempt_dynamic_names_the_preempt_step() -> None:
    (found,) = _check(
        PREEMPTION_CONFIG, "preemption.yaml", "cannot-preempt: {from: root.prod, victims: root.batch}\ncheck: dynamic"
    )
    assert not found.passed and found.mode == "dynamic"
    assert found.message == "api/api-3 of root.prod preempted nightly-etl/etl-2 of root.batch.etl at step 1 (0s)"
    assert [e.text for e in found.evidence] == [
        "step 1 at 0s: api/api-3 (P1000, root.prod) preempted 2 pods of root.batch",
        "nightly-etl/etl-2 (root.batch.etl, P10) on node-1",
        "nightly-etl/etl-1 (root.batch.etl, P10) on node-1",
    ]
    assert found.counter_example is not None and found.counter_example["step"] == 1


def test_cannot_preempt_static_and_dynamic_both_hold_for_a_disabled_queue() -> None:
    static, dynamic = _check(
        PREEMPTION_CONFIG, "preemption.yaml", "cannot-preempt: {from: root.prod, victims: root.system}"
    )
    assert (static.mode, static.passed) == ("static", True)
    assert (dynamic.mode, dynamic.passed) == ("dynamic", True)
    assert dynamic.message == "no pod of root.prod preempted a pod of root.system in the dry run (1 preemption in all)"


def test_static_proof_that_fails_while_the_dry_run_shows_nothing() -> None:
    static, dynamic = _check(
        PREEMPTION_CONFIG, "preemption.yaml", "cannot-preempt: {from: root.batch, victims: root.prod}"
    )
    assert not static.passed  # batch is guaranteed: some workload lets it preempt prod
    assert dynamic.passed  # this one does not


def test_starts_within_and_never_pending() -> None:
    (found,) = _check(PREEMPTION_CONFIG, "preemption.yaml", "starts-within: {ask: api-3, time: 1s}")
    assert found.passed
    assert found.message == "every ask of ask api-3 (1) starts within 1s of its arrival (longest wait 0s)"
    (found,) = _check(PREEMPTION_CONFIG, "preemption.yaml", "never-pending: root.batch.etl")
    assert not found.passed
    assert found.message == (
        "nightly-etl/etl-2.r1 of queue root.batch.etl never starts in the dry run (2 never start of 2; wanted at once)"
    )
    assert found.evidence[0].text.startswith("nightly-etl/etl-2.r1 (root.batch.etl) arrived at 0s and never started: ")
    assert found.counter_example is not None and found.counter_example["start"] is None


def test_starts_within_names_the_wait() -> None:
    (found,) = _check(PRODUCTION_CONFIG, "production.yaml", "starts-within: {queue: root.platform, time: 10s}")
    assert not found.passed
    assert found.message == "ingress/ingress-2 of queue root.platform waits 30s (1 start later of 1; wanted within 10s)"
    assert found.evidence[0].text == (
        "ingress/ingress-2 (root.platform) arrived at 0s, started at 30s (step 2): waited 30s"
    )
    assert found.blame == ("partitions", 0, "queues", 0, "queues", 0, "name")
    (found,) = _check(PRODUCTION_CONFIG, "production.yaml", "starts-within: {queue: root.platform, time: 30s}")
    assert found.passed


def test_unknown_application_has_a_did_you_mean() -> None:
    (found,) = _check(PREEMPTION_CONFIG, "preemption.yaml", "starts-within: {application: nightly-etx, time: 1h}")
    assert not found.passed
    assert found.message == "application nightly-etx is not in the dry run (did you mean nightly-etl?)"


def test_outranks_dynamic_on_the_workload_asks() -> None:
    static, dynamic = _check(PRODUCTION_CONFIG, "production.yaml", "outranks: {queue: root.platform, over: root.batch}")
    assert static.passed and dynamic.passed
    assert dynamic.message == (
        "every ask of root.platform (1) outranks every ask of root.batch (1) in the workload (2000 > -100 at root)"
    )
    static, dynamic = _check(PRODUCTION_CONFIG, "production.yaml", "outranks: {queue: root.batch, over: root.platform}")
    assert not dynamic.passed
    assert dynamic.counter_example == {
        "ask": {"application": "ci-builds", "ask": "build-3", "queue": "root.batch.ci", "effective": -100},
        "over": {"application": "ingress", "ask": "ingress-2", "queue": "root.platform", "effective": 2000},
        "comparedAt": "root",
    }
