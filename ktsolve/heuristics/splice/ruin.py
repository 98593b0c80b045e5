"""A repair of splice: ruin and recreate around the pieces left, in rounds that never raise their count.

Every link near the pieces other than the largest is cut, two moves are
restored at every square by the local searches of
:func:`ktsolve.factor.restore.restore_factor` in another order, and the
pieces are merged again by exchanges.  One round costs one labelling of the
board however many pieces there are, where a window is a CP-SAT model per
piece.

The *wide* ruin (:func:`repair_wide`), for the last few pieces, cuts boxes
far wider than any window and lets the count rise: the restored boxes come
back as dozens of pieces, and the reroutes join them.  Around a piece whose
every window is infeasible (on 10,000 x 10,000 with 5 % holes, seed 1, open
with fixed ends: free windows up to 21 x 22 squares proved infeasible by
CP-SAT, and no four-square exchange with any other link), boxes 16 squares
wider came back as 8 to 30 pieces, which the reroutes joined into one in
9.7-13.3 s, in 7 of 7 tries from the two states the repairs left there (with
other shuffles); boxes 24, 32 and 40 squares wider did so in 8 of 11, 3 of
7 and 3 of 6 tries.
"""

from __future__ import annotations

import numpy as np

from ...factor.restore import restore_factor
from . import reroute
from ._merge_kernels import ruin_box
from .pieces import Job, Pieces, piece_boxes

__all__ = ["repair_ruin", "repair_wide", "REPAIR_ROUNDS", "REPAIR_SHUFFLE", "COUNTS", "WIDE_MARGINS",
           "WIDE_MAX_PIECES", "WIDE_COUNTS"]

#: Rounds of ruin and recreate around the pieces that the exchanges leave (a turn's).
REPAIR_ROUNDS = 8
#: The fixed seed of the shuffled order of ruin and recreate in the first turn (the next turns add the turn's
#: number; the method itself takes no seed).
REPAIR_SHUFFLE = 18
#: The counts this repair reports.
COUNTS = ("repair_rounds", "repair_undone")
#: Margins (squares) of the wide ruin's boxes around every piece but the largest, one round each.
WIDE_MARGINS = (16, 24, 32)
#: Pieces left at most for the wide ruin to run: a round restores a box some 40 squares across around each,
#: and its reroutes then join the dozens of pieces the boxes come back as.
WIDE_MAX_PIECES = reroute.STALL_PIECES
#: The counts the wide ruin reports.
WIDE_COUNTS = ("wide_rounds", "wide_undone")
#: What the deadline's reason names while the wide ruin runs (its reroutes name their own phase).
WIDE_PHASE = "re-making wide boxes around the pieces left"


def repair_ruin(job: Job, state: Pieces, turn: int, *, rounds: int = REPAIR_ROUNDS) -> tuple[Pieces, dict]:
    """Ruin and recreate around the pieces left: their links and every link near them are cut, two
    moves restored in another order, and the pieces merged again.

    Each round cuts the links with an end in the bounding box of every
    piece but the largest (grown by ``grow + round`` squares, where
    ``grow`` is 2 in the first turn and larger in later ones), restores the
    2-factor with the local searches in a shuffled order (numpy's generator
    seeded with :data:`REPAIR_SHUFFLE` plus the turn: the same every run)
    from the colour of the round's parity, and merges.  A round that leaves
    a square short or does not lower the count of pieces is undone (the
    links come back from a copy taken before it, and are labelled again),
    so the count never rises and the next round, with larger boxes and
    another order, starts from the best links so far.  Returns the last
    :class:`~.pieces.Pieces` and the counts ``repair_rounds`` and
    ``repair_undone``.
    """
    grow = 2 + turn * REPAIR_ROUNDS // 2
    state, done, undone = _rounds(job, state, turn, [grow + k for k in range(rounds)], "re-making the pieces left",
                                  lambda after: after)
    return state, {"repair_rounds": done, "repair_undone": undone}


