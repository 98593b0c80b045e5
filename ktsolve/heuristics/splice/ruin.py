"""A repair of splice: ruin and recreate around the pieces left, in rounds that never raise their count.

Every link near the pieces other than the largest is cut, two moves are
restored at every square by the local searches of
:func:`ktsolve.factor.restore.restore_factor` in another order, and the
pieces are merged again by exchanges.  One round costs one labelling of the
board however many pieces there are, where a window is a CP-SAT model per
piece.
"""

from __future__ import annotations

import numpy as np

from ...factor.restore import restore_factor
from ._merge_kernels import ruin_box
from .pieces import Job, Pieces, piece_boxes

__all__ = ["repair_ruin", "REPAIR_ROUNDS", "REPAIR_SHUFFLE", "COUNTS"]

#: Rounds of ruin and recreate around the pieces that the exchanges leave (a turn's).
REPAIR_ROUNDS = 8
#: The fixed seed of the shuffled order of ruin and recreate in the first turn (the next turns add the turn's
#: number; the method itself takes no seed).
REPAIR_SHUFFLE = 18
#: The counts this repair reports.
COUNTS = ("repair_rounds", "repair_undone")


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
    links, alive, rows, cols, deadline = job.links, job.alive, job.rows, job.cols, job.deadline
    rng = np.random.default_rng(REPAIR_SHUFFLE + turn)
    grow = 2 + turn * REPAIR_ROUNDS // 2
    done = undone = 0
    saved = None
    for k in range(rounds):
        if state.pieces <= 1:
            break
        deadline.check("re-making the pieces left")
        boxes = piece_boxes(state, cols, deadline)
        before = state.pieces
        state.labels = None  # the memory goes back before the next labels are made
        if saved is None:
            saved = links.copy()
        else:
            saved[:] = links
        g = grow + k
        around = []
        for lo, hi, left, right in boxes:
            ruin_box(links, alive, rows, cols, lo - g, hi + g + 1, left - g, right + g + 1)
            # the squares left short: in the box, or a knight's move outside it
            r0, r1 = max(0, lo - g - 2), min(rows, hi + g + 3)
            c0, c1 = max(0, left - g - 2), min(cols, right + g + 3)
            around.append((np.arange(r0, r1)[:, None] * cols + np.arange(c0, c1)[None, :]).ravel())
        short, _ = restore_factor(links, alive, rows, cols, free_ends=0, deadline=deadline, rng=rng, side=k % 2,
                                  caps=(4096,), around=np.concatenate(around))
        done += 1
        if not short:
            after = job.merge()
            if after.pieces < before:
                state = after
                continue
            del after
        links[:] = saved
        undone += 1
        # the links of before the round, labelled again (cheaper in memory than keeping their labels)
        state = job.merge()
    del saved
    return state, {"repair_rounds": done, "repair_undone": undone}
