"""The knight's moves on the implicit grid, and links kept two to a square: the helpers every grid kernel shares.

The 2-factor restoration (:mod:`ktsolve.factor._restore_kernels`), the
2-factor search (:mod:`ktsolve.factor._kernels`), splice's exchanges
(:mod:`ktsolve.heuristics.splice._merge_kernels`), the local proofs
(:mod:`ktsolve.proofs._local_kernels`), the random boards
(:mod:`ktsolve._generate_kernels`) and the cleaning of regions
(:mod:`ktsolve._cleaning_kernels`) work on the cells of a ``rows x
cols`` rectangle, flat ``f = row * cols + col``, without a graph: a
cell's moves come from its row and column.  Links are int8, two slots a
cell (``links[f, 0]``, ``links[f, 1]``): each slot ``0 .. 7`` the move (an
index into :data:`DR` and :data:`DC`, the order of
:data:`ktsolve.graph.KNIGHT_MOVES`) to a linked square, :data:`END` a link
to the extra vertex that closes an open tour, :data:`NONE` empty.  Links are
mutual: move ``j`` from ``f`` is answered by move ``j ^ 4`` from the square
it reaches.

One helper reads the graph's padded move table instead (``tpad``, a row of
eight square numbers a square, -1 where no move): :func:`adjacent`, shared
by the genetic algorithm's and the rotations' kernels.

Like :mod:`ktsolve._splitmix`, this file is an exception to "a jitted
function calls only jitted functions of its own file": numba's cache does
not notice an edit here in the kernels that call these helpers or read
these tables (they are compiled in), so ``tests/test_kernel_cache.py``
pins this file's source by hash, and an edit fails that test instead of
leaving stale caches.  The helpers are inlined (``inline="always"``): a
call each would cost more than the helper.

Examples
--------
>>> import numpy as np
>>> links = np.full((6 * 6, 2), NONE, dtype=np.int8)
>>> g = step(14, 2, 6, 6)
>>> g, move(14, g, 6)
(22, 2)
>>> link(links, 14, 2, g)
>>> bool(linked(links, 14, 2)), int(links[g, 0])
(True, 6)
>>> unlink(links, 14, 2, g)
>>> int(links[14, 0]), int(links[g, 0])
(-1, -1)
"""

from __future__ import annotations

import numba as nb
import numpy as np

__all__ = ["END", "NONE", "MOVES", "DR", "DC", "step", "step_rc", "move", "link", "unlink", "linked", "cut_links",
           "forced_moves", "over_forced_near", "flood", "adjacent"]

#: A slot linking a square to the extra vertex of an open tour (the square ends the path).
END = 8
#: An empty slot.
NONE = -1

#: The knight's moves as (row change, column change), in the order of ``ktsolve.graph.KNIGHT_MOVES``:
#: move ``j ^ 4`` undoes move ``j``.
MOVES = ((-2, 1), (-1, 2), (1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1))
#: Row and column changes of the moves, as arrays for the kernels.
DR = np.array([m[0] for m in MOVES], dtype=np.int64)
DC = np.array([m[1] for m in MOVES], dtype=np.int64)


@nb.njit(cache=True, inline="always")
def step(f, j, rows, cols):  # pragma: no cover
    """The cell move ``j`` reaches from cell ``f``, or -1 off the rectangle."""
    r = f // cols + DR[j]
    c = f % cols + DC[j]
    if r < 0 or r >= rows or c < 0 or c >= cols:
        return -1
    return r * cols + c


@nb.njit(cache=True, inline="always")
def step_rc(r, c, j, rows, cols):  # pragma: no cover
    """The cell move ``j`` reaches from the cell at row ``r``, column ``c``, or -1 (no division)."""
    r2 = r + DR[j]
    c2 = c + DC[j]
    if r2 < 0 or r2 >= rows or c2 < 0 or c2 >= cols:
        return -1
    return r2 * cols + c2


