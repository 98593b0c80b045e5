"""Re-checking the cut proofs from their evidence alone, with plain sets and lists.

The checkers rebuild the question from the graph and the tour's
specification (never from the evidence), read the squares the evidence
names, and recount what the argument of :mod:`.cuts` claims: components by
a plain breadth-first search, colours by counting, a Hamiltonian path on a
small piece by a plain depth-first search.  They share no code with the
finders (:mod:`.cuts` and its kernels), so a bug in a finder cannot hide in
its checker.  Each takes the board (or a graph, for its board), the tour
asked and the evidence, and returns None for a valid witness, or one
sentence that says why it is not.  The moves are counted from the board's
rows and columns, not read from the finder's graph arrays.

:func:`~ktsolve.proofs.verdict.check_proof` dispatches every argument to its
checker (the one table :data:`~ktsolve.proofs.registry.CHECKERS`).

Examples
--------
>>> from ktsolve import Board, TourSpec
>>> from ktsolve.graph import KnightGraph
>>> from ktsolve.proofs.cuts import toughness_proof
>>> g = KnightGraph(Board(3, 4))
>>> p = toughness_proof(g, TourSpec(closed=True))
>>> check_toughness(g, TourSpec(closed=True), p.evidence) is None
True
"""

from __future__ import annotations

from ..board import Board
from ..tour import TourSpec
from ._grid_check import Grid
from .verdict import Verdict, check_proof, not_checkable

__all__ = [
    "check_proof",
    "check_toughness",
    "check_two_cut",
    "check_region",
    "SEARCH_CHECK_MAX",
    "CUT_CHECK_MAX",
]

#: Largest piece (its squares and the two cut squares) whose "no Hamiltonian path"
#: the checker re-establishes by its own depth-first search.
SEARCH_CHECK_MAX = 24

#: Node budget of the checker's own depth-first search (it refuses a witness it cannot re-check).
SEARCH_CHECK_NODES = 2_000_000

#: Largest board whose cut proofs are re-checked (the checkers hold every square's moves as Python sets).
CUT_CHECK_MAX = 200_000


def _grid(where) -> "_Grid | Verdict":
    board = getattr(where, "board", where)
    if board.n_squares > CUT_CHECK_MAX:
        return not_checkable(f"the cut checkers re-check boards of at most {CUT_CHECK_MAX:,} squares")
    return Grid(board)


def _squares(graph: "Grid", names) -> list[int] | str:
    """Square numbers of ``names``, or the reason they are not distinct squares of the board."""
    board = graph.board
    if not isinstance(names, (list, tuple)):
        return "the squares must be a list of names"
    out = []
    for name in names:
        try:
            r, c = board.parse_square(name)
            out.append(board.index(r, c))
        except Exception:  # noqa: BLE001 - any unreadable name makes the witness invalid
            return f"{str(name)[:40]!r} is not a square of the board"
    if len(set(out)) != len(out):
        return "a square is named twice"
    return out


def _adjacency(graph: "Grid") -> list[set[int]]:
    return graph.adj


def _components(adj: list[set[int]], gone: set[int]) -> list[list[int]]:
    """The components of the graph without ``gone``, by a plain breadth-first search."""
    seen = set(gone)
    comps = []
    for s in range(len(adj)):
        if s in seen:
            continue
        seen.add(s)
        comp, queue = [s], [s]
        while queue:
            v = queue.pop()
            for w in adj[v]:
                if w not in seen:
                    seen.add(w)
                    comp.append(w)
                    queue.append(w)
        comps.append(comp)
    return comps


def _ends(graph: "Grid", spec: TourSpec) -> list[int]:
    board = graph.board
    ends = [None if x is None else board.index(int(x[0]), int(x[1])) for x in (spec.start, spec.end)]
    return [x for x in dict.fromkeys(ends) if x is not None]


def _pieces_bound(graph: "Grid", spec: TourSpec, removed: set[int]) -> int:
    """The most pieces a tour can fall into when the squares ``removed`` are taken out.

    A closed tour (a cycle) loses ``k`` squares and keeps at most ``k``
    pieces; an open tour (a path) at most ``k + 1``, one fewer for each of
    its ends that is itself removed (a removed end cuts nothing off).
    """
    k = len(removed)
    if spec.closed:
        return k
    return k + 1 - sum(1 for x in _ends(graph, spec) if x in removed)


def check_toughness(where, spec: TourSpec, evidence) -> "str | Verdict | None":
    """None when taking out ``evidence["removed"]`` leaves more parts than a tour can have."""
    graph = _grid(where)
    if isinstance(graph, Verdict):
        return graph
    if graph.n < 3 and spec.closed:
        return "the board is too small for the argument"
    removed = _squares(graph, evidence.get("removed", ()))
    if isinstance(removed, str):
        return removed
    if not removed:
        return "no square is taken out"
    gone = set(removed)
    parts = len(_components(_adjacency(graph), gone))
    bound = _pieces_bound(graph, spec, gone)
    if parts <= bound:
        return (f"taking out the {len(gone)} squares leaves {parts} parts, and a tour may "
                f"fall into {bound} pieces")
    if "parts" in evidence and int(evidence["parts"]) != parts:
        return f"the evidence says {evidence['parts']} parts, but there are {parts}"
    return None


def _hamiltonian_path(adj: list[set[int]], inside: set[int], u: int, v: int) -> bool | None:
    """Whether a path from ``u`` to ``v`` visits exactly the squares ``inside`` (None: budget out)."""
    need = len(inside)
    path, used = [u], {u}
    stack = [iter(sorted(adj[u] & inside))]
    nodes = 0
    while stack:
        nodes += 1
        if nodes > SEARCH_CHECK_NODES:
            return None
        w = next(stack[-1], None)
        if w is None:
            stack.pop()
            used.discard(path.pop())
            continue
        if w in used:
            continue
        if w == v and len(path) + 1 < need:
            continue  # v only as the last square
        path.append(w)
        used.add(w)
        if w == v:
            return True  # all squares used: len(path) == need
        stack.append(iter(sorted(adj[w] & inside)))
    return False


