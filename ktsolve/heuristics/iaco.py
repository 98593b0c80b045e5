"""Improved multi-colony ant colony for knight's tours on holed boards (Jiang, Bai & Dong).

The algorithm
-------------
Several colonies (``k = 3``) search side by side, each with its own
pheromone ``Ph`` on every ``(square, move)`` pair (the layout of the knight
graph's ``table``), all starting at 0.5.  An ant moves from ``s`` by move
``j`` to an unvisited square ``d`` with probability proportional to

    Ph[s, j] ** D

where ``D`` is the degree of ``d``.  Trails stay inside (0, 1), so the power
favours destinations of low degree, as Warnsdorff's rule does, and the trail
tempers that preference.  After a cycle, every move an ant used receives the
deposit ``C`` summed over the ants that used it (``Σ_a C``), and every trail
evaporates by ``rho``; every ``w`` cycles the colonies share what they
learnt: each trail of every colony becomes the F-mean over the colonies of
that trail,

    M_F(x_1 .. x_k) = ((x_1 ** F + ... + x_k ** F) / k) ** (1 / F),

with ``F = -inf`` the minimum (the limit of the formula), ``F = 0`` the
geometric mean and ``F = +inf`` the maximum.  Start square control puts
every ant on one square; tour type control keeps only closed tours when
closed tours are asked for.

The paper's stated values are the defaults: ``rho = 0.45``, ``C = 0.1``,
``w = 10``, ``F = -inf``, ``k = 3``, initial trail 0.5 and ``P ∝ Ph ** D``.

Readings
--------
The text admits more than one reading of three things, and each reading is
a named option, ``reading=...`` (``-p reading=...`` on the command line).
Rates are distinct tours per ant walk on 8x8 without a fixed start, at
equal walks with the plain colony of :mod:`.aco`, after 576,000 and 6.4
million walks (seed 1 unless said; ``benchmarks/bench_iaco_readings.py`` and
``benchmarks/bench_colonies.py``, recorded in ``benchmarks/results/``):

``"ant"`` (the default)
    One cycle is one ant of each colony; the ants of colony ``c`` start on
    squares 0, 1, 2, ... in turn from cycle to cycle.  ``Σ_a C`` sums over
    that one ant, so a move it used gains ``C``, and pheromone is updated
    after every walk.  This is the reading closest to Table 1 and the one
    that reproduces the figures: 0.068 distinct tours per walk after 576,000
    walks and 0.065 after 6.4 million (seeds 1 to 3 within 0.001 of these),
    against the paper's 0.0782.  The plain colony at the same walks makes
    0.043, 0.101 and 0.086 (seeds 1 to 3), then 0.106, 0.054 and 0.060: the
    improved colony is steadier but not better on average (0.065 against
    0.073 after 6.4 million walks), where the paper has it slightly better
    (0.0782 against 0.076).  The rate peaks at ``rho = 0.4`` (0.075) next to
    the paper's 0.45 (0.068) and collapses at 0.3 and below (the colony
    memorises a few walks), the shape of the paper's figure; it dips at
    ``F = 0`` (0.042) between ``F = -inf`` (0.068) and ``F = +inf``
    (0.069), the paper's dip near 0.
``"square"``
    One cycle is one ant from every square in every colony, and ``Σ_a C``
    sums over all of them.  Popular moves gain up to ``64 C`` a cycle, every
    trail sits at the clamp 0.999, ``Ph ** D`` is nearly 1 for every
    destination and the ants walk at random: 0.0008 (576,000 and 6.4
    million walks).
``"edge"``
    Cycles as in ``"square"``, but a move used by any ant of the colony
    gains ``C`` once per cycle: 0.043, then 0.032 (with ``F = +inf``, the
    default of earlier versions: 0.051, then 0.041; it learns fast, then
    stalls).
``"complete"``
    Cycles as in ``"square"``; only complete tours deposit: 0.63 complete
    tours per walk, but the colony repeats a few of them (0.0013, then
    0.0001 distinct).

An *attempt* is one ant walk in every reading; counting a cycle as an
attempt would multiply every rate by the ants of a cycle.

``degree`` is a fourth choice: ``"board"`` (the default) takes ``D`` as the
destination's number of neighbours on the board (holes removed), fixed for
the whole run; ``"free"`` counts only its unvisited neighbours at that
moment, which makes the ants follow Warnsdorff's rule closely (0.37, then
0.36 distinct tours per walk on 8x8, far above the paper's Table 1, and its
rate rises with ``rho`` without an optimum and shows no dip at ``F = 0``:
not the algorithm the paper measured, but the one that finds the tours of
13x13 and 15x15 boards at once, see below).

Choices where the paper is silent, made here:

* Trails are clamped to ``[0.001, 0.999]`` after every update.  The lower
  bound keeps every move possible (``0.001 ** 8 = 1e-24`` is still a
  positive weight); the upper bound keeps ``Ph ** D`` decreasing in ``D``.
* Update is synchronous: in a cycle every colony's ants walk on the trails
  of the previous cycle; deposits and evaporation come at the end of the
  cycle, then (every ``w`` cycles) the sharing.
* Powers are computed by repeated multiplication.
* Tour type control: for a closed tour from a fixed start, each ant keeps
  one neighbour of the start (in turn) for its last move, and a fixed end is
  kept for the last move too (:func:`~._colony.reserved_squares`).

Holed boards of the paper (13x13 and 15x15 with the centre removed, from
a1): with the default reading the colonies walk about 128 of 167 moves on
13x13 after 20 s and find no tour; the board degree is a fixed preference
that does not see which squares are already visited, and one walk per
colony and cycle must learn a 167-move sequence from trails alone.  With
``degree="free"`` open tours come within ten walks.  ``seed_with`` and
``local_search`` (as in :mod:`.aco`) are the other ways to large boards.

The kernels are those of :mod:`ktsolve.heuristics._colony_kernels`; the
parameters are declared once in :data:`PARAMS`, and
``tests/naive_colonies.py`` replays runs exactly in plain Python with the
same declared defaults.

References
----------
Jiang, Bai & Dong, an improved multi-colony ant colony algorithm for the
knight's tour problem on boards with holes (its Table 1: DFS 0.000003, GA
0.000642, ACO 0.076, IACO 0.0782 tours per attempt on 8x8).
"""

