"""Numba kernels of the proofs in :mod:`ktsolve.proofs`.

Every kernel takes a graph in CSR form (``indptr``, ``indices`` int32) with a
``alive`` mask (uint8, one entry per CSR entry, both directions of an edge
kept equal) so that the matching proof can delete edges without rebuilding
arrays.  No kernel recurses: depth-first searches keep their own stacks, so a
board of millions of squares cannot hit a recursion limit.

* :func:`lowpoint_dfs`: Hopcroft and Tarjan's depth-first search with
  discovery times and low points (cut squares, blocks);
* :func:`blocks`: cut squares, the number of parts each one leaves, and the
  block (2-connected piece) of every tree edge;
* :func:`hopcroft_karp`: maximum bipartite matching (Hopcroft & Karp 1973);
* :func:`alternating_scc`: strongly connected components of the alternating
  graph of a perfect matching (the Dulmage-Mendelsohn decomposition) and the
  levels used by the matching proof;
* :func:`other_side_levels`: the same tight sets named from the other colour.

The readable pure-Python references these are tested against live in
``tests/proofs/test_proofs.py``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._grid_kernels import NONE, step

__all__ = ["lowpoint_dfs", "blocks", "hopcroft_karp", "alternating_scc", "closed_components", "component_labels",
           "csr_copy_rows", "csr_sort_rows", "csr_twins", "drop_lost_pairs", "off_matchings",
           "other_side_levels",
           "matching_from_factor"]

# nogil=True on every kernel: the proofs run in a lane of their own beside the constructions
# (ktsolve.race), and a kernel that holds the interpreter would stop the other lane for its whole call.

@njit(cache=True, nogil=True)
def lowpoint_dfs(indptr, indices, alive, root):
    """Depth-first search from ``root`` over alive edges, without recursion.

    Returns ``disc`` (preorder number, -1 when not reached), ``low`` (the
    smallest preorder number reachable from the subtree by one back edge),
    ``parent`` (-1 for the root and unreached squares), ``order`` (squares in
    preorder; its first ``count`` entries are used) and ``count``.
    """
    n = indptr.size - 1
    disc = np.full(n, -1, dtype=np.int32)
    low = np.full(n, -1, dtype=np.int32)
    parent = np.full(n, -1, dtype=np.int32)
    order = np.empty(n, dtype=np.int32)
    it = indptr[:-1].copy()
    stack = np.empty(n, dtype=np.int32)
    # An edge back to the parent is skipped once (the tree edge itself).
    skipped = np.zeros(n, dtype=np.uint8)
    count = 0
    disc[root] = 0
    low[root] = 0
    order[0] = root
    count = 1
    stack[0] = root
    sp = 1
    while sp > 0:
        v = stack[sp - 1]
        p = it[v]
        if p < indptr[v + 1]:
            it[v] = p + 1
            if alive[p] == 0:
                continue
            w = indices[p]
            if disc[w] < 0:
                parent[w] = v
                disc[w] = count
                low[w] = count
                order[count] = w
                count += 1
                stack[sp] = w
                sp += 1
            elif w == parent[v] and skipped[v] == 0:
                skipped[v] = 1
            elif disc[w] < low[v]:
                low[v] = disc[w]
        else:
            sp -= 1
            u = parent[v]
            if u >= 0 and low[v] < low[u]:
                low[u] = low[v]
    return disc, low, parent, order, count


@njit(cache=True, nogil=True)
def blocks(disc, low, parent, order, count):
    """Cut squares and blocks from a :func:`lowpoint_dfs` of one component.

    Returns ``parts`` (for every square, the number of pieces its removal
    leaves of its component; 1 for squares that are not cut squares, 0 for
    unreached ones), ``block`` (for every reached square but the root, the id
    of the block holding the tree edge to its parent: the id is the square
    heading that block) and ``ncut`` (for every block id, how many cut squares
    it holds).
    """
    n = disc.size
    parts = np.zeros(n, dtype=np.int32)
    block = np.full(n, -1, dtype=np.int32)
    ncut = np.zeros(n, dtype=np.int32)
    if count == 0:
        return parts, block, ncut
    root = order[0]
    children_cut = np.zeros(n, dtype=np.int32)
    for k in range(1, count):
        w = order[k]
        p = parent[w]
        if low[w] >= disc[p]:
            children_cut[p] += 1
    for k in range(count):
        v = order[k]
        if v == root:
            parts[v] = children_cut[v] if children_cut[v] > 0 else 1
        else:
            parts[v] = children_cut[v] + 1
    # Blocks: a tree edge (p, w) with low[w] >= disc[p] opens a new block.
    for k in range(1, count):
        w = order[k]
        p = parent[w]
        if low[w] >= disc[p]:
            block[w] = w
        else:
            block[w] = block[p]
    for k in range(1, count):
        w = order[k]
        p = parent[w]
        if block[w] == w and parts[p] > 1:
            ncut[w] += 1  # the square heading the block is a cut square
        if parts[w] > 1:
            ncut[block[w]] += 1
    return parts, block, ncut


@njit(cache=True, nogil=True)
def component_labels(indptr, indices, alive):
    """Component label of every square over alive edges (0, 1, ... in order of first square)."""
    n = indptr.size - 1
    label = np.full(n, -1, dtype=np.int32)
    queue = np.empty(n, dtype=np.int32)
    current = 0
    for s in range(n):
        if label[s] >= 0:
            continue
        label[s] = current
        qh = 0
        qt = 1
        queue[0] = s
        while qh < qt:
            v = queue[qh]
            qh += 1
            for p in range(indptr[v], indptr[v + 1]):
                if alive[p] == 0:
                    continue
                w = indices[p]
                if label[w] < 0:
                    label[w] = current
                    queue[qt] = w
                    qt += 1
        current += 1
    return label


@njit(cache=True, nogil=True)
def hopcroft_karp(indptr, indices, alive, side, match):
    """Maximum matching between ``side == 0`` and ``side == 1`` squares, in place.

    ``match[v]`` is ``v``'s partner or -1; a partial matching passed in is
    extended (warm start).  Returns the number of matched pairs.  Phases of
    breadth-first layering and depth-first augmentation with explicit stacks
    (Hopcroft & Karp 1973), ``O(E sqrt(V))``.
    """
    n = indptr.size - 1
    inf = np.int32(2**30)
    dist = np.empty(n, dtype=np.int32)
    queue = np.empty(n, dtype=np.int32)
    it = np.empty(n, dtype=np.int32)
    stack = np.empty(n, dtype=np.int32)
    rstack = np.empty(n, dtype=np.int32)
    # Greedy start.
    for u in range(n):
        if side[u] != 0 or match[u] >= 0:
            continue
        for p in range(indptr[u], indptr[u + 1]):
            if alive[p] != 0:
                w = indices[p]
                if match[w] < 0:
                    match[u] = w
                    match[w] = u
                    break
    while True:
        qh = 0
        qt = 0
        for u in range(n):
            if side[u] == 0:
                if match[u] < 0:
                    dist[u] = 0
                    queue[qt] = u
                    qt += 1
                else:
                    dist[u] = inf
        found = inf
        while qh < qt:
            u = queue[qh]
            qh += 1
            if dist[u] >= found:
                continue
            for p in range(indptr[u], indptr[u + 1]):
                if alive[p] == 0:
                    continue
                w = indices[p]
                m = match[w]
                if m < 0:
                    if found == inf:
                        found = dist[u] + 1
                elif dist[m] == inf:
                    dist[m] = dist[u] + 1
                    queue[qt] = m
                    qt += 1
        if found == inf:
            break
        for u in range(n):
            it[u] = indptr[u]
        augmented = 0
        for u0 in range(n):
            if side[u0] != 0 or match[u0] >= 0:
                continue
            stack[0] = u0
            sp = 1
            while sp > 0:
                u = stack[sp - 1]
                moved = False
                done = False
                while it[u] < indptr[u + 1]:
                    p = it[u]
                    it[u] += 1
                    if alive[p] == 0:
                        continue
                    w = indices[p]
                    m = match[w]
                    if m < 0:
                        rstack[sp - 1] = w
                        for k in range(sp - 1, -1, -1):
                            a = stack[k]
                            b = rstack[k]
                            match[a] = b
                            match[b] = a
                        augmented += 1
                        done = True
                        break
                    if dist[m] == dist[u] + 1 and dist[m] < found:
                        rstack[sp - 1] = w
                        stack[sp] = m
                        sp += 1
                        moved = True
                        break
                if done:
                    break
                if not moved:
                    dist[u] = inf
                    sp -= 1
        if augmented == 0:
            break
    size = 0
    for u in range(n):
        if side[u] == 0 and match[u] >= 0:
            size += 1
    return size


@njit(cache=True, nogil=True)
def alternating_scc(indptr, indices, alive, side, match):
    """Strongly connected components and levels of the alternating graph of a perfect matching.

    The alternating graph has the ``side == 0`` squares as nodes and an arc
    ``a -> match[b]`` for every alive edge ``(a, b)`` outside the matching.
    An edge outside the matching lies in some perfect matching exactly when
    its arc stays inside one component.  Returns ``comp`` (component id of
    every side-0 square, -1 elsewhere; Tarjan's numbering, so arcs between
    components go from higher to lower ids) and ``level``: the longest chain
    of arcs between components that ends at the square's component.  Arcs
    never lower the level, and arcs between components raise it, so the
    side-0 squares of level >= k have only the partners of one another as
    neighbours.
    """
    n = indptr.size - 1
    index = np.full(n, -1, dtype=np.int32)
    lowl = np.zeros(n, dtype=np.int32)
    onstack = np.zeros(n, dtype=np.uint8)
    comp = np.full(n, -1, dtype=np.int32)
    sstack = np.empty(n, dtype=np.int32)
    cstack = np.empty(n, dtype=np.int32)
    it = indptr[:-1].copy()
    counter = 0
    ncomp = 0
    ss = 0
    for s in range(n):
        if side[s] != 0 or index[s] >= 0:
            continue
        index[s] = counter
        lowl[s] = counter
        counter += 1
        sstack[ss] = s
        ss += 1
        onstack[s] = 1
        cstack[0] = s
        cs = 1
        while cs > 0:
            v = cstack[cs - 1]
            p = it[v]
            if p < indptr[v + 1]:
                it[v] = p + 1
                if alive[p] == 0:
                    continue
                b = indices[p]
                if b == match[v]:
                    continue
                w = match[b]
                if index[w] < 0:
                    index[w] = counter
                    lowl[w] = counter
                    counter += 1
                    sstack[ss] = w
                    ss += 1
                    onstack[w] = 1
                    cstack[cs] = w
                    cs += 1
                elif onstack[w] == 1 and index[w] < lowl[v]:
                    lowl[v] = index[w]
            else:
                if lowl[v] == index[v]:
                    while True:
                        ss -= 1
                        x = sstack[ss]
                        onstack[x] = 0
                        comp[x] = ncomp
                        if x == v:
                            break
                    ncomp += 1
                cs -= 1
                if cs > 0:
                    u = cstack[cs - 1]
                    if lowl[v] < lowl[u]:
                        lowl[u] = lowl[v]
    # Levels: visit components from sources (highest id) to sinks (id 0).
    level_of = np.zeros(ncomp, dtype=np.int32)
    count = np.zeros(ncomp + 1, dtype=np.int32)
    for v in range(n):
        if comp[v] >= 0:
            count[comp[v] + 1] += 1
    for c in range(ncomp):
        count[c + 1] += count[c]
    members = np.empty(count[ncomp], dtype=np.int32)
    fill = count[:-1].copy()
    for v in range(n):
        c = comp[v]
        if c >= 0:
            members[fill[c]] = v
            fill[c] += 1
    for c in range(ncomp - 1, -1, -1):
        for k in range(count[c], count[c + 1]):
            v = members[k]
            for p in range(indptr[v], indptr[v + 1]):
                if alive[p] == 0:
                    continue
                b = indices[p]
                if b == match[v]:
                    continue
                c2 = comp[match[b]]
                if c2 != c and level_of[c2] < level_of[c] + 1:
                    level_of[c2] = level_of[c] + 1
    level = np.full(n, -1, dtype=np.int32)
    for v in range(n):
        if comp[v] >= 0:
            level[v] = level_of[comp[v]]
    return comp, level


@njit(cache=True, nogil=True)
def drop_lost_pairs(indptr, indices, alive, side, match):
    """Unpair, in place, every ``side == 0`` square whose partner's move is no longer alive (and its partner);
    returns how many pairs went.

    The pairs left are a matching of the live moves, the warm start of the next maximum matching.
    """
    n = indptr.size - 1
    lost = 0
    for u in range(n):
        v = match[u]
        if side[u] != 0 or v < 0:
            continue
        kept = False
        for p in range(indptr[u], indptr[u + 1]):
            if indices[p] == v and alive[p] == 1:
                kept = True
                break
        if not kept:
            match[v] = -1
            match[u] = -1
            lost += 1
    return lost


@njit(cache=True, nogil=True)
def off_matchings(indptr, indices, alive, side, match, comp):
    """The entries (int64, increasing) of the live moves from ``side == 0`` squares that lie in no perfect
    matching: outside the perfect matching ``match``, with their arc (see :func:`alternating_scc`) between
    two of the components ``comp``.

    Two passes over the moves, counting then filling, so that no array as long as the moves is made but
    the answer.
    """
    n = indptr.size - 1
    count = 0
    for phase in range(2):
        out = np.empty(count, dtype=np.int64)
        k = 0
        for u in range(n):
            if side[u] != 0:
                continue
            for p in range(indptr[u], indptr[u + 1]):
                v = indices[p]
                if alive[p] != 1 or v == match[u]:
                    continue
                w = match[v] if match[v] >= 0 else 0
                if comp[u] != comp[w]:
                    if phase == 1:
                        out[k] = p
                    k += 1
        count = k
    return out


@njit(cache=True, nogil=True)
def other_side_levels(indptr, indices, alive, side, level):
    """The levels of the ``side == 1`` squares that name, from that side, the tight sets that ``level`` names
    on side 0 (int32; 0 on side 0).

    With a perfect matching of the live moves and ``S_k`` the side-0 squares
    of level ``>= k`` (tight: as many neighbours as squares), the side-1
    squares with no neighbour in ``S_k`` are tight too, their neighbours are
    exactly the side-0 squares outside ``S_k``, and the moves between the two
    sets' outsides are the same moves.  A side-1 square gets ``top - m``,
    where ``top`` is the highest level and ``m`` the highest level among its
    live neighbours (0 when none): it lies in ``top - m`` of those sets.  The
    matching proof names whichever side is shorter.
    """
    n = indptr.size - 1
    top = 0
    for v in range(n):
        if side[v] == 0 and level[v] > top:
            top = level[v]
    out = np.zeros(n, dtype=np.int32)
    for b in range(n):
        if side[b] != 1:
            continue
        m = 0
        for p in range(indptr[b], indptr[b + 1]):
            if alive[p] == 1:
                a = indices[p]
                if side[a] == 0 and level[a] > m:
                    m = level[a]
        out[b] = top - m
    return out


@njit(cache=True, nogil=True)
def closed_components(indptr, indices, side, match, comp, ncomp):
    """Which components ``comp`` (of :func:`alternating_scc`, ``ncomp`` of them) of the ``side == 0`` squares
    are closed: every square of it matched, and every neighbour of its squares matched to a square of it.

    Returns uint8 per component, 1 when closed.  A closed component's neighbours are exactly its squares'
    partners, so it has as many neighbours as squares (the sets of :mod:`ktsolve.proofs.ends`).
    """
    n = indptr.size - 1
    closed = np.ones(ncomp, dtype=np.uint8)
    for u in range(n):
        if side[u] != 0:
            continue
        c = comp[u]
        if match[u] < 0:
            closed[c] = 0
            continue
        for p in range(indptr[u], indptr[u + 1]):
            w = match[indices[p]]
            if w < 0 or comp[w] != c:
                closed[c] = 0
                break
    return closed


@njit(cache=True, nogil=True)
def csr_copy_rows(g_indptr, g_indices, indptr, indices, a, b):
    """Rows of squares ``a .. b - 1`` of the knight graph's CSR copied to the head of their rows in the matching
    proof's network (the first of the passes of :func:`ktsolve.proofs.network.network_csr`, by ranges; the
    extra squares' entries go after them)."""
    for u in range(a, b):
        lo = g_indptr[u]
        at = indptr[u]
        for p in range(lo, g_indptr[u + 1]):
            indices[at + p - lo] = g_indices[p]
    return b - a


