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
   (:mod:`ktsolve.heuristics._splice_reroute`): one of its links is cut and
   the shortest alternating path from one end back to the other that does
   not take that link again closes an alternating cycle through it, which
   opens the piece into the pieces the path crosses; this reaches past
   stretches of forced moves that no window can change.  The last few
   pieces are joined to the largest cycle by Posa rotations of one path
   through both (:mod:`ktsolve.heuristics._splice_rotate`), which never
   cut anything, with kicks (a forced reroute, the exchanges again) where
   the rotations stall.  What is left after that is re-solved exactly in a
   window around it (CP-SAT,
   :mod:`ktsolve.heuristics._splice_window`: the paths of the other pieces
   through the window keep their ends, so nothing outside changes), after
   rounds of ruin and recreate (every link near the pieces left cut, the
   2-factor restored and merged again; a round that does not lower the
   count of pieces is undone).  The last few pieces get free windows
   (:mod:`ktsolve.heuristics._splice_free_window`), whose paths through
   the edge may pair anew: one walk of the pieces through the window tells
   how they join outside, and the window is solved as a circuit with those
   joins.
6. Walk the one cycle (or path) into the tour.

When pieces are left after step 5, the steps run once more on the
transposed board, and its tour is mapped back
(:mod:`ktsolve.heuristics._splice_transpose`).

Open tours and fixed ends use the extra vertex of :mod:`ktsolve.factor`: a
fixed start or end gets an :data:`END` link (the path ends there), and an
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
from dataclasses import dataclass, replace

import numpy as np

from .. import jit
from ..board import Board
from ..driver import Deadline, Stopped, begin, interrupt_guard
from ..result import SolveResult, Status
from ..tour import Tour, TourSpec, list_cycle
from ._splice_colony_window import check_window_method, warm_window
from ._splice_transpose import second_attempt
from ..factor.restore import SEARCH_CAPS, restore_factor

__all__ = ["solve_splice", "warm", "build_links", "restore_factor", "merge_pieces", "repair_windows",
           "repair_leftovers", "repair_pieces", "Pieces", "outside", "flat_roots", "SEARCH_CAPS"]

#: Passes of four-square exchanges before the pieces left are given up.
MERGE_PASSES = 16
#: Margins (squares) of the windows re-solved exactly around a piece left, tried in turn.
WINDOW_MARGINS = (2, 3, 4)
#: Largest window (cells) re-solved exactly; larger pieces are left to ruin and recreate.
WINDOW_MAX_CELLS = 900
#: Seconds CP-SAT may spend on one window.
WINDOW_TIME_CAP = 2.0
#: Rounds of ruin and recreate around the pieces that the exchanges leave.
REPAIR_ROUNDS = 8
#: Turns of (rounds of ruin and recreate, then windows) while pieces are left; each turn's boxes start larger.
REPAIR_TURNS = 3
#: The fixed seed of the shuffled order of ruin and recreate (the method itself takes no seed).
REPAIR_SHUFFLE = 18
#: Squares a six-square exchange may walk along a cycle to learn the order of two of its links.  Most
#: walks that fail run to the end, and the reroutes join what the exchanges leave: on 4000x4000 with 5 %
#: holes 250 steps gave merge and reroutes 5.4 s against 9.1 s with 4000, at 10^8 cells with 1 % 9.9 s
#: against 13.5 s (pieces left to the reroutes: 828 against 526, and 105 against 45).
TRIPLE_WALK = 250


def _unknown(reason: str, **stats) -> SolveResult:
    return SolveResult(Status.UNKNOWN, stats={"reason": reason, **stats})


def _stuck_reason(board: Board, stuck: dict) -> str:
    """Why splice stopped on a piece no repair can join (:func:`~._splice_stuck.cut_off`)."""
    if stuck["contacts"] == 0:
        return (f"a piece of {stuck['squares']} squares has no move to the rest of the board: the board is "
                "disconnected, so no repair can join it")
    name = board.name(*divmod(stuck["cell"], board.cols))
    return (f"a piece of {stuck['squares']} squares meets the rest of the board only at {name}, a cut square: "
            "no closed tour passes it, so no repair can join the piece")


