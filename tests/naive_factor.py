"""Slow, readable reference for the 2-factor machinery: networkx max flow on the explicit network.

The network is built here from the question alone, with the extra vertices
and their moves listed explicitly (no implicit grid, no capacities read from
:mod:`ktsolve.factor.network`), then every forced move is taken out and each
of its ends needs one move fewer; a 2-factor with the forced moves exists
exactly when the maximum flow saturates every capacity.
"""

from __future__ import annotations

import networkx as nx

from ktsolve.graph import KnightGraph


def explicit_network(board, closed, start=None, end=None):
    """``(graph, forced, colour)``: the knight graph plus extra vertices ("z", "z1", "z2"), the forced moves,
    and the colour of every vertex.  Fixed ends must have colours a tour's ends can have."""
    g = KnightGraph(board).to_networkx()
    colour = {v: (g.nodes[v]["pos"][0] + g.nodes[v]["pos"][1]) % 2 for v in g.nodes}
    s = None if start is None else board.index(*board.parse_square(start))
    e = None if end is None else board.index(*board.parse_square(end))
    forced = set()
    if closed:
        if s is not None and e is not None and s != e and g.has_edge(s, e):
            forced.add(frozenset((s, e)))
        return g, forced, colour
    fixed = [x for x in dict.fromkeys((s, e)) if x is not None]
    count = [sum(1 for v in colour if colour[v] == k) for k in (0, 1)]
    if count[0] != count[1]:
        major = 0 if count[0] > count[1] else 1
        g.add_node("z")
        colour["z"] = 1 - major
        for v in [v for v in colour if colour[v] == major and v != "z"]:
            g.add_edge("z", v)
        for v in fixed:
            forced.add(frozenset(("z", v)))
        return g, forced, colour
    g.add_node("z1")
    g.add_node("z2")
    colour["z1"], colour["z2"] = 1, 0
    g.add_edge("z1", "z2")
    forced.add(frozenset(("z1", "z2")))
    for z, k in (("z1", 0), ("z2", 1)):
        mine = [v for v in fixed if colour[v] == k]
        for v in [v for v in list(colour) if colour[v] == k and isinstance(v, int)]:
            g.add_edge(z, v)
        for v in mine:
            forced.add(frozenset((z, v)))
    return g, forced, colour


def has_two_factor(board, closed, start=None, end=None) -> bool:
    """Whether the question's network has a 2-factor containing its forced moves (max flow)."""
    g, forced, colour = explicit_network(board, closed, start, end)
    if not closed and board.n_squares == 1:
        return True
    b = {v: 2 for v in g.nodes}
    for pair in forced:
        u, w = tuple(pair)
        g.remove_edge(u, w)
        b[u] -= 1
        b[w] -= 1
    if any(x < 0 for x in b.values()):
        return False
    side = [sum(b[v] for v in g.nodes if colour[v] == k) for k in (0, 1)]
    if side[0] != side[1]:
        return False
    flow = nx.DiGraph()
    for v in g.nodes:
        if colour[v] == 0:
            flow.add_edge("source", ("n", v), capacity=b[v])
            for w in g.neighbors(v):
                flow.add_edge(("n", v), ("n", w), capacity=1)
        else:
            flow.add_edge(("n", v), "sink", capacity=b[v])
    if side[0] == 0:
        return True
    value = nx.maximum_flow_value(flow, "source", "sink")
    return value == side[0]


def deficiency(board, closed, start, end, colour, X, Y, x_extra, y_extra) -> int:
    """``b(X) - b(Y) - e(X, Q \\ Y)`` on the explicit network (positive: ``(X, Y)`` proves no 2-factor).

    ``X`` and ``Y`` are square numbers; the extra vertex of a colour is "z" (the one extra vertex) or
    "z1" (colour 1) / "z2" (colour 0).
    """
    g, forced, col = explicit_network(board, closed, start, end)
    b = {v: 2 for v in g.nodes}
    for pair in forced:
        u, w = tuple(pair)
        g.remove_edge(u, w)
        b[u] -= 1
        b[w] -= 1
    # a vertex that needs no more moves (an extra vertex saturated by forced moves) takes none
    g.remove_nodes_from([v for v in list(g.nodes) if b[v] == 0])
    extras = {col[v]: v for v in g.nodes if isinstance(v, str)}
    xs = set(int(v) for v in X) | ({extras[colour]} if x_extra else set())
    ys = set(int(v) for v in Y) | ({extras[1 - colour]} if y_extra else set())
    leaving = sum(1 for x in xs for w in g.neighbors(x) if w not in ys)
    return sum(b[x] for x in xs) - sum(b[y] for y in ys) - leaving