@njit(cache=True, nogil=True)
def csr_sort_rows(indptr, indices, a, b):
    """Rows of nodes ``a .. b - 1`` sorted (the second pass: rows are short, but for the extra squares of an open
    tour)."""
    for v in range(a, b):
        lo, hi = indptr[v], indptr[v + 1]
        if hi - lo > 32:
            indices[lo:hi] = np.sort(indices[lo:hi])
        else:
            for c in range(lo + 1, hi):  # insertion sort: rows of at most eight knight's moves
                x = indices[c]
                d = c - 1
                while d >= lo and indices[d] > x:
                    indices[d + 1] = indices[d]
                    d -= 1
                indices[d + 1] = x
    return b - a


@njit(cache=True, nogil=True)
def csr_twins(indptr, indices, twin, a, b):
    """``twin[p]``, the entry of the reverse move, for the entries of nodes ``a .. b - 1`` (the last pass: a
    binary search in the other end's sorted row)."""
    for u in range(a, b):
        for p in range(indptr[u], indptr[u + 1]):
            v = indices[p]
            lo, hi = indptr[v], indptr[v + 1]
            while lo < hi:
                mid = (lo + hi) // 2
                if indices[mid] < u:
                    lo = mid + 1
                else:
                    hi = mid
            twin[p] = lo
    return b - a


@njit(cache=True, nogil=True)
def matching_from_factor(links, rows, cols, number, match):
    """Every second move of each cycle of a 2-factor, as a perfect matching, in place; the squares matched.

    ``links`` holds the 2-factor two slots a cell (:mod:`ktsolve._grid_kernels`: a move index, or
    :data:`~ktsolve._grid_kernels.NONE`), ``number[f]`` the square number of cell ``f`` (-1 on holes).
    The knight graph is bipartite, so every cycle is even and its alternate moves pair all its squares:
    ``match[number[f]]`` is the square paired with ``f``.
    """
    seen = np.zeros(rows * cols, dtype=np.uint8)
    matched = 0
    for f0 in range(rows * cols):
        if number[f0] < 0 or seen[f0] != 0 or links[f0, 0] == NONE or links[f0, 1] == NONE:
            continue
        prev = -1
        f = f0
        take = True
        while True:
            seen[f] = 1
            g = step(f, links[f, 0], rows, cols)
            if g == prev:
                g = step(f, links[f, 1], rows, cols)
            if take:
                match[number[f]] = number[g]
                match[number[g]] = number[f]
                matched += 2
            take = not take
            prev = f
            f = g
            if f == f0:
                break
    return matched
