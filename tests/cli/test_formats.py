"""`yk validate` output formats: exact golden output, escaping, SARIF validity, format selection and exit codes."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import jsonschema
import pytest

from tests.conftest import SAMPLES, dedent
from tests.helpers import paths
from tests.helpers.golden import check_golden
from yk_cli.commands.validate import fast_path, run_validate
from yk_cli.core.diagnostics import Level, Problem, Span
from yk_cli.core.lint.catalogue import all_rules
from yk_cli.core.lint.loader_rules import LOADER_RULES
from yk_cli.load.config import load_config
from yk_cli.report import github, sarif
from yk_cli.report.problems import FORMATS, render_problems

SARIF_SCHEMA = json.loads((paths.DATA / "sarif-schema-2.1.0.json").read_text())
ANSI = re.compile(r"\x1b\[[0-9;]*m")

QUEUES = dedent(
    """
    partitions:
      - name: default
        queues:
          - name: root
            submitacl: "*"
            queues:
              - name: batch
                maxApplications: 10
                parent: "true"
              - name: web
                resources:
                  guaranteed: {vcore: 1}
                  guaranteed: {vcore: 2}
        max%apps: 3
    """
)
CONFIGMAPS = dedent(
    """
    apiVersion: v1
    kind: List
    items:
      - apiVersion: v1
        kind: ConfigMap
        metadata:
          name: yunikorn-configs
        data:
          queues.yaml: |
            partitions:
              - name: default
                queues:
                  - name: root
                    submitacl: "*"
            ---
            partitions: []
      - apiVersion: v1
        kind: ConfigMap
        metadata:
          name: yunikorn-defaults
        data:
          log.level: INFO
    """
)
INPUTS = {"queues.yaml": QUEUES, "configs/yunikorn.yaml": CONFIGMAPS}
DEFAULTS_ONLY = dedent(
    """
    apiVersion: v1
    kind: ConfigMap
    metadata:
      name: yunikorn-defaults
    data:
      log.level: INFO
    """
)
CLEAN = (SAMPLES / "queues" / "tenants.yaml").read_text()
"""A valid sample without any problem (tests/core/lint/test_samples.py keeps it so)."""


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A current directory holding the two-file input (relative names make every output fixed)."""
    for name, text in INPUTS.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def loader_problems() -> tuple[list[Problem], dict[str, str]]:
    """The loader's problems of the two-file input (semantic checks off, so new check rules cannot change them)."""
    problems: list[Problem] = []
    texts: dict[str, str] = {}
    for name in INPUTS:
        result = load_config(name, check=False)
        problems.extend(result.problems)
        texts[result.file] = result.text
    problems.sort(key=Problem.sort_key)
    return problems, texts


def render(fmt: str, workdir: Path, **options: object) -> str:
    problems, texts = loader_problems()
    return render_problems(fmt, problems, texts, 2, base=str(workdir), version="9.9.9", **options)  # type: ignore[arg-type]


def test_the_input_has_errors_and_warnings_from_both_files(workdir: Path) -> None:
    problems, _ = loader_problems()
    assert {(p.file, p.level) for p in problems} == {
        ("queues.yaml", Level.ERROR),
        ("configs/yunikorn.yaml", Level.WARNING),
    }
    assert {p.rule for p in problems} == {
        "unknown-field",
        "wrong-type",
        "duplicate-key",
        "ignored-document",
        "no-queue-config",
    }


@pytest.mark.parametrize(("fmt", "golden"), [("text", "validate_text.txt"), ("json", "validate_json.json")])
def test_golden_text_and_json(workdir: Path, fmt: str, golden: str) -> None:
    check_golden(golden, render(fmt, workdir))


def test_golden_github(workdir: Path) -> None:
    check_golden("validate_github.txt", render("github", workdir))


def test_golden_sarif(workdir: Path) -> None:
    problems, _ = loader_problems()
    rules = {rule.id: rule for rule in LOADER_RULES}
    check_golden("validate_sarif.json", sarif.render(problems, rules, "9.9.9", str(workdir)))


def test_golden_colour_text(workdir: Path) -> None:
    coloured = render("text", workdir, color=True, width=100)
    check_golden("validate_text_color.txt", coloured)
    assert ANSI.search(coloured)
    assert ANSI.sub("", coloured) == render("text", workdir)


