"""Splice: tours of huge boards with holes in linear time, from a tour of the full board.

The idea (issue 18): a tour of the full rectangle is cheap (divide and
conquer, :mod:`ktsolve.heuristics.divide`); deleting the holes cuts it into
paths; a few local repairs turn the pieces back into one tour.

1. Take divide's closed tour of the full ``rows x cols`` board (an open
   path when both sides are odd) as *links*: two slots per cell, the moves
   to its two tour neighbours (the representation of :mod:`ktsolve.factor`).
2. Delete the holes: each hole's two tour neighbours lose a link.
3. Restore a 2-factor (every square two links): a square short of a link
   gets one by a short alternating path to a square of the other colour
   that is short too (breadth-first, bounded; the knight graph is
   bipartite, so there are no blossoms).  Squares short of links pair up
   across the colours, which is why the colours must balance; as the holes'
   colours balance only over large regions, the ones left are paired along
   a Hilbert curve and each missing link is *walked* to its partner, two
   moves a step (cut ``x - w``, link ``u - x``: ``w`` is short instead of
   ``u``); a walk that stalls hands over to one alternating-path search
   best first towards the partner, whose work is a corridor rather than
   the whole board.  Should squares stay short, :func:`ktsolve.factor.two_factor`
   completes the 2-factor from there (or finds that none exists).
4. Merge the cycles: for a link ``a - b`` in one piece and ``c - d`` in
   another, with ``a - c`` and ``b - d`` knight's moves, the links
   ``a - c`` and ``b - d`` replace them and the two pieces become one
   (opening two different cycles at one link each and joining the ends
   crosswise always gives one cycle).  Union-find over the pieces' labels
   tracks what is joined; only the squares of pieces other than the largest
   are scanned.  Where no such exchange exists, six-square ones
   (``a - b``, ``d - c``, ``e - f`` become ``a - d``, ``c - e``,
   ``b - f``; a short walk along the cycle tells whether the order keeps
   one cycle).
5. A piece still left is first *rerouted*
   (:mod:`ktsolve.heuristics.splice.reroute`): one of its links is cut and
   the shortest alternating path from one end back to the other that does
   not take that link again closes an alternating cycle through it, which
   opens the piece into the pieces the path crosses; this reaches past
   stretches of forced moves that no window can change.  The last few
   pieces are joined to the largest cycle by Posa rotations of one path
   through both (:mod:`ktsolve.heuristics.splice.rotate`), which never
   cut anything, with kicks (a forced reroute, the exchanges again) where
   the rotations stall.  What is left after that is re-solved exactly in a
   window around it (CP-SAT,
   :mod:`ktsolve.heuristics.splice.window`: the paths of the other pieces
   through the window keep their ends, so nothing outside changes), after
   rounds of ruin and recreate (every link near the pieces left cut, the
   2-factor restored and merged again; a round that does not lower the
   count of pieces is undone).  The last few pieces get free windows
   (:mod:`ktsolve.heuristics.splice.free_window`), whose paths through
   the edge may pair anew: one walk of the pieces through the window tells
   how they join outside, and the window is solved as a circuit with those
   joins.
6. Walk the one cycle (or path) into the tour.

When pieces are left after step 5 on an open question and one of them
holds a pocket (a square whose every move stays in its piece), the steps
run again with the path's start there (:mod:`ktsolve.heuristics.splice.pocket`).
When pieces are still left, the steps run once more on the
transposed board, and its tour is mapped back
(:mod:`ktsolve.heuristics.splice.second`).  Under a time limit the first
attempt's step 5 keeps a share of the time for that second attempt
(:func:`ktsolve.heuristics.splice.pipeline.repair_clock`: 1.5 times the
seconds of its steps 1 to 4, where the time left is at least twice that).

Open tours and fixed ends use the extra vertex of :mod:`ktsolve.factor`: a
fixed start or end gets an ``END`` link (the path ends there), and an
open tour whose colours differ by one gets two free ends, the two squares of
the larger colour left short after step 3.  An open tour on a board with
balanced colours and no fixed end is a closed one cut anywhere; a closed
tour with a fixed start and end is an open path between them closed by
their move.

Where a square stays short after the searches, or pieces are left that no
exchange joins, the answer is an honest ``unknown`` that says how many
(``stats["short"]``, ``stats["pieces"]``): this method never proves that no
tour exists.

Notes
-----
Time and memory are linear in the cells: divide's successor array (int32,
freed after step 1), the links (two int8 a cell), the mask (one uint8), a
search stamp (int32, step 3 only; the search forests, when they run, three
more), the labels and then the square numbers (one int32), the tour (one
int32).  Measured: 1.45 GB peak for a 10,000 x 10,000 board with 1% holes,
the process and the validation included (benchmarks/results/huge_10k.md).  The
searches and walks of step 3 and the exchanges of step 4 touch only the
neighbourhoods of the holes and the paths between them; the walks' total
length is the transport the holes' colours need, which grows slightly
faster than the board (a logarithmic factor, as for random matchings).

References
----------
I. Parberry, "An efficient algorithm for the knight's tour problem",
Discrete Applied Mathematics 73 (1997) 251-260 (the joining of two cycles
by a pair of moves).
L. Posa, "Hamiltonian circuits in random graphs", Discrete Mathematics 14
(1976) 359-364 (rotations and exchanges of links).

Examples
--------
>>> from ktsolve import Board, KnightGraph, TourSpec
>>> from ktsolve.generate import random_holed_board
>>> board = random_holed_board(40, 40, 0.02, closed=True, seed=1)
>>> res = solve_splice(KnightGraph(board), TourSpec(closed=True))
>>> res.status.value, len(res.tour) == board.n_squares
('found', True)
"""

