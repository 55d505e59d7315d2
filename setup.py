"""Build yk's optional compiled parts (everything else is in pyproject.toml):

- the C extension yk_cli.load._yamlevents (libyaml's events as tuples); without it yk reads YAML through
  ruamel.yaml.clib;
- the simulation engine (yk_cli.compiled.COMPILED_MODULES) compiled with mypyc; without it yk runs the same
  Python sources. Skipped when YK_PURE_PYTHON is set or mypyc cannot be imported; if the C compiler fails on it,
  every engine module it built is removed again, so an install never mixes compiled and Python engine modules.
"""

import os
import runpy
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

LIBYAML = ["api.c", "reader.c", "scanner.c", "parser.c"]

YAMLEVENTS = Extension(
    "yk_cli.load._yamlevents",
    sources=["yk_cli/load/_yamlevents.c", *(f"yk_cli/load/_libyaml/{name}" for name in LIBYAML)],
    include_dirs=["yk_cli/load/_libyaml"],
    define_macros=[("HAVE_CONFIG_H", "1"), ("YAML_DECLARE_STATIC", "1")],
    optional=True,
)

# yk_cli/compiled.py imports only the standard library: read its lists without importing the package.
COMPILED = runpy.run_path(os.path.join("yk_cli", "compiled.py"))


def engine_extensions() -> list[Extension]:
    """The engine's mypyc extensions, or none (Python sources) when compiling is off or mypyc is missing."""
    if os.environ.get(COMPILED["PURE_ENV"]):
        print(f"yk: {COMPILED['PURE_ENV']} is set: the engine stays Python", file=sys.stderr)
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("yk: mypyc is not installed: the engine stays Python", file=sys.stderr)
        return []
    paths = [os.path.join(*module.split(".")) + ".py" for module in COMPILED["COMPILED_MODULES"]]
    try:
        extensions = list(mypycify(paths, opt_level="3", group_name=COMPILED["GROUP"]))
        for extension in extensions:
            extension.optional = True  # see BuildExt
        return extensions
    except (Exception, SystemExit) as error:  # e.g. a newer mypy that rejects the sources: exits after its report
        print(f"yk: mypyc could not compile the engine ({error!r}): the engine stays Python", file=sys.stderr)
        return []


class BuildExt(build_ext):
    """build_ext that drops the whole compiled engine when any of its modules fails to build (each is optional to
    setuptools, which warns and goes on; a half-built engine is removed, stale copies from earlier builds too)."""

    def run(self) -> None:
        self.engine_failure: Exception | None = None
        super().run()
        failed = self.engine_failure
        if failed is not None:
            print(f"yk: compiling the engine failed ({failed}): the engine stays Python", file=sys.stderr)
        for ext in self.extensions:
            if ext is not YAMLEVENTS:
                for path in self._outputs(ext):
                    if not os.path.exists(path):
                        continue
                    if failed is not None:
                        os.remove(path)
                    else:
                        # built now, or skipped as up to date with the C just generated from the sources: either
                        # way as new as the sources (yk_cli/compiled.py runs the sources of an older build)
                        os.utime(path)

    def build_extension(self, ext: Extension) -> None:
        if ext is YAMLEVENTS:
            super().build_extension(ext)
        elif self.engine_failure is None:  # (after one failure the rest is skipped: it would be removed anyway)
            try:
                super().build_extension(ext)
            except Exception as error:  # a compiler's failure has many types; the fallback is the same
                self.engine_failure = error
                raise

    def _outputs(self, ext: Extension) -> list[str]:
        """Where the extension's file lands: in the build folder and, for an editable install, beside its source."""
        saved = self.inplace
        try:
            paths = []
            for inplace in (False, True):
                self.inplace = inplace
                paths.append(self.get_ext_fullpath(ext.name))
            return paths
        finally:
            self.inplace = saved


setup(ext_modules=[YAMLEVENTS, *engine_extensions()], cmdclass={"build_ext": BuildExt})
