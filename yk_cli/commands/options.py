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
