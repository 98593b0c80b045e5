"""The plan of a frontier count: the cell order, the window slots, and what each cell's step does.

The board is turned so that it has no more rows than columns (``R``, the
shorter side), and its squares are taken column by column, top to bottom:
cell ``c * R + r``.  A knight's move joins cells at most ``2R + 1`` apart
in this order, so every cell still waiting for a neighbour when cell ``k``
is taken lies in ``k - 2R - 1 .. k``: ``W = 2R + 2`` slots (cell ``u`` in
slot ``u mod W``) hold the frontier.  Each step's row of ``info`` (columns
named in :mod:`ktsolve.models._frontier_kernels`) lists the cell's slot,
its earlier neighbours, the cells that leave after it (their last
neighbour is this cell), the cells to prune with the neighbours they have
left, whether the board may end here, and, in ``fr_*``, the whole
frontier after the step.

Examples
--------
>>> import numpy as np
>>> plan = make_plan(np.ones((3, 4), dtype=bool))
>>> plan.rows, plan.window, plan.n_steps
(3, 8, 12)
>>> plan.info[:, 2].tolist()                  # earlier neighbours of each cell, column by column
[0, 0, 0, 1, 0, 1, 2, 2, 2, 2, 2, 2]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _frontier_kernels as fk

__all__ = ["MAX_SHORT_SIDE", "Plan", "cropped", "make_plan", "turned"]

#: The longest shorter side: 2R + 2 slots of 5 bits must fit two 60-bit halves of a state.
MAX_SHORT_SIDE = 11

_MOVES = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))


@dataclass(frozen=True)
class Plan:
    """What the kernels need to count the tours of one turned mask (see the module notes)."""

    rows: int
    cols: int
    window: int
    cells: np.ndarray  # int64: the squares' cell numbers in order
    info: np.ndarray  # int32 (steps, INFO_COLS)
    fr_slot: np.ndarray  # int32 (steps, window)
    fr_rem: np.ndarray
    fr_fix: np.ndarray
    slot_sign: np.ndarray  # int32 (steps, 24): the colour of the frontier cell in each slot after the step
    degrees: np.ndarray  # int64: each square's neighbours, in the order of ``cells``
    colours: bool  # the colour count and the look-ahead prune (only when the board ends at its last square alone)
    net: tuple  # the look-ahead networks: n_nodes, ed, adj, adj_off, capt, tgt, fnode, hub, tedge (_pack_networks)

    @property
    def n_steps(self) -> int:
        return int(self.cells.size)


def cropped(mask: np.ndarray) -> tuple[np.ndarray, int, int]:
    """The mask cut to the rows and columns that hold a square, and the first row and column kept.

    Examples
    --------
    >>> m = np.zeros((4, 5), dtype=bool); m[1:3, 2] = True
    >>> c, r0, c0 = cropped(m)
    >>> c.shape, r0, c0
    ((2, 1), 1, 2)
    """
    mask = np.asarray(mask, dtype=bool)
    rows = np.flatnonzero(mask.any(axis=1))
    cols = np.flatnonzero(mask.any(axis=0))
    r0, c0 = int(rows[0]), int(cols[0])
    return mask[r0:int(rows[-1]) + 1, c0:int(cols[-1]) + 1], r0, c0


def turned(mask: np.ndarray) -> tuple[np.ndarray, bool]:
    """The mask with no more rows than columns, and whether it was transposed.

    Examples
    --------
    >>> turned(np.ones((5, 3), dtype=bool))[0].shape, turned(np.ones((3, 5), dtype=bool))[1]
    ((3, 5), False)
    """
    mask = np.asarray(mask, dtype=bool)
    if mask.shape[0] > mask.shape[1]:
        return np.ascontiguousarray(mask.T), True
    return mask, False


def _looks(k: int, look: int, ahead: list[int], last: int) -> bool:
    """Whether square ``k``'s look-ahead runs: its window reaches the board's last square, or holds a hole.

    Elsewhere the squares at the window's far side, free to take any
    moves, let every state pass (measured: no state of 6x8 or 8x8 is cut
    before the window reaches the end), and the flows would cost time.
    """
    return k + look >= last or len(ahead) < min(look, last - k)


def _network(k, frontier, ahead, nbrs, fixed, window, black):
    """Step ``k``'s look-ahead network: node records, edges (forward, then reverse, in pairs)."""
    look_end = ahead[-1] if ahead else k
    flex = sorted({v for u in ahead for v in nbrs[u] if v > look_end})
    nodes = [(fk.K_HUB, 0, -1, 0, 0)] * 4
    index = {}
    for kind, group in ((fk.K_FRONT, frontier), (fk.K_AHEAD, ahead), (fk.K_FLEX, flex)):
        for u in group:
            index[u] = len(nodes)
            need = 1 if u in fixed else 2
            nodes.append((kind, int(black(u)), u % window if kind == fk.K_FRONT else -1,
                          need if kind == fk.K_AHEAD else 0, int(u in fixed)))
    edges = []

    def add(a, b, kind, arg):
        edges.append((a, b, kind, arg))
        edges.append((b, a, fk.E_REV, -1))

    kinds = {u: nodes[i][0] for u, i in index.items()}
    for u, i in index.items():
        if not black(u):
            continue
        for v in nbrs[u]:
            if v in index and not (kinds[u] == kinds[v] and kinds[u] in (fk.K_FRONT, fk.K_FLEX)):
                add(i, index[v], fk.E_UNIT, -1)
    for u, i in index.items():
        real = kinds[u] != fk.K_FLEX
        if black(u):
            add(fk.N_S, i, fk.E_SREAL if real else fk.E_SFLEX, i)
            if real:
                add(i, fk.N_E, fk.E_TOE, i)
        else:
            add(i, fk.N_T, fk.E_TREAL if real else fk.E_TFLEX, i)
            if real:
                add(fk.N_E2, i, fk.E_E2W, i)
    add(fk.N_E, fk.N_T, fk.E_ET, -1)
    add(fk.N_S, fk.N_E2, fk.E_SE2, -1)
    return nodes, edges


