"""Re-checking the short proofs by counting: size, colour parity, the closing move, connectivity, cut squares, theorems.

Each checker rebuilds the question from the board and the tour asked
(never from the evidence), reads the squares the evidence names, and
counts: squares and colours from the board's mask, a square's moves from
its row and column, parts of the board by searches that grow from the
squares the evidence names.  It shares no code with the finders
(:mod:`.parity`, :mod:`.quick`, :mod:`.local`, :mod:`.theorems`).  Each
returns None for a valid proof, or one sentence that says why it is not
(or a "not checkable" :class:`~.verdict.Verdict` when the parts to walk are
beyond :data:`WALK_MAX` squares).

Parts are told apart without walking the whole board: a search grows from
each square the evidence names, one square at a time in turn, and stops
when all but one have run out of squares.  A search that runs out without
meeting another has walked its whole part, so the work is about the size
of the parts other than the largest, whatever the size of the board.

The theorems of full boards are re-derived from their statements: a full
``m x n`` board (``m <= n``) has a closed tour unless ``m * n`` is odd, ``m``
is 1, 2 or 4, or ``m = 3`` and ``n`` is 4, 6 or 8 (Schwenk 1991); it has an
open tour unless ``m`` is 1 or 2 (but for one square), or ``m = 3`` and
``n`` is 3, 5 or 6, or ``m = n = 4`` (Cull & De Curtins 1978; Conrad et al.
1994); on a ``4 x n`` board every open tour starts and ends on an outer
line, and no closed tour exists (Posa's argument).

Examples
--------
>>> from ktsolve import Board, TourSpec
>>> check_size(Board(1, 2), TourSpec(closed=True), {"squares": 2}) is None
True
>>> check_connectivity(Board(2, 5), TourSpec(), {"squares": ["a2", "b2"]}) is None
True
>>> check_connectivity(Board(3, 4), TourSpec(), {"squares": ["a1", "b1"]})
'a1 and b1 lie in one part of the board'
"""

from __future__ import annotations

import numpy as np

from ..board import Board
from ..tour import TourSpec
from ._grid_check import JUMPS
from .verdict import not_checkable

__all__ = [
    "check_size",
    "check_colour_parity",
    "check_closing_move",
    "check_connectivity",
    "check_cut_square",
    "check_theorem",
    "check_outer_inner",
    "WALK_MAX",
]

#: Squares the searches that tell parts apart may walk before the checker gives up ("not checkable").
WALK_MAX = 20_000_000


def _square(board: Board, name) -> tuple[int, int]:
    """``(row, col)`` of a square the evidence names; ValueError for a hole, a square off the board, junk."""
    if not isinstance(name, (str, list, tuple)):
        raise ValueError(f"{name!r} is not a square name")
    return board.parse_square(name)


def _question_ends(board: Board, spec: TourSpec) -> list[tuple[int, int]]:
    """The fixed start and end of the question (each once), checked to be squares of the board."""
    out = []
    for role, sq in (("start", spec.start), ("end", spec.end)):
        if sq is not None:
            r, c = int(sq[0]), int(sq[1])
            if not board.contains(r, c) or board.is_hole(r, c):
                raise ValueError(f"the question's {role} is not a square of the board")
            if (r, c) not in out:
                out.append((r, c))
    return out


def _jumps(board: Board, rc: tuple[int, int]) -> list[tuple[int, int]]:
    r, c = rc
    out = []
    for dr, dc in JUMPS:
        r2, c2 = r + dr, c + dc
        if 0 <= r2 < board.rows and 0 <= c2 < board.cols and not board.is_hole(r2, c2):
            out.append((r2, c2))
    return out


def _parity_counts(board: Board) -> tuple[int, int]:
    """Squares with ``(row + col)`` even and odd, counted on the board's mask."""
    mask = board.mask
    parity = (np.arange(board.rows).reshape(-1, 1) + np.arange(board.cols).reshape(1, -1)) % 2
    odd = int(np.count_nonzero(mask & (parity == 1)))
    return int(np.count_nonzero(mask)) - odd, odd


