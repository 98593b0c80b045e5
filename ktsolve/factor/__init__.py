"""2-factors of the knight graph: completion by augmenting paths, and a checkable witness when none exists.

A closed knight's tour uses exactly two moves at every square, so its moves
form a *2-factor*: a spanning subgraph in which every square has degree 2.
A 2-factor is a set of disjoint cycles covering the board; a tour is a
2-factor with one cycle.  So "the board has a 2-factor" is a necessary
condition for a closed tour, decided in near-linear time, and a 2-factor is
the raw material of the constructions that merge cycles into one tour.

The network
-----------
The knight graph is bipartite (a move changes the colour ``(row + col) % 2``).
Give every vertex ``v`` a *capacity* ``b(v)``: the number of tour moves it
must use (2 for a square; less where some of its moves are forced, below).
Call the colour of the flow's source side ``P`` and the other ``Q``.  A
spanning subgraph with degree exactly ``b(v)`` everywhere (a *b-factor*) is
a maximum flow of value ``b(P) = b(Q)`` in the network

    source -> p   capacity b(p)     (p of colour P)
    p -> q        capacity 1        (a move between p and q)
    q -> sink     capacity b(q)     (q of colour Q)

By max-flow min-cut, with ``X`` the ``P``-vertices and ``Y`` the
``Q``-vertices on the source's side of a cut, the cut's capacity is
``b(P \\ X) + b(Y) + e(X, Q \\ Y)``, where ``e(X, Q \\ Y)`` counts the moves
from ``X`` to ``Q``-vertices outside ``Y``.  So a b-factor exists if and only
if ``b(P) == b(Q)`` and, for every ``X`` and ``Y``,

    b(X) <= b(Y) + e(X, Q \\ Y).

When no b-factor exists, the *witness* is a pair ``(X, Y)`` with
``b(X) > b(Y) + e(X, Q \\ Y)``: the vertices of ``X`` need ``b(X)``
move-ends; each of their moves goes either into ``Y``, whose vertices take at
most ``b(Y)`` moves in all, or to a vertex outside ``Y``, and there are only
``e(X, Q \\ Y)`` such moves.  This is the deficiency form of Tutte's
f-factor theorem for bipartite graphs (Ore 1957); a person checks it by
counting.  When the colours' capacities differ, ``X`` = every vertex of the
larger side and ``Y`` = every vertex of the other side is a witness
(``e(X, Q \\ Y) = 0``).  The witness comes from the last residual search:
``X`` and ``Y`` are the vertices reachable from a vertex still short of
moves by alternating paths (a non-factor move ``P -> Q``, then a factor
move ``Q -> P``).

Open tours and fixed ends
-------------------------
An open tour becomes a closed one once extra vertices join its ends; the
extra vertices keep the graph bipartite:

* colours ``|P| = |Q| + 1`` (``P`` the larger colour): both ends lie on
  ``P``; one extra vertex ``z`` of colour ``Q`` joins every ``P`` square
  (or only the fixed start/end): a tour from ``a`` to ``b`` is a Hamiltonian
  cycle ``a ... b z a``;
* colours ``|P| = |Q|``: the ends have opposite colours; ``z1`` (colour
  ``Q``) joins the ``P`` squares that may end the tour, ``z2`` (colour
  ``P``) joins the ``Q`` squares that may end it, and the move ``z1 - z2``
  closes the cycle ``a ... b z2 z1 a``.

A move every tour must use is *forced*: it is taken out of the network and
each of its two vertices needs one move fewer.  Forced are ``z1 - z2``, the
moves ``z - s`` to a fixed start or end ``s`` (so ``s`` gets capacity 1 and
is left out of ``z``'s other moves; ``z`` with both ends fixed disappears),
and for a closed tour with a fixed start and end, the closing move
``end - start``.  A closed tour with only a fixed start changes nothing.
The extra vertices' moves are never listed: an extra vertex of colour ``c``
is joined to every square of the other colour except the ones excluded, so
it costs no memory per square.  Each of these graphs has a 2-factor (with
the forced moves) whenever the question has a tour, so "none" proves that
no tour exists; the converse fails (a 2-factor may have many cycles).
An open tour of one square is its own trivial tour (``found`` at once).

Representation
--------------
Everything works on the implicit grid: a ``uint8`` mask of the rectangle
(1 on squares) and the eight knight moves of :data:`ktsolve.graph.KNIGHT_MOVES`,
neighbours computed on the fly, so a ``10000 x 10000`` board costs about 8
bytes per cell (mask 1, links 2, search stamp 4, parent move 1) plus work
arrays as large as the largest search, never a CSR list of its 8 * 10^8
move entries.

How it completes: a *cold start* lays a 2-factor of the 4 x 4 board on
every whole 4 x 4 block, a *warm start* keeps the valid links of the
links it is given; a greedy pass links neighbours that both still need a
move; then one residual search per vertex still short of moves, nearest
first towards a short vertex of the other colour (so its cost follows the
length of its path, not the area around it), flips an augmenting path.  A
search that fails marks the closed set it reached: no later augmenting
path enters it, and at the end those sets are the witness.

*Links*: an ``int8`` array of shape ``(rows, cols, 2)``, two slots per cell:
``0 .. 7`` the move (index into ``KNIGHT_MOVES``, ``(row change, col
change)``) to the linked square, :data:`END` (8) a link to the extra vertex
that closes an open tour (the square is an end of the open path), and
:data:`NONE` (-1) an empty slot (both slots of a hole are -1).  Links are
mutual: if ``(r, c)`` links by move ``j`` to ``(r', c')``, then
``(r', c')`` links back by the opposite move ``j ^ 4`` (the moves are listed
so that ``KNIGHT_MOVES[j ^ 4] == -KNIGHT_MOVES[j]``).  A complete 2-factor of
a closed question has both slots of every square filled; of an open one, the
same with exactly two :data:`END` slots, which the cycles view as one path.

API
---
``two_factor(board, *, closed=True, start=None, end=None, init=None, deadline=None) -> TwoFactor``
    Complete a 2-factor of the question's network, warm-started from
    ``init`` (links; for instance a tour of the full board with the holes
    deleted, :func:`links_from_tour`) or from a greedy start.  The answer:

    ``TwoFactor.status``: ``"found"``, ``"none"`` or ``"unknown"`` (the
    deadline expired; never a wrong answer);
    ``TwoFactor.links``: the 2-factor when found (else None);
    ``TwoFactor.witness``: a :class:`Witness` when none exists;
    ``TwoFactor.seconds``, ``.augmentations`` (augmenting paths applied),
    ``.searches`` (residual searches run), ``.greedy`` (links the greedy
    pass added), ``.dropped`` (slots of ``init`` that were not valid links
    of this network, cleared), ``.network`` (the :class:`Network`),
    ``.stats`` (a dict of all of them, ``tiled``, ``reached`` and the
    seconds of each phase).

``Witness``: ``colour`` (the parity ``(row + col) % 2`` of ``X``), ``X``
    and ``Y`` (int32 square numbers of the board, sorted), ``x_extra`` and
    ``y_extra`` (whether the extra vertex of ``X``'s colour, resp. of ``Y``'s
    colour, belongs to the set), and ``need``, ``supply_y``, ``supply_rest``:
    ``b(X)``, ``b(Y)`` and ``e(X, Q \\ Y)``, with ``need > supply_y +
    supply_rest``.

``check_two_factor_witness(board, spec, witness) -> str | None``
    An independent re-check in plain numpy (no kernel, no flow): None when
    the witness proves that no 2-factor exists, else why it does not.

``check_two_factor_evidence(board, spec, evidence) -> str | None``
    The same re-check of a ``"2-factor"`` proof's evidence (square names or
    numbers read back into a witness; the stated counts not trusted).

``witness_proof(board, spec, witness) -> Proof``
    The witness in words a person can follow (argument ``"2-factor"``,
    evidence re-checked by :func:`check_two_factor_witness`).

``links_from_tour(board, squares, *, closed, source=None) -> links``
    A tour's moves as links (a partial 2-matching when ``source``, the board
    the tour is on, has squares that are holes of ``board``: their links are
    deleted).

``cycles(links) -> (labels, count)``, ``cycle_count(links) -> int``
    The components of a 2-factor (or of any links): an int32 label per cell
    (-1 on holes and unlinked cells) by a linear walk; an open path counts
    as one component.

``check_links(board, links, *, closed=True, start=None, end=None) -> str | None``
    Whether ``links`` is a complete 2-factor of the question's network
    (plain numpy): None, or what is wrong.

``warm() -> float``
    Compile (or load) the kernels, through :func:`ktsolve.jit.prepare`.

References
----------
O. Ore, "Graphs and subgraphs", Transactions of the American Mathematical
Society 84:109-136, 1957 (the deficiency of bipartite f-factors).
W. T. Tutte, "The factors of graphs", Canadian Journal of Mathematics
4:314-328, 1952.
L. R. Ford and D. R. Fulkerson, "Maximal flow through a network", Canadian
Journal of Mathematics 8:399-404, 1956.
"""

from .._grid_kernels import END, NONE  # noqa: E402  (the one definition of the slots' values)
from .check import check_links, check_two_factor_evidence, check_two_factor_witness, witness_proof  # noqa: E402
from .core import TwoFactor, Witness, two_factor, warm  # noqa: E402
from .links import cycle_count, cycles, links_from_tour  # noqa: E402
from .network import Extra, Network, network  # noqa: E402

__all__ = [
    "END",
    "NONE",
    "two_factor",
    "TwoFactor",
    "Witness",
    "check_two_factor_witness",
    "check_two_factor_evidence",
    "witness_proof",
    "check_links",
    "links_from_tour",
    "cycles",
    "cycle_count",
    "network",
    "Network",
    "Extra",
    "warm",
]
