"""``ktsolve verify BOARD TOUR_FILE``: check a tour, a file of tours or a path with the one validator."""

from __future__ import annotations

import click
import numpy as np

from ..errors import KtsolveError, TourFileError
from ..exit_codes import ExitCode
from ..files import read_tours
from ..tour import validate, validate_many
from .answers import one_line
from .args import BOARD_CONTEXT, BoardCommand, board_options, load_board

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
    b = load_board(board, holes)
    if start is not None:
        b.parse_square(start, what="start")
    if end is not None:
        b.parse_square(end, what="end")
    try:
        tours, stated_closed = read_tours(b, tour_file)
        want_closed = closed or bool(stated_closed)
        if len(tours) > 1:
            validate_many(b, np.stack([t.squares for t in tours]), closed=want_closed, start=start, end=end)
        else:
            tours = [validate(b, tours[0], closed=want_closed, start=start, end=end, complete=not is_path)]
    except TourFileError:
        raise
    except KtsolveError as exc:
        click.echo(f"invalid: {one_line(exc)}")
        return ExitCode.INVALID
    kind = "closed" if want_closed else "open"
    if len(tours) > 1:
        click.echo(f"valid: {len(tours):,} {kind} tours of {b.n_squares} squares")
        return ExitCode.OK
    tour = tours[0]
    s, e = b.name(*tour.start), b.name(*tour.end)
    if is_path:
        click.echo(f"valid: {kind} path of {len(tour)} of {b.n_squares} squares from {s} to {e}")
    else:
        click.echo(f"valid: {kind} tour of {len(tour)} squares from {s} to {e}")
    return ExitCode.OK
