"""The method registry and the single entry point :func:`solve`.

This is the only module that knows every method.  Method modules live in
:mod:`ktsolve.models` (exact) and :mod:`ktsolve.heuristics`; each declares
``METHOD = MethodInfo(...)`` (or ``METHODS = (...)``) and the registry finds
them, so adding a method touches no other module.

:func:`solve` turns the user's question into a :class:`~ktsolve.tour.TourSpec`,
refuses what the method cannot do, runs the cheap necessary conditions of
:mod:`ktsolve.models.proofs` first (a heuristic never burns its budget on a
board already proved impossible), calls the method, and passes every tour
through :func:`~ktsolve.tour.validate` before returning it.
"""

from __future__ import annotations

import importlib
import inspect
import numbers
import pkgutil
import secrets
import time
from collections.abc import Callable

from .board import Board
from .errors import InvalidBoardError, UnsupportedError
from .graph import KnightGraph
from .result import Enumeration, MethodInfo, SolveResult, Status
from .tour import TourSpec, validate

__all__ = ["solve", "prove", "longest", "enumerate_tours", "methods", "method_info", "make_spec", "as_board"]

_PACKAGES = ("ktsolve.models", "ktsolve.heuristics")
_REGISTRY: dict[str, MethodInfo] | None = None


def methods() -> dict[str, MethodInfo]:
    """All registered methods by name (``auto`` is not a method but a choice among them)."""
    global _REGISTRY
    if _REGISTRY is None:
        found: dict[str, MethodInfo] = {}
        for pkg_name in _PACKAGES:
            pkg = importlib.import_module(pkg_name)
            for mod in pkgutil.iter_modules(pkg.__path__):
                if mod.name.startswith("_"):
                    continue
                module = importlib.import_module(f"{pkg_name}.{mod.name}")
                infos = getattr(module, "METHODS", None) or (
                    (module.METHOD,) if hasattr(module, "METHOD") else ()
                )
                for info in infos:
                    if info.name in found:
                        raise RuntimeError(f"method {info.name!r} is registered twice")
                    found[info.name] = info
        _REGISTRY = dict(sorted(found.items()))
    return _REGISTRY


def method_info(name: str) -> MethodInfo:
    """The :class:`MethodInfo` of ``name``; raises :class:`UnsupportedError` for an unknown name."""
    reg = methods()
    if name not in reg:
        choices = ", ".join(["auto", *reg])
        raise UnsupportedError(f"unknown method {name!r}; choose one of {choices}")
    return reg[name]


def as_board(board) -> Board:
    """A :class:`Board` from a Board or a size string such as ``"8x8"``."""
    if isinstance(board, Board):
        return board
    if isinstance(board, str):
        return Board.from_spec(board)
    raise InvalidBoardError(f"expected a Board or a size like '8x8', got {type(board).__name__}")


def make_spec(board: Board, closed: bool = False, start=None, end=None) -> TourSpec:
    """A :class:`TourSpec` with ``start`` and ``end`` checked against the board."""
    s = None if start is None else board.parse_square(start, what="start")
    e = None if end is None else board.parse_square(end, what="end")
    if closed and s is not None and e == s:
        e = None  # "a closed tour from a1 back to a1" asks for no more than a start
    return TourSpec(closed=bool(closed), start=s, end=e)


def check_supported(info: MethodInfo, board: Board, spec: TourSpec) -> None:
    """Raise :class:`UnsupportedError` when ``info`` cannot answer ``spec`` on ``board``."""
    name = info.name
    if spec.closed and not info.closed:
        raise UnsupportedError(f"method {name!r} cannot build closed tours")
    if not spec.closed and not info.open:
        raise UnsupportedError(f"method {name!r} builds closed tours only; ask with --closed")
    if spec.start is not None and not info.start:
        raise UnsupportedError(f"method {name!r} cannot fix the start square")
    if spec.end is not None and not info.end:
        raise UnsupportedError(f"method {name!r} cannot fix the end square")
    if not board.is_full and not info.holes:
        raise UnsupportedError(f"method {name!r} works on boards without holes only")
    if info.max_squares is not None and board.n_squares > info.max_squares:
        raise UnsupportedError(
            f"method {name!r} handles boards of at most {info.max_squares:,} squares; "
            f"this one has {board.n_squares:,}"
        )


