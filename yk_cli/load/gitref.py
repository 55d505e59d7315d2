"""Queue configs named `git:REV:PATH`: the file as it is at a revision, read through `git show` (for `yk diff`)."""

from __future__ import annotations

import subprocess
from dataclasses import replace

from yk_cli.load.config import LoadResult, load_config
from yk_cli.load.source import InputError

PREFIX = "git:"


def is_git_ref(spec: str) -> bool:
    """Whether the input names a file at a git revision."""
    return spec.startswith(PREFIX)


def git_show(spec: str) -> bytes:
    """The bytes of `git:REV:PATH` (`git show REV:PATH` in the current directory); InputError with git's own message
    when git is missing or refuses, for a revision that looks like an option, and for a directory."""
    rev, sep, path = spec[len(PREFIX) :].partition(":")
    if not sep or not rev or not path:
        raise InputError(f"{spec}: expected git:REV:PATH, e.g. git:main:queues.yaml or git:HEAD~1:./queues.yaml")
    if rev.startswith("-"):
        raise InputError(f"{spec}: the revision {rev!r} starts with '-': a revision, not an option, is expected")
    done = _git(spec, "show", f"{rev}:{path}")
    if done.stdout.startswith(b"tree ") and _git(spec, "cat-file", "-t", f"{rev}:{path}").stdout.strip() == b"tree":
        raise InputError(f"{spec}: {path!r} is a directory at {rev}, not a file")
    return done.stdout


def _git(spec: str, *args: str) -> subprocess.CompletedProcess[bytes]:
    """`git COMMAND --end-of-options ARG...` (whatever the arguments hold, git never takes them for options); an
    InputError with git's first line when git is missing or fails."""
    command, *rest = args
    try:
        done = subprocess.run(
            ["git", command, *rest[:-1], "--end-of-options", rest[-1]],
            capture_output=True,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except FileNotFoundError:
        raise InputError(f"{spec}: git is not installed (or not on the PATH)") from None
    except OSError as err:
        raise InputError(f"{spec}: cannot run git: {err.strerror or err}") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise InputError(f"{spec}: {message[0] if message else f'git {command} failed (exit {done.returncode})'}")
    return done


def load_config_input(spec: str, policy_group: str = "queues") -> LoadResult:
    """load_config for a file, '-', or `git:REV:PATH` (read through git and reported under that name)."""
    if not is_git_ref(spec):
        return load_config(spec, policy_group)
    result = load_config("-", policy_group, stdin=git_show(spec))
    result.file = spec
    result.problems = [replace(p, file=spec) for p in result.problems]
    for item in result.configs:
        item.file = spec
    return result