def test_plain_text_first_line_of_every_problem_is_parsable(workdir: Path) -> None:
    problems, _ = loader_problems()
    heads = [line for line in render("text", workdir).splitlines() if re.match(r"^\S+:\d+:\d+: \[", line)]
    assert len(heads) == len(problems)
    for line, p in zip(heads, problems, strict=True):
        assert p.span is not None
        assert line == f"{p.file}:{p.span.line}:{p.span.column}: [{p.level.value}] {p.message} ({p.rule})"


# --- GitHub workflow commands -------------------------------------------------------------------------------------


def test_github_escaping() -> None:
    assert github.escape_data("100% done\r\nnext") == "100%25 done%0D%0Anext"
    assert github.escape_property("a,b:c%d\ne") == "a%2Cb%3Ac%25d%0Ae"


def test_github_escapes_file_names_and_messages(tmp_path: Path) -> None:
    problem = Problem(
        rule="unknown-field",
        level=Level.ERROR,
        message="field a%b not found\nsecond line",
        span=Span(3, 5, 3, 8),
        file=str(tmp_path / "odd,dir:x" / "q%1.yaml"),
    )
    out = github.render([problem], 1, str(tmp_path))
    assert out.splitlines() == [
        "::group::odd,dir:x/q%251.yaml",
        "::error file=odd%2Cdir%3Ax/q%251.yaml,line=3,col=5,endLine=3,endColumn=8,title=unknown-field"
        "::field a%25b not found%0Asecond line",
        "::endgroup::",
        "yk: 1 file checked: 1 error, 0 warnings",
    ]


def test_github_summary_mentions_the_annotation_limit() -> None:
    problems = [
        Problem("wrong-type", Level.ERROR, f"problem {i}", span=Span(i, 1, i, 2), file="q.yaml") for i in range(1, 12)
    ]
    last = github.render(problems, 1, ".").splitlines()[-1]
    assert last.startswith("yk: 1 file checked: 11 errors, 0 warnings (GitHub shows only 10 annotations")
    assert "annotations of each level" not in github.render(problems[:10], 1, ".")


def test_github_no_problems_is_just_the_summary() -> None:
    assert github.render([], 3, ".") == "yk: 3 files checked: no problems\n"


