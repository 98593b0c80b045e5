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
from .errors import (
    InvalidBoardError,
    InvalidSquareError,
    InvalidTourError,
    KtsolveError,
    UnsupportedError,
)
from .graph import KNIGHT_MOVES
from .graph import KnightGraph
from .graph import leaper_moves
from .result import MethodInfo
from .result import Proof
from .result import SolveResult
from .result import Status
from .solve import enumerate_tours
from .solve import longest
from .solve import methods
from .solve import prove
from .solve import solve
from .tour import Tour
from .tour import TourSpec
from .tour import validate

try:
    __version__ = version("ktsolve")
except PackageNotFoundError:  # pragma: no cover - running from a source tree without install
    __version__ = "0+unknown"

__all__ = [
    "Board",
    "KnightGraph",
    "KNIGHT_MOVES",
    "leaper_moves",
    "Tour",
    "TourSpec",
    "SolveResult",
    "Status",
    "Proof",
    "MethodInfo",
    "solve",
    "prove",
    "enumerate_tours",
    "longest",
    "methods",
    "validate",
    "KtsolveError",
    "InvalidBoardError",
    "InvalidSquareError",
    "InvalidTourError",
    "UnsupportedError",
    "__version__",
]
