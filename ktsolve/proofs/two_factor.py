"""The 2-factor proof: a tour uses two moves at every square, so the moves must form a 2-factor.

A thin step over :mod:`ktsolve.factor`: the network of the question (extra
vertices closing an open tour, forced moves at fixed ends), its completion
by augmenting paths in near-linear time on the implicit grid, and, when no
2-factor exists, the min-cut witness ``(X, Y)`` in words
(:func:`ktsolve.factor.witness_proof`), which
:func:`ktsolve.factor.check_two_factor_witness` re-checks by counting.

It is weaker than the matching proof (a bipartite 2-factor is exactly two
disjoint perfect matchings, and the matching proof also removes moves and
looks at connectivity), but it needs no graph arrays and runs in linear
time, so it runs on every board, before any search.
"""

from __future__ import annotations

from ..driver import Deadline
from ..result import Proof
from ..tour import TourSpec

__all__ = ["two_factor_proof"]


def two_factor_proof(graph, spec: TourSpec, *, time_limit: float | None = None,
                     deadline: Deadline | None = None) -> Proof | None:
    """A proof that no tour exists because the question's network has no 2-factor, or None.

    Parameters
    ----------
    graph : KnightGraph or Board
        Only the board is read (no graph arrays are built).
    spec : TourSpec
    time_limit : float, optional
        Seconds for this proof; when they run out the answer is None.
    deadline : Deadline, optional
        The clock of the whole call: :class:`~ktsolve.driver.Stopped` is
        raised when it has expired (or Ctrl-C was pressed).

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
    if deadline is not None:
        deadline.check("running the 2-factor proof")
    own = Deadline(time_limit)
    tf = two_factor(board, closed=spec.closed, start=spec.start, end=spec.end, deadline=own)
    if tf.status == "unknown" and deadline is not None:
        deadline.check("running the 2-factor proof")  # Ctrl-C or the call's own time: stop the plan
    if tf.status != "none":
        return None
    return witness_proof(board, spec, tf.witness)
