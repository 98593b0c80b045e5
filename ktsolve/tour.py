"""Tours, what is asked of them, and the one validator.

A :class:`Tour` is an int32 array of square numbers (squares that are not
holes, numbered in row-major order) in visiting order, plus ``closed``.
:func:`validate` is the only judge of a tour: every tour any method returns
passes through it before it reaches a user, and tests use it as the oracle.
It needs no solver and no graph, only the board and the move set.  A knight's
tour of at least ``_KERNEL_MIN`` squares is walked in one numba pass
(:mod:`ktsolve._tour_kernels`: a byte per square marks the squares seen and,
on a board with holes, an int32 table gives their flat positions), about
20 ns a square at 10^8 squares; shorter tours and other leapers are walked by
vectorised numpy in chunks, which gives the same verdicts (the kernel's
reference in the tests) without a first-run compile.

Steps are counted from 1: step 1 is the first square, and "illegal move at
step k" is the move from square k - 1 to square k.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .board import Board
from .checks import check_flag
from .errors import InvalidBoardError, InvalidSquareError, InvalidTourError
from .graph import KNIGHT_MOVES

__all__ = ["Tour", "TourSpec", "list_cycle", "validate", "validate_many"]

_CHUNK = 1 << 22
#: Tours of at least this many squares are walked by the numba kernel (below, numpy: no compile).
_KERNEL_MIN = 1 << 16
_KNIGHT_SET = {tuple(m) for m in KNIGHT_MOVES.tolist()}


def list_cycle(squares, start: int | None = None, end: int | None = None) -> np.ndarray:
    """The squares of a closed tour listed as asked: from ``start``, ending on ``end``.

    ``squares`` lists a Hamiltonian cycle from any square in either
    direction.  With ``start`` the listing begins there; with ``end`` as well
    it runs in the direction that finishes on ``end`` (a neighbour of
    ``start`` on the cycle); with ``end`` alone it begins on the square after
    ``end``.  Square numbers, not coordinates.

    >>> list_cycle([0, 1, 2, 3], start=2).tolist()
    [2, 3, 0, 1]
    >>> list_cycle([0, 1, 2, 3], start=2, end=3).tolist()
    [2, 1, 0, 3]
    >>> list_cycle([0, 1, 2, 3], end=1).tolist()
    [2, 3, 0, 1]
    """
    sq = np.asarray(squares)
    if start is not None:
        sq = np.roll(sq, -int(np.flatnonzero(sq == start)[0]))
        if end is not None and sq[-1] != end:
            sq = np.concatenate([sq[:1], sq[1:][::-1]])
        return sq
    if end is not None:
        return np.roll(sq, -(int(np.flatnonzero(sq == end)[0]) + 1))
    return sq


@dataclass(frozen=True)
class TourSpec:
    """What is asked: an open or closed tour, optionally from ``start`` and/or to ``end``.

    ``start`` and ``end`` are ``(row, col)`` pairs.  For a closed tour a
    ``start`` only fixes where the listing begins; with an ``end`` too, the
    tour must close through the move from ``end`` back to ``start``.

    Examples
    --------
    >>> from ktsolve import Board
    >>> TourSpec(closed=True, start=(7, 0)).describe(Board(8, 8))
    'closed tour from a1'
    """

    closed: bool = False
    start: tuple[int, int] | None = None
    end: tuple[int, int] | None = None

    def __post_init__(self):
        object.__setattr__(self, "closed", check_flag("closed", self.closed))

    def describe(self, board: Board | None = None) -> str:
        """``"closed tour from a1"``-style description."""
        name = (lambda rc: board.name(*rc)) if board is not None else (lambda rc: f"({rc[0]},{rc[1]})")
        text = "closed tour" if self.closed else "open tour"
        if self.start is not None:
            text += f" from {name(self.start)}"
        if self.end is not None:
            text += f" to {name(self.end)}"
        return text


class Tour:
    """A path over squares of a board, in visiting order, that visits no square twice.

    Parameters
    ----------
    board : Board
    squares : array of int
        Square numbers (``0 .. board.n_squares - 1``) in visiting order;
        stored as a read-only int32 array.
    closed : bool
        Whether the last square is meant to connect back to the first.

    Raises
    ------
    InvalidTourError
        For an empty list, numbers that are not whole numbers or not squares
        of the board, or a square listed twice (the message names the two
        steps).
    InvalidParameterError
        For a ``closed`` that is not a bool.

    Notes
    -----
    Construction checks what makes a list of numbers a path of the board;
    the moves between squares, completeness and the closing move are
    :func:`validate`'s business.  Partial paths (a longest path, say) are
    ``Tour`` objects that do not cover the board.  The check is a pass
    over the squares and a bit per square of the board, which
    :func:`validate` then does not repeat.

    Examples
    --------
    >>> b = Board(3, 4)
    >>> Tour(b, [0, 6, 8]).names()
    ['a3', 'c2', 'a1']
    >>> Tour(b, [0, 6, 0])
    Traceback (most recent call last):
    ...
    ktsolve.errors.InvalidTourError: square a3 is visited twice, at steps 1 and 3
    >>> Tour(b, [0, 6], closed="no")
    Traceback (most recent call last):
    ...
    ktsolve.errors.InvalidParameterError: closed must be True or False, not 'no'
    """

    __slots__ = ("board", "squares", "closed", "_distinct", "__dict__")

    def __init__(self, board: Board, squares, closed: bool = False):
        if not isinstance(board, Board):
            raise InvalidBoardError(f"a tour belongs to a Board, not to {type(board).__name__}")
        closed = check_flag("closed", closed)
        sq = _square_numbers(board, squares)
        if sq.size == 0:
            raise InvalidTourError("the tour is empty")
        _check_distinct(board, sq)
        self._set(board, sq, closed, True)

    def _set(self, board: Board, sq: np.ndarray, closed: bool, distinct: bool) -> None:
        sq = np.ascontiguousarray(sq, dtype=np.int32).reshape(-1)
        sq.setflags(write=False)
        self.board = board
        self.squares = sq
        self.closed = closed
        self._distinct = distinct

    @classmethod
    def _unchecked(cls, board: Board, squares, closed: bool, *, distinct: bool = False) -> "Tour":
        """A Tour without the constructor's checks, for readers that hand it to :func:`validate`.

        ``squares`` must be whole numbers of squares of ``board``;
        ``distinct`` says that they are known to have no repeats.
        """
        t = cls.__new__(cls)
        t._set(board, np.asarray(squares), bool(closed), distinct)
        return t

    @classmethod
    def from_coords(cls, board: Board, coords, closed: bool = False) -> "Tour":
        """Tour from ``(row, col)`` pairs; raises for a square that is a hole or off the board."""
        return cls(board, coords_to_squares(board, coords), closed)

    @classmethod
    def from_names(cls, board: Board, names, closed: bool = False) -> "Tour":
        """Tour from square names such as ``["a1", "b3", ...]`` (or ``"7,0"`` pairs)."""
        return cls.from_coords(board, names_to_coords(board, names), closed)

    @cached_property
    def coords(self) -> np.ndarray:
        """``(N, 2)`` int array of ``(row, col)`` in visiting order."""
        return self.board.coords_of(self.squares)

    def names(self) -> list[str]:
        """Algebraic names in visiting order."""
        return self.board.names(self.coords)

    @property
    def start(self) -> tuple[int, int]:
        r, c = self.board.coords_of(self.squares[:1])[0]
        return int(r), int(c)

    @property
    def end(self) -> tuple[int, int]:
        r, c = self.board.coords_of(self.squares[-1:])[0]
        return int(r), int(c)

    @property
    def is_complete(self) -> bool:
        """True when the tour has as many squares as the board."""
        return len(self.squares) == self.board.n_squares

    def rotated(self, square: int) -> "Tour":
        """A closed tour listed from square number ``square``."""
        if not self.closed:
            raise ValueError("only a closed tour can be rotated")
        if not np.any(self.squares == square):
            raise ValueError(f"square {square} is not on the tour")
        return Tour._unchecked(self.board, list_cycle(self.squares, start=square), True, distinct=self._distinct)

    def reversed(self) -> "Tour":
        return Tour._unchecked(self.board, self.squares[::-1], self.closed, distinct=self._distinct)

    def board_matrix(self) -> np.ndarray:
        """``(rows, cols)`` int64 matrix of 1-based step numbers, 0 on holes (Euler's view)."""
        mat = np.zeros(self.board.size, dtype=np.int64)
        mat[self.board.flat_of(self.squares)] = np.arange(1, len(self.squares) + 1)
        return mat.reshape(self.board.rows, self.board.cols)

    def __len__(self) -> int:
        return int(self.squares.size)

    def __eq__(self, other) -> bool:
        if not isinstance(other, Tour):
            return NotImplemented
        return (
            self.closed == other.closed
            and self.board == other.board
            and np.array_equal(self.squares, other.squares)
        )

    __hash__ = None  # mutable-looking arrays: not hashable

    def __repr__(self) -> str:
        kind = "closed" if self.closed else "open"
        return f"Tour({kind}, {len(self)} squares of {self.board!r})"

    def _repr_svg_(self) -> str:
        """The path on its board, steps numbered on small boards, for notebooks (see :mod:`ktsolve.render`)."""
        from .render import picture_svg  # render imports this module; it loads with the first picture

        return picture_svg(self.board, self)


# ---------------------------------------------------------------------- construction checks
def _square_numbers(board: Board, squares) -> np.ndarray:
    """``squares`` as a 1-D integer array of square numbers of ``board``; refuses anything else."""
    arr = np.asarray(squares)
    if arr.ndim != 1:
        if arr.ndim == 2 and arr.shape[1] == 2:
            raise InvalidTourError("square numbers expected; use Tour.from_coords for (row, col) pairs")
        raise InvalidTourError(f"a tour must be a list of square numbers, got an array of shape {arr.shape}")
    if arr.size == 0:
        return arr.astype(np.int32)
    if arr.dtype == bool or not np.issubdtype(arr.dtype, np.integer):
        raise InvalidTourError(f"square numbers must be whole numbers, not {arr.dtype} values")
    _check_range(board, arr)
    return arr


def _check_range(board: Board, arr: np.ndarray) -> None:
    n = board.n_squares
    if arr.min() < 0 or arr.max() >= n:
        k = int(np.flatnonzero((arr < 0) | (arr >= n))[0])
        raise InvalidTourError(
            f"step {k + 1} names square number {int(arr[k])}, but the board has squares 0..{n - 1}"
        )


def _check_distinct(board: Board, sq: np.ndarray) -> None:
    seen = np.zeros(board.n_squares, dtype=bool)
    seen[sq] = True
    if int(np.count_nonzero(seen)) != sq.size:
        first, second = _first_repeat(sq)
        raise InvalidTourError(
            f"square {_name_of(board, int(sq[second]))} is visited twice, at steps {first + 1} and {second + 1}"
        )


def _name_of(board: Board, square: int) -> str:
    r, c = board.coords_of(np.array([square]))[0]
    return board.name(int(r), int(c))


def coords_to_squares(board: Board, coords) -> np.ndarray:
    """Square numbers of ``(row, col)`` pairs; raises naming the first step off the board or on a hole."""
    arr = np.asarray(coords)
    if arr.size and (arr.dtype == bool or not np.issubdtype(arr.dtype, np.integer)):
        raise InvalidTourError(f"(row, col) pairs must be whole numbers, not {arr.dtype} values")
    coords = arr.astype(np.int64).reshape(-1, 2)
    idx = board.indices_of(coords)
    bad = np.flatnonzero(idx < 0)
    if bad.size:
        k = int(bad[0])
        r, c = (int(v) for v in coords[k])
        where = board.name(r, c) if board.contains(r, c) else f"({r},{c})"
        what = "a hole" if board.contains(r, c) else f"outside the {board.rows}x{board.cols} board"
        raise InvalidTourError(f"step {k + 1}: square {where} is {what}")
    return idx


def names_to_coords(board: Board, names) -> np.ndarray:
    coords = []
    for k, name in enumerate(names):
        try:
            coords.append(board.parse_square(name, what=f"step {k + 1}", allow_hole=True))
        except InvalidSquareError as exc:
            raise InvalidTourError(str(exc)) from None
    return np.array(coords, dtype=np.int64).reshape(-1, 2)


# ---------------------------------------------------------------------- validation
def _move_codes(moves: np.ndarray, span: int) -> np.ndarray:
    return np.sort((moves[:, 0].astype(np.int64) + span) * (2 * span + 1) + (moves[:, 1] + span))


def _first_illegal_knight(board: Board, squares: np.ndarray) -> int:
    """:func:`_first_illegal` for the knight, on flat positions without coordinate pairs.

    With ``p = row * cols + col``, consecutive squares differ by
    ``dp = dr * cols + dc`` where ``dc`` is the difference of ``p % cols``;
    so ``|dp - dc| == |dr| * cols`` exactly, and a knight's move is
    ``|dc| == 1`` with ``|dr| == 2`` or ``|dc| == 2`` with ``|dr| == 1``.
    On a full board the square numbers are the flat positions (int32).
    """
    cols = board.cols
    n = squares.size
    for lo in range(0, n - 1, _CHUNK):
        hi = min(n, lo + _CHUNK + 1)
        flat = squares[lo:hi] if board.is_full else board.flat_of(squares[lo:hi])
        dc = np.diff(flat % cols)
        dr_cols = np.diff(flat)
        dr_cols -= dc
        np.abs(dr_cols, out=dr_cols)
        np.abs(dc, out=dc)
        legal = (dc == 1) & (dr_cols == 2 * cols)
        legal |= (dc == 2) & (dr_cols == cols)
        if not legal.all():
            return lo + int(np.argmin(legal)) + 1
    return -1


def _first_illegal(board: Board, squares: np.ndarray, moves: np.ndarray) -> int:
    """Index k >= 1 of the first step whose move from k-1 is illegal, or -1."""
    if {tuple(m) for m in moves.tolist()} == _KNIGHT_SET:
        return _first_illegal_knight(board, squares)
    span = int(np.abs(moves).max()) if moves.size else 0
    codes = _move_codes(moves, span)
    n = squares.size
    for lo in range(0, n - 1, _CHUNK):
        hi = min(n, lo + _CHUNK + 1)
        rc = board.coords_of(squares[lo:hi])
        d = np.diff(rc, axis=0)
        inside = (np.abs(d) <= span).all(axis=1)
        code = (d[:, 0] + span) * (2 * span + 1) + (d[:, 1] + span)
        pos = np.searchsorted(codes, code)
        pos = np.minimum(pos, codes.size - 1)
        legal = inside & (codes[pos] == code)
        bad = np.flatnonzero(~legal)
        if bad.size:
            return lo + int(bad[0]) + 1
    return -1


def _is_move(board: Board, a: int, b: int, moves: np.ndarray) -> bool:
    rc = board.coords_of(np.array([a, b]))
    d = rc[1] - rc[0]
    return bool(((moves[:, 0] == d[0]) & (moves[:, 1] == d[1])).any())


def _first_repeat(squares: np.ndarray) -> tuple[int, int]:
    """(first step, later step) of the first square met twice, scanning in order; 0-based."""
    order = np.argsort(squares, kind="stable")
    s = squares[order]
    dup = np.flatnonzero(s[1:] == s[:-1])
    # For each duplicate pair (order[j], order[j+1]) the later occurrence is order[j+1].
    later = order[dup + 1]
    k = int(np.argmin(later))
    second = int(later[k])
    first = int(np.flatnonzero(squares[:second] == squares[second])[0])
    return first, second


def _is_knight(moves: np.ndarray) -> bool:
    return moves.shape[0] == len(_KNIGHT_SET) and {tuple(m) for m in moves.tolist()} == _KNIGHT_SET


def _walk_numpy(board: Board, sq: np.ndarray, moves: np.ndarray, distinct: bool):
    """The first fault met walking ``sq`` (vectorised numpy), and the squares seen (None if not marked).

    A fault is ``("repeat", first step, step)`` or ``("illegal", step)``, 0-based.
    A Tour built by its constructor is known to have no repeats; others are scanned.
    """
    repeat_step = -1
    seen = None
    if not distinct:
        seen = np.zeros(board.n_squares, dtype=bool)
        seen[sq] = True
        if int(np.count_nonzero(seen)) != sq.size:
            first, repeat_step = _first_repeat(sq)
    illegal_step = _first_illegal(board, sq, moves)
    candidates = [s for s in (repeat_step, illegal_step) if s >= 0]
    if not candidates:
        return None, seen
    k = min(candidates)
    return (("repeat", first, k) if k == repeat_step else ("illegal", k)), seen


def _walk_kernel(board: Board, sq: np.ndarray):
    """:func:`_walk_numpy` for the knight in one numba pass (``ktsolve._tour_kernels``), same faults.

    No coordinates and no graph: a byte per square marks the squares seen
    and, on a board with holes, an int32 table gives their flat positions.
    """
    from ._tour_kernels import OK, OUT_OF_RANGE, REPEAT, square_flats, walk_tour

    flats = np.zeros(0, dtype=np.int32) if board.is_full else square_flats(board.hole_flat, board.size)
    seen = np.zeros(board.n_squares, dtype=np.uint8)
    code, k = walk_tour(sq, flats, board.n_squares, board.cols, seen)
    del flats
    if code == OK:
        return None, seen
    if code == OUT_OF_RANGE:
        return ("range", k), seen
    if code == REPEAT:
        return ("repeat", int(np.flatnonzero(sq[:k] == sq[k])[0]), k), seen
    return ("illegal", k), seen


def validate(
    board: Board,
    tour,
    *,
    closed: bool | None = None,
    start=None,
    end=None,
    complete: bool = True,
    moves=None,
) -> Tour:
    """Check a tour and return it as a :class:`Tour`; raise on the first fault.

    Parameters
    ----------
    board : Board
    tour : Tour, (N,) array of square numbers, or (N, 2) array of (row, col)
    closed : bool, optional
        Require a closed tour; ``None`` takes ``tour.closed`` (False for arrays).
    start, end : square, optional
        Required first and last square, as ``(row, col)`` or a name like ``"a1"``.
    complete : bool
        Require every square; ``False`` checks a path (longest-path answers).
    moves : (k, 2) array, optional
        The leaper's moves; the knight by default.

    Returns
    -------
    Tour

    Raises
    ------
    InvalidTourError
        Naming the first fault in this order: start square; then walking the
        tour, a step off the board, on a hole, onto a square already visited,
        or by an illegal move; then a square never visited; the end square;
        the closing move.

    Examples
    --------
    >>> b = Board(3, 4)
    >>> validate(b, [(0, 0), (1, 2), (2, 0)], complete=False).names()
    ['a3', 'c2', 'a1']
    >>> validate(b, [(0, 0), (1, 1)], complete=False)
    Traceback (most recent call last):
    ...
    ktsolve.errors.InvalidTourError: illegal move at step 2: a3 to b2 is not a legal move
    """
    if closed is not None:
        closed = check_flag("closed", closed)
    complete = check_flag("complete", complete)
    mv = KNIGHT_MOVES if moves is None else np.asarray(moves, dtype=np.int64).reshape(-1, 2)
    if isinstance(tour, Tour):
        if tour.board != board:
            raise InvalidTourError(
                f"the tour belongs to a {tour.board.rows}x{tour.board.cols} board with "
                f"{tour.board.n_holes} holes, not to this one"
            )
        t = tour
    else:
        arr = np.asarray(tour)
        if arr.size == 0:
            raise InvalidTourError("the tour is empty")
        if arr.dtype == bool or not np.issubdtype(arr.dtype, np.integer):
            raise InvalidTourError("a tour must be whole square numbers or (row, col) pairs")
        if arr.ndim == 2 and arr.shape[1] == 2:
            t = Tour._unchecked(board, coords_to_squares(board, arr), bool(closed))
        elif arr.ndim == 1:
            _check_range(board, arr)
            t = Tour._unchecked(board, arr, bool(closed))
        else:
            raise InvalidTourError(f"a tour must be a list of squares, got an array of shape {arr.shape}")
    if closed is None:
        closed = t.closed
    sq = t.squares
    n = sq.size
    if n == 0:
        raise InvalidTourError("the tour is empty")

    def nm(i: int) -> str:
        return _name_of(board, i)

    if start is not None:
        s = board.index(*board.parse_square(start, what="start"))
        if int(sq[0]) != s:
            raise InvalidTourError(f"the tour starts on {nm(int(sq[0]))}, not on the required start {nm(s)}")

    # Faults met while walking: a repeat or an illegal move, whichever comes first.
    if n >= _KERNEL_MIN and _is_knight(mv):
        fault, seen = _walk_kernel(board, sq)
    else:
        fault, seen = _walk_numpy(board, sq, mv, t._distinct)
    if fault is not None:
        kind, k = fault[0], fault[-1]
        if kind == "range":
            raise InvalidTourError(
                f"step {k + 1} names square number {int(sq[k])}, but the board has squares 0..{board.n_squares - 1}"
            )
        if kind == "repeat":
            raise InvalidTourError(
                f"square {nm(int(sq[k]))} is visited twice, at steps {fault[1] + 1} and {k + 1}"
            )
        raise InvalidTourError(
            f"illegal move at step {k + 1}: {nm(int(sq[k - 1]))} to {nm(int(sq[k]))} is not a legal move"
        )
    if complete and n != board.n_squares:
        if seen is None:
            seen = np.zeros(board.n_squares, dtype=bool)
            seen[sq] = True
        missing = int(np.argmin(seen))
        raise InvalidTourError(
            f"square {nm(missing)} is never visited (the tour has {n} of "
            f"{board.n_squares} squares)"
        )
    if end is not None:
        e = board.index(*board.parse_square(end, what="end"))
        if int(sq[-1]) != e:
            raise InvalidTourError(f"the tour ends on {nm(int(sq[-1]))}, not on the required end {nm(e)}")
    if closed:
        if n < 3:
            raise InvalidTourError(f"a closed tour needs at least 3 squares, this one has {n}")
        if not _is_move(board, int(sq[-1]), int(sq[0]), mv):
            raise InvalidTourError(
                f"the tour is not closed: {nm(int(sq[-1]))} back to {nm(int(sq[0]))} is not a legal move"
            )
    if t.closed != closed or not t._distinct:
        t = Tour._unchecked(board, sq, closed, distinct=True)
    return t


def validate_many(board: Board, tours, *, closed: bool = False, start=None, end=None, moves=None) -> None:
    """Check many complete tours at once; raise :class:`InvalidTourError` naming the first fault.

    Each row of ``tours`` (a ``(k, N)`` array of square numbers) must be a
    permutation of the board's squares with a move of ``moves`` between
    consecutive squares (and from the last back to the first when
    ``closed``), starting and ending where asked.  The rows are checked
    together, vectorised, a block at a time; the first faulty row is handed
    to :func:`validate`, whose message names its first fault.

    Parameters
    ----------
    board : Board
    tours : (k, N) array of int
    closed : bool
    start, end : square, optional
    moves : (m, 2) array, optional
        The leaper's moves (``graph.moves``); the knight by default.

    Examples
    --------
    >>> b = Board(3, 4)
    >>> t = validate(b, [(0, 0), (1, 2), (2, 0), (0, 1), (1, 3), (2, 1), (0, 2), (2, 3), (1, 1), (0, 3), (2, 2),
    ...                  (1, 0)]).squares
    >>> validate_many(b, [t, t])
    >>> validate_many(b, [t, t[::-1]], start="a3")
    Traceback (most recent call last):
    ...
    ktsolve.errors.InvalidTourError: tour 2: the tour starts on a2, not on the required start a3
    """
    closed = check_flag("closed", closed)
    tours = np.asarray(tours)
    n = board.n_squares
    if tours.size == 0:
        return
    if tours.ndim != 2 or tours.shape[1] != n or not np.issubdtype(tours.dtype, np.integer):
        raise InvalidTourError(f"expected tours of {n} square numbers as rows, got an array of shape {tours.shape}")
    mv = KNIGHT_MOVES if moves is None else np.asarray(moves, dtype=np.int64).reshape(-1, 2)
    span = int(np.abs(mv).max()) if mv.size else 0
    codes = _move_codes(mv, span)
    s = None if start is None else board.index(*board.parse_square(start, what="start"))
    e = None if end is None else board.index(*board.parse_square(end, what="end"))

    def legal(d: np.ndarray) -> np.ndarray:
        code = (d[..., 0] + span) * (2 * span + 1) + (d[..., 1] + span)
        pos = np.minimum(np.searchsorted(codes, code), codes.size - 1)
        return (np.abs(d) <= span).all(axis=-1) & (codes[pos] == code)

    step = max(1, 1_000_000 // n)
    ident = np.arange(n)
    for lo in range(0, tours.shape[0], step):
        block = tours[lo : lo + step].astype(np.int64)
        ok = (np.sort(block, axis=1) == ident).all(axis=1)
        rc = board.coords_of(np.clip(block, 0, n - 1).ravel()).reshape(block.shape[0], n, 2).astype(np.int64)
        if n > 1:
            ok &= legal(np.diff(rc, axis=1)).all(axis=1)
        if closed:
            ok &= legal(rc[:, 0] - rc[:, -1])
        if s is not None:
            ok &= block[:, 0] == s
        if e is not None:
            ok &= block[:, -1] == e
        if not ok.all():
            k = int(np.argmin(ok))
            try:
                validate(board, block[k], closed=closed, start=start, end=end, moves=mv)
            except InvalidTourError as exc:
                raise InvalidTourError(f"tour {lo + k + 1}: {exc}") from None
            raise InvalidTourError(f"tour {lo + k + 1} is not a valid tour")