def _flat(board: Board, sq) -> int:
    return int(sq[0]) * board.cols + int(sq[1])


def build_links(board: Board, deadline: Deadline | None = None):
    """Steps 1 and 2: divide's tour of the full rectangle as links, the holes' links cut.

    Returns ``(links, alive)``: int8 ``(cells, 2)`` and uint8 ``(cells,)``.
    Where divide lays no grid of blocks (a side below 5), the links start
    empty: step 3 then builds the whole 2-factor (fine on small and thin
    boards, slower on large ones).
    """
    from ._divide_blocks import load_catalog
    from .._grid_kernels import NONE
    from ..factor._restore_kernels import delete_holes, links_from_successors
    from .divide import _plan_cycle, _plan_open, _successors

    deadline = deadline or Deadline(None)
    m, n = board.rows, board.cols
    links = np.full((m * n, 2), NONE, dtype=np.int8)
    alive = np.ascontiguousarray(board.mask).reshape(-1).view(np.uint8)
    if min(m, n) < 5:
        return links, alive  # no grid of blocks: every square starts short of both moves
    cat = load_catalog()
    deadline.check("planning the full board's tour")
    lay, tf = _plan_cycle(cat, m, n, deadline) if (m * n) % 2 == 0 else _plan_open(cat, m, n, None, deadline)
    if lay is None or tf.transpose or tf.flip_r or tf.flip_c:
        return links, alive
    nxt = _successors(cat, lay, deadline)
    deadline.check("linking the full board's tour")
    if links_from_successors(nxt, m, n, links) < 0:
        raise RuntimeError("splice: divide's successor array holds a move that is not a knight's move")
    del nxt
    delete_holes(links, alive, m, n)
    return links, alive


def _fix_end(links, alive, f: int, rows: int, cols: int) -> None:
    """Make cell ``f`` an end of the path: an :data:`END` link, its tour neighbour in slot 0 cut off if needed."""
    from .._grid_kernels import END, NONE
    from ..factor._restore_kernels import unlink_slot

    if links[f, 0] != NONE and links[f, 1] != NONE:
        unlink_slot(links, f, 0, rows, cols)
    s = 0 if links[f, 0] == NONE else 1
    links[f, s] = END


@dataclass
class Pieces:
    """What step 4 leaves: the pieces' count, the cells' labels (int32), union-find over them, the largest."""

    pieces: int
    labels: np.ndarray
    parent: np.ndarray
    giant: int
    stats: dict
    #: Cells (int64, in order) that hold every square of the pieces other than the largest, when the
    #: exchanges left such a list (a superset after later unions); None: the board must be scanned.
    among: np.ndarray | None = None


def merge_pieces(links, alive, rows: int, cols: int, *, deadline: Deadline | None = None,
                 passes: int = MERGE_PASSES) -> Pieces:
    """Step 4: exchanges until one piece is left (or a pass of four- and six-square exchanges joins nothing).

    The labels come from one walk of the links; the exchanges then keep
    union-find over them, so no walk is repeated.
    """
    from ._splice_merge_kernels import (cells_apart, component_sizes, keep_outside, label_components, merge_pass,
                                        triple_pass)

    deadline = deadline or Deadline(None)
    labels = np.empty(rows * cols, dtype=np.int32)
    deadline.check("labelling the cycles")
    count = int(label_components(links, alive, rows, cols, labels))
    stats = {"cycles": count, "merge_passes": 0, "triple_passes": 0}
    pieces = count
    parent = np.arange(max(count, 1), dtype=np.int32)
    sizes = component_sizes(labels, count)
    skip = int(np.argmax(sizes)) if count else 0
    if count > 1:
        # only the squares outside the largest piece are scanned: an exchange with it is seen from the other side
        cells = cells_apart(labels, skip, int(sizes.sum() - sizes[skip]))
        for _ in range(passes):
            deadline.check("merging the cycles")
            left = int(merge_pass(cells, links, alive, rows, cols, labels, parent, skip, pieces))
            stats["merge_passes"] += 1
            cells = cells[:keep_outside(cells, labels, parent, skip)]  # the next passes skip what joined
            if left == pieces and left > 1:
                # no four-square exchange left: six-square ones, then four-square ones again
                deadline.check("merging the cycles")
                left = int(triple_pass(cells, links, alive, rows, cols, labels, parent, skip, pieces, TRIPLE_WALK))
                stats["triple_passes"] += 1
                cells = cells[:keep_outside(cells, labels, parent, skip)]
            if left == pieces or left <= 1:
                pieces = left
                break
            pieces = left
    # the largest piece now: the root with the most squares
    roots = flat_roots(parent)
    parent[:] = roots
    giant = int(np.argmax(np.bincount(roots, weights=sizes, minlength=parent.size))) if count else 0
    stats["pieces"] = pieces
    # the squares the last pass kept are those of every piece apart from the first largest's: when that
    # is still the largest, later steps look among them instead of scanning the board
    among = cells if count > 1 and giant == roots[skip] else (np.empty(0, dtype=np.int64) if count <= 1 else None)
    return Pieces(pieces, labels, parent, giant, stats, among)


