"""The method registry: every method by name, what it can do, and where its code lives.

This is the only module that knows every method.  A method is declared here
by its name, its capabilities and the ``module:function`` path of its code,
so listing the methods (``ktsolve methods``, ``--help``) imports no method
module, and with it neither numba nor OR-Tools; a method's module is
imported the first time the method runs.

A method is a function with the signature::

    func(graph, spec, *, seed=None, time_limit=None, progress=None, **params) -> SolveResult

:func:`register_method` adds a method of the user's own (a callable, or a
``module:function`` path) under a new name; it is then available to
:func:`ktsolve.solve`, ``ktsolve bench methods`` and :func:`methods` like a
built-in one.

Examples
--------
>>> sorted(methods())[:3]
['abc', 'aco', 'backtrack']
>>> method_info("cpsat").proves
True
>>> def coin(graph, spec, *, seed=None, time_limit=None, progress=None):
...     return None          # "found nothing"
>>> info = register_method(MethodInfo("coin", "heuristic", "a user's method", coin))
>>> "coin" in methods()
True
>>> unregister_method("coin")
"""

from __future__ import annotations

import dataclasses
import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass

from .errors import InvalidParameterError, UnsupportedError

__all__ = [
    "FAMILIES",
    "MethodInfo",
    "methods",
    "method_info",
    "register_method",
    "unregister_method",
    "reset_methods",
    "enumerating_methods",
    "BUILTIN",
]

FAMILIES = ("exact", "heuristic", "metaheuristic")


def load_target(target: str | Callable) -> Callable:
    if callable(target):
        return target
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


@dataclass(frozen=True)
class MethodInfo:
    """What a method is and what it can do.

    Parameters
    ----------
    name : str
        The name ``solve(method=...)`` and ``--method`` take.
    family : {"exact", "heuristic", "metaheuristic"}
    summary : str
        One line for ``ktsolve methods``.
    func : callable or str
        The method, or the ``"module:function"`` path of it (imported on
        first use).  It returns a :class:`~ktsolve.result.SolveResult`, or,
        for a user's method, a tour as square numbers or None.
    holes, open, closed, start, end : bool
        Whether it handles boards with holes, open tours, closed tours, a
        fixed start square, a fixed end square.
    proves : bool
        Whether it can prove that no tour exists.
    seeded : bool
        Whether it draws random numbers (and so records its seed).
    max_squares : int, optional
        Largest board it accepts.
    reference : str
        Where the algorithm comes from.
    enumerate : callable or str, optional
        ``enumerate(graph, spec, *, cycles, seed, time_limit, progress, **params)
        -> Enumeration`` for methods that collect every distinct tour they meet.
    needs_graph : bool
        False when the method uses only ``graph.board`` (no graph arrays):
        when such a method also ``proves``, the graph-based presolve is
        skipped for it.
    params : str, optional
        The ``"module:NAME"`` path of the method's parameter table (a
        :class:`~ktsolve.heuristics._params.Params`), which checks its
        parameters and which ``ktsolve methods NAME`` prints; imported when
        asked for (:meth:`load_params`).

    Examples
    --------
    >>> info = MethodInfo("greedy", "heuristic", "my greedy walk", "mypackage.walks:greedy", closed=False)
    >>> info.capabilities()["closed"], info.can_enumerate
    (False, False)
    """

    name: str
    family: str
    summary: str
    func: Callable | str
    holes: bool = True
    open: bool = True
    closed: bool = True
    start: bool = True
    end: bool = True
    proves: bool = False
    seeded: bool = True
    max_squares: int | None = None
    reference: str = ""
    enumerate: Callable | str | None = None
    needs_graph: bool = True
    params: str | None = None

    def __post_init__(self):
        if self.family not in FAMILIES:
            raise ValueError(f"family must be one of {FAMILIES}, not {self.family!r}")
        if not isinstance(self.name, str) or not self.name.isidentifier():
            raise ValueError(f"a method name must be an identifier, not {self.name!r}")

    def load(self) -> Callable:
        """The method's function (its module is imported now if it was given as a path)."""
        return load_target(self.func)

    def load_params(self):
        """The method's parameter table (:class:`~ktsolve.heuristics._params.Params`), or None without one.

        Examples
        --------
        >>> [p.name for p in method_info("rotation").load_params().params]
        ['rotations', 'restarts', 'depth']
        """
        return None if self.params is None else load_target(self.params)

    def load_enumerate(self) -> Callable | None:
        """The enumeration function, or None."""
        return None if self.enumerate is None else load_target(self.enumerate)

    @property
    def can_enumerate(self) -> bool:
        return self.enumerate is not None

    @property
    def builtin(self) -> bool:
        return self.name in BUILTIN and BUILTIN[self.name] is self

    def capabilities(self) -> dict:
        """The JSON-ready description ``ktsolve methods --format json`` prints."""
        keys = ("holes", "open", "closed", "start", "end", "proves", "seeded", "max_squares")
        return {
            "name": self.name,
            "family": self.family,
            **{k: getattr(self, k) for k in keys},
            "enumerate": self.can_enumerate,
            "summary": self.summary,
            "reference": self.reference,
        }


