"""The declarative knight's tour of the Prolog papers, in python-constraint.

The seed papers state the tour as a constraint problem: one variable per
step, whose value is the square visited at that step; all steps take
different squares; consecutive steps are a knight's move apart; the first
step is the start square (and, for a closed tour, the last step is a
knight's move from the first).  :func:`build_csp` states exactly that with
python-constraint (``Problem``, ``AllDifferentConstraint`` and one
function constraint per pair of consecutive steps), behind ktsolve's own
names (:class:`ConstraintModel`), and :func:`solve_csp` (method ``csp``)
takes the first solution of ``getSolutionIter()``, so the search stops at
the first tour.

Two solvers, injected as objects:

``variant="plain"``
    python-constraint's ``BacktrackingSolver`` with forward checking: it
    picks the variable with the most constraints and then the smallest
    domain, which here labels the steps in order; values are tried in
    python-constraint's order.
``variant="warnsdorff"`` (default)
    :class:`WarnsdorffSolver`, the Prolog papers' heuristic variant: steps
    labelled in order and the squares for the next step tried with the
    fewest unvisited onward moves first (Warnsdorff's rule as the value
    order), every candidate still checked against the model's constraints.

Where it stops being usable.  The model has ``n`` variables of ``n``
values and the search is plain backtracking in Python.  Measured with a
10 s limit (``benchmarks/bench_csp.py``, results in
``benchmarks/results/csp.md``): open tours from a corner take milliseconds
up to 8x8 with the Warnsdorff variant (the value order rarely has to
backtrack on a full board), while the plain variant needs 0.3 s on 5x5
from a corner, 7-10 s from the centre, and does not finish 5x6 or 6x6;
closed tours are found up to about 30 squares (3x10 in 3-6 s) and not on
5x6, 6x6 or 8x8; proving that no tour exists means exhausting the search,
1.2 s (plain: 4.5 s) for the open 4x4 and out of reach at 25 squares (5x5
from b1).  The method therefore refuses boards of more than
:data:`MAX_SQUARES` squares (``UnsupportedError``): use ``cpsat`` there,
which also proves impossibility.

Time limit.  python-constraint's search cannot be interrupted from
outside; instead the knight's-move constraint, which the solver calls for
every candidate square, reads the clock every :data:`CLOCK_EVERY` calls and
raises a private exception when the budget is spent, which unwinds the
search and becomes an honest ``unknown``.  The default budget is
:data:`DEFAULT_TIME_LIMIT` seconds.

References
----------
G. Niemeyer, python-constraint, https://github.com/python-constraint/python-constraint.
"""

from __future__ import annotations

import time

from ..errors import UnsupportedError
from ..graph import KnightGraph
from ..result import Proof, SolveResult, Status
from ..tour import Tour, TourSpec

__all__ = [
    "ConstraintModel",
    "WarnsdorffSolver",
    "build_csp",
    "solve_csp",
    "MAX_SQUARES",
    "DEFAULT_TIME_LIMIT",
    "CLOCK_EVERY",
]

#: Largest board (in squares) the method accepts; see the module notes.
MAX_SQUARES = 64

#: Seconds the search runs when no time limit is given.
DEFAULT_TIME_LIMIT = 60.0

#: The knight's-move constraint reads the clock once every this many calls.
CLOCK_EVERY = 512


class _OutOfTime(Exception):
    """Raised inside a constraint to unwind python-constraint's search."""


class Clock:
    """Counts constraint checks and raises when the deadline passes.

    Parameters
    ----------
    deadline : float or None
        A ``time.perf_counter()`` value; None never expires.
    every : int
        Read the clock once per this many ticks.
    """

    def __init__(self, deadline: float | None, every: int = CLOCK_EVERY):
        self.deadline = deadline
        self.every = int(every)
        self.ticks = 0

    def tick(self) -> None:
        self.ticks += 1
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


