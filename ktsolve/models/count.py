"""Exact counts of knight's tours by exhaustive search.

The depth-first search of :mod:`ktsolve.models.backtrack` run in counting
mode visits every tour once; its dead-end pruning only cuts branches that
hold no tour, so the counts are exact.  What is counted:

* open tours, *directed* (a tour and its reversal count twice, as do the
  same squares from a different start) or *undirected* (half the directed
  count), over all starts or from one start (then directed by nature),
  optionally to a fixed end;
* closed tours, *undirected* (Hamiltonian cycles of the knight graph, OEIS
  A001230's convention) or *directed* (twice as many).  Every cycle passes
  through every square, so they are counted from one square, the one of
  fewest neighbours, and halved.

Symmetry: when the board (holes included) is mapped onto itself by a
reflection or rotation, squares related by it start equally many tours, so
only one square of each orbit is searched.

The counts grow fast: 1,728 open tours of 5x5 take milliseconds, the
6,637,920 of 6x6 about fifteen seconds (64.6 million nodes), the 1,067,638
closed tours of 6x7 under a minute, and 8x8 (about 1.96 * 10^16) is far out of
reach.  Every count has a node budget and a time limit and says whether it
is complete.

References
----------
OEIS A165134 (directed open tours of n x n), A001230 (undirected closed
tours of 2n x 2n), A169764, A169696, A079137, A083386, A175881, A383661.

Examples
--------
>>> int(count_tours("3x4", directed=False))
8
>>> count_tours("6x6", closed=True, max_nodes=1000).complete
False
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..board import Board
from ..checks import COUNT_MAX, check_int, check_time_limit
from ..errors import InvalidBoardError, InvalidParameterError, UnsupportedError
from ..graph import KnightGraph
from ..driver import Deadline
from .backtrack import Search, run_search

__all__ = ["TourCount", "count_tours", "count_per_start", "board_symmetries", "DEFAULT_COUNT_NODES"]

#: Default node budget of a count (minutes of search).
DEFAULT_COUNT_NODES = 20_000_000_000


@dataclass(frozen=True)
class TourCount:
    """The result of a count.

    Attributes
    ----------
    value : int
        Tours counted; exact when ``complete``, else a lower bound.
    complete : bool
        True when the whole search tree was explored.
    nodes : int
        Nodes (moves tried) searched.
    elapsed : float
        Seconds.
    reason : str
        Why the count is incomplete ('' when complete).

    Examples
    --------
    >>> c = TourCount(8, True, 120, 0.01)
    >>> int(c)
    8
    >>> int(TourCount(3, False, 10, 0.01, "the node budget ran out"))
    Traceback (most recent call last):
    ...
    ValueError: the count is incomplete (the node budget ran out); 3 is only a lower bound
    """

    value: int
    complete: bool
    nodes: int
    elapsed: float
    reason: str = ""

    def __int__(self) -> int:
        if not self.complete:
            raise ValueError(f"the count is incomplete ({self.reason}); {self.value} is only a lower bound")
        return self.value


def board_symmetries(board: Board) -> list[np.ndarray]:
    """Permutations of the square numbers under the board's symmetries (:meth:`Board.symmetries`).

    Examples
    --------
    >>> len(board_symmetries(Board(5, 5))), len(board_symmetries(Board(3, 4)))
    (8, 4)
    >>> len(board_symmetries(Board(3, 4, holes=[(0, 0)])))
    1
    """
    return board.symmetries(squares=True)


def _orbit_representatives(board: Board, squares: np.ndarray, symmetric: bool) -> np.ndarray:
    """``rep[i]``: the smallest square of ``i``'s orbit (itself without symmetry)."""
    rep = np.arange(board.n_squares, dtype=np.int64)
    if symmetric:
        for perm in board_symmetries(board):
            rep = np.minimum(rep, perm)
    return rep


def _as_board(board) -> Board:
    if isinstance(board, Board):
        return board
    if isinstance(board, str):
        return Board.from_spec(board)
    raise InvalidBoardError(f"expected a Board or a size like '5x5', got {type(board).__name__}")


def _budget(max_nodes, time_limit):
    if max_nodes is None:
        max_nodes = DEFAULT_COUNT_NODES
    try:
        max_nodes = check_int("max_nodes", max_nodes, 1, COUNT_MAX)
    except InvalidParameterError:
        raise InvalidParameterError(
            f"max_nodes must be a whole number from 1 to {COUNT_MAX}, not {max_nodes!r}") from None
    return max_nodes, Deadline(check_time_limit(time_limit))


class _Counter:
    """Runs counting searches against one shared budget."""

    def __init__(self, graph, max_nodes, deadline):
        self.graph = graph
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.nodes = 0
        self.reason = ""

    def count(self, start: int, end: int = -1, closed: bool = False) -> int | None:
        """Tours from ``start`` (None when the budget ran out)."""
        if self.deadline.expired():
            self.reason = "the time limit ran out"
            self.partial = 0
            return None
        search = Search(self.graph, start, end, closed=closed, counting=True)
        outcome = run_search(search, self.deadline, self.max_nodes - self.nodes)
        self.nodes += search.nodes
        if outcome == "exhausted":
            return search.count
        self.reason = {"nodes": "the node budget ran out", "time": "the time limit ran out",
                       "interrupted": "interrupted (Ctrl-C)"}[outcome]
        self.partial = search.count
        return None


