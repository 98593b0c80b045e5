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

Examples
--------
>>> from ktsolve import Board, KnightGraph, TourSpec
>>> res = solve_neural(KnightGraph(Board(6, 6)), TourSpec(closed=True), seed=5)
>>> res.status.value, res.tour.closed, res.stats["tour_source"]
('found', True, 'network')
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from .. import jit
from ..checks import check_int, check_real
from ..driver import Stopped, begin, drive, interrupt_guard, phase
from ..errors import UnsupportedError
from ..graph import KnightGraph
from ..result import SolveResult, Status
from ..seeds import derive_seeds, seed_doc
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
    "warm",
    "MAX_SWEEPS",
    "MAX_ATTEMPTS",
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

    Examples
    --------
    >>> RULES["sequential"].describe()
    'U += 4 - S - 2V, random'
    >>> NeuralRule(3, 1, "sync").label
    '3,1,sync'
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


# ---------------------------------------------------------------------- kernels
from ._neural_net import NeuralNet, neural_net  # noqa: E402 - the edge arrays the kernels read
from ._params import Param, Params, Range, described, flag, real, whole  # noqa: E402 - beside the kernels
from ._neural_kernels import (  # noqa: E402 - the kernels live in a file of their own
    _advance,
    _begin,
    _count_cycles,
    _edge_of,
    _merge_cycles,
    _settle,
    _stable,
    _sweep,
)


def _attempt(ea, eb, eid, a, b, mode, p_on, max_sweeps, clamp, U, V, dv, order, newv, mark, rng):
    """One whole attempt from numba's generator as the caller seeded it: (outcome, sweeps)."""
    _begin(ea, eb, p_on, clamp, U, V, dv, order, rng)
    ran, out = _settle(ea, eb, eid, a, b, mode, clamp, U, V, dv, order, newv, mark, rng, max_sweeps)
    return (_NONCONV, max_sweeps) if out < 0 else (out, ran)


class _Attempts:
    """The work arrays of attempts on one network, and the kernels' calls with them.

    ``advance(budget)`` runs sweeps of the attempts of ``seeds`` in order
    (see :func:`_advance`), repairs multi-cycle fixed points when asked, and
    keeps the counts; a run is the same however its sweeps are cut.
    """

    def __init__(self, net, rule: NeuralRule, p_on: float, max_sweeps: int, clamp, stop_first: bool,
                 repair: bool):
        E, n = net.ea.size, net.table.shape[0]
        self.net, self.rule, self.p_on, self.max_sweeps, self.clamp = net, rule, float(p_on), int(max_sweeps), clamp
        self.stop_first, self.repair = bool(stop_first), bool(repair)
        self.counts = np.zeros(len(_COUNTERS), dtype=np.int64)
        self.tour_V = np.zeros(E, dtype=np.int32)
        self.repaired_V = np.zeros(E, dtype=np.int32)
        self.found = np.array([-1, -1], dtype=np.int64)  # first pure tour, first repaired one (attempt numbers)
        self.U = np.zeros(E, dtype=np.int32)
        self.V = np.zeros(E, dtype=np.int32)
        self.newv = np.zeros(E, dtype=np.int32)
        self.order = np.zeros(E, dtype=np.int32)
        self.dv = np.zeros(n, dtype=np.int32)
        self.mark = np.zeros(n, dtype=np.int32)
        self.nb2 = np.zeros((n, 2), dtype=np.int32)
        self.comp = np.zeros(n, dtype=np.int32)
        self.rng = np.zeros(1, dtype=np.uint64)
        self.st = np.zeros(3, dtype=np.int64)
        self.stop = np.zeros(4, dtype=np.int64)
        self.stop[_TOUR] = int(self.stop_first)
        self.stop[_MULTI] = int(self.repair)
        self.seeds = np.zeros(0, dtype=np.int64)
        self.base = 0  # attempt number of seeds[0]

    def feed(self, seeds, base: int) -> None:
        """The next attempts' seeds; ``base`` is the attempt number of the first."""
        self.seeds = np.asarray(seeds, dtype=np.int64)
        self.base = int(base)
        self.st[0] = 0
        self.st[1] = 0

    @property
    def attempts(self) -> int:
        """Attempts finished (of every batch fed so far)."""
        return self.base + int(self.st[0])

    @property
    def exhausted(self) -> bool:
        return int(self.st[0]) >= self.seeds.size

    @property
    def finished(self) -> bool:
        """A tour was found and the run stops at the first."""
        return self.stop_first and (self.found[0] >= 0 or (self.repair and self.found[1] >= 0))

    def advance(self, budget: int) -> int:
        """At most ``budget`` sweeps (at least one); returns the sweeps run."""
        net, r = self.net, self.rule
        local = np.array([-1 if self.found[0] < 0 else 0], dtype=np.int64)  # 0: tour_V is taken
        ran = int(_advance(net.eid, net.ea, net.eb, r.a, r.b, MODES[r.mode], self.p_on, self.max_sweeps,
                           self.clamp, self.seeds, self.stop, self.counts, self.tour_V, local, self.U, self.V,
                           self.dv, self.order, self.newv, self.mark, self.rng, self.st, int(budget)))
        if self.found[0] < 0 and local[0] >= 0:
            self.found[0] = self.base + int(local[0])
        if self.st[2] == _MULTI and self.repair:
            if _merge_cycles(net.table, net.eid, net.ea, net.eb, self.V, self.clamp, self.nb2, self.comp):
                self.counts[4] += 1
                if self.found[1] < 0:
                    self.found[1] = self.attempts - 1
                    self.repaired_V[:] = self.V
        return max(ran, 1)


