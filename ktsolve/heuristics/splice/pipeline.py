"""Splice's steps in order, on one board: a tour, or an ``unknown`` that says what was left.

:func:`run_steps` is one attempt: the set-up (:mod:`.build`: divide's tour,
the holes cut, the 2-factor restored), the exchanges (:mod:`.pieces`), the
check for pieces no repair can join (:mod:`.stuck`), the repairs
(:mod:`.repairs`) and the walk of the one cycle into the tour.  Its phases,
in order, are :data:`PHASES`; ``progress(k, 4)`` is called after each of
the first four.  The second attempt (:mod:`.second`) runs it again on the
transposed board.
"""

from __future__ import annotations

import time

import numpy as np

from ..._grid_kernels import END
from ...board import Board
from ...driver import Deadline
from ...factor.chunks import in_budgets, in_chunks
from ...result import SolveResult, Status
from ...tour import Tour, TourSpec, list_cycle
from ._merge_kernels import rank_cells, walk_begin, walk_part
from .build import flat, lay_tour, refused, restore
from .pieces import Job, merge_pieces
from .repairs import repair_pieces
from .stuck import cut_off

__all__ = ["run_steps", "unknown", "PHASES"]

#: The phases of one attempt, in order (the names a progress line can show).
PHASES = ("divide's tour", "restoring", "merging", "repairing", "walking")


def unknown(reason: str, **stats) -> SolveResult:
    """Splice's ``unknown``: the reason, and the stats of what was left."""
    return SolveResult(Status.UNKNOWN, stats={"reason": reason, **stats})


def _stuck_reason(board: Board, stuck: dict) -> str:
    """Why splice stopped on a piece no repair can join (:func:`~.stuck.cut_off`)."""
    if stuck["contacts"] == 0:
        return (f"a piece of {stuck['squares']} squares has no move to the rest of the board: the board is "
                "disconnected, so no repair can join it")
    name = board.name(*divmod(stuck["cell"], board.cols))
    return (f"a piece of {stuck['squares']} squares meets the rest of the board only at {name}, a cut square: "
            "no closed tour passes it, so no repair can join the piece")


def _first_square(board: Board, spec: TourSpec, links, alive, path_ends, free_ends: int) -> int:
    """The cell the walk starts from: the fixed start, the path's free end, or any square of a cycle."""
    s, t = spec.start, spec.end
    if path_ends or free_ends:
        ends = np.flatnonzero((links == END).any(axis=1)) if not path_ends else None
        if s is not None:
            return flat(board, s)
        if t is not None and ends is None:
            # only the end fixed: start from the path's other end
            ends = np.flatnonzero((links == END).any(axis=1))
            return int(ends[0]) if int(ends[0]) != flat(board, t) else int(ends[1])
        return int(ends[0])
    return flat(board, s) if s is not None else int(np.argmax(alive))


def run_steps(board: Board, spec: TourSpec, deadline: Deadline, progress, window_method: str,
              seed, said: dict | None = None) -> SolveResult:
    """One attempt of splice on ``board`` (see the module docstring); raises :class:`~ktsolve.driver.Stopped`
    when ``deadline`` runs out or Ctrl-C is pressed.

    ``said``, when given, is filled as the phases end: ``seconds`` (each phase that ended), ``short`` (moves
    left missing after the restoration) and ``pieces`` (after merging, and after the repairs), so that a
    caller whose attempt was stopped can say what it left."""
    said = {} if said is None else said
    said["seconds"] = {}
    rows, cols = board.rows, board.cols
    why = refused(board, spec)
    if why:
        return unknown(why)
    t0 = time.perf_counter()
    start = lay_tour(board, spec, deadline)
    if progress is not None:
        progress(1, 4)
    t1 = time.perf_counter()
    said["seconds"]["tour_of_full_board"] = round(t1 - t0, 3)
    start = restore(board, spec, start, deadline)
    fstats = start.stats
    said["seconds"]["restore"] = round(time.perf_counter() - t1, 3)
    said["short"] = int(start.short)
    if progress is not None:
        progress(2, 4)
    if start.links is None:
        return unknown(f"{start.short} move(s) of squares next to holes could not be restored by short "
                       f"alternating paths, and {start.why}", **fstats)
    links, alive = start.links, start.alive
    t2 = time.perf_counter()
    state = merge_pieces(links, alive, rows, cols, deadline=deadline)
    stats = {**fstats, **state.stats}
    said["seconds"]["merge"] = round(time.perf_counter() - t2, 3)
    said["pieces"] = int(state.pieces)
    stuck = cut_off(state, alive, rows, cols, closed=spec.closed, deadline=deadline) if state.pieces > 1 else None
    if stuck is not None:
        return unknown(_stuck_reason(board, stuck), cut_off=stuck, **stats)
    t3 = time.perf_counter()
    job = Job(links, alive, rows, cols, deadline, window_method, seed, said)
    state, repair = repair_pieces(job, state)
    stats.update(repair)
    pieces = state.pieces
    t4 = time.perf_counter()
    stats["seconds"] = {"tour_of_full_board": round(t1 - t0, 3), "restore": round(t2 - t1, 3),
                        "merge": round(t3 - t2, 3), "repair": round(t4 - t3, 3)}
    labels = state.labels if state.labels is not None else np.empty(rows * cols, dtype=np.int32)
    del state, job
    if progress is not None:
        progress(3, 4)
    if pieces > 1:
        return unknown(f"{pieces} pieces (cycles or the open path) were left unjoined by the exchanges "
                       "and the rounds of ruin and recreate", **stats)
    rank = labels  # the labels' memory, reused
    counted = [0]

    def ranks(a: int, b: int) -> int:
        counted[0] = rank_cells(alive, rank, a, b, counted[0])
        return 0

    in_chunks(rows * cols, ranks, deadline, "walking the tour", first=1 << 20)
    first = _first_square(board, spec, links, alive, start.path_ends, start.free_ends)
    out = np.empty(board.n_squares, dtype=np.int32)
    state = np.empty(4, dtype=np.int64)
    walk_begin(links, first, state)
    got = in_budgets(lambda budget: (walk_part(links, cols, first, rank, out, state, budget), bool(state[3])),
                     deadline, "walking the tour", first=1 << 20)
    links = rank = labels = start = None  # the memory goes back before the tour is made (the closures above name them)
    if got != board.n_squares:
        raise RuntimeError(f"splice: the one piece left covers {got} of {board.n_squares} squares")
    if spec.closed and spec.end is not None and spec.start is None:
        out = list_cycle(out, end=board.index(*spec.end))
    stats["seconds"]["walk"] = round(time.perf_counter() - t4, 3)
    if progress is not None:
        progress(4, 4)
    return SolveResult(Status.FOUND, tour=Tour(board, out, closed=spec.closed), stats=stats)
