"""Numba kernels of the splice method: a full board's tour, holes deleted, a 2-factor restored, cycles merged.

Everything works on the implicit grid of the ``rows x cols`` rectangle, flat
cells ``f = row * cols + col``; the knight's moves are computed on the fly,
so no graph is built.  The arrays:

* ``alive`` (uint8, one per cell): 1 on squares, 0 on holes;
* ``links`` (int8, shape ``(cells, 2)``; the ``(rows, cols, 2)`` array of
  :mod:`ktsolve.factor` seen flat): two slots per cell, each ``0 .. 7`` the
  move (index into :data:`ktsolve.graph.KNIGHT_MOVES`) to a linked square,
  :data:`END` (8) a link to the extra vertex that closes an open tour (the
  square is an end of the path), :data:`NONE` (-1) empty.  Links are mutual:
  move ``j`` from ``f`` is answered by move ``j ^ 4`` from the square it
  reaches.
* ``labels`` (int32, one per cell): the component of every linked cell.

Kernels, one idea each:

* :func:`links_from_successors`: the links of a successor array (divide's tour);
* :func:`delete_holes`: a hole's links are cut at both ends;
* :func:`augment_from`: one bounded breadth-first search for an alternating
  path from a square short of links to a square of the other colour short
  of links, applied when found (a square short of two links needs two);
  :func:`augment_forest`: the same from every square still short at once,
  one disjoint tree each, for the few whose partner is far;
* :func:`walk_short` and :func:`pair_along_curve`: a missing link carried
  step by step towards a partner chosen along a Hilbert curve, where the
  partners are far apart (the colours of the holes balance only over large
  regions);
* :func:`label_components`: the components of the links, by walking them;
* :func:`merge_pass`: the four-square exchanges that join components, with
  union-find over their labels;
* :func:`triple_pass`: six-square exchanges for the pieces no four-square
  exchange joins (a short walk tells whether two links of one cycle are
  in the order that keeps it one cycle);
* :func:`rank_cells` and :func:`walk_links`: the tour's square numbers in order.

The readable references are in ``tests/naive_splice.py``.
"""

from __future__ import annotations

import numba as nb
import numpy as np

__all__ = [
    "END",
    "NONE",
    "links_from_successors",
    "delete_holes",
    "augment_from",
    "label_components",
    "merge_pass",
    "rank_cells",
    "walk_links",
    "short_cells",
    "split_end",
    "unlink_slot",
    "component_sizes",
    "augment_forest",
    "walk_short",
    "pair_along_curve",
    "triple_pass",
]

#: A slot linking a square to the extra vertex of an open tour (the square ends the path).
END = 8
#: An empty slot.
NONE = -1

#: The knight's moves in the order of ``graph.KNIGHT_MOVES``; move ``j ^ 4`` undoes move ``j``.
_DR = np.array([-2, -1, 1, 2, 2, 1, -1, -2], dtype=np.int64)
_DC = np.array([1, 2, 2, 1, -1, -2, -2, -1], dtype=np.int64)


@nb.njit(cache=True, inline="always")
def _step(f, j, rows, cols):  # pragma: no cover
    """The cell move ``j`` reaches from cell ``f``, or -1 off the rectangle."""
    r = f // cols + _DR[j]
    c = f % cols + _DC[j]
    if r < 0 or r >= rows or c < 0 or c >= cols:
        return -1
    return r * cols + c


@nb.njit(cache=True, inline="always")
def _move(f, g, cols):  # pragma: no cover
    """The move from cell ``f`` to cell ``g``, or -1 when they are not a knight's move apart."""
    dr = g // cols - f // cols
    dc = g % cols - f % cols
    for j in range(8):
        if _DR[j] == dr and _DC[j] == dc:
            return j
    return -1


@nb.njit(cache=True, inline="always")
def _unlink(links, f, j, g):  # pragma: no cover
    """Remove the link ``f -(j)- g`` from both ends."""
    if links[f, 0] == j:
        links[f, 0] = NONE
    else:
        links[f, 1] = NONE
    k = j ^ 4
    if links[g, 0] == k:
        links[g, 0] = NONE
    else:
        links[g, 1] = NONE


@nb.njit(cache=True, inline="always")
def _link(links, f, j, g):  # pragma: no cover
    """Add the link ``f -(j)- g`` in an empty slot of each end."""
    if links[f, 0] == NONE:
        links[f, 0] = j
    else:
        links[f, 1] = j
    k = j ^ 4
    if links[g, 0] == NONE:
        links[g, 0] = k
    else:
        links[g, 1] = k


