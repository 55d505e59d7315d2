"""The engine compiled with mypyc (setup.py) and its Python sources (yk_cli/compiled.py): when each runs, and that
both write the same bytes.

The rest of the suite runs whichever engine the install has (compiled after `YK_COMPILE=1 pip install -e .`, as the
test command installs; tests/cli/test_install.py checks that it was); the comparisons here run the other one too, in
subprocesses, and skip when nothing was compiled.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from tests.helpers.paths import ROOT
from tests.helpers.samples import WORKLOADS, _config_of
from yk_cli import compiled
from yk_cli.core.sim import run as engine_run

SIM_DIR = ROOT / "yk_cli" / "core" / "sim"
needs_compiled = pytest.mark.skipif(
    compiled.pure_reason({}) != "", reason=f"the engine is not compiled here ({compiled.pure_reason({})})"
)


def _layout(tmp_path: Path, compiled_too: bool = True) -> Path:
    """A package folder with every compiled module's source and (optionally) its extension module."""
    suffix = EXTENSION_SUFFIXES[0]
    package = tmp_path / "yk_cli"
    for module in (*compiled.COMPILED_MODULES, compiled.GROUP + "__mypyc"):
        base = package.joinpath(*module.split(".")[1:])
        base.parent.mkdir(parents=True, exist_ok=True)
        if not module.endswith("__mypyc"):
            base.with_name(base.name + ".py").write_text("")
            os.utime(base.with_name(base.name + ".py"), (1_000_000, 1_000_000))
        if compiled_too:
            base.with_name(base.name + suffix).write_bytes(b"")
            os.utime(base.with_name(base.name + suffix), (1_000_000, 1_000_000))
    return package


def test_the_compiled_list_is_every_engine_module() -> None:
    # sim/'s vocabulary stays Python: the trace's values (read by every report) and what the run does not model
    interpreted = {"__init__", "trace", "unmodelled"}
    engine = {f"yk_cli.core.sim.{p.stem}" for p in SIM_DIR.glob("*.py") if p.stem not in interpreted}
    assert set(compiled.COMPILED_MODULES) == engine | {"yk_cli.core.ordering.policies", "yk_cli.core.ordering.priority"}
    assert list(compiled.COMPILED_MODULES) == sorted(compiled.COMPILED_MODULES)
    for module in compiled.COMPILED_MODULES:
        assert (ROOT / (module.replace(".", "/") + ".py")).is_file()


CONSUMERS = {"any", "all", "sum", "min", "max", "sorted", "list", "tuple", "set", "frozenset", "next", "dict"}
"""Calls a generator expression may be given to in a compiled module: each either reads it whole or is compiled by
mypyc to stop where Python stops (any, all, next)."""
CONSUMING_METHODS = {"fromkeys", "join", "extend", "update"}


def _compiled_sources() -> list[tuple[Path, ast.Module]]:
    """The source file and syntax tree of every compiled module."""
    paths = [ROOT / (module.replace(".", "/") + ".py") for module in compiled.COMPILED_MODULES]
    return [(path, ast.parse(path.read_text(), str(path))) for path in paths]


def test_no_lazy_generator_expression_in_compiled_modules() -> None:
    """mypyc compiles a generator expression it cannot hand to such a call as a list: everything is computed up
    front. A loop that stops early over one (the preemption walk over a lazy merge of every potential victim once
    did) then does all the work the lazy generator skipped: 2.6x slower than the Python sources on 10k+p."""
    found = []
    for path, tree in _compiled_sources():
        for parent in ast.walk(tree):
            for child in ast.iter_child_nodes(parent):
                if not isinstance(child, ast.GeneratorExp):
                    continue
                func = parent.func if isinstance(parent, ast.Call) else None
                if not (
                    (isinstance(func, ast.Name) and func.id in CONSUMERS)
                    or (isinstance(func, ast.Attribute) and func.attr in CONSUMING_METHODS)
                ):
                    found.append(f"{path.relative_to(ROOT)}:{child.lineno}")
    assert found == []


def test_no_augmented_assignment_to_a_list_item_in_compiled_modules() -> None:
    """mypyc compiles `items[i] += v` to a generic in-place add on the boxed item (PyNumber_InPlaceAdd) and
    `items[i] = items[i] + v` to its own tagged-int add: the engine's vectors (queue, node and user usage, node
    counts) are updated on every allocation, so it writes the second."""
    found = []
    for path, tree in _compiled_sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Subscript):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []


def test_compiled_modules_run_when_all_are_there_and_up_to_date(tmp_path: Path) -> None:
    assert compiled.pure_reason({}, str(_layout(tmp_path))) == ""


