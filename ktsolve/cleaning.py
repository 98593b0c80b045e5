"""Regions made fit for a tour: the largest knight-connected part, pruned, its colours balanced.

A region drawn from a picture or a shape (:mod:`ktsolve.images`,
:mod:`ktsolve.shapes`) usually fails the cheap necessary conditions of a
tour: it falls apart into many knight-connected parts, it has squares with
one move or none, and its two colours (``(row + col) % 2``) differ in
number, while a knight alternates colours.  :func:`clean` mends each in
turn, and records what each step removed (:class:`Cleaning`):

1. *largest part*: the squares outside the largest knight-connected part go;
2. *prune*: squares with fewer than two moves go, again and again, until
   every square has two (the 2-core; a tour enters and leaves every square
   but an open tour's two ends, so a square with one move could only be an
   end: pruning makes the region fit for either question);
3. *balance*: squares of the larger colour go until the counts are equal (a
   closed tour) or differ by at most one (an open tour), taken at the
   region's edge first and spread over it, each only when the region stays
   connected and every square keeps two moves, so the two steps before stay
   done.

The work is done by numba kernels on flat uint8/int8 arrays
(:mod:`ktsolve._cleaning_kernels`), in time linear in the cells, at most
6 bytes a cell besides the region given; no graph is built.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ._clean_squares import BALANCES, Cleaning, clean_squares, colour_counts, stride
from .board import Board

# Cleaning is defined below the Board (``_clean_squares``); its public home is here, the name it shows and
# pickles by.
Cleaning.__module__ = __name__

__all__ = ["Cleaning", "Region", "clean", "colour_counts", "warm", "BALANCES"]


@dataclass(frozen=True, eq=False)
class Region:
    """A region of squares made by :mod:`ktsolve.shapes` or :mod:`ktsolve.images`, with its record.

    Attributes
    ----------
    squares : numpy.ndarray
        2-D bool array, True on the squares (read-only).
    cleaning : Cleaning
        What the cleaning removed.
    seed : int or None
        The seed the shape was drawn with (None for shapes without one).
    made : tuple of str
        Lines saying how the region was made, before cleaning
        ("picture 512x512 (L), threshold 87 ...").

    Examples
    --------
    >>> r = clean(np.ones((5, 6), dtype=bool), balance="closed")
    >>> r.board.n_squares, r.cleaning.colours
    (30, (15, 15))
    """

    squares: np.ndarray
    cleaning: Cleaning
    seed: int | None = None
    made: tuple[str, ...] = field(default=())

    def __eq__(self, other) -> bool:
        if not isinstance(other, Region):
            return NotImplemented
        return (self.squares.shape == other.squares.shape and bool(np.array_equal(self.squares, other.squares))
                and (self.cleaning, self.seed, self.made) == (other.cleaning, other.seed, other.made))

    __hash__ = None  # an array inside: compared by value, not hashed

    @property
    def board(self) -> Board:
        """The region as a :class:`~ktsolve.Board` (its holes: every cell that is not a square)."""
        return Board.from_mask(~self.squares)

    @property
    def holes(self) -> np.ndarray:
        """2-D bool array, True on the holes: the ``.npy`` mask every command reads."""
        return ~self.squares

    def lines(self) -> list[str]:
        """How it was made and cleaned, and what is left, one line each (after ``ktsolve: ``)."""
        rows, cols = self.squares.shape
        even, odd = self.cleaning.colours
        tail = f", seed {self.seed}" if self.seed is not None else ""
        return [*self.made, *self.cleaning.lines(),
                f"board {rows}x{cols}, {rows * cols - self.cleaning.squares_out:,} holes, {even:,}+{odd:,} "
                f"squares of the two colours{tail}"]


def clean(
    squares,
    *,
    largest: bool = True,
    prune: bool = True,
    balance: str | None = "open",
    keep=None,
) -> Region:
    """The region ``squares`` made fit for a tour, with the record of what went.

    Parameters
    ----------
    squares : array_like
        2-D array of bools (or 0 and 1), True on the squares.  It is not
        changed.
    largest : bool
        Keep only the largest knight-connected part (the first found, row
        by row, on a tie).
    prune : bool
        Remove squares with fewer than two moves, again and again.
    balance : {"open", "closed", None}
        Balance the colours for an open tour (counts at most one apart) or a
        closed one (equal counts), or leave them.
    keep : array_like, optional
        2-D bool array, True on squares the balance must not remove (a
        planted structure and its surroundings).

    Returns
    -------
    Region
        The squares left and the :class:`Cleaning` record.

    Raises
    ------
    InvalidBoardError
        For an array that is not a 2-D region within the size limit, a
        region with no squares, a region whose every square a step removed,
        or colours that cannot be balanced without cutting the region apart
        or leaving a square with fewer than two moves.

    Notes
    -----
    Linear time in the cells: a breadth-first search per part, a stack of
    squares to prune, and one pass over the cells per balance round (in a
    scattered order, so the removals spread over the edge), each removal
    checked in a 13 x 13 window around the square.

    Examples
    --------
    >>> sq = np.ones((6, 7), dtype=bool)
    >>> sq[0, 0] = sq[5, 6] = False           # two corners: 20 + 20 squares
    >>> sq[0, 3] = False                      # 20 squares of parity 0, 19 of parity 1
    >>> r = clean(sq, balance="closed")
    >>> r.cleaning.colours, r.cleaning.balanced
    ((19, 19), 1)
    >>> clean(np.eye(4, dtype=bool)).cleaning.parts
    Traceback (most recent call last):
    ...
    ktsolve.errors.InvalidBoardError: no squares are left after pruning the squares with fewer than two moves
    """
    warm()
    return Region(*clean_squares(squares, largest=largest, prune=prune, balance=balance, keep=keep))


def warm() -> float:
    """Compile (or load from numba's cache) the cleaning kernels; seconds spent compiling (``ktsolve warm``
    calls it through :data:`ktsolve.jit.SHARED`)."""
    from . import jit
    from ._cleaning_kernels import balance, degrees, largest_part, prune

    def calls():
        alive = np.ones(36, dtype=np.uint8)
        alive[0] = 0
        largest_part(6, 6, alive)
        deg = np.empty(36, dtype=np.int8)
        degrees(6, 6, alive, deg)
        prune(6, 6, alive, deg)
        balance(6, 6, alive, deg, np.zeros(36, dtype=np.uint8), 1, 1, stride(36))

    return jit.prepare("cleaning", calls, (balance, degrees, largest_part, prune))
