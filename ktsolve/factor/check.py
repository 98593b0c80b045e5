"""Re-checking a 2-factor witness, and the words of its proof: plain numpy, no kernel, no flow.

:func:`check_two_factor_witness` rebuilds the network from the question (not
from the witness) and counts: the moves the vertices of ``X`` need, the moves
``Y`` can take, and the moves from ``X`` to vertices outside ``Y``.  It uses
no search, so a bug in the kernels cannot hide in it.
"""

from __future__ import annotations

import numpy as np

from ..board import Board
from ..graph import KNIGHT_MOVES
from ..result import Proof
from ..tour import TourSpec
from .network import Network, network

__all__ = ["witness_counts", "check_two_factor_witness", "witness_proof", "check_links"]

#: Most squares of a set written out by name in a proof's text.
SHOW = 12


def _cell_colour(flat: np.ndarray, cols: int) -> np.ndarray:
    return ((flat // cols) + (flat % cols)) & 1


def witness_counts(board: Board, net: Network, colour: int, x_flat, y_flat, x_extra: bool,
                   y_extra: bool) -> tuple[int, int, int]:
    """``(b(X), b(Y), e(X, Q \\ Y))`` of sets of flat cells (squares of ``colour`` and of the other colour).

    Examples
    --------
    >>> b = Board(5, 4, holes=[(1, 3), (3, 0)])
    >>> net = network(b, closed=True)
    >>> witness_counts(b, net, 0, [0, 16, 18], [9], False, False)   # a5, a1, c1 and b3
    (6, 2, 3)
    """
    rows, cols = board.rows, board.cols
    x = np.asarray(x_flat, dtype=np.int64)
    y = np.asarray(y_flat, dtype=np.int64)
    mask = board.mask.reshape(-1)
    in_y = np.zeros(rows * cols, dtype=bool)
    in_y[y] = True
    cap1 = np.asarray(net.cap1, dtype=np.int64)

    def caps(cells):
        return 2 * cells.size - int(np.isin(cells, cap1).sum())

    other = 1 - colour
    xe, ye = net.extra(colour), net.extra(other)
    need = caps(x) + (xe.cap if x_extra and xe is not None else 0)
    supply_y = caps(y) + (ye.cap if y_extra and ye is not None else 0)
    rest = 0
    r, c = x // cols, x % cols
    ban = tuple(net.banned)
    for dr, dc in KNIGHT_MOVES.tolist():
        r2, c2 = r + dr, c + dc
        ok = (r2 >= 0) & (r2 < rows) & (c2 >= 0) & (c2 < cols)
        g = np.where(ok, r2 * cols + c2, 0)
        ok &= mask[g] & ~in_y[g]
        if ban:
            ok &= ~(((x == ban[0]) & (g == ban[1])) | ((x == ban[1]) & (g == ban[0])))
        rest += int(ok.sum())
    if ye is not None and not y_extra:
        rest += int((x != ye.exclude).sum())  # every square of X's colour is joined to it but one
    if x_extra and xe is not None:
        rr = np.arange(rows).reshape(-1, 1)
        cc = np.arange(cols).reshape(1, -1)
        joined = board.mask & (((rr + cc) & 1) == other)
        joined = joined.reshape(-1) & ~in_y
        if xe.exclude >= 0:
            joined[xe.exclude] = False
        rest += int(joined.sum())
    return need, supply_y, rest


def check_two_factor_evidence(board: Board, spec: TourSpec, evidence) -> str | None:
    """None when the evidence of a ``"2-factor"`` proof (:func:`witness_proof`) proves its point; else why not.

    The sets are read back (square names, or square numbers on large
    boards) and counted again by :mod:`.witness_check`, which shares no
    code with the finder; the counts the evidence states are not trusted.
    """
    from .witness_check import check_two_factor_evidence as check

    try:
        return check(board, spec, evidence)
    except (ValueError, KeyError, TypeError) as exc:
        return f"the 2-factor evidence is malformed: {exc}"


def check_two_factor_witness(board: Board, spec: TourSpec, witness) -> str | None:
    """None when ``witness`` proves that the question's network has no 2-factor; else why not.

    The network comes from ``board`` and ``spec``; the witness gives only
    the sets.  ``X`` must be squares of one colour (``witness.colour``),
    ``Y`` squares of the other, the extra vertices named only where the
    question has them, and the vertices of ``X`` must need more moves than
    ``Y`` and the moves leaving ``X`` elsewhere can give.  The counts the
    witness states are not trusted: they are counted again, by
    :mod:`.witness_check` (no code of the finder).

    Examples
    --------
    >>> from ktsolve.factor import two_factor
    >>> b = Board(5, 4, holes=[(1, 3), (3, 0)])
    >>> w = two_factor(b).witness
    >>> check_two_factor_witness(b, TourSpec(closed=True), w) is None
    True
    >>> from dataclasses import replace
    >>> check_two_factor_witness(b, TourSpec(closed=True), replace(w, Y=w.Y[:0]))
    'the witness is not one: X needs 6 moves, and Y and the moves leaving X elsewhere give 0 + 6'
    """
    from .witness_check import check_two_factor_sets

    try:
        colour = int(witness.colour)
        x = np.asarray(witness.X)
        y = np.asarray(witness.Y)
        if x.ndim != 1 or y.ndim != 1 or (x.size and not np.issubdtype(x.dtype, np.integer)) \
                or (y.size and not np.issubdtype(y.dtype, np.integer)):
            return "X and Y must be lists of square numbers"
        return check_two_factor_sets(board, spec, colour, x.astype(np.int64).tolist(), y.astype(np.int64).tolist(),
                                     bool(witness.x_extra), bool(witness.y_extra))
    except (ValueError, TypeError, AttributeError) as exc:
        return str(exc)


def _names(board: Board, squares) -> str:
    sq = np.asarray(squares)
    shown = board.names(board.coords_of(sq[:SHOW]))
    text = ", ".join(shown)
    if sq.size > SHOW:
        text += f" ... ({sq.size} squares)"
    return text


def witness_proof(board: Board, spec: TourSpec, witness) -> Proof:
    """The witness as a proof a person can follow (argument ``"2-factor"``).

    The evidence holds the colour, the sets (square names up to 10,000
    squares, square numbers as int32 arrays above) and the counts, which
    :func:`check_two_factor_witness` re-checks.

    Examples
    --------
    >>> from ktsolve.factor import two_factor
    >>> b = Board(5, 4, holes=[(1, 3), (3, 0)])
    >>> print(witness_proof(b, TourSpec(closed=True), two_factor(b).witness))  # doctest: +NORMALIZE_WHITESPACE
    A closed tour uses two moves at every square, so its moves cover the board with cycles (a 2-factor).
    Take the 3 dark squares X (a5, a1, c1): they need 6 moves. Each of them goes either to the light
    square Y (b3), which takes at most 2 moves (two each), or to another light square, and only 3 moves
    join X to those. 2 + 3 < 6, so no set of cycles covers the board, and no closed tour exists.
    """
    net = network(board, closed=spec.closed, start=spec.start, end=spec.end)
    corner = board.colour_name(0, 0)
    cname = {0: corner, 1: "light" if corner == "dark" else "dark"}
    col, oth = cname[witness.colour], cname[1 - witness.colour]
    what = spec.describe(board)
    nx, ny = len(witness.X), len(witness.Y)
    if spec.closed:
        head = "A closed tour uses two moves at every square, so its moves cover the board with cycles (a 2-factor)."
    else:
        head = (f"An {what} uses two moves at every square but its ends, which use one. "
                "Joined through extra squares, its moves cover the board with cycles (a 2-factor).")
    if net.explain:
        head += " " + net.explain
    xe, ye = net.extra(witness.colour), net.extra(1 - witness.colour)
    x_what = f"the {nx} {col} square{'s' if nx != 1 else ''} X" + (f" ({_names(board, witness.X)})" if nx else "")
    if witness.x_extra:
        x_what += " and the extra square of that colour"
    notes = ["two each"]
    y_flat = set(board.flat_of(np.asarray(witness.Y, dtype=np.int64)).tolist())
    if any(f in y_flat for f in net.cap1):
        notes.append("one at a fixed end, whose other move is forced")
    if witness.y_extra and ye is not None:
        notes.append(f"{ye.cap} at the extra square")
    named = f" ({_names(board, witness.Y)})" if ny else ""
    extra_y = " or the extra square of that colour" if witness.y_extra else ""
    if ny + witness.y_extra == 0:
        goes = f"Each of them goes to a {oth} square"
    elif ny == 1 and not witness.y_extra:
        goes = (f"Each of them goes either to the {oth} square Y{named}, which takes at most "
                f"{witness.supply_y} moves ({'; '.join(notes)}), or to another {oth} square")
    else:
        goes = (f"Each of them goes either to one of the {ny} {oth} squares Y{named}{extra_y}, which take "
                f"at most {witness.supply_y} moves ({'; '.join(notes)}), or to another {oth} square")
    if ye is not None and not witness.y_extra:
        goes += " (the extra square included)"
    x_flat = set(board.flat_of(np.asarray(witness.X, dtype=np.int64)).tolist())
    needs = ""
    if any(f in x_flat for f in net.cap1):
        needs = " (one at a fixed end, whose other move is forced)"
    elif witness.x_extra and xe is not None:
        needs = f" ({xe.cap} at the extra square)"
    body = (f"Take {x_what}: they need {witness.need} moves{needs}. {goes}, and only {witness.supply_rest} moves "
            f"join X to those. {witness.supply_y} + {witness.supply_rest} < {witness.need}, so no set of "
            f"cycles covers the board, and no {what} exists.")
    if xe is None and witness.x_extra:
        body += " (X names an extra square the question does not have.)"
    big = board.n_squares > 10_000

    def squares(a):
        a = np.asarray(a, dtype=np.int32)
        return a if big else board.names(board.coords_of(a))

    evidence = {
        "colour": int(witness.colour),
        "X": squares(witness.X),
        "Y": squares(witness.Y),
        "x_extra": bool(witness.x_extra),
        "y_extra": bool(witness.y_extra),
        "need": int(witness.need),
        "supply_y": int(witness.supply_y),
        "supply_rest": int(witness.supply_rest),
    }
    return Proof(head + " " + body, argument="2-factor", evidence=evidence)


def check_links(board: Board, links, *, closed: bool = True, start=None, end=None) -> str | None:
    """None when ``links`` is a complete 2-factor of the question; else what is wrong.

    Read from the question itself: both slots of every square filled, holes
    empty, every move mutual and onto a square, no link twice; a closed
    tour has no :data:`~ktsolve.factor.END` link and, with a fixed start
    and end a move apart, uses that move; an open tour has exactly two
    ``END`` links (on the larger colour when the colours differ, one on
    each colour when they are equal), at the fixed ends when they are fixed.

    Examples
    --------
    >>> from ktsolve.factor import two_factor
    >>> b = Board(6, 6)
    >>> check_links(b, two_factor(b).links) is None
    True
    >>> check_links(b, two_factor(b).links[:, :, :1])
    'links must have shape (6, 6, 2)'
    """
    rows, cols = board.rows, board.cols
    links = np.asarray(links)
    if links.shape != (rows, cols, 2):
        return f"links must have shape {(rows, cols, 2)}"
    mask = board.mask
    if (links[~mask] != -1).any():
        return "a hole has a link"
    sq = links[mask]
    if ((sq < 0) | (sq > 8)).any():
        return "a square has an empty slot or a bad code"
    if board.n_squares == 1 and not closed:
        return None if (sq == 8).all() else "the one square is not both ends"
    if (sq[:, 0] == sq[:, 1]).any():
        return "a square has the same link twice"
    for j, (dr, dc) in enumerate(KNIGHT_MOVES.tolist()):
        r, c = np.nonzero(((links == j).any(axis=2)) & mask)
        r2, c2 = r + dr, c + dc
        if not ((r2 >= 0) & (r2 < rows) & (c2 >= 0) & (c2 < cols)).all():
            return "a move leaves the board"
        if not mask[r2, c2].all():
            return "a move lands on a hole"
        if not (links[r2, c2] == (j ^ 4)).any(axis=1).all():
            return "a move is not linked back"
    ends = (links == 8).any(axis=2) & mask
    fixed = [board.parse_square(x) for x in (start, end) if x is not None]
    if closed:
        if ends.any():
            return "a closed tour has no ends"
        if len(fixed) == 2 and fixed[0] != fixed[1]:
            (ra, ca), (rb, cb) = fixed
            j = [k for k, (dr, dc) in enumerate(KNIGHT_MOVES.tolist()) if (ra + dr, ca + dc) == (rb, cb)]
            if j and j[0] not in links[ra, ca].tolist():
                return "the closing move from the end to the start is not used"
        return None
    colour = (np.arange(rows).reshape(-1, 1) + np.arange(cols).reshape(1, -1)) & 1
    at = [int((ends & (colour == k)).sum()) for k in (0, 1)]
    even, odd = board.colour_counts()
    if even != odd:
        major = 0 if even > odd else 1
        if at[major] != 2 or at[1 - major]:
            return "an open tour here has two ends on the larger colour"
    elif at != [1, 1]:
        return "an open tour here has one end on each colour"
    for r, c in fixed:
        ok = (even == odd and len({(a + b) & 1 for a, b in fixed}) == len(fixed)) or \
             (even != odd and (r + c) & 1 == (0 if even > odd else 1))
        if ok and not ends[r, c]:
            return f"the fixed end {board.name(r, c)} is not an end"
    return None