def _check_params(info: MethodInfo, params: dict, func: Callable | None = None) -> None:
    sig = inspect.signature(info.func if func is None else func)
    if any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values()):
        return
    known = [p for p in sig.parameters if p not in ("graph", "spec", "seed", "time_limit", "progress")]
    if "seed_tour" in known:
        known.append("seed_with")
    for key in params:
        if key not in known:
            takes = ", ".join(known) or "no parameters"
            raise UnsupportedError(f"method {info.name!r} has no parameter {key!r} (it takes {takes})")


def check_budget(seed, time_limit) -> None:
    """Refuse a seed or time limit the command line would refuse too.

    A seed is a whole number in ``[0, 2**32)`` (what numba's and CP-SAT's
    generators take); a time limit is a positive number of seconds.
    """
    if seed is not None:
        if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or not 0 <= seed < 2**32:
            raise UnsupportedError(f"seed must be a whole number from 0 to {2**32 - 1}, not {seed!r}")
    if time_limit is not None:
        if isinstance(time_limit, bool) or not isinstance(time_limit, numbers.Real) or not time_limit > 0:
            raise UnsupportedError(f"time_limit must be a positive number of seconds, not {time_limit!r}")


def new_seed() -> int:
    """A fresh seed in ``[0, 2**31 - 1)``, recorded in the result so a run can be repeated."""
    return secrets.randbelow(2**31 - 1)


def run_method(
    info: MethodInfo,
    graph: KnightGraph,
    spec: TourSpec,
    *,
    seed: int | None = None,
    time_limit: float | None = None,
    progress: Callable | None = None,
    **params,
) -> SolveResult:
    """Call one method and check what it returns: tours are validated, proofs only from provers."""
    board = graph.board
    _check_params(info, params)
    check_budget(seed, time_limit)
    if info.seeded and seed is None:
        seed = new_seed()
    t0 = time.perf_counter()
    res = info.func(graph, spec, seed=seed, time_limit=time_limit, progress=progress, **params)
    elapsed = time.perf_counter() - t0
    if not isinstance(res, SolveResult):
        raise RuntimeError(f"method {info.name!r} returned {type(res).__name__}, not a SolveResult")
    tour = res.tour
    if res.status is Status.FOUND:
        if tour is None:
            raise RuntimeError(f"method {info.name!r} reported a tour but returned none")
        # The one validator: a method's bug must never reach a user as a tour.
        tour = validate(board, tour, closed=spec.closed, start=spec.start, end=spec.end)
    elif tour is not None:
        raise RuntimeError(f"method {info.name!r} returned a tour with status {res.status.value}")
    if res.status is Status.INFEASIBLE and not info.proves:
        raise RuntimeError(f"method {info.name!r} cannot prove infeasibility but said so")
    path = res.path
    if path is not None:
        path = validate(board, path, closed=False, start=spec.start, complete=False)
    return res.replace(
        tour=tour,
        path=path,
        method=res.method or info.name,
        seed=seed if info.seeded else res.seed,
        elapsed=res.elapsed or elapsed,
        board=board,
        spec=spec,
    )


#: Boards up to this many squares also get the matching proof in the presolve.
_PRESOLVE_MATCHING_MAX = 20_000

#: Seconds the presolve's matching proof may take before it gives up (no proof).
_PRESOLVE_MATCHING_TIME = 1.0


def wants_presolve(info: MethodInfo) -> bool:
    """Whether the presolve proofs run before ``info``'s method.

    Not before a method that needs no graph and proves infeasibility itself
    (``needs_graph=False, proves=True``, such as ``divide``): it checks the
    necessary conditions on its own, and the proofs would build the graph of
    the board for nothing.
    """
    return info.needs_graph or not info.proves


