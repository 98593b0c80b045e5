"""Proofs that no knight's tour exists, each with a certificate a person can check.

A knight's move always changes the colour of the square (``(row + col) % 2``),
so the knight graph is bipartite.  From that, from degrees and from
connectivity follow short proofs that no tour exists.  :func:`quick_proof`
runs the cheap ones in linear time:

* size: a closed tour needs three squares; an open tour of two or more
  squares cannot start and end on one square; a closed tour from ``s`` to
  ``t`` closes with the move ``t -> s``, which must exist;
* colour parity: a closed tour alternates colours, so both colours must have
  equally many squares; an open tour's colour counts differ by at most one,
  and when they differ both ends lie on the majority colour; when they are
  equal the ends have opposite colours (so a fixed start or end can have the
  wrong colour);
* degree: a square with no neighbour cannot be visited by a tour of a board of
  more than one square; a square with one neighbour must be an end of an open
  tour (none is allowed in a closed tour, at most two in an open one, and
  only the fixed start or end when they are fixed);
* connectivity: a tour visits every square, so the knight graph must be
  connected;
* cut squares: a closed tour with one square taken out is still one path
  through all other squares, so no single square may split the board
  (Hopcroft & Tarjan's depth-first search, without recursion).  An open tour
  passes a square once, so no square may split the board into three parts,
  a fixed end may not split it at all, and each group of squares that hangs
  on the rest of the board by a single square must hold an end of the tour.

:func:`matching_proof` is polynomial and much stronger.  A closed tour uses
two moves at every square; as the colours alternate, every second move of
the tour is a *perfect matching* (each square paired with a neighbour of the
other colour), so the tour is the union of two disjoint perfect matchings and
each of its moves lies in some perfect matching.  Moves that lie in no
perfect matching are found from one maximum matching (Hopcroft & Karp 1973)
and the strongly connected components of its alternating graph (the
Dulmage-Mendelsohn decomposition; Dulmage & Mendelsohn 1958); each is
explained by Hall's theorem through a *tight set*: light squares ``S`` with
exactly ``|S|`` neighbours ``T`` between them are paired with ``T`` by every
perfect matching, so no move joins ``T`` to a square outside ``S``.  After
deleting those moves, squares left with two moves must use both (degree-2
forcing), squares already using two forced moves lose their other moves,
moves that would close a forced path into a short cycle go, and the whole is
repeated until nothing changes.  If a square is left with fewer than two
moves, the remaining moves fall apart, a square splits them, or no perfect
matching is left, no closed tour exists.  Open tours are closed first
through one or two extra squares joined to the squares where the tour may
end.  This proves, for example, that no ``4 x n`` board has a closed tour,
in time close to linear.  :func:`check_matching_proof` re-checks the
certificate from its evidence alone, with no matching algorithm.

Where they run: :func:`ktsolve.solve` calls :func:`quick_proof` before
every method, and :func:`matching_proof` too on boards of at most 20,000
squares with a budget of one second (milliseconds on small boards, about
0.05 s at 100x100); :func:`ktsolve.prove` runs both on any board.  Graphs
of at most :data:`PY_MAX` nodes run the kernels as plain Python, so small
boards pay no numba start-up.

Every function returns a :class:`~ktsolve.result.Proof` (text, argument name
and evidence) or None when its argument does not apply, which proves
nothing: a tour may still not exist.

References
----------
A. J. Schwenk, "Which rectangular chessboards have a knight's tour?",
Mathematics Magazine 64(5):325-332, 1991 (the ``4 x n`` argument).
J. E. Hopcroft and R. E. Tarjan, "Efficient algorithms for graph
manipulation", Communications of the ACM 16(6):372-378, 1973.
J. E. Hopcroft and R. M. Karp, "An n^{5/2} algorithm for maximum matchings in
bipartite graphs", SIAM Journal on Computing 2(4):225-231, 1973.
A. L. Dulmage and N. S. Mendelsohn, "Coverings of bipartite graphs",
Canadian Journal of Mathematics 10:517-534, 1958.
"""

from __future__ import annotations

import time
from collections import deque

import numpy as np

from ..graph import KnightGraph
from ..result import Proof
from ..tour import TourSpec

__all__ = [
    "quick_proof",
    "size_proof",
    "ends_proof",
    "colour_proof",
    "degree_proof",
    "connectivity_proof",
    "cut_proof",
    "matching_proof",
    "check_matching_proof",
    "components",
]

#: Graphs of at most this many nodes run the kernels as plain Python: no
#: numba start-up (0.3 s or more in a fresh process) for small boards.
PY_MAX = 600

#: Longest list of squares written out in a proof's text.
_SHOW = 8


def _kernel(name: str, n: int):
    from . import _proof_kernels

    func = getattr(_proof_kernels, name)
    return func.py_func if n <= PY_MAX else func


def _name(graph: KnightGraph, i: int) -> str:
    return graph.name(int(i))


def _listing(names, total: int | None = None, limit: int = _SHOW) -> str:
    names = list(names)
    total = len(names) if total is None else total
    shown = ", ".join(names[:limit])
    if total > limit:
        shown += f" ... ({total} squares)"
    return shown


def _spec_nodes(graph: KnightGraph, spec: TourSpec) -> tuple[int | None, int | None]:
    b = graph.board
    s = None if spec.start is None else b.index(*spec.start)
    e = None if spec.end is None else b.index(*spec.end)
    return s, e


# ---------------------------------------------------------------------- linear-time proofs
def size_proof(graph: KnightGraph, spec: TourSpec) -> Proof | None:
    """Closed tours need three squares; an open tour of two or more squares has distinct ends."""
    n = graph.n
    if spec.closed and n < 3:
        return Proof(
            f"the board has {n} square{'s' if n != 1 else ''}; a closed tour needs at least 3",
            argument="size",
            evidence={"squares": n},
        )
    s, e = _spec_nodes(graph, spec)
    if not spec.closed and n > 1 and s is not None and s == e:
        return Proof(
            f"an open tour of {n} squares cannot start and end on the same square {_name(graph, s)}",
            argument="size",
            evidence={"squares": n, "start": _name(graph, s)},
        )
    return None


def ends_proof(graph: KnightGraph, spec: TourSpec) -> Proof | None:
    """A closed tour from ``s`` that ends on ``t`` closes with the move ``t -> s``."""
    if not spec.closed or graph.n < 3:
        return None
    s, e = _spec_nodes(graph, spec)
    if s is None or e is None or s == e:
        return None
    if e in graph.neighbours(s):
        return None
    a, b = _name(graph, s), _name(graph, e)
    return Proof(
        f"a closed tour from {a} that ends on {b} must close with a knight's move from {b} "
        f"back to {a}, but {b} is not a knight's move from {a}",
        argument="ends",
        evidence={"start": a, "end": b},
    )


