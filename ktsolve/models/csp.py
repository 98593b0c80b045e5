"""Constraint models in python-constraint: the Prolog paper's longest path, and full tours.

The Prolog paper among ktsolve's seeds asks for the **longest knight's path
from a given square** and answers it declaratively: the program states what
a path is and lets Prolog's backtracking search for one, trying longer
paths until none exists.  :func:`longest_csp` (``ktsolve longest BOARD
--start SQ --method csp``) states the same question as a constraint
problem and searches it the same way:

* one variable per step ``0 .. L - 1``, whose value is the square visited at
  that step; step 0 is the start square;
* all steps take different squares (``AllDifferentConstraint``);
* consecutive steps are a knight's move apart (one function constraint per
  pair of consecutive steps);
* the length grows as Prolog's would: ``L = 1, 2, 3, ...``, one complete
  backtracking search for each, until the search for ``L + 1`` is exhausted
  (the optimum is ``L``, proven) or ``L`` covers the board.

:func:`build_path_csp` builds one such problem with python-constraint
(``Problem``, ``AllDifferentConstraint``, function constraints) behind
ktsolve's own names (:class:`ConstraintModel`).  It must give the optimum
of CP-SAT's longest-path model (:func:`ktsolve.models.longest.longest_path`)
on every board it finishes; the tests check that on many small boards,
holed ones included.

:func:`solve_csp` (method ``csp``) is ktsolve's extension of the same model
to full tours: ``N`` steps, and for a closed tour a knight's move from the
last step back to the first; it takes the first solution of
``getSolutionIter()``, so the search stops at the first tour.  The paper
shows the path formulation only; the tour model, the closing constraint
and the value orders below are ktsolve's own.

Two solvers, injected as objects:

``variant="plain"``
    python-constraint's ``BacktrackingSolver`` with forward checking: it
    picks the variable with the most constraints and then the smallest
    domain, which here labels the steps in order; values are tried in
    python-constraint's order.
``variant="warnsdorff"`` (default)
    :class:`WarnsdorffSolver`: steps labelled in order and the squares for
    the next step tried with the fewest unvisited onward moves first
    (Warnsdorff's rule as the value order), every candidate still checked
    against the model's constraints.

Any other python-constraint solver object can be passed as ``solver``.

Where it stops being usable.  The model has ``L`` variables of ``N``
values and the search is plain backtracking in Python, with no reasoning
beyond the constraints above, so it answers quickly only when a solution
exists and the value order walks into it, and proving that none exists
means exhausting every path the constraints allow.  Measured with a 10 s
limit (``benchmarks/bench_csp.py``, ``benchmarks/results/csp.md``): open
tours from a corner in milliseconds up to 8x8 with the Warnsdorff order;
closed tours up to about 30 squares (and 8x8 in seconds) but not 5x6 or
6x6; a proof that no tour exists for the open 4x4 (16 squares) but not for
5x5 from b1 (25 squares).  Longest paths inherit the same limit: boards with
a full path from the start finish in milliseconds, the others only while
the exhaustive last search is small (about 20 squares).  Both methods
therefore refuse boards of more than :data:`MAX_SQUARES` squares
(``UnsupportedError``): use ``cpsat`` there, which also proves.

Time limit and Ctrl-C.  python-constraint's search cannot be interrupted
from outside; instead the knight's-move constraint, which the solver calls
for every candidate square, counts its calls: every :data:`CLOCK_EVERY`
calls it reads the clock, and on every call it looks at the Ctrl-C flag of
:func:`ktsolve.driver.interrupt_guard`; either raises a private exception
that unwinds the search and becomes an honest ``unknown``.  The default
budget is :data:`DEFAULT_TIME_LIMIT` seconds.

References
----------
G. Niemeyer, python-constraint, https://github.com/python-constraint/python-constraint.
"""

from __future__ import annotations

import numbers
import time

from ..driver import begin, interrupt_guard, phase
from ..errors import InvalidParameterError, UnsupportedError
from ..graph import KnightGraph
from ..heuristics._params import Param, Params, Range, choice, described, flag
from ..result import Proof, SolveResult, Status
from ..tour import Tour, TourSpec
from ..seeds import seed_doc

__all__ = [
    "ConstraintModel",
    "WarnsdorffSolver",
    "build_csp",
    "build_path_csp",
    "solve_csp",
    "longest_csp",
    "VARIANTS",
    "MAX_SQUARES",
    "DEFAULT_TIME_LIMIT",
    "CLOCK_EVERY",
]