def flat_roots(parent: np.ndarray) -> np.ndarray:
    """Every label's union-find root (a new array; ``parent`` itself is left as it is)."""
    roots = parent.copy()
    while True:
        up = roots[roots]
        if np.array_equal(up, roots):
            return roots
        roots = up


def outside(state: Pieces):
    """``(cells, roots)``: the squares of the pieces other than the largest, in order, and their roots."""
    from ._splice_merge_kernels import cells_outside, outside_among

    if state.among is not None:
        return outside_among(state.among, state.labels, state.parent, state.giant)
    return cells_outside(state.labels, state.parent, state.giant)


def _piece_boxes(state: Pieces, cols: int):
    """Bounding boxes ``(top, bottom, left, right)`` (inclusive) of the pieces other than the largest."""
    cells, roots = outside(state)
    if cells.size == 0:
        return []
    order = np.argsort(roots, kind="stable")
    cells, roots = cells[order], roots[order]
    starts = np.flatnonzero(np.r_[True, roots[1:] != roots[:-1]])
    r, c = cells // cols, cells % cols
    return list(zip(np.minimum.reduceat(r, starts).tolist(), np.maximum.reduceat(r, starts).tolist(),
                    np.minimum.reduceat(c, starts).tolist(), np.maximum.reduceat(c, starts).tolist()))


def repair_windows(links, alive, rows: int, cols: int, state: Pieces, *, deadline: Deadline | None = None,
                   margins=WINDOW_MARGINS, max_cells: int = WINDOW_MAX_CELLS, method: str = "cpsat",
                   seed: int | None = None) -> Pieces:
    """Step 5: every piece but the largest re-solved exactly in a window around it (see
    :mod:`ktsolve.heuristics._splice_window`), then the pieces counted and merged again.

    Windows of more than ``max_cells`` cells are left to ruin and recreate.  ``method`` solves each window
    (:data:`~._splice_colony_window.WINDOW_METHODS`); window ``k`` of a colony draws from a seed derived from
    ``seed``.  Returns the new :class:`Pieces`, with ``stats["windows"]`` (windows solved) and
    ``stats["windows_tried"]``.
    """
    from ._splice_colony_window import window_seed
    from ._splice_window import repair_window

    deadline = deadline or Deadline(None)
    solved = tried = 0
    for top, bottom, left, right in _piece_boxes(state, cols):
        for grow in margins:
            if (bottom - top + 1 + 2 * grow) * (right - left + 1 + 2 * grow) > max_cells:
                break
            deadline.check("re-solving windows around the pieces left")
            budget = deadline.share(0.25, WINDOW_TIME_CAP)
            tried += 1
            if repair_window(links, alive, rows, cols, top - grow, bottom + grow + 1, left - grow, right + grow + 1,
                             time_limit=WINDOW_TIME_CAP if budget is None else max(budget, 0.01), method=method,
                             seed=window_seed(seed, tried)):
                solved += 1
                break
    if solved:
        state = merge_pieces(links, alive, rows, cols, deadline=deadline)
    state.stats["windows"], state.stats["windows_tried"] = solved, tried
    return state


