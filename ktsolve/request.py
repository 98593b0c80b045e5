"""A question, checked: the board, the tour asked for, and what a method can answer.

Every entry point (:func:`ktsolve.solve`, :func:`ktsolve.prove`, ...) turns
its arguments into a :class:`~ktsolve.board.Board` and a
:class:`~ktsolve.tour.TourSpec` here, with the same checks and the same
messages, before any work starts.

Examples
--------
>>> b = as_board("5x5")
>>> make_spec(b, closed=False, start="a1")
TourSpec(closed=False, start=(4, 0), end=None)
>>> make_spec(b, closed="yes")
Traceback (most recent call last):
...
ktsolve.errors.InvalidParameterError: closed must be True or False, not 'yes'
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

from .board import Board, BoardFile
from .checks import check_flag
from .errors import InvalidBoardError, InvalidParameterError, UnsupportedError
from .graph import MAX_GRAPH_SQUARES
from .registry import MethodInfo
from .tour import TourSpec

__all__ = ["as_board", "as_question", "make_spec", "check_supported", "check_params", "supports", "RESERVED"]

#: Keywords every method takes from the caller, never through ``**params``.
RESERVED = ("graph", "spec", "seed", "time_limit", "progress", "closed", "start", "end")


def as_board(board) -> Board:
    """A :class:`Board` from a Board, a :class:`~ktsolve.board.BoardFile` or a size string such as ``"8x8"``."""
    if isinstance(board, Board):
        return board
    if isinstance(board, BoardFile):
        return board.board
    if isinstance(board, str):
        return Board.from_spec(board)
    raise InvalidBoardError(f"expected a Board or a size like '8x8', got {type(board).__name__}")


def as_question(board, start=None, end=None) -> tuple[Board, object, object]:
    """The board, start and end of a call: a :class:`~ktsolve.board.BoardFile` gives the squares it marks.

    What :meth:`Board.read_file` returns (a puzzle's board with its ``S``
    and ``E``) can be passed as it is; a ``start`` or ``end`` given to the
    call wins over the file's.

    Examples
    --------
    >>> bf = Board.parse_file("S..\\n...\\n...\\n..E\\n")
    >>> b, s, e = as_question(bf)
    >>> b.shape, s, e
    ((4, 3), (0, 0), (3, 2))
    >>> as_question(bf, start="a1")[1:]
    ('a1', (3, 2))
    """
    if isinstance(board, BoardFile):
        return board.board, board.start if start is None else start, board.end if end is None else end
    return as_board(board), start, end


def make_spec(board: Board, *, closed: bool = False, start=None, end=None) -> TourSpec:
    """A :class:`TourSpec` with ``closed`` checked as a bool and ``start``, ``end`` against the board."""
    closed = check_flag("closed", closed)
    s = None if start is None else board.parse_square(start, what="start")
    e = None if end is None else board.parse_square(end, what="end")
    if closed and s is not None and e == s:
        e = None  # "a closed tour from a1 back to a1" asks for no more than a start
    return TourSpec(closed=closed, start=s, end=e)


def _refusal(info: MethodInfo, board: Board, spec: TourSpec) -> str | None:
    name = info.name
    if spec.closed and not info.closed:
        return f"method {name!r} cannot build closed tours"
    if not spec.closed and not info.open:
        return f"method {name!r} builds closed tours only; ask for a closed tour"
    if spec.start is not None and not info.start:
        return f"method {name!r} cannot fix the start square"
    if spec.end is not None and not info.end:
        return f"method {name!r} cannot fix the end square"
    if not board.is_full and not info.holes:
        return f"method {name!r} works on boards without holes only"
    if info.needs_graph and board.n_squares > MAX_GRAPH_SQUARES:
        return (
            f"method {name!r} needs the knight graph, which is built for boards of at most "
            f"{MAX_GRAPH_SQUARES:,} squares; this one has {board.n_squares:,}"
        )
    if info.max_squares is not None and board.n_squares > info.max_squares:
        return (
            f"method {name!r} handles boards of at most {info.max_squares:,} squares; "
            f"this one has {board.n_squares:,}"
        )
    return None


def supports(info: MethodInfo, board: Board, spec: TourSpec) -> bool:
    """Whether ``info`` can answer ``spec`` on ``board``."""
    return _refusal(info, board, spec) is None


def check_supported(info: MethodInfo, board: Board, spec: TourSpec) -> None:
    """Raise :class:`~ktsolve.errors.UnsupportedError` when ``info`` cannot answer ``spec`` on ``board``."""
    why = _refusal(info, board, spec)
    if why is not None:
        raise UnsupportedError(why)


def check_params(info: MethodInfo, params: dict, func: Callable | None = None, *, n: int | None = None) -> None:
    """Refuse parameters ``info``'s function does not take, and the reserved keywords.

    ``seed``, ``time_limit``, ``progress``, ``closed``, ``start`` and ``end``
    are arguments of the call, never method parameters: passing them as
    parameters (``-p seed=3`` on the command line) is refused with a message
    that says where they belong.  A method with a parameter table
    (:meth:`MethodInfo.load_params`) has its names, and with ``n`` (the
    board's squares) its values, checked by that table before any work, the
    table ``ktsolve methods NAME`` prints.

    Examples
    --------
    >>> from ktsolve.registry import method_info
    >>> check_params(method_info("rotation"), {"depth": 9}, n=36)
    Traceback (most recent call last):
    ...
    ktsolve.errors.InvalidParameterError: method 'rotation': depth = 9 must be from 1 to 6
    """
    for key in params:
        if key in RESERVED:
            raise InvalidParameterError(
                f"{key!r} is an argument of the call, not a parameter of method {info.name!r}"
            )
    table = info.load_params() if func is None else None
    if table is not None:
        if n is None:
            for key in params:
                if key not in table.by_name:
                    takes = ", ".join(table.names) or "no parameters"
                    raise InvalidParameterError(f"method {info.name!r} has no parameter {key!r} (it takes {takes})")
        else:
            table.check(params, n=n)
        return
    sig = inspect.signature(info.load() if func is None else func)
    if any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values()):
        return
    known = [p for p in sig.parameters if p not in RESERVED]
    for key in params:
        if key not in known:
            takes = ", ".join(known) or "no parameters"
            raise InvalidParameterError(f"method {info.name!r} has no parameter {key!r} (it takes {takes})")
