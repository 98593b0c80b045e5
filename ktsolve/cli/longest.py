"""``ktsolve longest BOARD``: the longest knight's path, exactly (CP-SAT or python-constraint)."""

from __future__ import annotations

import click

from ..output import is_stdout
from ..render import path_matrix_text, result_json
from ..solve import longest as longest_path
from .answers import emit, interruptible, nothing_written, say_interrupted
from .args import (
    BOARD_CONTEXT,
    SEED,
    TIME_LIMIT,
    BoardCommand,
    format_option,
    load_question,
    output_format,
    output_option,
)

__all__ = ["longest_command"]


@click.command("longest", cls=BoardCommand, context_settings=BOARD_CONTEXT)
@click.argument("board", metavar="BOARD")
@click.option("--holes", metavar="SQS", multiple=True,
              help="Holes: names like a1,h8 or row,col pairs like 7,0;0,7 (repeatable: the lists add up).")
@click.option("--start", metavar="SQ", help="First square of the path (anywhere if omitted).")
@click.option("--time-limit", type=TIME_LIMIT, metavar="S", help="Seconds before stopping with the best path and its bound.")
@click.option("--seed", type=SEED, default=0, help="CP-SAT's seed.")
@click.option("--method", "-m", type=click.Choice(["cpsat", "csp"]), default="cpsat",
              help="cpsat: CP-SAT's circuit model; csp: the Prolog paper's declarative search "
              "(python-constraint, growing length; boards of at most 64 squares).")
@format_option(("text", "json"), "Output format.")
@output_option("Write the path here instead of stdout (``verify --path`` checks it); nothing when none is found.")
def longest_command(board, holes, start, time_limit, seed, method, fmt, output):
    """The longest knight's path on BOARD from --start, exactly (CP-SAT, or python-constraint).

    Prints the path as a matrix of step numbers (unvisited squares as ..);
    exit 0 when the optimum is proven, 3 when the time limit stopped the
    search first (the best path and the proven bound are reported).
    """
    fmt = output_format(fmt, output, ("text", "json"))
    b, start, _ = load_question(board, holes, start)
    res = interruptible(lambda: longest_path(b, start=start, time_limit=time_limit, seed=seed, method=method))
    if res is None:
        return say_interrupted()
    if fmt == "json":
        payload = result_json(res) + "\n"
    else:
        payload = (path_matrix_text(res.path) + "\n") if res.path is not None else "no path found\n"
    if res.path is not None or is_stdout(output):
        emit(payload, output)
    st = res.stats
    where = f" from {b.name(*res.spec.start)}" if res.spec.start is not None else ""
    if st["optimal"]:
        line = f"longest path{where}: {st['length']} of {b.n_squares} squares (optimal)"
    else:
        line = (f"longest path{where}: {st['length']} of {b.n_squares} squares found; no path is longer "
                f"than {st['bound']} (stopped after {res.elapsed:.3g} s)")
    click.echo(f"ktsolve: {line} in {res.elapsed:.3g} s", err=True)
    if res.path is None:
        nothing_written(output, "no path was found")
    return res.exit_code
