"""What `yk volcano` reads and when it stops (issue 22, items 4, 5, 10 and 13): simulate and explain stop on the
errors `yk volcano validate` reports and sum up warnings in one line; validate checks each file on its own (or the
inputs as one cluster with --one-cluster) and names where the first of a duplicate is; the project config
(.yk.yaml) applies to Volcano mode and knows Volcano's rule ids; explain's trailing names are names, and a dump
directory is walked with hidden folders pruned and a bound."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.conftest import ROOT, dedent
from yk_cli.load.source import InputError

INVALID = "samples/volcano/invalid/cluster.yaml"
CLUSTER = "samples/volcano/cluster.yaml"
SEED = "samples/volcano/seed-example.yaml"
TABLE1 = "samples/volcano/proposal-table1.yaml"
SAMPLES = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "samples" / "volcano").glob("*.yaml"))

QUEUE = "apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\n"
PG = "apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\n"
CONF_WARNING = dedent(
    """
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: priority
      - name: no-such-plugin
    """
)
"""A plain conf with one warning (volcano-unknown-plugin, line 5)."""


@pytest.fixture
def in_root(in_root: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """conftest's `in_root`, with the checkout as HOME too."""
    monkeypatch.setenv("HOME", str(in_root))
    return in_root


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    return tmp_path


# --- item 4: simulate and explain stop on errors, sum up warnings -------------------------------------------------


@pytest.mark.parametrize("command", [("simulate",), ("explain", "data/report-0"), ("explain", "ml/train", "data/etl")])
def test_errors_stop_simulate_and_explain_as_validate_reports_them(run_yk, in_root: None, command: tuple) -> None:
    validate = run_yk("volcano", "validate", INVALID)
    assert validate.exit_code == 1 and validate.stdout.endswith("1 file checked: 8 errors, 6 warnings\n")
    result = run_yk("volcano", command[0], INVALID, *command[1:])
    assert (result.exit_code, result.stdout) == (1, "")
    # every problem, exactly as yk volcano validate prints them (its first line says which conf was checked)
    assert result.stderr == validate.stdout.split("\n", 1)[1]


def test_warnings_get_one_summary_line_naming_the_command_that_prints_them(run_yk, in_root: None) -> None:
    one = run_yk("volcano", "simulate", TABLE1)
    assert one.exit_code == 0
    assert one.stderr == f"3 warnings in {TABLE1}: run yk volcano validate {TABLE1}\n"
    assert run_yk("volcano", "simulate", TABLE1, "-q").stderr == ""
    explained = run_yk("volcano", "explain", CLUSTER, "ml/sweep-17", "etl/quarter-close")
    assert explained.stderr == f"1 warning in {CLUSTER}: run yk volcano validate {CLUSTER}\n"


def test_the_summary_of_several_dumps_and_a_conf(run_yk, folder: Path) -> None:
    Path("a.yaml").write_text(QUEUE + "metadata: {name: a}\nspec: {dequeueStrategy: fifo}\n")
    Path("b.yaml").write_text(PG + "metadata: {name: pg, namespace: ns}\nspec: {queue: a, priorityClassName: x}\n")
    Path("my conf").write_text(CONF_WARNING)
    result = run_yk("volcano", "simulate", "a.yaml", "b.yaml", "--conf", "my conf")
    assert result.exit_code == 0
    assert result.stderr == (
        "1 warning in a.yaml; 1 warning in b.yaml; 1 warning in my conf: "
        "run yk volcano validate --one-cluster a.yaml b.yaml --conf 'my conf'\n"
    )
    stdin = run_yk("volcano", "simulate", "-", input=Path("a.yaml").read_text())
    assert stdin.stderr == "1 warning in <stdin>: run yk volcano validate\n"


