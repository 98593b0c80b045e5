"""Hypothesis strategies for boards with holes and for questions about them.

Every strategy draws the board size first and the holes after, so
hypothesis shrinks a failing case towards a small board with few holes.
Squares are ``(row, col)`` pairs, row 0 at the top.

* :func:`boards`: any board, holes anywhere (most have no tour: the cheap
  proofs get exercised);
* :func:`questions`: a board and a question about it, as a :class:`Question`
  (``board, closed, start, end``);
* the hard families, boards on which the cheap necessary conditions say
  little and the exact side must work:

  - :func:`balanced_boards`: holes taken in pairs of one light and one dark
    square, so the colour counts never rule a tour out;
  - :func:`one_hole_boards`: a rectangle with one square removed;
  - :func:`ring_boards`: a frame two or three squares wide around a
    rectangular hole;
  - :func:`plausible_boards`: boards from :func:`ktsolve.random_holed_board`,
    which pass the colour, degree and connectivity conditions (at least 5x5).

Needs hypothesis (``pip install 'ktsolve[test]'``).

Examples
--------
>>> from hypothesis import given, settings
>>> from ktsolve import prove
>>> @settings(max_examples=5, deadline=None)
... @given(ring_boards(max_size=7))
... def test_rings_have_their_hole(board):
...     assert board.n_holes >= 1
>>> test_rings_have_their_hole()
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from hypothesis import reject
from hypothesis import strategies as st

from ..board import Board
from ..checks import check_flag, check_int
from ..errors import InvalidBoardError, InvalidParameterError

__all__ = [
    "Question",
    "boards",
    "squares",
    "questions",
    "balanced_boards",
    "one_hole_boards",
    "ring_boards",
    "plausible_boards",
]

#: Largest side the strategies draw (larger boards make slow examples, not better ones).
MAX_SIDE = 64


class Question(NamedTuple):
    """A board and what is asked of it: ``board, closed, start, end`` (squares as ``(row, col)``).

    ``question.kwargs`` holds the keyword arguments of :func:`ktsolve.solve`,
    :func:`ktsolve.prove` and the assertions of :mod:`ktsolve.testing`::

        res = solve(q.board, method="aco", seed=1, **q.kwargs)
        assert_agrees(q.board, res, **q.kwargs)
    """

    board: Board
    closed: bool
    start: tuple[int, int] | None
    end: tuple[int, int] | None

    @property
    def kwargs(self) -> dict:
        return {"closed": self.closed, "start": self.start, "end": self.end}


def _sides(min_size, max_size, lowest: int = 1) -> tuple[int, int]:
    lo = check_int("min_size", min_size, lowest, MAX_SIDE)
    hi = check_int("max_size", max_size, lo, MAX_SIDE)
    return lo, hi


def _board(rows: int, cols: int, flat) -> Board:
    flat = np.asarray(sorted(flat), dtype=np.int64)
    return Board(rows, cols, np.stack([flat // cols, flat % cols], axis=1) if flat.size else ())


def boards(min_size: int = 1, max_size: int = 8, max_holes: int | None = None) -> st.SearchStrategy:
    """Boards of ``min_size`` to ``max_size`` rows and columns, with holes anywhere.

    Parameters
    ----------
    min_size, max_size : int
        Range of the number of rows and of columns (each drawn on its own).
    max_holes : int, optional
        Most holes; by default a quarter of the cells.  A board always keeps
        at least one square.

    Examples
    --------
    >>> from hypothesis import given, settings
    >>> @settings(max_examples=20)
    ... @given(boards(3, 5, max_holes=2))
    ... def check(board):
    ...     assert 3 <= board.rows <= 5 and 3 <= board.cols <= 5 and board.n_holes <= 2
    >>> check()
    """
    lo, hi = _sides(min_size, max_size)
    limit = None if max_holes is None else check_int("max_holes", max_holes, 0)

    @st.composite
    def draw_board(draw):
        rows = draw(st.integers(lo, hi))
        cols = draw(st.integers(lo, hi))
        cells = rows * cols
        most = min(cells - 1, cells // 4 if limit is None else limit)
        flat = draw(st.sets(st.integers(0, cells - 1), max_size=most))
        return _board(rows, cols, flat)

    return draw_board()


def squares(board) -> st.SearchStrategy:
    """Squares of ``board`` (a Board or a size such as ``"8x8"``; never a hole), as ``(row, col)`` pairs.

    Shrinks towards the first square.  Anything that is not a board is
    refused with :class:`~ktsolve.errors.InvalidParameterError`.
    """
    board = _as_board(board, "squares()")
    return st.integers(0, board.n_squares - 1).map(lambda i: tuple(int(v) for v in board.coords_of([i])[0]))


def _as_board(board, who: str) -> Board:
    """A Board from a Board or a size string; a clear error for anything else (an int, a strategy)."""
    if isinstance(board, str):
        return Board.from_spec(board)
    if not isinstance(board, Board):
        raise InvalidParameterError(
            f"{who} takes a Board or a size like '8x8', not {type(board).__name__}"
            + (" (draw the board first: st.data() or questions())" if isinstance(board, st.SearchStrategy) else "")
        )
    return board


#: Choices of ``questions(..., ends=...)`` besides True and False.
ENDS = ("start", "end", "both")


def questions(boards: st.SearchStrategy | None = None, *, closed: bool | None = None,
              ends: bool = True) -> st.SearchStrategy:
    """A board and a question about it, as a :class:`Question`.

    Parameters
    ----------
    boards : strategy, Board or str, optional
        Where the boards come from; :func:`boards` by default.  Any strategy
        of this module fits, or one of your own that draws
        :class:`~ktsolve.board.Board` objects; a single Board (or a size
        such as ``"8x8"``) asks every question about that board.
    closed : bool, optional
        Ask only for closed (True) or open (False) tours; both by default.
    ends : bool or {"start", "end", "both"}
        True (default): draw a fixed start and a fixed end square too, each
        one present or not; False: tours from anywhere to anywhere;
        ``"start"``: always a fixed start, never a fixed end; ``"end"``: the
        reverse; ``"both"``: always both.

    Examples
    --------
    >>> from hypothesis import given, settings
    >>> from ktsolve import prove
    >>> from ktsolve.testing import assert_agrees
    >>> @settings(max_examples=10, deadline=None)
    ... @given(questions(boards(3, 5)))
    ... def test_prove_agrees_with_itself(q):
    ...     assert_agrees(q.board, prove(q.board, seed=1, **q.kwargs), **q.kwargs)
    >>> test_prove_agrees_with_itself()
    """
    if boards is None:
        source = _any_boards()
    elif isinstance(boards, st.SearchStrategy):
        source = boards
    else:
        source = st.just(_as_board(boards, "questions()"))
    if closed is not None:
        closed = check_flag("closed", closed)
    if isinstance(ends, str) and ends not in ENDS:
        raise InvalidParameterError(f"ends must be True, False or one of {', '.join(ENDS)}, not {ends!r}")
    if not isinstance(ends, str):
        ends = check_flag("ends", ends)

    @st.composite
    def draw_question(draw):
        board = draw(source)
        if not isinstance(board, Board):
            raise InvalidParameterError(f"questions() needs a strategy of boards, got a {type(board).__name__}")
        c = draw(st.booleans()) if closed is None else closed
        start = end = None
        if ends is True:
            start = draw(st.none() | squares(board))
            end = draw(st.none() | squares(board))
        if ends in ("start", "both"):
            start = draw(squares(board))
        if ends in ("end", "both"):
            end = draw(squares(board))
        return Question(board, c, start, end)

    return draw_question()


def balanced_boards(min_size: int = 4, max_size: int = 8, max_holes: int = 6, *,
                    closed: bool = False) -> st.SearchStrategy:
    """Boards whose holes keep the colours balanced, so colour parity proves nothing.

    Holes come in pairs of one light and one dark square (plus one square
    of the majority colour when the board has an odd number of cells and
    ``closed`` is True).  For an open tour the two colours then differ by at
    most one, for a closed tour they are equal.

    Parameters
    ----------
    min_size, max_size : int
        Range of rows and of columns (at least 2).
    max_holes : int
        Most holes.
    closed : bool
        Balance for closed tours (equal counts) instead of open ones.

    Examples
    --------
    >>> from hypothesis import given, settings
    >>> @settings(max_examples=20)
    ... @given(balanced_boards(closed=True))
    ... def check(board):
    ...     light, dark = board.colour_counts()
    ...     assert light == dark
    >>> check()
    """
    lo, hi = _sides(min_size, max_size, 2)
    limit = check_int("max_holes", max_holes, 0)
    closed = check_flag("closed", closed)
    if closed and limit < 1:
        raise InvalidParameterError("balanced boards for closed tours need max_holes of at least 1 "
                                    "(a board of an odd number of cells loses one square)")

    @st.composite
    def draw_board(draw):
        rows = draw(st.integers(lo, hi))
        cols = draw(st.integers(lo, hi))
        flat = np.arange(rows * cols)
        parity = (flat // cols + flat % cols) % 2
        even, odd = flat[parity == 0], flat[parity == 1]
        surplus = even.size - odd.size  # 0 or 1
        extra = 1 if closed and surplus else 0  # one more hole of the majority colour
        pairs_max = max(0, min((limit - extra) // 2, odd.size - 1))
        k = draw(st.integers(0, pairs_max))
        h0 = draw(st.lists(st.sampled_from(even.tolist()), min_size=k + extra, max_size=k + extra, unique=True))
        h1 = draw(st.lists(st.sampled_from(odd.tolist()), min_size=k, max_size=k, unique=True))
        return _board(rows, cols, h0 + h1)

    return draw_board()


def one_hole_boards(min_size: int = 3, max_size: int = 10) -> st.SearchStrategy:
    """Rectangles with exactly one square removed (the hole anywhere).

    Examples
    --------
    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10)
    ... @given(one_hole_boards())
    ... def check(board):
    ...     assert board.n_holes == 1
    >>> check()
    """
    lo, hi = _sides(min_size, max_size, 2)

    @st.composite
    def draw_board(draw):
        rows = draw(st.integers(lo, hi))
        cols = draw(st.integers(lo, hi))
        return _board(rows, cols, [draw(st.integers(0, rows * cols - 1))])

    return draw_board()


def ring_boards(min_size: int = 5, max_size: int = 12, min_width: int = 2, max_width: int = 3) -> st.SearchStrategy:
    """Frames: a rectangle with a rectangular block of holes inside, each side of the frame its own width.

    Parameters
    ----------
    min_size, max_size : int
        Range of the outer rows and columns.
    min_width, max_width : int
        Range of the width of each side of the frame (top, bottom, left,
        right drawn on their own).  A frame one square wide has no knight's
        move along it, so widths start at 1 but 2 is the default.

    Examples
    --------
    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10)
    ... @given(ring_boards(max_size=8))
    ... def check(board):
    ...     assert board.n_holes >= 1 and board.mask[:2].all() and board.mask[:, -2:].all()
    >>> check()
    """
    wlo = check_int("min_width", min_width, 1, MAX_SIDE)
    whi = check_int("max_width", max_width, wlo, MAX_SIDE)
    lo, hi = _sides(min_size, max_size, 3)
    if hi < 2 * wlo + 1:
        raise InvalidParameterError(
            f"max_size = {hi} leaves no room for a hole inside a frame at least {wlo} wide; "
            f"give max_size of at least {2 * wlo + 1}"
        )

    @st.composite
    def draw_board(draw):
        def side(total_lo: int) -> tuple[int, int, int]:
            a = draw(st.integers(wlo, min(whi, hi - wlo - 1)))
            b = draw(st.integers(wlo, max(wlo, min(whi, hi - a - 1))))
            inner = draw(st.integers(max(1, total_lo - a - b), hi - a - b))
            return a, inner, b

        top, inner_r, bottom = side(lo)
        left, inner_c, right = side(lo)
        rows, cols = top + inner_r + bottom, left + inner_c + right
        rr, cc = np.mgrid[top : top + inner_r, left : left + inner_c]
        return _board(rows, cols, (rr * cols + cc).ravel().tolist())

    return draw_board()


def plausible_boards(min_size: int = 5, max_size: int = 10, max_holes: int = 4, *,
                     closed: bool = False) -> st.SearchStrategy:
    """Boards from :func:`ktsolve.random_holed_board`: the cheap necessary conditions all hold.

    Every square keeps two neighbours, the colours are balanced (for
    ``closed`` or open tours; a closed question on a board of an odd
    number of cells has an odd number of holes, at least one) and the
    knight graph is connected, so only a
    real search (or the matching proof) can tell whether a tour exists.
    The holes come from a seed that hypothesis draws, so a failing example
    shrinks in size and number of holes, not in where the holes are.

    Parameters
    ----------
    min_size, max_size : int
        Range of rows and of columns (at least 5).
    max_holes : int
        Most holes.
    closed : bool
        Balance the colours for closed tours.
    """
    lo, hi = _sides(min_size, max_size, 5)
    limit = check_int("max_holes", max_holes, 0)
    closed = check_flag("closed", closed)
    from ..generate import random_holed_board

    @st.composite
    def draw_board(draw):
        rows = draw(st.integers(lo, hi))
        cols = draw(st.integers(lo, hi))
        k = draw(st.integers(0, min(limit, rows * cols // 5)))
        if closed and (k - rows * cols % 2) % 2:
            # random_holed_board adds a hole to balance the colours; stay within max_holes
            k = k + 1 if k < limit else k - 1
        seed = draw(st.integers(0, 2**32 - 1))
        if k < 0:
            reject()
        try:
            return random_holed_board(rows, cols, k, closed=closed, seed=seed)
        except InvalidBoardError:
            reject()

    return draw_board()


_any_boards = boards