def colour_proof(graph: KnightGraph, spec: TourSpec) -> Proof | None:
    """Colour-parity argument (valid on any board with holes)."""
    board = graph.board
    even, odd = board.colour_counts()
    n = even + odd
    if n == 1:
        return None
    corner = board.colour_name(0, 0)
    other = "light" if corner == "dark" else "dark"
    # Parity 0 squares have the colour of the top-left corner.
    label = {0: corner, 1: other}
    count = {0: even, 1: odd}
    counts_text = f"{count[0]} {label[0]} and {count[1]} {label[1]} squares"
    ev = {label[0]: count[0], label[1]: count[1]}
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
    s, e = _spec_nodes(graph, spec)
    if even != odd:
        major = 0 if even > odd else 1
        for role, node in (("start", s), ("end", e)):
            if node is not None and graph.colour[node] != major:
                return Proof(
                    f"the board has {counts_text}; an open tour then starts and ends on "
                    f"{label[major]} squares, but the {role} {_name(graph, node)} is {label[1 - major]}",
                    argument="colour parity",
                    evidence={**ev, role: _name(graph, node)},
                )
    elif s is not None and e is not None and graph.colour[s] == graph.colour[e]:
        return Proof(
            f"the board has {counts_text}; an open tour then starts and ends on squares "
            f"of opposite colours, but {_name(graph, s)} and {_name(graph, e)} are both "
            f"{label[int(graph.colour[s])]}",
            argument="colour parity",
            evidence={**ev, "start": _name(graph, s), "end": _name(graph, e)},
        )
    return None


def degree_proof(graph: KnightGraph, spec: TourSpec) -> Proof | None:
    """Squares with no neighbour, or with one neighbour where no tour end can go."""
    n = graph.n
    if n == 1:
        return None
    deg = graph.degree
    isolated = np.flatnonzero(deg == 0)
    if isolated.size:
        sq = _name(graph, isolated[0])
        return Proof(
            f"{sq} has no knight's move to another square, so no tour can visit it",
            argument="degree",
            evidence={"square": sq, "neighbours": 0},
        )
    ones = np.flatnonzero(deg == 1)
    if not ones.size:
        return None
    names = [_name(graph, i) for i in ones[:_SHOW]]
    if spec.closed:
        return Proof(
            f"{names[0]} has only one neighbour, but a closed tour enters and leaves every square",
            argument="degree",
            evidence={"square": names[0], "neighbours": 1},
        )
    s, e = _spec_nodes(graph, spec)
    fixed = [x for x in dict.fromkeys((s, e)) if x is not None]
    free_ends = 2 - len(fixed)
    loose = [int(i) for i in ones if int(i) not in fixed]
    if len(loose) > free_ends:
        loose_names = [_name(graph, i) for i in loose[: free_ends + 1]]
        if fixed:
            fixed_txt = " and ".join(_name(graph, i) for i in fixed)
            where = "fixed at " + fixed_txt if free_ends == 0 else "limited to " + fixed_txt + " and one more square"
            text = (
                f"{', '.join(loose_names)} {'each have' if len(loose_names) > 1 else 'has'} only one "
                f"neighbour, so {'each' if len(loose_names) > 1 else 'it'} must be an end of the tour, "
                f"but the tour's ends are {where}"
            )
        else:
            text = (
                f"{ones.size} squares ({_listing([_name(graph, i) for i in ones[:_SHOW]], ones.size)}) "
                f"have only one neighbour, so each must be an end of an open tour, which has only two ends"
            )
        return Proof(
            text,
            argument="degree",
            evidence={
                "one_neighbour": [_name(graph, i) for i in ones[:1000]],
                "fixed_ends": [_name(graph, i) for i in fixed],
            },
        )
    return None


def components(graph: KnightGraph) -> np.ndarray:
    """Component label (int32) of every square, labels 0, 1, ... in order of first square."""
    alive = np.ones(graph.indices.size, dtype=np.uint8)
    return _kernel("component_labels", graph.n)(graph.indptr, graph.indices, alive)


def _full_and_2_connected(graph: KnightGraph) -> bool:
    """True for the knight graph of a full board with both sides at least 5, which is 2-connected.

    The 5x5 knight graph is 2-connected (checked in the tests).  Adding a
    column to an ``m x n`` board (``m >= 3``) one square at a time, each new
    square already has at least two neighbours among the earlier squares
    (one of ``(r - 1, c - 2)``, ``(r + 1, c - 2)`` and one of
    ``(r - 2, c - 1)``, ``(r + 2, c - 1)``), and joining a new vertex to
    two vertices of a 2-connected graph keeps it 2-connected; rows likewise.
    So every full board with both sides at least 5 has a 2-connected knight
    graph, and the connectivity and cut-square checks can be skipped there
    (they cost seconds on boards of millions of squares).
    """
    b = graph.board
    return b.is_full and min(b.rows, b.cols) >= 5 and graph.is_knight


#: quick_proof looks for cut squares on holed boards of at most this many
#: squares: the depth-first search is linear but memory-bound, about 0.3 s
#: per million squares and slower beyond (call :func:`cut_proof` directly
#: for bigger boards).
CUT_MAX = 2_000_000

#: Seconds per square the cut-square search takes at most (measured: 0.3 to 0.8 s per million squares).
CUT_SECONDS_PER_SQUARE = 1e-6


def connectivity_proof(graph: KnightGraph, spec: TourSpec) -> Proof | None:
    """A tour visits every square, so the knight graph must be connected."""
    if graph.n <= 1 or _full_and_2_connected(graph):
        return None
    label = components(graph)
    k = int(label.max()) + 1
    if k == 1:
        return None
    a = _name(graph, 0)
    b = _name(graph, int(np.argmax(label == 1)))
    sizes = np.bincount(label).tolist()
    return Proof(
        f"the knight graph falls into {k} separate parts (sizes {', '.join(map(str, sizes[:6]))}"
        f"{' ...' if k > 6 else ''}); no knight's path joins {a} to {b}",
        argument="connectivity",
        evidence={"components": k, "sizes": sizes[:1000], "squares": [a, b]},
    )


def _parts_without(indptr, indices, v: int) -> np.ndarray:
    """Component labels of the graph with square ``v`` taken out (``v`` gets its own label)."""
    n = indptr.size - 1
    alive = np.ones(indices.size, dtype=np.uint8)
    alive[indptr[v] : indptr[v + 1]] = 0
    alive[indices == v] = 0
    return _kernel("component_labels", n)(indptr, indices, alive)


