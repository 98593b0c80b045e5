"""Ant colony that discovers knight's tours (Hingston & Kendall 2004).

Pheromone lies on every ``(square, move)`` pair, so it has the layout of the
knight graph's ``table`` (``n x 8``): ``tau[s, j]`` is the trail on move
``j`` out of square ``s``.  A *cycle* sends one ant from every square (or,
with a fixed start, every ant from that square).  An ant walks until it has
no unvisited square to move to, each time choosing among the unvisited
destinations with probability proportional to ``tau[s, j] ** alpha``; there is
no heuristic visibility term.  An ant lays no pheromone while it walks.  When
its walk of ``L`` moves is over it deposits

    Q * (L - i) / (N - 1 - i)

on the ``i``-th move it made (``i = 0 .. L - 1``, ``N`` squares), so a full
tour (``L = N - 1``) deposits ``Q`` on every move and a short walk deposits
most on its first moves, which did not cause the dead end.  After every ant
of the cycle has walked, the trails evaporate and the deposits are added:
``tau <- (1 - rho) * tau + deposits``.

Defaults are the paper's: ``rho = 0.25``, ``Q = 1.0``, ``alpha = 1.0`` and an
initial trail of ``1e-6`` on every move (Hingston & Kendall 2004).
On 8x8 the paper reports about 488,000 distinct tours in 100,000 cycles
(6.4 million walks), about 0.076 tours per walk.

Choices where the paper is silent, made here and kept fixed:

* Update is synchronous: all ants of a cycle walk on the trails of the
  previous cycle; their deposits are summed and added at the end of the cycle
  together with evaporation.
* Trails never fall below :data:`TAU_MIN` (``1e-300``).  Without a floor an
  unused move's trail underflows through subnormal numbers (slow arithmetic)
  to exactly zero after about 2,500 cycles, which would forbid the move for
  ever; at ``1e-300`` a move competes only with moves as starved as itself.
  The weights ``tau ** alpha`` have the same floor, so every candidate
  keeps a positive (if vanishing) chance.
* Trails are directed: the move ``a -> b`` and the move ``b -> a`` carry
  separate pheromone, as the ``(square, move)`` layout implies.
* Closed-only counting (``closed=True``) changes only which walks count as
  tours, not the deposit rule; a fixed end square likewise only filters.

The kernels (the walk, the deposit, evaporation, the cycle loop and the
SplitMix64 generator seeded with the run's seed) are those of
:mod:`ktsolve.heuristics._colony_kernels`; ``tests/naive_colonies.py``
replays runs exactly in plain Python.

References
----------
P. Hingston and G. Kendall, "Ant colonies discover knight's tours", AI 2004:
Advances in Artificial Intelligence, LNCS 3339, Springer 2004.
"""

from __future__ import annotations

import numpy as np

from ..checks import check_int, check_real
from ..graph import KnightGraph
from ..result import Enumeration, SolveResult
from ..seeds import resolve_seed
from ..tour import TourSpec
from . import _colony_kernels as K
from ._colony import chunk_cycles, colony_enumerate, colony_solve, seed_moves, seed_state, spec_squares, walk_arrays

__all__ = ["solve_aco", "enumerate_aco", "default_cycles", "RHO", "Q", "ALPHA", "TAU0", "TAU_MIN"]

#: Evaporation per cycle (Hingston & Kendall 2004).
RHO = 0.25
#: Deposit scale: a full tour lays Q on each of its moves (Hingston & Kendall 2004).
Q = 1.0
#: Exponent of the trail in the move probability (Hingston & Kendall 2004).
ALPHA = 1.0
#: Initial trail on every move (Hingston & Kendall 2004).
TAU0 = 1e-6
#: Floor of every trail (our choice, see the module notes).
TAU_MIN = 1e-300
#: Largest board: a cycle of n ants costs about n * n steps.
MAX_SQUARES = 10_000
#: Ranges of the parameters: wide enough for any experiment, narrow enough
#: that trails and weights stay finite (a trail grows by at most ``ants * q``
#: a cycle; ``tau ** alpha`` of the largest one stays below the float range).
ALPHA_MAX = 20.0
AMOUNT_MAX = 1e6
ANTS_MAX = 100_000


