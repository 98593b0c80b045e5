"""The longest knight's path from a start square, exactly, with CP-SAT.

When no tour exists the bee-colony and Prolog papers ask how far a knight
can get: the longest path of distinct squares joined by knight's moves.
The model is the circuit model of :mod:`ktsolve.models.cpsat` with every
square made optional: a square's *self-loop* literal, when true, lets the
circuit skip it.  The circuit runs through a dummy node: ``dummy -> start``
(the only arc out of the dummy when the start is fixed), then the path,
then ``last -> dummy`` from any square.  CP-SAT maximises the number of
squares not skipped.

:func:`longest_path` returns a :class:`~ktsolve.result.SolveResult` whose
``path`` is the best path found (validated by the caller as a partial
path), with ``stats["length"]`` (its number of squares), ``stats["bound"]``
(the proven upper bound) and ``stats["optimal"]``.  The status is ``found``
when the optimum is proven and ``unknown`` when the time limit stops the
search first; ``tour`` is set only when the path covers the whole board.  A
greedy Warnsdorff walk from the start is given to CP-SAT as a hint, so even
a short budget returns a long path.  The default budget is
:data:`DEFAULT_TIME_LIMIT` seconds; ``num_workers=1`` (the default) is
reproducible, more workers are not.

This is the reference the stochastic side is scored against.

Examples
--------
>>> from ktsolve import Board, KnightGraph
>>> res = longest_path(KnightGraph(Board(3, 4)), 1, seed=1)
>>> res.status.value, res.stats["length"], res.stats["optimal"]
('found', 11, True)
"""

from __future__ import annotations

import numpy as np

from ..checks import check_int
from ..driver import Deadline, Stopped, begin, interrupt_guard
from ..errors import UnsupportedError
from ..graph import KnightGraph
from ..result import SolveResult, Status
from ..seeds import derive_seed, seed_doc
from ..tour import Tour

__all__ = ["longest_path", "greedy_path", "DEFAULT_TIME_LIMIT", "MAX_SQUARES"]

#: Seconds CP-SAT runs when no time limit is given.
DEFAULT_TIME_LIMIT = 60.0

#: Largest board (in squares) the model is built for.
MAX_SQUARES = 40_000

#: Moves added to the model between two looks at the clock.
_BUILD_CHUNK = 2000


def greedy_path(graph: KnightGraph, start: int) -> list[int]:
    """A Warnsdorff walk from ``start``: always to the unvisited neighbour with fewest unvisited neighbours.

    Ties go to the first neighbour in move order.  The walk stops when it is
    stuck; the result is a path (a list of square numbers).

    Examples
    --------
    >>> from ktsolve import Board
    >>> len(greedy_path(KnightGraph(Board(5, 5)), 0))
    25
    """
    n = graph.n
    nbrs = [graph.neighbours(v).tolist() for v in range(n)]
    free = [len(ws) for ws in nbrs]
    seen = [False] * n
    path = [int(start)]
    seen[start] = True
    for w in nbrs[start]:
        free[w] -= 1
    v = int(start)
    while True:
        best, best_free = -1, 9
        for w in nbrs[v]:
            if not seen[w] and free[w] < best_free:
                best, best_free = w, free[w]
        if best < 0:
            return path
        v = best
        seen[v] = True
        path.append(v)
        for w in nbrs[v]:
            free[w] -= 1


