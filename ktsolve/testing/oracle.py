"""Exact answers for test suites: :func:`ktsolve.prove`, asked once per board and question.

:func:`exact_answer` settles whether a tour exists with :func:`ktsolve.prove`
(seed 0, so the answer is reproducible) and keeps the answer, so a suite
that asks about the same board a thousand times (hypothesis replaying and
shrinking, a parametrized test over methods) pays for one proof.

The cache
---------
* **In memory**, always: a dictionary keyed by the board (its size and
  holes) and the question (:class:`~ktsolve.tour.TourSpec`: open or closed,
  start, end), least recently used answers dropped beyond
  :data:`MEMORY_SIZE` entries.  A settled answer (a tour, or a proof that
  none exists) is kept whatever time limit it was asked with; an
  ``unknown`` one is kept with its time limit and reused only for a call
  whose time limit is not larger.
* **On disk**, when asked: :func:`use_disk_cache` (or the environment
  variable ``KTSOLVE_TESTING_CACHE``) names an SQLite file that keeps
  settled answers between runs; several pytest workers may share it.
  Keys are a SHA-256 of the board and the question.  Nothing read is
  trusted as it is: every row carries a digest of its question, answer and
  the ktsolve version that wrote it; a stored tour is checked again by
  :func:`ktsolve.validate`; a stored proof that no tour exists is used only
  by the ktsolve version that wrote it, and is checked again when a
  checker exists (a matching proof by its certificate checker, a quick
  proof by proving it again).  A row that does not check is recomputed.
  ``unknown`` answers are never written (they depend on the machine).
* **Damage**: a cache file that is not SQLite, a folder, a file whose
  table is not ktsolve's, or a damaged row is ignored with a
  :class:`CacheWarning` (once per file and kind) and the answer computed;
  a file another process has locked is skipped after :data:`LOCK_WAIT`
  seconds; a row larger than any answer of its board needs (4 bytes a
  square plus 16 MiB) is not even read.  The file itself is never altered
  except by adding answers.

Examples
--------
>>> from ktsolve import Board
>>> clear_cache()
>>> ans = exact_answer(Board(4, 4))
>>> ans.status.value, ans.cached
('infeasible', False)
>>> exact_answer(Board(4, 4)).cached
True
>>> exact_answer("5x5", start="a1").easy
True
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
import warnings
from collections import OrderedDict
from dataclasses import dataclass, replace

import numpy as np

from ..board import Board
from ..checks import check_time_limit
from ..request import as_board, make_spec
from ..result import Proof, Status
from ..tour import Tour, TourSpec, validate

__all__ = [
    "ExactAnswer",
    "exact_answer",
    "clear_cache",
    "cache_info",
    "use_disk_cache",
    "CONSTRUCTIONS",
    "MEMORY_SIZE",
    "DEFAULT_TIME_LIMIT",
    "ORACLE_SEED",
    "CacheWarning",
    "LOCK_WAIT",
]

#: Steps of :func:`ktsolve.prove` that build a tour in polynomial time; a tour
#: found by one of them is one that prove "finds quickly".
CONSTRUCTIONS = ("warnsdorff", "rotation", "divide")

#: Answers kept in memory before the least recently used ones are dropped.
MEMORY_SIZE = 100_000

#: Seconds :func:`exact_answer` gives :func:`ktsolve.prove` by default.
DEFAULT_TIME_LIMIT = 10.0

#: The seed of every oracle call, so that answers (and the tours shown in
#: failure messages) are the same on every run.
ORACLE_SEED = 0

#: Bumped when the layout of the disk cache changes.
_DISK_FORMAT = 1

#: The disk cache's table and columns; a file whose table differs is not ktsolve's and is ignored.
_TABLE = "answers"
_COLUMNS = ("key", "version", "status", "squares", "proof", "argument", "evidence", "settled_by", "seconds",
            "digest")

_COLUMNS_V1 = ("key", "version", "status", "squares", "proof", "argument", "evidence", "settled_by", "seconds")

#: Seconds a call waits for a disk cache another process has locked before it skips the cache.
LOCK_WAIT = 0.2


class CacheWarning(UserWarning):
    """The disk cache of :func:`exact_answer` is damaged, foreign or locked: it is ignored or skipped, and
    the answer is computed."""

_ENV = "KTSOLVE_TESTING_CACHE"


@dataclass(frozen=True)
class ExactAnswer:
    """What :func:`ktsolve.prove` says about one board and question.

    Attributes
    ----------
    status : Status
        ``found``, ``infeasible``, or ``unknown`` when the time limit ran out.
    tour : Tour or None
        A validated tour when ``status`` is ``found``.
    proof : Proof or None
        Why no tour exists, when ``status`` is ``infeasible``.
    settled_by : str
        The step of :func:`ktsolve.prove` that answered (``"quick proofs"``,
        ``"matching proof"``, ``"warnsdorff"``, ``"backtrack"``,
        ``"cpsat"`` ...), ``"none"`` when none did.
    seconds : float
        Wall-clock seconds the proof took when it was computed.
    time_limit : float or None
        The time limit it was computed with.
    cached : bool
        True when this call was answered from the cache.
    """

    status: Status
    tour: Tour | None
    proof: Proof | None
    settled_by: str
    seconds: float
    time_limit: float | None
    cached: bool = False

    @property
    def easy(self) -> bool:
        """True when a tour exists and one of prove's constructions (:data:`CONSTRUCTIONS`) built it."""
        return self.status is Status.FOUND and self.settled_by in CONSTRUCTIONS