def _pack_networks(nets):
    """The steps' networks as padded arrays (see :mod:`ktsolve.models._frontier_kernels`).

    ``adj``/``adj_off``: edges by tail node; ``ed``: each edge's head; ``capt``:
    each side's capacities with the frontier's own edges at 0; ``tgt``: each
    side's flow to reach from the squares ahead; ``fnode``: per frontier
    cell (in frontier order) its source-or-sink edge, its end edge, colour
    and whether it is fixed; ``hub``: the two hubs' edges to the sink and
    from the source; ``tedge``: each node's edge to the sink (-1: none).
    """
    steps = len(nets)
    max_n = max([len(n) for n, _ in nets] + [4])
    max_e = max([len(e) for _, e in nets] + [2])
    ed = np.zeros((steps, max_e), dtype=np.int32)
    adj = np.zeros((steps, max_e), dtype=np.int32)
    adj_off = np.zeros((steps, max_n + 1), dtype=np.int32)
    n_nodes = np.zeros(steps, dtype=np.int32)
    capt = np.zeros((steps, 2, max_e), dtype=np.int32)
    tgt = np.zeros((steps, 2), dtype=np.int32)
    fnode = np.full((steps, 24, 4), -1, dtype=np.int32)
    hub = np.zeros((steps, 2), dtype=np.int32)
    tedge = np.full((steps, max_n), -1, dtype=np.int32)
    for s, (nodes, edges) in enumerate(nets):
        n_nodes[s] = len(nodes)
        tails = [[] for _ in nodes]
        front = {}
        for e, (a, b, kind, arg) in enumerate(edges):
            ed[s, e] = b
            tails[a].append(e)
            if b == fk.N_T and kind != fk.E_REV:
                tedge[s, a] = e
            rec = nodes[arg] if arg >= 0 else None
            if rec is not None and rec[0] == fk.K_FRONT:
                j = front.setdefault(arg, len(front))
                fnode[s, j, 2], fnode[s, j, 3] = rec[1], rec[4]
                if kind in (fk.E_SREAL, fk.E_TREAL):
                    fnode[s, j, 0] = e
                elif kind in (fk.E_TOE, fk.E_E2W):
                    fnode[s, j, 1] = e
                continue
            for side in (0, 1):
                c = 0
                if kind == fk.E_UNIT:
                    c = 1
                elif kind in (fk.E_SREAL, fk.E_TREAL):
                    c = rec[3]
                    if (kind == fk.E_SREAL) == (side == 0):
                        tgt[s, side] += c
                elif kind == fk.E_SFLEX:
                    c = 2 * side
                elif kind == fk.E_TFLEX:
                    c = 2 * (1 - side)
                elif kind in (fk.E_TOE, fk.E_E2W):
                    c = int((kind == fk.E_TOE) == (side == 0) and not rec[4])
                capt[s, side, e] = c
            if kind == fk.E_ET:
                hub[s, 0] = e
            elif kind == fk.E_SE2:
                hub[s, 1] = e
        pos = 0
        for i, out in enumerate(tails):
            adj_off[s, i] = pos
            adj[s, pos:pos + len(out)] = out
            pos += len(out)
        adj_off[s, len(nodes):] = pos
    return n_nodes, ed, adj, adj_off, capt, tgt, fnode, hub, tedge


