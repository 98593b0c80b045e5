"""Cut proofs: toughness, two-square cuts and the colours of a region, each with a witness.

Three arguments about the squares that separate a board, each stated and
proved here, each found by a bounded heuristic and re-checked from its
evidence alone by :mod:`.cut_check` (which shares no code with this module).

Toughness (``"toughness"``)
    Take a set ``S`` of ``k >= 1`` squares out of the board.  A closed tour
    is a cycle through every square; without the ``k`` squares of ``S`` it
    falls into at most ``k`` paths (each piece ends just before a square of
    ``S``).  Every square outside ``S`` lies on one of those paths and each
    path runs inside one part of the board without ``S``, so the board
    without ``S`` has at most ``k`` parts.  An open tour is a path: without
    ``S`` it falls into at most ``k + 1`` pieces, and one fewer for each of
    its ends that lies in ``S`` (a piece runs between two consecutive
    squares of ``S``, or between an end and a square of ``S``).  So more
    than ``k`` parts (closed), or more than ``k + 1 - (fixed ends in S)``
    (open), prove that no tour exists.  The witness is ``S``; the checker
    counts the parts.

Two-square cuts (``"two-square cut"``)
    Let ``{u, v}`` split the board into parts, and ``A`` be one of them.  A
    tour with no end in ``A`` visits ``A`` in runs, each entered from and
    left to ``u`` or ``v`` (the only squares outside ``A`` next to it), one
    on each side, as a square is visited once.  Two runs would use both
    moves of ``u`` and of ``v``, and the tour could then never leave
    ``A + {u, v}``; but other parts exist.  So the tour runs once through
    ``A``: ``A + {u, v}`` has a Hamiltonian path from ``u`` to ``v`` (also
    when ``u`` or ``v`` is an end of the tour).  A part with no such path
    must therefore hold an end of the tour: a closed tour has none, and an
    open one has two (its fixed ends count only for the parts they lie in).
    So one such part proves that no closed tour exists, and more such parts
    without a fixed end than there are ends not fixed prove that no open
    tour exists.  ``A + {u, v}`` has no such path when (``"no entry"``)
    ``u`` or ``v`` has no move into ``A``; or (``"colour"``) the colours do
    not fit: the path ``u, a1, ..., ak, v`` alternates colours, ``a1`` has
    the colour opposite to ``u`` and ``ak`` the colour opposite to ``v``, so
    ``A`` has one more square of the colour opposite to ``u`` than of
    ``u``'s colour when ``u`` and ``v`` have the same colour, and equally
    many of both otherwise; or (``"search"``) an exhaustive search of the
    small piece finds no such path (the checker repeats it with its own
    search).

Colours of a region (``"region colours"``)
    Let ``R`` be any set of squares, ``W`` and ``B`` its squares of the two
    colours, ``C`` the squares outside ``R`` with a move into ``R``.  Every
    square of a tour uses two of the tour's moves, an end one.  A move from
    a square of ``W`` goes to ``B`` or to a square of ``C`` of the other
    colour (``C_b``); a move from ``B`` goes to ``W`` or to ``C_w``.
    Counting the moves at ``W`` and at ``B`` and subtracting,
    ``2|W| - e_W = m(W, B) + m(W, C_b)`` and ``2|B| - e_B = m(W, B) +
    m(B, C_w)``, where ``m`` counts tour moves and ``e_W`` the tour's ends
    in ``W``; so ``2 (|W| - |B|) <= m(W, C_b) + e_W``.  A square ``c`` of
    ``C_b`` uses at most two moves, and at most as many as it has into
    ``R``: ``m(W, C_b) <= sum over c in C_b of min(2, moves from c into
    R)``.  So when ``2 (|W| - |B|)`` is larger than that sum plus the ends
    that may lie in ``W`` (none for a closed tour; for an open tour the
    fixed ends in ``W``, and the ends not fixed that may have ``W``'s
    colour), no tour exists.  The colours of an open tour's ends are known
    from the board: it alternates colours, so with equally many squares of
    both colours its ends have one colour each, and with one more square of
    a colour both ends have that colour (a board with other counts has no
    open tour at all, and every end is counted).  A
    region bounded by a small cut ``C`` and much richer in one colour is the
    typical witness; with ``R`` the whole board it is the colour-parity
    argument.  (It is the special case ``X = W``, ``Y = B`` plus the squares
    of ``C_b`` with two moves into ``R``, of the 2-factor condition of
    :mod:`ktsolve.factor`, with a witness small enough to check by hand.)

Finding the witnesses
    Exact search for the best ``S`` or ``R`` is hard, so the finders are
    bounded heuristics, each with an exact checker: every pair ``{u, v}``
    whose removal splits the board is found from one depth-first search per
    square ``u`` (the cut squares of the board without ``u``, Hopcroft &
    Tarjan), in order of degree, while the time lasts; its parts give
    toughness with ``k = 2`` and the two-square cut argument.  Larger ``S``
    grow greedily from the two neighbours of a square with two moves, adding
    the square that would cut off most squares left with one or two moves;
    each ``S`` is counted with one linear pass.  Regions grow greedily from
    squares with two moves, adding the square next to ``R`` that raises
    ``2 (|W| - |B|) - supply`` most, with the change computed locally.
    All run in time linear in the board per candidate, and the number of
    candidates is bounded (``time_limit`` and the ``*_MAX`` constants).

Examples
--------
>>> from ktsolve import Board, TourSpec
>>> from ktsolve.graph import KnightGraph
>>> toughness_proof(KnightGraph(Board(3, 4)), TourSpec(closed=True)).argument
'toughness'
"""

