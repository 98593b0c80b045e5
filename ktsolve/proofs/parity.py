"""The size and colour-parity arguments, from the board alone.

Neither needs the knight graph: the number of squares, the colour of each
square (``(row + col) % 2``) and the fixed ends settle them.  So the quick
proofs on any board and divide and conquer on huge full boards (which never
builds the graph) give the same argument with the same words.  Each function
takes a :class:`~ktsolve.board.Board` or anything with a ``board`` attribute
(a :class:`~ktsolve.graph.KnightGraph`).

Examples
--------
>>> from ktsolve import Board, TourSpec
>>> colour_proof(Board(5, 5), TourSpec(closed=True)).argument
'colour parity'
>>> size_proof(Board(1, 2), TourSpec(closed=True))
'the board has 2 squares; a closed tour needs at least 3'
>>> colour_proof(Board(8, 8), TourSpec(start=(7, 0), end=(0, 7)))
'the board has 32 light and 32 dark squares; an open tour then starts and ends on squares of opposite colours, but a1 and h8 have the same colour (both dark)'
"""

from __future__ import annotations

from ..board import Board
from ..result import Proof
from ..tour import TourSpec

__all__ = ["size_proof", "colour_proof"]


def _board(where) -> Board:
    return where if isinstance(where, Board) else where.board


def size_proof(where, spec: TourSpec) -> Proof | None:
    """Closed tours need three squares; an open tour of two or more squares has distinct ends."""
    board = _board(where)
    n = board.n_squares
    if spec.closed and n < 3:
        return Proof(
            f"the board has {n} square{'s' if n != 1 else ''}; a closed tour needs at least 3",
            argument="size",
            evidence={"squares": n},
        )
    s, e = spec.start, spec.end
    if not spec.closed and n > 1 and s is not None and s == e:
        return Proof(
            f"an open tour of {n} squares cannot start and end on the same square {board.name(*s)}",
            argument="size",
            evidence={"squares": n, "start": board.name(*s)},
        )
    return None


def colour_proof(where, spec: TourSpec) -> Proof | None:
    """Colour parity: a knight alternates colours (valid on any board with holes).

    A closed tour needs equally many squares of each colour; an open tour
    needs the counts to differ by at most one, both its ends on the majority
    colour when they differ, and ends of opposite colours when they are
    equal.
    """
    board = _board(where)
    even, odd = board.colour_counts()
    if even + odd == 1:
        return None
    corner = board.colour_name(0, 0)
    # Parity 0 squares have the colour of the top-left corner.
    label = {0: corner, 1: "light" if corner == "dark" else "dark"}
    counts_text = f"{even} {label[0]} and {odd} {label[1]} squares"
    ev = {label[0]: even, label[1]: odd}
    if spec.closed:
        if even != odd:
            return Proof(
                f"the board has {counts_text}; a knight alternates colours, so a closed "
                f"tour needs equally many of each",
                argument="colour parity",
                evidence=ev,
            )
        return None
    if abs(even - odd) > 1:
        return Proof(
            f"the board has {counts_text}; a knight alternates colours, so an open "
            f"tour needs the counts to differ by at most one",
            argument="colour parity",
            evidence=ev,
        )
    s, e = spec.start, spec.end

    def parity(sq) -> int:
        return (sq[0] + sq[1]) % 2

    if even != odd:
        major = 0 if even > odd else 1
        for role, sq in (("start", s), ("end", e)):
            if sq is not None and parity(sq) != major:
                return Proof(
                    f"the board has {counts_text}; an open tour then starts and ends on "
                    f"{label[major]} squares, but the {role} {board.name(*sq)} is {label[1 - major]}",
                    argument="colour parity",
                    evidence={**ev, role: board.name(*sq)},
                )
    elif s is not None and e is not None and parity(s) == parity(e):
        return Proof(
            f"the board has {counts_text}; an open tour then starts and ends on squares "
            f"of opposite colours, but {board.name(*s)} and {board.name(*e)} have the same colour "
            f"(both {label[parity(s)]})",
            argument="colour parity",
            evidence={**ev, "start": board.name(*s), "end": board.name(*e)},
        )
    return None
