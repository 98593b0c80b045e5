"""What :mod:`ktsolve.board` shares with the modules that build boards from files, pictures and shapes.

The size limits, the size check and the record of a board file live here,
below :mod:`ktsolve.board`, so that the readers of board files
(:mod:`ktsolve._board_files`), of pictures (:mod:`ktsolve.images`,
:mod:`ktsolve.cleaning`) and the shapes (:mod:`ktsolve.shapes`) check a
size without importing the board module, whose doors (``Board.read_file``,
``Board.from_image``) import them.  :mod:`ktsolve.board` re-exports the
public names.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._reading import shown as _shown
from .errors import InvalidBoardError

__all__ = ["MAX_SQUARES", "MAX_BOARD_FILE_BYTES", "BoardFile", "check_size"]

#: Largest board (rows * cols) ktsolve accepts.  A tour of this many squares
#: is a 1 GiB int32 array; square numbers must also fit in int32.
MAX_SQUARES = 2**28

#: Most bytes a text board file may hold (64 MiB, after gzip inflation): an 8000 x 8000 board, one
#: character a cell.  Larger boards come as sizes with --holes, or as .npy masks.
MAX_BOARD_FILE_BYTES = 64 << 20


class BoardFile(NamedTuple):
    """What a board file says: the ``board``, its ``start`` and ``end`` squares (``(row, col)`` or None),
    and ``notes``, one sentence per thing worth a warning."""

    board: "Board"
    start: tuple[int, int] | None
    end: tuple[int, int] | None
    notes: tuple[str, ...]


def check_size(rows, cols, text: str | None = None) -> tuple[int, int]:
    """``(rows, cols)`` as ints, or :class:`~ktsolve.errors.InvalidBoardError` naming a size that is not a whole
    number, not positive, or above :data:`MAX_SQUARES` (``text``: the size as the user wrote it)."""
    for value in (rows, cols):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            given = _shown(text)[1:-1] if text is not None else _shown(f"{rows!r}x{cols!r}")[1:-1]
            raise InvalidBoardError(f"board size {given} must be whole numbers of rows and columns")
    rows, cols = int(rows), int(cols)
    big = max(abs(rows), abs(cols)) > MAX_SQUARES  # str() of a number of thousands of digits fails
    # a size may hide a megabyte of spaces: the message quotes its start
    shown = _shown(text)[1:-1] if text is not None else ("given" if big else f"{rows}x{cols}")
    if rows < 1 or cols < 1:
        raise InvalidBoardError(
            f"board size {shown} must have at least one row and one column"
        )
    if max(rows, cols) > MAX_SQUARES:  # str() of a number of thousands of digits fails: not written out
        raise InvalidBoardError(f"board size {shown} has more than "
                                f"{MAX_SQUARES:,} rows or columns; ktsolve allows at most {MAX_SQUARES:,} squares")
    if rows * cols > MAX_SQUARES:
        raise InvalidBoardError(
            f"board {rows}x{cols} has {rows * cols:,} squares; "
            f"ktsolve allows at most {MAX_SQUARES:,} (about 16384x16384)"
        )
    return rows, cols
