"""Splice's last repair: a window re-solved exactly with the paths through its edge free to pair anew.

The window of :mod:`ktsolve.heuristics._splice_window` keeps the ends of
every path through its edge paired as they were, so that nothing outside
needs to be known; around some pieces that is infeasible at every margin
(the paths of the large cycle there cannot take the piece in with their
ends kept).  Here the outside is known instead: from every square of the
window with a link leaving it, the links are walked
(:func:`ktsolve.heuristics._splice_merge_kernels.walk_outside`) to where
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

from ..graph import KNIGHT_MOVES

__all__ = ["free_window", "repair_free"]

#: Margins (squares) of the free windows tried around a piece, in turn.
FREE_MARGINS = (2, 3, 4, 6)
#: Largest free window (cells).
FREE_MAX_CELLS = 1600
#: Pieces left at most for the free windows to run (each costs a walk of the pieces through it).
FREE_MAX_PIECES = 32

_MOVES = [tuple(m) for m in KNIGHT_MOVES.tolist()]
_END, _NONE = 8, -1


def free_window(links, alive, rows: int, cols: int, r0: int, r1: int, c0: int, c1: int, *, ends=(-1, -1),
                time_limit: float = 2.0):
    """Re-solve the window rows ``r0 .. r1 - 1``, columns ``c0 .. c1 - 1`` so that every piece through it
    becomes one cycle (see the module docstring).

    ``links`` (int8 ``(cells, 2)``, a 2-factor with its END links) is
    changed only when a solution is found; ``ends`` are the two cells with
    an END link (-1, -1 for a closed 2-factor).  Returns the window's
    squares (a list of cells: their pieces are now one) or None.
    """
    from ortools.sat.python import cp_model

    from ._splice_merge_kernels import walk_outside

    r0, r1, c0, c1 = max(0, r0), min(rows, r1), max(0, c0), min(cols, c1)

    def leaves(f: int, j: int) -> bool:
        if j == _END:
            return True
        r, c = divmod(f, cols)
        r2, c2 = r + _MOVES[j][0], c + _MOVES[j][1]
        return not (r0 <= r2 < r1 and c0 <= c2 < c1)

    nodes, out_slots = [], {}
    for r in range(r0, r1):
        for c in range(c0, c1):
            f = r * cols + c
            if not alive[f]:
                continue
            slots = [s for s in range(2) if links[f, s] != _NONE and leaves(f, int(links[f, s]))]
            if any(links[f, s] == _NONE for s in range(2)):
                return None  # not a 2-factor here
            if len(slots) < 2:
                nodes.append(f)
                if slots:
                    out_slots[f] = slots[0]
    if not out_slots:
        return None
    node_set = set(nodes)
    joins, limit = {}, rows * cols + 2
    e0, e1 = ends
    for q, s in out_slots.items():
        if q in joins:
            continue
        p = int(walk_outside(q, s, links, alive, rows, cols, r0, r1, c0, c1, e0, e1, limit))
        if p < 0 or p == q or p not in out_slots:
            return None
        joins[q], joins[p] = p, q
    index = {f: i for i, f in enumerate(nodes)}
    model = cp_model.CpModel()
    arcs, moves = [], {}
    joined = {(q, p) for q, p in joins.items()}
    for f in nodes:
        r, c = divmod(f, cols)
        for dr, dc in _MOVES:
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
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = float(time_limit)
    if solver.solve(model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    # the window's own links go, the links leaving it stay, the solved ones come in
    for f in nodes:
        for s in range(2):
            j = int(links[f, s])
            if j != _END and not leaves(f, j):
                links[f, s] = _NONE
    for (f, g), lit in moves.items():
        if solver.value(lit):
            (r, c), (r2, c2) = divmod(f, cols), divmod(g, cols)
            j = _MOVES.index((r2 - r, c2 - c))
            links[f, 0 if links[f, 0] == _NONE else 1] = j
            links[g, 0 if links[g, 0] == _NONE else 1] = j ^ 4
    return nodes


def repair_free(links, alive, rows: int, cols: int, state, *, deadline=None, margins=FREE_MARGINS,
                max_cells: int = FREE_MAX_CELLS, max_pieces: int = FREE_MAX_PIECES, time_cap: float = 2.0):
    """Free windows around every piece but the largest, while at most ``max_pieces`` are left.

    A solved window joins every piece through it into one: union-find
    ``state.parent`` learns it at once (no labelling of the board), and
    ``state.pieces`` drops.  Returns ``state`` with ``stats["free_windows"]``.
    """
    from ..driver import Deadline
    from ._splice_merge_kernels import _find
    from .splice import _piece_boxes

    deadline = deadline or Deadline(None)
    solved = 0
    if 1 < state.pieces <= max_pieces:
        e = np.flatnonzero((links == _END).any(axis=1))
        ends = (int(e[0]), int(e[1])) if e.size == 2 else (-1, -1)
        giant = _find(state.parent, state.giant)
        for top, bottom, left, right in _piece_boxes(state, cols):
            for grow in margins:
                if (bottom - top + 1 + 2 * grow) * (right - left + 1 + 2 * grow) > max_cells:
                    break
                deadline.check("re-solving free windows around the pieces left")
                budget = deadline.share(0.25, time_cap)
                nodes = free_window(links, alive, rows, cols, top - grow, bottom + grow + 1, left - grow,
                                    right + grow + 1, ends=ends,
                                    time_limit=time_cap if budget is None else max(budget, 0.01))
                if nodes is None:
                    continue
                roots = {int(_find(state.parent, state.labels[f])) for f in nodes}
                keep = giant if giant in roots else min(roots)
                for r in roots - {keep}:
                    state.parent[r] = keep
                state.pieces -= len(roots) - 1
                solved += 1
                break
            if state.pieces <= 1:
                break
    state.stats["free_windows"] = solved
    return state
