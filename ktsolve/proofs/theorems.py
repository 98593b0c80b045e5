"""The existence theorems of full boards, and proofs that cite them without building the graph.

A full ``m x n`` board has a closed tour unless ``min(m, n)`` is 1, 2 or 4,
or the board is ``3 x 4``, ``3 x 6`` or ``3 x 8``, or both sides are odd
(Schwenk 1991); it has an open tour unless ``min(m, n)`` is 1 or 2 (bar the
single square), or it is ``3 x 3``, ``3 x 5``, ``3 x 6`` or ``4 x 4`` (Cull &
De Curtins 1978; Conrad et al. 1994).  :func:`full_board_proof` turns a
failed theorem, the size and colour-parity arguments of :mod:`.parity`,
the closing move and the outer/inner rows of ``4 x n`` boards into a
readable proof, in constant time, which divide and conquer returns for huge
boards.

References
----------
A. J. Schwenk, "Which rectangular chessboards have a knight's tour?",
Mathematics Magazine 64(5):325-332, 1991.
P. Cull and J. De Curtins, "Knight's tour revisited", Fibonacci Quarterly
16(3):276-285, 1978.
A. Conrad, T. Hindrichs, H. Morsy and I. Wegener, "Solution of the knight's
Hamiltonian path problem on chessboards", Discrete Applied Mathematics
50(2):125-134, 1994.
"""

from __future__ import annotations

from ..board import Board
from ..errors import UnsupportedError
from ..result import Proof
from ..tour import TourSpec
from .parity import colour_proof, size_proof

__all__ = ["has_closed_tour", "has_open_tour", "full_board_proof"]


def has_closed_tour(rows: int, cols: int) -> bool:
    """Schwenk (1991): a closed tour of a full ``rows x cols`` board exists.

    Examples
    --------
    >>> [has_closed_tour(*s) for s in ((8, 8), (5, 6), (3, 10), (3, 8), (4, 9), (7, 7))]
    [True, True, True, False, False, False]
    """
    a, b = sorted((rows, cols))
    return (a * b) % 2 == 0 and a not in (1, 2, 4) and not (a == 3 and b in (4, 6, 8))


def has_open_tour(rows: int, cols: int) -> bool:
    """Cull & De Curtins (1978), Conrad et al. (1994): an open tour of a full board exists.

    Examples
    --------
    >>> [has_open_tour(*s) for s in ((1, 1), (3, 4), (3, 6), (4, 4), (4, 5), (5, 5), (2, 9))]
    [True, True, False, False, True, True, False]
    """
    a, b = sorted((rows, cols))
    return (a == b == 1) or (a == 3 and (b == 4 or b >= 7)) or (a == 4 and b >= 5) or a >= 5


_CLOSED_THM = "Schwenk's theorem (1991)"
_OPEN_THM = "the theorem of Cull & De Curtins (1978) and Conrad et al. (1994)"


def full_board_proof(board: Board, spec: TourSpec) -> Proof | None:
    """Why no tour as asked exists on the full ``board``; None when the theorems allow one.

    Covers every full board: the existence theorems decide open and closed
    tours, and colour parity (plus the outer/inner rows of 4-row boards)
    decides fixed ends where it can.  None does not promise a tour from
    every start; it says that no argument here rules it out.
    """
    if not board.is_full:
        raise UnsupportedError("full_board_proof handles boards without holes only")
    m, n = board.rows, board.cols
    total = m * n
    a, b = sorted((m, n))
    s, t = spec.start, spec.end
    nm = board.name
    proof = size_proof(board, spec)
    if proof is not None:
        return proof
    if total == 1:
        return None
    if a == 1:
        return Proof(
            f"{nm(0, 0)} has no knight's move to another square (a knight's move needs two rows "
            f"and two columns), so no tour can visit it",
            argument="degree",
            evidence={"square": nm(0, 0), "neighbours": 0},
        )
    if a == 2:
        # Every move changes the short side's coordinate by 1 and the long one by 2.
        other = (0, 1) if m == 2 else (1, 0)
        along = "column" if m == 2 else "row"
        return Proof(
            f"on a board two squares wide every knight's move changes the {along} by two, so "
            f"squares in even and odd {along}s are never joined: no knight's path leads from "
            f"{nm(0, 0)} to {nm(*other)}",
            argument="connectivity",
            evidence={"squares": [nm(0, 0), nm(*other)], "reason": f"{along} parity"},
        )
    if a == b == 3:
        return Proof(
            f"{nm(1, 1)} (the centre) has no knight's move to another square, so no tour can visit it",
            argument="degree",
            evidence={"square": nm(1, 1), "neighbours": 0},
        )
    if spec.closed:
        proof = colour_proof(board, spec)
        if proof is not None:
            return proof
    if spec.closed and a == 4:
        return Proof(
            f"on a {m}x{n} board the {2 * b} squares of the two outer {'rows' if m == 4 else 'columns'} "
            f"have knight's moves only to the {2 * b} inner squares, so a closed tour alternates outer "
            f"and inner squares; it also alternates colours, so every outer square it visits would "
            f"have one colour, yet the outer squares have both colours (Posa's argument; "
            f"{_CLOSED_THM})",
            argument="outer and inner rows",
            evidence={"outer": 2 * b, "inner": 2 * b},
        )
    if spec.closed and a == 3 and b in (4, 6, 8):
        return Proof(
            f"{_CLOSED_THM}: a 3 x n board has a closed knight's tour only for even n >= 10, "
            f"and this board is {m}x{n}",
            argument="theorem",
            evidence={"theorem": "Schwenk 1991", "rows": m, "cols": n},
        )
    if not spec.closed and not has_open_tour(m, n):
        return Proof(
            f"{_OPEN_THM}: open tours exist on 3 x n boards only for n = 4 and n >= 7, and on "
            f"4 x n boards only for n >= 5; this board is {m}x{n}",
            argument="theorem",
            evidence={"theorem": "Conrad et al. 1994", "rows": m, "cols": n},
        )
    if spec.closed and s is not None and t is not None:
        if (abs(s[0] - t[0]), abs(s[1] - t[1])) not in ((1, 2), (2, 1)):
            return Proof(
                f"a closed tour that starts on {nm(*s)} and ends on {nm(*t)} must close with a "
                f"knight's move from {nm(*t)} back to {nm(*s)}, and there is none",
                argument="closing move",
                evidence={"start": nm(*s), "end": nm(*t)},
            )
    if not spec.closed:
        proof = colour_proof(board, spec)
        if proof is not None:
            return proof
        ends = [(role, sq) for role, sq in (("start", s), ("end", t)) if sq is not None]
        if a == 4:
            for role, sq in ends:
                k = sq[0] if m == 4 else sq[1]
                if k in (1, 2):
                    return Proof(
                        f"on a {m}x{n} board the knight's moves join the outer "
                        f"{'rows' if m == 4 else 'columns'} only to the inner ones, so an open tour "
                        f"alternates outer and inner squares except for one pair of inner squares in "
                        f"a row; one that began or ended on an inner square would alternate strictly, "
                        f"and all its outer squares would have one colour, yet they have both: every "
                        f"open tour starts and ends on an outer {'row' if m == 4 else 'column'}, and "
                        f"the {role} {nm(*sq)} is not on one",
                        argument="outer and inner rows",
                        evidence={role: nm(*sq)},
                    )
    return None
