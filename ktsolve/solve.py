"""The public entry points: :func:`solve`, :func:`prove`, :func:`longest`, :func:`enumerate_tours`.

Each one checks its question (:mod:`ktsolve.request`), starts one wall
clock for the whole call (:class:`~ktsolve.driver.Deadline`), and hands the
work to the portfolio engine (:mod:`ktsolve.portfolio`), which runs the
proofs and methods of the registry (:mod:`ktsolve.registry`) and passes
every tour through the one validator.  ``closed``, ``start``, ``end``,
``seed`` and ``time_limit`` are keyword-only everywhere.
"""

from __future__ import annotations

from collections.abc import Callable

from .checks import check_flag, check_seed
from .driver import Deadline, begin
from .errors import UnsupportedError
from .graph import KnightGraph
from .jit import settle_compile
from .plans import EXACT_MAX, PRESOLVE_MAX, Step, auto_plan, prove_plan
from .proofs.registry import PROOFS
from .portfolio import method_time_limit, presolve, run_method, run_plan, wants_presolve
from .registry import MethodInfo, enumerating_methods, method_info, methods
from .request import as_board, as_question, check_params, check_supported, make_spec  # noqa: F401 - as_board: imported from here
from .result import Enumeration, SolveResult, Status
from .tour import validate, validate_many
from .seeds import seed_doc

__all__ = ["solve", "prove", "longest", "enumerate_tours", "methods", "enumerating_methods"]


def user_method(func: Callable) -> MethodInfo:
    name = getattr(func, "__name__", "")
    if not name.isidentifier():
        name = "user_method"
    return MethodInfo(name=name, family="heuristic", summary="a user's method", func=func)