# ---------------------------------------------------------------------- the caches
_lock = threading.Lock()
_memory: OrderedDict = OrderedDict()
_counts = {"hits": 0, "misses": 0, "disk_hits": 0}
_disk: dict = {"path": None, "conn": None, "env_read": False, "broken": False, "warned": set()}


def _version() -> str:
    from .. import __version__

    return __version__


def clear_cache() -> None:
    """Forget every answer kept in memory (a disk cache is left as it is) and reset the counts."""
    with _lock:
        _memory.clear()
        for k in _counts:
            _counts[k] = 0


def cache_info() -> dict:
    """Counts of the cache: ``hits``, ``misses``, ``disk_hits``, ``size`` (in memory) and ``path`` (disk)."""
    with _lock:
        return {**_counts, "size": len(_memory), "path": _disk_path()}


def use_disk_cache(path) -> None:
    """Keep settled answers in the SQLite file ``path`` between runs; None turns the disk cache off.

    Call it once, in a ``conftest.py`` for instance; the environment
    variable ``KTSOLVE_TESTING_CACHE`` does the same without code.  The
    file is created when missing.
    """
    with _lock:
        if _disk["conn"] is not None:
            _disk["conn"].close()
        _disk.update(path=None if path is None else os.fspath(path), conn=None, env_read=True, broken=False,
                     warned=set())


def _disk_path() -> str | None:
    if not _disk["env_read"]:
        _disk["env_read"] = True
        _disk["path"] = os.environ.get(_ENV) or None
    return _disk["path"]


def _warn_once(kind: str, message: str) -> None:
    """One :class:`CacheWarning` per kind of trouble per cache file, not one per question."""
    if kind in _disk["warned"]:
        return
    _disk["warned"].add(kind)
    warnings.warn(CacheWarning(f"ktsolve.testing disk cache {_disk_path()!r}: {message}"), stacklevel=4)


def _broken(message: str) -> None:
    """Stop using a cache file that is not ktsolve's (answers are recomputed); the file is left as it is."""
    _warn_once("broken", f"{message}; it is ignored and answers are recomputed")
    if _disk["conn"] is not None:
        try:
            _disk["conn"].close()
        except sqlite3.Error:
            pass
    _disk.update(conn=None, broken=True)


def _locked(exc: Exception) -> bool:
    return isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc).lower()


