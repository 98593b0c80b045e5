"""The local obstructions, proved on a board of any size without building the knight graph.

:func:`local_proof` runs the arguments of :func:`~ktsolve.proofs.quick_proof`
that look at squares and their moves (size, the closing move of fixed ends,
colour parity, squares of degree 0 or 1, connectivity, cut squares) on the
board's cells directly: a square's moves come from its row and column
(:mod:`._local_kernels`), so the work is a few passes over the cells and a
few bytes a cell, linear in the size of the board, and the proofs reach
boards of 10^8 squares where the graph's CSR arrays would not fit the
budget.  The words and the evidence are those of the quick proofs; a cut
square's proof also names every square of the parts other than the largest
when they are few (``evidence["part"]``), so that
:func:`~ktsolve.proofs.local_check.check_local_proof` can re-check it by
counting moves around those squares alone.

Not covered here: an open tour's leaf blocks (groups that hang on the board
by a single square, more of them than the tour has free ends), which
:func:`~ktsolve.proofs.quick.cut_proof` finds on the graph.

Examples
--------
>>> from ktsolve import Board, TourSpec
>>> local_proof(Board(3, 3), TourSpec()).argument
'degree'
>>> local_proof(Board(5, 5), TourSpec(closed=True)).argument
'colour parity'
>>> local_proof(Board(8, 8), TourSpec(closed=True)) is None
True
"""

from __future__ import annotations

import numpy as np

from ..board import Board
from ..driver import Deadline
from ..graph import KNIGHT_MOVES
from ..result import Proof
from ..tour import TourSpec
from .forcing import forcing_proof
from .parity import colour_proof, size_proof
from .quick import degree_proof, ends_proof

__all__ = ["local_proof", "local_cut_proof", "warm", "PART_SHOWN"]

#: A cut square's proof lists the squares of the parts other than the largest up to this many.
PART_SHOWN = 1000
#: What the deadline's reason names while the connectivity and cut-square search runs.
CUT_PHASE = "running the local cut proofs"


class _Squares:
    """What the quick proofs' texts read of a graph, from the board alone: size, degrees, names, moves."""

    def __init__(self, board: Board, degree: np.ndarray):
        self.board = board
        self.n = board.n_squares
        self.degree = degree

    def name(self, i: int) -> str:
        r, c = self.board.coords_of(np.array([int(i)]))[0]
        return self.board.name(int(r), int(c))

    def neighbours(self, i: int) -> list[int]:
        r, c = (int(x) for x in self.board.coords_of(np.array([int(i)]))[0])
        idx = self.board.indices_of([(r + dr, c + dc) for dr, dc in KNIGHT_MOVES.tolist()])
        return [int(x) for x in idx if x >= 0]


def _alive(board: Board) -> np.ndarray:
    alive = np.ones(board.size, dtype=np.uint8)
    alive[board.hole_flat] = 0
    return alive


def local_proof(board: Board, spec: TourSpec, *, cuts: bool = True, time_limit=None) -> Proof | None:
    """The first local obstruction found, as a proof; None when there is none.

    Size, the closing move of fixed ends, colour parity, degree,
    connectivity and cut squares, in that order (that of
    :func:`~ktsolve.proofs.quick_proof`), then the degree-2 forcing of a
    closed tour (:func:`~.forcing.forcing_proof`), in time and memory
    linear in the cells: about 15 bytes a cell at the cut-square search.
    ``board`` may be a :class:`~ktsolve.graph.KnightGraph` (only its board
    is read).
    ``time_limit`` (seconds, or a :class:`~ktsolve.driver.Deadline`) is
    checked between the checks (:class:`~ktsolve.driver.Stopped` when it
    expired, or Ctrl-C was pressed).
    ``cuts=False`` leaves out the depth-first search of connectivity and
    cut squares (:func:`local_cut_proof`), the one check that is not a
    single pass over the cells (measured on 10^8 cells: 19 to 27 s against
    0.56 s, ``benchmarks/results/huge_10k.md``).
    """
    from ..factor.chunks import in_chunks
    from . import _local_kernels as K

    board = getattr(board, "board", board)
    clock = Deadline.of(time_limit)
    clock.extend(warm())

    def check():
        clock.check("running the local proofs")

    if board.n_squares < 2:
        return size_proof(board, spec)
    squares = _Squares(board, None)
    for simple in (size_proof, ends_proof, colour_proof):
        proof = simple(squares if simple is ends_proof else board, spec)
        if proof is not None:
            return proof
    check()
    alive = _alive(board)
    deg = np.empty(board.size, dtype=np.int8)
    in_chunks(board.rows, lambda a, b: K.degree_rows(alive, board.rows, board.cols, deg, a, b), clock,
              "running the local proofs", first=64)
    squares.degree = deg[alive.view(bool)]
    proof = degree_proof(squares, spec)
    if proof is not None:
        return proof
    if not cuts:
        return forcing_proof(board, spec, alive=alive, deg=deg, time_limit=clock)
    deg = None  # a byte a cell back before the cut search (the lambda above names it)
    del squares
    check()
    return _cut_proof(board, spec, alive, clock) or forcing_proof(board, spec, alive=alive, time_limit=clock)


