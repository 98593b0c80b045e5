"""First trails for the colonies: Warnsdorff walks, or exact tours of other boards (``seed_with=``).

A colony may start from trails laid along paths that cheaper or exact
methods know, instead of a uniform trail.  The rule is that the seeding
never hands the colony a finished tour of the question it is asked: the
colony still has to find that tour itself.

``seed_with="warnsdorff"``
    Greedy walks by Warnsdorff's rule (the unvisited neighbour with the
    fewest unvisited neighbours, ties at random; no backtracking, no
    restart) from :data:`WARNSDORFF_WALKS` squares spread over the board
    (the fixed start among them).  A walk that would answer the question
    (a complete walk that is, or can be listed as, a tour of the request)
    is left out and counted in ``seed_walks_left_out``.
``seed_with="exact"``
    Exact tours of other boards.  On a board with holes: a tour of the
    whole rectangle without its holes (``divide``, or CP-SAT on small
    boards), cut at the holes into paths.  On a full board: the board cut
    in two halves along its longer side, and a tour of each half; the
    colony has to join them.

The exact tours come from the registered methods ``divide`` and ``cpsat``
(looked up by name in :mod:`ktsolve.registry`, imported only when used)
and pass :func:`ktsolve.tour.validate` on their own boards before they are
used.  Nothing here is compiled; the greedy walk is
:func:`~._colony_kernels.warnsdorff_walk`.  This module knows nothing of
pheromone: it returns paths (square numbers of the colony's board) and a
dict of statistics, so every colony (and the bee colony) can use it.

Examples
--------
>>> from ktsolve import Board, KnightGraph, TourSpec
>>> g = KnightGraph(Board(8, 8, holes=[(3, 3), (4, 4)]))
>>> paths, info = seed_paths(g, TourSpec(), "exact", seed=1)
>>> info["seed_source"], sum(len(p) for p in paths) <= g.n
('divide tour of the 8x8 board without its holes', True)
"""

from __future__ import annotations

import numpy as np

from ..board import Board
from ..errors import UnsupportedError
from ..graph import KnightGraph
from ..result import Status
from ..tour import TourSpec, validate
from . import _colony_kernels as K
from ._walks import seed_state, spec_squares, walk_arrays

__all__ = ["SOURCES", "WARNSDORFF_WALKS", "seed_paths", "answers"]

#: Values of ``seed_with``.
SOURCES = ("none", "warnsdorff", "exact")
#: Greedy walks laid by ``seed_with="warnsdorff"``.
WARNSDORFF_WALKS = 16
#: Exact methods asked for seed tours, in order; CP-SAT only up to this many squares.
CPSAT_SEED_SQUARES = 400


def seed_paths(graph: KnightGraph, spec: TourSpec, source: str, *, time_limit=None,
               seed: int) -> tuple[list[np.ndarray], dict]:
    """Paths (int32 square numbers of ``graph``) to lay the first trails along, and statistics.

    Parameters
    ----------
    graph : KnightGraph
    spec : TourSpec
        The question the colony answers (a seed path never answers it).
    source : {"none", "warnsdorff", "exact"}
    time_limit : float or Deadline, optional
        The clock of the exact methods, all of them together (a colony
        passes the part of its own Deadline it gives the seeding).
    seed : int
        Seed of the greedy walks' ties (a sub-stream of the colony's seed).

    Returns
    -------
    paths : list of int32 arrays
    info : dict
        ``seed_paths`` (how many), ``seed_source`` (where they come from) and,
        for Warnsdorff walks, ``seed_walks_left_out``.
    """
    if source == "none":
        return [], {}
    if source == "warnsdorff":
        return _warnsdorff_walks(graph, spec, seed)
    if source == "exact":
        return _exact_paths(graph, spec, seed, time_limit)
    raise ValueError(f"unknown seed source {source!r}")


def answers(graph: KnightGraph, spec: TourSpec, path: np.ndarray) -> bool:
    """Whether ``path`` is, or can be listed as (reversed, or rotated when closed), a tour of ``spec``.

    Examples
    --------
    >>> from ktsolve import Board
    >>> g = KnightGraph(Board(3, 4))
    >>> t = np.array([0, 6, 8, 1, 10, 4, 2, 9, 7, 5, 3, 11])
    >>> answers(g, TourSpec(), t), answers(g, TourSpec(start=(2, 3)), t), answers(g, TourSpec(closed=True), t)
    (True, True, False)
    """
    n = graph.n
    if len(path) != n:
        return False
    closed = n > 2 and bool((graph.table[path[-1]] == path[0]).any())
    start, end = spec_squares(graph, spec)
    if spec.closed:
        return closed
    if closed:
        return True  # a closed tour can be listed from any square, in either direction
    first, last = int(path[0]), int(path[-1])
    forward = (start < 0 or first == start) and (end < 0 or last == end)
    backward = (start < 0 or last == start) and (end < 0 or first == end)
    return forward or backward