def _connection() -> sqlite3.Connection | None:
    path = _disk_path()
    if path is None or _disk["broken"]:
        return None
    if _disk["conn"] is None:
        try:
            # a short wait: another worker holding the lock makes this call skip the cache, not hang
            conn = sqlite3.connect(path, timeout=LOCK_WAIT, check_same_thread=False)
        except sqlite3.Error as exc:  # a folder, a file that cannot be opened
            _broken(f"cannot be opened ({exc})")
            return None
        try:
            foreign = _foreign_tables(conn)
            if foreign:
                conn.close()
                _broken(f"it holds tables that are not ktsolve's ({', '.join(foreign[:3])})")
                return None
            conn.execute(f"CREATE TABLE IF NOT EXISTS {_TABLE} ({', '.join(_COLUMNS)}, PRIMARY KEY (key))")
            conn.commit()
            columns = tuple(r[1] for r in conn.execute(f"PRAGMA table_info({_TABLE})"))
        except sqlite3.Error as exc:
            conn.close()
            if _locked(exc):
                _warn_once("locked", "it is locked by another process; skipped for now")
                return None
            _broken(f"is not an SQLite database ktsolve can use ({exc})")
            return None
        if columns != _COLUMNS:
            conn.close()
            _broken(f"its table {_TABLE} has columns {', '.join(columns)}, not ktsolve's")
            return None
        _disk["conn"] = conn
    return _disk["conn"]


def _foreign_tables(conn: sqlite3.Connection) -> list[str]:
    """Tables that are not this cache's (its first format's table is given the digest column): the file is
    someone else's database, and ktsolve does not write into it."""
    out = []
    for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
        if name.startswith("sqlite_"):
            continue
        columns = tuple(r[1] for r in conn.execute(f"PRAGMA table_info({json.dumps(name)})"))
        if name != _TABLE or columns not in (_COLUMNS, _COLUMNS_V1):
            out.append(name)
        elif columns == _COLUMNS_V1:
            # the first format had no digest: its rows no longer check, and are recomputed and replaced
            conn.execute(f"ALTER TABLE {_TABLE} ADD COLUMN digest")
    return out


def _disk_key(board: Board, spec: TourSpec) -> str:
    h = hashlib.sha256()
    h.update(f"{_DISK_FORMAT}|{board.rows}x{board.cols}|{spec.closed}|{spec.start}|{spec.end}|".encode())
    h.update(np.ascontiguousarray(board.hole_flat, dtype=np.int64).tobytes())
    return h.hexdigest()


def _digest(key: str, version: str, status: str, squares, proof, argument, evidence, settled_by) -> str:
    """What ties a row to its question and to the ktsolve version that wrote it: a row copied under another
    key, or edited by hand, no longer matches."""
    h = hashlib.sha256()
    for part in (key, version, status, proof, argument, evidence, settled_by):
        h.update(repr(part).encode("utf-8") + b"\0")
    h.update(squares if isinstance(squares, bytes) else repr(squares).encode())
    return h.hexdigest()


def _execute(sql: str, args: tuple, *, write: bool = False):
    """Run one statement on the disk cache; None when it is locked (skipped) or broken (ignored)."""
    conn = _connection()
    if conn is None:
        return None
    try:
        if write:
            with conn:
                return conn.execute(sql, args)
        return conn.execute(sql, args).fetchone()
    except sqlite3.Error as exc:
        if _locked(exc):
            _warn_once("locked", "it is locked by another process; skipped for now")
        else:
            _broken(f"cannot be read ({exc})")
        return None


def _row_budget(board: Board) -> int:
    """Bytes a row of ``board`` can need: its tour (4 per square) and a proof's evidence, generously."""
    return 4 * board.n_squares + (16 << 20)


