"""Posa rotations: Warnsdorff's greedy path repaired by rotating it, for large boards with holes.

The idea
--------
Warnsdorff's rule (1823) builds a knight's path greedily: always move to the
unvisited square with the fewest unvisited neighbours.  On large boards, and
on boards with holes, the greedy path gets stuck before it has visited every
square.  Posa (1976) showed how to go on from a stuck end ``u``: pick a
neighbour ``v = p[i]`` of ``u`` on the path ``p[0] .. p[L-1]`` (not its
predecessor) and reverse the part after ``v``::

    p[0] .. p[i]  p[i+1] .. p[L-1]      becomes      p[0] .. p[i]  p[L-1] .. p[i+1]

The new path holds the same squares and ends on the old ``p[i+1]``; when that
square has an unvisited neighbour the greedy extension goes on from it.
Angluin & Valiant (1979) made this *rotation-extension* step a fast algorithm
for Hamiltonian cycles in random graphs; here it repairs the greedy knight's
path.  The start ``p[0]`` never moves, so a fixed start costs nothing.

One numba kernel, run in chunks so that Python can watch the clock, does:

1. **Extension.**  Warnsdorff's rule, ties broken by Roth's rule (the square
   farthest from the board's centre first) and then at random.  A square
   whose last free neighbour is the end has no free neighbour left and is
   taken at once, so squares are not stranded behind the path.
2. **Repair.**  When the end is stuck, a depth-first search over sequences of
   up to ``depth`` rotations (3 by default) looks for a new end with an
   unvisited neighbour, without moving any data: after a rotation at pivot
   index ``i`` the square at index ``k > i`` sits at ``L + i - k``, so where a
   square is after a few rotations, and which square sits at an index, are a
   few integer operations away.  The sequence that reverses the fewest
   squares is applied.
3. **Walk.**  When no short sequence helps, the end walks towards the nearest
   free square it can reach: each step is the rotation whose new end is
   closest to it in knight's moves, now and then a random one.  The knight
   graph is bipartite and a rotation keeps the path's start and length, so
   the end's colour never changes and only free squares of the other colour,
   next to the path, are goals.
4. **Colour fix.**  The free squares along the edge of a region the greedy
   path left behind often all have the end's colour (the path ran along a
   diagonal), and then no rotation can ever reach them.  When there is no
   goal, when the walk to one takes too long, or when the end is a dead end
   (no free neighbour, no pivot), the end is given back: the path gets one
   square shorter, its end changes colour, and the square given back is
   *parked* (neither free nor on the path) until the path grows again.
5. **Closing.**  A closed tour needs the end next to the start ``p[0]``; an
   open tour with a fixed end ``t`` keeps ``t`` off the path (reserved) and
   needs the end next to ``t``, which is then appended.  Both are steps 2 and
   3 with that square as the goal.  For a closed tour the kernel chooses
   ``p[0]`` itself, in the board's top-left corner, where Warnsdorff's rule
   starts well (a requested start only fixes where the listing begins, so the
   cycle is rotated afterwards); and since that start is free, when the end
   does not find its way to it the whole path is reversed and the other end
   walks.  An open tour with no fixed start begins in the corner too, on the
   colour with more squares (an open tour starts and ends on it).
6. **Restarts.**  A run that spends ``rotations`` rotations (default
   :data:`DEFAULT_ROTATIONS`, or :data:`ROTATIONS_PER_LENGTH` per square of
   the board's long side when that is more: on a long thin board the end
   walks back along the whole length, a few rotations per column; each
   square given back counts as one) without
   growing its path past its longest stops, and the next run starts again
   with a fresh random stream.  After ``restarts`` runs (default
   :data:`DEFAULT_RESTARTS`), or when the time limit runs out, the answer is
   ``unknown``: a heuristic never proves that no tour exists.

No exact fallback lives here.  On small boards ``auto`` runs the exact
methods first (:func:`ktsolve.solve.auto_plan`); this method only ever
answers ``found`` with a tour it built, or ``unknown``.

Cost
----
Extension is O(1) per square.  A rotation reverses ``L - 1 - i`` squares.
Repairs pick the cheapest sequence, and the pivots of a freshly stuck end were
mostly visited recently, so repairs cost little; walks through old parts of
the path cost up to ``L`` per step.  On a 1000 x 1000 board with 0.1% holes
the greedy part takes a fraction of a second and the walks a few seconds
(``benchmarks/bench_rotation.py``).

References
----------
.. [1] H. C. von Warnsdorf, *Des Rösselsprunges einfachste und allgemeinste
   Lösung*, Schmalkalden, 1823.
.. [2] L. Pósa, "Hamiltonian circuits in random graphs", *Discrete
   Mathematics* 14 (1976) 359-364.
.. [3] D. Angluin and L. G. Valiant, "Fast probabilistic algorithms for
   Hamiltonian circuits and matchings", *Journal of Computer and System
   Sciences* 18 (1979) 155-193.
.. [4] A. Roth, "The Problem of the Knight": break Warnsdorff's ties by
   taking the square farthest from the board's centre.

Examples
--------
>>> from ktsolve import Board, KnightGraph, TourSpec
>>> board = Board(20, 20, holes=[(3, 4), (10, 10)])
>>> res = solve_rotation(KnightGraph(board), TourSpec(start=(0, 0)), seed=2)
>>> res.status.value, len(res.tour), res.tour.start
('found', 398, (0, 0))
"""

