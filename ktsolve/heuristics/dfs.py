"""Naive depth-first search with a fixed move order: the baseline of the colony papers.

The knight starts on a square and always tries its moves in one fixed order,
going back one square whenever it is stuck, with no look-ahead such as
Warnsdorff's rule.  This is the depth-first search that Gordon & Slocum
(2004) and the improved colony's Table 1 (Jiang, Bai & Dong) compare the
metaheuristics with, counting *tours per attempt*.

An *attempt* here is one maximal path the search reaches: a square from
which no unvisited square can be reached (a dead end) or a complete tour.
These are the leaves of the search tree, the analogue of an ant's walk (a
walk also ends only when the ant is stuck).  The published figure for this
baseline on 8x8 is 0.000003 tours per attempt.

The move order is fixed for a whole run: by default a permutation of the
moves drawn from the seed (so different seeds search in different orders),
or given as a string of move types such as ``"12345678"`` (the types of
:mod:`ktsolve.graph`).  Without a fixed start the search runs from square 0,
then from square 1, and so on, each start exhausted before the next.
Exhausting every start proves that no tour exists, but the method leaves
proofs to the exact side and answers ``unknown`` with ``stats["exhausted"]``.

The search is an explicit-stack numba kernel that runs a budget of nodes
per call and keeps its state in arrays, so it can be stopped on time and
resumed.

References
----------
V. S. Gordon and T. J. Slocum, "The knight's tour - evolutionary vs.
depth-first search", Proc. 2004 Congress on Evolutionary Computation.
"""

from __future__ import annotations

import time

import numpy as np

from ..checks import check_int
from ..driver import begin, drive, phase
from ..errors import InvalidParameterError
from ..graph import KnightGraph
from ..result import Enumeration, SolveResult, Status
from ..tour import Tour, TourSpec
from ._dfs_kernels import _dfs
from ._params import Param, Params, Range, by_method, described, whole
from ..seeds import seed_doc

__all__ = ["solve_dfs", "enumerate_dfs", "dfs_count", "move_order", "warm", "NODES"]

#: Default budget in nodes (moves made); about a second on 8x8.
NODES = 100_000_000
#: Most nodes per kernel call (the driver sizes calls by time, about 50 ms).
CHUNK_NODES = 5_000_000
#: Most tours :func:`dfs_count` keeps.
KEEP_MAX = 10_000_000
#: Rows of the kernel's tour buffer.
OUT_ROWS = 4096
#: Tours :func:`enumerate_dfs` keeps by default (it counts them all).
KEEP_DEFAULT = 100_000


def move_order(order, seed) -> np.ndarray:
    """The search's move order as an int32 permutation of 0..7.

    ``order`` is None (a permutation drawn from ``seed``), a string of the
    eight move types 1..8 such as ``"12345678"``, or ``"warnsdorff"`` (the
    moves sorted at every square by Warnsdorff's rule, ties in move order:
    the permutation returned is then the tie order, 0..7).

    Examples
    --------
    >>> move_order("21345678", None).tolist()
    [1, 0, 2, 3, 4, 5, 6, 7]
    """
    if order is None:
        rng = np.random.default_rng(seed)
        return rng.permutation(8).astype(np.int32)
    text = str(order)
    if text == "warnsdorff":
        return np.arange(8, dtype=np.int32)
    if sorted(text) != list("12345678"):
        raise InvalidParameterError(
            f"method 'dfs': order {order!r} is neither 'warnsdorff' nor a permutation of the move types 12345678"
        )
    return np.array([int(c) - 1 for c in text], dtype=np.int32)


class _Search:
    """State of a search from one start square."""

    def __init__(self, tpad: np.ndarray, start: int):
        n = tpad.shape[0]
        self.path = np.zeros(n, dtype=np.int32)
        self.nxt = np.zeros(n, dtype=np.int32)
        self.word = np.zeros((n, 8), dtype=np.int32)
        self.visited = np.zeros(n + 1, dtype=np.uint8)
        self.visited[n] = 1
        self.path[0] = start
        self.visited[start] = 1
        self.state = np.zeros(2, dtype=np.int64)


def _tpad(graph: KnightGraph) -> np.ndarray:
    table = np.asarray(graph.table, dtype=np.int32)
    n, k = table.shape
    tpad = np.full((n, 8), n, dtype=np.int32)
    tpad[:, :k] = np.where(table < 0, n, table)
    return tpad