def _disk_get(board: Board, spec: TourSpec) -> ExactAnswer | None:
    key = _disk_key(board, spec)
    # the row's size first: a forged row of a gigabyte is refused before it is read
    size = _execute(f"SELECT {' + '.join(f'coalesce(length({c}), 0)' for c in _COLUMNS[1:])} FROM {_TABLE} "
                    "WHERE key = ?", (key,))
    if size is None:
        return None
    if size[0] > _row_budget(board):
        _warn_once("row", f"an answer of {size[0]:,} bytes, more than any answer needs, is ignored and recomputed")
        return None
    row = _execute(f"SELECT {', '.join(_COLUMNS[1:])} FROM {_TABLE} WHERE key = ?", (key,))
    if row is None:
        return None
    try:
        ans = _trusted(board, spec, key, *row)
    except Exception as exc:  # noqa: BLE001 - a damaged row (a bad blob, bad evidence) is recomputed
        _warn_once("row", f"a damaged answer is ignored and recomputed ({type(exc).__name__})")
        return None
    if ans is None:
        _warn_once("row", "an answer that does not check is ignored and recomputed")
    return ans


def _trusted(board: Board, spec: TourSpec, key: str, version, status, squares, proof, argument, evidence,
             settled_by, seconds, digest) -> ExactAnswer | None:
    """The answer of a stored row once it is checked again; None when it does not check."""
    if digest != _digest(key, version, status, squares, proof, argument, evidence, settled_by):
        return None
    if not isinstance(settled_by, str) or not isinstance(seconds, float):
        return None
    if status == Status.FOUND.value:
        if not isinstance(squares, bytes) or len(squares) != 4 * board.n_squares:
            return None
        sq = np.frombuffer(squares, dtype=np.int32)
        try:  # a stored tour is checked by the validator: a forged one cannot pass
            tour = validate(board, Tour(board, sq, spec.closed), closed=spec.closed, start=spec.start, end=spec.end)
        except Exception:  # noqa: BLE001 - any fault of the tour: recomputed
            return None
        return ExactAnswer(Status.FOUND, tour, None, settled_by, seconds, None, cached=True)
    if status == Status.INFEASIBLE.value and version == _version():
        data = json.loads(evidence)
        if not isinstance(data, dict) or not isinstance(proof, str) or not isinstance(argument, str):
            return None
        p = Proof(proof, argument=argument, evidence=data)
        if _refuted(board, spec, p):
            return None
        return ExactAnswer(Status.INFEASIBLE, None, p, settled_by, seconds, None, cached=True)
    return None


#: Arguments the quick proofs make: a stored proof of one of them is made again, in linear time.
_QUICK = ("size", "ends", "colour parity", "degree", "connectivity", "cut square", "theorem")


def _refuted(board: Board, spec: TourSpec, proof: Proof) -> bool:
    """True when a stored proof that no tour exists does not check (:func:`ktsolve.proofs.check_proof`).

    A proof its checker cannot re-check here (a search's "no" without a
    certificate, a board above :data:`RECHECK_MAX` squares) is proved again
    when it is a quick one, else it rests on the row's digest."""
    why = _witness_fails(board, spec, proof)
    if why is not None:
        return True
    if _checked(board, spec, proof):
        return False
    if proof.argument in _QUICK:
        from ..graph import KnightGraph
        from ..proofs.quick import quick_proof
        from ..proofs.theorems import full_board_proof

        again = full_board_proof(board, spec) if board.is_full else None
        return (again or quick_proof(KnightGraph(board), spec)) is None
    return False


def _checked(board: Board, spec: TourSpec, proof) -> bool:
    """Whether the checker of ``proof`` finds it valid (False when it is invalid or not checkable)."""
    if proof is None or board.n_squares > RECHECK_MAX:
        return False
    from ..proofs import check_proof

    return check_proof(board, spec, proof).valid


def _disk_put(board: Board, spec: TourSpec, ans: ExactAnswer) -> None:
    if ans.status is Status.UNKNOWN or _connection() is None:
        return
    from ..result import jsonable

    key = _disk_key(board, spec)
    squares = None if ans.tour is None else np.ascontiguousarray(ans.tour.squares, dtype=np.int32).tobytes()
    proof = None if ans.proof is None else str(ans.proof)
    argument = getattr(ans.proof, "argument", None)
    evidence = json.dumps(jsonable(dict(getattr(ans.proof, "evidence", {}) or {})))
    row = (key, _version(), ans.status.value, squares, proof, argument, evidence, ans.settled_by, float(ans.seconds))
    _execute(f"INSERT OR REPLACE INTO {_TABLE} VALUES ({', '.join('?' * len(_COLUMNS))})",
             (*row, _digest(*row[:8])), write=True)


