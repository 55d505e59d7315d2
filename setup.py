"""Build the optional C extension yk_cli.load._yamlevents (libyaml's events as tuples; everything else is in
pyproject.toml). Without a C compiler the build goes on without it and yk reads YAML through ruamel.yaml.clib."""

from setuptools import Extension, setup

LIBYAML = ["api.c", "reader.c", "scanner.c", "parser.c"]

setup(
    ext_modules=[
        Extension(
            "yk_cli.load._yamlevents",
            sources=["yk_cli/load/_yamlevents.c", *(f"yk_cli/load/_libyaml/{name}" for name in LIBYAML)],
            include_dirs=["yk_cli/load/_libyaml"],
            define_macros=[("HAVE_CONFIG_H", "1"), ("YAML_DECLARE_STATIC", "1")],
            optional=True,
        )
    ]
)
