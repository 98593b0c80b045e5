"""ktsolve: knight's tours on m x n boards with holes.

Exact methods prove whether an open or closed tour exists and produce one;
numba heuristics and metaheuristics solve large boards fast; every tour that
any method returns passes one validator.

>>> from ktsolve import Board, solve, validate
>>> board = Board(5, 5)
>>> res = solve(board, method="warnsdorff", start="a1", seed=7)
>>> res.status.value
'found'
>>> validate(board, res.tour).is_complete
True
"""

from importlib.metadata import PackageNotFoundError, version

from .board import Board
from . import census  # a callable module: ktsolve.census(...) runs a census
from .errors import (
    InvalidBoardError,
    InvalidParameterError,
    InvalidSquareError,
    InvalidTourError,
    KtsolveError,
    UnsupportedError,
)
from .generate import random_holed_board
from .graph import KNIGHT_MOVES
from .graph import KnightGraph
from .registry import MethodInfo
from .registry import methods
from .registry import register_method
from .registry import unregister_method
from .result import Enumeration
from .result import Proof
from .result import SolveResult
from .result import Status
from .solve import enumerate_tours
from .solve import longest
from .solve import prove
from .solve import solve
from .tour import Tour
from .tour import TourSpec
from .tour import validate
from .tour import validate_many

try:
    __version__ = version("ktsolve")
except PackageNotFoundError:  # pragma: no cover - running from a source tree without install
    __version__ = "0+unknown"

__all__ = [
    "Board",
    "KnightGraph",
    "KNIGHT_MOVES",
    "Tour",
    "TourSpec",
    "SolveResult",
    "Enumeration",
    "Status",
    "Proof",
    "MethodInfo",
    "solve",
    "prove",
    "enumerate_tours",
    "longest",
    "census",
    "methods",
    "register_method",
    "unregister_method",
    "random_holed_board",
    "validate",
    "validate_many",
    "KtsolveError",
    "InvalidBoardError",
    "InvalidSquareError",
    "InvalidTourError",
    "UnsupportedError",
    "InvalidParameterError",
    "__version__",
]
