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
portfolio) asks it how much time is left.  A phase that is not driven in
chunks calls :meth:`Deadline.check` between its parts; it raises
:class:`Stopped` when the time is up or Ctrl-C was pressed, and the method
turns that into its honest ``unknown`` (:meth:`Stopped.stats`).
:meth:`Deadline.extend` gives the call back time that was not its own work
(a first-run numba compile, :mod:`ktsolve.jit`).

Guards nest (a portfolio guards the whole plan, each method its own work),
and :func:`call_guarded` runs a foreign call that blocks its thread (CP-SAT)
in a worker thread, so that Ctrl-C reaches its stop callback at once.

The public API, used by every method: :func:`drive` (with ``deadline=``
for the call's clock and ``position=`` for what progress shows),
:class:`Deadline` (``check``, ``extend``, ``share``, ``part``, ``budget``, ``of``), :func:`begin`,
:class:`Stopped`, :class:`Outcome`, :func:`interrupt_guard`,
:func:`interrupted` and :func:`call_guarded`.

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
    "begin",
    "Outcome",
    "Stopped",
    "drive",
    "interrupt_guard",
    "interrupted",
    "call_guarded",
    "phase",
    "REASONS",
]

#: Seconds one call of ``step`` aims at: short enough to read the clock and
#: draw progress often, long enough that the call overhead is negligible.
TARGET_SECONDS = 0.05

#: Why a run ended.  A clock cancelled by a race (:attr:`Deadline.cancel`) reads as run out: "time limit".
REASONS = ("finished", "budget", "time limit", "interrupted")


class Deadline:
    """The wall clock of one call: started once, asked by every phase.

    Parameters
    ----------
    time_limit : float or None
        Seconds from now; None never expires.
    t0 : float, optional
        ``time.perf_counter()`` of the start, when the clock started earlier.

    Examples
    --------
    >>> d = Deadline(None)
    >>> d.remaining() is None, d.expired()
    (True, False)
    >>> Deadline(10).share(0.5, cap=2.0) <= 2.0
    True
    >>> Deadline(1e-9, t0=0.0).check("building the graph")
    Traceback (most recent call last):
    ...
    ktsolve.driver.Stopped: the time limit ran out while building the graph
    """

    __slots__ = ("t0", "time_limit", "extra", "cancel")

    def __init__(self, time_limit: float | None, t0: float | None = None,
                 cancel: threading.Event | None = None):
        self.t0 = time.perf_counter() if t0 is None else t0
        self.time_limit = time_limit
        self.extra = 0.0
        # set by a race (:func:`ktsolve.portfolio.run_plan` with lanes) once another step has settled the
        # question: from then on this clock reads as run out, so every phase that asks it stops
        self.cancel = cancel

    def cancelled(self) -> bool:
        """True once the race this clock belongs to was settled by another step."""
        return self.cancel is not None and self.cancel.is_set()

    def elapsed(self) -> float:
        return time.perf_counter() - self.t0

    def remaining(self) -> float | None:
        """Seconds left (never negative), or None without a limit; 0 once cancelled."""
        if self.cancelled():
            return 0.0
        if self.time_limit is None:
            return None
        return max(0.0, self.time_limit + self.extra - self.elapsed())

    def budget(self) -> float | None:
        """The time left as a callee's ``time_limit``: None without a limit, else at least 1e-9 s.

        A time limit must be positive, so a call whose time is up hands on
        a vanishing one, and the callee answers ``unknown`` at once.
        """
        left = self.remaining()
        return None if left is None else max(left, 1e-9)

    def expired(self) -> bool:
        if self.cancelled():
            return True
        return self.time_limit is not None and self.elapsed() >= self.time_limit + self.extra

    def share(self, fraction: float = 1.0, cap: float | None = None) -> float | None:
        """``fraction`` of the time left, at most ``cap`` seconds (None: no limit at all)."""
        left = self.remaining()
        if left is None:
            return cap
        budget = left * fraction
        return budget if cap is None else min(budget, cap)

    def extend(self, seconds: float) -> None:
        """Give the call ``seconds`` more: time that is not the call's own work.

        Used for the first-run compile of numba kernels (reported apart in
        ``stats["compile_s"]``), so that a cold cache does not eat the
        search's budget.
        """
        self.extra += max(0.0, float(seconds))

    def check(self, phase: str = "") -> None:
        """Raise :class:`Stopped` when Ctrl-C was pressed or the time is up.

        ``phase`` says what was running ("building the knight graph"); it
        ends up in the reason of the ``unknown`` answer.  Cheap enough to
        call between the parts of any phase.
        """
        if interrupted():
            raise Stopped("interrupted", phase)
        if self.expired():  # cancelled by a race too: the clock reads as run out
            raise Stopped("time limit", phase)

    def part(self, fraction: float = 1.0, cap: float | None = None) -> "Deadline":
        """A clock for a part of the call, started now: :meth:`share` of the time left, as a Deadline.

        A plan hands a step its part this way, and a colony its seeding;
        the part never ends after this clock would (at most the time left
        when it starts), and :meth:`extend` on it leaves this clock alone.

        Examples
        --------
        >>> whole = Deadline(10)
        >>> 4.9 < whole.part(0.5).time_limit <= 5.0, Deadline(None).part(0.5).time_limit is None
        (True, True)
        """
        return Deadline(self.share(fraction, cap), cancel=self.cancel)

    @classmethod
    def of(cls, time_limit: "Deadline | float | None") -> "Deadline":
        """A caller's Deadline itself, or a new clock for a time limit in seconds (checked), or None.

        The one conversion of a ``time_limit`` argument: every method and
        entry point calls it (through :func:`begin`) once, at its start, and
        passes the Deadline down to its phases and to :func:`drive`.

        Examples
        --------
        >>> d = Deadline(5)
        >>> Deadline.of(d) is d, Deadline.of(2.5).time_limit, Deadline.of(None).time_limit
        (True, 2.5, None)
        >>> Deadline.of(-1)
        Traceback (most recent call last):
        ...
        ktsolve.errors.InvalidParameterError: time_limit must be a positive number of seconds, not -1
        """
        if isinstance(time_limit, Deadline):
            return time_limit
        from .checks import check_time_limit

        return cls(check_time_limit(time_limit))


