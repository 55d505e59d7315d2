"""`yk import`: the command group that turns recorded workloads into yk workload files (its commands live in
import_csv.py, import_helios.py and import_pods.py; the registry puts the group on `yk`)."""

from __future__ import annotations

import typer

from yk_cli.commands.application import YkGroup

IMPORT_HELP = """Turn recorded workloads into yk workload files, to replay them with yk simulate: a CSV of jobs, the
Helios GPU cluster trace, or a kubectl pods history. The recorded start of each pod is kept as observedStartTime.

Example: yk import helios cluster_log.csv --until 24h --out-dir venus"""

import_app = typer.Typer(
    name="import",
    cls=YkGroup,
    help=IMPORT_HELP,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
