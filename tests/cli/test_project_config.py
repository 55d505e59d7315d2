"""The project config (.yk.yaml): where it is found, every key, every way it can be wrong, and the commands it
applies to, end to end through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from tests.conftest import ROOT, dedent, run_program
from yk_cli.core.lint.catalogue import all_rules
from yk_cli.core.lint.project import ignore_pattern
from yk_cli.core.volcano.rules import volcano_rules
from yk_cli.load.project import find_project_config, parse_project_config

# Two warnings of two rules on lines 9 and 10; no error.
QUEUES = dedent(
    """
    partitions:
      - name: default
        queues:
          - name: root
            submitacl: '*'
            queues:
              - name: a
                properties:
                  colour: blue
                  priority.offset: x
    """
)
UNKNOWN = "queues.yaml:9:15: [warning] unknown property"
INVALID = 'queues.yaml:10:32: [warning] priority.offset "x" is not an int32: YuniKorn uses 0 (invalid-property-value)'
WORKLOAD = dedent(
    """
    nodes:
      - {name: node-1, resources: {vcore: 8}}
    applications:
      - id: app-a
        queue: root.a
        asks:
          - {name: a, priority: 1, resources: {vcore: 1}}
    """
)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with queues.yaml and workload.yaml, the working directory of the test; HOME set to it."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "queues.yaml").write_text(QUEUES)
    (tmp_path / "workload.yaml").write_text(WORKLOAD)
    return tmp_path


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dedent(text))
    return path


def lines(text: str) -> list[str]:
    """The problem lines of a text report (no excerpts), and its summary line."""
    return [line for line in text.splitlines() if line and not line.startswith(" ")]


# --- where it is found ---------------------------------------------------------------------------------------------


def test_found_in_the_working_directory_or_a_folder_above(run_yk, project: Path, monkeypatch) -> None:
    write(project / ".yk.yaml", "rules: {unknown-property: disable}")
    deep = project / "a" / "b"
    deep.mkdir(parents=True)
    monkeypatch.chdir(deep)
    result = run_yk("validate", "../../queues.yaml")
    assert result.exit_code == 0
    assert lines(result.stdout) == [
        INVALID.replace("queues.yaml", "../../queues.yaml"),
        "1 file checked: 0 errors, 1 warning",
    ]


def test_the_nearest_config_wins_and_yk_yml_is_read_too(run_yk, project: Path, monkeypatch) -> None:
    write(project / ".yk.yaml", "rules: {unknown-property: disable}")
    write(project / "sub" / ".yk.yml", "rules: {invalid-property-value: disable}")
    monkeypatch.chdir(project / "sub")
    assert lines(run_yk("validate", "../queues.yaml").stdout)[0].startswith("../" + UNKNOWN)


def test_yk_yaml_is_preferred_to_yk_yml_in_one_folder(project: Path) -> None:
    write(project / ".yk.yml", "strict: true")
    write(project / ".yk.yaml", "strict: false")
    assert find_project_config(str(project)) == str(project / ".yk.yaml")


def test_the_search_stops_at_the_home_folder_and_at_the_root(tmp_path: Path) -> None:
    write(tmp_path / ".yk.yaml", "strict: true")
    home = tmp_path / "home"
    (home / "work").mkdir(parents=True)
    assert find_project_config(str(home / "work"), home=str(home)) is None
    assert find_project_config(str(home / "work"), home=str(tmp_path / "elsewhere")) == str(tmp_path / ".yk.yaml")
    write(home / ".yk.yaml", "strict: true")
    assert find_project_config(str(home / "work"), home=str(home)) == str(home / ".yk.yaml")


def test_a_git_folder_does_not_stop_the_search(project: Path) -> None:
    write(project / ".yk.yaml", "strict: true")
    (project / "repo" / ".git").mkdir(parents=True)
    assert find_project_config(str(project / "repo")) == str(project / ".yk.yaml")


def test_config_names_a_file_and_no_config_ignores_every_one(run_yk, project: Path) -> None:
    write(project / ".yk.yaml", "rules: {unknown-property: disable}")
    other = write(project / "ci" / "lint.yaml", "rules: {invalid-property-value: disable}")
    assert lines(run_yk("validate", "queues.yaml").stdout)[0] == INVALID
    assert lines(run_yk("validate", "queues.yaml", "--config", str(other)).stdout)[0].startswith(UNKNOWN)
    assert lines(run_yk("validate", "queues.yaml", "--no-config").stdout)[-1] == "1 file checked: 0 errors, 2 warnings"


def test_a_missing_config_file_and_both_options_are_usage_errors(run_yk, project: Path) -> None:
    result = run_yk("validate", "queues.yaml", "--config", "nope.yaml")
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", "yk: error: nope.yaml: no such file\n")
    result = run_yk("validate", "queues.yaml", "--config", "x.yaml", "--no-config")
    assert (result.exit_code, result.stderr) == (2, "yk: error: --config and --no-config exclude each other\n")
    result = run_yk("validate", "queues.yaml", "--config", str(project))
    assert (result.exit_code, result.stderr) == (2, f"yk: error: {project}: is a directory, not a file\n")


# --- every key -----------------------------------------------------------------------------------------------------


def test_rules_disable_a_warning(run_yk, project: Path) -> None:
    write(project / ".yk.yaml", "rules:\n  unknown-property: disable\n")
    result = run_yk("validate", "queues.yaml", "--format", "json")
    assert result.exit_code == 0
    assert [p["rule"] for p in json.loads(result.stdout)["problems"]] == ["invalid-property-value"]
    assert json.loads(result.stdout)["summary"] == {"files": 1, "errors": 0, "warnings": 1}


def test_rules_raise_a_warning_to_an_error_saying_yunikorn_accepts_it(run_yk, project: Path) -> None:
    write(project / ".yk.yaml", "rules:\n  invalid-property-value: error\n  unknown-property: warning\n")
    result = run_yk("validate", "queues.yaml", "--format", "json")
    assert result.exit_code == 1
    raised = json.loads(result.stdout)["problems"][1]
    assert (raised["rule"], raised["level"]) == ("invalid-property-value", "error")
    assert raised["hint"] == (
        "write a whole number such as 100 or -50 (an error under .yk.yaml; YuniKorn itself accepts this)"
    )
    assert json.loads(result.stdout)["problems"][0]["level"] == "warning"


def test_an_error_rule_may_be_named_as_an_error(run_yk, project: Path) -> None:
    write(project / ".yk.yaml", "rules: {unknown-field: error, yaml-syntax: error}")
    assert run_yk("validate", "queues.yaml").exit_code == 0


def test_strict_is_the_default_of_strict_and_no_strict_overrides_it(run_yk, project: Path) -> None:
    assert run_yk("validate", "queues.yaml").exit_code == 0
    write(project / ".yk.yaml", "strict: true")
    assert run_yk("validate", "queues.yaml").exit_code == 1
    assert run_yk("validate", "queues.yaml", "--no-strict").exit_code == 0
    write(project / ".yk.yaml", "strict: false")
    assert run_yk("validate", "queues.yaml", "--strict").exit_code == 1


def test_policy_group_is_the_default_configmap_key(run_yk, project: Path) -> None:
    configmap = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: yunikorn-configs}\ndata:\n  batch.yaml: |\n"
    configmap += "".join(f"    {line}\n" for line in QUEUES.splitlines())
    write(project / "cm.yaml", configmap)
    assert "no-queue-config" in run_yk("validate", "cm.yaml").stdout
    write(project / ".yk.yaml", "policy-group: batch")
    assert lines(run_yk("validate", "cm.yaml").stdout)[-1] == "1 file checked: 0 errors, 2 warnings"
    assert "no-queue-config" in run_yk("validate", "cm.yaml", "--policy-group", "queues").stdout
    tree = run_yk("tree", "cm.yaml")
    assert (tree.exit_code, tree.stderr) == (0, "2 warnings in cm.yaml: run yk validate cm.yaml\n")


def test_max_size_is_the_default_of_max_size(run_yk, project: Path) -> None:
    write(project / ".yk.yaml", "max-size: 100")
    result = run_yk("validate", "queues.yaml")
    assert lines(result.stdout)[0] == (
        f"queues.yaml:1:1: [error] {len(QUEUES)} bytes is more than the 100 bytes yk reads from a queue config; "
        "Kubernetes stores at most 1 MiB in a ConfigMap (config-too-large)"
    )
    assert run_yk("validate", "queues.yaml", "--max-size", "1KiB").exit_code == 0
    assert run_yk("tree", "queues.yaml").exit_code == 1
    assert run_yk("tree", "queues.yaml", "--no-config").exit_code == 0


# --- a wrong .yk.yaml: every problem with file:line:col, exit 2, nothing checked ------------------------------------


@pytest.mark.parametrize(
    ("text", "messages"),
    [
        (
            "rules: [a\n",
            [
                ".yk.yaml:2:1: YAML syntax error: while parsing a flow sequence expected ',' or ']', "
                "but got '<stream end>'"
            ],
        ),
        (
            "- rules\n",
            [
                ".yk.yaml:1:1: a .yk.yaml is a mapping of settings (rules, ignore, strict, policy-group, "
                "max-size), not !!seq"
            ],
        ),
        (
            "rule: {}\n",
            [
                ".yk.yaml:1:1: unknown key 'rule' (did you mean 'rules'?); a .yk.yaml may set rules, ignore, "
                "strict, policy-group, max-size"
            ],
        ),
        ("strict: true\nstrict: false\n", [".yk.yaml:2:1: 'strict' is given twice (first at line 1)"]),
        (
            "rules:\n  unknown-propety: disable\n",
            [
                ".yk.yaml:2:3: rules: 'unknown-propety' is no yk rule (did you mean "
                "'unknown-property'?); `yk rules` lists them all"
            ],
        ),
        (
            "rules:\n  Unknown_Property: disable\n",
            [
                ".yk.yaml:2:3: rules: 'Unknown_Property' is no yk rule (did you mean "
                "'unknown-property'?); `yk rules` lists them all"
            ],
        ),
        (
            "rules:\n  nothing-like-it-at-all: disable\n",
            [".yk.yaml:2:3: rules: 'nothing-like-it-at-all' is no yk rule; `yk rules` lists them all"],
        ),
        (
            "rules: [unknown-property]\n",
            [".yk.yaml:1:8: rules is a mapping of rule id to disable, warning, error, not !!seq"],
        ),
        (
            "rules: {unknown-property: off}\n",
            [".yk.yaml:1:27: rules: unknown-property: 'off' is not one of disable, warning, error"],
        ),
        (
            "rules: {unknown-property: false}\n",
            [".yk.yaml:1:27: rules: unknown-property: give one of disable, warning, error, not !!bool `false`"],
        ),
        (
            "rules: {unknown-field: disable}\n",
            [
                ".yk.yaml:1:24: rules: unknown-field is an error: YuniKorn refuses a "
                "config that has one, so it cannot be disabled"
            ],
        ),
        (
            "rules: {wrong-type: warning}\n",
            [
                ".yk.yaml:1:21: rules: wrong-type is an error: YuniKorn refuses a config "
                "that has one, so it cannot be lowered to a warning"
            ],
        ),
        ("strict: yes\n", [".yk.yaml:1:9: strict must be true or false, not !!str `yes`"]),
        (
            "ignore: {a: b}\n",
            [".yk.yaml:1:9: ignore is a list of glob patterns (relative to .yk.yaml's folder), not !!map"],
        ),
        ("ignore: [a, 3]\n", [".yk.yaml:1:13: ignore[1] must be a glob pattern such as 'vendor/**', not !!int `3`"]),
        (
            "policy-group: ''\n",
            [
                ".yk.yaml:1:15: policy-group must be a name such as queues (the ConfigMap key "
                "<group>.yaml), not !!str ``"
            ],
        ),
        (
            "max-size: lots\n",
            [".yk.yaml:1:11: max-size must be a size such as 16MiB, 20MB or a number of bytes, not !!str `lots`"],
        ),
        ("strict: true\n---\nstrict: false\n", [".yk.yaml:3:1: a .yk.yaml holds one YAML document"]),
        (
            "max-size: 0\nstrict: 1\nfoo: 2\n",
            [
                ".yk.yaml:1:11: max-size must be a size such as 16MiB, 20MB or a number of bytes, not !!int `0`",
                ".yk.yaml:2:9: strict must be true or false, not !!int `1`",
                ".yk.yaml:3:1: unknown key 'foo'; a .yk.yaml may set rules, ignore, strict, policy-group, max-size",
            ],
        ),
    ],
)
def test_a_wrong_config_is_a_usage_error_with_positions(run_yk, project: Path, text: str, messages: list[str]) -> None:
    (project / ".yk.yaml").write_text(text)
    expected = "".join(f"yk: error: {message}\n" for message in messages)
    for command in (
        ("validate", "queues.yaml"),
        ("tree", "queues.yaml"),
        ("priorities", "queues.yaml", "workload.yaml"),
    ):
        result = run_yk(*command)
        assert (result.exit_code, result.stdout, result.stderr) == (2, "", expected), command


def test_a_wrong_config_stops_simulate_and_explain_too(run_yk, project: Path) -> None:
    write(project / ".yk.yaml", "stirct: true")
    expected = (
        "yk: error: .yk.yaml:1:1: unknown key 'stirct' (did you mean 'strict'?); a .yk.yaml may set rules, ignore, "
        "strict, policy-group, max-size\n"
    )
    for command in (("simulate", "queues.yaml", "workload.yaml"), ("explain", "queues.yaml", "workload.yaml", "a")):
        result = run_yk(*command)
        assert (result.exit_code, result.stdout, result.stderr) == (2, "", expected), command


def test_a_config_that_is_not_utf8_is_a_usage_error(run_yk, project: Path) -> None:
    (project / ".yk.yaml").write_bytes(b"strict: true\n# \xff\n")
    result = run_yk("validate", "queues.yaml")
    assert (result.exit_code, result.stderr) == (
        2,
        "yk: error: .yk.yaml:2:3: invalid UTF-8 byte 0xff: YuniKorn reads queue configs as UTF-8 text\n",
    )


def test_an_empty_config_sets_nothing(run_yk, project: Path) -> None:
    for text in ("", "# nothing yet\n", "~\n", "rules:\nignore:\n"):
        (project / ".yk.yaml").write_text(text)
        assert lines(run_yk("validate", "queues.yaml").stdout)[-1] == "1 file checked: 0 errors, 2 warnings"


# --- ignore --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "matched", "unmatched"),
    [
        ("*.gen.yaml", ["a.gen.yaml", "x/y/a.gen.yaml"], ["a.yaml", "a.gen.yaml.bak"]),
        ("vendor", ["vendor", "vendor/a.yaml", "x/vendor/a.yaml"], ["vendors/a.yaml"]),
        ("vendor/", ["vendor/a.yaml", "x/vendor/b/c.yaml"], ["vendor"]),
        ("/top.yaml", ["top.yaml"], ["x/top.yaml"]),
        ("deploy/*.yaml", ["deploy/a.yaml"], ["deploy/x/a.yaml", "x/deploy/a.yaml"]),
        ("deploy/**/*.yaml", ["deploy/a.yaml", "deploy/x/y/a.yaml"], ["x/deploy/a.yaml"]),
        ("**/test/*.yaml", ["test/a.yaml", "x/y/test/a.yaml"], ["test/x/a.yaml"]),
        ("q?.yaml", ["q1.yaml"], ["q10.yaml", "q/.yaml"]),
        ("q[0-2].yaml", ["q0.yaml", "q2.yaml"], ["q3.yaml"]),
        ("q[!0-2].yaml", ["q3.yaml"], ["q1.yaml"]),
        ("a+b(c).yaml", ["a+b(c).yaml"], ["aab(c).yaml"]),
    ],
)
def test_ignore_patterns_are_gitignore_globs(pattern: str, matched: list[str], unmatched: list[str]) -> None:
    regex = ignore_pattern(pattern).regex
    assert [p for p in matched if not regex.fullmatch(p)] == []
    assert [p for p in unmatched if regex.fullmatch(p)] == []


def test_the_last_matching_pattern_decides() -> None:
    config = parse_project_config("ignore: ['generated/', '!generated/keep.yaml']", ".yk.yaml", "/p")
    assert [config.ignores(p) for p in ("generated/a.yaml", "generated/keep.yaml", "a.yaml")] == [True, False, False]


def test_ignore_skips_files_found_in_folders_and_given_by_name(run_yk, project: Path, monkeypatch) -> None:
    bad = "partitions:\n  - name: default\n    queues:\n      - name: root\n        maxApplications: 3\n"
    write(project / "deploy" / "generated" / "big.yaml", bad)
    write(project / "deploy" / "team.yaml", QUEUES)
    write(project / "deploy" / "old.yaml", bad)
    write(project / ".yk.yaml", "ignore:\n  - deploy/generated/\n  - old.yaml\n")
    result = run_yk("validate", "deploy", "deploy/old.yaml", "--format", "json")
    assert result.exit_code == 0
    out = json.loads(result.stdout)
    assert {p["file"] for p in out["problems"]} == {"deploy/team.yaml"} and out["summary"]["files"] == 1
    monkeypatch.chdir(project / "deploy")  # patterns are relative to the config's folder, not the working directory
    assert run_yk("validate", "generated/big.yaml", "team.yaml").exit_code == 0
    assert run_yk("validate", "generated/big.yaml", "--no-config").exit_code == 1


def test_yamllint_style_ignore_text_one_pattern_a_line(run_yk, project: Path) -> None:
    write(project / ".yk.yaml", "ignore: |\n  # generated by the chart\n  *.gen.yaml\n  queues.yaml\n")
    result = run_yk("validate", "queues.yaml")
    assert (result.exit_code, result.stdout) == (0, "0 files checked: no problems\n")
    assert result.stderr == "yk: note: .yk.yaml ignores every file given: nothing was checked\n"


def test_standard_input_is_never_ignored(run_yk, project: Path) -> None:
    write(project / ".yk.yaml", "ignore: ['*']")
    result = run_yk("validate", "-", input=QUEUES)
    assert lines(result.stdout)[-1] == "1 file checked: 0 errors, 2 warnings"


def test_errors_of_an_ignored_file_still_stop_tree(run_yk, project: Path) -> None:
    write(project / ".yk.yaml", "ignore: [queues.yaml]")
    assert run_yk("tree", "queues.yaml").stderr == ""  # its warnings are not yk validate's business any more
    (project / "queues.yaml").write_text(QUEUES.replace("submitacl", "submitACL"))
    assert run_yk("tree", "queues.yaml").exit_code == 1


# --- with `# yk: disable=` comments --------------------------------------------------------------------------------


def test_comments_still_silence_what_the_project_config_leaves(run_yk, project: Path) -> None:
    (project / "queues.yaml").write_text(QUEUES.replace("colour: blue", "colour: blue  # yk: disable=unknown-property"))
    write(project / ".yk.yaml", "rules: {invalid-property-value: disable}")
    assert run_yk("validate", "queues.yaml").stdout == "1 file checked: no problems\n"


def test_a_comment_silences_a_warning_the_project_raised_to_an_error(run_yk, project: Path) -> None:
    (project / "queues.yaml").write_text(QUEUES.replace("offset: x", "offset: x  # yk: disable=invalid-property-value"))
    write(project / ".yk.yaml", "rules: {invalid-property-value: error}")
    result = run_yk("validate", "queues.yaml")
    assert (result.exit_code, lines(result.stdout)[-1]) == (0, "1 file checked: 0 errors, 1 warning")


def test_comment_typos_are_reported_unless_the_project_disables_unknown_rule(run_yk, project: Path) -> None:
    (project / "queues.yaml").write_text(QUEUES.replace("colour: blue", "colour: blue  # yk: disable=unknown-propety"))
    write(project / ".yk.yaml", "rules: {invalid-property-value: disable}")
    assert [line.rsplit("(", 1)[-1] for line in lines(run_yk("validate", "queues.yaml").stdout)[:-1]] == [
        "unknown-property)",
        "unknown-rule)",
    ]
    write(project / ".yk.yaml", "rules: {invalid-property-value: disable, unknown-rule: disable}")
    assert lines(run_yk("validate", "queues.yaml").stdout)[:-1][0].endswith("(unknown-property)")


# --- tree, priorities, simulate and explain ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ("tree", "queues.yaml"),
        ("tree", "queues.yaml", "-w", "workload.yaml"),
        ("priorities", "queues.yaml", "workload.yaml"),
        ("simulate", "queues.yaml", "workload.yaml"),
        ("explain", "queues.yaml", "workload.yaml", "a"),
    ],
)
def test_disabled_rules_are_not_counted_in_the_warning_line(run_yk, project: Path, args: tuple[str, ...]) -> None:
    assert run_yk(*args).stderr == "2 warnings in queues.yaml: run yk validate queues.yaml\n"
    write(project / ".yk.yaml", "rules: {unknown-property: disable}")
    assert run_yk(*args).stderr == "1 warning in queues.yaml: run yk validate queues.yaml\n"
    write(project / ".yk.yaml", "rules: {unknown-property: disable, invalid-property-value: disable}")
    result = run_yk(*args)
    assert (result.exit_code, result.stderr) == (0, "")
    assert run_yk(*args, "--no-config").stderr == "2 warnings in queues.yaml: run yk validate queues.yaml\n"


def test_a_raised_warning_does_not_stop_tree(run_yk, project: Path) -> None:
    write(project / ".yk.yaml", "rules: {unknown-property: error}")
    assert run_yk("validate", "queues.yaml").exit_code == 1
    result = run_yk("tree", "queues.yaml")
    assert (result.exit_code, result.stderr) == (0, "2 warnings in queues.yaml: run yk validate queues.yaml\n")


def test_workload_rules_can_be_disabled_too(run_yk, project: Path) -> None:
    (project / "workload.yaml").write_text(WORKLOAD.replace("priority: 1,", "priority: 1, priorityClass: gold,"))
    with (project / "workload.yaml").open("a") as out:
        out.write("priorityClasses:\n  - {name: gold, value: 1000}\n")
    args = ("priorities", "queues.yaml", "workload.yaml", "--config", "lint.yaml")
    write(project / "lint.yaml", "rules: {unknown-property: disable, invalid-property-value: disable}")
    assert run_yk(*args).stderr == "1 warning in workload.yaml: workload-priority-mismatch (line 7)\n"
    write(project / "lint.yaml", "rules: {workload-priority-mismatch: disable}")
    assert run_yk(*args).stderr == "2 warnings in queues.yaml: run yk validate queues.yaml\n"


def test_the_fast_paths_take_the_new_options(project: Path) -> None:
    config = write(project / "lint.yaml", "rules: {unknown-property: disable}\nstrict: true\n")
    queues = str(project / "queues.yaml")
    code, out, err = run_program("validate", queues, "--config", str(config))
    assert (code, out.splitlines()[-1], err) == (1, "1 file checked: 0 errors, 1 warning", "")
    assert run_program("validate", queues, "--config", str(config), "--no-strict")[0] == 0
    assert run_program("validate", queues, "--no-config", "--strict")[1].splitlines()[-1].endswith("2 warnings")
    code, out, err = run_program("tree", queues, "--config", str(config), "--set-only")
    assert (code, err) == (0, "1 warning in " + queues + ": run yk validate " + queues + "\n")
    assert out.splitlines()[2] == (
        f"      priority.offset            0          YuniKorn's fallback after a bad value 'x', set here ({queues}:10)"
    )
    code, _, err = run_program("priorities", queues, str(project / "workload.yaml"), "--config", str(config), "-q")
    assert (code, err) == (0, "")
    assert run_program("tree", queues, "--config", "nope.yaml") == (2, "", "yk: error: nope.yaml: no such file\n")


# --- the schema ----------------------------------------------------------------------------------------------------

SCHEMA_PATH = ROOT / "schemas" / "project.schema.json"


def test_yk_schema_project_prints_the_schema(run_yk) -> None:
    result = run_yk("schema", "project")
    assert result.exit_code == 0 and result.stdout == SCHEMA_PATH.read_text(encoding="utf-8")


def test_the_schema_names_every_rule_with_what_it_may_be_set_to() -> None:
    rules = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))["properties"]["rules"]["properties"]
    every = {**all_rules(), **volcano_rules()}  # the rules of yk validate, then those of yk volcano validate
    assert list(rules) == list(every), "a rule was added or removed: update schemas/project.schema.json"
    for rule in every.values():
        allowed = [rules[rule.id]["const"]] if "const" in rules[rule.id] else rules[rule.id]["enum"]
        assert allowed == (["error"] if rule.level == "error" else ["disable", "warning", "error"]), rule.id
        assert rule.summary in rules[rule.id]["description"]


@pytest.mark.parametrize(
    ("text", "valid"),
    [
        ("rules: {unknown-property: disable, no-submit-acl: error}\nignore: [vendor/]\nstrict: true\n", True),
        ("policy-group: batch\nmax-size: 16MiB\nignore: |\n  *.gen.yaml\n", True),
        ("max-size: 4194304\n", True),
        ("", True),
        ("rules: {unknown-field: disable}\n", False),
        ("rules: {unknown-propety: disable}\n", False),
        ("stirct: true\n", False),
        ("max-size: lots\n", False),
    ],
)
def test_the_schema_agrees_with_yk(tmp_path: Path, text: str, valid: bool) -> None:
    from yk_cli.load.project import ProjectConfigError
    from yk_cli.load.source import parse_yaml

    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    document = parse_yaml(text).documents
    data = _plain(document[0]) if document else None
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(data))
    assert (errors == []) is valid
    try:
        parse_project_config(text, ".yk.yaml", str(tmp_path))
    except ProjectConfigError:
        assert not valid
    else:
        assert valid


def _plain(node):  # type: ignore[no-untyped-def]
    if node.kind == "map":
        return {k.text: _plain(v) for k, v in node.pairs}
    if node.kind == "seq":
        return [_plain(item) for item in node.items]
    return node.value