from __future__ import annotations

import numpy as np

from ..driver import Deadline, Stopped
from ..graph import KnightGraph
from ..result import Proof
from ..tour import TourSpec
from ._common import PY_MAX, SHOW, colour_names, listing, spec_nodes, square_name, start

__all__ = [
    "cut_proofs",
    "toughness_proof",
    "two_cut_proof",
    "region_proof",
    "SEEDS_MAX",
    "GROW_STEPS",
    "PIECE_SEARCH_MAX",
]

#: Most seeds (squares with two moves) the greedy growth of ``S`` and of regions starts from.
SEEDS_MAX = 400
#: Most squares added to one ``S`` or one region by the greedy growth.
GROW_STEPS = 12
#: Largest piece (with its two cut squares) the two-square cut argument searches exhaustively.
PIECE_SEARCH_MAX = 20
#: Node budget of that search (a piece whose search runs out proves nothing).
PIECE_SEARCH_NODES = 200_000
#: Seconds the cut proofs take without a time limit.
DEFAULT_TIME = 2.0
#: What a stopped cut proof was doing (the reason of an ``unknown``).
_PHASE = "running the cut proofs"


#: Boards from this many squares run the compiled kernels when the budget is at least
#: :data:`LOAD_BUDGET` seconds (loading them from numba's cache takes about 0.3 s once; the
#: plain-Python kernels take milliseconds per pass on a few hundred squares, and the sweep of
#: two-square cuts makes one pass per square).
FAST_MIN = 100
LOAD_BUDGET = 1.0


def _kernel(name: str, n: int, seconds: float | None):
    """The compiled kernel where it pays (see :data:`FAST_MIN`), else its plain-Python twin."""
    from . import _kernels

    func = getattr(_kernels, name)
    if n > PY_MAX or func.signatures or (n >= FAST_MIN and (seconds is None or seconds >= LOAD_BUDGET)):
        return func
    return func.py_func


def _clock(time_limit) -> Deadline:
    """A cut finder's clock: ``time_limit`` (seconds or a Deadline), or :data:`DEFAULT_TIME` seconds without one."""
    clock = Deadline.of(time_limit)
    return clock if clock.time_limit is not None else Deadline(DEFAULT_TIME, cancel=clock.cancel)


