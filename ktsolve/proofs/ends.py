"""The tight-set proof of an open tour: sets of squares that each hold an end, more of them than ends.

Let ``A`` be squares of one colour whose moves all lead into a set ``N`` of
as many squares (of the other colour), with squares beyond ``A`` and ``N``.
In a tour, a square uses two moves, one if it is an end.  The moves used at
``A`` number ``2|A|`` less its ends, and all go into ``N``; those used at
``N`` number at most ``2|N| = 2|A|``, and at least one of them leaves ``A``
and ``N`` (the tour reaches the squares beyond, and only ``N`` has moves
out).  So ``A`` holds an end of the tour.  Disjoint such sets of one colour
hold as many ends of that colour, and an open tour has one end of each
colour on a board of as many light as dark squares, two of the larger
colour on a board with one square more of it (fewer where the question
fixes an end).  More sets than ends of their colour: no open tour.

Such sets are what splits a closed tour off in the matching proof, and the
matching proof, which joins an open tour's ends through extra squares, does
not see them (an extra square is a neighbour of every square of a colour).
They come from a maximum matching of the board (the one the matching proof
left): in the alternating graph of one colour (:func:`._kernels.alternating_scc`),
a strongly connected component whose squares and neighbours are all matched,
with no arc leaving it, has its squares' partners as its neighbours.

The checker (:mod:`.ends_check`) counts the neighbours of every set named.
"""

from __future__ import annotations

import numpy as np

from ..graph import KnightGraph
from ..result import Proof
from ..tour import TourSpec
from ._common import colour_names, count, kernel, listing, spec_nodes

__all__ = ["tight_sets_proof", "end_counts", "SETS_SHOWN"]

#: Sets named in the proof's text (the evidence holds every set the argument needs).
SETS_SHOWN = 4


def end_counts(colour_counts: tuple[int, int]) -> tuple[int, int]:
    """The ends an open tour has on squares of parity 0 and of parity 1.

    Examples
    --------
    >>> end_counts((5, 5)), end_counts((6, 5)), end_counts((5, 6))
    ((1, 1), (2, 0), (0, 2))
    """
    even, odd = colour_counts
    if even == odd:
        return 1, 1
    return (2, 0) if even > odd else (0, 2)


def _closed_sets(graph: KnightGraph, match: np.ndarray, side: np.ndarray, alive: np.ndarray):
    """The closed components of the alternating graph of the ``side == 0`` squares: ``(comp, closed ids)``."""
    comp, _ = kernel("alternating_scc", graph.n)(graph.indptr, graph.indices, alive, side, match)
    ncomp = int(comp.max()) + 1 if graph.n else 0
    if ncomp == 0:
        return comp, np.empty(0, dtype=np.int64)
    closed = kernel("closed_components", graph.n)(graph.indptr, graph.indices, side, match, comp, ncomp)
    return comp, np.flatnonzero(closed)


def tight_sets_proof(graph: KnightGraph, spec: TourSpec, match: np.ndarray, clock) -> Proof | None:
    """The tight-set proof (see the module docstring) of an open question, from a matching ``match`` of the
    board's squares (int32, -1 for a square left unmatched; made maximum here, in place); a :class:`Proof`,
    or None when the sets are no more than the ends.  ``clock`` is looked at between the kernels' passes."""
    if spec.closed:
        return None
    phase = "looking for sets of squares that hold an end"
    board = graph.board
    ends = end_counts(board.colour_counts())
    s, e = spec_nodes(graph, spec)
    fixed = [x for x in dict.fromkeys((s, e)) if x is not None]
    colour = graph.colour
    side = colour.astype(np.int32)
    alive = np.ones(graph.indices.size, dtype=np.uint8)
    if int((match >= 0).sum()) < 2 * min(board.colour_counts()):
        clock.check(phase)
        kernel("hopcroft_karp", graph.n)(graph.indptr, graph.indices, alive, side, match)
    # an arc needs the neighbour's partner: moves to unmatched squares are left out of the components, and
    # closed_components marks a component with such a neighbour as open
    unmatched = match < 0
    if unmatched.any():
        alive[unmatched[graph.indices]] = 0
    for parity in (0, 1):
        clock.check(phase)
        free = ends[parity] - sum(1 for x in fixed if colour[x] == parity)
        if free < 0:
            return None  # the colours rule the fixed ends out: the quick proofs say so
        comp, ids = _closed_sets(graph, match, side if parity == 0 else 1 - side, alive)
        if ids.size <= free:
            continue
        mine = np.flatnonzero((colour == parity) & (comp >= 0))
        order = np.argsort(comp[mine], kind="stable")
        mine = mine[order]
        labels = comp[mine]
        starts = np.searchsorted(labels, ids)
        stops = np.searchsorted(labels, ids, side="right")
        sets = [mine[a:b] for a, b in zip(starts.tolist(), stops.tolist())]
        # a set holding a fixed end of its colour needs no other end; a set with everything beyond it is none
        sets = [x for x in sets if 2 * x.size < graph.n and not any(f in x for f in fixed)]
        if len(sets) <= free:
            continue
        sets.sort(key=lambda x: x.size)
        sets = sets[:free + 1]
        return _proof(graph, spec, parity, sets, free, fixed)
    return None


def _neighbours(graph: KnightGraph, squares: np.ndarray) -> np.ndarray:
    return np.unique(np.concatenate([graph.indices[graph.indptr[v]:graph.indptr[v + 1]] for v in squares.tolist()]))


def _proof(graph: KnightGraph, spec: TourSpec, parity: int, sets, free: int, fixed) -> Proof:
    board = graph.board
    cname = colour_names(graph)
    c, other = cname[parity], cname[1 - parity]
    even, odd = board.colour_counts()
    names = [[graph.name(v) for v in x.tolist()] for x in sets]
    nbrs = [[graph.name(v) for v in _neighbours(graph, x).tolist()] for x in sets]
    if even == odd:
        ends = f"on a board of as many {cname[0]} as {cname[1]} squares an open tour has one end of each colour"
    else:
        major = cname[0] if even > odd else cname[1]
        ends = f"on a board with one {major} square more an open tour has both ends on {major} squares"
    mine = [graph.name(x) for x in fixed if graph.colour[x] == parity]
    if mine:
        ends += f", and the question fixes {' and '.join(mine)} as {'ends' if len(mine) > 1 else 'an end'}"
    shown = "; ".join(f"{listing(a, len(a), 6)} (neighbours {listing(b, len(b), 6)})"
                      for a, b in zip(names[:SETS_SHOWN], nbrs[:SETS_SHOWN]))
    more = f"; and {len(sets) - SETS_SHOWN} more in the evidence" if len(sets) > SETS_SHOWN else ""
    text = (
        f"A square of a tour uses two moves, one if it is an end of the tour, and {ends}. "
        f"Take a set of {c} squares whose moves all lead into a set of as many {other} squares, with other "
        f"squares beyond both: the moves the tour uses at the first set, two a square less one for each end "
        f"among them, all go into the second; those it uses at the second set are at most two a square, and "
        f"one of them leaves both sets, since the tour reaches the squares beyond; so the first set holds an "
        f"end of the tour. The {count(len(sets), 'set')} of {c} squares {shown}{more} are such sets and share "
        f"no square{', and hold no fixed end' if mine else ''}, so the tour would have {len(sets)} "
        f"{'free ' if mine else ''}{c} ends, but it has {free}; so no open tour exists."
    )
    evidence = {"colour": c, "sets": names, "neighbours_each": [len(b) for b in nbrs]}
    return Proof(text, argument="tight sets", evidence=evidence)
