"""`--config FILE` / `--no-config`: which `.yk.yaml` a command uses; a broken one is a usage error (exit 2)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from yk_cli.commands.console import Exit, fail_usage
from yk_cli.core.diagnostics import EXIT_USAGE

if TYPE_CHECKING:
    from yk_cli.core.lint.project import ProjectConfig


def _fail(messages: list[str]) -> Exit:
    for message in messages:
        sys.stderr.write(f"yk: error: {message}\n")
    return Exit(EXIT_USAGE)


def choose_project_config(path: str | None, no_config: bool) -> ProjectConfig:
    """The project config: FILE with --config, none with --no-config, else the one found upwards from the working
    directory (Exit(2) after printing every problem of a broken one)."""
    from yk_cli.core.lint.project import ProjectConfig
    from yk_cli.load.project import ProjectConfigError, active_project_config, read_project_config

    if path is not None and no_config:
        raise _fail(["--config and --no-config exclude each other"])
    try:
        if no_config:
            return ProjectConfig()
        if path is not None:
            return read_project_config(path)
        return active_project_config()
    except ProjectConfigError as err:
        raise _fail(err.messages) from None


def active_project() -> ProjectConfig:
    """The project config in force: the one a command chose, else the .yk.yaml found upwards (exit 2 if broken)."""
    return choose_project_config(None, False)


@contextmanager
def project_options(path: str | None, no_config: bool) -> Iterator[ProjectConfig]:
    """Inside the block, the project config chosen by --config / --no-config is the one in force."""
    from yk_cli.load.project import project_config_set

    config = choose_project_config(path, no_config)
    with project_config_set(config):
        yield config


@contextmanager
def config_size(text: str | None) -> Iterator[None]:
    """Queue configs read inside the block are limited to `--max-size`, else the project config's `max-size` (a
    usage error when it is not a size)."""
    from yk_cli.load.source import config_limit_set, parse_size

    if text is None:
        text = active_project().max_size
    limit = parse_size(text) if text is not None else None
    if text is not None and not limit:
        raise fail_usage(f"--max-size {text!r} is not a size; give bytes or a unit such as 16MiB or 20MB")
    with config_limit_set(limit):
        yield
