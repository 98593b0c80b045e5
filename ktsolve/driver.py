"""One driver for budgets, progress and Ctrl-C, used by every method.

A method cuts its work into *units* (cycles of a colony, walks, attempts,
search nodes, rotation steps) and hands :func:`drive` a ``step(k)`` function
that runs at most ``k`` units and returns how many it ran and whether the
work is finished (a tour found, the search space exhausted).  The driver
calls ``step`` with chunks sized so that each call takes about
:data:`TARGET_SECONDS`, and between calls it

* stops when the unit budget is used up, the time limit is reached, or the
  user pressed Ctrl-C;
* reports ``progress(done, total)``;
* shortens the last chunk so that it ends near the deadline, not after it.

Ctrl-C does not raise inside the work: while :func:`drive` runs, SIGINT
only sets a flag (the compiled kernels cannot be interrupted anyway), the
current chunk finishes, and the run ends with the reason ``"interrupted"``.
The method then answers an honest ``unknown`` with
``stats["interrupted"] = True``; the command line turns that into exit code
130.  :func:`interrupt_guard` gives the same behaviour to work that is not
cut into chunks (a CP-SAT solve, which it stops through a callback).

A :class:`Deadline` is the wall clock of a whole call: it is made once when
a call starts, and every phase (graph building, proofs, each method of a
portfolio) asks it how much time is left.

Examples
--------
>>> calls = []
>>> def step(k):
...     calls.append(k)
...     return k, False
>>> out = drive(step, units=10, first=4)
>>> out.done, out.reason
(10, 'budget')
>>> out = drive(lambda k: (1, True), units=None)
>>> out.done, out.reason
(1, 'finished')
"""

from __future__ import annotations

import math
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

__all__ = [
    "TARGET_SECONDS",
    "Deadline",
    "Outcome",
    "drive",
    "interrupt_guard",
    "REASONS",
]

#: Seconds one call of ``step`` aims at: short enough to read the clock and
#: draw progress often, long enough that the call overhead is negligible.
TARGET_SECONDS = 0.05

#: Why a run ended.
REASONS = ("finished", "budget", "time limit", "interrupted")


class Deadline:
    """The wall clock of one call: started once, asked by every phase.

    Parameters
    ----------
    time_limit : float or None
        Seconds from now; None never expires.

    Examples
    --------
    >>> d = Deadline(None)
    >>> d.remaining() is None, d.expired()
    (True, False)
    >>> Deadline(10).share(0.5, cap=2.0) <= 2.0
    True
    """

    __slots__ = ("t0", "time_limit")

    def __init__(self, time_limit: float | None, t0: float | None = None):
        self.t0 = time.perf_counter() if t0 is None else t0
        self.time_limit = time_limit

    def elapsed(self) -> float:
        return time.perf_counter() - self.t0

    def remaining(self) -> float | None:
        """Seconds left (never negative), or None without a limit."""
        if self.time_limit is None:
            return None
        return max(0.0, self.time_limit - self.elapsed())

    def expired(self) -> bool:
        return self.time_limit is not None and self.elapsed() >= self.time_limit

    def share(self, fraction: float = 1.0, cap: float | None = None) -> float | None:
        """``fraction`` of the time left, at most ``cap`` seconds (None: no limit at all)."""
        left = self.remaining()
        if left is None:
            return cap
        budget = left * fraction
        return budget if cap is None else min(budget, cap)


@dataclass(frozen=True)
class Outcome:
    """How a driven run ended: ``done`` units, and the reason (one of :data:`REASONS`)."""

    done: int
    reason: str
    seconds: float

    @property
    def interrupted(self) -> bool:
        return self.reason == "interrupted"


class _Flag:
    __slots__ = ("set",)

    def __init__(self):
        self.set = False


