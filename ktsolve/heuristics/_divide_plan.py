"""Divide and conquer's plans: how a full rectangle is cut into blocks and how they are joined.

The layouts of :mod:`ktsolve.heuristics.divide` (see its docstring): the cuts
of each side into parts, the grid and chain layouts of blocks from the
catalogue of :mod:`ktsolve.heuristics._divide_blocks`, and the board's
symmetries that bring a fixed start to a corner the layouts know.  Plain
Python over small arrays: a plan has one entry per block, not per square.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ._divide_blocks import lane_arc

# ---------------------------------------------------------------------- splitting sides
def _even_parts(length: int) -> np.ndarray | None:
    """Parts of 6, 8 or 10 summing to ``length`` (mostly 8), or None."""
    if length == 0:
        return np.zeros(0, dtype=np.int64)
    if length < 6 or length % 2:
        return None
    q, r = divmod(length, 8)
    tail = {0: (), 2: (10,), 4: (6, 6), 6: (6,)}[r]
    q -= {0: 0, 2: 1, 4: 1, 6: 0}[r]
    return np.concatenate([np.full(q, 8, dtype=np.int64), np.array(tail, dtype=np.int64)])


def _range_parts(length: int, lo: int, hi: int) -> np.ndarray | None:
    """Parts in ``[lo, hi]`` summing to ``length`` (as equal as can be), or None."""
    if length == 0:
        return np.zeros(0, dtype=np.int64)
    k = -(-length // hi)
    if k * lo > length:
        return None
    base, extra = divmod(length, k)
    parts = np.full(k, base, dtype=np.int64)
    parts[:extra] += 1
    return parts


def _odd_splits(length: int, x: int | None = None):
    """Splits of an odd ``length`` into even parts and one part of 5, 7, 9 or 11.

    Yields ``(parts, index of the odd part)``; with ``x``, the odd part covers
    coordinate ``x``.
    """
    for odd in (9, 7, 5, 11):
        if odd > length:
            continue
        starts = (0, length - odd) if x is None else range(max(0, x - odd + 1), x + 1)
        for p in dict.fromkeys(starts):
            before, after = _even_parts(p), _even_parts(length - p - odd)
            if before is None or after is None:
                continue
            yield np.concatenate([before, [odd], after]).astype(np.int64), len(before)


def _any_splits(length: int):
    if length % 2 == 0:
        parts = _even_parts(length)
        if parts is not None:
            yield parts, None
    else:
        yield from _odd_splits(length)


# ---------------------------------------------------------------------- layouts
@dataclass
class Layout:
    """Blocks on the built board (``rows x cols``) and the moves that join them."""

    rows: int
    cols: int
    r0: np.ndarray
    c0: np.ndarray
    btype: np.ndarray
    keys: list
    src: np.ndarray
    dst: np.ndarray
    start: int | None = None  # square of the built board where an open path starts
    stats: dict = field(default_factory=dict)


def _intern(keys: list, pos: dict, key: str) -> int:
    """Type number of ``key`` in a layout, adding it to ``keys`` the first time."""
    if key not in pos:
        pos[key] = len(keys)
        keys.append(key)
    return pos[key]


def _ticker(deadline):
    """A function that checks ``deadline`` (a no-op without one)."""
    if deadline is None:
        return lambda: None
    return lambda: deadline.check("planning the blocks")


def _grid_flags(first_row: bool, last_row: bool, first_col: bool, last_col: bool) -> frozenset:
    f = set()
    if not first_col:
        f.add("L")
    if not last_col:
        f.add("R")
    else:
        if not first_row:
            f.add("T")
        if not last_row:
            f.add("B")
    return frozenset(f)


def _grid_layout(cat, hs: np.ndarray, ws: np.ndarray, odd=None, deadline=None) -> Layout | None:
    """Grid of closed blocks (and one open block ``odd = (i, j, (r, c))``), or None if a block is missing.

    A board of millions of blocks takes a while: ``deadline`` is checked between the arrays.
    """
    tick = _ticker(deadline)
    n_i, n_j = len(hs), len(ws)
    rows, cols = int(hs.sum()), int(ws.sum())
    rkeys = [(int(h), i == 0, i == n_i - 1) for i, h in enumerate(hs)]
    ckeys = [(int(w), j == 0, j == n_j - 1) for j, w in enumerate(ws)]
    rdist = list(dict.fromkeys(rkeys))
    cdist = list(dict.fromkeys(ckeys))
    rpos = {k: i for i, k in enumerate(rdist)}
    cpos = {k: i for i, k in enumerate(cdist)}
    keys: list[str] = []
    kpos: dict[str, int] = {}
    lut = np.empty((len(rdist), len(cdist)), dtype=np.int32)
    for a, (h, fr, lr) in enumerate(rdist):
        for b, (w, fc, lc) in enumerate(cdist):
            if (h * w) % 2:  # the odd x odd block holds the open path (below)
                lut[a, b] = -1
                continue
            key = cat.grid_key(f"gc/{h}x{w}", _grid_flags(fr, lr, fc, lc))
            if key is None:
                return None
            lut[a, b] = _intern(keys, kpos, key)
    rcode = np.array([rpos[k] for k in rkeys], dtype=np.intp)
    ccode = np.array([cpos[k] for k in ckeys], dtype=np.intp)
    btype = lut[rcode[:, None], ccode[None, :]]
    tick()
    rstart = np.concatenate([[0], np.cumsum(hs)[:-1]]).astype(np.int64)
    cstart = np.concatenate([[0], np.cumsum(ws)[:-1]]).astype(np.int64)
    start = None
    if odd is not None:
        i, j, (r, c) = odd
        h, w = int(hs[i]), int(ws[j])
        key = cat.grid_key(f"gp/{h}x{w}/{r},{c}", _grid_flags(i == 0, i == n_i - 1, j == 0, j == n_j - 1))
        if key is None:
            return None
        btype[i, j] = _intern(keys, kpos, key)
        start = int((rstart[i] + r) * cols + cstart[j] + c)
    # joins: each block to its right neighbour, the last column downwards
    y = rstart[:, None]
    x = cstart[None, 1:]
    src = [((y * cols) + x - 1).ravel(), ((y + 3) * cols + x).ravel()]
    tick()
    dst = [((y + 1) * cols + x + 1).ravel(), ((y + 2) * cols + x - 2).ravel()]
    tick()
    yb = rstart[1:]
    src += [(yb - 1) * cols + cols - 1, yb * cols + cols - 4]
    dst += [(yb + 1) * cols + cols - 2, (yb - 2) * cols + cols - 3]
    r0 = np.repeat(rstart.astype(np.int32), n_j)
    c0 = np.tile(cstart.astype(np.int32), n_i)
    tick()
    src, dst = np.concatenate(src), np.concatenate(dst)
    tick()
    return Layout(rows, cols, r0, c0, np.ascontiguousarray(btype.ravel(), dtype=np.int32), keys, src, dst, start,
                   {"layout": f"grid of {n_i}x{n_j} blocks"})


def _chain_layout(cat, family: str, h: int, segments, left_lanes: int) -> Layout | None:
    """A chain of ``h``-row blocks.

    ``segments`` is a list of ``(kind, widths, square)``: block kind, widths
    (int array) and, for kinds that hold the start, its local square.  Every
    boundary carries the right-running lane; the first ``left_lanes``
    boundaries also carry the left-running lane.
    """
    keys: list[str] = []
    kpos: dict[str, int] = {}
    parts_w, parts_t = [], []
    start_block = None
    start_local = None
    count = 0
    for kind, widths, square in segments:
        widths = np.asarray(widths, dtype=np.int64)
        if widths.size == 0:
            continue
        codes = np.empty(widths.size, dtype=np.int32)
        for w in np.unique(widths):
            key = f"{family}/{int(w)}/{kind}" + ("" if square is None else f"/{square[0]},{square[1]}")
            if key not in cat:
                return None
            codes[widths == w] = _intern(keys, kpos, key)
        if square is not None:
            start_block, start_local = count, square
        parts_w.append(widths)
        parts_t.append(codes)
        count += widths.size
    widths = np.concatenate(parts_w)
    btype = np.concatenate(parts_t)
    cols = int(widths.sum())
    cstart = np.concatenate([[0], np.cumsum(widths)[:-1]]).astype(np.int64)
    xs = cstart[1:]
    src, dst = [], []
    for lane, xb in (("R", xs), ("L", xs[:left_lanes])):
        (ra, da), (rb, db) = lane_arc(family, lane)
        src.append(ra * cols + xb + da)
        dst.append(rb * cols + xb + db)
    start = None
    if start_block is not None:
        start = int(start_local[0] * cols + cstart[start_block] + start_local[1])
    return Layout(
        h,
        cols,
        np.zeros(widths.size, dtype=np.int32),
        cstart.astype(np.int32),
        btype,
        keys,
        np.concatenate(src).astype(np.int64),
        np.concatenate(dst).astype(np.int64),
        start,
        {"layout": f"chain of {widths.size} blocks of {h} rows"},
    )


def _single(cat, key: str, rows: int, cols: int, start_local=None) -> Layout | None:
    if key not in cat:
        return None
    start = None if start_local is None else start_local[0] * cols + start_local[1]
    z = np.zeros(1, dtype=np.int32)
    e = np.zeros(0, dtype=np.int64)
    return Layout(rows, cols, z, z.copy(), z.copy(), [key], e, e.copy(), start, {"layout": "one block"})


def _grid_cycle(cat, m: int, n: int, deadline=None) -> Layout | None:
    """Closed blocks on an ``m x n`` board (both sides >= 5, not both odd)."""
    # an even side is cut into even parts, so every block has an even side
    col_opts = list(_any_splits(n))
    for hs, _ in _any_splits(m):
        for ws, _ in col_opts:
            lay = _grid_layout(cat, hs, ws, deadline=deadline)
            if lay is not None:
                return lay
    return None


def _grid_path(cat, m: int, n: int, s, deadline=None) -> Layout | None:
    """Closed blocks and one open block holding ``s`` (or any start when ``s`` is None); both sides odd."""
    row_opts = list(_odd_splits(m, None if s is None else s[0]))
    col_opts = list(_odd_splits(n, None if s is None else s[1]))
    for hs, i in row_opts:
        for ws, j in col_opts:
            r0 = int(hs[:i].sum())
            c0 = int(ws[:j].sum())
            h, w = int(hs[i]), int(ws[j])
            if s is not None:
                locs = [(s[0] - r0, s[1] - c0)]
            else:
                locs = [(r, c) for r in range(h) for c in range(w) if (r + c) % 2 == 0]
            for loc in locs:
                lay = _grid_layout(cat, hs, ws, odd=(i, j, loc), deadline=deadline)
                if lay is not None:
                    return lay
    return None


def _t3_cycle(cat, n: int) -> Layout | None:
    lay = _single(cat, f"t3c/{n}/cyc", 3, n)
    if lay is not None:
        return lay
    for wl in (7, 9, 11):
        for wr in (7, 9, 11):
            mids = _even_parts(n - wl - wr)
            if mids is None:
                continue
            lay = _chain_layout(cat, "t3c", 3, [("ul", [wl], None), ("mid", mids, None), ("ur", [wr], None)], n)
            if lay is not None:
                return lay
    return None


def _squares_of(cat, prefix: str):
    """Local squares ``(r, c)`` of stored keys ``prefix/r,c``."""
    out = []
    for key in cat.keys:
        if key.startswith(prefix + "/"):
            r, c = key[len(prefix) + 1 :].split(",")
            out.append((int(r), int(c)))
    return out


def _t4_path(cat, n: int, s) -> Layout | None:
    """Open tour of the 4 x n board from ``s`` (or any start): one block, or first block + two lanes + turn."""
    starts = [s] if s is not None else None
    for sq in starts or _squares_of(cat, f"t4/{n}/s"):
        lay = _single(cat, f"t4/{n}/s/{sq[0]},{sq[1]}", 4, n, sq)
        if lay is not None:
            return lay
    for w1 in range(5, 21):
        if s is not None and s[1] >= w1:
            continue
        for wk in range(5, 11):
            mids = _even_parts(n - w1 - wk)
            if mids is None:
                continue
            for sq in starts or _squares_of(cat, f"t4/{w1}/f"):
                lay = _chain_layout(
                    cat, "t4", 4, [("f", [w1], sq), ("mid", mids, None), ("ur", [wk], None)], n
                )
                if lay is not None:
                    return lay
    return None


def _t3_path(cat, n: int, s) -> Layout | None:
    """Open tour of the 3 x n board from ``s`` (or any start)."""
    starts = [s] if s is not None else None
    for sq in starts or _squares_of(cat, f"t3/{n}/s"):
        lay = _single(cat, f"t3/{n}/s/{sq[0]},{sq[1]}", 3, n, sq)
        if lay is not None:
            return lay
    # the start in the first block, then one lane to the right
    for w1 in range(7, 12):
        if s is not None and s[1] >= w1:
            continue
        for wk in range(7, 12):
            mids = _range_parts(n - w1 - wk, 7, 11)
            if mids is None:
                continue
            for sq in starts or _squares_of(cat, f"t3/{w1}/first"):
                lay = _chain_layout(
                    cat, "t3", 3, [("first", [w1], sq), ("mid1", mids, None), ("last", [wk], None)], 0
                )
                if lay is not None:
                    return lay
    if s is None:
        return None
    # the start in the middle: two lanes to its left (out and back), one to its right
    for wu in (7, 9, 11):
        for ws in range(7, 12):
            for x in range(max(wu, s[1] - ws + 1), s[1] + 1):
                left = _even_parts(x - wu)
                if left is None:
                    continue
                for wk in range(7, 12):
                    right = _range_parts(n - x - ws - wk, 7, 11)
                    if right is None:
                        continue
                    segs = [
                        ("ul", [wu], None),
                        ("mid", left, None),
                        ("sl", [ws], (s[0], s[1] - x)),
                        ("mid1", right, None),
                        ("last", [wk], None),
                    ]
                    lay = _chain_layout(cat, "t3", 3, segs, 1 + len(left))
                    if lay is not None:
                        return lay
    return None


# ---------------------------------------------------------------------- symmetries
@dataclass(frozen=True)
class Transform:
    """Built board = original board transposed (optionally), then rows/columns flipped."""

    transpose: bool = False
    flip_r: bool = False
    flip_c: bool = False

    def shape(self, m: int, n: int) -> tuple[int, int]:
        return (n, m) if self.transpose else (m, n)

    def square(self, sq, m: int, n: int):
        if sq is None:
            return None
        r, c = (sq[1], sq[0]) if self.transpose else sq
        rows, cols = self.shape(m, n)
        if self.flip_r:
            r = rows - 1 - r
        if self.flip_c:
            c = cols - 1 - c
        return (r, c)

    def describe(self) -> str:
        parts = [p for p, on in (("transposed", self.transpose), ("rows flipped", self.flip_r),
                                 ("columns flipped", self.flip_c)) if on]
        return ", ".join(parts) or "as given"


def _transforms(transpose: bool | None):
    """Transforms to try: ``transpose`` True/False fixes it, None tries both."""
    ts = (False, True) if transpose is None else (transpose,)
    for tr in ts:
        for fr in (False, True):
            for fc in (False, True):
                yield Transform(tr, fr, fc)


def plan_open(cat, m: int, n: int, s, deadline=None):
    """Layout of an open tour from ``s`` (None: anywhere) on a board without closed tours."""
    a = min(m, n)
    if a >= 5:
        for tf in _transforms(None):
            rows, cols = tf.shape(m, n)
            lay = _grid_path(cat, rows, cols, tf.square(s, m, n), deadline)
            if lay is not None:
                return lay, tf
            if s is None:
                break
        return None, None
    tr = m > n  # build with the short side as rows
    for tf in _transforms(tr):
        rows, cols = tf.shape(m, n)
        sq = tf.square(s, m, n)
        lay = _t4_path(cat, cols, sq) if a == 4 else _t3_path(cat, cols, sq)
        if lay is not None:
            return lay, tf
        if s is None:
            break
    return None, None


def plan_cycle(cat, m: int, n: int, deadline=None):
    if min(m, n) >= 5:
        return _grid_cycle(cat, m, n, deadline), Transform()
    tf = Transform(transpose=m > n)
    return _t3_cycle(cat, max(m, n)), tf
