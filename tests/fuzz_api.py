"""A fuzzer for the Python API (issue 14): calls with arguments of every type, and their contract.

``solve``, ``prove``, ``enumerate_tours``, ``longest``, ``validate``,
``Board`` and ``Tour`` are called with keyword arguments drawn from pools of
good values (boards of at most 6x6, time limits of at most 0.5 s) and bad ones
(wrong types, NaN, infinities, huge counts, non-bool flags), a share of bad
values drawn per case.  Each call must return a result whose tours and paths
pass :func:`ktsolve.validate` again, or raise a
:class:`~ktsolve.errors.KtsolveError`; any other exception breaks the
contract.  Values known to break a method module would not be drawn
(``fuzz_cli.KNOWN_ISSUES``, empty today).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from fuzz_cli import METHOD_PARAMS, _pick, known_issue
from hypothesis import strategies as st

import ktsolve
from ktsolve import Board, KtsolveError, Tour, validate
from ktsolve.registry import methods


FLAG_GOOD, FLAG_BAD = [True, False, np.True_], ["no", 1, 0, None, 1.0]
SQUARE_GOOD, SQUARE_BAD = [None, None, "a1", (0, 0), "b3", (2, 1), [4, 0], "c2"], \
    ["z9", (0.5, 1), "??", 3, (True, False), ""]
SEED_GOOD, SEED_BAD = [None, 0, 1, 2**32 - 1, np.int64(5)], [-1, 2**32, 1.5, True, "3"]
LIMIT_API_GOOD, LIMIT_API_BAD = [0.2, 0.05, 0.5], [0, -1, math.nan, math.inf, "1", True]
BOARD_GOOD, BOARD_BAD = ["5x5", "6x6", "3x4", "4x4", "1x1", "5x6"], ["0x3", "abc", 5, None]
HOLES_GOOD, HOLES_BAD = [None, [], [(0, 0)], ["a1"], "a1,b3", [(1, 2), "e5"]], \
    [[(0, 0), (0, 0)], [(9, 9)], [(0.5, 1)], 3, [[1, 2, 3]], "zz"]


def api_param_pool(default) -> tuple[list, list]:
    if isinstance(default, bool):
        return [True, False], [1, "yes", None]
    if isinstance(default, int) or default is None:
        return [0, 1, 2, 5, 50], [-1, 10**12, 2**63, 1.5, math.inf, math.nan, True, "abc", [1]]
    if isinstance(default, float):
        return [0.0, 0.5, 1.0, 2.0, 0.999], [-1.0, 1e-300, 1e308, 700.0, math.inf, -math.inf, math.nan, "abc",
                                           True, None]
    return ["auto", "roth", "random", "sequential", "edge", "warnsdorff", "exact"], ["bogus", "", 3, None]


@dataclass
class ApiCase:
    func: str
    kwargs: dict

    def describe(self) -> str:
        return f"{self.func}({', '.join(f'{k}={v!r}' for k, v in self.kwargs.items())})"


@st.composite
def api_cases(draw) -> ApiCase:
    func = draw(st.sampled_from(["solve", "solve", "prove", "enumerate_tours", "longest", "validate", "Board",
                                 "Tour"]))
    rate = draw(st.sampled_from([0, 0, 3, 10, 30]))

    def pick(good, bad):
        return _pick(draw, good, bad, rate)

    kw: dict = {}
    if func == "Board":
        return ApiCase(func, {"rows": pick([3, 5, 8], [0, -1, 2.5, "5", True, 2**40]),
                              "cols": pick([4, 5, 1], [0, None]), "holes": pick(HOLES_GOOD, HOLES_BAD)})
    if func in ("validate", "Tour"):
        kw["board"] = Board(3, 4)
        kw["squares"] = pick([[0, 6, 8], [0, 6, 8, 1, 3, 4, 10, 5, 7, 2, 9, 11], [0, 6, 4, 1, 7, 9, 2, 11, 5, 3, 10, 8],
                              np.array([0, 6, 8])], [[0, 0], [], [0.0, 6.0], [[0, 0], [1, 2]], [12], "abc", [True]])
        kw["closed"] = pick(FLAG_GOOD, FLAG_BAD)
        if func == "validate":
            kw["start"] = pick(SQUARE_GOOD, SQUARE_BAD)
            kw["complete"] = pick(FLAG_GOOD, FLAG_BAD)
        return ApiCase(func, kw)
    kw["board"] = pick(BOARD_GOOD, BOARD_BAD)
    kw["time_limit"] = pick(LIMIT_API_GOOD, LIMIT_API_BAD)  # never None: CP-SAT's default budget is a minute
    kw["seed"] = pick(SEED_GOOD, SEED_BAD)
    kw["start"] = pick(SQUARE_GOOD, SQUARE_BAD)
    if func == "longest":
        return ApiCase(func, kw)
    kw["closed"] = pick(FLAG_GOOD, FLAG_BAD)
    kw["end"] = pick(SQUARE_GOOD, SQUARE_BAD)
    if func == "prove":
        return ApiCase(func, kw)
    good_methods = ["aco", "iaco"] if func == "enumerate_tours" else ["auto", *methods()]
    method = pick(good_methods, ["bogus", 3, None])
    kw["method"] = method
    if func == "enumerate_tours":
        kw["cycles"] = pick([1, 5, 20, None], [-1, 1.5, "3", 2**70])
    params = METHOD_PARAMS.get(method, {}) if isinstance(method, str) else {}
    for _ in range(draw(st.integers(0, 2))):
        key = pick(list(params) or ["colour"], ["colour", "seed_with", "seed_tour"])
        good, bad = api_param_pool(params.get(key, 1))
        value = pick(good, bad)
        if not known_issue(method, key, value):
            kw[key] = value
    return ApiCase(func, kw)


def fuzz_api_case(case: ApiCase) -> list[str]:
    """Call the API; violations of the contract (a non-ktsolve error, an invalid tour)."""
    kw = dict(case.kwargs)
    try:
        if case.func == "Board":
            Board(kw["rows"], kw["cols"], holes=kw["holes"])
            return []
        if case.func == "Tour":
            Tour(kw["board"], kw["squares"], closed=kw["closed"])
            return []
        if case.func == "validate":
            validate(kw.pop("board"), kw.pop("squares"), **kw)
            return []
        func = getattr(ktsolve, case.func)
        res = func(kw.pop("board"), **kw) if case.func != "solve" else func(kw.pop("board"), kw.pop("method"), **kw)
    except KtsolveError:
        return []
    except Exception as exc:  # noqa: BLE001 - the contract: only KtsolveError
        return [f"{type(exc).__name__}: {exc}"[:300]]
    bad = []
    board = res.board
    tours = []
    if case.func == "enumerate_tours":
        tours = list(res.tours)
    elif getattr(res, "tour", None) is not None:
        tours = [res.tour]
    for t in tours:
        try:
            validate(board, t, closed=bool(case.kwargs.get("closed")) and case.func != "longest",
                     start=res.spec.start, end=res.spec.end)
        except KtsolveError as exc:
            bad.append(f"an invalid tour came back: {exc}")
    if case.func == "longest" and res.path is not None:
        try:
            validate(board, res.path, start=res.spec.start, complete=False)
        except KtsolveError as exc:
            bad.append(f"an invalid path came back: {exc}")
    return bad
