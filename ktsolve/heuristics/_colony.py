"""Plain-Python helpers shared by the ant colonies (:mod:`.aco`, :mod:`.iaco`) and the GA.

Nothing here is compiled: the numba kernels live in
:mod:`._colony_kernels`.  This module holds what the methods need around
them: turning a :class:`~ktsolve.tour.TourSpec` into square numbers, the
moves of seed paths (to lay pheromone along them), the set of distinct
tours found so far and its bias measures, and the glue between a colony and
:func:`ktsolve.driver.drive` (budget, time limit, progress, Ctrl-C).

Distinct tours are kept as the raw bytes of their square sequence in a
``dict`` (insertion-ordered, so tours come back in the order they were first
found); a chunk of tours is added with one C-level ``dict.update`` over a
numpy ``void`` view of its rows, which keeps bookkeeping far below the cost
of the walks even at half a million tours.
"""

from __future__ import annotations

import math
import time

import numpy as np

from ..checks import check_real
from ..driver import drive
from ..errors import InvalidTourError
from ..graph import KnightGraph
from ..result import Enumeration, SolveResult, Status
from ..tour import Tour, TourSpec

__all__ = [
    "spec_squares",
    "seed_moves",
    "seed_state",
    "walk_arrays",
    "check_exponent",
    "DistinctTours",
    "bias_stats",
    "chunk_cycles",
    "colony_solve",
    "colony_enumerate",
    "STEPS_PER_CHUNK",
]

#: Most ant moves in one kernel call (the driver sizes calls by time, about
#: 50 ms each, and never above this), which also bounds the tour buffer of an
#: enumeration.
STEPS_PER_CHUNK = 2_000_000


def spec_squares(graph: KnightGraph, spec: TourSpec) -> tuple[int, int]:
    """Square numbers of the fixed start and end (-1 where none is fixed)."""
    b = graph.board
    s = -1 if spec.start is None else b.index(*spec.start)
    e = -1 if spec.end is None else b.index(*spec.end)
    return s, e


def check_exponent(name: str, value, bound: float, *, method: str) -> float:
    """A real exponent in ``[-bound, bound]``, or one of the infinities (limits of a power mean)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isinf(value):
        return float(value)
    return check_real(name, value, -bound, bound, method=method)


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


def walk_arrays(graph: KnightGraph) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(tpad, full, rev)`` for the walk kernels.

    ``tpad`` (``n x 8`` int32) is ``graph.table`` with ``n`` for "no move"
    (and extra columns of ``n`` for leapers with fewer than 8 moves), ``full``
    (``n + 1`` uint8) the bit set of the moves of each square (0 for the
    sentinel), ``rev[j]`` the move that undoes move ``j``.
    """
    table = np.ascontiguousarray(graph.table, dtype=np.int32)
    n, k = table.shape
    if k > 8:
        raise ValueError(f"the walk kernel handles at most 8 moves per square, not {k}")
    tpad = np.full((n, 8), n, dtype=np.int32)
    tpad[:, :k] = np.where(table < 0, n, table)
    bits = (tpad < n).astype(np.uint8) << np.arange(8, dtype=np.uint8)
    full = np.zeros(n + 1, dtype=np.uint8)
    full[:n] = bits.sum(axis=1, dtype=np.uint8)
    mv = graph.moves.tolist()
    rev = np.zeros(8, dtype=np.int32)
    rev[:k] = [mv.index([-a, -b]) for a, b in mv]
    return tpad, full, rev


def seed_state(seed: int) -> np.ndarray:
    """The generator state (one uint64) for a seed: the seed itself, as SplitMix64 mixes it."""
    return np.array([seed], dtype=np.uint64)


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


def chunk_cycles(n: int, ants: int, colonies: int = 1) -> int:
    """Most cycles in one kernel call: :data:`STEPS_PER_CHUNK` ant moves, at least one cycle."""
    per_cycle = max(1, int(n) * int(ants) * int(colonies))
    return max(1, STEPS_PER_CHUNK // per_cycle)


def _why(reason: str, ran: int, walks: int) -> str:
    if reason == "interrupted":
        return f"interrupted after {ran:,} cycles ({walks:,} walks)"
    if reason == "time limit":
        return f"time limit reached after {ran:,} cycles ({walks:,} walks)"
    return f"no tour in {ran:,} cycles ({walks:,} walks)"


def colony_solve(col, graph: KnightGraph, spec: TourSpec, *, time_limit=None, progress=None) -> SolveResult:
    """Run colony ``col`` until its first tour that matches ``spec``, or until the budget ends.

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

    outcome = drive(step, units=col.cycles, time_limit=time_limit, progress=progress, most=col.most)
    stats = col.stats(outcome.done)
    if found:
        stats["walks_to_first"] = stats["walks"]
        tour = col.finish(found[0]) if hasattr(col, "finish") else found[0]
        return SolveResult(Status.FOUND, tour=Tour(graph.board, tour, closed=spec.closed), stats=stats,
                           seed=col.seed)
    stats["reason"] = _why(outcome.reason, outcome.done, stats["walks"])
    if outcome.interrupted:
        stats["interrupted"] = True
    return SolveResult(Status.UNKNOWN, stats=stats, seed=col.seed)


_STOPPED = {"budget": "cycles", "finished": "cycles", "time limit": "time limit", "interrupted": "interrupted"}


def colony_enumerate(col, graph: KnightGraph, spec: TourSpec, method: str, *, time_limit=None,
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
    out = np.empty((col.n_ants * col.most, n), dtype=np.int32)
    tours = DistinctTours(n)
    history = []

    def step(k):
        done, n_out = col.run(k, out, False)
        tours.add(out[:n_out])
        c = col.counts
        history.append((col.done, int(c[0]), int(c[1]), len(tours)))
        return done, done == 0

    outcome = drive(step, units=col.cycles, time_limit=time_limit, progress=progress, most=col.most)
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
