"""Board files: the text format of puzzles and ``.npy`` masks, read within a budget.

The work behind :meth:`ktsolve.Board.parse_file`, :meth:`~ktsolve.Board.read_file`
and :meth:`~ktsolve.Board.read_npy`, kept apart from the board itself so
that :mod:`ktsolve.board` holds what a board is and this module how one is
read.  Imported when a board file is read, never by ``import ktsolve``.
"""

from __future__ import annotations

import gzip
import io
import re
import struct
import zlib

import numpy as np

from ._board_base import MAX_BOARD_FILE_BYTES, MAX_SQUARES, BoardFile, check_size
from ._reading import shown as _shown
from .errors import InvalidBoardError

#: First bytes of a ``.npy`` file.
NPY_MAGIC = b"\x93NUMPY"
#: Largest ``.npy`` header read (numpy's own limit for untrusted files is 10,000 bytes).
_NPY_HEADER_MAX = 10_000
_BAD_CELL = re.compile(r"[^.oO#xXsSeE]")
_GAP = re.compile(r"\S[ \t]{2,}\S")  # two spaces between cells: a row laid out with blanks for holes


def _notes(seen: set, gaps: int | None) -> tuple[str, ...]:
    """The warnings a board file deserves, from the characters it uses."""
    out = []
    if "#" in seen and seen & set("xX"):
        out.append("the board file writes holes both as # and as x; both are holes")
    if "." in seen and seen & set("oO"):
        out.append("the board file writes squares both as . and as o; both are squares")
    if seen & set("xX") and seen & set("sS"):
        out.append("the board file uses x for holes beside an S start; Rosetta Code's puzzles write x for "
                   "squares and . for holes: if it comes from there, swap x and . (this reads the complement)")
    if gaps is not None:
        out.append(f"board file line {gaps} has gaps of spaces between its cells; spaces are ignored, "
                   "a hole is #")
    return tuple(out)


def read_npy_mask(fh, shown: str) -> np.ndarray:
    """The 2-D bool or integer array of a ``.npy`` file, its header checked before its data is read.

    ``fh`` is read front to back (``read`` only), so a pipe or a gzip
    stream works as a file does.
    """
    from numpy.lib import format as npy_format

    try:
        magic = fh.read(8)  # the magic string and the version's two bytes
        if magic.startswith(b"\x1f\x8b"):  # Board.read_npy of a gzipped mask: read through the inflation
            fh = gzip.GzipFile(fileobj=_Prefixed(magic, fh), mode="rb")
            magic = fh.read(8)
        if len(magic) < 8 or not magic.startswith(NPY_MAGIC):
            raise ValueError("it does not start as a .npy file")
        version = (magic[6], magic[7])
        if version not in ((1, 0), (2, 0), (3, 0)):
            raise ValueError(f"unknown .npy version {version}")
        # the header's length is the next 2 (version 1) or 4 bytes; refuse a huge one unread
        size = 2 if version == (1, 0) else 4
        length = fh.read(size)
        (hlen,) = struct.unpack("<H" if size == 2 else "<I", length)
        if hlen > _NPY_HEADER_MAX:
            raise ValueError(f"its header claims {hlen:,} bytes")
        header = fh.read(hlen)
        if len(header) != hlen:
            raise ValueError("it ends inside its header")
        head = io.BytesIO(magic + length + header)
        head.seek(len(magic))
        reader = npy_format.read_array_header_1_0 if version == (1, 0) else npy_format.read_array_header_2_0
        shape, fortran, dtype = reader(head, max_header_size=_NPY_HEADER_MAX)
    except (ValueError, struct.error, OSError, EOFError, zlib.error) as exc:
        raise InvalidBoardError(f"board file {shown} is not a readable .npy array: {exc}") from None
    if len(shape) != 2:
        raise InvalidBoardError(f"board file {shown} holds an array of shape {shape}; a board mask is 2-D")
    if dtype != bool and not np.issubdtype(dtype, np.integer):
        raise InvalidBoardError(f"board file {shown} holds {dtype} values; a board mask holds bools or 0 and 1")
    check_size(int(shape[0]), int(shape[1]))  # before any memory is taken for the cells
    count = int(shape[0]) * int(shape[1])
    try:
        data = fh.read(count * dtype.itemsize)
    except (OSError, EOFError, zlib.error) as exc:
        raise InvalidBoardError(f"board file {shown} is not a readable .npy array: {exc}") from None
    if len(data) != count * dtype.itemsize:
        raise InvalidBoardError(f"board file {shown} ends before the {shape[0]}x{shape[1]} array it announces")
    arr = np.frombuffer(data, dtype=dtype).reshape(shape, order="F" if fortran else "C")
    return arr