#: Largest board (in squares) the methods accept; see the module notes.
MAX_SQUARES = 64

#: Seconds the search runs when no time limit is given.
DEFAULT_TIME_LIMIT = 60.0

#: The knight's-move constraint reads the clock once every this many calls.
CLOCK_EVERY = 512

#: The solvers chosen by name.
VARIANTS = ("warnsdorff", "plain")


class _OutOfTime(Exception):
    """Raised inside a constraint to unwind python-constraint's search."""


class _Interrupted(_OutOfTime):
    """Raised inside a constraint when Ctrl-C was pressed."""


class Clock:
    """Counts constraint checks and raises when the deadline passes.

    Parameters
    ----------
    deadline : float or None
        A ``time.perf_counter()`` value; None never expires.
    every : int
        Read the clock once per this many ticks.
    flag : object, optional
        The flag of :func:`ktsolve.driver.interrupt_guard`; a tick after
        Ctrl-C raises.
    """

    def __init__(self, deadline: float | None, every: int = CLOCK_EVERY, flag=None):
        self.deadline = deadline
        self.every = int(every)
        self.flag = flag
        self.ticks = 0

    def tick(self) -> None:
        self.ticks += 1
        if self.flag is not None and self.flag.set:
            raise _Interrupted
        if self.deadline is not None and self.ticks % self.every == 0 and time.perf_counter() > self.deadline:
            raise _OutOfTime


class ConstraintModel:
    """ktsolve's names for a python-constraint ``Problem``.

    Parameters
    ----------
    solver : constraint.Solver, optional
        The search; python-constraint's ``BacktrackingSolver()`` by default.
    """

    def __init__(self, solver=None):
        import constraint

        self._lib = constraint
        self.problem = constraint.Problem(solver)

    def add_variable(self, name, domain) -> None:
        """A variable with the given values (tried by python-constraint from the end of the list)."""
        self.problem.addVariable(name, list(domain))

    def add_constraint(self, func, variables) -> None:
        """A constraint given as a callable of the variables' values (or a python-constraint Constraint)."""
        self.problem.addConstraint(func, list(variables))

    def add_all_different(self, variables) -> None:
        self.problem.addConstraint(self._lib.AllDifferentConstraint(), list(variables))

    def solutions(self):
        """Iterator over solutions (dicts variable -> value), found one at a time."""
        return self.problem.getSolutionIter()

    def first_solution(self):
        """The first solution, or None when the search is exhausted."""
        return next(iter(self.solutions()), None)


def build_csp(model: ConstraintModel, graph: KnightGraph, spec: TourSpec, clock: Clock | None = None,
              length: int | None = None) -> list[int]:
    """State the question on ``model``; return the step variables ``0 .. length - 1``.

    Step ``k``'s value is the square visited at step ``k``; all steps differ
    and consecutive steps are a knight's move apart.  ``length`` is the
    number of steps, the whole board when None (a tour).  The start fixes
    step 0; for a closed tour without a start, step 0 is square 0 (a closed
    tour can be listed from anywhere), and the last step must be a knight's
    move from step 0; a fixed end fixes the last step.

    Examples
    --------
    >>> from ktsolve import Board
    >>> model = ConstraintModel()
    >>> steps = build_csp(model, KnightGraph(Board(3, 3, holes=[(1, 1)])), TourSpec(closed=True))
    >>> sol = model.first_solution()
    >>> [sol[k] for k in steps][:3]
    [0, 6, 2]
    """
    n = graph.n
    L = n if length is None else int(length)
    board = graph.board
    nbrs = [frozenset(int(w) for w in graph.neighbours(v)) for v in range(n)]
    clock = clock or Clock(None)
    squares = list(range(n))
    steps = list(range(L))
    s = None if spec.start is None else board.index(*spec.start)
    e = None if spec.end is None else board.index(*spec.end)
    if spec.closed and s is None and e is None:
        s = 0
    for k in steps:
        if k == 0 and s is not None:
            domain = [s]
        elif k == L - 1 and e is not None and L > 1:
            domain = [e]
        else:
            domain = squares
        model.add_variable(k, domain)

    def knight_move(a, b):
        clock.tick()
        return b in nbrs[a]

    model.add_all_different(steps)
    for k in range(L - 1):
        model.add_constraint(knight_move, (k, k + 1))
    if L > 1:
        if spec.closed:
            model.add_constraint(knight_move, (L - 1, 0))
        else:
            # Implied by all-different; it gives the first and last steps as many
            # constraints as the others, so that python-constraint's "most
            # constrained first" rule labels the steps in order.
            model.add_constraint(lambda a, b: a != b, (0, L - 1))
    return steps


