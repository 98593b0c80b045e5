"""Splice's shared state: the links every step changes, and the pieces (cycles) they form, merged by exchanges.

A :class:`Job` holds what every repair works on: the links (int8
``(cells, 2)``, the representation of :mod:`ktsolve._grid_kernels`), the
board's cells (``alive``, uint8), its size, the call's clock and the window
solver.  A :class:`Pieces` is what the links form: every square's piece
(``labels``), union-find over the pieces (``parent``), the largest piece
and the count.  :func:`merge_pieces` (step 4) labels the links and joins
pieces by four- and six-square exchanges; the repairs
(:mod:`ktsolve.heuristics.splice.repairs`) start from what it leaves and
call it again after each change of the links.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...driver import Deadline
from ...factor.chunks import in_chunks
from . import _merge_kernels as mk

__all__ = ["Job", "Pieces", "merge_pieces", "label", "flat_roots", "outside", "piece_boxes", "piece_cells",
           "MERGE_PASSES", "TRIPLE_WALK"]

#: Passes of four-square exchanges before the pieces left are given up.
MERGE_PASSES = 16
#: Squares a six-square exchange may walk along a cycle to learn the order of two of its links.  Most
#: walks that fail run to the end, and the reroutes join what the exchanges leave: on 4000x4000 with 5 %
#: holes 250 steps gave merge and reroutes 5.4 s against 9.1 s with 4000, at 10^8 cells with 1 % 9.9 s
#: against 13.5 s (pieces left to the reroutes: 828 against 526, and 105 against 45).
TRIPLE_WALK = 250


@dataclass(frozen=True)
class Job:
    """What every repair works on: the links (changed in place), the board's cells, the clock, the window solver.

    ``method`` solves the windows (:data:`~.colony_window.WINDOW_METHODS`);
    ``seed`` is the call's seed (None for ``"cpsat"``, which draws nothing).
    """

    links: np.ndarray
    alive: np.ndarray
    rows: int
    cols: int
    deadline: Deadline
    method: str = "cpsat"
    seed: int | None = None
    #: What the attempt has left so far (:func:`~.pipeline.run_steps`'s ``said``): the repairs keep its
    #: ``pieces`` current, so an attempt stopped among them says how many were left.
    said: dict | None = None

    def merge(self) -> "Pieces":
        """The links labelled and merged by exchanges (:func:`merge_pieces`)."""
        return merge_pieces(self.links, self.alive, self.rows, self.cols, deadline=self.deadline)


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


def merge_pieces(links, alive, rows: int, cols: int, *, deadline: Deadline, passes: int = MERGE_PASSES) -> Pieces:
    """Step 4: exchanges until one piece is left (or a pass of four- and six-square exchanges joins nothing).

    The labels come from one walk of the links; the exchanges then keep
    union-find over them, so no walk is repeated.
    """
    labels = np.empty(rows * cols, dtype=np.int32)
    count = label(links, alive, rows, cols, labels, deadline)
    stats = {"cycles": count, "merge_passes": 0, "triple_passes": 0}
    pieces = count
    parent = np.arange(max(count, 1), dtype=np.int32)
    sizes = np.zeros(count, dtype=np.int64)
    in_chunks(rows * cols, lambda a, b: mk.count_sizes(labels, a, b, sizes), deadline, "labelling the cycles",
              first=1 << 20)
    skip = int(np.argmax(sizes)) if count else 0
    if count > 1:
        # only the squares outside the largest piece are scanned: an exchange with it is seen from the other side
        cells = np.empty(int(sizes.sum() - sizes[skip]), dtype=np.int64)
        at = [0]

        def apart(a: int, b: int) -> int:
            at[0] = mk.apart_range(labels, skip, a, b, cells, at[0])
            return 0

        in_chunks(rows * cols, apart, deadline, "merging the cycles", first=1 << 20)
        for _ in range(passes):
            left = _exchanges(mk.merge_pass, cells, links, alive, rows, cols, labels, parent, skip, pieces,
                              deadline=deadline)
            stats["merge_passes"] += 1
            cells = cells[:mk.keep_outside(cells, labels, parent, skip)]  # the next passes skip what joined
            if left == pieces and left > 1:
                # no four-square exchange left: six-square ones, then four-square ones again
                left = _exchanges(mk.triple_pass, cells, links, alive, rows, cols, labels, parent, skip, pieces,
                                  TRIPLE_WALK, deadline=deadline)
                stats["triple_passes"] += 1
                cells = cells[:mk.keep_outside(cells, labels, parent, skip)]
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


def label(links, alive, rows: int, cols: int, labels, deadline: Deadline) -> int:
    """:func:`~._merge_kernels.label_components` in parts of the cells, ``deadline`` checked between them;
    returns the number of components."""
    n = rows * cols
    in_chunks(n, lambda a, b: mk.label_scan(links, alive, rows, cols, labels, a, b), deadline,
              "labelling the cycles", first=1 << 20)
    count = [0]

    def number(a: int, b: int) -> int:
        count[0] = mk.label_number(labels, a, b, count[0])
        return 0

    in_chunks(n, number, deadline, "labelling the cycles", first=1 << 20)
    return int(count[0])


def _exchanges(kernel, cells, *args, deadline: Deadline) -> int:
    """One pass of ``kernel`` (:func:`~._merge_kernels.merge_pass` or ``triple_pass``) over ``cells`` in
    parts, ``deadline`` checked between them; returns the pieces left.  ``args`` are the kernel's after
    ``cells``, the count of pieces at index 7 (threaded from part to part)."""
    args = list(args)

    def part(a: int, b: int) -> int:
        args[7] = int(kernel(cells[a:b], *args))
        return 0

    in_chunks(cells.size, part, deadline, "merging the cycles", first=1 << 12)
    return args[7]


def flat_roots(parent: np.ndarray) -> np.ndarray:
    """Every label's union-find root (a new array; ``parent`` itself is left as it is)."""
    roots = parent.copy()
    while True:
        up = roots[roots]
        if np.array_equal(up, roots):
            return roots
        roots = up


