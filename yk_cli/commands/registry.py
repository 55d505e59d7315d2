"""Every `yk` command on the typer application, each registered from its declaration (commands.declare), in the
order `yk --help` lists them, and the volcano group with its own. Only the entry point (yk_cli.cli) imports this
module; no command module imports typer."""

from __future__ import annotations

from typing import Any

from yk_cli.commands import (
    check,
    diff,
    explain,
    generate,
    import_csv,
    import_helios,
    import_pods,
    priorities,
    rules,
    schema,
    simulate,
    state,
    sweep,
    tree,
    tune,
    validate,
    volcano_explain,
    volcano_simulate,
    volcano_validate,
)
from yk_cli.commands.application import YkCommand, app, register
from yk_cli.commands.import_group import import_app
from yk_cli.commands.volcano import volcano_app

__all__ = ["app"]


class VolcanoExplainCommand(YkCommand):
    """`yk volcano explain`: its usage line says in words what comes where (one argument list holds the dumps, then
    one or two names)."""

    def collect_usage_pieces(self, ctx: object) -> list[str]:
        return ["[OPTIONS]", "DUMP...", "X", "[Y]"]


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
                if following not in simulate.TIMELINE_BY:  # alone, or before another option or a file
                    out.append("queue")
                if following is not None:
                    out.append(following)
        return super().parse_args(ctx, out)


register(app, check.CheckArgs, check.run_check, check.HELP, "check")
register(app, diff.DiffArgs, diff.diff_command, diff.HELP, "diff")
register(app, explain.ExplainArgs, explain.explain_command, explain.HELP, "explain")
register(app, generate.GenerateArgs, generate.generate, generate.HELP, "generate")
register(app, priorities.PrioritiesArgs, priorities.print_priorities, priorities.HELP, "priorities")
register(app, rules.RulesArgs, rules.rules, rules.HELP, "rules")
register(app, schema.SchemaArgs, schema.schema, schema.HELP, "schema")
register(app, simulate.SimulateArgs, simulate.print_simulation, simulate.HELP, "simulate", SimulateCommand)
register(app, state.StateArgs, state.write_state, state.HELP, "state")
register(app, sweep.SweepArgs, sweep.run_sweep, sweep.HELP, "sweep")
register(app, tree.TreeArgs, tree.print_tree, tree.HELP, "tree")
register(app, tune.TuneArgs, tune.run_tune, tune.HELP, "tune")
register(app, validate.ValidateArgs, validate.validate_command, validate.HELP, "validate")
register(
    volcano_app,
    volcano_explain.VolcanoExplainArgs,
    volcano_explain.volcano_explain,
    volcano_explain.HELP,
    "explain",
    VolcanoExplainCommand,
)
register(
    volcano_app,
    volcano_simulate.VolcanoSimulateArgs,
    volcano_simulate.volcano_simulate,
    volcano_simulate.HELP,
    "simulate",
)
register(
    volcano_app,
    volcano_validate.VolcanoValidateArgs,
    volcano_validate.volcano_validate,
    volcano_validate.HELP,
    "validate",
)
app.add_typer(volcano_app, name="volcano")
register(import_app, import_csv.ImportCsvArgs, import_csv.import_csv, import_csv.HELP, "csv")
register(import_app, import_helios.ImportHeliosArgs, import_helios.import_helios, import_helios.HELP, "helios")
register(import_app, import_pods.ImportPodsArgs, import_pods.import_pods, import_pods.HELP, "pods")
app.add_typer(import_app, name="import")
