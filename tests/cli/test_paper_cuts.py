"""Issue 22's paper cuts that belong to no larger feature: each one a wrong or misleading word reported once."""

from __future__ import annotations

from yk_cli.load.config import load_config

DELAY_WITH_BAD_GUARANTEE = """\
partitions:
  - name: default
    queues:
      - name: root
        submitacl: '*'
        queues:
          - name: a
            resources:
              guaranteed: {vcore: 2x}
            properties:
              preemption.delay: 30s
"""


def test_a_guarantee_with_a_bad_quantity_is_not_called_no_guarantee() -> None:
    problems = load_config("-", stdin=DELAY_WITH_BAD_GUARANTEE.encode()).problems
    assert [p.rule for p in problems] == ["invalid-quantity"]


def test_a_queue_without_a_guarantee_still_gets_the_warning() -> None:
    text = DELAY_WITH_BAD_GUARANTEE.replace("            resources:\n              guaranteed: {vcore: 2x}\n", "")
    problems = load_config("-", stdin=text.encode()).problems
    assert [p.rule for p in problems] == ["preemption-delay-no-guarantee"]


def test_generate_writes_its_queue_file_with_queues_out_not_config(run_yk, tmp_path) -> None:
    """--config names the project config (.yk.yaml) in every other command."""
    queues, workload = tmp_path / "q.yaml", tmp_path / "w.yaml"
    result = run_yk(
        "generate", "--nodes", "2", "--asks", "4", "--queues-out", str(queues), "--workload-out", str(workload)
    )
    assert result.exit_code == 0 and queues.exists() and workload.exists()
    result = run_yk("generate", "--config", str(queues), "--workload-out", str(workload))
    assert result.exit_code == 2 and "No such option: --config" in result.stderr


def test_usage_lines_name_arguments_in_words(run_yk) -> None:
    """Required arguments bare, optional ones in brackets (not typer's `{CONFIG}`)."""
    expected = {
        ("tree",): "Usage: yk tree [OPTIONS] [CONFIG] [WORKLOAD]",  # CONFIG is optional with --cluster DUMP
        ("diff",): "Usage: yk diff [OPTIONS] OLD NEW [WORKLOAD]",
        ("check",): "Usage: yk check [OPTIONS] POLICY CONFIG [WORKLOAD]",
        ("volcano", "simulate"): "Usage: yk volcano simulate [OPTIONS] DUMP...",
    }
    for command, usage in expected.items():
        result = run_yk(*command, "--help")
        assert result.exit_code == 0
        assert usage in result.stdout, result.stdout[:300]
        assert "{" not in result.stdout.split("Usage:")[1].splitlines()[0]


def test_validate_walks_a_directory_boundedly_and_prunes_hidden_folders(run_yk, tmp_path, monkeypatch) -> None:
    from yk_cli.load import source

    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "bad.yaml").write_text("partitions: [\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "q.yaml").write_text("partitions:\n  - name: default\n    queues:\n      - name: root\n")
    assert source.yaml_files_below(str(tmp_path)) == [str(tmp_path / "sub" / "q.yaml")]
    for i in range(30):
        (tmp_path / f"d{i}").mkdir()
    monkeypatch.setattr(source, "MAX_WALK_ENTRIES", 20)
    monkeypatch.setattr(source.yaml_files_below, "__defaults__", (20,))
    result = run_yk("validate", str(tmp_path), "--format", "json")
    assert result.exit_code == 2
    assert '"message": "more than 20 files and folders below this directory' in result.stdout


def test_a_big_dry_run_on_an_uncompiled_install_says_how_to_compile(run_yk, monkeypatch) -> None:
    from yk_cli import compiled
    from yk_cli.commands import simulate

    args = ("simulate", "samples/queues/tenants.yaml", "samples/workloads/tenants.yaml", "--summary")
    monkeypatch.setattr(simulate, "BIG_RUN", 11)
    monkeypatch.setattr(compiled, "not_compiled", lambda: True)
    result = run_yk(*args)
    assert result.exit_code == 0
    assert result.stderr == (
        "yk: note: 11 asks on the engine in Python (this install compiled nothing): `YK_COMPILE=1 pip install` "
        "compiles it; a dry run is then 1.6-1.7x faster\n"
    )
    assert run_yk(*args, "-q").stderr == ""
    monkeypatch.setattr(compiled, "not_compiled", lambda: False)  # compiled, or Python by choice (YK_PURE_PYTHON)
    assert run_yk(*args).stderr == ""
    monkeypatch.setattr(compiled, "not_compiled", lambda: True)
    monkeypatch.setattr(simulate, "BIG_RUN", 12)
    assert run_yk(*args).stderr == ""
