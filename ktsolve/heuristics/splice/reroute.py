"""A repair of splice, the first of a turn: a piece left over is broken at one link and rerouted by an
alternating cycle.

A piece that no four- or six-square exchange joins can sit in a *frozen*
stretch of the 2-factor: with the links around it fixed, every 2-factor of
a window holds the piece, however large the window (seen on a 4000 x 4000
board with 5 % holes: a 10-square cycle inside a corridor of forced moves
that crossed windows of 55 x 52 squares, so every window, fixed or free,
was infeasible).  The way out is a change that reaches past the frozen
stretch.  Cutting one link ``u - v`` of the piece leaves ``u`` and ``v``
short of a link; the shortest alternating path from ``u`` back to ``v``
that does not start with the move ``u - v`` itself
(:func:`ktsolve.factor._restore_kernels.augment_from` with ``avoid``)
closes an alternating cycle through that link, and flipping it gives a
2-factor without ``u - v``: the piece is opened, and the links the path
flips join it to the pieces the path crosses (and may cut those into new,
smaller pieces, which the exchanges then join).

A flip can also leave a small cycle where it changed links (the piece
again, when the path closes near it, or a new one), so each piece tries
several of its links and keeps the first flip that leaves no small cycle
among the squares it changed (a bounded walk from each tells).  Each round
reroutes every piece left, labels the board once and merges by exchanges
again, and is undone unless the count of pieces fell.

A frozen stretch can be wide, and a search that fills its queue finds
nothing: once few pieces are left, a piece none of whose searches found a
path gets longer queues (:class:`Searches`) and its links are tried again.
"""

from __future__ import annotations

import time

import numpy as np

from ...factor._restore_kernels import reroute
from ._merge_kernels import cycle_cells
from .pieces import Job, Pieces, piece_cells

__all__ = ["repair_reroute", "Searches", "REROUTE_ROUNDS", "REROUTE_TRIES", "REROUTE_QUEUE", "REROUTE_QUEUE_MAX",
           "GROW_MAX_PIECES", "STALL_PIECES", "COUNTS"]

#: Rounds of rerouting (each one link of every piece left, then the exchanges).
REROUTE_ROUNDS = 6
#: Links of one piece tried in a round before one is rerouted whatever small cycles it leaves.
REROUTE_TRIES = 8
#: Squares one rerouting search may queue at first (three int64 arrays of this size).
REROUTE_QUEUE = 1 << 20
#: Squares the queues grow to, at most, when a piece's searches fill them and find no path (:class:`Searches`).
#: In a frozen stretch the alternating cycle through a piece reaches far: on 10,000 x 10,000 with 5 % holes
#: (seed 1) the search from the 10-square piece the repairs left found its path at queue position 2.07
#: million, 4.2 million squares seen in 0.38 s (benchmarks/results/frozen_piece.md); the flip changed 732
#: squares over 279 rows and 568 columns, and the exchanges and one round of reroutes then left one piece.
#: Queues of 2^23 squares are 200 MB.
REROUTE_QUEUE_MAX = 1 << 23
#: A rerouting is kept when none of the squares it changed lies on a cycle of at most this many squares
#: per square of the piece (and at least _SMALL_MIN, at most _SMALL_MAX): such a cycle is the piece again,
#: or a new small piece.
_SMALL_PER_SQUARE = 4
_SMALL_MIN, _SMALL_MAX = 64, 1 << 16
#: Pieces left at most for the queues to grow (:class:`Searches`): a search that fills a grown queue costs
#: seconds, and while thousands of pieces are left most are joined by the exchanges after a short search.
GROW_MAX_PIECES = 64
#: Small cycles a piece's forced reroute leaves that are rerouted in their turn, within one round.
CHASE = 4
#: Pieces left at most for a round that does not lower their count to end the rerouting: the wide ruin
#: (:func:`~.ruin.repair_wide`, the same count) comes next and reroutes after each of its rounds.  On
#: 10,000 x 10,000 with 5 % holes (seed 1, open with fixed ends) the rounds after the count reached 4
#: failed for about 20 s of auto's 120 s, and the wide ruin after them, reached at 91.8 s, ran out of time in
#: its second round.
STALL_PIECES = 16
#: The counts this repair reports (``reroute_grown``: times the queues grew; ``reroute_held``: times they
#: did not, because a search at the longer queues was projected to outlast the time left).
COUNTS = ("reroute_rounds", "reroute_undone", "reroute_forced", "reroute_grown", "reroute_held")
#: The strides between the squares of a piece that successive tries and rounds cut a link at.
_STRIDE, _ROUND_STRIDE = 7919, 104729


