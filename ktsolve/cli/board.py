"""``ktsolve board``: commands that make boards, written as ``.npy`` masks or board-file text.

One click group, registered by :mod:`ktsolve.cli.app`:

* ``board random ROWSxCOLS --holes 1% --seed 3 -o mask.npy``: a board drawn
  by :func:`ktsolve.generate.random_holed_board` (every square with two
  neighbours or more, none over-forced, the colours balanced, the knight
  graph connected);
* ``board image PICTURE --threshold 128 -o mask.npy``: a picture's region
  (:func:`ktsolve.images.from_picture`);
* ``board maze|rings|cheese|planted ROWSxCOLS ...``: the structured shapes
  of :mod:`ktsolve.shapes`.

The last two clean the region as :func:`ktsolve.cleaning.clean` does
(largest knight-connected part, pruned, colours balanced for an open tour,
or a closed one with ``--closed``; ``--all-parts``, ``--no-prune`` and
``--no-balance`` skip a step) and say on stderr, one ``ktsolve:`` line a
step, what each removed.  A mask is a 2-D bool array, True on the holes,
which every command reads as a board file; a 10,000 x 10,000 mask is a 100
MB file written in seconds.

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
from .._reading import shown
from ..errors import InvalidBoardError, InvalidParameterError
from ..exit_codes import ExitCode
from ..output import check_output_path, is_stdout, open_output
from .args import CONTEXT, format_option, output_format

__all__ = ["board_group", "parse_holes", "parse_threshold", "parse_radii"]

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


def parse_threshold(text: str) -> float | None:
    """A grey level (``"128"``, ``"99.5"``) or ``"otsu"`` (None: Otsu's threshold of the picture).

    Examples
    --------
    >>> parse_threshold("otsu"), parse_threshold(" 128 ")
    (None, 128.0)
    """
    if text.strip().lower() == "otsu":
        return None
    try:
        return float(text)
    except ValueError:
        raise InvalidParameterError(f"threshold {shown(text.strip())} must be a grey level from 0 to 255, "
                                    "or otsu") from None


def parse_radii(text: str) -> tuple[float, float]:
    """Radii ``"R1-R2"`` (or ``"R1,R2"``, or one radius ``"R"``).

    Examples
    --------
    >>> parse_radii("5-40"), parse_radii("3")
    ((5.0, 40.0), (3.0, 3.0))
    """
    parts = re.split(r"\s*[-,]\s*", text.strip())
    try:
        values = [float(p) for p in parts]
    except ValueError:
        values = []
    if len(values) not in (1, 2):
        raise InvalidParameterError(f"radii {shown(text.strip())} must be R1-R2, like 5-40, or one radius")
    return values[0], values[-1]


def _share(text: str) -> float:
    """A share of the cells, ``"20%"`` or ``"0.2"`` (checked for its range by the shape)."""
    m = _HOLES_RE.match(text)
    if not m:
        raise InvalidParameterError(f"share {shown(text.strip())} must be a share of the cells, like 20% or 0.2")
    number, percent = m.groups()
    return float(number) / (100.0 if percent else 1.0)


def _cleaning_options(func):
    """``--closed``, ``--no-balance``, ``--no-prune``, ``--all-parts``."""
    for option in reversed([
        click.option("--closed", is_flag=True, help="Balance the colours for a closed tour (else for an open one)."),
        click.option("--no-balance", is_flag=True, help="Leave the colours as they are."),
        click.option("--no-prune", is_flag=True, help="Keep squares with fewer than two moves."),
        click.option("--all-parts", is_flag=True, help="Keep every knight-connected part, not only the largest."),
    ]):
        func = option(func)
    return func


def _output_options(func):
    for option in reversed([
        click.option("--format", "fmt", type=click.Choice(["npy", "text"]), default="npy",
                     help="npy: a 2-D bool array, True on the holes; text: the board-file text (. and #)."),
        click.option("--output", "-o", "output", metavar="FILE", default=None,
                     help="Write the board here (default: stdout, which must not be a terminal for npy)."),
    ]):
        func = option(func)
    return func


def _cleaning(closed, no_balance, no_prune, all_parts) -> dict:
    return {"largest": not all_parts, "prune": not no_prune,
            "balance": None if no_balance else ("closed" if closed else "open")}


def _check_output(fmt, output) -> None:
    check_output_path(output)
    if fmt == "npy" and is_stdout(output) and sys.stdout is not None and sys.stdout.isatty():
        raise click.UsageError("npy is binary: give -o FILE or redirect stdout")


def _write_mask(holes: np.ndarray, fmt: str, output) -> None:
    """The holes (2-D bool) as an npy mask or board-file text, whole or not at all."""
    if fmt == "npy":
        buf = io.BytesIO()
        np.save(buf, holes)
        data = buf.getvalue()
    else:
        data = (Board.from_mask(holes).to_text() + "\n").encode("utf-8")
    with open_output(output) as fh:
        fh.write(data)


def _deliver(region, fmt, output) -> int:
    _write_mask(region.holes, fmt, output)
    for line in region.lines():
        click.echo(f"ktsolve: {line}", err=True)
    return ExitCode.OK


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


@board_group.command("image")
@click.argument("picture", metavar="PICTURE")
@click.option("--threshold", "threshold_text", default="otsu", metavar="T|otsu",
              help="Grey level from 0 to 255: pixels at least this light are squares; otsu: Otsu's threshold.")
@click.option("--dark", is_flag=True, help="Take the pixels darker than the threshold instead.")
@click.option("--blocks", "block", type=int, default=1, metavar="K",
              help="Threshold K x K blocks of pixels by their mean grey: each block all squares or all holes.")
@click.option("--scale", type=int, default=1, metavar="K", help="Squares per pixel along each side (1 to 1024).")
@_cleaning_options
@_output_options
def image_board(picture, threshold_text, dark, block, scale, closed, no_balance, no_prune, all_parts, fmt, output):
    """Write the region of PICTURE (PNG or JPEG, - for stdin) as a board, cleaned for a tour.

    Needs Pillow (pip install 'ktsolve[image]'); see ktsolve.images.
    """
    from ..images import from_picture

    threshold = parse_threshold(threshold_text)
    _check_output(fmt, output)
    region = from_picture(picture, threshold=threshold, dark=dark, block=block, scale=scale,
                          **_cleaning(closed, no_balance, no_prune, all_parts))
    return _deliver(region, fmt, output)


_SEED = click.option("--seed", type=click.IntRange(0, 2**32 - 1), default=None,
                     help="Seed of the draw; the same seed gives the same board (a fresh one is drawn and reported "
                          "if omitted).")


@board_group.command("maze")
@click.argument("size", metavar="ROWSxCOLS")
@click.option("--corridor", type=int, default=6, show_default=True, help="Width of the corridors in squares.")
@click.option("--wall", type=int, default=2, show_default=True,
              help="Thickness of the walls in squares (2 or more stops every knight's move).")
@_SEED
@_cleaning_options
@_output_options
def maze_board(size, corridor, wall, seed, closed, no_balance, no_prune, all_parts, fmt, output):
    """Write a perfect maze on ROWSxCOLS as a board, cleaned for a tour (see ktsolve.shapes)."""
    from ..shapes import maze

    shape = Board.from_spec(size)
    _check_output(fmt, output)
    return _deliver(maze(shape.rows, shape.cols, corridor=corridor, wall=wall,
                         **_cleaning(closed, no_balance, no_prune, all_parts), seed=seed), fmt, output)


@board_group.command("rings")
@click.argument("size", metavar="ROWSxCOLS")
@click.option("--width", type=int, default=6, show_default=True, help="Width of a ring in squares.")
@click.option("--gap", type=int, default=2, show_default=True, help="Width of the gap between rings.")
@_cleaning_options
@_output_options
def rings_board(size, width, gap, closed, no_balance, no_prune, all_parts, fmt, output):
    """Write concentric rings on ROWSxCOLS as a board, cleaned for a tour (see ktsolve.shapes)."""
    from ..shapes import rings

    shape = Board.from_spec(size)
    _check_output(fmt, output)
    return _deliver(rings(shape.rows, shape.cols, width=width, gap=gap,
                          **_cleaning(closed, no_balance, no_prune, all_parts)), fmt, output)


@board_group.command("cheese")
@click.argument("size", metavar="ROWSxCOLS")
@click.option("--share", "share_text", default="20%", show_default=True, metavar="P%",
              help="Share of the cells the disks cover (20% or 0.2), at most 90%.")
@click.option("--radii", "radii_text", default="5-40", show_default=True, metavar="R1-R2",
              help="Smallest and largest radius of a disk.")
@_SEED
@_cleaning_options
@_output_options
def cheese_board(size, share_text, radii_text, seed, closed, no_balance, no_prune, all_parts, fmt, output):
    """Write swiss cheese (random disks cut out) on ROWSxCOLS as a board, cleaned for a tour."""
    from ..shapes import cheese

    shape = Board.from_spec(size)
    share, radii = _share(share_text), parse_radii(radii_text)
    _check_output(fmt, output)
    return _deliver(cheese(shape.rows, shape.cols, share=share, radii=radii,
                           **_cleaning(closed, no_balance, no_prune, all_parts), seed=seed), fmt, output)


@board_group.command("planted")
@click.argument("size", metavar="ROWSxCOLS")
@click.option("--kind", type=click.Choice(["pocket", "pair"]), required=True,
              help="pocket: a corner pocket joined through one square; pair: two squares sharing their only "
                   "two moves.")
@click.option("--closed", is_flag=True, help="Balance the colours for a closed tour (else for an open one).")
@_output_options
def planted_board(size, kind, closed, fmt, output):
    """Write a full ROWSxCOLS board with one planted obstruction to a closed tour (see ktsolve.shapes)."""
    from ..shapes import planted

    shape = Board.from_spec(size)
    _check_output(fmt, output)
    return _deliver(planted(shape.rows, shape.cols, kind, balance="closed" if closed else "open"), fmt, output)
