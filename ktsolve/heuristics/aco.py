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
initial trail of ``1e-6`` on every move (Hingston & Kendall 2004), and so is
the default budget on 8x8, 100,000 cycles (6.4 million walks).  The paper
reports 488,245 distinct tours per run on average over 20 runs (0.076 per
walk), 9,192 of them closed (1.9 %).  Ours: 345,000 to 680,000 distinct
tours per run over seeds 1 to 3 (0.054 to 0.106 per walk), 30 to 43 % of
them closed.

The closed share
----------------
A tour is counted as its square sequence from its first square (directed,
start included), as the paper's rate of 0.076 implies and as
``enumerate_tours`` documents.  Shared trails favour closed tours: an ant
that starts anywhere on a closed tour's cycle can follow its trail round
and close it (the rotations of a closed tour are closed tours), while an
open tour's trail serves its own start only.  So the share of closed tours
grows with the run (17 to 22 % after 1,000 to 3,000 cycles, 30 to 43 %
after 100,000), above the 8.7 % an unbiased sampler would give (the exact
counts: 13,267,364,410,532 closed tours listed 128 ways each, among
19,591,828,170,979,904 directed tours).  Counting each closed cycle once
(``stats["closed_cycles"]``) gives 6 to 26 %.  Readings tried over 1,000 to
10,000 cycles do not reach the paper's 1.9 %: ants starting on random
squares (35 %), undirected trails (the colony collapses to 31 tours in
640,000 walks), trails per start square and deposits by complete walks
only (no tour at all).  We found no defect that explains the gap; the paper's
share is below even an unbiased sampler's, and ``ktsolve bench papers``
prints it beside ours.  ``enumerate`` reports the bias: ``start_squares``,
``tours_per_start_min``/``_max``, ``closed_share`` and ``closed_cycles``.

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
* With fewer ants than squares (``ants=``), ant ``a`` of cycle ``c`` starts
  on square ``(c * ants + a) mod N``, so the starts go round the board.
* Closed-only counting (``closed=True``) changes only which walks count as
  tours, not the deposit rule; an open tour's fixed end likewise only
  filters.  A closed tour from a fixed corner (or with a fixed end) keeps
  that square for every ant's last move, which loses no tour
  (:func:`~._colony.reserved_squares`): on 15x15 without its centre a
  closed tour from a1 then comes in about 6 s, none in 90 s without.
* The default budget is ``DEFAULT_MOVES = 2e9`` ant moves (at most 100,000
  cycles): open tours of 13x13 and 15x15 without their centre from a1 come
  after about 160,000 and 480,000 walks, past the 1,000 cycles of earlier
  versions, which is why those versions answered ``unknown`` there.

Large boards: ``seed_with="warnsdorff"|"exact"`` lays the first trails along
greedy walks or exact tours of other boards (:mod:`._seeding`), and
``local_search="rotation"`` extends and repairs each cycle's longest walk
by Posa rotations (:func:`~._colony.posa_repair`).  With both, a 40x40
board with 10 holes is closed from a1 in the first cycle, by the repair; the
ants add nothing measurable over the ``rotation`` method there.  On 200x200
with 1 % holes the repair ends 2 to 20 squares short and the answer is
``unknown`` where ``rotation`` needs well under a second
(``benchmarks/results/colony_boards.md``).

The kernels (the walk, the deposit, evaporation, the cycle loop) are those
of :mod:`ktsolve.heuristics._colony_kernels`, drawing from the shared
SplitMix64 (:mod:`ktsolve._splitmix`) seeded with the run's seed; the
parameters are declared once in :data:`PARAMS`; ``tests/naive_colonies.py``
replays runs exactly in plain Python, with the same declared defaults.

