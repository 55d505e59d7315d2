"""empty-property-value: every property YuniKorn parses, written as '', ' ' or a YAML null."""

from __future__ import annotations

from pathlib import Path

import pytest

from yk_cli.load.config import load_config

CONFIG = """partitions:
  - name: default
    queues:
      - name: root
        submitacl: '*'
        queues:
          - name: a
            resources:
              guaranteed: {{memory: 1Gi}}
            properties:
              {key}: {value}
"""
TEMPLATE = """partitions:
  - name: default
    queues:
      - name: root
        submitacl: '*'
        childtemplate:
          properties:
            {key}: {value}
    placementrules:
      - {{name: tag, value: namespace, create: true}}
"""

PARSE_ERROR = {
    "application.sort.priority": ("unknown application.sort.priority value: {text}", "enabled"),
    "priority.offset": ('strconv.ParseInt: parsing "{text}": invalid syntax', "0"),
    "preemption.delay": ('time: invalid duration "{text}"', "30s"),
    "application.unschedasks.backoff": ('strconv.ParseUint: parsing "{text}": invalid syntax', "0"),
    "application.unschedasks.backoff.delay": ('time: invalid duration "{text}"', "30s"),
    "quota.preemption.delay": (
        'time: invalid duration "{text}"',
        "0s, so quota preemption stays off for this queue",
    ),
}
EMPTY_IS_DEFAULT = {
    "application.sort.policy": ("undefined application sort policy ' '", "fifo"),
    "priority.policy": ("undefined priority.policy value ' '", "default"),
    "preemption.policy": ("undefined preemption.policy value ' '", "default"),
}


def problems(tmp_path: Path, text: str) -> list[tuple[str, int, int, str, str]]:
    path = tmp_path / "queues.yaml"
    path.write_text(text)
    out = []
    for p in load_config(str(path)).problems:
        assert p.span is not None
        out.append((p.rule, p.span.line, p.span.column, p.message, p.hint))
    return out


HINT = "write the value you mean, or remove the key to use the default"


@pytest.mark.parametrize("key", list(PARSE_ERROR))
@pytest.mark.parametrize("value", ["''", "~"])
def test_empty_or_null_is_a_parse_error(tmp_path: Path, key: str, value: str) -> None:
    note, used = PARSE_ERROR[key]
    column = 15 + len(key) + 2
    message = f'{key} "" (empty or null): YuniKorn logs a parse error ({note.format(text="")}) and uses {used}'
    assert problems(tmp_path, CONFIG.format(key=key, value=value)) == [
        ("empty-property-value", 11, column, message, HINT)
    ]


@pytest.mark.parametrize("key", list(EMPTY_IS_DEFAULT))
@pytest.mark.parametrize("value", ["''", "~"])
def test_empty_or_null_policy_means_the_default(tmp_path: Path, key: str, value: str) -> None:
    used = EMPTY_IS_DEFAULT[key][1]
    column = 15 + len(key) + 2
    message = f'{key} "" (empty or null): YuniKorn uses {used} (an empty value means the default, without a log line)'
    assert problems(tmp_path, CONFIG.format(key=key, value=value)) == [
        ("empty-property-value", 11, column, message, HINT)
    ]


@pytest.mark.parametrize("key", [*PARSE_ERROR, *EMPTY_IS_DEFAULT])
def test_blank_is_a_parse_error(tmp_path: Path, key: str) -> None:
    note, used = PARSE_ERROR.get(key) or EMPTY_IS_DEFAULT[key]
    column = 15 + len(key) + 2
    message = f'{key} " " (blank): YuniKorn logs a parse error ({note.format(text=" ")}) and uses {used}'
    assert problems(tmp_path, CONFIG.format(key=key, value="' '")) == [
        ("empty-property-value", 11, column, message, HINT)
    ]


def test_empty_template_value_is_dropped(tmp_path: Path) -> None:
    assert problems(tmp_path, TEMPLATE.format(key="priority.offset", value="''")) == [
        (
            "empty-property-value",
            8,
            30,
            'priority.offset "" (empty or null) in the childtemplate: YuniKorn drops empty template values, '
            "dynamic queues use 0",
            HINT,
        )
    ]


def test_blank_template_value_is_a_parse_error(tmp_path: Path) -> None:
    assert problems(tmp_path, TEMPLATE.format(key="preemption.delay", value="' '")) == [
        (
            "empty-property-value",
            8,
            31,
            'preemption.delay " " (blank) in the childtemplate: YuniKorn logs a parse error '
            '(time: invalid duration " ") and uses 30s',
            HINT,
        )
    ]


def test_empty_value_can_be_silenced(tmp_path: Path) -> None:
    text = CONFIG.format(key="priority.offset", value="''  # yk: disable=empty-property-value")
    assert problems(tmp_path, text) == []