class _Arrays:
    """The arrays of a :class:`NeuralNet` that the kernels read."""

    def __init__(self, table, eid, ea, eb):
        self.table, self.eid, self.ea, self.eb = table, eid, ea, eb


_MODE_NAMES = {code: name for name, code in MODES.items()}


def _run(table, eid, ea, eb, a, b, mode, p_on, max_sweeps, clamp, seeds, stop_first, repair,
         counts, tour_V, repaired_V, found):
    """Attempts with seeds ``seeds`` run to the end; returns how many ran.

    ``counts`` accumulates tours, multi-cycle, other fixed points,
    non-converged, repaired and sweeps.  ``found[0]`` / ``found[1]`` hold the
    index (within ``seeds``) of the first pure / repaired tour, whose outputs
    go to ``tour_V`` / ``repaired_V``; -1 when none.  With ``stop_first`` the
    run ends after the first tour (pure, or repaired when ``repair``).  The
    whole-batch form of :class:`_Attempts`, for tests and callers without a
    clock.
    """

    net = _Arrays(table, eid, ea, eb)
    run = _Attempts(net, NeuralRule(int(a), int(b), _MODE_NAMES[int(mode)]), p_on, max_sweeps, clamp, stop_first,
                    repair)
    run.counts = counts
    run.tour_V, run.repaired_V = tour_V, repaired_V
    run.found[:] = found
    run.feed(seeds, 0)
    while not run.exhausted and not run.finished:
        run.advance(1 << 40)
    found[:] = run.found
    return run.attempts


