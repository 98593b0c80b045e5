"""Helpers the proof modules share: names of squares, listings, plain-Python kernels on small graphs."""

from __future__ import annotations

from ..driver import Deadline
from ..graph import KnightGraph
from ..tour import TourSpec

__all__ = ["PY_MAX", "SHOW", "kernel", "start", "square_name", "listing", "spec_nodes", "colour_names", "count"]

#: Graphs of at most this many nodes run the kernels as plain Python: no
#: numba start-up (0.3 s or more in a fresh process) for small boards.
PY_MAX = 600

#: Longest list of squares written out in a proof's text.
SHOW = 8


def kernel(name: str, n: int):
    from . import _kernels

    func = getattr(_kernels, name)
    return func.py_func if n <= PY_MAX else func


def start(n: int, time_limit, *, compiled: bool | None = None) -> Deadline:
    """A graph finder's entry: its clock (:meth:`Deadline.of <ktsolve.driver.Deadline.of>`), and the proofs'
    kernels compiled or loaded first where it will run them (``compiled``; by default on graphs of more than
    :data:`PY_MAX` nodes), the clock extended by the compile (not the finder's work)."""
    from . import warm

    clock = Deadline.of(time_limit)
    if n > PY_MAX if compiled is None else compiled:
        clock.extend(warm())
    return clock


def square_name(graph: KnightGraph, i: int) -> str:
    return graph.name(int(i))


def listing(names, total: int | None = None, limit: int = SHOW) -> str:
    names = list(names)
    total = len(names) if total is None else total
    shown = ", ".join(names[:limit])
    if total > limit:
        shown += f" ... ({total} squares)"
    return shown


def spec_nodes(graph: KnightGraph, spec: TourSpec) -> tuple[int | None, int | None]:
    b = graph.board
    s = None if spec.start is None else b.index(*spec.start)
    e = None if spec.end is None else b.index(*spec.end)
    return s, e


def colour_names(graph: KnightGraph) -> dict[int, str]:
    """The colour name of parity 0 (the top-left corner's colour) and of parity 1."""
    corner = graph.board.colour_name(0, 0)
    return {0: corner, 1: "light" if corner == "dark" else "dark"}


def count(k: int, word: str) -> str:
    """``"1 move"``, ``"2 moves"``."""
    return f"{k} {word}{'' if k == 1 else 's'}"