@seed_doc
def longest_path(
    graph: KnightGraph,
    start: int | None = None,
    *,
    time_limit: float | None = None,
    num_workers: int = 1,
    seed: int | None = None,
) -> SolveResult:
    """The longest knight's path from square number ``start`` (anywhere when None).

    Parameters
    ----------
    graph : KnightGraph
    start : int, optional
        Square number where the path must begin (CP-SAT fixes its first
        position there); None leaves the first square free.
    time_limit : float, optional
        Seconds for the whole call, building the model included (default
        :data:`DEFAULT_TIME_LIMIT`).
    num_workers : int
        CP-SAT search threads, 1 to :data:`~ktsolve.models.cpsat_run.MAX_WORKERS`;
        1 is reproducible, more are not.
    %(seed)s
        It seeds CP-SAT's ``random_seed`` through
        :func:`ktsolve.seeds.derive_seed`.

    Returns
    -------
    SolveResult
        ``path`` (a :class:`~ktsolve.tour.Tour` with ``closed=False``),
        ``stats["length"]``, ``stats["bound"]``, ``stats["optimal"]``;
        status ``found`` when the optimum is proven, else ``unknown`` (the
        time limit, or Ctrl-C with ``stats["interrupted"]``; the best path
        found so far is kept); ``tour`` only when the path covers the board.

    Raises
    ------
    UnsupportedError
        For a board above :data:`MAX_SQUARES` squares, a start that is not a
        square number, or ``num_workers < 1``.

    Examples
    --------
    >>> from ktsolve import Board
    >>> res = longest_path(KnightGraph(Board(3, 3)), 0)
    >>> res.stats["length"], res.stats["optimal"]
    (8, True)
    """
    from .cpsat_run import MAX_WORKERS, run_solver

    deadline, seed = begin(time_limit, seed, default=DEFAULT_TIME_LIMIT)
    n = graph.n
    if n > MAX_SQUARES:
        raise UnsupportedError(
            f"longest paths are built for boards of at most {MAX_SQUARES:,} squares; this one has {n:,}"
        )
    if start is not None:
        if isinstance(start, bool) or not isinstance(start, (int, np.integer)) or not 0 <= int(start) < n:
            raise UnsupportedError(f"start {start!r} is not a square number in 0..{n - 1}")
        start = int(start)
    num_workers = check_int("num_workers", num_workers, 1, MAX_WORKERS)
    board = graph.board
    with interrupt_guard():
        try:
            deadline.check("starting CP-SAT")
            from ortools.sat.python import cp_model

            graph.build(deadline)
            model, succ_lits, d = _build(cp_model, graph, start, deadline)
        except Stopped as stop:
            # the start alone is the best path known (none without a start)
            order = [start] if start is not None else []
            stats = {**stop.stats(), "length": len(order), "bound": n, "optimal": False,
                     "num_workers": num_workers}
            stats["reason"] = f"{stop.describe()}, with a path of {len(order)} squares; no path is longer than {n}"
            path = Tour(board, np.array(order, dtype=np.int32), closed=False) if order else None
            return SolveResult(Status.UNKNOWN, path=path, method="longest", seed=seed, stats=stats)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = num_workers
    solver.parameters.random_seed = derive_seed(seed, "longest random_seed") % 2**31
    status, interrupted = run_solver(solver, model, deadline, what="longest-path model")
    stats = {
        "status": solver.status_name(status),
        "branches": int(solver.num_branches),
        "conflicts": int(solver.num_conflicts),
        "wall_time_s": float(solver.wall_time),
        "num_workers": int(num_workers),
    }
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        succ = {a: b for (a, b), x in succ_lits.items() if solver.boolean_value(x)}
        order = [succ[d]]
        while succ[order[-1]] != d:
            order.append(succ[order[-1]])
        bound = int(np.floor(solver.best_objective_bound + 1e-6))
    else:  # nothing found in time: the start alone (or nothing) is the best known path
        order = [start] if start is not None else []
        bound = n
    optimal = status == cp_model.OPTIMAL
    stats.update(length=len(order), bound=max(bound, len(order)), optimal=optimal)
    path = Tour(board, np.array(order, dtype=np.int32), closed=False) if order else None
    tour = path if path is not None and len(order) == n else None
    if interrupted:
        optimal = False
        stats.update(optimal=False, interrupted=True,
                     reason=f"interrupted (Ctrl-C) with a path of {len(order)} squares")
    elif not optimal:
        stats["reason"] = (
            f"CP-SAT stopped at {deadline.elapsed():.3g} s of a {deadline.time_limit:.3g} s limit "
            f"with a path of {len(order)} squares; "
            f"no path is longer than {stats['bound']}"
        )
    return SolveResult(
        Status.FOUND if optimal else Status.UNKNOWN,
        tour=tour,
        path=path,
        method="longest",
        seed=seed,
        stats=stats,
    )


def _build(cp_model, graph: KnightGraph, start: int | None, deadline: Deadline):
    """The longest-path model, the arc -> literal map and the dummy node; checks the clock as it goes."""
    n = graph.n
    model = cp_model.CpModel()
    arcs = []
    succ_lits: dict[tuple[int, int], object] = {}
    for i, (u, v) in enumerate(graph.edges().tolist()):
        if i % _BUILD_CHUNK == 0:
            deadline.check("building the longest-path model")
        for a, b in ((u, v), (v, u)):
            x = model.new_bool_var(f"{a}>{b}")
            succ_lits[(a, b)] = x
            arcs.append((a, b, x))
    deadline.check("building the longest-path model")
    skip = [model.new_bool_var(f"skip{v}") for v in range(n)]
    for v in range(n):
        arcs.append((v, v, skip[v]))
    d = n
    for v in ([start] if start is not None else range(n)):
        x = model.new_bool_var(f"d>{v}")
        succ_lits[(d, v)] = x
        arcs.append((d, v, x))
    for v in range(n):
        x = model.new_bool_var(f"{v}>d")
        succ_lits[(v, d)] = x
        arcs.append((v, d, x))
    if start is not None:
        model.add(skip[start] == 0)
    model.add_circuit(arcs)
    model.maximize(n - sum(skip))
    deadline.check("building the longest-path model")

    hint = greedy_path(graph, start if start is not None else int(np.argmin(graph.degree)))
    on = set(zip([d] + hint, hint + [d]))
    in_hint = set(hint)
    for (a, b), x in succ_lits.items():
        model.add_hint(x, (a, b) in on)
    for v in range(n):
        model.add_hint(skip[v], v not in in_hint)
    deadline.check("building the longest-path model")
    return model, succ_lits, d
