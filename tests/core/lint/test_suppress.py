"""`# yk: disable=` comments: what they silence, and a warning with a did-you-mean for names that are no rule."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from yk_cli.cli import app
from yk_cli.load.config import load_config

CONFIG = """partitions:
  - name: default
    queues:
      - name: root
        submitacl: '*'
        properties:
          priority.offset: "1.5"  # yk: disable={names}
"""


def problems(tmp_path: Path, names: str) -> list[tuple[str, int, int, int, str, str]]:
    path = tmp_path / "queues.yaml"
    path.write_text(CONFIG.format(names=names))
    out = []
    for p in load_config(str(path)).problems:
        assert p.span is not None
        out.append((p.rule, p.span.line, p.span.column, p.span.end_column, p.message, p.hint))
    return out


def test_a_known_rule_silences_its_warning(tmp_path: Path) -> None:
    assert problems(tmp_path, "invalid-property-value") == []


@pytest.mark.parametrize(
    ("names", "column", "name", "suggestion"),
    [
        ("invalid-property-valeu", 49, "invalid-property-valeu", "invalid-property-value"),
        ("Invalid-Property-Value", 49, "Invalid-Property-Value", "invalid-property-value"),
        ("invalid_property_value", 49, "invalid_property_value", "invalid-property-value"),
    ],
)
def test_a_misspelt_rule_is_a_warning_with_a_did_you_mean(
    tmp_path: Path, names: str, column: int, name: str, suggestion: str
) -> None:
    assert problems(tmp_path, names) == [
        (
            "invalid-property-value",
            7,
            28,
            33,
            'priority.offset "1.5" is not an int32: YuniKorn uses 0',
            "write a whole number such as 100 or -50",
        ),
        (
            "unknown-rule",
            7,
            column,
            column + len(name),
            f"# yk: disable={name} names no yk rule: it silences nothing (did you mean {suggestion}?)",
            f"did you mean `{suggestion}`?",
        ),
    ]


def test_unknown_name_among_known_ones(tmp_path: Path) -> None:
    assert problems(tmp_path, "invalid-property-value, frobnicate") == [
        (
            "unknown-rule",
            7,
            73,
            83,
            "# yk: disable=frobnicate names no yk rule: it silences nothing",
            "`yk rules` lists every rule id.",
        )
    ]


def test_cli_reports_the_unknown_rule(tmp_path: Path) -> None:
    path = tmp_path / "queues.yaml"
    path.write_text(CONFIG.format(names="invalid-property-value,no-such-rule"))
    result = CliRunner().invoke(app, ["validate", "--format", "text", str(path)])
    assert result.exit_code == 0
    assert result.output.splitlines()[0] == (
        f"{path}:7:72: [warning] # yk: disable=no-such-rule names no yk rule: it silences nothing (unknown-rule)"
    )
    strict = CliRunner().invoke(app, ["validate", "--strict", str(path)])
    assert strict.exit_code == 1


def test_suppressions_by_line_and_column() -> None:
    """Line numbers count newlines (CRLF too); only a line's first comment counts; the last line needs no newline."""
    from yk_cli.load.suppress import Suppression, suppressions

    text = "a: 1\r\nb: 2  # yk: disable=x, y  # yk: disable=z\r\n\r\nc: 3 #yk:disable=w"
    assert suppressions(text) == {
        2: [Suppression("x", 2, 21), Suppression("y", 2, 24)],
        4: [Suppression("w", 4, 18)],
    }
    assert suppressions("# yk: disable=\n# yk: disable= q") == {2: [Suppression("q", 2, 16)]}
