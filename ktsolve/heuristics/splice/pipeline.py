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
from ...driver import Deadline, Stopped
from ...factor.chunks import in_budgets, in_chunks
from ...result import SolveResult, Status
from ...tour import Tour, TourSpec, list_cycle
from ._merge_kernels import rank_cells, walk_begin, walk_part
from .build import flat, lay_tour, refused, restore
from .pieces import Job, merge_pieces
from .repairs import repair_pieces
from .stuck import cut_off, pocket_squares

__all__ = ["run_steps", "unknown", "repair_clock", "PHASES", "SECOND_RESERVE"]

#: The phases of one attempt, in order (the names a progress line can show).
PHASES = ("divide's tour", "restoring", "merging", "repairing", "walking")
#: Under a time limit the first attempt's repairs leave the second attempt (:mod:`.second`) this many times
#: the seconds the attempt took up to the end of its exchanges: the second attempt repeats those steps on
#: the transposed board, and where it is the one that finds the tour its repairs are short (10,000 x 10,000,
#: 5 % holes, seed 1, closed: 55 s to the exchanges, then the repairs left a 10-square cycle that none of
#: them joined in 100 s a turn; the transposed board alone was toured in 71 s).
SECOND_RESERVE = 1.5


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


def repair_clock(deadline: Deadline, reserve: float) -> Deadline:
    """The repairs' clock: ``deadline`` less ``reserve`` seconds kept for a second attempt, where the time left
    is at least twice ``reserve`` (else the repairs get it all, as no second attempt has the time to finish).

    Examples
    --------
    >>> whole = Deadline(100.0)
    >>> 69.0 < repair_clock(whole, 30.0).remaining() <= 70.0
    True
    >>> repair_clock(whole, 60.0) is whole, repair_clock(Deadline(None), 30.0).remaining()
    (True, None)
    """
    left = deadline.remaining()
    if left is None or left < 2 * reserve:
        return deadline
    clock = Deadline(deadline.time_limit - reserve, t0=deadline.t0, cancel=deadline.cancel)
    clock.extra = deadline.extra
    return clock


def run_steps(board: Board, spec: TourSpec, deadline: Deadline, progress, window_method: str,
              seed, said: dict | None = None, *, reserve: bool = False) -> SolveResult:
    """One attempt of splice on ``board`` (see the module docstring); raises :class:`~ktsolve.driver.Stopped`
    when ``deadline`` runs out or Ctrl-C is pressed.

    ``said``, when given, is filled as the phases end: ``seconds`` (each phase that ended), ``short`` (moves
    left missing after the restoration) and ``pieces`` (after merging, and after the repairs), so that a
    caller whose attempt was stopped can say what it left.

    With ``reserve`` (the first of two attempts) the repairs run on :func:`repair_clock`, which keeps
    :data:`SECOND_RESERVE` times the seconds of the steps before them for the second attempt; when that
    clock runs out first, the answer is an ``unknown`` with the pieces left and ``repairs_cut``."""
    said = {} if said is None else said
    said["seconds"] = {}
    rows, cols = board.rows, board.cols
    why = refused(board, spec)
    if why:
        return unknown(why)
    t0 = time.perf_counter()
    said["running"] = ("tour_of_full_board", t0)
    start = lay_tour(board, spec, deadline)
    if progress is not None:
        progress(1, 4)
    t1 = time.perf_counter()
    said["seconds"]["tour_of_full_board"] = round(t1 - t0, 3)
    said["running"] = ("restore", t1)
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
    said["running"] = ("merge", t2)
    state = merge_pieces(links, alive, rows, cols, deadline=deadline)
    stats = {**fstats, **state.stats}
    said["seconds"]["merge"] = round(time.perf_counter() - t2, 3)
    said["pieces"] = int(state.pieces)
    stuck = cut_off(state, alive, rows, cols, closed=spec.closed, deadline=deadline) if state.pieces > 1 else None
    if stuck is not None:
        return unknown(_stuck_reason(board, stuck), cut_off=stuck, **stats)
    t3 = time.perf_counter()
    clock = repair_clock(deadline, SECOND_RESERVE * (t3 - t0)) if reserve else deadline
    time_left = deadline.remaining()
    if reserve and clock is deadline and time_left is not None:
        said["no_second_attempt"] = (f"no second attempt ({time_left:.3g} s left after the exchanges, under twice "
                                     f"the {SECOND_RESERVE * (t3 - t0):.3g} s it would need)")
    said["running"] = ("repair", t3)
    job = Job(links, alive, rows, cols, clock, window_method, seed, said)
    try:
        state, repair = repair_pieces(job, state)
    except Stopped as stop:
        if clock is deadline or stop.interrupted or deadline.expired():
            raise
        # the repairs' share ran out, the call's time did not: the rest is the second attempt's
        said["seconds"]["repair"] = round(time.perf_counter() - t3, 3)
        left = int(said["pieces"])
        return unknown(f"{left} pieces were left when the repairs' share of the time ran out (the rest of it "
                       f"was left to a second attempt)", **{**stats, "pieces": left, "repairs_cut": True,
                                                            "seconds": dict(said["seconds"])})
    stats.update(repair)
    pieces = state.pieces
    if pieces > 1 and not spec.closed:
        stats["pocket"] = pocket_squares(state, alive, rows, cols, deadline)
    t4 = time.perf_counter()
    said["running"] = ("walk", t4)
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
