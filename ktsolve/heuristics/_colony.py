"""Plain-Python helpers shared by the ant colonies (:mod:`.aco`, :mod:`.iaco`).

Nothing here is compiled: the numba kernels stay in the file of their
algorithm.  This module holds what both colonies need around their kernels:
checking parameters, turning a :class:`~ktsolve.tour.TourSpec` into square
numbers, the moves of a seed tour (to lay pheromone along it), the set of
distinct tours found so far, and the chunked driver that runs a kernel for a
number of cycles while watching the clock and reporting progress.

Distinct tours are kept as the raw bytes of their square sequence in a
``dict`` (insertion-ordered, so tours come back in the order they were first
found); a chunk of tours is added with one C-level ``dict.update`` over a
numpy ``void`` view of its rows, which keeps bookkeeping far below the cost
of the walks even at half a million tours.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from ..errors import InvalidTourError
from ..graph import KnightGraph
from ..result import Enumeration, SolveResult, Status
from ..tour import Tour, TourSpec

__all__ = [
    "spec_squares",
    "seed_moves",
    "seed_state",
    "walk_arrays",
    "DistinctTours",
    "chunk_cycles",
    "run_cycles",
    "colony_solve",
    "colony_enumerate",
]

#: Steps (ant moves) a kernel call aims at, so that the clock is read about every 20-50 ms.
STEPS_PER_CHUNK = 2_000_000


def spec_squares(graph: KnightGraph, spec: TourSpec) -> tuple[int, int]:
    """Square numbers of the fixed start and end (-1 where none is fixed)."""
    b = graph.board
    s = -1 if spec.start is None else b.index(*spec.start)
    e = -1 if spec.end is None else b.index(*spec.end)
    return s, e


def seed_moves(graph: KnightGraph, seed_tour, method: str) -> tuple[np.ndarray, np.ndarray]:
    """``(square, move)`` pairs of every step of one or more seed tours.

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
    """
    if isinstance(seed_tour, Tour):
        items = [(seed_tour.squares, seed_tour.closed)]
    elif isinstance(seed_tour, np.ndarray) and seed_tour.ndim == 2:
        items = [(row, False) for row in seed_tour]
    elif isinstance(seed_tour, np.ndarray):
        items = [(seed_tour, False)]
    elif isinstance(seed_tour, (list, tuple)) and seed_tour and not np.isscalar(seed_tour[0]):
        items = [(t.squares, t.closed) if isinstance(t, Tour) else (np.asarray(t), False) for t in seed_tour]
    else:
        items = [(np.asarray(seed_tour), False)]
    table = graph.table
    src_all, mv_all = [], []
    for squares, closed in items:
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
    return np.concatenate(src_all), np.concatenate(mv_all)


def walk_arrays(graph: KnightGraph) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(tpad, full, rev)`` for the walk kernel.

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
    keep : bool
        Keep the tours themselves (False counts them, which needs the same
        memory: a distinct count needs the set).

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


def chunk_cycles(n: int, ants: int, colonies: int = 1) -> int:
    """Cycles per kernel call: about :data:`STEPS_PER_CHUNK` ant moves, at least one cycle."""
    per_cycle = max(1, int(n) * int(ants) * int(colonies))
    return max(1, STEPS_PER_CHUNK // per_cycle)


def run_cycles(
    step: Callable[[int], tuple[int, bool]],
    cycles: int,
    chunk: int,
    *,
    time_limit: float | None = None,
    progress: Callable | None = None,
    after_chunk: Callable[[int], None] | None = None,
) -> tuple[int, str]:
    """Drive a kernel in chunks of cycles until done, stopped, or out of time.

    ``step(n_cycles)`` runs up to ``n_cycles`` cycles and returns
    ``(cycles_done, stop)``; ``stop`` ends the run (a tour was found, say).
    Returns the number of cycles run and why the run ended: ``"stopped"``,
    ``"cycles"`` (the budget was used up) or ``"time limit"``.
    """
    t0 = time.perf_counter()
    done = 0
    while done < cycles:
        if time_limit is not None and time.perf_counter() - t0 >= time_limit:
            return done, "time limit"
        ran, stop = step(min(chunk, cycles - done))
        if ran <= 0 and not stop:
            raise RuntimeError("a colony kernel made no progress")
        done += ran
        if after_chunk is not None:
            after_chunk(done)
        if progress is not None:
            progress(done, cycles)
        if stop:
            return done, "stopped"
    return done, "cycles"


def colony_solve(col, graph: KnightGraph, spec: TourSpec, *, time_limit=None, progress=None) -> SolveResult:
    """Run colony ``col`` until its first tour that matches ``spec``, or until the budget ends.

    ``col`` has ``cycles``, ``chunk``, ``n_ants``, ``counts`` (walks first),
    ``run(n_cycles, out, first_only) -> (cycles done, rows of out used)`` and
    ``stats(cycles_run) -> dict``.
    """
    out = np.empty((1, graph.n), dtype=np.int32)
    found = []

    def step(n_cycles):
        done, n_out = col.run(n_cycles, out, True)
        if n_out:
            found.append(out[0].copy())
            return done, True
        return done, False

    ran, why = run_cycles(step, col.cycles, col.chunk, time_limit=time_limit, progress=progress)
    stats = col.stats(ran)
    if found:
        stats["walks_to_first"] = stats["walks"]
        return SolveResult(Status.FOUND, tour=Tour(graph.board, found[0], closed=spec.closed), stats=stats)
    stats["reason"] = (f"no tour in {ran:,} cycles ({stats['walks']:,} walks)" if why == "cycles"
                       else f"time limit reached after {ran:,} cycles ({stats['walks']:,} walks)")
    return SolveResult(Status.UNKNOWN, stats=stats)


def colony_enumerate(col, graph: KnightGraph, spec: TourSpec, method: str, *, time_limit=None,
                     progress=None) -> Enumeration:
    """Run colony ``col`` for its cycle budget and keep every distinct tour that matches ``spec``."""
    t0 = time.perf_counter()
    n = graph.n
    out = np.empty((col.n_ants * col.chunk, n), dtype=np.int32)
    tours = DistinctTours(n)
    history = []

    def step(n_cycles):
        done, n_out = col.run(n_cycles, out, False)
        tours.add(out[:n_out])
        return done, False

    def after(done):
        c = col.counts
        history.append((done, int(c[0]), int(c[1]), len(tours)))

    ran, why = run_cycles(step, col.cycles, col.chunk, time_limit=time_limit, progress=progress,
                          after_chunk=after)
    stats = col.stats(ran)
    stats["distinct"] = len(tours)
    stats["distinct_rate"] = len(tours) / stats["walks"] if stats["walks"] else 0.0
    stats["stopped"] = "time limit" if why == "time limit" else "cycles"
    return Enumeration(tours=tours.array(), stats=stats, method=method, seed=col.seed,
                       elapsed=time.perf_counter() - t0, board=graph.board, spec=spec,
                       closed=bool(spec.closed), pheromone=col.pheromone(), history=tuple(history))
