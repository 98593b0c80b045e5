"""A local pool of worker processes that can be killed and replaced, and how questions are batched.

:class:`LocalPool` starts ``workers`` processes (``python -c "...worker.main()"``,
each in its own session so a Ctrl-C at the terminal reaches only the
census), waits until each has warmed up, and hands out batches of questions
from a :class:`TaskQueue`.  Answers come back one at a time as each
question is settled, so the census records them at once.  The pool watches
every worker:

* a worker that dies (its output closes) loses only the question it was
  on: that question is recorded ``unknown`` with the reason ("the worker
  process died (signal SIGKILL)"), the rest of its batch goes back to the
  queue, and a fresh worker takes its place;
* a question that runs past its time limit plus a grace
  (:data:`HANG_GRACE_S` seconds and :data:`HANG_GRACE_SHARE` of the limit)
  is hung: its worker is killed and replaced, and the question recorded
  ``unknown`` with the reason;
* a worker that cannot even start three times in a row ends the census
  with :class:`~ktsolve.errors.CensusError` (something is wrong with the installation);
* a worker dies with the process that started it (see
  :mod:`ktsolve.census.worker`), so a census killed outright leaves none.

:func:`worker_cap` is how many workers a census starts: never more than its
questions, the CPUs it may use, and what the available memory holds at
:data:`WORKER_BYTES` a worker (``--workers 1000`` on six questions starts
at most six, and on two CPUs two).

:class:`BatchPolicy` sizes batches: from the mean cost of the questions
answered so far, a batch aims at ``target`` seconds of work (so that the
cost of sending a batch, a few hundred microseconds here and a few
milliseconds through Dask, stays far below 10 % of it), and never holds
more than the remaining questions divided by twice the workers, so the last
batches are shared out evenly.
"""

from __future__ import annotations

import collections
import math
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable

from ..errors import CensusError
from .family import Task
from .worker import PARENT_ENV, PDEATHSIG_ENV, Answer, make_answer, send, split_frames

__all__ = [
    "worker_cap",
    "usable_cpus",
    "available_memory",
    "WORKER_BYTES",
    "BatchPolicy",
    "TaskQueue",
    "LocalPool",
    "HANG_GRACE_S",
    "HANG_GRACE_SHARE",
    "NO_LIMIT_HANG_S",
    "STARTUP_TIMEOUT_S",
]

#: A question is hung after its time limit plus this many seconds ...
HANG_GRACE_S = 5.0
#: ... plus this share of its time limit.
HANG_GRACE_SHARE = 0.5
#: Seconds after which a question without a time limit counts as hung.
NO_LIMIT_HANG_S = 3600.0
#: Seconds a worker may take to start and warm up (a first run compiles the kernels).
STARTUP_TIMEOUT_S = 900.0
#: Failed starts in a row after which the pool gives up.
MAX_START_FAILURES = 3

#: Memory a census worker is counted for: about 210 MB once warm (numba's kernels and OR-Tools
#: loaded, measured on Linux), and room for the question it works on.
WORKER_BYTES = 400 << 20

