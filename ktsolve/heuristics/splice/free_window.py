"""Splice's last repair: a window re-solved exactly with the paths through its edge free to pair anew.

The window of :mod:`ktsolve.heuristics.splice.window` keeps the ends of
every path through its edge paired as they were, so that nothing outside
needs to be known; around some pieces that is infeasible at every margin
(the paths of the large cycle there cannot take the piece in with their
ends kept).  Here the outside is known instead: from every square of the
window with a link leaving it, the links are walked
(:func:`ktsolve.heuristics.splice._merge_kernels.walk_outside`) to where
the piece comes back into the window.  Each such stretch outside is one
*join* between two squares of the window, and the pieces through the window
become one cycle exactly when the window's new links and the joins form one
cycle: a Hamiltonian circuit of the window's squares in which every join is
used (CP-SAT's circuit constraint, both directions of every move and join
as arcs, one direction of each join forced).  The walks cost up to the
squares of the pieces through the window, so this runs only for the few
pieces left at the end.

An open path's :data:`END` links lead through the extra vertex to its other
end, so a walk that meets one goes on from there; the END links stay where
they are.
"""

from __future__ import annotations

import numpy as np

from ..._grid_kernels import END, MOVES, NONE
from ...driver import Deadline
from ._merge_kernels import find, walk_outside
from .pieces import Job, Pieces, piece_boxes
from .window import solve_window, window_clock

__all__ = ["free_window", "window_joins", "repair_free", "FREE_MARGINS", "FREE_MAX_CELLS", "FREE_MAX_PIECES",
           "COUNTS"]

#: Margins (squares) of the free windows tried around a piece, in turn.
FREE_MARGINS = (2, 3, 4, 6)
#: Largest free window (cells).
FREE_MAX_CELLS = 1600
#: Pieces left at most for the free windows to run (each costs a walk of the pieces through it).
FREE_MAX_PIECES = 32
#: The counts this repair reports.
COUNTS = ("free_windows",)
#: What the deadline's reason names while the free windows are re-solved.
FREE_PHASE = "re-solving free windows around the pieces left"


def _leaves(f: int, j: int, cols: int, r0: int, r1: int, c0: int, c1: int) -> bool:
    """Whether cell ``f``'s link ``j`` (a move or :data:`END`) leaves the window."""
    if j == END:
        return True
    r, c = divmod(f, cols)
    r2, c2 = r + MOVES[j][0], c + MOVES[j][1]
    return not (r0 <= r2 < r1 and c0 <= c2 < c1)


def window_joins(links, alive, rows: int, cols: int, r0: int, r1: int, c0: int, c1: int, ends=(-1, -1)):
    """``(nodes, joins)`` of the window rows ``r0 .. r1 - 1``, columns ``c0 .. c1 - 1`` (inside the board):
    its squares with a link or none leaving it, and for each with one, the square of the window the stretch
    outside comes back at; None where the links are not a 2-factor or no link leaves."""
    nodes, out_slots = [], {}
    for r in range(r0, r1):
        for c in range(c0, c1):
            f = r * cols + c
            if not alive[f]:
                continue
            if any(links[f, s] == NONE for s in range(2)):
                return None  # not a 2-factor here
            slots = [s for s in range(2) if _leaves(f, int(links[f, s]), cols, r0, r1, c0, c1)]
            if len(slots) < 2:
                nodes.append(f)
                if slots:
                    out_slots[f] = slots[0]
    if not out_slots:
        return None
    joins, limit = {}, rows * cols + 2
    e0, e1 = ends
    for q, s in out_slots.items():
        if q in joins:
            continue
        p = int(walk_outside(q, s, links, alive, rows, cols, r0, r1, c0, c1, e0, e1, limit))
        if p < 0 or p == q or p not in out_slots:
            return None
        joins[q], joins[p] = p, q
    return nodes, joins


