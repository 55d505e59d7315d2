"""The project config (`.yk.yaml`) as values: rules a project disables or raises, ignored files, option defaults."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from yk_cli.core.diagnostics import Level, Problem

DISABLE = "disable"
RULE_SETTINGS = (DISABLE, Level.WARNING.value, Level.ERROR.value)
"""What `rules:` may say of a rule id."""


@dataclass(frozen=True, slots=True)
class IgnorePattern:
    """One `ignore:` glob, gitignore-style, as a regular expression over a path relative to the config's folder."""

    text: str
    regex: re.Pattern[str]
    negated: bool


@dataclass(frozen=True, slots=True)
class ProjectConfig:
    """Everything a `.yk.yaml` says; the empty value when there is none."""

    path: str = ""
    """The config file as named in messages ('' when there is none)."""
    base: str = ""
    """The absolute folder `ignore` patterns are relative to (the config file's)."""
    disabled: frozenset[str] = frozenset()
    levels: Mapping[str, Level] = field(default_factory=dict)
    """Rules reported at another level than their own (only warnings raised to errors)."""
    ignore: tuple[IgnorePattern, ...] = ()
    strict: bool | None = None
    policy_group: str | None = None
    max_size: str | None = None

    def applied(self, problems: Iterable[Problem], scheduler: str = "YuniKorn") -> list[Problem]:
        """Problems as `yk validate` (or `yk volcano validate`, scheduler "Volcano") reports them under this config:
        disabled rules dropped, raised ones raised."""
        out = []
        for problem in problems:
            if problem.rule in self.disabled:
                continue
            level = self.levels.get(problem.rule)
            if level is None or level == problem.level:
                out.append(problem)
                continue
            note = f"an error under {self.path or 'the project config'}; {scheduler} itself accepts this"
            out.append(replace(problem, level=level, hint=f"{problem.hint} ({note})" if problem.hint else note))
        return out

    def shown(self, problems: Iterable[Problem]) -> list[Problem]:
        """Problems without the disabled rules, every level as it is (what tree and the dry runs report)."""
        return [p for p in problems if p.rule not in self.disabled]

    def ignores(self, relative: str) -> bool:
        """Whether a path relative to `base` (with `/` separators; never `..`) matches the ignore patterns: the
        last pattern that matches decides, a `!pattern` bringing a path back."""
        ignored = False
        for pattern in self.ignore:
            if pattern.regex.fullmatch(relative):
                ignored = not pattern.negated
        return ignored


class IgnorePatternError(ValueError):
    """An `ignore:` pattern that is no glob (a character class whose range is reversed, such as `[z-a]`)."""


def ignore_pattern(text: str) -> IgnorePattern:
    """A gitignore-style glob: `*` and `?` within one path segment, `**` across segments, `[abc]` classes; a
    pattern without a `/` (other than a trailing one) matches at any depth; a trailing `/` matches only a folder;
    matching a folder matches everything below it; `!` in front brings paths back. IgnorePatternError (saying why)
    for a pattern that is no glob."""
    negated = text.startswith("!")
    body = text[1:] if negated else text
    folder_only = body.endswith("/")
    body = body.rstrip("/")
    anchored = "/" in body
    body = body.lstrip("/")
    regex = ("" if anchored else "(?:.*/)?") + _translate(body) + ("/.*" if folder_only else "(?:/.*)?")
    try:
        compiled = re.compile(regex, re.DOTALL)
    except re.error as err:  # pragma: no cover - _translate escapes every character it does not translate
        raise IgnorePatternError(f"{text!r} is not a glob pattern ({err})") from None
    return IgnorePattern(text, compiled, negated)


def _translate(glob: str) -> str:
    """The regular expression of a glob body (no anchors)."""
    out: list[str] = []
    i = 0
    while i < len(glob):
        ch = glob[i]
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif glob.startswith("**", i):
            out.append(".*")
            i += 2
        elif ch == "*":
            out.append("[^/]*")
            i += 1
        elif ch == "?":
            out.append("[^/]")
            i += 1
        elif ch == "[" and _class_end(glob, i) > 0:
            end = _class_end(glob, i)
            out.append(_character_class(glob[i + 1 : end], glob))
            i = end + 1
        else:
            out.append(re.escape(ch))
            i += 1
    return "".join(out)


def _character_class(inner: str, glob: str) -> str:
    """The regular expression of a glob's `[...]` (its inside given): `!` or `^` first negates it, `a-z` is a range,
    every other character stands for itself. IgnorePatternError for a range whose ends are the wrong way round."""
    negated = inner[:1] in ("!", "^")
    body = inner[1:] if negated else inner
    out: list[str] = []
    i = 0
    while i < len(body):
        if i + 2 < len(body) and body[i + 1] == "-":
            low, high = body[i], body[i + 2]
            if low > high:
                raise IgnorePatternError(
                    f"{glob!r} is not a glob pattern: the character range {low}-{high} goes backwards "
                    f"(a range goes from the lower character to the higher: {high}-{low})"
                )
            out.append(f"{re.escape(low)}-{re.escape(high)}")
            i += 3
        else:
            out.append(re.escape(body[i]))
            i += 1
    return "[" + ("^" if negated else "") + "".join(out) + "]"


def _class_end(glob: str, start: int) -> int:
    """The index of the `]` closing the character class opened at start, or -1 (then `[` is a plain character)."""
    j = start + 1
    if j < len(glob) and glob[j] in "!^":
        j += 1
    if j < len(glob) and glob[j] == "]":
        j += 1
    return glob.find("]", j)


def rule_setting_problem(rule_id: str, own: Level, setting: str, scheduler: str = "YuniKorn") -> str | None:
    """Why `rules: {rule_id: setting}` cannot be (None when it can): an error is what makes the scheduler (YuniKorn,
    or Volcano for a Volcano rule) refuse the input, so it can be neither disabled nor lowered to a warning."""
    if setting not in RULE_SETTINGS:
        return f"{rule_id}: {setting!r} is not one of {', '.join(RULE_SETTINGS)}"
    if own == Level.ERROR and setting != Level.ERROR.value:
        return (
            f"{rule_id} is an error: {scheduler} refuses a config that has one, so it cannot be "
            f"{'disabled' if setting == DISABLE else 'lowered to a warning'}"
        )
    return None
