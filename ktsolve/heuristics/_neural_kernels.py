"""Numba kernels of the Takefuji-Lee network (:mod:`ktsolve.heuristics.neural`).

Kept in one file because they call each other (numba's cache does not see
edits in another file).  The outcome codes are those of
:data:`ktsolve.heuristics.neural.OUTCOMES`.

Two generators: an attempt's initial outputs come from numba's
``np.random`` (seeded by the caller from the attempt's derived seed), and
the shuffles of the random update order draw from the SplitMix64 stream of
:mod:`ktsolve._splitmix` (:func:`~ktsolve._splitmix.below`, one 64-bit step
per position, about four times cheaper than a Mersenne Twister double, which
dominated the cost of a sweep), whose state ``rng[0]`` :func:`_begin` seeds
from numba's generator.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._splitmix import below

# Outcome codes of one attempt, as the kernels return them.
_TOUR, _MULTI, _OTHER, _NONCONV = 0, 1, 2, 3


@njit(cache=True, nogil=True)
def _sweep(ea, eb, U, V, dv, order, newv, clamp, a, b, mode, rng):
    """One sweep of the update rule over every free neuron; returns how many outputs changed.

    ``mode`` 0 is synchronous; 1 and 2 update neuron ``order[k]`` for ``k`` in
    turn, 1 after shuffling ``order`` (Fisher-Yates from the last position
    down to 1, swapping with ``below(rng, i + 1)``).
    """
    E = ea.size
    changes = 0
    if mode == 0:
        for e in range(E):
            v = V[e]
            newv[e] = v
            if clamp[e]:
                continue
            x = ea[e]
            y = eb[e]
            u = U[e] + a - (dv[x] + dv[y] - 2 * v) - b * v
            U[e] = u
            if u > 3:
                newv[e] = 1
            elif u < 0:
                newv[e] = 0
        for e in range(E):
            if newv[e] != V[e]:
                d = newv[e] - V[e]
                V[e] = newv[e]
                dv[ea[e]] += d
                dv[eb[e]] += d
                changes += 1
        return changes
    if mode == 1:
        for i in range(E - 1, 0, -1):
            j = below(rng, i + 1)
            t = order[i]
            order[i] = order[j]
            order[j] = t
    for k in range(E):
        e = order[k]
        if clamp[e]:
            continue
        x = ea[e]
        y = eb[e]
        v = V[e]
        u = U[e] + a - (dv[x] + dv[y] - 2 * v) - b * v
        U[e] = u
        nv = v
        if u > 3:
            nv = 1
        elif u < 0:
            nv = 0
        if nv != v:
            V[e] = nv
            d = nv - v
            dv[x] += d
            dv[y] += d
            changes += 1
    return changes


@njit(cache=True, nogil=True)
def _stable(ea, eb, V, dv, clamp, a, b):
    """True when no output can change again: active neurons rise or stay, inactive ones fall or stay."""
    for e in range(ea.size):
        if clamp[e]:
            continue
        v = V[e]
        inc = a - (dv[ea[e]] + dv[eb[e]] - 2 * v) - b * v
        if v == 1:
            if inc < 0:
                return False
        elif inc > 0:
            return False
    return True


@njit(cache=True, nogil=True)
def _count_cycles(eid, ea, eb, V, dv, mark):
    """Number of cycles of the active subgraph when every square has two active edges, else -1."""
    n = dv.size
    for i in range(n):
        if dv[i] != 2:
            return -1
    for i in range(n):
        mark[i] = 0
    k = eid.shape[1]
    cycles = 0
    for s in range(n):
        if mark[s]:
            continue
        cycles += 1
        prev = -1
        cur = s
        while True:
            mark[cur] = 1
            nxt = -1
            for j in range(k):
                e = eid[cur, j]
                if e >= 0 and V[e] == 1:
                    other = eb[e] if ea[e] == cur else ea[e]
                    if other != prev:
                        nxt = other
                        break
            prev = cur
            cur = nxt
            if cur == s:
                break
    return cycles


@njit(cache=True, nogil=True)
def _begin(ea, eb, p_on, clamp, U, V, dv, order, rng):
    """Start an attempt from numba's generator (seeded by the caller): random outputs, ``U = 0``.

    Draws one ``np.random.random()`` per free neuron (on when below
    ``p_on``), then one whose 53 bits seed the shuffle generator ``rng``.
    """
    E = ea.size
    for e in range(E):
        U[e] = 0
        order[e] = e
        if clamp[e]:
            V[e] = 1
        elif np.random.random() < p_on:
            V[e] = 1
        else:
            V[e] = 0
    rng[0] = np.uint64(np.random.random() * 9007199254740992.0)
    for i in range(dv.size):
        dv[i] = 0
    for e in range(E):
        if V[e]:
            dv[ea[e]] += 1
            dv[eb[e]] += 1


@njit(cache=True, nogil=True)
def _settle(ea, eb, eid, a, b, mode, clamp, U, V, dv, order, newv, mark, rng, budget):
    """Up to ``budget`` sweeps of the attempt under way; returns (sweeps run, outcome or -1 when going)."""
    for s in range(1, budget + 1):
        _sweep(ea, eb, U, V, dv, order, newv, clamp, a, b, mode, rng)
        if _stable(ea, eb, V, dv, clamp, a, b):
            c = _count_cycles(eid, ea, eb, V, dv, mark)
            if c == 1:
                return s, _TOUR
            if c > 1:
                return s, _MULTI
            return s, _OTHER
    return budget, -1


@njit(cache=True, nogil=True)
def _advance(eid, ea, eb, a, b, mode, p_on, max_sweeps, clamp, seeds, stop, counts, tour_V, found,
             U, V, dv, order, newv, mark, rng, st, budget):
    """Run the attempts of ``seeds`` for at most ``budget`` sweeps; returns the sweeps run.

    The attempt under way is ``st[0]`` (an index into ``seeds``), and
    ``st[1]`` its sweeps so far (0: not begun; its first sweep reseeds
    numba's generator from its seed), so a call can stop anywhere and the
    next one goes on: the outcome does not depend on where calls stop.
    ``counts`` accumulates tours, multi-cycle, other fixed points,
    non-converged and sweeps (slot 5).  ``found[0]`` gets the index of the
    first tour (its outputs go to ``tour_V``).  The call returns early, with
    the attempt's outcome in ``st[2]``, after an attempt that ends in one
    of the outcomes flagged in ``stop`` (``stop[k]`` for outcome ``k``):
    the first tour, or a multi-cycle fixed point to repair.  ``st[2]`` is
    -1 otherwise.
    """
    done = 0
    st[2] = -1
    while done < budget and st[0] < seeds.size:
        t = st[0]
        if st[1] == 0:
            np.random.seed(seeds[t])
            _begin(ea, eb, p_on, clamp, U, V, dv, order, rng)
        want = min(budget - done, max_sweeps - st[1])
        ran, out = _settle(ea, eb, eid, a, b, mode, clamp, U, V, dv, order, newv, mark, rng, want)
        done += ran
        st[1] += ran
        if out < 0 and st[1] < max_sweeps:
            break  # the budget ran out inside the attempt
        if out < 0:
            out = _NONCONV
        counts[out] += 1
        counts[5] += st[1]
        st[0] = t + 1
        st[1] = 0
        if out == _TOUR and found[0] < 0:
            found[0] = t
            for e in range(V.size):  # a loop: a slice copy costs seconds of compiling
                tour_V[e] = V[e]
        if stop[out]:
            st[2] = out
            break
    return done


@njit(cache=True, nogil=True)
def _edge_of(table, eid, u, v):
    for j in range(table.shape[1]):
        if table[u, j] == v:
            return eid[u, j]
    return -1


@njit(cache=True, nogil=True)
def _merge_cycles(table, eid, ea, eb, V, clamp, nb2, comp):
    """Merge the cycles of a 2-factor ``V`` into one Hamiltonian cycle, in place; True on success.

    Repeatedly takes, in square order, the first square ``a``, its cycle
    neighbour ``b`` (in ``nb2`` order), a knight neighbour ``c`` of ``a`` on
    another cycle (move order) and ``c``'s cycle neighbour ``d`` such that
    ``bd`` is a knight edge, and swaps edges ``ab``, ``cd`` (never clamped
    ones) for ``ac``, ``bd``, which joins the two cycles.
    """
    n = comp.size
    k = table.shape[1]
    fill = np.zeros(n, dtype=np.int32)
    for e in range(ea.size):
        if V[e] == 1:
            x = ea[e]
            y = eb[e]
            nb2[x, fill[x]] = y
            fill[x] += 1
            nb2[y, fill[y]] = x
            fill[y] += 1
    for i in range(n):
        comp[i] = -1
    ncomp = 0
    for s in range(n):
        if comp[s] >= 0:
            continue
        prev = -1
        cur = s
        while comp[cur] < 0:
            comp[cur] = ncomp
            nxt = nb2[cur, 0] if nb2[cur, 0] != prev else nb2[cur, 1]
            prev = cur
            cur = nxt
        ncomp += 1
    while ncomp > 1:
        done = False
        for x in range(n):
            for ia in range(2):
                y = nb2[x, ia]
                exy = _edge_of(table, eid, np.int64(x), np.int64(y))
                if clamp[exy]:
                    continue
                for j in range(k):
                    c = table[x, j]
                    if c < 0 or comp[c] == comp[x]:
                        continue
                    for ic in range(2):
                        d = nb2[c, ic]
                        ecd = _edge_of(table, eid, np.int64(c), np.int64(d))
                        if clamp[ecd]:
                            continue
                        eyd = _edge_of(table, eid, np.int64(y), np.int64(d))
                        if eyd < 0:
                            continue
                        exc = eid[x, j]
                        V[exy] = 0
                        V[ecd] = 0
                        V[exc] = 1
                        V[eyd] = 1
                        nb2[x, ia] = c
                        nb2[c, ic] = x
                        if nb2[y, 0] == x:
                            nb2[y, 0] = d
                        else:
                            nb2[y, 1] = d
                        if nb2[d, 0] == c:
                            nb2[d, 0] = y
                        else:
                            nb2[d, 1] = y
                        old = comp[c]
                        new = comp[x]
                        for i in range(n):
                            if comp[i] == old:
                                comp[i] = new
                        ncomp -= 1
                        done = True
                        break
                    if done:
                        break
                if done:
                    break
            if done:
                break
        if not done:
            return False
    return True


