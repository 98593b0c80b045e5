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

import numpy as np

from .. import jit
from ..board import Board
from ..driver import Deadline, Stopped, begin, drive, interrupt_guard, phase
from ..errors import UnsupportedError
from ..proofs.theorems import full_board_proof, has_closed_tour
from ..result import SolveResult, Status
from ..tour import Tour, TourSpec
from ._divide_blocks import load_catalog
from ._divide_plan import Layout, plan_cycle, plan_open, Transform
from ._params import Params
from ..seeds import seed_doc

__all__ = ["solve_divide", "warm"]


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


def successors(cat, lay: Layout, deadline: Deadline | None = None) -> np.ndarray:
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


def _walk(nxt, start: int, total: int, lay: Layout, tf: Transform, out_cols: int, reverse: bool,
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


#: divide takes no parameter: its table is empty (``ktsolve methods divide`` says so).
PARAMS = Params("divide", ())


@seed_doc
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
    %(unseeded seed)s
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
    phase(progress, "divide: planning the blocks")
    deadline.check("planning the blocks")
    if cyclic:
        lay, tf = plan_cycle(cat, m, n, deadline)
    else:
        # an open tour ending on t is an open tour from t, reversed
        lay, tf = plan_open(cat, m, n, s if s is not None else t, deadline)
        reverse = s is None and t is not None
    if lay is None:
        return _unknown(f"divide has no stored block for {_a(spec.describe(board))} on a {m}x{n} board")
    if progress is not None:
        progress(1, 3)
    phase(progress, "divide: filling the blocks")
    deadline.check("planning the blocks")
    deadline.extend(warm())  # a first-run compile is not the construction's time
    nxt = successors(cat, lay, deadline)
    if progress is not None:
        progress(2, 3)
    phase(progress, "divide: walking the tour")
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