def _describe_parts(graph: KnightGraph, label: np.ndarray, v: int) -> tuple[list[int], list[str]]:
    """Sizes of the parts left without ``v`` and one square of each (largest first)."""
    keep = np.ones(label.size, dtype=bool)
    keep[v] = False
    lab = label[keep]
    idx = np.flatnonzero(keep)
    ids, first, sizes = np.unique(lab, return_index=True, return_counts=True)
    order = np.argsort(-sizes, kind="stable")
    return sizes[order].tolist(), [_name(graph, idx[first[k]]) for k in order]


def cut_proof(graph: KnightGraph, spec: TourSpec) -> Proof | None:
    """Cut squares: closed tours need a 2-connected board, open tours a chain of blocks.

    Assumes a connected board (:func:`connectivity_proof` speaks otherwise).
    Linear time: one depth-first search with low points, no recursion.
    """
    n = graph.n
    if n < 3 or _full_and_2_connected(graph):
        return None
    indptr, indices = graph.indptr, graph.indices
    alive = np.ones(indices.size, dtype=np.uint8)
    disc, low, parent, order, count = _kernel("lowpoint_dfs", n)(indptr, indices, alive, 0)
    if count < n:
        return None
    parts, block, ncut = _kernel("blocks", n)(disc, low, parent, order, count)
    cut = np.flatnonzero(parts > 1)
    if not cut.size:
        return None
    if spec.closed:
        v = int(cut[0])
        return _split_proof(graph, v, "a closed tour with {v} taken out is still one path through all the other squares")
    s, e = _spec_nodes(graph, spec)
    many = np.flatnonzero(parts >= 3)
    if many.size:
        return _split_proof(
            graph, int(many[0]),
            "an open tour passes {v} at most once, so without {v} it falls into at most two pieces",
        )
    for role, x in (("start", s), ("end", e)):
        if x is not None and parts[x] > 1:
            return _split_proof(
                graph, int(x),
                f"the tour {'starts' if role == 'start' else 'ends'} on {{v}}, so without {{v}} it is "
                f"still one path through all the other squares",
            )
    # Leaf blocks: groups hanging on the rest of the board by one square.
    reached = order[1:count]
    heads = reached[block[reached] == reached]
    if heads.size < 2:
        return None
    leaves = heads[ncut[heads] == 1]
    fixed = [x for x in dict.fromkeys((s, e)) if x is not None]
    free_ends = 2 - len(fixed)
    by_block = reached[np.argsort(block[reached], kind="stable")]
    sorted_blocks = block[by_block]
    groups = []
    for b in leaves.tolist():
        lo, hi = np.searchsorted(sorted_blocks, [b, b + 1])
        members = by_block[lo:hi].tolist() + [int(parent[b])]
        through = [w for w in members if parts[w] > 1]
        inner = [w for w in members if parts[w] == 1]
        if len(through) != 1 or not inner:
            continue  # not a leaf after all (cannot happen on a connected graph)
        holds = [x for x in fixed if x in inner]
        groups.append((through[0], inner, bool(holds)))
    loose = [g for g in groups if not g[2]]
    if len(loose) <= free_ends:
        return None
    shown = loose[: free_ends + 1]
    pieces = [
        f"{{{_listing([_name(graph, w) for w in sorted(inner)], len(inner), 4)}}} through {_name(graph, x)}"
        for x, inner, _ in shown
    ]
    if fixed:
        fixed_txt = " and ".join(_name(graph, x) for x in fixed)
        need = (
            f"but the tour's ends are fixed at {fixed_txt}, outside these groups"
            if free_ends == 0
            else f"but one end of the tour is fixed at {fixed_txt}, outside these groups"
        )
    else:
        need = "but an open tour has only two ends"
    text = (
        f"each of these groups of squares is joined to the rest of the board through a single "
        f"square: {'; '.join(pieces)}; a tour that enters such a group through its square cannot "
        f"come out again, so it must start or end inside each group, {need}"
    )
    return Proof(
        text,
        argument="cut square",
        evidence={
            "groups": [
                {"through": _name(graph, x), "square": _name(graph, min(inner)), "size": len(inner)}
                for x, inner, _ in shown
            ],
            "fixed_ends": [_name(graph, x) for x in fixed],
        },
    )


def _split_proof(graph: KnightGraph, v: int, why: str) -> Proof:
    label = _parts_without(graph.indptr, graph.indices, v)
    sizes, examples = _describe_parts(graph, label, v)
    vn = _name(graph, v)
    shown = ", ".join(f"{sz} square{'s' if sz != 1 else ''} around {ex}" for sz, ex in zip(sizes[:4], examples[:4]))
    if len(sizes) > 4:
        shown += " ..."
    return Proof(
        f"taking out {vn} splits the board into {len(sizes)} separate parts ({shown}); "
        + why.format(v=vn),
        argument="cut square",
        evidence={"square": vn, "parts": len(sizes), "sizes": sizes[:1000], "squares": examples[:1000]},
    )


def quick_proof(graph: KnightGraph, spec: TourSpec, *, deadline=None) -> Proof | None:
    """The first necessary condition that fails, as a proof; None when all hold.

    Runs size, ends, colour parity, degree, connectivity and cut-square
    checks, in time linear in the size of the graph (cut squares only up to
    :data:`CUT_MAX` squares; full boards with both sides at least 5 skip
    the connectivity and cut-square checks, which cannot fail there).
    With a ``deadline`` (:class:`~ktsolve.driver.Deadline`), it is checked
    between the checks (:class:`~ktsolve.driver.Stopped` when it expired),
    and the cut-square search is left out when it would not end in the time
    left (about :data:`CUT_SECONDS_PER_SQUARE` per square).

    Examples
    --------
    >>> from ktsolve import Board
    >>> quick_proof(KnightGraph(Board(5, 5)), TourSpec(closed=True)).argument
    'colour parity'
    >>> quick_proof(KnightGraph(Board(8, 8)), TourSpec(closed=True)) is None
    True
    """
    for check in (size_proof, ends_proof, colour_proof, degree_proof, connectivity_proof):
        if deadline is not None:
            deadline.check("running the quick proofs")
        proof = check(graph, spec)
        if proof is not None:
            return proof
    if graph.n <= CUT_MAX:
        left = None if deadline is None else deadline.remaining()
        if left is not None and left < graph.n * CUT_SECONDS_PER_SQUARE:
            return None  # no time for the cut-square search: no proof
        return cut_proof(graph, spec)
    return None


