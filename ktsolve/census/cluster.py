"""Running a census on a Dask distributed cluster (``pip install 'ktsolve[cluster]'``).

The census stays the same: the questions, their seeds, their batches and the
results file (written by the process that runs the census, as answers come
back).  Only where the batches run changes: each batch is one Dask task,
``client.submit(run_batch, settings, tasks)``.

Inside a Dask worker, :func:`run_batch` does not answer the questions in
the Dask worker process itself: it hands them to a :class:`LocalPool` of one
worker process that lives as long as the Dask worker (one for each batch it runs at once),
so the kernels are warmed once per worker, not per task (:meth:`DaskRunner.start`
warms one in every Dask worker before the first batch), and a question that
hangs past its time limit is killed and recorded ``unknown`` there, exactly
as on the local pool.  A Dask worker that dies takes its running task with
it; Dask runs the task again on another worker (its ``allowed-failures``
setting), and when Dask gives up, every question of the batch is recorded
``unknown`` with Dask's reason.  Either way the census goes on.

The census keeps about two batches per Dask thread in flight and sizes
batches for about :data:`TASK_SECONDS` of work each, so the per-task cost of
Dask (milliseconds) stays far below 10 % of the work.
"""

from __future__ import annotations

import threading
import time
import uuid
from queue import Empty, Queue
from collections.abc import Callable

from .family import Task
from ..errors import CensusError
from .pool import BatchPolicy, LocalPool, TaskQueue
from .worker import Answer, make_answer

__all__ = ["have_dask", "DaskRunner", "run_batch", "warm", "TASK_SECONDS"]

#: Seconds of work one Dask task aims at.
TASK_SECONDS = 1.0
#: Seconds between two looks at Ctrl-C while no task finishes.
POLL_S = 0.25

_FREE: list[LocalPool] = []
_FREE_LOCK = threading.Lock()


def have_dask() -> bool:
    """Whether ``dask.distributed`` can be imported."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


def _take_pool() -> LocalPool:
    """A free one-process pool of this Dask worker process, started (and warmed) when there is none."""
    with _FREE_LOCK:
        if _FREE:
            return _FREE.pop()
    pool = LocalPool(1)
    pool.start()
    return pool


def _give_pool(pool: LocalPool) -> None:
    with _FREE_LOCK:
        _FREE.append(pool)


def warm() -> list[float]:
    """A Dask task that makes sure this worker process has a warm pool; returns its warm-up seconds."""
    pool = _take_pool()
    _give_pool(pool)
    return list(pool.warm_s)


def run_batch(settings: dict, tasks: list[Task]) -> tuple[list[Answer], float]:
    """The Dask task: answer ``tasks`` in a pool of this worker; returns the answers and the seconds spent."""
    t0 = time.perf_counter()
    pool = _take_pool()
    out: list[Answer] = []
    pool.run(TaskQueue(tasks), out.extend, policy=BatchPolicy(1, fixed=max(1, len(tasks))), settings=settings)
    _give_pool(pool)
    return out, time.perf_counter() - t0


def _one_line(text) -> str:
    return " ".join(str(text).split())


class DaskRunner:
    """Batches of a census as Dask tasks on the cluster at ``scheduler``.

    Parameters
    ----------
    scheduler : str or distributed.Client
        The scheduler's address (``tcp://host:8786``), or a client the
        caller owns (not closed here).
    """

    def __init__(self, scheduler, *, timeout: float = 30.0):
        if not have_dask():
            raise CensusError("a Dask scheduler needs dask.distributed: pip install 'ktsolve[cluster]'")
        from distributed import Client

        self._owned = not isinstance(scheduler, Client)
        if self._owned:
            try:
                self.client = Client(scheduler, timeout=timeout, set_as_default=False)
            except (OSError, TimeoutError, ValueError, TypeError) as exc:
                raise CensusError(f"cannot reach the Dask scheduler at {scheduler!r}: {_one_line(exc)}") from None
        else:
            self.client = scheduler
        self.address = getattr(self.client.scheduler, "address", str(scheduler))
        self.workers = sum(self.client.nthreads().values())
        if self.workers == 0:
            self.close()
            raise CensusError(f"the Dask cluster at {self.address} has no workers")
        self.warm_s: list[float] = []
        self.restarts = 0

    def __enter__(self) -> "DaskRunner":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self._owned:
            self.client.close()

    def start(self) -> None:
        """Start (and warm) a worker process in every Dask worker before the first batch."""
        tag = uuid.uuid4().hex[:8]
        futs = [self.client.submit(warm, workers=[addr], pure=False, key=f"ktsolve-census-warm-{tag}-{i}")
                for i, addr in enumerate(self.client.nthreads())]
        for seconds in self.client.gather(futs):
            self.warm_s.extend(seconds)

    def run(self, queue: TaskQueue, emit: Callable[[list[Answer]], None], *, policy: BatchPolicy | None = None,
            settings: dict | None = None, stop: Callable[[], bool] = lambda: False) -> bool:
        """Answer every question of ``queue`` on the cluster; same contract as :meth:`LocalPool.run`."""
        settings = settings or {}
        policy = policy or BatchPolicy(self.workers, target=TASK_SECONDS)
        tag = uuid.uuid4().hex[:8]
        flying: dict = {}
        finished: Queue = Queue()  # futures land here when done (Dask calls back from its thread)
        batch_no = 0
        while True:
            while not stop() and len(queue) and len(flying) < 2 * self.workers:
                tasks = queue.take(policy.size(len(queue)))
                batch_no += 1
                fut = self.client.submit(run_batch, settings, tasks, pure=False,
                                         key=f"ktsolve-census-{tag}-{batch_no}")
                flying[fut] = tasks
                fut.add_done_callback(finished.put)
            if stop():
                for fut in flying:
                    fut.cancel()
                return False
            if not flying:
                return True
            try:
                done = [finished.get(timeout=POLL_S)]
            except Empty:
                continue
            while not finished.empty():
                done.append(finished.get_nowait())
            for fut in done:
                tasks = flying.pop(fut, None)
                if tasks is None:
                    continue
                try:
                    answers, _ = fut.result()
                except Exception as exc:  # noqa: BLE001 - a lost batch is recorded, the census goes on
                    reason = f"the Dask task failed ({type(exc).__name__}: {_one_line(exc)})"
                    answers = [make_answer(t, None, 0.0, reason=reason, settings=settings) for t in tasks]
                for ans in answers:
                    policy.observe(1, ans.seconds)
                if answers:
                    emit(answers)
