"""The Takefuji-Lee network's edge arrays (:mod:`ktsolve.heuristics.neural`).

One neuron per knight edge: :class:`NeuralNet` numbers the edges of a
knight graph (``ea < eb``, sorted), maps every move of the graph's table to
its edge, and reads a Hamiltonian cycle of active edges back as squares in
cycle order; :func:`neural_net` caches it on the graph.
"""

from __future__ import annotations

import numpy as np

from ..graph import KnightGraph

__all__ = ["NeuralNet", "neural_net"]


class NeuralNet:
    """The edge arrays of a knight graph, as the kernels want them.

    Attributes
    ----------
    ea, eb : (E,) int32
        Ends of every edge, ``ea < eb``, sorted by ``(ea, eb)``.
    eid : (n, k) int32
        ``eid[i, j]`` is the edge of move ``j`` from square ``i``, or -1.

    Examples
    --------
    >>> from ktsolve import Board
    >>> net = NeuralNet(KnightGraph(Board(3, 4)))
    >>> net.n_edges, net.edge(0, 6) >= 0, net.edge(0, 1)
    (14, True, -1)
    """

    def __init__(self, graph: KnightGraph):
        self.graph = graph
        n = graph.n
        table = np.ascontiguousarray(graph.table, dtype=np.int32)
        src = np.repeat(np.arange(n, dtype=np.int64), graph.degree)
        dst = graph.indices.astype(np.int64)
        keep = src < dst
        ea, eb = src[keep], dst[keep]
        key = ea * n + eb
        srt = np.argsort(key, kind="stable")
        ea, eb, key = ea[srt], eb[srt], key[srt]
        self.ea = ea.astype(np.int32)
        self.eb = eb.astype(np.int32)
        self.n_edges = int(ea.size)
        eid = np.full(table.shape, -1, dtype=np.int32)
        ok = table >= 0
        rows = np.broadcast_to(np.arange(n, dtype=np.int64)[:, None], table.shape)[ok]
        cols = table[ok].astype(np.int64)
        k = np.minimum(rows, cols) * n + np.maximum(rows, cols)
        eid[ok] = np.searchsorted(key, k).astype(np.int32)
        self.eid = eid
        self.table = table
        self.n = n

    def edge(self, u: int, v: int) -> int:
        """Edge number of the knight edge ``uv``, or -1."""
        row = self.table[u]
        hit = np.flatnonzero(row == v)
        return int(self.eid[u, hit[0]]) if hit.size else -1

    def cycle_order(self, V: np.ndarray, first: int = 0) -> np.ndarray:
        """Squares in cycle order from ``first`` along the active edges of a Hamiltonian cycle ``V``."""
        n = self.n
        nb = np.full((n, 2), -1, dtype=np.int64)
        fill = np.zeros(n, dtype=np.int64)
        for e in np.flatnonzero(V):
            x, y = int(self.ea[e]), int(self.eb[e])
            nb[x, fill[x]] = y
            fill[x] += 1
            nb[y, fill[y]] = x
            fill[y] += 1
        order = np.empty(n, dtype=np.int64)
        prev, cur = -1, first
        for k in range(n):
            order[k] = cur
            nxt = nb[cur, 0] if nb[cur, 0] != prev else nb[cur, 1]
            prev, cur = cur, int(nxt)
        return order


def neural_net(graph: KnightGraph) -> NeuralNet:
    """The (cached) :class:`NeuralNet` of a graph.

    Examples
    --------
    >>> from ktsolve import Board
    >>> g = KnightGraph(Board(5, 5))
    >>> neural_net(g) is neural_net(g)
    True
    """
    net = graph.__dict__.get("_neural_net")
    if net is None:
        net = NeuralNet(graph)
        graph.__dict__["_neural_net"] = net
    return net