@nb.njit(cache=True, inline="always")
def move(f, g, cols):  # pragma: no cover
    """The move from cell ``f`` to cell ``g``, or -1 when they are not a knight's move apart."""
    dr = g // cols - f // cols
    dc = g % cols - f % cols
    for j in range(8):
        if DR[j] == dr and DC[j] == dc:
            return j
    return -1


@nb.njit(cache=True, inline="always")
def unlink(links, f, j, g):  # pragma: no cover
    """Remove the link ``f -(j)- g`` from both ends."""
    if links[f, 0] == j:
        links[f, 0] = NONE
    else:
        links[f, 1] = NONE
    k = j ^ 4
    if links[g, 0] == k:
        links[g, 0] = NONE
    else:
        links[g, 1] = NONE


@nb.njit(cache=True, inline="always")
def link(links, f, j, g):  # pragma: no cover
    """Add the link ``f -(j)- g`` in an empty slot of each end."""
    if links[f, 0] == NONE:
        links[f, 0] = j
    else:
        links[f, 1] = j
    k = j ^ 4
    if links[g, 0] == NONE:
        links[g, 0] = k
    else:
        links[g, 1] = k


@nb.njit(cache=True, inline="always")
def linked(links, f, j):  # pragma: no cover
    """Whether cell ``f`` holds a link by move ``j``."""
    return links[f, 0] == j or links[f, 1] == j


@nb.njit(cache=True, inline="always")
def adjacent(tpad, a, b):  # pragma: no cover
    """Whether square ``b`` is a move away from square ``a`` in the padded move table ``tpad``."""
    for j in range(8):
        if tpad[a, j] == b:
            return True
    return False


@nb.njit(cache=True, inline="always")
def cut_links(links, f, rows, cols):  # pragma: no cover
    """Cut both links of cell ``f`` that are moves (an :data:`END` link stays) at both ends; the count cut."""
    cut = 0
    for s in range(2):
        j = links[f, s]
        if 0 <= j < 8:
            unlink(links, f, j, step(f, j, rows, cols))
            cut += 1
    return cut


@nb.njit(cache=True, inline="always")
def forced_moves(h, rows, cols, alive, deg):  # pragma: no cover
    """Moves from square ``h`` to squares of ``alive`` with exactly two moves (``deg``): each is in every
    closed tour, so a square with more than two of them has none."""
    m = 0
    r = h // cols
    c = h - r * cols
    for k in range(8):
        g = step_rc(r, c, k, rows, cols)
        if g >= 0 and alive[g] and deg[g] == 2:
            m += 1
    return m


@nb.njit(cache=True, inline="always")
def over_forced_near(nbs, m, rows, cols, alive, deg):  # pragma: no cover
    """Whether a square next to one of ``nbs[:m]`` that now has two moves is left with more than two forced
    moves (:func:`forced_moves`): the check after a square's removal took a move from each of ``nbs``."""
    for i in range(m):
        g = nbs[i]
        if deg[g] != 2:
            continue
        gr = g // cols
        gc = g - gr * cols
        for k in range(8):
            h = step_rc(gr, gc, k, rows, cols)
            if h >= 0 and alive[h] and forced_moves(h, rows, cols, alive, deg) > 2:
                return True
    return False


@nb.njit(cache=True, inline="always")
def flood(rows, cols, alive, seen, mark, start, queue):  # pragma: no cover
    """Breadth-first search by knight's moves over ``alive`` from ``start``, setting ``seen`` to ``mark`` on
    every square reached (``queue`` holds one entry a square); the number of squares reached."""
    queue[0] = start
    seen[start] = mark
    head = 0
    tail = 1
    while head < tail:
        f = queue[head]
        head += 1
        r = f // cols
        c = f - r * cols
        for k in range(8):
            g = step_rc(r, c, k, rows, cols)
            if g >= 0 and alive[g] and seen[g] != mark:
                seen[g] = mark
                queue[tail] = g
                tail += 1
    return tail