References
----------
P. Hingston and G. Kendall, "Ant colonies discover knight's tours", AI 2004:
Advances in Artificial Intelligence, LNCS 3339, Springer 2004.
"""

from __future__ import annotations

import numpy as np

from ..driver import Deadline
from ..graph import KnightGraph
from ..result import Enumeration, SolveResult
from ..tour import TourSpec
from . import _colony_kernels as K
from ._colony import LOCAL_SEARCHES, Colony, default_walks, seed_with_check
from ._colony_entry import SOLVE_RETURNS, WARM_DOC, run_colony, warm_colony
from ._params import Param, Params, anything, call_doc, choice, real, whole

__all__ = ["solve_aco", "enumerate_aco", "warm", "default_cycles", "PARAMS", "RHO", "Q", "ALPHA", "TAU0", "TAU_MIN"]

#: Floor of every trail (our choice, see the module notes).
TAU_MIN = 1e-300
#: Ranges of the parameters: wide enough for any experiment, narrow enough
#: that every trail and weight stays a finite positive number (the kernels
#: also cap them at :data:`~._colony_kernels.TAU_MAX`).
ALPHA_MAX = 20.0
AMOUNT_MAX = 1e6
ANTS_MAX = 100_000


def default_cycles(n: int, ants: int | None = None) -> int:
    """The default budget in cycles: :func:`~._colony.default_walks` walks, ``ants`` a cycle (default ``n``).

    On 8x8 that is the paper's 100,000 cycles of 64 ants.

    Examples
    --------
    >>> default_cycles(64), default_cycles(168), default_cycles(10_000)
    (100000, 70861, 20)
    """
    return max(1, default_walks(n) // (n if ants is None else ants))


#: The parameters of :func:`solve_aco` and :func:`enumerate_aco`, declared once: defaults (the
#: paper's values where it gives them, Hingston & Kendall 2004), checks and docs.
PARAMS = Params("aco", (
    Param("cycles", None, whole(0), "int, optional",
          "Budget in cycles; default :func:`default_cycles` (the paper's 100,000 on 8x8; about 2 * 10^9 ant "
          "moves at most on bigger boards).",
          computed=lambda get, n: default_cycles(n, get("ants"))),
    Param("rho", 0.25, real(0.0, 1.0, hi_open=True), "float",
          "Evaporation per cycle, in [0, 1) (Hingston & Kendall)."),
    Param("q", 1.0, real(0.0, AMOUNT_MAX, lo_open=True), "float",
          "Deposit scale, in (0, 1e6]: a complete tour lays ``q`` on each of its moves (Hingston & Kendall)."),
    Param("alpha", 1.0, real(0.0, ALPHA_MAX), "float",
          "Exponent of the trail in the move probability, in [0, 20] (Hingston & Kendall)."),
    Param("tau0", 1e-6, real(0.0, AMOUNT_MAX, lo_open=True), "float",
          "Initial trail on every move, in (0, 1e6] (Hingston & Kendall)."),
    Param("ants", None, whole(1, ANTS_MAX), "int, optional",
          "Ants per cycle, 1 to 100,000; default one per square.  Without a fixed start, ant ``a`` of cycle "
          "``c`` starts on square ``(c * ants + a) mod N``.",
          computed=lambda get, n: n),
    Param("seed_tour", None, anything, "Tour or int array, optional",
          "A path (or several, as rows of a 2-D array or a list) along whose moves ``seed_amount`` extra "
          "pheromone is laid before the first cycle."),
    Param("seed_amount", None, real(0.0, AMOUNT_MAX), "float, optional",
          "Pheromone added on each seed move, in [0, 1e6]; default ``q`` (one full tour's deposit).",
          computed=lambda get, n: get("q")),
    Param("seed_with", "none", seed_with_check, '{"none", "warnsdorff", "exact"}',
          "Lay the first trails along Warnsdorff walks or exact tours of other boards "
          "(:mod:`ktsolve.heuristics._seeding`); never along a tour of the question.  \"none\" is the "
          "paper's algorithm."),
    Param("local_search", "none", choice(LOCAL_SEARCHES), '{"none", "rotation"}',
          "\"rotation\": after every cycle the longest walk of the cycle is extended by Warnsdorff's rule and "
          "repaired by Posa rotations (:func:`~._colony.posa_repair`); the repaired walk deposits like an "
          "ant's, and a repaired tour of the request is an answer.  \"none\" is the paper's algorithm."),
))

#: The paper's values, the declared defaults (Hingston & Kendall 2004).
RHO, Q, ALPHA, TAU0 = (PARAMS.defaults[k] for k in ("rho", "q", "alpha", "tau0"))


# ---------------------------------------------------------------------- set-up
class AcoColony(Colony):
    """Checked parameters and the state of one run (trails, counts)."""

    method = "aco"

    def __init__(self, graph: KnightGraph, spec: TourSpec, values, *, seed: int, deadline: Deadline):
        super().__init__(graph, spec, values, colonies=1, seed=seed)
        n = self.n
        self.cycles = values.cycles
        self.rho, self.q, self.alpha, self.tau0 = values.rho, values.q, values.alpha, values.tau0
        self.tau = np.full(self.tpad.shape, max(self.tau0, TAU_MIN), dtype=np.float64)
        self.seed_trails(values, deadline)
        self.weight = self.tau if self.alpha == 1.0 else np.empty_like(self.tau)
        self._weigh()
        # q / (n - 1 - i): the deposit per unit of walk left after move i (for repaired walks)
        self.per = self.q / np.maximum(1, n - 1 - np.arange(max(n - 1, 1)))

    def _weigh(self) -> None:
        if self.alpha != 1.0:
            K.powers_alpha(self.tau, self.weight, self.alpha, TAU_MIN)

    def _lay(self, squares, moves, amount) -> None:
        np.add.at(self.tau, (squares, moves), amount)
        np.minimum(self.tau, K.TAU_MAX, out=self.tau)

    def _deposit(self, squares, moves, length) -> None:
        i = np.arange(length)
        self._lay(squares, moves, (length - i) * self.per[i])
        self._weigh()

    def pheromone(self) -> np.ndarray:
        """The trails, ``(n, k)`` like ``graph.table``."""
        return self.tau[:, : self.graph.table.shape[1]].copy()

    def _cycles(self, n_cycles: int, out: np.ndarray, first_only: bool) -> tuple[int, int]:
        reals, ints = K.bundle(K.ACO_REALS, alpha=self.alpha, rho=self.rho, q=self.q, tau_min=TAU_MIN, ants=self.ants,
                               cycle0=self.done, cycles=n_cycles, closed=self.closed, end=self.end,
                               first_only=first_only)
        return K.aco_cycles(self.tpad, self.full, self.rev, self.tau, self.weight, reals, ints, self.starts,
                            self.reserve, self.rng, out, self.counts, self.best, self.best_len)

    def stats(self, cycles_run: int) -> dict:
        out = self.base_stats(cycles_run)
        out.update({"rho": self.rho, "q": self.q, "alpha": self.alpha, "tau0": self.tau0})
        return out


# ---------------------------------------------------------------------- public
def warm(*, local_search: str = "rotation", seed_with: str = "warnsdorff") -> float:
    return warm_colony("aco", solve_aco, enumerate_aco, local_search=local_search, seed_with=seed_with)


warm.__doc__ = WARM_DOC


def solve_aco(graph: KnightGraph, spec: TourSpec, *, time_limit=None, progress=None, seed=None,
              **params) -> SolveResult:
    return run_colony(AcoColony, PARAMS, warm, graph, spec, time_limit=time_limit, progress=progress, seed=seed,
                      params=params)


def enumerate_aco(graph: KnightGraph, spec: TourSpec, *, time_limit=None, progress=None, seed=None,
                  **params) -> Enumeration:
    return run_colony(AcoColony, PARAMS, warm, graph, spec, time_limit=time_limit, progress=progress, seed=seed,
                      params=params, enumerate_as="aco")


_SHARED = call_doc(
    "``closed`` counts only closed tours; ``start`` puts every ant on that square; ``end`` is kept for every "
    "ant's last move, and so is, for a closed tour from a fixed start, one of the start's neighbours (in turn "
    "from ant to ant): see :func:`~._colony.reserved_squares`.", "cycles")

PARAMS.declare(solve_aco, shared=_SHARED, summary="""First tour found by Hingston & Kendall's ant colony, or ``unknown``.
""", rest=SOLVE_RETURNS + """ (walks up to and including
        the one that found the tour), and the seeding and local-search counts
        when they are on.  Ctrl-C ends the run with ``unknown`` and
        ``stats["interrupted"]``.

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
""")

PARAMS.declare(enumerate_aco, shared=_SHARED, summary="""Run the colony for ``cycles`` cycles and keep every distinct complete tour.

    With ``spec.closed`` only closed tours are kept; ``complete`` and
    ``production_rate`` still count every complete walk.  A tour is its
    sequence of squares from its first square.
""", rest="""
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
""")