def build_path_csp(model: ConstraintModel, graph: KnightGraph, start: int | None, length: int,
                   clock: Clock | None = None) -> list[int]:
    """The Prolog paper's question for one length: a knight's path of ``length`` squares from ``start``.

    ``start`` is a square number, or None for a path that may start
    anywhere.  Returns the step variables.

    Examples
    --------
    >>> from ktsolve import Board
    >>> g = KnightGraph(Board(3, 3))
    >>> model = ConstraintModel()
    >>> steps = build_path_csp(model, g, 0, 8)
    >>> path = [model.first_solution()[k] for k in steps]
    >>> path[0], len(set(path))
    (0, 8)
    >>> model = ConstraintModel()
    >>> _ = build_path_csp(model, g, 0, 9)
    >>> model.first_solution() is None
    True
    """
    start_sq = None if start is None else tuple(int(x) for x in graph.board.coords_of([start])[0])
    return build_csp(model, graph, TourSpec(closed=False, start=start_sq), clock, length=length)


class WarnsdorffSolver:
    """Steps in order, squares by Warnsdorff's rule: a python-constraint solver object.

    Labels step 0, 1, 2, ... in order; for the next step it tries the
    unvisited knight's-move neighbours of the current square, fewest
    unvisited onward moves first (ties by square number), and keeps a value
    only when every constraint of the model on that step holds.
    Backtracking uses an explicit stack (no recursion).

    Parameters
    ----------
    neighbours : list of sequences
        ``neighbours[v]`` are the squares a knight's move from ``v``.
    """

    def __init__(self, neighbours):
        self.neighbours = [tuple(int(w) for w in ws) for ws in neighbours]

    def _ordered(self, cands, used, keep=None):
        nb = self.neighbours
        return sorted(cands, key=lambda w: (sum(1 for x in nb[w] if x not in used or x == keep), w))

    # python-constraint calls solvers through these camelCase names.
    def getSolution(self, domains, constraints, vconstraints):  # noqa: N802
        return next(iter(self.getSolutionIter(domains, constraints, vconstraints)), None)

    def getSolutionIter(self, domains, constraints, vconstraints):  # noqa: N802
        steps = sorted(domains)
        n = len(steps)
        allowed = [set(domains[v]) for v in steps]
        assignments: dict = {}
        used: set = set()
        stack = [self._ordered(list(domains[steps[0]]), used)]
        while stack:
            k = len(stack) - 1
            var = steps[k]
            cands = stack[-1]
            if var in assignments:
                used.discard(assignments.pop(var))
            placed = False
            while cands:
                value = cands.pop(0)
                assignments[var] = value
                if all(c(vs, domains, assignments) for c, vs in vconstraints[var]):
                    placed = True
                    break
                del assignments[var]
            if not placed:
                stack.pop()
                continue
            used.add(value)
            if k + 1 == n:
                yield dict(assignments)
                continue
            nxt = [w for w in self.neighbours[value] if w not in used and w in allowed[k + 1]]
            # The first square still counts as free: a closed tour must come back to it,
            # so squares next to it look less urgent and are left for the end.
            stack.append(self._ordered(nxt, used, keep=assignments[steps[0]]))


@described(Range("other", text="a python-constraint solver object (in Python)"))
def _solver_object(solver, name, get, ctx):
    if solver is not None and (isinstance(solver, str) or not callable(getattr(solver, "getSolutionIter", None))):
        raise InvalidParameterError(
            f"method 'csp': solver must be a python-constraint solver object, not {solver!r}; "
            f"name one with variant ({', '.join(VARIANTS)})"
        )
    return solver


#: The parameters of :func:`solve_csp`, declared once: defaults, checks, and what ``ktsolve methods`` prints.
PARAMS = Params("csp", (
    Param("variant", "warnsdorff", choice(VARIANTS), '{"warnsdorff", "plain"}',
          "The solver: backtracking in Warnsdorff's value order, or python-constraint's BacktrackingSolver "
          "with forward checking."),
    Param("solver", None, _solver_object, "object, optional",
          "Any python-constraint solver object (in Python); overrides variant."),
    Param("certify", True, flag, "bool",
          "Re-derive a \"no\" as an unsatisfiable CNF with a DRUP proof (needs python-sat), so it carries a certificate."),
))


