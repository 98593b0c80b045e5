"""Divide and conquer: knight's tours of every full rectangle that has one, in linear time.

After Parberry (1997) and Lin & Wei (2005): cut the board into small blocks,
take a precomputed tour of every block, and join neighbouring blocks through
a pair of moves near their common corner.  If block A's tour moves
``a1 -> a2`` and block B's tour moves ``b2 -> b1``, and ``a1 -> b1`` and
``b2 -> a2`` are knight's moves, then replacing the two moves by these two
joins the two tours into one (a cycle with a cycle gives a cycle, a path with
a cycle gives a path).  Joining along a spanning tree of the blocks gives one
tour of the board.  The blocks are built by CP-SAT with the joining moves
fixed and stored as package data (:mod:`ktsolve.heuristics._divide_blocks`);
every block is checked again when it is taken from the file.

Layouts
-------
* Boards with both sides at least 5 ("grid"): sides are cut into parts of
  6, 8 or 10 squares, plus one part of 5, 7 or 9 when a side is odd.  Every
  block of a row of blocks is joined to its right neighbour, and the blocks
  of the last column to the block below.  Closed tours use closed blocks;
  on odd x odd boards (open tours only) the block that holds the start
  square carries an open path from it.
* Boards with 3 or 4 rows (or columns) are chains of blocks crossed by one or
  two lanes: 3 x n closed tours run right along one lane and back along the
  other; 4 x n open tours start and end in the first block (every move of a
  4-row board joins an outer row to an inner row, so a single lane is
  impossible); 3 x n open tours use one lane, and two lanes left of a start
  square in the middle.
* Tours from a chosen square: closed tours are rotated; open tours on boards
  that have closed tours are rotated closed tours; otherwise the block
  layout is chosen (with reflections of the board) so that a stored block
  starts on that square.  Where no stored block fits, the answer is an
  honest ``unknown``.

Where the existence theorems (Schwenk 1991 for closed tours; Cull & De
Curtins 1978 and Conrad et al. 1994 for open ones) say no tour exists, the
method answers ``infeasible`` with a proof that names the theorem and, where
one is short, the argument itself (colour parity, a square without moves,
column parity of two-row boards, outer and inner rows of four-row boards).
It needs no knight graph: the work is a few int32 arrays of one entry per
square.

Notes
-----
Time and memory are linear in the number of squares: the successor array
and the tour (int32 each), filled by two numba loops; planning touches only
the blocks' corners.  benchmarks/bench_divide.py measures boards up to
10,000 x 10,000 beside JGraphT's ``ParberryKnightTour``.

References
----------
I. Parberry, "An efficient algorithm for the knight's tour problem",
Discrete Applied Mathematics 73 (1997) 251-260.
S.-S. Lin and C.-L. Wei, "Optimal algorithms for constructing knight's tours
on arbitrary n x m chessboards", Discrete Applied Mathematics 146 (2005) 219-232.
A. J. Schwenk, "Which rectangular chessboards have a knight's tour?",
Mathematics Magazine 64 (1991) 325-332.
A. Conrad, T. Hindrichs, H. Morsy, I. Wegener, "Solution of the knight's
Hamiltonian path problem on chessboards", Discrete Applied Mathematics 50
(1994) 125-134.

Examples
--------
>>> from ktsolve import Board, KnightGraph, TourSpec
>>> res = solve_divide(KnightGraph(Board(30, 40)), TourSpec(closed=True))
>>> res.status.value, len(res.tour), res.stats["layout"].split()[0]
('found', 1200, 'grid')
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .. import jit
from ..board import Board
from ..driver import Deadline, Stopped, begin, drive, interrupt_guard
from ..errors import UnsupportedError
from ..proofs.theorems import full_board_proof, has_closed_tour
from ..result import SolveResult, Status
from ..tour import Tour, TourSpec
from ._divide_blocks import lane_arc, load_catalog

__all__ = ["solve_divide", "warm"]


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
class _Layout:
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


def _grid_layout(cat, hs: np.ndarray, ws: np.ndarray, odd=None, deadline=None) -> _Layout | None:
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
    return _Layout(rows, cols, r0, c0, np.ascontiguousarray(btype.ravel(), dtype=np.int32), keys, src, dst, start,
                   {"layout": f"grid of {n_i}x{n_j} blocks"})


def _chain_layout(cat, family: str, h: int, segments, left_lanes: int) -> _Layout | None:
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
    return _Layout(
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


def _single(cat, key: str, rows: int, cols: int, start_local=None) -> _Layout | None:
    if key not in cat:
        return None
    start = None if start_local is None else start_local[0] * cols + start_local[1]
    z = np.zeros(1, dtype=np.int32)
    e = np.zeros(0, dtype=np.int64)
    return _Layout(rows, cols, z, z.copy(), z.copy(), [key], e, e.copy(), start, {"layout": "one block"})


def _grid_cycle(cat, m: int, n: int, deadline=None) -> _Layout | None:
    """Closed blocks on an ``m x n`` board (both sides >= 5, not both odd)."""
    # an even side is cut into even parts, so every block has an even side
    col_opts = list(_any_splits(n))
    for hs, _ in _any_splits(m):
        for ws, _ in col_opts:
            lay = _grid_layout(cat, hs, ws, deadline=deadline)
            if lay is not None:
                return lay
    return None


def _grid_path(cat, m: int, n: int, s, deadline=None) -> _Layout | None:
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


def _t3_cycle(cat, n: int) -> _Layout | None:
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


def _t4_path(cat, n: int, s) -> _Layout | None:
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


def _t3_path(cat, n: int, s) -> _Layout | None:
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
class _Transform:
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
                yield _Transform(tr, fr, fc)


def _plan_open(cat, m: int, n: int, s, deadline=None):
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


def _plan_cycle(cat, m: int, n: int, deadline=None):
    if min(m, n) >= 5:
        return _grid_cycle(cat, m, n, deadline), _Transform()
    tf = _Transform(transpose=m > n)
    return _t3_cycle(cat, max(m, n)), tf


# ---------------------------------------------------------------------- assembly
def _type_tables(cat, keys):
    """Height, width, offset and successor coordinates of every block type, for the kernel."""
    from ._divide_blocks import block_spec

    th, tw, tptr, tsr, tsc = [], [], [], [], []
    off = 0
    for key in keys:
        spec = block_spec(key)
        succ = cat.get(key).astype(np.int16)
        end = succ == 255
        sr, sc = np.divmod(succ, spec.w)
        sr[end] = -1
        sc[end] = -1
        th.append(spec.h)
        tw.append(spec.w)
        tptr.append(off)
        tsr.append(sr)
        tsc.append(sc)
        off += succ.size
    return (
        np.array(th, dtype=np.int32),
        np.array(tw, dtype=np.int32),
        np.array(tptr, dtype=np.int32),
        np.concatenate(tsr).astype(np.int16),
        np.concatenate(tsc).astype(np.int16),
    )


def _successors(cat, lay: _Layout, deadline: Deadline | None = None) -> np.ndarray:
    """The successor array of the joined blocks, filled a range of blocks at a time against the clock."""
    from ._divide_kernels import fill_blocks

    nxt = np.empty(lay.rows * lay.cols, dtype=np.int32)
    th, tw, tptr, tsr, tsc = _type_tables(cat, lay.keys)
    blocks = int(lay.btype.size)
    cols = int(lay.cols)
    done = [0]

    def step(k):
        b0 = done[0]
        b1 = min(blocks, b0 + k)
        fill_blocks(nxt, cols, lay.r0, lay.c0, lay.btype, th, tw, tptr, tsr, tsc, b0, b1)
        done[0] = b1
        return b1 - b0, b1 == blocks

    if blocks:
        outcome = drive(step, units=None, deadline=deadline, first=256)
        if outcome.reason != "finished":
            raise Stopped("interrupted" if outcome.interrupted else "time limit", "joining the blocks")
    nxt[lay.src] = lay.dst
    return nxt


def _walk(nxt, start: int, total: int, lay: _Layout, tf: _Transform, out_cols: int, reverse: bool,
          deadline: Deadline | None = None):
    """The tour's squares in order, walked a stretch at a time against the clock."""
    from ._divide_kernels import walk_part

    out = np.empty(total, dtype=np.int32)
    at = {"q": int(start), "k": 0}

    def step(k):
        k0 = at["k"]
        q, reached = walk_part(nxt, at["q"], k0, min(total, k0 + k), total, out, int(lay.rows), int(lay.cols),
                               bool(tf.flip_r), bool(tf.flip_c), bool(tf.transpose), int(out_cols),
                               bool(reverse))
        at["q"], at["k"] = int(q), int(reached)
        return max(1, reached - k0), reached == total or reached < min(total, k0 + k)

    outcome = drive(step, units=None, deadline=deadline, first=1 << 16)
    if outcome.reason != "finished":
        raise Stopped("interrupted" if outcome.interrupted else "time limit", "walking the tour")
    if at["k"] != total:
        raise RuntimeError(f"divide: the joined blocks form a path of {at['k']} of {total} squares")
    return out