_CHILD = "from ktsolve.census.worker import main; main()"


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity where the system says, else the count)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def available_memory() -> int | None:
    """Bytes of memory available to new processes (``MemAvailable`` of /proc/meminfo); None when unknown."""
    try:
        with open("/proc/meminfo", "rb") as fh:
            for line in fh.read(1 << 16).splitlines():
                if line.startswith(b"MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def worker_cap(asked: int, questions: int, *, cpus: int | None = None,
               memory: int | None = -1) -> tuple[int, str | None]:
    """How many workers a local census starts, and why fewer than ``asked`` (None when all of them).

    Never more than the questions to ask (a worker without a question
    only costs its start and its memory), the CPUs this process may use
    (more workers than CPUs share them and end no sooner), and the
    workers that fit in the available memory at :data:`WORKER_BYTES`
    each; always at least one.  ``cpus`` and ``memory`` default to this
    machine's (``memory=None``: unknown, no memory cap).

    Examples
    --------
    >>> worker_cap(40, 6, cpus=2, memory=None)
    (2, 'the 2 CPUs this process may use')
    >>> worker_cap(4, 3, cpus=8, memory=None)
    (3, 'the 3 questions to ask')
    >>> worker_cap(8, 100, cpus=8, memory=3 * WORKER_BYTES)
    (3, 'the memory available (about 1.2 GiB, 400 MiB a worker)')
    >>> worker_cap(2, 100, cpus=8, memory=None)
    (2, None)
    """
    cpus = usable_cpus() if cpus is None else cpus
    memory = available_memory() if memory == -1 else memory
    limits = [(max(1, questions), f"the {questions:,} question{'s' if questions != 1 else ''} to ask"),
              (max(1, cpus), f"the {cpus} CPU{'s' if cpus != 1 else ''} this process may use")]
    if memory is not None:
        limits.append((max(1, memory // WORKER_BYTES),
                       f"the memory available (about {memory / 2**30:.2g} GiB, {WORKER_BYTES >> 20} MiB a worker)"))
    n, why = asked, None
    for limit, reason in limits:
        if limit < n:
            n, why = limit, reason
    return n, why

def hang_after(time_limit: float | None) -> float:
    """Seconds without an answer after which a question counts as hung."""
    if time_limit is None:
        return NO_LIMIT_HANG_S
    return time_limit + HANG_GRACE_S + HANG_GRACE_SHARE * time_limit


class BatchPolicy:
    """How many questions go into the next batch.

    Parameters
    ----------
    workers : int
        Workers sharing the queue.
    target : float
        Seconds of work a batch aims at.
    first : int
        Batch size before any question has been timed.
    fixed : int, optional
        Always this size (tail balancing aside).

    Examples
    --------
    >>> p = BatchPolicy(2, target=0.2, first=4)
    >>> p.size(1000)
    4
    >>> p.observe(10, 0.01)
    >>> p.size(1000), p.size(6)
    (200, 2)
    """

    def __init__(self, workers: int, *, target: float = 0.2, first: int = 4, fixed: int | None = None):
        self.workers = max(1, int(workers))
        self.target = target
        self.first = first
        self.fixed = fixed
        self.answered = 0
        self.work = 0.0

    def observe(self, questions: int, seconds: float) -> None:
        self.answered += questions
        self.work += seconds

    def size(self, remaining: int) -> int:
        if self.fixed is not None:
            want = self.fixed
        elif self.answered == 0:
            want = self.first
        else:
            cost = max(self.work / self.answered, 1e-5)
            want = int(self.target / cost) or 1
        share = math.ceil(remaining / (2 * self.workers))
        return max(1, min(want, share, remaining))


class TaskQueue:
    """Questions still to ask: items (question indices, or tasks) made into tasks on demand.

    Tasks given back (the rest of a dead worker's batch) come out first.
    """

    def __init__(self, items: Iterable, make: Callable[[object], Task] | None = None):
        self._items = collections.deque(items)
        self._make = make or (lambda t: t)
        self._back: collections.deque = collections.deque()

    def __len__(self) -> int:
        return len(self._items) + len(self._back)

    def take(self, n: int) -> list[Task]:
        out = []
        while self._back and len(out) < n:
            out.append(self._back.popleft())
        while self._items and len(out) < n:
            out.append(self._make(self._items.popleft()))
        return out

    def give_back(self, tasks: Iterable[Task]) -> None:
        self._back.extendleft(reversed(list(tasks)))


def _signal_name(code: int) -> str:
    try:
        return signal.Signals(-code).name
    except ValueError:
        return f"signal {-code}"


class _Worker:
    """One worker process: its pipes, its batch in progress, its state."""

    def __init__(self, slot: int, env: dict):
        self.slot = slot
        self.err = tempfile.TemporaryFile()
        # the worker dies with this process (see ktsolve.census.worker): PR_SET_PDEATHSIG follows the
        # thread that starts the child, so it is asked for only when that thread is the main one
        env = {**env, PARENT_ENV: str(os.getpid()),
               PDEATHSIG_ENV: "1" if threading.current_thread() is threading.main_thread() else "0"}
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err,
            start_new_session=True, env=env, bufsize=0,
        )
        self.fd = self.proc.stdout.fileno()
        os.set_blocking(self.fd, False)
        self.buf = bytearray()
        self.state = "starting"  # -> idle <-> busy; dead
        self.pending: collections.deque[Task] = collections.deque()
        self.since = time.perf_counter()
        self.warm_s: float | None = None
        self.pid = self.proc.pid

    def send(self, obj) -> None:
        send(self.proc.stdin, obj)

    def read(self) -> list | None:
        """Frames available now; None when the output has closed (the process ended)."""
        closed = False
        while True:
            try:
                chunk = os.read(self.fd, 1 << 20)
            except BlockingIOError:
                break
            except OSError:
                closed = True
                break
            if not chunk:
                closed = True
                break
            self.buf += chunk
        frames = split_frames(self.buf)
        if closed:
            return frames + [None]
        return frames

    def stderr_tail(self) -> str:
        try:
            self.err.seek(0, os.SEEK_END)
            size = self.err.tell()
            self.err.seek(max(0, size - 2000))
            text = self.err.read().decode("utf-8", "replace")
        except OSError:
            return ""
        lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
        return lines[-1][:300] if lines else ""

    def death_reason(self) -> str:
        try:
            code = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            code = None
        how = ("still running" if code is None else
               f"killed by {_signal_name(code)}" if code < 0 else f"exit code {code}")
        tail = self.stderr_tail()
        return f"the worker process died ({how})" + (f": {tail}" if tail else "")

    def kill(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except OSError:
                self.proc.kill()
        self.close()

    def close(self) -> None:
        self.state = "dead"
        for fh in (self.proc.stdin, self.proc.stdout):
            try:
                fh.close()
            except OSError:
                pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.err.close()


class LocalPool:
    """Worker processes on this machine (see the module docstring).

    Use as a context manager; :meth:`run` may be called several times.

    Parameters
    ----------
    workers : int
        Number of worker processes.
    """

    def __init__(self, workers: int):
        self.workers = int(workers)
        self._env = {**os.environ, "OMP_NUM_THREADS": "1"}
        self._slots: list[_Worker | None] = [None] * self.workers
        self._sel = selectors.DefaultSelector()
        self._failures = 0
        self.warm_s: list[float] = []  # warm-up seconds of every worker started
        self.restarts = 0
        self._settings: dict = {}

    # ------------------------------------------------------------------ lifetime
    def __enter__(self) -> "LocalPool":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _spawn(self, slot: int) -> None:
        w = _Worker(slot, self._env)
        self._slots[slot] = w
        self._sel.register(w.fd, selectors.EVENT_READ, w)

    def _retire(self, w: _Worker, *, kill: bool) -> None:
        try:
            self._sel.unregister(w.fd)
        except (KeyError, ValueError):
            pass
        if kill:
            w.kill()
        else:
            w.close()
        self._slots[w.slot] = None

    def start(self) -> None:
        """Start every worker and wait until all have warmed up."""
        for slot in range(self.workers):
            if self._slots[slot] is None:
                self._spawn(slot)
        while any(w is not None and w.state == "starting" for w in self._slots):
            self._poll(None, 0.2)

    def pids(self) -> list[int]:
        """Process ids of the live workers."""
        return [w.pid for w in self._slots if w is not None and w.state != "dead"]

    def close(self) -> None:
        """Stop every worker (those in the middle of a question are killed)."""
        for w in list(self._slots):
            if w is None:
                continue
            if w.state == "idle":
                try:
                    w.send(("stop",))
                except OSError:
                    pass
                self._retire(w, kill=False)
            else:
                self._retire(w, kill=True)
        self._sel.close()

    # ------------------------------------------------------------------ events
    def _lost(self, w: _Worker, reason: str, emit, queue: TaskQueue | None, *, kill: bool) -> None:
        """Worker ``w`` died or hung: record its current question, give back the rest, replace it."""
        if w.state == "starting":
            self._failures += 1
            if self._failures >= MAX_START_FAILURES:
                tail = w.death_reason() if not kill else reason
                self._retire(w, kill=True)
                raise CensusError(f"census workers cannot start: {tail}")
        else:
            reason = reason if kill else w.death_reason()
        if w.pending:
            current = w.pending.popleft()
            emit([make_answer(current, None, time.perf_counter() - w.since, reason=reason, settings=self._settings)])
            if queue is not None:
                queue.give_back(w.pending)
            w.pending.clear()
        self._retire(w, kill=True)
        self.restarts += 1
        self._spawn(w.slot)

    def _poll(self, queue: TaskQueue | None, timeout: float, emit=None, policy: BatchPolicy | None = None) -> None:
        got: list[Answer] = []  # the answers of this look, recorded together
        for key, _ in self._sel.select(timeout):
            w: _Worker = key.data
            frames = w.read()
            for msg in frames:
                if msg is None:
                    if got:
                        emit(got)
                        got = []
                    self._lost(w, "", emit, queue, kill=False)
                    break
                if msg[0] == "ready":
                    w.state = "idle"
                    w.warm_s = float(msg[2])
                    self.warm_s.append(w.warm_s)
                    self._failures = 0
                elif msg[0] == "answer":
                    ans: Answer = msg[1]
                    task = w.pending.popleft()
                    if task.index != ans.index:  # pragma: no cover - the protocol keeps order
                        raise RuntimeError(f"worker answered question {ans.index}, expected {task.index}")
                    w.since = time.perf_counter()
                    if policy is not None:
                        policy.observe(1, ans.seconds)
                    got.append(ans)
                    if not w.pending:
                        w.state = "idle"
        if got:
            emit(got)
        now = time.perf_counter()
        for w in list(self._slots):
            if w is None:
                continue
            if w.state == "starting" and now - w.since > STARTUP_TIMEOUT_S:
                self._lost(w, f"a worker did not start within {STARTUP_TIMEOUT_S:.0f} s", emit, queue, kill=True)
            elif w.state == "busy" and w.pending:
                limit = w.pending[0].time_limit
                if now - w.since > hang_after(limit):
                    shown = "no time limit" if limit is None else f"its time limit of {limit:g} s"
                    reason = (f"the question ran {now - w.since:.0f} s, past {shown} and the grace; "
                              "its worker was killed")
                    self._lost(w, reason, emit, queue, kill=True)

    def run(self, queue: TaskQueue, emit: Callable[[list[Answer]], None], *, policy: BatchPolicy | None = None,
            settings: dict | None = None, stop: Callable[[], bool] = lambda: False) -> bool:
        """Answer every question of ``queue``, calling ``emit`` with the answers as they come.

        ``emit`` gets a list: the answers that arrived together (at least one).

        Returns True when the queue was emptied, False when ``stop()``
        said to stop first; then the questions in progress are abandoned
        (their workers killed and replaced): they were never recorded, so
        a resumed census asks them again.
        """
        policy = policy or BatchPolicy(self.workers)
        self._settings = settings or {}
        while True:
            if stop():
                for w in list(self._slots):
                    if w is not None and w.state == "busy":
                        w.pending.clear()
                        self._retire(w, kill=True)
                        self._spawn(w.slot)
                return False
            for w in self._slots:
                if w is not None and w.state == "idle" and len(queue):
                    tasks = queue.take(policy.size(len(queue)))
                    w.pending.extend(tasks)
                    w.state = "busy"
                    w.since = time.perf_counter()
                    try:
                        w.send(("batch", self._settings, tasks))
                    except OSError:
                        pass  # the worker died; its closed output is noticed below
            busy = [w for w in self._slots if w is not None and w.state == "busy"]
            if not busy and not len(queue):
                return True
            now = time.perf_counter()
            wait = 0.25
            for w in busy:
                wait = min(wait, max(0.0, w.since + hang_after(w.pending[0].time_limit) - now) + 0.01)
            self._poll(queue, wait, emit, policy)
