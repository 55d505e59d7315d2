"""How yk is built (setup.py, _backend/yk_backend.py, yk_cli/compiled.py): by default nothing is compiled (a pure-Python
wheel, no mypy, no C compiler: the linting install takes seconds); YK_COMPILE=1 compiles the engine and the YAML
reader's C binding, or fails, never leaving compiled and Python engine modules mixed.

The YK_COMPILE=1 build itself is the test command's install (README, .ci/run: `export YK_COMPILE=1 && pip install -e
'.[test]' && python -m pytest`): test_an_install_asked_to_compile_runs_the_compiled_engine checks what it built, so the
suite never compiles the engine a second time.
"""

from __future__ import annotations

import os
import runpy
import shutil
import subprocess
import sys
import zipfile
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from tests.helpers.paths import ROOT
from yk_cli import __version__, compiled

BACKEND = ROOT / "_backend"


def _without_compile(**more: str) -> dict[str, str]:
    """This process's environment without YK_COMPILE (the test command sets it) or YK_PURE_PYTHON."""
    env = {k: v for k, v in os.environ.items() if k not in (compiled.COMPILE_ENV, compiled.PURE_ENV)}
    return {**env, **more}


@pytest.mark.parametrize(
    ("value", "requested"),
    [
        (None, False),
        ("", False),
        ("0", False),
        ("no", False),
        ("False", False),
        ("off", False),
        ("1", True),
        ("true", True),
        ("YES", True),
        (" on ", True),
    ],
)
def test_compile_is_asked_for_by_yes_values_only(value: str | None, requested: bool) -> None:
    environ = {} if value is None else {compiled.COMPILE_ENV: value}
    assert compiled.compile_requested(environ) is requested


def test_a_value_that_is_neither_yes_nor_no_is_refused() -> None:
    with pytest.raises(ValueError, match=r"YK_COMPILE='fast': set it to 1 to compile yk's engine, or to 0"):
        compiled.compile_requested({compiled.COMPILE_ENV: "fast"})


@pytest.fixture
def backend(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The build backend module, imported as pip imports it (its folder on sys.path, the source folder as cwd)."""
    monkeypatch.syspath_prepend(str(BACKEND))
    monkeypatch.chdir(ROOT)
    import yk_backend

    return yk_backend


def test_the_backend_asks_for_mypy_only_when_compiling(backend: Any) -> None:
    assert backend.compile_requires({}) == []
    assert backend.compile_requires({compiled.COMPILE_ENV: "0"}) == []
    assert backend.compile_requires({compiled.COMPILE_ENV: "1"}) == ["mypy>=1.15"]
    with pytest.raises(SystemExit, match=r"^yk: YK_COMPILE='maybe': set it to 1"):
        backend.compile_requires({compiled.COMPILE_ENV: "maybe"})


def test_pyproject_names_the_backend_and_no_compiler_requirement() -> None:
    import tomllib

    build = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]
    assert (build["build-backend"], build["backend-path"]) == ("yk_backend", ["_backend"])
    assert not any(requirement.startswith("mypy") for requirement in build["requires"])
    assert "include _backend/yk_backend.py" in (ROOT / "MANIFEST.in").read_text().splitlines()  # (an sdist builds)


def test_the_test_command_and_ci_install_the_compiled_engine() -> None:
    """The README's test command and .ci/run set YK_COMPILE=1 for the install and the suite (which then checks it)."""
    command = "python3 -m venv .venv && . .venv/bin/activate && export YK_COMPILE=1 && pip install -e '.[test]' && "
    assert f"{command}python -m pytest\n" in (ROOT / "README.md").read_text()
    assert "export YK_COMPILE=1 && pip install -q -e '.[test]' && " in (ROOT / ".ci" / "run").read_text()


def _sources(tmp_path: Path) -> Path:
    """What a build reads, copied without this checkout's build products (an editable install's compiled modules)."""
    source = tmp_path / "src"
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "build", "*.egg-info")
    for name in ("yk_cli", "_backend"):
        shutil.copytree(ROOT / name, source / name, ignore=ignore)
    for name in ("setup.py", "pyproject.toml", "README.md", "MANIFEST.in"):
        shutil.copy2(ROOT / name, source / name)
    return source


