"""The question as a flow network: capacities, forced moves and extra vertices (plain Python, no kernel).

:func:`network` turns a board and a tour question into the network whose
b-factors a tour would give (see :mod:`ktsolve.factor` for the argument).
Both the kernels' wrapper and the independent checker read the same
:class:`Network`, a handful of numbers: nothing here costs memory per
square.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..board import Board
from ..graph import KNIGHT_MOVES

__all__ = ["Extra", "Network", "network"]


@dataclass(frozen=True)
class Extra:
    """An extra vertex of colour ``colour``, joined to every square of the other colour but ``exclude``.

    ``cap`` is the number of moves it still needs (1 or 2) once the forced
    moves are taken out; ``exclude`` is a flat cell ``row * cols + col``
    (a fixed end already joined to it by a forced move) or -1.
    """

    colour: int
    cap: int
    exclude: int = -1


@dataclass(frozen=True)
class Network:
    """The b-factor problem of a question.

    Attributes
    ----------
    rows, cols : int
    source : int
        The colour (parity ``(row + col) % 2``) of the flow's source side.
    cap1 : tuple of int
        Flat cells of capacity 1 (fixed ends with a forced move); every
        other square has capacity 2.
    banned : tuple of int
        ``(a, b)``, flat cells of a forced board move taken out of the
        network (the closing move of a closed tour with both ends fixed),
        or ``()``.
    extras : tuple of Extra
        At most one per colour.
    trivial : bool
        An open tour of a one-square board: its own tour, nothing to decide.
    explain : str
        One sentence on how the question became this network (empty for a
        plain closed tour).
    """

    rows: int
    cols: int
    source: int
    cap1: tuple = ()
    banned: tuple = ()
    extras: tuple = ()
    trivial: bool = False
    explain: str = ""

    def extra(self, colour: int) -> Extra | None:
        """The extra vertex of ``colour``, or None."""
        for x in self.extras:
            if x.colour == colour:
                return x
        return None

    def as_array(self) -> np.ndarray:
        """The numbers the kernels read, as int64: source, cap1 a, b, banned a, b, then per colour
        (exists, cap, exclude)."""
        cap1 = list(self.cap1) + [-1] * (2 - len(self.cap1))
        ban = list(self.banned) if self.banned else [-1, -1]
        out = [self.source, cap1[0], cap1[1], ban[0], ban[1]]
        for c in (0, 1):
            x = self.extra(c)
            out += [0, 0, -1] if x is None else [1, x.cap, x.exclude]
        return np.array(out, dtype=np.int64)


def _flat(board: Board, square) -> int | None:
    if square is None:
        return None
    r, c = board.parse_square(square)
    return r * board.cols + c


def network(board: Board, *, closed: bool, start=None, end=None) -> Network:
    """The network of the question (see :mod:`ktsolve.factor`).

    ``start`` and ``end`` are squares (``(row, col)`` or names) or None.  A
    fixed end whose colour no tour end can have (an end on the minority
    colour, or two ends of one colour when the colours are equal) is left
    free: the network then asks less, which keeps "no 2-factor" a proof
    (the quick proofs refute such questions anyway).

    Examples
    --------
    >>> net = network(Board(3, 4), closed=False)
    >>> net.source, [(x.colour, x.cap) for x in net.extras]
    (0, [(0, 1), (1, 1)])
    >>> network(Board(3, 3, holes=[(1, 1)]), closed=False, start=(0, 0)).cap1
    (0,)
    """
    rows, cols = board.rows, board.cols
    s, e = _flat(board, start), _flat(board, end)
    even, odd = board.colour_counts()

    def colour(f):
        return (f // cols + f % cols) & 1

    if closed:
        banned: tuple = ()
        cap1: tuple = ()
        explain = ""
        if s is not None and e is not None and s != e:
            dr, dc = e // cols - s // cols, e % cols - s % cols
            if any(int(a) == dr and int(b) == dc for a, b in KNIGHT_MOVES.tolist()):
                banned, cap1 = (s, e), (s, e)
                explain = (f"A closed tour from {board.name(*divmod(s, cols))} to "
                           f"{board.name(*divmod(e, cols))} uses the move between them, so each of "
                           "them needs one more move.")
        return Network(rows, cols, 0, cap1, banned, (), False, explain)
    if board.n_squares == 1:
        return Network(rows, cols, 0, trivial=True)
    fixed = [x for x in dict.fromkeys((s, e)) if x is not None]
    if even != odd:
        major = 0 if even > odd else 1
        fixed = [x for x in fixed if colour(x) == major]
        minor = 1 - major
        if len(fixed) == 2:
            extras: tuple = ()
        elif len(fixed) == 1:
            extras = (Extra(minor, 1, fixed[0]),)
        else:
            extras = (Extra(minor, 2),)
        explain = ("An open tour here has both ends on the larger colour; an extra square * of the "
                   "other colour, joined to " + ("the fixed ends" if len(fixed) == 2 else
                                                  "the fixed end and every other square of that colour"
                                                  if fixed else "every square of that colour")
                   + ", closes it into a cycle.")
        return Network(rows, cols, major, tuple(fixed), (), extras, False, explain)
    # equal colours: the ends have opposite colours; keep at most one fixed end per colour
    by_colour: dict = {}
    for x in fixed:
        by_colour.setdefault(colour(x), x)
    extras = tuple(sorted((Extra(1 - k, 1) for k in (0, 1) if k not in by_colour), key=lambda x: x.colour))
    cap1 = tuple(sorted(by_colour.values()))
    source = 0 if len(extras) != 1 else 1 - extras[0].colour  # an extra on the sink side costs nothing
    explain = ("An open tour here ends on one square of each colour; extra squares *1 and *2, joined "
               "to each other and to the squares where the tour may end, close it into a cycle.")
    return Network(rows, cols, source, cap1, (), extras, False, explain)