def begin(time_limit: "Deadline | float | None", seed, *, seeded: bool = True,
          default: float | None = None) -> tuple[Deadline, int | None]:
    """The entry of a method or a public call: its clock and its seed, each settled here.

    ``time_limit`` is a number of seconds (checked), None, or a caller's
    :class:`Deadline`, used as it is (:meth:`Deadline.of`): the one form a
    time limit takes from :func:`ktsolve.solve` down to every loop.
    ``seed`` is checked; None becomes a fresh draw when ``seeded``
    (:func:`ktsolve.seeds.resolve_seed`), and stays None for a method that
    draws no random number.  A seed that is already a number is kept, so a
    seed settled by a caller (a plan gives every step the plan's seed) goes
    through unchanged.  ``default`` is the method's own budget in seconds,
    which a call without a time limit gets (CP-SAT's, say).

    Examples
    --------
    >>> deadline, seed = begin(2.0, 7)
    >>> deadline.time_limit, seed
    (2.0, 7)
    >>> begin(None, None, seeded=False)[1] is None, isinstance(begin(None, None)[1], int)
    (True, True)
    """
    from .seeds import check_seed, resolve_seed

    deadline = Deadline.of(time_limit)
    if default is not None and deadline.time_limit is None:
        deadline = Deadline(default, cancel=deadline.cancel)
    return deadline, (resolve_seed(seed) if seeded else check_seed(seed))


@dataclass(frozen=True)
class Outcome:
    """How a driven run ended: ``done`` units, and the reason (one of :data:`REASONS`).

    Examples
    --------
    >>> Outcome(5, "interrupted", 0.1).interrupted
    True
    """

    done: int
    reason: str
    seconds: float

    @property
    def interrupted(self) -> bool:
        return self.reason == "interrupted"


class _Flag:
    """Whether Ctrl-C was pressed while a guard was active (``flag.set``)."""

    __slots__ = ("set", "callbacks")

    def __init__(self):
        self.set = False
        self.callbacks: list[Callable[[], None]] = []


#: The guards active in the main thread, outermost first; the outermost owns the handler.
_ACTIVE: list[_Flag] = []


def _handler(signum, frame):
    if _ACTIVE and _ACTIVE[0].set:
        raise KeyboardInterrupt  # a second Ctrl-C: the user wants out now
    for flag in _ACTIVE:
        flag.set = True
    for flag in list(_ACTIVE):
        for callback in list(flag.callbacks):
            callback()


