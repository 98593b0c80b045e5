"""The progress bar of the command line: drawn on a terminal, ticking every second, silent when piped.

A long run goes through *phases* (building the knight graph, the proofs, a
method's walks, compiling numba kernels on a first run); within a phase a
method may count (walks done of the walks allowed, squares on the path)
and add a short note (the frontier count shows its number of states).
The bar shows the command, the phase's name, the count and a bar where one
is known, and the time since the command started, and it is redrawn every
second by a thread of its own, so its clock moves even while a phase
counts nothing::

    ktsolve auto | matching proof | 0:03
    ktsolve rotation | rotation: squares on the path 812/900 [##########----] 90% | 0:12

Methods report through the callable they are given, as everywhere in
ktsolve: ``progress(done, total)`` or ``progress(done, total, note)`` counts, and
:func:`ktsolve.driver.phase` names a phase (it calls ``progress.phase``
when the callable has one, so a user's plain function still works).  The
first-run compile of numba kernels (:func:`ktsolve.jit.prepare`) shows as a
phase of the bar that is active, instead of a line of its own.

Nothing is drawn unless standard error is a terminal: piped, the command
writes exactly what it wrote before.
"""

from __future__ import annotations

import shutil
import sys
import threading
import time
from contextlib import contextmanager

from .checks import check_flag

__all__ = ["Bar", "terminal_progress", "active_bar", "format_elapsed", "TICK_SECONDS"]

#: Seconds between two redraws of the bar when nothing reports.
TICK_SECONDS = 1.0

#: Characters of the bar itself.
_BAR_WIDTH = 20

#: The bar being drawn in this process, if any (what :func:`active_bar` returns).
_ACTIVE: list = []


def format_elapsed(seconds: float) -> str:
    """``m:ss`` (or ``h:mm:ss``) of a number of seconds.

    Examples
    --------
    >>> format_elapsed(7.9), format_elapsed(125), format_elapsed(3725)
    ('0:07', '2:05', '1:02:05')
    """
    whole = int(max(0.0, seconds))
    h, rest = divmod(whole, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class Bar:
    """One line on a terminal: ``desc | phase count [bar] pct | elapsed``, redrawn every ``tick`` seconds.

    Call it as ``bar(done, total)`` to count, and ``bar.phase(name,
    total=None)`` to start a phase (its count starts again from 0).  Both
    may be called from any thread; drawing happens under a lock.

    Examples
    --------
    >>> import io
    >>> out = io.StringIO()
    >>> bar = Bar("ktsolve demo", out, tick=None, width=80)
    >>> bar.phase("walks", total=10)
    >>> bar(4, 10)
    >>> bar.line().split(" | ")[:2]
    ['ktsolve demo', 'walks 4/10 [########------------] 40%']
    >>> bar.close()
    """

    def __init__(self, desc: str, stream, *, tick: float | None = TICK_SECONDS, width: int | None = None):
        self.desc = desc
        self.stream = stream
        self.width = width
        self.t0 = time.perf_counter()
        self.name = ""
        self.done = 0
        self.total = None
        self.note = None
        self._lock = threading.Lock()
        self._drawn = False
        self._closed = threading.Event()
        self._ticker = None
        if tick is not None:
            self._ticker = threading.Thread(target=self._tick, args=(float(tick),), name="ktsolve-progress",
                                            daemon=True)
            self._ticker.start()

    # ------------------------------------------------------------------ what methods call
    def __call__(self, done, total=None, note=None) -> None:
        with self._lock:
            self.done = int(done)
            if total is not None:
                self.total = int(total)
            self.note = None if note is None else str(note)
        self.draw()

    def phase(self, name: str, total: int | None = None) -> None:
        """Start a phase: its name, and the total of its count when one is known."""
        with self._lock:
            self.name = str(name)
            self.done = 0
            self.total = None if total is None else int(total)
            self.note = None
        self.draw()

    def state(self) -> tuple:
        """The phase and its count, to put back with :meth:`restore` after an interlude (a compile)."""
        with self._lock:
            return self.name, self.done, self.total

    def restore(self, state: tuple) -> None:
        with self._lock:
            self.name, self.done, self.total = state
        self.draw()

    # ------------------------------------------------------------------ drawing
    def line(self) -> str:
        """The text of the bar now (without the carriage return)."""
        with self._lock:
            name, done, total, note = self.name, self.done, self.total, self.note
        parts = [self.desc]
        middle = name
        if total is not None and total > 0:
            share = min(1.0, max(0.0, done / total))
            filled = int(round(share * _BAR_WIDTH))
            middle += (f"{' ' if middle else ''}{done:,}/{total:,} [{'#' * filled}{'-' * (_BAR_WIDTH - filled)}] "
                       f"{100 * share:.0f}%")
        elif done:
            middle += f"{' ' if middle else ''}{done:,}"
        if note:
            middle += f"{' ' if middle else ''}{note}"
        if middle:
            parts.append(middle)
        parts.append(format_elapsed(time.perf_counter() - self.t0))
        text = " | ".join(parts)
        width = self.width or shutil.get_terminal_size((80, 24)).columns
        if len(text) > width - 1:
            text = text[: max(1, width - 2)] + "…"
        return text

    def draw(self) -> None:
        if self._closed.is_set():
            return
        text = self.line()
        with self._lock:
            try:
                self.stream.write("\r" + text + "\x1b[K")
                self.stream.flush()
                self._drawn = True
            except (OSError, ValueError):
                pass  # a terminal that went away: the work goes on without its bar

    def say(self, message: str) -> None:
        """Write a line above the bar (the bar is drawn again under it)."""
        with self._lock:
            try:
                self.stream.write("\r\x1b[K" + message + "\n")
                self.stream.flush()
            except (OSError, ValueError):
                pass
        self.draw()

    def _tick(self, tick: float) -> None:
        while not self._closed.wait(tick):
            self.draw()

    def close(self) -> None:
        """Stop the clock and wipe the line, so what follows starts at the left margin."""
        self._closed.set()
        if self._ticker is not None:
            self._ticker.join()
        with self._lock:
            if self._drawn:
                try:
                    self.stream.write("\r\x1b[K")
                    self.stream.flush()
                except (OSError, ValueError):
                    pass


def active_bar() -> Bar | None:
    """The bar being drawn now, if any (the first-run compile shows itself as one of its phases).

    Examples
    --------
    >>> active_bar() is None
    True
    """
    return _ACTIVE[-1] if _ACTIVE else None


@contextmanager
def terminal_progress(desc: str, *, enabled: bool | None = None, stream=None, tick: float | None = TICK_SECONDS):
    """Yield a :class:`Bar` (a ``progress(done, total, note=None)`` callable with ``.phase``), or None off a terminal.

    Parameters
    ----------
    desc : str
        Label shown first on the line.
    enabled : bool, optional
        Force the bar on or off; by default it is on when ``stream`` is a terminal.
    stream : file, optional
        Where to draw; standard error by default.
    tick : float, optional
        Seconds between redraws when nothing reports (None: only when something does).
    """
    stream = sys.stderr if stream is None else stream
    if enabled is not None:
        enabled = check_flag("enabled", enabled)
    if enabled is None:
        enabled = stream is not None and hasattr(stream, "isatty") and stream.isatty()
    if not enabled:
        yield None
        return
    bar = Bar(desc, stream, tick=tick)
    _ACTIVE.append(bar)
    try:
        yield bar
    finally:
        _ACTIVE.remove(bar)
        bar.close()
