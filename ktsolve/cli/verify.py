"""``ktsolve verify BOARD TOUR_FILE``: check a tour, a file of tours or a path with the one validator."""

from __future__ import annotations

import click

from ..errors import KtsolveError, TourFileError
from ..exit_codes import ExitCode
from ..files import check_tours
from .answers import one_line
from .args import BOARD_CONTEXT, BoardCommand, board_options, load_question

__all__ = ["verify_command"]


@click.command("verify", cls=BoardCommand, context_settings=BOARD_CONTEXT)
@board_options
@click.argument("tour_file", metavar="TOUR_FILE")
@click.option("--path", "is_path", is_flag=True,
              help="Check a path that need not visit every square (what longest writes).")
def verify_command(board, holes, closed, start, end, tour_file, is_path):
    """Check TOUR_FILE (JSON, .npy, Euler's matrix, a list of squares, - for stdin) on BOARD.

    A file of several tours, one per line (what enumerate writes, gzipped
    or not), has every tour checked.  Exit 0 when valid, 1 when invalid
    (the first fault is printed), 2 when the file cannot be read as tours.
    """
    if board == "-" and tour_file == "-":
        raise click.UsageError("BOARD and TOUR_FILE cannot both be read from standard input")
    b, start, end = load_question(board, holes, start, end)
    if start is not None:
        b.parse_square(start, what="start")
    if end is not None:
        b.parse_square(end, what="end")
    try:
        # one streaming pass: a file of many tours is validated a block at a time and the first fault ends it
        checked = check_tours(b, tour_file, closed=closed, start=start, end=end, complete=not is_path)
    except TourFileError:
        raise
    except KtsolveError as exc:
        click.echo(f"invalid: {one_line(exc)}")
        return ExitCode.INVALID
    kind = "closed" if checked.closed else "open"
    if checked.count > 1:
        click.echo(f"valid: {checked.count:,} {kind} tours of {b.n_squares} squares")
        return ExitCode.OK
    tour = checked.tour
    s, e = b.name(*tour.start), b.name(*tour.end)
    if is_path:
        click.echo(f"valid: {kind} path of {len(tour)} of {b.n_squares} squares from {s} to {e}")
    else:
        click.echo(f"valid: {kind} tour of {len(tour)} squares from {s} to {e}")
    return ExitCode.OK