@nb.njit(cache=True, inline="always")
def _linked(links, f, j):  # pragma: no cover
    return links[f, 0] == j or links[f, 1] == j


@nb.njit(cache=True)
def links_from_successors(nxt, rows, cols, links):  # pragma: no cover
    """Fill ``links`` (all :data:`NONE` on entry) from a successor array (-1 after an open path's end).

    Returns the number of links made; -1 when a successor is not a knight's move away.
    """
    made = 0
    n = rows * cols
    for f in range(n):
        g = nxt[f]
        if g < 0:
            continue
        j = _move(f, g, cols)
        if j < 0:
            return -1
        _link(links, f, j, g)
        made += 1
    return made


@nb.njit(cache=True)
def delete_holes(links, alive, rows, cols):  # pragma: no cover
    """Cut every link of every hole at both ends; returns the links cut."""
    cut = 0
    n = rows * cols
    for f in range(n):
        if alive[f]:
            continue
        for s in range(2):
            j = links[f, s]
            if 0 <= j < 8:
                g = _step(f, j, rows, cols)
                _unlink(links, f, j, g)
                cut += 1
            links[f, s] = NONE
    return cut


@nb.njit(cache=True)
def augment_from(u, links, alive, rows, cols, stamp, mark, qv, qx, qp):  # pragma: no cover
    """One alternating-path search from square ``u`` (short of a link); True when a path was applied.

    Breadth-first from ``u`` over moves that are not links to a square
    ``x`` of the other colour: if ``x`` has an empty slot, the path ends
    there; else it goes on from each square ``y`` that ``x`` links to (not
    through :data:`END`).  Applying the path ``u - x1 = y1 - x2 = ... - xk``
    removes the links ``x_i = y_i`` and adds ``u - x1``, ``y_i - x_{i+1}``:
    every inner square keeps its two links and ``u`` and ``xk`` gain one.
    The search stops when the queue ``qv`` (with ``qx``, ``qp``: the
    square of the other colour it was reached through and the parent's
    queue position) is full.  ``stamp`` (int32 per cell) marks the squares
    seen with ``mark``, so it is never cleared.
    """
    cap = qv.size
    qv[0] = u
    qx[0] = -1
    qp[0] = -1
    stamp[u] = mark
    head = 0
    tail = 1
    while head < tail:
        y = qv[head]
        for j in range(8):
            x = _step(y, j, rows, cols)
            if x < 0 or not alive[x] or stamp[x] == mark or _linked(links, y, j):
                continue
            stamp[x] = mark
            if links[x, 0] == NONE or links[x, 1] == NONE:
                # found: remove the links x_i = y_i along the path, then add the new ones
                p = head
                while qp[p] >= 0:
                    xi = qx[p]
                    yi = qv[p]
                    _unlink(links, xi, _move(xi, yi, cols), yi)
                    p = qp[p]
                _link(links, y, j, x)
                p = head
                while qp[p] >= 0:
                    xi = qx[p]
                    yp = qv[qp[p]]
                    _link(links, yp, _move(yp, xi, cols), xi)
                    p = qp[p]
                return True
            if tail + 2 > cap:
                continue
            for s in range(2):
                k = links[x, s]
                if k < 0 or k >= 8:
                    continue
                w = _step(x, k, rows, cols)
                if stamp[w] == mark:
                    continue
                stamp[w] = mark
                qv[tail] = w
                qx[tail] = x
                qp[tail] = head
                tail += 1
        head += 1
    return False


@nb.njit(cache=True)
def label_components(links, alive, rows, cols, labels):  # pragma: no cover
    """Label the components of the links (paths and cycles) 0, 1, ...; returns their number.

    ``labels`` gets -1 on holes.  Each component is walked from one of its
    squares in both directions, so the work is one visit per square.
    """
    n = rows * cols
    labels[:] = -1
    count = 0
    for f in range(n):
        if not alive[f] or labels[f] >= 0:
            continue
        labels[f] = count
        for s in range(2):
            prev = f
            j = links[f, s]
            while 0 <= j < 8:
                g = _step(prev, j, rows, cols)
                if labels[g] >= 0:
                    break
                labels[g] = count
                # the other link of g leads on
                back = j ^ 4
                k = links[g, 0]
                if k == back:
                    k = links[g, 1]
                prev = g
                j = k
        count += 1
    return count


