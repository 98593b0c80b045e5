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
from ..heuristics._params import Param, Params, Range, choice, described, flag, whole
from ..result import Proof, SolveResult, Status
from ..seeds import derive_seed, seed_doc
from ..tour import Tour, TourSpec
from .certify import settle
from .cpsat_run import (DEFAULT_PARAMETERS, DEFAULT_TIME_LIMIT, MAX_WORKERS, apply_parameters, as_mapping,
                        colours_allow, run_solver, solver_stats, status_map, tour_from_successors)

__all__ = [
    "build_circuit_model",
    "add_degree_constraints",
    "solve_cpsat",
    "MODELS",
]

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
    if not colours_allow(graph, spec):
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


@described(Range("other", text="a mapping of CP-SAT parameter names to values"))
def _parameters(value, name, get, ctx):
    as_mapping(value)  # refused here when it is no mapping; its names and values when CP-SAT takes them
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
    Param("certify", True, flag, "bool",
          "Re-derive a \"no\" as an unsatisfiable CNF with a DRUP proof (needs python-sat), so it carries a certificate."),
))


@seed_doc
def solve_cpsat(
    graph: KnightGraph,
    spec: TourSpec,
    *,
    time_limit=None,
    progress=None,
    num_workers: int = 1,
    parameters: Mapping | None = None,
    model: str = "circuit",
    certify: bool = True,
    seed: int | None = None,
) -> SolveResult:
    """Find a tour with CP-SAT's circuit constraint, or prove that none exists.

    Parameters
    ----------
    graph : KnightGraph
    spec : TourSpec
        Any question: a closed tour is one circuit over the squares; an open
        one closes through an extra node whose two arcs mark its ends.
    %(seed)s
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
    certify : bool
        Certify a "no" (default): CP-SAT writes no checkable proof of a
        circuit model, so the question is written as a CNF with the cuts
        the search needed and refuted by a DRUP proof within the time left
        (:func:`ktsolve.models.certify.certify_answer`); else, or when it
        cannot be made, the proof says "not certified".

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
    values = PARAMS.check({"num_workers": num_workers, "parameters": parameters, "model": model,
                           "certify": certify}, n=graph.n)
    num_workers, model, certify = values.num_workers, values.model, values.certify
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
            apply_parameters(solver, {**DEFAULT_PARAMETERS, **as_mapping(parameters)})
            graph.build(deadline)
            if model == "cuts" and (spec.closed or n >= 2):
                from ._cpsat_loops import solve_cuts

                cuts: list = []
                res = solve_cuts(graph, spec, deadline, seed, num_workers, parameters, cuts_out=cuts)
                return settle(res, graph.board, spec, deadline, certify, cuts=cuts)
            if model == "sat" and (spec.closed or n >= 2) and colours_allow(graph, spec):
                from ._cpsat_loops import solve_sat

                cuts = []
                res = solve_sat(graph, spec, deadline, seed, num_workers, parameters, cuts_out=cuts)
                return settle(res, graph.board, spec, deadline, certify, cuts=cuts)
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
    mapped = status_map()[status]
    if mapped is Status.FOUND:
        succ = {a: b for (a, b), x in lits.items() if a != b and solver.boolean_value(x)}
        return SolveResult(Status.FOUND, tour=tour_from_successors(graph, spec, succ), seed=seed, stats=stats)
    if mapped is Status.INFEASIBLE:
        text = (
            f"CP-SAT proved the circuit model infeasible ({stats['branches']} branches, "
            f"{stats['conflicts']} conflicts, {stats['wall_time_s']:.3g} s)"
        )
        res = SolveResult(Status.INFEASIBLE, proof=Proof(text, argument="cpsat", evidence=stats), seed=seed,
                          stats=stats)
        with interrupt_guard():
            return settle(res, graph.board, spec, deadline, certify)
    stats["reason"] = f"CP-SAT found no tour and no proof within {deadline.time_limit:g} s"
    return SolveResult(Status.UNKNOWN, seed=seed, stats=stats)
