"""Takefuji-Lee neural network for closed knight's tours.

Takefuji & Lee (1992) give every knight edge of the board a hysteresis
McCulloch-Pitts neuron: an integer input ``U`` and an output ``V`` in
``{0, 1}``, with ``V = 1`` once ``U > 3``, ``V = 0`` once ``U < 0``, and ``V``
unchanged while ``0 <= U <= 3`` (the hysteresis that stops oscillation).
The edges whose neuron fires form a subgraph; the motion equation pushes
every square towards exactly two active edges.  Writing ``d(x)`` for the
number of active edges at square ``x`` and ``S = d(x) + d(y) - 2 V`` for the
sum of the outputs of the edges sharing a square with edge ``xy``, the
update of neuron ``xy`` is ::

    U += a - S - b V

* ``a = 4, b = 2`` is the paper's equation, ``U += (2 - d(x)) + (2 - d(y))``:
  zero exactly when both ends have two active edges, so the fixed points of
  ``V`` are the 2-factors of the knight graph.
* ``a = 3, b = 1`` with synchronous updates is the rule of the seed project's
  numpy prototype (rule ``"seed"``); it finds a closed 8x8 tour in well under
  one attempt in a hundred.

A run starts from random outputs (each neuron on with probability ``p_on``,
``U = 0``) and applies the rule sweep after sweep until ``V`` is a fixed
point: every active neuron has a non-negative increment and every inactive
one a non-positive increment, so no output can ever change again.  A fixed
point is a *tour* when it is a single Hamiltonian cycle, a *multi-cycle*
fixed point when it is a 2-factor of several disjoint cycles (the usual
failure the paper reports for large boards), and an *other* fixed point when
some square does not have two active edges; a run that is not stable after
``max_sweeps`` sweeps is *non-converged*.  Only single Hamiltonian cycles are
accepted as tours.  The optional repair merges the cycles of a multi-cycle
fixed point by exchanging an edge ``ab`` of one cycle and an edge ``cd`` of
another for the knight edges ``ac`` and ``bd``; its successes are counted
apart and never enter the tour rate.

Update orders (``mode``): ``"sync"`` computes every increment from the same
state, then applies them all (the parallel machine of the paper);
``"random"`` updates one neuron at a time in a fresh random order every
sweep; ``"fixed"`` one at a time in edge order (edges ``xy``, ``x < y``,
sorted by ``x`` then ``y``).

The default rule, ``"sequential"`` (``a = 4, b = 2``, random order), was
chosen by measuring the tour rate of every ``a`` in 2..5, ``b`` in 0..3 and
all three orders on 6x6 and 8x8 (``benchmarks/explore_neural_rules.py``,
results in ``benchmarks/results/neural_rules.md``): only ``a = 4, b = 2``,
whose fixed points are exactly the 2-factors, finds tours at a useful rate
(about 28% of attempts on 6x6, 23% on 8x8, 16% on 10x10 in random order,
against 0.5% for the seed's rule on 8x8).  In fixed order it reaches about
the same rate, but some attempts cycle for ever (rule ``"fixed"``);
synchronously (rule ``"paper"``) it mostly oscillates.

Holes need nothing special: their edges are simply absent.  A fixed start
is a rotation of the cycle; a fixed end is honoured by clamping the neuron
of the edge from the end back to the start on, so the closing move is that
edge.

Every attempt reseeds numba's generator from ``(seed, attempt number)``, so
a run does not depend on how the attempts were cut into chunks.

References
----------
Y. Takefuji and K. C. Lee, "Neural network computing for knight's tour
problems", Neurocomputing 4(5):249-254, 1992, doi:10.1016/0925-2312(92)90030-S.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numba import njit

from ..errors import UnsupportedError
from ..graph import KnightGraph
from ..seeds import derive_seeds
from ..result import SolveResult, Status
from ..tour import Tour, TourSpec, list_cycle

__all__ = [
    "NeuralRule",
    "RULES",
    "DEFAULT_RULE",
    "OUTCOMES",
    "NeuralNet",
    "neural_net",
    "sample_neural",
    "merge_cycles",
    "solve_neural",
]

MODES = {"sync": 0, "random": 1, "fixed": 2}

#: Outcome codes of one attempt, as the kernels return them.
OUTCOMES = ("tour", "multi_cycle", "other_fixed", "non_converged")
_TOUR, _MULTI, _OTHER, _NONCONV = 0, 1, 2, 3

#: Counters kept by the run kernel (index into the ``counts`` array).
_COUNTERS = ("tours", "multi_cycle", "other_fixed", "non_converged", "repaired", "sweeps")

_STREAM = 0x4E455552  # separates the neural network's stream from other methods'


@dataclass(frozen=True)
class NeuralRule:
    """An update rule ``U += a - S - b V`` applied in order ``mode``.

    Parameters
    ----------
    a, b : int
        The constant and the self weight of the increment.
    mode : str
        ``"sync"``, ``"random"`` or ``"fixed"`` (see the module notes).
    name : str
        A label for tables.
    """

    a: int
    b: int
    mode: str
    name: str = ""

    def __post_init__(self):
        if self.mode not in MODES:
            raise UnsupportedError(f"update order {self.mode!r} is not one of {', '.join(MODES)}")

    @property
    def label(self) -> str:
        return self.name or f"{self.a},{self.b},{self.mode}"

    def describe(self) -> str:
        return f"U += {self.a} - S - {self.b}V, {self.mode}"


#: Named rules: the seed project's prototype, the best rule measured here
#: (the default), the paper's equation run synchronously, and the same
#: equation in fixed order (a similar tour rate, but some attempts cycle
#: without converging).
RULES = {
    "seed": NeuralRule(3, 1, "sync", "seed"),
    "sequential": NeuralRule(4, 2, "random", "sequential"),
    "paper": NeuralRule(4, 2, "sync", "paper"),
    "fixed": NeuralRule(4, 2, "fixed", "fixed"),
}
DEFAULT_RULE = "sequential"


def _as_rule(rule) -> NeuralRule:
    if isinstance(rule, NeuralRule):
        return rule
    if isinstance(rule, str):
        if rule in RULES:
            return RULES[rule]
        parts = [p.strip() for p in rule.split(",")]
        if len(parts) == 3:
            try:
                return NeuralRule(int(parts[0]), int(parts[1]), parts[2])
            except ValueError:
                pass
        raise UnsupportedError(
            f"neural rule {rule!r} is neither one of {', '.join(RULES)} nor 'a,b,mode' like '4,2,random'"
        )
    if isinstance(rule, (tuple, list)) and len(rule) == 3:
        return NeuralRule(int(rule[0]), int(rule[1]), str(rule[2]))
    raise UnsupportedError(f"neural rule {rule!r} is not a rule name, 'a,b,mode' text or an (a, b, mode) tuple")


# ---------------------------------------------------------------------- the network
class NeuralNet:
    """The edge arrays of a knight graph, as the kernels want them.

    Attributes
    ----------
    ea, eb : (E,) int32
        Ends of every edge, ``ea < eb``, sorted by ``(ea, eb)``.
    eid : (n, k) int32
        ``eid[i, j]`` is the edge of move ``j`` from square ``i``, or -1.
    """

    def __init__(self, graph: KnightGraph):
        self.graph = graph
        n = graph.n
        table = np.ascontiguousarray(graph.table, dtype=np.int32)
        src = np.repeat(np.arange(n, dtype=np.int64), graph.degree)
        dst = graph.indices.astype(np.int64)
        keep = src < dst
        ea, eb = src[keep], dst[keep]
        key = ea * n + eb
        srt = np.argsort(key, kind="stable")
        ea, eb, key = ea[srt], eb[srt], key[srt]
        self.ea = ea.astype(np.int32)
        self.eb = eb.astype(np.int32)
        self.n_edges = int(ea.size)
        eid = np.full(table.shape, -1, dtype=np.int32)
        ok = table >= 0
        rows = np.broadcast_to(np.arange(n, dtype=np.int64)[:, None], table.shape)[ok]
        cols = table[ok].astype(np.int64)
        k = np.minimum(rows, cols) * n + np.maximum(rows, cols)
        eid[ok] = np.searchsorted(key, k).astype(np.int32)
        self.eid = eid
        self.table = table
        self.n = n

    def edge(self, u: int, v: int) -> int:
        """Edge number of the knight edge ``uv``, or -1."""
        row = self.table[u]
        hit = np.flatnonzero(row == v)
        return int(self.eid[u, hit[0]]) if hit.size else -1

    def cycle_order(self, V: np.ndarray, first: int = 0) -> np.ndarray:
        """Squares in cycle order from ``first`` along the active edges of a Hamiltonian cycle ``V``."""
        n = self.n
        nb = np.full((n, 2), -1, dtype=np.int64)
        fill = np.zeros(n, dtype=np.int64)
        for e in np.flatnonzero(V):
            x, y = int(self.ea[e]), int(self.eb[e])
            nb[x, fill[x]] = y
            fill[x] += 1
            nb[y, fill[y]] = x
            fill[y] += 1
        order = np.empty(n, dtype=np.int64)
        prev, cur = -1, first
        for k in range(n):
            order[k] = cur
            nxt = nb[cur, 0] if nb[cur, 0] != prev else nb[cur, 1]
            prev, cur = cur, int(nxt)
        return order


def neural_net(graph: KnightGraph) -> NeuralNet:
    """The (cached) :class:`NeuralNet` of a graph."""
    net = graph.__dict__.get("_neural_net")
    if net is None:
        net = NeuralNet(graph)
        graph.__dict__["_neural_net"] = net
    return net


# ---------------------------------------------------------------------- kernels
@njit(cache=True)
def _splitmix_below(rng, m):
    """A number in ``0..m-1`` from the SplitMix64 stream whose state is ``rng[0]``.

    The shuffles of the random update order draw from this small generator
    (seeded from numba's ``np.random`` at the start of every attempt): one
    64-bit step per position, about four times cheaper than a Mersenne
    Twister double, which dominated the cost of a sweep.
    """
    z = rng[0] + np.uint64(0x9E3779B97F4A7C15)
    rng[0] = z
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return int(((z >> np.uint64(32)) * np.uint64(m)) >> np.uint64(32))


@njit(cache=True)
def _sweep(ea, eb, U, V, dv, order, newv, clamp, a, b, mode, rng):
    """One sweep of the update rule over every free neuron; returns how many outputs changed.

    ``mode`` 0 is synchronous; 1 and 2 update neuron ``order[k]`` for ``k`` in
    turn, 1 after shuffling ``order`` (Fisher-Yates from the last position
    down to 1, swapping with ``_splitmix_below(rng, i + 1)``).
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
            j = _splitmix_below(rng, i + 1)
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


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
def _attempt(ea, eb, eid, a, b, mode, p_on, max_sweeps, clamp, U, V, dv, order, newv, mark, rng):
    """One run of the network from a random start: returns (outcome, sweeps).

    Draws from numba's generator: one ``np.random.random()`` per free
    neuron (on when below ``p_on``), then one whose 53 bits seed the
    shuffle generator ``rng``.
    """
    E = ea.size
    n = dv.size
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
    for i in range(n):
        dv[i] = 0
    for e in range(E):
        if V[e]:
            dv[ea[e]] += 1
            dv[eb[e]] += 1
    for s in range(1, max_sweeps + 1):
        _sweep(ea, eb, U, V, dv, order, newv, clamp, a, b, mode, rng)
        if _stable(ea, eb, V, dv, clamp, a, b):
            c = _count_cycles(eid, ea, eb, V, dv, mark)
            if c == 1:
                return _TOUR, s
            if c > 1:
                return _MULTI, s
            return _OTHER, s
    return _NONCONV, max_sweeps


@njit(cache=True)
def _edge_of(table, eid, u, v):
    for j in range(table.shape[1]):
        if table[u, j] == v:
            return eid[u, j]
    return -1


@njit(cache=True)
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
                exy = _edge_of(table, eid, x, y)
                if clamp[exy]:
                    continue
                for j in range(k):
                    c = table[x, j]
                    if c < 0 or comp[c] == comp[x]:
                        continue
                    for ic in range(2):
                        d = nb2[c, ic]
                        ecd = _edge_of(table, eid, c, d)
                        if clamp[ecd]:
                            continue
                        eyd = _edge_of(table, eid, y, d)
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


@njit(cache=True)
def _run(table, eid, ea, eb, a, b, mode, p_on, max_sweeps, clamp, seeds, stop_first, repair,
         counts, tour_V, repaired_V, found):
    """Attempts with seeds ``seeds``; returns how many ran.

    ``counts`` accumulates tours, multi-cycle, other fixed points,
    non-converged, repaired and sweeps.  ``found[0]`` / ``found[1]`` hold the
    index (within ``seeds``) of the first pure / repaired tour, whose outputs
    go to ``tour_V`` / ``repaired_V``; -1 when none.  With ``stop_first`` the
    run ends after the first tour (pure, or repaired when ``repair``).
    """
    E = ea.size
    n = table.shape[0]
    U = np.zeros(E, dtype=np.int32)
    V = np.zeros(E, dtype=np.int32)
    newv = np.zeros(E, dtype=np.int32)
    order = np.zeros(E, dtype=np.int32)
    dv = np.zeros(n, dtype=np.int32)
    mark = np.zeros(n, dtype=np.int32)
    nb2 = np.zeros((n, 2), dtype=np.int32)
    comp = np.zeros(n, dtype=np.int32)
    rng = np.zeros(1, dtype=np.uint64)
    for t in range(seeds.size):
        np.random.seed(seeds[t])
        out, sweeps = _attempt(ea, eb, eid, a, b, mode, p_on, max_sweeps, clamp, U, V, dv, order, newv, mark,
                               rng)
        counts[out] += 1
        counts[5] += sweeps
        if out == _TOUR:
            if found[0] < 0:
                found[0] = t
                tour_V[:] = V
            if stop_first:
                return t + 1
        elif out == _MULTI and repair:
            if _merge_cycles(table, eid, ea, eb, V, clamp, nb2, comp):
                counts[4] += 1
                if found[1] < 0:
                    found[1] = t
                    repaired_V[:] = V
                if stop_first:
                    return t + 1
    return seeds.size


# ---------------------------------------------------------------------- drivers
def merge_cycles(graph: KnightGraph, V, clamp=None) -> np.ndarray | None:
    """Join the cycles of a 2-factor (outputs ``V`` per edge of :class:`NeuralNet`) into one.

    Returns the new outputs, or None when no exchange joins the cycles.
    """
    net = neural_net(graph)
    V = np.array(V, dtype=np.int32)
    if V.shape != (net.n_edges,):
        raise ValueError(f"expected {net.n_edges} outputs, got shape {V.shape}")
    clamp = np.zeros(net.n_edges, dtype=np.int32) if clamp is None else np.asarray(clamp, dtype=np.int32)
    nb2 = np.zeros((net.n, 2), dtype=np.int32)
    comp = np.zeros(net.n, dtype=np.int32)
    ok = _merge_cycles(net.table, net.eid, net.ea, net.eb, V, clamp, nb2, comp)
    return V if ok else None


def _budget_chunks(total: int | None, time_limit: float | None, t0: float, first: int = 1):
    """Chunk sizes that double until a chunk takes about 50 ms, within ``total`` and the clock."""
    done = 0
    size = first
    while total is None or done < total:
        if time_limit is not None and time.perf_counter() - t0 >= time_limit:
            return
        k = size if total is None else min(size, total - done)
        t1 = time.perf_counter()
        yield done, k
        done += k
        if time.perf_counter() - t1 < 0.05:
            size = min(size * 2, 1 << 16)


def _prepare(graph: KnightGraph, spec: TourSpec, rule, p_on, max_sweeps):
    r = _as_rule(rule)
    if not 0.0 <= float(p_on) <= 1.0:
        raise UnsupportedError(f"p_on={p_on} is not a probability in [0, 1]")
    if int(max_sweeps) < 1:
        raise UnsupportedError(f"max_sweeps={max_sweeps} must be at least 1")
    net = neural_net(graph)
    clamp = np.zeros(net.n_edges, dtype=np.int32)
    reason = None
    if spec.start is not None and spec.end is not None:
        s = graph.board.index(*spec.start)
        e = graph.board.index(*spec.end)
        k = net.edge(s, e)
        if k < 0:
            reason = (f"{graph.name(e)} is not a knight's move from {graph.name(s)}, so no closed "
                      f"tour from {graph.name(s)} can end there")
        else:
            clamp[k] = 1
    return r, net, clamp, reason


def sample_neural(
    graph: KnightGraph,
    attempts: int,
    *,
    rule=DEFAULT_RULE,
    p_on: float = 0.5,
    max_sweeps: int = 1000,
    repair: bool = False,
    spec: TourSpec | None = None,
    time_limit: float | None = None,
    stop_first: bool = False,
    progress=None,
    seed: int | None = 0,
) -> dict:
    """Run ``attempts`` attempts of the network and count their outcomes.

    Parameters
    ----------
    graph : KnightGraph
    attempts : int
        Number of random starts.
    rule : str, NeuralRule or (a, b, mode)
        ``"sequential"`` (default), ``"seed"``, ``"paper"``, or any rule.
    p_on : float
        Probability that a neuron starts on.
    max_sweeps : int
        Sweeps before an attempt counts as non-converged.
    repair : bool
        Try to merge the cycles of multi-cycle fixed points (counted apart).
    spec : TourSpec, optional
        Only its ``start``/``end`` matter: with both, the edge between them is clamped on.
    time_limit : float, optional
        Seconds; stops between chunks of attempts.
    stop_first : bool
        Stop at the first tour.
    progress : callable, optional
        ``progress(done, attempts)``.
    seed : int, optional
        Seed of every random choice; attempt ``i`` uses its own stream, so a
        run does not depend on chunking.

    Returns
    -------
    dict
        ``attempts``, the counts of :data:`OUTCOMES`, ``repaired``,
        ``sweeps`` (total), ``tour_rate``, ``elapsed``, ``attempts_per_s``,
        and ``tour_V`` / ``repaired_V`` (outputs of the first tour of each kind, or None)
        with ``first_tour`` / ``first_repaired`` (attempt numbers, or None).
    """
    if int(attempts) < 0:
        raise UnsupportedError(f"attempts={attempts} must not be negative")
    spec = spec or TourSpec(closed=True)
    seed = 0 if seed is None else int(seed)
    r, net, clamp, reason = _prepare(graph, spec, rule, p_on, max_sweeps)
    counts = np.zeros(len(_COUNTERS), dtype=np.int64)
    tour_V = np.zeros(net.n_edges, dtype=np.int32)
    rep_V = np.zeros(net.n_edges, dtype=np.int32)
    first_tour = first_rep = None
    done = 0
    t0 = time.perf_counter()
    if reason is None and net.n_edges > 0:
        for start, k in _budget_chunks(int(attempts), time_limit, t0):
            seeds = derive_seeds(seed, _STREAM, start, k)
            found = np.array([-1, -1], dtype=np.int64)
            ran = _run(net.table, net.eid, net.ea, net.eb, r.a, r.b, MODES[r.mode], float(p_on),
                       int(max_sweeps), clamp, seeds, bool(stop_first), bool(repair),
                       counts, tour_V if first_tour is None else np.zeros_like(tour_V),
                       rep_V if first_rep is None else np.zeros_like(rep_V), found)
            if first_tour is None and found[0] >= 0:
                first_tour = start + int(found[0])
            if first_rep is None and found[1] >= 0:
                first_rep = start + int(found[1])
            done = start + ran
            if progress is not None:
                progress(done, int(attempts))
            if stop_first and (first_tour is not None or (repair and first_rep is not None)):
                break
    elif net.n_edges == 0:
        reason = "the board has no knight's move"
    elapsed = time.perf_counter() - t0
    out = {name: int(counts[i]) for i, name in enumerate(_COUNTERS)}
    out.update(
        attempts=done,
        rule=r.label,
        update=r.describe(),
        tour_rate=(out["tours"] / done) if done else 0.0,
        repaired_rate=(out["repaired"] / done) if done else 0.0,
        mean_sweeps=(out["sweeps"] / done) if done else 0.0,
        elapsed=elapsed,
        attempts_per_s=(done / elapsed) if elapsed > 0 else 0.0,
        first_tour=first_tour,
        first_repaired=first_rep,
        tour_V=tour_V if first_tour is not None else None,
        repaired_V=rep_V if first_rep is not None else None,
        reason=reason,
    )
    return out


def _listing(graph: KnightGraph, net: NeuralNet, V: np.ndarray, spec: TourSpec) -> np.ndarray:
    """The cycle of ``V`` as a closed tour listed as ``spec`` asks."""
    b = graph.board
    s = None if spec.start is None else b.index(*spec.start)
    e = None if spec.end is None else b.index(*spec.end)
    return list_cycle(net.cycle_order(V, 0 if s is None else s), s, e)


def solve_neural(
    graph: KnightGraph,
    spec: TourSpec,
    *,
    seed: int | None = None,
    time_limit: float | None = None,
    progress=None,
    rule=DEFAULT_RULE,
    attempts: int = 10_000,
    max_sweeps: int = 1000,
    p_on: float = 0.5,
    repair: bool = False,
) -> SolveResult:
    """Closed knight's tour by the Takefuji-Lee network: random starts until one converges to a tour.

    Parameters
    ----------
    graph : KnightGraph
    spec : TourSpec
        Must ask for a closed tour; ``start`` rotates the tour, ``end``
        (with ``start``) clamps the closing edge on.
    seed : int, optional
        Seed of every random choice (None means 0 when called directly;
        :func:`ktsolve.solve` draws and records one).
    time_limit : float, optional
        Seconds; the answer is ``unknown`` when it runs out.
    progress : callable, optional
        ``progress(done, attempts)``.
    rule : str, NeuralRule or (a, b, mode)
        ``"sequential"`` (default, ``U += 4 - S - 2V`` in random order),
        ``"seed"`` (``U += 3 - S - V`` synchronous), ``"paper"`` or ``"a,b,mode"``.
    attempts : int
        Budget of random starts (default 10,000: about 2,300 tours' worth on
        8x8 with the default rule, a few seconds; far longer with the seed's
        rule, whose attempts mostly run all ``max_sweeps`` sweeps).
    max_sweeps : int
        Sweeps per attempt before giving up on it (default 1000).
    p_on : float
        Probability that a neuron starts on (default 0.5).
    repair : bool
        Merge the cycles of multi-cycle fixed points into one tour; such
        tours are marked ``stats["tour_source"] == "repair"`` and counted in
        ``stats["repaired"]``, never in ``stats["tours"]``.

    Returns
    -------
    SolveResult
        ``found`` with the first tour, or ``unknown``.  ``stats``: attempts,
        tours, multi_cycle, other_fixed, non_converged, repaired, tour_rate,
        mean_sweeps, rule.

    Examples
    --------
    >>> from ktsolve import Board
    >>> res = solve_neural(KnightGraph(Board(6, 6)), TourSpec(closed=True), seed=1)
    >>> res.status.value, len(res.tour), res.stats["rule"]
    ('found', 36, 'sequential')
    """
    if not spec.closed:
        raise UnsupportedError("method 'neural' builds closed tours only; ask with --closed")
    for sq in (spec.start, spec.end):
        if sq is not None:
            graph.board.index(*sq)  # raises InvalidSquareError for a hole or a square off the board
    if int(attempts) < 1:
        raise UnsupportedError(f"attempts={attempts} must be at least 1")
    st = sample_neural(graph, attempts, rule=rule, p_on=p_on, max_sweeps=max_sweeps, repair=repair,
                       spec=spec, time_limit=time_limit, stop_first=True, progress=progress,
                       seed=seed)
    stats = {k: v for k, v in st.items() if k not in ("tour_V", "repaired_V", "reason", "elapsed")}
    net = neural_net(graph)
    V = None
    if st["tour_V"] is not None:
        V, stats["tour_source"] = st["tour_V"], "network"
    elif st["repaired_V"] is not None:
        V, stats["tour_source"] = st["repaired_V"], "repair"
    if V is not None:
        squares = _listing(graph, net, V, spec)
        return SolveResult(Status.FOUND, tour=Tour(graph.board, squares, closed=True), stats=stats)
    if st["reason"] is not None:
        stats["reason"] = st["reason"]
    elif st["attempts"] < attempts:
        stats["reason"] = f"time limit reached after {st['attempts']} attempts without a tour"
    else:
        stats["reason"] = f"no attempt of {st['attempts']} converged to a single cycle"
    return SolveResult(Status.UNKNOWN, stats=stats)

