"""A small grammar check of the Mermaid `gantt` yk writes (the subset of Mermaid's gantt grammar it uses).

Mermaid's lexer reads a task as `<text without : ; # or newline> : <data without ; # or newline>`, a section as
`section <text without : ; #>`, directives one per line; the data is comma-separated: optional tags (active,
done, crit, milestone) first, then an optional id, then a start and an end (a date in dateFormat, or a duration).
"""

from __future__ import annotations

import re

DIRECTIVES = ("title", "dateFormat", "axisFormat", "todayMarker", "tickInterval", "excludes")
TAGS = {"active", "done", "crit", "milestone"}
TIME = re.compile(r"^(\d\d):([0-5]\d):([0-5]\d)$")
DURATION = re.compile(r"^\d+(\.\d+)?(ms|s|m|h|d|w)$")
ID = re.compile(r"^[A-Za-z][\w-]*$")
KEYWORDS = re.compile(r"^(section|title|dateformat|axisformat|todaymarker|excludes|includes|click)\b", re.I)


def _seconds(text: str) -> int:
    match = TIME.match(text)
    assert match, f"not HH:mm:ss: {text!r}"
    h, m, s = (int(g) for g in match.groups())
    return h * 3600 + m * 60 + s


def check(lines: list[str]) -> dict[str, list[tuple[str, tuple[str, ...], int, int | None]]]:
    """Parse the diagram (lines inside the fence); AssertionError on anything Mermaid would misread. Returns the
    tasks per section: (name, tags, start seconds, end seconds or None for a milestone's duration)."""
    assert lines and lines[0].strip() == "gantt", "a gantt starts with `gantt`"
    sections: dict[str, list[tuple[str, tuple[str, ...], int, int | None]]] = {}
    current: str | None = None
    seen_format = False
    for raw in lines[1:]:
        line = raw.strip()
        if not line or line.startswith("%%"):
            continue
        word = line.split(" ", 1)[0]
        if word in DIRECTIVES:
            if word == "dateFormat":
                assert line == "dateFormat HH:mm:ss", line
                seen_format = True
            if word == "todayMarker":
                assert line == "todayMarker off", line
            continue
        if word == "section":
            name = line[len("section ") :]
            assert name and not re.search(r"[:;#]", name), f"bad section name {name!r}"
            current = name
            sections.setdefault(name, [])
            continue
        assert ":" in line, f"a task needs `name : data`: {line!r}"
        name, data = line.split(":", 1)
        name = name.strip()
        assert name and not re.search(r"[;#]", name), f"bad task name {name!r}"
        assert not KEYWORDS.match(name), f"task name starts with a keyword: {name!r}"
        assert not re.search(r"[;#]", data), f"bad task data {data!r}"
        items = [item.strip() for item in data.split(",")]
        tags = []
        while items and items[0] in TAGS:
            tags.append(items.pop(0))
        assert len(tags) == len(set(tags)), f"repeated tag in {line!r}"
        if len(items) == 3:
            assert ID.match(items.pop(0)), f"bad task id in {line!r}"
        assert len(items) == 2, f"a task needs a start and an end: {line!r}"
        start = _seconds(items[0])
        if "milestone" in tags:
            assert DURATION.match(items[1]), f"a milestone takes a duration: {line!r}"
            end = None
        elif DURATION.match(items[1]):
            end = start
        else:
            end = _seconds(items[1])
            assert end > start, f"a bar must end after it starts: {line!r}"
        assert current is not None, f"a task outside any section: {line!r}"
        sections[current].append((name, tuple(tags), start, end))
    assert seen_format, "dateFormat HH:mm:ss is required"
    return sections


def blocks(markdown: str) -> list[list[str]]:
    """The lines of every ```mermaid block of a Markdown document."""
    out: list[list[str]] = []
    current: list[str] | None = None
    for line in markdown.splitlines():
        if line == "```mermaid":
            current = []
        elif line == "```" and current is not None:
            out.append(current)
            current = None
        elif current is not None:
            current.append(line)
    assert current is None, "an unclosed ```mermaid block"
    return out
