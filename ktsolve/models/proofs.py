"""Necessary conditions for a knight's tour, each with a certificate a person can check.

A knight's move always changes the colour of the square (``(row + col) % 2``),
so the knight graph is bipartite.  From that and from degrees and
connectivity follow short proofs that no tour exists:

* colour parity: a closed tour alternates colours, so both colours must have
  equally many squares; an open tour's colour counts differ by at most one,
  and when they differ both ends lie on the majority colour; when they are
  equal the ends have opposite colours;
* degree: a square with no neighbour cannot be visited by a tour of a board of
  more than one square; a square with one neighbour must be an end of an open
  tour (none is allowed in a closed tour, at most two in an open one);
* connectivity: a tour visits every square, so the board's knight graph must
  be connected.

:func:`quick_proof` runs these in linear time and returns the first
:class:`~ktsolve.result.Proof` that applies, or None when every condition
holds (which proves nothing: a tour may still not exist).
"""

from __future__ import annotations

import numpy as np

from ..graph import KnightGraph
from ..result import Proof
from ..tour import TourSpec

__all__ = ["quick_proof", "colour_proof", "degree_proof", "connectivity_proof", "components"]


def _name(graph: KnightGraph, i: int) -> str:
    return graph.name(int(i))


def _spec_nodes(graph: KnightGraph, spec: TourSpec) -> tuple[int | None, int | None]:
    b = graph.board
    s = None if spec.start is None else b.index(*spec.start)
    e = None if spec.end is None else b.index(*spec.end)
    return s, e


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
            evidence={"squares": n, "start": s},
        )
    return None


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
    names = [_name(graph, i) for i in ones[:6]]
    listed = ", ".join(names) + (" ..." if ones.size > 6 else "")
    if spec.closed:
        return Proof(
            f"{names[0]} has only one neighbour, but a closed tour enters and leaves every square",
            argument="degree",
            evidence={"square": names[0], "neighbours": 1},
        )
    s, e = _spec_nodes(graph, spec)
    fixed = {x for x in (s, e) if x is not None}
    free_ends = 2 - len(fixed)
    loose = [int(i) for i in ones if int(i) not in fixed]
    if len(loose) > free_ends:
        loose_names = [_name(graph, i) for i in loose[:6]]
        if fixed:
            fixed_txt = " and ".join(_name(graph, i) for i in sorted(fixed))
            text = (
                f"{', '.join(loose_names)} {'each have' if len(loose) > 1 else 'has'} only one "
                f"neighbour, so each must be an end of the tour, but the tour's ends are "
                f"{'fixed at ' + fixed_txt if free_ends == 0 else 'limited to ' + fixed_txt + ' and one more square'}"
            )
        else:
            text = (
                f"{ones.size} squares ({listed}) have only one neighbour, so each must be an "
                f"end of an open tour, which has only two ends"
            )
        return Proof(text, argument="degree", evidence={"one_neighbour": [_name(graph, i) for i in ones]})
    return None


def components(graph: KnightGraph) -> np.ndarray:
    """Component label (int32) of every square, labels 0, 1, ... in order of first square."""
    n = graph.n
    table = graph.table
    label = np.full(n, -1, dtype=np.int32)
    current = 0
    while True:
        rest = np.flatnonzero(label < 0)
        if not rest.size:
            return label
        frontier = rest[:1]
        label[frontier] = current
        while frontier.size:
            nb = table[frontier].ravel()
            nb = nb[nb >= 0]
            nb = nb[label[nb] < 0]
            nb = np.unique(nb)
            label[nb] = current
            frontier = nb
        current += 1


def connectivity_proof(graph: KnightGraph, spec: TourSpec) -> Proof | None:
    """A tour visits every square, so the knight graph must be connected."""
    if graph.n <= 1:
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
        evidence={"components": k, "sizes": sizes, "squares": [a, b]},
    )


def quick_proof(graph: KnightGraph, spec: TourSpec) -> Proof | None:
    """The first necessary condition that fails, as a proof; None when all hold.

    Runs in time linear in the size of the graph.
    """
    for check in (size_proof, colour_proof, degree_proof, connectivity_proof):
        proof = check(graph, spec)
        if proof is not None:
            return proof
    return None