from __future__ import annotations

import time
from dataclasses import replace
from types import SimpleNamespace

import numpy as np

from ... import jit
from ...driver import Deadline, Stopped, begin, interrupt_guard
from ...factor import _restore_kernels as k
from ...factor.chunks import loading
from ...factor.restore import warm as restore_warm
from ...generate import random_holed_board
from ...result import SolveResult, Status
from ...tour import TourSpec
from ..divide import warm as divide_warm
from . import _merge_kernels as mk
from .build import build_links, refused
from .colony_window import check_window_method, warm_window
from .pipeline import run_steps, unknown
from .pocket import pocket_attempt
from .second import second_attempt

__all__ = ["solve_splice", "warm"]


def _warm_calls() -> None:
    """Run every kernel once with the argument types the method uses (a 10 x 10 board)."""
    board = random_holed_board(10, 10, 4, closed=True, seed=1)
    solve_splice(SimpleNamespace(board=board), TourSpec(closed=True))
    loading("splice")
    links, alive = build_links(board, Deadline(None))
    k.unlink_slot(links.copy(), int(np.argmax(alive)), 0, board.rows, board.cols)  # open tours' ends
    rows, cols = board.rows, board.cols
    cells = rows * cols
    f = int(np.argmax(alive))
    some = np.array([f], dtype=np.int64)
    labels = np.empty(cells, dtype=np.int32)
    count = mk.label_components(links, alive, rows, cols, labels)
    mk.label_scan(links, alive, rows, cols, labels, 0, cells)
    count = mk.label_number(labels, 0, cells, 0)
    mk.component_sizes(labels, count)
    parent = np.arange(max(count, 1), dtype=np.int32)
    mk.find(parent, 0), mk.find(parent, labels[f])  # the free windows call it from Python
    loading("splice")
    mk.triple_pass(some, links, alive, rows, cols, labels, parent, 0, 2, 4)
    mk.merge_pass(some, links, alive, rows, cols, labels, parent, 0, 2)
    mk.keep_outside(mk.cells_outside(labels, parent, 0)[0], labels, parent, 0)
    mk.outside_among(some, labels, parent, 0)
    mk.cells_apart(labels, 0, int(((labels >= 0) & (labels != 0)).sum()))
    mk.cycle_positions(links, rows, cols, f, np.empty(cells, dtype=np.int32), 0)
    mk.cycle_cells(f, links, rows, cols, np.empty(cells, dtype=np.int64))
    loading("splice")
    mk.ruin_box(links, alive, rows, cols, 0, 2, 0, 2)
    mk.walk_outside(f, 0, links, alive, rows, cols, 0, 2, 0, 2, -1, -1, 4)
    rank, state = np.empty(cells, dtype=np.int32), np.empty(4, dtype=np.int64)
    mk.rank_cells(alive, rank, 0, cells, 0)
    mk.walk_begin(links, f, state)
    mk.walk_part(links, cols, f, rank, np.empty(4, dtype=np.int32), state, 4)
    mk.walk_links(links, rows, cols, f, rank, np.empty(4, dtype=np.int32))


def warm() -> float:
    """Compile (or load from numba's cache) the splice kernels and divide's; seconds spent compiling.

    Examples
    --------
    >>> warm() >= 0.0
    True
    """
    kernels = [k.links_from_successors, k.delete_holes, k.unlink_slot]
    kernels += [getattr(mk, name) for name in mk.__all__]
    return divide_warm() + restore_warm() + jit.prepare("splice", _warm_calls, kernels)


