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
           "cut_steps"]


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