from __future__ import annotations

import numpy as np

from .. import jit
from ..driver import Stopped, begin, drive, interrupt_guard, phase
from ..graph import KnightGraph
from ..result import SolveResult, Status
from ..seeds import derive_seeds, seed_doc
from ..tour import Tour, TourSpec, list_cycle
from ._params import Param, Params, by_method, whole
from ._rotation_kernels import (
    _BEST,
    _CLOSED,
    _DEPTH,
    _DONE,
    _EXT,
    _FLIPS,
    _GOING,
    _L,
    _MAXD,
    _NSTATE,
    _POPS,
    _REPAIRS,
    _RESERVED,
    _REVERSED,
    _ROT,
    _SPENT,
    _STALLED,
    _TARGET,
    _WALK,
    _begin,
    _init,
    _run,
    rotate,
)

__all__ = [
    "solve_rotation",
    "warm",
    "DEFAULT_ROTATIONS",
    "ROTATIONS_PER_LENGTH",
    "DEFAULT_RESTARTS",
    "DEFAULT_DEPTH",
    "MAX_RESTARTS",
    "rotate",
]

#: Rotations a run may spend without growing the path before it gives up.
DEFAULT_ROTATIONS = 50_000
#: Rotations without growth allowed per square of the long side, for long thin boards
#: (a 4 x 100,000 board with the start in the middle needs about 2.2 per column).
ROTATIONS_PER_LENGTH = 3
#: Runs (the first one included) before answering ``unknown``.
DEFAULT_RESTARTS = 3
#: Rotations in the sequences the repair search tries.
DEFAULT_DEPTH = 3
#: Most runs a call may be given.
MAX_RESTARTS = 1_000_000


# ---------------------------------------------------------------------- Python side
def _priority(graph: KnightGraph, deadline=None) -> np.ndarray:
    """Roth's tie-break: squared distance from the board's centre (larger is taken first)."""
    return graph.centre_distance(deadline)


def _corner_square(graph: KnightGraph, colour: int | None = None, deadline=None) -> int:
    """The square nearest the top-left corner (of ``colour`` when given; fewest neighbours among equals).

    Found a slice of squares at a time, with ``deadline`` checked between slices.
    """
    best, best_key = 0, np.iinfo(np.int64).max
    step = 1 << 20
    for a in range(0, graph.n, step):
        if deadline is not None:
            deadline.check("preparing the search")
        c = graph.coords[a : a + step].astype(np.int64)
        key = (c[:, 0] + c[:, 1]) * 16 + graph.degree[a : a + step]
        if colour is not None:
            key = np.where(graph.colour[a : a + step] == colour, key, np.iinfo(np.int64).max)
        i = int(np.argmin(key))
        if key[i] < best_key:
            best, best_key = a + i, int(key[i])
    return best


def _majority_colour(graph: KnightGraph) -> int | None:
    """The colour with more squares (parity 0 or 1), or None when the counts are equal.

    An open tour of a board with unequal counts starts and ends on the
    majority colour.
    """
    even, odd = graph.board.colour_counts()
    if even == odd:
        return None
    return 0 if even > odd else 1


def _plan(graph: KnightGraph, spec: TourSpec, deadline=None) -> tuple[int, int, bool, bool]:
    """``(first, reserved, closing, flip)``: where the path starts, the square kept for its end
    (-1: none), whether the end must come back next to ``first``, and whether the path is
    reversed at the end."""
    board = graph.board
    start = None if spec.start is None else board.index(*spec.start)
    end = None if spec.end is None else board.index(*spec.end)
    if spec.closed:
        if start is not None and end is not None:
            # The closing move is end -> start: a path from start to end.
            return start, end, False, False
        # Any cycle will do: it is listed from the requested start (or so as
        # to end on the requested end) afterwards.
        return _corner_square(graph, None, deadline), -1, True, False
    if start is not None:
        return start, (-1 if end is None else end), False, False
    if end is not None:
        return end, -1, False, True
    return _corner_square(graph, _majority_colour(graph), deadline), -1, False, False