def _solver(graph: KnightGraph, variant, solver):
    """The solver object: ``solver`` when given (checked), else the one ``variant`` names."""
    values = PARAMS.check({"variant": variant, "solver": solver}, n=graph.n)
    variant, solver = values.variant, values.solver
    if solver is not None:
        return solver
    if variant == "plain":
        import constraint

        return constraint.BacktrackingSolver(forwardcheck=True)
    return WarnsdorffSolver([graph.neighbours(v) for v in range(graph.n)])


def _check_size(graph: KnightGraph, what: str) -> None:
    if graph.n > MAX_SQUARES:
        raise UnsupportedError(
            f"method 'csp' handles boards of at most {MAX_SQUARES} squares (its Python backtracking "
            f"does not finish beyond); this one has {graph.n}: use method 'cpsat' for {what}"
        )


@seed_doc
def solve_csp(
    graph: KnightGraph,
    spec: TourSpec,
    *,
    time_limit=None,
    progress=None,
    variant: str = "warnsdorff",
    solver=None,
    certify: bool = True,
    seed: int | None = None,
) -> SolveResult:
    """Find a tour with the python-constraint model, or prove there is none by exhausting it.

    Parameters
    ----------
    graph : KnightGraph
    spec : TourSpec
        Any question, on boards of at most 64 squares: one variable per step
        of the path, a fixed start or end fixing the first or last step.
    %(unseeded seed)s
    time_limit : float, optional
        Seconds (default :data:`DEFAULT_TIME_LIMIT`), kept by the clock in the
        knight's-move constraint.
    progress : callable, optional
        Unused: the search has no measure of how far it has come.
    variant : {"warnsdorff", "plain"}
        The solver: :class:`WarnsdorffSolver` or python-constraint's
        ``BacktrackingSolver(forwardcheck=True)``.
    solver : object, optional
        Any python-constraint solver object; overrides ``variant``.
    certify : bool
        Certify a "no" (default) with a CNF and a DRUP proof within the
        time left (:func:`ktsolve.models.certify.certify_answer`); else, or
        when it cannot be made, the proof says "not certified".

    Returns
    -------
    SolveResult
        ``stats["checks"]`` counts knight's-move checks.  Ctrl-C or the time
        limit give ``unknown`` (``stats["interrupted"]`` after Ctrl-C).

    Raises
    ------
    UnsupportedError
        For a board of more than :data:`MAX_SQUARES` squares.
    InvalidParameterError
        For an unknown variant or a solver that is not a solver object.

    Examples
    --------
    >>> from ktsolve import Board
    >>> res = solve_csp(KnightGraph(Board(3, 4)), TourSpec(start=(0, 0)), seed=0)
    >>> res.status.value, len(res.tour)
    ('found', 12)
    """
    _check_size(graph, "tours")
    n = graph.n
    deadline, _ = begin(time_limit, seed, seeded=False, default=DEFAULT_TIME_LIMIT)
    budget, t0 = deadline.time_limit, deadline.t0
    certify = PARAMS.check({"certify": certify}, n=graph.n).certify  # the table that ktsolve methods prints
    solver = _solver(graph, variant, solver)
    name = type(solver).__name__
    if spec.closed and n < 3:
        return SolveResult(
            Status.INFEASIBLE,
            proof=Proof(f"the board has {n} square{'s' if n != 1 else ''}; a closed tour needs at least 3",
                        argument="size", evidence={"squares": n}),
        )
    with interrupt_guard() as flag:
        clock = Clock(t0 + budget, flag=flag)
        model = ConstraintModel(solver)
        steps = build_csp(model, graph, spec, clock)
        try:
            sol = model.first_solution()
        except _OutOfTime as exc:
            stats = {"checks": clock.ticks, "solver": name}
            if isinstance(exc, _Interrupted):
                stats.update(interrupted=True, reason=f"interrupted after {clock.ticks:,} knight's-move checks")
            else:
                stats["reason"] = f"python-constraint found no tour within {budget:g} s"
            return SolveResult(Status.UNKNOWN, stats=stats)
    stats = {"checks": clock.ticks, "solver": name}
    if sol is None:
        stats["seconds"] = round(time.perf_counter() - t0, 3)
        text = (
            f"python-constraint's {name} exhausted every sequence of squares allowed by the model "
            f"({clock.ticks:,} knight's-move checks, {stats['seconds']:.3g} s)"
        )
        from .certify import settle

        res = SolveResult(Status.INFEASIBLE, proof=Proof(text, argument="exhaustive search", evidence=stats),
                          stats=stats)
        return settle(res, graph.board, spec, deadline, certify)
    order = [sol[k] for k in steps]
    return SolveResult(Status.FOUND, tour=Tour(graph.board, order, closed=spec.closed), stats=stats)