def test_github_actions_selects_the_github_format(run_yk, workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    result = run_yk("validate", "queues.yaml")
    assert result.exit_code == 1
    assert result.stdout.startswith("::group::queues.yaml\n::error file=queues.yaml,line=")
    assert result.stdout.splitlines()[-1].startswith("yk: 1 file checked: ")
    explicit = run_yk("validate", "queues.yaml", "--format", "json")
    assert json.loads(explicit.stdout)["summary"]["files"] == 1


def test_text_is_the_default_outside_github_actions(run_yk, workdir: Path) -> None:
    result = run_yk("validate", "queues.yaml")
    assert result.stdout.startswith("queues.yaml:8:13: [error] field maxApplications not found")
    assert "\x1b[" not in result.stdout


# --- SARIF ----------------------------------------------------------------------------------------------------------


def sarif_of(run_yk, *args: str) -> dict:
    result = run_yk("validate", *args, "--format", "sarif")
    return json.loads(result.stdout)


def test_sarif_is_valid_against_the_sarif_2_1_0_schema(run_yk, workdir: Path) -> None:
    for log in (sarif_of(run_yk, *INPUTS), sarif.render([], {}, "1.0", ".")):
        data = log if isinstance(log, dict) else json.loads(log)
        jsonschema.Draft4Validator(SARIF_SCHEMA).validate(data)


def test_sarif_has_what_github_code_scanning_requires(run_yk, workdir: Path) -> None:
    log = sarif_of(run_yk, *INPUTS)
    assert log["version"] == "2.1.0" and log["$schema"].endswith("sarif-schema-2.1.0.json")
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "yk" and driver["version"] and driver["informationUri"].startswith("https://")
    assert [r["id"] for r in driver["rules"]] == list(all_rules())
    for descriptor, rule in zip(driver["rules"], all_rules().values(), strict=True):
        assert descriptor["shortDescription"]["text"] == rule.summary
        assert descriptor["fullDescription"]["text"] == rule.doc
        assert descriptor["help"]["text"]
        assert descriptor["defaultConfiguration"]["level"] == rule.level.value
    assert run["results"]
    for result in run["results"]:
        assert driver["rules"][result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] in ("error", "warning")
        assert result["message"]["text"]
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"]["uri"] in ("queues.yaml", "configs/yunikorn.yaml")
        assert location["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
        region = location["region"]
        assert all(region[k] >= 1 for k in ("startLine", "startColumn", "endLine", "endColumn"))
        assert (region["endLine"], region["endColumn"]) > (region["startLine"], region["startColumn"])
        assert result["partialFingerprints"]


def test_sarif_without_problems_still_has_results(run_yk, tmp_path: Path) -> None:
    path = tmp_path / "clean.yaml"
    path.write_text(CLEAN)
    log = sarif_of(run_yk, str(path))
    assert log["runs"][0]["results"] == []
    assert [r["id"] for r in log["runs"][0]["tool"]["driver"]["rules"]] == list(all_rules())


def test_sarif_message_carries_the_hint(workdir: Path) -> None:
    problems, _ = loader_problems()
    log = json.loads(sarif.render(problems, all_rules(), "1", str(workdir)))
    texts = [r["message"]["text"] for r in log["runs"][0]["results"]]
    assert "field maxApplications not found in type configs.QueueConfig\nhint: did you mean `maxapplications`?" in (
        "\n".join(texts)
    )


def test_sarif_fingerprints_survive_edits_above(tmp_path: Path) -> None:
    def fingerprints(text: str) -> tuple[list[str], list[int]]:
        (tmp_path / "q.yaml").write_text(text)
        problems = load_config(str(tmp_path / "q.yaml"), check=False).problems
        results = json.loads(sarif.render(problems, all_rules(), "1", str(tmp_path)))["runs"][0]["results"]
        lines = [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in results]
        return [r["partialFingerprints"][sarif.FINGERPRINT_KEY] for r in results], lines

    before, lines_before = fingerprints(QUEUES)
    after, lines_after = fingerprints("# a comment\n# and another\n" + QUEUES)
    assert before == after
    assert [line + 2 for line in lines_before] == lines_after
    assert len(set(before)) == len(before)


def test_sarif_identical_problems_get_distinct_fingerprints() -> None:
    same = [Problem("yaml-syntax", Level.ERROR, "bad", span=Span(n, 1, n, 2), file="q.yaml") for n in (1, 5)]
    results = json.loads(sarif.render(same, all_rules(), "1", "."))["runs"][0]["results"]
    prints = [r["partialFingerprints"][sarif.FINGERPRINT_KEY] for r in results]
    assert prints[0].endswith(":1") and prints[1].endswith(":2") and prints[0][:-2] == prints[1][:-2]


def test_sarif_uris(tmp_path: Path) -> None:
    def uri(file: str, base: str) -> dict:
        problem = Problem("yaml-syntax", Level.ERROR, "bad", span=Span(1, 1, 1, 2), file=file)
        log = json.loads(sarif.render([problem], {}, "1", base))
        return log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]

    assert uri("/repo/deploy/queues.yaml", "/repo") == {"uri": "deploy/queues.yaml", "uriBaseId": "%SRCROOT%"}
    assert uri("deploy/../q s.yaml", "/repo") == {"uri": "q%20s.yaml", "uriBaseId": "%SRCROOT%"}
    assert uri("/elsewhere/q.yaml", "/repo") == {"uri": "file:///elsewhere/q.yaml"}
    assert uri("../q.yaml", "/repo/sub") == {"uri": "file:///repo/q.yaml"}
    assert uri("<stdin>", "/repo") == {"uri": "%3Cstdin%3E"}


def test_sarif_problem_without_span_points_at_the_file_start() -> None:
    problem = Problem("no-queue-config", Level.WARNING, "nothing here", file="q.yaml")
    log = json.loads(sarif.render([problem], all_rules(), "1", "."))
    region = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 1, "startColumn": 1, "endLine": 1, "endColumn": 2}


