"""Re-checking a 2-factor witness by counting, from the board and the tour asked alone.

A tour uses two moves at every square (an open tour one at each end), so
its moves, with an open tour's ends joined through extra vertices, are a
*b-factor* of the question's network: every vertex ``v`` on exactly
``b(v)`` moves.  A witness names sets ``X`` (squares of one colour, maybe
that colour's extra vertex) and ``Y`` (squares of the other colour, maybe
its extra vertex) with ``b(X) > b(Y) + e(X, outside Y)``: ``X`` needs more
move-ends than ``Y`` can take plus the moves that leave ``X`` for vertices
outside ``Y``, so no b-factor exists (the deficiency form of Ore's theorem).

The network is derived here from the question, with no code of
:mod:`ktsolve.factor`'s finder (:mod:`.network`, :mod:`.core`):

* closed tour: every square needs 2; a fixed start and end a knight's move
  apart use that move, which is taken out and each of them needs 1;
* open tour, colours differing by one (``P`` the larger): the ends lie on
  ``P``; fixed ends on the other colour are ignored (the network then asks
  less, which keeps a "no" a proof).  Two fixed ends need 1 each and there
  is no extra vertex; one fixed end ``f`` needs 1 and an extra vertex of the
  other colour, joined to every square of ``P`` but ``f``, needs 1; no
  fixed end: the extra vertex, joined to all of ``P``, needs 2;
* open tour, equal colours: the ends have one colour each.  Of the fixed
  ends the first of each colour is kept and needs 1; for a colour ``c``
  with no fixed end, an extra vertex of the other colour, joined to every
  square of colour ``c``, needs 1 (the two extra vertices' move to each
  other is forced, so taken out).

Examples
--------
>>> from ktsolve import Board, TourSpec
>>> b = Board(5, 4, holes=[(1, 3), (3, 0)])
>>> check_two_factor_sets(b, TourSpec(closed=True), 0, ["a5", "a1", "c1"], ["b3"], False, False) is None
True
"""

from __future__ import annotations

import numpy as np

from ..board import Board
from ..tour import TourSpec

__all__ = ["check_two_factor_evidence", "check_two_factor_sets"]

_JUMPS = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))