class _Net:
    """The graph's arrays and neighbour lists of the squares touched so far (no Python object per square)."""

    def __init__(self, graph: KnightGraph, seconds: float | None = None):
        self.seconds = seconds
        self.graph = graph
        self.n = graph.n
        self.indptr, self.indices = graph.indptr, graph.indices
        self.degree = graph.degree
        self.colour = graph.colour
        self._nb: dict[int, list[int]] = {}
        self._src = None

    def nb(self, v: int) -> list[int]:
        out = self._nb.get(v)
        if out is None:
            out = self.indices[self.indptr[v] : self.indptr[v + 1]].tolist()
            self._nb[v] = out
        return out

    def labels_without(self, gone: np.ndarray) -> np.ndarray:
        """Component labels of the board with the squares ``gone`` (bool mask) taken out."""
        if self._src is None:
            self._src = np.repeat(np.arange(self.n, dtype=np.int32), np.diff(self.indptr))
        alive = (~(gone[self._src] | gone[self.indices])).astype(np.uint8)
        return _kernel("component_labels", self.n, self.seconds)(self.indptr, self.indices, alive)

    def parts_without(self, squares) -> tuple[int, np.ndarray, np.ndarray]:
        """Parts left without ``squares``: their number, the labels, and the mask of ``squares``."""
        gone = np.zeros(self.n, dtype=bool)
        gone[list(squares)] = True
        label = self.labels_without(gone)
        # every removed square is a part of its own in the labelling
        return int(label.max()) + 1 - int(gone.sum()), label, gone


def _bound(spec: TourSpec, ends: list[int], removed) -> int:
    """Most pieces a tour falls into without the squares ``removed`` (see the module docstring)."""
    k = len(removed)
    if spec.closed:
        return k
    return k + 1 - sum(1 for x in ends if x in removed)


def _free_end_colours(graph: KnightGraph, spec: TourSpec, fixed: list[int]) -> list[int] | None:
    """Colours of the open tour's ends that are not fixed, from the colour counts (None: any colour)."""
    counts = np.bincount(graph.colour, minlength=2)
    if counts[0] == counts[1]:
        ends = [0, 1]
    elif abs(int(counts[0]) - int(counts[1])) == 1:
        big = 0 if counts[0] > counts[1] else 1
        ends = [big, big]
    else:
        return None  # no open tour at all: the colour-parity proof says so
    for x in fixed:
        if int(graph.colour[x]) not in ends:
            return None  # a fixed end of the wrong colour: the colour-parity proof says so
        ends.remove(int(graph.colour[x]))
    return ends


def _free_ends(graph: KnightGraph, spec: TourSpec, fixed: list[int], major: int) -> int:
    """How many of the ends that are not fixed may have colour ``major`` (0 for a closed tour)."""
    if spec.closed:
        return 0
    colours = _free_end_colours(graph, spec, fixed)
    if colours is None:
        return 2 - len(fixed)
    return colours.count(major)


def _fixed(graph: KnightGraph, spec: TourSpec) -> list[int]:
    s, e = spec_nodes(graph, spec)
    return [x for x in dict.fromkeys((s, e)) if x is not None]