@seed_doc
def solve(
    board,
    method: str | Callable = "auto",
    *,
    closed: bool = False,
    start=None,
    end=None,
    time_limit: float | None = None,
    progress: Callable | None = None,
    presolve_proofs: bool = True,
    race: bool | None = None,
    seed: int | None = None,
    **params,
) -> SolveResult:
    """Find a knight's tour of ``board``, or prove there is none, or say ``unknown``.

    Parameters
    ----------
    board : Board, BoardFile or str
        The board, a size such as ``"8x8"``, or what :meth:`Board.read_file`
        returns (its marked start and end are used unless ``start`` or
        ``end`` is given).
    method : str or callable
        A registered method name (see :func:`methods`); ``"auto"``, which
        runs the plan of :func:`~ktsolve.plans.auto_plan` and records
        the steps in ``stats["auto"]`` and ``stats["steps"]``; or a
        function ``f(graph, spec, *, seed, time_limit, progress, **params)``
        of the user's that returns a tour as square numbers, a
        :class:`SolveResult`, or None.  A user's function gets the same
        presolve, validation, seed recording and timing as a built-in
        method; an invalid tour from it is an ``unknown`` whose
        ``stats["invalid_tour"]`` says what is wrong.
    closed : bool
        Ask for a closed tour (the last square a knight's move from the first).
    start, end : square, optional
        Fixed first and last square: ``(row, col)`` or a name such as ``"a1"``.
    time_limit : float, optional
        Seconds for the whole call (graph building and proofs included);
        when it runs out the answer is ``unknown``.  Without one, every
        method stops at its own documented default budget.
    progress : callable, optional
        ``progress(done, total)``, called from time to time by long methods.
    presolve_proofs : bool
        Run the linear-time necessary conditions (and the matching proof on
        boards up to 20,000 squares) before the method (default).
    race : bool, optional
        None (the default): on two cores and boards above
        :data:`~ktsolve.plans.EXACT_MAX` squares, the proofs run beside the
        constructions (``auto``'s, or a method named that cannot prove), and
        the first definite answer stops the other lane; a proof and a tour
        never both exist, so the answer does not depend on timing and a seed
        repeats it.  True (``auto`` only): race CP-SAT beside the other
        steps as :func:`prove` does (see there), where the tour may depend
        on timing.  False: every step in turn.
    %(seed)s
    **params
        Method parameters (see each method's documentation).  The colonies
        (``aco``, ``iaco``, ``abc``) take ``seed_with`` (first trails or
        food sources from Warnsdorff walks or exact tours of other boards,
        never a tour of the question) and ``local_search`` (Posa rotations).

    Returns
    -------
    SolveResult
        Its tour, when found, has passed :func:`ktsolve.validate`.

    Raises
    ------
    InvalidBoardError, InvalidSquareError
        Bad board or square.
    UnsupportedError
        Unknown method, or a method asked for what it cannot do.
    InvalidParameterError
        A seed, time limit, flag or parameter of the wrong type or range.

    Examples
    --------
    >>> res = solve("5x5", method="warnsdorff", start="a1", seed=1)
    >>> res.status.value, len(res.tour)
    ('found', 25)
    >>> solve("4x4").status.value
    'infeasible'
    """
    deadline = Deadline.of(time_limit)
    board, start, end = as_question(board, start, end)
    spec = make_spec(board, closed=closed, start=start, end=end)
    check_seed(seed)
    presolve_proofs = check_flag("presolve_proofs", presolve_proofs)
    race = None if race is None else check_flag("race", race)
    beside = board.n_squares > EXACT_MAX  # where the proofs run beside the constructions by default
    if isinstance(method, str) and method == "auto":
        if params:
            raise UnsupportedError(
                f"method 'auto' takes no method parameters (got {', '.join(params)}); name a method"
            )
        plan = auto_plan(board, spec)
        if not presolve_proofs:
            plan = [s for s in plan if s.name not in PROOFS]
        if not plan:
            raise UnsupportedError(f"no registered method can answer a {spec.describe(board)} on this board")
        deadline, seed = begin(deadline, seed)  # the plan's seed, which every step gets
        mode = race if race is not None else ("proofs" if beside else False)
        res = run_plan(plan, board, spec, deadline=deadline, progress=progress, seed=seed, race=mode)
        return _presolved(res, None)
    if race:
        raise UnsupportedError("race=True races the steps of method 'auto'; a single method has none")
    info = user_method(method) if callable(method) else method_info(method)
    check_supported(info, board, spec)
    check_params(info, params, n=board.n_squares)
    deadline, seed = begin(deadline, seed, seeded=info.seeded)
    # beside a method that cannot prove, the proofs race it: their "no" and its tour never both exist
    mode = "proofs" if race is None and beside and not info.proves and not callable(method) else False
    plan = []
    if presolve_proofs and wants_presolve(info):
        plan = [Step(s.name, s.share, s.cap) for s in auto_plan(board, spec) if s.name in PROOFS]
        if board.n_squares > PRESOLVE_MAX and (not plan or not mode):
            plan = [Step("local proofs")]  # in turn, the one-pass checks on the cells only (no graph, no search)
        elif not plan:  # a board without a usable auto plan still gets the quick proofs
            plan = [Step("quick proofs")]
    if callable(method):
        res = _run_single(info, board, spec, plan, deadline=deadline, progress=progress, params=params, seed=seed)
    else:
        res = run_plan([*plan, Step(info.name, always=True)], board, spec, deadline=deadline, progress=progress,
                       label=None, params={info.name: params}, seed=seed, race=mode)
    return _presolved(res, info.name)


def _presolved(res: SolveResult, requested: str | None) -> SolveResult:
    """A result settled by a proof step of :func:`solve` is the method ``"proofs"``'s answer.

    An ``unknown``'s reason says how long compiling took with the call's one
    figure, ``stats["compile_s"]``, the wall time some compile ran (:func:`ktsolve.jit.settle_compile`).
    """
    res = res.replace(stats=settle_compile(res.stats, res.elapsed))
    if res.stats.get("settled_by") not in PROOFS:
        return res
    stats = dict(res.stats)
    if requested is not None:
        stats["requested"] = requested
    return res.replace(method="proofs", stats=stats)


