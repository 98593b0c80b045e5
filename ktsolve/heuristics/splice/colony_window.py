"""Ant colonies as window solvers of splice (``window_method="aco"`` or ``"iaco"``; issue 18, item 2).

Seed paper 000 suggests that a colony's tours of small boards can seed
divide and conquer.  Here a colony takes the place of CP-SAT in splice's
window step (:mod:`ktsolve.heuristics.splice.window`): the window's paths
``p_i ... q_i`` must be replaced by new paths inside the window that join
the same pairs and together cover every square of it.

The reduction: a Hamiltonian cycle of the window's knight graph augmented
with one extra vertex ``v_i`` per fixed arc, joined to ``q_i`` and
``p_{i+1}`` only.  A vertex of degree 2 forces both its edges, so every
Hamiltonian cycle of the augmented graph runs through every arc
``q_i - v_i - p_{i+1}``; cut at the ``v_i``, it falls into paths that cover
the window and end at the squares ``p_i`` and ``q_i``.  The colonies know
nothing of the pairing, so a cycle whose paths join ``p_i`` to some
``q_j``, ``j != i``, is rejected and the colony walks on: only paths that
join the same pairs leave the pieces outside the window as they were, and
only those are taken (the exact model enforces the same with its path
numbers).

The colonies' walk kernels read the graph as a table of 8 slots a vertex
with one reversal of slots for all of them (``rev[j] = j ^ 4`` for the
knight's moves).  The knight's moves inside the window keep their slots;
``v_i`` takes at ``q_i`` a slot ``a`` whose move leaves the window (the slot
of the crossing link is one) and at ``p_{i+1}`` such a slot ``b != a``, and
sits in slots ``a ^ 4`` and ``b ^ 4`` of its own row.  A window where no
such slots exist (a path end joined by an END link with all eight moves
inside the window) is given up.  Every ant starts on ``v_0`` and keeps its
first neighbour for its last move (the colonies' tour type control for a
start of degree 2), so every complete walk is a cycle.

The colony is the method's own (:mod:`.aco`, :mod:`.iaco`) with its
declared defaults, except ``degree="free"`` for ``iaco`` (its ants then
follow Warnsdorff's rule, which its module notes show is what finds tours
of boards of a few hundred squares; the paper's ``"board"`` reading finds
none there).  A window's budget is :data:`WINDOW_WALKS` walks and the
window's clock (which carries the race's cancel flag), whichever ends first; a window whose budget ends is
given up (the caller moves on to larger windows, then to ruin and
recreate).  With a fixed seed every window that ends within its walks
repeats its answer; one ended by the time cap depends on the machine's
speed.
"""

from __future__ import annotations

import numpy as np

from ..._grid_kernels import MOVES
from ...board import Board
from ...checks import check_choice
from ...driver import Deadline
from ...graph import KnightGraph
from ...seeds import derive_seed, resolve_seed
from ...tour import TourSpec

__all__ = ["WINDOW_METHODS", "WINDOW_WALKS", "check_window_method", "augmented_table", "colony_edges",
           "paths_pair", "warm_window", "window_seed"]

#: The window solvers splice accepts: CP-SAT's exact model, and the two ant colonies.
WINDOW_METHODS = ("cpsat", "aco", "iaco")
#: Walks a colony may spend on one window (besides the window's time cap).
WINDOW_WALKS = 20_000
#: Parameters given to each colony (the rest are its declared defaults).
COLONY_PARAMS = {"aco": {}, "iaco": {"degree": "free"}}


def check_window_method(value) -> str:
    """``value`` if it names a window solver, else :class:`~ktsolve.errors.InvalidParameterError`.

    Examples
    --------
    >>> check_window_method("iaco")
    'iaco'
    >>> check_window_method("ga")
    Traceback (most recent call last):
    ...
    ktsolve.errors.InvalidParameterError: method 'splice': window_method must be one of cpsat, aco, iaco, not 'ga'
    """
    return check_choice("window_method", value, WINDOW_METHODS, method="splice")


