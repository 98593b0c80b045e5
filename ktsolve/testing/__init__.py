"""Check your own knight's-tour method against ktsolve, in your own test suite.

Two assertions, an exact oracle with a cache, and hypothesis strategies:

* :func:`assert_tour` fails, with the validator's message naming the first
  fault, unless a tour (``(row, col)`` pairs, square names, square numbers,
  a numpy array, a :class:`~ktsolve.tour.Tour` or a found
  :class:`~ktsolve.result.SolveResult`) is a valid tour of the board for
  the question asked.
* :func:`assert_agrees` checks a method's *claim* (a ``SolveResult``, a tour
  in any of those forms, or None for "no tour exists") against the exact
  answer of :func:`ktsolve.prove`: an invalid tour fails; a claim that no
  tour exists fails when prove finds one; an ``unknown`` fails when prove's
  tour came from one of its polynomial constructions (an easy board).
* :func:`assert_within_count` fails when an enumerating method reports
  more distinct tours than the question has (:func:`sequence_count`, from
  the exact counts of :func:`ktsolve.models.count.count_tours`).
* :func:`exact_answer` is that oracle: prove with seed 0, each board and
  question settled once and cached in memory (and, with
  :func:`use_disk_cache`, in an SQLite file between runs).
* ``ktsolve.testing.strategies`` (needs hypothesis, ``pip install
  'ktsolve[test]'``): :func:`~ktsolve.testing.strategies.boards`,
  :func:`~ktsolve.testing.strategies.questions`, and the hard families
  :func:`~ktsolve.testing.strategies.balanced_boards`,
  :func:`~ktsolve.testing.strategies.one_hole_boards`,
  :func:`~ktsolve.testing.strategies.ring_boards` and
  :func:`~ktsolve.testing.strategies.plausible_boards`.  They are also
  reachable as ``ktsolve.testing.boards`` and so on.

The assertions raise :class:`AssertionError`, so pytest reports them as
test failures with their message; bad arguments (a board that cannot be
built, a start square on a hole) raise ktsolve's usual errors instead,
since they are a fault of the test, not of the method under test.

Examples
--------
>>> from ktsolve import Board
>>> b = Board(3, 4)
>>> assert_tour(b, ["a3", "c2", "a1", "b3", "d2", "b1", "c3", "d1", "d3", "b2", "c1", "a2"])
Traceback (most recent call last):
...
AssertionError: not a valid open tour of the 3x4 board: illegal move at step 9: d1 to d3 is not a legal move
>>> assert_agrees(Board(4, 4), None)            # "my method says no tour exists": right
>>> assert_agrees(Board(5, 5), None, start="a1")
Traceback (most recent call last):
...
AssertionError: the claim says no open tour from a1 exists on the 5x5 board, but ktsolve.prove found one ...
"""

from __future__ import annotations

import warnings

import numpy as np

from ..board import Board
from ..errors import InvalidSquareError, InvalidTourError
from ..request import as_board, make_spec
from ..result import SolveResult, Status
from ..tour import Tour, TourSpec, validate
from .counts import UnsettledWarning, assert_within_count, board_words, sequence_count
from .oracle import (
    CONSTRUCTIONS,
    CacheWarning,
    DEFAULT_TIME_LIMIT,
    ExactAnswer,
    cache_info,
    clear_cache,
    exact_answer,
    use_disk_cache,
)

__all__ = [
    "assert_tour",
    "assert_agrees",
    "assert_within_count",
    "sequence_count",
    "exact_answer",
    "ExactAnswer",
    "UnsettledWarning",
    "CacheWarning",
    "clear_cache",
    "cache_info",
    "use_disk_cache",
    "CONSTRUCTIONS",
    # hypothesis strategies, imported on first use (see ktsolve.testing.strategies)
    "boards",
    "squares",
    "questions",
    "Question",
    "balanced_boards",
    "one_hole_boards",
    "ring_boards",
    "plausible_boards",
]

_STRATEGIES = ("boards", "squares", "questions", "Question", "balanced_boards", "one_hole_boards",
               "ring_boards", "plausible_boards")

#: Choices of ``assert_agrees(..., unknown=...)``.
UNKNOWN_RULES = ("easy", "any", "allow")

#: Squares of a tour written out in a failure message.
_SHOWN = 24


def __dir__():
    # the strategies are imported on first use, but they are part of the module: dir() shows them
    return sorted(set(globals()) | set(_STRATEGIES))


