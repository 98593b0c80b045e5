"""Improved multi-colony ant colony for knight's tours on holed boards (Jiang, Bai & Dong).

Several colonies (3 by default) search side by side, each with its own
pheromone on every ``(square, move)`` pair (the layout of the knight graph's
``table``), all starting at 0.5.  An ant moves from ``s`` by move ``j`` to an
unvisited square ``d`` with probability proportional to

    tau[s, j] ** D_d

where ``D_d`` is the degree of ``d`` on the board (its number of
neighbours, holes removed).  Because trails stay inside (0, 1), the power
favours destinations of low degree, as Warnsdorff's rule does, and the trail
tempers that preference.  Every move an ant used receives a constant
deposit ``C``; trails evaporate by ``rho`` each cycle; and every ``w`` cycles
the colonies share what they learnt: each trail of every colony is replaced
by the F-mean over the colonies of that trail,

    M_F(x_1 .. x_k) = ((x_1 ** F + ... + x_k ** F) / k) ** (1 / F),

with ``F = -inf`` the minimum, ``F = 0`` the geometric mean and
``F = +inf`` the maximum.  Start square control puts every ant on one
square; tour type control counts only closed tours when closed tours are
asked for.

Defaults, from the paper as the ktsolve issue describes it: 3 colonies,
initial trail 0.5, ``C = 0.1``, ``rho = 0.45``, sharing every ``w = 10``
cycles.  Choices where that description is silent, made here:

* "Constant deposit C per used edge" is read as: a move that at least one
  ant of a colony used in a cycle receives ``C`` once in that cycle
  (``deposit_on="edge"``).  A trail then never exceeds ``C / rho = 0.22``,
  so it stays inside (0, 1) by itself, as the power rule needs.  The other
  readings are available: ``"all"`` (``C`` for every use by every ant; with
  one ant per square the trails of popular moves saturate and the degree
  preference fades: on 8x8 about 0.0006 tours per walk) and ``"complete"``
  (only complete tours deposit; the colony soon repeats a few tours: over
  0.6 complete tours per walk but about 0.005 distinct ones).  With
  ``"edge"`` an 8x8 run makes about 0.05 tours per walk, nearly all distinct.
* ``F = +inf`` (sharing the maximum) by default: in a 3,000-cycle 8x8 test
  it gave the highest tour rate of F in {-inf, 0, 1, +inf} (0.055 against
  0.045 to 0.049 tours per walk).  Any real F may be given.
* Trails are clamped to ``[0.001, 0.999]`` after every update.  The lower
  bound keeps every move possible (``0.001 ** 8 = 1e-24`` is still a
  positive weight); the upper bound keeps ``tau ** D`` decreasing in ``D``
  under the ``"all"`` reading, where trails would otherwise pass 1.
* Update is synchronous: in a cycle every colony's ants walk on the trails
  of the previous cycle; deposits and evaporation are applied at the end of
  the cycle, then (every ``w`` cycles) the sharing.
* Powers are computed by repeated multiplication, once per colony and cycle.

Ant walks, the random generator (SplitMix64 with explicit state) and the
move choice are those of :mod:`ktsolve.heuristics.aco`; see its notes.

References
----------
Jiang, Bai & Dong, an improved multi-colony ant colony algorithm for the
knight's tour problem on boards with holes (the comparison of its Table 1:
DFS 0.000003, GA 0.000642, ACO 0.076, IACO 0.0782 tours per attempt on 8x8).
"""

from __future__ import annotations

import math

import numpy as np

from ..checks import check_choice, check_int, check_real
from ..graph import KnightGraph
from ..result import Enumeration, SolveResult
from ..seeds import resolve_seed
from ..tour import TourSpec
from . import _colony_kernels as K
from ._colony import (
    check_exponent,
    chunk_cycles,
    colony_enumerate,
    colony_solve,
    seed_moves,
    seed_state,
    spec_squares,
    walk_arrays,
)

__all__ = [
    "solve_iaco",
    "enumerate_iaco",
    "f_mean",
    "default_cycles",
    "COLONIES",
    "TAU0",
    "DEPOSIT",
    "RHO",
    "SHARE_EVERY",
    "F",
    "TAU_LO",
    "TAU_HI",
]

#: Number of colonies (Jiang, Bai & Dong).
COLONIES = 3
#: Initial trail of every colony (Jiang, Bai & Dong).
TAU0 = 0.5
#: Constant deposit on every move an ant used (Jiang, Bai & Dong).
DEPOSIT = 0.1
#: Evaporation per cycle (Jiang, Bai & Dong).
RHO = 0.45
#: Cycles between two pheromone sharings (Jiang, Bai & Dong).
SHARE_EVERY = 10
#: Exponent of the F-mean used for sharing (our default: the maximum, see the notes).
F = float("inf")
#: Trails are kept inside [TAU_LO, TAU_HI] (our clamp of the paper's (0, 1)).
TAU_LO = 0.001
TAU_HI = 0.999
#: Largest board: a cycle of k colonies of n ants costs about k * n * n steps.
MAX_SQUARES = 10_000