def local_cut_proof(board: Board, spec: TourSpec, *, time_limit=None) -> Proof | None:
    """Connectivity and cut squares alone (the depth-first search of :func:`local_proof`).

    ``board`` may be a :class:`~ktsolve.graph.KnightGraph` (only its board is read); ``time_limit``
    (seconds, or a :class:`~ktsolve.driver.Deadline`) is checked before the search and between its parts
    (about a tenth of a second each, :mod:`ktsolve.factor.chunks`), so it stops within one part of the
    limit or of Ctrl-C (:class:`~ktsolve.driver.Stopped`).
    """
    board = getattr(board, "board", board)
    clock = Deadline.of(time_limit)
    clock.extend(warm())
    clock.check(CUT_PHASE)
    if board.n_squares < 2:
        return None
    return _cut_proof(board, spec, _alive(board), clock)


def _cut_proof(board: Board, spec: TourSpec, alive: np.ndarray, clock: Deadline) -> Proof | None:
    """Connectivity, then a cut square that no tour of the question can pass."""
    from ..factor.chunks import in_budgets
    from . import _local_kernels as K

    size = board.size
    root = int(np.argmax(alive))
    disc = np.empty(size, dtype=np.int32)
    low = np.empty(size, dtype=np.int32)
    stack = np.empty(size, dtype=np.int32)
    moves = np.empty(size, dtype=np.int8)
    parts = np.zeros(size, dtype=np.uint8)
    state = np.zeros(3, dtype=np.int64)
    K.cut_start(root, disc, low, stack, moves, parts, state)

    def some(budget: int):
        K.cut_steps(alive, board.rows, board.cols, disc, low, stack, moves, parts, state, budget)
        return 0, bool(state[2])

    in_budgets(some, clock, CUT_PHASE, first=1 << 20)
    reached = int(state[0])
    disc = low = stack = moves = None  # 13 bytes a cell back before the proof's labels (some names them)
    if reached < board.n_squares:
        return _connectivity_proof(board, alive, clock)
    if board.n_squares < 3:
        return None
    if spec.closed:
        cut = np.flatnonzero(parts > 1)
        if cut.size:
            return _split_proof(board, alive, int(cut[0]),
                                "a closed tour with {v} taken out is still one path through all the other squares",
                                clock)
        return None
    many = np.flatnonzero(parts >= 3)
    if many.size:
        return _split_proof(board, alive, int(many[0]),
                            "an open tour passes {v} at most once, so without {v} it falls into at most two pieces",
                            clock)
    for role, f in zip(("start", "end"), (spec.start, spec.end)):
        if f is not None and parts[f[0] * board.cols + f[1]] > 1:
            return _split_proof(
                board, alive, f[0] * board.cols + f[1],
                f"the tour {'starts' if role == 'start' else 'ends'} on {{v}}, so without {{v}} it is "
                f"still one path through all the other squares", clock,
            )
    return None


def _names(board: Board, flat: np.ndarray) -> list[str]:
    r, c = np.divmod(np.asarray(flat, dtype=np.int64), board.cols)
    return [board.name(int(a), int(b)) for a, b in zip(r.tolist(), c.tolist())]


def _labels(board: Board, alive: np.ndarray, clock: Deadline) -> tuple[np.ndarray, int]:
    """Every square's component (:func:`~._local_kernels.grid_labels`, in parts) and their count."""
    from ..factor.chunks import in_budgets
    from . import _local_kernels as K

    label = np.empty(board.size, dtype=np.int32)
    queue = np.empty(board.size, dtype=np.int32)
    state = np.zeros(5, dtype=np.int64)
    K.labels_start(label, state)

    def some(budget: int):
        K.labels_steps(alive, board.rows, board.cols, label, queue, state, budget)
        return 0, bool(state[4])

    in_budgets(some, clock, CUT_PHASE, first=1 << 20)
    return label, int(state[3])


