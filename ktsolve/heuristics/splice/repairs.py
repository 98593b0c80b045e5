"""Splice's step 5: the repairs of the pieces the exchanges leave, as one ordered tuple of stages.

Every repair is a function ``repair(job, state, turn) -> (state, counts)``:
it changes ``job.links`` (keeping a 2-factor), never raises the count of
pieces, and returns the new :class:`~.pieces.Pieces` with a dict of its
counts (named in its :class:`Stage`).  :func:`repair_pieces` runs turns of
the stages of :data:`REPAIRS` in order, each while more than one piece is
left, and sums the counts over the turns: the one way the repairs' stats
are merged.

The order, cheapest reach first:

1. *reroutes* (:mod:`.reroute`): a piece's link cut and an alternating
   cycle closed through it, which reaches past stretches of forced moves
   where every window is infeasible (on 4000 x 4000 boards with 5 % holes
   it joined the pieces that ruin and recreate and the windows left;
   ``benchmarks/results/huge_dense_reroute.md``);
2. *rotations* (:mod:`.rotate`), for the last 64 pieces or fewer: the
   largest cycle and a piece opened into one path and Posa-rotated;
3. *wide ruin* (:mod:`.ruin`), for the last 16 pieces or fewer: boxes
   some 40 squares across around each cut and restored, and the reroutes
   again; it goes before the kicks, the ruin and the windows because it
   joined the pieces that all of them left on 10,000 x 10,000 with 5 %
   holes (seed 1, open with fixed ends), and there they took 62 s to fail
   (timed beside a test run on the other core);
4. *kicks* (:mod:`.rotate`): a forced reroute of each piece, the
   exchanges, rotations again;
5. *ruin and recreate* (:mod:`.ruin`): one of its rounds costs one
   labelling of the board however many pieces there are;
6. *windows* (:mod:`.window`): CP-SAT (or a colony) re-solves a window
   around each piece, the paths through its edge kept;
7. *free windows* (:mod:`.free_window`), for the last few pieces: the
   paths through the edge may pair anew.

A piece whose windows are infeasible gets the next turn's larger boxes and
other shuffle of ruin and recreate, and other rotations.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from . import free_window, reroute, rotate, ruin, window
from .pieces import Job, Pieces

__all__ = ["Stage", "REPAIRS", "REPAIR_TURNS", "repair_pieces"]

#: Turns of the repairs while pieces are left; each turn's boxes start larger.
REPAIR_TURNS = 3


@dataclass(frozen=True)
class Stage:
    """One repair: its name (the phase a progress line shows), its function, and the counts it returns."""

    name: str
    run: Callable[[Job, Pieces, int], tuple[Pieces, dict]]
    counts: tuple[str, ...]


#: The repairs, in the order a turn runs them.
REPAIRS = (
    Stage("rerouting", reroute.repair_reroute, reroute.COUNTS),
    Stage("rotating", rotate.repair_rotate, rotate.COUNTS),
    Stage("wide ruin", ruin.repair_wide, ruin.WIDE_COUNTS),
    Stage("kicking", rotate.repair_kick, rotate.KICK_COUNTS),
    Stage("ruin and recreate", ruin.repair_ruin, ruin.COUNTS),
    Stage("windows", window.repair_windows, window.COUNTS),
    Stage("free windows", free_window.repair_free, free_window.COUNTS),
)


def repair_pieces(job: Job, state: Pieces, *, turns: int = REPAIR_TURNS, stages=None) -> tuple[Pieces, dict]:
    """Turns of ``stages`` (:data:`REPAIRS` when None) in order, each run while more than one piece is left,
    until one is.

    Returns the last :class:`~.pieces.Pieces` and the stats: every stage's
    counts summed over the turns (0 for a stage that never ran), and
    ``pieces``.
    """
    stages = REPAIRS if stages is None else stages
    stats = {key: 0 for stage in stages for key in stage.counts}
    for turn in range(turns):
        for stage in stages:
            if state.pieces <= 1:
                break
            state, counts = stage.run(job, state, turn)
            for key in stage.counts:
                stats[key] += counts[key]
            if job.said is not None:
                job.said["pieces"] = int(state.pieces)
        if state.pieces <= 1:
            break
    stats["pieces"] = state.pieces
    return state, stats