def _run_single(info, board, spec, plan, *, deadline, progress, params, seed) -> SolveResult:
    """A user's callable: the presolve plan, then the function through :func:`run_method`."""
    steps: list = []
    if plan:
        pre = run_plan(plan, board, spec, deadline=deadline, label=None, seed=seed or 0)
        if pre.status is Status.INFEASIBLE:
            return pre
        steps = list(pre.stats.get("steps", ()))
    graph = KnightGraph.of(board)
    res = run_method(info, graph, spec, time_limit=deadline, progress=progress, **params, seed=seed)
    # the same stats as a registered method run through run_plan: every step tried, and who settled it
    stats = dict(res.stats)
    stats["steps"] = steps + list(stats.get("steps", ()))
    stats["settled_by"] = info.name if res.status is not Status.UNKNOWN else "none"
    return res.replace(stats=stats, elapsed=deadline.elapsed())


# ---------------------------------------------------------------------- seeding by another method


# ---------------------------------------------------------------------- prove and longest
def prove(
    board,
    *,
    closed: bool = False,
    start=None,
    end=None,
    time_limit: float | None = None,
    progress: Callable | None = None,
    race: bool = True,
    seed: int | None = None,
) -> SolveResult:
    """Settle whether a tour exists: a validated tour, or a proof that there is none.

    Runs the plan of :func:`~ktsolve.plans.prove_plan`, stopping at the
    first definite answer:

    0. on a large board without holes (more than 10,000 squares), divide
       and conquer (``divide``), which builds a tour in linear time or cites
       the existence theorems, without building the knight graph;
    1. the linear-time necessary conditions (:func:`~ktsolve.proofs.quick_proof`);
    2. the matching proof (:func:`~ktsolve.proofs.matching_proof`; at
       most 60 s);
    3. every construction that ``solve(method="auto")`` uses, with the same
       budget (Posa rotations and Warnsdorff's rule on large boards, a
       Warnsdorff try on small ones);
    4. exhaustive search (``backtrack``: 20% of the time left, at most 2 s);
    5. on a board without holes, ``divide``;
    6. CP-SAT's circuit model (``cpsat``) with the rest of the time.

    The rule: when :func:`solve` with ``method="auto"`` finds a tour, so
    does ``prove`` with the same seed, because it runs the same steps with
    the same budgets first.

    On a machine with two cores and a board of at most
    :data:`ktsolve.race.RACE_MAX` squares, CP-SAT (step 6) runs from the
    start beside the other steps, and the first definite answer wins
    (:mod:`ktsolve.race`); ``solve(method="auto", race=True)`` races the
    same way, while ``solve`` by default runs its plan in turn.  In the
    race the other steps give most of their time to a second exact search
    that ends their lane (CP-SAT's method with ``model="sat"``, or
    ``"cuts"`` without python-sat): rotation, Warnsdorff's rule and
    exhaustive search get at most :data:`ktsolve.race.RACE_STEP_SHARE` of
    the time left each, so the rule above holds for ``race=False``.
    Every step gets the same seed and gives the answer it gives alone, but
    *which* step wins may depend on timing (which one answers first), and
    so may the tour.  ``race=False`` runs the steps in turn, so that a seed
    repeats the run exactly (the census does this).

    Parameters
    ----------
    board : Board, BoardFile or str
    closed : bool
    start, end : square, optional
        ``(row, col)`` or a name such as ``"a1"``.
    time_limit : float, optional
        Seconds for the whole call; without one, CP-SAT runs for its default
        budget (:data:`ktsolve.models.cpsat_run.DEFAULT_TIME_LIMIT`).
    progress : callable, optional
    race : bool
        Race CP-SAT beside the other steps where it pays (see above); False
        runs the plan in turn.
    seed : int, optional
        Seed of every random choice, a whole number from 0 to 2**32 - 1.  None
        draws a fresh seed; the seed used is recorded in ``result.seed``, and
        passing it again repeats the run exactly (with ``race=False``; a race
        may be won by another step, see above).

    Returns
    -------
    SolveResult
        ``stats["settled_by"]`` names the step that answered (``"quick
        proofs"``, ``"matching proof"``, a method name, or ``"none"``) and
        ``stats["steps"]`` lists every step tried with its status and time
        (and, in a race, its ``lane``: ``"A"``, or ``"B"`` for CP-SAT).
        ``unknown`` only when the time runs out.

    Examples
    --------
    >>> res = prove("4x6", closed=True)
    >>> res.status.value, res.stats["settled_by"], res.proof.argument
    ('infeasible', 'matching proof', 'matching')
    """
    deadline = Deadline.of(time_limit)
    board, start, end = as_question(board, start, end)
    spec = make_spec(board, closed=closed, start=start, end=end)
    race = check_flag("race", race)
    deadline, seed = begin(deadline, seed)
    plan = prove_plan(board, spec)
    res = run_plan(plan, board, spec, deadline=deadline, progress=progress, label=None, seed=seed, race=race)
    if res.status is Status.UNKNOWN and not res.method:
        res = res.replace(method="prove")
    return res.replace(seed=seed, stats=settle_compile(res.stats, res.elapsed))