def test_a_large_json_dump_keeps_the_fast_path_for_warnings_and_reports_errors_in_full(
    run_yk, folder: Path
) -> None:
    """The fast JSON path runs the same lints: a warning is counted (no position needed), an error hands the dump
    to the full loader, which prints it at its line."""
    from yk_cli.load.volcano_fast import load_volcano_fast

    items = [
        {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "Queue", "metadata": {"name": "a"},
         "spec": {"weight": 1, "dequeueStrategy": "fifo"}},
        {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "PodGroup",
         "metadata": {"name": "pg", "namespace": "ns"}, "spec": {"queue": "a", "minMember": 1}},
    ]
    Path("dump.json").write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": items}, indent=1))
    fast = load_volcano_fast(["dump.json"])
    assert fast is not None
    assert [(p.rule, p.file, p.span) for p in fast.problems] == [("volcano-dequeue-strategy", "dump.json", None)]
    assert run_yk("volcano", "simulate", "dump.json").stderr == (
        "1 warning in dump.json: run yk volcano validate dump.json\n"
    )
    Path("bad.conf").write_text('actions: "enqueue, alocate"\n')  # an error elsewhere: the warning gets its line too
    with_error = run_yk("volcano", "simulate", "dump.json", "--conf", "bad.conf")
    assert with_error.exit_code == 1
    assert "dump.json:13:5: [warning] Queue a: spec.dequeueStrategy `fifo` has no effect" in with_error.stderr
    items[0]["spec"]["weight"] = 0
    Path("dump.json").write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": items}, indent=1))
    assert load_volcano_fast(["dump.json"]) is None
    refused = run_yk("volcano", "simulate", "dump.json")
    assert refused.exit_code == 1
    assert (
        "dump.json:12:15: [error] Queue a: spec.weight 0 is below the CRD minimum of 1: the API server refuses it "
        "(volcano-queue-weight)"
    ) in refused.stderr.splitlines()


def test_a_job_whose_queue_is_missing_is_left_out_with_a_warning_and_a_note(run_yk, folder: Path) -> None:
    """Volcano's snapshot leaves out a job whose queue it does not know: simulate runs without it (a warning, a
    note), on the fast JSON path too."""
    from yk_cli.load.volcano_fast import load_volcano_fast

    items = [
        {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "Queue", "metadata": {"name": "a"}, "spec": {}},
        {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "PodGroup",
         "metadata": {"name": "pg", "namespace": "ns"}, "spec": {"queue": "b", "minMember": 1}},
    ]
    Path("dump.json").write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": items}, indent=1))
    fast = load_volcano_fast(["dump.json"])
    assert fast is not None and [(p.rule, p.level.value) for p in fast.problems] == [
        ("volcano-unknown-queue", "warning")
    ]
    result = run_yk("volcano", "simulate", "dump.json", "-f", "json")
    assert (result.exit_code, result.stderr) == (0, "1 warning in dump.json: run yk volcano validate dump.json\n")
    data = json.loads(result.stdout)
    assert data["jobs"] == [] and data["notes"][0] == "job ns/pg: its queue 'b' does not exist; Volcano ignores the job"
    validate = run_yk("volcano", "validate", "dump.json")
    assert validate.exit_code == 0
    assert (
        "dump.json:21:14: [warning] PodGroup ns/pg: queue `b` is not in the input: Volcano leaves the job out of its "
        "sessions, so it never runs (volcano-unknown-queue)"
    ) in validate.stdout.splitlines()


# --- item 5: validate checks each file on its own ------------------------------------------------------------------


def test_the_bundled_samples_pass_each_file_on_its_own(run_yk, in_root: None) -> None:
    result = run_yk("volcano", "validate", *SAMPLES)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[-1] == f"{len(SAMPLES)} files checked: 0 errors, 4 warnings"
    assert "volcano-duplicate-object" not in result.stdout
    assert result.stdout.splitlines()[: len(SAMPLES)] == [
        f"conf of {CLUSTER}: {CLUSTER} (ConfigMap volcano-scheduler-configmap, data[\"volcano-scheduler.conf\"])",
        *(
            f"conf of {s}: no conf found: Volcano's built-in default (enqueue, allocate, backfill)"
            for s in SAMPLES
            if s != CLUSTER
        ),
    ]
    folder = run_yk("volcano", "validate", "samples/volcano")  # with invalid/: its errors, and only those
    assert folder.exit_code == 1
    assert folder.stdout.splitlines()[-1] == f"{len(SAMPLES) + 1} files checked: 8 errors, 10 warnings"
    assert "volcano-duplicate-object" not in folder.stdout


def test_json_says_which_conf_each_file_was_checked_against(run_yk, in_root: None) -> None:
    data = json.loads(run_yk("volcano", "validate", CLUSTER, SEED, "-f", "json").stdout)
    assert "conf" not in data  # the files were checked against different confs
    assert [(c["file"], c["origin"]) for c in data["confs"]] == [(CLUSTER, "input"), (SEED, "default")]
    same = json.loads(run_yk("volcano", "validate", SEED, TABLE1, "-f", "json").stdout)
    assert same["conf"]["origin"] == "default" and [c["file"] for c in same["confs"]] == [SEED, TABLE1]


