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
seed (numpy's PCG64), so the same call always returns the same board.  The
work is done by numba kernels on flat int8/uint8 grids
(:mod:`ktsolve._generate_kernels`), in time linear in the cells: boards up to
:data:`PERMUTE_MAX` cells try the cells of a class in the order of a numpy
permutation (the boards these seeds always gave), larger ones draw candidate
cells with SplitMix64 seeded from the same generator.
"""

from __future__ import annotations

import numpy as np

from .board import Board
from .checks import check_flag, check_real
from .errors import InvalidBoardError, InvalidParameterError
from .seeds import resolve_seed

__all__ = ["random_holed_board", "warm"]

#: Boards per seed tried before giving up (a rejected draw is redrawn).
_ATTEMPTS = 20


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


#: Boards up to this many cells draw their holes in the order of a numpy permutation of each
#: colour class (the boards every seed gave before the huge-board kernels: tests pin some).
#: Larger boards draw candidates with SplitMix64 instead: a permutation of 10^8 cells alone
#: takes seconds and gigabytes.
PERMUTE_MAX = 1 << 22

#: Candidate draws per wanted hole on large boards before a draw is given up.
_TRIES_PER_HOLE = 64


def _draw(rows: int, cols: int, n0: int, n1: int, rng: np.random.Generator) -> np.ndarray | None:
    """``alive`` (uint8, flat, 0 on holes) with ``n0`` parity-0 and ``n1`` parity-1 holes, or None when too few fit."""
    from ._generate_kernels import degree_grid, draw_ordered, draw_random

    n = rows * cols
    deg = np.empty(n, dtype=np.int8)
    degree_grid(rows, cols, deg)
    alive = np.ones(n, dtype=np.uint8)
    for want, par in ((n0, 0), (n1, 1)):
        if want == 0:
            continue
        if n <= PERMUTE_MAX:
            order = rng.permutation((n + 1 - par) // 2)  # indices into the class, row-major
            got = draw_ordered(rows, cols, par, order, want, deg, alive)
        else:
            state = np.array([rng.integers(0, 2**63)], dtype=np.uint64)
            got = draw_random(rows, cols, par, state, want, _TRIES_PER_HOLE * want + 1000, deg, alive)
        if got < want:
            return None
    return alive


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
    from ._generate_kernels import connected

    for _ in range(_ATTEMPTS):
        alive = _draw(rows, cols, n0, n1, rng)
        if alive is None:
            continue
        if connected(rows, cols, alive):
            return Board.from_mask((alive == 0).reshape(rows, cols))
    raise InvalidBoardError(
        f"no {rows}x{cols} board with {k} holes meets the conditions "
        f"after {_ATTEMPTS} draws; use fewer holes"
    )


def warm() -> float:
    """Compile (or load from numba's cache) the drawing kernels; seconds spent compiling (``ktsolve warm``
    calls it through :data:`ktsolve.jit.SHARED`)."""
    from . import jit
    from ._generate_kernels import connected, degree_grid, draw_ordered, draw_random

    def calls():
        rng = np.random.default_rng(0)
        alive = _draw(6, 6, 1, 1, rng)
        deg = np.empty(36, dtype=np.int8)
        degree_grid(6, 6, deg)
        draw_random(6, 6, 0, np.array([1], dtype=np.uint64), 1, 10, deg, np.ones(36, dtype=np.uint8))
        connected(6, 6, alive)

    return jit.prepare("random boards", calls, (connected, degree_grid, draw_ordered, draw_random))