class _Prefixed:
    """A binary file whose first bytes were read already: ``head``, then the rest of ``fh``."""

    def __init__(self, head: bytes, fh):
        self._head, self._fh = head, fh

    def read(self, k: int = -1) -> bytes:
        if self._head:
            k = len(self._head) if k is None or k < 0 else k
            part, self._head = self._head[:k], self._head[k:]
            return part
        return self._fh.read(k)


class _Stream:
    """A :class:`~ktsolve._reading.Source` read as a binary file (``read(k)``: exactly ``k`` bytes, fewer at
    the end), for a mask that comes through a pipe or gzip: the header says how much to read, and only that."""

    def __init__(self, src):
        self._src = src

    def read(self, k: int) -> bytes:
        parts, got = [], 0
        while got < k:
            part = self._src._chunk(min(k - got, 1 << 24))
            if not part:
                break
            parts.append(part)
            got += len(part)
        return b"".join(parts)


def parse_text(cls, text: str) -> "BoardFile":
    """The work of :meth:`Board.parse_file` (``cls`` is :class:`Board`)."""
    grid: list[str] = []
    marks: dict[str, list] = {"start": [], "end": []}
    seen: set[str] = set()
    gaps = None
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split(";", 1)[0]
        cells = "".join(line.split())
        if not cells:
            continue
        bad = _BAD_CELL.search(cells)
        if bad:
            col, ch = bad.start(), bad.group()
            hint = (" (Rosetta Code's layout of 0 and 1: write . for 0, S for 1 and # for a blank)"
                    if ch in "01" else "")
            raise InvalidBoardError(
                f"board file line {lineno} has {_shown(ch)} at column {col + 1}; use . or o for squares, "
                f"# or x for holes, S and E for the start and end{hint}"
            )
        if grid and len(cells) != len(grid[0]):
            raise InvalidBoardError(
                f"board file line {lineno} has {len(cells):,} squares where the first row has "
                f"{len(grid[0]):,}; every row must be the same length (spaces inside a row are ignored)"
            )
        if len(cells) * (len(grid) + 1) > MAX_SQUARES:
            check_size(len(grid) + 1, len(cells))  # refused by name before the text is all kept
        if gaps is None and _GAP.search(line.strip()):
            gaps = lineno
        seen.update(cells)
        for ch, key in (("S", "start"), ("s", "start"), ("E", "end"), ("e", "end")):
            col = cells.find(ch)
            while col >= 0:
                marks[key].append((len(grid), col))
                col = cells.find(ch, col + 1)
        grid.append(cells)
    if not grid:
        raise InvalidBoardError("board file has no rows")
    rows, cols = check_size(len(grid), len(grid[0]))
    cells = np.frombuffer("".join(grid).encode("ascii"), dtype=np.uint8)
    flat = np.flatnonzero(np.isin(cells, np.frombuffer(b"#xX", dtype=np.uint8)))
    board = cls(rows, cols, np.stack(np.divmod(flat, cols), axis=1))
    ends = []
    for key in ("start", "end"):
        found = marks[key]
        if len(found) > 1:
            names = ", ".join(board.name(r, c) for r, c in found[:4])
            raise InvalidBoardError(f"board file marks {len(found)} {key} squares ({names}); one at most")
        ends.append(found[0] if found else None)
    return BoardFile(board, ends[0], ends[1], _notes(seen, gaps))


def read_path(cls, path) -> "BoardFile":
    """The work of :meth:`Board.read_file` (``cls`` is :class:`Board`)."""
    from ._reading import Source

    path = str(path)
    what = "the board from standard input" if path == "-" else f"board file {_shown(path, 200)}"
    with Source(path, what, MAX_BOARD_FILE_BYTES, InvalidBoardError) as src:
        # a gzipped mask (board random -o m.npy.gz) is a mask by its inflated first bytes
        if src.head.startswith(NPY_MAGIC) or (src.gzipped and src.peek(len(NPY_MAGIC)) == NPY_MAGIC):
            shown = "standard input" if path == "-" else _shown(path, 200)
            raw = src.raw_file()
            if raw is None:  # a pipe or gzip: read as it comes, no more than the header announces
                raw = _Stream(src)
            return BoardFile(cls.read_npy(raw, shown), None, None, ())
        data = src.read("more than any text board file (a .npy mask holds larger boards)")
    if b"\0" in data:
        raise InvalidBoardError(f"cannot read {what}: not UTF-8 text")  # NUL bytes: a binary file
    try:
        text = data.decode("utf-8-sig")  # a byte-order mark is not a square
    except UnicodeDecodeError:
        raise InvalidBoardError(f"cannot read {what}: not UTF-8 text") from None
    return cls.parse_file(text)