def make_plan(mask: np.ndarray, fixed=(), ends=None, look=None) -> Plan:
    """The plan of a mask (true on squares) with no more rows than columns.

    Parameters
    ----------
    mask : 2-D bool array
        At most :data:`MAX_SHORT_SIDE` rows (the cells go down the rows, so
        fewer rows than columns make a smaller frontier).
    fixed : cell numbers (``c * rows + r``) of fixed ends.
    ends : cell numbers after which the board may end (its prefixes
        counted); by default the last square only.
    look : int, optional
        Squares of the look-ahead prune (default four columns, ``4 * rows``;
        at least ``2 * rows + 1``, so that it holds every frontier cell's
        neighbours to come; 0 turns it off).  It runs only when the board
        ends at its last square alone, on the squares whose window reaches
        the last square or holds a hole (:func:`_looks`).
    """
    rows, cols = mask.shape
    if rows > MAX_SHORT_SIDE:
        raise ValueError(f"a plan takes at most {MAX_SHORT_SIDE} rows, not {rows}")
    window = 2 * rows + 2
    flat = mask.T.ravel()  # cell c * rows + r
    cells = np.flatnonzero(flat).astype(np.int64)
    nbrs: dict[int, list[int]] = {}
    for u in cells.tolist():
        c, r = divmod(u, rows)
        near = []
        for dr, dc in _MOVES:
            rr, cc = r + dr, c + dc
            if 0 <= rr < rows and 0 <= cc < cols and mask[rr, cc]:
                near.append(cc * rows + rr)
        nbrs[u] = sorted(near)
    last = {u: max([u, *near]) for u, near in nbrs.items()}
    fixed = set(int(f) for f in fixed)
    colours = ends is None or set(int(e) for e in ends) == {int(cells[-1])}
    ends = {int(cells[-1])} if ends is None else set(int(e) for e in ends)

    def sign(u):
        c, r = divmod(u, rows)
        return 1 if (r + c) % 2 == 0 else -1

    to_come = 2 * sum(sign(u) for u in cells.tolist())  # 2 (U+ - U-) before the first step
    steps = cells.size
    info = np.zeros((steps, fk.INFO_COLS), dtype=np.int32)
    fr_slot = np.zeros((steps, window), dtype=np.int32)
    fr_rem = np.zeros((steps, window), dtype=np.int32)
    fr_fix = np.zeros((steps, window), dtype=np.int32)
    slot_sign = np.zeros((steps, 24), dtype=np.int32)
    look = 4 * rows if look is None else int(look)
    if look and look < 2 * rows + 1:
        raise ValueError(f"the look-ahead takes at least {2 * rows + 1} squares, not {look}")
    order = cells.tolist()
    nets = []
    frontier: list[int] = []
    for s, k in enumerate(order):
        row = info[s]
        row[fk.C_SLOT] = k % window
        row[fk.C_FIXED] = k in fixed
        back = [u for u in nbrs[k] if u < k]
        row[fk.C_NBACK] = len(back)
        for j, u in enumerate(back):
            row[fk.C_BACK + j] = u % window
            row[fk.C_BACKFIX + j] = u in fixed
        leaving = sorted(u for u in [k, *back] if last[u] == k)
        row[fk.C_NCLOSE] = len(leaving)
        for j, u in enumerate(leaving):
            row[fk.C_CLOSE + j] = u % window
            row[fk.C_CLOSEFIX + j] = u in fixed
        pruned = [u for u in [k, *back] if last[u] > k]
        row[fk.C_NPRUNE] = len(pruned)
        for j, u in enumerate(pruned):
            row[fk.C_PRUNE + j] = u % window
            row[fk.C_PRUNEREM + j] = sum(1 for v in nbrs[u] if v > k)
            row[fk.C_PRUNEFIX + j] = u in fixed
        row[fk.C_MAYEND] = k in ends
        frontier = [u for u in [*frontier, k] if last[u] > k]
        row[fk.C_NFR] = len(frontier)
        for j, u in enumerate(frontier):
            fr_slot[s, j] = u % window
            fr_rem[s, j] = sum(1 for v in nbrs[u] if v > k)
            fr_fix[s, j] = u in fixed
            slot_sign[s, u % window] = sign(u)
        to_come -= 2 * sign(k)
        row[fk.C_BASEIMB] = to_come - sum(sign(u) for u in fixed if last[u] > k)
        ahead = [u for u in order[s + 1:s + 1 + look] if u <= k + look]
        if colours and look and _looks(k, look, ahead, order[-1]):
            nets.append(_network(k, frontier, ahead, nbrs, fixed, window, lambda u: sign(u) > 0))
        else:
            nets.append(([(fk.K_HUB, 0, -1, 0, 0)] * 4, []))
    degrees = np.array([len(nbrs[u]) for u in cells.tolist()], dtype=np.int64)
    net = _pack_networks(nets)
    return Plan(rows, cols, window, cells, info, fr_slot, fr_rem, fr_fix, slot_sign, degrees, colours, net)
