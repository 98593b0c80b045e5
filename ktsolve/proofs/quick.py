"""The linear-time proofs on the knight graph, and :func:`quick_proof`, which runs them all.

Besides the size and colour-parity arguments of :mod:`.parity` (which need
no graph): the closing move of a closed tour with both ends fixed, squares
of degree 0 or 1, connectivity and cut squares (Hopcroft & Tarjan's
depth-first search, without recursion).

Examples
--------
>>> from ktsolve import Board, TourSpec
>>> from ktsolve.graph import KnightGraph
>>> quick_proof(KnightGraph(Board(3, 3)), TourSpec()).argument
'degree'
>>> cut_proof(KnightGraph(Board(3, 4)), TourSpec(closed=True)) is None
True
"""

from __future__ import annotations

import numpy as np

from ..driver import Stopped
from ..graph import KnightGraph
from ..result import Proof
from ..tour import TourSpec
from ._common import SHOW, kernel, listing, spec_nodes, square_name, start
from .parity import colour_proof, size_proof

__all__ = [
    "quick_proof",
    "ends_proof",
    "degree_proof",
    "connectivity_proof",
    "cut_proof",
    "components",
    "CUT_MAX",
    "CUT_SECONDS_PER_SQUARE",
    "CONNECTIVITY_SECONDS_PER_SQUARE",
]


def ends_proof(graph: KnightGraph, spec: TourSpec) -> Proof | None:
    """A closed tour from ``s`` that ends on ``t`` closes with the move ``t -> s``."""
    if not spec.closed or graph.n < 3:
        return None
    s, e = spec_nodes(graph, spec)
    if s is None or e is None or s == e:
        return None
    if e in graph.neighbours(s):
        return None
    a, b = square_name(graph, s), square_name(graph, e)
    return Proof(
        f"a closed tour from {a} that ends on {b} must close with a knight's move from {b} "
        f"back to {a}, but {b} is not a knight's move from {a}",
        argument="ends",
        evidence={"start": a, "end": b},
    )


def degree_proof(graph: KnightGraph, spec: TourSpec) -> Proof | None:
    """Squares with no neighbour, or with one neighbour where no tour end can go."""
    n = graph.n
    if n == 1:
        return None
    deg = graph.degree
    isolated = np.flatnonzero(deg == 0)
    if isolated.size:
        sq = square_name(graph, isolated[0])
        return Proof(
            f"{sq} has no knight's move to another square, so no tour can visit it",
            argument="degree",
            evidence={"square": sq, "neighbours": 0},
        )
    ones = np.flatnonzero(deg == 1)
    if not ones.size:
        return None
    names = [square_name(graph, i) for i in ones[:SHOW]]
    if spec.closed:
        return Proof(
            f"{names[0]} has only one neighbour, but a closed tour enters and leaves every square",
            argument="degree",
            evidence={"square": names[0], "neighbours": 1},
        )
    s, e = spec_nodes(graph, spec)
    fixed = [x for x in dict.fromkeys((s, e)) if x is not None]
    free_ends = 2 - len(fixed)
    loose = [int(i) for i in ones if int(i) not in fixed]
    if len(loose) > free_ends:
        loose_names = [square_name(graph, i) for i in loose[: free_ends + 1]]
        if fixed:
            fixed_txt = " and ".join(square_name(graph, i) for i in fixed)
            where = "fixed at " + fixed_txt if free_ends == 0 else "limited to " + fixed_txt + " and one more square"
            text = (
                f"{', '.join(loose_names)} {'each have' if len(loose_names) > 1 else 'has'} only one "
                f"neighbour, so {'each' if len(loose_names) > 1 else 'it'} must be an end of the tour, "
                f"but the tour's ends are {where}"
            )
        else:
            text = (
                f"{ones.size} squares ({listing([square_name(graph, i) for i in ones[:SHOW]], ones.size)}) "
                f"have only one neighbour, so each must be an end of an open tour, which has only two ends"
            )
        return Proof(
            text,
            argument="degree",
            evidence={
                "one_neighbour": [square_name(graph, i) for i in ones[:1000]],
                "fixed_ends": [square_name(graph, i) for i in fixed],
            },
        )
    return None


def components(graph: KnightGraph) -> np.ndarray:
    """Component label (int32) of every square, labels 0, 1, ... in order of first square."""
    alive = np.ones(graph.indices.size, dtype=np.uint8)
    return kernel("component_labels", graph.n)(graph.indptr, graph.indices, alive)


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
#: Seconds per square the connectivity search takes at most (measured: about 0.07 s per million).
CONNECTIVITY_SECONDS_PER_SQUARE = 1e-7


def connectivity_proof(graph: KnightGraph, spec: TourSpec) -> Proof | None:
    """A tour visits every square, so the knight graph must be connected."""
    if graph.n <= 1 or _full_and_2_connected(graph):
        return None
    label = components(graph)
    k = int(label.max()) + 1
    if k == 1:
        return None
    a = square_name(graph, 0)
    b = square_name(graph, int(np.argmax(label == 1)))
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
    return kernel("component_labels", n)(indptr, indices, alive)