def interrupted() -> bool:
    """True when Ctrl-C was pressed inside the active :func:`interrupt_guard` (False outside any).

    Phases that are not driven in chunks (graph building, proofs) ask this
    between their parts; :meth:`Deadline.check` does it for them.

    Examples
    --------
    >>> interrupted()
    False
    """
    return bool(_ACTIVE) and _ACTIVE[-1].set


@contextmanager
def interrupt_guard(on_interrupt: Callable[[], None] | None = None) -> Iterator[_Flag]:
    """While inside, SIGINT sets ``flag.set`` (and calls ``on_interrupt``) instead of raising.

    Guards nest: a guard opened inside another one shares its handler, a
    Ctrl-C sets the flags of all of them, and a guard opened after a Ctrl-C
    starts with its flag set (the whole call is being interrupted, so work
    that starts now should stop at once).  Only the main thread can own
    signal handlers; elsewhere, or when a handler other than Python's
    default one is installed (someone else manages Ctrl-C), the guard
    changes nothing and ``flag.set`` stays False.  A second Ctrl-C inside
    the guard raises :class:`KeyboardInterrupt` as usual, so a user can
    always get out.

    Examples
    --------
    >>> with interrupt_guard() as outer:
    ...     with interrupt_guard() as inner:
    ...         interrupted()
    False
    """
    flag = _Flag()
    if on_interrupt is not None:
        flag.callbacks.append(on_interrupt)
    if threading.current_thread() is not threading.main_thread():
        yield flag
        return
    if _ACTIVE:
        flag.set = _ACTIVE[-1].set
        _ACTIVE.append(flag)
        try:
            yield flag
        finally:
            _ACTIVE.remove(flag)
        return
    previous = signal.getsignal(signal.SIGINT)
    if previous is not signal.default_int_handler:
        yield flag
        return
    _ACTIVE.append(flag)
    signal.signal(signal.SIGINT, _handler)
    try:
        yield flag
    finally:
        signal.signal(signal.SIGINT, previous)
        _ACTIVE.clear()


def call_guarded(func: Callable[[], object], *, on_interrupt: Callable[[], None] | None = None,
                 poll: float = 0.05, cancel: threading.Event | None = None) -> tuple[object, bool]:
    """Run ``func()`` (work that cannot be cut into chunks) so that Ctrl-C stops it cleanly.

    A foreign library call that blocks the main thread (CP-SAT's
    ``solver.solve``) keeps Python's signal handlers from running until it
    returns.  So ``func`` runs in a worker thread while the main thread
    waits under :func:`interrupt_guard`; a Ctrl-C then calls
    ``on_interrupt`` at once (``solver.stop_search``), and ``func`` is
    expected to return soon after.  Outside the main thread ``func`` simply
    runs, unless ``cancel`` is given: a race (:attr:`Deadline.cancel`) then
    has the wait loop, in any thread, call ``on_interrupt`` at every look
    once the event is set, so that a losing CP-SAT stops at once (this is
    not reported as an interrupt: the caller's clock reads as run out).

    Returns
    -------
    (value, interrupted)
        What ``func`` returned (its exception is raised again here), and
        whether Ctrl-C was pressed meanwhile.

    Examples
    --------
    >>> call_guarded(lambda: 6 * 7)
    (42, False)
    """
    with interrupt_guard(on_interrupt) as flag:
        if flag.set and on_interrupt is not None:
            on_interrupt()
        if threading.current_thread() is not threading.main_thread() and cancel is None:
            return func(), flag.set
        box: dict = {}

        def work():
            try:
                box["value"] = func()
            except BaseException as exc:  # noqa: BLE001 - handed to the caller below
                box["error"] = exc

        worker = threading.Thread(target=work, name="ktsolve-guarded", daemon=True)
        worker.start()
        while worker.is_alive():
            if cancel is not None and cancel.is_set() and on_interrupt is not None:
                # another step of the race settled the question: stop this one, at every look until it
                # ends, since a stop that lands before the library's search has begun is lost (CP-SAT's
                # stop_search before solve() has made its wrapper)
                on_interrupt()
            worker.join(poll)
        if "error" in box:
            raise box["error"]
        return box.get("value"), flag.set


