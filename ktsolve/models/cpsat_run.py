"""Running CP-SAT for the exact models: parameters, statuses, a solve that Ctrl-C and a race stop, answers.

Every CP-SAT model of ktsolve (the circuit model of :mod:`.cpsat`, the cut loops of :mod:`._cpsat_loops`,
the longest path of :mod:`.longest`) is solved here: its parameters checked and applied, its status mapped
once to ktsolve's, the search run under :func:`ktsolve.driver.call_guarded` with the time left, and the
circuit read back as a tour.  The colour test the models share is here too.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..driver import Deadline, call_guarded
from ..errors import InvalidParameterError
from ..graph import KnightGraph
from ..result import Status
from ..tour import Tour, TourSpec

__all__ = ["DEFAULT_TIME_LIMIT", "DEFAULT_PARAMETERS", "MAX_WORKERS", "RESERVED_PARAMETERS", "apply_parameters",
           "as_mapping", "solver_stats", "status_map", "run_solver", "tour_from_successors", "colours_allow"]

#: Seconds CP-SAT runs when no time limit is given.
DEFAULT_TIME_LIMIT = 60.0

#: Solver parameters set before the caller's ``parameters``.  Without the LP
#: relaxation and presolve, CP-SAT finds tours 4-8 times faster here (one
#: worker, medians of three seeds: closed 30x30 0.5 s instead of 2.5 s, open
#: 16x16 from a corner 0.14 s instead of 0.7 s, closed 50x50 1.8 s instead of
#: 14 s) and proves the small infeasible cases as fast or faster (closed 4x10
#: 0.03 s instead of 0.16 s).  Pass ``parameters={"linearization_level": 1,
#: "cp_model_presolve": True}`` for CP-SAT's own defaults.
DEFAULT_PARAMETERS = {"linearization_level": 0, "cp_model_presolve": False}

#: Most CP-SAT search threads a call may ask for.
MAX_WORKERS = 256

#: CP-SAT parameters that the call's own arguments set (the time limit, the seed, the
#: workers, Ctrl-C): ``parameters`` may not set them.
RESERVED_PARAMETERS = {
    "max_time_in_seconds": "time_limit",
    "random_seed": "seed",
    "num_workers": "num_workers",
    "num_search_workers": "num_workers",
    "catch_sigint_signal": "Ctrl-C, which ktsolve handles",
}


def apply_parameters(solver, parameters: Mapping | None) -> None:
    """Set every ``name: value`` of ``parameters`` on ``solver.parameters``.

    Raises :class:`~ktsolve.errors.InvalidParameterError` (an
    :class:`UnsupportedError`) for a parameters argument that is not a
    mapping, a name CP-SAT does not have, a value of the wrong type, or a
    parameter that an argument of the call sets.

    Examples
    --------
    >>> from ortools.sat.python import cp_model
    >>> solver = cp_model.CpSolver()
    >>> apply_parameters(solver, {"cp_model_presolve": False})
    >>> solver.parameters.cp_model_presolve
    False
    >>> apply_parameters(solver, {"nonsense": 1})
    Traceback (most recent call last):
    ...
    ktsolve.errors.InvalidParameterError: CP-SAT has no parameter 'nonsense'
    """
    if parameters is None:
        return
    if not isinstance(parameters, Mapping):
        raise InvalidParameterError(
            f"method 'cpsat': parameters must be a mapping of CP-SAT parameter names to values, "
            f"not {parameters!r}"
        )
    for key, value in parameters.items():
        if not isinstance(key, str) or not hasattr(solver.parameters, key):
            raise InvalidParameterError(f"CP-SAT has no parameter {key!r}")
        if key in RESERVED_PARAMETERS:
            raise InvalidParameterError(
                f"CP-SAT parameter {key!r} is set by the call's {RESERVED_PARAMETERS[key]}, not by parameters"
            )
        try:
            setattr(solver.parameters, key, value)
        except (TypeError, ValueError, OverflowError):
            raise InvalidParameterError(f"CP-SAT parameter {key!r} cannot be {value!r}") from None


def solver_stats(solver, status) -> dict:
    """The solver's statistics as plain numbers.

    Examples
    --------
    >>> from ortools.sat.python import cp_model
    >>> solver = cp_model.CpSolver()
    >>> status = solver.solve(cp_model.CpModel())
    >>> solver_stats(solver, status)["status"]
    'OPTIMAL'
    """
    return {
        "status": solver.status_name(status),
        "branches": int(solver.num_branches),
        "conflicts": int(solver.num_conflicts),
        "wall_time_s": float(solver.wall_time),
        "deterministic_time": float(solver.deterministic_time),
    }


def status_map() -> dict:
    """CP-SAT's statuses mapped once: OPTIMAL/FEASIBLE -> found, INFEASIBLE -> infeasible, UNKNOWN -> unknown."""
    from ortools.sat.python import cp_model

    return {
        cp_model.OPTIMAL: Status.FOUND,
        cp_model.FEASIBLE: Status.FOUND,
        cp_model.INFEASIBLE: Status.INFEASIBLE,
        cp_model.UNKNOWN: Status.UNKNOWN,
    }


