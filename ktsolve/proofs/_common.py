"""Helpers the proof modules share: names of squares, listings, plain-Python kernels on small graphs."""

from __future__ import annotations

from ..driver import Deadline
from ..graph import KnightGraph
from ..tour import TourSpec

__all__ = ["PY_MAX", "SHOW", "kernel", "start", "square_name", "listing", "spec_nodes", "colour_names", "count",
           "warm_kernels"]

#: Graphs of at most this many nodes run the kernels as plain Python: no
#: numba start-up (0.3 s or more in a fresh process) for small boards.
PY_MAX = 600

#: Longest list of squares written out in a proof's text.
SHOW = 8


def kernel(name: str, n: int):
    from . import _kernels

    func = getattr(_kernels, name)
    return func.py_func if n <= PY_MAX else func


def _kernel_calls() -> None:
    """Every kernel of :mod:`._kernels` once, on a 6 x 6 board, with the argument types the finders give it:
    the graph's read-only int32 arrays, uint8 masks of live moves, int32 colours and partners."""
    import numpy as np

    from .._grid_kernels import NONE
    from ..board import Board
    from . import _kernels as k

    graph = KnightGraph(Board(6, 6))
    n, indptr, indices = graph.n, graph.indptr, graph.indices
    alive = np.ones(indices.size, dtype=np.uint8)
    k.component_labels(indptr, indices, alive)
    k.blocks(*k.lowpoint_dfs(indptr, indices, alive, 0))
    # the matching proof's network: its arrays read-only like the graph's (one signature per kernel)
    from .network import network_csr

    net_indptr, net_indices, _ = network_csr(indptr, indices, compiled=True)
    net_indptr.flags.writeable = False
    net_indices.flags.writeable = False
    side = graph.colour.astype(np.int32)
    match = np.full(n, -1, dtype=np.int32)
    k.hopcroft_karp(net_indptr, net_indices, alive, side, match)
    k.drop_lost_pairs(net_indptr, net_indices, alive, side, match)
    comp, level = k.alternating_scc(net_indptr, net_indices, alive, side, match)
    k.off_matchings(net_indptr, net_indices, alive, side, match, comp)
    k.other_side_levels(net_indptr, net_indices, alive, side, level)
    # the tight sets of an open tour (ktsolve.proofs.ends): the graph's own arrays, a matching of them
    k.closed_components(indptr, indices, side, match, comp, int(comp.max()) + 1)
    links = np.full((n, 2), NONE, dtype=np.int8)
    k.matching_from_factor(links, 6, 6, np.arange(n, dtype=np.int32), np.full(n, -1, dtype=np.int32))


def warm_kernels() -> float:
    """Compile (or load from numba's cache) the kernels the proofs run, theirs and the 2-factor's; the seconds
    spent compiling (:func:`ktsolve.proofs.warm`).

    The kernels are called directly, not through the finders, which call this at their entry (:func:`start`).
    """
    from ..factor import warm as warm_factor
    from ..jit import kernels_of, prepare
    from . import _kernels

    # the matching proof starts from a 2-factor (ktsolve.factor) on large boards, the 2-factor proof is one
    return prepare("proofs", _kernel_calls, kernels_of(_kernels)) + warm_factor()


def start(n: int, time_limit, *, compiled: bool | None = None) -> Deadline:
    """A graph finder's entry: its clock (:meth:`Deadline.of <ktsolve.driver.Deadline.of>`), and the proofs'
    kernels compiled or loaded first where it will run them (``compiled``; by default on graphs of more than
    :data:`PY_MAX` nodes), the clock extended by the compile (not the finder's work)."""
    clock = Deadline.of(time_limit)
    if n > PY_MAX if compiled is None else compiled:
        clock.extend(warm_kernels())
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
