"""The results file of a census: JSON lines, appended and flushed one question at a time.

Layout
------
* Line 1, the header: ``{"ktsolve_census": 1, "identity": ..., "description":
  ..., "seed": ..., "questions": ..., ...}``.  ``identity`` (the family and
  the census seed) decides whether a file belongs to a census.
* One line per answered question (see
  :func:`ktsolve.census.worker.make_answer` for its fields), in the order
  the answers came.  A question asked again (``retry_unknown``) gets a new
  line; the last line of an index is its answer.
* ``{"run": k, ...}`` and ``{"run_end": k, ...}`` lines mark where each run
  started and ended (workers, scheduler, time limit, wall time, whether it
  was interrupted).

Tours longer than :data:`~ktsolve.census.worker.INLINE_TOUR_MAX` squares
are ``.npy`` files (int32 square numbers) in the folder ``FILE.tours``
beside the results file, written completely before the line that names
them.

Safety
------
The answers that arrive together (one from a local worker, a batch from a
Dask task) are written with one ``write`` and flushed at once (and the file
is synced to disk every few seconds and at the end), so a crash, a kill or
Ctrl-C loses at most the lines being written, and a cut-off line is dropped
when the census is resumed.  Opening a file again for a
census:

* a last line without its newline (cut off) is dropped and its question
  asked again;
* a file whose header names another census is refused, saying which;
* a file that is not a census results file is refused and left alone;
* a file that another census is writing (an exclusive ``flock``) is refused.
"""

from __future__ import annotations

import datetime
import fcntl
import gzip
import json
import os
import stat
import time
from dataclasses import dataclass, field

import numpy as np

from ..errors import CensusFileError
from ..files import open_atomic
from .schema import check_header, check_line
from .worker import Answer

__all__ = ["Existing", "ResultStore", "read_results", "check_tour_dir", "HEADER_KEY", "FORMAT"]

HEADER_KEY = "ktsolve_census"
FORMAT = 1
#: Seconds between syncs of the results file to disk.
SYNC_EVERY_S = 5.0
#: Longest line :func:`read_results` reads (an inline tour of 10,000 squares and its proof take far less).
MAX_LINE_BYTES = 64 << 20


@dataclass
class Existing:
    """What a results file holds.

    ``records`` maps a question's index to its last record; ``good_end``
    is the byte offset after the last complete line (a cut-off line
    after it is ``cut``).
    """

    header: dict
    records: dict = field(default_factory=dict)
    lines: int = 0
    good_end: int = 0
    size: int = 0
    cut: bool = False
    runs: list = field(default_factory=list)
    run_ends: list = field(default_factory=list)
    gzipped: bool = False

    @property
    def done(self) -> set:
        return set(self.records)


