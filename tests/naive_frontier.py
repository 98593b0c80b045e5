"""A slow, readable frontier count of knight's tours: the reference of ``ktsolve.models._frontier_kernels``.

The same idea as the kernels, written with dictionaries and plain Python
integers (exact, never reduced), so that a test can compare the kernels
with it step by step: the same cell order, the same pruning, hence the
same number of states after every cell and the same counts.

The board is turned so that it has no more rows than columns; its squares
are taken column by column, top to bottom (cell ``c * R + r``).  After a
cell is taken, every move between it and the cells before it has been
decided.  A *state* says, for each cell already taken that still has a
neighbour to come (the frontier):

* ``0``: no move chosen at it yet;
* ``m``: one move chosen, and ``m`` is the cell at the other end of the
  path through it, or ``OUT`` when that end is a finished end of the tour
  (a cell that left the frontier with one move);

cells with two moves are left out: nothing more can happen to them.  With
the state goes ``used``, the number of finished ends that are not fixed
ends.  A state maps to the number of move sets that lead to it.

A closed question allows a cycle to close only at a cell where the board
may end, and only when every other cell has its two moves; an open one
allows ``budget`` free ends (2, less one per fixed start or end), and a
fixed end takes exactly one move.  A cell leaves the frontier after its
last neighbour is taken (``last[u]``); it must then have two moves, or one
if it can be an end.  Pruning: a cell whose moves so far plus the
neighbours still to come cannot reach what it needs kills the state (the
cells checked are those whose count of neighbours to come just dropped,
and every frontier cell when ``used`` just grew).
"""

from __future__ import annotations

from collections import defaultdict
from itertools import combinations

import networkx as nx
import numpy as np

OUT = -1
MOVES = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))


def cells_in_order(mask):
    """The turned mask (rows <= cols), and whether it was turned."""
    mask = np.asarray(mask, dtype=bool)
    if mask.shape[0] > mask.shape[1]:
        return mask.T.copy(), True
    return mask, False


def neighbours(mask):
    """``{cell: sorted list of neighbour cells}`` over the squares of the (turned) mask; cell = c * R + r."""
    rows, cols = mask.shape
    out = {}
    for c in range(cols):
        for r in range(rows):
            if not mask[r, c]:
                continue
            near = []
            for dr, dc in MOVES:
                rr, cc = r + dr, c + dc
                if 0 <= rr < rows and 0 <= cc < cols and mask[rr, cc]:
                    near.append(cc * rows + rr)
            out[c * rows + r] = sorted(near)
    return out


class _Question:
    def __init__(self, nbrs, closed, fixed):
        self.nbrs = nbrs
        self.closed = closed
        self.fixed = set(fixed)
        self.budget = 0 if closed else 2 - len(self.fixed)
        self.last = {u: max([u] + near) for u, near in nbrs.items()}

    def cap(self, u):
        return 1 if u in self.fixed else 2

    def need(self, u, used):
        if u in self.fixed:
            return 1
        return 2 if self.closed or used == self.budget else 1

    def rem(self, u, k):
        return sum(1 for v in self.nbrs[u] if v > k)


# A state is a dict {cell: value}, value 0 (no move) or ("end", mate) with mate a cell or OUT.
def _deg(state, u):
    if u not in state:
        return 2
    return 0 if state[u] == 0 else 1


def _join(state, a, b, q, may_end):
    """Add the move a-b to ``state`` (changed in place); returns 'ok', 'done' or 'dead'."""
    va, vb = state[a], state[b]
    if va == 0 and vb == 0:
        state[a], state[b] = ("end", b), ("end", a)
        return "ok"
    if va == 0 or vb == 0:
        if vb == 0:
            a, b, va, vb = b, a, vb, va
        # a has no move yet, b is an end whose path's other end is vb's mate
        mate = vb[1]
        del state[b]
        state[a] = ("end", mate)
        if mate != OUT:
            state[mate] = ("end", a)
        return "ok"
    ma, mb = va[1], vb[1]
    del state[a]
    del state[b]
    if ma == b:  # the two ends of one path: a cycle
        return "done" if q.closed and may_end else "dead"
    if ma == OUT and mb == OUT:  # both paths already have a finished end: the tour is complete
        return "done" if may_end else "dead"
    if ma == OUT:
        state[mb] = ("end", OUT)
    elif mb == OUT:
        state[ma] = ("end", OUT)
    else:
        state[ma], state[mb] = ("end", mb), ("end", ma)
    return "ok"