# ---------------------------------------------------------------------- the matching proof
class _Network:
    """The graph a closed tour must cover: the board, plus extra squares closing an open tour.

    Nodes ``0 .. n_squares - 1`` are the board's squares; extra squares
    follow.  ``side`` is the colour parity of every node (extra squares get
    the colour their neighbours lack).  ``twin[p]`` is the CSR entry of the
    reverse of entry ``p``.
    """

    def __init__(self, graph: KnightGraph, extra: list[dict], forced: list[tuple[int, int]], explain: str):
        self.graph = graph
        self.n_squares = graph.n
        self.extra = extra
        self.n = graph.n + len(extra)
        self.explain = explain
        side = np.empty(self.n, dtype=np.int32)
        side[: graph.n] = graph.colour
        base = graph.edges().astype(np.int64)
        parts = [base]
        for k, x in enumerate(extra):
            side[graph.n + k] = x["side"]
            nb = np.asarray(x["joined"], dtype=np.int64)
            parts.append(np.stack([np.full(nb.size, graph.n + k, dtype=np.int64), nb], axis=1))
        if len(extra) == 2:
            parts.append(np.array([[graph.n, graph.n + 1]], dtype=np.int64))
        edges = np.concatenate(parts)
        src = np.concatenate([edges[:, 0], edges[:, 1]])
        dst = np.concatenate([edges[:, 1], edges[:, 0]])
        order = np.lexsort((dst, src))
        src, dst = src[order], dst[order]
        self.src = src.astype(np.int32)
        self.indices = dst.astype(np.int32)
        self.indptr = np.zeros(self.n + 1, dtype=np.int32)
        np.cumsum(np.bincount(src, minlength=self.n), out=self.indptr[1:])
        key = src * self.n + dst
        self.twin = np.searchsorted(key, dst * self.n + src)
        self.side = side
        self.forced0 = forced

    def name(self, v: int) -> str:
        return self.names([v])[0]

    def names(self, ids) -> list[str]:
        """Names of many nodes at once (square names, or the extra squares' names)."""
        ids = np.asarray(ids, dtype=np.int64).reshape(-1)
        if not hasattr(self, "_files"):
            from ..board import file_letters

            self._files = [file_letters(c) for c in range(self.graph.board.cols)]
        rows = self.graph.board.rows
        files = self._files
        sq = ids[ids < self.n_squares]
        rc = self.graph.coords[sq].tolist()
        names = iter([f"{files[c]}{rows - r}" for r, c in rc])
        extra = [x["name"] for x in self.extra]
        n = self.n_squares
        return [next(names) if v < n else extra[v - n] for v in ids.tolist()]

    def entry(self, u: int, v: int) -> int:
        """CSR entry of the move ``u -> v`` (-1 when there is none)."""
        lo, hi = int(self.indptr[u]), int(self.indptr[u + 1])
        k = np.flatnonzero(self.indices[lo:hi] == v)
        return lo + int(k[0]) if k.size else -1


def _colour_names(graph: KnightGraph) -> dict[int, str]:
    corner = graph.board.colour_name(0, 0)
    return {0: corner, 1: "light" if corner == "dark" else "dark"}


def _closing_network(graph: KnightGraph, spec: TourSpec) -> _Network | None:
    """The network whose closed tours are the tours asked for, or None when colours already forbid them."""
    n = graph.n
    even, odd = graph.board.colour_counts()
    s, e = _spec_nodes(graph, spec)
    colour = graph.colour
    cname = _colour_names(graph)
    if spec.closed:
        if n < 3 or even != odd:
            return None
        forced = []
        if s is not None and e is not None and s != e:
            if e not in graph.neighbours(s):
                return None
            forced.append((s, e))
        return _Network(graph, [], forced, "")
    if n < 3 or abs(even - odd) > 1:
        return None
    fixed = [x for x in dict.fromkeys((s, e)) if x is not None]
    if len(fixed) == 1 and s == e and s is not None:
        return None
    all_of = [np.flatnonzero(colour == c) for c in (0, 1)]
    if even != odd:
        major = 0 if even > odd else 1
        if any(colour[x] != major for x in fixed):
            return None
        joined = np.array(sorted(fixed)) if len(fixed) == 2 else all_of[major]
        extra = [{"name": "*", "side": 1 - major, "joined": joined}]
        forced = [(n, x) for x in fixed]
        where = (
            f"{' and '.join(graph.name(x) for x in fixed)}"
            if len(fixed) == 2
            else f"every {cname[major]} square"
        )
        explain = (
            f"An open tour on this board starts and ends on {cname[major]} squares (there is one "
            f"{cname[major]} square more). Join its two ends through an extra square * joined to "
            f"{where}"
            + (f" (the tour uses the move *-{graph.name(fixed[0])})" if len(fixed) == 1 else "")
            + "; that gives a closed tour of the board plus *, so it is enough to show that none exists."
        )
        return _Network(graph, extra, forced, explain)
    # Equal colour counts: the ends have opposite colours.
    if len(fixed) == 2 and colour[fixed[0]] == colour[fixed[1]]:
        return None
    ends = {0: all_of[0], 1: all_of[1]}
    for x in fixed:
        ends[int(colour[x])] = np.array([x])
    # "*1" has side 1 and joins the allowed side-0 ends; "*2" has side 0 and joins side-1 ends.
    extra = [
        {"name": "*1", "side": 1, "joined": ends[0]},
        {"name": "*2", "side": 0, "joined": ends[1]},
    ]
    forced = [(n, n + 1)] + [(n if colour[x] == 0 else n + 1, x) for x in fixed]

    def where(c):
        if ends[c].size == 1 and any(colour[x] == c for x in fixed):
            return graph.name(int(ends[c][0]))
        return f"every {cname[c]} square"

    explain = (
        f"An open tour on this board (as many {cname[0]} as {cname[1]} squares) ends on squares of "
        f"opposite colours. Join its ends through two extra squares joined to each other: *1, joined "
        f"to {where(0)}, and *2, joined to {where(1)}; the tour then closes through the moves "
        f"*1-*2 and {'those to ' + ' and '.join(graph.name(x) for x in fixed) if fixed else 'one move from each'}"
        f", so it is enough to show that the board plus *1 and *2 has no closed tour using these moves."
    )
    return _Network(graph, extra, forced, explain)


class _Stop(Exception):
    """A contradiction was reached: the conclusion of the proof."""

    def __init__(self, conclusion: dict):
        self.conclusion = conclusion


