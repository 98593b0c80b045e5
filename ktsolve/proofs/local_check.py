"""Re-checking a local proof's witness by counting moves around the squares it names.

:func:`check_local_proof` rebuilds the question from the board and the
tour's specification (never from the evidence) and recounts, with plain
sets and the eight knight's moves, what a ``"degree"`` or ``"cut square"``
proof of :mod:`.local` claims.  Its cost depends on the squares the
evidence names, not on the board, so a proof about a board of 10^8 squares
is re-checked at once.  It shares no code with the finder.  It returns None
for a valid witness, or one sentence that says why it is not.

Examples
--------
>>> from ktsolve import Board, TourSpec
>>> from ktsolve.proofs.local import local_proof
>>> b, spec = Board(3, 3), TourSpec()
>>> check_local_proof(b, spec, local_proof(b, spec)) is None
True
"""

from __future__ import annotations

from ..board import Board
from ..tour import TourSpec
from ._grid_check import square_moves

__all__ = ["check_local_proof", "check_degree", "check_cut"]



def _square(board: Board, name) -> tuple[int, int]:
    """``(row, col)`` of a named square; ValueError for a name that is not a square of the board."""
    r, c = board.parse_square(str(name))
    return r, c


def _ends(board: Board, spec: TourSpec) -> list[tuple[int, int]]:
    return list(dict.fromkeys(x for x in (spec.start, spec.end) if x is not None))


def check_degree(board: Board, spec: TourSpec, ev) -> str | None:
    """A square without moves, or with one where no end of the tour may lie (counted around the squares named)."""
    if "square" in ev:
        sq = _square(board, ev["square"])
        k = len(square_moves(board, sq))
        if k == 0 and board.n_squares > 1:
            return None
        if k == 1 and spec.closed:
            return None
        return f"{ev['square']} has {k} knight's moves to squares, which does not refute a tour"
    if spec.closed:
        return "the evidence names no square"
    ones = [_square(board, x) for x in ev["one_neighbour"]]
    if len(set(ones)) != len(ones):
        return "a square is named twice"
    for name, sq in zip(ev["one_neighbour"], ones):
        if len(square_moves(board, sq)) != 1:
            return f"{name} does not have exactly one knight's move to a square"
    ends = _ends(board, spec)
    loose = [sq for sq in ones if sq not in ends]
    if len(loose) <= 2 - len(ends):
        return f"{len(loose)} squares with one move outside the fixed ends leave room for the tour's free ends"
    return None


def _pieces(board: Board, part: set) -> int:
    """Connected groups of ``part`` under knight's moves (plain breadth-first search)."""
    left, groups = set(part), 0
    while left:
        groups += 1
        todo = [left.pop()]
        while todo:
            for w in square_moves(board, todo.pop()):
                if w in left:
                    left.remove(w)
                    todo.append(w)
    return groups


def check_cut(board: Board, spec: TourSpec, ev) -> str | None:
    """The squares cut off by one square, listed whole (``part``), recounted by their moves."""
    if "part" not in ev:
        return "the evidence does not list the squares cut off, so it cannot be re-checked by counting"
    v = _square(board, ev["square"])
    part = [_square(board, x) for x in ev["part"]]
    inside = set(part)
    if not part or len(inside) != len(part) or v in inside:
        return "the squares cut off must be distinct, at least one, and not the cut square itself"
    if board.n_squares <= len(inside) + 1:
        return "no square is left outside the part and the cut square"
    for sq in part:
        for w in square_moves(board, sq):
            if w != v and w not in inside:
                name = board.name(*w)
                return f"{board.name(*sq)} in the part has a knight's move to {name}, outside it"
    pieces = _pieces(board, inside) + 1  # and the rest of the board, which is not empty
    if spec.closed:
        need = 2
    else:
        need = 2 if v in _ends(board, spec) else 3
    if pieces < need:
        return f"taking out {ev['square']} leaves {pieces} parts, which does not refute the tour asked"
    return None


def check_local_proof(board: Board, spec: TourSpec, proof) -> str | None:
    """Re-check a ``"degree"`` or ``"cut square"`` proof of :func:`~ktsolve.proofs.local.local_proof`.

    Returns None when the witness is valid, else the reason it is not (a
    proof of another argument is not re-checked here: None).
    """
    argument = getattr(proof, "argument", "")
    evidence = getattr(proof, "evidence", None) or {}
    checker = {"degree": check_degree, "cut square": check_cut}.get(argument)
    if checker is None:
        return None
    try:
        return checker(board, spec, evidence)
    except (ValueError, KeyError, TypeError) as exc:
        return f"the {argument} evidence is malformed: {exc}"
