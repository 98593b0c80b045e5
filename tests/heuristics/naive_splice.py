"""Slow, readable references of the splice kernels (plain Python over sets and dicts).

Cells are flat positions ``row * cols + col``; links are the int8 ``(cells, 2)``
array of move numbers (0..7, 8 = END, -1 = empty) that the kernels use.  The
references scan in the same order as the kernels (cells in order, then slots,
then moves), so they make the same choices, and the tests compare the links
they leave square by square.
"""

from __future__ import annotations

import numpy as np

from ktsolve.graph import KNIGHT_MOVES

MOVES = [tuple(m) for m in KNIGHT_MOVES.tolist()]
END, NONE = 8, -1


def step(f, j, rows, cols):
    r, c = divmod(f, cols)
    r2, c2 = r + MOVES[j][0], c + MOVES[j][1]
    return r2 * cols + c2 if 0 <= r2 < rows and 0 <= c2 < cols else -1


def move(f, g, cols):
    (r, c), (r2, c2) = divmod(f, cols), divmod(g, cols)
    d = (r2 - r, c2 - c)
    return MOVES.index(d) if d in MOVES else -1


def neighbours(links, f, rows, cols):
    """The squares ``f`` is linked to (END and empty slots left out)."""
    return [step(f, int(j), rows, cols) for j in links[f] if 0 <= j < 8]


def check(links, alive, rows, cols, *, complete=False, ends=None):
    """None when the links are a valid partial 2-factor of the alive squares, else what is wrong.

    With ``complete`` every square must have two links (``ends`` of them
    END links in all).
    """
    got_ends = 0
    for f in range(rows * cols):
        slots = [int(j) for j in links[f]]
        if not alive[f]:
            if slots != [NONE, NONE]:
                return f"hole {f} has links {slots}"
            continue
        nbs = neighbours(links, f, rows, cols)
        if -1 in nbs:
            return f"square {f} links off the board"
        if len(set(nbs)) != len(nbs):
            return f"square {f} links twice to one square"
        for g in nbs:
            if not alive[g]:
                return f"square {f} links to the hole {g}"
            if f not in neighbours(links, g, rows, cols):
                return f"link {f}-{g} is not mutual"
        got_ends += slots.count(END)
        if complete and NONE in slots:
            return f"square {f} has an empty slot"
    if complete and ends is not None and got_ends != ends:
        return f"{got_ends} END links, not {ends}"
    return None


def components(links, alive, rows, cols):
    """The pieces as a set of frozensets of cells (breadth-first over the links)."""
    seen, out = set(), set()
    for f in range(rows * cols):
        if not alive[f] or f in seen:
            continue
        part, todo = {f}, [f]
        while todo:
            g = todo.pop()
            for h in neighbours(links, g, rows, cols):
                if h not in part:
                    part.add(h)
                    todo.append(h)
        seen |= part
        out.add(frozenset(part))
    return out


def _unlink(links, f, g, cols):
    j = move(f, g, cols)
    links[f, 0 if links[f, 0] == j else 1] = NONE
    links[g, 0 if links[g, 0] == (j ^ 4) else 1] = NONE


def _link(links, f, g, cols):
    j = move(f, g, cols)
    links[f, 0 if links[f, 0] == NONE else 1] = j
    links[g, 0 if links[g, 0] == NONE else 1] = j ^ 4


def merge_pass(links, alive, rows, cols, skip_piece):
    """The four-square exchanges of one pass, as the kernel scans them; returns the pieces left.

    A link ``a - b`` of a piece other than ``skip_piece``'s (a set of
    cells, the largest piece at the start) and a link ``c - d`` of another
    piece, with ``a - c`` and ``b - d`` moves, become ``a - c`` and
    ``b - d``.  The pieces are recomputed from scratch after each exchange.
    """
    piece_of = {}
    for part in components(links, alive, rows, cols):
        for f in part:
            piece_of[f] = part
    skip = next(iter(skip_piece))
    for a in range(rows * cols):
        if len(set(map(id, piece_of.values()))) <= 1:
            break
        if not alive[a] or piece_of[a] is piece_of[skip]:
            continue
        done = False
        for j in [int(x) for x in links[a]]:
            if not 0 <= j < 8:
                continue
            b = step(a, j, rows, cols)
            for m in range(8):
                c = step(a, m, rows, cols)
                if c < 0 or c == b or not alive[c] or piece_of[c] is piece_of[a]:
                    continue
                for k in [int(x) for x in links[c]]:
                    if not 0 <= k < 8:
                        continue
                    d = step(c, k, rows, cols)
                    if d == a or move(b, d, cols) < 0:
                        continue
                    _unlink(links, a, b, cols)
                    _unlink(links, c, d, cols)
                    _link(links, a, c, cols)
                    _link(links, b, d, cols)
                    joined = piece_of[a] | piece_of[c]
                    for f in joined:
                        piece_of[f] = joined
                    done = True
                    break
                if done:
                    break
            if done:
                break
    return len(set(map(id, piece_of.values())))