def presolve(graph: KnightGraph, spec: TourSpec) -> SolveResult | None:
    """Cheap necessary conditions; an ``infeasible`` result when one fails, else None.

    The linear-time :func:`~ktsolve.models.proofs.quick_proof` runs on every
    board; the polynomial :func:`~ktsolve.models.proofs.matching_proof` runs
    too on boards of at most ``_PRESOLVE_MATCHING_MAX`` squares, with a
    budget of ``_PRESOLVE_MATCHING_TIME`` seconds (a few milliseconds on an
    8x8 board, about 0.05 s at 100x100), so that no method burns its budget
    on, say, a closed tour of a 4 x n board.
    """
    from .models.proofs import matching_proof, quick_proof

    t0 = time.perf_counter()
    proof = quick_proof(graph, spec)
    if proof is None and graph.n <= _PRESOLVE_MATCHING_MAX:
        proof = matching_proof(graph, spec, time_limit=_PRESOLVE_MATCHING_TIME)
    if proof is None:
        return None
    return SolveResult(
        Status.INFEASIBLE,
        proof=proof,
        method="proofs",
        elapsed=time.perf_counter() - t0,
        board=graph.board,
        spec=spec,
    )


def solve(
    board,
    method: str = "auto",
    *,
    closed: bool = False,
    start=None,
    end=None,
    time_limit: float | None = None,
    progress: Callable | None = None,
    presolve_proofs: bool = True,
    seed: int | None = None,
    **params,
) -> SolveResult:
    """Find a knight's tour of ``board``, or prove there is none, or say ``unknown``.

    Parameters
    ----------
    board : Board or str
        The board, or a size such as ``"8x8"``.
    method : str
        A registered method name (see :func:`methods`) or ``"auto"``, which
        picks one from the board and the request and records why in
        ``stats["auto"]``.
    closed : bool
        Ask for a closed tour (the last square a knight's move from the first).
    start, end : square, optional
        Fixed first and last square: ``(row, col)`` or a name such as ``"a1"``.
    time_limit : float, optional
        Seconds; when it runs out the answer is ``unknown``.  Without one,
        every method stops at its own documented default budget.
    progress : callable, optional
        ``progress(done, total)``, called from time to time by long methods.
    presolve_proofs : bool
        Run the linear-time necessary conditions before the method (default).
    seed : int, optional
        Seed of every random choice.  None draws a fresh seed, which is
        recorded in ``result.seed``: passing it again repeats the run.
    **params
        Method parameters (see each method's documentation).  Methods that
        take a ``seed_tour`` (the ant colonies) also accept
        ``seed_with="warnsdorff"`` or ``seed_with="exact"``: that method
        runs first and its tour seeds the pheromone (an exact proof that no
        tour exists is returned as the answer).

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

    Examples
    --------
    >>> res = solve("5x5", method="warnsdorff", start="a1", seed=1)
    >>> res.status.value, len(res.tour)
    ('found', 25)
    """
    t0 = time.perf_counter()
    board = as_board(board)
    spec = make_spec(board, closed, start, end)
    check_budget(seed, time_limit)
    if method == "auto":
        res = _solve_auto(board, spec, seed=seed, time_limit=time_limit, progress=progress,
                          presolve_proofs=presolve_proofs, **params)
        return res.replace(elapsed=time.perf_counter() - t0)
    info = method_info(method)
    check_supported(info, board, spec)
    _check_params(info, params)
    graph = KnightGraph.of(board)
    if presolve_proofs and board.n_squares <= _PRESOLVE_MAX and wants_presolve(info):
        res = presolve(graph, spec)
        if res is not None:
            return res.replace(stats={"requested": method}, elapsed=time.perf_counter() - t0)
    seeded = None
    if "seed_with" in params:
        params, seeded = _seed_tour_from(info, graph, spec, params, seed=seed, time_limit=time_limit)
        if seeded.status is Status.INFEASIBLE:
            return seeded.replace(stats={**seeded.stats, "requested": method}, elapsed=time.perf_counter() - t0)
        if time_limit is not None:
            time_limit = max(0.0, time_limit - (time.perf_counter() - t0))
    res = run_method(info, graph, spec, seed=seed, time_limit=time_limit, progress=progress, **params)
    if seeded is not None:
        res = res.replace(stats={**res.stats, **_seed_stats(seeded)})
    return res.replace(elapsed=time.perf_counter() - t0)


#: Methods that ``seed_with=`` runs to get a seed tour for a stochastic method, tried in turn.
SEED_SOURCES = {"warnsdorff": ("warnsdorff",), "exact": ("cpsat", "backtrack")}