def default_cycles(n: int) -> int:
    """The default budget: 1,000 cycles, fewer on big boards (about 10^9 ant steps at most).

    Examples
    --------
    >>> default_cycles(64), default_cycles(10_000)
    (1000, 10)
    """
    return int(max(10, min(1000, 10**9 // max(1, n * n))))


# ---------------------------------------------------------------------- set-up
class _Colony:
    """Checked parameters and the state of one run (trails, counts)."""

    def __init__(self, graph: KnightGraph, spec: TourSpec, *, cycles, rho, q, alpha, tau0, ants,
                 seed_tour, seed_amount, seed, method="aco"):
        if not isinstance(graph, KnightGraph):
            raise TypeError(f"expected a KnightGraph, got {type(graph).__name__}")
        n = graph.n
        self.graph = graph
        self.n = n
        self.cycles = default_cycles(n) if cycles is None else check_int("cycles", cycles, 0, method=method)
        self.rho = check_real("rho", rho, 0.0, 1.0, hi_open=True, method=method)
        self.q = check_real("q", q, 0.0, AMOUNT_MAX, lo_open=True, method=method)
        self.alpha = check_real("alpha", alpha, 0.0, ALPHA_MAX, method=method)
        self.tau0 = check_real("tau0", tau0, 0.0, AMOUNT_MAX, lo_open=True, method=method)
        start, self.end = spec_squares(graph, spec)
        n_ants = n if ants is None else check_int("ants", ants, 1, ANTS_MAX, method=method)
        self.starts = (np.full(n_ants, start, np.int32) if start >= 0
                       else (np.arange(n_ants, dtype=np.int64) % n).astype(np.int32))
        self.closed = bool(spec.closed)
        self.tpad, self.full, self.rev = walk_arrays(graph)
        self.tau = np.full(self.tpad.shape, max(self.tau0, TAU_MIN), dtype=np.float64)
        self.seeded_moves = 0
        if seed_tour is not None:
            amount = (self.q if seed_amount is None
                      else check_real("seed_amount", seed_amount, 0.0, AMOUNT_MAX, method=method))
            src, mv = seed_moves(graph, seed_tour, method)
            np.add.at(self.tau, (src, mv), amount)
            self.seeded_moves = int(src.size)
        self.weight = self.tau if self.alpha == 1.0 else np.empty_like(self.tau)
        if self.alpha != 1.0:
            K.powers_alpha(self.tau, self.weight, self.alpha, TAU_MIN)
        self.seed = resolve_seed(seed)
        self.rng = seed_state(self.seed)
        self.counts = np.zeros(5, dtype=np.int64)
        self.most = chunk_cycles(n, n_ants)
        self.done = 0

    @property
    def n_ants(self) -> int:
        return int(self.starts.size)

    def pheromone(self) -> np.ndarray:
        """The trails, ``(n, k)`` like ``graph.table``."""
        return self.tau[:, : self.graph.table.shape[1]].copy()

    def run(self, n_cycles: int, out: np.ndarray, first_only: bool) -> tuple[int, int]:
        done, n_out = K.aco_cycles(self.tpad, self.full, self.rev, self.tau, self.weight, self.alpha, self.rho,
                                   self.q, TAU_MIN, self.starts, n_cycles, self.rng, self.closed, self.end,
                                   first_only, out, self.counts)
        self.done += done
        return done, n_out

    def stats(self, cycles_run: int) -> dict:
        walks, complete, closed, matched, steps = (int(v) for v in self.counts)
        out = {
            "cycles": cycles_run,
            "ants_per_cycle": int(self.starts.size),
            "walks": walks,
            "complete": complete,
            "closed": closed,
            "production_rate": complete / walks if walks else 0.0,
            "mean_walk_moves": steps / walks if walks else 0.0,
            "rho": self.rho,
            "q": self.q,
            "alpha": self.alpha,
            "tau0": self.tau0,
        }
        if self.seeded_moves:
            out["seeded_moves"] = self.seeded_moves
        return out


# ---------------------------------------------------------------------- public
def solve_aco(graph: KnightGraph, spec: TourSpec, *, seed=None, time_limit=None, progress=None,
              cycles=None, rho=RHO, q=Q, alpha=ALPHA, tau0=TAU0, ants=None, seed_tour=None,
              seed_amount=None) -> SolveResult:
    """First tour found by Hingston & Kendall's ant colony, or ``unknown``.

    Parameters
    ----------
    graph : KnightGraph
    spec : TourSpec
        ``closed`` counts only closed tours; ``start`` puts every ant on that
        square; ``end`` keeps only tours ending there.
    seed : int, optional
        Seed of every random choice, a whole number from 0 to 2**32 - 1.  None
        draws a fresh seed; the seed used is recorded in ``result.seed``, and
        passing it again repeats the run exactly.
    time_limit : float, optional
        Seconds; the clock is read between chunks of cycles (about 50 ms).
    progress : callable, optional
        ``progress(cycles_done, cycles)``.
    cycles : int, optional
        Budget in cycles; default :func:`default_cycles` (1,000 up to 1,000
        squares, fewer on bigger boards).
    rho, q, alpha, tau0 : float
        Evaporation in [0, 1), deposit scale in (0, 1e6], trail exponent in
        [0, 20], initial trail in (0, 1e6] (the paper's 0.25, 1.0, 1.0, 1e-6).
    ants : int, optional
        Ants per cycle, 1 to 100,000; default one per square.  Without a
        fixed start, ant ``a`` starts on square ``a mod N``.
    seed_tour : Tour or int array, optional
        A tour (or several, as rows of a 2-D array) along whose moves
        ``seed_amount`` extra pheromone is laid before the first cycle.
    seed_amount : float, optional
        Pheromone added on each seed move, in [0, 1e6]; default ``q`` (one
        full tour's deposit).

    Returns
    -------
    SolveResult
        ``found`` with the tour, or ``unknown`` when the budget ran out;
        ``stats`` has ``cycles``, ``walks``, ``complete``, ``closed``,
        ``production_rate`` and ``walks_to_first`` (walks up to and including
        the one that found the tour).  Ctrl-C ends the run with ``unknown``
        and ``stats["interrupted"]``.

    Notes
    -----
    A cycle costs about ``N * L`` steps of 8 checks each, ``L`` the mean walk
    length.  An ant colony proves nothing: on a board without a tour it ends
    in ``unknown``.

    Examples
    --------
    >>> from ktsolve import Board
    >>> res = solve_aco(KnightGraph(Board(5, 5)), TourSpec(start=(0, 0)), seed=1, cycles=200)
    >>> res.status.value, res.seed, len(res.tour)
    ('found', 1, 25)
    """
    col = _Colony(graph, spec, cycles=cycles, rho=rho, q=q, alpha=alpha, tau0=tau0, ants=ants,
                  seed_tour=seed_tour, seed_amount=seed_amount, seed=seed)
    return colony_solve(col, graph, spec, time_limit=time_limit, progress=progress)


def enumerate_aco(graph: KnightGraph, spec: TourSpec, *, cycles=None, seed=None, time_limit=None,
                  progress=None, rho=RHO, q=Q, alpha=ALPHA, tau0=TAU0, ants=None, seed_tour=None,
                  seed_amount=None) -> Enumeration:
    """Run the colony for ``cycles`` cycles and keep every distinct complete tour.

    Parameters are those of :func:`solve_aco`.  With ``spec.closed`` only
    closed tours are kept; ``complete`` and ``production_rate`` still count
    every complete walk.

    Parameters
    ----------
    seed : int, optional
        Seed of every random choice, a whole number from 0 to 2**32 - 1.  None
        draws a fresh seed; the seed used is recorded in ``result.seed``, and
        passing it again repeats the run exactly.

    Returns
    -------
    Enumeration
        ``stats``: ``walks``, ``complete``, ``closed``, ``distinct``,
        ``production_rate`` (complete tours per walk), ``distinct_rate``
        (distinct kept tours per walk), ``cycles``, ``stopped`` (``"cycles"``,
        ``"time limit"`` or ``"interrupted"``: Ctrl-C keeps the tours found so
        far), and the bias measures ``start_squares``,
        ``tours_per_start_min``, ``tours_per_start_max``, ``closed_tours``,
        ``closed_share`` and ``closed_cycles``
        (:func:`~ktsolve.heuristics._colony.bias_stats`).

    Examples
    --------
    >>> from ktsolve import Board
    >>> res = enumerate_aco(KnightGraph(Board(5, 5)), TourSpec(), cycles=50, seed=2)
    >>> res.stats["distinct"] == len(res.tours) > 0, res.stats["start_squares"] <= 25
    (True, True)
    """
    col = _Colony(graph, spec, cycles=cycles, rho=rho, q=q, alpha=alpha, tau0=tau0, ants=ants,
                  seed_tour=seed_tour, seed_amount=seed_amount, seed=seed)
    return colony_enumerate(col, graph, spec, "aco", time_limit=time_limit, progress=progress)