#: Largest board whose infeasible answers get their witness re-checked (the checkers use plain sets).
RECHECK_MAX = 20_000


def _witness_fails(board: Board, spec: TourSpec, proof) -> str | None:
    """Why ``proof`` does not check (:func:`ktsolve.proofs.check_proof` says invalid), or None.

    A proof that checks, or that its checker cannot re-check here (a
    search's "no" that carries no certificate, a board above
    :data:`RECHECK_MAX` squares), gives None.
    """
    if proof is None or board.n_squares > RECHECK_MAX:
        return None
    from ..proofs import check_proof

    verdict = check_proof(board, spec, proof)
    return verdict.reason if verdict.invalid else None


def _usable(ans: ExactAnswer, time_limit: float | None) -> bool:
    """A kept answer serves a call: a settled one always, an unknown one for no larger a time limit."""
    if ans.status is not Status.UNKNOWN:
        return True
    if ans.time_limit is None:
        return True
    return time_limit is not None and time_limit <= ans.time_limit


# ---------------------------------------------------------------------- the oracle
def exact_answer(board, *, closed: bool = False, start=None, end=None,
                 time_limit: float | None = DEFAULT_TIME_LIMIT) -> ExactAnswer:
    """Whether ``board`` has the tour asked for, by :func:`ktsolve.prove`, cached.

    Parameters
    ----------
    board : Board or str
        The board, or a size such as ``"8x8"``.
    closed : bool
        Ask about closed tours.
    start, end : square, optional
        ``(row, col)`` or a name such as ``"a1"``.
    time_limit : float, optional
        Seconds for :func:`ktsolve.prove` (default
        :data:`DEFAULT_TIME_LIMIT`); None lets it run to its own budgets.

    Returns
    -------
    ExactAnswer
        ``cached`` says whether the answer came from the cache.

    Raises
    ------
    InvalidBoardError, InvalidSquareError, InvalidParameterError
        For a bad board, square, flag or time limit.
    """
    from ..solve import prove

    board = as_board(board)
    spec = make_spec(board, closed=closed, start=start, end=end)
    time_limit = check_time_limit(time_limit)
    key = (board, spec)
    with _lock:
        ans = _memory.get(key)
        if ans is not None and _usable(ans, time_limit):
            _memory.move_to_end(key)
            _counts["hits"] += 1
            return replace(ans, cached=True)
        stored = _disk_get(board, spec)
        if stored is not None:
            _counts["disk_hits"] += 1
            _remember(key, replace(stored, cached=False))
            return stored
        _counts["misses"] += 1
    t0 = time.perf_counter()
    # in turn, not raced: the oracle's answer (its tour, the step that settled it) repeats exactly with its seed
    res = prove(board, closed=spec.closed, start=spec.start, end=spec.end, seed=ORACLE_SEED, time_limit=time_limit,
                race=False)
    seconds = time.perf_counter() - t0
    if res.status is Status.INFEASIBLE:
        why = _witness_fails(board, spec, res.proof)
        if why is not None:
            raise RuntimeError(f"ktsolve.prove's proof that no {spec.describe(board)} exists does not check "
                               f"({why}); this is a bug in ktsolve")
    ans = ExactAnswer(res.status, res.tour, res.proof, str(res.stats.get("settled_by", "none")), seconds,
                      time_limit)
    with _lock:
        _remember(key, ans)
        _disk_put(board, spec, ans)
    return ans


def _remember(key, ans: ExactAnswer) -> None:
    _memory[key] = ans
    _memory.move_to_end(key)
    while len(_memory) > MEMORY_SIZE:
        _memory.popitem(last=False)