def count_tours(board, *, closed: bool = False, start=None, end=None, directed: bool = True,
                symmetry: bool = True, max_nodes: int | None = None,
                time_limit: float | None = None) -> TourCount:
    """Count the knight's tours of ``board`` exactly.

    Parameters
    ----------
    board : Board or str
        The board (holes allowed), or a size such as ``"5x5"``.
    closed : bool
        Count closed tours instead of open ones.
    start, end : square, optional
        Open tours only: count the tours from ``start`` (and to ``end``);
        ``end`` alone counts the tours ending there.  Such counts are
        directed.
    directed : bool
        Count a tour and its reversal as two (default) or as one.
    symmetry : bool
        Search one start per orbit of the board's symmetries (default).
    max_nodes : int, optional
        Node budget (default :data:`DEFAULT_COUNT_NODES`).
    time_limit : float, optional
        Seconds.

    Returns
    -------
    TourCount
        ``int(result)`` is the count; it raises when the budget ran out
        before the count was complete.

    Raises
    ------
    UnsupportedError
        A start or end for closed tours, or ``directed=False`` with a start
        or end.

    Examples
    --------
    >>> int(count_tours("5x5"))
    1728
    >>> int(count_tours("3x4", directed=False))
    8
    >>> int(count_tours("5x6", closed=True, directed=False))
    8
    >>> int(count_tours("5x5", start=(0, 0)))
    304
    """
    t0 = time.perf_counter()
    board = _as_board(board)
    if closed and (start is not None or end is not None):
        raise UnsupportedError(
            "closed tour counts do not depend on a start or end (every closed tour passes every square); "
            "leave them out"
        )
    if not directed and (start is not None or end is not None):
        raise UnsupportedError("tours from a given start or to a given end are counted directed only")
    max_nodes, deadline = _budget(max_nodes, time_limit)
    graph = KnightGraph.of(board)
    n = graph.n
    counter = _Counter(graph, max_nodes, deadline)

    def done(value, complete=True):
        return TourCount(int(value), complete, counter.nodes, time.perf_counter() - t0,
                         "" if complete else counter.reason)

    s = None if start is None else board.index(*board.parse_square(start, what="start"))
    e = None if end is None else board.index(*board.parse_square(end, what="end"))

    if closed:
        if n < 3:
            return done(0)
        anchor = int(np.argmin(graph.degree))
        got = counter.count(anchor, closed=True)
        if got is None:
            return done(counter.partial // 2 * (2 if directed else 1), complete=False)
        # Each cycle through the anchor is met once in each direction.
        return done(got if directed else got // 2)
    if n == 1:
        return done(1 if (s in (None, 0) and e in (None, 0)) else 0)
    if s is not None and e is not None:
        if s == e:
            return done(0)
        got = counter.count(s, e)
        return done(counter.partial, False) if got is None else done(got)
    if s is not None or e is not None:
        got = counter.count(s if s is not None else e)  # tours ending on e, reversed, start there
        return done(counter.partial, False) if got is None else done(got)
    per = _per_start(counter, board, np.arange(n), symmetry)
    if per is None:
        return done(counter.partial_total, complete=False)
    total = int(per.sum())
    return done(total if directed else total // 2)


def _per_start(counter: _Counter, board: Board, squares, symmetry: bool) -> np.ndarray | None:
    n = board.n_squares
    rep = _orbit_representatives(board, squares, symmetry)
    per = np.zeros(n, dtype=np.int64)
    known: dict[int, int] = {}
    total = 0
    for i in range(n):
        r = int(rep[i])
        if r not in known:
            got = counter.count(r)
            if got is None:
                counter.partial_total = total + counter.partial
                return None
            known[r] = got
        per[i] = known[r]
        total += known[r]
    return per


def count_per_start(board, *, symmetry: bool = True, max_nodes: int | None = None,
                    time_limit: float | None = None) -> np.ndarray:
    """Directed open tours from every square, as a ``rows x cols`` matrix (-1 on holes).

    Raises
    ------
    UnsupportedError
        When the budget runs out before every count is complete.

    Examples
    --------
    >>> count_per_start("3x4").tolist()
    [[2, 0, 0, 2], [4, 0, 0, 4], [2, 0, 0, 2]]
    """
    board = _as_board(board)
    max_nodes, deadline = _budget(max_nodes, time_limit)
    graph = KnightGraph.of(board)
    counter = _Counter(graph, max_nodes, deadline)
    per = _per_start(counter, board, np.arange(graph.n), symmetry)
    if per is None:
        raise UnsupportedError(f"the per-start counts of this board did not finish: {counter.reason}")
    out = np.full(board.size, -1, dtype=np.int64)
    out[board.mask.ravel()] = per
    return out.reshape(board.rows, board.cols)
