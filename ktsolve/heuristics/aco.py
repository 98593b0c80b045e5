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

Randomness comes from a SplitMix64 generator whose one-word state is an
explicit array carried from kernel call to kernel call, seeded with the run's
seed: a run is reproducible whatever the chunking, and a draw costs a few
nanoseconds where numba's global ``np.random`` (thread-local state) costs
about 15 on our machine.  An
ant draws one uniform ``u`` at every step with two or more candidates (none
when the move is forced) and takes the first candidate, in move order, whose
running weight sum exceeds ``u * total``; the tests replay runs exactly in
plain Python.  Each square keeps the bit set of its moves to unvisited
squares, updated as the ant enters squares, so a step reads one byte instead
of eight neighbours.

References
----------
P. Hingston and G. Kendall, "Ant colonies discover knight's tours", AI 2004:
Advances in Artificial Intelligence, LNCS 3339, Springer 2004.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..checks import check_int, check_real
from ..graph import KnightGraph
from ..seeds import resolve_seed
from ..result import Enumeration, SolveResult
from ..tour import TourSpec
from ._colony import (
    chunk_cycles,
    colony_enumerate,
    colony_solve,
    seed_moves,
    seed_state,
    spec_squares,
    walk_arrays,
)

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


def default_cycles(n: int) -> int:
    """The default budget: 1,000 cycles, fewer on big boards (about 10^9 ant steps at most).

    Examples
    --------
    >>> default_cycles(64), default_cycles(10_000)
    (1000, 10)
    """
    return int(max(10, min(1000, 10**9 // max(1, n * n))))


# ---------------------------------------------------------------------- kernels
# _uniform and _walk are kept identical in aco.py and iaco.py (numba's cache
# sees one file only); tests/naive_colonies.py replays both exactly.
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
def _walk(tpad, full, rev, weight, start, avail, path, moves, cum, rng):
    """One ant from ``start``; fills ``path[0..L]`` and ``moves[0..L-1]``, returns ``L``.

    ``tpad`` is the move table padded to 8 columns with ``n`` (a sentinel
    square) wherever there is no move; ``avail[s]`` is the bit set of moves
    from ``s`` to unvisited squares, reset from ``full`` and updated as
    squares are entered (``rev[j]`` is the move that undoes move ``j``).
    Every weight must be positive.  With two or more candidates one uniform
    ``u`` is drawn and the first move (in move order) whose running weight
    sum exceeds ``u * total`` is taken; a forced move draws nothing.
    """
    avail[:] = full
    s = start
    path[0] = s
    length = 0
    while True:
        for j in range(8):
            avail[tpad[s, j]] &= ~np.uint8(1 << rev[j])
        av = avail[s]
        if av == 0:
            break
        if av & (av - np.uint8(1)) == 0:
            # one candidate: a forced move, no draw
            c = 0
            while (av >> c) & 1 == 0:
                c += 1
        else:
            tot = 0.0
            for j in range(8):
                tot += weight[s, j] * ((av >> j) & 1)
                cum[j] = tot
            r = _uniform(rng) * tot
            c = 0
            for j in range(8):
                c += cum[j] <= r
            if c >= 8:  # cannot happen with positive weights (u < 1); kept as a guard
                c = 7
                while (av >> c) & 1 == 0:
                    c -= 1
        moves[length] = c
        s = tpad[s, c]
        length += 1
        path[length] = s
    return length


@njit(cache=True)
def _is_closed(tpad, first, last):
    for j in range(8):
        if tpad[last, j] == first:
            return True
    return False


@njit(cache=True)
def _aco_cycles(tpad, full, rev, tau, weight, alpha, rho, q, tau_min, starts, n_cycles, rng,
                want_closed, end, first_only, out, counts):
    """Run up to ``n_cycles`` cycles; trails in ``tau`` (and ``weight``) are updated in place.

    ``weight`` is ``tau ** alpha`` (the same array as ``tau`` when alpha is 1).
    ``rng`` (one uint64) is the generator's state, carried from call to call,
    so a run does not depend on how it is cut into calls.  Complete walks
    that match the request (closed if ``want_closed``, ending on ``end`` if
    ``end >= 0``) are copied into the rows of ``out``; with ``first_only``
    the call returns at the first one.  ``counts`` (int64) accumulates walks,
    complete walks, closed complete walks, matching walks and the sum of walk
    lengths.  Returns ``(cycles completed, rows of out used)``; a call stops
    early, at a cycle boundary, when ``out`` could not hold another cycle's
    worth of tours.
    """
    n = tpad.shape[0]
    k = 8
    avail = np.empty(n + 1, np.uint8)
    path = np.empty(n, np.int32)
    moves = np.empty(max(n - 1, 1), np.int32)
    cum = np.empty(k, np.float64)
    delta = np.zeros((n, k), np.float64)
    n_ants = starts.shape[0]
    cap = out.shape[0]
    keep = 1.0 - rho
    # q / (n - 1 - i): the deposit per unit of walk left after move i, divided once here
    share = np.empty(max(n - 1, 1), np.float64)
    for i in range(n - 1):
        share[i] = q / (n - 1 - i)
    n_out = 0
    for c in range(n_cycles):
        if not first_only and n_out + n_ants > cap:
            return c, n_out
        for a in range(n_ants):
            length = _walk(tpad, full, rev, weight, starts[a], avail, path, moves, cum, rng)
            counts[0] += 1
            counts[4] += length
            if length == n - 1:
                counts[1] += 1
                closed = n > 2 and _is_closed(tpad, path[0], path[length])
                if closed:
                    counts[2] += 1
                if (closed or not want_closed) and (end < 0 or path[length] == end):
                    counts[3] += 1
                    out[n_out, :] = path
                    n_out += 1
                    if first_only:
                        return c, n_out
            for i in range(length):
                delta[path[i], moves[i]] += (length - i) * share[i]
        for s in range(n):
            for j in range(k):
                v = keep * tau[s, j] + delta[s, j]
                if v < tau_min:
                    v = tau_min
                tau[s, j] = v
                delta[s, j] = 0.0
        if alpha != 1.0:
            for s in range(n):
                for j in range(k):
                    w = tau[s, j] ** alpha
                    weight[s, j] = w if w > tau_min else tau_min
    return n_cycles, n_out


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
        self.q = check_real("q", q, 0.0, lo_open=True, method=method)
        self.alpha = check_real("alpha", alpha, 0.0, method=method)
        self.tau0 = check_real("tau0", tau0, 0.0, lo_open=True, method=method)
        start, self.end = spec_squares(graph, spec)
        n_ants = n if ants is None else check_int("ants", ants, 1, method=method)
        self.starts = (np.full(n_ants, start, np.int32) if start >= 0
                       else (np.arange(n_ants, dtype=np.int64) % n).astype(np.int32))
        self.closed = bool(spec.closed)
        self.tpad, self.full, self.rev = walk_arrays(graph)
        self.tau = np.full(self.tpad.shape, max(self.tau0, TAU_MIN), dtype=np.float64)
        self.seeded_moves = 0
        if seed_tour is not None:
            amount = self.q if seed_amount is None else check_real("seed_amount", seed_amount, 0.0, method=method)
            src, mv = seed_moves(graph, seed_tour, method)
            np.add.at(self.tau, (src, mv), amount)
            self.seeded_moves = int(src.size)
        self.weight = self.tau if self.alpha == 1.0 else np.maximum(self.tau ** self.alpha, TAU_MIN)
        self.seed = resolve_seed(seed)
        self.rng = seed_state(self.seed)
        self.counts = np.zeros(5, dtype=np.int64)
        self.chunk = chunk_cycles(n, n_ants)

    @property
    def n_ants(self) -> int:
        return int(self.starts.size)

    def pheromone(self) -> np.ndarray:
        """The trails, ``(n, k)`` like ``graph.table``."""
        return self.tau[:, : self.graph.table.shape[1]].copy()

    def run(self, n_cycles: int, out: np.ndarray, first_only: bool) -> tuple[int, int]:
        return _aco_cycles(self.tpad, self.full, self.rev, self.tau, self.weight, self.alpha, self.rho,
                           self.q, TAU_MIN, self.starts, n_cycles, self.rng, self.closed, self.end,
                           first_only, out, self.counts)

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
        Seed of every random choice (taken modulo 2**64).
        None draws a fresh one.
    time_limit : float, optional
        Seconds; the clock is read between chunks of cycles (tens of ms).
    progress : callable, optional
        ``progress(cycles_done, cycles)``.
    cycles : int, optional
        Budget in cycles; default :func:`default_cycles` (1,000 up to 1,000
        squares, fewer on bigger boards).
    rho, q, alpha, tau0 : float
        Evaporation, deposit scale, trail exponent, initial trail (the
        paper's 0.25, 1.0, 1.0, 1e-6).
    ants : int, optional
        Ants per cycle; default one per square.  Without a fixed start, ant
        ``a`` starts on square ``a mod N``.
    seed_tour : Tour or int array, optional
        A tour (or several, as rows of a 2-D array) along whose moves
        ``seed_amount`` extra pheromone is laid before the first cycle.
    seed_amount : float, optional
        Pheromone added on each seed move; default ``q`` (one full tour's deposit).

    Returns
    -------
    SolveResult
        ``found`` with the tour, or ``unknown`` when the budget ran out;
        ``stats`` has ``cycles``, ``walks``, ``complete``, ``closed``,
        ``production_rate`` and ``walks_to_first`` (walks up to and including
        the one that found the tour).

    Notes
    -----
    A cycle costs about ``N * L`` steps of 8 checks each, ``L`` the mean walk
    length.  An ant colony proves nothing: on a board without a tour it ends
    in ``unknown``.
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

    Returns
    -------
    Enumeration
        ``stats``: ``walks``, ``complete``, ``closed``, ``distinct``,
        ``production_rate`` (complete tours per walk), ``distinct_rate``
        (distinct kept tours per walk), ``cycles``, ``stopped``.
    """
    col = _Colony(graph, spec, cycles=cycles, rho=rho, q=q, alpha=alpha, tau0=tau0, ants=ants,
                  seed_tour=seed_tour, seed_amount=seed_amount, seed=seed)
    return colony_enumerate(col, graph, spec, "aco", time_limit=time_limit, progress=progress)