def build_csp(model: ConstraintModel, graph: KnightGraph, spec: TourSpec, clock: Clock | None = None) -> list[int]:
    """State the tour as a constraint problem on ``model``; return the step variables ``0 .. n - 1``.

    Step ``k``'s value is the square visited at step ``k``.  The start (or,
    for a closed tour without a start, square 0: a closed tour can be
    listed from anywhere) fixes step 0; a fixed end fixes the last step.

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
    board = graph.board
    nbrs = [frozenset(int(w) for w in graph.neighbours(v)) for v in range(n)]
    clock = clock or Clock(None)
    squares = list(range(n))
    steps = list(range(n))
    s = None if spec.start is None else board.index(*spec.start)
    e = None if spec.end is None else board.index(*spec.end)
    if spec.closed and s is None and e is None:
        s = 0
    for k in steps:
        if k == 0 and s is not None:
            domain = [s]
        elif k == n - 1 and e is not None and n > 1:
            domain = [e]
        else:
            domain = squares
        model.add_variable(k, domain)

    def knight_move(a, b):
        clock.tick()
        return b in nbrs[a]

    model.add_all_different(steps)
    for k in range(n - 1):
        model.add_constraint(knight_move, (k, k + 1))
    if n > 1:
        if spec.closed:
            model.add_constraint(knight_move, (n - 1, 0))
        else:
            # Implied by all-different; it gives the first and last steps as many
            # constraints as the others, so that python-constraint's "most
            # constrained first" rule labels the steps in order.
            model.add_constraint(lambda a, b: a != b, (0, n - 1))
    return steps


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


def solve_csp(
    graph: KnightGraph,
    spec: TourSpec,
    *,
    seed: int | None = None,
    time_limit: float | None = None,
    progress=None,
    variant: str = "warnsdorff",
    solver=None,
) -> SolveResult:
    """Find a tour with the python-constraint model, or prove there is none by exhausting it.

    Parameters
    ----------
    graph : KnightGraph
    spec : TourSpec
    seed : int, optional
        Unused: the search is deterministic.
    time_limit : float, optional
        Seconds (default :data:`DEFAULT_TIME_LIMIT`), kept by the clock in the
        knight's-move constraint.
    progress : callable, optional
        Unused.
    variant : {"warnsdorff", "plain"}
        The solver: :class:`WarnsdorffSolver` or python-constraint's
        ``BacktrackingSolver(forwardcheck=True)``.
    solver : object, optional
        Any python-constraint solver object; overrides ``variant``.

    Returns
    -------
    SolveResult
        ``stats["checks"]`` counts knight's-move checks.

    Raises
    ------
    UnsupportedError
        For a board of more than :data:`MAX_SQUARES` squares or an unknown variant.
    """
    n = graph.n
    if n > MAX_SQUARES:
        raise UnsupportedError(
            f"method 'csp' handles boards of at most {MAX_SQUARES} squares (its Python backtracking "
            f"does not finish beyond); this one has {n}: use method 'cpsat'"
        )
    if variant not in ("warnsdorff", "plain"):
        raise UnsupportedError(f"csp variant {variant!r} is not one of 'warnsdorff', 'plain'")
    budget = DEFAULT_TIME_LIMIT if time_limit is None else float(time_limit)
    t0 = time.perf_counter()
    if solver is None:
        if variant == "plain":
            import constraint

            solver = constraint.BacktrackingSolver(forwardcheck=True)
        else:
            solver = WarnsdorffSolver([graph.neighbours(v) for v in range(n)])
    clock = Clock(t0 + budget)
    if spec.closed and n < 3:
        return SolveResult(
            Status.INFEASIBLE,
            proof=Proof(f"the board has {n} square{'s' if n != 1 else ''}; a closed tour needs at least 3",
                        argument="size", evidence={"squares": n}),
        )
    model = ConstraintModel(solver)
    steps = build_csp(model, graph, spec, clock)
    name = type(solver).__name__
    try:
        sol = model.first_solution()
    except _OutOfTime:
        return SolveResult(
            Status.UNKNOWN,
            stats={"reason": f"python-constraint found no tour within {budget:g} s", "checks": clock.ticks,
                   "solver": name},
        )
    stats = {"checks": clock.ticks, "solver": name}
    if sol is None:
        text = (
            f"python-constraint's {name} exhausted every sequence of squares allowed by the model "
            f"({clock.ticks} knight's-move checks)"
        )
        return SolveResult(Status.INFEASIBLE, proof=Proof(text, argument="exhaustive search", evidence=stats),
                           stats=stats)
    order = [sol[k] for k in steps]
    return SolveResult(Status.FOUND, tour=Tour(graph.board, order, closed=spec.closed), stats=stats)

