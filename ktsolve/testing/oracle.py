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
  Keys are a SHA-256 of the board and the question.  A stored tour is
  checked again by :func:`ktsolve.validate` when read; a stored proof that
  no tour exists is used only by the ktsolve version that wrote it.
  ``unknown`` answers are never written (they depend on the machine).

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
_disk: dict = {"path": None, "conn": None, "env_read": False}


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
        _disk.update(path=None if path is None else os.fspath(path), conn=None, env_read=True)


def _disk_path() -> str | None:
    if not _disk["env_read"]:
        _disk["env_read"] = True
        _disk["path"] = os.environ.get(_ENV) or None
    return _disk["path"]


def _connection() -> sqlite3.Connection | None:
    path = _disk_path()
    if path is None:
        return None
    if _disk["conn"] is None:
        conn = sqlite3.connect(path, timeout=30.0, check_same_thread=False)
        conn.execute(
            "CREATE TABLE IF NOT EXISTS answers (key TEXT PRIMARY KEY, version TEXT, status TEXT, "
            "squares BLOB, proof TEXT, argument TEXT, evidence TEXT, settled_by TEXT, seconds REAL)"
        )
        conn.commit()
        _disk["conn"] = conn
    return _disk["conn"]


def _disk_key(board: Board, spec: TourSpec) -> str:
    h = hashlib.sha256()
    h.update(f"{_DISK_FORMAT}|{board.rows}x{board.cols}|{spec.closed}|{spec.start}|{spec.end}|".encode())
    h.update(np.ascontiguousarray(board.hole_flat, dtype=np.int64).tobytes())
    return h.hexdigest()


def _disk_get(board: Board, spec: TourSpec) -> ExactAnswer | None:
    conn = _connection()
    if conn is None:
        return None
    row = conn.execute(
        "SELECT version, status, squares, proof, argument, evidence, settled_by, seconds FROM answers WHERE key = ?",
        (_disk_key(board, spec),),
    ).fetchone()
    if row is None:
        return None
    version, status, squares, proof, argument, evidence, settled_by, seconds = row
    if status == Status.FOUND.value:
        sq = np.frombuffer(squares, dtype=np.int32)
        try:
            tour = validate(board, Tour(board, sq, spec.closed), closed=spec.closed, start=spec.start, end=spec.end)
        except Exception:  # noqa: BLE001 - a damaged entry is recomputed, never trusted
            return None
        return ExactAnswer(Status.FOUND, tour, None, settled_by, seconds, None, cached=True)
    if status == Status.INFEASIBLE.value and version == _version():
        p = Proof(proof, argument=argument, evidence=json.loads(evidence))
        if _witness_fails(board, spec, p) is not None:
            return None  # a witness that no longer checks is recomputed, never trusted
        return ExactAnswer(Status.INFEASIBLE, None, p, settled_by, seconds, None, cached=True)
    return None


def _disk_put(board: Board, spec: TourSpec, ans: ExactAnswer) -> None:
    conn = _connection()
    if conn is None or ans.status is Status.UNKNOWN:
        return
    from ..result import _jsonable

    squares = None if ans.tour is None else np.ascontiguousarray(ans.tour.squares, dtype=np.int32).tobytes()
    proof = None if ans.proof is None else str(ans.proof)
    argument = getattr(ans.proof, "argument", None)
    evidence = json.dumps(_jsonable(dict(getattr(ans.proof, "evidence", {}) or {})))
    with conn:
        conn.execute(
            "INSERT OR REPLACE INTO answers VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (_disk_key(board, spec), _version(), ans.status.value, squares, proof, argument, evidence,
             ans.settled_by, float(ans.seconds)),
        )


#: Largest board whose infeasible answers get their witness re-checked (the checkers use plain sets).
RECHECK_MAX = 20_000


def _witness_fails(board: Board, spec: TourSpec, proof) -> str | None:
    """Why the witness of ``proof`` does not check (:func:`ktsolve.proofs.check_proof`), or None.

    Proofs without a checkable witness (exhaustive search, CP-SAT, the
    quick proofs) and boards above :data:`RECHECK_MAX` squares give None.
    """
    if proof is None or board.n_squares > RECHECK_MAX:
        return None
    from ..graph import KnightGraph
    from ..proofs import check_proof

    return check_proof(KnightGraph.of(board), spec, proof)


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
    res = prove(board, closed=spec.closed, start=spec.start, end=spec.end, seed=ORACLE_SEED, time_limit=time_limit)
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