class _MatchingProver:
    """State of the matching proof on a network: alive and forced moves, the steps taken."""

    def __init__(self, net: _Network):
        self.net = net
        n = net.n
        self.alive = np.ones(net.indices.size, dtype=np.uint8)
        self.forced = np.zeros(net.indices.size, dtype=np.uint8)
        self.deg = np.diff(net.indptr).astype(np.int64)
        self.fdeg = np.zeros(n, dtype=np.int64)
        self.match = np.full(n, -1, dtype=np.int32)
        # Forced moves form paths: union-find over nodes with the two ends of each path.
        self.root = np.arange(n)
        self.size = np.ones(n, dtype=np.int64)
        self._ends: dict[int, tuple[int, int]] = {}
        self.steps: list[dict] = []
        self.excluded = 0

    # ------------------------------------------------------------ small helpers
    def nm(self, v) -> str:
        return self.net.name(v)

    def move(self, u, v) -> list[str]:
        return self.net.names([u, v])

    def moves(self, us, vs) -> list[list[str]]:
        a, b = self.net.names(us), self.net.names(vs)
        return [list(x) for x in zip(a, b)]

    def path_ends(self, r: int) -> tuple[int, int]:
        return self._ends.get(r, (r, r))

    def find(self, v: int) -> int:
        root = self.root
        r = v
        while root[r] != r:
            r = int(root[r])
        while root[v] != r:
            root[v], v = r, int(root[v])
        return r

    def alive_moves(self, v: int) -> np.ndarray:
        lo, hi = int(self.net.indptr[v]), int(self.net.indptr[v + 1])
        return lo + np.flatnonzero(self.alive[lo:hi])

    def delete(self, p: int) -> None:
        net = self.net
        if not self.alive[p]:
            return
        q = int(net.twin[p])
        self.alive[p] = self.alive[q] = 0
        self.deg[net.src[p]] -= 1
        self.deg[net.indices[p]] -= 1
        self.excluded += 1

    def delete_many(self, entries: np.ndarray) -> None:
        net = self.net
        entries = entries[self.alive[entries] == 1]
        self.alive[entries] = 0
        self.alive[net.twin[entries]] = 0
        self.deg -= np.bincount(net.src[entries], minlength=net.n)
        self.deg -= np.bincount(net.indices[entries], minlength=net.n)
        self.excluded += int(entries.size)

    # ------------------------------------------------------------ checks on what is left
    def check_left(self, connectivity: bool = True) -> None:
        """Stop when a square has fewer than two moves, or (``connectivity``) the moves fall apart."""
        net = self.net
        low = np.flatnonzero(self.deg < 2)
        if low.size:
            v = int(low[0])
            left = [self.nm(net.indices[p]) for p in self.alive_moves(v)]
            raise _Stop({"reason": "degree", "square": self.nm(v), "moves_left": left})
        if not connectivity:
            return
        label = _kernel("component_labels", net.n)(net.indptr, net.indices, self.alive)
        k = int(label.max()) + 1
        if k > 1:
            sizes = np.bincount(label)
            first = [int(np.argmax(label == c)) for c in range(min(k, 6))]
            raise _Stop({
                "reason": "disconnected", "parts": k, "sizes": sizes[:1000].tolist(),
                "squares": [self.nm(v) for v in first],
            })
        disc, low_, parent, order, count = _kernel("lowpoint_dfs", net.n)(net.indptr, net.indices, self.alive, 0)
        parts, _, _ = _kernel("blocks", net.n)(disc, low_, parent, order, count)
        cut = np.flatnonzero(parts > 1)
        if cut.size:
            v = int(cut[0])
            alive = self.alive.copy()
            lo, hi = int(net.indptr[v]), int(net.indptr[v + 1])
            alive[lo:hi] = 0
            alive[net.twin[lo:hi]] = 0
            label = _kernel("component_labels", net.n)(net.indptr, net.indices, alive)
            keep = np.arange(net.n) != v
            ids, first, sizes = np.unique(label[keep], return_index=True, return_counts=True)
            idx = np.flatnonzero(keep)
            raise _Stop({
                "reason": "cut", "square": self.nm(v), "parts": int(ids.size),
                "sizes": sizes[:1000].tolist(), "squares": [self.nm(idx[f]) for f in first[:1000]],
            })

    # ------------------------------------------------------------ the matching step
    def hall_step(self) -> int:
        """Delete the moves in no perfect matching; return how many went."""
        net = self.net
        match = self.match
        # Keep the pairs whose move is still there (warm start).
        m_src = np.flatnonzero((net.side == 0) & (match >= 0))
        if m_src.size:
            ok = np.zeros(net.n, dtype=bool)
            hit = (self.alive == 1) & (net.indices == match[net.src]) & (net.side[net.src] == 0)
            ok[net.src[hit]] = True
            gone = m_src[~ok[m_src]]
            match[match[gone]] = -1
            match[gone] = -1
        size = _kernel("hopcroft_karp", net.n)(net.indptr, net.indices, self.alive, net.side, match)
        half = int((net.side == 0).sum())
        if size < half or half * 2 != net.n:
            self.hall_violation()
        comp, level = _kernel("alternating_scc", net.n)(net.indptr, net.indices, self.alive, net.side, match)
        src, dst = net.src, net.indices
        cand = (self.alive == 1) & (net.side[src] == 0) & (dst != match[src])
        partner = match[dst]
        gone = np.flatnonzero(cand & (comp[src] != comp[np.where(partner >= 0, partner, 0)]))
        if not gone.size:
            return 0
        top = int(level.max())
        levels = {}
        for k in range(1, top + 1):
            levels[str(k)] = net.names(np.flatnonzero(level == k))
        moves = self.moves(src[gone], dst[gone])
        step = {"step": "hall", "levels": levels, "deleted": moves}
        # Readable example: the smallest tight set (highest level) and its neighbours.
        s_set = np.flatnonzero(level == top)
        nb = np.zeros(net.n, dtype=bool)
        rows = np.isin(src, s_set) & (self.alive == 1)
        nb[dst[rows]] = True
        t_set = np.flatnonzero(nb)
        ex = gone[np.isin(dst[gone], t_set)]
        step["example"] = {
            "S": net.names(s_set[:_SHOW]), "S_size": int(s_set.size),
            "T": net.names(t_set[:_SHOW]), "T_size": int(t_set.size),
            "moves": self.moves(dst[ex[:_SHOW]], src[ex[:_SHOW]]), "moves_size": int(ex.size),
        }
        forced_gone = gone[self.forced[gone] == 1]
        self.steps.append(step)
        if forced_gone.size:
            p = int(forced_gone[0])
            raise _Stop({"reason": "forced excluded", "move": self.move(src[p], dst[p])})
        self.delete_many(gone)
        return int(gone.size)

    def hall_violation(self) -> None:
        """No perfect matching: the squares reached by alternating paths from an unmatched one."""
        net = self.net
        match = self.match
        for want in (0, 1):
            free = np.flatnonzero((net.side == want) & (match < 0))
            if free.size:
                break
        a0 = int(free[0])
        seen = {a0}
        nbrs: set[int] = set()
        queue = deque([a0])
        while queue:
            a = queue.popleft()
            for p in self.alive_moves(a):
                b = int(net.indices[p])
                if b in nbrs:
                    continue
                nbrs.add(b)
                m = int(match[b])
                if m >= 0 and m not in seen:
                    seen.add(m)
                    queue.append(m)
        raise _Stop({
            "reason": "no perfect matching",
            "S": [self.nm(v) for v in sorted(seen)],
            "T": [self.nm(v) for v in sorted(nbrs)],
        })

    # ------------------------------------------------------------ degree-2 forcing
    def force(self, p: int, queue: deque) -> None:
        net = self.net
        u, w = int(net.src[p]), int(net.indices[p])
        q = int(net.twin[p])
        self.forced[p] = self.forced[q] = 1
        self.fdeg[u] += 1
        self.fdeg[w] += 1
        for x in (u, w):
            if self.fdeg[x] > 2:
                moves = [self.nm(net.indices[r]) for r in self.alive_moves(x) if self.forced[r]]
                raise _Stop({"reason": "three forced", "square": self.nm(x), "forced_to": moves})
        ru, rw = self.find(u), self.find(w)
        if ru == rw:
            if self.size[ru] < net.n:
                raise _Stop({"reason": "short cycle", "move": self.move(u, w), "squares": int(self.size[ru])})
            raise _Stop({"reason": "forced tour"})  # the forced moves are a whole tour: no proof
        a1, a2 = self.path_ends(ru)
        b1, b2 = self.path_ends(rw)
        eu = a2 if a1 == u else a1
        ew = b2 if b1 == w else b1
        if self.size[ru] < self.size[rw]:
            ru, rw = rw, ru
        self.root[rw] = ru
        self.size[ru] += self.size[rw]
        self._ends.pop(rw, None)
        self._ends[ru] = (eu, ew)
        queue.append(u)
        queue.append(w)

    def no_short_cycle(self, v: int, queue: deque) -> None:
        """Delete the move joining the two ends of the forced path through ``v``, if it would close a short cycle."""
        net = self.net
        r = self.find(v)
        if self.size[r] >= net.n or self.size[r] < 2:
            return
        eu, ew = self.path_ends(r)
        p = net.entry(eu, ew)
        if p >= 0 and self.alive[p] and not self.forced[p]:
            self.delete(p)
            self.steps.append({"step": "subtour", "move": self.move(eu, ew), "path_squares": int(self.size[r])})
            queue.append(eu)
            queue.append(ew)

    def propagate(self, queue: deque) -> int:
        """Degree-2 forcing until nothing changes; returns the number of steps taken."""
        net = self.net
        before = len(self.steps)
        while queue:
            v = int(queue.popleft())
            if self.deg[v] < 2:
                left = [self.nm(net.indices[p]) for p in self.alive_moves(v)]
                raise _Stop({"reason": "degree", "square": self.nm(v), "moves_left": left})
            if self.fdeg[v] == 2 and self.deg[v] > 2:
                drop = [int(p) for p in self.alive_moves(v) if not self.forced[p]]
                self.steps.append({
                    "step": "drop", "square": self.nm(v),
                    "deleted": [self.move(v, net.indices[p]) for p in drop],
                })
                for p in drop:
                    self.delete(p)
                    queue.append(int(net.indices[p]))
            elif self.deg[v] == 2 and self.fdeg[v] < 2:
                moves = self.alive_moves(v)
                self.steps.append({
                    "step": "forced", "square": self.nm(v),
                    "moves": [self.move(v, net.indices[p]) for p in moves],
                })
                for p in moves:
                    if not self.forced[p]:
                        self.force(int(p), queue)
                self.no_short_cycle(v, queue)
        return len(self.steps) - before

    def start_queue(self) -> deque:
        want = ((self.deg == 2) & (self.fdeg < 2)) | ((self.fdeg == 2) & (self.deg > 2))
        return deque(np.flatnonzero(want).tolist())


