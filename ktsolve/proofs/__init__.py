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
certificate from its evidence alone, with no matching algorithm.  Where it
finds nothing on an open question, its last matching gives the *tight-set
proof* (:mod:`.ends`, argument ``"tight sets"``): a tight set of one colour,
with squares beyond it and its neighbours, holds an end of every tour (the
moves the tour uses at it all go into its neighbours, one of which must
leave), so disjoint tight sets outnumbering the ends of their colour (one
of each colour where the colours balance, two of the larger colour where it
has one square more) refute the open tour; :mod:`.ends_check` re-checks it
by counting the neighbours of the sets named.

:func:`two_factor_proof` is linear and runs on every board: a tour uses
two moves at every square, so its moves form a 2-factor of the board (with
extra squares joining an open tour's ends); :mod:`ktsolve.factor` completes
one by augmenting paths on the implicit grid, or finds sets ``X`` and ``Y``
of opposite colours where ``X`` needs more moves than ``Y`` and the moves
leaving ``X`` elsewhere can give (:func:`ktsolve.factor.check_two_factor_witness`
re-checks it by counting).  It refutes boards the matching proof cannot (a
bipartite 2-factor is two *disjoint* perfect matchings) and the matching
proof refutes boards it cannot (forced moves, connectivity); it needs no
graph arrays.

Where they run: :func:`ktsolve.solve` calls :func:`quick_proof` and
:func:`two_factor_proof` (at most 30% of a time limit, after the
matching proof where that one runs) before every method, and
:func:`matching_proof` too on boards of at most 20,000
squares with a budget of one second (milliseconds on small boards, about
0.05 s at 100x100); :func:`ktsolve.prove` runs both on any board.  On
holed boards of at most 20,000 squares the cut proofs (:func:`cut_proofs`:
toughness, two-square cuts, the colours of a region) follow the matching
proof, with 0.03 s in every plan and 5 s in :func:`ktsolve.prove`.  Graphs
of at most :data:`PY_MAX` nodes run the kernels as plain Python, so small
boards pay no numba start-up.

Every function returns a :class:`~ktsolve.result.Proof` (text, argument name
and evidence) or None when its argument does not apply, which proves
nothing: a tour may still not exist.

The package is the layer both sides share:

* :mod:`.parity`: the size and colour-parity arguments, from the board alone
  (no graph), used by the quick proofs and by divide and conquer;
* :mod:`.quick`: the other linear-time arguments on the knight graph (ends,
  degree, connectivity, cut squares) and :func:`quick_proof`;
* :mod:`.two_factor`: the 2-factor proof, a thin step over :mod:`ktsolve.factor`;
* :mod:`.matching`: the matching proof;
* :mod:`.certificate`: :func:`check_matching_proof`, which re-checks a
  matching proof from its evidence alone;
* :mod:`.cuts`: the cut proofs (toughness, two-square cuts, the colours
  of a region), found by bounded heuristics after the matching proof on
  holed boards, and :mod:`.cut_check`: their independent checkers;
* :mod:`.verdict`: :func:`check_proof`, which re-checks any proof through
  the one table of checkers (:data:`CHECKERS`, one per argument) and
  answers a :class:`Verdict`: valid, invalid with the reason, or not
  checkable; the checkers besides those above are :mod:`.basic_check`
  (size, colour parity, closing move, connectivity, cut squares, the
  theorems), :mod:`.local_check` (degree), :mod:`ktsolve.factor.witness_check`
  (2-factor) and :mod:`.cnf_check` (the certificate of a search's "no": a
  CNF with cuts and a DRUP proof);
* :mod:`.theorems`: the existence theorems of full boards (Schwenk; Cull &
  De Curtins; Conrad et al.) and :func:`full_board_proof`, which divide and
  conquer cites without building the graph;
* :mod:`._kernels`: the numba kernels (depth-first search, matchings).

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

from ._common import warm_kernels
from .certificate import check_matching_proof
from .registry import CHECKERS
from .verdict import Verdict, check_proof
from .cuts import cut_proofs, region_proof, toughness_proof, two_cut_proof
from .matching import matching_proof
from .parity import colour_proof, size_proof
from .quick import components, connectivity_proof, cut_proof, degree_proof, ends_proof, quick_proof
from .theorems import full_board_proof, has_closed_tour, has_open_tour
from .two_factor import two_factor_proof

__all__ = [
    "warm",
    "quick_proof",
    "size_proof",
    "ends_proof",
    "colour_proof",
    "degree_proof",
    "connectivity_proof",
    "cut_proof",
    "components",
    "two_factor_proof",
    "matching_proof",
    "check_matching_proof",
    "cut_proofs",
    "toughness_proof",
    "two_cut_proof",
    "region_proof",
    "check_proof",
    "Verdict",
    "CHECKERS",
    "full_board_proof",
    "has_closed_tour",
    "has_open_tour",
]


def warm() -> float:
    """Compile (or load from numba's cache) the proofs' kernels; the seconds spent compiling.

    :func:`ktsolve.solve` runs the proofs before any method, and on boards
    of more than :data:`~._common.PY_MAX` squares (the cut proofs: from
    :data:`~.cuts.FAST_MIN`, with a second to spend) they run numba kernels:
    their first-run compile is prepared here, for ``ktsolve warm`` and for
    the portfolio, which does not charge it to the time limit.  The 2-factor
    proof's kernels (:mod:`ktsolve.factor`) are prepared with them.

    Examples
    --------
    >>> warm() >= 0.0
    True
    """
    return warm_kernels()  # the kernels called directly (._common), as a finder prepares them at its entry
