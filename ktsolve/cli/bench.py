"""``ktsolve bench papers`` and ``ktsolve bench methods``: benchmarks through the public API only.

``papers`` reproduces the seed papers' tables beside their published
figures; ``methods`` measures any registered method (a user's included)
against ``prove``'s answers.  :mod:`ktsolve.bench` is imported when a
benchmark runs, never to list the commands.
"""

from __future__ import annotations

import json

import click

from ..exit_codes import ExitCode
from ..progress import terminal_progress
from ..registry import methods as registered_methods
from .args import CONTEXT, SEED, MethodChoice, load_board

__all__ = ["bench_group"]


@click.group("bench", context_settings=CONTEXT)
def bench_group():
    """Benchmarks: the seed papers' tables beside ktsolve's figures, and any method against prove's answers."""


@bench_group.command("papers", context_settings=CONTEXT)
@click.option("--section", "names", multiple=True, metavar="NAME", help="Run only this section (repeatable).")
@click.option("--full", is_flag=True, help="Use the papers' budgets instead of the quick ones.")
@click.option("--seed", type=SEED, default=1, help="Seed of every run.")
@click.option("--plots", metavar="DIR", help="Save figures (needs matplotlib) in this folder.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Output format.")
def papers_command(names, full, seed, plots, fmt):
    """Reproduce the seed papers' tables beside their published figures."""
    from ..bench import format_table, require_plots, sections

    secs = sections()
    unknown = [n for n in names if n not in secs]
    if unknown:
        raise click.BadParameter(
            f"no section {unknown[0]!r}; choose from {', '.join(secs) or 'none'}", param_hint="--section"
        )
    chosen = [secs[n] for n in names] if names else list(secs.values())
    plots = require_plots(plots)  # refused here, before any section runs, when it cannot work
    out = []
    for sec in chosen:
        with terminal_progress(sec.name) as progress:
            tables = sec.run(quick=not full, seed=seed, progress=progress, plots=plots)
        if fmt == "json":
            out.append({"section": sec.name, "title": sec.title, "tables": [t.to_dict() for t in tables]})
        else:
            click.echo(f"== {sec.title}\n")
            for t in tables:
                click.echo(format_table(t) + "\n")
    if fmt == "json":
        click.echo(json.dumps(out, indent=2))
    return ExitCode.OK


def _import_plugins(ctx, param, value):
    """--import: import the user's modules before --method is checked, so their registered methods count."""
    from ..bench.methods import import_plugin

    for target in value:
        import_plugin(target)
    return value


def _holes_value(ctx, param, value):
    for cast in (int, float):
        try:
            return cast(value)
        except ValueError:
            pass
    raise click.BadParameter(f"{value!r} is neither a number of holes nor a share of the cells like 0.05", ctx, param)


@bench_group.command("methods", context_settings=CONTEXT)
@click.option("--import", "imports", multiple=True, metavar="MODULE", is_eager=True, expose_value=False,
              callback=_import_plugins,
              help="Import a module or .py file first, e.g. one that calls ktsolve.register_method (repeatable).")
@click.option("--method", "-m", "names", multiple=True, type=MethodChoice(extra=("all",)), required=True,
              help="Method to run (repeatable; 'all': every registered method, those that cannot answer skipped).")
@click.option("--boards", "sizes", default="8x8", metavar="SIZES", help="Board sizes, comma-separated: 8x8,10x10.")
@click.option("--holes", default="0", callback=_holes_value, metavar="K",
              help="Holes of each board: a number, or a share of the cells like 0.05 (random_holed_board).")
@click.option("--draws", type=click.IntRange(1, 10_000), metavar="N",
              help="Holed boards drawn per size (default 3 with --holes, else 1).")
@click.option("--tour", "tour", type=click.Choice(["open", "closed", "both"]), default="open", help="Tours asked for.")
@click.option("--seeds", type=click.IntRange(1, 1_000_000), default=5, help="Runs per board and question.")
@click.option("--seed", type=click.IntRange(0, 2**32 - 1), default=1, help="Seed of the boards and of the runs.")
@click.option("--time-limit", type=click.FloatRange(0, min_open=True), default=5.0, metavar="S",
              help="Seconds per run.")
@click.option("--prove-time-limit", type=click.FloatRange(0, min_open=True), default=60.0, metavar="S",
              help="Seconds for prove's answer on each board and question.")
@click.option("--plots", metavar="DIR", help="Save bench_methods.png (needs matplotlib) in this folder.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Output format.")
def bench_methods_command(names, sizes, holes, draws, tour, seeds, seed, time_limit, prove_time_limit, plots, fmt):
    """Success rate, time to first tour and tours per attempt of any method, against prove's answers.

    Exit 0, or 1 when a run contradicts prove or returns a tour the
    validator refuses (the table names it).
    """
    from ..bench import format_table
    from ..bench.methods import bench_methods, check_plotting

    if plots:
        check_plotting()
    chosen = list(registered_methods()) if "all" in names else list(dict.fromkeys(names))
    boards = [load_board(part.strip(), None) for part in sizes.split(",") if part.strip()]
    if not boards:
        raise click.BadParameter("give at least one board size", param_hint="--boards")
    tours = ["open", "closed"] if tour == "both" else [tour]
    boards = [b.spec() if b.is_full and holes else b for b in boards]
    with terminal_progress("ktsolve bench methods") as progress:
        rep = bench_methods(chosen, boards, holes=holes, draws=draws, tours=tours, seeds=seeds, seed=seed,
                            time_limit=time_limit, prove_time_limit=prove_time_limit, progress=progress)
    if fmt == "json":
        click.echo(json.dumps(rep.to_dict(), indent=2))
    else:
        click.echo(format_table(rep.table()))
    if plots:
        for path in rep.plot(plots):
            click.echo(f"ktsolve: wrote {path}", err=True)
    click.echo(f"ktsolve: {len(rep.runs)} runs, {rep.bugs} disagreeing with prove or refused by the validator",
               err=True)
    return ExitCode.INVALID if rep.bugs else ExitCode.OK