def matching_proof(graph: KnightGraph, spec: TourSpec, *, time_limit: float | None = None,
                   max_rounds: int | None = None) -> Proof | None:
    """The matching proof with degree-2 forcing; a :class:`Proof` or None.

    Parameters
    ----------
    graph : KnightGraph
    spec : TourSpec
    time_limit : float, optional
        Seconds; checked between rounds.  When it runs out the answer is
        None (no proof), never a wrong one.
    max_rounds : int, optional
        Stop (with None) after this many rounds of matching and forcing.

    Returns
    -------
    Proof or None
        ``argument == "matching"``; ``evidence`` holds every step (see
        :func:`check_matching_proof`).  None when the argument finds no
        contradiction, or when colour counts or sizes already rule the tour
        out (:func:`quick_proof` says so).

    Notes
    -----
    Each round costs one maximum matching (``O(E sqrt(V))``, warm-started
    from the previous round), one strongly-connected-components pass and one
    depth-first search (``O(E)``); every round but the last deletes at least
    one move.  Boards of at most :data:`PY_MAX` nodes run the kernels as
    plain Python, larger ones compiled by numba.

    Examples
    --------
    >>> from ktsolve import Board
    >>> proof = matching_proof(KnightGraph(Board(4, 9)), TourSpec(closed=True))
    >>> proof.argument, proof.evidence["conclusion"]["reason"]
    ('matching', 'disconnected')
    """
    net = _closing_network(graph, spec)
    if net is None:
        return None
    deadline = None if time_limit is None else time.perf_counter() + float(time_limit)
    prover = _MatchingProver(net)
    rounds = 0
    try:
        queue: deque = deque()
        for u, v in net.forced0:
            p = net.entry(u, v)
            if not prover.forced[p]:
                prover.force(p, queue)
        for u, _ in net.forced0:
            prover.no_short_cycle(u, queue)
        # Before any deletion a closed question's network is the board itself,
        # whose connectivity and cut squares quick_proof examines.
        prover.check_left(connectivity=bool(net.extra))
        while True:
            if deadline is not None and time.perf_counter() > deadline:
                return None
            if max_rounds is not None and rounds >= max_rounds:
                return None
            rounds += 1
            deleted = prover.hall_step()
            if deleted:
                prover.check_left()
            changed = prover.propagate(prover.start_queue())
            if changed:
                prover.check_left()
            if not deleted and not changed:
                return None
    except _Stop as stop:
        conclusion = stop.conclusion
    if conclusion["reason"] == "forced tour":
        return None
    evidence = {
        "nodes": "board squares by name; extra squares * / *1 / *2 close an open tour",
        "side0": _colour_names(graph)[0],
        "extra": [
            {"name": x["name"], "colour": _colour_names(graph)[x["side"]],
             "joined_to": [net.name(v) for v in x["joined"][:1000]], "joined_count": int(len(x["joined"]))}
            for x in net.extra
        ],
        "forced_at_start": [[net.name(u), net.name(v)] for u, v in net.forced0],
        "steps": prover.steps,
        "conclusion": conclusion,
        "rounds": rounds,
        "excluded": prover.excluded,
    }
    return Proof(_matching_text(graph, spec, net, prover.steps, conclusion, prover.excluded), argument="matching",
                 evidence=evidence)