def _take(q, k, chosen, state, used, may_end):
    """The state after cell ``k`` takes the moves to ``chosen``; None when it dies."""
    state = dict(state)
    state[k] = 0
    done = False
    for u in chosen:
        if _deg(state, u) >= q.cap(u) or _deg(state, k) >= q.cap(k):
            return None
        what = _join(state, k, u, q, may_end)
        if what == "dead":
            return None
        done = done or what == "done"
    used_before = used
    for u in sorted(v for v in [k, *q.nbrs[k]] if v <= k and q.last[v] == k):
        if u not in state:
            continue  # two moves: it leaves quietly
        if state[u] == 0:
            return None
        mate = state.pop(u)[1]
        if u not in q.fixed:
            if q.closed:
                return None
            used += 1
            if used > q.budget:
                return None
        if mate == OUT:
            if not may_end:
                return None
            done = True
        else:
            state[mate] = ("end", OUT)
    checks = [v for v in [k, *q.nbrs[k]] if v <= k and q.last[v] > k]
    if used != used_before:
        checks = [v for v in state if q.last[v] > k]
    for u in checks:
        if _deg(state, u) + q.rem(u, k) < q.need(u, used):
            return None
    if done:
        return ("done", used) if not state else None
    return state, used


def _colour(u, rows):
    """+1 on one colour of the board, -1 on the other."""
    c, r = divmod(u, rows)
    return 1 if (r + c) % 2 == 0 else -1


def _balanced(state, used, k, q, rows, order):
    """The colour count: can the squares to come and the frontier still make one cycle or path?

    In a bipartite graph every square of the part to come (``U``) needs
    two moves, less one per end among them; those moves go inside ``U`` or
    to the frontier, whose squares still need ``2 - moves`` each, less one
    per end.  Counting move ends on each colour gives
    ``2 (U+ - U-) + sum(sign * (2 - moves) over the frontier) = (ends to
    come on +) - (ends to come on -)``; the fixed ends to come are known,
    and the free ends to come, ``budget - used`` of them, can only make a
    difference of that size and parity.
    """
    rest = [u for u in order if u > k]
    d = 2 * sum(_colour(u, rows) for u in rest)
    d += sum(_colour(u, rows) * (2 - _deg(state, u)) for u in state)
    d -= sum(_colour(u, rows) for u in q.fixed if q.last[u] > k)
    free = q.budget - used
    return abs(d) <= free and (free - d) % 2 == 0


def _finish_open(state, used, q):
    """Whether an open question's state is a whole tour if the board ended here."""
    if any(v == 0 for v in state.values()):
        return False
    ends = list(state)
    if len(ends) == 2:
        a, b = ends
        return used == 0 and state[a][1] == b and state[b][1] == a
    if len(ends) == 1:
        return used == 1 and state[ends[0]][1] == OUT
    return False


def _black(u, rows):
    c, r = divmod(u, rows)
    return (r + c) % 2 == 0


