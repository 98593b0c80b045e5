"""The worker side of a census: answer questions with :func:`ktsolve.prove`, one result line each.

A worker is a separate Python process (started by :mod:`ktsolve.census.pool`,
on this machine or inside a Dask worker), so a question that crashes the
interpreter or hangs past its time limit can be killed without losing the
census.  It warms up once when it starts (:func:`warm_up` runs every step of
the prove plan on small boards, so numba's kernels are loaded from their
cache and OR-Tools is imported before the first question), then answers
batches of :class:`~ktsolve.census.family.Task` sent on its standard input,
one :class:`Answer` per question on its standard output as soon as the
question is settled.

The protocol is a stream of frames, each an 8-byte little-endian length and
a pickle.  The worker ignores Ctrl-C (the census decides when to stop) and
sends its protocol on a private copy of standard output, with file
descriptor 1 pointed at standard error, so a library that prints cannot
corrupt it.

A worker dies with the census that started it: the pool passes its own
process id in :data:`PARENT_ENV`; on Linux the worker asks the kernel for
SIGKILL when its parent ends (``prctl(PR_SET_PDEATHSIG)``, only when the
pool was started from the parent's main thread, since the kernel ties the
signal to the thread that started the process), and everywhere a daemon
thread checks every :data:`PARENT_POLL_S` seconds that its parent is still
the census.  Without this, a census killed by SIGKILL (or by the
out-of-memory killer) would leave its workers running their questions,
each in its own session, for up to a time limit.

The result line of a question is built here (in parallel, by the workers)
as UTF-8 JSON: see :func:`make_answer` for its fields.
"""

from __future__ import annotations

import json
import math
import os
import pickle
import signal
import struct
import sys
import threading
import time
from typing import NamedTuple

import numpy as np

from .family import Task

__all__ = ["Answer", "make_answer", "answer", "warm_up", "send", "receive", "main", "INLINE_TOUR_MAX"]

#: Largest tour written inline in its result line; larger ones go to an ``.npy`` file.
INLINE_TOUR_MAX = 10_000

_HEAD = struct.Struct("<Q")

#: Environment variable with the census's process id (set by the pool for its workers).
PARENT_ENV = "KTSOLVE_CENSUS_PARENT"
#: Environment variable set to 1 when the worker may use PR_SET_PDEATHSIG (started from a main thread).
PDEATHSIG_ENV = "KTSOLVE_CENSUS_PDEATHSIG"
#: Seconds between two looks at the parent process.
PARENT_POLL_S = 1.0
_PR_SET_PDEATHSIG = 1


class Answer(NamedTuple):
    """A settled question: its index, status, seconds, the JSON line, and a tour too large to inline."""

    index: int
    status: str
    seconds: float
    line: bytes
    squares: np.ndarray | None = None


