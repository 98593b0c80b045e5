"""Numba kernels of the artificial bee colony (:mod:`ktsolve.heuristics.abc`).

A colony is the arrays ``codes`` (one row of 0-based move codes per food
source), ``starts`` and ``fit``; ``mark`` with a growing ``stamp`` marks the
squares a walk has visited without clearing them between walks.
:func:`_init` fills the food sources and :func:`_block` runs a block of
iterations (employed bees, onlookers, scouts); the other kernels are their
parts.  Counters (``counters``): candidates, evaluations, improvements,
repairs, replacements.

Every random number is a draw of numba's ``np.random.random()``, which
:func:`_init` and :func:`_block` seed from the seed they are given, so a
block is the same whoever calls it and a reference with numpy's legacy
``RandomState`` (the same Mersenne Twister) replays it draw for draw.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def _fitness(table, codes, start, mark, stamp):
    """Valid moves of ``codes`` (0-based) from ``start``; ``mark[x] == stamp`` means visited."""
    cur = start
    mark[cur] = stamp
    L = codes.size
    for p in range(L):
        nxt = table[cur, codes[p]]
        if nxt < 0 or mark[nxt] == stamp:
            return p
        mark[nxt] = stamp
        cur = nxt
    return L


@njit(cache=True, nogil=True)
def _crossover(x, y, c1, c2, c3, out):
    """``out`` = x[:c1] + y[c1:c2] + x[c2:c3] + y[c3:]."""
    L = x.size
    for p in range(L):
        if p < c1:
            out[p] = x[p]
        elif p < c2:
            out[p] = y[p]
        elif p < c3:
            out[p] = x[p]
        else:
            out[p] = y[p]


@njit(cache=True, nogil=True)
def _cuts(L):
    """Three cut points drawn uniformly from 0..L, sorted."""
    a = int(np.random.random() * (L + 1))
    b = int(np.random.random() * (L + 1))
    c = int(np.random.random() * (L + 1))
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
    if a > b:
        a, b = b, a
    return a, b, c


@njit(cache=True, nogil=True)
def _repair(table, codes, start, fit, mark, stamp, valid):
    """Replace the first invalid code (position ``fit``) by a random move to an unvisited square.

    Returns the new code, or -1 when the walk is at a dead end (no draw is made then).
    """
    cur = start
    mark[cur] = stamp
    for p in range(fit):
        cur = table[cur, codes[p]]
        mark[cur] = stamp
    cnt = 0
    for j in range(table.shape[1]):
        nxt = table[cur, j]
        if nxt >= 0 and mark[nxt] != stamp:
            valid[cnt] = j
            cnt += 1
    if cnt == 0:
        return -1
    j = valid[int(np.random.random() * cnt)]
    codes[fit] = j
    return j


@njit(cache=True, nogil=True)
def _random_codes(codes, first):
    """Uniform random move codes (0..7) at positions ``first..``."""
    for p in range(first, codes.size):
        codes[p] = int(np.random.random() * 8)


@njit(cache=True, nogil=True)
def _init(table, codes, starts, fit, preset, fixed_start, seed, mark):
    """Fill the food sources; returns the run's start square.

    Without a fixed start (``fixed_start < 0``) the run's start is drawn
    first.  Rows with ``preset[i] >= 0`` keep their start and first
    ``preset[i]`` codes (seed paths); the rest of every row is random codes.
    """
    np.random.seed(seed)
    SN = codes.shape[0]
    n = table.shape[0]
    start = fixed_start
    if start < 0:
        start = int(np.random.random() * n)
    for i in range(SN):
        if preset[i] < 0:
            starts[i] = start
            _random_codes(codes[i], 0)
        else:
            _random_codes(codes[i], preset[i])
    for i in range(n):
        mark[i] = 0
    stamp = 0
    for i in range(SN):
        stamp += 1
        fit[i] = _fitness(table, codes[i], starts[i], mark, stamp)
    return start


@njit(cache=True, nogil=True)
def _work(table, codes, starts, fit, i, tmp, mark, stamp, counters):
    """One bee on source ``i``: cross with a random partner at three cuts, keep it if fitter."""
    SN = codes.shape[0]
    L = codes.shape[1]
    k = int(np.random.random() * (SN - 1))
    if k >= i:
        k += 1
    c1, c2, c3 = _cuts(L)
    counters[0] += 1
    if c1 > fit[i] or fit[i] == L:
        return stamp  # the first invalid move is inherited unchanged: the fitness cannot rise
    _crossover(codes[i], codes[k], c1, c2, c3, tmp)
    stamp += 1
    f = _fitness(table, tmp, starts[i], mark, stamp)
    counters[1] += 1
    if f > fit[i]:
        codes[i, :] = tmp
        fit[i] = f
        counters[2] += 1
    return stamp


@njit(cache=True, nogil=True)
def _block(table, codes, starts, fit, iterations, seed, mark, counters, extend_best):
    """Up to ``iterations`` colony iterations after reseeding; returns how many ran (stops at a tour).

    ``extend_best``: the scouts repair the best sources too (the paper),
    instead of only the sources below the best.
    """
    np.random.seed(seed)
    SN = codes.shape[0]
    L = codes.shape[1]
    n = table.shape[0]
    tmp = np.empty(L, dtype=codes.dtype)
    cum = np.empty(SN, dtype=np.int64)
    valid = np.empty(table.shape[1], dtype=np.int32)
    for i in range(n):
        mark[i] = 0
    stamp = 0
    for it in range(iterations):
        # employed bees
        for i in range(SN):
            stamp = _work(table, codes, starts, fit, i, tmp, mark, stamp, counters)
        # onlooker bees, choosing by the fitness after the employed phase
        total = 0
        for i in range(SN):
            total += fit[i]
            cum[i] = total
        for o in range(SN):
            if total > 0:
                x = np.random.random() * total
                i = 0
                while cum[i] <= x:
                    i += 1
            else:
                i = int(np.random.random() * SN)
            stamp = _work(table, codes, starts, fit, i, tmp, mark, stamp, counters)
        # scout bees: repair the first invalid move; abandon a dead end unless it is a best source
        best = 0
        for i in range(SN):
            if fit[i] > best:
                best = fit[i]
        for i in range(SN):
            if fit[i] == L or (fit[i] == best and not extend_best):
                continue
            stamp += 1
            if _repair(table, codes[i], starts[i], fit[i], mark, stamp, valid) >= 0:
                counters[3] += 1
            elif fit[i] < best:
                counters[4] += 1
                _random_codes(codes[i], 0)
            else:
                continue  # a best source at a dead end is kept as it is
            stamp += 1
            fit[i] = _fitness(table, codes[i], starts[i], mark, stamp)
        for i in range(SN):
            if fit[i] == L:
                return it + 1
    return iterations