def augmented_table(nodes, node_set, pairs, rows: int, cols: int):
    """The augmented window graph as a slot table: int32 ``(len(nodes) + len(pairs), 8)``, -1 for no edge.

    Row ``i < len(nodes)`` is square ``nodes[i]``; row ``len(nodes) + i`` is
    ``v_i``, joined to ``q_i`` and ``p_{i+1}`` (see the module notes).
    None when some ``v_i`` finds no free slots.
    """
    index = {f: i for i, f in enumerate(nodes)}
    k = len(nodes)
    table = np.full((k + len(pairs), 8), -1, dtype=np.int32)
    for f in nodes:
        r, c = divmod(f, cols)
        for j, (dr, dc) in enumerate(MOVES):
            r2, c2 = r + dr, c + dc
            g = r2 * cols + c2
            if 0 <= r2 < rows and 0 <= c2 < cols and g in node_set:
                table[index[f], j] = index[g]
    for i in range(len(pairs)):
        q, p = index[pairs[i][1]], index[pairs[(i + 1) % len(pairs)][0]]
        v = k + i
        slots = [(a, b) for a in np.flatnonzero(table[q] < 0).tolist() for b in np.flatnonzero(table[p] < 0).tolist()
                 if a != b]
        if not slots:
            return None
        a, b = slots[0]
        table[q, a], table[v, a ^ 4] = v, q
        table[p, b], table[v, b ^ 4] = v, p
    return table


def paths_pair(cycle, k: int, pair_of) -> bool:
    """Whether the cycle (vertex numbers, starting on a ``v``) cut at its ``v``'s joins each ``p_i`` to ``q_i``.

    ``k`` is the number of squares (vertices ``>= k`` are the ``v_i``),
    ``pair_of[i]`` the path number of square ``i`` (-1 inside a path).
    """
    seg_start = -1
    prev = -1
    for x in cycle.tolist() + [int(cycle[0])]:
        if x >= k:
            if seg_start >= 0 and pair_of[seg_start] != pair_of[prev]:
                return False
            seg_start = -1
        elif seg_start < 0:
            seg_start = x
        prev = x
    return True


class _TableGraph(KnightGraph):
    """A graph given by its slot table, in the shape the colonies read: ``n``, ``table``, ``degree``, ``moves``.

    Its ``board`` is one row of ``n`` squares, so that the colonies' start
    ``(0, v)`` names vertex ``v``; nothing here reads the board's moves.
    """

    def __init__(self, table: np.ndarray):
        super().__init__(Board(1, table.shape[0]))
        self.table = table
        self.degree = (table >= 0).sum(axis=1).astype(np.int32)

    def neighbours(self, i: int) -> np.ndarray:
        row = self.table[i]
        return row[row >= 0]


def _colony_module(method: str):
    from .. import aco, iaco

    return {"aco": (aco, aco.AcoColony), "iaco": (iaco, iaco.IacoColonies)}[method]


def warm_window(method: str) -> float:
    """Compile (or load from numba's cache) the kernels window ``method`` calls; the seconds spent compiling."""
    if method == "cpsat":
        return 0.0
    module, _ = _colony_module(method)
    return module.warm(local_search="none", seed_with="none")


def colony_edges(nodes, node_set, pairs, rows: int, cols: int, *, method: str, clock: Deadline, seed: int | None):
    """The window's new links (pairs of cells) found by colony ``method`` within ``clock``, or None.

    ``seed`` is the window's own (derived by the caller); None draws a
    fresh one.
    """
    table = augmented_table(nodes, node_set, pairs, rows, cols)
    if table is None:
        return None
    module, make = _colony_module(method)
    k = len(nodes)
    graph = _TableGraph(table)
    spec = TourSpec(closed=True, start=(0, k))
    values = module.PARAMS.check(COLONY_PARAMS[method], n=graph.n)
    col = make(graph, spec, values, seed=resolve_seed(seed), deadline=clock)
    pair_of = np.full(k, -1, dtype=np.int64)
    index = {f: i for i, f in enumerate(nodes)}
    for i, (p, q) in enumerate(pairs):
        pair_of[index[p]] = pair_of[index[q]] = i
    per_cycle = col.n_ants
    out = np.empty((max(per_cycle, 64), graph.n), dtype=np.int32)
    walks = 0
    while walks < WINDOW_WALKS and not clock.expired():
        chunk = max(1, min(col.most, (WINDOW_WALKS - walks + per_cycle - 1) // per_cycle))
        done, n_out = col.run(chunk, out, False)
        walks += max(done, 1) * per_cycle
        for row in out[:n_out]:
            if paths_pair(row, k, pair_of):
                return [(nodes[a], nodes[b]) for a, b in zip(row[:-1].tolist(), row[1:].tolist()) if a < k and b < k]
    return None


def window_seed(seed: int | None, window: int) -> int | None:
    """The seed of window number ``window`` of a splice run under ``seed`` (None stays None)."""
    return None if seed is None else derive_seed(seed, "splice window", window)
