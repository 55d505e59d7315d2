"""Which modules mypyc compiles at install time, and whether this process runs them or their Python sources.

`pip install .` compiles nothing: the wheel is pure Python and the engine runs as Python. With YK_COMPILE=1 in the
environment of `pip install`, the build compiles the simulation engine with mypyc (setup.py; the build backend,
_backend/yk_backend.py, then asks for mypy); the Python sources stay beside the compiled modules and are the same
program. They are run instead, all of them (compiled modules call each other directly, so a mix is never safe), when
YK_PURE_PYTHON is set, when any compiled module is missing, or when a source is newer than its compiled module (an
editable install edited since it was built).
"""

from __future__ import annotations

import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from importlib.machinery import ModuleSpec
    from types import ModuleType

COMPILED_MODULES: tuple[str, ...] = (
    "yk_cli.core.ordering.policies",
    "yk_cli.core.ordering.priority",
    "yk_cli.core.sim.backoff",
    "yk_cli.core.sim.build",
    "yk_cli.core.sim.commit",
    "yk_cli.core.sim.cycle",
    "yk_cli.core.sim.events",
    "yk_cli.core.sim.gang",
    "yk_cli.core.sim.nodes",
    "yk_cli.core.sim.placing",
    "yk_cli.core.sim.preconditions",
    "yk_cli.core.sim.preemption",
    "yk_cli.core.sim.quota",
    "yk_cli.core.sim.reasons",
    "yk_cli.core.sim.resmap",
    "yk_cli.core.sim.run",
    "yk_cli.core.sim.state",
    "yk_cli.core.sim.timeouts",
    "yk_cli.core.sim.ugm",
)
"""Compiled together as one group (the engine and the policies and priority math it calls on every cycle)."""

GROUP = "yk_cli.core.sim._engine"
"""mypyc's group name: its shared library is the module GROUP + "__mypyc" (inside the package)."""

PURE_ENV = "YK_PURE_PYTHON"
"""Set (to anything but an empty string) at run time to run the Python sources of a compiled install."""

COMPILE_ENV = "YK_COMPILE"
"""Set to 1 in the environment of `pip install` to compile the engine; unset, empty or 0, nothing is compiled
(compile_requested)."""

COMPILE_REQUIRES: tuple[str, ...] = ("mypy>=1.15",)
"""What a build asked to compile needs besides setuptools and a C compiler (mypyc is part of mypy)."""

_YES = frozenset({"1", "true", "yes", "on"})
_NO = frozenset({"", "0", "false", "no", "off"})

NOT_COMPILED = "not compiled"
"""pure_reason of an install built without COMPILE_ENV."""

STALE_SLACK = 2.0
"""Seconds a source may be newer than its compiled module (an install writes both, in any order)."""

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def compile_requested(environ: Mapping[str, str]) -> bool:
    """Whether a build with this environment compiles the engine (COMPILE_ENV); a value that is neither yes nor no is
    refused rather than guessed."""
    value = environ.get(COMPILE_ENV, "")
    if value.strip().lower() in _YES:
        return True
    if value.strip().lower() in _NO:
        return False
    raise ValueError(
        f"{COMPILE_ENV}={value!r}: set it to 1 to compile yk's engine, or to 0 (or leave it unset) for the Python"
        " engine"
    )


def _file_of(module: str, package_dir: str = _PACKAGE_DIR) -> str:
    """The path, without extension, of a module of this package."""
    return os.path.join(package_dir, *module.split(".")[1:])


def _extension(base: str) -> str | None:
    for suffix in EXTENSION_SUFFIXES:
        if os.path.exists(base + suffix):
            return base + suffix
    return None


def pure_reason(environ: Mapping[str, str], package_dir: str = _PACKAGE_DIR) -> str:
    """Why a process with this environment runs the Python sources, or "" when it runs the compiled modules."""
    if environ.get(PURE_ENV):
        return f"{PURE_ENV} is set"
    found = [_extension(_file_of(module, package_dir)) for module in (*COMPILED_MODULES, GROUP + "__mypyc")]
    if not any(found):
        return NOT_COMPILED
    if not all(found):
        return "some compiled modules are missing"
    for module, extension in zip(COMPILED_MODULES, found, strict=False):
        assert extension is not None
        source = _file_of(module, package_dir) + ".py"
        if os.path.getmtime(source) > os.path.getmtime(extension) + STALE_SLACK:
            return f"{module} changed after it was compiled (pip install again to rebuild)"
    return ""


class _Engine:
    """Hands out the Python sources of the compiled modules when the compiled ones must not be used (a meta path
    finder: sys.meta_path asks it first for every import)."""

    def __init__(self) -> None:
        self.reason: str | None = None
        """None until first asked; then "" (compiled) or why the sources run."""

    def pure_reason(self) -> str:
        if self.reason is None:
            self.reason = pure_reason(os.environ)
        return self.reason

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname not in _NAMES or not self.pure_reason():
            return None  # the usual search: a compiled module is found before its source
        from importlib.util import spec_from_file_location

        return spec_from_file_location(fullname, _file_of(fullname) + ".py")


_NAMES = frozenset(COMPILED_MODULES)
_FINDER = _Engine()


def install() -> None:
    """Put the finder first on sys.meta_path (once); it decides on the first import of a compiled module."""
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)


def engine_description() -> str:
    """How this process runs the engine, for `yk --version` and the benchmarks."""
    reason = _FINDER.pure_reason()
    if not reason:
        return "engine compiled with mypyc"
    if reason == NOT_COMPILED:
        return f"engine in Python: {reason}; {COMPILE_ENV}=1 pip install compiles it, for faster dry runs"
    return f"engine in Python: {reason}"


def not_compiled() -> bool:
    """Whether this install compiled nothing (a plain `pip install`), so that the engine runs as Python; False when
    it is compiled, or runs as Python by choice (YK_PURE_PYTHON) or because a build is stale."""
    return _FINDER.pure_reason() == NOT_COMPILED
