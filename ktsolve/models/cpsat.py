"""CP-SAT circuit model: a knight's tour is a Hamiltonian circuit of the knight graph.

Every knight's move between two squares gives two arcs (one per direction),
each a Boolean literal of OR-Tools' CP-SAT solver; ``add_circuit`` requires
the true arcs to form one circuit through every node.  Holes are simply
absent from the graph.

* A closed tour is a circuit of the squares.  A fixed start only says where
  the listing begins; a fixed start ``s`` and end ``t`` fix the closing arc
  ``t -> s`` to true.
* An open tour is a circuit through one extra *dummy* node: the arc
  ``dummy -> v`` says "the tour starts on v" and ``v -> dummy`` "it ends on
  v".  A free start (end) gives the dummy an arc to (from) every square; a
  fixed one gives it a single arc.

The model is built by :func:`build_circuit_model`, which returns the arc ->
literal map, arcs being ``(tail, head, literal)`` as in ``add_circuit``.
:func:`solve_cpsat` (method ``cpsat``) solves it.  With ``num_workers=1``
(the default) a run is reproducible: the same seed and parameters give the
same tour.  More workers search in parallel and are usually faster on big
boards, but their answers depend on thread timing and are **not**
reproducible.  Solver statuses are mapped once: ``OPTIMAL``/``FEASIBLE`` ->
``found``, ``INFEASIBLE`` -> ``infeasible`` with the proof "CP-SAT proved
the circuit model infeasible" and the solver's statistics, ``UNKNOWN`` ->
``unknown`` (the time limit ran out), ``MODEL_INVALID`` -> ``RuntimeError``
(a bug in this module).

The default budget is :data:`DEFAULT_TIME_LIMIT` seconds.

Three models answer the same question (``model=``, see :data:`MODELS`):

* ``circuit`` (the default): the arcs and ``add_circuit`` above.
* ``redundant``: the same, plus one undirected literal per move
  (``x_uv = arc_uv + arc_vu``), exactly two of them at every square
  (:func:`add_degree_constraints`), and both moves of a square that has
  only two fixed to true.
* ``cuts``: no circuit constraint; CP-SAT finds a 2-factor and the
  subtour-elimination cuts of its cycles are added until one cycle is left
  (:mod:`ktsolve.models.cpsat_cuts`).
* ``sat``: the same cut loop in an incremental SAT solver (Glucose through
  the optional python-sat, :mod:`ktsolve.models.satcuts`); a question the
  colours rule out goes to the circuit model, whose colour counts refute
  it at once.

References
----------
L. Perron and F. Didier, *CP-SAT*, Google OR-Tools (v9),
https://developers.google.com/optimization/cp/cp_solver.

Examples
--------
>>> from ktsolve import Board, KnightGraph, TourSpec
>>> res = solve_cpsat(KnightGraph(Board(5, 5, holes=[(2, 2)])), TourSpec(closed=True), seed=1)
>>> res.status.value, res.proof.argument, res.seed
('infeasible', 'cpsat', 1)
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..driver import Deadline, Stopped, begin, call_guarded, interrupt_guard
from ..errors import InvalidParameterError
from ..graph import KnightGraph
from ..heuristics._params import Param, Params, Range, choice, described, whole
from ..result import Proof, SolveResult, Status
from ..seeds import derive_seed
from ..tour import Tour, TourSpec

__all__ = [
    "build_circuit_model",
    "add_degree_constraints",
    "solve_cpsat",
    "MODELS",
    "apply_parameters",
    "run_solver",
    "solver_stats",
    "DEFAULT_TIME_LIMIT",
    "DEFAULT_PARAMETERS",
    "MAX_WORKERS",
    "RESERVED_PARAMETERS",
]

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

#: Moves added to the model between two looks at the clock (a few milliseconds).
_BUILD_CHUNK = 2000

#: The models of method ``cpsat`` (its ``model`` parameter); the first is the default.
MODELS = ("circuit", "redundant", "cuts", "sat")


def build_circuit_model(model, graph: KnightGraph, spec: TourSpec, *, shuffle: int | None = None,
                        deadline: Deadline | None = None) -> dict[tuple[int, int], object]:
    """Add the circuit constraint of ``spec`` on ``graph`` to ``model``; return the arc -> literal map.

    Parameters
    ----------
    model : ortools.sat.python.cp_model.CpModel
    graph : KnightGraph
    spec : TourSpec
    shuffle : int, optional
        Seed of a random order of the moves in the model.  With one worker
        and :data:`DEFAULT_PARAMETERS` CP-SAT's search is deterministic and
        its ``random_seed`` changes nothing; the order of the model's
        variables does, so the method's seed shuffles it (None keeps the
        graph's order).
    deadline : Deadline, optional
        Checked every :data:`_BUILD_CHUNK` moves: building the model of a
        large board takes seconds (:class:`~ktsolve.driver.Stopped` when it
        expires or Ctrl-C is pressed).

    Returns
    -------
    dict
        ``{(tail, head): literal}`` for every arc.  Squares are ``0 .. n - 1``;
        for open tours the dummy node is ``n``.  A square with no move gets
        a self-loop fixed to false, so that the circuit cannot skip it.

    Examples
    --------
    >>> from ortools.sat.python import cp_model
    >>> from ktsolve import Board
    >>> arcs = build_circuit_model(cp_model.CpModel(), KnightGraph(Board(3, 4)), TourSpec())
    >>> len(arcs)  # 2 x 14 moves, plus 12 + 12 arcs from and to the dummy
    52
    """
    n = graph.n
    board = graph.board
    edges = graph.edges()
    if shuffle is not None:
        edges = edges[np.random.default_rng(shuffle).permutation(len(edges))]
    edges = edges.tolist()
    lits: dict[tuple[int, int], object] = {}
    arcs = []
    for i, (u, v) in enumerate(edges):
        if deadline is not None and i % _BUILD_CHUNK == 0:
            deadline.check("building the CP-SAT model")
        for a, b in ((u, v), (v, u)):
            x = model.new_bool_var(f"{a}>{b}")
            lits[(a, b)] = x
            arcs.append((a, b, x))
    s = None if spec.start is None else board.index(*spec.start)
    e = None if spec.end is None else board.index(*spec.end)
    deg = graph.degree
    for v in np.flatnonzero(deg == 0).tolist():
        if n > 1 or spec.closed:
            x = model.new_bool_var(f"skip{v}")
            model.add(x == 0)
            lits[(v, v)] = x
            arcs.append((v, v, x))
    if spec.closed:
        if s is not None and e is not None and s != e:
            x = lits.get((e, s))
            if x is None:  # no closing move: the model is infeasible, and says so
                x = model.new_bool_var(f"{e}>{s}")
                model.add(x == 0)
                model.add(x == 1)
            else:
                model.add(x == 1)
    else:
        d = n
        for v in ([s] if s is not None else range(n)):
            x = model.new_bool_var(f"d>{v}")
            lits[(d, v)] = x
            arcs.append((d, v, x))
        for v in ([e] if e is not None else range(n)):
            x = model.new_bool_var(f"{v}>d")
            lits[(v, d)] = x
            arcs.append((v, d, x))
    model.add_circuit(arcs)
    if not _colours_allow(graph, spec):
        _add_colour_counts(model, graph, lits)
    return lits


def add_degree_constraints(model, graph: KnightGraph, lits: dict[tuple[int, int], object],
                           deadline: Deadline | None = None) -> None:
    """Add the redundant undirected view of the circuit model built by :func:`build_circuit_model`.

    Every move ``{u, v}`` gets a literal ``x_uv = arc_uv + arc_vu`` (so at
    most one direction is used), and every square has exactly two chosen
    moves, counting its arcs to and from an open tour's dummy.  A square
    with only two possible moves gets both fixed to true.  ``add_circuit``
    implies all of this; stated as linear constraints it reaches bound
    propagation and the LP relaxation directly.

    Examples
    --------
    >>> from ortools.sat.python import cp_model
    >>> from ktsolve import Board
    >>> model = cp_model.CpModel()
    >>> g = KnightGraph(Board(3, 4))
    >>> add_degree_constraints(model, g, build_circuit_model(model, g, TourSpec(closed=True)))
    >>> status, _ = run_solver(cp_model.CpSolver(), model, Deadline(10))  # Ctrl-C stays ktsolve's
    >>> status == cp_model.INFEASIBLE
    True
    """
    n = graph.n
    at: list[list] = [[] for _ in range(n)]
    for i, ((a, b), x) in enumerate(lits.items()):
        if deadline is not None and i % _BUILD_CHUNK == 0:
            deadline.check("building the CP-SAT model")
        if a == b:
            continue
        if a == n or b == n:  # an arc to or from the dummy: one end of an open tour
            at[b if a == n else a].append(x)
        elif a < b:
            y = model.new_bool_var(f"{a}-{b}")
            model.add(y == x + lits[(b, a)])
            at[a].append(y)
            at[b].append(y)
    for v in range(n):
        if not at[v]:
            continue  # a square without moves: its self-loop, fixed to false, already refutes
        model.add(sum(at[v]) == 2)
        if len(at[v]) == 2:
            for y in at[v]:
                model.add(y == 1)


def _colours_allow(graph: KnightGraph, spec: TourSpec) -> bool:
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


def _add_colour_counts(model, graph: KnightGraph, lits) -> None:
    """Redundant counts of moves between colours, so CP-SAT sees colour parity at once.

    Every square has one arc out and one in, and a move joins squares of
    different colours, so with ``s01`` moves from colour 0 to 1, ``s10``
    back, and ``e_c``/``b_c`` tours ending/beginning on colour ``c``:
    ``s01 + e0 = n0 = s10 + b0`` and ``s10 + e1 = n1 = s01 + b1``.  The
    circuit implies these; stated as linear constraints, bound propagation
    refutes a board whose colours cannot alternate before any search
    (without them and without CP-SAT's LP relaxation, which
    :data:`DEFAULT_PARAMETERS` switches off, a closed 7x7 takes seconds and
    an open 8x8 without two corners of one colour more than 20 s).  They are
    added only when the colours rule the tour out: elsewhere they decide
    nothing and slow the search (closed 30x30: 1.1 s instead of 0.45 s).
    """
    n = graph.n
    colour = graph.colour
    count = [int((colour == 0).sum()), int((colour == 1).sum())]
    moves = {0: [], 1: []}
    begin = {0: [], 1: []}
    end = {0: [], 1: []}
    for (a, b), x in lits.items():
        if a == b:
            continue
        if a == n:
            begin[int(colour[b])].append(x)
        elif b == n:
            end[int(colour[a])].append(x)
        else:
            moves[int(colour[a])].append(x)
    s01 = model.new_int_var(0, n, "s01")
    s10 = model.new_int_var(0, n, "s10")
    model.add(sum(moves[0]) == s01)
    model.add(sum(moves[1]) == s10)
    if not begin[0] and not begin[1]:  # a closed tour
        model.add(s01 == count[0])
        model.add(s10 == count[0])
        model.add(s01 == count[1])
        model.add(s10 == count[1])
        return
    b0, b1, e0, e1 = (model.new_int_var(0, 1, name) for name in ("b0", "b1", "e0", "e1"))
    model.add(sum(begin[0]) == b0)
    model.add(sum(begin[1]) == b1)
    model.add(sum(end[0]) == e0)
    model.add(sum(end[1]) == e1)
    model.add(b0 + b1 == 1)
    model.add(e0 + e1 == 1)
    model.add(s01 + e0 == count[0])
    model.add(s10 + b0 == count[0])
    model.add(s10 + e1 == count[1])
    model.add(s01 + b1 == count[1])


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


def _status_map():
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


@described(Range("other", text="a mapping of CP-SAT parameter names to values"))
def _parameters(value, name, get, ctx):
    _as_mapping(value)  # refused here when it is no mapping; its names and values when CP-SAT takes them
    return value


#: The parameters of :func:`solve_cpsat`, declared once: defaults, checks, and what ``ktsolve methods`` prints.
PARAMS = Params("cpsat", (
    Param("num_workers", 1, whole(1, MAX_WORKERS), "int",
          f"Search threads, 1 to {MAX_WORKERS}; 1 (the default) is reproducible, more are not."),
    Param("parameters", None, _parameters, "mapping, optional",
          "Any other CP-SAT parameter by name (in Python), applied after the defaults."),
    Param("model", "circuit", choice(MODELS), '{"circuit", "redundant", "cuts", "sat"}',
          "The model solved: the circuit constraint, with redundant degrees, or 2-factors refined by subtour "
          "cuts in CP-SAT (cuts) or in Glucose (sat, needs python-sat)."),
))


def solve_cpsat(
    graph: KnightGraph,
    spec: TourSpec,
    *,
    time_limit=None,
    progress=None,
    num_workers: int = 1,
    parameters: Mapping | None = None,
    model: str = "circuit",
    seed: int | None = None,
) -> SolveResult:
    """Find a tour with CP-SAT's circuit constraint, or prove that none exists.

    Parameters
    ----------
    graph : KnightGraph
    spec : TourSpec
    seed : int, optional
        Seed of every random choice, a whole number from 0 to 2**32 - 1.  None
        draws a fresh seed; the seed used is recorded in ``result.seed``, and
        passing it again repeats the run exactly.
        It shuffles the order of the moves in the model (see
        :func:`build_circuit_model`) and seeds CP-SAT's ``random_seed``,
        through :func:`ktsolve.seeds.derive_seed`; runs repeat exactly with
        one worker.
    time_limit : float, optional
        Seconds for the whole call (default :data:`DEFAULT_TIME_LIMIT`);
        importing OR-Tools and building the model count.
    progress : callable, optional
        Unused (CP-SAT reports no progress for a feasibility model).
    num_workers : int
        Search threads, 1 to :data:`MAX_WORKERS`.  1 (the default) is
        reproducible; more are not.
    parameters : mapping, optional
        Any other CP-SAT parameter by name, e.g. ``{"log_search_progress": True}``;
        applied after :data:`DEFAULT_PARAMETERS`, so it can override them
        (not those in :data:`RESERVED_PARAMETERS`, which the arguments set).
    model : {"circuit", "redundant", "cuts", "sat"}
        The model solved (see the module docstring): ``circuit`` (default),
        the circuit model with redundant degree constraints, or the 2-factor
        model refined by subtour cuts in CP-SAT (``cuts``) or in an
        incremental SAT solver (``sat``, needs python-sat; its first
        2-factor comes from CP-SAT, with ``num_workers`` and ``parameters``).  ``cuts`` and ``sat``
        answer with ``stats["rounds"]`` and ``stats["cuts"]``; an open tour
        of fewer than two squares always uses ``circuit``.

    Returns
    -------
    SolveResult
        ``stats`` holds the solver's status name, branches, conflicts and
        times, and the model size; ``stats["interrupted"]`` after Ctrl-C.

    Raises
    ------
    InvalidParameterError
        For ``num_workers`` out of range, or parameters CP-SAT does not take.
    RuntimeError
        When CP-SAT calls the model invalid (a bug here).

    Examples
    --------
    >>> from ktsolve import Board
    >>> res = solve_cpsat(KnightGraph(Board(6, 6)), TourSpec(closed=True), seed=3)
    >>> res.status.value, len(res.tour), res.seed
    ('found', 36, 3)
    >>> solve_cpsat(KnightGraph(Board(3, 6)), TourSpec(), seed=1).proof.argument
    'cpsat'
    >>> res = solve_cpsat(KnightGraph(Board(6, 6)), TourSpec(closed=True), seed=3, model="cuts")
    >>> res.status.value, res.stats["model"], res.stats["rounds"] >= 1
    ('found', 'cuts', True)
    """
    deadline, seed = begin(time_limit, seed, default=DEFAULT_TIME_LIMIT)
    values = PARAMS.check({"num_workers": num_workers, "parameters": parameters, "model": model}, n=graph.n)
    num_workers, model = values.num_workers, values.model
    n = graph.n
    if spec.closed and n < 3:
        return SolveResult(
            Status.INFEASIBLE, seed=seed,
            proof=Proof(f"the board has {n} square{'s' if n != 1 else ''}; a closed tour needs at least 3",
                        argument="size", evidence={"squares": n}),
        )
    with interrupt_guard():
        try:
            deadline.check("starting CP-SAT")  # no time left: not even the import
            from ortools.sat.python import cp_model

            solver = cp_model.CpSolver()
            apply_parameters(solver, {**DEFAULT_PARAMETERS, **_as_mapping(parameters)})
            graph.build(deadline)
            if model == "cuts" and (spec.closed or n >= 2):
                from ._cpsat_loops import solve_cuts

                return solve_cuts(graph, spec, deadline, seed, num_workers, parameters)
            if model == "sat" and (spec.closed or n >= 2) and _colours_allow(graph, spec):
                from ._cpsat_loops import solve_sat

                return solve_sat(graph, spec, deadline, seed, num_workers, parameters)
            cp = cp_model.CpModel()
            lits = build_circuit_model(cp, graph, spec, shuffle=derive_seed(seed, "cpsat shuffle"),
                                       deadline=deadline)
            if model == "redundant":
                add_degree_constraints(cp, graph, lits, deadline)
            deadline.check("building the CP-SAT model")
        except Stopped as stop:
            return SolveResult(Status.UNKNOWN, seed=seed, stats={**stop.stats(), "num_workers": num_workers})
    solver.parameters.num_workers = num_workers
    solver.parameters.random_seed = derive_seed(seed, "cpsat random_seed") % 2**31
    status, interrupted = run_solver(solver, cp, deadline, what="circuit model")
    stats = solver_stats(solver, status)
    stats.update(arcs=len(lits), num_workers=num_workers, model=model)
    if interrupted:
        stats.update(reason="interrupted (Ctrl-C) while CP-SAT searched", interrupted=True)
        return SolveResult(Status.UNKNOWN, seed=seed, stats=stats)
    mapped = _status_map()[status]
    if mapped is Status.FOUND:
        succ = {a: b for (a, b), x in lits.items() if a != b and solver.boolean_value(x)}
        return SolveResult(Status.FOUND, tour=_tour_from_successors(graph, spec, succ), seed=seed, stats=stats)
    if mapped is Status.INFEASIBLE:
        text = (
            f"CP-SAT proved the circuit model infeasible ({stats['branches']} branches, "
            f"{stats['conflicts']} conflicts, {stats['wall_time_s']:.3g} s)"
        )
        return SolveResult(Status.INFEASIBLE, proof=Proof(text, argument="cpsat", evidence=stats), seed=seed,
                           stats=stats)
    stats["reason"] = f"CP-SAT found no tour and no proof within {deadline.time_limit:g} s"
    return SolveResult(Status.UNKNOWN, seed=seed, stats=stats)




def _as_mapping(parameters) -> dict:
    if parameters is None:
        return {}
    if not isinstance(parameters, Mapping):
        raise InvalidParameterError(
            f"method 'cpsat': parameters must be a mapping of CP-SAT parameter names to values, "
            f"not {parameters!r}"
        )
    return dict(parameters)


def _tour_from_successors(graph: KnightGraph, spec: TourSpec, succ: dict[int, int]) -> Tour:
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

