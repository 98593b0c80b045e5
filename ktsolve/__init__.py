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
    "KtsolveError": "errors",
    "InvalidBoardError": "errors",
    "InvalidSquareError": "errors",
    "InvalidTourError": "errors",
    "UnsupportedError": "errors",
    "InvalidParameterError": "errors",
}

__all__ = [*_WHERE, "__version__"]


def __getattr__(name: str):
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            value = version("ktsolve")
        except PackageNotFoundError:  # pragma: no cover - a source tree without install
            value = "0+unknown"
    elif name in _WHERE:
        value = getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
    else:
        raise AttributeError(f"module 'ktsolve' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


class _Package(types.ModuleType):
    """The package object: importing the submodule ``ktsolve.solve`` never hides the function ``solve``.

    Python binds a submodule to its package's attribute of the same name when
    it is first imported; with the names above loaded on first use, that
    would make ``from ktsolve import solve`` the module whenever another
    module imported ``ktsolve.solve`` first.
    """

    def __setattr__(self, name, value):
        if name in _WHERE and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
