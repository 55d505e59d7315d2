"""`yk volcano`: the command group for Volcano queues, jobs and tasks (its commands live in volcano_*.py; the
registry puts the group on `yk`)."""

from __future__ import annotations

import typer

from yk_cli.commands.application import YkGroup

VOLCANO_HELP = """Lint Volcano's scheduler configuration and objects, dry-run one Volcano scheduling session, and
explain its order: as Volcano really behaves (volcano-sh/volcano v1.10 and later).

Example: yk volcano simulate dump.yaml --conf volcano-scheduler.conf"""

volcano_app = typer.Typer(
    name="volcano",
    cls=YkGroup,
    help=VOLCANO_HELP,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
