"""Reading input files within a byte budget, in one pass, whatever the file is.

Every reader of user files (tour files, board files) goes through
:class:`Source`, so a hostile file fails fast, small and with one line:

* **one pass**: the path is opened once and read front to back, so a pipe
  (``<(cat tour.json)``), standard input or a character device works as
  well as a regular file, and nothing is read twice;
* **a byte budget**: at most ``budget`` bytes are ever handed out, counted
  *after* gzip inflation, so a gzip bomb (8.7 MB inflating to 2 GB) or
  ``/dev/zero`` costs ``budget`` bytes and stops; the caller picks the
  budget from what the file can legitimately hold (see
  :func:`tour_text_budget`);
* **bounded lines**: :meth:`Source.lines` hands out lines of at most
  ``line_budget`` bytes, for readers that stream a file of any length
  (several tours, one per line) in constant memory;
* **bounded messages**: :func:`shown` is how every message quotes input,
  never more than a short prefix of it.

Failures are reported through the ``fail`` callable the caller passes (it
builds the caller's own error class: ``TourFileError``, ``InvalidBoardError``)
with a reason such as ``"not UTF-8 text"`` or ``"a damaged gzip file"``.
"""

from __future__ import annotations

import gzip
import os
import stat
import sys
import zlib

__all__ = ["Source", "shown", "MAX_TEXT_BYTES", "tour_text_budget", "GZIP_MAGIC"]

#: Fixed ceiling of the text any reader holds in memory at once (1 GiB);
#: the budget of a file is proportional to its board, and never above this.
MAX_TEXT_BYTES = 1 << 30

#: Bytes a message quotes of the input before it cuts it short.
SHOWN_CHARS = 40

GZIP_MAGIC = b"\x1f\x8b"
_CHUNK = 1 << 20


def shown(text, limit: int = SHOWN_CHARS) -> str:
    """``repr`` of ``text`` cut to ``limit`` characters, with its length when cut: a message stays one short line.

    Examples
    --------
    >>> shown("a1")
    "'a1'"
    >>> shown("x" * 100, 5)
    "'xxxxx'... (100 characters)"
    """
    if not isinstance(text, str):
        text = str(text)
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text):,} characters)"


def tour_text_budget(cells: int) -> int:
    """Bytes a text tour file of a board of ``cells`` cells may hold: 64 KiB plus 64 per cell, at most 1 GiB.

    The most verbose form ktsolve writes, the JSON of ``ktsolve solve
    --format json`` (a ``[row, col]`` pair per square, with the statistics),
    takes under 20 bytes a square; 64 leaves room for indentation and
    comments, and 64 KiB for the statistics of a small board.
    """
    return min(MAX_TEXT_BYTES, (64 << 10) + 64 * int(cells))


