"""Build yk (everything but the compiled parts is in pyproject.toml).

By default nothing is compiled: the wheel is pure Python (py3-none-any), needs neither a C compiler nor mypy, and
installs in seconds; yk then runs the simulation engine's Python sources (YAML is read by libyaml either way, through
PyYAML's wheel, a dependency).

With YK_COMPILE=1 (yk_cli/compiled.py: COMPILE_ENV) in the environment of `pip install`, the build compiles the
simulation engine (yk_cli.compiled.COMPILED_MODULES) with mypyc, for faster dry runs on big workloads; mypy is then a
build requirement (the build backend, _backend/yk_backend.py, asks for it), and mypyc runs in build_ext only, not
each time pip runs this file for the build's requirements and metadata.

The compile was asked for, so a failure fails the install (naming the cause) rather than leaving a slower yk behind
unnoticed; the engine modules it built before failing are removed first, so that an editable install never mixes
compiled and Python engine modules.
"""

import os
import runpy
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# yk_cli/compiled.py imports only the standard library: read its lists without importing the package.
COMPILED = runpy.run_path(os.path.join("yk_cli", "compiled.py"))
try:
    COMPILE = COMPILED["compile_requested"](os.environ)
except ValueError as error:
    sys.exit(f"yk: {error}")


def engine_extensions() -> list[Extension]:
    """The engine's mypyc extensions (mypyc type-checks the modules and writes their C)."""
    try:
        from mypyc.build import mypycify
    except ImportError as error:
        raise RuntimeError(
            f"{COMPILED['COMPILE_ENV']}=1 compiles the engine with mypyc, which is not installed here ({error}): let"
            f" pip install the build requirements (no --no-build-isolation), or install {COMPILED['COMPILE_REQUIRES']}"
        ) from error
    paths = [os.path.join(*module.split(".")) + ".py" for module in COMPILED["COMPILED_MODULES"]]
    try:
        return list(mypycify(paths, opt_level="3", group_name=COMPILED["GROUP"]))
    except SystemExit as error:  # mypy exits after its report (e.g. a newer mypy that rejects the sources)
        raise RuntimeError(f"mypyc could not compile the engine (exit status {error.code})") from error


ENGINE = [Extension(name, sources=[]) for name in (*COMPILED["COMPILED_MODULES"], COMPILED["GROUP"] + "__mypyc")]
"""The engine's extensions by name: mypyc's module shims and the group's shared library (yk_cli/compiled.py looks
for the same files). BuildExt fills them in from mypycify when it runs: pip runs this file for the build's
requirements and metadata too, and setuptools needs the extensions' names before build_ext runs."""


class BuildExt(build_ext):
    """build_ext that fills in the engine's extensions when it runs, and removes every engine module it built when
    one fails to build (stale copies from earlier builds too)."""

    def run(self) -> None:
        if not COMPILE:
            super().run()  # (nothing to build; the engine modules of an earlier editable build are left as they are)
            return
        try:
            self._fill_in_engine()
            super().run()
        except BaseException as error:
            self._remove_engine()
            env = COMPILED["COMPILE_ENV"]
            print(
                f"yk: compiling failed ({error}); {env}=1 needs a C compiler, Python's headers and mypy. Without {env}"
                " yk installs its Python engine: the same program, only slower",
                file=sys.stderr,
            )
            raise
        for path in self._engine_outputs():
            # built now, or skipped as up to date with the C just generated from the sources: either way as new as
            # the sources (yk_cli/compiled.py runs the sources of an older build)
            os.utime(path)

    def _fill_in_engine(self) -> None:
        placeholders = {ext.name: ext for ext in self.extensions if ext in ENGINE and not ext.sources}
        if not placeholders:
            return
        built = {ext.name: ext for ext in engine_extensions()}
        if set(built) != set(placeholders):
            raise RuntimeError(f"mypyc's extensions {sorted(built)} are not the engine's {sorted(placeholders)}")
        for name, ext in placeholders.items():
            vars(ext).update({key: value for key, value in vars(built[name]).items() if not key.startswith("_")})

    def _engine_outputs(self) -> list[str]:
        """The engine's extension files that exist, in the build folder and, for an editable install, beside their
        sources."""
        saved = self.inplace
        try:
            paths = []
            for ext in ENGINE:
                for inplace in (False, True):
                    self.inplace = inplace
                    paths.append(self.get_ext_fullpath(ext.name))
            return [path for path in paths if os.path.exists(path)]
        finally:
            self.inplace = saved

    def _remove_engine(self) -> None:
        for path in self._engine_outputs():
            os.remove(path)


setup(ext_modules=[*ENGINE] if COMPILE else [], cmdclass={"build_ext": BuildExt})
