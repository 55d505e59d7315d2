"""benchmarks/vs_core.py at a tiny size, without the real core: its options, the inputs it writes, the count check.

No timing is asserted: the benchmark's figures are its own business; these tests check that both sides get the
same scenario and that a disagreement in the counts is caught.
"""

from __future__ import annotations

import hashlib
import json
import stat
import sys
from pathlib import Path

import pytest

from benchmarks import vs_core
from benchmarks.simulate import Size
from yk_cli.core.config.properties import parse_go_duration
from yk_cli.load.yamlreader import read_plain

TINY = Size("tiny", 12, 4, 8, 40)


def _age(value: str) -> int:
    nanos = parse_go_duration(value)
    assert nanos is not None
    return -nanos // 10**9


def test_options_default_to_the_eight_workloads_all_cores_and_say_how_to_build_a_missing_core(tmp_path: Path) -> None:
    args = vs_core.parse_args(["--core", str(tmp_path / "simulate")])
    assert [size.name for size in args.sizes] == [
        "10k", "50k", "150k", "preempt", "10k-exact", "plain-10k", "plain-50k", "plain-150k"
    ]
    assert (args.runs, args.procs, args.keep, args.validate_runs) == (3, 0, None, 10)
    assert args.core is None
    assert f"no core binary at {tmp_path / 'simulate'}" in args.core_missing
    assert "build.sh" in args.core_missing and "--core PATH" in args.core_missing


