"""Numba kernels of Warnsdorff's walk (:mod:`ktsolve.heuristics.warnsdorff`), resumable.

A walk's state lives in arrays (``st``, ``rng``, ``deg``, ``visited``,
``out``), so :func:`_walk_steps` can stop after any number of squares and
the next call goes on where it stopped: the driver looks at the clock in
between, and the walk is the same however it is cut.  Rule codes: 0 first,
1 random, 2 pohl, 3 roth, 4 squirrel.  The random tie-break draws from the
SplitMix64 stream of :mod:`ktsolve._splitmix` whose state is ``rng[0]``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._splitmix import uniform

# Slots of a walk's state array: the walk can stop after any number of squares
# and go on in the next call, so the driver can look at the clock in between.
_CUR, _LEN, _ORDER, _TARGET, _END, _DONE = range(6)
_NSTATE = 6


# nogil=True: these kernels run for seconds in a racing lane (ktsolve.race), and holding the GIL there
# slowed the other lane's Python (CP-SAT's model, its wait loop) eightfold (measured: a pure-Python
# thread ran at 12% of its speed beside backtrack or rotation, at 98% with nogil).
@njit(cache=True, nogil=True)
def _walk_start(table, degree, start, end, seed, deg, visited, out, st, rng):
    """Begin a walk from ``start`` with ``end`` (-1 for none) kept for last; fills the state."""
    n = table.shape[0]
    k = table.shape[1]
    for v in range(n):
        deg[v] = degree[v]
        visited[v] = 0
    target = n
    if end >= 0:
        # Blocked: never a candidate, but still counted in its neighbours' degrees.
        visited[end] = 1
        target = n - 1
    visited[start] = 1
    for j in range(k):
        w = table[start, j]
        if w >= 0:
            deg[w] -= 1
    out[0] = start
    st[_CUR] = start
    st[_LEN] = 1
    st[_ORDER] = 0
    st[_TARGET] = target
    st[_END] = end
    st[_DONE] = 0
    rng[0] = np.uint64(seed)


@njit(cache=True, nogil=True)
def _walk_steps(table, rule, rank, switch, dist, deg, visited, out, st, rng, budget):
    """Extend the walk by at most ``budget`` squares; returns how many were added.

    ``table`` is the ``(n, k)`` move table.  ``rank[o, j]`` is the tie
    priority of move ``j`` under ordering ``o`` (lower first); the walk
    switches from ordering ``o`` to ``o + 1`` when it arrives on square
    ``switch[o]`` (rule ``squirrel``; the other rules use row 0).  ``dist``
    is the squared distance from the centre (rule ``roth``).  ``st[_DONE]``
    becomes 1 when the walk ends: ``st[_LEN] == n`` exactly when it is a
    complete tour.
    """
    k = table.shape[1]
    cur = st[_CUR]
    length = st[_LEN]
    order = st[_ORDER]
    target = st[_TARGET]
    end = st[_END]
    n_switch = switch.shape[0]
    added = 0
    while length < target and added < budget:
        best = -1
        best_deg = 1 << 30
        best_key = 0
        ties = 0
        for j in range(k):
            w = table[cur, j]
            if w < 0 or visited[w] != 0:
                continue
            d = deg[w]
            if d > best_deg:
                continue
            # key: smaller is better (rules first, squirrel, pohl, roth)
            key = 0
            if rule == 0 or rule == 4:
                key = rank[order, j]
            elif rule == 2:
                for jj in range(k):
                    u = table[w, jj]
                    if u >= 0 and visited[u] == 0:
                        key += deg[u]
            elif rule == 3:
                key = -dist[w]
            if d < best_deg:
                best = w
                best_deg = d
                best_key = key
                ties = 1
            elif rule == 1:
                ties += 1
                if uniform(rng) * ties < 1.0:
                    best = w
            elif key < best_key:
                best = w
                best_key = key
        if best < 0:
            st[_DONE] = 1
            break
        cur = best
        visited[cur] = 1
        for j in range(k):
            w = table[cur, j]
            if w >= 0:
                deg[w] -= 1
        out[length] = cur
        length += 1
        added += 1
        if order < n_switch and cur == switch[order]:
            order += 1
    if length == target:
        st[_DONE] = 1
        if end >= 0:
            for j in range(k):
                if table[cur, j] == end:
                    out[length] = end
                    length += 1
                    break
    st[_CUR] = cur
    st[_LEN] = length
    st[_ORDER] = order
    return added
