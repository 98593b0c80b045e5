"""Plain-Python helpers shared by the ant colonies (:mod:`.aco`, :mod:`.iaco`) and the GA.

Nothing here is compiled: the numba kernels live in
:mod:`._colony_kernels`, :mod:`._posa_kernels` and :mod:`._ga_kernels`.
This module holds what the methods need around them: turning a
:class:`~ktsolve.tour.TourSpec` into square numbers, the moves of seed
paths (to lay pheromone along them), the base class :class:`Colony` (the
state every colony shares, its seeding and its local search), the set of
distinct tours found so far and its bias measures, and the glue between a
colony and :func:`ktsolve.driver.drive` (budget, the call's Deadline,
progress, Ctrl-C).

Distinct tours are kept as the raw bytes of their square sequence in a
``dict`` (insertion-ordered, so tours come back in the order they were first
found); a chunk of tours is added with one C-level ``dict.update`` over a
numpy ``void`` view of its rows, which keeps bookkeeping far below the cost
of the walks even at half a million tours.
"""

from __future__ import annotations

import time

import numpy as np

from ..checks import check_choice
from ..driver import Deadline, drive, phase
from ..errors import InvalidParameterError, InvalidTourError
from ..graph import KnightGraph
from ..result import Enumeration, SolveResult, Status
from ..seeds import derive_seed
from ..tour import Tour, TourSpec
from . import _posa_kernels as P
from ._params import Range, described
from ._walks import seed_state, spec_squares, walk_arrays

__all__ = [
    "Colony",
    "posa_repair",
    "LOCAL_SEARCHES",
    "seed_moves",
    "seed_with_check",
    "DistinctTours",
    "bias_stats",
    "chunk_cycles",
    "default_walks",
    "reserved_squares",
    "colony_solve",
    "colony_enumerate",
    "STEPS_PER_CHUNK",
]

#: Most ant moves in one kernel call (the driver sizes calls by time, about
#: 50 ms each, and never above this), which also bounds the tour buffer of an
#: enumeration.
STEPS_PER_CHUNK = 2_000_000


def _seed_items(seed_tour):
    if isinstance(seed_tour, Tour):
        return [(seed_tour.squares, seed_tour.closed)]
    if isinstance(seed_tour, np.ndarray) and seed_tour.ndim == 2:
        return [(row, False) for row in seed_tour]
    if isinstance(seed_tour, np.ndarray):
        return [(seed_tour, False)]
    if isinstance(seed_tour, (list, tuple)) and seed_tour and not np.isscalar(seed_tour[0]):
        return [(t.squares, t.closed) if isinstance(t, Tour) else (np.asarray(t), False) for t in seed_tour]
    return [(np.asarray(seed_tour), False)]


def seed_moves(graph: KnightGraph, seed_tour, method: str) -> tuple[np.ndarray, np.ndarray]:
    """``(square, move)`` pairs of every step of one or more seed paths.

    Parameters
    ----------
    graph : KnightGraph
    seed_tour : Tour, (N,) int array, (k, N) int array, or a sequence of those
        Square numbers in visiting order (paths need not cover the board).
        A closed :class:`Tour` also contributes its closing move.
    method : str
        For error messages.

    Returns
    -------
    squares, moves : int32 arrays of equal length
        Step ``i`` leaves ``squares[i]`` by move number ``moves[i]`` (a column
        of ``graph.table``).

    Raises
    ------
    InvalidTourError
        When two consecutive squares are not a move apart or a square number
        is off the board.

    Examples
    --------
    >>> from ktsolve import Board
    >>> g = KnightGraph(Board(3, 4))
    >>> sq, mv = seed_moves(g, [np.array([0, 6, 8])], "aco")
    >>> sq.tolist(), [int(g.table[s, m]) for s, m in zip(sq, mv)]
    ([0, 6], [6, 8])
    """
    table = graph.table
    src_all, mv_all = [], []
    for squares, closed in _seed_items(seed_tour):
        sq = np.asarray(squares)
        if sq.ndim != 1 or sq.size == 0 or not np.issubdtype(sq.dtype, np.integer):
            raise InvalidTourError(f"method {method!r}: a seed tour must be a non-empty list of square numbers")
        bad = np.flatnonzero((sq < 0) | (sq >= graph.n))
        if bad.size:
            raise InvalidTourError(
                f"method {method!r}: seed tour step {int(bad[0]) + 1} names square {int(sq[bad[0]])}, "
                f"but the board has squares 0..{graph.n - 1}"
            )
        sq = sq.astype(np.int64)
        b = np.roll(sq, -1) if closed else sq[1:]
        a = sq[: b.size]
        hit = table[a] == b[:, None]
        ok = hit.any(axis=1)
        if not ok.all():
            k = int(np.argmin(ok))
            raise InvalidTourError(
                f"method {method!r}: seed tour step {k + 2} goes from {graph.name(int(a[k]))} to "
                f"{graph.name(int(b[k]))}, which is not a move"
            )
        src_all.append(a.astype(np.int32))
        mv_all.append(hit.argmax(axis=1).astype(np.int32))
    if not src_all:
        return np.zeros(0, np.int32), np.zeros(0, np.int32)
    return np.concatenate(src_all), np.concatenate(mv_all)


