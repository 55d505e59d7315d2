"""yk's build backend: setuptools' own, but for the build requirements of a wheel (or an editable install), which
name mypy only when YK_COMPILE asks for the compiled engine (setup.py). Without it, pip installs neither mypy nor
anything else but setuptools to build yk: the default install compiles nothing and takes seconds.

pyproject.toml names this module (`build-backend`, with `backend-path`); pip imports it with the source folder as the
working directory.
"""

from __future__ import annotations

import os
import runpy
from collections.abc import Mapping
from typing import Any

from setuptools import build_meta
from setuptools.build_meta import (
    build_editable,
    build_sdist,
    build_wheel,
    get_requires_for_build_sdist,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)

__all__ = [
    "build_editable",
    "build_sdist",
    "build_wheel",
    "get_requires_for_build_editable",
    "get_requires_for_build_sdist",
    "get_requires_for_build_wheel",
    "prepare_metadata_for_build_editable",
    "prepare_metadata_for_build_wheel",
]


def compile_requires(environ: Mapping[str, str] = os.environ) -> list[str]:
    """What a build with this environment needs besides setuptools: mypy when YK_COMPILE asks to compile."""
    compiled = runpy.run_path(os.path.join("yk_cli", "compiled.py"))  # (the standard library only)
    try:
        requested = compiled["compile_requested"](environ)
    except ValueError as error:
        raise SystemExit(f"yk: {error}") from error
    return list(compiled["COMPILE_REQUIRES"]) if requested else []


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    return [*compile_requires(), *build_meta.get_requires_for_build_wheel(config_settings)]


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    return [*compile_requires(), *build_meta.get_requires_for_build_editable(config_settings)]