def repair_leftovers(links, alive, rows: int, cols: int, state: Pieces, *, deadline: Deadline | None = None,
                     rounds: int = REPAIR_ROUNDS, shuffle: int = REPAIR_SHUFFLE, grow: int = 2) -> Pieces:
    """Ruin and recreate around the pieces step 4 left: their links and every link near them are cut, two
    moves restored in another order, and the pieces merged again.

    Each round cuts the links with an end in the bounding box of every
    piece but the largest (grown by ``grow + round`` squares), restores the
    2-factor with the local searches in a shuffled order (numpy's generator
    seeded with ``shuffle``: the same every run) from the
    colour of the round's parity, and merges.  A round that leaves a square
    short or does not lower the count of pieces is undone (the links come
    back from a copy taken before it, and are labelled again), so the count never rises and the
    next round, with larger boxes and another order, starts from the best
    links so far.  Returns the last :class:`Pieces`, with
    ``stats["repair_rounds"]`` and ``stats["repair_undone"]``.
    """
    from ._splice_merge_kernels import ruin_box

    deadline = deadline or Deadline(None)
    rng = np.random.default_rng(shuffle)
    done = undone = 0
    saved = None
    for k in range(rounds):
        if state.pieces <= 1:
            break
        deadline.check("re-making the pieces left")
        boxes = _piece_boxes(state, cols)
        before = state.pieces
        state.labels = None  # the memory goes back before the next labels are made
        if saved is None:
            saved = links.copy()
        else:
            saved[:] = links
        g = grow + k
        around = []
        for lo, hi, left, right in boxes:
            ruin_box(links, alive, rows, cols, lo - g, hi + g + 1, left - g, right + g + 1)
            # the squares left short: in the box, or a knight's move outside it
            r0, r1 = max(0, lo - g - 2), min(rows, hi + g + 3)
            c0, c1 = max(0, left - g - 2), min(cols, right + g + 3)
            around.append((np.arange(r0, r1)[:, None] * cols + np.arange(c0, c1)[None, :]).ravel())
        short, _ = restore_factor(links, alive, rows, cols, free_ends=0, deadline=deadline, rng=rng, side=k % 2,
                                  caps=(4096,), around=np.concatenate(around))
        done += 1
        if not short:
            after = merge_pieces(links, alive, rows, cols, deadline=deadline)
            if after.pieces < before:
                state = after
                continue
            del after
        links[:] = saved
        undone += 1
        # the links of before the round, labelled again (cheaper in memory than keeping their labels)
        state = merge_pieces(links, alive, rows, cols, deadline=deadline)
    del saved
    state.stats["repair_rounds"] = done
    state.stats["repair_undone"] = undone
    return state


