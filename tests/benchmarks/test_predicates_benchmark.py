"""benchmarks/predicates.py at a tiny size: the two workloads it compares (no timing is asserted)."""

from __future__ import annotations

from pathlib import Path

from benchmarks import predicates
from benchmarks.simulate import Size, without_preemption
from yk_cli.core.workload.generate import generate
from yk_cli.load.workload import parse_workload
from yk_cli.report.generate_yaml import config_yaml, workload_yaml

TINY = Size("tiny", 40, 6, 20, 300)


def test_the_plain_workload_is_the_plain_generated_size() -> None:
    config, workload, shares = predicates.texts(TINY, "plain")
    plain = generate(TINY.options())
    assert config == without_preemption(config_yaml(plain.config), TINY)
    assert workload == workload_yaml(plain.workload)
    assert shares["pods"] == TINY.asks
    assert shares["tainted_nodes"] == shares["constrained_pods"] == shares["spread_pods"] == 0


def test_the_predicates_workload_has_the_issues_shares() -> None:
    config, workload, shares = predicates.texts(TINY, "predicates")
    assert config == predicates.texts(TINY, "plain")[0]
    assert shares["tainted_nodes"] == 1 + round(TINY.nodes * predicates.POOLS.gpu / 100)
    assert abs(100 * shares["constrained_pods"] / shares["pods"] - predicates.CONSTRAINED) <= 5
    assert abs(100 * shares["spread_pods"] / shares["pods"] - predicates.SPREAD) <= 5
    loaded = parse_workload(workload, "<tiny>")
    assert [p.message for p in loaded.problems] == []
    assert sum(1 for node in loaded.workload.nodes if node.taints) == shares["tainted_nodes"]


def test_write_puts_both_workloads_in_folders(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setitem(predicates.SIZES, "tiny", TINY)
    predicates.write(["tiny"], tmp_path)
    for variant in predicates.VARIANTS:
        assert (tmp_path / f"tiny-{variant}" / "queues.yaml").is_file()
        assert (tmp_path / f"tiny-{variant}" / "workload.yaml").is_file()