def _m(name, family, summary, func, **kw) -> MethodInfo:
    # every built-in method declares its parameters in a table named PARAMS beside its function
    kw.setdefault("params", func.partition(":")[0] + ":PARAMS")
    return MethodInfo(name=name, family=family, summary=summary, func=func, **kw)


_H = "ktsolve.heuristics"
_X = "ktsolve.models"

#: The built-in methods, in name order.
BUILTIN: dict[str, MethodInfo] = {
    m.name: m
    for m in (
        _m("abc", "metaheuristic",
           "artificial bee colony on move-code sequences: longest path, or an open tour",
           f"{_H}.abc:solve_abc", closed=False, end=False, max_squares=1_000_000,
           reference="Banharnsakun, AISC 866, Springer 2019"),
        _m("aco", "metaheuristic",
           "ant colony of Hingston & Kendall: one ant per square, trails on (square, move)",
           f"{_H}.aco:solve_aco", max_squares=250_000, enumerate=f"{_H}.aco:enumerate_aco",
           reference="Hingston & Kendall, Ant colonies discover knight's tours, AI 2004, LNCS 3339"),
        _m("backtrack", "exact",
           "depth-first search with Warnsdorff ordering and dead-end pruning; proves small boards",
           f"{_X}.backtrack:solve_backtrack", proves=True, seeded=False,
           reference="Pohl 1967 (ordered search); exhaustive DFS"),
        _m("cpsat", "exact",
           "OR-Tools CP-SAT; proves infeasibility (1 worker: reproducible); -p model=circuit|redundant|cuts|sat",
           f"{_X}.cpsat:solve_cpsat", proves=True, max_squares=40_000,
           reference="Perron & Didier, OR-Tools CP-SAT"),
        _m("csp", "exact",
           "python-constraint model (steps, all-different, knight moves), backtracking; 64 squares at most",
           f"{_X}.csp:solve_csp", proves=True, seeded=False, max_squares=64,
           reference="the Prolog paper's longest-path search, extended to tours; python-constraint"),
        _m("dfs", "heuristic",
           "naive depth-first search with a fixed move order (the papers' baseline)",
           f"{_H}.dfs:solve_dfs", enumerate=f"{_H}.dfs:enumerate_dfs",
           reference="Gordon & Slocum, The knight's tour - evolutionary vs. depth-first search, CEC 2004"),
        _m("divide", "exact",
           "divide and conquer: CP-SAT-built blocks joined into tours of any full board, linear time",
           f"{_H}.divide:solve_divide", holes=False, proves=True, seeded=False, needs_graph=False,
           reference="Parberry 1997; Lin & Wei 2005"),
        _m("ga", "metaheuristic",
           "genetic algorithm with repair of Gordon & Slocum (moves of 3 bits)",
           f"{_H}.ga:solve_ga", max_squares=100_000,
           reference="Gordon & Slocum, The knight's tour - evolutionary vs. depth-first search, CEC 2004"),
        _m("iaco", "metaheuristic",
           "multi-colony ant colony of Jiang, Bai & Dong: degree-powered trails, F-mean sharing",
           f"{_H}.iaco:solve_iaco", max_squares=250_000, enumerate=f"{_H}.iaco:enumerate_iaco",
           reference="Jiang, Bai & Dong, improved multi-colony ant colony for knight's tours on holed boards"),
        _m("neural", "metaheuristic",
           "Takefuji-Lee neural network: one hysteresis neuron per knight edge (closed tours)",
           f"{_H}.neural:solve_neural", open=False, max_squares=40_000,
           reference="Takefuji & Lee, Neurocomputing 4(5):249-254, 1992"),
        _m("rotation", "heuristic",
           "Warnsdorff extension repaired by Posa rotations; large boards with holes",
           f"{_H}.rotation:solve_rotation",
           reference="Posa 1976; Angluin & Valiant 1979; Roth (tie-break)"),
        _m("splice", "heuristic",
           "divide's tour of the full board, holes cut out, 2-factor restored, cycles spliced; huge holed boards",
           f"{_H}.splice:solve_splice", needs_graph=False, seeded=False, params=None,
           reference="Parberry 1997 (joining cycles by a pair of moves); Posa 1976 (exchanges); issue 18"),
        _m("warnsdorff", "heuristic",
           "Warnsdorff's rule (fewest onward moves) with tie-break rules and restarts",
           f"{_H}.warnsdorff:solve_warnsdorff",
           reference="Warnsdorff 1823; Pohl 1967; Squirrel & Cull 1996; Ganzfried 2004"),
    )
}