def _describe_parts(graph: KnightGraph, label: np.ndarray, v: int) -> tuple[list[int], list[str]]:
    """Sizes of the parts left without ``v`` and one square of each (largest first)."""
    keep = np.ones(label.size, dtype=bool)
    keep[v] = False
    lab = label[keep]
    idx = np.flatnonzero(keep)
    ids, first, sizes = np.unique(lab, return_index=True, return_counts=True)
    order = np.argsort(-sizes, kind="stable")
    return sizes[order].tolist(), [square_name(graph, idx[first[k]]) for k in order]


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
    disc, low, parent, order, count = kernel("lowpoint_dfs", n)(indptr, indices, alive, 0)
    if count < n:
        return None
    parts, block, ncut = kernel("blocks", n)(disc, low, parent, order, count)
    cut = np.flatnonzero(parts > 1)
    if not cut.size:
        return None
    if spec.closed:
        v = int(cut[0])
        return _split_proof(graph, v, "a closed tour with {v} taken out is still one path through all the other squares")
    s, e = spec_nodes(graph, spec)
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
    fixed = [x for x in dict.fromkeys((s, e)) if x is not None]
    free_ends = 2 - len(fixed)
    loose = _loose_groups(order[:count], block, parent, parts, ncut, fixed, free_ends + 1)
    if len(loose) <= free_ends:
        return None
    shown = loose[: free_ends + 1]
    pieces = [
        f"{{{listing([square_name(graph, w) for w in np.sort(inner)[:4]], len(inner), 4)}}} through "
        f"{square_name(graph, x)}"
        for x, inner in shown
    ]
    if fixed:
        fixed_txt = " and ".join(square_name(graph, x) for x in fixed)
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
                {"through": square_name(graph, x), "square": square_name(graph, int(inner.min())),
                 "size": int(inner.size)}
                for x, inner in shown
            ],
            "fixed_ends": [square_name(graph, x) for x in fixed],
        },
    )


def _loose_groups(order, block, parent, parts, ncut, fixed: list[int], most: int) -> list[tuple[int, np.ndarray]]:
    """The first ``most`` leaf groups (in preorder of their blocks' heads) that hold no fixed end: each as its
    one cut square and the squares inside it (an array).

    ``order`` is the depth-first search's preorder (the root first, which heads no block).  A leaf block
    is a block met by one cut square of the rest (``ncut == 1``); its group is the block's squares and its
    head's parent, and it counts when exactly one of them is a cut square and some are not.  The members of
    every block are counted at once (``numpy.bincount``), so the work is linear in the squares however
    large the blocks; only the groups returned are gathered.
    """
    root, reached = int(order[0]), order[1:]
    heads = reached[block[reached] == reached]
    if heads.size < 2:
        return []
    leaves = heads[ncut[heads] == 1]
    n = block.size
    of = block[reached]
    is_cut = parts[reached] > 1
    through = np.bincount(of[is_cut], minlength=n)
    inner = np.bincount(of, minlength=n) - through
    up_cut = parts[parent[leaves]] > 1
    leaves = leaves[(through[leaves] + up_cut == 1) & (inner[leaves] + ~up_cut > 0)]
    loose = []
    for b in leaves.tolist():
        up = int(parent[b])
        if any(parts[x] == 1 and (x == up or (x != root and block[x] == b)) for x in fixed):
            continue  # the group holds a fixed end of the tour
        members = np.append(reached[of == b], up)
        cut_at = members[parts[members] > 1]
        loose.append((int(cut_at[0]), members[parts[members] == 1]))
        if len(loose) == most:
            break
    return loose


def _split_proof(graph: KnightGraph, v: int, why: str) -> Proof:
    label = _parts_without(graph.indptr, graph.indices, v)
    sizes, examples = _describe_parts(graph, label, v)
    vn = square_name(graph, v)
    shown = ", ".join(f"{sz} square{'s' if sz != 1 else ''} around {ex}" for sz, ex in zip(sizes[:4], examples[:4]))
    if len(sizes) > 4:
        shown += " ..."
    return Proof(
        f"taking out {vn} splits the board into {len(sizes)} separate parts ({shown}); "
        + why.format(v=vn),
        argument="cut square",
        evidence={"square": vn, "parts": len(sizes), "sizes": sizes[:1000], "squares": examples[:1000]},
    )


def quick_proof(graph: KnightGraph, spec: TourSpec, *, time_limit=None) -> Proof | None:
    """The first necessary condition that fails, as a proof; None when all hold.

    Runs size, ends, colour parity, degree, connectivity and cut-square
    checks, in time linear in the size of the graph (cut squares only up to
    :data:`CUT_MAX` squares; full boards with both sides at least 5 skip
    the connectivity and cut-square checks, which cannot fail there).
    ``time_limit`` (seconds, or a :class:`~ktsolve.driver.Deadline`) is
    looked at between the checks; the connectivity and cut-square searches
    do not start when they would not end in the time left (about
    :data:`CONNECTIVITY_SECONDS_PER_SQUARE` and
    :data:`CUT_SECONDS_PER_SQUARE` per square).  When the checks cannot all
    run, :class:`~ktsolve.driver.Stopped` is raised (None would say that
    every condition holds).

    Examples
    --------
    >>> from ktsolve import Board
    >>> quick_proof(KnightGraph(Board(5, 5)), TourSpec(closed=True)).argument
    'colour parity'
    >>> quick_proof(KnightGraph(Board(8, 8)), TourSpec(closed=True)) is None
    True
    """
    clock = start(graph.n, time_limit)
    phase = "running the quick proofs"
    for check in (size_proof, ends_proof, colour_proof, degree_proof, connectivity_proof):
        clock.check(phase)
        left = clock.remaining()
        if check is connectivity_proof and left is not None and left < graph.n * CONNECTIVITY_SECONDS_PER_SQUARE:
            raise Stopped("time limit", phase)  # no time for the connectivity search
        proof = check(graph, spec)
        if proof is not None:
            return proof
    if graph.n <= CUT_MAX:
        left = clock.remaining()
        if left is not None and left < graph.n * CUT_SECONDS_PER_SQUARE:
            raise Stopped("time limit", phase)  # no time for the cut-square search
        return cut_proof(graph, spec)
    return None
