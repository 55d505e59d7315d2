"""The README stays a few screens long, the pages written for it stay readable (no line over 120 characters outside
code blocks, where real output is shown as the command prints it), and every relative link of the documentation
points to a file that exists."""

import re
from pathlib import Path

import pytest

from tests.helpers.paths import ROOT

README = ROOT / "README.md"
DOCS = ROOT / "docs"
ARCHITECTURE = DOCS / "ARCHITECTURE.md"
"""Linked from the README and docs/README.md, written by another change of issue 23: until it is committed, the test
below that asks for it is an expected failure and the link checks leave it out."""
WIDTH = 120

# The pages of docs/ written or reflowed when the README was split (issue 23): every line of their prose and tables
# fits. The other pages keep some wide tables and long lines of their own.
REFLOWED = (
    "README.md",
    "core-vs-design.md",
    "diff.md",
    "generate.md",
    "install.md",
    "performance.md",
    "rules.md",
    "validate.md",
)

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")


def _outside_code(text: str) -> list[tuple[int, str]]:
    """(line number, line) of every line that is not in a fenced code block (the fences included)."""
    lines, fence = [], ""
    for number, line in enumerate(text.splitlines(), 1):
        match = FENCE.match(line)
        if fence:
            closing = match is not None and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence)
            if closing and line.strip() == match.group(1):
                fence = ""
        elif match:
            fence = match.group(1)
        else:
            lines.append((number, line))
    return lines


def test_the_readme_is_a_few_screens() -> None:
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 300


def test_no_line_of_the_readme_is_over_120_characters() -> None:
    long = [
        (number, len(line))
        for number, line in enumerate(README.read_text(encoding="utf-8").splitlines(), 1)
        if len(line) > WIDTH
    ]
    assert long == []


@pytest.mark.parametrize("name", REFLOWED)
def test_the_reflowed_pages_have_no_long_line_outside_code(name: str) -> None:
    text = (DOCS / name).read_text(encoding="utf-8")
    assert [(number, len(line)) for number, line in _outside_code(text) if len(line) > WIDTH] == []


def _links(path: Path) -> list[str]:
    """The relative link targets of a Markdown file, code blocks and code spans left out."""
    text = "\n".join(line for _, line in _outside_code(path.read_text(encoding="utf-8")))
    text = re.sub(r"`[^`]*`", "", text)
    return [target for target in LINK.findall(text) if not re.match(r"^[a-z][a-z0-9+.-]*:", target)]


@pytest.mark.parametrize("path", [README, *sorted(DOCS.glob("*.md"))], ids=lambda path: str(path.relative_to(ROOT)))
def test_every_relative_link_points_to_a_file_that_exists(path: Path) -> None:
    missing = []
    for target in _links(path):
        file = target.split("#", 1)[0]
        if not file or ((path.parent / file).resolve() == ARCHITECTURE and not ARCHITECTURE.exists()):
            continue
        if not (path.parent / file).exists():
            missing.append(target)
    assert missing == []


@pytest.mark.xfail(not ARCHITECTURE.exists(), reason="docs/ARCHITECTURE.md is not committed yet", strict=True)
def test_the_architecture_page_the_readme_links_exists() -> None:
    assert ARCHITECTURE.is_file()


def test_the_docs_index_lists_every_page() -> None:
    index = (DOCS / "README.md").read_text(encoding="utf-8")
    listed = {target.split("#", 1)[0] for target in _links(DOCS / "README.md")}
    pages = {path.name for path in DOCS.glob("*.md")} - {"README.md"}
    assert pages <= listed, f"not in docs/README.md: {sorted(pages - listed)}"
    assert index.startswith("# ")