def _a(what: str) -> str:
    return ("an " if what[0] in "aeiou" else "a ") + what


def _unknown(reason: str, stats=None) -> SolveResult:
    return SolveResult(Status.UNKNOWN, stats={"reason": reason, **(stats or {})})


def _warm_calls() -> None:
    from types import SimpleNamespace

    for spec in (TourSpec(closed=True), TourSpec(start=(1, 0))):
        solve_divide(SimpleNamespace(board=Board(6, 8)), spec)  # divide reads only the board


def warm() -> float:
    """Compile (or load from numba's cache) the kernels that fill and walk the tour; seconds spent compiling.

    Examples
    --------
    >>> warm() >= 0.0
    True
    """
    from ._divide_kernels import fill_blocks, walk_part

    return jit.prepare("divide", _warm_calls, (fill_blocks, walk_part))


def solve_divide(graph, spec: TourSpec, *, time_limit=None, progress=None, seed=None) -> SolveResult:
    """Open or closed tour of a full board by divide and conquer, or a proof that none exists.

    Parameters
    ----------
    graph : KnightGraph
        Only ``graph.board`` is used; no graph arrays are built.
    spec : TourSpec
        Closed tours may fix the start (the tour is rotated), or the start and
        an end that is a knight's move from it.  Open tours may fix the start
        or the end; both only when the construction happens to join them.
    seed : int, optional
        Checked like every seed (a whole number from 0 to 2**32 - 1) and then
        ignored: this method draws no random number, so every seed gives the
        same answer and ``result.seed`` is None.
    time_limit : float, optional
        Seconds for the whole call: the blocks are laid and the tour walked
        a part at a time, with a look at the clock between parts; past it
        the answer is ``unknown``.  The default budget is the construction
        itself (linear time).
    progress : callable, optional
        ``progress(done, 3)`` after planning, filling and walking.

    Returns
    -------
    SolveResult
        ``found``, ``infeasible`` (with the theorem's proof) or ``unknown``
        (a start or end the stored blocks cannot reach, the time limit, or
        Ctrl-C with ``stats["interrupted"]``).

    Raises
    ------
    UnsupportedError
        For a board with holes.

    Examples
    --------
    >>> from ktsolve import Board, KnightGraph
    >>> res = solve_divide(KnightGraph(Board(12, 14)), TourSpec(closed=True, start=(3, 4)))
    >>> res.status.value, len(res.tour), res.tour.start
    ('found', 168, (3, 4))
    >>> print(solve_divide(KnightGraph(Board(4, 9)), TourSpec(closed=True)).proof.argument)
    outer and inner rows
    """
    deadline, _ = begin(time_limit, seed, seeded=False)
    board = graph.board
    if not board.is_full:
        raise UnsupportedError("method 'divide' works on boards without holes only")
    with interrupt_guard():
        try:
            return _solve(board, spec, deadline, progress)
        except Stopped as stop:
            return _unknown(stop.describe(), {"interrupted": stop.interrupted})


