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
from numba import njit

from ..checks import check_int
from ..driver import drive
from ..errors import InvalidParameterError
from ..graph import KnightGraph
from ..result import SolveResult, Status
from ..seeds import resolve_seed
from ..tour import Tour, TourSpec

__all__ = ["solve_dfs", "dfs_count", "move_order", "NODES"]

#: Default budget in nodes (moves made); about a second on 8x8.
NODES = 100_000_000
#: Most nodes per kernel call (the driver sizes calls by time, about 50 ms).
CHUNK_NODES = 5_000_000
#: Most tours :func:`dfs_count` keeps.
KEEP_MAX = 10_000_000


@njit(cache=True)
def _dfs(tpad, order, want_closed, end, max_nodes, path, nxt, visited, state, counts, out, first_only):
    """Continue the search for up to ``max_nodes`` moves.

    ``path[0..depth]`` is the current path (``state[0]`` = depth, -1 once
    exhausted); ``nxt[d]`` the next position in ``order`` to try at depth
    ``d``; ``visited`` (n + 1 entries, the sentinel ``n`` always set).
    ``counts`` (int64) accumulates nodes, leaves (attempts), complete tours,
    closed tours and matching tours.  Matching tours are copied into the
    rows of ``out`` (the call returns when ``out`` is full, or at the first
    with ``first_only``).  Returns 0 when the node budget ran out, 1 after a
    matching tour (first_only) or a full ``out``, 2 when the search is exhausted.
    """
    n = tpad.shape[0]
    depth = state[0]
    nodes = 0
    n_out = state[1]
    cap = out.shape[0]
    while depth >= 0:
        if nodes >= max_nodes:
            state[0] = depth
            state[1] = n_out
            return 0
        s = path[depth]
        i = nxt[depth]
        moved = False
        while i < 8:
            d = tpad[s, order[i]]
            i += 1
            if visited[d] == 0:
                nxt[depth] = i
                depth += 1
                path[depth] = d
                visited[d] = 1
                nxt[depth] = 0
                nodes += 1
                counts[0] += 1
                moved = True
                if depth == n - 1:
                    counts[1] += 1
                    counts[2] += 1
                    closed = False
                    for j in range(8):
                        if tpad[d, j] == path[0]:
                            closed = n > 2
                    if closed:
                        counts[3] += 1
                    hit = (closed or not want_closed) and (end < 0 or d == end)
                    if hit:
                        counts[4] += 1
                        out[n_out, :] = path
                        n_out += 1
                    visited[d] = 0
                    depth -= 1
                    if hit and (first_only or n_out == cap):
                        state[0] = depth
                        state[1] = n_out
                        return 1
                else:
                    stuck = True
                    for j in range(8):
                        if visited[tpad[d, j]] == 0:
                            stuck = False
                            break
                    if stuck:
                        counts[1] += 1
                        visited[d] = 0
                        depth -= 1
                break
        if not moved:
            visited[s] = 0
            depth -= 1
    state[0] = -1
    state[1] = n_out
    return 2


def move_order(order, seed) -> np.ndarray:
    """The search's move order as an int32 permutation of 0..7.

    ``order`` is None (a permutation drawn from ``seed``) or a string of the
    eight move types 1..8, such as ``"12345678"``.

    Examples
    --------
    >>> move_order("21345678", None).tolist()
    [1, 0, 2, 3, 4, 5, 6, 7]
    """
    if order is None:
        rng = np.random.default_rng(seed)
        return rng.permutation(8).astype(np.int32)
    text = str(order)
    if sorted(text) != list("12345678"):
        raise InvalidParameterError(
            f"method 'dfs': order {order!r} is not a permutation of the move types 12345678"
        )
    return np.array([int(c) - 1 for c in text], dtype=np.int32)


class _Search:
    """State of a search from one start square."""

    def __init__(self, tpad: np.ndarray, start: int):
        n = tpad.shape[0]
        self.path = np.zeros(n, dtype=np.int32)
        self.nxt = np.zeros(n, dtype=np.int32)
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


