"""``ktsolve verify BOARD FILE``: check a tour, a file of tours, a path, or a certificate that no tour exists."""

from __future__ import annotations

import click

from ..errors import KtsolveError, TourFileError
from ..exit_codes import ExitCode
from ..files import check_file
from .answers import one_line
from .args import BOARD_CONTEXT, BoardCommand, board_options, load_question

__all__ = ["verify_command"]


@click.command("verify", cls=BoardCommand, context_settings=BOARD_CONTEXT)
@board_options
@click.argument("tour_file", metavar="FILE")
@click.option("--path", "is_path", is_flag=True,
              help="Check a path that need not visit every square (what longest writes).")
@click.option("--checker", type=click.Choice(["auto", "drup", "dratify"]), default="auto", show_default=True,
              help="The DRUP checker of a search's certificate: drup (verified), dratify, or auto (drup on "
                   "small proofs).")
def verify_command(board, holes, closed, start, end, tour_file, is_path, checker):
    """Check FILE on BOARD: a tour (JSON, .npy, Euler's matrix, a list of squares), tours one per line, or a
    certificate that no tour exists (what prove -o writes for a "no"); - reads stdin.

    A file of several tours (what enumerate writes, gzipped or not) has
    every tour checked.  A certificate is checked by its argument's checker
    against BOARD and, when --closed, --start or --end is given, against
    that question (else its own).  Exit 0 when valid, 1 when invalid or not
    checkable (the reason is printed), 2 when the file cannot be read.
    """
    if board == "-" and tour_file == "-":
        raise click.UsageError("BOARD and FILE cannot both be read from standard input")
    b, start, end = load_question(board, holes, start, end)
    if start is not None:
        b.parse_square(start, what="start")
    if end is not None:
        b.parse_square(end, what="end")
    try:
        # one streaming pass: a file of many tours is validated a block at a time and the first fault ends it
        checked = check_file(b, tour_file, closed=closed, start=start, end=end, complete=not is_path)
    except TourFileError:
        raise
    except KtsolveError as exc:
        click.echo(f"invalid: {one_line(exc)}")
        return ExitCode.INVALID
    if isinstance(checked, dict):
        return _certificate(b, checked, closed, start, end, checker)
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


def _certificate(board, data: dict, closed: bool, start, end, checker: str) -> int:
    """Check a certificate read from the file; the question is the options', or the certificate's own."""
    from ..certificates import verify_certificate
    from ..request import make_spec

    asked = closed or start is not None or end is not None
    spec = make_spec(board, closed=closed, start=start, end=end) if asked else None
    verdict = verify_certificate(board, spec, data, checker=checker)
    if verdict.valid:
        from ..certificates import certificate_question

        question = spec if spec is not None else certificate_question(board, data)
        argument = str(data.get("argument"))
        how = argument if verdict.checker in ("", argument) else f"{argument}; {verdict.checker}"
        click.echo(f"valid: no {question.describe(board)} exists ({how})")
        return ExitCode.OK
    click.echo(one_line(verdict.line()))
    return ExitCode.INVALID