def _connectivity_proof(board: Board, alive: np.ndarray, clock: Deadline) -> Proof:
    label, k = _labels(board, alive, clock)
    on = label[label >= 0]
    sizes = np.bincount(on).tolist()
    first = _names(board, np.flatnonzero(label >= 0)[:1])[0]
    second = _names(board, [int(np.argmax(label == 1))])[0]
    return Proof(
        f"the knight graph falls into {k} separate parts (sizes {', '.join(map(str, sizes[:6]))}"
        f"{' ...' if k > 6 else ''}); no knight's path joins {first} to {second}",
        argument="connectivity",
        evidence={"components": k, "sizes": sizes[:1000], "squares": [first, second]},
    )


def _split_proof(board: Board, alive: np.ndarray, v: int, why: str, clock: Deadline) -> Proof:
    """The parts left without square ``v`` (flat position), largest first, as :func:`.quick._split_proof` words them."""
    alive[v] = 0
    try:
        label, k = _labels(board, alive, clock)
    finally:
        alive[v] = 1
    cells = np.flatnonzero(label >= 0)
    lab = label[cells]
    del label
    ids, first, sizes = np.unique(lab, return_index=True, return_counts=True)
    order = np.argsort(-sizes, kind="stable")
    sizes, examples = sizes[order].tolist(), _names(board, cells[first[order]])
    vn = _names(board, [v])[0]
    shown = ", ".join(f"{sz} square{'s' if sz != 1 else ''} around {ex}" for sz, ex in zip(sizes[:4], examples[:4]))
    if len(sizes) > 4:
        shown += " ..."
    evidence = {"square": vn, "parts": len(sizes), "sizes": sizes[:1000], "squares": examples[:1000]}
    if sum(sizes[1:]) <= PART_SHOWN:
        # every square off the largest part: enough to re-check the cut by counting moves around them
        evidence["part"] = _names(board, cells[lab != ids[order[0]]])
    return Proof(
        f"taking out {vn} splits the board into {len(sizes)} separate parts ({shown}); " + why.format(v=vn),
        argument="cut square",
        evidence=evidence,
    )


def warm() -> float:
    """Compile (or load from numba's cache) the grid kernels; seconds spent compiling."""
    from .. import jit
    from ..factor.chunks import loading
    from . import _local_kernels as K

    def calls():
        b = Board(4, 5, [(0, 0)])
        alive = _alive(b)
        K.grid_degree(alive, 4, 5, np.empty(20, dtype=np.int8))
        K.degree_rows(alive, 4, 5, np.empty(20, dtype=np.int8), 0, 4)
        loading("local proofs")
        K.grid_labels(alive, 4, 5, np.empty(20, dtype=np.int32), np.empty(20, dtype=np.int32))
        z = np.empty(20, dtype=np.int32)
        K.cut_parts(alive, 4, 5, 1, z, z.copy(), z.copy(), np.empty(20, dtype=np.int8), np.zeros(20, dtype=np.uint8))
        loading("local proofs")
        label, state = np.empty(20, dtype=np.int32), np.zeros(5, dtype=np.int64)
        K.labels_start(label, state)
        K.labels_steps(alive, 4, 5, label, z.copy(), state, 1 << 20)
        disc, low, stack = z.copy(), z.copy(), z.copy()
        moves, parts, state = np.empty(20, dtype=np.int8), np.zeros(20, dtype=np.uint8), np.zeros(3, dtype=np.int64)
        K.cut_start(1, disc, low, stack, moves, parts, state)
        K.cut_steps(alive, 4, 5, disc, low, stack, moves, parts, state, 1 << 20)
        loading("local proofs")
        deg, dead, forced = np.empty(20, dtype=np.int8), np.zeros(20, dtype=np.uint8), np.zeros(20, dtype=np.uint8)
        K.degree_rows(alive, 4, 5, deg, 0, 4)
        steps, state = np.empty(64, dtype=np.int64), np.zeros(8, dtype=np.int64)
        K.forcing_steps(alive, 4, 5, deg, dead, forced, z.copy(), steps, state, 1 << 20)
        K.forced_cycle(forced, 4, 5, steps, state[3], np.zeros(20, dtype=np.uint8))
        K.cycle_cells(forced, 4, 5, 0, np.empty(1, dtype=np.int64))

    return jit.prepare("local proofs", calls, [getattr(K, name) for name in K.__all__])