#: The parameters of :func:`solve_rotation`, declared once: defaults, checks, and what ``ktsolve methods``
#: prints.
PARAMS = Params("rotation", (
    Param("rotations", None, whole(1), "int, optional",
          "Rotations a run may spend without growing its path before it stops; default the larger of "
          f"{DEFAULT_ROTATIONS:,} and {ROTATIONS_PER_LENGTH} times the board's long side.",
          computed=by_method),
    Param("restarts", DEFAULT_RESTARTS, whole(1, MAX_RESTARTS), "int",
          f"Runs before answering unknown, 1 to {MAX_RESTARTS:,}."),
    Param("depth", DEFAULT_DEPTH, whole(1, _MAXD), "int",
          f"Longest rotation sequence the repair search tries, 1 to {_MAXD}."),
))


@seed_doc
def solve_rotation(
    graph: KnightGraph,
    spec: TourSpec,
    *,
    time_limit=None,
    progress=None,
    rotations: int | None = None,
    restarts: int = DEFAULT_RESTARTS,
    depth: int = DEFAULT_DEPTH,
    seed: int | None = None,
) -> SolveResult:
    """Warnsdorff extension with Posa rotations: open or closed tours, fixed start and end.

    Parameters
    ----------
    graph : KnightGraph
    spec : TourSpec
        Any question: a path grown from the start (or from both ends when
        the end is fixed) and, for a closed tour, rotated until its ends meet.
    %(seed)s
    time_limit : float, optional
        Seconds for the whole call (graph building and the reset of every
        run included); when they run out the answer is ``unknown``.
    progress : callable, optional
        Called as ``progress(squares on the path, squares of the board)``.
    rotations : int
        Rotations a run may spend without growing its path before it stops
        (default :data:`DEFAULT_ROTATIONS`, or :data:`ROTATIONS_PER_LENGTH`
        times the board's long side when that is more).
    restarts : int
        Runs before answering ``unknown`` (default :data:`DEFAULT_RESTARTS`,
        at most :data:`MAX_RESTARTS`).
    depth : int
        Longest rotation sequence the repair search tries, 1 to 6 (default
        :data:`DEFAULT_DEPTH`).

    Returns
    -------
    SolveResult
        ``found`` with the tour, or ``unknown`` with ``stats["reason"]``
        (and ``stats["interrupted"]`` after Ctrl-C).  ``stats`` counts
        rotations, squares appended, repairs, walk steps, squares moved by
        rotations (``reversed``), squares given back to change the end's
        colour, and runs.

    Notes
    -----
    Memory: four arrays of ``n`` entries (three int32, one int64) besides the
    graph's.
    Time: see the module docstring.  The answer is ``unknown`` on boards with
    no tour (the method cannot prove that; :func:`ktsolve.solve` runs the
    cheap proofs first), and may be ``unknown`` on boards with one.  Run
    ``r`` draws from a SplitMix64 stream seeded by ``derive_seed(seed,
    "rotation", r)``, kept in an array, so the answer does not depend on how
    the driver cuts the work into chunks.

    Examples
    --------
    >>> from ktsolve import Board, KnightGraph, TourSpec
    >>> g = KnightGraph(Board(12, 12, holes=[(5, 5), (6, 7)]))
    >>> res = solve_rotation(g, TourSpec(closed=True), seed=1)
    >>> res.status.value, len(res.tour), res.seed
    ('found', 142, 1)
    """
    values = PARAMS.check({"rotations": rotations, "restarts": restarts, "depth": depth}, n=graph.n)
    rotations, restarts, depth = values.rotations, values.restarts, values.depth
    if rotations is None:
        rotations = max(DEFAULT_ROTATIONS, ROTATIONS_PER_LENGTH * max(graph.board.rows, graph.board.cols))
    deadline, seed = begin(time_limit, seed)
    board = graph.board
    n = graph.n
    if spec.closed and n < 3:
        return SolveResult(Status.UNKNOWN, seed=seed, stats={"reason": "a closed tour needs at least 3 squares"})
    stats: dict = {}
    with interrupt_guard():
        try:
            graph.build(deadline, coords=True)
            return _solve(graph, spec, seed, deadline, progress, rotations, restarts, depth, stats)
        except Stopped as stop:
            stats.update(stop.stats())
            return SolveResult(Status.UNKNOWN, seed=seed, stats=stats)