def test_the_environment_variable_chooses_the_sources(tmp_path: Path) -> None:
    package = str(_layout(tmp_path))
    assert compiled.pure_reason({"YK_PURE_PYTHON": "1"}, package) == "YK_PURE_PYTHON is set"
    assert compiled.pure_reason({"YK_PURE_PYTHON": ""}, package) == ""


def test_nothing_compiled(tmp_path: Path) -> None:
    assert compiled.pure_reason({}, str(_layout(tmp_path, compiled_too=False))) == "not compiled"


def test_a_missing_compiled_module_means_none_is_used(tmp_path: Path) -> None:
    package = _layout(tmp_path)
    for shared in (package / "core" / "sim").glob("_engine__mypyc*"):
        shared.unlink()
    assert compiled.pure_reason({}, str(package)) == "some compiled modules are missing"


def test_a_source_edited_after_the_build_means_the_sources_run(tmp_path: Path) -> None:
    package = _layout(tmp_path)
    source = package / "core" / "sim" / "cycle.py"
    os.utime(source, (1_000_000 + compiled.STALE_SLACK, 1_000_000 + compiled.STALE_SLACK))
    assert compiled.pure_reason({}, str(package)) == ""  # within the slack: an install writes both, in any order
    os.utime(source, (1_000_010, 1_000_010))
    assert compiled.pure_reason({}, str(package)) == (
        "yk_cli.core.sim.cycle changed after it was compiled (pip install again to rebuild)"
    )


def _yk(*args: str, pure: bool) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != compiled.PURE_ENV}
    if pure:
        env[compiled.PURE_ENV] = "1"
    return subprocess.run(
        [sys.executable, "-m", "yk_cli", *args], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )


def test_version_says_which_engine_runs() -> None:
    pure = _yk("--version", pure=True)
    assert (pure.returncode, pure.stdout) == (0, "yk 0.1.0 (engine in Python: YK_PURE_PYTHON is set)\n")
    plain = _yk("--version", pure=False).stdout
    reason = compiled.pure_reason({k: v for k, v in os.environ.items() if k != compiled.PURE_ENV})
    hint = "; YK_COMPILE=1 pip install compiles it, for faster dry runs" if reason == "not compiled" else ""
    assert plain == (
        "yk 0.1.0 (engine compiled with mypyc)\n" if not reason else f"yk 0.1.0 (engine in Python: {reason}{hint})\n"
    )


@pytest.mark.parametrize(
    ("reason", "described"),
    [
        ("", "engine compiled with mypyc"),
        ("not compiled", "engine in Python: not compiled; YK_COMPILE=1 pip install compiles it, for faster dry runs"),
        ("YK_PURE_PYTHON is set", "engine in Python: YK_PURE_PYTHON is set"),
        ("some compiled modules are missing", "engine in Python: some compiled modules are missing"),
    ],
)
def test_only_an_install_without_the_engine_is_told_how_to_compile_it(
    monkeypatch: pytest.MonkeyPatch, reason: str, described: str
) -> None:
    monkeypatch.setattr(compiled._FINDER, "reason", reason)
    assert compiled.engine_description() == described


@needs_compiled
def test_this_process_runs_what_the_install_has() -> None:
    loaded = Path(engine_run.__file__ or "")
    assert loaded.suffix == (".py" if os.environ.get(compiled.PURE_ENV) else ".so")


@needs_compiled
@pytest.mark.parametrize("workload", WORKLOADS, ids=lambda p: p.stem)
def test_both_engines_write_the_same_bytes(workload: Path) -> None:
    pair = (_config_of(workload), str(workload.relative_to(ROOT)))
    for extra in (("--format", "text"), ("--format", "json", "--explain-preemption")):
        fast, slow = _yk("simulate", *pair, *extra, pure=False), _yk("simulate", *pair, *extra, pure=True)
        assert (fast.returncode, fast.stdout, fast.stderr) == (slow.returncode, slow.stdout, slow.stderr)
        assert fast.stdout


@needs_compiled
def test_both_engines_write_the_same_bytes_on_a_generated_cluster(tmp_path: Path) -> None:
    made = _yk(
        "generate",
        "--nodes",
        "60",
        "--queues",
        "12",
        "--apps",
        "80",
        "--asks",
        "900",
        "--running",
        "0.5",
        "--seed",
        "7",
        "--out-dir",
        str(tmp_path),
        pure=False,
    )
    assert made.returncode == 0, made.stderr
    pair = (str(tmp_path / "queues.yaml"), str(tmp_path / "workload.yaml"))
    fast, slow = (
        _yk("simulate", *pair, "--format", "json", pure=False),
        _yk("simulate", *pair, "--format", "json", pure=True),
    )
    assert (fast.returncode, fast.stdout, fast.stderr) == (slow.returncode, slow.stdout, slow.stderr)
    assert '"allocations"' in fast.stdout