def outside(state: Pieces, deadline: Deadline):
    """``(cells, roots)``: the squares of the pieces other than the largest, in order, and their roots.

    Without the list the exchanges left (``state.among``), the board is
    scanned, in parts with ``deadline`` checked between them.
    """
    if state.among is not None:
        return mk.outside_among(state.among, state.labels, state.parent, state.giant)
    cells, roots = [], []

    def scan(a: int, b: int) -> int:
        c, r = mk.outside_range(state.labels, state.parent, state.giant, a, b)
        cells.append(c)
        roots.append(r)
        return 0

    in_chunks(state.labels.size, scan, deadline, "finding the pieces left", first=1 << 20)
    return np.concatenate(cells), np.concatenate(roots)


def piece_cells(state: Pieces, deadline: Deadline):
    """The squares of every piece but the largest, piece by piece: ``(cells, starts, sizes)``."""
    cells, roots = outside(state, deadline)
    if cells.size == 0:
        return cells, cells, cells
    order = np.argsort(roots, kind="stable")
    cells, roots = cells[order], roots[order]
    starts = np.flatnonzero(np.r_[True, roots[1:] != roots[:-1]])
    return cells, starts, np.diff(np.r_[starts, cells.size])


def piece_boxes(state: Pieces, cols: int, deadline: Deadline):
    """Bounding boxes ``(top, bottom, left, right)`` (inclusive) of the pieces other than the largest."""
    cells, starts, _ = piece_cells(state, deadline)
    if cells.size == 0:
        return []
    r, c = cells // cols, cells % cols
    return list(zip(np.minimum.reduceat(r, starts).tolist(), np.maximum.reduceat(r, starts).tolist(),
                    np.minimum.reduceat(c, starts).tolist(), np.maximum.reduceat(c, starts).tolist()))
