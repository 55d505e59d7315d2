"""The typer application of `yk`: its group, its command class and every command registered on it."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Annotated, Any

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup

from yk_cli.cli import Exit, prose
from yk_cli.commands.declare import declared, required


class _NamedArgument(TyperArgument):
    """An argument shown by its metavar alone (CONFIG), not followed by its Python type (`<str>`); on the usage line
    a required one is its bare name and an optional one is in brackets, as POSIX usage lines write them (typer
    writes `{CONFIG}`)."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return None

    def _usage_display_name(self) -> str:
        name: str = self.display_name_raw
        if not self.required:
            name = f"[{name}]"
        return name + ("..." if self.nargs != 1 and not name.endswith("...") else "")


def _plain_help_option(option: Any) -> Any:
    """The help flag without a type column (typer shows `<bool>` for a flag with no metavar)."""
    if option is not None:
        option.metavar = ""
    return option


class YkCommand(TyperCommand):
    """A `yk` command: its docstring reflowed as prose, arguments named by their metavars, flags untyped."""

    def __init__(self, name: str | None, **kwargs: Any) -> None:
        super().__init__(name, **kwargs)
        self.help = prose(self.help)
        for param in self.params:
            if type(param) is TyperArgument:
                param.__class__ = _NamedArgument

    def get_help_option(self, ctx: Any) -> Any:
        return _plain_help_option(super().get_help_option(ctx))


class YkGroup(TyperGroup):
    """The `yk` group: its help reflowed as prose and its help flag untyped, like every YkCommand; a command's
    yk_cli.cli.Exit ends the program with its status, as typer.Exit does."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.help = prose(self.help)

    def get_help_option(self, ctx: Any) -> Any:
        return _plain_help_option(super().get_help_option(ctx))

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except Exit as done:
            raise typer.Exit(done.exit_code) from None


def register(
    group: typer.Typer, declaration: type, run: Callable[[Any], None], help: str, name: str, cls: type = YkCommand
) -> None:
    """Register a command on a typer group from its declaration (commands.declare): typer reads the parameters of
    a function whose signature is made from the declaration's fields, and the function calls run with the one
    frozen value."""
    parameters = []
    for f, param, kind in declared(declaration):
        info: Any
        if param.flags:
            info = typer.Option(*param.flags, metavar=param.metavar, help=param.help, show_default=param.show_default)
        else:
            info = typer.Argument(metavar=param.metavar, help=param.help, show_default=param.show_default)
        parameters.append(
            inspect.Parameter(
                f.name,
                inspect.Parameter.KEYWORD_ONLY,
                default=inspect.Parameter.empty if required(f) else f.default,
                annotation=Annotated[kind, info],
            )
        )

    def command(**given: Any) -> None:
        run(declaration(**given))

    command.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in parameters}
    command.__doc__ = help
    command.__name__ = name
    group.command(name=name, cls=cls)(command)


ROOT_HELP = """Lint, explain and dry-run Apache YuniKorn queue configurations.

Example: yk validate queues.yaml"""

app = typer.Typer(
    name="yk",
    cls=YkGroup,
    help=ROOT_HELP,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        from yk_cli import __version__, compiled

        typer.echo(f"yk {__version__} ({compiled.engine_description()})")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_version,
            is_eager=True,
            metavar="",
            help="Print the version (and whether the engine is compiled) and exit.",
        ),
    ] = False,
) -> None:
    """Lint, explain and dry-run Apache YuniKorn queue configurations."""


# Each command lives in its own module and registers itself on `app` when imported.
from yk_cli.commands import diff as _diff  # noqa: E402, F401
from yk_cli.commands import explain as _explain  # noqa: E402, F401
from yk_cli.commands import generate as _generate  # noqa: E402, F401
from yk_cli.commands import rules as _rules  # noqa: E402, F401
from yk_cli.commands import schema as _schema  # noqa: E402, F401
from yk_cli.commands import tree as _tree_command  # noqa: E402
from yk_cli.commands import volcano as _volcano  # noqa: E402, F401

register(app, _tree_command.TreeArgs, _tree_command.print_tree, _tree_command.HELP, "tree")
from yk_cli.commands import priorities as _priorities_command  # noqa: E402

register(
    app,
    _priorities_command.PrioritiesArgs,
    _priorities_command.print_priorities,
    _priorities_command.HELP,
    "priorities",
)
from yk_cli.commands import simulate as _simulate_command  # noqa: E402


class SimulateCommand(YkCommand):
    """`yk simulate`: `--timeline` may come alone (sections per queue) or with its value, queue or node."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        out: list[str] = []
        rest = iter(args)
        for arg in rest:
            out.append(arg)
            if arg == "--":
                out.extend(rest)
                break
            if arg == "--timeline":
                following = next(rest, None)
                if following not in _simulate_command.TIMELINE_BY:  # alone, or before another option or a file
                    out.append("queue")
                if following is not None:
                    out.append(following)
        return super().parse_args(ctx, out)


register(
    app,
    _simulate_command.SimulateArgs,
    _simulate_command.print_simulation,
    _simulate_command.HELP,
    "simulate",
    SimulateCommand,
)
from yk_cli.commands import check as _check_command  # noqa: E402

register(app, _check_command.CheckArgs, _check_command.run_check, _check_command.HELP, "check")
from yk_cli.commands import validate as _validate_command  # noqa: E402

register(app, _validate_command.ValidateArgs, _validate_command.validate_command, _validate_command.HELP, "validate")
