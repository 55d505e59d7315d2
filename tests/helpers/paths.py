"""Where the tests find the checkout and the data kept for them: the one place these paths are spelled."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
"""The checkout (the folder holding yk_cli/ and tests/)."""
SAMPLES = ROOT / "samples"
DATA = ROOT / "tests" / "data"
"""Test data kept in the repository: conformance cases, real-world configs (see each folder's README)."""
GOLDEN = ROOT / "tests" / "golden"
"""Expected outputs compared byte for byte (tests/helpers/golden.py; UPDATE_GOLDEN=1 rewrites them)."""
CONFORMANCE = DATA / "conformance"
REALWORLD = DATA / "realworld"