@pytest.mark.parametrize("argv", [["--sizes", "20k"], ["--runs", "0"], ["--procs", "-1"], ["--sizes", ","]])
def test_bad_options_are_usage_errors(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        vs_core.parse_args(argv)
    assert exit_info.value.code == 2
    assert "error:" in capsys.readouterr().err


def test_a_generated_workload_is_written_for_both_sides_with_every_ask_pending_at_the_start(tmp_path: Path) -> None:
    inputs = vs_core.write_inputs(TINY, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "queues.yaml",
        "scenario.json",
        "workload.json",
        "workload.yaml",
    ]
    assert (inputs.asks, inputs.nodes) == (40, 12)
    plain, from_yaml = read_plain(inputs.workload["yaml"].read_text(encoding="utf-8"))
    assert plain and from_yaml == json.loads(inputs.workload["json"].read_text(encoding="utf-8"))
    config = inputs.queues.read_text(encoding="utf-8")
    assert "    preemption: {enabled: false}\n" in config
    asks = [ask for app in from_yaml["applications"] for ask in app["asks"]]
    assert len(asks) == 40 and not any("duration" in ask for ask in asks)
    assert not any("schedulable" in node for node in from_yaml["nodes"])
    ages = [_age(ask["submitTime"]) for ask in asks] + [_age(app["submitTime"]) for app in from_yaml["applications"]]
    assert min(ages) == vs_core.MIN_AGE_S
    scenario = json.loads(inputs.scenario.read_text(encoding="utf-8"))
    assert scenario["config"] == config
    assert [ask["key"] for ask in scenario["asks"]] == [ask["name"] for ask in asks]
    assert min(ask["ageSeconds"] for ask in scenario["asks"]) == vs_core.MIN_AGE_S
    assert len(scenario["nodes"]) == 12 and scenario["allocations"] == []


def test_the_preempt_workload_keeps_its_running_allocations_and_old_asks(tmp_path: Path) -> None:
    inputs = vs_core.write_inputs(vs_core.SIZES["preempt-100"], tmp_path)
    scenario = json.loads(inputs.scenario.read_text(encoding="utf-8"))
    assert (inputs.asks, inputs.nodes, len(scenario["allocations"])) == (500, 100, 400)
    assert {ask["ageSeconds"] for ask in scenario["asks"]} == {60}
    assert {ask["priority"] for ask in scenario["asks"]} == {1000}
    assert "preemption" not in scenario["config"]


def _fake_core(path: Path, summary: dict[str, int]) -> Path:
    line = json.dumps({"type": "summary", **summary, "rejected": 0})
    path.write_text(f"#!{sys.executable}\nprint({line!r})\n", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_without_the_core_yk_runs_alone_and_its_four_variants_agree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(vs_core.SIZES, "tiny", TINY)
    argv = ["--sizes", "tiny", "--runs", "1", "--validate-runs", "0", "--keep", str(tmp_path)]
    assert vs_core.main([*argv, "--core", str(tmp_path / "missing")]) == 0
    out, err = capsys.readouterr()
    assert "core: not run: no core binary at" in out
    assert "the core is not run" in err
    rows = [line for line in out.splitlines() if line.startswith("| tiny |")]
    assert len(rows) == 2 and rows[0].endswith(" | not run | - |")
    output = tmp_path / "tiny" / "yk-json-json.out"
    summary = json.loads(output.read_text(encoding="utf-8"))["summary"]
    assert summary["asks"] == 40
    assert f"| {summary['allocations']} / 0 / {summary['pending']} |" in rows[0]
    assert "MISMATCH" not in out
    # the output names its inputs relative to their folder: its digest does not depend on where the folder is
    assert json.loads(output.read_text(encoding="utf-8"))["source"] == "queues.yaml + workload.json"
    text_digest = hashlib.sha256((tmp_path / "tiny" / "yk-yaml-text.out").read_bytes()).hexdigest()
    assert rows[1] == f"| tiny | yaml -> text | {text_digest} |"
    digests = out.split("| sha256 of the output (every run the same) |")[1]
    assert hashlib.sha256(output.read_bytes()).hexdigest() in digests


def test_a_core_past_its_timeout_is_stopped_once_and_its_figures_are_floors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(vs_core.SIZES, "tiny", TINY)
    core = tmp_path / "core"
    core.write_text(f"#!{sys.executable}\nimport time\ntime.sleep(60)\n", encoding="utf-8")
    core.chmod(core.stat().st_mode | stat.S_IXUSR)
    argv = ["--sizes", "tiny", "--runs", "2", "--validate-runs", "0", "--core", str(core), "--core-timeout", "0.5"]
    assert vs_core.main(argv) == 0
    out, err = capsys.readouterr()
    assert err.count("core: stopped after") == 1
    rows = [line for line in out.splitlines() if line.startswith("| tiny: 40 asks")]
    assert rows and "| > 0.5" in rows[0] and "x | > " in rows[0]
    assert "not finished in 1 s" in out or "not finished in 0 s" in out


def test_a_core_that_disagrees_is_a_loud_mismatch_and_exit_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(vs_core.SIZES, "tiny", TINY)
    core = _fake_core(tmp_path / "core", {"allocations": 0, "preemptions": 0, "pending": 40})
    keep = tmp_path / "inputs"
    argv = ["--sizes", "tiny", "--runs", "1", "--validate-runs", "0", "--keep", str(keep), "--core", str(core)]
    assert vs_core.main(argv) == 1
    out = capsys.readouterr().out
    assert f"!!! MISMATCH on tiny (inputs kept in {keep / 'tiny'}):" in out
    assert "the core with 0 / 0 / 40" in out
    assert "| tiny | " in out and "| 0 / 0 / 40 | MISMATCH |" in out
    assert "FAIL (" in out and "counts)" in out
    assert (keep / "tiny" / "scenario.json").is_file()


def test_an_order_free_workload_has_one_ask_shape_one_node_shape_and_no_maxapplications(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(vs_core.ORDER_FREE, "small-exact", "small")
    plain_inputs = vs_core.write_inputs(Size("small", 20, 10, 40, 120), tmp_path / "plain")
    inputs = vs_core.write_inputs(Size("small-exact", 20, 10, 40, 120), tmp_path / "exact")
    assert "maxapplications" in plain_inputs.queues.read_text(encoding="utf-8")
    config = inputs.queues.read_text(encoding="utf-8")
    assert "maxapplications" not in config
    assert config.replace("\n", "") == "".join(
        line for line in plain_inputs.queues.read_text(encoding="utf-8").splitlines() if "maxapplications" not in line
    )
    workload = json.loads(inputs.workload["json"].read_text(encoding="utf-8"))
    plain = json.loads(plain_inputs.workload["json"].read_text(encoding="utf-8"))
    assert {json.dumps(node["resources"]) for node in workload["nodes"]} == {json.dumps(vs_core.UNIFORM_NODE)}
    asks = [ask for app in workload["applications"] for ask in app["asks"]]
    assert {json.dumps(ask["resources"]) for ask in asks} == {json.dumps(vs_core.UNIFORM_ASK)}
    for app in (*workload["applications"], *plain["applications"]):
        for ask in app["asks"]:
            del ask["resources"]
    assert workload["applications"] == plain["applications"]  # names, times, priorities, queues: the same
    scenario = json.loads(inputs.scenario.read_text(encoding="utf-8"))
    assert {json.dumps(ask["resources"], sort_keys=True) for ask in scenario["asks"]} == {
        json.dumps({"memory": 4 * 1024**3, "pods": 1, "vcore": 1000}, sort_keys=True)
    }


def test_on_a_size_where_ties_decide_a_count_that_differs_is_a_note_not_a_mismatch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(vs_core.SIZES, "tiny", TINY)
    monkeypatch.setattr(vs_core, "TIES_DECIDE", frozenset({"tiny"}))
    core = _fake_core(tmp_path / "core", {"allocations": 0, "preemptions": 0, "pending": 40})
    keep = str(tmp_path / "inputs")
    argv = ["--sizes", "tiny", "--runs", "1", "--validate-runs", "0", "--keep", keep, "--core", str(core)]
    assert vs_core.main(argv) == 0
    out = capsys.readouterr().out
    assert "MISMATCH" not in out and "| 0 / 0 / 40 | differs (ties) |" in out
    assert "note on tiny: yk ends with " in out and "ordered by Go map iteration (not a mismatch)" in out
