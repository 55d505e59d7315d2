"""The typer application of `yk`: its group, its command class, and register() for declared commands (the
commands themselves are put on it by yk_cli.commands.registry)."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Annotated, Any

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup

from yk_cli.commands.console import Exit, prose
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
