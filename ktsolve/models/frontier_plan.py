"""The plan of a frontier count: the cell order, the window slots, and what each cell's step does.

The board is turned so that it has no more rows than columns (``R``, the
shorter side), and its squares are taken column by column, top to bottom:
cell ``c * R + r``.  A knight's move joins cells at most ``2R + 1`` apart
in this order, so every cell still waiting for a neighbour when cell ``k``
is taken lies in ``k - 2R - 1 .. k``: ``W = 2R + 2`` slots (cell ``u`` in
slot ``u mod W``) hold the frontier.  Each step's row of ``info`` (columns
named in :mod:`ktsolve.models._frontier_kernels`) lists the cell's slot,
its earlier neighbours, the cells that leave after it (their last
neighbour is this cell), the cells to prune with the neighbours they have
left, whether the board may end here, and, in ``fr_*``, the whole
frontier after the step.

Examples
--------
>>> import numpy as np
>>> plan = make_plan(np.ones((3, 4), dtype=bool))
>>> plan.rows, plan.window, plan.n_steps
(3, 8, 12)
>>> plan.info[:, 2].tolist()                  # earlier neighbours of each cell, column by column
[0, 0, 0, 1, 0, 1, 2, 2, 2, 2, 2, 2]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _frontier_kernels as fk

__all__ = ["MAX_SHORT_SIDE", "Plan", "cropped", "make_plan", "turned"]

#: The longest shorter side: 2R + 2 slots of 5 bits must fit two 60-bit halves of a state.
MAX_SHORT_SIDE = 11

_MOVES = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))


@dataclass(frozen=True)
class Plan:
    """What the kernels need to count the tours of one turned mask (see the module notes)."""

    rows: int
    cols: int
    window: int
    cells: np.ndarray  # int64: the squares' cell numbers in order
    info: np.ndarray  # int32 (steps, INFO_COLS)
    fr_slot: np.ndarray  # int32 (steps, window)
    fr_rem: np.ndarray
    fr_fix: np.ndarray
    slot_sign: np.ndarray  # int32 (steps, 24): the colour of the frontier cell in each slot after the step
    degrees: np.ndarray  # int64: each square's neighbours, in the order of ``cells``
    colours: bool  # the colour count prunes (only when the board ends at its last square alone)

    @property
    def n_steps(self) -> int:
        return int(self.cells.size)


def cropped(mask: np.ndarray) -> tuple[np.ndarray, int, int]:
    """The mask cut to the rows and columns that hold a square, and the first row and column kept.

    Examples
    --------
    >>> m = np.zeros((4, 5), dtype=bool); m[1:3, 2] = True
    >>> c, r0, c0 = cropped(m)
    >>> c.shape, r0, c0
    ((2, 1), 1, 2)
    """
    mask = np.asarray(mask, dtype=bool)
    rows = np.flatnonzero(mask.any(axis=1))
    cols = np.flatnonzero(mask.any(axis=0))
    r0, c0 = int(rows[0]), int(cols[0])
    return mask[r0:int(rows[-1]) + 1, c0:int(cols[-1]) + 1], r0, c0


def turned(mask: np.ndarray) -> tuple[np.ndarray, bool]:
    """The mask with no more rows than columns, and whether it was transposed.

    Examples
    --------
    >>> turned(np.ones((5, 3), dtype=bool))[0].shape, turned(np.ones((3, 5), dtype=bool))[1]
    ((3, 5), False)
    """
    mask = np.asarray(mask, dtype=bool)
    if mask.shape[0] > mask.shape[1]:
        return np.ascontiguousarray(mask.T), True
    return mask, False


def make_plan(mask: np.ndarray, fixed=(), ends=None) -> Plan:
    """The plan of a mask (true on squares) with no more rows than columns.

    Parameters
    ----------
    mask : 2-D bool array
        Rows at most columns, and at most :data:`MAX_SHORT_SIDE` rows.
    fixed : cell numbers (``c * rows + r``) of fixed ends.
    ends : cell numbers after which the board may end (its prefixes
        counted); by default the last square only.
    """
    rows, cols = mask.shape
    if rows > cols or rows > MAX_SHORT_SIDE:
        raise ValueError(f"a plan needs rows <= cols and rows <= {MAX_SHORT_SIDE}, not {rows}x{cols}")
    window = 2 * rows + 2
    flat = mask.T.ravel()  # cell c * rows + r
    cells = np.flatnonzero(flat).astype(np.int64)
    nbrs: dict[int, list[int]] = {}
    for u in cells.tolist():
        c, r = divmod(u, rows)
        near = []
        for dr, dc in _MOVES:
            rr, cc = r + dr, c + dc
            if 0 <= rr < rows and 0 <= cc < cols and mask[rr, cc]:
                near.append(cc * rows + rr)
        nbrs[u] = sorted(near)
    last = {u: max([u, *near]) for u, near in nbrs.items()}
    fixed = set(int(f) for f in fixed)
    colours = ends is None or set(int(e) for e in ends) == {int(cells[-1])}
    ends = {int(cells[-1])} if ends is None else set(int(e) for e in ends)

    def sign(u):
        c, r = divmod(u, rows)
        return 1 if (r + c) % 2 == 0 else -1

    to_come = 2 * sum(sign(u) for u in cells.tolist())  # 2 (U+ - U-) before the first step
    steps = cells.size
    info = np.zeros((steps, fk.INFO_COLS), dtype=np.int32)
    fr_slot = np.zeros((steps, window), dtype=np.int32)
    fr_rem = np.zeros((steps, window), dtype=np.int32)
    fr_fix = np.zeros((steps, window), dtype=np.int32)
    slot_sign = np.zeros((steps, 24), dtype=np.int32)
    frontier: list[int] = []
    for s, k in enumerate(cells.tolist()):
        row = info[s]
        row[fk.C_SLOT] = k % window
        row[fk.C_FIXED] = k in fixed
        back = [u for u in nbrs[k] if u < k]
        row[fk.C_NBACK] = len(back)
        for j, u in enumerate(back):
            row[fk.C_BACK + j] = u % window
            row[fk.C_BACKFIX + j] = u in fixed
        leaving = sorted(u for u in [k, *back] if last[u] == k)
        row[fk.C_NCLOSE] = len(leaving)
        for j, u in enumerate(leaving):
            row[fk.C_CLOSE + j] = u % window
            row[fk.C_CLOSEFIX + j] = u in fixed
        pruned = [u for u in [k, *back] if last[u] > k]
        row[fk.C_NPRUNE] = len(pruned)
        for j, u in enumerate(pruned):
            row[fk.C_PRUNE + j] = u % window
            row[fk.C_PRUNEREM + j] = sum(1 for v in nbrs[u] if v > k)
            row[fk.C_PRUNEFIX + j] = u in fixed
        row[fk.C_MAYEND] = k in ends
        frontier = [u for u in [*frontier, k] if last[u] > k]
        row[fk.C_NFR] = len(frontier)
        for j, u in enumerate(frontier):
            fr_slot[s, j] = u % window
            fr_rem[s, j] = sum(1 for v in nbrs[u] if v > k)
            fr_fix[s, j] = u in fixed
            slot_sign[s, u % window] = sign(u)
        to_come -= 2 * sign(k)
        row[fk.C_BASEIMB] = to_come - sum(sign(u) for u in fixed if last[u] > k)
    degrees = np.array([len(nbrs[u]) for u in cells.tolist()], dtype=np.int64)
    return Plan(rows, cols, window, cells, info, fr_slot, fr_rem, fr_fix, slot_sign, degrees, colours)