def _toughness(graph, spec, ends, removed, parts, label, gone) -> Proof:
    names = [square_name(graph, v) for v in sorted(removed)]
    keep = np.flatnonzero(~gone)
    ids, first, sizes = np.unique(label[keep], return_index=True, return_counts=True)
    order = np.argsort(-sizes, kind="stable")
    examples = [square_name(graph, keep[first[i]]) for i in order]
    sizes = sizes[order].tolist()
    k = len(removed)
    shown = ", ".join(f"{sz} square{'s' if sz != 1 else ''} around {ex}" for sz, ex in zip(sizes[:4], examples[:4]))
    if len(sizes) > 4:
        shown += " ..."
    bound = _bound(spec, ends, removed)
    if spec.closed:
        why = (f"a closed tour without {k} of its squares falls into at most {k} pieces, and each "
               f"part needs a piece of its own")
    else:
        inside = [square_name(graph, x) for x in ends if x in removed]
        extra = f" ({' and '.join(inside)}, an end of the tour, {'are' if len(inside) > 1 else 'is'} taken out)" \
            if inside else ""
        why = (f"an open tour without {k} of its squares falls into at most {bound} pieces{extra}, "
               f"and each part needs a piece of its own")
    return Proof(
        f"taking out the {k} squares {listing(names, k)} leaves {parts} separate parts ({shown}); {why}",
        argument="toughness",
        evidence={"removed": names, "parts": parts, "bound": bound, "sizes": sizes[:1000],
                  "squares": examples[:1000]},
    )


# ---------------------------------------------------------------------- two-square cuts
def _path_search(net: _Net, inside: set[int], u: int, v: int) -> tuple[bool | None, int]:
    """Is there a path from ``u`` to ``v`` through exactly ``inside``?  (None: out of nodes), nodes.

    Depth-first with the one pruning that a square of the piece left with
    no unused neighbour (other than through the path's head) is dead.
    """
    need = len(inside)
    used = {u}
    nodes = 0

    def free_deg(x):
        return sum(1 for y in net.nb(x) if y in inside and (y not in used or y == v))

    def go(x, depth) -> bool | None:
        nonlocal nodes
        nodes += 1
        if nodes > PIECE_SEARCH_NODES:
            return None
        for y in net.nb(x):
            if y not in inside or y in used:
                continue
            if y == v:
                if depth + 1 == need:
                    return True
                continue
            used.add(y)
            res = go(y, depth + 1)
            used.discard(y)
            if res is not False:
                return res
        return False

    if any(free_deg(a) == 0 for a in inside if a not in (u, v)):
        return False, 0
    return go(u, 1), nodes


def _piece_fails(graph, net: _Net, u: int, v: int, piece: np.ndarray) -> tuple[str, str, dict] | None:
    """Why ``A + {u, v}`` has no Hamiltonian path from ``u`` to ``v``: (reason, words, evidence), or None."""
    colour = net.colour
    pset = set(piece.tolist())
    un, vn = square_name(graph, u), square_name(graph, v)
    for x, xn in ((u, un), (v, vn)):
        if not any(y in pset for y in net.nb(x)):
            return "no entry", f"{xn} has no move into them", {}
    same = int(np.count_nonzero(colour[piece] == colour[u]))
    other = len(pset) - same
    cols = colour_names(graph)
    cu, co = cols[int(colour[u])], cols[1 - int(colour[u])]
    if colour[u] == colour[v]:
        ok, want = other == same + 1, f"one more {co} than {cu} square, as {un} and {vn} are both {cu}"
    else:
        ok, want = other == same, f"equally many squares of both colours, as {un} and {vn} differ in colour"
    if not ok:
        return ("colour", f"such a path alternates colours, so they would have {want}; they have {other} {co} "
                f"and {same} {cu}", {co: other, cu: same})
    if len(pset) + 2 <= PIECE_SEARCH_MAX:
        found, nodes = _path_search(net, pset | {u, v}, u, v)
        if found is False:
            return "search", f"an exhaustive search ({nodes:,} nodes) finds no such path", {"nodes": nodes}
    return None