def _ruin(job: Job, boxes, g: int, rng, side: int) -> int:
    """Cut every link with an end in ``boxes`` (each grown by ``g`` squares) and restore two moves at every
    square there from colour ``side``; returns the squares left short (0: a 2-factor again)."""
    links, alive, rows, cols = job.links, job.alive, job.rows, job.cols
    around = []
    for lo, hi, left, right in boxes:
        ruin_box(links, alive, rows, cols, lo - g, hi + g + 1, left - g, right + g + 1)
        # the squares left short: in the box, or a knight's move outside it
        r0, r1 = max(0, lo - g - 2), min(rows, hi + g + 3)
        c0, c1 = max(0, left - g - 2), min(cols, right + g + 3)
        around.append((np.arange(r0, r1)[:, None] * cols + np.arange(c0, c1)[None, :]).ravel())
    short, _ = restore_factor(links, alive, rows, cols, free_ends=0, deadline=job.deadline, rng=rng, side=side,
                              caps=(4096,), around=np.concatenate(around))
    return short


def repair_wide(job: Job, state: Pieces, turn: int, *, margins=WIDE_MARGINS,
                max_pieces: int = WIDE_MAX_PIECES) -> tuple[Pieces, dict]:
    """Ruin and recreate in wide boxes, then the reroutes, while at most ``max_pieces`` are left.

    Each round cuts the links in the bounding box of every piece but the
    largest grown by its margin (:data:`WIDE_MARGINS`), restores two moves
    at every square there in a shuffled order (numpy's generator seeded with
    :data:`REPAIR_SHUFFLE` plus the turn), merges by exchanges and runs the
    reroutes (:func:`~.reroute.repair_reroute`) on what that leaves, which
    may be more pieces than before.  A round whose reroutes do not end below
    the count it began with is undone (the links come back from a copy and
    are labelled again), so the count never rises.  Returns the last
    :class:`~.pieces.Pieces` and the counts ``wide_rounds`` and
    ``wide_undone``.
    """
    if not 1 < state.pieces <= max_pieces:
        return state, {"wide_rounds": 0, "wide_undone": 0}
    state, done, undone = _rounds(job, state, turn, margins, WIDE_PHASE,
                                  lambda after: reroute.repair_reroute(job, after, turn)[0])
    return state, {"wide_rounds": done, "wide_undone": undone}


def _rounds(job: Job, state: Pieces, turn: int, margins, phase: str, then) -> tuple[Pieces, int, int]:
    """One round of ruin and recreate for each margin of ``margins`` while more than one piece is left:
    ``(state, rounds, undone)``.

    A round cuts and restores the boxes of the pieces other than the largest grown by its margin
    (:func:`_ruin`: the shuffle is numpy's generator seeded with :data:`REPAIR_SHUFFLE` plus ``turn``, the
    colour restored from is the round's parity), merges, and passes the pieces to ``then``; it is undone
    (the links copied back and labelled again, cheaper in memory than keeping their labels) when a square
    is left short or what ``then`` returns is not fewer pieces than the round began with.  ``phase`` names
    the deadline's reason.
    """
    links, cols, deadline = job.links, job.cols, job.deadline
    rng = np.random.default_rng(REPAIR_SHUFFLE + turn)
    done = undone = 0
    saved = None
    for k, margin in enumerate(margins):
        if state.pieces <= 1:
            break
        deadline.check(phase)
        boxes = piece_boxes(state, cols, deadline)
        before = state.pieces
        state.labels = None  # the memory goes back before the next labels are made
        if saved is None:
            saved = links.copy()
        else:
            saved[:] = links
        short = _ruin(job, boxes, margin, rng, k % 2)
        done += 1
        if not short:
            after = then(job.merge())
            if after.pieces < before:
                state = after
                if job.said is not None:
                    job.said["pieces"] = int(state.pieces)  # what an attempt stopped in the next round left
                continue
            del after
        links[:] = saved
        undone += 1
        state = job.merge()
    del saved
    return state, done, undone
