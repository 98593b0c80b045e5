"""Re-checking a local proof's witness by counting moves around the squares it names.

:func:`check_local_proof` rebuilds the question from the board and the
tour's specification (never from the evidence) and recounts, with plain
sets and the eight knight's moves, what a ``"degree"``, ``"cut square"``
or ``"forced moves"`` proof of :mod:`.local` claims.  Its cost depends on
the squares the evidence names, not on the board, so a proof about a
board of 10^8 squares is re-checked at once.  It shares no code with the
finder.  It returns None for a valid witness, or one sentence that says
why it is not.

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

__all__ = ["check_local_proof", "check_degree", "check_cut", "check_forcing"]



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


def check_forcing(board: Board, spec: TourSpec, ev) -> str | None:
    """Degree-2 forcing against a closed tour, replayed on the squares its steps name.

    Each ``["forced", square]`` step needs the square to have exactly two
    moves left (its other moves deleted by earlier steps), and forces both;
    each ``["drop", square]`` step needs two forced moves at the square, and
    deletes its others.  The conclusion must then hold: a square with fewer
    than two moves left, a square with three forced moves, or the squares of
    a cycle whose every move is forced and which misses squares of the board.
    """
    if not spec.closed:
        return "forcing refutes closed tours only: an open tour's ends use one move"
    steps, conclusion = ev["steps"], ev["conclusion"]
    if not isinstance(steps, list) or not isinstance(conclusion, dict):
        return "the evidence needs a list of steps and a conclusion"
    deleted: set = set()
    forced: set = set()

    def left(sq):
        return [w for w in square_moves(board, sq) if frozenset((sq, w)) not in deleted]

    def forced_at(sq):
        return [w for w in left(sq) if frozenset((sq, w)) in forced]

    for i, step in enumerate(steps):
        if not isinstance(step, list) or len(step) != 2 or step[0] not in ("forced", "drop"):
            return f"step {i + 1} is not [\"forced\" or \"drop\", square]"
        sq = _square(board, step[1])
        moves = left(sq)
        if step[0] == "forced":
            if len(moves) != 2:
                return f"step {i + 1}: {step[1]} has {len(moves)} moves left, not two"
            forced.update(frozenset((sq, w)) for w in moves)
        else:
            mine = forced_at(sq)
            if len(mine) != 2:
                return f"step {i + 1}: {step[1]} has {len(mine)} forced moves, not two"
            deleted.update(frozenset((sq, w)) for w in moves if w not in mine)
    reason = conclusion.get("reason")
    if reason == "degree":
        sq = _square(board, conclusion["square"])
        k = len(left(sq))
        return None if k < 2 else f"{conclusion['square']} has {k} moves left"
    if reason == "three forced":
        sq = _square(board, conclusion["square"])
        k = len(forced_at(sq))
        return None if k > 2 else f"{conclusion['square']} has {k} forced moves"
    if reason != "short cycle":
        return f"unknown conclusion {reason!r}"
    ring = [_square(board, x) for x in conclusion["squares"]]
    if len(ring) < 3 or len(set(ring)) != len(ring):
        return "the cycle needs at least three distinct squares"
    if len(ring) >= board.n_squares:
        return "the cycle passes every square: it is a tour, not a contradiction"
    for a, b in zip(ring, ring[1:] + ring[:1]):
        if frozenset((a, b)) not in forced:
            return f"{board.name(*a)} - {board.name(*b)} is not a forced move"
    return None


def check_local_proof(board: Board, spec: TourSpec, proof) -> str | None:
    """Re-check a ``"degree"``, ``"cut square"`` or ``"forced moves"`` proof of
    :func:`~ktsolve.proofs.local.local_proof`.

    Returns None when the witness is valid, else the reason it is not (a
    proof of another argument is not re-checked here: None).
    """
    argument = getattr(proof, "argument", "")
    evidence = getattr(proof, "evidence", None) or {}
    checker = {"degree": check_degree, "cut square": check_cut, "forced moves": check_forcing}.get(argument)
    if checker is None:
        return None
    try:
        return checker(board, spec, evidence)
    except (ValueError, KeyError, TypeError) as exc:
        return f"the {argument} evidence is malformed: {exc}"