def _solve(board: Board, spec: TourSpec, deadline: Deadline, progress) -> SolveResult:
    proof = full_board_proof(board, spec)
    if proof is not None:
        return SolveResult(Status.INFEASIBLE, proof=proof, stats={"construction": "theorem"})
    m, n = board.rows, board.cols
    total = m * n
    if total == 1:
        return SolveResult(Status.FOUND, tour=Tour(board, [0], closed=False), stats={"layout": "one square"})
    cat = load_catalog()
    s, t = spec.start, spec.end
    cyclic = spec.closed or has_closed_tour(m, n)
    reverse = False
    deadline.check("planning the blocks")
    if cyclic:
        lay, tf = _plan_cycle(cat, m, n, deadline)
    else:
        # an open tour ending on t is an open tour from t, reversed
        lay, tf = _plan_open(cat, m, n, s if s is not None else t, deadline)
        reverse = s is None and t is not None
    if lay is None:
        return _unknown(f"divide has no stored block for {_a(spec.describe(board))} on a {m}x{n} board")
    if progress is not None:
        progress(1, 3)
    deadline.check("planning the blocks")
    deadline.extend(warm())  # a first-run compile is not the construction's time
    nxt = _successors(cat, lay, deadline)
    if progress is not None:
        progress(2, 3)
    cols = lay.cols

    def built(sq) -> int:
        r, c = tf.square(sq, m, n)
        return r * cols + c

    if cyclic:
        if s is not None and t is not None:
            bs, bt = built(s), built(t)
            if nxt[bt] == bs:
                start = bs
            elif nxt[bs] == bt:
                start, reverse = bt, True
            else:
                return _unknown(f"the divide tour does not join the fixed ends of {_a(spec.describe(board))}")
        elif s is not None:
            start = built(s)
        elif t is not None:
            start = int(nxt[built(t)])
        else:
            start = 0
    else:
        start = lay.start
    squares = _walk(nxt, start, total, lay, tf, n, reverse, deadline)
    del nxt
    if not cyclic and s is not None and t is not None and (squares[-1] // n, squares[-1] % n) != tuple(t):
        what = _a(spec.describe(board))
        return _unknown(f"the divide tour from the start does not end on the fixed end of {what}")
    if progress is not None:
        progress(3, 3)
    stats = dict(lay.stats)
    stats.update(blocks=int(lay.btype.size), block_types=len(lay.keys), board_transform=tf.describe(),
                 construction="closed tour" + (", rotated" if not spec.closed else "") if cyclic else "open path")
    return SolveResult(Status.FOUND, tour=Tour(board, squares, closed=spec.closed), stats=stats)