def _starts(graph: KnightGraph, spec: TourSpec) -> list[int]:
    if spec.start is not None:
        return [graph.board.index(*spec.start)]
    return list(range(graph.n))


@seed_doc
def dfs_count(graph: KnightGraph, spec: TourSpec, *, nodes=NODES, order=None, time_limit=None, keep=0,
              attempts_per_start=None, progress=None, seed=None) -> dict:
    """Run the search and count attempts (leaves) and tours.

    Parameters
    ----------
    graph : KnightGraph
    spec : TourSpec
    nodes : int
        Budget in moves made, over all start squares searched in turn (each
        exhausted before the next).
    order : str, optional
        Move types such as ``"12345678"``, ``"warnsdorff"``, or None (drawn
        from ``seed``).
    %(seed)s
    time_limit : float, optional
    keep : int
        Tours to keep (the first ones found); the others are only counted.
    attempts_per_start : int, optional
        Instead of one budget for all: every start square gets this many
        attempts (Hingston & Kendall's protocol: 10^8 tries from each square).
    progress : callable, optional

    Returns
    -------
    dict
        ``nodes``, ``attempts``, ``complete``, ``closed``, ``tours``
        (matching ``spec``), ``tours_per_attempt``, ``order``, ``exhausted``,
        ``stopped``, ``starts_searched``, ``seed``, ``seconds`` and ``found``:
        up to ``keep`` tours (int32 rows).

    Examples
    --------
    >>> from ktsolve import Board
    >>> st = dfs_count(KnightGraph(Board(5, 5)), TourSpec(start=(0, 0)), order="12345678", nodes=10**8)
    >>> st["exhausted"], st["tours"]
    (True, 304)
    """
    return _run(graph, spec, nodes=nodes, order=order, seed=seed, time_limit=time_limit, keep=keep,
                first_only=False, attempts_per_start=attempts_per_start, progress=progress)