#: The methods of :func:`longest`; the first is the default.
LONGEST_METHODS = ("cpsat", "csp")


@seed_doc
def longest(
    board,
    *,
    start=None,
    time_limit: float | None = None,
    num_workers: int = 1,
    method: str = "cpsat",
    seed: int | None = None,
) -> SolveResult:
    """The longest knight's path from ``start`` (anywhere when None), exactly, with CP-SAT or python-constraint.

    Parameters
    ----------
    board : Board, BoardFile or str
    start : square, optional
        ``(row, col)`` or a name such as ``"a1"``.
    time_limit : float, optional
        Seconds (default :data:`ktsolve.models.longest.DEFAULT_TIME_LIMIT`).
    num_workers : int
        CP-SAT threads; 1 (the default) is reproducible.  ``method="csp"``
        runs on one thread and takes 1 only.
    method : {"cpsat", "csp"}
        ``"cpsat"`` (default): CP-SAT's circuit model with optional squares
        (:func:`ktsolve.models.longest.longest_path`).  ``"csp"``: the
        Prolog paper's declarative search, python-constraint backtracking
        with growing length (:func:`ktsolve.models.csp.longest_csp`), for
        boards of at most 64 squares.
    %(seed)s

    Returns
    -------
    SolveResult
        ``path`` (validated as a partial path from ``start``), ``stats["length"]``,
        ``stats["bound"]``, ``stats["optimal"]``; ``found`` when the optimum is
        proven, ``unknown`` when the time ran out first; ``tour`` (validated)
        when the path covers the board.

    Examples
    --------
    >>> res = longest("3x3", start="a1")
    >>> res.status.value, res.stats["length"], len(res.path)
    ('found', 8, 8)
    >>> longest("3x3", start="a1", method="csp").stats["length"]
    8
    """
    from .checks import check_choice, check_int

    deadline = Deadline.of(time_limit)
    board, start, _ = as_question(board, start)
    spec = make_spec(board, start=start)
    deadline, seed = begin(deadline, seed)
    method = check_choice("method", method, LONGEST_METHODS)
    num_workers = check_int("num_workers", num_workers, 1, 256 if method == "cpsat" else 1)
    graph = KnightGraph.of(board)
    s = None if spec.start is None else board.index(*spec.start)
    if method == "csp":
        from .models.csp import longest_csp

        res = longest_csp(graph, s, time_limit=deadline)
    else:
        from .models.longest import longest_path

        res = longest_path(graph, s, time_limit=deadline, num_workers=num_workers, seed=seed)
    path = res.path
    if path is not None:
        path = validate(board, path, closed=False, start=spec.start, complete=False)
    tour = res.tour
    if tour is not None:
        tour = validate(board, tour, closed=False, start=spec.start)
    return res.replace(path=path, tour=tour, board=board, spec=spec, seed=seed, elapsed=deadline.elapsed())


