"""Boards: an m x n rectangle of squares with some squares removed (holes).

Coordinates are ``(row, col)``, 0-based, row 0 the top row, as numpy prints a
matrix.  People use algebraic names: file letters from the left (``a`` ...
``z``, ``aa``, ``ab`` ...), rank numbers from the bottom, so ``a1`` is the
bottom-left square.  Every input that names a square accepts both ``a1`` and
``7,0``.

The squares that are not holes are numbered ``0 .. n_squares - 1`` in
row-major order; that number is what tours, graphs and kernels store.  The
mapping between numbers and coordinates needs only the sorted hole positions,
so a board of 10^8 squares costs no memory per square until something asks
for :attr:`Board.mask`.

Board file format (:meth:`Board.parse_file`): one line per row, ``.`` (or
``o``) a square, ``#`` (or ``x``) a hole, ``S`` and ``E`` the start and end
squares of puzzles; spaces inside a line, blank lines and everything after
``;`` are ignored.  A file that starts with numpy's ``.npy`` magic is a
*mask*: a 2-D bool or 0/1 integer array, true (1) on the holes
(:meth:`Board.from_mask`), the form huge boards are kept in.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cached_property

import numpy as np

from ._board_base import MAX_BOARD_FILE_BYTES, MAX_SQUARES, BoardFile, check_size
from ._reading import shown as _shown
from .errors import InvalidBoardError, InvalidSquareError

# BoardFile is defined below this module (the file readers share it without importing board.py); its
# public home is here, so that is the name it shows and pickles by.
BoardFile.__module__ = __name__

__all__ = [
    "Board",
    "BoardFile",
    "BoardFileWarning",
    "MAX_SQUARES",
    "MAX_BOARD_FILE_BYTES",
    "file_letters",
    "file_index",
]

# ASCII digits only: int() reads fullwidth digits too, and a size must be what it looks like
_SIZE_RE = re.compile(r"^\s*([+-]?[0-9]{1,12})\s*[xX\u00d7*]\s*([+-]?[0-9]{1,12})\s*$")
_ALG_RE = re.compile(r"^([a-zA-Z]+)(\d+)$")
_RC_RE = re.compile(r"^\(?\s*([+-]?\d+)\s*,\s*([+-]?\d+)\s*\)?$")
#: Longest square name or row,col pair read (``zzzzzz999999999``, ``999999999,999999999``);
#: anything longer is no square of any board, and int() of it could take thousands of digits.
_NAME_CHARS = 24


class BoardFileWarning(UserWarning):
    """A board file that reads, but perhaps not as its author meant (see :meth:`Board.parse_file`)."""


def _warn(notes) -> None:
    import warnings

    for note in notes:
        warnings.warn(BoardFileWarning(note), stacklevel=3)


def file_letters(col: int) -> str:
    """Letters of the file of column ``col``: 0 -> ``a``, 25 -> ``z``, 26 -> ``aa``.

    Examples
    --------
    >>> [file_letters(c) for c in (0, 7, 25, 26, 27, 701, 702)]
    ['a', 'h', 'z', 'aa', 'ab', 'zz', 'aaa']
    """
    if col < 0:
        raise ValueError(f"column {col} is negative")
    letters = []
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        letters.append(chr(ord("a") + rem))
    return "".join(reversed(letters))


def file_index(letters: str) -> int:
    """Column of a file name, the inverse of :func:`file_letters`.

    Examples
    --------
    >>> [file_index(s) for s in ("a", "h", "z", "aa", "zz", "aaa")]
    [0, 7, 25, 26, 701, 702]
    """
    col = 0
    for ch in letters.lower():
        if not "a" <= ch <= "z":
            raise ValueError(f"{letters!r} is not a file name")
        col = col * 26 + (ord(ch) - ord("a") + 1)
    return col - 1


class Board:
    """A ``rows x cols`` board with holes.

    Parameters
    ----------
    rows, cols : int
        Size of the rectangle, both at least 1.
    holes : iterable of squares, or str, optional
        Removed squares, each a ``(row, col)`` pair (0-based, row 0 at the
        top) or a name such as ``"a1"`` or ``"7,0"``; a string lists
        several (``"a1,h8"``, as :meth:`parse_squares` reads it).  None or
        an empty list: no holes.  A ``(k, 2)`` integer array is taken as
        it is.

    Raises
    ------
    InvalidBoardError
        For a size that is not positive, a board above :data:`MAX_SQUARES`,
        a hole outside the rectangle, a hole given twice, or a board whose
        every square is a hole.

    Examples
    --------
    >>> b = Board(3, 4, holes=[(0, 0)])
    >>> b.n_squares, b.name(0, 0), b.name(2, 0)
    (11, 'a3', 'a1')
    >>> print(b)
    #...
    ....
    ....
    >>> Board.from_spec("8x8", holes="a8,h1") == Board(8, 8, holes=[(0, 0), (7, 7)])
    True
    >>> Board(8, 8, holes=["a8", (7, 7)]) == Board(8, 8, holes="a8,h1")
    True
    >>> Board(8, 8, holes="a1,a1")
    Traceback (most recent call last):
    ...
    ktsolve.errors.InvalidBoardError: hole a1 is given twice
    """

    def __init__(self, rows: int, cols: int, holes: Iterable | str | None = ()):
        self.rows, self.cols = check_size(rows, cols)
        self._hole_flat = np.zeros(0, dtype=np.int64)  # the rectangle, for parsing square names
        arr = self._hole_array(holes)
        outside = (arr[:, 0] < 0) | (arr[:, 0] >= self.rows) | (arr[:, 1] < 0) | (arr[:, 1] >= self.cols)
        if outside.any():
            r, c = (int(v) for v in arr[np.argmax(outside)])
            raise InvalidBoardError(
                f"hole ({r},{c}) is outside the {self.rows}x{self.cols} board"
            )
        given = arr[:, 0] * self.cols + arr[:, 1]
        flat = np.unique(given)
        if flat.size != given.size:
            order = np.argsort(given, kind="stable")
            s = given[order]
            k = int(np.flatnonzero(s[1:] == s[:-1])[0])
            r, c = divmod(int(s[k]), self.cols)
            raise InvalidBoardError(f"hole {self.name(r, c)} is given twice")
        if flat.size >= self.rows * self.cols:
            raise InvalidBoardError(
                f"every square of the {self.rows}x{self.cols} board is a hole"
            )
        flat.setflags(write=False)
        self._hole_flat = flat

    def _hole_array(self, holes) -> np.ndarray:
        """``(k, 2)`` int64 array of the holes given as pairs, names, a string, or an array."""
        if holes is None:
            return np.zeros((0, 2), dtype=np.int64)
        if isinstance(holes, str):
            return np.array(self.parse_squares(holes, what="hole", allow_holes=True), dtype=np.int64).reshape(-1, 2)
        if isinstance(holes, np.ndarray):
            arr = holes
        else:
            try:
                items = list(holes)
            except TypeError:
                raise InvalidBoardError(f"holes must be a list of squares, not {type(holes).__name__}") from None
            if any(isinstance(h, str) for h in items):
                items = [self.parse_square(h, what="hole", allow_hole=True) if isinstance(h, str) else h
                         for h in items]
            try:
                arr = np.asarray(items)
            except ValueError:  # ragged: pairs mixed with other shapes
                raise InvalidBoardError("holes must be (row, col) pairs or square names") from None
        if arr.size == 0:
            return np.zeros((0, 2), dtype=np.int64)
        if arr.ndim != 2 or arr.shape[1] != 2:
            raise InvalidBoardError("holes must be (row, col) pairs or square names")
        if arr.dtype == bool or not np.issubdtype(arr.dtype, np.integer):
            raise InvalidBoardError("holes must be (row, col) pairs of whole numbers")
        return arr.astype(np.int64)

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_spec(cls, spec: str, holes: str | Iterable | None = None) -> "Board":
        """Board from a size such as ``"8x8"`` or ``"9x12"`` (rows x cols).

        ``holes`` is a string of square names (``"a1,h8"`` or ``"7,0;0,7"``)
        or an iterable of ``(row, col)`` pairs.
        """
        if not isinstance(spec, str):
            raise InvalidBoardError(f"board size {spec!r} is not a string like 8x8")
        m = _SIZE_RE.match(spec)
        if not m:
            raise InvalidBoardError(
                f"board size {_shown(spec.strip())} is not of the form ROWSxCOLS, like 8x8 (ASCII digits)"
            )
        rows, cols = check_size(int(m.group(1)), int(m.group(2)), spec.strip())
        board = cls(rows, cols)
        if holes is None or (isinstance(holes, str) and not holes.strip()):
            return board
        if isinstance(holes, str):
            holes = board.parse_squares(holes, what="hole", allow_holes=True)
        return cls(rows, cols, holes)

    @classmethod
    def from_mask(cls, holes) -> "Board":
        """Board from a 2-D mask: an array of bools or of 0 and 1, true (1) on the holes.

        Note the sense: this takes the holes, while :attr:`mask` gives the
        squares (``Board.from_mask(~board.mask) == board``).  The mask is
        read with numpy alone, so a 10,000 x 10,000 board costs its sorted
        hole positions (8 bytes a hole) and no Python object per square.

        Raises
        ------
        InvalidBoardError
            For an array that is not 2-D, holds other values than 0 and 1
            (or is not bool or integer), a board above :data:`MAX_SQUARES`,
            or a mask whose every cell is a hole.

        Examples
        --------
        >>> m = np.zeros((3, 4), dtype=bool)
        >>> m[0, 0] = True
        >>> b = Board.from_mask(m)
        >>> b == Board(3, 4, holes=[(0, 0)]), Board.from_mask(~b.mask) == b
        (True, True)
        >>> Board.from_mask(np.array([[0, 2]]))
        Traceback (most recent call last):
        ...
        ktsolve.errors.InvalidBoardError: a board mask holds only 0 and 1 (or bools), not 2
        """
        arr = np.asarray(holes)
        if arr.ndim != 2:
            raise InvalidBoardError(f"a board mask is a 2-D array, not one of shape {arr.shape}")
        rows, cols = check_size(int(arr.shape[0]), int(arr.shape[1]))
        if arr.dtype != bool:
            if not np.issubdtype(arr.dtype, np.integer):
                raise InvalidBoardError(f"a board mask holds bools or 0 and 1, not {arr.dtype} values")
            if arr.size and (arr.min() < 0 or arr.max() > 1):  # no temporary of the array's size
                bad = (arr != 0) & (arr != 1)
                value = arr.ravel()[np.argmax(bad.ravel())]
                raise InvalidBoardError(f"a board mask holds only 0 and 1 (or bools), not {value}")
        flat = np.flatnonzero(arr)  # sorted int64 positions, row-major: the holes as Board keeps them
        if flat.size >= rows * cols:
            raise InvalidBoardError(f"every square of the {rows}x{cols} board is a hole")
        board = cls.__new__(cls)
        board.rows, board.cols = rows, cols
        flat.setflags(write=False)
        board._hole_flat = flat
        return board

    @classmethod
    def from_image(cls, picture, *, threshold: float | None = None, dark: bool = False, block: int = 1,
                   scale: int = 1, largest: bool = True, prune: bool = True,
                   balance: str | None = "open") -> "Board":
        """Board from a picture's region: a PNG or JPEG file or a 2-D array of grey levels (or bools).

        The keywords mean what they mean in :func:`ktsolve.images.from_picture`,
        which returns the region with the record of what its cleaning removed;
        this returns only the board, made by the same steps on arrays
        (:func:`ktsolve._picture.picture_squares`,
        :func:`ktsolve._clean_squares.clean_squares`), which stand below the
        Board.  Reading files needs Pillow (``pip install 'ktsolve[image]'``).

        Examples
        --------
        >>> grey = np.zeros((12, 12), dtype=np.uint8)
        >>> grey[1:11, 2:10] = 200
        >>> Board.from_image(grey, threshold=128, balance="closed").n_squares
        80
        """
        from ._clean_squares import clean_squares
        from ._picture import picture_squares

        squares, _ = picture_squares(picture, threshold=threshold, dark=dark, block=block, scale=scale)
        return cls.from_mask(~clean_squares(squares, largest=largest, prune=prune, balance=balance)[0])

    @classmethod
    def read_npy(cls, source, shown: str = "the board file") -> "Board":
        """Board from a ``.npy`` mask (a path or a binary file object); see :meth:`from_mask`.

        The header is read first and checked against :data:`MAX_SQUARES`,
        so a file that claims an absurd size is refused before any memory is
        taken for it.
        """
        from ._board_files import read_npy_mask

        fh = open(source, "rb") if isinstance(source, (str, bytes)) or hasattr(source, "__fspath__") else source
        try:
            arr = read_npy_mask(fh, shown)
        finally:
            if fh is not source:
                fh.close()
        return cls.from_mask(arr)

    @classmethod
    def parse(cls, text: str) -> "Board":
        """Board from its text form (see :meth:`parse_file` for the format); ``S`` and ``E`` are squares.

        Warns with :class:`BoardFileWarning` for each note :meth:`parse_file` makes.

        Examples
        --------
        >>> Board.parse("..#\\n...  ; a comment\\n").holes
        ((0, 2),)
        """
        parsed = cls.parse_file(text)
        _warn(parsed.notes)
        return parsed.board

    @classmethod
    def parse_file(cls, text: str) -> "BoardFile":
        """Board, start and end squares, and notes, from the text of a board file.

        One line per row of the board.  The characters:

        ====================  ==========================================
        ``.`` ``o`` ``O``     a square
        ``#`` ``x`` ``X``     a hole
        ``S`` ``s``           the start square (a square), at most one
        ``E`` ``e``           the end square (a square), at most one
        ``;``                 a comment, to the end of the line
        ====================  ==========================================

        Spaces and tabs inside a line, and blank lines, are ignored.
        Anything else (digits, other letters) is refused by line and
        column.  ``notes`` holds one sentence per thing worth a warning: a
        file that mixes conventions (``#`` and ``x`` for holes, ``.`` and
        ``o`` for squares), ``x`` for holes beside an ``s``/``S`` start
        (Rosetta Code's puzzles write ``x`` for squares and ``.`` for
        holes: pasted here they give the complement board), and gaps of
        spaces inside a row (spaces are not holes here).

        Examples
        --------
        >>> f = Board.parse_file("S..\\n.#.\\n..E")
        >>> f.board.holes, f.start, f.end, f.notes
        (((1, 1),), (0, 0), (2, 2), ())
        """
        from ._board_files import parse_text

        return parse_text(cls, text)

    @classmethod
    def read(cls, path) -> "Board":
        """Board from a board file; ``"-"`` reads standard input (see :meth:`read_file`)."""
        parsed = cls.read_file(path)
        _warn(parsed.notes)
        return parsed.board

    @classmethod
    def read_file(cls, path) -> "BoardFile":
        """:meth:`parse_file` of a board file, or a ``.npy`` mask; ``"-"`` reads standard input.

        The file is read once (a pipe works), gunzipped when it starts like
        gzip, and at most :data:`MAX_BOARD_FILE_BYTES` of it (after
        inflation) when it is text: a larger file, a device or a bomb is
        refused by :class:`InvalidBoardError` without reading further.  A
        ``.npy`` mask (see :meth:`read_npy`) has its header checked before
        its data is read, and marks no start or end.
        """
        from ._board_files import read_path

        return read_path(cls, path)


    def with_holes(self, holes: Iterable) -> "Board":
        """A new board with ``holes`` removed as well; a hole it already has is refused by name.

        Examples
        --------
        >>> Board(3, 3, holes=[(1, 1)]).with_holes([(0, 0)]).holes
        ((0, 0), (1, 1))
        >>> Board(3, 3, holes=[(1, 1)]).with_holes(["b2"])
        Traceback (most recent call last):
        ...
        ktsolve.errors.InvalidBoardError: hole b2 is already a hole of the board
        """
        extra = Board(self.rows, self.cols, holes) if not isinstance(holes, Board) else holes
        for r, c in extra.holes:
            if self.is_hole(r, c):
                raise InvalidBoardError(f"hole {self.name(r, c)} is already a hole of the board")
        return Board(self.rows, self.cols, list(self.holes) + list(extra.holes))

    # ------------------------------------------------------------------ basic facts
    @property
    def shape(self) -> tuple[int, int]:
        return (self.rows, self.cols)

    @property
    def size(self) -> int:
        """Number of cells of the rectangle, holes included."""
        return self.rows * self.cols

    @property
    def n_holes(self) -> int:
        return int(self._hole_flat.size)

    @property
    def n_squares(self) -> int:
        """Number of squares that are not holes."""
        return self.size - self.n_holes

    @property
    def is_full(self) -> bool:
        """True when the board has no holes."""
        return self._hole_flat.size == 0

    @property
    def hole_flat(self) -> np.ndarray:
        """Sorted flat positions ``row * cols + col`` of the holes (read-only)."""
        return self._hole_flat

    @cached_property
    def holes(self) -> tuple[tuple[int, int], ...]:
        """The holes as ``(row, col)`` pairs in row-major order."""
        r, c = np.divmod(self._hole_flat, self.cols)
        return tuple(zip(r.tolist(), c.tolist()))

    @cached_property
    def mask(self) -> np.ndarray:
        """Boolean ``(rows, cols)`` array, True on squares and False on holes."""
        m = np.ones(self.size, dtype=bool)
        m[self._hole_flat] = False
        m = m.reshape(self.rows, self.cols)
        m.setflags(write=False)
        return m

    @cached_property
    def _gaps(self) -> np.ndarray:
        # gaps[j] = number of squares before hole j; nondecreasing.
        return self._hole_flat - np.arange(self._hole_flat.size, dtype=np.int64)

    def contains(self, row: int, col: int) -> bool:
        """True when ``(row, col)`` lies inside the rectangle."""
        return 0 <= row < self.rows and 0 <= col < self.cols

    def is_hole(self, row: int, col: int) -> bool:
        flat = row * self.cols + col
        i = np.searchsorted(self._hole_flat, flat)
        return bool(i < self._hole_flat.size and self._hole_flat[i] == flat)

    # ------------------------------------------------------------------ numbering
    def index(self, row: int, col: int) -> int:
        """Number of square ``(row, col)``; raises for a hole or a square off the board."""
        if not self.contains(row, col):
            raise InvalidSquareError(f"square ({row},{col}) is outside the {self.rows}x{self.cols} board")
        if self.is_hole(row, col):
            raise InvalidSquareError(f"square {self.name(row, col)} is a hole")
        flat = row * self.cols + col
        return int(flat - np.searchsorted(self._hole_flat, flat))

    def indices_of(self, coords) -> np.ndarray:
        """Square numbers of an ``(k, 2)`` array of coordinates; -1 for holes or squares off the board."""
        coords = np.asarray(coords, dtype=np.int64).reshape(-1, 2)
        r, c = coords[:, 0], coords[:, 1]
        inside = (r >= 0) & (r < self.rows) & (c >= 0) & (c < self.cols)
        flat = np.where(inside, r * self.cols + c, 0)
        before = np.searchsorted(self._hole_flat, flat)
        hole = np.zeros(flat.shape, dtype=bool)
        if self._hole_flat.size:
            k = np.minimum(before, self._hole_flat.size - 1)
            hole = self._hole_flat[k] == flat
        out = flat - before
        out[~inside | hole] = -1
        return out

    def flat_of(self, indices) -> np.ndarray:
        """Flat positions ``row * cols + col`` of square numbers (int64)."""
        idx = np.asarray(indices, dtype=np.int64)
        if self._hole_flat.size == 0:
            return idx.copy()
        return idx + np.searchsorted(self._gaps, idx, side="right")

    def coords_of(self, indices) -> np.ndarray:
        """``(k, 2)`` int64 array of ``(row, col)`` for square numbers."""
        flat = self.flat_of(indices)
        out = np.empty(flat.shape + (2,), dtype=np.int64)
        np.divmod(flat, self.cols, out=(out[..., 0], out[..., 1]))
        return out

    # ------------------------------------------------------------------ colours
    def colour(self, row: int, col: int) -> int:
        """Parity ``(row + col) % 2``; a knight's move always changes it."""
        return (row + col) % 2

    def colour_name(self, row: int, col: int) -> str:
        """``"dark"`` for squares of the colour of a1 (dark, as in chess), else ``"light"``."""
        return "dark" if (row + col - (self.rows - 1)) % 2 == 0 else "light"

    def colour_counts(self) -> tuple[int, int]:
        """Number of squares of parity 0 and of parity 1 (holes excluded)."""
        return self._colour_counts

    @cached_property
    def _colour_counts(self) -> tuple[int, int]:
        # counted once: a pass over the holes costs seconds on a board of 10^8 cells, and the plan, both
        # lanes of a race and the steps ask for it again and again
        # A rectangle has ceil(rows * cols / 2) cells of parity 0 (corner (0, 0) is one).
        even = (self.size + 1) // 2
        odd_holes = 0
        for i in range(0, self.n_holes, 1 << 20):  # a million holes at a time: small temporaries
            f = self._hole_flat[i:i + (1 << 20)]
            r = f // self.cols
            odd_holes += int(((r + f - r * self.cols) & 1).sum())
        even_holes = self.n_holes - odd_holes
        return even - even_holes, self.size - even - odd_holes

    # ------------------------------------------------------------------ symmetries
    def symmetries(self, *, squares: bool = False) -> list[np.ndarray]:
        """The board's symmetries: the rotations and reflections of the rectangle that map holes onto holes.

        Each is a permutation, the identity first: of the flat positions
        ``row * cols + col``, or with ``squares=True`` of the square numbers
        (holes left out).  A symmetry maps the knight graph onto itself, so a
        tour from ``s`` exists exactly when one from its image does.

        Examples
        --------
        >>> len(Board(8, 8).symmetries()), len(Board(3, 7).symmetries())
        (8, 4)
        >>> len(Board(8, 8, holes=[(0, 0)]).symmetries())  # a8 stays on its diagonal
        2
        >>> Board(3, 4, holes=[(0, 0), (2, 3)]).symmetries(squares=True)[1].tolist()
        [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]
        """
        R, C = self.rows, self.cols
        r, c = np.divmod(np.arange(R * C, dtype=np.int64), C)
        maps = [(r, c), (R - 1 - r, c), (r, C - 1 - c), (R - 1 - r, C - 1 - c)]
        if R == C:
            maps += [(c, r), (C - 1 - c, R - 1 - r), (c, R - 1 - r), (C - 1 - c, r)]
        mask = self.mask.ravel()
        index = None
        out = []
        for rr, cc in maps:
            image = rr * C + cc
            if not np.array_equal(mask[image], mask):
                continue
            if squares:
                if index is None:
                    index = np.full(R * C, -1, dtype=np.int64)
                    index[mask] = np.arange(self.n_squares)
                out.append(index[image[mask]].astype(np.int32))
            else:
                out.append(image)
        return out

    # ------------------------------------------------------------------ names
    def name(self, row: int, col: int) -> str:
        """Algebraic name: ``name(rows - 1, 0) == "a1"``."""
        return f"{file_letters(col)}{self.rows - row}"

    def names(self, coords) -> list[str]:
        return [self.name(int(r), int(c)) for r, c in np.asarray(coords).reshape(-1, 2)]

    def parse_square(self, text, *, what: str = "square", allow_hole: bool = False) -> tuple[int, int]:
        """``(row, col)`` of a square given as ``"a1"``, ``"7,0"`` or a pair.

        Raises :class:`InvalidSquareError` for a malformed name, a square off
        the board, or (unless ``allow_hole``) a hole.
        """
        if isinstance(text, (tuple, list, np.ndarray)) and len(text) == 2:
            try:
                row, col = (int(v) for v in text)
            except (TypeError, ValueError):
                raise InvalidSquareError(f"{what} {_shown(repr(text))[1:-1]} is not a (row, col) pair") from None
            if not (-(2**62) < row < 2**62 and -(2**62) < col < 2**62):  # no board; str() of it may not even work
                raise InvalidSquareError(f"{what} is outside the {self.rows}x{self.cols} board")
            shown = f"({row},{col})"
        elif isinstance(text, str):
            s = text.strip()
            m = _ALG_RE.match(s)
            if m and len(s) <= _NAME_CHARS:
                col = file_index(m.group(1))
                row = self.rows - int(m.group(2))
                shown = s
            else:
                m = _RC_RE.match(s)
                if not m or len(s) > _NAME_CHARS:
                    # a name from a file may be a megabyte long: the message quotes its start only
                    raise InvalidSquareError(
                        f"{what} {_shown(s)} is not a square name like a1 or a row,col pair like 7,0"
                    )
                row, col = int(m.group(1)), int(m.group(2))
                shown = f"{row},{col}"
        else:
            raise InvalidSquareError(f"{what} {_shown(repr(text))[1:-1]} is not a square name like a1 or 7,0")
        if not self.contains(row, col):
            raise InvalidSquareError(f"{what} {shown} is outside the {self.rows}x{self.cols} board")
        if not allow_hole and self.is_hole(row, col):
            raise InvalidSquareError(f"{what} {shown} is on a hole")
        return row, col

    def parse_squares(self, text: str, *, what: str = "square", allow_holes: bool = False) -> list[tuple[int, int]]:
        """Squares from ``"a1,h8"``, ``"a1 h8"`` or ``"7,0;0,7"``.

        Parts separated by ``;`` may each be one ``row,col`` pair or a list of
        algebraic names separated by commas or spaces.
        """
        out: list[tuple[int, int]] = []
        for part in text.split(";"):
            part = part.strip()
            if not part:
                continue
            if _RC_RE.match(part):
                out.append(self.parse_square(part, what=what, allow_hole=allow_holes))
                continue
            for token in re.split(r"[,\s]+", part):
                if token:
                    out.append(self.parse_square(token, what=what, allow_hole=allow_holes))
        return out

    # ------------------------------------------------------------------ text form
    def to_text(self) -> str:
        """Board file text: ``.`` squares, ``#`` holes, one line per row."""
        rows = np.where(self.mask, ".", "#")
        return "\n".join("".join(line) for line in rows)

    def spec(self) -> str:
        """``"8x8"``-style size, without holes."""
        return f"{self.rows}x{self.cols}"

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        if self.is_full:
            return f"Board({self.rows}, {self.cols})"
        shown = list(self.holes[:8])
        more = ", ..." if self.n_holes > 8 else ""
        return f"Board({self.rows}, {self.cols}, holes={shown}{more})"

    def __eq__(self, other) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (
            self.rows == other.rows
            and self.cols == other.cols
            and np.array_equal(self._hole_flat, other._hole_flat)
        )

    def __hash__(self) -> int:
        return hash((self.rows, self.cols, self._hole_flat.tobytes()))

    def _repr_svg_(self) -> str:
        """The board with its holes, for notebooks (see :func:`ktsolve.render.picture_svg`)."""
        from .render import picture_svg  # render imports this module; it loads with the first picture

        return picture_svg(self)