def _length_entry(length: int, checks: int, t1: float, answer: str) -> dict:
    return {"length": length, "checks": checks, "seconds": round(time.perf_counter() - t1, 6), "answer": answer}


def longest_csp(
    graph: KnightGraph,
    start: int | None = None,
    *,
    time_limit: float | None = None,
    variant: str = "warnsdorff",
    solver=None,
    progress=None,
) -> SolveResult:
    """The longest knight's path from square number ``start``, by backtracking with growing length.

    For ``L = 1, 2, ...`` the search of :func:`build_path_csp` looks for a
    path of ``L`` squares; the first length it exhausts without a solution
    proves that the previous path is the longest (the Prolog paper's
    search).  A path that covers the board ends the search at once.

    Parameters
    ----------
    graph : KnightGraph
    start : int, optional
        Square number of the first square; None lets the path start anywhere.
    time_limit : float, optional
        Seconds for all the lengths together (default :data:`DEFAULT_TIME_LIMIT`).
    variant, solver
        As in :func:`solve_csp`.
    progress : callable, optional
        ``progress(length, squares)`` before each length is searched.

    Returns
    -------
    SolveResult
        As :func:`ktsolve.models.longest.longest_path`: ``path`` (the longest
        path found), ``stats["length"]``, ``stats["bound"]`` (no path is
        longer), ``stats["optimal"]``; ``found`` when the optimum is proven,
        ``unknown`` when the time ran out or Ctrl-C was pressed first;
        ``tour`` when the path covers the board.  ``stats["lengths"]``
        lists the lengths searched with their knight's-move checks and seconds.

    Raises
    ------
    UnsupportedError
        For a board of more than :data:`MAX_SQUARES` squares or a start that
        is not a square number.

    Examples
    --------
    >>> from ktsolve import Board
    >>> res = longest_csp(KnightGraph(Board(3, 3)), 0)
    >>> res.stats["length"], res.stats["optimal"], res.status.value
    (8, True, 'found')
    >>> longest_csp(KnightGraph(Board(3, 3)), 4).stats["length"]
    1
    """
    _check_size(graph, "longest paths")
    n = graph.n
    if start is not None:
        if isinstance(start, bool) or not isinstance(start, numbers.Integral) or not 0 <= start < n:
            raise UnsupportedError(f"start {start!r} is not a square number in 0..{n - 1}")
        start = int(start)
    deadline, _ = begin(time_limit, None, seeded=False, default=DEFAULT_TIME_LIMIT)
    budget, t0 = deadline.time_limit, deadline.t0
    solver = _solver(graph, variant, solver)
    name = type(solver).__name__
    best: list[int] = []
    lengths: list[dict] = []
    stop = None  # why the search ended before a proof
    optimal = False
    with interrupt_guard() as flag:
        clock = Clock(t0 + budget, flag=flag)
        phase(progress, "csp: path length", n)
        for L in range(1, n + 1):
            if progress is not None:
                progress(L, n)
            ticks, t1 = clock.ticks, time.perf_counter()
            model = ConstraintModel(solver)
            steps = build_path_csp(model, graph, start, L, clock)
            try:
                sol = model.first_solution()
            except _OutOfTime as exc:
                stop = "interrupted" if isinstance(exc, _Interrupted) else "time limit"
                lengths.append(_length_entry(L, clock.ticks - ticks, t1, stop))
                break
            lengths.append(_length_entry(L, clock.ticks - ticks, t1, "path" if sol is not None else "none"))
            if sol is None:
                optimal = True
                break
            best = [sol[k] for k in steps]
        else:
            optimal = True  # the path covers the board
    bound = len(best) if optimal else n
    stats = {"length": len(best), "bound": bound, "optimal": optimal, "solver": name, "checks": clock.ticks,
             "lengths": lengths}
    if stop == "interrupted":
        stats["interrupted"] = True
    if not optimal:
        stats["reason"] = (f"{'interrupted' if stop == 'interrupted' else f'time limit of {budget:g} s reached'} "
                           f"while searching paths of {lengths[-1]['length']} squares; the longest found has "
                           f"{len(best)}")
    path = Tour(graph.board, best, closed=False) if best else None
    tour = path if path is not None and len(best) == n else None
    return SolveResult(Status.FOUND if optimal else Status.UNKNOWN, tour=tour, path=path, method="longest",
                       stats=stats)