def _seed_tour_from(info: MethodInfo, graph: KnightGraph, spec: TourSpec, params: dict, *, seed, time_limit):
    """Turn ``params["seed_with"]`` into ``params["seed_tour"]`` by running Warnsdorff or the exact side.

    Returns the new parameters and the seeding method's result.  A tour found
    becomes ``seed_tour``; an ``unknown`` answer leaves the method unseeded
    (the stats say so); an ``infeasible`` one is returned by the caller as
    the answer.
    """
    params = dict(params)
    source = params.pop("seed_with")
    if source not in SEED_SOURCES:
        raise UnsupportedError(f"seed_with must be one of {', '.join(SEED_SOURCES)}, not {source!r}")
    func = info.func if info.enumerate is None else info.enumerate
    if "seed_tour" not in inspect.signature(func).parameters:
        raise UnsupportedError(f"method {info.name!r} cannot start from a seed tour")
    if params.get("seed_tour") is not None:
        raise UnsupportedError("give seed_with or seed_tour, not both")
    reg = methods()
    names = [m for m in SEED_SOURCES[source] if m in reg]
    if not names:
        raise UnsupportedError(
            f"seed_with={source!r} needs method {' or '.join(map(repr, SEED_SOURCES[source]))}, which is not installed"
        )
    res = run_method(reg[names[0]], graph, spec, seed=seed, time_limit=time_limit)
    if res.status is Status.FOUND:
        params["seed_tour"] = res.tour
    return params, res


def _seed_stats(seeded: SolveResult) -> dict:
    return {"seeded_with": seeded.method, "seed_status": seeded.status.value,
            "seed_elapsed_s": round(float(seeded.elapsed), 6)}


#: Boards above this size skip the presolve proofs (they need the graph arrays).
_PRESOLVE_MAX = 5_000_000

#: Boards up to this many squares go to the exact side when heuristics give up.
_EXACT_MAX = 400


def auto_plan(board: Board, spec: TourSpec) -> list[tuple[str, float]]:
    """The methods ``auto`` tries in turn, with the share of the time limit each gets.

    Full large boards go to divide and conquer; large holed boards to Posa
    rotations (which start from Warnsdorff's path) and then plain Warnsdorff;
    small boards get a quick Warnsdorff try
    and then the exact side, which can also prove that no tour exists.
    Methods that are not registered, or cannot answer the request, are
    skipped.
    """
    n = board.n_squares
    plan: list[tuple[str, float]] = []
    if n > _EXACT_MAX:
        if board.is_full:
            plan.append(("divide", 1.0))
        # Rotation starts from Warnsdorff's greedy path and repairs it, so it
        # goes first; plain Warnsdorff is the fallback.
        plan.append(("rotation", 0.8))
        plan.append(("warnsdorff", 1.0))
    else:
        plan.append(("warnsdorff", 0.2))
        plan.append(("cpsat", 1.0))
        plan.append(("backtrack", 1.0))
    reg = methods()
    usable = []
    for name, share in plan:
        info = reg.get(name)
        if info is None:
            continue
        try:
            check_supported(info, board, spec)
        except UnsupportedError:
            continue
        usable.append((name, share))
    return usable


def _solve_auto(board, spec, *, seed, time_limit, progress, presolve_proofs, **params) -> SolveResult:
    if params:
        raise UnsupportedError(
            f"method 'auto' takes no method parameters (got {', '.join(params)}); name a method"
        )
    t0 = time.perf_counter()
    plan = auto_plan(board, spec)
    reg = methods()
    graph = None
    pending = False  # presolve proofs still to run before the first method that wants them
    if board.n_squares <= _PRESOLVE_MAX:
        graph = KnightGraph.of(board)
        pending = presolve_proofs
    if pending and (not plan or wants_presolve(reg[plan[0][0]])):
        pending = False
        res = presolve(graph, spec)
        if res is not None:
            return res.replace(stats={"auto": "a necessary condition fails"})
    if not plan:
        raise UnsupportedError(f"no registered method can answer a {spec.describe(board)} on this board")
    tried = []
    res = None
    for name, share in plan:
        info = reg[name]
        if pending and wants_presolve(info):
            pending = False
            pre = presolve(graph, spec)
            if pre is not None:
                return pre.replace(stats={"auto": " -> ".join([*tried, "a necessary condition fails"])})
        remaining = None
        if time_limit is not None:
            remaining = time_limit - (time.perf_counter() - t0)
            if remaining <= 0:
                break
            remaining = remaining * share
        g = graph if graph is not None else KnightGraph(board)
        res = run_method(info, g, spec, seed=seed, time_limit=remaining, progress=progress)
        tried.append(name)
        if res.status is not Status.UNKNOWN:
            break
    if res is None:
        res = SolveResult(Status.UNKNOWN, stats={"reason": "the time limit ran out before any method ran"},
                          board=board, spec=spec, method="auto")
    stats = dict(res.stats)
    stats["auto"] = " -> ".join(tried) if tried else "none"
    return res.replace(stats=stats)


