"""Numba kernels of :mod:`ktsolve.cleaning`: the largest part, the pruning and the colour balance of a region.

Every array is flat over the cells of the ``rows x cols`` rectangle
(``row * cols + col``): ``alive`` (uint8) is 1 on the squares of the region
and 0 on the holes, ``deg`` (int8) the number of knight's moves from a
square to squares of the region, ``keep`` (uint8) 1 on squares the balance
must leave alone (an array of another size: none).  No graph is built: a square's moves come from its row
and column, so a region of 10^8 cells costs its bytes a cell here, plus an
int32 queue or stack of at most one entry per square.

The readable references are in ``tests/naive_cleaning.py``.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ._grid_kernels import DC, DR, flood, over_forced_near, step_rc

__all__ = ["degrees", "largest_part", "prune", "balance", "WINDOW"]

#: Half the side of the window in which :func:`balance` looks for a way round a square it removes.
WINDOW = 6


@nb.njit(cache=True, nogil=True)
def degrees(rows, cols, alive, deg):  # pragma: no cover
    """Fill ``deg`` with the moves from every square to squares of the region (0 on holes)."""
    for r in range(rows):
        for c in range(cols):
            f = r * cols + c
            d = 0
            if alive[f]:
                for k in range(8):
                    g = step_rc(r, c, k, rows, cols)
                    if g >= 0 and alive[g]:
                        d += 1
            deg[f] = d


@nb.njit(cache=True, nogil=True)
def largest_part(rows, cols, alive):  # pragma: no cover
    """Keep only the largest knight-connected part of the region (the first in row-major order of its
    first square, on a tie); returns ``(parts, squares removed)``."""
    n = rows * cols
    total = 0
    for f in range(n):
        if alive[f]:
            total += 1
    if total == 0:
        return 0, 0
    seen = np.zeros(n, dtype=np.uint8)
    queue = np.empty(total, dtype=np.int32)
    parts = 0
    best = 0
    best_start = -1
    for f in range(n):
        if alive[f] and seen[f] == 0:
            size = flood(rows, cols, alive, seen, np.uint8(1), f, queue)
            parts += 1
            if size > best:
                best = size
                best_start = f
    flood(rows, cols, alive, seen, np.uint8(2), best_start, queue)
    removed = 0
    for f in range(n):
        if alive[f] and seen[f] != 2:
            alive[f] = 0
            removed += 1
    return parts, removed


@nb.njit(cache=True, nogil=True)
def prune(rows, cols, alive, deg):  # pragma: no cover
    """Remove, again and again, every square with fewer than two moves; ``deg`` must hold :func:`degrees`
    and is kept up to date.  Returns the squares removed.

    What is left is the region's 2-core: every square has two moves or
    more.  A square removed has at most one move, so the rest stays as
    connected as it was.
    """
    n = rows * cols
    total = 0
    for f in range(n):
        if alive[f]:
            total += 1
    stack = np.empty(total, dtype=np.int32)  # a square is stacked once
    top = 0
    for f in range(n):
        if alive[f] and deg[f] < 2:
            alive[f] = 0  # out as soon as it is stacked, so it is stacked once
            stack[top] = f
            top += 1
    removed = 0
    while top > 0:
        top -= 1
        f = stack[top]
        removed += 1
        r = f // cols
        c = f - r * cols
        for k in range(8):
            g = step_rc(r, c, k, rows, cols)
            if g >= 0 and alive[g]:
                deg[g] -= 1
                if deg[g] < 2:
                    alive[g] = 0
                    stack[top] = g
                    top += 1
        deg[f] = 0
    return removed


@nb.njit(cache=True, nogil=True)
def _joined_around(f, nbs, m, rows, cols, alive, win, queue):  # pragma: no cover
    """Whether the ``m`` squares ``nbs`` (the moves of ``f``) are joined by moves inside the window of half-side
    :data:`WINDOW` around ``f`` without ``f``: then taking ``f`` out leaves the region as connected as it was."""
    if m <= 1:
        return True
    side = 2 * WINDOW + 1
    for i in range(side * side):
        win[i] = 0
    r0 = f // cols - WINDOW
    c0 = f - (f // cols) * cols - WINDOW
    fr = WINDOW
    fc = WINDOW
    win[fr * side + fc] = 1  # f counts as seen: the search never passes through it
    s = nbs[0]
    sr = s // cols - r0
    sc = s - (s // cols) * cols - c0
    queue[0] = sr * side + sc
    win[sr * side + sc] = 1
    head = 0
    tail = 1
    while head < tail:
        w = queue[head]
        head += 1
        wr = w // side
        wc = w - wr * side
        for k in range(8):
            r2 = wr + DR[k]
            c2 = wc + DC[k]
            if 0 <= r2 < side and 0 <= c2 < side and win[r2 * side + c2] == 0:
                br = r0 + r2
                bc = c0 + c2
                if 0 <= br < rows and 0 <= bc < cols and alive[br * cols + bc]:
                    win[r2 * side + c2] = 1
                    queue[tail] = r2 * side + c2
                    tail += 1
    for i in range(1, m):
        g = nbs[i]
        gr = g // cols - r0
        gc = g - (g // cols) * cols - c0
        if win[gr * side + gc] == 0:
            return False
    return True


@nb.njit(cache=True, nogil=True)
def _try_remove(f, strict, rows, cols, alive, deg, nbs, win, queue):  # pragma: no cover
    """Take square ``f`` out if every square keeps two moves (three when ``strict``: no new square of two
    moves), no square gets more than two moves to squares of two moves, and the region stays connected."""
    r = f // cols
    c = f - r * cols
    m = 0
    least = 3 if strict else 2
    for k in range(8):
        g = step_rc(r, c, k, rows, cols)
        if g >= 0 and alive[g]:
            if deg[g] - 1 < least:
                return False
            nbs[m] = g
            m += 1
    if m == 0:
        return False  # a region of one square: never emptied
    if not _joined_around(f, nbs, m, rows, cols, alive, win, queue):
        return False
    alive[f] = 0
    for i in range(m):
        deg[nbs[i]] -= 1
    if not strict and over_forced_near(nbs, m, rows, cols, alive, deg):
        alive[f] = 1
        for j in range(m):
            deg[nbs[j]] += 1
        return False
    deg[f] = 0
    return True


@nb.njit(cache=True, nogil=True)
def balance(rows, cols, alive, deg, keep, par, want, stride):  # pragma: no cover
    """Remove up to ``want`` squares of parity ``par`` (``(row + col) % 2``); returns how many it removed.

    The cells are visited in the order ``f, f + stride, f + 2 stride, ...``
    modulo ``rows * cols`` (``stride`` coprime to it, so each cell once a
    pass), which spreads the removals over the whole region.  Four passes,
    each stopping once ``want`` squares are out: squares at the region's
    edge (fewer than eight moves) whose removal leaves every square at least
    three moves; then at least two, with no square over-forced; then the
    same two passes over every square.  A square is removed only when its
    moves stay joined around it (:func:`_joined_around`), so the region stays
    connected, and never when ``keep`` (of ``rows * cols`` cells; any other
    size keeps none) marks it.  ``deg`` must hold
    :func:`degrees` and is kept up to date.
    """
    n = rows * cols
    side = 2 * WINDOW + 1
    nbs = np.empty(8, dtype=np.int64)
    win = np.zeros(side * side, dtype=np.uint8)
    queue = np.empty(side * side, dtype=np.int64)
    removed = 0
    for phase in range(4):
        if removed >= want:
            break
        edge_only = phase < 2
        strict = phase % 2 == 0
        f = 0
        for _ in range(n):
            f += stride
            if f >= n:
                f -= n
            if not alive[f] or (keep.size == n and keep[f]):
                continue
            r = f // cols
            if ((r + f - r * cols) & 1) != par:
                continue
            if edge_only and deg[f] == 8:
                continue
            if _try_remove(f, strict, rows, cols, alive, deg, nbs, win, queue):
                removed += 1
                if removed >= want:
                    break
    return removed