def _completable(state, used, k, q, rows, look, memo):
    """The look-ahead: can the frontier and the next squares still get the moves they need?

    Real vertices: the frontier cells (each still needing ``cap - moves``)
    and the squares ``k + 1 .. k + look`` (needing ``cap``); flexible
    vertices: later squares next to those (at most two moves).  Moves
    between two frontier cells are decided already, so they are left out.
    A tour's remaining moves saturate every real vertex, except that up to
    ``budget - used`` of them, ends of the tour, take one move less.  So
    there is a flow from the black real vertices that saturates them (into
    real whites up to their needs, flexible whites up to 2, and at most
    ``free`` of them into an end), and likewise one into the white real
    vertices.  (The two together are what a completion gives; we only test
    each alone, a necessary condition.)  How many of the free ends to come
    are black is known from the colour count (:func:`_balanced`), so the
    black flow may leave that many short and the white flow the rest.
    Answers are remembered by the needs of the frontier cells.
    """
    free = q.budget - used
    need = {u: q.cap(u) - _deg(state, u) for u in state}
    key = (k, tuple(sorted(need.items())), free)
    if key in memo:
        return memo[key]
    ahead = [u for u in q.order if k < u <= k + look]
    for u in ahead:
        need[u] = q.cap(u)
    flexible = sorted({v for u in ahead for v in q.nbrs[u] if v > k + look})
    real = set(need)

    def edges():
        for u in real:
            for v in q.nbrs[u]:
                if (v in real or v in flexible) and not (u <= k and v <= k) and _black(u, rows):
                    yield u, v
        for u in flexible:
            for v in q.nbrs[u]:
                if v in real and _black(u, rows):
                    yield u, v

    def eligible(u):
        return free > 0 and u not in q.fixed and need[u] >= 1

    ok = True
    for side in ("black", "white"):
        g = nx.DiGraph()
        g.add_node("S")
        g.add_node("T")
        for u, v in edges():
            g.add_edge(u, v, capacity=1)
        target = 0
        for u in real:
            if _black(u, rows):
                g.add_edge("S", u, capacity=need[u])
                target += need[u] if side == "black" else 0
                if side == "black" and eligible(u):
                    g.add_edge(u, "E", capacity=1)
            else:
                g.add_edge(u, "T", capacity=need[u])
                target += need[u] if side == "white" else 0
                if side == "white" and eligible(u):
                    g.add_edge("E", u, capacity=1)
        for u in flexible:
            if _black(u, rows) and side == "white":
                g.add_edge("S", u, capacity=2)
            elif not _black(u, rows) and side == "black":
                g.add_edge(u, "T", capacity=2)
        if free and "E" in g:
            # the colour count says how many of the free ends to come are black: d = black - white
            d = 2 * sum(_colour(u, rows) for u in q.order if u > k)
            d += sum(_colour(u, rows) * (2 - _deg(state, u)) for u in state)
            d -= sum(_colour(u, rows) for u in q.fixed if q.last[u] > k)
            ends = (free + d) // 2 if side == "black" else (free - d) // 2
            if side == "black":
                g.add_edge("E", "T", capacity=ends)
            else:
                g.add_edge("S", "E", capacity=ends)
        if target and nx.maximum_flow_value(g, "S", "T") < target:
            ok = False
            break
    memo[key] = ok
    return ok


def _window_counts(k, look, order):
    """The look-ahead runs where its window ``k + 1 .. k + look`` reaches the last square or holds a hole."""
    inside = [u for u in order if k < u <= k + look]
    return k + look >= order[-1] or len(inside) < min(look, order[-1] - k)


def frontier_count(mask, *, closed=False, fixed=(), terms=None, colours=None, look=None):
    """Tours of the (turned) ``mask`` by the frontier method, in plain Python.

    Parameters
    ----------
    mask : 2-D bool array, true on squares (already turned: rows <= cols)
    closed : bool
        Hamiltonian cycles (undirected) instead of Hamiltonian paths (undirected).
    fixed : cells that must be ends of the path (cell numbers ``c * R + r``).
    terms : iterable of cells, optional
        Cells after which to count the tours of the board made of the cells
        up to there (the board's prefixes); by default only the last cell.
    colours : bool, optional
        Prune by the colour count (:func:`_balanced`) and the look-ahead
        (:func:`_completable`); by default only when the board can end at
        its last cell alone (a prefix that may end earlier has other
        squares to come).
    look : int, optional
        Squares of the look-ahead (default four columns, ``4 * rows``; 0: none).

    Returns
    -------
    (counts, states)
        ``counts``: ``{cell: count}`` for each cell of ``terms``;
        ``states``: the number of states after every cell, in order.
    """
    nbrs = neighbours(mask)
    q = _Question(nbrs, closed, fixed)
    order = sorted(nbrs)
    q.order = order
    memo = {}
    n = len(order)
    if n == 1:
        only = order[0]
        return {only: 0 if closed else 1}, [1]
    terms = {order[-1]} if terms is None else set(terms)
    if colours is None:
        colours = terms == {order[-1]}
    rows = mask.shape[0]
    look = 4 * rows if look is None else look
    table = {((), 0): 1}
    counts, states = {}, []
    for k in order:
        may_end = k in terms
        new = defaultdict(int)
        finished = 0
        for (items, used), count in table.items():
            state = dict(items)
            back = [u for u in nbrs[k] if u < k]
            for size in range(0, q.cap(k) + 1):
                for chosen in combinations(back, size):
                    got = _take(q, k, chosen, state, used, may_end)
                    if got is None:
                        continue
                    if got[0] == "done":
                        finished += count
                        continue
                    after, used_after = got
                    if may_end and not closed and _finish_open(after, used_after, q):
                        finished += count
                    if colours and not _balanced(after, used_after, k, q, rows, order):
                        continue
                    if colours and look and _window_counts(k, look, order) and \
                            not _completable(after, used_after, k, q, rows, look, memo):
                        continue
                    new[(tuple(sorted(after.items())), used_after)] += count
        table = dict(new)
        states.append(len(table))
        if may_end:
            counts[k] = finished
    return counts, states
