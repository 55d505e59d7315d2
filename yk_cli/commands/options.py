"""Options several `yk` commands share, declared once: their flags, metavars and help."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from yk_cli.cli import MAX_SIZE_HELP
from yk_cli.commands.project import CONFIG_HELP, NO_CONFIG_HELP

MaxSizeOption = Annotated[Optional[str], typer.Option("--max-size", metavar="SIZE", help=MAX_SIZE_HELP)]
QuietOption = Annotated[
    bool, typer.Option("--quiet", "-q", metavar="", help="No summary line for warnings on standard error.")
]
ProjectConfigOption = Annotated[Optional[str], typer.Option("--config", metavar="FILE", help=CONFIG_HELP)]
NoConfigOption = Annotated[bool, typer.Option("--no-config", metavar="", help=NO_CONFIG_HELP)]
YunikornVersionOption = Annotated[
    str,
    typer.Option(
        "--yunikorn-version", metavar="VERSION", help="YuniKorn to model; 1.5 or older applies stateaware's filter."
    ),
]
WorkloadPartitionOption = Annotated[
    Optional[str],
    typer.Option("--partition", metavar="NAME", help="The partition (default: the workload's `partition`)."),
]
CiFormatOption = Annotated[
    Optional[str],
    typer.Option(
        "--format",
        "-f",
        metavar="FORMAT",
        help="text, json, github or sarif (github is the default under GitHub Actions).",
    ),
]
ClusterOption = Annotated[
    Optional[str],
    typer.Option(
        "--cluster",
        metavar="DUMP",
        help="A `kubectl get nodes,pods,priorityclasses -A -o yaml` dump ('-' for stdin) as the workload. Its "
        "yunikorn-configs queues.yaml is the queue config (YuniKorn's built-in default without one), unless CONFIG "
        "is given. No WORKLOAD with it.",
    ),
]
WorkloadOption = Annotated[
    Optional[str],
    typer.Option(
        "--workload",
        "-w",
        metavar="PATH",
        help="Workload file: nodes, applications, asks; '-' for stdin (or give it as WORKLOAD).",
    ),
]
VolcanoConfOption = Annotated[
    Optional[str],
    typer.Option(
        "--conf",
        metavar="FILE",
        help="volcano-scheduler.conf (or its ConfigMap); default: the dump's volcano-scheduler-configmap, else "
        "Volcano's built-in default.",
    ),
]