def _run(graph, spec, *, nodes, order, seed, time_limit, keep, first_only, progress=None, attempts_per_start=None,
         stop_at_keep=True):
    if not isinstance(graph, KnightGraph):
        raise TypeError(f"expected a KnightGraph, got {type(graph).__name__}")
    nodes = check_int("nodes", nodes, 0, method="dfs")
    keep = check_int("keep", keep, 0, KEEP_MAX, method="dfs")
    per_start = None if attempts_per_start is None else check_int("attempts_per_start", attempts_per_start, 1,
                                                                  method="dfs")
    deadline, seed = begin(time_limit, seed)
    deadline.extend(warm())  # a first-run compile is not the search's time
    t0 = time.perf_counter()
    perm = move_order(order, seed)
    warnsdorff = str(order) == "warnsdorff"
    tpad = _tpad(graph)
    n = graph.n
    end = -1 if spec.end is None else graph.board.index(*spec.end)
    counts = np.zeros(5, dtype=np.int64)
    out = np.zeros((1 if first_only else max(1, min(OUT_ROWS, 2**22 // n)), n), dtype=np.int32)
    found: list[np.ndarray] = []
    starts = _starts(graph, spec)
    want = 1 if first_only else keep
    st = {"k": 0, "search": None, "exhausted": False, "full": False, "leaves0": 0}
    if n == 1:
        counts[1] = counts[2] = counts[4] = 1
        found.append(np.zeros(1, dtype=np.int32))
        starts = []
        st["full"] = True

    def collect(search):
        m = int(search.state[1])
        if m:
            room = want - len(found)
            found.extend(out[i].copy() for i in range(min(m, max(room, 0))))
            search.state[1] = 0
        return bool(want) and len(found) >= want

    def next_search():
        if st["k"] >= len(starts):
            st["exhausted"] = per_start is None or st["exhausted"]
            return None
        st["search"] = _Search(tpad, starts[st["k"]])
        st["k"] += 1
        st["leaves0"] = int(counts[1])
        return st["search"]

    def step(k_nodes):
        before = int(counts[0])
        while True:
            search = st["search"] or next_search()
            if search is None:
                return int(counts[0]) - before, True
            left = k_nodes - (int(counts[0]) - before)
            leaves_left = (1 << 62) if per_start is None else per_start - (int(counts[1]) - st["leaves0"])
            rc = _dfs(tpad, perm, warnsdorff, bool(spec.closed), end, max(left, 0), max(leaves_left, 0),
                      search.path, search.nxt, search.word, search.visited, search.state, counts, out, first_only)
            if collect(search) and stop_at_keep:
                st["full"] = True
                return int(counts[0]) - before, True
            if rc == 2 or (per_start is not None and int(counts[1]) - st["leaves0"] >= per_start):
                if rc != 2:
                    st["cut"] = True
                st["search"] = None
                if st["k"] >= len(starts):
                    st["exhausted"] = not st.get("cut", False)
                    return int(counts[0]) - before, True
                continue
            ran = int(counts[0]) - before
            if ran >= k_nodes or rc == 0:
                return ran, False

    units = nodes if per_start is None else None
    phase(progress, "dfs: nodes", units)
    outcome = drive(step, units=units, deadline=deadline, progress=progress, most=CHUNK_NODES)
    if st["full"]:
        why = "found"
    elif st["exhausted"]:
        why = "exhausted"
    elif outcome.reason in ("budget", "finished"):
        why = "nodes" if per_start is None else "attempts"
    else:
        why = outcome.reason
    nodes_run, leaves, complete, closed, tours = (int(v) for v in counts)
    return {
        "nodes": nodes_run,
        "attempts": leaves,
        "complete": complete,
        "closed": closed,
        "tours": tours,
        "tours_per_attempt": tours / leaves if leaves else 0.0,
        "order": "warnsdorff" if warnsdorff else "".join(str(int(j) + 1) for j in perm),
        "exhausted": st["exhausted"],
        "stopped": why,
        "starts_searched": st["k"],
        "seed": seed,
        "seconds": time.perf_counter() - t0,
        "found": found[:keep] if not first_only else found[:1],
    }


def _warm_calls() -> None:
    """The kernel's calls on a tiny board, with the argument types real runs use (fixed ends, orders)."""
    from ..board import Board

    graph = KnightGraph(Board(5, 5))
    for spec in (TourSpec(), TourSpec(closed=True), TourSpec(start=(0, 0), end=(4, 4))):
        for order in (None, "warnsdorff"):
            solve_dfs(graph, spec, nodes=2000, order=order, seed=1)
    enumerate_dfs(graph, TourSpec(start=(0, 0)), attempts_per_start=1, nodes=2000, seed=1)


def warm() -> float:
    """Compile (or load from numba's cache) the search kernel; the seconds spent compiling.

    ``ktsolve warm`` calls it, with every other method's.
    """
    from ..jit import kernels_of, prepare
    from . import _dfs_kernels

    return prepare("dfs", _warm_calls, kernels_of(_dfs_kernels))


@described(Range("other", text="a permutation of 12345678, or warnsdorff"))
def _order(value, name, get, ctx):
    if value is not None:
        move_order(value, 0)  # refuses what is neither warnsdorff nor a permutation of the move types
    return value


#: The parameters of :func:`solve_dfs`, declared once: defaults, checks, and what ``ktsolve methods`` prints.
PARAMS = Params("dfs", (
    Param("nodes", NODES, whole(0), "int", "Budget in moves made (10^8 is about a second on 8x8)."),
    Param("order", None, _order, "str, optional",
          "Move types in the order they are tried, such as 12345678, or warnsdorff; by default drawn from the "
          "seed.", computed=by_method),
))


@seed_doc
def solve_dfs(graph: KnightGraph, spec: TourSpec, *, time_limit=None, progress=None, nodes=NODES, order=None,
              seed=None) -> SolveResult:
    """First tour of a naive depth-first search with a fixed move order, or ``unknown``.

    Parameters
    ----------
    graph : KnightGraph
    spec : TourSpec
        ``closed``, ``start`` and ``end`` are honoured (a tour that does not
        match is counted and the search goes on).
    %(seed)s
    time_limit : float, optional
        Seconds for the whole call, checked between chunks of nodes (about
        50 ms).
    progress : callable, optional
        ``progress(nodes_done, nodes)``.
    nodes : int
        Budget in moves made (default 10^8, about a second on 8x8).
    order : str, optional
        Move types in the order they are tried, e.g. ``"12345678"``, or
        ``"warnsdorff"``; None draws the order from ``seed``.

    Returns
    -------
    SolveResult
        ``stats``: ``nodes``, ``attempts`` (leaves of the search tree),
        ``complete``, ``tours_per_attempt``, ``order``, ``exhausted``.
        Ctrl-C ends the search with ``unknown`` and ``stats["interrupted"]``.

    Examples
    --------
    >>> from ktsolve import Board
    >>> res = solve_dfs(KnightGraph(Board(6, 6)), TourSpec(closed=True, start=(0, 0)), order="12345678", seed=1)
    >>> res.status.value, res.stats["order"], res.seed
    ('found', '12345678', 1)
    """
    values = PARAMS.check({"nodes": nodes, "order": order}, n=graph.n)
    st = _run(graph, spec, nodes=values.nodes, order=values.order, seed=seed, time_limit=time_limit, keep=1,
              first_only=True, progress=progress)
    found = st.pop("found")
    seed = st.pop("seed")
    st.pop("seconds")
    if found:
        return SolveResult(Status.FOUND, tour=Tour(graph.board, found[0], closed=spec.closed), stats=st, seed=seed)
    if st["exhausted"]:
        st["reason"] = "the search from every start square is exhausted without a matching tour"
    elif st["stopped"] == "time limit":
        st["reason"] = f"time limit reached after {st['nodes']:,} nodes"
    elif st["stopped"] == "interrupted":
        st["reason"] = f"interrupted after {st['nodes']:,} nodes"
        st["interrupted"] = True
    else:
        st["reason"] = f"no tour in {st['nodes']:,} nodes"
    return SolveResult(Status.UNKNOWN, stats=st, seed=seed)


@seed_doc
def enumerate_dfs(graph: KnightGraph, spec: TourSpec, *, cycles=None, time_limit=None, progress=None,
                  nodes=NODES, attempts_per_start=None, order=None, keep=KEEP_DEFAULT, seed=None) -> Enumeration:
    """Every tour the search meets within its budget (all distinct), the first ``keep`` of them kept.

    This is the enumeration Hingston & Kendall compare their colony with: a
    depth-first search from every start square (or the fixed one), with a
    fixed move order (``"12345678"``: 308.6 tours per start square in 10^8
    tries in their paper) or Warnsdorff's order (``"warnsdorff"``: 7,894,584
    tours, 1,188,384 of them closed).

    Parameters
    ----------
    graph : KnightGraph
    spec : TourSpec
    cycles : None
        The search has no cycles; its budget is ``nodes`` or
        ``attempts_per_start``.
    %(seed)s
    time_limit : float, optional
    progress : callable, optional
    nodes : int
        Budget in moves made over all start squares, searched in turn.
    attempts_per_start : int, optional
        Instead: every start square gets this many attempts (leaves: dead
        ends and complete tours).
    order : str, optional
        As in :func:`solve_dfs`.
    keep : int
        Tours kept in the result (default 100,000); ``stats["tours"]``
        counts them all.

    Returns
    -------
    Enumeration
        ``stats``: ``nodes``, ``attempts``, ``complete``, ``closed``,
        ``tours``, ``distinct`` (the same: a search never meets a tour twice),
        ``tours_per_attempt``, ``tours_per_start``, ``starts_searched``,
        ``order``, ``stopped`` and the bias measures of the kept tours
        (:func:`~ktsolve.heuristics._colony.bias_stats`).

    Examples
    --------
    >>> from ktsolve import Board
    >>> res = enumerate_dfs(KnightGraph(Board(5, 5)), TourSpec(), order="12345678", nodes=10**8)
    >>> res.stats["tours"], res.stats["starts_searched"], res.stats["stopped"]
    (1728, 25, 'exhausted')
    """
    from ._colony import bias_stats

    if cycles is not None:
        raise InvalidParameterError("method 'dfs' has no cycles: its budget is nodes or attempts_per_start")
    t0 = time.perf_counter()
    st = _run(graph, spec, nodes=nodes, order=order, seed=seed, time_limit=time_limit, keep=keep,
              first_only=False, progress=progress, attempts_per_start=attempts_per_start, stop_at_keep=False)
    found = st.pop("found")
    seed = st.pop("seed")
    st.pop("seconds")
    tours = np.array(found, dtype=np.int32).reshape(-1, graph.n)
    st["distinct"] = st["tours"]
    st["distinct_rate"] = st["tours_per_attempt"]
    st["walks"] = st["attempts"]
    st["production_rate"] = st["complete"] / st["attempts"] if st["attempts"] else 0.0
    st["tours_per_start"] = st["tours"] / st["starts_searched"] if st["starts_searched"] else 0.0
    st.update(bias_stats(graph, tours))
    if st["stopped"] == "interrupted":
        st["interrupted"] = True
    return Enumeration(tours=tours, stats=st, method="dfs", seed=seed, elapsed=time.perf_counter() - t0,
                       board=graph.board, spec=spec, closed=bool(spec.closed))
