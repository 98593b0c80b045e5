"""Random boards with holes for tests and benchmarks, reproducible from a seed.

A board drawn at random is usually hopeless for a tour: a hole next to a corner
leaves a square with one neighbour, or the two colours end up with different
counts, and the colour-parity and degree arguments of
:mod:`ktsolve.proofs` then rule out every tour at once.  Such boards
measure nothing but the presolve.  :func:`random_holed_board` draws holes so
that the cheap necessary conditions hold:

* every square keeps at least two neighbours (a closed tour enters and leaves
  every square; an open tour could live with two squares of one neighbour, but
  the benchmark boards of the huge-board issue ask for two everywhere);
* no square has more than two neighbours with only two neighbours each (each
  of those squares forces its edge to it into every closed tour, and a square
  is entered and left only once), so no square is over-forced;
* the colours are balanced: equal counts for a closed tour, counts that differ
  by at most one for an open tour (a knight alternates colours);
* the knight graph is connected.

These conditions are necessary, not sufficient: a board drawn here may still
have no tour, though on large boards with a small fraction of holes that is
rare.

The holes are drawn one colour class at a time in a random order: a candidate
is kept when removing it leaves every neighbour with at least two neighbours
and no square over-forced, else it is skipped.  Everything depends only on the
seed (numpy's PCG64), so the same call always returns the same board.
"""

from __future__ import annotations

import numpy as np

from .board import Board
from .checks import check_flag, check_real
from .errors import InvalidBoardError, InvalidParameterError
from .graph import KNIGHT_MOVES, KnightGraph
from .seeds import resolve_seed

__all__ = ["random_holed_board"]

#: Boards per seed tried before giving up (a rejected draw is redrawn).
_ATTEMPTS = 20


def _degree_grid(rows: int, cols: int) -> np.ndarray:
    """Number of knight's moves from every cell of the full rectangle."""
    deg = np.zeros((rows, cols), dtype=np.int32)
    rr, cc = np.mgrid[0:rows, 0:cols]
    for dr, dc in KNIGHT_MOVES.tolist():
        r2, c2 = rr + dr, cc + dc
        deg += ((r2 >= 0) & (r2 < rows) & (c2 >= 0) & (c2 < cols)).astype(np.int32)
    return deg


def _hole_counts(rows: int, cols: int, k: int, closed: bool) -> tuple[int, int]:
    """Holes of parity 0 and of parity 1 that leave the colours balanced."""
    even = (rows * cols + 1) // 2
    odd = rows * cols - even
    surplus = even - odd  # 0 or 1
    if closed:
        # (even - h0) == (odd - h1)  <=>  h0 - h1 == surplus
        if (k - surplus) % 2:
            k += 1
        h1 = (k - surplus) // 2
        return h1 + surplus, h1
    # open: |(even - h0) - (odd - h1)| <= 1, take the most even split
    h0 = (k + surplus) // 2
    return h0, k - h0