def _is_jump(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return (abs(a[0] - b[0]), abs(a[1] - b[1])) in ((1, 2), (2, 1))


def _apart(board: Board, seeds: list[tuple[int, int]], gone: set, budget: int = WALK_MAX):
    """Whether the ``seeds`` lie in pairwise different parts of the board without ``gone``.

    Returns True, False (two seeds meet), or None when the walk passed
    ``budget`` squares before telling.  Searches grow from the seeds one
    square at a time in turn; one that runs out has walked its whole part.
    """
    if len(set(seeds)) != len(seeds):
        return False
    owner = {s: i for i, s in enumerate(seeds)}
    queues = [[s] for s in seeds]
    heads = [0] * len(seeds)
    active = list(range(len(seeds)))
    walked = 0
    while len(active) > 1:
        still = []
        for i in active:
            q = queues[i]
            if heads[i] >= len(q):
                continue  # this part is walked whole
            v = q[heads[i]]
            heads[i] += 1
            walked += 1
            if walked > budget:
                return None
            for w in _jumps(board, v):
                if w in gone:
                    continue
                o = owner.get(w)
                if o is None:
                    owner[w] = i
                    q.append(w)
                elif o != i:
                    return False
            if heads[i] < len(q):
                still.append(i)
        active = still
    return True


def _walk_verdict(apart, what: str):
    if apart is None:
        return not_checkable(f"telling the parts apart would walk more than {WALK_MAX:,} squares")
    if not apart:
        return what
    return None


def check_size(board: Board, spec: TourSpec, evidence) -> str | None:
    """A closed tour needs three squares; an open tour of two or more squares has two distinct ends."""
    n = board.n_squares
    if "squares" in evidence and int(evidence["squares"]) != n:
        return f"the evidence says {evidence['squares']} squares, but the board has {n}"
    if spec.closed and n < 3:
        return None
    ends = [spec.start, spec.end]
    if not spec.closed and n > 1 and ends[0] is not None and ends[1] is not None \
            and tuple(ends[0]) == tuple(ends[1]):
        _question_ends(board, spec)
        return None
    return f"the board has {n} squares, which the size argument does not rule out for the tour asked"


def check_colour_parity(board: Board, spec: TourSpec, evidence) -> str | None:
    """A knight alternates colours: recount the colours and test the rule the tour asked breaks."""
    even, odd = _parity_counts(board)
    corner = board.colour_name(0, 0)
    names = {corner: even, ("light" if corner == "dark" else "dark"): odd}
    for name, count in names.items():
        if name in evidence and int(evidence[name]) != count:
            return f"the evidence says {evidence[name]} {name} squares, but the board has {count}"
    ends = _question_ends(board, spec)
    if even + odd < 2:
        return "a board of one square has no colour argument"
    if spec.closed:
        if even != odd:
            return None
        return f"the board has {even} squares of each colour, as a closed tour needs"
    if abs(even - odd) > 1:
        return None
    if even != odd:
        major = 0 if even > odd else 1
        if any((r + c) % 2 != major for r, c in ends):
            return None
        return "the colours differ by one and no fixed end lies on the smaller colour"
    s, e = spec.start, spec.end
    if s is not None and e is not None and (s[0] + s[1]) % 2 == (e[0] + e[1]) % 2 and tuple(s) != tuple(e):
        return None
    return "the colours are equal and the tour's ends may have opposite colours"


def check_closing_move(board: Board, spec: TourSpec, evidence) -> str | None:
    """A closed tour from ``s`` that ends on ``t`` closes with the move ``t -> s``, which must exist."""
    ends = _question_ends(board, spec)
    if not spec.closed or spec.start is None or spec.end is None or len(ends) != 2:
        return "the argument needs a closed tour with a start and a different end"
    s, e = ends
    for role, sq in (("start", s), ("end", e)):
        if role in evidence and _square(board, evidence[role]) != sq:
            return f"the evidence's {role} {evidence[role]} is not the question's"
    if _is_jump(s, e):
        return f"{board.name(*e)} is a knight's move from {board.name(*s)}"
    return None


def check_connectivity(board: Board, spec: TourSpec, evidence) -> str | None:
    """Two squares the evidence names lie in different parts of the board: no tour visits both."""
    names = evidence["squares"]
    if not isinstance(names, (list, tuple)) or len(names) != 2:
        return "the evidence must name two squares"
    a, b = (_square(board, x) for x in names)
    if a == b:
        return "the evidence names one square twice"
    return _walk_verdict(_apart(board, [a, b], set()), f"{board.name(*a)} and {board.name(*b)} lie in one part "
                                                       f"of the board")


def _check_groups(board: Board, spec: TourSpec, evidence) -> str | None:
    """Groups hanging on the board by one square each: each needs an end of an open tour inside it."""
    if spec.closed:
        return "hanging groups refute open tours; a closed tour is refuted by one cut square"
    ends = _question_ends(board, spec)
    free = 2 - len(ends)
    groups = evidence["groups"]
    if not isinstance(groups, list):
        return "the groups must be a list"
    seen: set = set()
    loose = 0
    n = board.n_squares
    for g in groups:
        t = _square(board, g["through"])
        q = _square(board, g["square"])
        if q == t:
            return "a group's square is its cut square"
        part, queue = {q}, [q]
        while queue:
            if len(part) > WALK_MAX:
                return not_checkable(f"a group has more than {WALK_MAX:,} squares")
            for w in _jumps(board, queue.pop()):
                if w != t and w not in part:
                    part.add(w)
                    queue.append(w)
        if len(part) + 1 >= n:
            return f"{board.name(*t)} does not cut the group of {board.name(*q)} off the rest of the board"
        if part & seen:
            return "two groups share squares"
        seen |= part
        if not any(x in part for x in ends):
            loose += 1
    if loose <= free:
        return f"{loose} groups without a fixed end need an end each, and {free} ends are free"
    return None


def check_cut_square(board: Board, spec: TourSpec, evidence) -> str | None:
    """Taking out one square leaves more parts than the tour asked can pass through.

    Three forms: the squares of the parts other than the largest listed
    (``part``, re-checked by counting moves around them,
    :func:`~.local_check.check_cut`); hanging groups of an open tour
    (``groups``); or one square of each part (``squares``), whose parts are
    told apart by walking them (the parts other than the largest).
    """
    if "groups" in evidence:
        return _check_groups(board, spec, evidence)
    if "part" in evidence:
        from .local_check import check_cut

        return check_cut(board, spec, evidence)
    v = _square(board, evidence["square"])
    ends = _question_ends(board, spec)
    if spec.closed:
        need = 2
    else:
        need = 2 if v in ends else 3
    named = evidence.get("squares", [])
    if not isinstance(named, list):
        return "the parts' squares must be a list"
    examples = [_square(board, x) for x in named[:need]]
    if len(examples) < need:
        return f"taking out {board.name(*v)} must leave {need} parts, and the evidence names {len(examples)}"
    if v in examples:
        return "a part's square is the cut square"
    return _walk_verdict(_apart(board, examples, {v}),
                         f"two of the squares named lie in one part of the board without {board.name(*v)}")


def _closed_exists(m: int, n: int) -> bool:
    a, b = min(m, n), max(m, n)
    if (a * b) % 2 == 1 or a in (1, 2, 4):
        return False
    return not (a == 3 and b in (4, 6, 8))


def _open_exists(m: int, n: int) -> bool:
    a, b = min(m, n), max(m, n)
    if a == 1 and b == 1:
        return True
    if a in (1, 2):
        return False
    if a == 3:
        return b not in (3, 5, 6)
    if a == 4:
        return b != 4
    return True


def check_theorem(board: Board, spec: TourSpec, evidence) -> str | None:
    """The existence theorems of full boards, re-derived from their statements (see the module docstring)."""
    if not board.is_full:
        return "the theorems speak of full boards, and this board has holes"
    m, n = board.rows, board.cols
    for key, value in (("rows", m), ("cols", n)):
        if key in evidence and int(evidence[key]) != value:
            return f"the evidence says {key} {evidence[key]}, but the board has {value}"
    _question_ends(board, spec)
    if spec.closed:
        return None if not _closed_exists(m, n) else f"a closed tour of the {m}x{n} board exists (Schwenk 1991)"
    if not _open_exists(m, n):
        return None
    return f"an open tour of the {m}x{n} board exists (Conrad et al. 1994)"


def check_outer_inner(board: Board, spec: TourSpec, evidence) -> str | None:
    """A full board four squares wide: no closed tour, and every open tour ends on the outer lines."""
    if not board.is_full:
        return "the argument speaks of full boards, and this board has holes"
    m, n = board.rows, board.cols
    if 4 not in (m, n) or min(m, n) != 4:
        return f"the {m}x{n} board is not four squares wide"
    ends = _question_ends(board, spec)
    if spec.closed:
        return None
    along_rows = m == 4
    for role in ("start", "end"):
        if role not in evidence:
            continue
        sq = _square(board, evidence[role])
        fixed = getattr(spec, role)
        if fixed is None or tuple(fixed) != sq:
            return f"the evidence's {role} {evidence[role]} is not the question's"
        k = sq[0] if along_rows else sq[1]
        if k in (1, 2):
            return None
        return f"{evidence[role]} lies on an outer line"
    del ends
    return "the evidence names no end of the tour on an inner line"
