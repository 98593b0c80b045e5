"""The entry of an ant colony (aco, iaco): its clock, seed, parameters, warm-up and run, written once.

Each colony module keeps its own colony class and parameter table; what the
two share from a call's first line to the run is here: :func:`run_colony`
(``begin``, the parameter checks, the first-run compile kept off the clock,
the run or the enumeration) and :func:`warm_colony` (its kernels compiled in
parts, so a first run compiles what its parameters call and no more).
"""

from __future__ import annotations

from ..driver import begin
from ..graph import KnightGraph
from ..tour import TourSpec
from ._colony import colony_enumerate, colony_solve

__all__ = ["run_colony", "warm_colony", "WARM_DOC", "SOLVE_RETURNS"]

#: The docstring of a colony module's ``warm``.
WARM_DOC = """Compile (or load from numba's cache) the colony's kernels; the seconds spent compiling.

    The kernels every run calls are prepared first; those of the local
    search (``local_search="rotation"``) and of the first trails
    (``seed_with="warnsdorff"`` or ``"exact"``) only when asked for, so that
    a first run compiles what it calls and no more.  The defaults ask for
    everything (``ktsolve warm``); a run passes its own parameters.

    Examples
    --------
    >>> warm() >= 0.0
    True
    """

#: The start of a colony's ``Returns`` section, which each method's docstring goes on from.
SOLVE_RETURNS = """
    Returns
    -------
    SolveResult
        ``found`` with the tour, or ``unknown`` when the budget ran out;
        ``stats`` has ``cycles``, ``walks``, ``complete``, ``closed``,
        ``production_rate`` and ``walks_to_first``"""


def run_colony(make, table, warm, graph: KnightGraph, spec: TourSpec, *, time_limit, progress, seed, params,
               enumerate_as: str | None = None):
    """Run the colony ``make(graph, spec, values, seed=, deadline=)`` once; the answer or the enumeration.

    ``table`` is the method's parameter table (its ``check`` gives the
    values), ``warm`` its warm-up (called with the run's ``local_search``
    and ``seed_with``); ``enumerate_as`` names the method of an enumeration,
    None for a search for one tour.
    """
    deadline, seed = begin(time_limit, seed)
    values = table.check(params, n=graph.n)
    # a first-run compile (of the kernels this run calls) is not the search's time
    deadline.extend(warm(local_search=values.local_search, seed_with=values.seed_with))
    col = make(graph, spec, values, seed=seed, deadline=deadline)
    if enumerate_as is not None:
        return colony_enumerate(col, graph, spec, enumerate_as, deadline=deadline, progress=progress)
    return colony_solve(col, graph, spec, deadline=deadline, progress=progress)


def warm_colony(name: str, solve, enumerate_fn, *, local_search: str, seed_with: str) -> float:
    """Compile (or load from numba's cache) a colony's kernels in parts; the seconds spent compiling.

    The kernels every run calls come first (open, closed and fixed-end
    tours and the enumeration on a 6x6 board); those of the local search
    (``local_search="rotation"``) and of the first trails (``seed_with``
    ``"warnsdorff"`` or ``"exact"``, the latter with backtrack's) only when
    asked for.
    """
    from ..board import Board
    from ..jit import kernels_of, prepare
    from . import _colony_kernels, _posa_kernels

    graph = KnightGraph(Board(6, 6))
    specs = (TourSpec(), TourSpec(closed=True), TourSpec(start=(0, 0), end=(5, 5)))

    def base():
        for spec in specs:
            solve(graph, spec, seed=1, cycles=2)
        enumerate_fn(graph, TourSpec(start=(0, 0)), seed=1, cycles=2)

    def rotation():
        for spec in specs:
            solve(graph, spec, seed=1, cycles=2, local_search="rotation")

    def warnsdorff():
        solve(graph, TourSpec(start=(0, 0)), seed=1, cycles=2, seed_with="warnsdorff")

    seconds = prepare(name, base, kernels_of(_colony_kernels))
    if local_search == "rotation":
        seconds += prepare(f"{name} rotation", rotation, kernels_of(_posa_kernels))
    if seed_with in ("warnsdorff", "exact"):
        seconds += prepare(f"{name} warnsdorff", warnsdorff, kernels_of(_colony_kernels))
    if seed_with == "exact":
        from ..models.backtrack import warm as warm_backtrack

        seconds += warm_backtrack()
    return seconds
