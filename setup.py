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
        return list(mypycify(paths, opt_level="3", group_name=COMPILED["GROUP"]))
    except (Exception, SystemExit) as error:  # e.g. a newer mypy that rejects the sources: exits after its report
        print(f"yk: mypyc could not compile the engine ({error!r}): the engine stays Python", file=sys.stderr)
        return []


class BuildExt(build_ext):
    """build_ext that drops the whole compiled engine when any of its modules fails to build."""

    def run(self) -> None:
        engine = [ext for ext in self.extensions if ext is not YAMLEVENTS]
        try:
            super().run()
        except Exception as error:  # a compiler's failure has many types; the fallback is the same
            if not engine:
                raise
            print(f"yk: compiling the engine failed ({error}): the engine stays Python", file=sys.stderr)
            for ext in engine:
                path = self.get_ext_fullpath(ext.name)
                if os.path.exists(path):
                    os.remove(path)
            self.extensions = [YAMLEVENTS]
            super().run()


setup(ext_modules=[YAMLEVENTS, *engine_extensions()], cmdclass={"build_ext": BuildExt})
