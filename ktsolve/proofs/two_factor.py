"""The 2-factor proof: a tour uses two moves at every square, so the moves must form a 2-factor.

A thin step over :mod:`ktsolve.factor`: the network of the question (extra
vertices closing an open tour, forced moves at fixed ends), its completion
by augmenting paths in near-linear time on the implicit grid, and, when no
2-factor exists, the min-cut witness ``(X, Y)`` in words
(:func:`ktsolve.factor.witness_proof`), which
:func:`ktsolve.factor.check_two_factor_witness` re-checks by counting.

Neither it nor the matching proof is the stronger: a bipartite 2-factor is
two disjoint perfect matchings, which the matching proof does not ask for
(every move may lie in some perfect matching while no two disjoint ones
exist: dense holed boards, ``benchmarks/results/two_factor.md``), while the
matching proof also forces moves and looks at connectivity.  This one needs
no graph arrays and runs in linear time, so it runs on every board, before
any search.
"""

from __future__ import annotations

import threading
import weakref

from ..driver import Deadline, Stopped
from ..graph import MAX_GRAPH_SQUARES
from ..result import Proof
from ..tour import TourSpec

__all__ = ["two_factor_proof", "found_factor"]

_PHASE = "running the 2-factor proof"

#: The links of the last 2-factor this proof found for a closed question, and a weak reference to its board:
#: the matching proof starts from a 2-factor of the same board (:func:`found_factor`), which on the 10^7-square
#: pair board took 0.4-0.6 s to build again in the same lane.  Dropped when the board goes; kept only for boards
#: whose knight graph the matching proof can build.
_FOUND: list = [None, None]
_FOUND_LOCK = threading.RLock()  # re-entrant: the board's weak reference may call _forget from a collection


def _forget(ref) -> None:
    with _FOUND_LOCK:
        if _FOUND[0] is ref:
            _FOUND[:] = [None, None]


def found_factor(board):
    """The links (read-only, ``rows x cols x 2`` int8) of the 2-factor :func:`two_factor_proof` last found for a
    closed question on this very ``board`` object, or None."""
    with _FOUND_LOCK:
        ref, links = _FOUND
    return links if ref is not None and ref() is board else None


def two_factor_proof(graph, spec: TourSpec, *, time_limit=None) -> Proof | None:
    """A proof that no tour exists because the question's network has no 2-factor, or None.

    Parameters
    ----------
    graph : KnightGraph or Board
        Only the board is read (no graph arrays are built).
    spec : TourSpec
    time_limit : float or Deadline, optional
        Seconds, or a caller's :class:`~ktsolve.driver.Deadline`.  When it
        runs out (or Ctrl-C is pressed) before the 2-factor is complete or
        refuted, :class:`~ktsolve.driver.Stopped` is raised.

    Examples
    --------
    >>> from ktsolve import Board
    >>> b = Board(5, 5, holes=[(1, 2), (2, 1), (2, 3), (3, 2)])
    >>> p = two_factor_proof(b, TourSpec(closed=False))
    >>> p.argument, p.evidence["need"] > p.evidence["supply_y"] + p.evidence["supply_rest"]
    ('2-factor', True)
    >>> two_factor_proof(Board(8, 8), TourSpec(closed=True)) is None
    True
    """
    from ..factor import two_factor, witness_proof

    board = getattr(graph, "board", graph)
    clock = Deadline.of(time_limit)
    clock.check(_PHASE)
    tf = two_factor(board, closed=spec.closed, start=spec.start, end=spec.end, deadline=clock)
    if tf.status == "unknown":
        raise Stopped("interrupted" if tf.stats.get("interrupted") else "time limit", _PHASE)
    if tf.status != "none":
        if spec.closed and board.n_squares <= MAX_GRAPH_SQUARES:
            # with the closing move of fixed ends in it, it is still a 2-factor of the board
            links = tf.links.copy()
            links.flags.writeable = False
            with _FOUND_LOCK:
                _FOUND[:] = [weakref.ref(board, _forget), links]
        return None
    return witness_proof(board, spec, tf.witness)
