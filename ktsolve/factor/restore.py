"""Two moves restored at every square by short alternating paths, from links that are nearly a 2-factor.

The starting links are a 2-factor of the full rectangle with the holes'
links cut (divide's tour in splice's step 3, :mod:`ktsolve.heuristics.splice`;
the tiled 4 x 4 cycles in :func:`ktsolve.factor.two_factor`'s start on large
boards), so every square short of a link is next to a hole.  The squares
short of a link pair up across the colours: most with a partner a few moves away (one small breadth-first
search each), the rest along a Hilbert curve, their missing links walked to
the partner two moves a step, and the few whose walk stalls by one search
each, best first towards the partner, whose work is a corridor to the
partner rather than the whole board; rounds of one search forest over the
board are the last resort.  The first searches and the walks run in bands
of rows, two at a time on two threads (:func:`_in_bands`).  The kernels are
in :mod:`ktsolve.factor._restore_kernels`.
"""

from __future__ import annotations

import numpy as np

from ..driver import Deadline
from .chunks import in_budgets, in_chunks, loading

__all__ = ["restore_factor", "warm", "SEARCH_CAPS", "WALK_ROUNDS", "TOWARD_ROUNDS", "TOWARD_SLACK", "TOWARD_QUEUE"]

#: Queue size of the first, local alternating-path search from every square short of a link.
SEARCH_CAPS = (64,)
#: What the deadline's reason names while the restoration runs.
PHASE = "restoring two moves at every square"
#: Rounds of pairing and walking the missing links of step 3 before the searches towards a partner.
WALK_ROUNDS = 12
#: Rounds of searches towards a partner along the curve (one search per square still short) after the walks.
TOWARD_ROUNDS = 8
#: A search towards a partner queues at most this many squares per square of distance (rows plus columns).
TOWARD_SLACK = 256
#: Squares short of a link of each colour up to which the searches towards a partner pair mutually
#: nearest squares instead of neighbours along the Hilbert curve (ranking them first costs the product of
#: the two colours' counts).
NEAREST_MAX = 4096
#: Nearest squares of the other colour that pairing keeps ranked for each square.
NEAREST_KEPT = 16
#: Distances held at once by that pairing (int64 each).
NEAREST_BLOCK = 1 << 20
#: Most squares one search towards a partner may queue (its arrays: four int32 and one int64 each).
TOWARD_QUEUE = 1 << 22
#: Bands of rows the first searches and the walks are split into (see :func:`_in_bands`).  Each band's work
#: reaches half a band beyond it, where most walks end: on 10000 x 10000 with 5 % holes, bands of 256 rows
#: reaching 64 beyond left 21.7 s of walks, 8 bands 15.2 s, 4 bands 14.7 s, none 28.7 s.
BANDS = 8
#: Fewest rows of a band: boards with fewer than ``BANDS`` times as many rows are worked in one piece.
BAND_MIN_ROWS = 64
#: Threads that work on bands at once (at most the machine's cores).
BAND_THREADS = 2


def _hilbert(r: np.ndarray, c: np.ndarray, side: int) -> np.ndarray:
    """Position of cells ``(r, c)`` on the Hilbert curve of the smallest power-of-two square holding ``side``.

    The classic bit-by-bit conversion (Hilbert 1891; the xy2d of Warren's
    Hacker's Delight, 16-2), vectorised: neighbours on the curve are
    neighbours on the board, so pairs of nearby positions are nearby cells.
    """
    n = 1
    while n < side:
        n *= 2
    x = c.astype(np.int64)
    y = r.astype(np.int64)
    d = np.zeros(x.shape, dtype=np.int64)
    s = n // 2
    while s > 0:
        rx = (x & s) > 0
        ry = (y & s) > 0
        d += s * s * ((3 * rx.astype(np.int64)) ^ ry.astype(np.int64))
        flip = ~ry & rx
        x = np.where(flip, n - 1 - x, x)
        y = np.where(flip, n - 1 - y, y)
        swap = ~ry
        x, y = np.where(swap, y, x), np.where(swap, x, y)
        s //= 2
    return d