def _two_cut(graph, spec: TourSpec, u: int, v: int, failing: list, fixed: list[int], free: int) -> Proof:
    """The proof from the pieces cut off by ``{u, v}`` that no path from ``u`` to ``v`` covers."""
    un, vn = square_name(graph, u), square_name(graph, v)
    parts, evidence = [], []
    for piece, (reason, words, extra) in failing:
        names = [square_name(graph, a) for a in sorted(piece.tolist())]
        parts.append(f"the {count_words(len(names))} {{{listing(names, len(names), 6)}}}: {words}")
        evidence.append({"piece": names, "reason": reason, **extra})
    head = (f"taking out {un} and {vn} cuts the board into separate parts; a tour that has no end in such a "
            f"part enters it once from {un}, runs through all of it and leaves to {vn} (it cannot enter twice: "
            f"{un} and {vn} would then lead only into it): such a part needs a path from {un} to {vn} through "
            f"all its squares. ")
    if spec.closed:
        tail = "A closed tour has no ends, but no such path exists for " + parts[0]
    else:
        fixed_txt = ("" if not fixed else
                     f" (the fixed end{'s' if len(fixed) > 1 else ''} "
                     f"{' and '.join(square_name(graph, x) for x in fixed)} lie outside these parts)")
        tail = (f"No such path exists for {'; nor for '.join(parts)}; each of these {len(parts)} parts must "
                f"hold an end of the tour, but only {free} end{'s are' if free != 1 else ' is'} not fixed"
                f"{fixed_txt}")
    return Proof(head + tail, argument="two-square cut",
                 evidence={"cut": [un, vn], "pieces": evidence, "free_ends": free})


def count_words(k: int) -> str:
    return f"{k} square{'s' if k != 1 else ''}"


def two_cut_proof(graph: KnightGraph, spec: TourSpec, *, time_limit=None) -> Proof | None:
    """Toughness with two squares, and the two-square cut argument (module docstring).

    For each square ``u`` (fewest moves first) one depth-first search finds
    the cut squares ``v`` of the board without ``u``; each pair ``{u, v}``
    is tried: too many parts prove by toughness; otherwise each part must
    have a path from ``u`` to ``v`` through it, unless a tour's end lies in
    it.  Stops at the first proof or when ``time_limit`` is spent.
    """
    n = graph.n
    if n < 5:
        return None
    clock = _clock(time_limit)
    net = _Net(graph, clock.remaining())
    ends = _fixed(graph, spec)
    free = 0 if spec.closed else 2 - len(ends)
    indptr, indices = net.indptr, net.indices
    src = np.repeat(np.arange(n, dtype=np.int32), np.diff(indptr))
    dfs, blocks = _kernel("lowpoint_dfs", n, net.seconds), _kernel("blocks", n, net.seconds)
    # pairs that are the two moves of a square with two moves: that square is a part of its
    # own whose path u, w, v always fits, so only the rest is worth a look (on small boards)
    seen: set[tuple[int, int]] = set()
    for u in np.argsort(net.degree, kind="stable").tolist():
        clock.check(_PHASE)
        alive = ((src != u) & (indices != u)).astype(np.uint8)
        root = 0 if u != 0 else 1
        disc, low, parent, order, count = dfs(indptr, indices, alive, root)
        if count < n - 1:
            continue  # u is a cut square itself (or the board falls apart): the quick proofs speak
        parts, _, _ = blocks(disc, low, parent, order, count)
        for v in np.flatnonzero(parts > 1).tolist():
            pair = (min(u, v), max(u, v))
            if pair in seen:
                continue
            seen.add(pair)
            k = int(parts[v])
            if k > _bound(spec, ends, pair):
                count_, label, gone = net.parts_without(pair)
                return _toughness(graph, spec, ends, set(pair), count_, label, gone)
            _, label, gone = net.parts_without(pair)
            keep = np.flatnonzero(~gone)
            lab = label[keep]
            failing = []
            for comp in np.unique(lab).tolist():
                piece = keep[lab == comp]
                if piece.size == 1 and net.degree[piece[0]] == 2:
                    continue  # one square between u and v: its path u, a, v always fits
                if any(x in ends for x in piece.tolist()):
                    continue  # a fixed end inside: the piece need not be one path from u to v
                why = _piece_fails(graph, net, u, v, piece)
                if why is not None:
                    failing.append((piece, why))
            if len(failing) > free:
                return _two_cut(graph, spec, u, v, failing[: free + 1], ends, free)
            clock.check(_PHASE)
    return None