class DistinctTours:
    """Distinct square sequences in the order they were first seen.

    Parameters
    ----------
    n : int
        Squares per tour.

    Examples
    --------
    >>> d = DistinctTours(3)
    >>> d.add(np.array([[0, 1, 2], [2, 1, 0], [0, 1, 2]]))
    2
    >>> d.array().tolist()
    [[0, 1, 2], [2, 1, 0]]
    """

    def __init__(self, n: int):
        self.n = int(n)
        self.dtype = np.uint8 if n <= 256 else np.uint16 if n <= 65536 else np.int32
        self._void = np.dtype((np.void, self.n * np.dtype(self.dtype).itemsize))
        self._seen: dict[bytes, None] = {}

    def __len__(self) -> int:
        return len(self._seen)

    def add(self, rows: np.ndarray) -> int:
        """Add the rows of a ``(k, n)`` array; return how many were new."""
        if rows.shape[0] == 0:
            return 0
        compact = np.ascontiguousarray(rows, dtype=self.dtype)
        keys = compact.view(self._void).ravel().tolist()
        before = len(self._seen)
        self._seen.update(dict.fromkeys(keys))
        return len(self._seen) - before

    def array(self) -> np.ndarray:
        """``(k, n)`` int32 array of the distinct tours, in order of discovery."""
        if not self._seen:
            return np.zeros((0, self.n), dtype=np.int32)
        buf = b"".join(self._seen)
        return np.frombuffer(buf, dtype=self.dtype).reshape(-1, self.n).astype(np.int32)


def _canonical_cycles(tours: np.ndarray) -> int:
    """Number of different Hamiltonian cycles among closed tours (rotations and reversals identified)."""
    if tours.shape[0] == 0:
        return 0
    k, n = tours.shape
    # rotate each tour so that square 0's visit comes first, then pick the direction
    # whose second square is smaller: one listing per cycle
    first = np.argmin(tours, axis=1)
    idx = (first[:, None] + np.arange(n)[None, :]) % n
    rot = np.take_along_axis(tours, idx, axis=1)
    back = np.concatenate([rot[:, :1], rot[:, :0:-1]], axis=1)
    flip = back[:, 1] < rot[:, 1]
    rot[flip] = back[flip]
    d = DistinctTours(n)
    d.add(rot)
    return len(d)


def bias_stats(graph: KnightGraph, tours: np.ndarray) -> dict:
    """Bias measures of a set of distinct tours (Hingston & Kendall's search bias).

    ``start_squares``: how many squares start at least one tour (a search
    without bias reaches every square); ``tours_per_start_min`` and
    ``_max``: the fewest and most tours of one start square (over the squares
    that start one); ``closed_tours``: how many tours are closed;
    ``closed_share``: their fraction; ``closed_cycles``: how many different
    closed cycles they are, a cycle listed from another square or in the
    other direction being the same cycle.

    Examples
    --------
    >>> from ktsolve import Board
    >>> g = KnightGraph(Board(3, 4))
    >>> t = np.array([[0, 6, 8, 1, 10, 4, 2, 9, 7, 5, 3, 11]])
    >>> bias_stats(g, t)["start_squares"]
    1
    """
    k = int(tours.shape[0])
    if k == 0:
        return {"start_squares": 0, "tours_per_start_min": 0, "tours_per_start_max": 0, "closed_tours": 0,
                "closed_share": 0.0, "closed_cycles": 0}
    per_start = np.bincount(tours[:, 0], minlength=graph.n)
    used = per_start[per_start > 0]
    table = graph.table
    closed = (table[tours[:, -1]] == tours[:, :1]).any(axis=1) if graph.n > 2 else np.zeros(k, bool)
    n_closed = int(closed.sum())
    return {
        "start_squares": int(used.size),
        "tours_per_start_min": int(used.min()),
        "tours_per_start_max": int(used.max()),
        "closed_tours": n_closed,
        "closed_share": n_closed / k,
        "closed_cycles": _canonical_cycles(tours[closed]),
    }