def test_the_default_build_is_a_pure_python_wheel_that_runs_the_python_engine(tmp_path: Path) -> None:
    """`pip install .` without YK_COMPILE: no extension module in the wheel (whose tag then says so: any platform), and
    `yk --version` says the engine runs as Python and how to compile it."""
    source, out = _sources(tmp_path), tmp_path / "wheels"
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-cache-dir", "-w", str(out), str(source)],
        env=_without_compile(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    wheels = list(out.iterdir())
    assert [wheel.name for wheel in wheels] == [f"yk-{__version__}-py3-none-any.whl"]
    with zipfile.ZipFile(wheels[0]) as wheel:
        names = wheel.namelist()
        assert "yk_cli/core/sim/cycle.py" in names
        assert [name for name in names if name.endswith((".so", ".pyd", *EXTENSION_SUFFIXES))] == []
        wheel.extractall(tmp_path / "unpacked")
    shown = subprocess.run(
        [sys.executable, "-m", "yk_cli", "--version"],
        cwd=tmp_path,
        env=_without_compile(PYTHONPATH=str(tmp_path / "unpacked")),
        capture_output=True,
        text=True,
        check=False,
    )
    assert (shown.returncode, shown.stderr) == (0, "")
    hint = "YK_COMPILE=1 pip install compiles it, for faster dry runs"
    assert shown.stdout == f"yk {__version__} (engine in Python: not compiled; {hint})\n"


@pytest.mark.skipif(
    not compiled.compile_requested(os.environ),
    reason="YK_COMPILE is not set here: this install need not be compiled (the README's test command sets it)",
)
def test_an_install_asked_to_compile_runs_the_compiled_engine() -> None:
    """The test command installs with YK_COMPILE=1: every engine module was built (a failed compile fails the
    install), and yk runs them (else the comparisons in test_compiled.py would skip unnoticed). In an editable install
    whose engine was edited since, the Python sources run instead, as they should."""
    reason = compiled.pure_reason({})
    if reason.endswith("changed after it was compiled (pip install again to rebuild)"):
        return
    assert reason == ""
    shown = subprocess.run(
        [sys.executable, "-m", "yk_cli", "--version"],
        cwd=ROOT,
        env=_without_compile(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert shown.stdout == f"yk {__version__} (engine compiled with mypyc)\n"


class _Setup:
    """setup.py's definitions, read with setuptools.setup replaced (nothing is built) and YK_COMPILE as given."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, compile_value: str) -> None:
        monkeypatch.setenv(compiled.COMPILE_ENV, compile_value)
        monkeypatch.chdir(ROOT)
        with mock.patch("setuptools.setup") as setup:
            self.names = runpy.run_path(str(ROOT / "setup.py"), run_name="setup")
        self.kwargs = setup.call_args.kwargs


def test_the_default_build_declares_no_extension(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _Setup(monkeypatch, "").kwargs["ext_modules"] == []


def test_a_compiled_build_declares_every_engine_module(monkeypatch: pytest.MonkeyPatch) -> None:
    read = _Setup(monkeypatch, "1")
    assert [ext.name for ext in read.kwargs["ext_modules"]] == [*compiled.COMPILED_MODULES, compiled.GROUP + "__mypyc"]


def test_a_failed_compile_fails_the_build_and_leaves_no_engine_module(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A C compiler that fails on the fourth engine module: the build fails, naming the cause, and the modules built
    before it are removed, in the build folder and beside the sources (an editable install), with an earlier build's
    copies; nothing is compiled for real (build_extension only writes the file it would build)."""
    from setuptools import Extension
    from setuptools.dist import Distribution
    from setuptools.errors import CompileError

    read = _Setup(monkeypatch, "1")
    engine = read.names["ENGINE"]
    failing = engine[3].name
    base: Any = read.names["BuildExt"]
    mypycified = [Extension(ext.name, sources=[f"build/{ext.name}.c"]) for ext in engine]
    monkeypatch.setitem(base.run.__globals__, "engine_extensions", lambda: mypycified)  # (run_path gave a copy)

    class Compiler(base):
        def build_extension(self, ext: Extension) -> None:
            if ext.name == failing:
                raise CompileError(f"cc failed on {ext.name}")
            path = Path(self.get_ext_fullpath(ext.name))
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(b"")

    monkeypatch.chdir(tmp_path)  # the in-place paths are the temporary folder's
    earlier = tmp_path / "yk_cli" / "core" / "sim" / ("cycle" + EXTENSION_SUFFIXES[0])
    earlier.parent.mkdir(parents=True)
    earlier.write_bytes(b"")
    dist = Distribution({"name": "yk", "ext_modules": read.kwargs["ext_modules"], "packages": []})
    command = Compiler(dist)
    command.build_lib, command.build_temp = str(tmp_path / "lib"), str(tmp_path / "temp")
    command.ensure_finalized()
    with pytest.raises(CompileError, match=failing):
        command.run()
    assert f"yk: compiling failed (cc failed on {failing}); YK_COMPILE=1 needs a C compiler" in capsys.readouterr().err
    assert [path for path in tmp_path.rglob("*") if path.is_file()] == []