# ---------------------------------------------------------------------- larger S, greedily
def toughness_proof(graph: KnightGraph, spec: TourSpec, *, time_limit=None) -> Proof | None:
    """A set ``S`` whose removal leaves more parts than a tour allows (module docstring), or None.

    Seeds: the two neighbours of each square with two moves (at most
    :data:`SEEDS_MAX`).  Each ``S`` grows by the square ``x`` that would
    cut off most squares: every square ``y`` next to ``S`` with ``r``
    neighbours left outside ``S`` (``r <= 2``) adds ``1 / r`` to each of
    them; at most :data:`GROW_STEPS` squares are added.  Each ``S`` is
    counted with one linear pass over the board.
    """
    n = graph.n
    if n < 3:
        return None
    clock = _clock(time_limit)
    net = _Net(graph, clock.remaining())
    ends = _fixed(graph, spec)
    deg = net.degree
    seeds = np.flatnonzero(deg == 2)[:SEEDS_MAX].tolist()
    tried: set[frozenset] = set()
    for w in seeds:
        S = set(net.nb(w))
        for _ in range(GROW_STEPS + 1):
            key = frozenset(S)
            clock.check(_PHASE)
            if key in tried:
                break
            tried.add(key)
            parts, label, gone = net.parts_without(S)
            if parts > _bound(spec, ends, S):
                return _toughness(graph, spec, ends, S, parts, label, gone)
            x = _best_cut_square(net, S)
            if x is None:
                break
            S.add(x)
    return None


def _best_cut_square(net: _Net, S: set[int]) -> int | None:
    """The square outside ``S`` that would cut off most squares next to ``S`` (None: none would)."""
    gain: dict[int, float] = {}
    near = {y for x in S for y in net.nb(x) if y not in S}
    for y in near:
        rest = [z for z in net.nb(y) if z not in S]
        if 1 <= len(rest) <= 2:
            for z in rest:
                gain[z] = gain.get(z, 0.0) + 1.0 / len(rest)
    if not gain:
        return None
    return max(gain, key=lambda z: (gain[z], -z))


# ---------------------------------------------------------------------- regions
def region_proof(graph: KnightGraph, spec: TourSpec, *, time_limit=None) -> Proof | None:
    """A region with more squares of one colour than its border can feed (module docstring), or None.

    Regions grow from each square with two moves (at most
    :data:`SEEDS_MAX`, that square's colour the one in excess) by the
    square next to the region that raises ``2 (|W| - |B|) - supply`` most,
    at most :data:`GROW_STEPS` squares; the change is computed from the
    neighbours of the added square alone.
    """
    n = graph.n
    if n < 3:
        return None
    clock = _clock(time_limit)
    net = _Net(graph)
    colour = net.colour
    fixed = _fixed(graph, spec)
    seeds = np.flatnonzero(net.degree == 2)[:SEEDS_MAX].tolist()
    for w in seeds:
        clock.check(_PHASE)
        major = int(colour[w])
        free_ends = _free_ends(graph, spec, fixed, major)
        R: set[int] = set()
        into: dict[int, int] = {}  # squares outside R: their moves into R
        score = 0  # 2 (|W| - |B|) - supply - fixed ends in W

        def delta(x):
            if int(colour[x]) == major:
                d = 2 - sum(1 for y in net.nb(x) if y not in R and into.get(y, 0) <= 1)
                if not spec.closed and x in fixed:
                    d -= 1
                return d
            return -2 + min(2, into.get(x, 0))

        def add(x):
            nonlocal score
            score += delta(x)
            R.add(x)
            into.pop(x, None)
            for y in net.nb(x):
                if y not in R:
                    into[y] = into.get(y, 0) + 1

        add(w)
        for _ in range(GROW_STEPS):
            if score > free_ends:
                break
            cands = list(into)
            if not cands:
                break
            x = max(cands, key=lambda z: (delta(z), int(colour[z]) == major, -z))
            if delta(x) < -2:
                break
            add(x)
        if score > free_ends:
            proof = _region(graph, spec, R, major, fixed, free_ends)
            if proof is not None:
                return proof
    return None


