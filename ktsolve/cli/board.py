"""``ktsolve board``: commands that make boards (today: ``board random``, a random holed board).

One click group, registered by :mod:`ktsolve.cli.app`.  ``board random ROWSxCOLS
--holes 1% --seed 3 -o mask.npy`` writes a board drawn by
:func:`ktsolve.generate.random_holed_board` (every square with two
neighbours or more, none over-forced, the colours balanced, the knight graph
connected) as a ``.npy`` mask (a 2-D bool array, True on the holes, which
every command reads as a board file) or as board-file text.  A 10,000 x
10,000 mask is a 100 MB file written in seconds.

Bad input is one line on stderr and exit code 2 (the group of ``cli`` turns
:class:`~ktsolve.errors.KtsolveError` into that).
"""

from __future__ import annotations

import io
import re
import sys
from decimal import Decimal

import click
import numpy as np

from ..board import Board
from ..errors import InvalidBoardError
from ..exit_codes import ExitCode
from ..output import check_output_path, is_stdout, open_output
from .args import CONTEXT, format_option, output_format

__all__ = ["board_group", "parse_holes"]

_HOLES_RE = re.compile(r"^\s*(\d+(?:\.\d*)?|\.\d+)\s*(%?)\s*$")


def parse_holes(text: str) -> int | float:
    """A hole count (``"500"``) or a share of the cells (``"1%"``, ``"0.01"``).

    Examples
    --------
    >>> parse_holes("1%"), parse_holes("0.05"), parse_holes("12")
    (0.01, 0.05, 12)
    """
    m = _HOLES_RE.match(text)
    if not m:
        raise InvalidBoardError(f"holes {text.strip()!r} must be a count like 500, or a share like 1% or 0.01")
    number, percent = m.groups()
    if percent:
        # by decimal arithmetic: 20.0001% is 0.200001, where float division would say 0.20000099999999998
        return float(Decimal(number) / 100)
    if "." in number:
        return float(number)
    return int(number)


@click.group("board", context_settings=CONTEXT)
def board_group():
    """Make boards."""


@board_group.command("random")
@click.argument("size", metavar="ROWSxCOLS")
@click.option("--holes", "holes_text", default="1%", metavar="K|P%",
              help="Holes: a count (500) or a share of the cells (1%, 0.01), at most 20%.")
@click.option("--closed", is_flag=True, help="Balance the colours for a closed tour (else for an open one).")
@click.option("--seed", type=click.IntRange(0, 2**32 - 1), default=None,
              help="Seed of the draw; the same seed gives the same board (a fresh one is drawn and "
                   "reported if omitted).")
@format_option(("npy", "text"), "npy: a 2-D bool array, True on the holes; text: the board-file text (. and #).",
               default="npy")
@click.option("--output", "-o", "output", metavar="FILE", default=None,
              help="Write the board here (default: stdout, which must not be a terminal for npy).")
def random_board(size, holes_text, closed, seed, fmt, output):
    """Write a random board of ROWSxCOLS with holes, fit for a tour (see ktsolve.generate)."""
    from ..generate import random_holed_board
    from ..seeds import resolve_seed

    fmt = output_format(fmt, output, ("npy", "text"), default="npy")
    shape = Board.from_spec(size)  # checks the size and its limit
    holes = parse_holes(holes_text)
    check_output_path(output)
    if fmt == "npy" and is_stdout(output) and sys.stdout is not None and sys.stdout.isatty():
        raise click.UsageError("npy is binary: give -o FILE or redirect stdout")
    seed = resolve_seed(seed)
    b = random_holed_board(shape.rows, shape.cols, holes, closed=closed, seed=seed)
    if fmt == "npy":
        holes_mask = np.zeros(b.size, dtype=bool)
        holes_mask[b.hole_flat] = True
        buf = io.BytesIO()
        np.save(buf, holes_mask.reshape(b.rows, b.cols))
        data = buf.getvalue()
    else:
        data = (b.to_text() + "\n").encode("utf-8")
    with open_output(output) as fh:
        fh.write(data)
    even, odd = b.colour_counts()
    click.echo(f"ktsolve: board {b.rows}x{b.cols}, {b.n_holes:,} holes, {even:,}+{odd:,} squares "
               f"of the two colours, seed {seed}", err=True)
    return ExitCode.OK
