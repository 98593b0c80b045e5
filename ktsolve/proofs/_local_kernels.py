"""Numba kernels of :mod:`ktsolve.proofs.local`: degrees, components and cut squares on the grid.

Every array is flat over the cells of the ``rows x cols`` rectangle
(``row * cols + col``); ``alive`` (uint8) is 1 on the squares and 0 on the
holes.  A cell's knight's moves are computed from its row and column, so no
graph is built: a board of 10^8 cells costs a few bytes a cell here.

:func:`cut_parts` is Hopcroft and Tarjan's depth-first search with low
points, without recursion: the stack holds the cells of the current path and
the next move to try from each, so a cell's parent is the cell below it.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from .._grid_kernels import DC, DR, step_rc

__all__ = ["grid_degree", "degree_rows", "grid_labels", "labels_start", "labels_steps", "cut_parts", "cut_start",
           "cut_steps", "forcing_steps", "forced_cycle", "cycle_cells"]


@nb.njit(cache=True, nogil=True)
def grid_degree(alive, rows, cols, deg):  # pragma: no cover
    """Fill ``deg`` (int8, flat) with the number of knight's moves from each square to squares; 0 on holes
    (:func:`degree_rows` over every row)."""
    return degree_rows(alive, rows, cols, deg, 0, rows)


@nb.njit(cache=True, nogil=True)
def degree_rows(alive, rows, cols, deg, r0, r1):  # pragma: no cover
    """:func:`grid_degree` for the rows ``r0 .. r1 - 1``; returns the rows done.

    Cells two or more from every edge add up their eight neighbours by
    flat offsets, without bounds checks; the border checks each move.
    """
    off = DR * cols + DC
    for r in range(r0, r1):
        inner = 2 <= r < rows - 2
        for c in range(cols):
            f = r * cols + c
            d = 0
            if not alive[f]:
                pass
            elif inner and 2 <= c < cols - 2:
                for k in range(8):
                    d += alive[f + off[k]] != 0
            else:
                for k in range(8):
                    g = step_rc(r, c, k, rows, cols)
                    if g >= 0 and alive[g]:
                        d += 1
            deg[f] = d
    return r1 - r0


@nb.njit(cache=True, nogil=True)
def grid_labels(alive, rows, cols, label, queue):  # pragma: no cover
    """Component of every square (int32 ``label``, -1 on holes), numbered in order of first cell; the count.

    Breadth-first search; ``queue`` (int32) has a slot per cell (:func:`labels_steps` with no budget).
    """
    state = np.zeros(5, dtype=np.int64)
    labels_start(label, state)
    labels_steps(alive, rows, cols, label, queue, state, rows * cols * 9 + 1)
    return state[3]


@nb.njit(cache=True, nogil=True)
def labels_start(label, state):  # pragma: no cover
    """Set every ``label`` to -1 and ``state`` (int64 ``[next cell, head, tail, count, ended]``) to the start."""
    for f in range(label.size):
        label[f] = -1
    for i in range(5):
        state[i] = 0


@nb.njit(cache=True, nogil=True)
def labels_steps(alive, rows, cols, label, queue, state, budget):  # pragma: no cover
    """About ``budget`` more units of :func:`grid_labels`' work (a cell scanned or a move looked at), from
    where ``state`` says; ``state[4]`` becomes 1 when every square is labelled."""
    size = rows * cols
    f, head, tail, count = state[0], state[1], state[2], state[3]
    work = 0
    while work < budget:
        if head < tail:
            v = queue[head]
            head += 1
            r = v // cols
            c = v - r * cols
            for k in range(8):
                w = step_rc(r, c, k, rows, cols)
                if w >= 0 and alive[w] and label[w] < 0:
                    label[w] = count
                    queue[tail] = w
                    tail += 1
            work += 8
            if head == tail:
                count += 1
            continue
        if f >= size:
            state[4] = 1
            break
        work += 1
        if alive[f] and label[f] < 0:
            label[f] = count
            head = 0
            tail = 1
            queue[0] = f
        f += 1
    state[0], state[1], state[2], state[3] = f, head, tail, count
    return work


@nb.njit(cache=True, nogil=True)
def cut_parts(alive, rows, cols, root, disc, low, stack, moves, parts):  # pragma: no cover
    """Depth-first search from ``root``: ``parts[v]`` pieces left when square ``v`` is taken out.

    ``disc`` and ``low`` (int32, a slot per cell) get the discovery times
    and low points (``disc`` -1 on cells not reached), ``stack`` (int32)
    and ``moves`` (int8) are the path and the next move of each of its
    cells, ``parts`` (uint8) is set on the squares reached: 1 + the children
    whose low point does not climb above the square (the number of its
    children for the root), so a cut square has ``parts > 1``.  Returns the
    number of squares reached (:func:`cut_start`, then :func:`cut_steps`
    with no budget).
    """
    state = np.zeros(3, dtype=np.int64)
    cut_start(root, disc, low, stack, moves, parts, state)
    cut_steps(alive, rows, cols, disc, low, stack, moves, parts, state, rows * cols * 10 + 1)
    return state[0]


@nb.njit(cache=True, nogil=True)
def cut_start(root, disc, low, stack, moves, parts, state):  # pragma: no cover
    """Begin the search of :func:`cut_parts` at ``root``: ``disc`` -1 everywhere else, and ``state`` (int64
    ``[time, top of the stack, ended]``)."""
    for f in range(disc.size):
        disc[f] = -1
    disc[root] = 0
    low[root] = 0
    parts[root] = 0
    stack[0] = root
    moves[0] = 0
    state[0] = 1
    state[1] = 1
    state[2] = 0


@nb.njit(cache=True, nogil=True)
def cut_steps(alive, rows, cols, disc, low, stack, moves, parts, state, budget):  # pragma: no cover
    """Up to ``budget`` more steps (a move tried, or a square left) of the search :func:`cut_start` began;
    ``state[2]`` becomes 1 when it has ended.  Returns the steps taken."""
    t = state[0]
    top = state[1]
    done = 0
    while top > 0 and done < budget:
        done += 1
        v = stack[top - 1]
        k = moves[top - 1]
        if k < 8:
            moves[top - 1] = k + 1
            r = v // cols
            c = v - r * cols
            w = step_rc(r, c, k, rows, cols)
            if w < 0 or not alive[w]:
                continue
            if disc[w] < 0:
                disc[w] = t
                low[w] = t
                t += 1
                parts[w] = 1
                stack[top] = w
                moves[top] = 0
                top += 1
            elif top < 2 or w != stack[top - 2]:
                if disc[w] < low[v]:
                    low[v] = disc[w]
        else:
            top -= 1
            if top > 0:
                p = stack[top - 1]
                if low[v] < low[p]:
                    low[p] = low[v]
                if top == 1 or low[v] >= disc[p]:
                    # a child of the root always leaves a piece of its own
                    if parts[p] < 255:
                        parts[p] += 1
    state[0] = t
    state[1] = top
    if top == 0:
        state[2] = 1
    return done


@nb.njit(cache=True, inline="always")
def _bits(x):  # pragma: no cover
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@nb.njit(cache=True, nogil=True)
def forcing_steps(alive, rows, cols, deg, dead, forced, queue, steps, state, budget):  # pragma: no cover
    """About ``budget`` more units of degree-2 forcing for a closed tour (a cell scanned, or looked at again).

    ``deg`` (int8) holds the moves left at each square (:func:`degree_rows`)
    and is lowered as moves are deleted; ``dead`` and ``forced`` (uint8) have
    bit ``j`` set when move ``j`` of the cell is deleted or forced, at both
    of its ends (move ``j ^ 4`` undoes move ``j``).  A square left with two
    moves gets both forced; a square with two forced moves and more left
    loses the others.  The cells whose moves changed go to ``queue``
    (int32); each step goes to ``steps`` (int64) as
    ``cell << 18 | kind << 16 | two << 8 | new``: kind 0 forces the two moves
    left (``two``; ``new`` those not forced before), kind 1 deletes ``new``
    beside the two forced ``two``.  ``state`` (int64) is ``[next cell of the
    scan, queue head, queue tail, steps, ended, reason, square, full]``:
    ``reason`` becomes 1 when ``square`` is left with fewer than two moves
    and 2 when it has three forced (the search then ends); ``full`` becomes
    1, and the call returns, when the queue or the steps lack room for one
    more cell: the caller makes room and calls again.  Returns the work done.
    """
    size = rows * cols
    f, head, tail, ns = state[0], state[1], state[2], state[3]
    work = 0
    while work < budget:
        if tail + 8 > queue.size or ns + 1 > steps.size:
            state[7] = 1
            break
        if head < tail:
            v = np.int64(queue[head])
            head += 1
            work += 8
            if deg[v] < 2:
                state[4], state[5], state[6] = 1, 1, v
                break
            fv = _bits(forced[v])
            r = v // cols
            c = v - r * cols
            if fv == 2 and deg[v] > 2:
                new = 0
                for j in range(8):
                    bit = 1 << j
                    if dead[v] & bit or forced[v] & bit:
                        continue
                    w = step_rc(r, c, j, rows, cols)
                    if w < 0 or not alive[w]:
                        continue
                    new |= bit
                    dead[v] = np.uint8(dead[v] | bit)
                    dead[w] = np.uint8(dead[w] | (1 << (j ^ 4)))
                    deg[v] -= 1
                    deg[w] -= 1
                    queue[tail] = w
                    tail += 1
                steps[ns] = (v << 18) | (1 << 16) | (np.int64(forced[v]) << 8) | new
                ns += 1
            elif deg[v] == 2 and fv < 2:
                two = 0
                new = 0
                bad = -1
                for j in range(8):
                    bit = 1 << j
                    if dead[v] & bit:
                        continue
                    w = step_rc(r, c, j, rows, cols)
                    if w < 0 or not alive[w]:
                        continue
                    two |= bit
                    if forced[v] & bit:
                        continue
                    new |= bit
                    forced[v] = np.uint8(forced[v] | bit)
                    forced[w] = np.uint8(forced[w] | (1 << (j ^ 4)))
                    queue[tail] = w
                    tail += 1
                    if bad < 0 and _bits(forced[w]) > 2:
                        bad = w
                steps[ns] = (v << 18) | (two << 8) | new
                ns += 1
                if bad >= 0:
                    state[4], state[5], state[6] = 1, 2, bad
                    break
            continue
        if f >= size:
            state[4] = 1
            break
        work += 1
        if deg[f] <= 2 and alive[f]:
            queue[tail] = f
            tail += 1
        f += 1
    state[0], state[1], state[2], state[3] = f, head, tail, ns
    return work


@nb.njit(cache=True, inline="always")
def _forced_next(forced, v, prev, rows, cols):  # pragma: no cover
    """The cell a forced move of ``v`` reaches other than ``prev`` (the first with ``prev`` -1), or -1."""
    r = v // cols
    c = v - r * cols
    for j in range(8):
        if forced[v] & (1 << j):
            w = step_rc(r, c, j, rows, cols)
            if w != prev:
                return w
    return -1


@nb.njit(cache=True, nogil=True)
def forced_cycle(forced, rows, cols, steps, ns, seen):  # pragma: no cover
    """A cycle of forced moves through a square of the first ``ns`` forcing ``steps``: ``(a cell of it, its
    length)``, or ``(-1, 0)`` when the forced moves form paths only.

    Every forced move has a forcing square at one end, so every cycle passes one; each cell is walked once
    (``seen``, uint8, zero at the start).
    """
    for i in range(ns):
        if (steps[i] >> 16) & 3 != 0:
            continue
        v = steps[i] >> 18
        if seen[v]:
            continue
        seen[v] = 1
        length = 1
        first = _forced_next(forced, v, -1, rows, cols)
        prev, cur = v, first
        while cur >= 0:
            if cur == v:
                return v, length
            seen[cur] = 1
            length += 1
            if _bits(forced[cur]) < 2:
                break
            prev, cur = cur, _forced_next(forced, cur, prev, rows, cols)
        prev, cur = v, _forced_next(forced, v, first, rows, cols)
        while cur >= 0 and not seen[cur]:
            seen[cur] = 1
            if _bits(forced[cur]) < 2:
                break
            prev, cur = cur, _forced_next(forced, cur, prev, rows, cols)
    return -1, 0


@nb.njit(cache=True, nogil=True)
def cycle_cells(forced, rows, cols, start, out):  # pragma: no cover
    """Fill ``out`` (int64, the cycle's length) with the cells of the forced cycle through ``start``, in order."""
    prev, cur = np.int64(-1), np.int64(start)
    for i in range(out.size):
        out[i] = cur
        prev, cur = cur, _forced_next(forced, cur, prev, rows, cols)