from __future__ import annotations

import math

import numpy as np

from ..driver import Deadline
from ..graph import KnightGraph
from ..result import Enumeration, SolveResult
from ..tour import TourSpec
from . import _colony_kernels as K
from ._colony import LOCAL_SEARCHES, Colony, default_walks, seed_with_check
from ._colony_entry import SOLVE_RETURNS, WARM_DOC, run_colony, warm_colony
from ._params import Param, Params, anything, call_doc, choice, exponent, real, whole

__all__ = [
    "solve_iaco",
    "enumerate_iaco",
    "warm",
    "f_mean",
    "default_cycles",
    "PARAMS",
    "READINGS",
    "DEGREES",
    "COLONIES",
    "TAU0",
    "DEPOSIT",
    "RHO",
    "SHARE_EVERY",
    "F",
    "TAU_LO",
    "TAU_HI",
]

#: The readings: ants a colony sends per cycle (None: one per square) and the deposit rule.
READINGS = {
    "ant": (1, K.DEPOSIT_SUM),
    "square": (None, K.DEPOSIT_SUM),
    "edge": (None, K.DEPOSIT_EDGE),
    "complete": (None, K.DEPOSIT_COMPLETE),
}
#: What ``D`` counts: the destination's neighbours on the board, or its unvisited ones.
DEGREES = ("board", "free")
#: Ranges of the parameters: every value inside keeps trails and weights finite.
COLONIES_MAX = 64
ANTS_MAX = 100_000
F_MAX = 1000.0


