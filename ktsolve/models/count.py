"""Exact counts of knight's tours: by exhaustive search, or by the frontier method.

Two methods (``method=``):

* ``"search"``: the depth-first search of :mod:`ktsolve.models.backtrack`
  run in counting mode visits every tour once; its dead-end pruning only
  cuts branches that hold no tour, so the counts are exact.  Its cost is
  a step per tour: fine for thousands of tours, hopeless for 8x8.
* ``"frontier"``: :mod:`ktsolve.models.frontier` carries a table of the
  states of the squares whose moves are not all decided across the board,
  square by square along its shorter side; its cost is the number of
  states, not of tours (6 x 8's 55 million closed tours in a second).
* ``"auto"`` (the default): the frontier method when the board's shorter
  side (rows and columns made only of holes left out) is at most
  :data:`AUTO_FRONTIER_SIDE` and it has more than
  :data:`AUTO_SEARCH_SQUARES` squares; exhaustive search otherwise, or
  when an option of the search (``max_nodes``, ``symmetry=False``) is
  given; an option of the frontier method (``max_memory``,
  ``arithmetic``, ``prime_set``) makes it count by the frontier.

What is counted:

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

By search the counts grow fast: 1,728 open tours of 5x5 take
milliseconds, the 6,637,920 of 6x6 about fifteen seconds (64.6 million
nodes), the 1,067,638 closed tours of 6x7 under a minute.  Every count has
a time limit (and the search a node budget, the frontier a memory budget)
and says whether it is complete; an incomplete frontier count has no
value, an incomplete search's value is only a lower bound.

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
>>> count_tours("6x8", closed=True, directed=False).value        # OEIS A175881
55488142
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ..board import Board
from ..checks import COUNT_MAX, check_int, check_time_limit
from ..errors import InvalidBoardError, InvalidParameterError, UnsupportedError
from ..graph import KnightGraph
from ..driver import Deadline
from .frontier_exact import ARITHMETIC

__all__ = ["TourCount", "count_tours", "count_per_start", "board_symmetries", "strip_counts", "DEFAULT_COUNT_NODES",
           "COUNT_METHODS", "AUTO_FRONTIER_SIDE", "AUTO_SEARCH_SQUARES", "ARITHMETIC"]

#: Default node budget of a count (minutes of search).
DEFAULT_COUNT_NODES = 20_000_000_000
#: The methods of :func:`count_tours`.
COUNT_METHODS = ("auto", "frontier", "search")
#: ``auto`` counts by the frontier method up to this shorter side (see benchmarks/results/count.md).
AUTO_FRONTIER_SIDE = 8
#: ... and by exhaustive search on boards of at most this many squares, where it takes milliseconds and the
#: frontier method's set-up costs more (5x5 open: 9 ms against 51 ms; 4x8 open: 560 ms against 104 ms).
AUTO_SEARCH_SQUARES = 30


@dataclass(frozen=True)
class TourCount:
    """The result of a count.

    Attributes
    ----------
    value : int or None
        Tours counted; exact when ``complete``.  An incomplete search's
        value is a lower bound; an incomplete frontier count has none.
    complete : bool
        True when the count finished.
    nodes : int
        Nodes (moves tried) searched (0 for the frontier method).
    elapsed : float
        Seconds.
    reason : str
        Why the count is incomplete ('' when complete).
    method : str
        ``"search"`` or ``"frontier"``.
    states : int
        The frontier method's largest table of states (0 for search).
    stats : dict
        More about the run: the frontier's arithmetic, memory, squares done,
        compile seconds, and whether Ctrl-C stopped it (``interrupted``).

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

    value: int | None
    complete: bool
    nodes: int
    elapsed: float
    reason: str = ""
    method: str = "search"
    states: int = 0
    stats: dict = field(default_factory=dict)

    def __int__(self) -> int:
        if not self.complete:
            if self.value is None:
                raise ValueError(f"the count is incomplete ({self.reason}); there is no number")
            raise ValueError(f"the count is incomplete ({self.reason}); {self.value} is only a lower bound")
        return self.value

    @property
    def status(self) -> str:
        """``"counted"`` when complete, else ``"unknown"``."""
        return "counted" if self.complete else "unknown"

    @property
    def interrupted(self) -> bool:
        return bool(self.stats.get("interrupted"))


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
        self.interrupted = False

    def count(self, start: int, end: int = -1, closed: bool = False) -> int | None:
        """Tours from ``start`` (None when the budget ran out)."""
        if self.deadline.expired():
            self.reason = "the time limit ran out"
            self.partial = 0
            return None
        from .backtrack import Search, run_search  # numba: imported when a search runs

        search = Search(self.graph, start, end, closed=closed, counting=True)
        outcome = run_search(search, self.deadline, self.max_nodes - self.nodes)
        self.nodes += search.nodes
        if outcome == "exhausted":
            return search.count
        self.reason = {"nodes": "the node budget ran out", "time": "the time limit ran out",
                       "interrupted": "interrupted (Ctrl-C)"}[outcome]
        self.interrupted = outcome == "interrupted"
        self.partial = search.count
        return None