class Source:
    """One pass over ``path`` (``"-"`` for standard input), gunzipped when it starts like gzip, within a budget.

    Parameters
    ----------
    path : str
        A file, a pipe, a device, or ``"-"``.
    what : str
        How messages name it: ``"tour file 'x.txt'"``.
    budget : int
        Bytes (after inflation) :meth:`read` and :meth:`lines` hand out at most.
    fail : callable
        ``fail(message) -> Exception``: the caller's error, raised with a
        one-line message that names the file.
    regular_only : str, optional
        Refuse anything but a regular file (a device, a FIFO, ``"-"``)
        before reading a byte, with ``fail`` and this reason ("a question
        file is read whole"): the file is opened without blocking, so a
        FIFO with no writer cannot hang the reader.
    """

    def __init__(self, path: str, what: str, budget: int, fail, *, regular_only: str | None = None):
        self.what, self.budget, self._fail = what, int(budget), fail
        self.used = 0
        self.regular = False
        self.size = None
        self._raw = None
        self._owned = False
        try:
            if regular_only is not None:  # a path, never standard input
                fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO opens at once instead of waiting
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    os.close(fd)
                    raise fail(f"{what} is not a regular file; {regular_only}")
                os.set_blocking(fd, True)
                self._raw = os.fdopen(fd, "rb")
                self._owned = True
                st = os.fstat(fd)
                self.regular = True
                self.size = st.st_size
            elif path == "-":
                if sys.stdin is None:
                    raise fail(f"cannot read {what}: it is closed")
                raw = getattr(sys.stdin, "buffer", None)
                self._raw = raw if raw is not None else _TextAsBytes(sys.stdin)
            else:
                self._raw = open(path, "rb")  # noqa: SIM115 - closed by close()
                self._owned = True
                st = os.fstat(self._raw.fileno())
                self.regular = stat.S_ISREG(st.st_mode)
                self.size = st.st_size if self.regular else None
            self.head = self._read_raw(6)
        except OSError as exc:
            self.close()
            raise fail(f"cannot read {what}: {exc.strerror or exc}") from None
        self._pending = self.head
        self.gzipped = self.head.startswith(GZIP_MAGIC)
        self._stream = gzip.GzipFile(fileobj=_Rest(self), mode="rb") if self.gzipped else None
        self._eof = False
        self._peeked = b""  # content bytes :meth:`peek` read ahead

    # ------------------------------------------------------------------ raw bytes
    def _read_raw(self, k: int) -> bytes:
        out = b""
        while len(out) < k:
            part = _read_some(self._raw, k - len(out))
            if not part:
                break
            out += part
        return out

    def raw_file(self):
        """The underlying file, rewound, for a reader that needs to seek (a regular, uncompressed file only,
        before :meth:`peek` read ahead: the reading that follows would hand out those bytes again)."""
        if not (self.regular and not self.gzipped) or self._peeked:
            return None
        self._raw.seek(0)
        return self._raw

    def close(self) -> None:
        if self._owned and self._raw is not None:
            self._raw.close()
        self._raw = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ------------------------------------------------------------------ budgeted reading
    def peek(self, k: int) -> bytes:
        """The first ``k`` bytes of the (inflated) content, still handed out by the reading that follows.

        A gzipped file's :attr:`head` is gzip's; this is what it holds
        (``files`` recognises a gzipped ``.npy`` by it).  Counted against
        the budget when it is read, not here.
        """
        while len(self._peeked) < k:
            part = self._take(k - len(self._peeked))
            if not part:
                break
            self._peeked += part
        return self._peeked[:k]

    def _chunk(self, k: int) -> bytes:
        """Up to ``k`` bytes of the (inflated) content; b"" at its end; errors become ``fail``."""
        if self._peeked:
            part, self._peeked = self._peeked[:k], self._peeked[k:]
            return part
        return self._take(k)

    def _take(self, k: int) -> bytes:
        """:meth:`_chunk` past what :meth:`peek` kept."""
        try:
            if self._stream is not None:
                return self._stream.read(k)
            if self._pending:
                part, self._pending = self._pending[:k], self._pending[k:]
                return part
            return _read_some(self._raw, k)
        except (OSError, EOFError, zlib.error) as exc:
            if isinstance(exc, (EOFError, zlib.error, gzip.BadGzipFile)):
                reason = f"a damaged gzip file ({shown(str(exc), 80)[1:-1]})"
            else:
                reason = exc.strerror or str(exc)
            raise self._fail(f"cannot read {self.what}: {reason}") from None

    def _too_large(self, limit: int, why: str):
        inflated = " once inflated" if self.gzipped else ""
        return self._fail(f"{self.what} is larger than {limit:,} bytes{inflated}: {why}")

    def read(self, why: str = "more than it can hold") -> bytes:
        """The whole content, or ``fail`` when it is larger than the budget (reading stops there)."""
        parts = []
        while True:
            part = self._chunk(min(_CHUNK, self.budget - self.used + 1))
            if not part:
                return b"".join(parts)
            self.used += len(part)
            if self.used > self.budget:
                raise self._too_large(self.budget, why)
            parts.append(part)

    def lines(self, line_budget: int, why: str = "a line longer than any tour of the board", *,
              keep_blank: bool = False):
        """Blocks (lists) of the non-blank lines, without their newlines, each of at most ``line_budget`` bytes.

        One streaming pass, a block per megabyte read, so a file of any
        length costs constant memory.  Runs of blank lines count against
        ``line_budget`` too, so a stream of newlines fails like a stream
        with no newline at all.  ``keep_blank``: blank lines are in the
        blocks too (as they are), so a reader can number the file's lines.
        """
        rest = b""
        blank = 0
        while True:
            part = self._chunk(_CHUNK)
            pieces = (rest + part).split(b"\n")
            rest = pieces.pop() if part else b""
            block = []
            for line in pieces:
                if line.strip():
                    if len(line) > line_budget:
                        raise self._too_large(line_budget, why)
                    blank = 0
                    block.append(line)
                else:
                    blank += len(line) + 1
                    if blank > line_budget:
                        raise self._too_large(line_budget, "blank lines longer than any tour of the board")
                    if keep_blank:
                        block.append(line)
            if len(rest) > line_budget:
                raise self._too_large(line_budget, why)
            if block:
                yield block
            if not part:
                return


class _Rest:
    """The raw bytes of a Source from its first one (the head already read), as gzip reads them."""

    def __init__(self, src: Source):
        self._src = src

    def read(self, k: int = -1) -> bytes:
        src = self._src
        if src._pending:
            k = len(src._pending) if k is None or k < 0 else k
            part, src._pending = src._pending[:k], src._pending[k:]
            return part
        return _read_some(src._raw, _CHUNK if k is None or k < 0 else k)


def _read_some(raw, k: int) -> bytes:
    """What is there, up to ``k`` bytes: one read of a pipe, not a wait for ``k`` bytes, so a stream is
    parsed as it arrives and a fault early in it is reported while the writer is still writing."""
    read1 = getattr(raw, "read1", None)
    return read1(k) if read1 is not None else raw.read(k)


class _TextAsBytes:
    """A text stream (a replaced ``sys.stdin`` without ``buffer``) read as UTF-8 bytes."""

    def __init__(self, fh):
        self._fh = fh

    def read(self, k: int = -1) -> bytes:
        return self._fh.read(k).encode("utf-8")