class Stopped(Exception):
    """Raised by :meth:`Deadline.check` when the time is up or Ctrl-C was pressed.

    ``reason`` is ``"time limit"`` or ``"interrupted"`` (see :data:`REASONS`).
    A method catches it and answers an honest ``unknown`` with
    :meth:`stats`.

    Examples
    --------
    >>> Stopped("time limit", "walking").stats()
    {'reason': 'the time limit ran out while walking', 'interrupted': False}
    """

    def __init__(self, reason: str, phase: str = ""):
        self.reason = reason
        self.phase = phase
        super().__init__(self.describe())

    @property
    def interrupted(self) -> bool:
        return self.reason == "interrupted"

    def describe(self) -> str:
        what = "interrupted (Ctrl-C)" if self.interrupted else "the time limit ran out"
        return f"{what} while {self.phase}" if self.phase else what

    def stats(self) -> dict:
        """``{"reason": ..., "interrupted": ...}`` for the ``unknown`` answer."""
        return {"reason": self.describe(), "interrupted": self.interrupted}


def phase(progress, name: str, total: int | None = None) -> None:
    """Name the phase a run enters (``"rotation: squares on the path"``), for the progress bar.

    ``progress`` is what the method was given: the command line's bar
    (:class:`ktsolve.progress.Bar`) shows the name, the time, and the count
    that the following ``progress(done, total)`` calls give (``total``
    here when it is known at once).  A plain function, or None, is left
    alone, so a user's ``progress`` need not know about phases.

    Examples
    --------
    >>> phase(None, "walks"); phase(lambda done, total: None, "walks", 10)
    """
    named = getattr(progress, "phase", None)
    if named is not None and callable(named):
        named(name, total)


def drive(
    step: Callable[[int], tuple[int, bool]],
    *,
    units: int | None,
    time_limit: "float | Deadline | None" = None,
    progress: Callable[[int, int], None] | None = None,
    first: int = 1,
    most: int | None = None,
    target: float = TARGET_SECONDS,
    deadline: Deadline | None = None,
    position: Callable[[int], tuple[int, int]] | None = None,
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
    time_limit : float or Deadline, optional
        Seconds from the call of :func:`drive`, or a Deadline (taken as
        ``deadline``).
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
    deadline : Deadline, optional
        The clock of the whole call: the run also stops when it expires
        (with ``time_limit`` too, whichever comes first).
    position : callable, optional
        ``position(done)`` returns the ``(done, total)`` that ``progress``
        is given, for methods whose units are not what a person counts
        (work units of a search, reported as squares on the path).

    Returns
    -------
    Outcome

    Notes
    -----
    A step's answer must not depend on how the work is cut into chunks
    (chunk sizes follow the clock): keep random streams in the caller's
    state, or reseed them from a unit's number with
    :func:`ktsolve.seeds.derive_seeds`.

    Examples
    --------
    >>> out = drive(lambda k: (k, False), units=1000, first=10)
    >>> out.done, out.reason
    (1000, 'budget')
    >>> drive(lambda k: (k, False), units=None, time_limit=0.05).reason
    'time limit'
    """
    t0 = time.perf_counter()
    given = [d for d in (deadline, time_limit) if isinstance(d, Deadline)]
    clocks = [d for d in given if d.time_limit is not None]
    races = [d for d in given if d.cancel is not None]
    end = t0 + time_limit if time_limit is not None and not isinstance(time_limit, Deadline) else None

    def time_left(now: float) -> float | None:
        left = None if end is None else end - now
        for d in clocks:
            other = d.t0 + d.time_limit + d.extra - now
            left = other if left is None else min(left, other)
        return left

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
            if any(d.cancelled() for d in races):
                return Outcome(done, "time limit", now - t0)  # another step of the race settled it
            left = time_left(now)
            if left is not None and left <= 0:
                return Outcome(done, "time limit", now - t0)
            k = chunk
            if units is not None:
                k = min(k, units - done)
            if most is not None:
                k = min(k, most)
            if left is not None and rate is not None and rate > 0:
                # end the last chunk near the deadline instead of a whole chunk after it
                k = max(1, min(k, int(left / rate) + 1))
            t1 = time.perf_counter()
            ran, finished = step(k)
            spent = time.perf_counter() - t1
            if ran < 0 or (ran == 0 and not finished):
                raise RuntimeError("a method's step ran no unit and did not finish")
            done += ran
            if progress is not None:
                progress(*(position(done) if position is not None else
                           (done, units if units is not None else done)))
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