def _region(graph, spec, R, major, fixed, free_ends) -> Proof | None:
    """The proof for region ``R`` (recounted from scratch), or None when it does not hold."""
    colour = graph.colour
    names = colour_names(graph)
    W = sum(1 for r in R if colour[r] == major)
    B = len(R) - W
    border: dict[int, int] = {}
    for r in R:
        for y in graph.neighbours(r).tolist():
            if y not in R:
                border[y] = border.get(y, 0) + 1
    feed = {c: min(2, k) for c, k in border.items() if colour[c] != major}
    ends_in = sum(1 for x in fixed if x in R and colour[x] == major) + free_ends if not spec.closed else 0
    supply = sum(feed.values())
    if 2 * (W - B) <= supply + ends_in:
        return None
    maj, mnr = names[major], names[1 - major]
    rn = sorted(square_name(graph, r) for r in R)
    fed = ", ".join(f"{square_name(graph, c)} {k}" for c, k in sorted(feed.items())[:SHOW])
    ends_txt = ("" if spec.closed else
                f", plus {ends_in} for the {maj} squares among them that may be an end of the tour and "
                f"use one move only (the colours of an open tour's ends follow from the board's colour counts)")
    text = (
        f"the {len(R)} squares {{{listing(rn, len(rn))}}} hold {W} {maj} and {B} {mnr} squares; every square "
        f"of a tour uses two moves, so the {maj} ones need {2 * W} move-ends, the {mnr} ones inside take at "
        f"most {2 * B} of them, and the {mnr} squares around them give at most {supply} more "
        f"(two each at most, and no more than their moves into the group: {fed}{' ...' if len(feed) > SHOW else ''})"
        f"{ends_txt}: {2 * B + supply + ends_in} < {2 * W}"
    )
    return Proof(text, argument="region colours",
                 evidence={"region": rn, "colour": maj, maj: W, mnr: B, "supply": supply, "ends": ends_in})


# ---------------------------------------------------------------------- all of them
def cut_proofs(graph: KnightGraph, spec: TourSpec, *, time_limit=None) -> Proof | None:
    """The first of :func:`region_proof`, :func:`toughness_proof`, :func:`two_cut_proof` that proves.

    ``time_limit`` (seconds or a :class:`~ktsolve.driver.Deadline`; default
    :data:`DEFAULT_TIME` seconds) is shared: the regions and the greedy
    ``S`` get a quarter each of the time left, the two-square cuts what is
    left.  Assumes the quick proofs found nothing (a connected board with
    no cut square); full boards with both sides at least 5 are 2-connected
    and balanced, and are still searched (nothing is assumed).  Each finder
    is a bounded search: when one runs out of its share before it has
    tried every candidate, the next one still runs, and if none proves,
    :class:`~ktsolve.driver.Stopped` is raised (the search did not finish).
    """
    clock = _clock(time_limit)
    n, left = graph.n, clock.remaining()
    clock = start(n, clock, compiled=n > PY_MAX or (n >= FAST_MIN and left >= LOAD_BUDGET))
    stopped = None
    for finder, share in ((region_proof, 0.25), (toughness_proof, 0.25), (two_cut_proof, 1.0)):
        clock.check(_PHASE)
        try:
            proof = finder(graph, spec, time_limit=clock.part(share))
        except Stopped as stop:
            stopped = stop  # its share ran out: the next finder still gets its own
            continue
        if proof is not None:
            return proof
    if stopped is not None:
        raise stopped
    return None
