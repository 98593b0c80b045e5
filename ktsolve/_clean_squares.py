"""The cleaning of a region of squares, on arrays: the largest knight-connected part, pruned, balanced.

The steps of :mod:`ktsolve.cleaning` (see its docstring) on a 2-D bool
array, below the :class:`~ktsolve.Board`: :func:`clean_squares` returns the
squares left and the :class:`Cleaning` record, so that
:meth:`ktsolve.Board.from_image` makes its board without the region object
of :mod:`ktsolve.cleaning` (which holds a Board, and so stands above it).
The work is done by the numba kernels of :mod:`ktsolve._cleaning_kernels`,
compiled by numba on their first call here: :func:`ktsolve.cleaning.warm`
(above the Board, with the package's compile notes) prepares them first.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._board_base import check_size
from .checks import check_choice, check_flag
from .errors import InvalidBoardError

__all__ = ["Cleaning", "clean_squares", "colour_counts", "BALANCES", "stride"]

#: The values of ``balance``: the question the colours are balanced for (None: not balanced).
BALANCES = ("open", "closed")


@dataclass(frozen=True)
class Cleaning:
    """What the cleaning (:func:`clean_squares`, :func:`ktsolve.cleaning.clean`) removed, step by step.

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


def colour_counts(squares: np.ndarray) -> tuple[int, int]:
    """Squares of parity 0 and of parity 1 (``(row + col) % 2``) of a 2-D bool array.

    Examples
    --------
    >>> colour_counts(np.ones((3, 3), dtype=bool))
    (5, 4)
    """
    even = int(np.count_nonzero(squares[0::2, 0::2])) + int(np.count_nonzero(squares[1::2, 1::2]))
    return even, int(np.count_nonzero(squares)) - even


def stride(n: int) -> int:
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


def clean_squares(
    squares,
    *,
    largest: bool = True,
    prune: bool = True,
    balance: str | None = "open",
    keep=None,
) -> tuple[np.ndarray, "Cleaning"]:
    """The squares of ``squares`` made fit for a tour and the record of what went: the work of
    :func:`ktsolve.cleaning.clean`, whose docstring says what each argument does, the errors raised and
    the cost, without its region object.

    Returns
    -------
    squares : numpy.ndarray
        The squares left (2-D bool, read-only).
    cleaning : Cleaning
        What each step removed.

    Examples
    --------
    >>> sq = np.ones((6, 7), dtype=bool)
    >>> sq[0, 0] = sq[5, 6] = sq[0, 3] = False
    >>> out, record = clean_squares(sq, balance="closed")
    >>> record.colours, record.balanced, int(out.sum())
    ((19, 19), 1, 38)
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
            balanced = int(balance_kernel(rows, cols, alive, deg, keep_flat, par, want, stride(alive.size)))
            if balanced < want:
                raise InvalidBoardError(
                    f"cannot balance the colours for {_a(balance)} tour: {want - balanced:,} more square"
                    f"{_s(want - balanced)} of the larger colour would have to go, and none is left whose "
                    "removal keeps the region connected with two moves at every square")
    out.setflags(write=False)
    record = Cleaning(squares_in, parts, outside or 0, pruned, balance, balanced,
                      int(np.count_nonzero(alive)), colour_counts(out))
    return out, record