def restore_factor(links, alive, rows: int, cols: int, *, free_ends: int, deadline: Deadline,
                   caps=SEARCH_CAPS, rng: np.random.Generator | None = None,
                   side: int | None = None, around: np.ndarray | None = None,
                   toward_yield: float = 0.0) -> tuple[int, dict]:
    """Step 3: alternating paths until every square has two links, ``free_ends`` of them :data:`END`.

    The squares short of links on the colour with fewer missing links each
    search for a partner on the other colour, first alone with a queue of
    ``caps[0]`` squares (in the order of ``rng``'s permutation when given),
    then the missing links left are walked to partners paired along a
    Hilbert curve, then each square still short searches once more, best
    first towards its partner (:func:`augment_toward`, rounds while any
    links, and while a round links at least ``toward_yield`` of its
    searches: a round that links few costs as much and leaves the rest to
    the forests), and last the ones left search all at once, in rounds of one
    search forest over the board.  ``side`` chooses the colour that
    searches when both miss as many links; ``around`` (cells) says where
    the squares short of links are, when the caller knows (else the board
    is scanned).  What is left short on the other colour becomes the free
    ends of an open tour (a square short of both links first passes one of
    them on along a link, so the two ends are two squares).  Returns
    ``(short, stats)``: ``short`` the missing links left (0 when a
    2-factor, with its ends, was reached).

    The squares short of links are only ever fewer, or moved by a walk to
    where it stopped, so after the first scan only those are looked at.
    """
    from ._pair_kernels import short_among
    from .._grid_kernels import END
    from ._restore_kernels import augment_many, forest_start, forest_steps, split_end, walk_many

    cells = rows * cols
    stamp = np.zeros(cells, dtype=np.int32)
    mark = 0
    if around is None:
        cand, miss = _short_cells(links, alive, rows * cols, deadline)
    else:
        cand, miss = short_among(np.unique(around), links, alive)
    colour = ((cand // cols + cand % cols) & 1).astype(np.int8)
    totals = [int(miss[colour == c].sum()) for c in (0, 1)]
    if side is None or totals[0] != totals[1]:
        side = 0 if totals[0] <= totals[1] else 1
    stats = {"short_at_start": int(miss.sum()), "augmentations": 0, "forest_rounds": 0, "walks": 0,
             "walk_rounds": 0}
    todo = np.repeat(cand[colour == side], miss[colour == side])
    if rng is not None:
        todo = rng.permutation(todo)
    # first a small search around every square short of a link: most partners are near
    def search(sel, lo, hi, first):
        qv, qx, qp = (np.empty(caps[0], dtype=np.int64) for _ in range(3))
        items = todo[sel]

        def some(a, b):
            return augment_many(items[a:b], links, alive, rows, cols, stamp, mark + first + a, qv, qx, qp, lo, hi)

        return in_chunks(items.size, some, deadline, PHASE)

    stats["augmentations"] += _in_bands(todo, todo, rows, cols, search)
    mark += todo.size + 1
    # then rounds of walks: each square still short is paired along a Hilbert curve with one of the
    # other colour, and its missing link is carried to it step by step (far partners are common: the
    # colours of the holes balance only over large regions, and a search would cover the whole region)
    for _ in range(WALK_ROUNDS):
        deadline.check(PHASE)
        cand, miss = short_among(cand, links, alive)
        if cand.size == 0:
            break
        many = np.repeat(cand, miss)
        colour = ((many // cols + many % cols) & 1).astype(np.int8)
        if not (colour == side).any():
            break
        us, vs = _pair_on_curve(many, colour, side, rows, cols)
        ends = np.empty(us.size, dtype=np.int64)

        def walk(sel, lo, hi, first):
            out = np.empty(sel.size, dtype=np.int64)
            fro, to = us[sel], vs[sel]

            def some(a, b):
                return walk_many(fro[a:b], to[a:b], links, alive, rows, cols, stamp, mark + first + a, out[a:b], lo, hi)

            got = in_chunks(sel.size, some, deadline, PHASE)
            ends[sel] = out
            return got

        walked = _in_bands(us, vs, rows, cols, walk)
        mark += us.size + 1
        stats["walks"] += walked
        stats["walk_rounds"] += 1
        cand = np.unique(np.concatenate([cand, ends[ends >= 0]]))
        if walked == 0:
            break
    # then one search per square still short, best first towards its partner along the curve: its work is
    # a corridor to where a partner is, where a forest round would cover the whole board for a few paths
    cand = _search_toward(cand, links, alive, rows, cols, side, stamp, mark, stats, deadline, toward_yield)
    stamp = None  # 4 bytes a cell, freed before the forest's arrays (the band closures above still name it)
    cand, miss = short_among(cand, links, alive)
    failed = cand[((cand // cols + cand % cols) & 1) == side]
    # last, rounds of one search forest from all the squares left short, until none is or a round finds nothing
    if failed.size:
        tree = np.empty(cells, dtype=np.int32)
        parent = np.empty(cells, dtype=np.int32)
        queue = np.empty(cells, dtype=np.int32)
        while True:
            deadline.check(PHASE)
            cand, miss = short_among(cand, links, alive)
            roots = cand[((cand // cols + cand % cols) & 1) == side]
            if roots.size == 0:
                break
            tree.fill(-1)
            done, state = np.zeros(roots.size, dtype=np.uint8), np.zeros(3, dtype=np.int64)
            forest_start(roots, tree, parent, queue, done, state)

            def some(budget):
                got = forest_steps(links, alive, rows, cols, tree, parent, queue, done, state, budget)
                return got, bool(state[2])

            got = in_budgets(some, deadline, PHASE, first=1 << 16)
            stats["forest_rounds"] += 1
            stats["augmentations"] += got
            if got == 0:
                break
        del tree, parent, queue
    cand, miss = short_among(cand, links, alive)
    colour = ((cand // cols + cand % cols) & 1).astype(np.int8)
    short = int(miss.sum())
    if short and short == free_ends and bool((colour != side).all()):
        # the squares left short on the larger colour are the free ends of the open path
        if all(k == 1 or split_end(f, links, alive, rows, cols) for f, k in zip(cand.tolist(), miss.tolist())):
            cand, miss = _short_cells(links, alive, rows * cols, deadline)
            if int(miss.sum()) == free_ends and bool((miss == 1).all()):
                for f in cand.tolist():
                    links[f, 0 if links[f, 0] == -1 else 1] = END
                short = 0
    stats["short"] = short
    return short, stats


def _short_cells(links, alive, cells: int, deadline: Deadline):
    """:func:`~._restore_kernels.short_cells` in parts of the cells, ``deadline`` checked between them."""
    from ._restore_kernels import short_range

    found, misses = [], []

    def scan(a: int, b: int) -> int:
        cand, miss = short_range(links, alive, a, b)
        found.append(cand)
        misses.append(miss)
        return 0

    in_chunks(cells, scan, deadline, PHASE, first=1 << 20)
    return np.concatenate(found), np.concatenate(misses)


def _in_bands(us, vs, rows: int, cols: int, call) -> int:
    """``call(sel, lo, hi, first)`` on the items ``sel`` (positions in ``us``, increasing) of each band, their
    work within the cells ``lo <= f < hi``; returns the sum of the answers.

    The rows are split into :data:`BANDS` bands.  Item ``i`` belongs to
    the band that holds square ``us[i]`` when square ``vs[i]`` (its
    partner) is within half a band of it too, and the band's work reaches
    half a band beyond it: so bands two apart share no cell, and the even bands
    run at once on :data:`BAND_THREADS` threads (the kernels release the
    GIL), then the odd ones.  The items of no band run last, alone, on the
    whole board.  Each band works on its own cells in the same order on any
    number of threads, so the links are the same however many run.
    ``first`` is where the call's items start in the order of the bands, so
    the marks of the cells its searches see (``first`` plus the item's place
    in the call) are the same in no two calls.
    """
    import os
    from concurrent.futures import ThreadPoolExecutor

    cells = rows * cols
    high = -(-rows // BANDS)  # rows of a band
    if high < BAND_MIN_ROWS:
        return call(np.arange(us.size), 0, cells, 0)
    bands = -(-rows // high)
    reach = high // 2
    band = us // cols // high
    vr = vs // cols
    fits = (vr >= band * high - reach) & (vr < (band + 1) * high + reach)
    band = np.where(fits, band, bands)
    order = np.argsort(band, kind="stable")
    starts = np.searchsorted(band[order], np.arange(bands + 2))

    def run(k):
        sel = order[starts[k]:starts[k + 1]]
        if sel.size == 0:
            return 0
        if k == bands:
            return call(sel, 0, cells, int(starts[k]))
        lo = max(0, k * high - reach) * cols
        hi = min(rows, (k + 1) * high + reach) * cols
        return call(sel, lo, hi, int(starts[k]))

    threads = max(1, min(BAND_THREADS, os.cpu_count() or 1))
    with ThreadPoolExecutor(max_workers=threads) as pool:  # every even band done before the odd ones start
        got = sum(sum(pool.map(run, range(parity, bands, 2))) for parity in (0, 1))
    return got + run(bands)


def _search_toward(cand, links, alive, rows: int, cols: int, side: int, stamp, mark: int, stats: dict,
                   deadline: Deadline, toward_yield: float = 0.0) -> np.ndarray:
    """Rounds of :func:`augment_toward_many` from the squares of colour ``side`` still short among ``cand``,
    each towards its partner, until none is left or a round links none; returns the squares still short.

    The partners are mutually nearest squares (:func:`_pair_nearest`) when at most :data:`NEAREST_MAX` of
    each colour are short, else neighbours along the Hilbert curve: the squares left here are where the
    walks stalled, and the curve pairs many of them across the board when a nearer partner is free (on
    10000 x 10000 with 5 % holes, seed 1, the 2,392 searches took 17.4 s in one round against 30.9 s in
    two with the curve).
    """
    from ._pair_kernels import short_among
    from ._restore_kernels import augment_toward_many

    stats["toward"] = stats["toward_rounds"] = 0
    room = min(rows * cols, TOWARD_QUEUE)
    queues = None
    for _ in range(TOWARD_ROUNDS):
        deadline.check(PHASE)
        cand, miss = short_among(cand, links, alive)
        many = np.repeat(cand, miss)
        colour = ((many // cols + many % cols) & 1).astype(np.int8)
        if not (colour == side).any():
            break
        if queues is None:
            queues = [np.empty(room, dtype=np.int32) for _ in range(3)]
            queues += [np.empty(room, dtype=np.int64), np.empty(room, dtype=np.int32)]
        # few left: mutually nearest pairs, as the curve pairs squares far apart that have nearer partners
        us, vs = _pair_nearest(many, colour, side, cols)
        if us is None:
            us, vs = _pair_on_curve(many, colour, side, rows, cols)
        def some(a, b):
            return augment_toward_many(us[a:b], vs[a:b], links, alive, rows, cols, stamp, mark + a, TOWARD_SLACK,
                                       *queues)

        got = in_chunks(us.size, some, deadline, PHASE, first=1)
        mark += us.size + 1
        stats["toward"] += got
        stats["toward_rounds"] += 1
        if got == 0 or got < toward_yield * us.size:
            break
    return cand


def _pair_on_curve(many, colour, side: int, rows: int, cols: int):
    """Pairs ``(us, vs)`` of squares of colour ``side`` and of the other colour, bracketed along the Hilbert
    curve (:func:`~ktsolve.factor._pair_kernels.pair_along_curve`); squares left without a partner are
    dropped."""
    from ._pair_kernels import pair_along_curve

    order = np.argsort(_hilbert(many // cols, many % cols, max(rows, cols)), kind="stable")
    partner = pair_along_curve(many, colour, order)
    us, vs = many[colour == side], partner[colour == side]
    keep = vs >= 0
    return us[keep], vs[keep]


def _pair_nearest(many, colour, side: int, cols: int, most: int = NEAREST_MAX):
    """Pairs ``(us, vs)`` of squares of colour ``side`` and of the other colour, mutually nearest (in
    moves' rows plus columns) in rounds, or ``(None, None)`` when either colour has more than ``most``.

    Each round pairs every two squares that are each other's nearest (ties
    to the first square in the given order) and drops them.  Each square
    keeps its :data:`NEAREST_KEPT` nearest of the other colour, ranked; its
    nearest left is the first of them not dropped, and only a square that
    has lost them all measures the distances again.  On the squares where
    the walks stalled, which cluster, there are hundreds of rounds, and a
    cluster far from the other colour loses its nearest at every round
    (10000 x 10000 with 5 % holes, seed 1: 2,392 squares a colour, 895
    rounds).  The distances are taken :data:`NEAREST_BLOCK` at a time, so
    the memory stays small whatever ``most``.
    """
    a, b = many[colour == side], many[colour != side]
    if a.size == 0 or b.size == 0 or max(a.size, b.size) > most:
        return None, None
    ar, ac, br, bc = a // cols, a % cols, b // cols, b % cols
    left_a = np.ones(a.size, dtype=bool)
    left_b = np.ones(b.size, dtype=bool)
    ranked_a = np.empty((a.size, NEAREST_KEPT), dtype=np.int64)  # each square's nearest of the other colour
    ranked_b = np.empty((b.size, NEAREST_KEPT), dtype=np.int64)
    _rank(ar, ac, np.arange(a.size), br, bc, np.arange(b.size), ranked_a)
    _rank(br, bc, np.arange(b.size), ar, ac, np.arange(a.size), ranked_b)
    near_b, near_a = ranked_a[:, 0].copy(), ranked_b[:, 0].copy()
    us, vs = [], []
    while True:
        live = np.flatnonzero(left_a)
        mutual = live[near_a[near_b[live]] == live]
        us.append(a[mutual])
        vs.append(b[near_b[mutual]])
        left_a[mutual] = False
        left_b[near_b[mutual]] = False
        rest_a, rest_b = np.flatnonzero(left_a), np.flatnonzero(left_b)
        if rest_a.size == 0 or rest_b.size == 0:
            break
        _next_left(rest_a[~left_b[near_b[rest_a]]], ranked_a, near_b, left_b, rest_b, ar, ac, br, bc)
        _next_left(rest_b[~left_a[near_a[rest_b]]], ranked_b, near_a, left_a, rest_a, br, bc, ar, ac)
    return np.concatenate(us), np.concatenate(vs)


def _next_left(lost, ranked, near, left, rest, fr, fc, gr, gc) -> None:
    """``near[i]`` = the nearest square left of the other colour for each square ``i`` of ``lost``: the first
    of its ranked squares (``ranked[i]``) still ``left``, else ranked again among ``rest``."""
    if lost.size == 0:
        return
    kept = ranked[lost]
    ok = (kept >= 0) & left[np.maximum(kept, 0)]
    has = ok.any(axis=1)
    near[lost[has]] = kept[has, ok[has].argmax(axis=1)]
    redo = lost[~has]
    if redo.size:
        _rank(fr, fc, redo, gr, gc, rest, ranked)
        near[redo] = ranked[redo, 0]


def _rank(fr, fc, which, gr, gc, among, out) -> None:
    """``out[i]``: the squares of ``among`` (increasing) nearest to square ``i`` (rows ``fr``, columns ``fc``),
    nearest first and ties in ``among``'s order, at most ``out.shape[1]`` and -1 after, for each ``i`` of
    ``which``."""
    kept = min(out.shape[1], among.size)
    out[which] = -1
    step = max(1, NEAREST_BLOCK // among.size)
    sr, sc = gr[among], gc[among]
    order = np.arange(among.size)
    for i in range(0, which.size, step):
        w = which[i:i + step]
        key = (np.abs(fr[w, None] - sr[None, :]) + np.abs(fc[w, None] - sc[None, :])) * among.size + order
        if kept < among.size:
            key = np.partition(key, kept - 1, axis=1)[:, :kept]
        key.sort(axis=1)
        out[w, :kept] = among[key % among.size]


def _warm_calls() -> None:
    """Call every kernel of the restoration once, from Python, with the argument types it gets."""
    from ..board import Board
    from . import _pair_kernels as pk
    from . import _restore_kernels as k

    rows = cols = 12
    cells = rows * cols
    board = Board(rows, cols, holes=[(0, 0), (5, 6), (7, 3), (11, 11)])
    links = np.full((cells, 2), -1, dtype=np.int8)
    alive = np.ascontiguousarray(board.mask).reshape(-1).view(np.uint8)
    f = 1
    stamp = np.zeros(cells, dtype=np.int32)
    some = np.array([f], dtype=np.int64)
    k.walk_many(some, some, links, alive, rows, cols, stamp, 1, np.empty(1, dtype=np.int64), 0, cells)
    pk.short_among(some, links, alive)
    q = np.empty(4, dtype=np.int64)
    k.augment_many(some, links, alive, rows, cols, stamp, 1, q, q.copy(), q.copy(), 0, cells)
    k.augment_from(f, links, alive, rows, cols, stamp, 2, q, q.copy(), q.copy(), f + 1)
    loading("2-factor restoration")
    links[f, 0], links[f + cols + 2, 0] = 2, 6  # a link (move 2 and back) for splice's reroute to cut
    k.reroute(f, 0, links, alive, rows, cols, stamp, 3, q, q.copy(), q.copy(), 4, 0, q.copy())
    loading("2-factor restoration")
    k.short_range(links, alive, 0, cells)
    cand, miss = k.short_cells(links, alive, cols)
    pk.pair_along_curve(cand, (cand & 1).astype(np.int8), np.arange(cand.size))
    tree, parent = np.full(cells, -1, dtype=np.int32), np.empty(cells, dtype=np.int32)
    queue = np.empty(cells, dtype=np.int32)
    done, state = np.zeros(1, dtype=np.uint8), np.zeros(3, dtype=np.int64)
    k.forest_start(cand[:1], tree, parent, queue, done, state)
    k.forest_steps(links, alive, rows, cols, tree, parent, queue, done, state, 1 << 16)
    k.split_end(f, links, alive, rows, cols)
    hk, hp = np.empty(4, dtype=np.int64), np.empty(4, dtype=np.int32)
    qi = [np.empty(4, dtype=np.int32) for _ in range(3)]
    k.augment_toward_many(some, some, links, alive, rows, cols, stamp, 1, 1, *qi, hk, hp)


#: The kernels :func:`restore_factor` and splice's reroute call from Python, and those that choose the pairs.
KERNELS = ("walk_many", "augment_many", "augment_from", "short_cells", "short_range", "forest_start", "forest_steps",
           "split_end",
           "augment_toward_many", "reroute")
PAIR_KERNELS = ("short_among", "pair_along_curve")


def warm() -> float:
    """Compile (or load from numba's cache) the restoration's kernels; seconds spent compiling.

    Examples
    --------
    >>> warm() >= 0.0
    True
    """
    from .. import jit
    from . import _pair_kernels as pk
    from . import _restore_kernels as k

    kernels = [getattr(k, name) for name in KERNELS] + [getattr(pk, name) for name in PAIR_KERNELS]
    return jit.prepare("2-factor restoration", _warm_calls, kernels)