def _canonical(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


#: Fields of a record that :func:`read_results` keeps only when asked for everything.
_BULKY = ("tour", "proof", "evidence")


def _open_regular(path: str):
    """Open ``path`` for reading without blocking on a FIFO; None when it does not exist.

    A results file is a regular file: it is read back, appended and locked.
    A device, a pipe or a socket is refused before anything is read from it.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise CensusFileError(f"cannot read results file {path!r}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise CensusFileError(f"{path!r} is not a regular file; a census results file is read back and appended")
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


def read_results(path, *, full: bool = False) -> Existing | None:
    """Read a results file; None when it does not exist or is empty.

    Without ``full``, records keep what summaries and resuming need and
    drop the tour, the proof's text and its evidence (a census of 10^5
    questions then fits in memory many times over).  The file is read a
    line at a time, each line at most :data:`MAX_LINE_BYTES`, and every
    line is checked against the schema (:mod:`ktsolve.census.schema`).

    Raises
    ------
    CensusFileError
        When the file is not a regular file or not a census results file,
        or a line before the last is damaged or breaks the schema (the
        message names the file, the line and the field).
    """
    path = os.fspath(path)
    fh = _open_regular(path)
    if fh is None:
        return None
    with fh:
        if fh.peek(2)[:2] == b"\x1f\x8b":  # a finished census kept gzipped: read (a census cannot append to it)
            with gzip.GzipFile(fileobj=fh, mode="rb") as inflated:
                try:
                    out = _read_lines(path, inflated, full)
                except (OSError, EOFError) as exc:
                    raise CensusFileError(f"cannot read results file {path!r}: a damaged gzip file ({exc})") from None
            if out is not None:
                out.gzipped = True
                out.size = out.good_end = os.fstat(fh.fileno()).st_size
            return out
        return _read_lines(path, fh, full)


def _read_line(path: str, fh, no: int) -> bytes:
    raw = fh.readline(MAX_LINE_BYTES + 1)
    if len(raw) > MAX_LINE_BYTES:
        raise CensusFileError(f"{path!r} line {no} is longer than {MAX_LINE_BYTES:,} bytes; "
                              "no census writes such lines")
    return raw


def _parse(raw: bytes):
    """The JSON value of a line, or ``_BAD`` when it is not JSON (a number too large for Python included)."""
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return _BAD


_BAD = object()


def _read_lines(path: str, fh, full: bool) -> Existing | None:
    first = _read_line(path, fh, 1)
    if not first:
        return None
    header = _parse(first) if first.endswith(b"\n") else _BAD
    if not isinstance(header, dict) or HEADER_KEY not in header:
        if not first.endswith(b"\n"):
            raise CensusFileError(f"{path!r} holds a line cut off before its end; it is no census results file")
        raise CensusFileError(f"{path!r} exists and is not a census results file; give another output file")
    try:
        check_header(header)
    except CensusFileError as exc:
        raise CensusFileError(f"{path!r} line 1: {exc}") from None
    questions = header["questions"]
    out = Existing(header=header)
    offset = len(first)
    no = 1
    raw = _read_line(path, fh, 2)
    while raw:
        no += 1
        nxt = _read_line(path, fh, no + 1) if raw.endswith(b"\n") else b""
        if not raw.endswith(b"\n"):
            out.cut = True  # after the last newline: a line cut off by a crash
            break
        rec = _parse(raw)
        if rec is _BAD:
            if not nxt:
                out.cut = True  # a last line that a crash left as garbage: ask its question again
                break
            raise CensusFileError(f"{path!r} line {no} is damaged (not JSON); the file was edited or the disk failed")
        try:
            kind = check_line(rec, questions)
        except CensusFileError as exc:
            raise CensusFileError(f"{path!r} line {no}: {exc}") from None
        offset += len(raw)
        if kind == "record":
            if not full:
                for key in _BULKY:
                    rec.pop(key, None)
            out.records[rec["index"]] = rec
            out.lines += 1
        elif kind == "run":
            out.runs.append(rec)
        else:
            out.run_ends.append(rec)
        raw = nxt
    out.good_end = offset
    if hasattr(fh, "fileno") and not isinstance(fh, gzip.GzipFile):
        out.size = os.fstat(fh.fileno()).st_size
    return out


def check_tour_dir(path) -> None:
    """Refuse, before any work, a ``FILE.tours`` beside the results that is not a folder this census can write.

    Tours too long to inline go there; finding out only when the first one
    arrives would end the census after its work and leave a results file behind.
    """
    tours = os.fspath(path) + ".tours"
    if os.path.lexists(tours) and not os.path.isdir(tours):
        raise CensusFileError(f"{tours!r} exists and is not a folder; the census keeps long tours there: move it")
    if os.path.isdir(tours) and not os.access(tours, os.W_OK | os.X_OK):
        raise CensusFileError(f"cannot write tours to {tours!r}: permission denied")


def describe_header(header: dict) -> str:
    """``'8x8 --remove 1, open tours (seed 7)'``: a census in words, from its header."""
    return f"{header.get('description', 'an unnamed census')} (seed {header.get('seed')})"


def check_identity(path, existing: Existing, identity: dict, description: str) -> None:
    """Refuse ``existing`` when it belongs to another census than ``identity``."""
    if existing.header.get("format", FORMAT) != FORMAT:
        raise CensusFileError(f"{path!r} was written by another version of ktsolve's census (format "
                              f"{existing.header.get('format')}); give another output file")
    if _canonical(existing.header.get("identity")) != _canonical(identity):
        raise CensusFileError(
            f"{os.fspath(path)!r} holds another census: {describe_header(existing.header)}, not "
            f"{description} (seed {identity.get('seed')}); give another output file"
        )


class ResultStore:
    """The results file of one run of a census, open for appending (see the module docstring).

    Parameters
    ----------
    path : str or path
    """

    def __init__(self, path):
        self.path = os.fspath(path)
        self.tour_dir = self.path + ".tours"
        self.tour_dir_name = os.path.basename(self.path) + ".tours"
        self._fh = None
        self._created = False
        self._synced = time.monotonic()
        self.written = 0

    def open(self, header: dict, existing: Existing | None) -> None:
        """Lock the file, drop a cut-off last line, write the header of a new file."""
        self.lock(existing)
        self.begin(header, existing)

    def lock(self, existing: Existing | None) -> None:
        """Open and lock the file (creating it empty), before any worker starts; nothing is written yet.

        Raises :class:`CensusFileError` when another census holds the lock
        or the file changed since ``existing`` was read.  A file created
        here and still empty at :meth:`close` is removed again.
        """
        if existing is not None and existing.gzipped:
            raise CensusFileError(f"{self.path!r} is gzip-compressed; a census appends to its results file: "
                                  "gunzip it to resume, or give another output file")
        self._created = not os.path.exists(self.path)
        try:
            fh = open(self.path, "a+b")
        except OSError as exc:
            raise CensusFileError(f"cannot write results file {self.path!r}: {exc.strerror or exc}") from None
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            fh.close()
            raise CensusFileError(f"{self.path!r} is being written by another census that is still running") from None
        size = os.fstat(fh.fileno()).st_size
        expected = 0 if existing is None else existing.size
        if size != expected:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)
            fh.close()
            raise CensusFileError(f"{self.path!r} changed while the census started; run it again")
        self._fh = fh

    def begin(self, header: dict, existing: Existing | None) -> None:
        """Write the header of a new file, or drop the cut-off last line of one resumed (the file is locked)."""
        fh = self._fh
        size = os.fstat(fh.fileno()).st_size
        if existing is None:
            self._write(json.dumps({HEADER_KEY: 1, "format": FORMAT, **header}, separators=(",", ":")).encode())
            self.sync()
        elif existing.good_end < size:
            fh.truncate(existing.good_end)
            self.sync()

    def _write(self, line: bytes) -> None:
        """Append ``line`` whole, or leave the file as it was before it (a full disk, a failing device).

        The bytes go straight to the file descriptor (no buffer that could
        hold half a line); when a write fails part-way the file is cut back
        to its length before the line, so it only ever holds whole lines.
        """
        self._fh.flush()
        fd = self._fh.fileno()
        before = os.lseek(fd, 0, os.SEEK_END)
        data = memoryview(line + b"\n")
        try:
            while data:
                data = data[os.write(fd, data):]
        except OSError as exc:
            try:
                os.ftruncate(fd, before)
            except OSError:
                pass  # the cut-off line stays; a resume drops it
            raise CensusFileError(
                f"cannot write results file {self.path!r}: {exc.strerror or exc}; it keeps the answers "
                "recorded before, whole (run the same command again to resume)"
            ) from None
        now = time.monotonic()
        if now - self._synced > SYNC_EVERY_S:
            self.sync()

    def sync(self) -> None:
        self._fh.flush()
        os.fsync(self._fh.fileno())
        self._synced = time.monotonic()

    def append(self, answers: list[Answer]) -> None:
        """Record answers (their tour files first, when they have one) with one write and one flush."""
        for ans in answers:
            if ans.squares is not None:
                os.makedirs(self.tour_dir, exist_ok=True)
                with open_atomic(os.path.join(self.tour_dir, f"q{ans.index:07d}.npy")) as fh:
                    np.save(fh, ans.squares, allow_pickle=False)
        if answers:
            self._write(b"\n".join(a.line for a in answers))
            self.written += len(answers)

    def mark(self, obj: dict) -> None:
        """A run line (``run`` or ``run_end``)."""
        self._write(json.dumps(obj, separators=(",", ":")).encode())

    def close(self) -> None:
        if self._fh is None:
            return
        try:
            self.sync()
            if self._created and os.fstat(self._fh.fileno()).st_size == 0:
                os.unlink(self.path)  # locked but never begun (the workers did not start): leave no file
        finally:
            fcntl.flock(self._fh.fileno(), fcntl.LOCK_UN)
            self._fh.close()
            self._fh = None


def now_iso() -> str:
    return datetime.datetime.now().isoformat(timespec="seconds")
