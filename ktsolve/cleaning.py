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

import math
from dataclasses import dataclass, field

import numpy as np

from ._board_base import check_size
from .board import Board
from .checks import check_choice, check_flag
from .errors import InvalidBoardError

__all__ = ["Cleaning", "Region", "clean", "colour_counts", "warm", "BALANCES"]

#: The values of ``balance``: the question the colours are balanced for (None: not balanced).
BALANCES = ("open", "closed")


@dataclass(frozen=True)
class Cleaning:
    """What :func:`clean` removed, step by step.

    Attributes
    ----------
    squares_in : int
        Squares of the region given.
    parts : int or None
        Knight-connected parts it had (None when the largest was not asked for).
    outside_largest : int
        Squares removed with the smaller parts.
    pruned : int or None
        Squares removed for having fewer than two moves (None when pruning
        was not asked for).
    balance : str or None
        ``"closed"`` (equal colours), ``"open"`` (at most one apart) or None.
    balanced : int
        Squares removed to balance the colours.
    squares_out : int
        Squares left.
    colours : tuple of int
        Squares left of parity 0 and of parity 1.

    Examples
    --------
    >>> c = Cleaning(10, 2, 3, 1, "closed", 0, 6, (3, 3))
    >>> c.removed, c.lines()[0]
    (4, 'kept the largest of 2 knight-connected parts: removed 3 squares')
    """

    squares_in: int
    parts: int | None
    outside_largest: int
    pruned: int | None
    balance: str | None
    balanced: int
    squares_out: int
    colours: tuple[int, int]

    @property
    def removed(self) -> int:
        """Squares removed by all steps together."""
        return self.squares_in - self.squares_out

    def lines(self) -> list[str]:
        """One line per step that ran, as the command line prints them (after ``ktsolve: ``)."""
        out = []
        if self.parts is not None:
            out.append(f"kept the largest of {self.parts:,} knight-connected part{_s(self.parts)}: "
                       f"removed {self.outside_largest:,} square{_s(self.outside_largest)}")
        if self.pruned is not None:
            out.append(f"pruned {self.pruned:,} square{_s(self.pruned)} with fewer than two moves")
        if self.balance is not None:
            out.append(f"balanced the colours for {_a(self.balance)} tour: removed {self.balanced:,} "
                       f"square{_s(self.balanced)} of the larger colour")
        return out

    def as_dict(self) -> dict:
        """The record as plain values (JSON-ready)."""
        return {"squares_in": self.squares_in, "parts": self.parts, "outside_largest": self.outside_largest,
                "pruned": self.pruned, "balance": self.balance, "balanced": self.balanced,
                "squares_out": self.squares_out, "colours": list(self.colours)}


def _s(k: int) -> str:
    return "" if k == 1 else "s"


def _a(question: str) -> str:
    return f"an {question}" if question == "open" else f"a {question}"


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


def colour_counts(squares: np.ndarray) -> tuple[int, int]:
    """Squares of parity 0 and of parity 1 (``(row + col) % 2``) of a 2-D bool array.

    Examples
    --------
    >>> colour_counts(np.ones((3, 3), dtype=bool))
    (5, 4)
    """
    even = int(np.count_nonzero(squares[0::2, 0::2])) + int(np.count_nonzero(squares[1::2, 1::2]))
    return even, int(np.count_nonzero(squares)) - even


def _stride(n: int) -> int:
    """A step coprime to ``n`` near ``0.618 n``: visiting ``f, f + s, f + 2s, ...`` spreads over the cells."""
    s = max(1, int(n * 0.6180339887498949)) | 1
    while math.gcd(s, n) != 1:
        s += 2
    return s


def _as_squares(squares) -> np.ndarray:
    arr = np.asarray(squares)
    if arr.ndim != 2:
        raise InvalidBoardError(f"a region is a 2-D array, not one of shape {arr.shape}")
    check_size(int(arr.shape[0]), int(arr.shape[1]))
    if arr.dtype != bool:
        if not np.issubdtype(arr.dtype, np.integer):
            raise InvalidBoardError(f"a region holds bools or 0 and 1, not {arr.dtype} values")
        if arr.size and (arr.min() < 0 or arr.max() > 1):
            raise InvalidBoardError("a region holds only 0 and 1 (or bools)")
    return arr


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
    arr = _as_squares(squares)
    largest = check_flag("largest", largest)
    prune = check_flag("prune", prune)
    if balance is not None:
        balance = check_choice("balance", balance, BALANCES)
    rows, cols = arr.shape
    alive = np.ascontiguousarray(arr, dtype=np.uint8).reshape(-1).copy()
    keep_flat = np.zeros(1, dtype=np.uint8)  # the kernel keeps nothing when it has not one byte a cell
    if keep is not None:
        keep = np.asarray(keep, dtype=bool)
        if keep.shape != arr.shape:
            raise InvalidBoardError(f"keep must have the region's shape {arr.shape}, not {keep.shape}")
        keep_flat = np.ascontiguousarray(keep.reshape(-1), dtype=np.uint8)
    squares_in = int(np.count_nonzero(alive))
    if squares_in == 0:
        raise InvalidBoardError("the region has no squares")
    from ._cleaning_kernels import balance as balance_kernel
    from ._cleaning_kernels import degrees, largest_part
    from ._cleaning_kernels import prune as prune_kernel

    warm()
    parts = outside = None
    if largest:
        parts, outside = (int(v) for v in largest_part(rows, cols, alive))
    deg = np.empty(alive.size, dtype=np.int8)
    degrees(rows, cols, alive, deg)
    pruned = None
    if prune:
        pruned = int(prune_kernel(rows, cols, alive, deg))
        if not alive.any():
            raise InvalidBoardError("no squares are left after pruning the squares with fewer than two moves")
    out = alive.view(bool).reshape(rows, cols)
    balanced = 0
    if balance is not None:
        even, odd = colour_counts(out)
        allowed = 0 if balance == "closed" else 1
        want = abs(even - odd) - allowed
        if want > 0:
            par = 0 if even > odd else 1
            balanced = int(balance_kernel(rows, cols, alive, deg, keep_flat, par, want, _stride(alive.size)))
            if balanced < want:
                raise InvalidBoardError(
                    f"cannot balance the colours for {_a(balance)} tour: {want - balanced:,} more square"
                    f"{_s(want - balanced)} of the larger colour would have to go, and none is left whose "
                    "removal keeps the region connected with two moves at every square")
    out.setflags(write=False)
    record = Cleaning(squares_in, parts, outside or 0, pruned, balance, balanced,
                      int(np.count_nonzero(alive)), colour_counts(out))
    return Region(out, record)


def warm() -> float:
    """Compile (or load from numba's cache) the cleaning kernels; seconds spent compiling.

    Examples
    --------
    >>> warm() >= 0.0
    True
    """
    from . import jit
    from ._cleaning_kernels import balance, degrees, largest_part, prune

    def calls():
        alive = np.ones(36, dtype=np.uint8)
        alive[0] = 0
        largest_part(6, 6, alive)
        deg = np.empty(36, dtype=np.int8)
        degrees(6, 6, alive, deg)
        prune(6, 6, alive, deg)
        balance(6, 6, alive, deg, np.zeros(36, dtype=np.uint8), 1, 1, _stride(36))

    return jit.prepare("cleaning", calls, (balance, degrees, largest_part, prune))
