"""The one golden switch: compare a test's output with its golden file; UPDATE_GOLDEN=1 rewrites the file instead.

    check_golden("simulate_tenants.txt", text)        tests/golden/simulate_tenants.txt
    check_golden(DATA / "backoff" / "x.txt", text)    any other path, as given
"""

from __future__ import annotations

import os
from pathlib import Path

from tests.helpers.paths import GOLDEN, ROOT

UPDATE = "UPDATE_GOLDEN"


def updating() -> bool:
    """Whether this run rewrites the golden files (UPDATE_GOLDEN=1)."""
    return os.environ.get(UPDATE) == "1"


def check_golden(name: str | Path, actual: str) -> None:
    """Assert `actual` is the golden file's text: `name` under tests/golden/, or a path (absolute, or relative to the
    checkout). With UPDATE_GOLDEN=1 the file is written first (folders created), so the comparison passes."""
    path = Path(name)
    if not path.is_absolute():
        path = GOLDEN / path if isinstance(name, str) else ROOT / path
    if updating():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
    assert actual == path.read_text(encoding="utf-8"), f"{name} differs; UPDATE_GOLDEN=1 pytest rewrites it"
