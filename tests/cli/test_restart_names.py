"""Restarted pods are numbered per pod (the first restart of etl-1 is etl-1.r1, whatever else restarted before), and
a preemption try is dated in words that read naturally (`at 0s, before any step`, `at 30s, after step 2`)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import dedent
from yk_cli.core.sim.trace import PREEMPT

PREEMPTION = ("samples/workloads/queues/preemption.yaml", "samples/workloads/preemption.yaml")

CONFIG = """
partitions:
  - name: default
    queues:
      - name: root
        submitacl: '*'
        queues:
          - name: high
            resources: {guaranteed: {memory: 10}}
            properties: {preemption.delay: 1s}
          - name: low
"""

TWICE = """
nodes:
  - {name: n1, resources: {memory: 10}}
applications:
  - id: web
    queue: root.low
    restartOnPreemption: true
    allocations:
      - {name: x, node: n1, priority: 0, resources: {memory: 10}}
  - id: batch
    queue: root.high
    asks:
      - {name: h1, priority: 100, resources: {memory: 10}, duration: 10s, submitTime: -60s}
      - {name: h2, priority: 100, resources: {memory: 10}, duration: 10s, submitTime: 1m}
"""


def test_the_first_restart_of_each_pod_is_r1(run_yk) -> None:
    result = run_yk("simulate", *PREEMPTION)
    assert result.exit_code == 0, result.stderr
    assert "preempted nightly-etl/etl-2 (root.batch.etl, P10, {memory: 8Gi, vcore: 2}), restarted as etl-2.r1" in (
        result.stdout
    )
    assert "preempted nightly-etl/etl-1 (root.batch.etl, P10, {memory: 8Gi, vcore: 2}), restarted as etl-1.r1" in (
        result.stdout
    )
    assert ".r2" not in result.stdout


def test_a_restarted_pod_preempted_again_counts_on(run_yk, tmp_path: Path) -> None:
    """x.r1, preempted in turn, comes back as x.r2 (not x.r1.r2, not a number shared with other pods)."""
    from yk_cli.commands.simulate import scenario_inputs
    from yk_cli.core.sim.run import simulate

    config, workload = tmp_path / "queues.yaml", tmp_path / "workload.yaml"
    config.write_text(dedent(CONFIG))
    workload.write_text(dedent(TWICE))
    scenario = scenario_inputs(str(config), str(workload), None, quiet=True)
    assert scenario.workload is not None
    trace = simulate(scenario.partition, scenario.tree, scenario.workload)
    restarts = [(v.allocation, v.restarted_as) for e in trace.events if e.type == PREEMPT for v in e.victims]
    assert restarts == [("x", "x.r1"), ("x.r1", "x.r2")]
    story = run_yk("explain", str(config), str(workload), "web/x.r1").stdout
    assert "web/x.r1 (root.low) was preempted at 1m1s (step 5) by batch/h2 (root.high) to free n1." in story


def test_preemption_tries_are_dated_in_words(run_yk) -> None:
    text = run_yk("simulate", *PREEMPTION, "--explain-preemption").stdout
    assert "- at 0s, before any step: api/api-3 (root.prod, P1000) did not fit a queue's headroom" in text
    assert "- at 30s, after step 2: nightly-etl/etl-2.r1 (root.batch.etl, P10)" in text
    assert " after step 0" not in text
    story = run_yk("explain", *PREEMPTION, "report-1").stdout
    assert "- at 0s, before any step, for api/api-3 (P1000): higher-priority: " in story
    assert "- at 30s, after step 2, for nightly-etl/etl-1.r1 (P10): higher-priority: " in story
    assert "after step 0" not in story