def _moves_text(moves, total: int | None = None, limit: int = 6) -> str:
    total = len(moves) if total is None else total
    shown = ", ".join(f"{a}-{b}" for a, b in moves[:limit])
    return shown + (f" ... ({total} moves)" if total > limit else "")


def _matching_text(graph, spec, net, steps, conclusion, excluded) -> str:
    cname = _colour_names(graph)
    parts = []
    if net.explain:
        parts.append(net.explain)
    parts.append(
        "A closed tour uses two moves at every square and, as colours alternate, every second move "
        "of it pairs each square with a neighbour of the other colour: the tour is two disjoint "
        "perfect matchings, so each of its moves lies in some perfect matching, and a square left "
        "with two usable moves must use both."
    )
    halls = [s for s in steps if s["step"] == "hall"]
    if halls:
        ex = halls[0]["example"]
        n_hall = sum(len(s["deleted"]) for s in halls)
        parts.append(
            f"The {ex['S_size']} {cname[0]} squares {_listing(ex['S'], ex['S_size'])} have between them only "
            f"the {ex['T_size']} neighbours {_listing(ex['T'], ex['T_size'])}; every perfect matching pairs "
            f"the first with the second, so the {ex['moves_size']} moves {_moves_text(ex['moves'], ex['moves_size'])} "
            f"from those neighbours to other squares lie in no perfect matching"
            + (
                f". The same argument with the nested sets of the evidence (Hall's theorem"
                f"{', ' + str(len(halls)) + ' rounds' if len(halls) > 1 else ''}) excludes {n_hall} moves in all."
                if n_hall > ex["moves_size"] else "."
            )
        )
    forced = [s for s in steps if s["step"] == "forced"]
    drops = [s for s in steps if s["step"] == "drop"]
    subs = [s for s in steps if s["step"] == "subtour"]
    if forced or drops or subs:
        bits = []
        if forced:
            bits.append(
                f"{_count(len(forced), 'square')} left with two moves must use both "
                f"({_listing([s['square'] for s in forced], len(forced), 6)})"
            )
        if drops:
            k = sum(len(s["deleted"]) for s in drops)
            bits.append(f"squares already using two forced moves cannot use their other {_count(k, 'move')}")
        if subs:
            bits.append(
                f"{_count(len(subs), 'move')} would close a chain of forced moves into a cycle missing other "
                f"squares ({_moves_text([s['move'] for s in subs], len(subs), 4)})"
            )
        parts.append("Then " + "; ".join(bits) + ".")
    reason = conclusion["reason"]
    if reason == "degree":
        left = conclusion["moves_left"]
        end = (
            f"{conclusion['square']} is left with {len(left)} usable move{'s' if len(left) != 1 else ''}"
            f"{' (to ' + ', '.join(left) + ')' if left else ''}, but a closed tour needs two"
        )
    elif reason == "disconnected":
        sz = conclusion["sizes"]
        end = (
            f"the remaining moves fall into {conclusion['parts']} separate parts "
            f"({', '.join(f'{a} squares around {b}' for a, b in zip(sz[:4], conclusion['squares'][:4]))})"
        )
    elif reason == "cut":
        end = (
            f"taking out {conclusion['square']} splits the remaining moves into {conclusion['parts']} "
            f"parts, but a closed tour without one square is still one path"
        )
    elif reason == "no perfect matching":
        end = (
            f"the {len(conclusion['S'])} squares {_listing(conclusion['S'], len(conclusion['S']))} have "
            f"only {len(conclusion['T'])} neighbours left between them, so no perfect matching exists"
        )
    elif reason == "forced excluded":
        a, b = conclusion["move"]
        end = f"the move {a}-{b} is forced but lies in no perfect matching"
    elif reason == "three forced":
        end = f"{conclusion['square']} would have to use three moves ({', '.join(conclusion['forced_to'])})"
    elif reason == "short cycle":
        a, b = conclusion["move"]
        end = f"the forced moves close into a cycle of {conclusion['squares']} squares through {a}-{b}"
    else:  # pragma: no cover - every reason is listed above
        end = reason
    what = "closed tour" if spec.closed else "tour"
    tail = f" ({_count(excluded, 'move')} excluded in all)" if excluded else ""
    parts.append(f"Finally, {end}; so no {what} exists{tail}.")
    return " ".join(parts)


def _count(k: int, word: str) -> str:
    return f"{k} {word}{'' if k == 1 else 's'}"