def _piece_fails(adj, colour, u: int, v: int, piece: set[int], item) -> str | None:
    """None when ``piece + {u, v}`` has no Hamiltonian path from ``u`` to ``v`` for the reason given."""
    reason = item.get("reason")
    if reason == "colour":
        # A path u, a1, ..., ak, v alternates colours: a1 has the colour opposite to u,
        # ak the colour opposite to v.
        same = sum(1 for a in piece if colour[a] == colour[u])
        other = len(piece) - same
        if other - same == (1 if colour[u] == colour[v] else 0):
            return "a piece's colour counts fit a path between the cut squares"
        return None
    if reason == "no entry":
        if adj[u] & piece and adj[v] & piece:
            return "both cut squares have a move into the piece"
        return None
    if reason == "search":
        if len(piece) + 2 > SEARCH_CHECK_MAX:
            return f"a piece is too large for the checker's own search ({SEARCH_CHECK_MAX} squares at most)"
        found = _hamiltonian_path(adj, piece | {u, v}, u, v)
        if found is None:
            return "the checker's own search ran out of nodes"
        if found:
            return "a path between the cut squares through a whole piece exists"
        return None
    return f"unknown reason {reason!r}"


def check_two_cut(where, spec: TourSpec, evidence) -> "str | Verdict | None":
    """None when the pieces cut off by ``evidence["cut"]`` with no path between its squares need more ends.

    Each piece must be a whole part of the board without the two cut
    squares, hold no fixed end, and have no Hamiltonian path between the cut
    squares (for its reason); a closed tour allows no such piece, an open
    tour as many as its ends that are not fixed.
    """
    graph = _grid(where)
    if isinstance(graph, Verdict):
        return graph
    cut = _squares(graph, evidence.get("cut", ()))
    if isinstance(cut, str):
        return cut
    if len(cut) != 2:
        return "the cut must have exactly two squares"
    u, v = cut
    adj = _adjacency(graph)
    colour = graph.colour
    comps = [set(c) for c in _components(adj, {u, v})]
    if len(comps) < 2:
        return "the two squares do not split the board"
    fixed = [] if spec.closed else _ends(graph, spec)
    free = 0 if spec.closed else 2 - len(fixed)
    seen: list[set[int]] = []
    for item in evidence.get("pieces", ()):
        piece = _squares(graph, item.get("piece", ()))
        if isinstance(piece, str):
            return piece
        piece_set = set(piece)
        if not any(c == piece_set for c in comps):
            return "a piece is not one whole part of the board without the two cut squares"
        if piece_set in seen:
            return "a piece is named twice"
        if any(x in piece_set for x in fixed):
            return "a piece holds a fixed end of the tour"
        why = _piece_fails(adj, colour, u, v, piece_set, item)
        if why is not None:
            return why
        seen.append(piece_set)
    if len(seen) <= free:
        return f"{len(seen)} pieces need an end of the tour, and {free} ends are free"
    return None


def check_region(where, spec: TourSpec, evidence) -> "str | Verdict | None":
    """None when the region ``evidence["region"]`` has more of one colour than its border can feed.

    Counting the tour's moves at the squares of the region ``R`` (each has
    two, a tour end one): ``2 (W - B) <= sum over the border squares c of the
    other colour of min(2, moves from c into R)`` plus the tour ends that may
    lie in ``R`` on the colour ``W`` (see :mod:`.cuts`).
    """
    graph = _grid(where)
    if isinstance(graph, Verdict):
        return graph
    if graph.n < 3:
        return "the board is too small for the argument"
    region = _squares(graph, evidence.get("region", ()))
    if isinstance(region, str):
        return region
    if not region:
        return "the region is empty"
    adj = _adjacency(graph)
    colour = graph.colour
    inside = set(region)
    count = [0, 0]
    for r in region:
        count[colour[r]] += 1
    major = 0 if count[0] > count[1] else 1
    excess = count[major] - count[1 - major]
    border = set()
    for r in region:
        border |= adj[r] - inside
    supply = sum(min(2, len(adj[c] & inside)) for c in border if colour[c] != major)
    if not spec.closed:
        fixed = _ends(graph, spec)
        supply += sum(1 for x in fixed if x in inside and colour[x] == major)
        supply += _free_ends_of(colour, fixed, major)
    if 2 * excess <= supply:
        return (f"the region has {excess} more squares of one colour, and its border and the tour's "
                f"ends can feed {supply} move-ends to them, enough for {supply // 2}")
    return None


def _free_ends_of(colour: list[int], fixed: list[int], major: int) -> int:
    """How many ends of an open tour that are not fixed can have colour ``major``.

    The tour alternates colours: with equally many squares of both colours
    its two ends have one colour each; with one more square of one colour,
    both ends have that colour.  Otherwise (no open tour exists at all, by
    colour parity) every end not fixed is counted.
    """
    light = colour.count(0)
    dark = len(colour) - light
    if light == dark:
        pool = [0, 1]
    elif light == dark + 1:
        pool = [0, 0]
    elif dark == light + 1:
        pool = [1, 1]
    else:
        return 2 - len(fixed)
    for x in fixed:
        if colour[x] in pool:
            pool.remove(colour[x])
        else:
            return 2 - len(fixed)
    return pool.count(major)


def _board_of(where) -> Board:
    return getattr(where, "board", where)
