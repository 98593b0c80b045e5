"""Splice's attempt with an end in a pocket: an open question whose pieces left include a pocket.

A set of squares of one colour whose moves all lead into as many squares
holds an end of every open tour (:mod:`ktsolve.proofs.ends`); two squares
sharing their only two moves are the common case, at the edge of a hole.
Splice places the free ends of an open path where its restoration leaves
squares short, so such a pair closes into a cycle of four that no repair
opens: every repair replaces links inside a piece by moves out of it, and
the pair's squares have none.  When the pieces left hold a square whose
every move stays in its piece (:func:`~.stuck.pocket_squares`), splice
tries again with that square as the start of the path (the end, where the
question fixes the start), which the question allows whenever the colours
do: a tour from there is a tour of the question asked.  (On swiss cheese
1118 x 1118, seed 3, open, 997,867 squares: both attempts left the pair's
cycle; with the start fixed in it, splice toured the board in 0.5 s.)  The
attempt runs without a reserve, so it may leave the transposed attempt
(:mod:`.second`) no time.
"""

from __future__ import annotations

from dataclasses import replace

from ...board import Board
from ...driver import Deadline, Stopped
from ...result import SolveResult, Status
from ...tour import TourSpec
from .build import refused
from .pipeline import run_steps

__all__ = ["pocket_attempt", "pocket_question"]


def pocket_question(board: Board, spec: TourSpec, square) -> TourSpec | None:
    """The question with ``square`` as a fixed end (the start, or the end where the start is fixed), or None
    when both ends are fixed or the colours rule it out.

    Examples
    --------
    >>> b = Board(6, 6)
    >>> pocket_question(b, TourSpec(closed=False), (2, 3)), pocket_question(b, TourSpec(closed=True), (2, 3))
    (TourSpec(closed=False, start=(2, 3), end=None), None)
    """
    if spec.closed or (spec.start is not None and spec.end is not None):
        return None
    ask = (TourSpec(closed=False, start=square, end=spec.end) if spec.start is None
           else TourSpec(closed=False, start=spec.start, end=square))
    return None if refused(board, ask) else ask


def pocket_attempt(board: Board, spec: TourSpec, deadline: Deadline, progress, window_method: str, seed,
                   first: SolveResult) -> SolveResult:
    """The steps again with an end in the first pocket square of ``first`` the question allows; the tour,
    or ``first`` with ``pocket_attempt`` saying what the attempt left."""
    for square in first.stats.get("pocket", ()):
        ask = pocket_question(board, spec, square)
        if ask is None:
            continue
        name = board.name(*square)
        try:
            deadline.check("fixing an end in a pocket")
            res = run_steps(board, ask, deadline, progress, window_method, seed)
        except Stopped as stop:
            if stop.interrupted:
                raise
            return replace(first, stats={**first.stats, "pocket_attempt": f"from {name}: {stop.describe()}"})
        if res.status is Status.FOUND:
            return replace(res, stats={**res.stats, "pocket_end": name, "first_attempt": {
                "pieces": first.stats.get("pieces"), "reason": first.stats.get("reason")}})
        return replace(first, stats={**first.stats, "pocket_attempt": f"from {name}: {res.stats.get('reason')}"})
    return first