def test_conf_applies_to_every_file_and_is_checked_once(run_yk, folder: Path) -> None:
    Path("a.yaml").write_text(QUEUE + "metadata: {name: a}\n")
    Path("b.yaml").write_text(QUEUE + "metadata: {name: b}\n")
    Path("plain.conf").write_text(CONF_WARNING)
    result = run_yk("volcano", "validate", "a.yaml", "b.yaml", "--conf", "plain.conf")
    assert result.exit_code == 0
    assert [line for line in result.stdout.splitlines() if not line.startswith(" ")] == [
        "conf: plain.conf",
        "plain.conf:5:11: [warning] unknown plugin `no-such-plugin` (tier 1, plugin 2): Volcano logs `Failed to get "
        "plugin no-such-plugin` and runs the session without it (volcano-unknown-plugin)",
        "3 files checked: 0 errors, 1 warning",
    ]


def test_one_cluster_reads_the_inputs_together_and_names_the_first_of_a_duplicate(run_yk, in_root: None) -> None:
    result = run_yk("volcano", "validate", "--one-cluster", SEED, "samples/volcano/seed-example-3cpu.yaml")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == (
        "conf: no conf found: Volcano's built-in default (enqueue, allocate, backfill)"
    )
    assert (
        "samples/volcano/seed-example.yaml:8:3: [error] Node node-1 appears again; the first one, at "
        "samples/volcano/seed-example-3cpu.yaml:8:3, is used (volcano-duplicate-object)"
    ) not in result.stdout  # files are read in the order given
    assert (
        "samples/volcano/seed-example-3cpu.yaml:8:3: [error] Node node-1 appears again; the first one, at "
        "samples/volcano/seed-example.yaml:8:3, is used (volcano-duplicate-object)"
    ) in result.stdout.splitlines()


def test_a_duplicate_in_one_file_names_the_first_one_too(run_yk, folder: Path) -> None:
    Path("d.yaml").write_text(QUEUE + "metadata: {name: a}\n---\n" + QUEUE + "metadata: {name: a}\n")
    result = run_yk("volcano", "validate", "d.yaml")
    assert result.stdout.splitlines()[1] == (
        "d.yaml:5:1: [error] Queue a appears again; the first one, at d.yaml:1:1, is used (volcano-duplicate-object)"
    )


# --- item 13: the project config in Volcano mode -------------------------------------------------------------------


def test_a_volcano_rule_is_a_rule_id_of_the_project_config(run_yk, folder: Path) -> None:
    Path("queues.yaml").write_text("partitions:\n  - name: default\n    queues:\n      - name: root\n")
    Path(".yk.yaml").write_text("rules: {volcano-unknown-plugin: disable}\n")
    assert run_yk("validate", "queues.yaml").exit_code == 0
    Path(".yk.yaml").write_text("rules: {volcano-missing-parent: disable}\n")
    refused = run_yk("validate", "queues.yaml")
    assert refused.exit_code == 2
    assert refused.stderr == (
        "yk: error: .yk.yaml:1:33: rules: volcano-missing-parent is an error: Volcano refuses a config that has one, "
        "so it cannot be disabled\n"
    )
    Path(".yk.yaml").write_text("rules: {volcano-unknwon-plugin: disable}\n")
    assert "(did you mean 'volcano-unknown-plugin'?)" in run_yk("validate", "queues.yaml").stderr