# ---------------------------------------------------------------------- prove and longest
#: Seconds the matching proof may take in :func:`prove` when no time limit is given.
_PROVE_MATCHING_TIME = 60.0

#: Full boards above this many squares go to ``divide`` first in :func:`prove`.
_PROVE_DIVIDE_FIRST = 10_000

#: Share of the remaining time, and the most seconds, each heuristic gets in :func:`prove`.
_PROVE_HEURISTICS = (("warnsdorff", 0.1, 1.0), ("backtrack", 0.2, 2.0))


def prove(
    board,
    closed: bool = False,
    start=None,
    end=None,
    time_limit: float | None = None,
    *,
    seed: int | None = None,
    progress: Callable | None = None,
) -> SolveResult:
    """Settle whether a tour exists: a validated tour, or a proof that there is none.

    The portfolio, in order, stopping at the first definite answer:

    0. on a large board without holes (more than 10,000 squares), divide
       and conquer (``divide``), which builds a tour in linear time or cites
       the existence theorems, without building the knight graph;
    1. the linear-time necessary conditions (:func:`~ktsolve.models.proofs.quick_proof`);
    2. the matching proof (:func:`~ktsolve.models.proofs.matching_proof`; at
       most 60 s when no time limit is given);
    3. a short heuristic attempt: ``warnsdorff`` (at most 10% of the
       remaining time, 1 s), then ``backtrack`` (20%, 2 s), each only when
       registered and able to answer the question;
    4. on a smaller board without holes, ``divide``;
    5. CP-SAT's circuit model (``cpsat``) with the rest of the time.

    Small boards thus get the concrete certificates of the graph steps
    (parity, matching, exhaustive search, CP-SAT); large full boards get the
    linear-time construction and the theorems it rests on.

    Parameters
    ----------
    board : Board or str
    closed : bool
    start, end : square, optional
        ``(row, col)`` or a name such as ``"a1"``.
    time_limit : float, optional
        Seconds for the whole portfolio; without one, CP-SAT runs for its
        default budget (:data:`ktsolve.models.cpsat.DEFAULT_TIME_LIMIT`).
    seed : int, optional
        Seed of the heuristics and of CP-SAT (drawn and recorded when None).
    progress : callable, optional

    Returns
    -------
    SolveResult
        ``stats["settled_by"]`` names the step that answered (``"quick
        proofs"``, ``"matching proof"``, a method name, or ``"none"``) and
        ``stats["steps"]`` lists every step tried with its status and time.
        ``unknown`` only when the time runs out.

    Examples
    --------
    >>> res = prove("4x6", closed=True)
    >>> res.status.value, res.stats["settled_by"], res.proof.argument
    ('infeasible', 'matching proof', 'matching')
    """
    from .models.proofs import matching_proof, quick_proof

    t0 = time.perf_counter()
    board = as_board(board)
    spec = make_spec(board, closed, start, end)
    check_budget(seed, time_limit)
    graph = KnightGraph.of(board)
    if seed is None:
        seed = new_seed()
    steps: list[dict] = []

    def remaining() -> float | None:
        return None if time_limit is None else time_limit - (time.perf_counter() - t0)

    def finish(res: SolveResult, settled_by: str) -> SolveResult:
        stats = dict(res.stats)
        stats["settled_by"] = settled_by
        stats["steps"] = steps
        return res.replace(stats=stats, elapsed=time.perf_counter() - t0, board=board, spec=spec)

    reg = methods()
    divide_first = board.is_full and board.n_squares > _PROVE_DIVIDE_FIRST
    if divide_first and "divide" in reg:
        info = reg["divide"]
        try:
            check_supported(info, board, spec)
        except UnsupportedError as exc:
            steps.append({"step": "divide", "status": "not applicable", "reason": str(exc)})
        else:
            t1 = time.perf_counter()
            res = run_method(info, graph, spec, seed=seed, time_limit=remaining(), progress=progress)
            steps.append({"step": "divide", "status": res.status.value,
                          "seconds": round(time.perf_counter() - t1, 6)})
            if res.status is not Status.UNKNOWN:
                return finish(res, "divide")
            steps[-1]["reason"] = res.stats.get("reason", "")

    for label, method, func in (
        ("quick proofs", "proofs", lambda: quick_proof(graph, spec)),
        ("matching proof", "matching",
         lambda: matching_proof(graph, spec, time_limit=_PROVE_MATCHING_TIME if time_limit is None else remaining())),
    ):
        t1 = time.perf_counter()
        proof = func()
        steps.append({"step": label, "status": "infeasible" if proof else "no proof",
                      "seconds": round(time.perf_counter() - t1, 6)})
        if proof is not None:
            return finish(SolveResult(Status.INFEASIBLE, proof=proof, method=method), label)

    plan = [(name, share, cap) for name, share, cap in _PROVE_HEURISTICS]
    if board.is_full and not divide_first:
        plan.append(("divide", 1.0, None))
    plan.append(("cpsat", 1.0, None))
    res = None
    for name, share, cap in plan:
        info = reg.get(name)
        if info is None:
            continue
        try:
            check_supported(info, board, spec)
        except UnsupportedError as exc:
            steps.append({"step": name, "status": "skipped", "reason": str(exc)})
            continue
        left = remaining()
        if left is not None and left <= 0:
            break
        budget = left
        if cap is not None:
            budget = cap if left is None else min(cap, max(left * share, 0.0))
        t1 = time.perf_counter()
        res = run_method(info, graph, spec, seed=seed, time_limit=budget, progress=progress)
        steps.append({"step": name, "status": res.status.value, "seconds": round(time.perf_counter() - t1, 6)})
        if res.status is not Status.UNKNOWN:
            return finish(res, name)
    left = remaining()
    skipped = [st for st in steps if st["status"] == "skipped"]
    if left is not None and left <= 0 or (res is not None and not skipped):
        reason = "the time limit ran out before any step settled the question"
    else:
        reason = "no method can settle this question on this board: " + "; ".join(st["reason"] for st in skipped)
    stats = {} if res is None else dict(res.stats)
    stats["reason"] = reason if res is None or skipped else stats.get("reason", reason)
    base = SolveResult(Status.UNKNOWN, method="prove") if res is None else res
    return finish(base.replace(stats=stats), "none")