@nb.njit(cache=True, inline="always")
def _find(parent, a):  # pragma: no cover
    root = a
    while parent[root] != root:
        root = parent[root]
    while parent[a] != root:
        nxt = parent[a]
        parent[a] = root
        a = nxt
    return root


@nb.njit(cache=True)
def merge_pass(links, alive, rows, cols, labels, parent, skip, pieces):  # pragma: no cover
    """One pass of four-square exchanges over the squares of components other than ``skip``; returns the
    pieces left.

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
    n = rows * cols
    for a in range(n):
        if pieces <= 1:
            break
        if not alive[a]:
            continue
        ra = _find(parent, labels[a])
        if ra == _find(parent, skip):
            continue
        done = False
        for s in range(2):
            j = links[a, s]
            if j < 0 or j >= 8:
                continue
            b = _step(a, j, rows, cols)
            for m in range(8):
                c = _step(a, m, rows, cols)
                if c < 0 or c == b or not alive[c]:
                    continue
                rc = _find(parent, labels[c])
                if rc == ra:
                    continue
                for t in range(2):
                    k = links[c, t]
                    if k < 0 or k >= 8:
                        continue
                    d = _step(c, k, rows, cols)
                    jb = _move(b, d, cols)
                    if jb < 0 or d == a:
                        continue
                    _unlink(links, a, j, b)
                    _unlink(links, c, k, d)
                    _link(links, a, m, c)
                    _link(links, b, jb, d)
                    parent[rc] = ra
                    pieces -= 1
                    done = True
                    break
                if done:
                    break
            if done:
                break
    return pieces


@nb.njit(cache=True)
def rank_cells(alive, rank):  # pragma: no cover
    """``rank[f]``: the square number of cell ``f`` (squares counted row by row), -1 on holes."""
    k = 0
    for f in range(alive.size):
        if alive[f]:
            rank[f] = k
            k += 1
        else:
            rank[f] = -1
    return k


@nb.njit(cache=True)
def walk_links(links, rows, cols, start, rank, out):  # pragma: no cover
    """Write the square numbers met walking the links from cell ``start`` into ``out``; returns the count.

    The walk leaves ``start`` through its first slot that is a move (an end
    of an open path has its other slot :data:`END`) and stops after
    ``out.size`` squares, at an end, or back at ``start``.
    """
    prev = -1
    f = start
    j = links[f, 0]
    if j < 0 or j >= 8:
        j = links[f, 1]
    total = out.size
    for k in range(total):
        out[k] = rank[f]
        if j < 0 or j >= 8:
            return k + 1
        g = _step(f, j, rows, cols)
        if g == start:
            return k + 1
        back = j ^ 4
        nj = links[g, 0]
        if nj == back:
            nj = links[g, 1]
        prev = f
        f = g
        j = nj
    return total


@nb.njit(cache=True)
def unlink_slot(links, f, s, rows, cols):  # pragma: no cover
    """Cut the link in slot ``s`` of cell ``f`` (a move) at both ends; returns the cell it led to."""
    j = links[f, s]
    g = _step(f, j, rows, cols)
    _unlink(links, f, j, g)
    return g


@nb.njit(cache=True)
def short_cells(links, alive, cols):  # pragma: no cover
    """The squares with an empty slot (int64, in order) and how many empty slots each has (int8)."""
    n = alive.size
    count = 0
    for f in range(n):
        if alive[f] and (links[f, 0] == NONE or links[f, 1] == NONE):
            count += 1
    cells = np.empty(count, dtype=np.int64)
    miss = np.empty(count, dtype=np.int8)
    k = 0
    for f in range(n):
        if alive[f] and (links[f, 0] == NONE or links[f, 1] == NONE):
            cells[k] = f
            miss[k] = (links[f, 0] == NONE) + (links[f, 1] == NONE)
            k += 1
    return cells, miss


@nb.njit(cache=True)
def split_end(u, links, alive, rows, cols):  # pragma: no cover
    """Square ``u`` has no link: take a link ``x - y`` next to it and make it ``u - x``; True when done.

    ``u`` and ``y`` (both of ``u``'s colour) are then short of one link
    each: the two free ends of an open tour, where ``u`` alone could not be.
    """
    for m in range(8):
        x = _step(u, m, rows, cols)
        if x < 0 or not alive[x]:
            continue
        for s in range(2):
            k = links[x, s]
            if k < 0 or k >= 8:
                continue
            y = _step(x, k, rows, cols)
            _unlink(links, x, k, y)
            _link(links, u, m, x)
            return True
    return False


@nb.njit(cache=True)
def component_sizes(labels, count):  # pragma: no cover
    """Squares of every component label ``0 .. count - 1`` (int64)."""
    sizes = np.zeros(count, dtype=np.int64)
    for f in range(labels.size):
        if labels[f] >= 0:
            sizes[labels[f]] += 1
    return sizes


@nb.njit(cache=True)
def augment_forest(roots, links, alive, rows, cols, tree, parent, queue):  # pragma: no cover
    """One round of alternating-path searches from all ``roots`` at once; returns the paths applied.

    A breadth-first forest: a square belongs to the tree of the root that
    reached it first (``tree``, int32 per cell, -1 on entry), so the trees
    are disjoint and the path a tree finds is applied at once without
    spoiling the others.  That tree then stops; its squares, except the
    path's (marked -2), are free again for the trees still searching,
    whose paths through them stay valid since their links did not change.
    ``parent`` (int32 per cell) holds the square each square was reached
    from; ``queue`` (int32, one entry per cell) is used as a ring.  Each
    root gains at most one link per round.
    """
    n = queue.size
    nroots = roots.size
    done = np.zeros(nroots, dtype=np.uint8)
    head = 0
    count = 0
    for i in range(nroots):
        u = roots[i]
        if tree[u] != -1:
            continue  # a root listed twice (short of both links) searches once a round
        tree[u] = i
        parent[u] = -1
        queue[count] = u
        count += 1
    applied = 0
    while count > 0:
        y = queue[head]
        head += 1
        if head == n:
            head = 0
        count -= 1
        t = tree[y]
        if t < 0 or done[t]:
            continue
        for j in range(8):
            x = _step(y, j, rows, cols)
            if x < 0 or not alive[x] or _linked(links, y, j):
                continue
            o = tree[x]
            if o == -2 or (o >= 0 and not done[o]):
                continue
            tree[x] = t
            parent[x] = y
            if links[x, 0] == NONE or links[x, 1] == NONE:
                # found: remove the links x_i = y_i along the path, then add y_{i-1} - x_i
                v = y
                while parent[v] >= 0:
                    xi = parent[v]
                    _unlink(links, xi, _move(xi, v, cols), v)
                    v = parent[xi]
                _link(links, y, j, x)
                tree[x] = -2
                v = y
                while parent[v] >= 0:
                    xi = parent[v]
                    yp = parent[xi]
                    _link(links, yp, _move(yp, xi, cols), xi)
                    tree[v] = -2
                    tree[xi] = -2
                    v = yp
                tree[v] = -2
                done[t] = 1
                applied += 1
                break
            for s in range(2):
                k = links[x, s]
                if k < 0 or k >= 8:
                    continue
                w = _step(x, k, rows, cols)
                o = tree[w]
                if o == -2 or (o >= 0 and not done[o]):
                    continue
                if count == n:
                    return applied  # the ring is full: the round ends here
                tree[w] = t
                parent[w] = x
                tail = head + count
                if tail >= n:
                    tail -= n
                queue[tail] = w
                count += 1
    return applied


@nb.njit(cache=True)
def walk_short(u, target, links, alive, rows, cols, stamp, mark, max_steps):  # pragma: no cover
    """Carry the missing link of square ``u`` towards cell ``target``; returns the square it ended on, or
    -1 when it met a square of the other colour short of a link and the two were linked.

    A step from the short square ``u``: a move ``u - x`` that is not a link
    and a link ``x - w`` of ``x``; the link ``x - w`` is cut and ``u - x``
    made, so ``x`` keeps two links, ``u`` is whole and ``w`` (two moves
    away, of ``u``'s colour) is short instead.  Of the steps to squares not
    yet visited (``stamp`` == ``mark``), the one that ends nearest the
    target is taken; a move to a square of the other colour that is short
    itself ends the walk.  Every step keeps the links a valid partial
    2-factor, so the walk may stop anywhere (``max_steps``, or nowhere left
    to go) and leave ``u``'s successor short.
    """
    tr = target // cols
    tc = target % cols
    stamp[u] = mark
    for _ in range(max_steps):
        best_w = -1
        best_x = -1
        best_j = 0
        best_d = 1 << 62
        for j in range(8):
            x = _step(u, j, rows, cols)
            if x < 0 or not alive[x] or _linked(links, u, j):
                continue
            if links[x, 0] == NONE or links[x, 1] == NONE:
                _link(links, u, j, x)
                return -1
            for s in range(2):
                k = links[x, s]
                if k < 0 or k >= 8:
                    continue
                w = _step(x, k, rows, cols)
                if stamp[w] == mark:
                    continue
                dr = w // cols - tr
                dc = w % cols - tc
                d = dr * dr + dc * dc
                if d < best_d:
                    best_d = d
                    best_w = w
                    best_x = x
                    best_j = j
        if best_w < 0:
            return u
        _unlink(links, best_x, _move(best_x, best_w, cols), best_w)
        _link(links, u, best_j, best_x)
        u = best_w
        stamp[u] = mark
    return u


@nb.njit(cache=True)
def pair_along_curve(cells, colour, order):  # pragma: no cover
    """Pair cells of colour 0 with cells of colour 1 along ``order`` (their order on a space-filling
    curve) like brackets: a cell meets the last unpaired cell before it when that one is of the other
    colour.  Returns ``partner`` (int64 per cell, -1 where none).
    """
    n = cells.size
    partner = np.full(n, -1, dtype=np.int64)
    stack = np.empty(n, dtype=np.int64)
    top = 0
    for t in range(n):
        i = order[t]
        if top > 0 and colour[stack[top - 1]] != colour[i]:
            top -= 1
            j = stack[top]
            partner[i] = cells[j]
            partner[j] = cells[i]
        else:
            stack[top] = i
            top += 1
    return partner


@nb.njit(cache=True)
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
                g = _step(cur, k, rows, cols)
                if g != prev:
                    nxt = g
                    break
        if nxt < 0:
            return 0
        prev = cur
        cur = nxt
    return 0


@nb.njit(cache=True)
def triple_pass(links, alive, rows, cols, labels, parent, skip, pieces, steps):  # pragma: no cover
    """One pass of six-square exchanges for pieces that no four-square exchange joins; returns the pieces left.

    Links ``a - b`` (in a piece other than ``skip``'s), ``d - c`` and
    ``e - f`` (in other pieces) become ``a - d``, ``c - e`` and ``b - f``.
    Three different pieces always become one.  When ``d - c`` and ``e - f``
    lie on one cycle, the result is one cycle exactly when that cycle runs
    ``c, d, ..., e, f``: a walk of at most ``steps`` squares from ``d``
    (away from ``c``) or from ``c`` (away from ``d``) tells, and the
    exchange is made only when it does.
    """
    n = rows * cols
    for a in range(n):
        if pieces <= 1:
            break
        if not alive[a]:
            continue
        ra = _find(parent, labels[a])
        if ra == _find(parent, skip):
            continue
        done = False
        for s in range(2):
            j = links[a, s]
            if j < 0 or j >= 8:
                continue
            b = _step(a, j, rows, cols)
            for m in range(8):
                d = _step(a, m, rows, cols)
                if d < 0 or not alive[d]:
                    continue
                rd = _find(parent, labels[d])
                if rd == ra:
                    continue
                for t in range(2):
                    kc = links[d, t]
                    if kc < 0 or kc >= 8:
                        continue
                    c = _step(d, kc, rows, cols)
                    for m2 in range(8):
                        e = _step(c, m2, rows, cols)
                        if e < 0 or e == d or not alive[e] or _linked(links, c, m2):
                            continue
                        re = _find(parent, labels[e])
                        if re == ra:
                            continue
                        for t2 in range(2):
                            kf = links[e, t2]
                            if kf < 0 or kf >= 8:
                                continue
                            f = _step(e, kf, rows, cols)
                            if f == c or f == d:
                                continue
                            jb = _move(b, f, cols)
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
                            _unlink(links, a, j, b)
                            _unlink(links, d, kc, c)
                            _unlink(links, e, kf, f)
                            _link(links, a, m, d)
                            _link(links, c, m2, e)
                            _link(links, b, jb, f)
                            parent[rd] = ra
                            pieces -= 1
                            if re != rd:
                                parent[_find(parent, re)] = ra
                                pieces -= 1
                            done = True
                            break
                        if done:
                            break
                    if done:
                        break
                if done:
                    break
            if done:
                break
    return pieces