def count_tours(board, *, closed: bool = False, start=None, end=None, directed: bool = True,
                method: str = "auto", symmetry: bool = True, max_nodes: int | None = None,
                time_limit: float | None = None, max_memory: int | None = None, arithmetic: str = "auto",
                prime_set: int = 0, progress=None) -> TourCount:
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
    method : {'auto', 'frontier', 'search'}
        See the module notes.
    symmetry : bool
        Search: one start per orbit of the board's symmetries (default).
    max_nodes : int, optional
        Search: node budget (default :data:`DEFAULT_COUNT_NODES`); giving
        one (or ``symmetry=False``) makes ``auto`` search.
    time_limit : float or Deadline, optional
        Seconds.
    max_memory : int, optional
        Frontier: bytes its tables may hold (default: half the memory
        available when the count starts).
    arithmetic : {'auto', 'int64', 'residues'}
        Frontier: how counts are kept exact (:mod:`ktsolve.models.frontier`).
    prime_set : {0, 1}
        Frontier: which of two disjoint sets of primes residues use (a
        count run with both is checked twice).
    progress : callable, optional
        Frontier: ``progress(squares done, squares, note)`` after every
        square (the search does not report progress).

    Returns
    -------
    TourCount
        ``int(result)`` is the count; it raises when the budget ran out
        before the count was complete.

    Raises
    ------
    UnsupportedError
        A start or end for closed tours, ``directed=False`` with a start
        or end, an option of one method given to the other, or the
        frontier method on a board whose shorter side is above 11.

    Examples
    --------
    >>> int(count_tours("5x5"))
    1728
    >>> count_tours("5x5", method="search").nodes > 0, count_tours("5x5", method="frontier").states > 0
    (True, True)
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
    method = _pick(board, method, max_nodes, symmetry, max_memory, arithmetic, prime_set)
    if method == "frontier":
        return _count_frontier(board, closed, start, end, directed, time_limit, max_memory, arithmetic,
                               prime_set, progress)
    max_nodes, deadline = _budget(max_nodes, time_limit)
    graph = KnightGraph.of(board)
    n = graph.n
    counter = _Counter(graph, max_nodes, deadline)

    def done(value, complete=True):
        return TourCount(int(value), complete, counter.nodes, time.perf_counter() - t0,
                         "" if complete else counter.reason, stats={"interrupted": counter.interrupted})

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


def _pick(board: Board, method, max_nodes, symmetry, max_memory, arithmetic, prime_set) -> str:
    """The method that will count: ``method`` checked, ``auto`` resolved, options of the other one refused."""
    from ..checks import check_choice

    method = check_choice("method", method, COUNT_METHODS)
    if method == "auto":
        from .frontier_plan import cropped

        short = min(cropped(board.mask)[0].shape)  # rows and columns of holes at the edges do not count
        searching = max_nodes is not None or symmetry is not True  # options only the search has
        framing = max_memory is not None or arithmetic != "auto" or prime_set != 0  # ... and the frontier
        small = board.n_squares <= AUTO_SEARCH_SQUARES
        method = "frontier" if short <= AUTO_FRONTIER_SIDE and not searching and (framing or not small) else "search"
    if method == "frontier" and (max_nodes is not None or symmetry is not True):
        raise UnsupportedError("max_nodes and symmetry are options of the exhaustive search "
                               "(method='search'), not of the frontier method")
    if method == "search" and (max_memory is not None or arithmetic != "auto" or prime_set != 0):
        raise UnsupportedError("max_memory, arithmetic and prime_set are options of the frontier method "
                               "(method='frontier'), not of the exhaustive search")
    return method


def _count_frontier(board, closed, start, end, directed, time_limit, max_memory, arithmetic, prime_set, progress):
    from .frontier import count_board

    res = count_board(board, closed=closed, start=start, end=end, directed=directed, time_limit=time_limit,
                      max_memory=max_memory, progress=progress, arithmetic=arithmetic, prime_set=prime_set)
    stats = {"arithmetic": res.arithmetic, "peak_bytes": res.peak_bytes, "squares_done": res.steps_done,
             "squares": res.steps, "compile_s": res.compile_s, "interrupted": res.interrupted}
    return TourCount(res.value, res.complete, 0, res.elapsed, res.reason, "frontier", res.states, stats)


def strip_counts(rows: int, count: int, *, closed: bool = False, directed: bool = False, by: str = "columns",
                 time_limit=None, max_memory: int | None = None, arithmetic: str = "auto", prime_set: int = 0,
                 progress=None):
    """The tours of ``rows x 1``, ``rows x 2``, ... (or of a strip's first squares) from one frontier pass.

    A transfer matrix in effect: the table of states is carried along a
    strip of ``rows`` rows and read off at the end of every column
    (``by="columns"``, OEIS A175881 for 6 rows closed, A079137 for 4 rows
    open) or after every square, taken column by column and top to
    bottom (``by="cells"``: Knuth's boards of the first ``n`` cells,
    A383660-A383663, A389755, A389759).  Counts are undirected by
    default, as OEIS gives them.  See
    :func:`ktsolve.models.frontier.strip_counts`.

    Returns
    -------
    StripCounts
        ``terms`` (empty unless ``complete``), ``reason``, ``states``.

    Examples
    --------
    >>> strip_counts(6, 8, closed=True).terms[4:]
    [8, 9862, 1067638, 55488142]
    """
    from .frontier import strip_counts as run

    return run(rows, count, closed=closed, directed=directed, by=by, time_limit=time_limit,
               max_memory=max_memory, progress=progress, arithmetic=arithmetic, prime_set=prime_set)


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
