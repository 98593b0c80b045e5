"""Structured boards for tests and benchmarks: mazes, concentric rings, swiss cheese, planted obstructions.

The boards people bring are seldom random: a maze, a ring, a sheet with
round holes, a region with one bad spot.  Each function here paints such a
shape on a ``rows x cols`` rectangle and hands it to
:func:`ktsolve.cleaning.clean`, which by default keeps the largest
knight-connected part, prunes the squares with fewer than two moves and
balances the colours for an open tour (``balance="closed"`` for a closed
one), so the result passes the cheap necessary conditions of a tour:

* :func:`maze`: a perfect maze (a random spanning tree, drawn by depth-first
  search) of corridors ``corridor`` squares wide between walls ``wall``
  thick; a wall of two or more stops every knight's move, so the knight
  follows the corridors;
* :func:`rings`: concentric rings ``width`` squares wide, ``gap`` apart, in
  the rectangle's inscribed disk; a knight crosses a gap of one or two at
  some angles only;
* :func:`cheese`: disks with radii drawn from ``r1 .. r2`` cut out at random
  until they cover a share of the rectangle;
* :func:`planted`: a full rectangle with one local obstruction, a corner
  pocket joined to the rest through one square (a cut square: no closed
  tour) or two squares sharing their only two moves (their four moves
  close a cycle of four: no closed tour), the rest of the board left fit.

The painting is done by numba kernels (:mod:`ktsolve._shapes_kernels`) in
time linear in the cells, a byte a cell; draws come from SplitMix64 under a
seed derived from ``seed``, so the same arguments always give the same
board.  Every function returns a :class:`~ktsolve.cleaning.Region`: the
squares, the cleaning's record and the seed (``region.board`` is the
:class:`~ktsolve.Board`).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ._board_base import MAX_SQUARES, check_size
from .checks import check_choice, check_int, check_real
from .cleaning import Region, clean
from .errors import InvalidBoardError
from .graph import KNIGHT_MOVES
from .seeds import derive_seed, resolve_seed

__all__ = ["maze", "rings", "cheese", "planted", "PLANTED", "warm"]

#: The obstructions :func:`planted` plants.
PLANTED = ("pocket", "pair")


def _rng(seed: int, stream: str) -> np.ndarray:
    return np.array([derive_seed(seed, stream, 0)], dtype=np.uint64)


def _made(squares: np.ndarray, what: str, *, largest, prune, balance, keep=None, seed=None) -> Region:
    painted = int(np.count_nonzero(squares))
    if painted == 0:
        raise InvalidBoardError(f"the {what} has no squares")
    region = clean(squares, largest=largest, prune=prune, balance=balance, keep=keep)
    return dataclasses.replace(region, seed=seed, made=(f"{what}: {painted:,} squares",))


def maze(
    rows: int,
    cols: int,
    *,
    corridor: int = 6,
    wall: int = 2,
    largest: bool = True,
    prune: bool = True,
    balance: str | None = "open",
    seed: int | None = None,
) -> Region:
    """A perfect maze of corridors ``corridor`` squares wide between walls ``wall`` thick.

    Parameters
    ----------
    rows, cols : int
        Size of the rectangle.  It holds ``(rows - wall) // (corridor +
        wall)`` rows of maze cells (and as many columns from ``cols``); what
        is left over at the bottom and right is wall.
    corridor : int
        Width of a corridor in squares, at least 1 (a knight needs 3 to move
        along a corridor of its own; narrower ones fall apart and the
        cleaning keeps the largest piece).
    wall : int
        Thickness of a wall in squares, at least 1 (a wall of 1 is jumped).
    largest, prune, balance
        The cleaning (see :func:`ktsolve.cleaning.clean`).
    seed : int, optional
        Seed of the draw, a whole number from 0 to 2**32 - 1; the same
        arguments always give the same board.  None draws a fresh seed,
        recorded in ``region.seed``.

    Returns
    -------
    Region
        The maze's corridors, cleaned; ``made`` gives the cells and the walls.

    Raises
    ------
    InvalidBoardError
        For a rectangle with no room for one maze cell, or one the cleaning
        refuses.
    InvalidParameterError
        For a corridor, wall or seed out of range.

    Notes
    -----
    The maze is a spanning tree of the grid of cells drawn by depth-first
    search with random choices (the "recursive backtracker"), linear in
    the cells, as is the painting.

    Examples
    --------
    >>> r = maze(40, 40, corridor=4, wall=2, balance="closed", seed=1)
    >>> r.board.n_squares, r.cleaning.colours
    (856, (428, 428))
    >>> bool(r.squares[:2].any())   # the outer wall
    False
    """
    rows, cols = check_size(rows, cols)
    corridor = check_int("corridor", corridor, 1, MAX_SQUARES)
    wall = check_int("wall", wall, 1, MAX_SQUARES)
    seed = resolve_seed(seed)
    step = corridor + wall
    n_rows, n_cols = (rows - wall) // step, (cols - wall) // step
    if n_rows < 1 or n_cols < 1:
        raise InvalidBoardError(f"a {rows}x{cols} board has no room for a maze cell with corridors of "
                                f"{corridor} and walls of {wall}: use at least {step + wall}x{step + wall}")
    from ._shapes_kernels import maze_tree, paint_maze

    warm()
    east = np.zeros(n_rows * n_cols, dtype=np.uint8)
    south = np.zeros(n_rows * n_cols, dtype=np.uint8)
    maze_tree(n_rows, n_cols, _rng(seed, "maze"), east, south)
    out = np.zeros(rows * cols, dtype=np.uint8)
    paint_maze(rows, cols, n_rows, n_cols, corridor, wall, east, south, out)
    what = f"maze of {n_rows}x{n_cols} cells, corridors {corridor} wide, walls {wall}"
    return _made(out.view(bool).reshape(rows, cols), what, largest=largest, prune=prune, balance=balance,
                 seed=seed)


def rings(
    rows: int,
    cols: int,
    *,
    width: int = 6,
    gap: int = 2,
    largest: bool = True,
    prune: bool = True,
    balance: str | None = "open",
) -> Region:
    """Concentric rings ``width`` squares wide, ``gap`` apart, in the rectangle's inscribed disk.

    A cell at distance ``d`` from the rectangle's centre is a square when
    ``floor(d) mod (width + gap) < width`` and ``d <= min(rows, cols) / 2``;
    the innermost ring is a disk of radius ``width``.  A knight's move
    spans at most sqrt(5) ~ 2.24: it crosses a gap of one anywhere, of two
    only where a move points outwards, and never one of three or more (the
    cleaning then keeps the largest ring).  No random draw: no seed.

    Parameters
    ----------
    rows, cols : int
        Size of the rectangle.
    width : int
        Width of a ring, at least 1.
    gap : int
        Width of the gap between rings, at least 0 (0: one disk).
    largest, prune, balance
        The cleaning (see :func:`ktsolve.cleaning.clean`).

    Returns
    -------
    Region
        The rings, cleaned; ``made`` gives their width and the gap between them.

    Examples
    --------
    >>> r = rings(41, 41, width=4, gap=2, balance="closed")
    >>> bool(r.squares[20, 27]), bool(r.squares[20, 25])   # 7 from the centre: a ring; 5: a gap
    (True, False)
    >>> r.cleaning.parts, r.cleaning.outside_largest         # the disk in the middle is cut off
    (2, 45)
    """
    rows, cols = check_size(rows, cols)
    width = check_int("width", width, 1, MAX_SQUARES)
    gap = check_int("gap", gap, 0, MAX_SQUARES)
    from ._shapes_kernels import paint_rings

    warm()
    out = np.zeros(rows * cols, dtype=np.uint8)
    paint_rings(rows, cols, width, gap, out)
    what = f"rings {width} wide, {gap} apart"
    return _made(out.view(bool).reshape(rows, cols), what, largest=largest, prune=prune, balance=balance)


def cheese(
    rows: int,
    cols: int,
    *,
    share: float = 0.2,
    radii: tuple[float, float] = (5.0, 40.0),
    largest: bool = True,
    prune: bool = True,
    balance: str | None = "open",
    seed: int | None = None,
) -> Region:
    """Swiss cheese: disks with radii drawn from ``radii`` cut out at random until they cover ``share``.

    Parameters
    ----------
    rows, cols : int
        Size of the rectangle.
    share : float
        Share of the cells the disks cover, in ``[0, 0.9]`` (reached or
        passed by at most one disk).
    radii : (float, float)
        Smallest and largest radius, ``0 < r1 <= r2 <= max(rows, cols)``;
        each disk's radius is uniform between them, its centre uniform on
        the rectangle (disks overlap and cross the edge).
    largest, prune, balance
        The cleaning (see :func:`ktsolve.cleaning.clean`).
    seed : int, optional
        Seed of the draw, as for :func:`maze`.

    Returns
    -------
    Region
        The sheet with its disks cut out, cleaned; ``made`` gives the disks' number and radii and
        the share they cover.

    Examples
    --------
    >>> r = cheese(60, 60, share=0.2, radii=(2, 6), seed=3)
    >>> r == cheese(60, 60, share=0.2, radii=(2, 6), seed=3), r.board.n_squares < 0.8 * 3600
    (True, True)
    """
    rows, cols = check_size(rows, cols)
    share = check_real("share", share, 0.0, 0.9)
    try:
        r1, r2 = radii
    except (TypeError, ValueError):
        raise InvalidBoardError(f"radii must be two numbers r1, r2, not {radii!r}") from None
    r1 = check_real("radius r1", r1, 0.0, float(max(rows, cols)), lo_open=True)
    r2 = check_real("radius r2", r2, r1, float(max(rows, cols)))
    seed = resolve_seed(seed)
    from ._shapes_kernels import paint_cheese

    warm()
    out = np.ones(rows * cols, dtype=np.uint8)
    target = int(round(share * rows * cols))
    holes, disks = paint_cheese(rows, cols, target, r1, r2, _rng(seed, "cheese"), out, 64 * target + 1000)
    what = f"swiss cheese of {disks:,} disks of radii {r1:g}-{r2:g} covering {holes / (rows * cols):.1%}"
    return _made(out.view(bool).reshape(rows, cols), what, largest=largest, prune=prune, balance=balance,
                 seed=seed)


def _moves(r: int, c: int, rows: int, cols: int) -> list[tuple[int, int]]:
    return [(r + dr, c + dc) for dr, dc in KNIGHT_MOVES.tolist() if 0 <= r + dr < rows and 0 <= c + dc < cols]


def planted(rows: int, cols: int, kind: str, *, balance: str | None = "open") -> Region:
    """A full ``rows x cols`` rectangle with one local obstruction to a closed tour, the rest left fit.

    Parameters
    ----------
    rows, cols : int
        Size of the rectangle, both at least 16.
    kind : {"pocket", "pair"}
        ``"pocket"``: the top-left 5 x 5 corner walled off by holes two
        thick, joined to the rest through the one square at row 5, column 5
        (a cut square; an open tour may still start in the pocket).
        ``"pair"``: two squares in the middle, two rows apart, whose every
        move but the two they share is a hole (every closed tour would hold
        the cycle of four through them).
    balance : {"open", "closed", None}
        Colours balanced for this question by squares taken at the edge,
        away from the obstruction.

    Returns
    -------
    Region
        Every square with two moves or more, one knight-connected part.

    Examples
    --------
    >>> r = planted(16, 16, "pair", balance="closed")
    >>> r.cleaning.colours, r.cleaning.balanced   # 12 holes round the pair, 12 squares at the edge
    ((116, 116), 12)
    >>> p = planted(16, 16, "pocket")
    >>> bool(p.squares[5, 5]), bool(p.squares[5, 4]), bool(p.squares[4, 4])
    (True, False, True)
    """
    rows, cols = check_size(rows, cols)
    kind = check_choice("kind", kind, PLANTED)
    if rows < 16 or cols < 16:
        raise InvalidBoardError(f"a {rows}x{cols} board is too small for a planted obstruction; use at least 16x16")
    sq = np.ones((rows, cols), dtype=bool)
    keep = np.zeros((rows, cols), dtype=bool)
    if kind == "pocket":
        p = 5
        sq[:p + 2, :p + 2] = False
        sq[:p, :p] = True
        sq[p, p] = True
        keep[:p + 6, :p + 6] = True
        what = f"a {p}x{p} corner pocket joined through the square at row {p}, column {p}"
    else:
        r, c = rows // 2 - 1, cols // 2
        a, b = (r, c), (r + 2, c)
        shared = {(r + 1, c - 2), (r + 1, c + 2)}
        for x in (a, b):
            for y in _moves(*x, rows, cols):
                if y not in shared:
                    sq[y] = False
        keep[r - 5:r + 8, c - 6:c + 7] = True
        what = f"two squares at rows {r} and {r + 2}, column {c}, sharing their only two moves"
    region = clean(sq, largest=True, prune=True, balance=balance, keep=keep)
    return dataclasses.replace(region, made=(what,))


def warm() -> float:
    """Compile (or load from numba's cache) the painting kernels; seconds spent compiling (``ktsolve warm``
    calls it through :data:`ktsolve.jit.SHARED`)."""
    from . import jit
    from ._shapes_kernels import maze_tree, paint_cheese, paint_maze, paint_rings

    def calls():
        east = np.zeros(4, dtype=np.uint8)
        south = np.zeros(4, dtype=np.uint8)
        maze_tree(2, 2, np.array([1], dtype=np.uint64), east, south)
        out = np.zeros(100, dtype=np.uint8)
        paint_maze(10, 10, 2, 2, 2, 2, east, south, out)
        paint_rings(10, 10, 2, 1, out)
        out[:] = 1
        paint_cheese(10, 10, 5, 1.0, 2.0, np.array([1], dtype=np.uint64), out, 1000)

    return jit.prepare("shapes", calls, (maze_tree, paint_cheese, paint_maze, paint_rings))
