"""How many tours exist, as an enumerating method lists them, and the check that it never lists more.

An enumerating method (an ant colony, a depth-first search) reports
distinct tours, each a sequence of squares from its first square: a
closed tour listed from another square or walked backwards is another
sequence.  :func:`sequence_count` says how many such sequences exist for
a question, from the exact counts of :func:`ktsolve.models.count.count_tours`:

* open tours, no start: the directed open tours (closed tours are among
  them: every closed tour is a Hamiltonian path);
* open tours from ``start`` (and to ``end``): the directed tours from it;
* closed tours from ``start`` (to ``end``): the directed closed tours
  (the directed Hamiltonian paths from ``start`` to a neighbour ``end``);
* closed tours with no start: each directed cycle listed from each of its
  ``n`` squares.

:func:`assert_within_count` fails when a method reports more distinct
tours than exist, which can only mean that its "distinct" tours are not
distinct, or not tours.

Examples
--------
>>> sequence_count("5x5"), sequence_count("5x6", closed=True)
(1728, 480)
>>> assert_within_count("5x5", 2000)
Traceback (most recent call last):
...
AssertionError: the claim reports 2,000 distinct open tours of the 5x5 board, but only 1,728 exist (ktsolve.count_tours)
"""

from __future__ import annotations

import warnings

import numpy as np

from ..request import as_board, make_spec
from ..result import Enumeration

__all__ = ["sequence_count", "assert_within_count"]


class UnsettledWarning(UserWarning):
    """:func:`assert_agrees` could not check a claim: prove found no answer within its time limit."""


# shown where users meet it, in ktsolve.testing (the module the package re-exports it from)
UnsettledWarning.__module__ = "ktsolve.testing"


def board_words(board) -> str:
    """The board in a failure message: its size and its first holes."""
    text = f"the {board.rows}x{board.cols} board"
    if board.n_holes:
        shown = ", ".join(board.name(r, c) for r, c in board.holes[:8])
        more = ", ..." if board.n_holes > 8 else ""
        text += f" with hole{'s' if board.n_holes > 1 else ''} {shown}{more}"
    return text


def sequence_count(board, *, closed: bool = False, start=None, end=None, time_limit: float | None = 60.0):
    """The number of tours of the question as square sequences, or None when the count did not finish.

    Parameters
    ----------
    board : Board or str
    closed, start, end : the question, as :func:`ktsolve.solve` takes it
    time_limit : float, optional
        Seconds for the count (:func:`ktsolve.models.count.count_tours`).
    """
    from ..models.count import count_tours

    board = as_board(board)
    spec = make_spec(board, closed=closed, start=start, end=end)
    if spec.closed and spec.start is None and spec.end is None:
        res = count_tours(board, closed=True, directed=True, time_limit=time_limit)
        return None if not res.complete else res.value * board.n_squares
    if spec.closed and spec.end is None:
        res = count_tours(board, closed=True, directed=True, time_limit=time_limit)
        return None if not res.complete else res.value
    if spec.closed and spec.start is None:
        res = count_tours(board, closed=True, directed=True, time_limit=time_limit)  # ending at end: as many
        return None if not res.complete else res.value
    res = count_tours(board, start=spec.start, end=spec.end, directed=True, time_limit=time_limit)
    if not res.complete:
        return None
    if spec.closed:  # from start to end, a neighbour of start: every such path closes
        return res.value if spec.end in _neighbours(board, spec.start) else 0
    return res.value


def _neighbours(board, square) -> set:
    r, c = square
    out = set()
    for dr, dc in ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < board.rows and 0 <= cc < board.cols and not board.is_hole(rr, cc):
            out.add((rr, cc))
    return out


def _distinct(claim) -> int:
    if isinstance(claim, Enumeration):
        return int(claim.stats.get("distinct", len(claim.tours)))
    if isinstance(claim, (int, np.integer)) and not isinstance(claim, bool):
        return int(claim)
    arr = np.asarray(claim)
    if arr.ndim != 2:
        raise TypeError("a claim is an Enumeration, a number of tours, or a (k, squares) array of tours")
    return int(np.unique(arr, axis=0).shape[0]) if arr.size else 0


def assert_within_count(board, claim, *, closed: bool = False, start=None, end=None,
                        time_limit: float | None = 60.0) -> int | None:
    """Fail when ``claim`` reports more distinct tours than the question has; the exact number otherwise.

    Parameters
    ----------
    board : Board or str
    claim : Enumeration, int, or (k, squares) array
        An enumeration (its ``stats["distinct"]``), a number of distinct
        tours, or the tours themselves (distinct rows are counted).
    closed, start, end : the question the tours answer
    time_limit : float, optional
        Seconds for the exact count; when it runs out the check cannot be
        made and a :class:`~ktsolve.testing.UnsettledWarning` says so.

    Returns
    -------
    int or None
        The number of tours (as sequences) of the question.

    Raises
    ------
    AssertionError
        More distinct tours were reported than exist.

    Examples
    --------
    >>> from ktsolve import enumerate_tours
    >>> res = enumerate_tours("5x5", "aco", cycles=20, seed=1)
    >>> assert_within_count("5x5", res)
    1728
    """
    board = as_board(board)
    reported = _distinct(claim)
    exact = sequence_count(board, closed=closed, start=start, end=end, time_limit=time_limit)
    if exact is None:
        warnings.warn(f"the tours of {board_words(board)} could not be counted within {time_limit} s; "
                      "the claim was not checked", UnsettledWarning, stacklevel=2)
        return None
    if reported > exact:
        spec = make_spec(board, closed=closed, start=start, end=end)
        what = ("closed" if spec.closed else "open") + " tours"
        if spec.start is not None:
            what += f" from {board.name(*spec.start)}"
        if spec.end is not None:
            what += f" to {board.name(*spec.end)}"
        raise AssertionError(f"the claim reports {reported:,} distinct {what} of {board_words(board)}, "
                             f"but only {exact:,} exist (ktsolve.count_tours)")
    return exact