def solve_splice(graph, spec: TourSpec, *, time_limit=None, progress=None, window_method="cpsat",
                 seed=None) -> SolveResult:
    """A tour of a board with holes from divide's tour of the full board, repaired locally.

    Parameters
    ----------
    graph : KnightGraph
        Splice reads only its board (``graph.board``): it works on the
        implicit grid and builds no graph arrays.
    spec : TourSpec
        Open or closed, a fixed start, end, or both.
    time_limit : float or Deadline, optional
        Seconds for the whole call (or the caller's clock), looked at between the steps (and between
        divide's parts); past it the answer is ``unknown``.  The default
        budget is the construction itself (linear time).
    progress : callable, optional
        ``progress(done, 4)`` after each of the four steps.
    window_method : {"cpsat", "aco", "iaco"}
        The solver of step 5's windows: CP-SAT's exact model (the default), or an ant colony on the
        window's graph (:mod:`ktsolve.heuristics.splice.colony_window`).
    seed : int, optional
        Checked like every seed (a whole number from 0 to 2**32 - 1) and then
        ignored: this method draws no random number, so every seed gives the
        same answer and ``result.seed`` is None.  That holds for the default
        ``window_method="cpsat"``; with a colony, window ``k`` draws from a
        seed derived from it (a fresh one when None), recorded in
        ``result.seed``.  (The rounds of ruin and recreate shuffle their
        searches in one fixed order.)

    Returns
    -------
    SolveResult
        ``found``, or ``unknown`` with the reason and ``stats`` (``short``:
        moves left missing after step 3; ``pieces``: pieces left after step 4;
        ``cycles``, ``augmentations``, ``merge_passes``).  Never
        ``infeasible``.

    Examples
    --------
    >>> from ktsolve import Board, KnightGraph
    >>> board = Board(12, 12, holes=[(0, 0), (0, 1)])
    >>> res = solve_splice(KnightGraph(board), TourSpec(closed=False, start=(5, 5)))
    >>> res.status.value, res.tour.start, len(res.tour)
    ('found', (5, 5), 142)
    >>> solve_splice(KnightGraph(Board(8, 8, holes=[(0, 0)])), TourSpec(closed=True)).stats["reason"]
    'the colours of the board do not balance, so no tour of it can alternate them'
    """
    window_method = check_window_method(window_method)
    deadline, seed = begin(time_limit, seed, seeded=window_method != "cpsat")
    board = graph.board
    said: dict = {}  # what the attempt left as its phases ended, for an answer cut short
    with interrupt_guard():
        try:
            why = refused(board, spec)
            if why:
                res = unknown(why)
            else:
                deadline.extend(warm() + warm_window(window_method))
                res = run_steps(board, spec, deadline, progress, window_method, seed, said, reserve=True)
        except Stopped as stop:
            reason = _stopped_reason(stop, said)
            said.pop("running", None)
            res = unknown(reason, interrupted=stop.interrupted, stopped=True, **said)
        if res.status is Status.UNKNOWN and res.stats.get("pocket") and not res.stats.get("stopped"):
            try:
                res = pocket_attempt(board, spec, deadline, progress, window_method, seed, res)
            except Stopped as stop:  # Ctrl-C during the attempt
                res = unknown(stop.describe(), interrupted=True, stopped=True, pieces=res.stats.get("pieces"))
        if (res.status is Status.UNKNOWN and res.stats.get("pieces", 0) > 1 and "cut_off" not in res.stats
                and not res.stats.get("stopped")):
            res = second_attempt(board, spec, deadline, progress, window_method, seed, res)
    return res if window_method == "cpsat" else replace(res, seed=seed)


def _stopped_reason(stop: Stopped, said: dict, now: float | None = None) -> str:
    """Why an attempt was cut short, and what it had left: the pieces, or the moves short, the phases' seconds
    (the one that was running, ``said["running"]``: its name and start, with its seconds so far), and why no
    second attempt followed when no time was kept for one.

    Examples
    --------
    >>> _stopped_reason(Stopped("time limit", "repairing the pieces"), {"pieces": 12, "seconds": {"restore": 3.0},
    ...                 "running": ("repair", 10.0)}, now=15.5)
    'the time limit ran out while repairing the pieces, with 12 pieces left (restore 3 s, repair 5.5 s so far)'
    """
    left = (f"{said['pieces']:,} pieces left" if "pieces" in said
            else f"{said['short']:,} moves short" if said.get("short") else "")
    spent = [f"{name.replace('_', ' ')} {sec:.3g} s" for name, sec in said.get("seconds", {}).items()]
    if "running" in said:
        name, t = said["running"]
        if name not in said.get("seconds", {}):
            now = time.perf_counter() if now is None else now
            spent.append(f"{name.replace('_', ' ')} {now - t:.3g} s so far")
    tail = f" ({', '.join(spent)})" if spent else ""
    after = f"; {said['no_second_attempt']}" if "no_second_attempt" in said else ""
    return f"{stop.describe()}{', with ' + left if left else ''}{tail}{after}"