# ---------------------------------------------------------------------- enumeration
@seed_doc
def enumerate_tours(
    board,
    method: str = "aco",
    *,
    cycles: int | None = None,
    closed: bool = False,
    start=None,
    end=None,
    time_limit: float | None = None,
    progress: Callable | None = None,
    presolve_proofs: bool = True,
    seed: int | None = None,
    **params,
) -> Enumeration:
    """Run a stochastic method for ``cycles`` cycles and keep every distinct tour it meets.

    A tour is its sequence of squares from its first square: a closed tour
    listed from another square, or walked backwards, is another tour.

    Parameters
    ----------
    board : Board, BoardFile or str
    method : str
        A method that can enumerate (``aco``, ``iaco``; see
        :func:`enumerating_methods`).
    cycles : int, optional
        Budget in cycles; None takes the method's default.
    closed : bool
        Keep closed tours only (every complete walk is still counted in
        ``stats["complete"]``).
    start, end : square, optional
        Put every ant on ``start``; keep only tours ending on ``end``.
    time_limit : float, optional
        Seconds; the run stops early (``stats["stopped"] == "time limit"``).
    progress : callable, optional
        ``progress(cycles_done, cycles)``.
    presolve_proofs : bool
        Run the necessary conditions first: on a board they prove impossible
        no cycle is run and ``stats["proof"]`` says why.
    %(seed)s
    **params
        Method parameters.

    Returns
    -------
    Enumeration
        Every tour in it has been checked by :func:`ktsolve.tour.validate_many`.

    Examples
    --------
    >>> res = enumerate_tours("5x5", "aco", cycles=20, start="a5", seed=1)
    >>> res.stats["distinct"] == len(res.tours) > 0
    True
    """
    deadline = Deadline.of(time_limit)
    board, start, end = as_question(board, start, end)
    spec = make_spec(board, closed=closed, start=start, end=end)
    info = method_info(method)
    if info.enumerate is None:
        able = ", ".join(enumerating_methods()) or "none"
        raise UnsupportedError(f"method {method!r} cannot enumerate tours; choose one of {able}")
    check_supported(info, board, spec)
    func = info.load_enumerate()
    check_params(info, params, func=func)
    deadline, seed = begin(deadline, seed)
    presolve_proofs = check_flag("presolve_proofs", presolve_proofs)
    graph = KnightGraph.of(board)
    if presolve_proofs and board.n_squares <= PRESOLVE_MAX:
        res = presolve(graph, spec, deadline=deadline)
        if res is not None:
            import numpy as np

            stats = {"walks": 0, "complete": 0, "closed": 0, "distinct": 0, "production_rate": 0.0,
                     "proof": str(res.proof)}
            return Enumeration(tours=np.zeros((0, board.n_squares), dtype=np.int32), stats=stats,
                               method=method, seed=seed, elapsed=deadline.elapsed(), board=board,
                               spec=spec, closed=spec.closed)
    out = func(graph, spec, cycles=cycles, time_limit=method_time_limit(info, deadline), progress=progress,
               **params, seed=seed)
    if not isinstance(out, Enumeration):
        raise RuntimeError(f"method {method!r} returned {type(out).__name__}, not an Enumeration")
    validate_many(board, out.tours, closed=spec.closed, start=spec.start, end=spec.end, moves=graph.moves)
    return out.replace(method=info.name, seed=seed, elapsed=deadline.elapsed(), board=board, spec=spec)