#: Most squares the tour buffer of an enumeration holds (64 MB of int32): a
#: cycle that completes more tours than the buffer has rows keeps the first
#: ones and counts the others in ``stats["tours_not_kept"]``.
OUT_CELLS = 2**24

#: Default budget of a run in ant moves, about 10 to 20 seconds of walking.
DEFAULT_MOVES = 2 * 10**9


def default_walks(n: int) -> int:
    """The default budget in walks: ``n`` per cycle for ``DEFAULT_MOVES / n**2`` cycles, 10 to 100,000 cycles.

    100,000 cycles of 64 ants is Hingston & Kendall's budget on 8x8 (6.4
    million walks); a walk of at most ``n`` moves keeps bigger boards near
    :data:`DEFAULT_MOVES` ant moves.

    Examples
    --------
    >>> default_walks(64)
    6400000
    """
    n = max(1, int(n))
    return n * max(10, min(100_000, DEFAULT_MOVES // (n * n)))


def chunk_cycles(n: int, ants: int, colonies: int = 1) -> int:
    """Most cycles in one kernel call: :data:`STEPS_PER_CHUNK` ant moves, at least one cycle."""
    per_cycle = max(1, int(n) * int(ants) * int(colonies))
    return max(1, STEPS_PER_CHUNK // per_cycle)


#: Values of ``local_search``.
LOCAL_SEARCHES = ("none", "rotation")
#: Rotations the repair of one walk may spend, per square of the board.
REPAIR_ROTATIONS_PER_SQUARE = 4
#: Rotations without growth after which the repair gives the end square back.
GIVE_BACK_AFTER = 64


def reserved_squares(graph: KnightGraph, spec: TourSpec) -> np.ndarray:
    """Squares kept for the last move of every ant (tour type control), as a pool :func:`start_of` picks from.

    Only where keeping a square loses no tour: a closed tour with a fixed
    start and end ends on that end; a closed tour from a start with two
    neighbours (a corner) uses both, one as its first square and the other
    as its last, so every ant keeps the start's first neighbour in move
    order for its last move.  The walk then aims at a square instead of
    hoping to finish next to the start: on 15x15 without its centre, closed
    from a1, the plain colony finds a tour in about 6 s this way and none in
    90 s without.  From a start with more neighbours nothing is kept (one
    kept neighbour would rule out most closed tours: on 6x6 from c3 it finds
    0 to 3 tours in 2,000 cycles against 10 to 37), nor for an open tour,
    whose fixed end only filters complete walks, nor for a free colony,
    whose statistics stay the paper's.

    Examples
    --------
    >>> from ktsolve import Board
    >>> g = KnightGraph(Board(5, 5))
    >>> [g.name(int(s)) for s in reserved_squares(g, TourSpec(closed=True, start=(4, 0)))]
    ['b3']
    >>> reserved_squares(g, TourSpec(closed=True, start=(2, 2))).size
    0
    """
    start, end = spec_squares(graph, spec)
    if not spec.closed or start < 0 or graph.n <= 2:
        return np.zeros(0, np.int32)
    if end >= 0:
        return np.array([end], np.int32)
    nb = graph.neighbours(start)
    if nb.size == 2:
        return np.ascontiguousarray(nb[:1], dtype=np.int32)
    return np.zeros(0, np.int32)


def _adjacent(table: np.ndarray, a: int, b: int) -> bool:
    return bool((table[a] == b).any())


def posa_repair(graph: KnightGraph, tpad: np.ndarray, walk: np.ndarray, length: int, spec: TourSpec,
                rng: np.ndarray, max_rotations: int) -> tuple[np.ndarray, int, int]:
    """Extend a walk greedily and repair it with Posa rotations; ``(path, squares on it, rotations)``.

    The walk ``walk[:length + 1]`` keeps its first square.  Warnsdorff's rule
    (:func:`~._posa_kernels.posa_extend`) extends it from its end; when the
    end is stuck, a Posa rotation (the reversal of the part after a
    neighbour of the end, :func:`ktsolve.heuristics.rotation.rotate`, the
    rotation method's own primitive, called here from Python) gives the path
    a new end, chosen by :func:`~._posa_kernels.posa_pivot` among those
    that can extend, or that close the tour when every square is on it.  A
    rotation keeps the end's colour, so after :data:`GIVE_BACK_AFTER`
    rotations without growth the end square is given back (the path gets
    one square shorter and its end changes colour).  A fixed end of ``spec``
    is kept off the path until every other square is on it.  At most
    ``max_rotations`` rotations; the path returned may be shorter than the
    longest one seen.
    """
    from .rotation import rotate

    n = graph.n
    table = graph.table
    path = np.empty(n, np.int32)
    pos = np.full(n + 1, -1, np.int32)
    pos[n] = -3  # the sentinel square of tpad is never free
    _, end = spec_squares(graph, spec)
    sq = np.asarray(walk[: length + 1], np.int32)
    if end >= 0 and end in sq.tolist():
        sq = sq[: sq.tolist().index(end)]
    if sq.size == 0:
        return path, 0, 0
    m = int(sq.size)
    path[:m] = sq
    pos[sq] = np.arange(m, dtype=np.int32)
    if end >= 0:
        pos[end] = -2
    target = n - 1 if end >= 0 else n
    rotations = 0
    since = 0  # rotations since the path last grew
    longest = m
    while True:
        m = int(P.posa_extend(tpad, path, pos, m, rng))
        if m > longest:
            longest, since = m, 0
        goal = -1
        if m == target:
            if end >= 0:
                if _adjacent(table, int(path[m - 1]), end):
                    path[m] = end
                    return path, n, rotations
                goal = end
            elif not spec.closed or (n > 2 and _adjacent(table, int(path[m - 1]), int(path[0]))):
                return path, n, rotations
            else:
                goal = int(path[0])
        if rotations >= max_rotations or m < 3:
            return path, m, rotations
        if goal < 0 and since >= GIVE_BACK_AFTER:
            # a rotation keeps the end's colour; when no free square of the other colour is within reach,
            # giving the end square back changes it
            m -= 1
            pos[path[m]] = -1
            since = 0
            continue
        i = int(P.posa_pivot(tpad, path, pos, m, goal, rng))
        if i < 0:
            return path, m, rotations
        rotate(path, pos, m, i)
        rotations += 1
        since += 1


@described(Range("choice", options=("none", "warnsdorff", "exact")))
def seed_with_check(value, name, get, ctx):
    """``seed_with`` is one of :data:`~._seeding.SOURCES`, and "none" when a ``seed_tour`` is given."""
    from ._seeding import SOURCES

    source = check_choice(name, value, SOURCES, method=ctx.method)
    if source != "none" and get("seed_tour") is not None:
        raise InvalidParameterError(f"method {ctx.method!r}: give seed_with or seed_tour, not both")
    return source


class Colony:
    """What every colony shares: the question, the ants' starts, the generator, the counts, seeding, local search.

    ``values`` are the method's parameters, checked by its declaration
    (:class:`~._params.Params`); ``seed`` is settled and ``deadline`` is
    the call's clock (:func:`ktsolve.driver.begin`).  A subclass sets
    ``self.tau`` before calling :meth:`seed_trails`, and defines
    ``_cycles(k, out, first_only)`` (the kernel call), ``_lay(squares,
    moves, amount)`` (seed pheromone), ``_deposit(squares, moves, length)``
    (the deposit of a repaired walk), ``pheromone()`` and ``stats(cycles_run)``.
    """

    method = "colony"

    def __init__(self, graph: KnightGraph, spec: TourSpec, values, *, colonies: int, seed: int):
        if not isinstance(graph, KnightGraph):
            raise TypeError(f"expected a KnightGraph, got {type(graph).__name__}")
        n = graph.n
        self.graph = graph
        self.spec = spec
        self.n = n
        start, self.end = spec_squares(graph, spec)
        self.ants = values.ants
        # every ant on the fixed start, or ant a of cycle c on square (c * ants + a) mod N
        self.starts = np.array([start], np.int32) if start >= 0 else np.arange(n, dtype=np.int32)
        self.reserve = reserved_squares(graph, spec)
        self.closed = bool(spec.closed)
        self.tpad, self.full, self.rev = walk_arrays(graph)
        self.local_search = values.local_search
        self.seed = seed
        self.rng = seed_state(self.seed)
        self.counts = np.zeros(6, dtype=np.int64)
        self.most = chunk_cycles(n, self.ants, colonies)
        self.done = 0
        self.best = np.zeros(n, np.int32)
        self.best_len = np.array([-1 if self.local_search != "none" else -2], np.int64)
        self.seeded_moves = 0
        self.seed_info: dict = {}
        self.repairs = {"repaired_walks": 0, "repair_rotations": 0, "repaired_longest": 0, "found_by_repair": 0}
        self._repair_rng = seed_state(derive_seed(self.seed, "local_search"))

    # ------------------------------------------------------------------ seeding
    def seed_trails(self, values, deadline: Deadline) -> None:
        """Lay the first trails: a given ``seed_tour``, or the paths of ``seed_with`` (:mod:`._seeding`).

        The exact tours of ``seed_with="exact"`` get half the time left.
        """
        from ._seeding import seed_paths

        source, amount, paths = values.seed_with, values.seed_amount, values.seed_tour
        if source != "none":
            paths, self.seed_info = seed_paths(self.graph, self.spec, source, seed=derive_seed(self.seed, "seed_with"),
                                               time_limit=deadline.part(0.5))
            self.seed_info["seeded_with"] = source
        if paths is None or (isinstance(paths, list) and not paths):
            return
        src, mv = seed_moves(self.graph, paths, self.method)
        self._lay(src, mv, amount)
        self.seeded_moves = int(src.size)

    # ------------------------------------------------------------------ running
    @property
    def n_ants(self) -> int:
        """Walks per cycle."""
        return self.ants * self.colonies

    colonies = 1

    def run(self, n_cycles: int, out: np.ndarray, first_only: bool) -> tuple[int, int]:
        """Run up to ``n_cycles`` cycles; ``(cycles run, rows of out used)``.

        With a local search the kernel runs one cycle at a time and the
        cycle's longest walk is repaired (:func:`posa_repair`): a repaired
        tour of the request is kept like an ant's, and the repaired walk
        deposits its trail.
        """
        if self.local_search == "none":
            done, n_out = self._cycles(n_cycles, out, first_only)
            self.done += done
            return done, n_out
        n_out = 0
        for c in range(n_cycles):
            if not first_only and n_out > 0 and n_out + self.n_ants + 1 > out.shape[0]:
                return c, n_out
            done, got = self._cycles(1, out[n_out:], first_only)
            n_out += got
            if first_only and got:
                return c, n_out
            self.done += done
            tour = self._repair()
            if tour is not None:
                if n_out < out.shape[0]:
                    out[n_out] = tour
                    n_out += 1
                if first_only:
                    return c + 1, n_out
        return n_cycles, n_out

    def _repair(self) -> np.ndarray | None:
        """Repair the last cycle's longest walk; its squares when they are a tour of the request."""
        length = int(self.best_len[0])
        if length < 0:
            return None
        n = self.n
        path, m, rot = posa_repair(self.graph, self.tpad, self.best, length, self.spec, self._repair_rng,
                                   REPAIR_ROTATIONS_PER_SQUARE * n)
        r = self.repairs
        r["repaired_walks"] += 1
        r["repair_rotations"] += rot
        r["repaired_longest"] = max(r["repaired_longest"], m)
        sq = path[:m]
        if m >= 2:
            table = self.graph.table
            hit = table[sq[:-1]] == sq[1:, None]
            self._deposit(sq[:-1].astype(np.int32), hit.argmax(axis=1).astype(np.int32), m - 1)
        if m == n and (not self.closed or _adjacent(self.graph.table, int(sq[-1]), int(sq[0]))):
            r["found_by_repair"] += 1
            return sq.copy()
        return None

    def base_stats(self, cycles_run: int) -> dict:
        walks, complete, closed, matched, steps, dropped = (int(v) for v in self.counts)
        out = {
            "cycles": cycles_run,
            "ants_per_cycle": self.n_ants,
            "walks": walks,
            "complete": complete,
            "closed": closed,
            "production_rate": complete / walks if walks else 0.0,
            "mean_walk_moves": steps / walks if walks else 0.0,
        }
        if dropped:
            out["tours_not_kept"] = dropped
        if self.seeded_moves:
            out["seeded_moves"] = self.seeded_moves
        out.update(self.seed_info)
        if self.local_search != "none":
            out["local_search"] = self.local_search
            out.update(self.repairs)
        return out


def _why(reason: str, ran: int, walks: int) -> str:
    if reason == "interrupted":
        return f"interrupted after {ran:,} cycles ({walks:,} walks)"
    if reason == "time limit":
        return f"time limit reached after {ran:,} cycles ({walks:,} walks)"
    return f"no tour in {ran:,} cycles ({walks:,} walks)"


def colony_solve(col, graph: KnightGraph, spec: TourSpec, *, deadline: Deadline, progress=None) -> SolveResult:
    """Run colony ``col`` until its first tour that matches ``spec``, or until the budget ends.

    ``deadline`` is the call's clock, which the driver reads between chunks.
    ``col`` has ``cycles``, ``most`` (cycles per call at most), ``seed``,
    ``counts`` (walks first), ``run(n_cycles, out, first_only) -> (cycles
    done, rows of out used)`` and ``stats(cycles_run) -> dict``.  An
    interrupted run (Ctrl-C) answers ``unknown`` with ``stats["interrupted"]``.
    """
    out = np.empty((1, graph.n), dtype=np.int32)
    found = []

    def step(k):
        done, n_out = col.run(k, out, True)
        if n_out:
            found.append(out[0].copy())
            return done, True
        return done, done == 0

    phase(progress, f"{col.method}: cycles", col.cycles)
    outcome = drive(step, units=col.cycles, deadline=deadline, progress=progress, most=col.most)
    stats = col.stats(outcome.done)
    if found:
        stats["walks_to_first"] = stats["walks"]
        return SolveResult(Status.FOUND, tour=Tour(graph.board, found[0], closed=spec.closed), stats=stats,
                           seed=col.seed)
    stats["reason"] = _why(outcome.reason, outcome.done, stats["walks"])
    if outcome.interrupted:
        stats["interrupted"] = True
    return SolveResult(Status.UNKNOWN, stats=stats, seed=col.seed)


_STOPPED = {"budget": "cycles", "finished": "cycles", "time limit": "time limit", "interrupted": "interrupted"}


def colony_enumerate(col, graph: KnightGraph, spec: TourSpec, method: str, *, deadline: Deadline,
                     progress=None) -> Enumeration:
    """Run colony ``col`` for its cycle budget and keep every distinct tour that matches ``spec``.

    Ctrl-C ends the run at the end of the current chunk and keeps the tours
    found so far (``stats["stopped"] == "interrupted"``,
    ``stats["interrupted"]``).  ``stats`` has the counts of ``col.stats``,
    ``distinct``, ``distinct_rate`` and the bias measures of
    :func:`bias_stats`.
    """
    t0 = time.perf_counter()
    n = graph.n
    rows = min(col.n_ants * col.most + 1, max(1, OUT_CELLS // n))
    out = np.empty((rows, n), dtype=np.int32)
    tours = DistinctTours(n)
    history = []

    def step(k):
        done, n_out = col.run(k, out, False)
        tours.add(out[:n_out])
        c = col.counts
        history.append((col.done, int(c[0]), int(c[1]), len(tours)))
        return done, done == 0

    phase(progress, f"{col.method}: cycles", col.cycles)
    outcome = drive(step, units=col.cycles, deadline=deadline, progress=progress, most=col.most)
    stats = col.stats(outcome.done)
    kept = tours.array()
    stats["distinct"] = len(tours)
    stats["distinct_rate"] = len(tours) / stats["walks"] if stats["walks"] else 0.0
    stats.update(bias_stats(graph, kept))
    stats["stopped"] = _STOPPED[outcome.reason]
    if outcome.interrupted:
        stats["interrupted"] = True
    return Enumeration(tours=kept, stats=stats, method=method, seed=col.seed,
                       elapsed=time.perf_counter() - t0, board=graph.board, spec=spec,
                       closed=bool(spec.closed), pheromone=col.pheromone(), history=tuple(history))