class Searches:
    """What the rerouting searches (:func:`~ktsolve.factor._restore_kernels.reroute`) share on one board.

    ``stamp`` (int32 a cell) marks the squares a search has seen with that
    search's own mark, counted up from 1 and never reused, so it is never
    cleared; the three int64 queues (``augment_from``'s ``qv``, ``qx``,
    ``qp``) are ``size`` long at first and grow eightfold, up to ``limit``,
    when searches that filled them found no path (:meth:`grow`: a search
    that fills its queue stops with none); ``small`` gets a square of the
    small cycle a flip left.  ``deadline`` is checked before every search
    (``phase``: what its reason names).

    A search is one numba call that reads no clock, and one that fills its
    queue costs in proportion to the queue (0.35 s for 2^20 squares on a
    10,000 x 10,000 board).  So the searches are timed: ``fill`` is the
    longest that found no path at the current size, and the queues grow
    only when that time, scaled to the longer queues, fits in what the
    deadline leaves (``held`` counts the times it did not).
    """

    def __init__(self, cells: int, deadline, phase: str, size: int = REROUTE_QUEUE, limit: int = REROUTE_QUEUE_MAX):
        self.deadline, self.phase = deadline, phase
        self.stamp = np.zeros(cells, dtype=np.int32)
        self.small = np.empty(1, dtype=np.int64)
        self.limit = min(max(size, limit), cells)
        self.queues = self._make(min(size, cells))
        self.mark = 0
        self.grown = 0
        self.held = 0
        self.fill = 0.0

    @staticmethod
    def _make(size: int):
        return tuple(np.empty(size, dtype=np.int64) for _ in range(3))

    def reroute(self, f: int, s: int, links, alive, rows: int, cols: int, budget: int, force: int) -> int:
        """:func:`~ktsolve.factor._restore_kernels.reroute` of the link in slot ``s`` of cell ``f``, with a
        new mark."""
        self.deadline.check(self.phase)
        self.mark += 1
        t0 = time.perf_counter()
        got = int(reroute(f, s, links, alive, rows, cols, self.stamp, self.mark, *self.queues, budget, force,
                          self.small))
        if got == 0:
            self.fill = max(self.fill, time.perf_counter() - t0)
        return got

    def grow(self) -> bool:
        """Longer queues (the old ones go first); False when they are at their limit already, or when a
        search filling them would outlast the time left."""
        size = self.queues[0].size
        if size >= self.limit:
            return False
        new = min(8 * size, self.limit)
        left = self.deadline.remaining()
        if left is not None and self.fill * new / size > left:
            self.held += 1
            return False
        self.queues = None
        self.queues = self._make(new)
        self.grown += 1
        self.fill = 0.0
        return True


def _reroute_piece(piece, k: int, links, alive, rows: int, cols: int, searches: Searches, tries: int, ring,
                   grow: bool):
    """Reroute one link of the piece whose squares are ``piece`` (round ``k``): up to ``tries`` links in turn
    until a flip is clean; when none is, the first is kept all the same.  Returns ``(cycle, forced)``:
    the squares of a small cycle that kept flip left (to be chased in its turn) or None, and 1 when it was
    kept.

    When no try found a path at all and ``grow``, the queues grow (:meth:`Searches.grow`) and the tries are
    made again."""
    while True:
        found = _reroute_tries(piece, k, links, alive, rows, cols, searches, tries, ring)
        if found is not None or not grow or not searches.grow():
            return found if found is not None else (None, 0)