def _warnsdorff_walks(graph: KnightGraph, spec: TourSpec, seed: int) -> tuple[list[np.ndarray], dict]:
    n = graph.n
    tpad, full, rev = walk_arrays(graph)
    start, _ = spec_squares(graph, spec)
    count = min(WARNSDORFF_WALKS, n)
    squares = np.unique(np.linspace(0, n - 1, count).astype(np.int64)).tolist()
    if start >= 0:
        squares = [start, *[s for s in squares if s != start]][:count]
    rng = seed_state(seed)
    avail = np.empty(n + 1, np.uint8)
    path = np.empty(n, np.int32)
    moves = np.empty(max(n - 1, 1), np.int32)
    paths, left_out = [], 0
    for s in squares:
        length = int(K.warnsdorff_walk(tpad, full, rev, s, avail, path, moves, rng))
        walk = path[: length + 1].copy()
        if answers(graph, spec, walk):
            left_out += 1
            continue
        if length >= 1:
            paths.append(walk)
    return paths, {"seed_paths": len(paths), "seed_walks_left_out": left_out,
                   "seed_source": f"{len(squares)} Warnsdorff walks"}


def _exact_tour(board: Board, *, time_limit, seed: int):
    """A validated tour of the full ``board`` (closed when one exists, else open) and the method's name."""
    from ..registry import methods

    reg = methods()
    if "divide" not in reg and "cpsat" not in reg:
        raise UnsupportedError("seed_with='exact' needs method 'divide' or 'cpsat', and neither is registered")
    graph = KnightGraph(board)
    for closed in (True, False):
        for name in ("divide", "cpsat"):
            info = reg.get(name)
            if info is None or (name == "cpsat" and board.n_squares > CPSAT_SEED_SQUARES):
                continue
            res = info.load()(graph, TourSpec(closed=closed), time_limit=time_limit, seed=seed)
            if res.status is Status.FOUND:
                tour = validate(board, res.tour, closed=closed)
                return tour, name
            if res.status is Status.INFEASIBLE:
                break  # no tour of this kind: try an open one
    return None, None


def _exact_paths(graph: KnightGraph, spec: TourSpec, seed: int, time_limit) -> tuple[list[np.ndarray], dict]:
    board = graph.board
    rows, cols = board.rows, board.cols
    if not board.is_full:
        full = Board(rows, cols)
        tour, name = _exact_tour(full, seed=seed, time_limit=time_limit)
        if tour is None:
            return [], {"seed_paths": 0, "seed_source": f"no exact tour of the {rows}x{cols} board without its holes"}
        paths, cut = _never_an_answer(graph, spec, _cut_at_holes(board, tour.coords, tour.closed))
        return paths, {"seed_paths": len(paths), "seed_paths_cut": cut,
                       "seed_source": f"{name} tour of the {rows}x{cols} board without its holes"}
    # a full board: a tour of each half, which the colony must join
    if rows >= cols:
        halves = [(0, 0, rows // 2, cols), (rows // 2, 0, rows - rows // 2, cols)]
    else:
        halves = [(0, 0, rows, cols // 2), (0, cols // 2, rows, cols - cols // 2)]
    paths, names = [], []
    for r0, c0, r, c in halves:
        if r < 1 or c < 1:
            continue
        tour, name = _exact_tour(Board(r, c), seed=seed, time_limit=time_limit)
        if tour is None:
            continue
        coords = tour.coords + np.array([r0, c0])
        sq = np.array([board.index(int(a), int(b)) for a, b in coords], np.int32)
        if tour.closed:
            sq = np.append(sq, sq[0])  # the closing move is laid too
        paths.append(sq)
        names.append(f"{name} {r}x{c}")
    if not paths:
        return [], {"seed_paths": 0, "seed_source": "no exact tour of either half of the board"}
    return paths, {"seed_paths": len(paths), "seed_source": "tours of the two halves (" + ", ".join(names) + ")"}


def _never_an_answer(graph: KnightGraph, spec: TourSpec, paths: list[np.ndarray]) -> tuple[list[np.ndarray], int]:
    """Paths with every one that answers the question cut in two at its middle (the colony must join them)."""
    out, cut = [], 0
    for p in paths:
        if answers(graph, spec, p):
            half = len(p) // 2
            out += [p[:half], p[half:]]
            cut += 1
        else:
            out.append(p)
    return [p for p in out if len(p) >= 2], cut


def _cut_at_holes(board: Board, coords: np.ndarray, closed: bool) -> list[np.ndarray]:
    """The squares of a tour of the full rectangle, cut into paths of ``board`` (square numbers) at its holes."""
    holes = set(board.holes)
    seq = [tuple(int(v) for v in rc) for rc in coords]
    if closed and seq:
        # start the cycle just after a hole, so no path is split across the ends
        k = next((i for i, rc in enumerate(seq) if rc in holes), None)
        seq = seq[k + 1:] + seq[: k + 1] if k is not None else seq + seq[:1]
    paths, cur = [], []
    for rc in seq:
        if rc in holes:
            if len(cur) >= 2:
                paths.append(np.array(cur, np.int32))
            cur = []
        else:
            cur.append(board.index(*rc))
    if len(cur) >= 2:
        paths.append(np.array(cur, np.int32))
    return paths