def _solve(graph, spec, seed, deadline, progress, rotations, restarts, depth, stats) -> SolveResult:
    board = graph.board
    n = graph.n
    first, reserved, closing, flip = _plan(graph, spec, deadline)
    if n == 1:
        return SolveResult(Status.FOUND, tour=Tour(board, np.array([first]), closed=False), seed=seed)
    if reserved == first:
        return SolveResult(Status.UNKNOWN, seed=seed,
                           stats={"reason": "the start and the end are the same square"})
    if spec.closed and reserved >= 0 and not np.isin(reserved, graph.neighbours(first)):
        return SolveResult(
            Status.UNKNOWN, seed=seed,
            stats={"reason": "the end is not a knight's move from the start, so no closed tour joins them"},
        )
    deadline.check("preparing the search")
    indptr, indices, coords = graph.indptr, graph.indices, graph.coords
    prio = _priority(graph, deadline)
    deadline.extend(warm())  # a first-run compile is not the search's time
    deadline.check("preparing the search")
    path = np.empty(n, dtype=np.int32)
    pos = np.empty(n, dtype=np.int32)
    udeg = np.empty(n, dtype=np.int32)
    state = np.zeros(_NSTATE, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    state[_TARGET] = n - 1 if reserved >= 0 else n
    state[_RESERVED] = reserved
    state[_CLOSED] = 1 if closing else 0
    state[_DEPTH] = depth
    streams = derive_seeds(seed, "rotation", 0, restarts)

    names = ("rotations", "extensions", "repairs", "walk_steps", "reversed", "given_back", "swaps")
    fields = (_ROT, _EXT, _REPAIRS, _WALK, _REVERSED, _POPS, _FLIPS)
    totals = dict.fromkeys(names, 0)
    run = {"number": 0, "reset": 0, "status": _GOING, "best": 0}

    def start_run() -> None:
        run["reset"] = 0
        run["status"] = _GOING
        rng[0] = np.uint64(int(streams[run["number"]]))
        run["number"] += 1

    def end_run() -> None:
        for name, f in zip(names, fields):
            totals[name] += int(state[f])
        run["best"] = max(run["best"], int(state[_BEST]))

    def step(k):
        """``k`` units: squares reset at the start of a run, then the search's own work units."""
        if run["reset"] < n:
            # reset the arrays for a new run, a slice at a time (a pass over n squares)
            hi = min(n, run["reset"] + k)
            _init(indptr, indices, pos, udeg, reserved, run["reset"], hi)
            done = hi - run["reset"]
            run["reset"] = hi
            if hi == n:
                _begin(indptr, indices, path, pos, udeg, state, first)
            return done, False
        status = _run(indptr, indices, coords, prio, path, pos, udeg, state, rng, k, rotations)
        spent = max(1, int(state[_SPENT]))
        if status == _GOING:
            return spent, False
        end_run()
        run["status"] = status
        if status == _STALLED and run["number"] < restarts:
            start_run()
            return spent, False
        return spent, True

    start_run()
    phase(progress, "rotation: squares on the path", n)
    outcome = drive(step, units=None, deadline=deadline, progress=progress, first=1 << 14,
                    position=lambda done: (int(state[_L]), n))
    if run["status"] == _GOING:
        end_run()
    status = run["status"]
    runs = run["number"]
    stats.update(totals, runs=runs, longest=run["best"], squares=n, rotation_limit=rotations)
    if outcome.interrupted:
        stats.update(reason=f"interrupted (Ctrl-C) in run {runs}", interrupted=True)
        return SolveResult(Status.UNKNOWN, seed=seed, stats=stats)
    if status != _DONE:
        if status == _GOING:
            stats["reason"] = f"the time limit of {deadline.time_limit:g} s ran out"
        else:
            stats["reason"] = (
                f"{runs} run{'s' if runs != 1 else ''} ended without a tour (longest path "
                f"{run['best']:,} of {n:,} squares); a run stops when its end is stuck for good "
                f"or after {rotations:,} rotations without growing its path"
            )
        return SolveResult(Status.UNKNOWN, seed=seed, stats=stats)
    squares = path[::-1] if flip else path
    tour = Tour(board, squares, closed=spec.closed)
    if spec.closed:
        tour = _list_closed(tour, board, spec)
    return SolveResult(Status.FOUND, tour=tour, seed=seed, stats=stats)


def _warm_calls() -> None:
    from ..board import Board

    for spec in (TourSpec(closed=True), TourSpec(start=(0, 0), end=(4, 1))):
        solve_rotation(KnightGraph(Board(6, 6)), spec, seed=1, restarts=1)


def warm() -> float:
    """Compile (or load from numba's cache) the rotation kernels; the seconds spent compiling.

    Examples
    --------
    >>> warm() >= 0.0
    True
    """
    return jit.prepare("rotation", _warm_calls, (_init, _begin, _run))


def _list_closed(tour: Tour, board, spec: TourSpec) -> Tour:
    """The cycle listed as asked: from ``spec.start``, or ending on ``spec.end``."""
    s = None if spec.start is None else board.index(*spec.start)
    e = None if spec.end is None else board.index(*spec.end)
    return Tour(board, list_cycle(tour.squares, s, e), closed=True)

