"""``ktsolve enumerate BOARD``: run an ant colony and keep every distinct tour it meets."""

from __future__ import annotations

import json
import sys

import click

from ..checks import COUNT_MAX
from ..exit_codes import ExitCode
from ..files import write_tours
from ..output import is_stdout
from ..progress import terminal_progress
from ..registry import enumerating_methods
from ..solve import enumerate_tours
from .answers import nothing_written, say_interrupted
from .args import (
    BOARD_CONTEXT,
    SEED,
    TIME_LIMIT,
    BoardCommand,
    board_options,
    load_board,
    output_option,
    parse_params,
)

__all__ = ["enumerate_command"]


@click.command("enumerate", cls=BoardCommand, context_settings=BOARD_CONTEXT)
@board_options
@click.option("--method", "-m", type=click.Choice(enumerating_methods()), default="aco", help="Method to run.")
@click.option("--cycles", type=click.IntRange(0, COUNT_MAX), metavar="N",
              help="Cycles to run (default: the method's budget).")
@click.option("--seed", type=SEED, help="Seed (a fresh one is drawn and reported if omitted).")
@click.option("--time-limit", type=TIME_LIMIT, metavar="S", help="Stop after S seconds.")
@output_option("Write the distinct tours here, one per line (.gz compresses); nothing when none is kept.")
@click.option("--param", "-p", "params", multiple=True, metavar="KEY=VALUE", help="Method parameter (repeatable).")
def enumerate_command(board, holes, closed, start, end, method, cycles, seed, time_limit, output, params):
    """Run an ant colony on BOARD and keep every distinct complete tour it meets.

    Prints JSON whose stats give walks, complete tours, distinct tours,
    closed tours and the production rate (complete tours per walk).  Exit 0
    when at least one tour was kept, 3 when none, 1 when a necessary
    condition proves that none exists, 130 after Ctrl-C (the tours found so
    far are written and counted).
    """
    if output is not None and is_stdout(output):
        raise click.BadParameter("enumerate prints its JSON on standard output; give a file for the tours",
                                 param_hint="'-o' / '--output'")
    if sys.stdout is None:
        raise click.UsageError("standard output is closed: enumerate prints its JSON there")
    b = load_board(board, holes)
    kw = parse_params(params, enumerate_tours)
    with terminal_progress(f"ktsolve enumerate {method}") as progress:
        try:
            # not interruptible(): after Ctrl-C the tours found so far are kept, written and counted
            res = enumerate_tours(b, method, cycles=cycles, closed=closed, start=start, end=end, seed=seed,
                                  time_limit=time_limit, progress=progress, **kw)
        except KeyboardInterrupt:  # a second Ctrl-C, or one outside the method's guard
            return say_interrupted()
    out = res.to_dict()
    if output and len(res.tours):
        write_tours(output, b, res.tours)
        out["output"] = output
    click.echo(json.dumps(out, indent=2))
    st = res.stats
    line = (f"kept {st['distinct']:,} distinct {'closed ' if closed else ''}tours "
            f"({st['complete']:,} complete in {st['walks']:,} walks) with {res.method} in {res.elapsed:.3g} s "
            f"(seed {res.seed})")
    if "proof" in st:
        line = f"no tour exists: {st['proof']}"
    if st.get("interrupted"):
        line = f"interrupted: {line}"
    click.echo(f"ktsolve: {line}", err=True)
    if output and not len(res.tours):
        nothing_written(output, "no tour was kept")
    if "proof" in st:
        return ExitCode.INFEASIBLE
    if st.get("interrupted"):
        return ExitCode.INTERRUPTED
    return ExitCode.FOUND if st["distinct"] else ExitCode.UNKNOWN
