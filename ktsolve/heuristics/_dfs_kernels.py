"""Numba kernels of the naive depth-first search (:mod:`ktsolve.heuristics.dfs`).

The search keeps its state in arrays (the path, the next move to try at
every depth, the visited marks with a sentinel square ``n``), so
:func:`_dfs` can stop after a budget of nodes or leaves and the next call
goes on where it stopped.  The move table ``tpad`` has eight columns, a
move off the board or onto a hole leading to the sentinel.  No random
number is drawn here: the move order is chosen before the search.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def _order_by_degree(tpad, order, visited, s, word):
    """Moves from ``s`` into ``word``, fewest unvisited onward squares first (Warnsdorff), ties in ``order``."""
    deg = np.empty(8, np.int64)
    for i in range(8):
        d = tpad[s, order[i]]
        k = 99  # a move off the board or to a visited square sorts last
        if visited[d] == 0:
            k = 0
            for j in range(8):
                if visited[tpad[d, j]] == 0:
                    k += 1
        deg[i] = k * 8 + i
        word[i] = order[i]
    for i in range(1, 8):  # insertion sort of eight keys
        key = deg[i]
        mv = word[i]
        j = i - 1
        while j >= 0 and deg[j] > key:
            deg[j + 1] = deg[j]
            word[j + 1] = word[j]
            j -= 1
        deg[j + 1] = key
        word[j + 1] = mv


@njit(cache=True, nogil=True)
def _dfs(tpad, order, warnsdorff, want_closed, end, max_nodes, max_leaves, path, nxt, word, visited, state, counts,
         out, first_only):
    """Continue the search for up to ``max_nodes`` moves and ``max_leaves`` leaves.

    ``path[0..depth]`` is the current path (``state[0]`` = depth, -1 once
    exhausted); ``nxt[d]`` the next position in the move order to try at
    depth ``d``: ``order`` itself, or with ``warnsdorff`` the order of
    ``word[d]``, the moves sorted by :func:`_order_by_degree` when depth
    ``d`` was entered.  ``visited`` has ``n + 1`` entries, the sentinel
    ``n`` always set.  ``counts`` (int64) accumulates nodes, leaves
    (attempts), complete tours, closed tours and matching tours.  Matching
    tours are copied into the rows of ``out`` while there is room (the
    call returns when ``out`` is full, or at the first with
    ``first_only``).  Returns 0 when a budget ran out, 1 after a matching
    tour (first_only) or a full ``out``, 2 when the search is exhausted.
    """
    n = tpad.shape[0]
    depth = state[0]
    nodes = 0
    leaves0 = counts[1]
    n_out = state[1]
    cap = out.shape[0]
    if warnsdorff and depth == 0 and nxt[0] == 0:
        _order_by_degree(tpad, order, visited, path[0], word[0])
    while depth >= 0:
        if nodes >= max_nodes or counts[1] - leaves0 >= max_leaves:
            state[0] = depth
            state[1] = n_out
            return 0
        s = path[depth]
        i = nxt[depth]
        moved = False
        while i < 8:
            mv = word[depth, i] if warnsdorff else order[i]
            d = tpad[s, mv]
            i += 1
            if visited[d] == 0:
                nxt[depth] = i
                depth += 1
                path[depth] = d
                visited[d] = 1
                nxt[depth] = 0
                nodes += 1
                counts[0] += 1
                moved = True
                if depth == n - 1:
                    counts[1] += 1
                    counts[2] += 1
                    closed = False
                    for j in range(8):
                        if tpad[d, j] == path[0]:
                            closed = n > 2
                    if closed:
                        counts[3] += 1
                    hit = (closed or not want_closed) and (end < 0 or d == end)
                    if hit:
                        counts[4] += 1
                        if n_out < cap:
                            out[n_out, :] = path
                            n_out += 1
                    visited[d] = 0
                    depth -= 1
                    if hit and (first_only or n_out == cap):
                        state[0] = depth
                        state[1] = n_out
                        return 1
                else:
                    stuck = True
                    for j in range(8):
                        if visited[tpad[d, j]] == 0:
                            stuck = False
                            break
                    if stuck:
                        counts[1] += 1
                        visited[d] = 0
                        depth -= 1
                    elif warnsdorff:
                        _order_by_degree(tpad, order, visited, d, word[depth])
                break
        if not moved:
            visited[s] = 0
            depth -= 1
    state[0] = -1
    state[1] = n_out
    return 2
