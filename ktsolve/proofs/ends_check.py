"""Re-checking a tight-set proof (:mod:`.ends`) by counting the neighbours of the sets it names.

The question's ends are re-derived from the board's colour counts and the
tour asked (never from the evidence): an open tour has one end of each
colour where the colours balance, two of the larger colour where it has one
square more, less the ends the question fixes.  Then every set named must
be squares of the colour named, share no square with another, hold no fixed
end, have exactly as many neighbours as squares and leave squares beyond
itself and its neighbours; and the sets must outnumber the free ends of
their colour.  The cost is the squares named, not the board.  It shares no
code with the finder.

Examples
--------
>>> from ktsolve import Board, TourSpec
>>> b = Board.from_mask(__import__("numpy").zeros((5, 6), dtype=bool))
>>> check_tight_sets(b, TourSpec(), {"colour": "light", "sets": [["a1"]]})
'a1 is a dark square, and the evidence names light ones'
"""

from __future__ import annotations

from ..board import Board
from ..tour import TourSpec
from ._grid_check import square_moves

__all__ = ["check_tight_sets", "CHECK_SQUARES_MAX"]

#: Squares the sets may hold in all (the checker's work and memory grow with them).
CHECK_SQUARES_MAX = 1_000_000


def check_tight_sets(board: Board, spec: TourSpec, ev) -> str | None:
    """None when the sets named prove that no open tour exists; else one sentence saying why not."""
    if spec.closed:
        return "the tight-set proof is an argument about open tours"
    sets, colour = ev.get("sets"), ev.get("colour")
    if colour not in ("light", "dark"):
        return "the evidence must name the sets' colour, light or dark"
    if not isinstance(sets, list) or not all(isinstance(x, list) for x in sets):
        return "the sets must be lists of square names"
    if sum(len(x) for x in sets) > CHECK_SQUARES_MAX:
        return f"the sets name more than {CHECK_SQUARES_MAX:,} squares"
    # the ends of the question, from the board and the tour asked
    dark_parity = (board.rows - 1) % 2  # a1, row rows-1 and column 0, is dark
    even, odd = board.colour_counts()
    counts = {"dark": even if dark_parity == 0 else odd, "light": odd if dark_parity == 0 else even}
    other = "light" if colour == "dark" else "dark"
    if counts[colour] == counts[other]:
        ends = 1
    else:
        ends = 2 if counts[colour] == counts[other] + 1 else 0
    fixed = list(dict.fromkeys(tuple(int(v) for v in x) for x in (spec.start, spec.end) if x is not None))
    fixed_mine = [sq for sq in fixed if board.colour_name(*sq) == colour]
    free = ends - len(fixed_mine)
    seen: set[tuple[int, int]] = set()
    for names in sets:
        squares = []
        for name in names:
            try:
                r, c = board.parse_square(name)
            except (ValueError, TypeError):  # InvalidSquareError is a ValueError
                return f"{name!r} is not a square of the board"
            if board.colour_name(r, c) != colour:
                return f"{name} is a {board.colour_name(r, c)} square, and the evidence names {colour} ones"
            if (r, c) in seen:
                return f"{name} lies in two of the sets"
            if (r, c) in fixed_mine:
                return f"{name} is a fixed end of the tour, so its set needs no other end"
            seen.add((r, c))
            squares.append((r, c))
        if not squares:
            return "a set is empty"
        nbrs = {sq for rc in squares for sq in square_moves(board, rc)}
        if len(nbrs) != len(squares):
            return (f"the set of {board.name(*squares[0])} has {len(squares)} squares and {len(nbrs)} neighbours, "
                    "not as many")
        if 2 * len(squares) >= board.n_squares:
            return f"the set of {board.name(*squares[0])} and its neighbours leave no square beyond them"
    if len(sets) <= max(free, 0):
        return (f"{len(sets)} sets of {colour} squares do not outnumber the {free} {colour} "
                f"end{'s' if free != 1 else ''} an open tour may have")
    return None
