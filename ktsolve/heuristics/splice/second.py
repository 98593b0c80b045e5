"""Splice's second attempt: the same steps on the transposed board, the tour mapped back.

Every repair of splice changes the 2-factor within reach of a piece, and
around some pieces none of them finds a change that joins it (on a
10,000 x 10,000 board with 5 % holes, seed 1, closed: a 10-square cycle in
open terrain that no free window up to 30 x 30 squares, no rotation and no
ruin of a box up to 90 x 90 squares joined).  Such a piece belongs to the
2-factor splice happened to build, which starts from divide's tour of the
full rectangle: on the transposed board that tour runs the other way
across the holes, so the 2-factor, the pieces and the places where
repairs stall all differ.  When the first attempt ends with pieces left
(and nothing proves that none can be joined), splice tries once more on the
board mirrored in its main diagonal, with the start and end mirrored too,
and maps the tour back square by square.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ...board import Board
from ...driver import Deadline, Stopped
from ...result import SolveResult, Status
from ...tour import Tour, TourSpec
from .pipeline import run_steps, unknown

__all__ = ["second_attempt", "transposed", "squares_back"]


def transposed(board: Board, spec: TourSpec) -> tuple[Board, TourSpec]:
    """The board mirrored in its main diagonal (square ``(r, c)`` becomes ``(c, r)``) and the question with it.

    Examples
    --------
    >>> b, s = transposed(Board(5, 6, holes=[(0, 1)]), TourSpec(closed=False, start=(4, 2)))
    >>> b.shape, b.holes, s.start
    ((6, 5), ((1, 0),), (2, 4))
    """

    def flip(sq):
        return None if sq is None else (int(sq[1]), int(sq[0]))

    return (Board.from_mask(~board.mask.T),
            TourSpec(closed=spec.closed, start=flip(spec.start), end=flip(spec.end)))


def squares_back(board: Board, mirrored: Board, squares: np.ndarray) -> np.ndarray:
    """The square numbers on ``board`` (int32) of ``squares``, numbers on ``mirrored`` = ``transposed(board)``.

    One table by two passes over the board, not a search per square: the
    board's square numbers laid out on its cells, read in the mirrored
    board's order (its squares are the board's cells column by column).

    Examples
    --------
    >>> board = Board(3, 4, holes=[(0, 0)])
    >>> mirrored, _ = transposed(board, TourSpec())
    >>> squares_back(board, mirrored, np.array([mirrored.index(2, 1), mirrored.index(0, 1)])).tolist()
    [5, 3]
    """
    number = np.cumsum(board.mask.reshape(-1), dtype=np.int32).reshape(board.shape)
    number -= 1
    back = number.T[mirrored.mask]
    del number
    return back[squares]


def second_attempt(board: Board, spec: TourSpec, deadline: Deadline, progress, window_method: str, seed,
                   first: SolveResult) -> SolveResult:
    """The steps again on the transposed board (:func:`transposed`; :func:`~.pipeline.run_steps`), after a
    first attempt that left pieces; its tour mapped back, or an ``unknown`` that gives both attempts' counts."""
    before = {"pieces": first.stats["pieces"], "reason": first.stats["reason"]}
    try:
        deadline.check("transposing the board for a second attempt")
        mirrored, question = transposed(board, spec)
        res = run_steps(mirrored, question, deadline, progress, window_method, seed)
    except Stopped as stop:
        if stop.interrupted:
            return unknown(stop.describe(), interrupted=True, first_attempt=before)
        return replace(first, stats={**first.stats, "second_attempt": stop.describe()})
    if res.status is not Status.FOUND:
        why = (f"{before['pieces']} pieces were left unjoined, and on the transposed board "
               f"{res.stats.get('pieces', 'none')} (the second attempt: {res.stats['reason']})")
        return unknown(why, first_attempt=before, **{k: v for k, v in res.stats.items() if k != "reason"})
    squares = squares_back(board, mirrored, res.tour.squares)
    return SolveResult(Status.FOUND, tour=Tour(board, squares, closed=spec.closed),
                       stats={**res.stats, "first_attempt": before, "transposed": True})
