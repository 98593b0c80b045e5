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

Randomness: the shared SplitMix64 generator (:mod:`ktsolve._splitmix`),
drawn by the GA's kernels (:mod:`ktsolve.heuristics._ga_kernels`) in a
fixed documented order so the tests replay generations exactly
in plain Python: per child two draws per tournament (two contestants, ties
to the first), one for the crossover decision, one for the cut when
crossing, then one per bit for mutation.

References
----------
V. S. Gordon and T. J. Slocum, "The knight's tour - evolutionary vs.
depth-first search", Proc. 2004 Congress on Evolutionary Computation.
"""

from __future__ import annotations

import time

import numpy as np

from ..driver import begin, drive, phase
from ..errors import InvalidParameterError
from ..graph import KnightGraph
from ..result import SolveResult, Status
from ..seeds import derive_seed, seed_doc
from ..tour import Tour, TourSpec
from . import _ga_kernels as K
from ._params import Param, Params, Range, call_doc, described, real, whole
from ._walks import seed_state, spec_squares, walk_arrays

__all__ = ["solve_ga", "warm", "ga_rate", "PARAMS", "GENERATIONS", "POPULATION", "CROSSOVER", "STALL"]

#: Largest population, and most genes a population may hold (two copies of
#: ``population x (N - 1)`` int64 genes are kept).
POPULATION_MAX = 100_000
GENES_MAX = 50_000_000
#: Most gene decodes per kernel call (the driver sizes calls by time, about 50 ms).
DECODES_PER_CHUNK = 2_000_000


@described(Range("whole", 2, POPULATION_MAX))
def _population(value, name, get, ctx):
    """2 to :data:`POPULATION_MAX` chromosomes, and at most :data:`GENES_MAX` genes on this board."""
    p = whole(2, POPULATION_MAX)(value, name, get, ctx)
    if p * (ctx.n - 1) > GENES_MAX:
        raise InvalidParameterError(
            f"method 'ga': population = {p} holds {p * (ctx.n - 1):,} genes on this board, more than {GENES_MAX:,}"
        )
    return p


#: The parameters of :func:`solve_ga`, declared once: the rates are our choice (the papers'
#: figures were not available to us).
PARAMS = Params("ga", (
    Param("generations", 10_000, whole(0), "int", "Budget in generations."),
    Param("population", 50, _population, "int", "Chromosomes per generation, 2 to 100,000."),
    Param("crossover", 0.9, real(0.0, 1.0), "float", "Probability of one-point crossover, in [0, 1]."),
    Param("mutation", None, real(0.0, 1.0), "float, optional",
          "Probability of flipping each bit, in [0, 1]; default ``1 / (3 (N - 1))``, one bit per chromosome "
          "on average.", computed=lambda get, n: 1.0 / (3 * (n - 1))),
    Param("stall", 200, whole(1), "int", "Generations without a better best fitness before a restart."),
))

#: The declared defaults.
GENERATIONS, POPULATION, CROSSOVER, STALL = (
    PARAMS.defaults[k] for k in ("generations", "population", "crossover", "stall"))


class _GA:
    def __init__(self, graph, spec, values, *, seed: int):
        n = graph.n
        if n < 2:
            raise ValueError("a one-square board needs no search")
        self.graph = graph
        self.generations = values.generations
        p = values.population
        self.crossover, self.mutation, self.stall = values.crossover, values.mutation, values.stall
        start, self.end = spec_squares(graph, spec)
        self.start = start
        self.closed = bool(spec.closed)
        self.tpad = walk_arrays(graph)[0]
        self.pop = np.zeros((p, n - 1), dtype=np.int64)
        self.new = np.zeros_like(self.pop)
        self.fit = np.zeros(p, dtype=np.int64)
        self.starts = np.zeros(1, dtype=np.int64)
        self.seed = seed
        self.rng = seed_state(self.seed)
        self.visited = np.zeros(n + 1, dtype=np.int64)
        self.stamp = np.zeros(1, dtype=np.int64)
        self.path = np.zeros(n, dtype=np.int32)
        self.state = np.zeros(3, dtype=np.int64)
        self.counts = np.zeros(6, dtype=np.int64)
        self.most = max(1, DECODES_PER_CHUNK // (p * n))

    def run(self, n_gens, out, first_only):
        reals, ints = K.ga_bundle(crossover=self.crossover, mutation=self.mutation, start=self.start,
                                  closed=self.closed, end=self.end, stall=self.stall, generations=n_gens,
                                  first_only=first_only)
        return K.ga_generations(self.tpad, self.pop, self.fit, self.new, self.starts, reals, ints, self.rng,
                                self.visited, self.stamp, self.path, out, self.state, self.counts)

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


def _warm_calls() -> None:
    """Every kernel call of the algorithm on a tiny board, with the argument types real runs use."""
    from ..board import Board

    graph = KnightGraph(Board(6, 6))
    for spec in (TourSpec(), TourSpec(closed=True), TourSpec(start=(0, 0), end=(5, 5))):
        solve_ga(graph, spec, seed=1, generations=2, population=4)


def warm() -> float:
    """Compile (or load from numba's cache) the algorithm's kernels; the seconds spent compiling.

    ``ktsolve warm`` calls it, with every other method's.
    """
    from ..jit import kernels_of, prepare
    from . import _colony_kernels, _posa_kernels

    return prepare("ga", _warm_calls, kernels_of(K, _colony_kernels, _posa_kernels))


def solve_ga(graph: KnightGraph, spec: TourSpec, *, time_limit=None, progress=None, seed=None,
             **params) -> SolveResult:
    deadline, seed = begin(time_limit, seed)
    deadline.extend(warm())  # a first-run compile is not the search's time
    if not isinstance(graph, KnightGraph):
        raise TypeError(f"expected a KnightGraph, got {type(graph).__name__}")
    if graph.n == 1:
        return SolveResult(Status.FOUND, tour=Tour(graph.board, [0], closed=spec.closed),
                           stats={"generations": 0, "attempts": 0}, seed=seed)
    values = PARAMS.check(params, n=graph.n)
    ga = _GA(graph, spec, values, seed=seed)
    out = np.zeros((1, graph.n), dtype=np.int32)
    found = []

    def step(k):
        ran, n_out = ga.run(k, out, True)
        if n_out:
            found.append(out[0].copy())
            return ran, True
        return ran, ran == 0

    phase(progress, "ga: generations", ga.generations)
    outcome = drive(step, units=ga.generations, deadline=deadline, progress=progress, most=ga.most)
    st = ga.stats()
    if found:
        st["attempts_to_first"] = st["attempts"]
        return SolveResult(Status.FOUND, tour=Tour(graph.board, found[0], closed=spec.closed), stats=st,
                           seed=ga.seed)
    done = outcome.done
    if outcome.reason == "interrupted":
        st["interrupted"] = True
        st["reason"] = f"interrupted after {done:,} generations ({st['attempts']:,} attempts)"
    elif outcome.reason == "time limit":
        st["reason"] = f"time limit reached after {done:,} generations"
    else:
        st["reason"] = f"no tour in {done:,} generations ({st['attempts']:,} attempts)"
    return SolveResult(Status.UNKNOWN, stats=st, seed=ga.seed)


PARAMS.declare(solve_ga, shared=call_doc(
    "``start`` fixes the chromosomes' start square (otherwise each restart draws one); ``closed`` and ``end`` "
    "filter the complete tours.", "generations"), summary='''First tour found by Gordon & Slocum's genetic algorithm with repair, or ``unknown``.
''', rest="""
    Returns
    -------
    SolveResult
        ``stats``: ``generations``, ``attempts`` (decodes), ``complete``,
        ``restarts``, ``tours_per_attempt``, ``best_fitness``.  The GA
        proves nothing: without a tour it answers ``unknown``.  Ctrl-C ends
        the run with ``unknown`` and ``stats["interrupted"]``.

    Examples
    --------
    >>> from ktsolve import Board
    >>> res = solve_ga(KnightGraph(Board(5, 5)), TourSpec(start=(0, 0)), seed=2, generations=20_000)
    >>> res.status.value, res.seed, len(res.tour)
    ('found', 2, 25)
""")


@seed_doc
def ga_rate(graph: KnightGraph, spec: TourSpec, *, attempts: int, time_limit=None, seed=None, **params) -> dict:
    """Tours per attempt as the colony papers count it: restart after every tour.

    Runs the GA repeatedly (each run stops at its first tour, the next run
    starts from a fresh random population, its seed derived from ``seed``
    with :func:`ktsolve.seeds.derive_seed`) until ``attempts`` decodes are
    spent; returns ``tours``, ``attempts``, ``tours_per_attempt``, ``runs``
    and ``seed``.

    Parameters
    ----------
    time_limit : float or Deadline, optional
        Seconds for all the runs together, or the caller's Deadline.
    %(seed)s
    """
    t0 = time.perf_counter()
    deadline, seed = begin(time_limit, seed)
    deadline.extend(warm())  # a first-run compile is not the search's time
    tours = used = runs = 0
    while used < attempts:
        if deadline.expired():
            break
        pop = params.get("population", POPULATION)
        gens = max(1, (attempts - used) // max(1, pop - 1))
        res = solve_ga(graph, spec, time_limit=deadline, generations=gens, **params,
                       seed=derive_seed(seed, "ga_rate", runs))
        runs += 1
        used += res.stats["attempts"]
        if res.status is Status.FOUND:
            tours += 1
        elif res.stats.get("generations", 0) >= gens:
            break
    return {"tours": tours, "attempts": used, "runs": runs, "seed": seed,
            "tours_per_attempt": tours / used if used else 0.0, "seconds": time.perf_counter() - t0}