def _reroute_tries(piece, k: int, links, alive, rows: int, cols: int, searches: Searches, tries: int, ring):
    """:func:`_reroute_piece`'s tries with the queues as they are; None when no try found a path."""
    size = piece.size
    budget = min(max(_SMALL_PER_SQUARE * size, _SMALL_MIN), _SMALL_MAX)
    first = None
    searched = False
    for t in range(tries):
        f = int(piece[(3 + k * _ROUND_STRIDE + t * _STRIDE) % size])
        s = (k + t) % 2
        if not 0 <= links[f, s] < 8:
            s = 1 - s
            if not 0 <= links[f, s] < 8:
                continue
        got = searches.reroute(f, s, links, alive, rows, cols, budget, 0)
        searched = True
        if got == 1:
            return None, 0
        if got == -1 and first is None:
            first = (f, s)
    if first is None:
        return None if searched else (None, 0)
    # every try left a small cycle: the first is kept all the same, and the cycle it left is chased
    searches.reroute(first[0], first[1], links, alive, rows, cols, budget, 1)
    return ring[:cycle_cells(int(searches.small[0]), links, rows, cols, ring)].copy(), 1


def repair_reroute(job: Job, state: Pieces, turn: int, *, rounds: int = REROUTE_ROUNDS, tries: int = REROUTE_TRIES,
                   queue: int = REROUTE_QUEUE, stall: int = STALL_PIECES) -> tuple[Pieces, dict]:
    """Rounds of rerouting around the pieces left (see the module docstring); returns the last
    :class:`~.pieces.Pieces` and the counts ``reroute_rounds``, ``reroute_undone``,
    ``reroute_forced`` (reroutes kept though each try left a small cycle), ``reroute_grown`` (times
    the searches' queues, ``queue`` squares at first, grew: :class:`Searches`, once at most
    :data:`GROW_MAX_PIECES` pieces are left) and ``reroute_held`` (times they did not, for the time left).

    Each piece gets up to ``tries`` links cut in turn
    (:func:`ktsolve.factor._restore_kernels.reroute`), until one's
    alternating cycle leaves no small cycle among the squares it changed;
    when none does, the first is kept anyway and the small cycle it left is
    rerouted in its turn (up to :data:`CHASE` times), and what is left goes
    to the exchanges and the next round.  ``links`` keep a 2-factor throughout; a
    round that does not lower the count of pieces is undone from a copy of
    the links taken before it, and ends the rounds once at most ``stall``
    pieces are left.  Every turn reroutes alike (``turn`` is not read).
    """
    links, alive, rows, cols, deadline = job.links, job.alive, job.rows, job.cols, job.deadline
    if state.labels is None:
        state = job.merge()
    done = undone = forced = 0
    searches = ring = saved = None
    for k in range(rounds):
        if state.pieces <= 1:
            break
        deadline.check("rerouting the pieces left")
        cells, starts, sizes = piece_cells(state, deadline)
        if searches is None:
            searches = Searches(rows * cols, deadline, "rerouting the pieces left", queue)
            ring = np.empty(_SMALL_MAX, dtype=np.int64)
            saved = links.copy()
        else:
            saved[:] = links
        for start, size in zip(starts.tolist(), sizes.tolist()):
            deadline.check("rerouting the pieces left")
            piece = cells[start:start + size]
            for _ in range(CHASE):
                piece, was_forced = _reroute_piece(piece, k, links, alive, rows, cols, searches, tries, ring,
                                                   state.pieces <= GROW_MAX_PIECES)
                forced += was_forced
                if piece is None:
                    break
        done += 1
        after = job.merge()
        if after.pieces < state.pieces:
            state = after
            continue
        del after
        links[:] = saved  # the links the state was labelled on
        undone += 1
        if state.pieces <= stall:
            break
    return state, {"reroute_rounds": done, "reroute_undone": undone, "reroute_forced": forced,
                   "reroute_grown": 0 if searches is None else searches.grown,
                   "reroute_held": 0 if searches is None else searches.held}
