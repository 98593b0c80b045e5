"""Numba kernels of :mod:`ktsolve.shapes`: mazes, concentric rings and swiss cheese painted on a grid.

Every picture is a flat uint8 array over the cells of the ``rows x cols``
rectangle (``row * cols + col``), 1 on the squares.  Random draws come from
SplitMix64 (:mod:`ktsolve._splitmix`, the one generator kernels share),
its state in ``rng[0]``.  The readable references are in
``tests/naive_shapes.py``.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

from ._splitmix import below, uniform

__all__ = ["maze_tree", "paint_maze", "paint_rings", "paint_cheese"]


@nb.njit(cache=True, nogil=True)
def maze_tree(n_rows, n_cols, rng, east, south):  # pragma: no cover
    """A random spanning tree of the ``n_rows x n_cols`` grid of maze cells, by depth-first search (the
    recursive backtracker: long corridors, few branches).

    Sets ``east[i] = 1`` when cell ``i`` opens to the cell on its right and
    ``south[i] = 1`` when it opens to the cell below.  The search starts at
    a cell drawn at random and, at each step, goes on to one of the current
    cell's unvisited neighbours (up, right, down, left: one drawn at
    random), or backs up when there is none.
    """
    n = n_rows * n_cols
    seen = np.zeros(n, dtype=np.uint8)
    stack = np.empty(n, dtype=np.int32)
    opts = np.empty(4, dtype=np.int64)
    start = below(rng, n)
    seen[start] = 1
    stack[0] = start
    top = 1
    while top > 0:
        cell = stack[top - 1]
        i = cell // n_cols
        j = cell - i * n_cols
        k = 0
        if i > 0 and seen[cell - n_cols] == 0:
            opts[k] = 0
            k += 1
        if j < n_cols - 1 and seen[cell + 1] == 0:
            opts[k] = 1
            k += 1
        if i < n_rows - 1 and seen[cell + n_cols] == 0:
            opts[k] = 2
            k += 1
        if j > 0 and seen[cell - 1] == 0:
            opts[k] = 3
            k += 1
        if k == 0:
            top -= 1
            continue
        d = opts[below(rng, k)]
        if d == 0:
            nxt = cell - n_cols
            south[nxt] = 1
        elif d == 1:
            nxt = cell + 1
            east[cell] = 1
        elif d == 2:
            nxt = cell + n_cols
            south[cell] = 1
        else:
            nxt = cell - 1
            east[nxt] = 1
        seen[nxt] = 1
        stack[top] = nxt
        top += 1


@nb.njit(cache=True, nogil=True)
def _fill(out, cols, r0, r1, c0, c1):  # pragma: no cover
    for r in range(r0, r1):
        for c in range(c0, c1):
            out[r * cols + c] = 1


@nb.njit(cache=True, nogil=True)
def paint_maze(rows, cols, n_rows, n_cols, corridor, wall, east, south, out):  # pragma: no cover
    """Paint the maze of :func:`maze_tree` on ``out`` (zeros): cell ``(i, j)`` is the ``corridor x corridor``
    block at row ``wall + i * (corridor + wall)``, column ``wall + j * (corridor + wall)``, and an opening
    fills the wall between two cells over the corridor's width."""
    step = corridor + wall
    for i in range(n_rows):
        r0 = wall + i * step
        for j in range(n_cols):
            c0 = wall + j * step
            cell = i * n_cols + j
            _fill(out, cols, r0, r0 + corridor, c0, c0 + corridor)
            if east[cell]:
                _fill(out, cols, r0, r0 + corridor, c0 + corridor, c0 + step)
            if south[cell]:
                _fill(out, cols, r0 + corridor, r0 + step, c0, c0 + corridor)


@nb.njit(cache=True, nogil=True)
def paint_rings(rows, cols, width, gap, out):  # pragma: no cover
    """Concentric rings about the rectangle's centre inside its inscribed disk: a cell at distance ``d`` from
    the centre is a square when ``floor(d) mod (width + gap) < width`` and ``d <= min(rows, cols) / 2``.

    Distances are taken in doubled whole coordinates (``x = (2 r - rows + 1)^2
    + (2 c - cols + 1)^2``, so ``d = sqrt(x) / 2`` and ``floor(d) =
    isqrt(x) // 2``): no rounding decides a cell.
    """
    lim = min(rows, cols) ** 2
    period = width + gap
    for r in range(rows):
        dy = 2 * r - rows + 1
        for c in range(cols):
            dx = 2 * c - cols + 1
            x = dy * dy + dx * dx
            f = r * cols + c
            if x > lim:
                out[f] = 0
                continue
            s = np.int64(math.sqrt(x))
            while s * s > x:
                s -= 1
            while (s + 1) * (s + 1) <= x:
                s += 1
            out[f] = 1 if (s // 2) % period < width else 0


@nb.njit(cache=True, nogil=True)
def paint_cheese(rows, cols, target, r1, r2, rng, out, max_disks):  # pragma: no cover
    """Cut disks out of ``out`` (ones) until at least ``target`` cells are holes or ``max_disks`` are drawn;
    returns ``(holes, disks)``.

    A disk's centre is drawn uniformly in ``[0, rows) x [0, cols)`` and its
    radius uniformly in ``[r1, r2]``; the cells ``(r, c)`` within the radius
    of the centre become holes.  Every disk is cut whole.
    """
    holes = 0
    disks = 0
    while holes < target and disks < max_disks:
        cr = uniform(rng) * rows
        cc = uniform(rng) * cols
        rad = r1 + uniform(rng) * (r2 - r1)
        disks += 1
        rr = rad * rad
        lo_r = max(0, math.ceil(cr - rad))
        hi_r = min(rows - 1, math.floor(cr + rad))
        lo_c = max(0, math.ceil(cc - rad))
        hi_c = min(cols - 1, math.floor(cc + rad))
        for r in range(lo_r, hi_r + 1):
            dy = r - cr
            for c in range(lo_c, hi_c + 1):
                dx = c - cc
                f = r * cols + c
                if dy * dy + dx * dx <= rr and out[f]:
                    out[f] = 0
                    holes += 1
    return holes, disks
