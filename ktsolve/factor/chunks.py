"""Long kernel work cut into chunks, so that the deadline and Ctrl-C are looked at between them.

A numba kernel does not return until its loop ends, and Ctrl-C's handler
runs only when the main thread runs Python again: a kernel over 10^8 cells
(a scan, a walk, thousands of searches) holds the answer back for seconds.
So every long loop of the restoration, splice and the local proofs takes a
range of its items (or a budget of work with its state in arrays) per call,
and :func:`in_chunks` calls it range after range, asking the
:class:`~ktsolve.driver.Deadline` between them.  The chunks start with
:data:`FIRST` items and double while a call takes less than half of
:data:`SECONDS`, halving when one takes longer, so a call lasts about
:data:`SECONDS` whatever an item costs.  Each kernel does the same work on
the same items in the same order however the range is cut (its per-item
state, such as a search's stamp, depends on the item's place in the whole
range), so the answer does not depend on where the chunks fall; the tests
compare one chunk with chunks of one item.
"""

from __future__ import annotations

import time
from typing import Callable

from ..driver import Deadline, Stopped, interrupted

__all__ = ["in_chunks", "in_budgets", "loading", "FIRST", "SECONDS", "MOST"]

#: Items of the first call.
FIRST = 64
#: Seconds a call aims at.
SECONDS = 0.1
#: Most items of one call (1: every item alone, as the tests run them).
MOST = 1 << 30


def in_chunks(n: int, call: Callable[[int, int], int], deadline: Deadline, phase: str, *,
              first: int | None = None) -> int:
    """``call(a, b)`` on consecutive ranges ``a .. b - 1`` that cover ``0 .. n - 1``, ``deadline.check(phase)``
    before each; returns the sum of the answers.

    ``first`` is the first range's length (default :data:`FIRST`): a caller
    whose items are cheap (cells of a scan) starts larger.

    Examples
    --------
    >>> seen = []
    >>> in_chunks(10, lambda a, b: seen.append((a, b)) or b - a, Deadline(None), "counting", first=4)
    10
    >>> seen[0], seen[-1][1]
    ((0, 4), 10)
    """
    size = _first(first)
    total = 0
    a = 0
    while a < n:
        deadline.check(phase)
        b = min(n, a + size)
        t = time.perf_counter()
        total += int(call(a, b))
        size = _next(size, time.perf_counter() - t)
        a = b
    return total


def in_budgets(call: Callable[[int], tuple[int, bool]], deadline: Deadline, phase: str, *,
               first: int | None = None) -> int:
    """``call(budget)`` until it says it has ended, ``deadline.check(phase)`` before each; returns the sum of
    the answers.

    For a kernel whose work is not a range of items (a search that keeps
    its queue in arrays): ``call`` does at most ``budget`` units of work
    and returns ``(answer, ended)``.

    Examples
    --------
    >>> left = [10]
    >>> def take(budget):
    ...     k = min(budget, left[0]); left[0] -= k
    ...     return k, left[0] == 0
    >>> in_budgets(take, Deadline(None), "counting", first=3)
    10
    """
    size = _first(first)
    total = 0
    while True:
        deadline.check(phase)
        t = time.perf_counter()
        got, ended = call(size)
        total += int(got)
        if ended:
            return total
        size = _next(size, time.perf_counter() - t)


def _first(first: int | None) -> int:
    return max(1, min(MOST, FIRST if first is None else first))


def _next(size: int, spent: float) -> int:
    """The next chunk's size after one of ``size`` items took ``spent`` seconds."""
    if spent < SECONDS / 2:
        return min(size * 2, MOST)
    if spent > SECONDS:
        return max(1, size // 2)
    return size


def loading(name: str) -> None:
    """Raise :class:`~ktsolve.driver.Stopped` when Ctrl-C was pressed while a ``warm()`` loads ``name``'s kernels.

    The first call of a kernel in a process loads it from numba's cache
    (a tenth of a second or so each, seconds for a method's few dozen on a
    busy machine); the warm-ups call this between their kernels, so Ctrl-C
    does not wait for all of them.

    Examples
    --------
    >>> loading("splice") is None
    True
    """
    if interrupted():
        raise Stopped("interrupted", f"loading the {name} kernels")
