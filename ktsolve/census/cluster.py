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

import socket
import struct
import threading
import time
import uuid
from queue import Empty, Queue
from collections.abc import Callable

from .family import Task
from ..errors import CensusError
from .pool import BatchPolicy, LocalPool, TaskQueue
from .worker import Answer, make_answer

__all__ = ["have_dask", "DaskRunner", "run_batch", "warm", "probe_scheduler", "TASK_SECONDS"]

#: Seconds of work one Dask task aims at.
TASK_SECONDS = 1.0
#: Seconds between two looks at Ctrl-C while no task finishes.
POLL_S = 0.25
#: Seconds a client may take past its connect timeout before the census gives up on it.
CONNECT_GRACE_S = 5.0

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
    text = " ".join(str(text).split())
    return text if len(text) <= 200 else text[:197] + "..."


#: Largest first message a Dask scheduler sends (its handshake is a few hundred bytes).
_HANDSHAKE_MAX = 1 << 20


def _tcp_endpoint(address: str) -> tuple[str, int] | None:
    """(host, port) of a ``tcp://host:port`` or ``host:port`` address; None for another scheme."""
    rest = address[len("tcp://"):] if address.startswith("tcp://") else address
    if "://" in rest:
        return None
    host, sep, port = rest.rpartition(":")
    if not sep or not port.isdigit():
        return None
    return host.strip("[]") or "127.0.0.1", int(port)


def probe_scheduler(address: str, timeout: float) -> None:
    """Check within ``timeout`` seconds, on a plain socket, that a Dask scheduler answers at ``address``.

    A Dask server speaks first: its handshake, one message framed as an
    8-byte length and a msgpack body naming its ``pickle-protocol``.  A
    port that accepts and says nothing would keep Dask's client waiting
    far past its own timeout, and one that says something else can make
    it allocate whatever length the first bytes spell; both are refused
    here with :class:`CensusError`.  Only ``tcp://`` addresses are probed.
    """
    end = _tcp_endpoint(address)
    if end is None:
        return
    deadline = time.monotonic() + timeout
    try:
        sock = socket.create_connection(end, timeout=timeout)
    except OSError as exc:
        raise CensusError(f"cannot reach the Dask scheduler at {address!r}: {_one_line(exc)}") from None
    with sock:
        def take(n: int) -> bytes:
            got = b""
            while len(got) < n:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise socket.timeout
                sock.settimeout(left)
                part = sock.recv(n - len(got))
                if not part:
                    raise ConnectionError("it closed the connection")
                got += part
            return got

        try:
            (size,) = struct.unpack("<Q", take(8))
            if not 0 < size <= _HANDSHAKE_MAX:
                raise ValueError
            body = take(size)
        except (socket.timeout, TimeoutError):
            raise CensusError(f"{address!r} accepted the connection but said nothing in {timeout:g} s; "
                              "it is no Dask scheduler") from None
        except OSError as exc:
            raise CensusError(f"cannot reach the Dask scheduler at {address!r}: {_one_line(exc)}") from None
        except ValueError:
            raise CensusError(f"{address!r} answered, but not as a Dask scheduler") from None
    if b"pickle-protocol" not in body:
        raise CensusError(f"{address!r} answered, but not as a Dask scheduler")


def _bounded_client(scheduler, timeout: float):
    """``distributed.Client(scheduler)``, refused with :class:`CensusError` unless it is ready in time.

    The client is made in a daemon thread and waited for ``timeout``
    seconds and a grace, so no answer from the far side can hold the census
    longer; any exception it raises (a ``MemoryError`` from a garbled
    message included) becomes one line.
    """
    from distributed import Client

    out: dict = {}

    def make():
        try:
            out["client"] = Client(scheduler, timeout=timeout, set_as_default=False)
        except BaseException as exc:  # noqa: BLE001 - reported in one line below
            out["error"] = exc

    thread = threading.Thread(target=make, name="ktsolve-dask-connect", daemon=True)
    thread.start()
    thread.join(timeout + CONNECT_GRACE_S)
    if "client" in out:
        return out["client"]
    if "error" in out:
        exc = out["error"]
        raise CensusError(f"cannot reach the Dask scheduler at {scheduler!r}: {type(exc).__name__}: "
                          f"{_one_line(exc)}") from None
    raise CensusError(f"the Dask scheduler at {scheduler!r} did not answer within {timeout + CONNECT_GRACE_S:g} s")


class DaskRunner:
    """Batches of a census as Dask tasks on the cluster at ``scheduler``.

    Parameters
    ----------
    scheduler : str or distributed.Client
        The scheduler's address (``tcp://host:8786``), or a client the
        caller owns (not closed here).
    timeout : float
        Seconds to connect: the probe of a ``tcp://`` address
        (:func:`probe_scheduler`) and Dask's client each get this long,
        and the client a grace of :data:`CONNECT_GRACE_S`, so a census
        never waits much longer for a scheduler that does not answer.
    """

    def __init__(self, scheduler, *, timeout: float = 30.0):
        if not have_dask():
            raise CensusError("a Dask scheduler needs dask.distributed: pip install 'ktsolve[cluster]'")
        from distributed import Client

        self._owned = not isinstance(scheduler, Client)
        if self._owned:
            # the whole connect is bounded: a plain-socket probe first, then the client in a thread
            probe_scheduler(str(scheduler), timeout)
            self.client = _bounded_client(scheduler, timeout)
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
