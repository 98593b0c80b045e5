"""Numba kernels of :mod:`ktsolve.generate`: draw holes on a grid, check that the rest is connected.

Every array is flat over the cells of the ``rows x cols`` rectangle
(``row * cols + col``): ``deg`` (int8) the number of knight's moves from a
cell to cells that are not holes, ``alive`` (uint8) 1 on the cells that are
not holes.  No graph is built, so a board of 10^8 cells costs two bytes a
cell here (and the candidate order of :func:`draw_ordered`).

:func:`try_hole` is the one rule: a cell becomes a hole when every one of
its neighbours keeps at least two neighbours and no square ends up with
more than two neighbours of degree two (its forced moves).  The candidates
come either from a given order (:func:`draw_ordered`, fed by numpy's
permutation so that boards stay the same for a seed) or from SplitMix64
draws (:func:`draw_random`, for boards too large to permute).

Kept in a file of its own so that ``ktsolve`` starts without numba.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ._grid_kernels import flood, over_forced_near, step_rc
from ._splitmix import below

__all__ = ["degree_grid", "draw_ordered", "draw_random", "connected", "class_cell"]

@nb.njit(cache=True, nogil=True)
def degree_grid(rows, cols, deg):  # pragma: no cover
    """Fill ``deg`` (int8, flat) with the number of knight's moves from every cell of the full rectangle."""
    for r in range(rows):
        for c in range(cols):
            d = 0
            for k in range(8):
                if step_rc(r, c, k, rows, cols) >= 0:
                    d += 1
            deg[r * cols + c] = d


@nb.njit(cache=True, nogil=True)
def class_cell(i, par, cols):  # pragma: no cover
    """Flat position of the ``i``-th cell (row-major) of parity ``(row + col) % 2 == par``."""
    if cols % 2 == 0:
        h = cols // 2
        r = i // h
        c = ((par + r) & 1) + 2 * (i - r * h)
        return r * cols + c
    q = i // cols  # rows 2q and 2q + 1 hold cols cells of the class together
    j = i - q * cols
    r = 2 * q
    c0 = par & 1
    first = (cols - c0 + 1) // 2
    if j >= first:
        r += 1
        j -= first
        c0 = 1 - c0
    return r * cols + c0 + 2 * j


@nb.njit(cache=True, nogil=True)
def try_hole(f, rows, cols, deg, alive, nbs):  # pragma: no cover
    """Make cell ``f`` a hole if the rule allows it (see the module docstring); True when it did.
    ``nbs`` (int64, 8) is scratch for its neighbours."""
    r = f // cols
    c = f - r * cols
    m = 0
    for k in range(8):
        g = step_rc(r, c, k, rows, cols)
        if g >= 0 and alive[g]:
            if deg[g] <= 2:
                return False  # that neighbour would drop below two neighbours
            nbs[m] = g
            m += 1
    alive[f] = 0
    for i in range(m):
        deg[nbs[i]] -= 1
    # squares that may now be over-forced: the neighbours of the neighbours that reached degree two
    if over_forced_near(nbs, m, rows, cols, alive, deg):
        alive[f] = 1
        for i in range(m):
            deg[nbs[i]] += 1
        return False
    return True


@nb.njit(cache=True, nogil=True)
def draw_ordered(rows, cols, par, order, want, deg, alive):  # pragma: no cover
    """Try the cells of parity ``par`` in ``order`` (indices into the class) until ``want`` are holes; returns the count."""
    got = 0
    if want == 0:
        return 0
    nbs = np.empty(8, dtype=np.int64)
    for t in range(order.size):
        f = class_cell(order[t], par, cols)
        if try_hole(f, rows, cols, deg, alive, nbs):
            got += 1
            if got == want:
                break
    return got


@nb.njit(cache=True, nogil=True)
def draw_random(rows, cols, par, rng, want, tries, deg, alive):  # pragma: no cover
    """Try cells of parity ``par`` drawn by SplitMix64 (state ``rng[0]``) until ``want`` are holes or
    ``tries`` draws are spent; returns the count."""
    count = (rows * cols + 1 - par) // 2
    got = 0
    if want == 0:
        return 0
    nbs = np.empty(8, dtype=np.int64)
    for _ in range(tries):
        f = class_cell(np.int64(below(rng, count)), par, cols)
        if alive[f] and try_hole(f, rows, cols, deg, alive, nbs):
            got += 1
            if got == want:
                break
    return got


@nb.njit(cache=True, nogil=True)
def connected(rows, cols, alive):  # pragma: no cover
    """True when the knight's moves join every alive cell (breadth-first search, int32 queue)."""
    n = rows * cols
    start = -1
    total = 0
    for f in range(n):
        if alive[f]:
            total += 1
            if start < 0:
                start = f
    if total == 0:
        return True
    seen = np.zeros(n, dtype=np.uint8)
    queue = np.empty(total, dtype=np.int32)
    return flood(rows, cols, alive, seen, np.uint8(1), start, queue) == total
