"""Numba kernels of the exhaustive search (:mod:`ktsolve.models.backtrack`).

A search is the arrays ``visited``, ``deg`` (available neighbours of every
square), ``path``, ``cand`` / ``ncand`` / ``ptr`` (the candidate moves of
every depth, in Warnsdorff order, and the next one to try) and ``st`` (the
scalars, slots below), so :func:`_run` can stop after a budget of nodes and
the next call goes on where it stopped.  :func:`_init` starts a search from
one square; the pruning is the one the module docstring of
:mod:`ktsolve.models.backtrack` describes.  No random number is drawn.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# Kernel return codes.
RUNNING, FOUND, EXHAUSTED = 0, 1, 2
# Slots of the scalar state array.
_DEPTH, _NVIS, _VIOL, _TERM, _NODES, _COUNT, _END, _CLOSED = range(8)


# ---------------------------------------------------------------------- kernels
# nogil=True: these kernels run for seconds in a racing lane (ktsolve.race), and holding the GIL there
# slowed the other lane's Python (CP-SAT's model, its wait loop) eightfold (measured: a pure-Python
# thread ran at 12% of its speed beside backtrack or rotation, at 98% with nogil).
@njit(cache=True, nogil=True)
def _candidates(table, visited, deg, st, path, cand, ncand, ptr, d):
    """Fill the candidate moves of depth ``d`` in Warnsdorff order (fewest available neighbours first)."""
    n = table.shape[0]
    k = table.shape[1]
    cur = path[d]
    e = st[_END]
    base = d * k
    m = 0
    if e >= 0 and st[_CLOSED] == 0 and st[_NVIS] == n - 1:
        # Every other square is visited: only the fixed end is left.
        for j in range(k):
            if table[cur, j] == e:
                cand[base] = e
                m = 1
                break
    else:
        for j in range(k):
            w = table[cur, j]
            if w < 0 or visited[w] != 0 or w == e:
                continue
            # insertion sort by deg, stable in move order
            i = m
            while i > 0 and deg[cand[base + i - 1]] > deg[w]:
                cand[base + i] = cand[base + i - 1]
                i -= 1
            cand[base + i] = w
            m += 1
    ncand[d] = m
    ptr[d] = 0


@njit(cache=True, nogil=True)
def _init(table, degree, need, start, end, closed, visited, deg, path, cand, ncand, ptr, st):
    """Reset the search to the path ``[start]``; returns EXHAUSTED if it is dead already."""
    n = table.shape[0]
    for v in range(n):
        visited[v] = 0
        deg[v] = degree[v]
    for i in range(st.size):  # a loop: a slice assignment costs seconds of compiling
        st[i] = 0
    st[_END] = end
    st[_CLOSED] = closed
    viol = 0
    term = 0
    for v in range(n):
        if v == start or v == end:
            continue
        if deg[v] < need[v]:
            viol += 1
        if need[v] == 1 and deg[v] == 1:
            term += 1
    st[_VIOL] = viol
    st[_TERM] = term
    visited[start] = 1
    st[_NVIS] = 1
    path[0] = start
    st[_DEPTH] = 0
    _candidates(table, visited, deg, st, path, cand, ncand, ptr, np.int64(0))
    if viol > 0 or term > 1 or (end >= 0 and end != start and deg[end] == 0):
        ncand[0] = 0
        return EXHAUSTED
    return RUNNING


@njit(cache=True, inline='always')
def _shift_degrees(table, k, p, e, deg, visited, need, delta, viol, term):
    """Add ``delta`` (-1: ``p`` leaves the available squares; +1: it comes back) to the degree of every
    neighbour of ``p``; returns the counts kept beside the degrees, updated for the unvisited squares other
    than the end ``e``: ``viol`` (squares with fewer moves left than they need) and ``term`` (squares that
    need one move and have exactly one)."""
    for j in range(k):
        w = table[p, j]
        if w < 0:
            continue
        old = deg[w]
        new = old + delta
        deg[w] = new
        if visited[w] == 0 and w != e:
            nd = need[w]
            viol += int(new < nd) - int(old < nd)
            if nd == 1:
                term += int(new == 1) - int(old == 1)
    return viol, term


@njit(cache=True, nogil=True)
def _run(table, need, counting, budget, visited, deg, path, cand, ncand, ptr, st):
    """Depth-first search for at most ``budget`` more nodes.

    Returns FOUND (the tour is ``path[:n]``; counting mode never stops
    here), EXHAUSTED (the whole tree is searched; ``st[_COUNT]`` tours were
    counted) or RUNNING (the budget ran out; call again to resume).

    A move ``p -> c`` marks ``c`` visited (it stops being an unvisited
    square to watch) and takes ``p`` out of the available squares (unless
    ``p`` is the closed tour's start), so only ``p``'s neighbours lose an
    available neighbour; ``viol`` counts unvisited squares with fewer
    available neighbours than they need and ``term`` those that must be
    the last square.  Undoing a move reverses both steps.  The loop and
    :func:`_shift_degrees` (inlined into it) keep the counters in locals,
    so they stay in registers.
    """
    n = table.shape[0]
    k = table.shape[1]
    e = st[_END]
    viol = st[_VIOL]
    term = st[_TERM]
    nvis = st[_NVIS]
    d = st[_DEPTH]
    count = st[_COUNT]
    nodes = 0
    code = RUNNING
    while nodes < budget:
        if ptr[d] < ncand[d]:
            c = cand[d * k + ptr[d]]
            ptr[d] += 1
            p = path[d]
            # enter c
            visited[c] = 1
            nvis += 1
            if c != e:
                dc = deg[c]
                if dc < need[c]:
                    viol -= 1
                if dc == 1 and need[c] == 1:
                    term -= 1
            # p leaves the available squares
            if p != e:
                viol, term = _shift_degrees(table, k, p, e, deg, visited, need, -1, viol, term)
            nodes += 1
            dead = viol > 0 or term > 1 or (e >= 0 and c != e and deg[e] == 0)
            if not dead and nvis == n:
                path[d + 1] = c
                if counting == 0:
                    d += 1
                    code = FOUND
                    st[_VIOL] = viol
                    st[_TERM] = term
                    st[_NVIS] = nvis
                    st[_DEPTH] = d
                    # no moves at full depth: a later call backs up and goes on
                    _candidates(table, visited, deg, st, path, cand, ncand, ptr, d)
                    break
                count += 1
                dead = True
            if not dead:
                d += 1
                path[d] = c
                st[_NVIS] = nvis
                _candidates(table, visited, deg, st, path, cand, ncand, ptr, d)
                continue
        else:
            if d == 0:
                code = EXHAUSTED
                break
            p = path[d - 1]
            c = path[d]
            d -= 1
        # undo the move p -> c
        if p != e:
            viol, term = _shift_degrees(table, k, p, e, deg, visited, need, 1, viol, term)
        if c != e:
            dc = deg[c]
            if dc < need[c]:
                viol += 1
            if dc == 1 and need[c] == 1:
                term += 1
        visited[c] = 0
        nvis -= 1
    st[_VIOL] = viol
    st[_TERM] = term
    st[_NVIS] = nvis
    st[_DEPTH] = d
    st[_COUNT] = count
    st[_NODES] += nodes
    return code