@contextmanager
def interrupt_guard(on_interrupt: Callable[[], None] | None = None) -> Iterator[_Flag]:
    """While inside, SIGINT sets ``flag.set`` (and calls ``on_interrupt``) instead of raising.

    Only the main thread can own signal handlers; elsewhere, or when a
    handler other than Python's default one is installed (someone else
    manages Ctrl-C), the guard changes nothing and ``flag.set`` stays False.
    A second Ctrl-C inside the guard raises :class:`KeyboardInterrupt` as
    usual, so a user can always get out.
    """
    flag = _Flag()
    if threading.current_thread() is not threading.main_thread():
        yield flag
        return
    previous = signal.getsignal(signal.SIGINT)
    if previous is not signal.default_int_handler:
        yield flag
        return

    def handler(signum, frame):
        if flag.set:
            raise KeyboardInterrupt
        flag.set = True
        if on_interrupt is not None:
            on_interrupt()

    signal.signal(signal.SIGINT, handler)
    try:
        yield flag
    finally:
        signal.signal(signal.SIGINT, previous)


def drive(
    step: Callable[[int], tuple[int, bool]],
    *,
    units: int | None,
    time_limit: float | None = None,
    progress: Callable[[int, int], None] | None = None,
    first: int = 1,
    most: int | None = None,
    target: float = TARGET_SECONDS,
) -> Outcome:
    """Run ``step`` in chunks until it finishes, the budget is used, time runs out or Ctrl-C.

    Parameters
    ----------
    step : callable
        ``step(k)`` runs at most ``k`` units (``k >= 1``) and returns
        ``(units run, finished)``.  A call that runs no unit must say it
        finished.
    units : int or None
        Unit budget; None runs until ``step`` finishes or time runs out.
    time_limit : float, optional
        Seconds from the call of :func:`drive`.
    progress : callable, optional
        ``progress(done, total)`` after every chunk; ``total`` is ``units``
        (or ``done`` when there is no budget).
    first : int
        Units in the first chunk, before the driver has measured a unit's
        cost (the first call also pays for compiling the kernel).
    most : int, optional
        Largest chunk (memory of the caller's output buffers, say).
    target : float
        Seconds a chunk aims at.

    Returns
    -------
    Outcome
    """
    t0 = time.perf_counter()
    deadline = None if time_limit is None else t0 + time_limit
    done = 0
    chunk = max(1, int(first))
    rate = None  # seconds per unit, measured after the first timed chunk
    with interrupt_guard() as flag:
        while True:
            if flag.set:
                return Outcome(done, "interrupted", time.perf_counter() - t0)
            if units is not None and done >= units:
                return Outcome(done, "budget", time.perf_counter() - t0)
            now = time.perf_counter()
            if deadline is not None and now >= deadline:
                return Outcome(done, "time limit", now - t0)
            k = chunk
            if units is not None:
                k = min(k, units - done)
            if most is not None:
                k = min(k, most)
            if deadline is not None and rate is not None and rate > 0:
                # end the last chunk near the deadline instead of a whole chunk after it
                k = max(1, min(k, int((deadline - now) / rate) + 1))
            t1 = time.perf_counter()
            ran, finished = step(k)
            spent = time.perf_counter() - t1
            if ran < 0 or (ran == 0 and not finished):
                raise RuntimeError("a method's step ran no unit and did not finish")
            done += ran
            if progress is not None:
                progress(done, units if units is not None else done)
            if finished:
                reason = "interrupted" if flag.set else "finished"
                return Outcome(done, reason, time.perf_counter() - t0)
            if ran:
                measured = spent / ran
                # the first chunk includes compiling; trust later chunks more
                rate = measured if rate is None else 0.5 * rate + 0.5 * measured
                if spent < target / 2:
                    chunk = min(chunk * 2, 1 << 40) if spent > 0 else chunk * 8
                elif spent > target * 2 and chunk > 1:
                    chunk = max(1, chunk // 2)
                if rate > 0 and not math.isinf(rate):
                    chunk = max(1, min(chunk, int(target / rate * 2) + 1))