# ---------------------------------------------------------------------- re-checking a certificate
def check_matching_proof(graph: KnightGraph, spec: TourSpec, proof: Proof) -> bool:
    """Re-check a matching proof from its evidence alone; True, or raise ``ValueError``.

    The checker rebuilds the network from the question (not from the
    evidence), then replays every step with plain sets: each Hall step must
    come with levels whose level sets are tight (the ``side0`` squares of
    level ``>= k`` have exactly as many neighbours as they are) and may only
    delete moves ``a - b`` where ``b`` has a neighbour of level higher than
    ``a``'s; each forcing step must find exactly the moves it names; and the
    conclusion must hold of what is left.  It uses no matching algorithm, so
    a bug in the prover cannot hide in it.
    """
    if getattr(proof, "argument", None) != "matching":
        raise ValueError("not a matching proof")
    ev = proof.evidence
    board = graph.board
    n = graph.n
    colour = [int(c) for c in graph.colour]
    s = None if spec.start is None else board.index(*spec.start)
    e = None if spec.end is None else board.index(*spec.end)
    fixed = [x for x in dict.fromkeys((s, e)) if x is not None]
    # The network, from the question.
    adj: dict = {v: set(int(w) for w in graph.neighbours(v)) for v in range(n)}
    side = {v: colour[v] for v in range(n)}
    forced: set = set()
    counts = [colour.count(0), colour.count(1)]
    if spec.closed:
        if counts[0] != counts[1]:
            raise ValueError("closed question on unequal colours")
        if s is not None and e is not None and s != e:
            forced.add(frozenset((s, e)))
    else:
        if abs(counts[0] - counts[1]) > 1:
            raise ValueError("open question on colours differing by more than one")
        if counts[0] != counts[1]:
            major = 0 if counts[0] > counts[1] else 1
            joined = set(fixed) if len(fixed) == 2 else {v for v in range(n) if colour[v] == major}
            adj["*"] = set(joined)
            side["*"] = 1 - major
            for v in joined:
                adj[v].add("*")
            for x in fixed:
                forced.add(frozenset(("*", x)))
        else:
            ends = {c: {v for v in range(n) if colour[v] == c} for c in (0, 1)}
            for x in fixed:
                ends[colour[x]] = {x}
            adj["*1"], side["*1"] = set(ends[0]) | {"*2"}, 1
            adj["*2"], side["*2"] = set(ends[1]) | {"*1"}, 0
            for c, d in ((0, "*1"), (1, "*2")):
                for v in ends[c]:
                    adj[v].add(d)
            forced.add(frozenset(("*1", "*2")))
            for x in fixed:
                forced.add(frozenset(("*1" if colour[x] == 0 else "*2", x)))
    nodes = list(adj)
    total = len(nodes)
    for u in nodes:
        for w in adj[u]:
            if side[u] == side[w]:
                raise ValueError("the network is not bipartite")

    def node(name):
        if isinstance(name, str) and name.startswith("*"):
            if name not in adj:
                raise ValueError(f"no extra square {name}")
            return name
        return board.index(*board.parse_square(name))

    def edge(pair):
        u, w = node(pair[0]), node(pair[1])
        if w not in adj[u]:
            raise ValueError(f"{pair[0]}-{pair[1]} is not a move left")
        return u, w

    def forced_at(v):
        return [w for w in adj[v] if frozenset((v, w)) in forced]

    def path_from(u, w0):
        # Walk forced moves from u (not via w0 first); return the squares of the path.
        seen = [u]
        prev, cur = None, u
        while True:
            nxt = [x for x in forced_at(cur) if x != prev]
            if not nxt:
                return seen
            prev, cur = cur, nxt[0]
            if cur == u:
                return seen
            seen.append(cur)

    for step in ev["steps"]:
        kind = step["step"]
        if kind == "hall":
            level = {v: 0 for v in nodes if side[v] == 0}
            for k, names in step["levels"].items():
                for name in names:
                    v = node(name)
                    if side[v] != 0:
                        raise ValueError(f"{name} is not on side 0")
                    level[v] = int(k)
            top = max(level.values(), default=0)
            maxlev = {b: max((level[a] for a in adj[b]), default=-1) for b in nodes if side[b] == 1}
            for k in range(1, top + 1):
                n_s = sum(1 for a in level if level[a] >= k)
                n_t = sum(1 for b in maxlev if maxlev[b] >= k)
                if n_s != n_t:
                    raise ValueError(f"the squares of level >= {k} are {n_s} with {n_t} neighbours: not tight")
            for pair in step["deleted"]:
                a, b = edge(pair)
                if side[a] != 0:
                    a, b = b, a
                if not level[a] < maxlev[b]:
                    raise ValueError(f"{pair[0]}-{pair[1]} is not excluded by a tight set")
                if frozenset((a, b)) in forced:
                    if ev["conclusion"].get("reason") == "forced excluded":
                        return True
                    raise ValueError("a forced move was deleted")
                adj[a].discard(b)
                adj[b].discard(a)
        elif kind == "forced":
            v = node(step["square"])
            named = {edge(pair)[1] for pair in step["moves"]}
            if len(adj[v]) != 2 or named != adj[v]:
                raise ValueError(f"{step['square']} does not have exactly the two moves named")
            for w in named:
                forced.add(frozenset((v, w)))
        elif kind == "drop":
            v = node(step["square"])
            if len(forced_at(v)) != 2:
                raise ValueError(f"{step['square']} does not use two forced moves")
            for pair in step["deleted"]:
                a, b = edge(pair)
                if frozenset((a, b)) in forced or v not in (a, b):
                    raise ValueError(f"{pair[0]}-{pair[1]} cannot be dropped at {step['square']}")
                adj[a].discard(b)
                adj[b].discard(a)
        elif kind == "subtour":
            a, b = edge(step["move"])
            if frozenset((a, b)) in forced:
                raise ValueError("a forced move closes a subtour")
            path = path_from(a, None)
            if len(forced_at(a)) != 1 or path[-1] != b or len(path) >= total:
                raise ValueError(f"{step['move']} does not close a short forced path")
            adj[a].discard(b)
            adj[b].discard(a)
        else:
            raise ValueError(f"unknown step {kind!r}")
        for v in nodes:
            if len(forced_at(v)) > 2 and ev["conclusion"].get("reason") != "three forced":
                raise ValueError("three forced moves at one square before the conclusion")

    c = ev["conclusion"]
    reason = c["reason"]
    if reason == "degree":
        if len(adj[node(c["square"])]) >= 2:
            raise ValueError(f"{c['square']} has two or more moves left")
    elif reason in ("disconnected", "cut"):
        gone = node(c["square"]) if reason == "cut" else None
        rest = [v for v in nodes if v != gone]
        seen = {rest[0]}
        stack = [rest[0]]
        while stack:
            v = stack.pop()
            for w in adj[v]:
                if w != gone and w not in seen:
                    seen.add(w)
                    stack.append(w)
        if len(seen) == len(rest):
            raise ValueError("what is left is connected")
    elif reason == "no perfect matching":
        S = {node(x) for x in c["S"]}
        T = set().union(*(adj[v] for v in S))
        if len(T) >= len(S):
            raise ValueError("the set S has enough neighbours")
    elif reason == "three forced":
        if len(forced_at(node(c["square"]))) < 3:
            # The last forcing step names the square with a third forced move.
            raise ValueError(f"{c['square']} does not have three forced moves")
    elif reason == "short cycle":
        a, b = edge(c["move"])
        forced.add(frozenset((a, b)))
        path = path_from(a, None)
        if not (len(path) < total and b in path and frozenset((path[-1], a)) in forced):
            raise ValueError("the forced moves do not close a short cycle")
    elif reason == "forced excluded":
        raise ValueError("no Hall step deleted the forced move")
    else:
        raise ValueError(f"unknown conclusion {reason!r}")
    return True