def repair_pieces(links, alive, rows: int, cols: int, state: Pieces, *, deadline: Deadline | None = None,
                  turns: int = REPAIR_TURNS, method: str = "cpsat", seed: int | None = None) -> tuple[Pieces, dict]:
    """Step 5: turns of rerouting (:func:`~ktsolve.heuristics._splice_reroute.repair_reroute`), rotations
    and kicks for the last few pieces (:mod:`ktsolve.heuristics._splice_rotate`), then
    :func:`repair_leftovers` (rounds of ruin and recreate; none of these raises the count of pieces), then
    :func:`repair_windows` and, for the last few pieces, the free windows of
    :mod:`ktsolve.heuristics._splice_free_window`, until one piece is left.

    Rerouting comes first: a round is one search per piece and one
    labelling, and it reaches past stretches of forced moves where every
    window is infeasible (on 4000 x 4000 boards with 5 % holes it joined
    the pieces that ruin and recreate and the windows left;
    ``benchmarks/results/huge_dense_reroute.md``).  Ruin and recreate comes next: one of its rounds costs one labelling
    of the board however many pieces there are, where a window is a
    CP-SAT model per piece.  A piece whose windows are infeasible (the
    paths of the large cycle through them cannot take it in with their
    ends kept) gets a free window, whose paths may pair anew, or the next
    turn's larger boxes and other shuffle.  ``method`` and ``seed`` go to :func:`repair_windows` (turn
    ``t`` draws from a seed derived from ``seed`` and ``t``).  Returns the last :class:`Pieces` and the
    stats (``reroute_rounds``, ``reroute_undone``, ``rotate_joined``, ``kicks``, ``windows``,
    ``windows_tried``, ``repair_rounds``, ``repair_undone``, ``pieces``).
    """
    from ._splice_free_window import repair_free
    from ._splice_reroute import repair_reroute
    from ._splice_rotate import repair_kick, repair_rotate

    from ..seeds import derive_seed

    stats = {"windows": 0, "windows_tried": 0, "repair_rounds": 0, "repair_undone": 0, "reroute_rounds": 0,
             "reroute_undone": 0, "rotate_joined": 0, "kicks": 0}
    for turn in range(turns):
        if state.pieces <= 1:
            break
        state = repair_reroute(links, alive, rows, cols, state, deadline=deadline)
        stats["reroute_rounds"] += state.stats.get("reroute_rounds", 0)
        stats["reroute_undone"] += state.stats.get("reroute_undone", 0)
        if state.pieces > 1:
            state = repair_rotate(links, alive, rows, cols, state, deadline=deadline, seed=turn)
            stats["rotate_joined"] += state.stats.get("rotate_joined", 0)
        if state.pieces > 1:
            state = repair_kick(links, alive, rows, cols, state, deadline=deadline)
            stats["kicks"] += state.stats.get("kicks", 0)
        if state.pieces <= 1:
            break
        state = repair_leftovers(links, alive, rows, cols, state, deadline=deadline, shuffle=REPAIR_SHUFFLE + turn,
                                 grow=2 + turn * REPAIR_ROUNDS // 2)
        stats["repair_rounds"] += state.stats["repair_rounds"]
        stats["repair_undone"] += state.stats["repair_undone"]
        if state.pieces > 1:
            state = repair_windows(links, alive, rows, cols, state, deadline=deadline, method=method,
                                   seed=None if seed is None else derive_seed(seed, "splice repair turn", turn))
            stats["windows"] += state.stats.get("windows", 0)
            stats["windows_tried"] += state.stats.get("windows_tried", 0)
        if state.pieces > 1:
            state = repair_free(links, alive, rows, cols, state, deadline=deadline)
            stats["free_windows"] = stats.get("free_windows", 0) + state.stats["free_windows"]
    stats["pieces"] = state.pieces
    return state, stats


def _free_ends(board: Board, spec: TourSpec) -> tuple[int, bool]:
    """``(free ends, cut)``: the ends of the path that no fixed square takes, and whether a closed
    2-factor is cut open at the end (an open tour of balanced colours without fixed ends)."""
    fixed = (spec.start is not None) + (spec.end is not None)
    if spec.closed:
        return 0, False
    even, odd = board.colour_counts()
    if fixed == 0 and even == odd:
        return 0, True
    return 2 - fixed, False


def _complete_factor(board: Board, spec: TourSpec, links, cut: bool, path_ends, deadline: Deadline):
    """Links of a complete 2-factor by :func:`ktsolve.factor.two_factor` (warm-started from ``links``), or
    ``(None, why)``.

    The question put to it is the one the links stand for: a closed tour
    (also for an open tour cut from a closed one), or an open path between
    the fixed ends (also for a closed tour with a fixed start and end).
    """
    from ..factor import two_factor

    rows, cols = board.rows, board.cols
    if spec.closed and path_ends:  # a closed tour with both ends fixed: the open path between them
        closed, start, end = False, spec.start, spec.end
    elif spec.closed or cut:
        closed, start, end = True, None, None
    else:
        closed, start, end = False, spec.start, spec.end
    tf = two_factor(board, closed=closed, start=start, end=end, init=links.reshape(rows, cols, 2), deadline=deadline)
    if tf.status == "found":
        return np.ascontiguousarray(tf.links, dtype=np.int8).reshape(rows * cols, 2), None
    if tf.status == "none":
        return None, "the knight graph has no 2-factor for this question (ktsolve.factor's witness)"
    return None, f"ktsolve.factor's search did not finish: {tf.stats.get('reason', 'unknown')}"


def _ends_refused(board: Board, spec: TourSpec) -> str | None:
    """Why the colours rule out the fixed ends asked (a tour alternates colours), or None."""
    s, t = spec.start, spec.end
    colour = [(sq[0] + sq[1]) % 2 for sq in (s, t) if sq is not None]
    if spec.closed:
        if s is not None and t is not None and (abs(s[0] - t[0]), abs(s[1] - t[1])) not in ((1, 2), (2, 1)):
            return "the end of a closed tour must be a knight's move from its start"
        return None
    even, odd = board.colour_counts()
    if even != odd:
        larger = 0 if even > odd else 1
        if any(c != larger for c in colour):
            return "an open tour on a board with one square more of one colour starts and ends on that colour"
    elif len(colour) == 2 and colour[0] == colour[1]:
        return "an open tour on a board with as many squares of each colour ends on the other colour"
    return None


def _solve(board: Board, spec: TourSpec, deadline: Deadline, progress, window_method: str, seed) -> SolveResult:
    from .._grid_kernels import END
    from ._splice_stuck import cut_off
    from ._splice_merge_kernels import rank_cells, walk_links

    rows, cols = board.rows, board.cols
    even, odd = board.colour_counts()
    if abs(even - odd) > (0 if spec.closed else 1):
        return _unknown("the colours of the board do not balance, so no tour of it can alternate them")
    why = _ends_refused(board, spec)
    if why:
        return _unknown(why)
    deadline.extend(warm() + warm_window(window_method))
    t0 = time.perf_counter()
    links, alive = build_links(board, deadline)
    if progress is not None:
        progress(1, 4)
    s, t = spec.start, spec.end
    path_ends = [sq for sq in (s, t) if sq is not None] if (not spec.closed or (s and t)) else []
    for sq in path_ends:
        _fix_end(links, alive, _flat(board, sq), rows, cols)
    free_ends, cut = _free_ends(board, spec)
    t1 = time.perf_counter()
    short, fstats = restore_factor(links, alive, rows, cols, free_ends=free_ends, deadline=deadline)
    if progress is not None:
        progress(2, 4)
    if short:
        # the complete search of ktsolve.factor, warm-started from what the local repairs reached
        links, why = _complete_factor(board, spec, links, cut, path_ends, deadline)
        fstats["factor_fallback"] = why or "found"
        if links is None:
            return _unknown(f"{short} move(s) of squares next to holes could not be restored by short "
                            f"alternating paths, and {why}", **fstats)
    t2 = time.perf_counter()
    state = merge_pieces(links, alive, rows, cols, deadline=deadline)
    stats = {**fstats, **state.stats}
    stuck = cut_off(state, alive, rows, cols, closed=spec.closed) if state.pieces > 1 else None
    if stuck is not None:
        return _unknown(_stuck_reason(board, stuck), cut_off=stuck, **stats)
    t3 = time.perf_counter()
    state, repair = repair_pieces(links, alive, rows, cols, state, deadline=deadline, method=window_method,
                                  seed=seed)
    stats.update(repair)
    pieces = state.pieces
    t4 = time.perf_counter()
    stats["seconds"] = {"tour_of_full_board": round(t1 - t0, 3), "restore": round(t2 - t1, 3),
                        "merge": round(t3 - t2, 3), "repair": round(t4 - t3, 3)}
    labels = state.labels if state.labels is not None else np.empty(rows * cols, dtype=np.int32)
    del state
    if progress is not None:
        progress(3, 4)
    if pieces > 1:
        return _unknown(f"{pieces} pieces (cycles or the open path) were left unjoined by the exchanges "
                        "and the rounds of ruin and recreate", **stats)
    deadline.check("walking the tour")
    rank = labels  # the labels' memory, reused
    rank_cells(alive, rank)
    if path_ends or free_ends:
        ends = np.flatnonzero((links == END).any(axis=1)) if not path_ends else None
        if s is not None:
            first = _flat(board, s)
        elif t is not None and ends is None:
            # only the end fixed: start from the path's other end
            ends = np.flatnonzero((links == END).any(axis=1))
            first = int(ends[0]) if int(ends[0]) != _flat(board, t) else int(ends[1])
        else:
            first = int(ends[0])
    else:
        first = _flat(board, s) if s is not None else int(np.argmax(alive))
    out = np.empty(board.n_squares, dtype=np.int32)
    got = int(walk_links(links, rows, cols, first, rank, out))
    del links, rank, labels
    if got != board.n_squares:
        raise RuntimeError(f"splice: the one piece left covers {got} of {board.n_squares} squares")
    if spec.closed and t is not None and s is None:
        out = list_cycle(out, end=board.index(*t))
    stats["seconds"]["walk"] = round(time.perf_counter() - t4, 3)
    if progress is not None:
        progress(4, 4)
    return SolveResult(Status.FOUND, tour=Tour(board, out, closed=spec.closed), stats=stats)


def _warm_calls() -> None:
    """Run every kernel once with the argument types the method uses (a 10 x 10 board)."""
    from types import SimpleNamespace

    from ..generate import random_holed_board
    from ..factor import _restore_kernels as k
    from . import _splice_merge_kernels as mk

    board = random_holed_board(10, 10, 4, closed=True, seed=1)
    solve_splice(SimpleNamespace(board=board), TourSpec(closed=True))
    links, alive = build_links(board)
    k.unlink_slot(links.copy(), int(np.argmax(alive)), 0, board.rows, board.cols)  # open tours' ends
    rows, cols = board.rows, board.cols
    cells = rows * cols
    f = int(np.argmax(alive))
    some = np.array([f], dtype=np.int64)
    labels = np.empty(cells, dtype=np.int32)
    count = mk.label_components(links, alive, rows, cols, labels)
    mk.component_sizes(labels, count)
    parent = np.arange(max(count, 1), dtype=np.int32)
    mk.triple_pass(some, links, alive, rows, cols, labels, parent, 0, 2, 4)
    mk.merge_pass(some, links, alive, rows, cols, labels, parent, 0, 2)
    mk.keep_outside(mk.cells_outside(labels, parent, 0)[0], labels, parent, 0)
    mk.outside_among(some, labels, parent, 0)
    mk.cells_apart(labels, 0, int(((labels >= 0) & (labels != 0)).sum()))
    mk.cycle_positions(links, rows, cols, f, np.empty(cells, dtype=np.int32), 0)
    mk.cycle_cells(f, links, rows, cols, np.empty(cells, dtype=np.int64))
    mk.ruin_box(links, alive, rows, cols, 0, 2, 0, 2)
    mk.walk_outside(f, 0, links, alive, rows, cols, 0, 2, 0, 2, -1, -1, 4)


def warm() -> float:
    """Compile (or load from numba's cache) the splice kernels and divide's; seconds spent compiling.

    Examples
    --------
    >>> warm() >= 0.0
    True
    """
    from ..factor import _restore_kernels as k
    from . import _splice_merge_kernels as mk
    from ..factor.restore import warm as restore_warm
    from .divide import warm as divide_warm

    kernels = [k.links_from_successors, k.delete_holes, k.unlink_slot]
    kernels += [getattr(mk, name) for name in mk.__all__]
    return divide_warm() + restore_warm() + jit.prepare("splice", _warm_calls, kernels)


def solve_splice(graph, spec: TourSpec, *, time_limit=None, progress=None, window_method="cpsat",
                 seed=None) -> SolveResult:
    """A tour of a board with holes from divide's tour of the full board, repaired locally.

    Parameters
    ----------
    graph : KnightGraph
        Only ``graph.board`` is used; no graph arrays are built.
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
        window's graph (:mod:`ktsolve.heuristics._splice_colony_window`).
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
    with interrupt_guard():
        try:
            res = _solve(board, spec, deadline, progress, window_method, seed)
        except Stopped as stop:
            res = _unknown(stop.describe(), interrupted=stop.interrupted)
        if res.status is Status.UNKNOWN and res.stats.get("pieces", 0) > 1 and "cut_off" not in res.stats:
            res = second_attempt(board, spec, deadline, progress, window_method, seed, res)
    return res if window_method == "cpsat" else replace(res, seed=seed)