# ---------------------------------------------------------------------- drivers
def merge_cycles(graph: KnightGraph, V, clamp=None) -> np.ndarray | None:
    """Join the cycles of a 2-factor (outputs ``V`` per edge of :class:`NeuralNet`) into one.

    Returns the new outputs, or None when no exchange joins the cycles.

    Examples
    --------
    >>> from ktsolve import Board
    >>> g = KnightGraph(Board(6, 6))
    >>> V = sample_neural(g, 40, seed=6)["tour_V"]   # one cycle already: nothing to merge
    >>> bool((merge_cycles(g, V) == V).all())
    True
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


#: Largest ``max_sweeps`` (an attempt that has not settled after this many sweeps never will).
MAX_SWEEPS = 10_000_000
#: Largest ``attempts``.
MAX_ATTEMPTS = 10**12
#: Largest absolute value of a rule's constants ``a`` and ``b``.
MAX_WEIGHT = 64
#: Attempt seeds are derived in blocks of this many.
_SEED_BLOCK = 4096


def _prepare(graph: KnightGraph, spec: TourSpec, rule, p_on, max_sweeps):
    r = _as_rule(rule)
    for name, value in (("a", r.a), ("b", r.b)):
        check_int(f"the rule's {name}", value, -MAX_WEIGHT, MAX_WEIGHT, method="neural")
    p_on = check_real("p_on", p_on, 0.0, 1.0, method="neural")
    max_sweeps = check_int("max_sweeps", max_sweeps, 1, MAX_SWEEPS, method="neural")
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
    return r, net, clamp, reason, p_on, max_sweeps


def _warm_calls(repair: bool) -> None:
    from ..board import Board

    g = KnightGraph(Board(6, 6))
    net = neural_net(g)
    run = _Attempts(net, RULES[DEFAULT_RULE], 0.5, 50, np.zeros(net.n_edges, dtype=np.int32), False, repair)
    run.feed(derive_seeds(1, _STREAM, 0, 8), 0)
    while not run.exhausted:
        run.advance(1000)
    if repair:
        V = np.zeros(net.n_edges, dtype=np.int32)
        _merge_cycles(net.table, net.eid, net.ea, net.eb, V, run.clamp, run.nb2, run.comp)


def warm(repair: bool = True) -> float:
    """Compile (or load from numba's cache) the network's kernels; the seconds spent compiling.

    ``repair=False`` leaves out the cycle-merging kernel, which only
    ``repair=True`` runs use (``ktsolve warm`` prepares both).

    Examples
    --------
    >>> warm() >= 0.0
    True
    """
    seconds = jit.prepare("neural", lambda: _warm_calls(False), (_advance,))
    if repair:
        seconds += jit.prepare("neural repair", lambda: _warm_calls(True), (_merge_cycles,))
    return seconds


@seed_doc
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
    seed: int | None = None,
) -> dict:
    """Run ``attempts`` attempts of the network and count their outcomes.

    Parameters
    ----------
    graph : KnightGraph
    attempts : int
        Number of random starts, 0 to :data:`MAX_ATTEMPTS`.
    rule : str, NeuralRule or (a, b, mode)
        ``"sequential"`` (default), ``"seed"``, ``"paper"``, or any rule
        whose ``a`` and ``b`` lie within ``±`` :data:`MAX_WEIGHT`.
    p_on : float
        Probability that a neuron starts on.
    max_sweeps : int
        Sweeps before an attempt counts as non-converged, 1 to :data:`MAX_SWEEPS`.
    repair : bool
        Try to merge the cycles of multi-cycle fixed points (counted apart).
    spec : TourSpec, optional
        Only its ``start``/``end`` matter: with both, the edge between them is clamped on.
    time_limit : float, optional
        Seconds for the whole call; an attempt stops between two sweeps.
    stop_first : bool
        Stop at the first tour.
    progress : callable, optional
        ``progress(done, attempts)``.
    %(seed)s
        Here the result is the returned dict and the seed its ``"seed"``;
        attempt ``i`` draws from ``derive_seed(seed, _STREAM, i)``, so a run
        does not depend on how its sweeps were cut into chunks.

    Returns
    -------
    dict
        ``attempts``, the counts of :data:`OUTCOMES`, ``repaired``,
        ``sweeps`` (total), ``tour_rate``, ``elapsed``, ``attempts_per_s``,
        ``seed``, ``interrupted``, and ``tour_V`` / ``repaired_V`` (outputs
        of the first tour of each kind, or None) with ``first_tour`` /
        ``first_repaired`` (attempt numbers, or None).

    Examples
    --------
    >>> from ktsolve import Board
    >>> st = sample_neural(KnightGraph(Board(6, 6)), 20, seed=4)
    >>> st["attempts"], st["tours"] + st["multi_cycle"] + st["other_fixed"] + st["non_converged"]
    (20, 20)
    """
    attempts = check_int("attempts", attempts, 0, MAX_ATTEMPTS, method="neural")
    spec = spec or TourSpec(closed=True)
    deadline, seed = begin(time_limit, seed)
    t0 = time.perf_counter()
    interrupted = False
    with interrupt_guard():
        try:
            graph.build(deadline)
            r, net, clamp, reason, p_on, max_sweeps = _prepare(graph, spec, rule, p_on, max_sweeps)
            if reason is None and net.n_edges == 0:
                reason = "the board has no knight's move"
            run = _Attempts(net, r, p_on, max_sweeps, clamp, stop_first, repair)
            if reason is None and attempts > 0:
                deadline.extend(warm(repair=bool(repair)))  # a first-run compile is not the search's time

                def step(k):
                    if run.exhausted:
                        base = run.attempts
                        run.feed(derive_seeds(seed, _STREAM, base, min(_SEED_BLOCK, attempts - base)), base)
                    ran = run.advance(k)
                    return ran, run.finished or (run.exhausted and run.attempts >= attempts)

                phase(progress, "neural: attempts", attempts)
                outcome = drive(step, units=None, deadline=deadline, progress=progress, first=16,
                                position=lambda done: (run.attempts, attempts))
                interrupted = outcome.interrupted
        except Stopped as stop:
            if stop.interrupted:
                interrupted = True
            r = _as_rule(rule)
            run = None
            reason = stop.describe()
    elapsed = time.perf_counter() - t0
    counts = run.counts if run is not None else np.zeros(len(_COUNTERS), dtype=np.int64)
    done = run.attempts if run is not None else 0
    found = run.found if run is not None else np.array([-1, -1])
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
        first_tour=int(found[0]) if found[0] >= 0 else None,
        first_repaired=int(found[1]) if found[1] >= 0 else None,
        tour_V=run.tour_V if run is not None and found[0] >= 0 else None,
        repaired_V=run.repaired_V if run is not None and found[1] >= 0 else None,
        reason=reason,
        seed=seed,
        interrupted=interrupted,
    )
    return out


def _listing(graph: KnightGraph, net: NeuralNet, V: np.ndarray, spec: TourSpec) -> np.ndarray:
    """The cycle of ``V`` as a closed tour listed as ``spec`` asks."""
    b = graph.board
    s = None if spec.start is None else b.index(*spec.start)
    e = None if spec.end is None else b.index(*spec.end)
    return list_cycle(net.cycle_order(V, 0 if s is None else s), s, e)


@described(Range("other", text=" | ".join(RULES) + " | a,b,mode (like 4,2,random)"))
def _rule_check(value, name, get, ctx):
    r = _as_rule(value)
    for part, number in (("a", r.a), ("b", r.b)):
        check_int(f"the rule's {part}", number, -MAX_WEIGHT, MAX_WEIGHT, method="neural")
    return value


#: The parameters of :func:`solve_neural`, declared once: defaults, checks, and what ``ktsolve methods`` prints.
PARAMS = Params("neural", (
    Param("rule", DEFAULT_RULE, _rule_check, "str, NeuralRule or (a, b, mode)",
          "The update rule: sequential (U += 4 - S - 2V in random order), seed (U += 3 - S - V, synchronous), "
          "paper, fixed, or a,b,mode."),
    Param("attempts", 10_000, whole(1, MAX_ATTEMPTS), "int",
          "Budget of random starts (10,000 is a few seconds on 8x8 with the default rule)."),
    Param("max_sweeps", 1000, whole(1, MAX_SWEEPS), "int", "Sweeps per attempt before giving up on it."),
    Param("p_on", 0.5, real(0.0, 1.0), "float", "Probability that a neuron starts on."),
    Param("repair", False, flag, "bool",
          "Merge the cycles of multi-cycle fixed points into one tour (counted apart, as repaired)."),
))


@seed_doc
def solve_neural(
    graph: KnightGraph,
    spec: TourSpec,
    *,
    time_limit=None,
    progress=None,
    rule=DEFAULT_RULE,
    attempts: int = 10_000,
    max_sweeps: int = 1000,
    p_on: float = 0.5,
    repair: bool = False,
    seed: int | None = None,
) -> SolveResult:
    """Closed knight's tour by the Takefuji-Lee network: random starts until one converges to a tour.

    Parameters
    ----------
    graph : KnightGraph
    spec : TourSpec
        Must ask for a closed tour; ``start`` rotates the tour, ``end``
        (with ``start``) clamps the closing edge on.
    %(seed)s
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
    deadline, seed = begin(time_limit, seed)
    if not spec.closed:
        raise UnsupportedError("method 'neural' builds closed tours only; ask for a closed tour")
    for sq in (spec.start, spec.end):
        if sq is not None:
            graph.board.index(*sq)  # raises InvalidSquareError for a hole or a square off the board
    values = PARAMS.check({"rule": rule, "attempts": attempts, "max_sweeps": max_sweeps, "p_on": p_on,
                           "repair": repair}, n=graph.n)
    st = sample_neural(graph, values.attempts, rule=values.rule, p_on=values.p_on, max_sweeps=values.max_sweeps,
                       repair=values.repair,
                       spec=spec, time_limit=deadline, stop_first=True, progress=progress,
                       seed=seed)
    drop = ("tour_V", "repaired_V", "reason", "elapsed", "seed", "interrupted")
    stats = {k: v for k, v in st.items() if k not in drop}
    if st["interrupted"]:
        stats.update(reason=f"interrupted (Ctrl-C) after {st['attempts']} attempts", interrupted=True)
        return SolveResult(Status.UNKNOWN, seed=seed, stats=stats)
    V = None
    if st["tour_V"] is not None:
        V, stats["tour_source"] = st["tour_V"], "network"
    elif st["repaired_V"] is not None:
        V, stats["tour_source"] = st["repaired_V"], "repair"
    if V is not None:
        squares = _listing(graph, neural_net(graph), V, spec)
        return SolveResult(Status.FOUND, tour=Tour(graph.board, squares, closed=True), seed=seed, stats=stats)
    if st["reason"] is not None:
        stats["reason"] = st["reason"]
    elif st["attempts"] < attempts:
        stats["reason"] = f"time limit reached after {st['attempts']} attempts without a tour"
    else:
        stats["reason"] = f"no attempt of {st['attempts']} converged to a single cycle"
    return SolveResult(Status.UNKNOWN, seed=seed, stats=stats)