def _plain(value):
    """JSON-ready values from numpy scalars and arrays, tuples and non-finite floats."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return _plain(value.tolist())
    if isinstance(value, np.generic):
        return _plain(value.item())
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _pair(rc):
    return None if rc is None else [int(rc[0]), int(rc[1])]


def make_answer(task: Task, res=None, seconds: float = 0.0, *, reason: str | None = None,
                settings: dict | None = None) -> Answer:
    """The :class:`Answer` of ``task`` from a :class:`~ktsolve.SolveResult`, or an ``unknown`` with ``reason``.

    The line's fields: ``index``; ``board`` (``rows``, ``cols``, ``holes``
    as ``[row, col]`` pairs); ``closed``, ``start``, ``end``; ``status``
    (``found``, ``infeasible``, ``unknown``); ``settled_by`` (the step of
    the prove plan that answered, ``none`` when none did); ``method``;
    ``argument``, ``proof`` and ``evidence`` of a proof; ``reason`` of an
    ``unknown``; ``seconds``; ``seed``; ``time_limit``; ``orbit`` (the
    boards the question stands for); and ``tour`` as ``[row, col]`` pairs
    when a tour of at most ``settings["inline_max"]`` squares was found,
    else ``tour_file``, the ``.npy`` file (square numbers) beside the
    results file.

    Examples
    --------
    >>> t = Task(0, 3, 3, ((1, 1),), False, None, None, 5, 1.0, 4)
    >>> json.loads(make_answer(t, reason="the worker died").line)["status"]
    'unknown'
    """
    settings = settings or {}
    inline_max = settings.get("inline_max", INLINE_TOUR_MAX)
    rec = {
        "index": task.index,
        "board": {"rows": task.rows, "cols": task.cols, "holes": [[int(r), int(c)] for r, c in task.holes]},
        "closed": bool(task.closed),
        "start": _pair(task.start),
        "end": _pair(task.end),
    }
    squares = None
    if res is None:
        rec.update(status="unknown", settled_by="none", method=None, argument=None, proof=None,
                   evidence=None, reason=reason)
        seed = task.seed
    else:
        proof = res.proof
        stats = res.stats or {}
        rec.update(
            status=res.status.value,
            settled_by=stats.get("settled_by", "none"),
            method=res.method or None,
            argument=getattr(proof, "argument", None) or None if proof is not None else None,
            proof=None if proof is None else str(proof),
            evidence=None if proof is None else _plain(getattr(proof, "evidence", {})),
            reason=stats.get("reason") if res.status.value == "unknown" else None,
        )
        seed = res.seed if res.seed is not None else task.seed
    rec.update(seconds=round(float(seconds), 6), seed=int(seed), time_limit=task.time_limit, orbit=task.orbit)
    tour = None if res is None else res.tour
    if tour is not None:
        if len(tour) <= inline_max:
            rec["tour"] = tour.coords.tolist()
        else:
            squares = np.ascontiguousarray(tour.squares, dtype=np.int32)
            rec["tour_file"] = f"{settings.get('tour_dir', 'tours')}/q{task.index:07d}.npy"
    line = json.dumps(_plain(rec), separators=(",", ":")).encode("utf-8")
    return Answer(task.index, rec["status"], float(seconds), line, squares)


def answer(task: Task, settings: dict | None = None) -> Answer:
    """Ask :func:`ktsolve.prove` the question of ``task``; an error becomes an ``unknown`` with its reason."""
    from ..board import Board
    from ..solve import prove

    t0 = time.perf_counter()
    try:
        board = Board(task.rows, task.cols, task.holes)
        # in turn, not raced: a census repeats exactly with its seed, and its workers already fill the cores
        res = prove(board, closed=task.closed, start=task.start, end=task.end, seed=task.seed,
                    time_limit=task.time_limit, race=False)
    except Exception as exc:  # noqa: BLE001 - one question's failure must not stop the census
        msg = " ".join(str(exc).split())
        return make_answer(task, None, time.perf_counter() - t0,
                           reason=f"prove() raised {type(exc).__name__}: {msg}", settings=settings)
    return make_answer(task, res, time.perf_counter() - t0, settings=settings)


def warm_up() -> float:
    """Run every step of the prove plan once on small boards; returns the seconds it took.

    Loads the numba kernels (from their cache, or compiles them the first
    time) and imports OR-Tools, so that no question pays for them.
    """
    from ..board import Board
    from ..solve import prove, solve

    t0 = time.perf_counter()
    calls = [
        lambda: prove(Board(6, 6), closed=True, seed=0),                   # proofs, matching, warnsdorff
        lambda: prove(Board(4, 6), closed=True, seed=0),                   # the matching proof's answer
        lambda: prove(Board(5, 5), start=(0, 1), seed=0),                  # a fixed start
        lambda: solve(Board(5, 5, holes=[(0, 0)]), "backtrack", closed=True, seed=0, presolve_proofs=False),
        lambda: solve(Board(6, 6), "cpsat", closed=True, seed=0, presolve_proofs=False),
        lambda: solve(Board(20, 21, holes=[(5, 5), (5, 6)]), "rotation", seed=0, presolve_proofs=False),
        lambda: solve(Board(6, 6), "divide", closed=True, seed=0, presolve_proofs=False),
    ]
    for call in calls:
        try:
            call()
        except Exception:  # noqa: BLE001 - a method that is not installed is simply not warmed
            pass
    return time.perf_counter() - t0


# ---------------------------------------------------------------------- protocol
def send(fh, obj) -> None:
    """Write one frame (length and pickle) to the binary file ``fh`` and flush it."""
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    fh.write(_HEAD.pack(len(data)) + data)
    fh.flush()


def _read_exact(fh, n: int) -> bytes | None:
    chunks, got = [], 0
    while got < n:
        part = fh.read(n - got)
        if not part:
            return None
        chunks.append(part)
        got += len(part)
    return b"".join(chunks)


def receive(fh):
    """Read one frame from the binary file ``fh``; None at the end of the stream."""
    head = _read_exact(fh, _HEAD.size)
    if head is None:
        return None
    body = _read_exact(fh, _HEAD.unpack(head)[0])
    return None if body is None else pickle.loads(body)


def split_frames(buf: bytearray) -> list:
    """Take the complete frames off the front of ``buf`` (in place) and return their objects."""
    out = []
    while len(buf) >= _HEAD.size:
        n = _HEAD.unpack_from(buf)[0]
        if len(buf) < _HEAD.size + n:
            break
        out.append(pickle.loads(bytes(buf[_HEAD.size:_HEAD.size + n])))
        del buf[:_HEAD.size + n]
    return out


def _ask_kernel_for_death_signal() -> bool:
    """``prctl(PR_SET_PDEATHSIG, SIGKILL)`` through ctypes on Linux; whether it was set."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _die() -> None:
    """End this process as the kernel's death signal would (SIGKILL): no clean-up, nobody waits for it."""
    os.kill(os.getpid(), signal.SIGKILL)


def _watch_parent(parent: int, interval: float = PARENT_POLL_S) -> None:
    """Daemon thread: end this process at once when its parent is no longer ``parent``."""
    def watch():
        while True:
            if os.getppid() != parent:
                _die()
            time.sleep(interval)

    threading.Thread(target=watch, name="ktsolve-parent-watch", daemon=True).start()


def die_with_parent() -> None:
    """Tie this worker's life to the census's (see the module docstring); nothing when not started by a pool."""
    try:
        parent = int(os.environ.get(PARENT_ENV, ""))
    except ValueError:
        return
    if os.environ.get(PDEATHSIG_ENV) == "1":
        _ask_kernel_for_death_signal()
    if os.getppid() != parent:  # the census ended before the signal was asked for
        _die()
    _watch_parent(parent)


def main() -> None:
    """The worker process: warm up, say ready, then answer batches until the end of standard input."""
    die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything a library prints goes to standard error, not into the protocol
    inp = sys.stdin.buffer
    seconds = warm_up()
    try:
        send(out, ("ready", os.getpid(), seconds))
        while True:
            msg = receive(inp)
            if msg is None or msg[0] == "stop":
                break
            _, settings, tasks = msg
            for task in tasks:
                send(out, ("answer", answer(task, settings)))
    except BrokenPipeError:  # the census is gone: nobody reads the answers
        pass
