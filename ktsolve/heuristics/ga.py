"""Genetic algorithm with repair (Gordon & Slocum 2004): the other baseline of the colony papers.

A chromosome is a sequence of ``N - 1`` moves of 3 bits each (move types
1..8 of :mod:`ktsolve.graph`, stored as 0..7) from a start square.  It is
decoded by walking the moves in turn; when a move leaves the board, lands on
a hole or on a visited square, it is *repaired*: the next move types in
cyclic order (``m + 1, m + 2, ...``, modulo 8) are tried and the first legal
move to an unvisited square replaces the gene in the chromosome (the repair
is written back).  The fitness is the number of legal moves made before
the walk is stuck; a chromosome of fitness ``N - 1`` is a complete tour.

A generation keeps the best chromosome (elitism) and fills the rest of the
population with children: two parents picked by binary tournaments, one-point
crossover at a bit position with probability ``crossover``, then every bit
flipped with probability ``mutation``.  When the best fitness has not risen
for ``stall`` generations the population restarts from random chromosomes
(and, without a fixed start, a new random start square).  Every decode is
one *attempt*; the improved colony's Table 1 reports 0.000642 tours per
attempt for this baseline on 8x8.

Defaults: population 50, crossover 0.9, mutation ``1 / (3 (N - 1))`` (one
bit per chromosome on average), tournament of 2, restart after 200
generations without progress.  The chromosome, the fitness and the repair
are Gordon & Slocum's; the rates are our choice (the papers' figures were
not available to us), documented here and reported in ``stats``.

Randomness: a SplitMix64 generator with explicit state (as in
:mod:`ktsolve.heuristics.aco`), drawn in a fixed documented order so the
tests replay generations exactly in plain Python: per child two draws per
tournament (two contestants, ties to the first), one for the crossover
decision, one for the cut when crossing, then one per bit for mutation.

References
----------
V. S. Gordon and T. J. Slocum, "The knight's tour - evolutionary vs.
depth-first search", Proc. 2004 Congress on Evolutionary Computation.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from ..checks import check_int, check_real
from ..graph import KnightGraph
from ..seeds import derive_seed, resolve_seed
from ..result import SolveResult, Status
from ..tour import Tour, TourSpec
from ._colony import seed_state, spec_squares

__all__ = ["solve_ga", "ga_rate", "GENERATIONS", "POPULATION", "CROSSOVER", "STALL"]

#: Default budget in generations.
GENERATIONS = 10_000
#: Chromosomes per generation (our choice).
POPULATION = 50
#: Probability of one-point crossover (our choice).
CROSSOVER = 0.9
#: Generations without a better best fitness before a restart (our choice).
STALL = 200

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True)
def _uniform(rng):
    """Next double in [0, 1) of the SplitMix64 generator whose state is ``rng[0]`` (uint64)."""
    x = rng[0] + _GOLDEN
    rng[0] = x
    x = (x ^ (x >> np.uint64(30))) * _MIX1
    x = (x ^ (x >> np.uint64(27))) * _MIX2
    x = x ^ (x >> np.uint64(31))
    return (x >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def _decode(tpad, genes, start, visited, stamp, path):
    """Walk ``genes`` from ``start`` with repair (written back); returns the fitness."""
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


@njit(cache=True)
def _init(tpad, pop, fit, start_fixed, starts, rng, visited, stamp, path, counts):
    """Random chromosomes (one draw per gene) and a start (one draw unless fixed); decodes them all."""
    n = tpad.shape[0]
    p, m = pop.shape
    if start_fixed < 0:
        starts[0] = int(_uniform(rng) * n)
    else:
        starts[0] = start_fixed
    for i in range(p):
        for k in range(m):
            pop[i, k] = int(_uniform(rng) * 8)
    for i in range(p):
        stamp[0] += 1
        fit[i] = _decode(tpad, pop[i], starts[0], visited, stamp[0], path)
        counts[0] += 1


@njit(cache=True)
def _tournament(fit, rng):
    p = fit.shape[0]
    a = int(_uniform(rng) * p)
    b = int(_uniform(rng) * p)
    return b if fit[b] > fit[a] else a


@njit(cache=True)
def _ga(tpad, pop, fit, new, start_fixed, starts, want_closed, end, crossover, mutation, stall,
        n_gens, rng, visited, stamp, path, out, state, counts, first_only):
    """Run up to ``n_gens`` generations.

    ``state`` (int64): [generations without progress, best fitness of this
    restart, initialised flag].  ``counts`` (int64): decodes (attempts),
    complete tours, closed tours, matching tours, restarts, generations.
    Matching complete tours are copied to ``out`` rows; returns (generations
    run, rows used); with ``first_only`` it returns at the first.
    """
    n = tpad.shape[0]
    p, m = pop.shape
    n_out = 0
    cap = out.shape[0]
    if state[2] == 0:
        _init(tpad, pop, fit, start_fixed, starts, rng, visited, stamp, path, counts)
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
            _init(tpad, pop, fit, start_fixed, starts, rng, visited, stamp, path, counts)
            state[0] = 0
            state[1] = -1
            continue
        new[0, :] = pop[best]
        for i in range(1, p):
            a = _tournament(fit, rng)
            b = _tournament(fit, rng)
            if _uniform(rng) < crossover:
                cut = int(_uniform(rng) * (3 * m))
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
                    if _uniform(rng) < mutation:
                        new[i, k] ^= 1 << bit
        # The elite keeps its fitness; children are decoded.
        fit0 = fit[best]
        pop[:, :] = new
        fit[0] = fit0
        for i in range(1, p):
            stamp[0] += 1
            f = _decode(tpad, pop[i], starts[0], visited, stamp[0], path)
            fit[i] = f
            counts[0] += 1
            if f == m:
                counts[1] += 1
                last = path[m]
                closed = False
                for j in range(8):
                    if tpad[last, j] == path[0]:
                        closed = n > 2
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


class _GA:
    def __init__(self, graph, spec, *, generations, population, crossover, mutation, stall, seed):
        n = graph.n
        if n < 2:
            raise ValueError("a one-square board needs no search")
        self.graph = graph
        self.generations = check_int("generations", generations, 0, method="ga")
        p = check_int("population", population, 2, method="ga")
        self.crossover = check_real("crossover", crossover, 0.0, 1.0, method="ga")
        self.mutation = (1.0 / (3 * (n - 1)) if mutation is None
                         else check_real("mutation", mutation, 0.0, 1.0, method="ga"))
        self.stall = check_int("stall", stall, 1, method="ga")
        start, self.end = spec_squares(graph, spec)
        self.start = start
        self.closed = bool(spec.closed)
        table = np.asarray(graph.table, dtype=np.int32)
        k = table.shape[1]
        self.tpad = np.full((n, 8), n, dtype=np.int32)
        self.tpad[:, :k] = np.where(table < 0, n, table)
        self.pop = np.zeros((p, n - 1), dtype=np.int64)
        self.new = np.zeros_like(self.pop)
        self.fit = np.zeros(p, dtype=np.int64)
        self.starts = np.zeros(1, dtype=np.int64)
        self.seed = resolve_seed(seed)
        self.rng = seed_state(self.seed)
        self.visited = np.zeros(n + 1, dtype=np.int64)
        self.stamp = np.zeros(1, dtype=np.int64)
        self.path = np.zeros(n, dtype=np.int32)
        self.state = np.zeros(3, dtype=np.int64)
        self.counts = np.zeros(6, dtype=np.int64)
        self.chunk = max(1, 2_000_000 // (p * n))

    def run(self, n_gens, out, first_only):
        return _ga(self.tpad, self.pop, self.fit, self.new, self.start, self.starts, self.closed, self.end,
                   self.crossover, self.mutation, self.stall, n_gens, self.rng, self.visited, self.stamp,
                   self.path, out, self.state, self.counts, first_only)

    def stats(self):
        ev, complete, closed, matched, restarts, gens = (int(v) for v in self.counts)
        return {
            "generations": gens,
            "attempts": ev,
            "complete": complete,
            "closed": closed,
            "restarts": restarts,
            "tours_per_attempt": complete / ev if ev else 0.0,
            "best_fitness": int(self.fit.max()) if ev else 0,
            "population": int(self.pop.shape[0]),
            "crossover": self.crossover,
            "mutation": self.mutation,
            "stall": self.stall,
        }


def solve_ga(graph: KnightGraph, spec: TourSpec, *, seed=None, time_limit=None, progress=None,
             generations=GENERATIONS, population=POPULATION, crossover=CROSSOVER, mutation=None,
             stall=STALL) -> SolveResult:
    """First tour found by Gordon & Slocum's genetic algorithm with repair, or ``unknown``.

    Parameters
    ----------
    graph : KnightGraph
    spec : TourSpec
        ``start`` fixes the chromosomes' start square (otherwise each restart
        draws one); ``closed`` and ``end`` filter the complete tours.
    seed : int, optional
        Seed of every random choice (taken modulo 2**64).  None draws a fresh one.
    time_limit : float, optional
        Seconds, checked between chunks of generations.
    progress : callable, optional
        ``progress(generations_done, generations)``.
    generations : int
        Budget (default 10,000).
    population, crossover, mutation, stall
        See the module notes; ``mutation`` None means ``1 / (3 (N - 1))``.

    Returns
    -------
    SolveResult
        ``stats``: ``generations``, ``attempts`` (decodes), ``complete``,
        ``restarts``, ``tours_per_attempt``, ``best_fitness``.  The GA
        proves nothing: without a tour it answers ``unknown``.
    """
    if not isinstance(graph, KnightGraph):
        raise TypeError(f"expected a KnightGraph, got {type(graph).__name__}")
    if graph.n == 1:
        return SolveResult(Status.FOUND, tour=Tour(graph.board, [0], closed=spec.closed),
                           stats={"generations": 0, "attempts": 0})
    ga = _GA(graph, spec, generations=generations, population=population, crossover=crossover,
             mutation=mutation, stall=stall, seed=seed)
    out = np.zeros((1, graph.n), dtype=np.int32)
    t0 = time.perf_counter()
    done = 0
    why = "generations"
    while done < ga.generations:
        if time_limit is not None and time.perf_counter() - t0 >= time_limit:
            why = "time limit"
            break
        ran, n_out = ga.run(min(ga.chunk, ga.generations - done), out, True)
        done += ran
        if progress is not None:
            progress(done, ga.generations)
        if n_out:
            st = ga.stats()
            st["attempts_to_first"] = st["attempts"]
            return SolveResult(Status.FOUND, tour=Tour(graph.board, out[0].copy(), closed=spec.closed), stats=st)
    st = ga.stats()
    st["reason"] = (f"time limit reached after {done:,} generations" if why == "time limit"
                    else f"no tour in {done:,} generations ({st['attempts']:,} attempts)")
    return SolveResult(Status.UNKNOWN, stats=st)


def ga_rate(graph: KnightGraph, spec: TourSpec, *, attempts: int, seed=None, time_limit=None, **params) -> dict:
    """Tours per attempt as the colony papers count it: restart after every tour.

    Runs the GA repeatedly (each run stops at its first tour, the next run
    starts from a fresh random population) until ``attempts`` decodes are
    spent; returns ``tours``, ``attempts``, ``tours_per_attempt``, ``runs``.
    """
    t0 = time.perf_counter()
    tours = used = runs = 0
    seed = resolve_seed(seed)
    while used < attempts:
        left = None if time_limit is None else time_limit - (time.perf_counter() - t0)
        if left is not None and left <= 0:
            break
        pop = params.get("population", POPULATION)
        gens = max(1, (attempts - used) // max(1, pop - 1))
        res = solve_ga(graph, spec, seed=derive_seed(seed, "ga_rate", runs), time_limit=left, generations=gens,
                       **params)
        runs += 1
        used += res.stats["attempts"]
        if res.status is Status.FOUND:
            tours += 1
        elif res.stats.get("generations", 0) >= gens:
            break
    return {"tours": tours, "attempts": used, "runs": runs,
            "tours_per_attempt": tours / used if used else 0.0, "seconds": time.perf_counter() - t0}

