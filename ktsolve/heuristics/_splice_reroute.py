"""Step 5 of splice, first repair: a piece left over is broken at one link and rerouted by a long alternating cycle.

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

Each round reroutes one link of every piece left (a different square of
the piece, and the other slot, each round), merges by exchanges again, and
is undone unless the count of pieces fell.
"""

from __future__ import annotations

import numpy as np

from ..driver import Deadline
from ..graph import KNIGHT_MOVES

__all__ = ["repair_reroute", "REROUTE_ROUNDS", "REROUTE_QUEUE"]

#: Rounds of rerouting (each one link of every piece left, then the exchanges).
REROUTE_ROUNDS = 6
#: Most squares one rerouting search may queue (three int64 arrays of this size).
REROUTE_QUEUE = 1 << 20
#: The stride between the squares of a piece that successive rounds break a link at.
_STRIDE = 7919


def _chosen(state, k: int) -> np.ndarray:
    """One square of every piece but the largest: the piece's ``(3 + k * _STRIDE) % size``-th, in cell order."""
    from ._splice_merge_kernels import cells_outside

    cells, roots = cells_outside(state.labels, state.parent, state.giant)
    if cells.size == 0:
        return cells
    order = np.argsort(roots, kind="stable")
    cells, roots = cells[order], roots[order]
    starts = np.flatnonzero(np.r_[True, roots[1:] != roots[:-1]])
    sizes = np.diff(np.r_[starts, cells.size])
    return cells[starts + (3 + k * _STRIDE) % sizes]


def repair_reroute(links, alive, rows: int, cols: int, state, *, deadline: Deadline | None = None,
                   rounds: int = REROUTE_ROUNDS, queue: int = REROUTE_QUEUE):
    """Rounds of rerouting around the pieces left (see the module docstring); returns the last
    :class:`~ktsolve.heuristics.splice.Pieces`, with ``stats["reroute_rounds"]`` and
    ``stats["reroute_undone"]``.

    ``links`` keep a 2-factor throughout; a round that does not lower the
    count of pieces is undone from a copy of the links taken before it.
    """
    from ..factor._restore_kernels import augment_from, unlink_slot
    from .splice import merge_pieces

    deadline = deadline or Deadline(None)
    if state.labels is None:
        state = merge_pieces(links, alive, rows, cols, deadline=deadline)
    done = undone = 0
    stamp = qv = qx = qp = saved = None
    mark = 0
    for k in range(rounds):
        if state.pieces <= 1:
            break
        deadline.check("rerouting the pieces left")
        chosen = _chosen(state, k)
        if stamp is None:
            stamp = np.zeros(rows * cols, dtype=np.int32)
            size = min(queue, rows * cols)
            qv, qx, qp = (np.empty(size, dtype=np.int64) for _ in range(3))
            saved = links.copy()
        else:
            saved[:] = links
        for f in chosen.tolist():
            s = k % 2
            if not 0 <= links[f, s] < 8:
                s = 1 - s
                if not 0 <= links[f, s] < 8:
                    continue
            dr, dc = KNIGHT_MOVES[int(links[f, s])].tolist()
            g = (f // cols + dr) * cols + f % cols + dc
            kept = links[f].copy(), links[g].copy()
            unlink_slot(links, f, s, rows, cols)
            mark += 1
            if not augment_from(f, links, alive, rows, cols, stamp, mark, qv, qx, qp, g):
                links[f], links[g] = kept  # no path (the search changed nothing): the link comes back
        done += 1
        after = merge_pieces(links, alive, rows, cols, deadline=deadline)
        if after.pieces < state.pieces:
            state = after
            continue
        del after
        links[:] = saved  # the links the state was labelled on
        undone += 1
    state.stats["reroute_rounds"] = done
    state.stats["reroute_undone"] = undone
    return state