def longest(board, start=None, *, time_limit: float | None = None, num_workers: int = 1,
            seed: int | None = None) -> SolveResult:
    """The longest knight's path from ``start`` (anywhere when None), exactly, with CP-SAT.

    Parameters
    ----------
    board : Board or str
    start : square, optional
        ``(row, col)`` or a name such as ``"a1"``.
    time_limit : float, optional
        Seconds (default :data:`ktsolve.models.longest.DEFAULT_TIME_LIMIT`).
    num_workers : int
        CP-SAT threads; 1 (the default) is reproducible.
    seed : int, optional

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
    """
    from .models.longest import longest_path

    t0 = time.perf_counter()
    board = as_board(board)
    spec = make_spec(board, False, start, None)
    graph = KnightGraph.of(board)
    s = None if spec.start is None else board.index(*spec.start)
    res = longest_path(graph, s, time_limit=time_limit, num_workers=num_workers, seed=seed)
    path = res.path
    if path is not None:
        path = validate(board, path, closed=False, start=spec.start, complete=False)
    tour = res.tour
    if tour is not None:
        tour = validate(board, tour, closed=False, start=spec.start)
    return res.replace(path=path, tour=tour, board=board, spec=spec, seed=seed,
                       elapsed=time.perf_counter() - t0)


