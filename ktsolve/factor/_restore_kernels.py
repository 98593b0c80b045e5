"""Numba kernels of the 2-factor restoration: a tour as links, holes deleted, two links restored at every square.

Everything works on the implicit grid of the ``rows x cols`` rectangle, flat
cells ``f = row * cols + col``; the knight's moves are computed on the fly,
so no graph is built.  The arrays:

* ``alive`` (uint8, one per cell): 1 on squares, 0 on holes;
* ``links`` (int8, shape ``(cells, 2)``; the ``(rows, cols, 2)`` array of
  :mod:`ktsolve.factor` seen flat): two slots per cell, each ``0 .. 7`` the
  move (index into :data:`ktsolve.graph.KNIGHT_MOVES`) to a linked square,
  ``END`` (8) a link to the extra vertex that closes an open tour (the
  square is an end of the path), ``NONE`` (-1) empty.  Links are mutual:
  move ``j`` from ``f`` is answered by move ``j ^ 4`` from the square it
  reaches.  The moves, the slots' values and the helpers that link and
  unlink are those of the pinned shared file :mod:`ktsolve._grid_kernels`.
* ``labels`` (int32, one per cell): the component of every linked cell.

Kernels, one idea each:

* :func:`links_from_successors`: the links of a successor array (divide's tour);
* :func:`delete_holes`: a hole's links are cut at both ends;
* :func:`augment_from`: one bounded breadth-first search for an alternating
  path from a square short of links to a square of the other colour short
  of links, applied when found (a square short of two links needs two);
  :func:`forest_start` and :func:`forest_steps`: the same from every square still short at once,
  one disjoint tree each, for the few whose partner is far (a round run in parts);
* :func:`walk_short`: a missing link carried step by step towards a
  partner chosen along a Hilbert curve (:mod:`._pair_kernels`), where the
  partners are far apart (the colours of the holes balance only over large
  regions);
* :func:`reroute`: one link of a 2-factor cut and an alternating cycle
  closed through it (:func:`augment_from` with ``avoid``), kept when it
  leaves no small cycle among the squares it changed (splice's repair of
  the pieces the exchanges leave);
* :func:`augment_toward`: an alternating-path search like
  :func:`augment_from`, best first towards a target cell, for the few
  squares whose partner is far: it explores a corridor towards the target
  rather than a disc (or the whole board, as a forest round does);

They serve :mod:`ktsolve.factor.restore`, which both the splice construction
(:mod:`ktsolve.heuristics.splice`, steps 1 to 3) and the 2-factor proof's
start on large boards (:func:`ktsolve.factor.two_factor`) call.

The readable references are in ``tests/heuristics/naive_splice.py``.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from .._grid_kernels import DC, DR, NONE, cut_links, link, linked, move, step, unlink

__all__ = [
    "links_from_successors",
    "delete_holes",
    "augment_from",
    "unlink_slot",
    "short_cells",
    "short_range",
    "split_end",
    "forest_start",
    "forest_steps",
    "walk_short",
    "augment_many",
    "walk_many",
    "augment_toward",
    "augment_toward_many",
    "reroute",
]

@nb.njit(cache=True, nogil=True)
def links_from_successors(nxt, rows, cols, links, lo, hi):  # pragma: no cover
    """Fill ``links`` (all :data:`NONE` on entry) from a successor array (-1 after an open path's end), the
    links from the cells ``lo <= f < hi`` (a caller looks at its deadline between parts).

    Returns the number of links made; -1 when a successor is not a knight's move away.
    """
    made = 0
    for f in range(lo, hi):
        g = nxt[f]
        if g < 0:
            continue
        j = move(f, g, cols)
        if j < 0:
            return -1
        link(links, f, j, g)
        made += 1
    return made


@nb.njit(cache=True, nogil=True)
def delete_holes(links, alive, rows, cols, lo, hi):  # pragma: no cover
    """Cut every link of every hole among the cells ``lo <= f < hi`` at both ends; returns the links cut."""
    cut = 0
    for f in range(lo, hi):
        if alive[f]:
            continue
        cut += cut_links(links, f, rows, cols)
        links[f, 0] = NONE
        links[f, 1] = NONE
    return cut


@nb.njit(cache=True, inline="always")
def _flip_path(links, qv, qx, qp, head, y, j, x, cols):  # pragma: no cover
    """Apply the alternating path found at ``x`` from ``y`` (move ``j``): remove the links x_i = y_i
    along the search's parents from ``head``, then add y - x and the new links y_{i-1} - x_i."""
    p = head
    while qp[p] >= 0:
        xi = qx[p]
        yi = qv[p]
        unlink(links, xi, move(xi, yi, cols), yi)
        p = qp[p]
    link(links, y, j, x)
    p = head
    while qp[p] >= 0:
        xi = qx[p]
        yp = qv[qp[p]]
        link(links, yp, move(yp, xi, cols), xi)
        p = qp[p]


@nb.njit(cache=True, inline="always")
def _expand(y, head, tail, cap, avoid, links, alive, rows, cols, stamp, mark, qv, qx, qp, lo, hi):  # pragma: no cover
    """One step of the alternating-path searches from the queued square ``y = qv[head]``: the squares ``x``
    of the other colour a move that is not a link away (unmarked, alive, ``lo <= x < hi``; never ``avoid``
    from the first square); at one with an empty slot the path is flipped and -1 returned, else the
    squares ``x`` links to are queued (while ``tail + 2 <= cap``) and the new tail returned."""
    for j in range(8):
        x = step(y, j, rows, cols)
        if x < lo or x >= hi or not alive[x] or stamp[x] == mark or linked(links, y, j):
            continue
        if head == 0 and x == avoid:
            continue
        stamp[x] = mark
        if links[x, 0] == NONE or links[x, 1] == NONE:
            _flip_path(links, qv, qx, qp, head, y, j, x, cols)
            return -1
        if tail + 2 > cap:
            continue
        for s in range(2):
            k = links[x, s]
            if k < 0 or k >= 8:
                continue
            w = step(x, k, rows, cols)
            if w < lo or w >= hi or stamp[w] == mark:
                continue
            stamp[w] = mark
            qv[tail] = w
            qx[tail] = x
            qp[tail] = head
            tail += 1
    return tail


@nb.njit(cache=True, nogil=True)
def augment_from(u, links, alive, rows, cols, stamp, mark, qv, qx, qp, avoid=-1, lo=0, hi=1 << 62):  # pragma: no cover
    """One alternating-path search from square ``u`` (short of a link); 0 when none was found, else the path
    was applied and the answer is 1 + the queue position of its last square of ``u``'s colour.

    Breadth-first from ``u`` over moves that are not links to a square
    ``x`` of the other colour: if ``x`` has an empty slot, the path ends
    there; else it goes on from each square ``y`` that ``x`` links to (not
    through :data:`END`).  Applying the path ``u - x1 = y1 - x2 = ... - xk``
    removes the links ``x_i = y_i`` and adds ``u - x1``, ``y_i - x_{i+1}``:
    every inner square keeps its two links and ``u`` and ``xk`` gain one.
    The search stops when the queue ``qv`` (with ``qx``, ``qp``: the
    square of the other colour it was reached through and the parent's
    queue position) is full.  ``stamp`` (int32 per cell) marks the squares
    seen with ``mark``, so it is never cleared.  The path never starts
    with the move from ``u`` to ``avoid``: with the link ``u - avoid`` just
    cut from a 2-factor, the path found back to ``avoid`` closes an
    alternating cycle through that link, so the 2-factor comes back
    without it (splice's reroute repair).  It neither reads nor writes a
    cell outside ``lo <= f < hi`` (the band of :func:`augment_many`).
    """
    cap = qv.size
    qv[0] = u
    qx[0] = -1
    qp[0] = -1
    stamp[u] = mark
    head = 0
    tail = 1
    while head < tail:
        tail = _expand(qv[head], head, tail, cap, avoid, links, alive, rows, cols, stamp, mark, qv, qx, qp, lo, hi)
        if tail < 0:
            return head + 1
        head += 1
    return 0


@nb.njit(cache=True, inline="always")
def _unflip_path(links, qv, qx, qp, head, x, cols):  # pragma: no cover
    """Undo :func:`_flip_path` of the path found from ``qv[head]`` to ``x``: its new links cut, its old ones back."""
    y = qv[head]
    unlink(links, y, move(y, x, cols), x)
    p = head
    while qp[p] >= 0:
        xi = qx[p]
        yp = qv[qp[p]]
        unlink(links, yp, move(yp, xi, cols), xi)
        p = qp[p]
    p = head
    while qp[p] >= 0:
        xi = qx[p]
        yi = qv[p]
        link(links, xi, move(xi, yi, cols), yi)
        p = qp[p]


@nb.njit(cache=True, inline="always")
def _on_short_cycle(q, links, rows, cols, budget):  # pragma: no cover
    """Whether square ``q`` lies on a cycle of the links of at most ``budget`` squares."""
    prev = q
    j = links[q, 0]
    for _ in range(budget):
        if j < 0 or j >= 8:
            return False  # a path's end: not a cycle
        g = step(prev, j, rows, cols)
        if g == q:
            return True
        back = j ^ 4
        k = links[g, 0]
        if k == back:
            k = links[g, 1]
        prev = g
        j = k
    return False


@nb.njit(cache=True, nogil=True)
def reroute(f, s, links, alive, rows, cols, stamp, mark, qv, qx, qp, budget, force, small):  # pragma: no cover
    """Cut the link in slot ``s`` of square ``f`` (a move to ``g``) from a 2-factor and close an alternating
    cycle through it: the path of :func:`augment_from` from ``f`` back to ``g`` that does not take the
    move ``f - g`` again, flipped.

    The flip is *clean* when no square whose links it changed lies on a
    cycle of at most ``budget`` squares (so the piece ``f`` was on is
    opened into larger ones and no small piece is made).  A clean flip is
    kept (1); one that is not is undone and the link comes back (-1), or,
    with ``force``, kept all the same (2); either way ``small[0]`` gets a
    square on such a small cycle.  0: no path was found (the links as they
    were).
    """
    j = links[f, s]
    g = step(f, j, rows, cols)
    unlink(links, f, j, g)
    h = augment_from(f, links, alive, rows, cols, stamp, mark, qv, qx, qp, g)
    if h == 0:
        link(links, f, j, g)
        return 0
    head = h - 1
    found = g if _on_short_cycle(g, links, rows, cols, budget) else -1
    p = head
    while found < 0 and p >= 0:
        if _on_short_cycle(qv[p], links, rows, cols, budget):
            found = qv[p]
        elif qx[p] >= 0 and _on_short_cycle(qx[p], links, rows, cols, budget):
            found = qx[p]
        p = qp[p]
    if found < 0:
        return 1
    small[0] = found
    if force:
        return 2
    _unflip_path(links, qv, qx, qp, head, g, cols)
    link(links, f, j, g)
    return -1


@nb.njit(cache=True, nogil=True)
def unlink_slot(links, f, s, rows, cols):  # pragma: no cover
    """Cut the link in slot ``s`` of cell ``f`` (a move) at both ends; returns the cell it led to."""
    j = links[f, s]
    g = step(f, j, rows, cols)
    unlink(links, f, j, g)
    return g


@nb.njit(cache=True, nogil=True)
def short_cells(links, alive, cols):  # pragma: no cover
    """The squares with an empty slot (int64, in order) and how many empty slots each has (int8)."""
    return short_range(links, alive, 0, alive.size)


@nb.njit(cache=True, nogil=True)
def short_range(links, alive, lo, hi):  # pragma: no cover
    """:func:`short_cells` among the cells ``lo <= f < hi``."""
    count = 0
    for f in range(lo, hi):
        if alive[f] and (links[f, 0] == NONE or links[f, 1] == NONE):
            count += 1
    cells = np.empty(count, dtype=np.int64)
    miss = np.empty(count, dtype=np.int8)
    k = 0
    for f in range(lo, hi):
        if alive[f] and (links[f, 0] == NONE or links[f, 1] == NONE):
            cells[k] = f
            miss[k] = (links[f, 0] == NONE) + (links[f, 1] == NONE)
            k += 1
    return cells, miss


@nb.njit(cache=True, nogil=True)
def split_end(u, links, alive, rows, cols):  # pragma: no cover
    """Square ``u`` has no link: take a link ``x - y`` next to it and make it ``u - x``; True when done.

    ``u`` and ``y`` (both of ``u``'s colour) are then short of one link
    each: the two free ends of an open tour, where ``u`` alone could not be.
    """
    for m in range(8):
        x = step(u, m, rows, cols)
        if x < 0 or not alive[x]:
            continue
        for s in range(2):
            k = links[x, s]
            if k < 0 or k >= 8:
                continue
            y = step(x, k, rows, cols)
            unlink(links, x, k, y)
            link(links, u, m, x)
            return True
    return False


@nb.njit(cache=True, nogil=True)
def forest_start(roots, tree, parent, queue, done, state):  # pragma: no cover
    """Start one round of alternating-path searches from all ``roots`` at once (:func:`forest_steps` runs it).

    A breadth-first forest: a square belongs to the tree of the root that
    reached it first (``tree``, int32 per cell, -1 on entry), so the trees
    are disjoint and the path a tree finds is applied at once without
    spoiling the others.  That tree then stops; its squares, except the
    path's (marked -2), are free again for the trees still searching,
    whose paths through them stay valid since their links did not change.
    ``parent`` (int32 per cell) holds the square each square was reached
    from; ``queue`` (int32, one entry per cell) is used as a ring; ``done``
    (uint8, one per root, zeros) marks the trees that found their path.
    ``state`` (int64 ``[head, count, ended]``) is where the round stands,
    so :func:`forest_steps` can run it in parts.  Each root gains at most
    one link per round.
    """
    count = 0
    for i in range(roots.size):
        u = roots[i]
        if tree[u] != -1:
            continue  # a root listed twice (short of both links) searches once a round
        tree[u] = i
        parent[u] = -1
        queue[count] = u
        count += 1
    state[0] = 0
    state[1] = count
    state[2] = 0


@nb.njit(cache=True, nogil=True)
def forest_steps(links, alive, rows, cols, tree, parent, queue, done, state, budget):  # pragma: no cover
    """Up to ``budget`` squares of the round :func:`forest_start` began taken off its queue; returns the
    paths applied.  ``state[2]`` becomes 1 when the round has ended (its queue empty, or its ring full)."""
    n = queue.size
    head = state[0]
    count = state[1]
    applied = 0
    taken = 0
    while count > 0 and taken < budget:
        taken += 1
        y = queue[head]
        head += 1
        if head == n:
            head = 0
        count -= 1
        t = tree[y]
        if t < 0 or done[t]:
            continue
        for j in range(8):
            x = step(y, j, rows, cols)
            if x < 0 or not alive[x] or linked(links, y, j):
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
                    unlink(links, xi, move(xi, v, cols), v)
                    v = parent[xi]
                link(links, y, j, x)
                tree[x] = -2
                v = y
                while parent[v] >= 0:
                    xi = parent[v]
                    yp = parent[xi]
                    link(links, yp, move(yp, xi, cols), xi)
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
                w = step(x, k, rows, cols)
                o = tree[w]
                if o == -2 or (o >= 0 and not done[o]):
                    continue
                if count == n:
                    state[2] = 1  # the ring is full: the round ends here
                    return applied
                tree[w] = t
                parent[w] = x
                tail = head + count
                if tail >= n:
                    tail -= n
                queue[tail] = w
                count += 1
    state[0] = head
    state[1] = count
    if count == 0:
        state[2] = 1
    return applied


@nb.njit(cache=True, nogil=True)
def walk_short(u, target, links, alive, rows, cols, stamp, mark, max_steps, lo=0, hi=1 << 62):  # pragma: no cover
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
    to go) and leave ``u``'s successor short.  It neither reads nor writes
    a cell outside ``lo <= f < hi`` (the band of :func:`walk_many`).
    """
    tr = target // cols
    tc = target % cols
    ur = u // cols
    uc = u % cols
    stamp[u] = mark
    for _ in range(max_steps):
        best_w = -1
        best_x = -1
        best_j = 0
        best_k = 0
        best_d = 1 << 62
        for j in range(8):
            xr = ur + DR[j]
            xc = uc + DC[j]
            if xr < 0 or xr >= rows or xc < 0 or xc >= cols:
                continue
            x = xr * cols + xc
            if x < lo or x >= hi or not alive[x] or linked(links, u, j):
                continue
            if links[x, 0] == NONE or links[x, 1] == NONE:
                link(links, u, j, x)
                return -1
            for s in range(2):
                k = links[x, s]
                if k < 0 or k >= 8:
                    continue
                wr = xr + DR[k]  # a link is a move inside the board
                wc = xc + DC[k]
                w = wr * cols + wc
                if w < lo or w >= hi or stamp[w] == mark:
                    continue
                d = (wr - tr) * (wr - tr) + (wc - tc) * (wc - tc)
                if d < best_d:
                    best_d = d
                    best_w = w
                    best_x = x
                    best_j = j
                    best_k = k
        if best_w < 0:
            return u
        unlink(links, best_x, best_k, best_w)
        link(links, u, best_j, best_x)
        u = best_w
        ur = u // cols
        uc = u % cols
        stamp[u] = mark
    return u


@nb.njit(cache=True, nogil=True)
def augment_many(todo, links, alive, rows, cols, stamp, mark, qv, qx, qp, lo, hi):  # pragma: no cover
    """:func:`augment_from` from every square of ``todo`` in turn (marks ``mark + 1`` on), within the cells
    ``lo <= f < hi``; returns the paths applied.  Without the GIL: calls on bands that share no cell may run
    at once (:func:`ktsolve.factor.restore._in_bands`)."""
    got = 0
    for i in range(todo.size):
        u = todo[i]
        if links[u, 0] != NONE and links[u, 1] != NONE:
            continue  # made whole meanwhile
        if augment_from(u, links, alive, rows, cols, stamp, mark + 1 + i, qv, qx, qp, -1, lo, hi):
            got += 1
    return got


@nb.njit(cache=True, nogil=True)
def walk_many(us, vs, links, alive, rows, cols, stamp, mark, ends, lo, hi):  # pragma: no cover
    """:func:`walk_short` from every ``us[i]`` towards ``vs[i]`` (at most twice their distance plus 64
    steps), within the cells ``lo <= f < hi``; ``ends[i]`` gets where the missing link stopped (-1:
    linked).  Returns the walks that linked.  Without the GIL, as :func:`augment_many`."""
    got = 0
    for i in range(us.size):
        u = us[i]
        v = vs[i]
        if links[u, 0] != NONE and links[u, 1] != NONE:
            ends[i] = -1  # made whole meanwhile by another walk
            continue
        dist = abs(u // cols - v // cols) + abs(u % cols - v % cols)
        e = walk_short(u, v, links, alive, rows, cols, stamp, mark + 1 + i, 2 * dist + 64, lo, hi)
        ends[i] = e
        if e < 0:
            got += 1
    return got


@nb.njit(cache=True, inline="always")
def _heap_push(hkey, hpos, size, key, pos):  # pragma: no cover
    """Push ``(key, pos)`` on the binary min-heap of the first ``size`` entries; returns the new size."""
    i = size
    while i > 0:
        up = (i - 1) >> 1
        if hkey[up] <= key:
            break
        hkey[i] = hkey[up]
        hpos[i] = hpos[up]
        i = up
    hkey[i] = key
    hpos[i] = pos
    return size + 1


@nb.njit(cache=True, inline="always")
def _heap_pop(hkey, hpos, size):  # pragma: no cover
    """Remove the smallest entry of the heap of ``size`` entries; returns its ``pos`` (the size drops by one)."""
    top = hpos[0]
    size -= 1
    key = hkey[size]
    pos = hpos[size]
    i = 0
    while True:
        kid = 2 * i + 1
        if kid >= size:
            break
        if kid + 1 < size and hkey[kid + 1] < hkey[kid]:
            kid += 1
        if hkey[kid] >= key:
            break
        hkey[i] = hkey[kid]
        hpos[i] = hpos[kid]
        i = kid
    if size > 0:
        hkey[i] = key
        hpos[i] = pos
    return top


@nb.njit(cache=True, nogil=True)
def augment_toward(u, target, links, alive, rows, cols, stamp, mark, cap, qv, qx, qp, hkey, hpos):  # pragma: no cover
    """An alternating-path search from square ``u`` (short of a link), best first towards cell ``target``;
    True when a path was applied.

    The search of :func:`augment_from` (squares ``x`` of the other colour
    reached by moves that are not links; the search ends at one with an
    empty slot, else goes on from the squares ``x`` links to), except that
    the square expanded next is the queued one nearest ``target``
    (squared distance, ties by the order queued: ``hkey`` holds
    ``distance * cap + position``).  Any short square of the other colour
    ends it, not only the target: the target only steers it.  At most
    ``cap`` squares are queued (``qv``, ``qx``, ``qp``, ``hkey``, ``hpos``
    hold at least ``cap``).  ``stamp`` marks the squares seen with ``mark``.
    """
    tr = target // cols
    tc = target % cols
    qv[0] = u
    qx[0] = -1
    qp[0] = -1
    stamp[u] = mark
    size = _heap_push(hkey, hpos, 0, np.int64(0), np.int32(0))
    tail = 1
    while size > 0:
        head = _heap_pop(hkey, hpos, size)
        size -= 1
        start = tail
        tail = _expand(qv[head], head, tail, cap, -1, links, alive, rows, cols, stamp, mark, qv, qx, qp,
                       0, 1 << 62)
        if tail < 0:
            return True
        for q in range(start, tail):
            w = qv[q]
            dr = w // cols - tr
            dc = w % cols - tc
            size = _heap_push(hkey, hpos, size, np.int64(dr * dr + dc * dc) * cap + q, np.int32(q))
    return False


@nb.njit(cache=True, nogil=True)
def augment_toward_many(us, vs, links, alive, rows, cols, stamp, mark, slack,  # pragma: no cover
                        qv, qx, qp, hkey, hpos):
    """:func:`augment_toward` from every ``us[i]`` towards ``vs[i]`` in turn (marks ``mark + 1`` on), each
    queueing at most ``slack`` times the distance (rows plus columns, at least 64) squares, and never more
    than the arrays hold; returns the paths applied."""
    got = 0
    room = qv.size
    for i in range(us.size):
        u = us[i]
        if links[u, 0] != NONE and links[u, 1] != NONE:
            continue  # made whole meanwhile
        v = vs[i]
        dist = abs(u // cols - v // cols) + abs(u % cols - v % cols)
        cap = min(room, slack * max(dist, 64))
        if augment_toward(u, v, links, alive, rows, cols, stamp, mark + 1 + i, cap, qv, qx, qp, hkey, hpos):
            got += 1
    return got