def test_project_rules_ignore_and_strict_apply_to_volcano_validate(run_yk, folder: Path) -> None:
    Path("plain.conf").write_text(CONF_WARNING)
    Path("dumps/vendor").mkdir(parents=True)
    Path("dumps/ok.yaml").write_text(QUEUE + "metadata: {name: a}\n")
    Path("dumps/vendor/q.yaml").write_text(QUEUE + "metadata: {name: a}\nspec: {weight: 0}\n")
    assert run_yk("volcano", "validate", "plain.conf").exit_code == 0
    Path(".yk.yaml").write_text("strict: true\n")
    assert run_yk("volcano", "validate", "plain.conf").exit_code == 1
    assert run_yk("volcano", "validate", "plain.conf", "--no-strict").exit_code == 0
    assert run_yk("volcano", "validate", "plain.conf", "--no-config").exit_code == 0
    Path(".yk.yaml").write_text("strict: true\nrules: {volcano-unknown-plugin: disable}\n")
    disabled = run_yk("volcano", "validate", "plain.conf")
    assert (disabled.exit_code, disabled.stdout.splitlines()[-1]) == (0, "1 file checked: no problems")
    Path(".yk.yaml").write_text("rules: {volcano-unknown-plugin: error}\n")
    raised = run_yk("volcano", "validate", "plain.conf", "-f", "json")
    assert raised.exit_code == 1
    (problem,) = json.loads(raised.stdout)["problems"]
    assert problem["level"] == "error"
    assert problem["hint"].endswith("(an error under .yk.yaml; Volcano itself accepts this)")
    Path("other.yml").write_text("ignore: [vendor/]\n")
    ignored = run_yk("volcano", "validate", "dumps", "--config", "other.yml")
    assert (ignored.exit_code, ignored.stdout.splitlines()[-1]) == (0, "1 file checked: no problems")
    assert run_yk("volcano", "validate", "dumps").exit_code == 1  # .yk.yaml ignores nothing: vendor/q.yaml's error
    Path(".yk.yaml").write_text("ignore: ['*.yaml']\n")
    nothing = run_yk("volcano", "validate", "dumps")
    assert nothing.stderr == "yk: note: .yk.yaml ignores every file given: nothing was checked\n"


def test_project_rules_apply_to_the_warning_line_of_simulate_and_explain(run_yk, folder: Path) -> None:
    Path("dump.yaml").write_text(
        QUEUE + "metadata: {name: a}\nspec: {dequeueStrategy: fifo}\n---\n" + PG
        + "metadata: {name: pg, namespace: ns}\nspec: {queue: a}\n---\n" + PG
        + "metadata: {name: pg2, namespace: ns}\nspec: {queue: a}\n"
    )
    assert run_yk("volcano", "simulate", "dump.yaml").stderr.startswith("1 warning in dump.yaml")
    Path(".yk.yaml").write_text("rules: {volcano-dequeue-strategy: disable}\n")
    assert run_yk("volcano", "simulate", "dump.yaml").stderr == ""
    assert run_yk("volcano", "explain", "dump.yaml", "ns/pg", "ns/pg2", "-f", "json").stderr == ""
    assert run_yk("volcano", "simulate", "dump.yaml", "--no-config").stderr.startswith("1 warning in dump.yaml")
    Path(".yk.yaml").write_text("rules: [\n")
    assert run_yk("volcano", "simulate", "dump.yaml").exit_code == 2


# --- item 10: names are names; a dump directory is walked with a bound ---------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((SEED, "/"), "yk: error: '/' is not a job or pod name: give <namespace>/<name> or <name> after the dumps\n"),
        ((SEED, "a1", "../x"), "yk: error: '../x' is not a job or pod name: give <namespace>/<name> or <name> after "
                               "the dumps\n"),
        ((SEED, "samples", "a1-task-0"), None),
    ],
)
def test_trailing_names_are_never_walked(run_yk, in_root: None, args: tuple[str, ...], message: str | None) -> None:
    result = run_yk("volcano", "explain", *args)
    assert result.stdout == ""
    if message is not None:
        assert (result.exit_code, result.stderr) == (2, message)
    else:  # `samples` is a dump directory here (a name comes after it): read, and its errors stop the run
        assert result.exit_code == 1 and "(volcano-not-kubernetes)" in result.stderr


def test_the_walk_is_bounded_and_says_so(run_yk, folder: Path) -> None:
    from yk_cli.load.volcano import dump_files

    for i in range(30):
        (folder / "big" / f"d{i}").mkdir(parents=True)
    with pytest.raises(InputError, match=r"^big: more than 20 files and folders below this directory"):
        dump_files("big", limit=20)
    result = run_yk("volcano", "simulate", "/")
    assert result.exit_code == 2
    assert result.stderr == (
        "yk: error: /: more than 10,000 files and folders below this directory: yk reads a directory of a few "
        "files; name the files instead\n"
    )
    assert run_yk("volcano", "explain", SEED_ABS, "/", "a1-task-0").stderr == result.stderr


SEED_ABS = str(ROOT / SEED)


