"""Splice's steps 1 to 3: divide's tour of the full rectangle as links, the holes cut out, a 2-factor restored.

:func:`build_links` lays divide's tour of the full board as links and cuts
every hole's links; :func:`set_up` then fixes the ends the question asks
for and restores two links at every square
(:func:`ktsolve.factor.restore.restore_factor`), with the complete search
of :func:`ktsolve.factor.two_factor` for what the local repairs leave.
What comes out is a 2-factor (with :data:`~ktsolve._grid_kernels.END`
links at the ends of an open path) for the exchanges of step 4.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..._grid_kernels import END, NONE
from ...board import Board
from ...driver import Deadline
from ...factor import two_factor
from ...factor.chunks import in_chunks
from ...factor._restore_kernels import delete_holes, links_from_successors, unlink_slot
from ...factor.restore import restore_factor
from ...tour import TourSpec
from .._divide_blocks import load_catalog
from .._divide_plan import plan_cycle, plan_open
from ..divide import successors

__all__ = ["Start", "set_up", "lay_tour", "restore", "build_links", "fix_end", "free_ends", "ends_refused",
           "colours_refused", "refused", "flat"]


@dataclass
class Start:
    """Steps 1 to 3 done: the links of a 2-factor (or None with ``why``), and what the walk of step 6 needs.

    ``path_ends`` are the fixed squares where the path ends; ``free_ends``
    the ends no fixed square takes (the larger colour's two squares left
    short); ``stats`` the restoration's counts.
    """

    links: np.ndarray | None
    alive: np.ndarray
    path_ends: list
    free_ends: int
    stats: dict
    short: int = 0
    why: str | None = None


def flat(board: Board, sq) -> int:
    """The flat cell of square ``sq`` = (row, col)."""
    return int(sq[0]) * board.cols + int(sq[1])


def build_links(board: Board, deadline: Deadline):
    """Steps 1 and 2: divide's tour of the full rectangle as links, the holes' links cut.

    Returns ``(links, alive)``: int8 ``(cells, 2)`` and uint8 ``(cells,)``.
    Where divide lays no grid of blocks (a side below 5), the links start
    empty: step 3 then builds the whole 2-factor (fine on small and thin
    boards, slower on large ones).
    """
    m, n = board.rows, board.cols
    links = np.full((m * n, 2), NONE, dtype=np.int8)
    alive = np.ascontiguousarray(board.mask).reshape(-1).view(np.uint8)
    if min(m, n) < 5:
        return links, alive  # no grid of blocks: every square starts short of both moves
    cat = load_catalog()
    deadline.check("planning the full board's tour")
    lay, tf = plan_cycle(cat, m, n, deadline) if (m * n) % 2 == 0 else plan_open(cat, m, n, None, deadline)
    if lay is None or tf.transpose or tf.flip_r or tf.flip_c:
        return links, alive
    nxt = successors(cat, lay, deadline)

    def lay_links(a: int, b: int) -> int:
        if links_from_successors(nxt, m, n, links, a, b) < 0:
            raise RuntimeError("splice: divide's successor array holds a move that is not a knight's move")
        return 0

    in_chunks(m * n, lay_links, deadline, "linking the full board's tour", first=1 << 20)
    nxt = None  # freed (4 bytes a cell) before the holes are cut; lay_links above names it
    in_chunks(m * n, lambda a, b: delete_holes(links, alive, m, n, a, b), deadline, "cutting out the holes",
              first=1 << 20)
    return links, alive


def fix_end(links, alive, f: int, rows: int, cols: int) -> None:
    """Make cell ``f`` an end of the path: an :data:`END` link, its tour neighbour in slot 0 cut off if needed."""
    if links[f, 0] != NONE and links[f, 1] != NONE:
        unlink_slot(links, f, 0, rows, cols)
    s = 0 if links[f, 0] == NONE else 1
    links[f, s] = END


def free_ends(board: Board, spec: TourSpec) -> tuple[int, bool]:
    """``(free ends, cut)``: the ends of the path that no fixed square takes, and whether a closed
    2-factor is cut open at the end (an open tour of balanced colours without fixed ends)."""
    fixed = (spec.start is not None) + (spec.end is not None)
    if spec.closed:
        return 0, False
    even, odd = board.colour_counts()
    if fixed == 0 and even == odd:
        return 0, True
    return 2 - fixed, False


def refused(board: Board, spec: TourSpec) -> str | None:
    """Why the board's colours rule out the tour asked (:func:`colours_refused`, :func:`ends_refused`), or None."""
    return colours_refused(board, spec) or ends_refused(board, spec)


def colours_refused(board: Board, spec: TourSpec) -> str | None:
    """Why the board's colours rule out every tour asked (a tour alternates colours), or None."""
    even, odd = board.colour_counts()
    if abs(even - odd) > (0 if spec.closed else 1):
        return "the colours of the board do not balance, so no tour of it can alternate them"
    return None


def ends_refused(board: Board, spec: TourSpec) -> str | None:
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


def _complete_factor(board: Board, spec: TourSpec, links, cut: bool, path_ends, deadline: Deadline):
    """Links of a complete 2-factor by :func:`ktsolve.factor.two_factor` (warm-started from ``links``), or
    ``(None, why)``.

    The question put to it is the one the links stand for: a closed tour
    (also for an open tour cut from a closed one), or an open path between
    the fixed ends (also for a closed tour with a fixed start and end).
    """
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


def lay_tour(board: Board, spec: TourSpec, deadline: Deadline) -> Start:
    """Steps 1 and 2 with the question's ends: divide's tour as links, the holes cut, the fixed ends made ends."""
    rows, cols = board.rows, board.cols
    links, alive = build_links(board, deadline)
    s, t = spec.start, spec.end
    path_ends = [sq for sq in (s, t) if sq is not None] if (not spec.closed or (s and t)) else []
    for sq in path_ends:
        fix_end(links, alive, flat(board, sq), rows, cols)
    return Start(links, alive, path_ends, free_ends(board, spec)[0], {})


def restore(board: Board, spec: TourSpec, start: Start, deadline: Deadline) -> Start:
    """Step 3 on the links of :func:`lay_tour`: two links at every square, or ``start.links`` None and why."""
    rows, cols = board.rows, board.cols
    _, cut = free_ends(board, spec)
    short, fstats = restore_factor(start.links, start.alive, rows, cols, free_ends=start.free_ends,
                                   deadline=deadline)
    start.stats, start.short = fstats, short
    if short:
        # the complete search of ktsolve.factor, warm-started from what the local repairs reached
        start.links, why = _complete_factor(board, spec, start.links, cut, start.path_ends, deadline)
        fstats["factor_fallback"] = why or "found"
        start.why = why
    return start


def set_up(board: Board, spec: TourSpec, deadline: Deadline) -> Start:
    """Steps 1 to 3: :func:`lay_tour`, then :func:`restore`."""
    return restore(board, spec, lay_tour(board, spec, deadline), deadline)
