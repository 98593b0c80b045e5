"""ktsolve: knight's tours on m x n boards with holes.

Exact methods prove whether an open or closed tour exists and produce one;
numba heuristics and metaheuristics solve large boards fast; every tour that
any method returns passes one validator.

The names below are imported on first use, so ``import ktsolve`` (and the
command line's ``--version`` and ``--help``) costs almost nothing; numba and
OR-Tools are imported only when a method that needs them runs.

>>> from ktsolve import Board, solve, validate
>>> board = Board(5, 5)
>>> res = solve(board, method="warnsdorff", start="a1", seed=7)
>>> res.status.value
'found'
>>> validate(board, res.tour).is_complete
True
"""

from __future__ import annotations

import importlib
import sys
import types

#: Every public name and the module that defines it.
_WHERE = {
    "Board": "board",
    "KnightGraph": "graph",
    "KNIGHT_MOVES": "graph",
    "Tour": "tour",
    "TourSpec": "tour",
    "validate": "tour",
    "validate_many": "tour",
    "SolveResult": "result",
    "Enumeration": "result",
    "Status": "result",
    "Proof": "result",
    "MethodInfo": "registry",
    "methods": "registry",
    "register_method": "registry",
    "unregister_method": "registry",
    "solve": "solve",
    "prove": "solve",
    "enumerate_tours": "solve",
    "longest": "solve",
    "random_holed_board": "generate",
    "verify_certificate": "certificates",
    "Verdict": "proofs.verdict",
    "count_tours": "models.count",
    "strip_counts": "models.count",
    "TourCount": "models.count",
    "KtsolveError": "errors",
    "InvalidBoardError": "errors",
    "InvalidSquareError": "errors",
    "InvalidTourError": "errors",
    "UnsupportedError": "errors",
    "InvalidParameterError": "errors",
}

#: Public names that are modules: ``ktsolve.census`` is a callable module,
#: ``ktsolve.census(...)`` runs a census (see :mod:`ktsolve.census`).
_MODULES = ("census",)

__all__ = [*_WHERE, *_MODULES, "__version__"]


def __getattr__(name: str):
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            value = version("ktsolve")
        except PackageNotFoundError:  # pragma: no cover - a source tree without install
            value = "0+unknown"
    elif name in _MODULES:
        value = importlib.import_module(f".{name}", __name__)
    elif name in _WHERE:
        value = getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
    else:
        raise AttributeError(f"module 'ktsolve' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


class _Package(types.ModuleType):
    """The package, whose public function ``solve`` wins over its submodule ``ktsolve.solve``.

    Importing the submodule (``from ktsolve import prove`` does) binds the
    package's attribute ``solve`` to the module; ``from ktsolve import solve``
    must still give the function, whatever was imported before.
    """

    def __getattribute__(self, name: str):
        value = super().__getattribute__(name)
        if isinstance(value, types.ModuleType) and _WHERE.get(name) == name:
            return getattr(value, name)
        return value


sys.modules[__name__].__class__ = _Package

# before any kernel module: numba needs a cache folder it can write (a read-only install may have none)
importlib.import_module(".jit", __name__).ensure_cache()