def _draw(rows: int, cols: int, n0: int, n1: int, rng: np.random.Generator) -> list[int] | None:
    """Flat positions of ``n0`` parity-0 and ``n1`` parity-1 holes, or None when too few fit."""
    deg = _degree_grid(rows, cols)
    alive = np.ones((rows, cols), dtype=bool)
    moves = KNIGHT_MOVES.tolist()

    def neighbours(r: int, c: int):
        for dr, dc in moves:
            r2, c2 = r + dr, c + dc
            if 0 <= r2 < rows and 0 <= c2 < cols and alive[r2, c2]:
                yield r2, c2

    def forced(r: int, c: int) -> int:
        return sum(1 for r2, c2 in neighbours(r, c) if deg[r2, c2] == 2)

    flat = np.arange(rows * cols)
    parity = (flat // cols + flat % cols) % 2
    chosen: list[int] = []
    for want, par in ((n0, 0), (n1, 1)):
        if want == 0:
            continue
        order = rng.permutation(flat[parity == par])
        got = 0
        for f in order.tolist():
            r, c = divmod(f, cols)
            nbs = list(neighbours(r, c))
            if any(deg[r2, c2] <= 2 for r2, c2 in nbs):
                continue  # a neighbour would drop below two neighbours
            alive[r, c] = False
            for r2, c2 in nbs:
                deg[r2, c2] -= 1
            # Squares that may now have more than two forced edges: the
            # neighbours of neighbours that just reached degree two.
            bad = False
            for r2, c2 in nbs:
                if deg[r2, c2] == 2 and any(forced(r3, c3) > 2 for r3, c3 in neighbours(r2, c2)):
                    bad = True
                    break
            if bad:
                alive[r, c] = True
                for r2, c2 in nbs:
                    deg[r2, c2] += 1
                continue
            chosen.append(f)
            got += 1
            if got == want:
                break
        if got < want:
            return None
    return chosen


def random_holed_board(
    rows: int,
    cols: int,
    holes: int | float,
    *,
    closed: bool = False,
    seed: int | None = None,
) -> Board:
    """A ``rows x cols`` board with holes drawn at random, fit for a tour.

    Parameters
    ----------
    rows, cols : int
        Size of the rectangle, both at least 5 (smaller boards have squares
        with fewer than two neighbours to begin with).
    holes : int or float
        A whole number is the number of holes; a float is the share of the
        cells to remove, in ``[0, 0.2]``, rounded to the nearest whole
        number.  For a closed tour on a board whose colour split needs it,
        the count is raised by one to keep the colours balanced.
    closed : bool
        Balance the colours for a closed tour (equal counts) when True, for an
        open tour (counts differing by at most one) when False.
    seed : int, optional
        Seed of the draw, a whole number from 0 to 2**32 - 1; the same
        arguments always give the same board.  None draws a fresh seed.

    Returns
    -------
    Board
        A board whose every square has at least two neighbours, where no square
        has more than two neighbours of two neighbours each, with balanced
        colours and a connected knight graph.

    Raises
    ------
    InvalidBoardError
        For a board smaller than 5 x 5, or when no such board is found in a
        few draws (too many holes for the board), or for a share of holes
        outside ``[0, 0.2]``.
    InvalidParameterError
        For a bad seed or flag.

    Notes
    -----
    Each hole costs a check of its neighbourhood, so a board with ``k`` holes
    costs ``O(rows * cols + k)`` time.  Tours may still not exist on the
    board: the conditions above are necessary, not sufficient.

    Examples
    --------
    >>> b = random_holed_board(20, 20, 0.02, closed=True, seed=1)
    >>> b.n_holes, b.colour_counts()
    (8, (196, 196))
    >>> b == random_holed_board(20, 20, 8, closed=True, seed=1)
    True
    """
    for name, value in (("rows", rows), ("cols", cols)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise InvalidBoardError(f"{name} {value!r} must be a whole number")
    rows, cols = int(rows), int(cols)
    if rows < 5 or cols < 5:
        raise InvalidBoardError(f"a {rows}x{cols} board is too small for random holes; use at least 5x5")
    closed = check_flag("closed", closed)
    seed = resolve_seed(seed)
    if isinstance(holes, (int, np.integer)) and not isinstance(holes, bool):
        k = int(holes)
        if not 0 <= k <= rows * cols // 5:
            raise InvalidBoardError(f"{k} holes on a {rows}x{cols} board: give 0 to {rows * cols // 5}")
    else:
        try:
            frac = check_real("holes", holes, 0.0, 0.2)
        except InvalidParameterError as exc:
            raise InvalidBoardError(f"{exc} (a share of the cells, or a whole number of holes)") from None
        k = int(round(frac * rows * cols))
    n0, n1 = _hole_counts(rows, cols, k, closed)
    rng = np.random.default_rng(seed)
    for _ in range(_ATTEMPTS):
        chosen = _draw(rows, cols, n0, n1, rng)
        if chosen is None:
            continue
        r, c = np.divmod(np.asarray(chosen, dtype=np.int64), cols)
        board = Board(rows, cols, np.stack([r, c], axis=1))
        if _connected(board):
            return board
    raise InvalidBoardError(
        f"no {rows}x{cols} board with {k} holes meets the conditions "
        f"after {_ATTEMPTS} draws; use fewer holes"
    )


def _connected(board: Board) -> bool:
    """True when the knight graph of ``board`` is connected (breadth-first, numpy)."""
    graph = KnightGraph(board)
    n = graph.n
    table = graph.table
    seen = np.zeros(n, dtype=bool)
    seen[0] = True
    frontier = np.array([0], dtype=np.int64)
    while frontier.size:
        nb = table[frontier].ravel()
        nb = nb[nb >= 0]
        nb = nb[~seen[nb]]
        nb = np.unique(nb)
        seen[nb] = True
        frontier = nb
    return bool(seen.all())