def dfs_count(graph: KnightGraph, spec: TourSpec, *, nodes=NODES, order=None, seed=None, time_limit=None,
              keep=0) -> dict:
    """Run the search for ``nodes`` moves and count attempts (leaves) and tours.

    Returns a dict with ``nodes``, ``attempts``, ``complete``, ``closed``,
    ``tours`` (matching ``spec``), ``tours_per_attempt``, ``order`` (move
    types), ``exhausted`` and, when ``keep > 0``, ``found``: up to ``keep``
    tours (int32 rows).
    """
    return _run(graph, spec, nodes=nodes, order=order, seed=seed, time_limit=time_limit, keep=keep,
                first_only=False)


def _run(graph, spec, *, nodes, order, seed, time_limit, keep, first_only, progress=None):
    if not isinstance(graph, KnightGraph):
        raise TypeError(f"expected a KnightGraph, got {type(graph).__name__}")
    nodes = check_int("nodes", nodes, 0, method="dfs")
    keep = check_int("keep", keep, 0, KEEP_MAX, method="dfs")
    seed = resolve_seed(seed)
    t0 = time.perf_counter()
    perm = move_order(order, seed)
    tpad = _tpad(graph)
    n = graph.n
    end = -1 if spec.end is None else graph.board.index(*spec.end)
    counts = np.zeros(5, dtype=np.int64)
    out = np.zeros((max(1, keep if not first_only else 1), n), dtype=np.int32)
    found: list[np.ndarray] = []
    starts = _starts(graph, spec)
    want = 1 if first_only else keep
    st = {"k": 0, "search": None, "exhausted": False, "full": False}
    if n == 1:
        counts[1] = counts[2] = counts[4] = 1
        found.append(np.zeros(1, dtype=np.int32))
        starts = []
        st["full"] = True

    def step(k_nodes):
        before = int(counts[0])
        while True:
            if st["search"] is None:
                if st["k"] >= len(starts):
                    st["exhausted"] = True
                    return int(counts[0]) - before, True
                st["search"] = _Search(tpad, starts[st["k"]])
                st["k"] += 1
            search = st["search"]
            left = k_nodes - (int(counts[0]) - before)
            rc = _dfs(tpad, perm, bool(spec.closed), end, max(left, 0), search.path, search.nxt,
                      search.visited, search.state, counts, out, first_only)
            m = int(search.state[1])
            if m:
                room = want - len(found)
                found.extend(out[i].copy() for i in range(min(m, max(room, 0))))
                search.state[1] = 0
                if want and len(found) >= want:
                    st["full"] = True
                    return int(counts[0]) - before, True
            if rc == 2:
                st["search"] = None
                if st["k"] >= len(starts):
                    st["exhausted"] = True
                    return int(counts[0]) - before, True
            ran = int(counts[0]) - before
            if rc == 0 or ran >= k_nodes:
                return ran, False

    outcome = drive(step, units=nodes, time_limit=time_limit, progress=progress, most=CHUNK_NODES)
    if st["full"]:
        why = "found"
    elif st["exhausted"]:
        why = "exhausted"
    elif outcome.reason == "budget":
        why = "nodes"
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
        "order": "".join(str(int(j) + 1) for j in perm),
        "exhausted": st["exhausted"],
        "stopped": why,
        "starts_done": st["k"] - (st["search"] is not None),
        "seed": seed,
        "seconds": time.perf_counter() - t0,
        "found": found[:keep] if not first_only else found[:1],
    }


def solve_dfs(graph: KnightGraph, spec: TourSpec, *, seed=None, time_limit=None, progress=None, nodes=NODES,
              order=None) -> SolveResult:
    """First tour of a naive depth-first search with a fixed move order, or ``unknown``.

    Parameters
    ----------
    graph : KnightGraph
    spec : TourSpec
        ``closed``, ``start`` and ``end`` are honoured (a tour that does not
        match is counted and the search goes on).
    seed : int, optional
        Draws the move order when ``order`` is None.
    time_limit : float, optional
        Seconds, checked every few million nodes.
    progress : callable, optional
        ``progress(nodes_done, nodes)``.
    nodes : int
        Budget in moves made (default 10^8, about a second on 8x8).
    order : str, optional
        Move types in the order they are tried, e.g. ``"12345678"``.

    Returns
    -------
    SolveResult
        ``stats``: ``nodes``, ``attempts`` (leaves of the search tree),
        ``complete``, ``tours_per_attempt``, ``order``, ``exhausted``.
    """
    st = _run(graph, spec, nodes=nodes, order=order, seed=seed, time_limit=time_limit, keep=1,
              first_only=True, progress=progress)
    found = st.pop("found")
    seed = st.pop("seed")
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

