"""Kernels of the frontier count (:mod:`ktsolve.models.frontier`): one cell's step over a table of states.

A state packs, for each of the ``W`` window slots, 5 bits: 0 a frontier
cell with no move yet, 1 a cell that takes no more moves (two moves, or
no cell there), 2 an end whose path's other end is finished, ``3 + j``
an end whose path's other end is in slot ``j``.  Slots 0-11 are in word
0, slots 12-23 in word 1, whose bits 60-61 hold the free ends used.  No
slot ever holds 31, so a word of all ones (-1) marks an empty entry of
the hash table.

The table: one int64 array of ``(capacity, 2 + P)``, a row per state
(its two key words, then its ``P`` counts, each modulo ``mods[p]``, a
prime below 2**62 so that a sum of two fits, or, where ``mods[p]`` is 0,
plain int64 that sticks at :data:`SATURATED` once it would pass it), so
that one insertion touches one cache line.  Open addressing with linear
probing; a key's home row is its hash's top 32 bits scaled to the
capacity, which may be any size.

The step's data, per step ``s`` (one row of ``info``, columns named
below): the cell's slot and whether it is a fixed end; up to four
earlier neighbours (slot, fixed); the cells that leave after it (slot,
fixed); the cells to prune (slot, neighbours still to come, fixed);
whether the board may end at this cell; the colour count's constant;
``fr_*``: every frontier cell after the step (slot, neighbours to come,
fixed), checked when a free end was used; and ``slot_sign``: the colour
(+1 or -1) of the frontier cell in each slot.

The look-ahead (:func:`_completable`): each step whose window reaches the
board's end (or holds a hole) has a small flow network, built by the plan
(:func:`ktsolve.models.frontier_plan._network`): source, sink, two hubs for
tour ends, the frontier cells, the squares ahead and the free squares
beyond; a capacity template per side, patched at the frontier cells from
the state.  :func:`step` remembers each answer by the frontier's needs in
a memo (open addressing, grown by the caller).  The reference of all of it
is ``tests/naive_frontier.py``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

SATURATED = np.int64(0x7FFFFFFFFFFFFFFF)
EMPTY = np.int64(-1)
#: Slot values.
FREE, SHUT, OUTER, MATE0 = 0, 1, 2, 3
SLOTS_PER_WORD = 12
#: Columns of ``info``.
C_SLOT, C_FIXED, C_NBACK, C_BACK, C_BACKFIX = 0, 1, 2, 3, 7
C_NCLOSE, C_CLOSE, C_CLOSEFIX = 11, 12, 17
C_NPRUNE, C_PRUNE, C_PRUNEREM, C_PRUNEFIX = 22, 23, 28, 33
C_MAYEND, C_NFR, C_BASEIMB = 38, 39, 40
INFO_COLS = 41
#: Nodes 0-3 of every look-ahead network: source, sink, and the two hubs of tour ends.
N_S, N_T, N_E, N_E2 = 0, 1, 2, 3
#: Node kinds and edge kinds of the look-ahead networks (used where the plan builds them).
K_HUB, K_FRONT, K_AHEAD, K_FLEX = 0, 1, 2, 3
E_REV, E_UNIT, E_SREAL, E_TREAL, E_SFLEX, E_TFLEX, E_TOE, E_ET, E_SE2, E_E2W = range(10)


@njit(cache=True, inline="always")
def _get(w0, w1, slot):
    if slot < 12:
        return (w0 >> (5 * slot)) & 31
    return (w1 >> (5 * (slot - 12))) & 31


@njit(cache=True, inline="always")
def _hash(w0, w1):
    z = np.uint64(w0) * np.uint64(0x9E3779B97F4A7C15) ^ np.uint64(w1)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def _add(a, b, mod):
    s = a + b
    if mod == 0:
        if s < 0:  # wrapped past 2**63 - 1 (both are non-negative)
            return SATURATED
        return s
    if s >= mod:
        s -= mod
    return s


@njit(cache=True, nogil=True)
def empty_word():
    """Word 0 of the state with every slot shut (value 1)."""
    w = np.int64(0)
    for i in range(SLOTS_PER_WORD):
        w |= np.int64(SHUT) << (5 * i)
    return w


@njit(cache=True, inline="always")
def _slot_of(w0, w1, cap):
    """The home row of a key in a table of ``cap`` rows (any size: the hash's top bits scaled)."""
    return np.int64(((_hash(w0, w1) >> np.uint64(32)) * np.uint64(cap)) >> np.uint64(32))


@njit(cache=True, inline="always")
def _insert(tab, w0, w1, src, row, mods):
    """Add the counts of ``src[row]`` to the row of key (w0, w1) in ``tab``, made if new; 1 when new."""
    cap = tab.shape[0]
    h = _slot_of(w0, w1, cap)
    while True:
        if tab[h, 0] == EMPTY:
            tab[h, 0] = w0
            tab[h, 1] = w1
            for p in range(2, tab.shape[1]):
                tab[h, p] = src[row, p]
            return 1
        if tab[h, 0] == w0 and tab[h, 1] == w1:
            for p in range(2, tab.shape[1]):
                tab[h, p] = _add(tab[h, p], src[row, p], mods[p - 2])
            return 0
        h += 1
        if h == cap:
            h = 0


@njit(cache=True, inline="always")
def _demand(v):
    """Moves a frontier cell still needs for two: 2 with none yet, 1 at an end, 0 when shut."""
    if v == FREE:
        return 2
    if v == SHUT:
        return 0
    return 1


@njit(cache=True, inline="always")
def _need(fixed, used, budget, closed):
    if fixed:
        return 1
    if closed or used == budget:
        return 2
    return 1


@njit(cache=True, inline="always")
def _put(st, j, v, log, nlog):
    log[nlog, 0] = j
    log[nlog, 1] = st[j]
    st[j] = v
    return nlog + 1


@njit(cache=True, inline="always")
def _apply(st, used, info, fr_slot, fr_rem, fr_fix, slot_sign, s, chosen, closed, budget, colours, log):
    """Step ``s``'s cell takes the moves to the earlier neighbours in ``chosen`` (a bit mask): ``st`` is changed.

    Every change is logged in ``log`` (slot, old value) for the caller to
    undo.  Returns (status, finishable, used, changes): status 0 dead, 1 a
    state to keep, 2 a finished tour (the board ends here and every cell
    has its moves); ``finishable``: an open tour if the board ended here.
    """
    nlog = 0
    used0 = used
    k = info[s, C_SLOT]
    may_end = info[s, C_MAYEND] != 0
    nlog = _put(st, k, FREE, log, nlog)
    done = False
    for j in range(info[s, C_NBACK]):
        if not (chosen >> j) & 1:
            continue
        b = info[s, C_BACK + j]
        va = st[k]
        vb = st[b]
        if va == FREE and vb == FREE:
            nlog = _put(st, k, MATE0 + b, log, nlog)
            nlog = _put(st, b, MATE0 + k, log, nlog)
        elif va == FREE or vb == FREE:
            a = k
            if vb == FREE:  # the new move's end without a move is b; make it ``a``
                a, b = b, k
                vb = va
            nlog = _put(st, b, SHUT, log, nlog)
            nlog = _put(st, a, vb, log, nlog)
            if vb != OUTER:
                nlog = _put(st, vb - MATE0, MATE0 + a, log, nlog)
        else:
            nlog = _put(st, k, SHUT, log, nlog)
            nlog = _put(st, b, SHUT, log, nlog)
            if va == MATE0 + b:  # the two ends of one path: a cycle
                if not (closed and may_end):
                    return 0, False, used, nlog
                done = True
            elif va == OUTER and vb == OUTER:  # a path with both ends finished: the whole tour
                if not may_end:
                    return 0, False, used, nlog
                done = True
            elif va == OUTER:
                nlog = _put(st, vb - MATE0, OUTER, log, nlog)
            elif vb == OUTER:
                nlog = _put(st, va - MATE0, OUTER, log, nlog)
            else:
                nlog = _put(st, va - MATE0, vb, log, nlog)
                nlog = _put(st, vb - MATE0, va, log, nlog)
    for j in range(info[s, C_NCLOSE]):
        u = info[s, C_CLOSE + j]
        v = st[u]
        if v == SHUT:
            continue
        if v == FREE:
            return 0, False, used, nlog
        if info[s, C_CLOSEFIX + j] == 0:
            if closed:
                return 0, False, used, nlog
            used += 1
            if used > budget:
                return 0, False, used, nlog
        nlog = _put(st, u, SHUT, log, nlog)
        if v == OUTER:
            if not may_end:
                return 0, False, used, nlog
            done = True
        else:
            nlog = _put(st, v - MATE0, OUTER, log, nlog)
    if used != used0:
        for j in range(info[s, C_NFR]):
            u = fr_slot[s, j]
            if 2 - _demand(st[u]) + fr_rem[s, j] < _need(fr_fix[s, j] != 0, used, budget, closed):
                return 0, False, used, nlog
    else:
        for j in range(info[s, C_NPRUNE]):
            u = info[s, C_PRUNE + j]
            if 2 - _demand(st[u]) + info[s, C_PRUNEREM + j] < _need(info[s, C_PRUNEFIX + j] != 0, used, budget,
                                                                    closed):
                return 0, False, used, nlog
    if done:
        for i in range(24):
            if st[i] != SHUT:
                return 0, False, used, nlog
        return 2, False, used, nlog
    finishable = False
    if may_end and not closed:
        finishable = _finishable(st, used)
    if colours and (used != used0 or s == 0):
        # the colour count (see tests/naive_frontier.py): only the finished free ends' colours can break it
        d = info[s, C_BASEIMB]
        for i in range(24):
            d += slot_sign[s, i] * _demand(st[i])
        free = budget - used
        if d > free or d < -free or (free - d) % 2 != 0:
            return 0, finishable, used, nlog
    return 1, finishable, used, nlog


@njit(cache=True, inline="always")
def _finishable(st, used):
    """Whether a state is a whole open tour if the board ended here.

    Such a state has no cell without a move and either two ends that are
    each other's mates (no free end used yet) or one end whose mate is a
    finished end (one used).
    """
    ends = 0
    first = -1
    second = -1
    for i in range(24):
        v = st[i]
        if v == FREE:
            return False
        if v != SHUT:
            ends += 1
            if first < 0:
                first = i
            else:
                second = i
    if ends == 2 and used == 0:
        return st[first] == MATE0 + second and st[second] == MATE0 + first
    return ends == 1 and used == 1 and st[first] == OUTER


@njit(cache=True, inline="always")
def _need_of(v, fixed):
    """Moves a frontier cell still needs: its capacity (1 for a fixed end, else 2) less its moves."""
    need = (1 if fixed else 2) - (2 - _demand(v))
    return need if need > 0 else 0


@njit(cache=True, nogil=True)
def _max_flow(s, n, ed, adj, adj_off, tedge, cap, target, par, queue):
    """Flow from node 0 to node 1 of step ``s``'s network, stopping at ``target`` (a few units: BFS paths)."""
    flow = 0
    # direct paths source -> u -> v -> sink first: most of the flow, without a search
    for a in range(adj_off[s, 0], adj_off[s, 1]):
        e0 = adj[s, a]
        u = ed[s, e0]
        b = adj_off[s, u]
        end = adj_off[s, u + 1]
        while cap[e0] > 0 and b < end:
            e1 = adj[s, b]
            v = ed[s, e1]
            e2 = tedge[s, v]
            if cap[e1] > 0 and e2 >= 0 and cap[e2] > 0:
                cap[e0] -= 1
                cap[e0 ^ 1] += 1
                cap[e1] -= 1
                cap[e1 ^ 1] += 1
                cap[e2] -= 1
                cap[e2 ^ 1] += 1
                flow += 1
            else:
                b += 1
    while flow < target:
        for i in range(n):
            par[i] = -1
        par[N_S] = -2
        head = 0
        tail = 1
        queue[0] = N_S
        found = False
        while head < tail and not found:
            u = queue[head]
            head += 1
            for a in range(adj_off[s, u], adj_off[s, u + 1]):
                e = adj[s, a]
                v = ed[s, e]
                if cap[e] > 0 and par[v] == -1:
                    par[v] = e
                    if v == N_T:
                        found = True
                        break
                    queue[tail] = v
                    tail += 1
        if not found:
            break
        v = N_T
        while v != N_S:
            e = par[v]
            cap[e] -= 1
            cap[e ^ 1] += 1
            v = ed[s, e ^ 1]
        flow += 1
    return flow


@njit(cache=True, nogil=True)
def _completable(st, s, free, info, fr_slot, fr_fix, slot_sign, net, cap, par, queue):
    """The look-ahead of ``tests/naive_frontier.py``: a flow saturating the real black nodes, then one
    saturating the real white ones, with as many real nodes one move short (tour ends) as the colour
    count leaves free ends of that colour to come."""
    n_nodes, ed, adj, adj_off, capt, tgt, fnode, hub, tedge = net
    n_e = adj_off[s, n_nodes[s]]
    d = info[s, C_BASEIMB]  # free ends to come: black ones less white ones
    for i in range(24):
        d += slot_sign[s, i] * _demand(st[i])
    ends_black = (free + d) // 2
    ends_white = free - ends_black
    for side in range(2):
        for e in range(n_e):
            cap[e] = capt[s, side, e]
        target = tgt[s, side]
        for j in range(info[s, C_NFR]):
            need = _need_of(st[fr_slot[s, j]], fr_fix[s, j] != 0)
            black = fnode[s, j, 2] != 0
            cap[fnode[s, j, 0]] = need
            if black == (side == 0):
                target += need
                if need >= 1 and fnode[s, j, 3] == 0:
                    cap[fnode[s, j, 1]] = 1
        cap[hub[s, side]] = ends_black if side == 0 else ends_white
        if target > 0 and _max_flow(s, n_nodes[s], ed, adj, adj_off, tedge, cap, target, par, queue) < target:
            return False
    return True


@njit(cache=True, inline="always")
def _memo_key(st, s, used, budget, info, fr_slot, fr_fix):
    key = np.int64(budget - used) << 50
    for j in range(info[s, C_NFR]):
        key |= np.int64(_need_of(st[fr_slot[s, j]], fr_fix[s, j] != 0)) << (2 * j)
    return key


@njit(cache=True, nogil=True)
def step(tab, lo, hi, new, size, limit, fin, mods, info, fr_slot, fr_rem, fr_fix, slot_sign, s, closed, budget,
         colours, memo, memo_n, net, work):
    """Run step ``s`` on input states ``lo`` to ``hi`` (dense rows of ``tab``) into the hash table ``new``.

    ``size[0]`` counts the entries of the new table; the run stops before
    a state whose children could take it past ``limit`` entries, or the
    look-ahead's memo past 0.7 of its rows (the caller grows it).  Tours
    that end at this cell are added to ``fin``.  Returns the row reached.
    """
    nback = info[s, C_NBACK]
    cap = 1 if info[s, C_FIXED] != 0 else 2
    children = 1 << nback
    st = np.empty(24, dtype=np.int64)
    log = np.empty((64, 2), dtype=np.int64)
    look = net[0][s] > 4
    msize = memo.shape[0]
    fcap, fpar, fqueue = work
    for row in range(lo, hi):
        if size[0] + children > limit or (look and memo_n[0] + children > msize * 7 // 10):
            return row
        w0 = tab[row, 0]
        w1 = tab[row, 1]
        for i in range(24):
            st[i] = _get(w0, w1, i)
        used = (w1 >> 60) & 3
        avail = 0
        for j in range(nback):
            v = st[info[s, C_BACK + j]]
            if v != SHUT and (info[s, C_BACKFIX + j] == 0 or v == FREE):
                avail |= 1 << j
        sub = avail
        while True:
            moves = 0
            c = sub
            while c:
                moves += c & 1
                c >>= 1
            if moves <= cap:
                status, finishable, used1, nlog = _apply(st, used, info, fr_slot, fr_rem, fr_fix, slot_sign, s, sub,
                                                         closed, budget, colours, log)
                if status == 2 or finishable:
                    for p in range(mods.shape[0]):
                        fin[p] = _add(fin[p], tab[row, p + 2], mods[p])
                if status == 1 and look:
                    # the look-ahead: this step's remembered answer for the frontier's needs, else the flows
                    key = _memo_key(st, s, used1, budget, info, fr_slot, fr_fix)
                    h = np.int64(((_hash(key, key >> 32) >> np.uint64(32)) * np.uint64(msize)) >> np.uint64(32))
                    while memo[h, 0] != EMPTY and memo[h, 0] != key:
                        h += 1
                        if h == msize:
                            h = 0
                    if memo[h, 0] == key:
                        ok = memo[h, 1] != 0
                    else:
                        ok = _completable(st, s, budget - used1, info, fr_slot, fr_fix, slot_sign, net, fcap, fpar, fqueue)
                        memo[h, 0] = key  # room is left: a row starts only below 0.7 of the memo less its children
                        memo[h, 1] = 1 if ok else 0
                        memo_n[0] += 1
                    if not ok:
                        status = 0
                if status == 1:
                    n0 = w0
                    n1 = w1
                    for i in range(nlog):
                        j = log[i, 0]
                        v = st[j]
                        if j < SLOTS_PER_WORD:
                            n0 = (n0 & ~(np.int64(31) << (5 * j))) | (v << (5 * j))
                        else:
                            n1 = (n1 & ~(np.int64(31) << (5 * (j - SLOTS_PER_WORD)))) | (v << (5 * (j - SLOTS_PER_WORD)))
                    n1 = (n1 & ~(np.int64(3) << 60)) | (used1 << 60)
                    size[0] += _insert(new, n0, n1, tab, row, mods)
                for i in range(nlog - 1, -1, -1):
                    st[log[i, 0]] = log[i, 1]
            if sub == 0:
                break
            sub = (sub - 1) & avail
    return hi


@njit(cache=True, nogil=True)
def rehash(tab, new, mods):
    """Insert every entry of one hash table into another (larger) one; returns the entries."""
    n = 0
    for h in range(tab.shape[0]):
        if tab[h, 0] != EMPTY:
            n += _insert(new, tab[h, 0], tab[h, 1], tab, h, mods)
    return n


@njit(cache=True, nogil=True)
def rememo(memo, new):
    """Move the look-ahead's remembered answers into a larger memo."""
    size = new.shape[0]
    for i in range(memo.shape[0]):
        key = memo[i, 0]
        if key != EMPTY:
            h = np.int64(((_hash(key, key >> 32) >> np.uint64(32)) * np.uint64(size)) >> np.uint64(32))
            while new[h, 0] != EMPTY:
                h += 1
                if h == size:
                    h = 0
            new[h, 0] = key
            new[h, 1] = memo[i, 1]


@njit(cache=True, nogil=True)
def compact(tab):
    """Move the entries of a hash table to its first rows, in table order; returns how many there are."""
    n = 0
    for h in range(tab.shape[0]):
        if tab[h, 0] != EMPTY:
            if h != n:
                for p in range(tab.shape[1]):
                    tab[n, p] = tab[h, p]
            n += 1
    return n
