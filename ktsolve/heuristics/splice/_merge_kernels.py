"""Numba kernels of the splice method, steps 4 and 5: pieces merged by exchanges, the tour walked.

The arrays are those of :mod:`ktsolve._grid_kernels` (flat cells
``row * cols + col``; ``links`` int8 ``(cells, 2)`` with moves 0..7,
``END`` (8) and ``NONE`` (-1); ``alive`` uint8), plus ``labels`` (int32
per cell, the piece of every square) and ``parent`` (int32 per piece,
union-find).  The small helpers (a move's square, linking and unlinking)
are the pinned shared ones of :mod:`ktsolve._grid_kernels`.

* :func:`label_components`: the components of the links, by two scans with union-find;
* :func:`merge_pass`: the four-square exchanges that join components, with
  union-find over their labels;
* :func:`triple_pass`: six-square exchanges for the pieces no four-square
  exchange joins (a short walk tells whether two links of one cycle are
  in the order that keeps it one cycle);
* :func:`walk_outside`: where a path that leaves a window comes back into
  it (the window's free re-solve needs the outside joins);
* :func:`rank_cells` and :func:`walk_links`: the tour's square numbers in order;
  :func:`cycle_positions` and :func:`cycle_cells`: one cycle's squares numbered, or listed, in order;
* :func:`cells_outside`, :func:`cells_apart`, :func:`outside_among` and :func:`keep_outside`: the squares of the pieces
  not yet joined to the largest (the next pass looks at only those);
* :func:`ruin_box`: every link near a piece left over cut, to be restored
  and merged again in another way.

The readable references are in ``tests/heuristics/naive_splice.py``.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..._grid_kernels import DC, DR, END, cut_links, link, linked, move, step, unlink

__all__ = [
    "find",
    "cells_outside",
    "outside_range",
    "keep_outside",
    "cells_apart",
    "apart_range",
    "outside_among",
    "label_components",
    "label_scan",
    "label_number",
    "merge_pass",
    "rank_cells",
    "walk_links",
    "walk_begin",
    "walk_part",
    "cycle_positions",
    "cycle_cells",
    "component_sizes",
    "count_sizes",
    "triple_pass",
    "walk_outside",
    "ruin_box",
]

@nb.njit(cache=True, nogil=True)
def label_components(links, alive, rows, cols, labels):  # pragma: no cover
    """Label the components of the links (paths and cycles) 0, 1, ... in the order of their first square;
    returns their number.

    ``labels`` gets -1 on holes.  Two scans in memory order, as image
    labelling does, since walking a cycle of a large board jumps between
    rows at every step: the first joins every square to the squares its
    links reach earlier in the scan (:func:`label_scan`), the second
    numbers the components (:func:`label_number`).  Splice runs the two
    scans in parts of the cells, looking at its deadline between them.
    """
    n = rows * cols
    label_scan(links, alive, rows, cols, labels, 0, n)
    return label_number(labels, 0, n, 0)


@nb.njit(cache=True, nogil=True)
def label_scan(links, alive, rows, cols, labels, lo, hi):  # pragma: no cover
    """The first scan of :func:`label_components` over the cells ``lo <= f < hi`` (the cells before them
    scanned already): union-find in ``labels`` itself, each square pointing to an earlier square of its
    component, so the first square of a component is its root.  A link is always a move inside the board,
    so the scan steps by flat offsets without bounds checks.  Returns the cells scanned."""
    off = DR * cols + DC
    for f in range(lo, hi):
        if not alive[f]:
            labels[f] = -1
            continue
        labels[f] = f
        for s in range(2):
            j = links[f, s]
            if j < 0 or j >= 8 or off[j] > 0:
                continue
            a = _root_halving(labels, f)
            b = _root_halving(labels, f + off[j])
            if a < b:
                labels[b] = a
            elif b < a:
                labels[a] = b
    return hi - lo


@nb.njit(cache=True, nogil=True)
def label_number(labels, lo, hi, count):  # pragma: no cover
    """The second scan of :func:`label_components` over the cells ``lo <= f < hi`` (the cells before them
    numbered already, ``count`` components among them): each root gets the next number and every other
    square the number of the square it points to, which was numbered before it.  Returns the new count."""
    for f in range(lo, hi):
        p = labels[f]
        if p < 0:
            continue
        if p == f:
            labels[f] = count
            count += 1
        else:
            labels[f] = labels[p]
    return count


@nb.njit(cache=True, inline="always")
def _root_halving(up, a):  # pragma: no cover
    """The root of ``a`` in the forest ``up`` (each entry an earlier square or itself), halving the path."""
    while up[a] != a:
        up[a] = up[up[a]]
        a = up[a]
    return a


@nb.njit(cache=True, inline="always")
def _onward(links, g, j):  # pragma: no cover
    """The slot value of ``g`` that leads on after arriving at ``g`` by move ``j`` (not the way back)."""
    k = links[g, 0]
    if k == (j ^ 4):
        k = links[g, 1]
    return k


@nb.njit(cache=True, inline="always")
def find(parent, a):  # pragma: no cover
    """The union-find root of ``a`` in ``parent``, with the path to it compressed."""
    root = a
    while parent[root] != root:
        root = parent[root]
    while parent[a] != root:
        nxt = parent[a]
        parent[a] = root
        a = nxt
    return root


@nb.njit(cache=True, nogil=True)
def merge_pass(cells, links, alive, rows, cols, labels, parent, skip, pieces):  # pragma: no cover
    """One pass of four-square exchanges over ``cells`` (in order; those of pieces other than ``skip``'s
    are tried); returns the pieces left.

    For a link ``a - b`` and a square ``c`` a knight's move from ``a`` in
    another component (union-find ``parent`` over ``labels``), with a link
    ``c - d`` where ``d`` is a knight's move from ``b``: the links ``a - b``
    and ``c - d`` become ``a - c`` and ``b - d``.  Opening two different
    components (cycles, or a cycle and the open path) at one link each and
    joining the ends crosswise always gives one component, so every
    exchange takes one piece off ``pieces``.  Squares of the component
    whose root is ``skip`` (the largest, whose every neighbour in another
    piece is seen from that piece's side) are passed over.
    """
    return _exchange_pass(False, cells, links, alive, rows, cols, labels, parent, skip, pieces, 0)


@nb.njit(cache=True, inline="always")
def _exchange_pass(six, cells, links, alive, rows, cols, labels, parent, skip, pieces, steps):  # pragma: no cover
    """:func:`triple_pass` when ``six``, else :func:`merge_pass`: at each square of ``cells`` not in
    ``skip``'s piece, the first exchange that fits, made; returns the pieces left."""
    for i in range(cells.size):
        if pieces <= 1:
            break
        ra = _open_root(cells[i], alive, labels, parent, skip)
        if ra >= 0:
            pieces -= _exchange_at(six, cells[i], ra, links, alive, rows, cols, labels, parent, steps)
    return pieces


@nb.njit(cache=True, nogil=True)
def _open_root(a, alive, labels, parent, skip):  # pragma: no cover
    """The root of square ``a``'s piece, or -1 when ``a`` is a hole or lies in ``skip``'s piece."""
    if not alive[a]:
        return -1
    ra = find(parent, labels[a])
    return -1 if ra == find(parent, skip) else ra


@nb.njit(cache=True, inline="always")
def _exchange_at(six, a, ra, links, alive, rows, cols, labels, parent, steps):  # pragma: no cover
    """The first exchange at square ``a`` (piece root ``ra``), made: a six-square one of :func:`triple_pass`
    when ``six``, else a four-square one of :func:`merge_pass`; the pieces it joined to ``a``'s (0, 1 or 2).
    Links of ``a`` are tried in slot order, and for each the moves from ``a`` in move order."""
    for s in range(2):
        j = links[a, s]
        if j < 0 or j >= 8:
            continue
        b = step(a, j, rows, cols)
        for m in range(8):
            if six:
                got = _six_with(a, j, b, m, ra, links, alive, rows, cols, labels, parent, steps)
            else:
                got = _four_with(a, j, b, m, ra, links, alive, rows, cols, labels, parent)
            if got:
                return got
    return 0


@nb.njit(cache=True, inline="always")
def _four_with(a, j, b, m, ra, links, alive, rows, cols, labels, parent):  # pragma: no cover
    """The four-square exchange of the link ``a - b`` (move ``j``) and the move ``m`` from ``a``, made when one
    fits; 1 if made, else 0."""
    c = step(a, m, rows, cols)
    if c < 0 or c == b or not alive[c]:
        return 0
    rc = find(parent, labels[c])
    if rc == ra:
        return 0
    for t in range(2):
        k = links[c, t]
        if k < 0 or k >= 8:
            continue
        d = step(c, k, rows, cols)
        jb = move(b, d, cols)
        if jb < 0 or d == a:
            continue
        unlink(links, a, j, b)
        unlink(links, c, k, d)
        link(links, a, m, c)
        link(links, b, jb, d)
        parent[rc] = ra
        return 1
    return 0


@nb.njit(cache=True, nogil=True)
def rank_cells(alive, rank, lo, hi, k):  # pragma: no cover
    """``rank[f]``: the square number of cell ``f`` (squares counted row by row), -1 on holes, for the
    cells ``lo <= f < hi``, ``k`` squares before them; returns the squares counted up to ``hi``."""
    for f in range(lo, hi):
        if alive[f]:
            rank[f] = k
            k += 1
        else:
            rank[f] = -1
    return k


@nb.njit(cache=True, nogil=True)
def cycle_positions(links, rows, cols, start, pos, base):  # pragma: no cover
    """``pos[f] = base + k`` for the ``k``-th cell met walking the links from ``start`` through its first
    slot; returns how many cells (the walk stops back at ``start`` or at an end)."""
    off = DR * cols + DC
    f = start
    j = links[f, 0]
    k = 0
    while True:
        pos[f] = base + k
        k += 1
        if j < 0 or j >= 8:
            return k
        g = f + off[j]
        if g == start:
            return k
        f, j = g, _onward(links, g, j)


@nb.njit(cache=True, nogil=True)
def cycle_cells(q, links, rows, cols, out):  # pragma: no cover
    """The squares of the cycle through ``q`` in walking order (from its first slot), into ``out``; how many
    (at most ``out.size``; a path's end stops the walk)."""
    off = DR * cols + DC
    out[0] = q
    k = 1
    f = q
    j = links[q, 0]
    while k < out.size and 0 <= j < 8:
        g = f + off[j]
        if g == q:
            break
        out[k] = g
        k += 1
        f, j = g, _onward(links, g, j)
    return k


@nb.njit(cache=True, nogil=True)
def walk_links(links, rows, cols, start, rank, out):  # pragma: no cover
    """Write the square numbers met walking the links from cell ``start`` into ``out``; returns the count.

    The walk leaves ``start`` through its first slot that is a move (an end
    of an open path has its other slot :data:`END`) and stops after
    ``out.size`` squares, at an end, or back at ``start``
    (:func:`walk_part` with no budget).
    """
    state = np.empty(4, dtype=np.int64)
    walk_begin(links, start, state)
    walk_part(links, cols, start, rank, out, state, out.size)
    return state[2]


@nb.njit(cache=True, nogil=True)
def walk_begin(links, start, state):  # pragma: no cover
    """Set ``state`` (int64 ``[cell, slot value, squares written, ended]``) for a walk from ``start``."""
    j = links[start, 0]
    if j < 0 or j >= 8:
        j = links[start, 1]
    state[0] = start
    state[1] = j
    state[2] = 0
    state[3] = 0


@nb.njit(cache=True, nogil=True)
def walk_part(links, cols, start, rank, out, state, budget):  # pragma: no cover
    """Up to ``budget`` more squares of the walk of :func:`walk_links` (where it stands in ``state``, from
    :func:`walk_begin`); ``state[3]`` becomes 1 when it has ended.  Links are moves inside the board, so
    it steps by flat offsets.  Returns the squares written by this part."""
    off = DR * cols + DC
    f = state[0]
    j = state[1]
    k = state[2]
    total = out.size
    stop = min(total, k + budget)
    first = k
    while k < stop:
        out[k] = rank[f]
        k += 1
        if j < 0 or j >= 8:
            state[3] = 1
            break
        g = f + off[j]
        if g == start:
            state[3] = 1
            break
        f, j = g, _onward(links, g, j)
    if k == total:
        state[3] = 1
    state[0] = f
    state[1] = j
    state[2] = k
    return k - first


@nb.njit(cache=True, nogil=True)
def component_sizes(labels, count):  # pragma: no cover
    """Squares of every component label ``0 .. count - 1`` (int64; :func:`count_sizes` over every cell)."""
    sizes = np.zeros(count, dtype=np.int64)
    count_sizes(labels, 0, labels.size, sizes)
    return sizes


@nb.njit(cache=True, nogil=True)
def count_sizes(labels, lo, hi, sizes):  # pragma: no cover
    """Add the squares of the cells ``lo <= f < hi`` to their labels' counts in ``sizes``; returns the cells."""
    for f in range(lo, hi):
        if labels[f] >= 0:
            sizes[labels[f]] += 1
    return hi - lo


@nb.njit(cache=True, nogil=True)
def _first_met(start, avoid, e, f, rows, cols, links, steps):  # pragma: no cover
    """Walk the links from ``start``, not back to ``avoid``: 1 when ``e`` comes before ``f``, 2 when ``f``
    comes first, 0 when neither within ``steps`` squares (or the walk meets an end)."""
    prev = avoid
    cur = start
    for _ in range(steps):
        if cur == e:
            return 1
        if cur == f:
            return 2
        nxt = -1
        for s in range(2):
            k = links[cur, s]
            if 0 <= k < 8:
                g = step(cur, k, rows, cols)
                if g != prev:
                    nxt = g
                    break
        if nxt < 0:
            return 0
        prev = cur
        cur = nxt
    return 0


@nb.njit(cache=True, nogil=True)
def triple_pass(cells, links, alive, rows, cols, labels, parent, skip, pieces, steps):  # pragma: no cover
    """One pass of six-square exchanges over ``cells``, for pieces that no four-square exchange joins;
    returns the pieces left.

    Links ``a - b`` (in a piece other than ``skip``'s), ``d - c`` and
    ``e - f`` (in other pieces) become ``a - d``, ``c - e`` and ``b - f``.
    Three different pieces always become one.  When ``d - c`` and ``e - f``
    lie on one cycle, the result is one cycle exactly when that cycle runs
    ``c, d, ..., e, f``: a walk of at most ``steps`` squares from ``d``
    (away from ``c``) or from ``c`` (away from ``d``) tells, and the
    exchange is made only when it does.
    """
    return _exchange_pass(True, cells, links, alive, rows, cols, labels, parent, skip, pieces, steps)


@nb.njit(cache=True, inline="always")
def _six_with(a, j, b, m, ra, links, alive, rows, cols, labels, parent, steps):  # pragma: no cover
    """The six-square exchange of the link ``a - b`` (move ``j``) and the move ``m`` from ``a`` to ``d``, made
    when one fits; the pieces it joined to ``a``'s (0, 1 or 2)."""
    d = step(a, m, rows, cols)
    if d < 0 or not alive[d]:
        return 0
    rd = find(parent, labels[d])
    if rd == ra:
        return 0
    for t in range(2):
        kc = links[d, t]
        if kc < 0 or kc >= 8:
            continue
        c = step(d, kc, rows, cols)
        for m2 in range(8):
            e = step(c, m2, rows, cols)
            if e < 0 or e == d or not alive[e] or linked(links, c, m2):
                continue
            re = find(parent, labels[e])
            if re == ra:
                continue
            for t2 in range(2):
                kf = links[e, t2]
                if kf < 0 or kf >= 8:
                    continue
                f = step(e, kf, rows, cols)
                if f == c or f == d:
                    continue
                jb = move(b, f, cols)
                if jb < 0:
                    continue
                if re == rd:
                    side = _first_met(d, c, e, f, rows, cols, links, steps)
                    if side == 0:
                        side = 3 - _first_met(c, d, e, f, rows, cols, links, steps)
                        if side == 3:
                            continue
                    if side != 1:
                        continue
                unlink(links, a, j, b)
                unlink(links, d, kc, c)
                unlink(links, e, kf, f)
                link(links, a, m, d)
                link(links, c, m2, e)
                link(links, b, jb, f)
                parent[rd] = ra
                if re == rd:
                    return 1
                parent[find(parent, re)] = ra
                return 2
    return 0


@nb.njit(cache=True, nogil=True)
def cells_outside(labels, parent, root):  # pragma: no cover
    """The linked cells (int64, in order) whose piece (union-find ``parent`` over ``labels``) is not ``root``'s,
    and their pieces' roots (int32)."""
    return outside_range(labels, parent, root, 0, labels.size)


@nb.njit(cache=True, nogil=True)
def outside_range(labels, parent, root, lo, hi):  # pragma: no cover
    """:func:`cells_outside` among the cells ``lo <= f < hi``."""
    count = 0
    for f in range(lo, hi):
        count += _root_apart(f, labels, parent, root) >= 0
    cells = np.empty(count, dtype=np.int64)
    roots = np.empty(count, dtype=np.int32)
    k = 0
    for f in range(lo, hi):
        k = _put_apart(f, k, labels, parent, root, cells, roots)
    return cells, roots


@nb.njit(cache=True, inline="always")
def _root_apart(f, labels, parent, top):  # pragma: no cover
    """The root of cell ``f``'s piece when ``f`` is linked and its piece is not ``top``'s, else -1."""
    if labels[f] < 0:
        return -1
    r = find(parent, labels[f])
    return -1 if r == top else r


@nb.njit(cache=True, inline="always")
def _put_apart(f, k, labels, parent, top, cells, roots):  # pragma: no cover
    """Cell ``f`` and its piece's root written at ``cells[k]``, ``roots[k]`` when :func:`_root_apart`; the next k."""
    r = _root_apart(f, labels, parent, top)
    if r < 0:
        return k
    cells[k] = f
    roots[k] = r
    return k + 1


@nb.njit(cache=True, nogil=True)
def cells_apart(labels, skip, total):  # pragma: no cover
    """The ``total`` linked cells (int64, in order) whose label is not ``skip``: :func:`cells_outside` of a
    fresh labelling (no unions yet), whose count the sizes of the labels give, in one pass."""
    cells = np.empty(total, dtype=np.int64)
    apart_range(labels, skip, 0, labels.size, cells, 0)
    return cells


@nb.njit(cache=True, nogil=True)
def apart_range(labels, skip, lo, hi, cells, k):  # pragma: no cover
    """:func:`cells_apart` among the cells ``lo <= f < hi``, written into ``cells`` from index ``k`` (at most
    up to its end); returns the next index."""
    total = cells.size
    for f in range(lo, hi):
        if labels[f] >= 0 and labels[f] != skip and k < total:
            cells[k] = f
            k += 1
    return k


@nb.njit(cache=True, nogil=True)
def outside_among(among, labels, parent, root):  # pragma: no cover
    """The cells of ``among`` (in order) whose piece is not ``root``'s, and their pieces' roots (int32):
    :func:`cells_outside` over a list of cells known to hold every such cell."""
    top = find(parent, root)
    count = 0
    for i in range(among.size):
        count += _root_apart(among[i], labels, parent, top) >= 0
    cells = np.empty(count, dtype=np.int64)
    roots = np.empty(count, dtype=np.int32)
    k = 0
    for i in range(among.size):
        k = _put_apart(among[i], k, labels, parent, top, cells, roots)
    return cells, roots


@nb.njit(cache=True, nogil=True)
def keep_outside(cells, labels, parent, root):  # pragma: no cover
    """Move the cells of ``cells`` whose piece is not ``root``'s (union-find ``parent`` over ``labels``) to its
    front, in order; returns how many there are.

    Between passes of exchanges: the pieces a pass joined to the largest
    are not looked at again, so later passes touch only the squares of
    the pieces still apart.
    """
    top = find(parent, root)
    k = 0
    for i in range(cells.size):
        f = cells[i]
        if _root_apart(f, labels, parent, top) >= 0:
            cells[k] = f
            k += 1
    return k


@nb.njit(cache=True, inline="always")
def _crossing_links(f, links, rows, cols, r0, r1, c0, c1):  # pragma: no cover
    """How many links of cell ``f`` leave the box rows ``r0 .. r1 - 1``, columns ``c0 .. c1 - 1`` (END counts)."""
    out = 0
    for s in range(2):
        j = links[f, s]
        if j == END:
            out += 1
        elif 0 <= j < 8:
            g = step(f, j, rows, cols)
            r = g // cols
            c = g % cols
            if r < r0 or r >= r1 or c < c0 or c >= c1:
                out += 1
    return out


@nb.njit(cache=True, nogil=True)
def walk_outside(q, s, links, alive, rows, cols, r0, r1, c0, c1, e0, e1, limit):  # pragma: no cover
    """From window square ``q`` out through its slot ``s`` (a link leaving the window), along the links until
    a window square; returns that square, or -1 past ``limit`` squares or at a gap.

    A window square is a square in the box rows ``r0 .. r1 - 1``, columns
    ``c0 .. c1 - 1`` with at most one link leaving the box (a square whose
    two links both leave it is passed through like a square outside).  An
    :data:`END` link leads to the other end of the open path (``e0`` and
    ``e1`` are the cells with an END link, -1 when none), as through the
    extra vertex that closes the path.
    """
    cur = q
    j = links[q, s]
    for _ in range(limit):
        if j == END:
            cur = e1 if cur == e0 else e0
            back = END
        elif 0 <= j < 8:
            cur = step(cur, j, rows, cols)
            back = j ^ 4
        else:
            return -1
        if cur < 0:
            return -1
        r = cur // cols
        c = cur % cols
        if r0 <= r < r1 and c0 <= c < c1 and alive[cur] and \
                _crossing_links(cur, links, rows, cols, r0, r1, c0, c1) < 2:
            return cur
        j = links[cur, 1] if links[cur, 0] == back else links[cur, 0]
    return -1


@nb.njit(cache=True, nogil=True)
def ruin_box(links, alive, rows, cols, r0, r1, c0, c1):  # pragma: no cover
    """Cut every link (not :data:`END`) with an end in rows ``r0 .. r1 - 1`` and columns ``c0 .. c1 - 1``;
    returns the links cut."""
    cut = 0
    for r in range(max(r0, 0), min(r1, rows)):
        for c in range(max(c0, 0), min(c1, cols)):
            f = r * cols + c
            if alive[f]:
                cut += cut_links(links, f, rows, cols)
    return cut