def default_cycles(n: int, ants: int | None = None, colonies: int | None = None) -> int:
    """The default budget in cycles: as many walks as :mod:`.aco`'s default, ``ants`` per colony (default 1).

    ``colonies`` defaults to the declared default (:data:`PARAMS`).

    Examples
    --------
    >>> default_cycles(64)
    2133333
    """
    colonies = PARAMS.defaults["colonies"] if colonies is None else colonies
    return max(1, default_walks(n) // ((1 if ants is None else ants) * colonies))


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


#: The parameters of :func:`solve_iaco` and :func:`enumerate_iaco`, declared once: defaults (the
#: paper's stated values where it gives them, Jiang, Bai & Dong), checks and docs.
PARAMS = Params("iaco", (
    Param("cycles", None, whole(0), "int, optional",
          "Budget in cycles; default :func:`default_cycles` (as many walks as the plain colony's default).",
          computed=lambda get, n: default_cycles(n, get("ants"), get("colonies"))),
    Param("reading", "ant", choice(READINGS), '{"ant", "square", "edge", "complete"}',
          "What one cycle is and how ``Σ_a C`` is summed (see the module notes); \"ant\" is the reading that "
          "reproduces the paper's Table 1 and figures."),
    Param("degree", "board", choice(DEGREES), '{"board", "free"}',
          "``D`` counts the destination's neighbours on the board, or its unvisited neighbours."),
    Param("colonies", 3, whole(1, COLONIES_MAX), "int", "Number of colonies, 1 to 64 (Jiang, Bai & Dong)."),
    Param("tau0", 0.5, real("tau_lo", "tau_hi"), "float",
          "Initial trail of every colony, inside the clamp (Jiang, Bai & Dong)."),
    Param("deposit", 0.1, real(0.0, 1.0), "float", "Deposit ``C`` on a used move, in [0, 1] (Jiang, Bai & Dong)."),
    Param("rho", 0.45, real(0.0, 1.0), "float", "Evaporation per cycle, in [0, 1] (Jiang, Bai & Dong)."),
    Param("share_every", 10, whole(0), "int",
          "Cycles between two sharings of the trails; 0 never shares (Jiang, Bai & Dong)."),
    Param("f", -math.inf, exponent(F_MAX), "float",
          "Exponent of the F-mean used for sharing, in [-1000, 1000] or an infinity: ``float(\"-inf\")`` "
          "the minimum (Jiang, Bai & Dong), 0 the geometric mean, 1 the arithmetic mean, ``float(\"inf\")`` "
          "the maximum."),
    Param("tau_lo", 0.001, real(0.0, 1.0, lo_open=True, hi_open=True), "float",
          "Lower end of the clamp of every trail, inside (0, 1) (our clamp of the paper's (0, 1))."),
    Param("tau_hi", 0.999, real("tau_lo", 1.0, hi_open=True), "float",
          "Upper end of the clamp of every trail, in [tau_lo, 1)."),
    Param("ants", None, whole(1, ANTS_MAX), "int, optional",
          "Ants per colony and cycle, 1 to 100,000; default that of the reading (1, or one per square).  "
          "Without a fixed start, ant ``a`` of cycle ``c`` starts on square ``(c * ants + a) mod N``.",
          computed=lambda get, n: READINGS[get("reading")][0] or n),
    Param("seed_tour", None, anything, "Tour or int array, optional",
          "A path (or several) whose moves start with trail ``seed_amount`` in every colony."),
    Param("seed_amount", None, real("tau_lo", "tau_hi"), "float, optional",
          "Initial trail on seed moves, inside the clamp; default ``tau_hi``.",
          computed=lambda get, n: get("tau_hi")),
    Param("seed_with", "none", seed_with_check, '{"none", "warnsdorff", "exact"}',
          "Lay the first trails along Warnsdorff walks or exact tours of other boards "
          "(:mod:`ktsolve.heuristics._seeding`); never along a tour of the question.  \"none\" is the "
          "paper's algorithm."),
    Param("local_search", "none", choice(LOCAL_SEARCHES), '{"none", "rotation"}',
          "\"rotation\": after every cycle the longest walk of the cycle is extended and repaired by Posa "
          "rotations (:func:`~._colony.posa_repair`) and deposits ``C`` on its moves in every colony; a "
          "repaired tour of the request is an answer.  \"none\" is the paper's algorithm."),
))

#: The paper's stated values, the declared defaults (Jiang, Bai & Dong), and our clamp of its (0, 1).
COLONIES, TAU0, DEPOSIT, RHO, SHARE_EVERY, F, TAU_LO, TAU_HI = (
    PARAMS.defaults[k] for k in ("colonies", "tau0", "deposit", "rho", "share_every", "f", "tau_lo", "tau_hi"))


# ---------------------------------------------------------------------- set-up
class IacoColonies(Colony):
    """Checked parameters and the state of one run (trails of every colony, counts)."""

    method = "iaco"

    def __init__(self, graph: KnightGraph, spec: TourSpec, values, *, seed: int, deadline: Deadline):
        self.reading, self.degree, self.colonies = values.reading, values.degree, values.colonies
        self.deposit_mode = READINGS[self.reading][1]
        super().__init__(graph, spec, values, colonies=self.colonies, seed=seed)
        n = self.n
        self.cycles = values.cycles
        self.tau_lo, self.tau_hi, self.tau0 = values.tau_lo, values.tau_hi, values.tau0
        self.deposit, self.rho, self.share_every, self.f = values.deposit, values.rho, values.share_every, values.f
        self.deg = np.zeros(n + 1, dtype=np.int32)
        self.deg[:n] = graph.degree
        self.tau = np.full((self.colonies, n, 8), self.tau0, dtype=np.float64)
        self.seed_trails(values, deadline)

    def _lay(self, squares, moves, amount) -> None:
        self.tau[:, squares, moves] = amount

    def _deposit(self, squares, moves, length) -> None:
        self.tau[:, squares, moves] = np.minimum(self.tau[:, squares, moves] + self.deposit, self.tau_hi)

    def pheromone(self) -> np.ndarray:
        """The trails, ``(colonies, n, k)``."""
        return self.tau[:, :, : self.graph.table.shape[1]].copy()

    def _cycles(self, n_cycles: int, out: np.ndarray, first_only: bool) -> tuple[int, int]:
        reals, ints = K.bundle(K.IACO_REALS, rho=self.rho, deposit=self.deposit, tau_lo=self.tau_lo, tau_hi=self.tau_hi,
                               f=self.f, ants=self.ants, cycle0=self.done, cycles=n_cycles, closed=self.closed,
                               end=self.end, first_only=first_only, share_every=self.share_every,
                               deposit_mode=self.deposit_mode, dynamic=self.degree == "free")
        return K.iaco_cycles(self.tpad, self.full, self.rev, self.deg, self.tau, reals, ints, self.starts,
                             self.reserve, self.rng, out, self.counts, self.best, self.best_len)

    def stats(self, cycles_run: int) -> dict:
        out = self.base_stats(cycles_run)
        out.update({"reading": self.reading, "degree": self.degree, "colonies": self.colonies, "tau0": self.tau0,
                    "deposit": self.deposit, "rho": self.rho, "share_every": self.share_every, "f": self.f})
        return out


# ---------------------------------------------------------------------- public
def warm(*, local_search: str = "rotation", seed_with: str = "warnsdorff") -> float:
    return warm_colony("iaco", solve_iaco, enumerate_iaco, local_search=local_search, seed_with=seed_with)


warm.__doc__ = WARM_DOC


def solve_iaco(graph: KnightGraph, spec: TourSpec, *, time_limit=None, progress=None, seed=None,
               **params) -> SolveResult:
    return run_colony(IacoColonies, PARAMS, warm, graph, spec, time_limit=time_limit, progress=progress, seed=seed,
                      params=params)


def enumerate_iaco(graph: KnightGraph, spec: TourSpec, *, time_limit=None, progress=None, seed=None,
                   **params) -> Enumeration:
    return run_colony(IacoColonies, PARAMS, warm, graph, spec, time_limit=time_limit, progress=progress, seed=seed,
                      params=params, enumerate_as="iaco")


_SHARED = call_doc(
    "``closed`` keeps only closed tours (tour type control); ``start`` puts every ant on that square (start "
    "square control); ``end`` keeps only tours ending there.  A fixed end, and for a closed tour from a fixed "
    "start a neighbour of the start, is kept for each ant's last move (:func:`~._colony.reserved_squares`).",
    "cycles")

PARAMS.declare(solve_iaco, shared=_SHARED, summary="""First tour found by the improved multi-colony ant colony, or ``unknown``.
""", rest=SOLVE_RETURNS + """.  The colonies prove
        nothing: on a board without a tour the answer is ``unknown``.
        Ctrl-C ends the run with ``unknown`` and ``stats["interrupted"]``.

    Examples
    --------
    >>> from ktsolve import Board
    >>> res = solve_iaco(KnightGraph(Board(5, 5)), TourSpec(start=(0, 0)), seed=1, degree="free")
    >>> res.status.value, res.seed, len(res.tour)
    ('found', 1, 25)
""")

PARAMS.declare(enumerate_iaco, shared=_SHARED, summary="""Run the colonies for ``cycles`` cycles and keep every distinct complete tour.
""", rest="""
    Returns
    -------
    Enumeration
        ``stats``: ``walks``, ``complete``, ``closed``, ``distinct``,
        ``production_rate`` (complete tours per walk), ``distinct_rate``,
        ``stopped`` and the bias measures of
        :func:`~ktsolve.heuristics._colony.bias_stats`.

    Examples
    --------
    >>> from ktsolve import Board
    >>> res = enumerate_iaco(KnightGraph(Board(5, 5)), TourSpec(), cycles=3000, seed=2)
    >>> res.stats["distinct"] == len(res.tours) > 0, res.stats["walks"]
    (True, 9000)
""")
