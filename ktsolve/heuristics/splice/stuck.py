"""Pieces splice can never join: a piece that meets the rest of the board at no square, or at one square.

After the exchanges, a piece other than the largest is a set of squares
covered by cycles of the 2-factor.  Its *contacts* are its squares with a
knight's move to a square outside it.  Every join (an exchange, a reroute,
a rotation, a window) replaces links inside the piece by moves across its
border, so:

* a piece with no contact is a union of components of the board's knight
  graph: the board is disconnected and has no tour of any kind;
* a piece with one contact ``c`` hangs on ``c``: taking ``c`` out leaves the
  rest of the piece apart from the largest piece, so ``c`` is a cut square
  and no closed tour exists (an open tour may still start inside).

Splice answers ``unknown`` at once on such a board instead of running its
repairs to the end of their budget; the plans' graph-free cut proofs
(``local cuts``) then prove it.  :func:`pocket_squares` lists the squares
with no contact at all, where an open question's path may need an end
(:mod:`.pocket`).  Only the pieces' squares are looked at (numpy on the
cells, no graph).
"""

from __future__ import annotations

import numpy as np

from ..._grid_kernels import MOVES
from ...driver import Deadline
from .pieces import Pieces, flat_roots, outside

__all__ = ["cut_off", "pocket_squares", "STUCK_CELLS_MAX", "POCKETS_KEPT"]

#: Squares :func:`pocket_squares` returns at most.
POCKETS_KEPT = 4
#: The check runs when the pieces other than the largest hold at most this many squares (its numpy arrays
#: grow with them; more pieces than that go to the repairs, which join most of them).
STUCK_CELLS_MAX = 2_000_000


def cut_off(state: Pieces, alive, rows: int, cols: int, *, closed: bool, deadline: Deadline) -> dict | None:
    """A piece of ``state`` (:class:`~.pieces.Pieces`) that no repair can join, or None.

    Returns ``{"squares": size, "contacts": k, "cell": c}``: the piece's size, its number of contacts
    (0, or 1 on a closed question) and the flat cell of its contact (-1 when none).
    """
    cells, roots = outside(state, deadline)
    if cells.size == 0 or cells.size > STUCK_CELLS_MAX:
        return None
    contact = _contacts(state, alive, rows, cols, cells, roots)
    piece_ids, where = np.unique(roots, return_inverse=True)
    contacts = np.bincount(where, weights=contact, minlength=piece_ids.size).astype(np.int64)
    sizes = np.bincount(where, minlength=piece_ids.size)
    limit = 1 if closed else 0
    stuck = np.flatnonzero(contacts <= limit)
    if stuck.size == 0:
        return None
    k = int(stuck[np.argmin(contacts[stuck])])
    mine = np.flatnonzero((where == k) & contact)
    return {"squares": int(sizes[k]), "contacts": int(contacts[k]),
            "cell": int(cells[mine[0]]) if mine.size else -1}


def pocket_squares(state: Pieces, alive, rows: int, cols: int, deadline: Deadline) -> list[tuple[int, int]]:
    """Squares ``(row, col)`` of the pieces other than the largest whose every move leads into their own piece.

    Such a square is a pocket's: no exchange, reroute or window opens its
    piece through it, and on an open question the piece may need an end of
    the path there (two squares sharing their only two moves hold an end of
    every open tour).  The first :data:`POCKETS_KEPT`, in cell order; none
    when the pieces hold more than :data:`STUCK_CELLS_MAX` squares.
    """
    cells, roots = outside(state, deadline)
    if cells.size == 0 or cells.size > STUCK_CELLS_MAX:
        return []
    pick = cells[~_contacts(state, alive, rows, cols, cells, roots)][:POCKETS_KEPT]
    return [(int(f) // cols, int(f) % cols) for f in pick]


def _contacts(state: Pieces, alive, rows: int, cols: int, cells, roots) -> np.ndarray:
    """Which of ``cells`` (squares of the pieces, their roots ``roots``) have a move to a square of another piece."""
    root_of = flat_roots(state.parent)
    r, c = cells // cols, cells % cols
    contact = np.zeros(cells.size, dtype=bool)
    for dr, dc in MOVES:
        rr, cc = r + dr, c + dc
        on = np.flatnonzero((rr >= 0) & (rr < rows) & (cc >= 0) & (cc < cols))
        to = rr[on] * cols + cc[on]
        live = alive[to] != 0
        on, to = on[live], to[live]
        contact[on] |= root_of[state.labels[to]] != roots[on]
    return contact
