"""benchmarks/state.py at a tiny size: its dumps read cleanly; --state runs as the files `yk state` writes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from benchmarks import state as bench
from tests.helpers.oracle import oracle_binary
from yk_cli.load.state import read_state

TINY = bench.SIZES["tiny"]
TIMES = re.compile(r"\b(submitTime|startTime): [^,}\s]+")


def _noop(message: str) -> None:
    """A log that drops its messages."""


def _check_dump(folder: Path, how: str) -> None:
    """The dump in folder reads without problems, as the tiny cluster, and both ways of running it agree."""
    dump = folder / "statedump.json"
    loaded = read_state(str(dump))
    assert loaded.config.problems == [] and loaded.workload.problems == []
    workload = loaded.workload.workload
    scenario = json.loads((folder / "scenario.json").read_text(encoding="utf-8"))
    assert len(workload.nodes) == TINY.nodes == len(scenario["nodes"])
    assert len(workload.applications) == TINY.apps
    assert sum(len(app.asks) for app in workload.applications) == TINY.asks == len(scenario["asks"])
    assert sum(len(app.allocations) for app in workload.applications) == len(scenario["allocations"]) > 0
    made = bench.Made(how, 0.0)
    result = bench.measure(TINY, folder, made, runs=1, compare=True, log=_noop)
    assert result.same_events is True
    assert not result.refused
    assert (folder / "files" / "queues.yaml").is_file() and (folder / "files" / "workload.yaml").is_file()
    events = json.loads((folder / "simulate-state.json").read_text(encoding="utf-8"))["events"]
    assert any(event["type"] == "allocate" for event in events)


def test_the_synthesized_dump_reads_cleanly_and_state_equals_the_files_yk_state_writes(tmp_path: Path) -> None:
    made = bench.make_dump(TINY, tmp_path, None, "--synthesize", 60.0, _noop)
    assert (made.how, made.why) == ("synthesized", "--synthesize")
    dump = json.loads((tmp_path / "statedump.json").read_text(encoding="utf-8"))
    real = json.loads((Path(__file__).parents[1] / "data" / "state" / "statedump-preempt.json").read_text())
    assert set(dump) == set(real)
    assert set(dump["config"]) == set(real["config"]) and dump["config"]["Partitions"][0]["Queues"][0]["Parent"]
    _check_dump(tmp_path, "synthesized")


def test_a_synthesized_dump_is_the_same_bytes_run_to_run(tmp_path: Path) -> None:
    bench.make_dump(TINY, tmp_path / "a", None, "", 60.0, _noop)
    bench.make_dump(TINY, tmp_path / "b", None, "", 60.0, _noop)
    assert (tmp_path / "a" / "statedump.json").read_bytes() == (tmp_path / "b" / "statedump.json").read_bytes()


@pytest.mark.skipif(oracle_binary() is None, reason="the oracle (../shared/oracle/bin/simulate) is not built")
def test_the_dump_the_real_core_writes_reads_cleanly_and_gives_the_same_yk_files_as_the_synthesized_one(
    tmp_path: Path,
) -> None:
    binary = oracle_binary()
    assert binary is not None
    made = bench.make_dump(TINY, tmp_path / "oracle", binary, "", 120.0, _noop)
    assert made.how == "oracle" and made.setup_seconds is not None and made.setup_seconds > 0
    _check_dump(tmp_path / "oracle", "oracle")
    bench.make_dump(TINY, tmp_path / "synthesized", None, "", 60.0, _noop)
    bench.measure(TINY, tmp_path / "synthesized", bench.Made("synthesized", 0.0), runs=1, compare=False, log=_noop)
    for name in ("queues.yaml", "workload.yaml"):
        texts = [
            (tmp_path / how / "files" / name).read_text(encoding="utf-8").splitlines()
            for how in ("oracle", "synthesized")
        ]
        # times differ by the second the core's setup took; everything else is the same
        body = [[TIMES.sub(r"\1: T", line) for line in text if not line.startswith("#")] for text in texts]
        assert body[0] == body[1], name


def test_options_default_to_small_and_large_and_a_missing_oracle_means_synthesized(tmp_path: Path) -> None:
    args = bench.parse_args(["--oracle", str(tmp_path / "simulate")])
    assert [size.name for size in args.sizes] == ["small", "large"]
    assert (args.runs, args.keep, args.oracle) == (3, None, None)
    assert f"no oracle binary at {tmp_path / 'simulate'}" in args.oracle_missing
    assert bench.parse_args(["--synthesize"]).oracle is None


@pytest.mark.parametrize("argv", [["--sizes", "huge"], ["--runs", "0"], ["--sizes", ","]])
def test_bad_options_are_usage_errors(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        bench.parse_args(argv)
    assert exit_info.value.code == 2
    assert "error:" in capsys.readouterr().err


def test_the_script_prints_its_table_and_says_how_each_dump_was_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert bench.main(["--sizes", "tiny", "--runs", "1", "--synthesize", "--keep", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "| tiny: 12 nodes, 8 apps, 40 requests" in out and "| synthesized |" in out
    assert "yk simulate --state --until 0s --format json" in out and "read_state (in process)" in out
    assert "dump synthesized in Python (--synthesize)" in out
    assert "same events from --state and from the files `yk state` wrote: yes" in out
    assert (tmp_path / "tiny" / "statedump.json").is_file()