def test_sarif_output_is_deterministic(workdir: Path) -> None:
    problems, _ = loader_problems()
    first = sarif.render(problems, all_rules(), "1", str(workdir))
    assert first == sarif.render(list(reversed(problems)), all_rules(), "1", str(workdir))


# --- exit codes and usage ----------------------------------------------------------------------------------------


def test_exit_codes(run_yk, tmp_path: Path) -> None:
    clean, warned = tmp_path / "clean.yaml", tmp_path / "defaults.yaml"
    clean.write_text(CLEAN)
    warned.write_text(DEFAULTS_ONLY)
    assert run_yk("validate", str(clean)).exit_code == 0
    assert run_yk("validate", str(clean), "--strict").exit_code == 0
    result = run_yk("validate", str(warned), "--format", "json")
    assert [p["rule"] for p in json.loads(result.stdout)["problems"]] == ["no-queue-config"]
    assert result.exit_code == 0
    assert run_yk("validate", str(warned), "--strict").exit_code == 1
    assert run_yk("validate", str(tmp_path / "missing.yaml")).exit_code == 2


def test_errors_exit_1(run_yk, workdir: Path) -> None:
    for fmt in FORMATS:
        assert run_yk("validate", "queues.yaml", "--format", fmt).exit_code == 1


def test_unknown_format_is_a_usage_error(run_yk, workdir: Path) -> None:
    result = run_yk("validate", "queues.yaml", "--format", "xml")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "yk: error: unknown format 'xml'; choose one of text, json, github, sarif" in result.stderr


def test_stdin_given_twice_is_a_usage_error(run_yk) -> None:
    result = run_yk("validate", "-", "-", input=CLEAN)
    assert result.exit_code == 2
    assert "'-' (standard input) may be given only once" in result.stderr


# --- the fast path of `yk validate` (no typer parameter machinery) -----------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["queues.yaml"],
        ["queues.yaml", "configs/yunikorn.yaml", "--format", "json"],
        ["--format=sarif", "queues.yaml"],
        ["-f", "github", "queues.yaml", "--strict"],
        ["configs/yunikorn.yaml", "--strict", "--format", "json"],
        ["--partition", "default", "queues.yaml", "-f", "json"],
        ["--policy-group=other", "configs/yunikorn.yaml", "-f", "json"],
        ["--", "queues.yaml"],
        ["queues.yaml", "--format", "xml"],
        ["missing.yaml"],
    ],
)
def test_fast_path_matches_typer(run_yk, workdir: Path, capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    expected = run_yk("validate", *args)
    capsys.readouterr()
    code = fast_path(args)
    out, err = capsys.readouterr()
    assert (code, out, err) == (expected.exit_code, expected.stdout, expected.stderr)


@pytest.mark.parametrize("args", [[], ["--help"], ["-h"], ["--bogus", "q.yaml"], ["q.yaml", "--format"], ["-fjson"]])
def test_fast_path_leaves_the_rest_to_typer(args: list[str]) -> None:
    assert fast_path(args) is None


def test_validate_path_does_not_import_rich_or_jsonschema(tmp_path: Path) -> None:
    import subprocess

    path = tmp_path / "q.yaml"
    path.write_text(CLEAN)
    code = (
        "import sys; from yk_cli import cli; sys.argv = ['yk', 'validate', sys.argv[1]]\n"
        "def report(code):\n"
        "    print(sorted(m for m in ('rich', 'jsonschema', 'pydantic') if m in sys.modules))\n"
        "    sys.exit(code)\n"
        "cli.exit_process = report\n"
        "cli.main()"
    )
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines()[-1] == "[]"


class _Terminal(io.StringIO):
    """A standard output that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_terminal_output_is_coloured_unless_no_color(workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setenv("COLUMNS", "100")
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stdout", terminal)
    assert run_validate(["queues.yaml"], None, False, None) == 1
    coloured = terminal.getvalue()
    assert "\x1b[1;31m[error]\x1b[0m" in coloured
    monkeypatch.setenv("NO_COLOR", "1")
    plain = _Terminal()
    monkeypatch.setattr(sys, "stdout", plain)
    assert run_validate(["queues.yaml"], None, False, None) == 1
    assert plain.getvalue() == ANSI.sub("", coloured)
    assert "\x1b[" not in plain.getvalue()