# ---------------------------------------------------------------------- enumeration
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
    board : Board or str
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
    seed : int, optional
        None draws a fresh seed, recorded in the result.
    **params
        Method parameters.

    Returns
    -------
    Enumeration
        Every tour in it has been checked square by square (a permutation of
        the board's squares joined by knight's moves, closing, start and end
        as asked).

    Examples
    --------
    >>> res = enumerate_tours("5x5", "aco", cycles=20, start="a5", seed=1)
    >>> res.stats["distinct"] == len(res.tours) > 0
    True
    """
    t0 = time.perf_counter()
    board = as_board(board)
    spec = make_spec(board, closed, start, end)
    info = method_info(method)
    if info.enumerate is None:
        able = ", ".join(enumerating_methods()) or "none"
        raise UnsupportedError(f"method {method!r} cannot enumerate tours; choose one of {able}")
    check_supported(info, board, spec)
    _check_params(info, params, func=info.enumerate)
    check_budget(seed, time_limit)
    if seed is None:
        seed = new_seed()
    graph = KnightGraph.of(board)
    if presolve_proofs and board.n_squares <= _PRESOLVE_MAX:
        res = presolve(graph, spec)
        if res is not None:
            import numpy as np

            stats = {"walks": 0, "complete": 0, "closed": 0, "distinct": 0, "production_rate": 0.0,
                     "proof": str(res.proof)}
            return Enumeration(tours=np.zeros((0, board.n_squares), dtype=np.int32), stats=stats,
                               method=method, seed=seed, elapsed=time.perf_counter() - t0, board=board,
                               spec=spec, closed=spec.closed)
    seeded = None
    if "seed_with" in params:
        params, seeded = _seed_tour_from(info, graph, spec, params, seed=seed, time_limit=time_limit)
        if time_limit is not None:
            time_limit = max(0.0, time_limit - (time.perf_counter() - t0))
    out = info.enumerate(graph, spec, cycles=cycles, seed=seed, time_limit=time_limit, progress=progress,
                         **params)
    if seeded is not None:
        out = out.replace(stats={**out.stats, **_seed_stats(seeded)})
    if not isinstance(out, Enumeration):
        raise RuntimeError(f"method {method!r} returned {type(out).__name__}, not an Enumeration")
    check_tours(board, out.tours, spec)
    return out.replace(method=info.name, seed=seed, elapsed=time.perf_counter() - t0, board=board, spec=spec)


def enumerating_methods() -> list[str]:
    """Names of the methods that can enumerate tours."""
    return [name for name, info in methods().items() if info.enumerate is not None]


def check_tours(board: Board, tours, spec: TourSpec) -> None:
    """Check many complete tours at once; raise :class:`InvalidTourError` naming the first fault.

    Each row of ``tours`` must be a permutation of the board's squares with a
    knight's move between consecutive squares (and from the last back to the
    first when ``spec.closed``), starting and ending where ``spec`` says.
    A faulty row is handed to :func:`~ktsolve.tour.validate` for the message.
    """
    import numpy as np

    tours = np.asarray(tours)
    n = board.n_squares
    if tours.size == 0:
        return
    if tours.ndim != 2 or tours.shape[1] != n:
        raise RuntimeError(f"expected tours of {n} squares as rows, got an array of shape {tours.shape}")
    s = None if spec.start is None else board.index(*spec.start)
    e = None if spec.end is None else board.index(*spec.end)
    step = max(1, 1_000_000 // n)
    ident = np.arange(n)
    for lo in range(0, tours.shape[0], step):
        block = tours[lo : lo + step].astype(np.int64)
        ok = (np.sort(block, axis=1) == ident).all(axis=1)
        rc = board.coords_of(np.clip(block, 0, n - 1).ravel()).reshape(block.shape[0], n, 2)
        if n > 1:
            d = np.abs(np.diff(rc, axis=1))
            ok &= ((d[..., 0] * d[..., 1]) == 2).all(axis=1)
        if spec.closed:
            d = np.abs(rc[:, 0] - rc[:, -1])
            ok &= (d[:, 0] * d[:, 1]) == 2
        if s is not None:
            ok &= block[:, 0] == s
        if e is not None:
            ok &= block[:, -1] == e
        if not ok.all():
            k = int(np.argmin(ok))
            validate(board, block[k], closed=spec.closed, start=spec.start, end=spec.end)
            raise RuntimeError(f"tour {lo + k + 1} of the enumeration is not a valid tour")