def augment_from(u, links, alive, rows, cols, avoid=-1, lo=0, hi=None):
    """Breadth-first alternating path from ``u`` to a square of the other colour with an empty slot,
    applied; True when found (no queue limit).  The path never starts with the move ``u - avoid``, and
    goes through no cell outside ``lo <= f < hi``."""
    hi = rows * cols if hi is None else hi
    from collections import deque

    parent = {u: None}  # square of u's colour -> (the square it came from, the other-colour square between)
    seen = {u}
    queue = deque([u])
    while queue:
        y = queue.popleft()
        for j in range(8):
            x = step(y, j, rows, cols)
            if not lo <= x < hi or not alive[x] or x in seen or j in [int(v) for v in links[y]]:
                continue
            if y == u and x == avoid:
                continue
            seen.add(x)
            if NONE in [int(v) for v in links[x]]:
                path = [(y, x)]
                v = y
                while parent[v] is not None:
                    prev, xi = parent[v]
                    path.append((prev, xi))
                    _unlink(links, xi, v, cols)
                    v = prev
                for p, q in path:
                    _link(links, p, q, cols)
                return True
            for w in neighbours(links, x, rows, cols):
                if w in seen or not lo <= w < hi:
                    continue
                seen.add(w)
                parent[w] = (y, x)
                queue.append(w)
    return False


def augment_toward(u, target, links, alive, rows, cols, cap):
    """Best-first alternating path from ``u`` to any square of the other colour with an empty slot, the
    queued square nearest ``target`` (squared distance; ties: the one queued first) expanded first;
    applied; True when found.  At most ``cap`` squares are queued, ``u`` counted."""
    import heapq

    parent = {u: None}
    seen = {u}
    heap = [(0, 0, u)]
    queued = 1
    tr, tc = divmod(target, cols)
    while heap:
        _, _, y = heapq.heappop(heap)
        for j in range(8):
            x = step(y, j, rows, cols)
            if x < 0 or not alive[x] or x in seen or j in [int(v) for v in links[y]]:
                continue
            seen.add(x)
            if NONE in [int(v) for v in links[x]]:
                path = [(y, x)]
                v = y
                while parent[v] is not None:
                    prev, xi = parent[v]
                    path.append((prev, xi))
                    _unlink(links, xi, v, cols)
                    v = prev
                for p, q in path:
                    _link(links, p, q, cols)
                return True
            if queued + 2 > cap:
                continue
            for w in neighbours(links, x, rows, cols):
                if w in seen:
                    continue
                seen.add(w)
                parent[w] = (y, x)
                wr, wc = divmod(w, cols)
                heapq.heappush(heap, ((wr - tr) ** 2 + (wc - tc) ** 2, queued, w))
                queued += 1
    return False


def walk_outside(q, s, links, rows, cols, box, ends=(-1, -1)):
    """Follow the links from window square ``q`` out through its slot ``s`` to the next window square (a square
    of ``box`` = (r0, r1, c0, c1) with at most one link leaving the box); an END link jumps to the other end."""
    r0, r1, c0, c1 = box

    def in_box(f):
        r, c = divmod(f, cols)
        return r0 <= r < r1 and c0 <= c < c1

    def window_square(f):
        out = sum(1 for j in links[f] if j == END or (0 <= j < 8 and not in_box(step(f, int(j), rows, cols))))
        return in_box(f) and out < 2

    prev, cur = q, None
    j = int(links[q, s])
    cur = (ends[1] if q == ends[0] else ends[0]) if j == END else step(q, j, rows, cols)
    came_by_end = j == END
    for _ in range(rows * cols + 2):
        if window_square(cur):
            return cur
        slots = [int(v) for v in links[cur]]
        if came_by_end:
            nxt = [v for v in slots if v != END][0]
        else:
            nxt = [v for v in slots if v == END or step(cur, v, rows, cols) != prev][0]
        if nxt == END:
            prev, cur, came_by_end = cur, (ends[1] if cur == ends[0] else ends[0]), True
        else:
            prev, cur, came_by_end = cur, step(cur, nxt, rows, cols), False
    return -1


def reroute(f, s, links, alive, rows, cols, budget, force=False):
    """Cut link ``s`` of ``f`` (to ``g``), flip the breadth-first alternating path from ``f`` back to ``g``
    that does not take ``f - g`` again; keep it when no square whose links changed is on a cycle of at most
    ``budget`` squares (1), else put the links back (-1) or, with ``force``, keep it all the same (2);
    0: no path."""
    before = links.copy()
    g = step(f, int(links[f, s]), rows, cols)
    _unlink(links, f, g, cols)
    if not augment_from(f, links, alive, rows, cols, avoid=g):
        links[:] = before
        return 0
    changed = [q for q in range(rows * cols) if sorted(links[q].tolist()) != sorted(before[q].tolist())]
    small = [c for c in components(links, alive, rows, cols) if len(c) <= budget and is_cycle(links, c, rows, cols)]
    if any(q in c for c in small for q in changed):
        if force:
            return 2
        links[:] = before
        return -1
    return 1


def is_cycle(links, cells, rows, cols):
    """Whether every square of the component ``cells`` has two links to squares (no END, no empty slot)."""
    return all(len([g for g in neighbours(links, f, rows, cols) if g >= 0]) == 2 and NONE not in links[f].tolist()
               and END not in links[f].tolist() for f in cells)
