"""Plans: the steps ``solve(method="auto")`` and :func:`ktsolve.prove` try on one question, in order.

A *step* is a proof (``quick proofs``, ``matching proof``, ...) or a method of
the registry, with a share of the time left and an optional cap in seconds.  A
*plan* is a list of steps, built here from the board and the question alone;
:func:`ktsolve.portfolio.run_plan` runs it and stops at the first definite
answer (a tour, or a proof that none exists):

* :func:`auto_plan`, the plan of ``solve(method="auto")``: find a tour fast;
* :func:`prove_plan`, the plan of :func:`ktsolve.prove`: every step of
  :func:`auto_plan` with the same budget, plus the exact steps that can
  prove that no tour exists.  So ``prove`` settles every question ``solve``
  settles.

The thresholds below are where the measured costs of the steps cross
(``benchmarks/results/``); the plans know no method's code, only the
registry's names and what each method supports.

Examples
--------
>>> from ktsolve import Board
>>> from ktsolve.tour import TourSpec
>>> [s.name for s in auto_plan(Board(6, 6), TourSpec(closed=True))]
['quick proofs', 'matching proof', '2-factor proof', 'warnsdorff', 'cpsat', 'backtrack']
>>> [s.name for s in prove_plan(Board(6, 6), TourSpec(closed=True))]
['quick proofs', 'matching proof', '2-factor proof', 'warnsdorff', 'backtrack', 'divide', 'cpsat']
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import Board
from .graph import MAX_GRAPH_SQUARES
from .proofs.quick import CUT_MAX
from .proofs.registry import PROOF_STEPS, PROOFS, proof_step
from .registry import methods
from .request import supports
from .tour import TourSpec

__all__ = [
    "Step",
    "auto_plan",
    "prove_plan",
    "two_factor_step",
    "proof_steps",
    "proof_lane",
    "plan_reason",
    "left_of",
    "PRESOLVE_MAX",
    "PRESOLVE_MATCHING_MAX",
    "EXACT_MAX",
    "SPLICE_FIRST",
    "TWO_FACTOR_AFTER_SPLICE",
]

#: Boards above this size skip the presolve proofs (they need the graph arrays).
PRESOLVE_MAX = 5_000_000
#: Boards up to this many squares get the matching proof in every plan, early.
PRESOLVE_MATCHING_MAX = 20_000
#: Seconds the early matching proof may take before it gives up (no proof).
PRESOLVE_MATCHING_TIME = 1.0
#: Seconds the matching proof of :func:`prove_plan` may take without a time limit, and more a square
#: (measured 2 to 9 us a square where it finds nothing on picture boards of 0.7 to 2.2 million squares).
PROVE_MATCHING_TIME = 60.0
PROVE_MATCHING_PER_SQUARE = 1e-5
#: Seconds of the first, short matching proof :func:`prove_plan` runs on large boards.
PROVE_MATCHING_EARLY = 0.25
#: Largest board that gets the short matching proof before the constructions.
PROVE_MATCHING_EARLY_MAX = 100_000
#: Boards up to this many squares go to the exact side in ``auto``.
EXACT_MAX = 400
#: Full boards above this many squares go to ``divide`` before anything else in ``prove``.
PROVE_DIVIDE_FIRST = 10_000
#: Boards with holes above this many squares go to ``splice`` before anything else (it needs no graph).
SPLICE_FIRST = 10_000
#: Holed boards of EXACT_MAX to SPLICE_FIRST squares try splice before rotation, with this share of the
#: time left and at most this many seconds: on the dense 100 x 100 boards (20 % holes) that neither rotation
#: nor CP-SAT settled in 60 s it found the tours in 0.1 to 1.2 s (benchmarks/results/frontier_*.md).
MID_SPLICE_SHARE = 0.3
MID_SPLICE_CAP = 10.0

#: Holed boards up to this many squares get the cut proofs (toughness, two-square cuts, regions).
CUT_PROOFS_MAX = 20_000
#: Seconds the cut proofs may take in every plan (measured: 0.1 s doubled the time of easy holed boards), and in :func:`prove_plan`.
CUT_PROOFS_TIME = 0.03
PROVE_CUT_PROOFS_TIME = 5.0
#: The share of the time left the 2-factor proof may take before it gives up (no proof).
TWO_FACTOR_SHARE = 0.3
#: Without a time limit, the 2-factor proof's cap: TWO_FACTOR_CAP_BASE seconds plus TWO_FACTOR_CAP_PER_SQUARE
#: a square.  From its restored start (factor.RESTORE_MIN) the construction touches little more than the
#: holes' neighbourhoods (benchmarks/results/two_factor_restored.md); the cap keeps a slower board from
#: delaying a method asked by name: past it the proof gives up and the method answers for itself.
TWO_FACTOR_CAP_BASE = 10.0
TWO_FACTOR_CAP_PER_SQUARE = 2e-6
#: In the proof lane, beside the constructions, the 2-factor proof delays no method: its cap a square is
#: larger there. Where no 2-factor exists its search runs longest (13.2 s alone on 10^6 squares of rings 6
#: wide, benchmarks/results/real.md), past the 12 s that TWO_FACTOR_CAP_PER_SQUARE gave it.
LANE_TWO_FACTOR_CAP_PER_SQUARE = 1e-5
#: Boards above this many squares whose plan starts with splice run the 2-factor proof after splice, in
#: splice's lane, not beside it in the proof lane: splice's restoration builds a 2-factor of the same network
#: on both cores (the proof can find no contradiction once it has), and the proof beside it took one of them.
#: On 10,000 x 10,000 boards with 5 % holes the restoration took 68-79 s beside the proof (which ran 74-87 s
#: and found nothing) against 24-40 s alone, so splice ran out of auto's 120 s on every board.
TWO_FACTOR_AFTER_SPLICE = 20_000_000
#: Boards above this many squares get the 2-factor proof before the cut proofs: on a dense 100 x 100 board
#: open from a fixed start the cut proofs spent their 5 s cap finding nothing before the 2-factor proof
#: refuted it (benchmarks/results/race_max.md); up to 40 x 40 they take about 0.1 s.
TWO_FACTOR_BEFORE_CUTS = 2_000

@dataclass(frozen=True)
class Step:
    """One step of a plan.

    ``share`` is the fraction of the time left that the step may use and
    ``cap`` the most seconds (None: no cap); ``params`` are the method's
    own parameters (a race's second engine: ``cpsat`` with another model).  Without a time limit a step
    runs to its own default budget, or to ``cap`` when there is one.  A
    step is skipped once the time is up, unless ``always`` (the method a
    user named runs even then, and gives its own honest ``unknown``).
    """

    name: str
    share: float = 1.0
    cap: float | None = None
    always: bool = False
    #: Parameters of this step's method, over the caller's ``params[name]`` (pairs, so the step stays hashable).
    params: tuple = ()

    @property
    def title(self) -> str:
        """The step's name in ``stats["steps"]`` and ``settled_by``: its method, and its own parameters if any."""
        if not self.params:
            return self.name
        return f"{self.name} ({', '.join(f'{k}={v}' for k, v in self.params)})"


def _method_steps(board: Board, spec: TourSpec) -> list[Step]:
    """The methods ``auto`` tries after the proofs, with their shares of the time left."""
    if board.n_squares > EXACT_MAX:
        # Rotation starts from Warnsdorff's greedy path and repairs it, so it
        # goes first; plain Warnsdorff is the fallback.  On a holed board too small for splice to go
        # first, splice goes before them: its 2-factor, reroutes and rotations tour dense boards that
        # rotation leaves squares short on
        mid = [] if board.is_full or board.n_squares > SPLICE_FIRST else [Step("splice", MID_SPLICE_SHARE,
                                                                                  MID_SPLICE_CAP)]
        return [*mid, Step("rotation", 0.8), Step("warnsdorff", 1.0)]
    return [Step("warnsdorff", 0.2), Step("cpsat", 1.0), Step("backtrack", 1.0)]


def _splice_first(board: Board) -> list[Step]:
    """Splice, first on large boards with holes: linear time and no graph, so it goes before the proofs."""
    if board.is_full or board.n_squares <= SPLICE_FIRST:
        return []
    return [Step("splice", 0.8)]


def _local_first(board: Board, splice: list[Step]) -> list[Step]:
    """Above PRESOLVE_MAX squares the one-pass local proofs go before splice (measured: 0.56 s at 10^8 cells)."""
    if splice and board.n_squares > PRESOLVE_MAX:
        return [Step("local proofs"), *splice]
    return splice


def two_factor_step(n: int) -> Step:
    """The 2-factor proof's step on a board of ``n`` squares: TWO_FACTOR_SHARE of a time limit, and a cap."""
    return Step("2-factor proof", TWO_FACTOR_SHARE, TWO_FACTOR_CAP_BASE + TWO_FACTOR_CAP_PER_SQUARE * n)


def proof_steps(board: Board, *, prove: bool) -> list[Step]:
    """The proof steps of :func:`auto_plan` (``prove=False``) or of the racing plans (``prove=True``: the
    longer caps of :func:`prove_plan`), in their order, for ``board``'s size."""
    return _placed_steps(board, prove=prove) + _every_plan_steps(board)


def _every_plan_steps(board: Board) -> list[Step]:
    """The proof steps the registry marks for every plan (:attr:`ProofStep.every_plan`), in the registry's
    order, where the board lets them run: one that reads the knight graph only up to PRESOLVE_MAX squares."""
    n = board.n_squares
    return [Step(s.name) for s in PROOF_STEPS.values() if s.every_plan and (not s.graph or n <= PRESOLVE_MAX)]


def _placed_steps(board: Board, *, prove: bool) -> list[Step]:
    """The proof steps placed here by name, for the board's size."""
    n = board.n_squares
    if n > PRESOLVE_MAX:
        # no graph: the one-pass checks (size, ends, colours, degrees), then the depth-first search, then
        # on a board with holes the 2-factor proof on the implicit grid from its restored start; the
        # one-pass checks come before splice there (_local_first)
        if board.is_full:
            return [Step("local proofs"), Step("local cuts")]
        return [Step("local cuts"), two_factor_step(n)]
    steps = [Step("quick proofs")]
    if n <= PRESOLVE_MATCHING_MAX or prove:
        steps.append(Step("matching proof", 1.0, _prove_matching_cap(n) if prove else PRESOLVE_MATCHING_TIME))
    if n > CUT_MAX:
        steps.append(Step("local cuts"))  # the quick proofs look for cut squares up to CUT_MAX squares only
    # the 2-factor proof is linear (about 1 s a million squares where a tour exists): every board,
    # before any search, with at most TWO_FACTOR_SHARE of a time limit so the constructions keep the
    # rest; after the matching proof where that one runs (its evidence names fewer squares, and it
    # is drawn), as it refutes boards the matching proof cannot (two disjoint perfect matchings);
    # before the cut proofs on large boards, where those spend their whole cap when they find nothing
    two_factor = two_factor_step(n)
    if n > TWO_FACTOR_BEFORE_CUTS:
        steps.append(two_factor)
    if not board.is_full and n <= CUT_PROOFS_MAX:
        # after the matching proof, which settles most; full boards are settled by the theorems
        steps.append(Step("cut proofs", 1.0, PROVE_CUT_PROOFS_TIME if prove else CUT_PROOFS_TIME))
    if n <= TWO_FACTOR_BEFORE_CUTS:
        steps.append(two_factor)
    return steps


def _prove_matching_cap(n: int) -> float:
    """Seconds the full matching proof may take without a time limit on ``n`` squares."""
    return PROVE_MATCHING_TIME + PROVE_MATCHING_PER_SQUARE * n


def proof_lane(plan: list[Step], board: Board) -> list[Step]:
    """The proof steps of ``plan`` as a lane of their own, beside the constructions: each once, with
    :func:`prove_plan`'s caps and the whole time left otherwise, the cheapest first (their measured cost a
    square, :attr:`ktsolve.proofs.registry.ProofStep.cost`).

    Examples
    --------
    >>> from ktsolve.tour import TourSpec
    >>> board = Board(300, 300, holes=[(0, 0), (0, 1)])
    >>> [s.name for s in proof_lane(auto_plan(board, TourSpec(closed=True)), board)]
    ['quick proofs', '2-factor proof', 'matching proof']
    """
    n = board.n_squares
    caps = {s.name: s.cap for s in proof_steps(board, prove=True)}
    names = dict.fromkeys(s.name for s in plan if s.name in PROOFS)
    # auto's plan leaves the matching proof out of large boards, and every plan leaves the graph proofs out
    # above PRESOLVE_MAX squares (in turn they would hold the construction back); beside it they cost it
    # nothing, up to the size where the knight graph is built
    graph_ok = "quick proofs" in names or (names and not board.is_full and n <= MAX_GRAPH_SQUARES)
    if graph_ok and n > PRESOLVE_MATCHING_MAX:
        names["matching proof"] = None
        caps.setdefault("matching proof", _prove_matching_cap(n))
    if "2-factor proof" in caps:
        caps["2-factor proof"] = TWO_FACTOR_CAP_BASE + LANE_TWO_FACTOR_CAP_PER_SQUARE * n
    steps = [Step(name, 1.0, caps.get(name)) for name in names]
    return sorted(steps, key=lambda s: proof_step(s.name).cost)


def _usable(plan: list[Step], board: Board, spec: TourSpec) -> list[Step]:
    reg = methods()
    return [s for s in plan if s.name in PROOFS or (s.name in reg and supports(reg[s.name], board, spec))]


def auto_plan(board: Board, spec: TourSpec) -> list[Step]:
    """The steps of ``solve(method="auto")``.

    Large full boards go to divide and conquer first (it needs no graph),
    large boards with holes (above :data:`SPLICE_FIRST` squares) to splice
    (0.8 of the time: on the largest boards nothing else can run; no graph
    either); then the linear-time proofs (and the matching proof up to
    :data:`PRESOLVE_MATCHING_MAX` squares, one second at most; above
    :data:`PRESOLVE_MAX` squares the local proofs on the cells instead, with
    their one-pass checks before splice, :mod:`ktsolve.proofs.local`); then, on
    boards above :data:`EXACT_MAX` squares, splice on a holed board (up to
    :data:`SPLICE_FIRST` squares, where it did not go first), Posa rotations
    and plain Warnsdorff; on small ones a short Warnsdorff try, CP-SAT and
    exhaustive search.  Methods that are not
    registered or cannot answer the question are left out.
    """
    plan: list[Step] = []
    if board.n_squares > EXACT_MAX and board.is_full:
        plan.append(Step("divide"))
    plan += _local_first(board, _splice_first(board))
    plan += proof_steps(board, prove=False)
    plan += _method_steps(board, spec)
    return _usable(plan, board, spec)


def prove_plan(board: Board, spec: TourSpec) -> list[Step]:
    """The steps of :func:`ktsolve.prove`: those of :func:`auto_plan` and the exact ones.

    Every method step of :func:`auto_plan` comes with the same share of the
    time, in the same order; before them the proofs (the matching proof on
    every board, up to a minute; on boards above
    :data:`PRESOLVE_MATCHING_MAX` squares the full proof comes after the
    constructions, with a quarter-second try before them up to
    :data:`PROVE_MATCHING_EARLY_MAX` squares); after them a short
    exhaustive search (20% of the time left, at most 2 s), divide and
    conquer on a full board, and CP-SAT with the rest of the time (splice,
    like divide, comes first on a large board with holes, as in
    :func:`auto_plan`; on holed boards above ``TWO_FACTOR_BEFORE_CUTS``
    squares that it does not go first on, it comes before the cut proofs).  The
    cheap constructions of ``auto`` thus answer quickly where a tour exists,
    and the exact steps settle what they cannot.
    """
    n = board.n_squares
    plan: list[Step] = []
    divide_first = board.is_full and n > PROVE_DIVIDE_FIRST
    if divide_first:
        plan.append(Step("divide"))
    plan += _local_first(board, _splice_first(board))
    large = PRESOLVE_MATCHING_MAX < n <= PRESOLVE_MAX
    if large:
        # On a large board the matching proof takes seconds to find nothing where
        # a tour exists, so the full proof runs after the constructions; up to
        # PROVE_MATCHING_EARLY_MAX squares, where one round of it is cheap, a
        # short try first catches the quick refutations.
        plan += [Step("quick proofs"), two_factor_step(n)]
        if n > CUT_MAX:
            plan.append(Step("local cuts"))
        if n <= PROVE_MATCHING_EARLY_MAX:
            plan.append(Step("matching proof", 1.0, PROVE_MATCHING_EARLY))
    else:
        plan += proof_steps(board, prove=True)
    methods_after = _method_steps(board, spec)
    if n > TWO_FACTOR_BEFORE_CUTS and methods_after and methods_after[0].name == "splice":
        # the cut proofs spend their whole cap (5 s) where they find nothing, and a tour splice finds
        # takes it a tenth of a second on a dense 100 x 100 board: splice goes before them
        cuts = next((i for i, st in enumerate(plan) if st.name == "cut proofs"), len(plan))
        plan.insert(cuts, methods_after.pop(0))
    for step in methods_after:
        if step.name in ("cpsat", "backtrack"):
            continue  # the exact steps come below, in the order that settles most
        # the last construction of auto gets the whole remainder there; here the
        # exact steps follow, so it gets half
        plan.append(step if step.share < 1.0 else Step(step.name, 0.5, step.cap))
    if large:
        plan.append(Step("matching proof", 1.0, _prove_matching_cap(n)))
    plan.append(Step("backtrack", 0.2, 2.0))
    if board.is_full and not divide_first:
        plan.append(Step("divide"))
    plan.append(Step("cpsat", 1.0))
    return _usable(plan, board, spec)


#: Longest account of one step in a plan's reason (a method's own reason is cut there).
LEFT_CHARS = 320


def left_of(stats: dict) -> str:
    """What an ``unknown`` method step left, in words: its reason, and the pieces or squares it left short."""
    said = str(stats.get("reason") or "no tour found")
    if len(said) > LEFT_CHARS:
        said = said[: LEFT_CHARS - 3] + "..."
    counts = [f"{stats[key]:,} {word}" for key, word in (("pieces", "pieces left"), ("short", "moves short"))
              if isinstance(stats.get(key), int) and not isinstance(stats.get(key), bool) and stats[key] > 0
              and f"{stats[key]} " not in said and f"{stats[key]:,} " not in said]  # counted once, either way
    return "; ".join([said, *counts])


def plan_reason(steps: list[dict], expired: bool) -> str:
    """The reason of a plan's ``unknown``: every step tried, its seconds and what it left.

    Examples
    --------
    >>> plan_reason([{"step": "matching proof", "status": "no proof", "seconds": 2.1, "left": "no contradiction"},
    ...              {"step": "splice", "status": "unknown", "seconds": 58.2, "left": "3 pieces left"}], True)
    'the time limit ran out before any step settled the question: matching proof (2.1 s): no contradiction; splice (58.2 s): 3 pieces left'
    """
    head = ("the time limit ran out before any step settled the question" if expired
            else "no step settled the question")
    parts = [f"{e['step']} ({e.get('seconds', 0.0):.3g} s): {e.get('left') or e.get('status', '')}"
             for e in steps if e.get("status") != "cancelled"]
    return f"{head}: {'; '.join(parts)}" if parts else head
