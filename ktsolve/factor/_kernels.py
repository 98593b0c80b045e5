"""Numba kernels of the 2-factor machinery, on the implicit grid.

Cells are flat positions ``f = row * cols + col`` of the rectangle; ``mask``
(uint8, one per cell) is 1 on squares.  The extra vertex of colour ``c``
(see :mod:`ktsolve.factor.network`) has node id ``N + c`` with
``N = rows * cols``.  ``links`` is the flat view of the ``(rows, cols, 2)``
int8 link array: move codes 0..7 (the order of ``KNIGHT_MOVES``, where code
``j ^ 4`` is the opposite move of ``j``), 8 a link to the extra vertex of
the other colour, -1 an empty slot.  ``epart[c]`` holds the (at most two)
cells linked to the extra vertex of colour ``c``, -1 when empty.

``net`` (int64) is :meth:`Network.as_array`: ``[source colour, cap-1 cell a,
cap-1 cell b, banned cell a, banned cell b, exists0, cap0, exclude0,
exists1, cap1, exclude1]``.

* :func:`sanitize_links` and :func:`sanitize_caps`: drop the links of a warm
  start that are not links of this network (not mutual, to a hole, banned,
  over capacity);
* :func:`tile`: the cold start, a 2-factor of the 4 x 4 block laid on every
  whole block (holes then leave local shortages only);
* :func:`greedy_moves` and :func:`greedy_extras`: add links between squares
  that still need moves, in row-major order (a maximal 2-matching);
* :func:`deficient_cells` and :func:`deficient_extra`: the vertices of one
  colour still short of moves;

The passes over the cells take a range of cells (or rows, for
:func:`tile`), so that :func:`ktsolve.factor.core.two_factor` looks at its
deadline between parts (:mod:`ktsolve.factor.chunks`);
* :func:`augment`: one residual search per short source vertex (non-factor
  move source -> sink, factor move sink -> source) until it reaches a short
  sink vertex, then flip the path.  The search is best-first, nearest to a
  short sink square found in :func:`buckets` first, so a path of length
  ``d`` costs about ``d log d``, where breadth-first search would cost the
  area ``d**2`` (long paths are the rule: random holes leave each colour
  short in regions of every size);  A search that fails
  marks every vertex it reached as dead (stamp -1): no later augmenting path
  can enter that closed set, so it is never searched again, and at the end
  the dead vertices are the min-cut witness ``(X, Y)``;
* :func:`label_cycles`: the components (cycles and open paths) of links.

The readable references these are tested against live in ``tests/naive_factor.py``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._grid_kernels import step, step_rc

# The one-line helpers are inlined by numba (``inline="always"``): called across functions they are
# not inlined by LLVM here, and a call each costs more than the helper (measured: 5x on ``tile``).

__all__ = ["sanitize_links", "sanitize_caps", "tile", "greedy_moves", "greedy_extras", "deficient_cells",
           "deficient_extra", "buckets", "augment", "label_cycles", "DEAD"]

#: A 2-factor of the full 4 x 4 board (four 4-cycles): the two move codes of cell ``(r, c)`` at
#: ``8 r + 2 c``; tiled over the board, it is the cold start (each hole then leaves two squares
#: short of a move, close to squares short of the other colour).  ``tests/factor/test_factor.py`` checks it.
_TILE = (2, 3, 2, 4, 5, 3, 4, 5, 3, 1, 1, 4, 6, 3, 6, 4, 2, 0, 7, 2, 5, 0, 5, 7, 1, 0, 7, 1, 0, 6, 7, 6)
#: The stamp of a vertex that a failed search reached: on no augmenting path, ever.
DEAD = -1


@njit(cache=True, inline="always")
def _colour(f, cols):
    return (f // cols + f % cols) & 1


@njit(cache=True, inline="always")
def _cap(f, net):
    if f == net[1] or f == net[2]:
        return 1
    return 2


@njit(cache=True, inline="always")
def _banned(f, g, net):
    return (f == net[3] and g == net[4]) or (f == net[4] and g == net[3])


@njit(cache=True, inline="always")
def _deg(links, f):
    d = 0
    if links[2 * f] >= 0:
        d += 1
    if links[2 * f + 1] >= 0:
        d += 1
    return d


@njit(cache=True, inline="always")
def _has(links, f, code):
    return links[2 * f] == code or links[2 * f + 1] == code


@njit(cache=True, inline="always")
def _put(links, f, code):
    if links[2 * f] < 0:
        links[2 * f] = code
    else:
        links[2 * f + 1] = code


@njit(cache=True, inline="always")
def _take(links, f, code):
    if links[2 * f] == code:
        links[2 * f] = -1
    else:
        links[2 * f + 1] = -1


@njit(cache=True, inline="always")
def _edeg(epart, c):
    d = 0
    if epart[c, 0] >= 0:
        d += 1
    if epart[c, 1] >= 0:
        d += 1
    return d


@njit(cache=True, inline="always")
def _eput(epart, c, f):
    if epart[c, 0] < 0:
        epart[c, 0] = f
    else:
        epart[c, 1] = f


@njit(cache=True, inline="always")
def _etake(epart, c, f):
    if epart[c, 0] == f:
        epart[c, 0] = -1
    else:
        epart[c, 1] = -1


@njit(cache=True, inline="always")
def _ejoins(net, c, f, cols):
    """Whether the extra vertex of colour ``c`` exists and is joined to square ``f``."""
    return net[5 + 3 * c] == 1 and _colour(f, cols) == 1 - c and f != net[7 + 3 * c]


@njit(cache=True, inline="always")
def _short(v, n, links, epart, net):
    """Moves node ``v`` still needs (its capacity minus its links)."""
    if v >= n:
        c = v - n
        return net[6 + 3 * c] - _edeg(epart, c)
    return _cap(v, net) - _deg(links, v)


@njit(cache=True, nogil=True)
def _link(a, b, code, n, links, epart):
    """Link nodes ``a`` and ``b``; ``code`` is the move from ``a`` to ``b`` (8 if one is an extra vertex)."""
    if a >= n:
        _eput(epart, a - n, b)
        _put(links, b, 8)
    elif b >= n:
        _eput(epart, b - n, a)
        _put(links, a, 8)
    else:
        _put(links, a, code)
        _put(links, b, code ^ 4)


@njit(cache=True, nogil=True)
def _unlink(a, b, code, n, links, epart):
    if a >= n:
        _etake(epart, a - n, b)
        _take(links, b, 8)
    elif b >= n:
        _etake(epart, b - n, a)
        _take(links, a, 8)
    else:
        _take(links, a, code)
        _take(links, b, code ^ 4)


@njit(cache=True, nogil=True)
def sanitize_links(mask, links, rows, cols, net, epart, lo, hi):
    """Drop the links of the cells ``lo <= f < hi`` that are not links of the network; fill ``epart`` from the
    kept links to extras.  Returns the number of slots cleared.

    A move link is kept when it joins two squares, is mutual, is not the
    banned move and is not the cell's other slot again; a link to an extra
    vertex when the extra exists, is joined to the square and has room.
    :func:`sanitize_caps` follows, once this has run over every cell.
    """
    dropped = 0
    for f in range(lo, hi):
        for s in range(2):
            code = links[2 * f + s]
            if code == -1:
                continue
            ok = mask[f] != 0 and 0 <= code <= 8
            if ok and s == 1 and links[2 * f] == code:
                ok = False  # the same link twice
            if ok and code < 8:
                g = step(f, code, rows, cols)
                ok = g >= 0 and mask[g] != 0 and _has(links, g, code ^ 4) and not _banned(f, g, net)
            elif ok:
                c = 1 - _colour(f, cols)
                ok = _ejoins(net, c, f, cols) and _edeg(epart, c) < net[6 + 3 * c]
                if ok:
                    _eput(epart, c, f)
            if not ok:
                links[2 * f + s] = -1
                dropped += 1
    return dropped


@njit(cache=True, nogil=True)
def sanitize_caps(mask, links, rows, cols, net, epart, lo, hi):
    """After :func:`sanitize_links` over every cell: a capacity-1 cell among ``lo <= f < hi`` with two links
    loses its second; returns the slots cleared."""
    dropped = 0
    for f in range(lo, hi):
        if mask[f] != 0 and _deg(links, f) > _cap(f, net):
            code = links[2 * f + 1]
            if code < 8:
                _take(links, step(f, code, rows, cols), code ^ 4)
                dropped += 1
            else:
                _etake(epart, 1 - _colour(f, cols), f)
            links[2 * f + 1] = -1
            dropped += 1
    return dropped


@njit(cache=True, nogil=True)
def tile(mask, links, rows, cols, net, r0, r1):
    """Lay the 4 x 4 2-factor :data:`_TILE` on every whole 4 x 4 block of an empty link array, in the rows
    ``r0 .. r1 - 1`` (a caller looks at its deadline between parts).

    A move is laid when both its squares are squares, neither has capacity
    1 and it is not the banned move (conditions symmetric in the two ends,
    and the table is mutual, so the links laid are mutual).  Returns the
    number of moves laid.
    """
    added = 0
    for r in range(r0, min(r1, rows - rows % 4)):
        for c in range(cols - cols % 4):
            f = r * cols + c
            if mask[f] == 0 or _cap(f, net) < 2:
                continue
            base = 8 * (r % 4) + 2 * (c % 4)
            for s in range(2):
                code = _TILE[base + s]
                g = step_rc(r, c, code, rows, cols)  # inside the block: the table never leaves it
                if g < 0 or mask[g] == 0 or _cap(g, net) < 2 or _banned(f, g, net):
                    continue
                _put(links, f, code)
                if g > f:
                    added += 1
    return added


@njit(cache=True, nogil=True)
def greedy_moves(mask, links, rows, cols, net, lo, hi):
    """Link squares among the cells ``lo <= f < hi`` that still need moves to neighbours that do, in
    row-major order; returns the links added (:func:`greedy_extras` follows)."""
    added = 0
    for f in range(lo, hi):
        if mask[f] == 0:
            continue
        cf = _cap(f, net)
        if _deg(links, f) >= cf:
            continue
        r, c = f // cols, f % cols
        for j in range(8):
            g = step_rc(r, c, j, rows, cols)
            if g < 0 or mask[g] == 0 or _has(links, f, j) or _banned(f, g, net):
                continue
            if _deg(links, g) >= _cap(g, net):
                continue
            _put(links, f, j)
            _put(links, g, j ^ 4)
            added += 1
            if _deg(links, f) >= cf:
                break
    return added


@njit(cache=True, nogil=True)
def greedy_extras(mask, links, rows, cols, net, epart, c, lo, hi):
    """Links to the extra vertex of colour ``c`` from the cells ``lo <= f < hi`` that still need moves, in
    order, until it has its moves; returns the links added."""
    added = 0
    if net[5 + 3 * c] == 0 or _edeg(epart, c) >= net[6 + 3 * c]:
        return 0
    for f in range(lo, hi):
        if mask[f] != 0 and _ejoins(net, c, f, cols) and not _has(links, f, 8) and _deg(links, f) < _cap(f, net):
            _eput(epart, c, f)
            _put(links, f, 8)
            added += 1
            if _edeg(epart, c) >= net[6 + 3 * c]:
                break
    return added


@njit(cache=True, nogil=True)
def deficient_cells(mask, links, rows, cols, net, colour, lo, hi):
    """The squares of ``colour`` among the cells ``lo <= f < hi`` that still need moves, as int64."""
    k = 0
    for f in range(lo, hi):
        if mask[f] != 0 and _colour(f, cols) == colour and _deg(links, f) < _cap(f, net):
            k += 1
    out = np.empty(k, dtype=np.int64)
    k = 0
    for f in range(lo, hi):
        if mask[f] != 0 and _colour(f, cols) == colour and _deg(links, f) < _cap(f, net):
            out[k] = f
            k += 1
    return out


@njit(cache=True, nogil=True)
def deficient_extra(net, epart, colour, n):
    """The extra vertex of ``colour`` (node ``n + colour``) when it still needs moves: an int64 array of it, or
    empty."""
    if net[5 + 3 * colour] == 1 and _edeg(epart, colour) < net[6 + 3 * colour]:
        return np.full(1, n + colour, dtype=np.int64)
    return np.empty(0, dtype=np.int64)


@njit(cache=True, inline="always")
def _seen(v, n, stamp, estamp, cur):
    if v >= n:
        s = estamp[v - n]
    else:
        s = stamp[v]
    return s == cur or s == DEAD


@njit(cache=True, nogil=True)
def _grow(a):
    """``a`` in an array twice as long (the rest uninitialised)."""
    out = np.empty(2 * a.size, dtype=a.dtype)
    for i in range(a.size):
        out[i] = a[i]
    return out


@njit(cache=True, nogil=True)
def _hpush(hp, hn, key):
    """Push ``key`` on the binary min-heap ``hp[:hn]``; returns the heap (grown if full) and its size."""
    if hn == hp.size:
        hp = _grow(hp)
    i = hn
    hp[i] = key
    while i > 0:
        p = (i - 1) >> 1
        if hp[p] <= hp[i]:
            break
        t = hp[p]
        hp[p] = hp[i]
        hp[i] = t
        i = p
    return hp, hn + 1


@njit(cache=True, nogil=True)
def _hpop(hp, hn):
    """The smallest key of the heap ``hp[:hn]``, and the new size."""
    top = hp[0]
    hn -= 1
    hp[0] = hp[hn]
    i = 0
    while True:
        l = 2 * i + 1
        if l >= hn:
            break
        m = l
        if l + 1 < hn and hp[l + 1] < hp[l]:
            m = l + 1
        if hp[i] <= hp[m]:
            break
        t = hp[m]
        hp[m] = hp[i]
        hp[i] = t
        i = m
    return top, hn


@njit(cache=True, inline="always")
def _distance(f, t, cols):
    """A lower bound of the knight moves from cell ``f`` to cell ``t`` (0 when either is not a cell)."""
    if f < 0 or t < 0:
        return 0
    dr = abs(f // cols - t // cols)
    dc = abs(f % cols - t % cols)
    d = (dr + 1) // 2
    d = max(d, (dc + 1) // 2)
    return max(d, (dr + dc + 2) // 3)


@njit(cache=True, nogil=True)
def _reach(v, code, frm, n, stamp, estamp, parent, eparent, cur, vis, nvis):
    """Mark node ``v`` reached from ``frm`` (``code``: the move from ``v`` back), and list it."""
    if v >= n:
        estamp[v - n] = cur
        eparent[v - n] = frm
    else:
        stamp[v] = cur
        parent[v] = code
    if nvis == vis.size:
        vis = _grow(vis)
    vis[nvis] = v
    return vis, nvis + 1


@njit(cache=True, nogil=True)
def _expand_sink(v, n, rows, cols, links, epart, stamp, estamp, parent, eparent, cur, vis, nvis, hp, hn, src,
                 target):
    """Reach the source nodes linked to sink node ``v`` (its factor moves, walked backwards), and queue
    them by their distance to ``target``."""
    vr, vc = (v // cols, v % cols) if v < n else (0, 0)
    for k in range(2):
        if v >= n:
            w = epart[v - n, k]
            back = 8
            if w < 0:
                continue
        else:
            code = links[2 * v + k]
            if code < 0:
                continue
            if code < 8:
                w = step_rc(vr, vc, code, rows, cols)
                back = code ^ 4
            else:
                w = n + src
                back = 8
        if _seen(w, n, stamp, estamp, cur):
            continue
        vis, nvis = _reach(w, back, v, n, stamp, estamp, parent, eparent, cur, vis, nvis)
        d = 0 if w >= n else _distance(w, target, cols)
        hp, hn = _hpush(hp, hn, (d << 32) | w)
    return vis, nvis, hp, hn


@njit(cache=True, nogil=True)
def _up(v, n, cols, rows, parent, eparent):
    """The node ``v`` was reached from, and the code of the move from ``v`` to it."""
    if v >= n:
        return eparent[v - n], 8
    code = parent[v]
    if code == 8:
        return n + 1 - _colour(v, cols), 8
    return step(v, code, rows, cols), code


@njit(cache=True, nogil=True)
def _target(root, rows, cols, bsize, bstart, bentry, bcount, links, net):
    """A short sink square near ``root``: the first found in rings of buckets around it (-1: none)."""
    n = rows * cols
    if root >= n:
        return -1
    brows = (rows + bsize - 1) // bsize
    bcols = (cols + bsize - 1) // bsize
    br, bc = (root // cols) // bsize, (root % cols) // bsize
    for rho in range(max(brows, bcols)):
        # the ring of buckets at Chebyshev distance rho: its top and bottom rows, then its sides
        for side in range(4):
            if side < 2:
                i = br - rho if side == 0 else br + rho
                if i < 0 or i >= brows or (side == 1 and rho == 0):
                    continue
                j0, j1 = max(0, bc - rho), min(bcols, bc + rho + 1)
            else:
                j = bc - rho if side == 2 else bc + rho
                if j < 0 or j >= bcols or rho == 0:
                    continue
                j0, j1 = max(0, br - rho + 1), min(brows, br + rho)
            for k in range(j0, j1):
                b = i * bcols + k if side < 2 else k * bcols + j
                if bcount[b] <= 0:
                    continue
                for e in range(bstart[b], bstart[b + 1]):
                    v = bentry[e]
                    if _deg(links, v) < _cap(v, net):
                        return v
    return -1


@njit(cache=True, nogil=True)
def _search(root, mask, links, rows, cols, net, epart, stamp, estamp, parent, eparent, vis, hp, sinks, target,
            cur):
    """One residual search from source node ``root``, nearest-to-``target`` first.

    Sources and sinks wait in one heap by their distance to ``target``: a
    sink's factor moves are walked back only when it is the nearest, so the
    search reaches few nodes off its path.

    Returns (augmented, the short sink reached or -1, nodes reached, vis, hp)
    (the two work arrays, grown if they had to).  Any order of a complete
    search is exact; the order by distance to a short sink makes a search
    from a near-complete factor reach about as many nodes as its path is long.
    """
    n = rows * cols
    src = net[0]
    snk = 1 - src
    vis, nvis = _reach(root, 8, -1, n, stamp, estamp, parent, eparent, cur, vis, 0)
    hp, hn = _hpush(hp, 0, root)
    found = -1
    while hn > 0 and found < 0:
        key, hn = _hpop(hp, hn)
        u = key & 0xFFFFFFFF
        if (u < n and _colour(u, cols) == snk) or u == n + snk:
            # a sink reached earlier: walk its factor moves back now that it is the nearest
            vis, nvis, hp, hn = _expand_sink(u, n, rows, cols, links, epart, stamp, estamp, parent, eparent,
                                             cur, vis, nvis, hp, hn, src, target)
            continue
        if u >= n:
            # the extra vertex of the source colour is joined to every square of the sink colour
            # (but one): first look for a short one among the short sinks of the start
            for i in range(sinks.size):
                v = sinks[i]
                if v >= n or _deg(links, v) >= _cap(v, net):
                    continue
                if not _ejoins(net, src, v, cols) or _has(links, v, 8) or _seen(v, n, stamp, estamp, cur):
                    continue
                vis, nvis = _reach(v, 8, u, n, stamp, estamp, parent, eparent, cur, vis, nvis)
                found = v
                break
            if found >= 0:
                break
            for v in range(n):  # none: reach all of them (rare: the extra's own partners are short)
                if mask[v] == 0 or not _ejoins(net, src, v, cols) or _has(links, v, 8):
                    continue
                if _seen(v, n, stamp, estamp, cur):
                    continue
                vis, nvis = _reach(v, 8, u, n, stamp, estamp, parent, eparent, cur, vis, nvis)
                if _deg(links, v) < _cap(v, net):
                    found = v
                    break
                hp, hn = _hpush(hp, hn, (_distance(v, target, cols) << 32) | v)
            continue
        ur, uc = u // cols, u % cols
        for j in range(8):
            v = step_rc(ur, uc, j, rows, cols)
            if v < 0 or mask[v] == 0 or _has(links, u, j) or _banned(u, v, net):
                continue
            if _seen(v, n, stamp, estamp, cur):
                continue
            vis, nvis = _reach(v, j ^ 4, u, n, stamp, estamp, parent, eparent, cur, vis, nvis)
            if _deg(links, v) < _cap(v, net):
                found = v
                break
            hp, hn = _hpush(hp, hn, (_distance(v, target, cols) << 32) | v)
        if found < 0 and net[5 + 3 * snk] == 1 and _ejoins(net, snk, u, cols) and not _has(links, u, 8):
            v = n + snk
            if not _seen(v, n, stamp, estamp, cur):
                vis, nvis = _reach(v, 8, u, n, stamp, estamp, parent, eparent, cur, vis, nvis)
                if _edeg(epart, snk) < net[6 + 3 * snk]:
                    found = v
                else:
                    hp, hn = _hpush(hp, hn, v)  # the extra vertex: no place, first in line
    if found < 0:
        for i in range(nvis):  # a closed set with no short sink: no augmenting path will ever enter it
            v = vis[i]
            if v >= n:
                estamp[v - n] = DEAD
            else:
                stamp[v] = DEAD
        return False, -1, nvis, vis, hp
    # flip the path: sink found <- source <- sink ... <- root
    v = found
    while True:
        u, code_vu = _up(v, n, cols, rows, parent, eparent)
        if u == root:
            _link(v, u, code_vu, n, links, epart)
            break
        v2, code_uv2 = _up(u, n, cols, rows, parent, eparent)
        _unlink(u, v2, code_uv2, n, links, epart)
        _link(v, u, code_vu, n, links, epart)
        v = v2
    return True, found, nvis, vis, hp


@njit(cache=True, nogil=True)
def buckets(sinks, rows, cols, bsize):
    """The short sink squares by square buckets of side ``bsize``: (start, entries, live counts)."""
    n = rows * cols
    brows = (rows + bsize - 1) // bsize
    bcols = (cols + bsize - 1) // bsize
    nb = brows * bcols
    count = np.zeros(nb, dtype=np.int64)
    for v in sinks:
        if v < n:
            count[((v // cols) // bsize) * bcols + (v % cols) // bsize] += 1
    start = np.zeros(nb + 1, dtype=np.int64)
    for b in range(nb):
        start[b + 1] = start[b] + count[b]
    fill = start[:-1].copy()
    entry = np.empty(start[nb], dtype=np.int64)
    for v in sinks:
        if v < n:
            b = ((v // cols) // bsize) * bcols + (v % cols) // bsize
            entry[fill[b]] = v
            fill[b] += 1
    return start, entry, count


@njit(cache=True, nogil=True)
def augment(mask, links, rows, cols, net, epart, stamp, estamp, parent, eparent, vis, hp, todo, pos,
            max_searches, max_reached, sinks, bsize, bstart, bentry, bcount, counters):
    """Search from ``todo[pos:]`` (source nodes) until each is full or dead, at most ``max_searches`` searches
    and no new search once they have reached ``max_reached`` nodes (the work between the caller's looks at the
    clock is bounded by it and one search, whatever the searches cost).

    Each search aims at a short sink square near its root (from the
    buckets ``bstart``, ``bentry``, ``bcount`` of :func:`buckets`, whose
    live counts drop as sinks fill up).  ``counters`` (int64): last stamp,
    searches, augmentations, failed searches, nodes reached by all
    searches; updated in place.  Returns the position reached in ``todo``
    and the work arrays ``vis`` and ``hp`` (grown if they had to).
    """
    n = rows * cols
    bcols = (cols + bsize - 1) // bsize
    i = pos
    done = 0
    reached0 = counters[4]
    while i < todo.size and done < max_searches and counters[4] - reached0 < max_reached:
        root = todo[i]
        dead = estamp[root - n] == DEAD if root >= n else stamp[root] == DEAD
        if dead or _short(root, n, links, epart, net) <= 0:
            i += 1
            continue
        counters[0] += 1
        counters[1] += 1
        done += 1
        target = _target(root, rows, cols, bsize, bstart, bentry, bcount, links, net)
        ok, end, reached, vis, hp = _search(root, mask, links, rows, cols, net, epart, stamp, estamp, parent,
                                            eparent, vis, hp, sinks, target, counters[0])
        counters[4] += reached
        if ok:
            counters[2] += 1
            if end < n and _deg(links, end) >= _cap(end, net):
                bcount[((end // cols) // bsize) * bcols + (end % cols) // bsize] -= 1
        else:
            counters[3] += 1
            i += 1
    return i, vis, hp


@njit(cache=True, nogil=True)
def label_cycles(links, rows, cols):
    """Component of every cell along its move links (int32, -1 for cells with no link); and the count.

    Paths (cells with one move link, or an end link 8) are walked first from
    one end, then cycles; a component is labelled in one walk, so the whole
    takes linear time.
    """
    n = rows * cols
    labels = np.full(n, -1, dtype=np.int32)
    count = 0
    for phase in range(2):
        for f in range(n):
            if labels[f] >= 0:
                continue
            real = 0
            for s in range(2):
                code = links[2 * f + s]
                if 0 <= code < 8 and step(f, code, rows, cols) >= 0:
                    real += 1
            if phase == 0 and real == 2:
                continue  # inside a path or on a cycle: reached from an end, or in phase 1
            if real == 0 and links[2 * f] != 8 and links[2 * f + 1] != 8:
                continue  # no link at all
            prev = -1
            x = f
            while True:
                labels[x] = count
                nxt = -1
                for s in range(2):
                    code = links[2 * x + s]
                    if 0 <= code < 8:
                        y = step(x, code, rows, cols)
                        if y >= 0 and y != prev and labels[y] < 0:
                            nxt = y
                            break
                if nxt < 0:
                    break
                prev = x
                x = nxt
            count += 1
    return labels, count
