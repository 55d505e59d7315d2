"""`.yk.yaml` ignore patterns that are no glob are problems with their position (exit 2), never a traceback; every
other character of a character class stands for itself (no regular-expression syntax leaks through)."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from yk_cli.core.lint.project import IgnorePatternError, ignore_pattern

MESSAGE = (
    "'[z-a]' is not a glob pattern: the character range z-a goes backwards (a range goes from the lower character "
    "to the higher: a-z)"
)


@pytest.mark.parametrize(
    ("config", "where"),
    [
        ('ignore:\n  - "*.gen.yaml"\n  - "[z-a]"\n', "3:5: ignore[1]"),
        ("ignore: |\n  *.gen.yaml\n  [z-a]\n", "1:9: ignore"),
        ('ignore: "[z-a]"\n', "1:9: ignore"),
    ],
)
@pytest.mark.parametrize("command", [["validate", "q.yaml"], ["tree", "q.yaml"], ["priorities", "q.yaml", "w.yaml"]])
def test_a_reversed_range_is_a_project_config_problem(
    run_yk, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, config: str, where: str, command: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    Path(".yk.yaml").write_text(config, encoding="utf-8")
    Path("q.yaml").write_text((SAMPLES / "queues" / "tenants.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    Path("w.yaml").write_text((SAMPLES / "workloads" / "tenants.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    result = run_yk(*command)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"yk: error: .yk.yaml:{where}: {MESSAGE}\n"


@pytest.mark.parametrize(
    ("pattern", "matches", "misses"),
    [
        ("[a-c].yaml", ["b.yaml"], ["d.yaml"]),
        ("[!a-c].yaml", ["d.yaml"], ["b.yaml"]),
        ("[^a-c].yaml", ["d.yaml"], ["b.yaml"]),
        ("[]a].yaml", ["].yaml", "a.yaml"], ["b.yaml"]),
        ("[a-].yaml", ["-.yaml", "a.yaml"], ["b.yaml"]),
        ("[[x].yaml", ["[.yaml", "x.yaml"], ["y.yaml"]),
        ("[&&~].yaml", ["&.yaml", "~.yaml"], ["a.yaml"]),
        ("[\\].yaml", ["\\.yaml"], ["a.yaml"]),
        ("x[.yaml", ["x[.yaml"], ["x.yaml"]),
    ],
)
def test_character_classes(pattern: str, matches: list[str], misses: list[str]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no FutureWarning about set syntax in the compiled expression
        compiled = ignore_pattern(pattern)
    assert [bool(compiled.regex.fullmatch(m)) for m in matches] == [True] * len(matches)
    assert [bool(compiled.regex.fullmatch(m)) for m in misses] == [False] * len(misses)


@pytest.mark.parametrize("pattern", ["[z-a]", "a/[9-0]*.yaml", "![b-a]"])
def test_reversed_ranges_are_refused(pattern: str) -> None:
    with pytest.raises(IgnorePatternError, match="goes backwards"):
        ignore_pattern(pattern)