def default_cycles(n: int) -> int:
    """The default budget: 1,000 cycles, fewer on big boards (about 10^9 ant steps at most).

    Examples
    --------
    >>> default_cycles(64), default_cycles(10_000)
    (1000, 10)
    """
    return int(max(10, min(1000, 10**9 // max(1, COLONIES * n * n))))


def f_mean(values, f: float) -> float:
    """The F-mean (power mean) of positive ``values``: min, geometric mean and max at F = -inf, 0, +inf.

    Examples
    --------
    >>> f_mean([0.25, 1.0], 1), f_mean([0.25, 1.0], 0), f_mean([0.25, 1.0], float("-inf"))
    (0.625, 0.5, 0.25)
    """
    x = [float(v) for v in values]
    if f == -math.inf:
        return min(x)
    if f == math.inf:
        return max(x)
    if f == 0:
        return math.exp(sum(math.log(v) for v in x) / len(x))
    return (sum(v**f for v in x) / len(x)) ** (1.0 / f)


# ---------------------------------------------------------------------- set-up
_DEPOSIT_MODES = {"all": K.DEPOSIT_SUM, "complete": K.DEPOSIT_COMPLETE, "edge": K.DEPOSIT_EDGE}
#: Ranges of the parameters (see :mod:`ktsolve.checks`): every value inside keeps trails and weights finite.
COLONIES_MAX = 64
ANTS_MAX = 100_000
F_MAX = 1000.0


class _Colonies:
    """Checked parameters and the state of one run (trails of every colony, counts)."""

    def __init__(self, graph: KnightGraph, spec: TourSpec, *, cycles, colonies, tau0, deposit, rho,
                 share_every, f, tau_lo, tau_hi, deposit_on, ants, seed_tour, seed_amount, seed,
                 method="iaco"):
        if not isinstance(graph, KnightGraph):
            raise TypeError(f"expected a KnightGraph, got {type(graph).__name__}")
        n = graph.n
        self.graph = graph
        self.n = n
        self.n_col = check_int("colonies", colonies, 1, COLONIES_MAX, method=method)
        self.cycles = default_cycles(n) if cycles is None else check_int("cycles", cycles, 0, method=method)
        self.tau_lo = check_real("tau_lo", tau_lo, 0.0, 1.0, lo_open=True, hi_open=True, method=method)
        self.tau_hi = check_real("tau_hi", tau_hi, self.tau_lo, 1.0, hi_open=True, method=method)
        self.tau0 = check_real("tau0", tau0, self.tau_lo, self.tau_hi, method=method)
        self.deposit = check_real("deposit", deposit, 0.0, 1.0, method=method)
        self.rho = check_real("rho", rho, 0.0, 1.0, method=method)
        self.share_every = check_int("share_every", share_every, 0, method=method)
        self.f = check_exponent("f", f, F_MAX, method=method)
        self.deposit_on = check_choice("deposit_on", deposit_on, tuple(_DEPOSIT_MODES), method=method)
        start, self.end = spec_squares(graph, spec)
        n_ants = n if ants is None else check_int("ants", ants, 1, ANTS_MAX, method=method)
        self.starts = (np.full(n_ants, start, np.int32) if start >= 0
                       else (np.arange(n_ants, dtype=np.int64) % n).astype(np.int32))
        self.closed = bool(spec.closed)
        self.tpad, self.full, self.rev = walk_arrays(graph)
        self.deg = np.zeros(n + 1, dtype=np.int32)
        self.deg[:n] = graph.degree
        self.tau = np.full((self.n_col, n, 8), self.tau0, dtype=np.float64)
        self.seeded_moves = 0
        if seed_tour is not None:
            amount = (self.tau_hi if seed_amount is None
                      else check_real("seed_amount", seed_amount, self.tau_lo, self.tau_hi, method=method))
            src, mv = seed_moves(graph, seed_tour, method)
            self.tau[:, src, mv] = amount
            self.seeded_moves = int(src.size)
        self.seed = resolve_seed(seed)
        self.rng = seed_state(self.seed)
        self.counts = np.zeros(5, dtype=np.int64)
        self.most = chunk_cycles(n, n_ants, self.n_col)
        self.done = 0

    @property
    def n_ants(self) -> int:
        return int(self.starts.size) * self.n_col

    def pheromone(self) -> np.ndarray:
        """The trails, ``(colonies, n, k)``."""
        return self.tau[:, :, : self.graph.table.shape[1]].copy()

    def run(self, n_cycles: int, out: np.ndarray, first_only: bool) -> tuple[int, int]:
        done, n_out = K.iaco_cycles(self.tpad, self.full, self.rev, self.deg, self.tau, self.rho, self.deposit,
                                    self.tau_lo, self.tau_hi, self.f, self.share_every, self.done,
                                    _DEPOSIT_MODES[self.deposit_on], False, self.starts, n_cycles, self.rng,
                                    self.closed, self.end, first_only, out, self.counts)
        self.done += done
        return done, n_out

    def stats(self, cycles_run: int) -> dict:
        walks, complete, closed, matched, steps = (int(v) for v in self.counts)
        out = {
            "cycles": cycles_run,
            "colonies": self.n_col,
            "ants_per_cycle": self.n_ants,
            "walks": walks,
            "complete": complete,
            "closed": closed,
            "production_rate": complete / walks if walks else 0.0,
            "mean_walk_moves": steps / walks if walks else 0.0,
            "tau0": self.tau0,
            "deposit": self.deposit,
            "rho": self.rho,
            "share_every": self.share_every,
            "f": self.f,
            "deposit_on": self.deposit_on,
        }
        if self.seeded_moves:
            out["seeded_moves"] = self.seeded_moves
        return out


_PARAMS_DOC = """
    Parameters
    ----------
    graph : KnightGraph
    spec : TourSpec
        ``closed`` counts only closed tours (tour type control); ``start``
        puts every ant on that square (start square control); ``end`` keeps
        only tours ending there.
    seed : int, optional
        Seed of every random choice (taken modulo 2**64).  None draws a fresh one.
    time_limit : float, optional
        Seconds; the clock is read between chunks of cycles (tens of ms).
    progress : callable, optional
        ``progress(cycles_done, cycles)``.
    cycles : int, optional
        Budget in cycles (every colony walks once per cycle); default
        :func:`default_cycles`.
    colonies, tau0, deposit, rho, share_every : number
        Number of colonies (3), initial trail (0.5), deposit per used move
        (0.1), evaporation (0.45), cycles between sharings (10; 0 never shares).
    f : float
        Exponent of the F-mean used for sharing (default ``float("inf")``,
        the maximum; ``float("-inf")`` the minimum, 0 the geometric mean, 1
        the arithmetic mean).
    tau_lo, tau_hi : float
        The clamp of every trail (0.001, 0.999).
    deposit_on : {"edge", "all", "complete"}
        ``"edge"``: every move used in the cycle by an ant of the colony gets
        ``deposit`` once; ``"all"``: once per use; ``"complete"``: once per
        use by a complete tour.
    ants : int, optional
        Ants per colony and cycle; default one per square.
    seed_tour : Tour or int array, optional
        A tour (or several, as rows of a 2-D array) whose moves start with
        trail ``seed_amount`` in every colony.
    seed_amount : float, optional
        Initial trail on seed moves; default ``tau_hi``.
"""


# ---------------------------------------------------------------------- public
def solve_iaco(graph: KnightGraph, spec: TourSpec, *, seed=None, time_limit=None, progress=None,
               cycles=None, colonies=COLONIES, tau0=TAU0, deposit=DEPOSIT, rho=RHO,
               share_every=SHARE_EVERY, f=F, tau_lo=TAU_LO, tau_hi=TAU_HI, deposit_on="edge", ants=None,
               seed_tour=None, seed_amount=None) -> SolveResult:
    col = _Colonies(graph, spec, cycles=cycles, colonies=colonies, tau0=tau0, deposit=deposit, rho=rho,
                    share_every=share_every, f=f, tau_lo=tau_lo, tau_hi=tau_hi, deposit_on=deposit_on,
                    ants=ants, seed_tour=seed_tour, seed_amount=seed_amount, seed=seed)
    return colony_solve(col, graph, spec, time_limit=time_limit, progress=progress)


def enumerate_iaco(graph: KnightGraph, spec: TourSpec, *, cycles=None, seed=None, time_limit=None,
                   progress=None, colonies=COLONIES, tau0=TAU0, deposit=DEPOSIT, rho=RHO,
                   share_every=SHARE_EVERY, f=F, tau_lo=TAU_LO, tau_hi=TAU_HI, deposit_on="edge",
                   ants=None, seed_tour=None, seed_amount=None) -> Enumeration:
    col = _Colonies(graph, spec, cycles=cycles, colonies=colonies, tau0=tau0, deposit=deposit, rho=rho,
                    share_every=share_every, f=f, tau_lo=tau_lo, tau_hi=tau_hi, deposit_on=deposit_on,
                    ants=ants, seed_tour=seed_tour, seed_amount=seed_amount, seed=seed)
    return colony_enumerate(col, graph, spec, "iaco", time_limit=time_limit, progress=progress)


solve_iaco.__doc__ = (
    """First tour found by the improved multi-colony ant colony, or ``unknown``.
"""
    + _PARAMS_DOC
    + """
    Returns
    -------
    SolveResult
        ``found`` with the tour, or ``unknown`` when the budget ran out;
        ``stats`` has ``cycles``, ``walks``, ``complete``, ``closed``,
        ``production_rate`` and ``walks_to_first``.  The colonies prove
        nothing: on a board without a tour the answer is ``unknown``.
"""
)
enumerate_iaco.__doc__ = (
    """Run the colonies for ``cycles`` cycles and keep every distinct complete tour.
"""
    + _PARAMS_DOC
    + """
    Returns
    -------
    Enumeration
        ``stats``: ``walks``, ``complete``, ``closed``, ``distinct``,
        ``production_rate`` (complete tours per walk), ``distinct_rate``.
"""
)