def test_hidden_folders_are_pruned_and_links_to_folders_not_followed(folder: Path) -> None:
    from yk_cli.load.volcano import dump_files

    (folder / "d" / ".git" / "objects").mkdir(parents=True)
    (folder / "d" / ".git" / "objects" / "x.yaml").write_text("a: [\n")
    (folder / "d" / "sub").mkdir()
    (folder / "d" / "sub" / "b.yaml").write_text("")
    (folder / "d" / "a.yml").write_text("")
    (folder / "d" / ".hidden.yaml").write_text("")
    (folder / "d" / "notes.txt").write_text("")
    os.symlink(folder / "d", folder / "d" / "sub" / "loop")
    assert dump_files("d") == ["d/a.yml", "d/sub/b.yaml"]
    assert dump_files("./d/") == ["d/a.yml", "d/sub/b.yaml"]
    (folder / "empty").mkdir()
    with pytest.raises(InputError, match=r"^empty: no \*\.yaml or \*\.yml files in this directory$"):
        dump_files("empty")
    with pytest.raises(InputError, match=r"^missing: no such file$"):
        dump_files("missing")


def test_the_usage_line_says_what_comes_where(run_yk) -> None:
    assert "Usage: yk volcano explain [OPTIONS] DUMP... X [Y]" in run_yk("volcano", "explain", "-h").stdout
    missing = run_yk("volcano", "explain")
    assert missing.exit_code == 2
    assert missing.stderr.startswith("Usage: yk volcano explain [OPTIONS] DUMP... X [Y]\n")


def test_a_conf_from_standard_input_applies_to_every_file(run_yk, folder: Path) -> None:
    Path("a.yaml").write_text(QUEUE + "metadata: {name: a}\n")
    Path("b.yaml").write_text(QUEUE + "metadata: {name: b}\n")
    result = run_yk("volcano", "validate", "a.yaml", "b.yaml", "--conf", "-", "-f", "json", input=CONF_WARNING)
    data = json.loads(result.stdout)
    assert data["conf"] == {"origin": "option", "source": "<stdin>", "loaded": True}
    assert [(p["file"], p["rule"]) for p in data["problems"]] == [("<stdin>", "volcano-unknown-plugin")]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_a_pipe_is_read_once(folder: Path) -> None:
    """`yk volcano simulate <(kubectl get ... -o json)`: the fast path must not read the pipe and give up."""
    import threading

    from yk_cli.load.volcano import load_volcano
    from yk_cli.load.volcano_fast import load_volcano_fast

    os.mkfifo("pipe")
    text = (ROOT / SEED).read_text()
    writer = threading.Thread(target=lambda: Path("pipe").write_text(text))
    writer.start()
    assert load_volcano_fast(["pipe"]) is None
    writer.join(0.2)
    assert writer.is_alive(), "the fast path read the pipe: load_volcano would find it empty"
    loaded = load_volcano(["pipe"])
    writer.join()
    assert len(loaded.cluster.pod_groups) == 4


@pytest.mark.parametrize("fmt", ["json", "github", "sarif"])
def test_machine_readable_reports_name_every_input_left_out(run_yk, folder: Path, fmt: str) -> None:
    """As `yk validate` does (issue 22, item 6): a missing input is an input-error problem in the document, exit 2."""
    Path("a.yaml").write_text(QUEUE + "metadata: {name: a}\n")
    for args in (("missing.yaml",), ("a.yaml", "missing.yaml"), ("a.yaml", "--conf", "nope.conf")):
        result = run_yk("volcano", "validate", *args, "-f", fmt)
        assert result.exit_code == 2, args
        missing = "nope.conf" if "nope.conf" in args else "missing.yaml"
        assert result.stderr == f"yk: error: {missing}: no such file\n"
        if fmt == "json":
            (problem,) = json.loads(result.stdout)["problems"]
            assert (problem["file"], problem["rule"], problem["message"]) == (missing, "input-error", "no such file")
        elif fmt == "sarif":
            (found,) = json.loads(result.stdout)["runs"][0]["results"]
            assert found["ruleId"] == "input-error"
        else:
            assert f"::error file={missing},line=1,col=1,endLine=1,endColumn=2,title=input-error::" in result.stdout
    text = run_yk("volcano", "validate", "missing.yaml")
    assert (text.exit_code, text.stdout) == (2, "")
