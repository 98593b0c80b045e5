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
import pkgutil
import secrets
import time
from collections.abc import Callable

from .board import Board
from .errors import InvalidBoardError, UnsupportedError
from .graph import KnightGraph
from .result import MethodInfo, SolveResult, Status
from .tour import TourSpec, validate

__all__ = ["solve", "methods", "method_info", "make_spec", "as_board"]

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


def _check_params(info: MethodInfo, params: dict) -> None:
    sig = inspect.signature(info.func)
    if any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values()):
        return
    known = [p for p in sig.parameters if p not in ("graph", "spec", "seed", "time_limit", "progress")]
    for key in params:
        if key not in known:
            takes = ", ".join(known) or "no parameters"
            raise UnsupportedError(f"method {info.name!r} has no parameter {key!r} (it takes {takes})")


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


def presolve(graph: KnightGraph, spec: TourSpec) -> SolveResult | None:
    """Cheap necessary conditions; an ``infeasible`` result when one fails, else None."""
    from .models.proofs import quick_proof

    t0 = time.perf_counter()
    proof = quick_proof(graph, spec)
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
        Method parameters (see each method's documentation).

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
    if method == "auto":
        res = _solve_auto(board, spec, seed=seed, time_limit=time_limit, progress=progress,
                          presolve_proofs=presolve_proofs, **params)
        return res.replace(elapsed=time.perf_counter() - t0)
    info = method_info(method)
    check_supported(info, board, spec)
    _check_params(info, params)
    graph = KnightGraph.of(board)
    if presolve_proofs and board.n_squares <= _PRESOLVE_MAX:
        res = presolve(graph, spec)
        if res is not None:
            return res.replace(stats={"requested": method}, elapsed=time.perf_counter() - t0)
    res = run_method(info, graph, spec, seed=seed, time_limit=time_limit, progress=progress, **params)
    return res.replace(elapsed=time.perf_counter() - t0)


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
    graph = None
    if board.n_squares <= _PRESOLVE_MAX:
        graph = KnightGraph.of(board)
        if presolve_proofs:
            res = presolve(graph, spec)
            if res is not None:
                return res.replace(stats={"auto": "a necessary condition fails"})
    plan = auto_plan(board, spec)
    if not plan:
        raise UnsupportedError(f"no registered method can answer a {spec.describe(board)} on this board")
    tried = []
    res = None
    for name, share in plan:
        remaining = None
        if time_limit is not None:
            remaining = time_limit - (time.perf_counter() - t0)
            if remaining <= 0:
                break
            remaining = remaining * share
        info = methods()[name]
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