def run_solver(solver, model, deadline: Deadline, *, what: str = "model"):
    """Solve ``model`` with the time left on ``deadline``, Ctrl-C stopping the search cleanly.

    CP-SAT's own SIGINT handling is switched off and the solve runs under
    :func:`ktsolve.driver.call_guarded` with ``solver.stop_search`` as the
    interrupt: a Ctrl-C always ends in the same honest ``unknown``.

    Returns
    -------
    (status, interrupted)

    Raises
    ------
    InvalidParameterError
        When CP-SAT refuses its parameters.
    RuntimeError
        When CP-SAT calls the model itself invalid (a bug in ktsolve).

    Examples
    --------
    >>> from ortools.sat.python import cp_model
    >>> model = cp_model.CpModel()
    >>> x = model.new_bool_var("x")
    >>> status, interrupted = run_solver(cp_model.CpSolver(), model, Deadline(5))
    >>> cp_model.CpSolver().status_name(status), interrupted
    ('OPTIMAL', False)
    """
    from ortools.sat.python import cp_model

    left = deadline.remaining()
    solver.parameters.max_time_in_seconds = max(1e-3, DEFAULT_TIME_LIMIT if left is None else left)
    solver.parameters.catch_sigint_signal = False
    status, interrupted = call_guarded(lambda: solver.solve(model), on_interrupt=solver.stop_search,
                                       cancel=deadline.cancel)
    if status == cp_model.MODEL_INVALID:
        problem = model.validate()
        if not problem:
            raise InvalidParameterError(f"CP-SAT refused its parameters: {solver.solution_info()}")
        raise RuntimeError(f"CP-SAT says the {what} is invalid: {problem}")
    return status, interrupted


def as_mapping(parameters) -> dict:
    """``parameters`` as a dict (None: empty); anything but a mapping is refused in one sentence."""
    if parameters is None:
        return {}
    if not isinstance(parameters, Mapping):
        raise InvalidParameterError(
            f"method 'cpsat': parameters must be a mapping of CP-SAT parameter names to values, "
            f"not {parameters!r}"
        )
    return dict(parameters)


def tour_from_successors(graph: KnightGraph, spec: TourSpec, succ: dict[int, int]) -> Tour:
    """The tour a circuit of successors stands for (an open tour's circuit through the dummy node ``n``)."""
    n = graph.n
    board = graph.board
    if spec.closed:
        if spec.start is not None:
            first = board.index(*spec.start)
        elif spec.end is not None:
            first = succ[board.index(*spec.end)]
        else:
            first = 0
    else:
        first = succ[n]
    order = [first]
    v = succ[first]
    while v != first and v != n and len(order) <= n:
        order.append(v)
        v = succ[v]
    return Tour(board, np.array(order, dtype=np.int32), closed=spec.closed)


def colours_allow(graph: KnightGraph, spec: TourSpec) -> bool:
    """Whether the colour counts (and the colours of fixed ends) let a tour alternate colours."""
    colour = graph.colour
    n0 = int((colour == 0).sum())
    n1 = graph.n - n0
    if graph.n <= 1:
        return True
    if spec.closed:
        return n0 == n1
    if abs(n0 - n1) > 1:
        return False
    board = graph.board
    ends = [board.index(*x) for x in (spec.start, spec.end) if x is not None]
    if n0 != n1:
        major = 0 if n0 > n1 else 1
        return all(colour[x] == major for x in ends)
    return not (len(ends) == 2 and colour[ends[0]] == colour[ends[1]])