#: Registrations by :func:`register_method`; None hides a built-in method.
_USER: dict[str, MethodInfo | None] = {}


def methods() -> dict[str, MethodInfo]:
    """Every method by name, built-in and registered, in name order (``auto`` is a choice among them).

    Examples
    --------
    >>> m = methods()
    >>> m["divide"].family, m["divide"].holes, m["neural"].open
    ('exact', False, False)
    """
    if not _USER:
        return dict(BUILTIN)
    merged = {**BUILTIN, **_USER}
    return {name: info for name, info in sorted(merged.items()) if info is not None}


def method_info(name: str) -> MethodInfo:
    """The :class:`MethodInfo` of ``name``; raises :class:`~ktsolve.errors.UnsupportedError` for an unknown name."""
    info = _USER[name] if name in _USER else BUILTIN.get(name)
    if info is None:
        choices = ", ".join(["auto", *methods()])
        raise UnsupportedError(f"unknown method {name!r}; choose one of {choices}")
    return info


_PATH = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*$")


def _check_func(info: MethodInfo) -> None:
    """Refuse a ``func`` that is neither callable nor a ``"module:function"`` path, when it is registered.

    Without this a value such as ``5`` would be accepted here and fail
    with a traceback the first time the method runs.
    """
    func = info.func
    if callable(func) or (isinstance(func, str) and _PATH.match(func)):
        return
    shown = repr(func)
    shown = shown if len(shown) <= 40 else shown[:37] + "..."
    raise InvalidParameterError(f"func of method {info.name!r} must be a callable or a 'module:function' path, "
                                f"not {shown}")


def register_method(info: MethodInfo, *, replace: bool = False) -> MethodInfo:
    """Make a method available by name to :func:`ktsolve.solve`, the benchmarks and :func:`methods`.

    Parameters
    ----------
    info : MethodInfo
        Its ``func`` is a callable or a ``"module:function"`` path.
    replace : bool
        Allow replacing a method registered earlier under the same name,
        a built-in one included (tests use this to put a double in place of
        a method; :func:`unregister_method` restores the built-in).

    Returns
    -------
    MethodInfo
        ``info``, so the call can be used as a decorator's last step.

    Raises
    ------
    UnsupportedError
        When the name is ``auto`` or is taken and ``replace`` is False.
    InvalidParameterError
        When ``func`` is neither callable nor a ``"module:function"`` path.

    Examples
    --------
    >>> import numpy as np
    >>> def row_by_row(graph, spec, *, seed=None, time_limit=None, progress=None):
    ...     return np.arange(graph.n)          # not knight's moves: the validator says so
    >>> _ = register_method(MethodInfo("row_by_row", "heuristic", "a wrong method", row_by_row))
    >>> from ktsolve import solve
    >>> res = solve("5x5", method="row_by_row", seed=1)
    >>> res.status.value, res.stats["invalid_tour"][:23]
    ('unknown', 'illegal move at step 2:')
    >>> unregister_method("row_by_row")
    """
    if not isinstance(info, MethodInfo):
        raise UnsupportedError(f"register_method takes a MethodInfo, not {type(info).__name__}")
    if info.name == "auto":
        raise UnsupportedError("'auto' is the portfolio's name and cannot be registered")
    if not replace and info.name in methods():
        raise UnsupportedError(f"a method named {info.name!r} is already registered")
    _check_func(info)
    _USER[info.name] = info
    return info


def unregister_method(name: str) -> None:
    """Remove a method: a user's registration goes (a built-in it replaced comes back); a built-in is hidden.

    A hidden built-in method is left out of :func:`methods`, the ``auto``
    and ``prove`` plans and the command line's choices, until
    :func:`reset_methods` or a new :func:`register_method`.

    Examples
    --------
    >>> unregister_method("cpsat")
    >>> "cpsat" in methods()
    False
    >>> reset_methods()
    >>> "cpsat" in methods()
    True
    """
    if name in _USER and _USER[name] is not None:
        del _USER[name]
    elif name in BUILTIN and name not in _USER:
        _USER[name] = None
    else:
        raise UnsupportedError(f"no method named {name!r} is registered")


def reset_methods() -> None:
    """Forget every :func:`register_method` and :func:`unregister_method`: the built-in methods only."""
    _USER.clear()


def enumerating_methods() -> list[str]:
    """Names of the methods that can enumerate tours."""
    return [name for name, info in methods().items() if info.enumerate is not None]


def with_func(info: MethodInfo, func: Callable) -> MethodInfo:
    """A copy of ``info`` whose code is ``func`` (a test double keeps the capabilities)."""
    return dataclasses.replace(info, func=func)