def __getattr__(name):
    if name in _STRATEGIES:
        from . import strategies

        return getattr(strategies, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# ---------------------------------------------------------------------- wording
def _tour_words(tour: Tour) -> str:
    names = tour.board.names(tour.coords[:_SHOWN])
    return " ".join(names) + (f" ... ({len(tour)} squares)" if len(tour) > _SHOWN else "")


def _clip(text: str, limit: int = 500) -> str:
    """``text`` cut to ``limit`` characters: a message never grows with what a method returned."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _call_words(board: Board, spec: TourSpec) -> str:
    """How to ask the same question again, for the failure message."""
    holes = ",".join(board.name(r, c) for r, c in board.holes)
    args = [f'"{board.rows}x{board.cols}"' if not holes else
            f'ktsolve.Board.from_spec("{board.rows}x{board.cols}", holes="{holes}")']
    if spec.closed:
        args.append("closed=True")
    if spec.start is not None:
        args.append(f'start="{board.name(*spec.start)}"')
    if spec.end is not None:
        args.append(f'end="{board.name(*spec.end)}"')
    return f"ktsolve.prove({', '.join(args)}, seed=0)"


# ---------------------------------------------------------------------- tours
def _as_tour_input(board: Board, tour, closed: bool):
    """What :func:`validate` takes, from any form of tour; raises InvalidTourError for garbage."""
    if isinstance(tour, SolveResult):
        if tour.tour is None:
            reason = tour.stats.get("reason") if isinstance(tour.stats, dict) else None
            raise InvalidTourError(
                f"the result has no tour (status {tour.status.value}"
                + (f": {reason}" if reason else "") + ")"
            )
        return tour.tour
    if isinstance(tour, Tour):
        return tour
    if isinstance(tour, str):
        try:
            coords = board.parse_squares(tour, what="step", allow_holes=True)
        except InvalidSquareError as exc:
            raise InvalidTourError(str(exc)) from None
        return Tour.from_coords(board, np.array(coords, dtype=np.int64).reshape(-1, 2), closed)
    if isinstance(tour, np.ndarray):
        if tour.dtype.kind in "US":  # an array of square names
            return Tour.from_names(board, tour.tolist(), closed)
        return tour
    try:
        items = list(tour)
    except TypeError:
        raise InvalidTourError(f"a tour must be a sequence of squares, not {type(tour).__name__}") from None
    if items and all(isinstance(x, str) for x in items):
        return Tour.from_names(board, items, closed)
    try:
        arr = np.asarray(items)
    except ValueError:
        raise InvalidTourError("a tour must be square numbers, (row, col) pairs or square names") from None
    if arr.dtype == object:
        raise InvalidTourError("a tour must be square numbers, (row, col) pairs or square names")
    return arr


def assert_tour(board, tour, *, closed: bool = False, start=None, end=None) -> Tour:
    """Fail unless ``tour`` is a valid knight's tour of ``board`` for the question asked.

    Parameters
    ----------
    board : Board or str
        The board, or a size such as ``"8x8"``.
    tour : Tour, SolveResult, sequence or ndarray
        ``(row, col)`` pairs, square names (``["a1", "b3", ...]`` or one
        string ``"a1 b3 ..."``), square numbers (squares that are not holes,
        numbered row by row from the top-left), a numpy array of square
        numbers (shape ``(N,)``), of coordinates (shape ``(N, 2)``) or of names, a
        :class:`~ktsolve.tour.Tour`, or a :class:`~ktsolve.result.SolveResult`
        (its tour).
    closed : bool
        Require a closed tour.
    start, end : square, optional
        Required first and last square, ``(row, col)`` or a name like ``"a1"``.

    Returns
    -------
    Tour
        The validated tour.

    Raises
    ------
    AssertionError
        With the validator's message, naming the first fault (a move that
        is not a knight's move, a square visited twice or never, a hole, the
        wrong start or end, a tour that does not close).
    InvalidBoardError, InvalidSquareError
        For a bad board, or a start or end that is not a square of it.

    Examples
    --------
    >>> from ktsolve import Board
    >>> t = assert_tour(Board(3, 3, holes=[(1, 1)]), "a3 c2 a1 b3 c1 a2 c3 b1", closed=True)
    >>> len(t), t.closed
    (8, True)
    >>> assert_tour("3x3", [(0, 0), (1, 2)], closed=True)
    Traceback (most recent call last):
    ...
    AssertionError: not a valid closed tour of the 3x3 board: square b3 is never visited (the tour has 2 of 9 squares)
    """
    board = as_board(board)
    spec = make_spec(board, closed=closed, start=start, end=end)
    try:
        arg = _as_tour_input(board, tour, spec.closed)
        return validate(board, arg, closed=spec.closed, start=spec.start, end=spec.end)
    except InvalidTourError as exc:
        raise AssertionError(f"not a valid {spec.describe(board)} of {board_words(board)}: {exc}") from None


# ---------------------------------------------------------------------- claims
def assert_agrees(board, claim, *, closed: bool = False, start=None, end=None,
                  time_limit: float | None = DEFAULT_TIME_LIMIT, unknown: str = "easy") -> None:
    """Fail when a method's claim about ``board`` disagrees with ktsolve's exact answer.

    Parameters
    ----------
    board : Board or str
        The board, or a size such as ``"8x8"``.
    claim : SolveResult, tour, or None
        What the method under test said: a :class:`~ktsolve.result.SolveResult`
        (``found`` with its tour, ``infeasible`` or ``unknown``), a tour in any
        form :func:`assert_tour` takes, or None for "no tour exists".
    closed : bool
        The question: a closed tour.
    start, end : square, optional
        The question: a fixed first or last square.
    time_limit : float, optional
        Seconds for :func:`ktsolve.prove` when the exact answer is not
        cached yet (default 10).
    unknown : {"easy", "any", "allow"}
        When an ``unknown`` result fails: ``"easy"`` (default) when prove
        found a tour with one of its polynomial constructions (Warnsdorff's
        rule, Posa rotations, divide and conquer; see
        :data:`~ktsolve.testing.oracle.CONSTRUCTIONS`), ``"any"`` whenever
        prove found a tour, ``"allow"`` never.

    Raises
    ------
    AssertionError
        * a claimed tour is invalid (the validator's message), also when
          :func:`ktsolve.solve` already turned it into ``unknown`` with
          ``stats["invalid_tour"]``, whatever ``unknown`` says;
        * the claim is ``infeasible`` or None and prove found a tour (shown
          in the message, with the call that finds it again);
        * the claim is ``unknown`` and prove found a tour, as ``unknown`` says;
        * a result answers a question about another board, or another question.
    InvalidBoardError, InvalidSquareError, InvalidParameterError
        For bad arguments.

    Warns
    -----
    UnsettledWarning
        When the claim says no tour exists and prove found no answer within
        ``time_limit``: the claim is not checked.

    Notes
    -----
    A valid tour settles the question by itself, so a claimed tour costs
    only validation.  Any other claim asks :func:`exact_answer`, which calls
    prove once per board and question and caches the answer: a suite of a
    thousand claims about a hundred boards runs a hundred proofs.  Prove
    runs with seed 0, so the verdict, and the tour a failure message shows,
    are the same on every run.

    Examples
    --------
    >>> from ktsolve import solve
    >>> res = solve("5x5", method="warnsdorff", start="a1", seed=3)
    >>> assert_agrees("5x5", res, start="a1")
    >>> assert_agrees("4x4", solve("4x4", method="backtrack"))
    >>> assert_agrees("5x5", None, closed=True)    # no closed tour on an odd board
    """
    if unknown not in UNKNOWN_RULES:
        from ..errors import InvalidParameterError

        raise InvalidParameterError(f"unknown must be one of {', '.join(UNKNOWN_RULES)}, not {unknown!r}")
    board = as_board(board)
    spec = make_spec(board, closed=closed, start=start, end=end)
    question = spec.describe(board)
    if isinstance(claim, SolveResult):
        if claim.board is not None and claim.board != board:
            raise AssertionError(
                f"the result answers a question about {board_words(claim.board)}, not about {board_words(board)}"
            )
        if claim.spec is not None and claim.spec != spec:
            raise AssertionError(
                f"the result answers the question '{claim.spec.describe(board)}', not '{question}'"
            )
        if claim.status is Status.FOUND:
            assert_tour(board, claim, closed=spec.closed, start=spec.start, end=spec.end)
            return
        invalid = claim.stats.get("invalid_tour") if isinstance(claim.stats, dict) else None
        if invalid is not None:
            # solve() turned the method's invalid tour into "unknown": the method is wrong, whatever
            # ``unknown`` allows, and the validator has already named the first fault
            raise AssertionError(
                f"method {claim.method or '?'!r} returned an invalid tour, not a valid "
                f"{question} of {board_words(board)}: {_clip(str(invalid))}"
            )
        says = claim.status
    elif claim is None:
        says = Status.INFEASIBLE
    else:
        assert_tour(board, claim, closed=spec.closed, start=spec.start, end=spec.end)
        return
    if says is Status.UNKNOWN and unknown == "allow":
        return
    ans = exact_answer(board, closed=spec.closed, start=spec.start, end=spec.end, time_limit=time_limit)
    if ans.status is Status.FOUND:
        found = (f"ktsolve.prove found one (settled by {ans.settled_by} in {ans.seconds:.3g} s): "
                 f"{_tour_words(ans.tour)}; again with {_call_words(board, spec)}")
        if says is Status.INFEASIBLE:
            raise AssertionError(f"the claim says no {question} exists on {board_words(board)}, but {found}")
        if unknown == "any" or ans.easy:
            article = "an" if question[:1] in "aeiou" else "a"
            raise AssertionError(
                f"the result says it is unknown whether {article} {question} exists on {board_words(board)}, "
                f"but {found}"
            )
        return
    if ans.status is Status.UNKNOWN and says is Status.INFEASIBLE:
        warnings.warn(
            UnsettledWarning(
                f"ktsolve.prove could not settle whether a {question} of {board_words(board)} exists in "
                f"{time_limit} s; the claim that none exists is not checked"
            ),
            stacklevel=2,
        )