class _Question:
    """The b-factor network of a question: needs of squares, a taken-out move, the extra vertices."""

    def __init__(self, board: Board, spec: TourSpec):
        rows, cols = board.rows, board.cols
        self.cols = cols

        def flat(sq):
            if sq is None:
                return None
            r, c = int(sq[0]), int(sq[1])
            if not board.contains(r, c) or board.is_hole(r, c):
                raise ValueError("the question's start or end is not a square of the board")
            return r * cols + c

        def colour(f):
            return (f // cols + f % cols) & 1

        s, e = flat(spec.start), flat(spec.end)
        self.one: set[int] = set()       # flat cells that need one move
        self.banned: tuple = ()          # a forced board move, taken out
        self.extra: dict[int, tuple[int, int]] = {}  # colour of the vertex -> (need, excluded cell or -1)
        mask = board.mask
        parity = (np.arange(rows).reshape(-1, 1) + np.arange(cols).reshape(1, -1)) & 1
        counts = [int(np.count_nonzero(mask & (parity == k))) for k in (0, 1)]
        self.trivial = not spec.closed and board.n_squares == 1
        if spec.closed:
            if s is not None and e is not None and s != e:
                dr, dc = abs(e // cols - s // cols), abs(e % cols - s % cols)
                if (dr, dc) in ((1, 2), (2, 1)):
                    self.banned = (s, e)
                    self.one = {s, e}
            return
        fixed = [x for x in dict.fromkeys((s, e)) if x is not None]
        if counts[0] != counts[1]:
            major = 0 if counts[0] > counts[1] else 1
            fixed = [x for x in fixed if colour(x) == major]
            self.one = set(fixed)
            if len(fixed) == 1:
                self.extra[1 - major] = (1, fixed[0])
            elif not fixed:
                self.extra[1 - major] = (2, -1)
            return
        kept: dict[int, int] = {}
        for x in fixed:
            kept.setdefault(colour(x), x)
        self.one = set(kept.values())
        for c in (0, 1):
            if c not in kept:
                self.extra[1 - c] = (1, -1)  # joined to the squares of colour c

    def need(self, cells: np.ndarray) -> int:
        return 2 * int(cells.size) - sum(1 for f in cells.tolist() if f in self.one)


def _flat_cells(board: Board, items, what: str) -> np.ndarray:
    """Flat cells of a set named by square names or square numbers; ValueError for anything else."""
    if isinstance(items, np.ndarray):
        items = items.tolist()
    if not isinstance(items, (list, tuple)):
        raise ValueError(f"{what} must be a list of squares")
    if items and all(isinstance(x, str) for x in items):
        cells = [board.parse_square(x) for x in items]
        flat = np.array([r * board.cols + c for r, c in cells], dtype=np.int64)
    else:
        if any(isinstance(x, bool) or not isinstance(x, (int, np.integer)) for x in items):
            raise ValueError(f"{what} must be square names or square numbers")
        num = np.asarray(items, dtype=np.int64)
        if num.size and (num.min() < 0 or num.max() >= board.n_squares):
            raise ValueError(f"{what} has a number that is not a square of the board")
        flat = np.flatnonzero(board.mask.reshape(-1))[num] if num.size else num
    if np.unique(flat).size != flat.size:
        raise ValueError(f"{what} lists a square twice")
    return flat


def check_two_factor_sets(board: Board, spec: TourSpec, colour, x, y, x_extra, y_extra) -> str | None:
    """None when the sets prove that the question's network has no b-factor; else why not.

    ``x`` and ``y`` are square numbers or names, ``colour`` the colour
    (``(row + col) % 2``) of ``x``'s squares; ``x_extra`` and ``y_extra``
    put the extra vertex of that colour in the set.
    """
    if isinstance(colour, bool) or colour not in (0, 1):
        return "the colour of X must be 0 or 1"
    if not isinstance(x_extra, bool) or not isinstance(y_extra, bool):
        return "x_extra and y_extra must be true or false"
    try:
        xf = _flat_cells(board, x, "X")
        yf = _flat_cells(board, y, "Y")
    except ValueError as exc:
        return str(exc)
    q = _Question(board, spec)
    if q.trivial:
        return "an open tour of one square is its own tour"
    cols = board.cols
    if xf.size and ((xf // cols + xf % cols) & 1 != colour).any():
        return "X has a square of the other colour"
    if yf.size and ((yf // cols + yf % cols) & 1 == colour).any():
        return "Y has a square of X's colour"
    other = 1 - colour
    if x_extra and colour not in q.extra:
        return "X names an extra vertex the question does not have"
    if y_extra and other not in q.extra:
        return "Y names an extra vertex the question does not have"
    need = q.need(xf) + (q.extra[colour][0] if x_extra else 0)
    supply_y = q.need(yf) + (q.extra[other][0] if y_extra else 0)
    # moves from X to vertices of the other colour outside Y
    rows = board.rows
    mask = board.mask.reshape(-1)
    in_y = np.zeros(rows * cols, dtype=bool)
    in_y[yf] = True
    r, c = xf // cols, xf % cols
    rest = 0
    for dr, dc in _JUMPS:
        r2, c2 = r + dr, c + dc
        ok = (r2 >= 0) & (r2 < rows) & (c2 >= 0) & (c2 < cols)
        g = np.where(ok, r2 * cols + c2, 0)
        ok &= mask[g] & ~in_y[g]
        if q.banned:
            a, b = q.banned
            ok &= ~(((xf == a) & (g == b)) | ((xf == b) & (g == a)))
        rest += int(ok.sum())
    if other in q.extra and not y_extra:
        # the other colour's extra vertex is joined to every square of X's colour but the one it excludes
        rest += int((xf != q.extra[other][1]).sum())
    if x_extra:
        # X's extra vertex is joined to every square of the other colour but the one it excludes
        parity = ((np.arange(rows).reshape(-1, 1) + np.arange(cols).reshape(1, -1)) & 1).reshape(-1)
        joined = mask & (parity == other) & ~in_y
        if q.extra[colour][1] >= 0:
            joined[q.extra[colour][1]] = False
        rest += int(joined.sum())
    if need <= supply_y + rest:
        return (f"the witness is not one: X needs {need} moves, and Y and the moves leaving X "
                f"elsewhere give {supply_y} + {rest}")
    return None


def check_two_factor_evidence(board: Board, spec: TourSpec, evidence) -> str | None:
    """The checker of the one table: the evidence of a ``"2-factor"`` proof (its stated counts not trusted)."""
    board = getattr(board, "board", board)
    return check_two_factor_sets(board, spec, evidence["colour"], evidence["X"], evidence["Y"],
                                 evidence["x_extra"], evidence["y_extra"])
