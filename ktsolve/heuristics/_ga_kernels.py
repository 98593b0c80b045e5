"""The numba kernels of Gordon & Slocum's genetic algorithm with repair (:mod:`.ga`).

:func:`decode` walks a chromosome with repair, :func:`ga_init` draws a
population, :func:`tournament` and ``_child`` make the children, and
:func:`ga_generations` runs generations; :mod:`.ga` calls the last one from
Python.  Random numbers come from the shared SplitMix64
(:mod:`ktsolve._splitmix`), drawn in the documented order that
``tests/heuristics/test_ga.py`` replays in plain Python.  No kernel here calls a
kernel of another file except the shared generator, as
``tests/test_kernel_cache.py`` requires.

The parameters of a call travel in two small arrays, ``reals`` (float64)
and ``ints`` (int64), read at the named indices below; :func:`ga_bundle`
builds them, so a call names every value once.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._grid_kernels import adjacent
from .._splitmix import uniform

__all__ = ["decode", "ga_init", "tournament", "ga_generations", "ga_bundle", "GA_REALS", "GA_INTS"]

#: The entries of ``reals``, in order.
GA_REALS = ("crossover", "mutation")
CROSSOVER, MUTATION = range(2)
#: The entries of ``ints``, in order (int64: a generation budget may pass 2**31).
GA_INTS = ("start", "closed", "end", "stall", "generations", "first_only")
START, CLOSED, END, STALL, GENERATIONS, FIRST_ONLY = range(6)


def ga_bundle(*, crossover, mutation, start, closed, end, stall, generations, first_only):
    """``(reals, ints)`` for :func:`ga_generations`, every value named once."""
    values = dict(crossover=crossover, mutation=mutation, start=start, closed=closed, end=end, stall=stall,
                  generations=generations, first_only=first_only)
    reals = np.array([float(values[k]) for k in GA_REALS], dtype=np.float64)
    ints = np.array([int(values[k]) for k in GA_INTS], dtype=np.int64)
    return reals, ints


@njit(cache=True, nogil=True)
def decode(tpad, genes, start, visited, stamp, path):
    """Walk ``genes`` from ``start`` with repair (written back); returns the fitness.

    A gene whose move leaves the board, lands on a hole or on a visited
    square is replaced by the next move type in cyclic order that is legal;
    the walk ends when none is.  ``visited[s] == stamp`` marks visited squares.
    """
    n = tpad.shape[0]
    visited[n] = stamp
    s = start
    visited[s] = stamp
    path[0] = s
    m = genes.shape[0]
    for i in range(m):
        g = genes[i]
        d = n
        mm = g
        for t in range(8):
            mm = (g + t) & 7
            d = tpad[s, mm]
            if visited[d] != stamp:
                break
        if visited[d] == stamp:
            return i
        genes[i] = mm
        s = d
        visited[s] = stamp
        path[i + 1] = s
    return m


@njit(cache=True, nogil=True)
def ga_init(tpad, pop, fit, start_fixed, starts, rng, visited, stamp, path, counts):
    """Random chromosomes (one draw per gene) and a start (one draw unless fixed); decodes them all."""
    n = tpad.shape[0]
    p, m = pop.shape
    if start_fixed < 0:
        starts[0] = int(uniform(rng) * n)
    else:
        starts[0] = start_fixed
    for i in range(p):
        for k in range(m):
            pop[i, k] = int(uniform(rng) * 8)
    for i in range(p):
        stamp[0] += 1
        fit[i] = decode(tpad, pop[i], starts[0], visited, stamp[0], path)
        counts[0] += 1


@njit(cache=True, nogil=True)
def tournament(fit, rng):
    """Binary tournament: two draws, the fitter contestant (ties to the first)."""
    p = fit.shape[0]
    a = int(uniform(rng) * p)
    b = int(uniform(rng) * p)
    return b if fit[b] > fit[a] else a


@njit(cache=True, nogil=True)
def _child(pop, new, i, a, b, crossover, mutation, rng):
    """Child ``i`` of ``new`` from parents ``a`` and ``b``: one-point crossover at a bit, then bit flips."""
    m = pop.shape[1]
    if uniform(rng) < crossover:
        cut = int(uniform(rng) * (3 * m))
        g = cut // 3
        keep_bits = 3 - cut % 3  # low bits of gene g taken from b
        for k in range(g):
            new[i, k] = pop[a, k]
        low = (1 << keep_bits) - 1
        new[i, g] = (pop[a, g] & (7 - low)) | (pop[b, g] & low)
        for k in range(g + 1, m):
            new[i, k] = pop[b, k]
    else:
        new[i, :] = pop[a]
    for k in range(m):
        for bit in range(3):
            if uniform(rng) < mutation:
                new[i, k] ^= 1 << bit


@njit(cache=True, nogil=True)
def ga_generations(tpad, pop, fit, new, starts, reals, ints, rng, visited, stamp, path, out, state, counts):
    """Run up to ``ints[GENERATIONS]`` generations of Gordon & Slocum's GA.

    ``reals`` (float64) holds the rates at :data:`CROSSOVER` and
    :data:`MUTATION`; ``ints`` (int64) the fixed start (-1: none), whether
    only closed tours count, the fixed end (-1: none), the stall limit, the
    generations to run and whether to stop at the first tour, at the
    indices of :data:`GA_INTS` (build them with :func:`ga_bundle`).
    ``state`` (int64): [generations without progress, best fitness of this
    restart, initialised flag].  ``counts`` (int64): decodes (attempts),
    complete tours, closed tours, matching tours, restarts, generations.
    Matching complete tours are copied to ``out`` rows; returns (generations
    run, rows used); with ``first_only`` it returns at the first.
    """
    crossover = reals[CROSSOVER]
    mutation = reals[MUTATION]
    start_fixed = ints[START]
    want_closed = ints[CLOSED]
    end = ints[END]
    stall = ints[STALL]
    n_gens = ints[GENERATIONS]
    first_only = ints[FIRST_ONLY]
    n = tpad.shape[0]
    p, m = pop.shape
    n_out = 0
    cap = out.shape[0]
    if state[2] == 0:
        ga_init(tpad, pop, fit, start_fixed, starts, rng, visited, stamp, path, counts)
        state[0] = 0
        state[1] = -1
        state[2] = 1
    for gen in range(n_gens):
        best = 0
        for i in range(1, p):
            if fit[i] > fit[best]:
                best = i
        if fit[best] > state[1]:
            state[1] = fit[best]
            state[0] = 0
        else:
            state[0] += 1
        if state[0] >= stall:
            counts[4] += 1
            counts[5] += 1
            ga_init(tpad, pop, fit, start_fixed, starts, rng, visited, stamp, path, counts)
            state[0] = 0
            state[1] = -1
            continue
        new[0, :] = pop[best]
        for i in range(1, p):
            a = tournament(fit, rng)
            b = tournament(fit, rng)
            _child(pop, new, i, a, b, crossover, mutation, rng)
        # The elite keeps its fitness; children are decoded.
        fit0 = fit[best]
        pop[:, :] = new
        fit[0] = fit0
        for i in range(1, p):
            stamp[0] += 1
            f = decode(tpad, pop[i], starts[0], visited, stamp[0], path)
            fit[i] = f
            counts[0] += 1
            if f == m:
                counts[1] += 1
                last = path[m]
                closed = n > 2 and adjacent(tpad, path[0], last)
                if closed:
                    counts[2] += 1
                if (closed or not want_closed) and (end < 0 or last == end) and n_out < cap:
                    counts[3] += 1
                    out[n_out, :] = path
                    n_out += 1
                    if first_only:
                        counts[5] += 1
                        return gen + 1, n_out
        counts[5] += 1
    return n_gens, n_out