def free_window(links, alive, rows: int, cols: int, r0: int, r1: int, c0: int, c1: int, *, clock: Deadline,
                ends=(-1, -1)):
    """Re-solve the window rows ``r0 .. r1 - 1``, columns ``c0 .. c1 - 1`` so that every piece through it
    becomes one cycle (see the module docstring).

    ``links`` (int8 ``(cells, 2)``, a 2-factor with its END links) is
    changed only when a solution is found; ``ends`` are the two cells with
    an END link (-1, -1 for a closed 2-factor); ``clock`` is the window's
    own (:func:`~.window.window_clock`).  Returns the window's squares (a
    list of cells: their pieces are now one) or None.
    """
    from ortools.sat.python import cp_model

    r0, r1, c0, c1 = max(0, r0), min(rows, r1), max(0, c0), min(cols, c1)
    found = window_joins(links, alive, rows, cols, r0, r1, c0, c1, ends)
    if found is None:
        return None
    nodes, joins = found
    node_set = set(nodes)

    def leaves(f: int, j: int) -> bool:
        return _leaves(f, j, cols, r0, r1, c0, c1)

    index = {f: i for i, f in enumerate(nodes)}
    model = cp_model.CpModel()
    arcs, moves = [], {}
    joined = {(q, p) for q, p in joins.items()}
    for f in nodes:
        r, c = divmod(f, cols)
        for dr, dc in MOVES:
            r2, c2 = r + dr, c + dc
            g = r2 * cols + c2
            if r0 <= r2 < r1 and c0 <= c2 < c1 and g in node_set and (f, g) not in joined:
                lit = model.new_bool_var("")
                moves[(f, g)] = lit
                arcs.append((index[f], index[g], lit))
    for q, p in joins.items():
        if q < p:
            there, back = model.new_bool_var(""), model.new_bool_var("")
            model.add_exactly_one(there, back)
            arcs += [(index[q], index[p], there), (index[p], index[q], back)]
    for f, g in moves:
        if f < g:
            model.add_at_most_one(moves[(f, g)], moves[(g, f)])
    model.add_circuit(arcs)
    solver, status = solve_window(model, clock, FREE_PHASE)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    # the window's own links go, the links leaving it stay, the solved ones come in
    for f in nodes:
        for s in range(2):
            j = int(links[f, s])
            if j != END and not leaves(f, j):
                links[f, s] = NONE
    for (f, g), lit in moves.items():
        if solver.value(lit):
            (r, c), (r2, c2) = divmod(f, cols), divmod(g, cols)
            j = MOVES.index((r2 - r, c2 - c))
            links[f, 0 if links[f, 0] == NONE else 1] = j
            links[g, 0 if links[g, 0] == NONE else 1] = j ^ 4
    return nodes


def repair_free(job: Job, state: Pieces, turn: int, *, margins=FREE_MARGINS, max_cells: int = FREE_MAX_CELLS,
                max_pieces: int = FREE_MAX_PIECES) -> tuple[Pieces, dict]:
    """Free windows around every piece but the largest, while at most ``max_pieces`` are left.

    A solved window joins every piece through it into one: union-find
    ``state.parent`` learns it at once (no labelling of the board), and
    ``state.pieces`` drops.  Returns ``state`` and the count
    ``free_windows``.  Every turn tries alike (``turn`` is not read).
    """
    links, alive, rows, cols, deadline = job.links, job.alive, job.rows, job.cols, job.deadline
    solved = 0
    if 1 < state.pieces <= max_pieces:
        e = np.flatnonzero((links == END).any(axis=1))
        ends = (int(e[0]), int(e[1])) if e.size == 2 else (-1, -1)
        giant = find(state.parent, state.giant)
        for top, bottom, left, right in piece_boxes(state, cols, deadline):
            for grow in margins:
                if (bottom - top + 1 + 2 * grow) * (right - left + 1 + 2 * grow) > max_cells:
                    break
                deadline.check(FREE_PHASE)
                nodes = free_window(links, alive, rows, cols, top - grow, bottom + grow + 1, left - grow,
                                    right + grow + 1, clock=window_clock(deadline), ends=ends)
                if nodes is None:
                    continue
                roots = {int(find(state.parent, state.labels[f])) for f in nodes}
                keep = giant if giant in roots else min(roots)
                for r in roots - {keep}:
                    state.parent[r] = keep
                state.pieces -= len(roots) - 1
                solved += 1
                break
            if state.pieces <= 1:
                break
    return state, {"free_windows": solved}
