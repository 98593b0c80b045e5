"""The cut-set refinement of the circuit model: a 2-factor, then subtour cuts until one cycle is left.

A knight's tour is a Hamiltonian cycle of the (undirected) knight graph, and
a Hamiltonian cycle is a *2-factor* (every node on exactly two chosen moves)
that is connected.  This module asks CP-SAT only for the 2-factor: one
Boolean per undirected move and ``sum of the moves at v == 2`` for every
square, no circuit constraint.  A 2-factor found is split into its cycles;
if there is one, it is the tour.  Otherwise every cycle's square set ``S``
gives the *subtour-elimination cut* "at least two chosen moves leave S"
(every Hamiltonian cycle crosses the border of a proper subset of the nodes
at least twice).  In a 2-factor the number of chosen moves leaving ``S`` is
even (the degrees in ``S`` add up to ``2 |S|``, twice the moves inside plus
the moves leaving), so "at least two" is the clause "at least one", which
propagates better than a linear sum.  The cuts are added to the model, and it is solved again,
hinted with the last 2-factor.  The cuts are valid for every tour, so an
infeasible model with any set of cuts proves that no tour exists; the loop
ends with a tour, such a proof, or the time limit (``unknown``).

Open tours use the circuit model's dummy node: a node joined to every
square where the tour may start or end (to ``start`` alone when it is
fixed, and to ``end`` alone when it is fixed), with degree two like every
square; the cycle through it, cut at it, is the tour.  A closed tour with a
fixed start and end fixes the closing move ``{end, start}``.

This is the lazy-constraint scheme of Dantzig, Fulkerson and Johnson, as
Ohashi et al. use it with a SAT solver for the FHCP challenge graphs; here
CP-SAT re-solves the grown model from scratch each round.

References
----------
G. Dantzig, R. Fulkerson and S. Johnson, *Solution of a large-scale
traveling-salesman problem*, Operations Research 2 (1954).
T. Ohashi et al., *Hamiltonian cycles by SAT and lazy subtour elimination*,
SAT 2025.
"""

from __future__ import annotations

import numpy as np

from ..driver import Deadline
from ..graph import KnightGraph
from ..tour import TourSpec

__all__ = ["build_two_factor_model", "cycles_of", "end_candidates", "orient", "subtour_cut", "TwoFactorLoop"]


def build_two_factor_model(model, graph: KnightGraph, spec: TourSpec, *, deadline: Deadline | None = None,
                           chunk: int = 2000) -> dict[tuple[int, int], object]:
    """Add the 2-factor constraints of ``spec`` on ``graph`` to ``model``; return the edge -> literal map.

    Edges are ``(u, v)`` with ``u < v``; for an open tour the dummy node is
    ``graph.n`` and its edges are ``(v, n)``.  Needs at least three nodes
    on the cycle (a closed tour of three squares or more, an open tour of
    two or more): below that a 2-factor of simple edges does not exist
    even where a tour does.

    Examples
    --------
    >>> from ortools.sat.python import cp_model
    >>> from ktsolve import Board
    >>> edges = build_two_factor_model(cp_model.CpModel(), KnightGraph(Board(3, 4)), TourSpec())
    >>> len(edges)  # 14 moves, plus one edge from every square to the dummy
    26
    """
    from .cpsat_run import colours_allow

    n = graph.n
    board = graph.board
    lits: dict[tuple[int, int], object] = {}
    at: list[list] = [[] for _ in range(n + 1)]
    for i, (u, v) in enumerate(graph.edges().tolist()):
        if deadline is not None and i % chunk == 0:
            deadline.check("building the CP-SAT model")
        x = model.new_bool_var(f"{u}-{v}")
        lits[(u, v)] = x
        at[u].append(x)
        at[v].append(x)
    s = None if spec.start is None else board.index(*spec.start)
    e = None if spec.end is None else board.index(*spec.end)
    if not spec.closed:
        # the dummy is joined to every square where the tour may begin or end; a fixed
        # end's edge is forced (with both ends fixed the dummy has just those two edges)
        fixed = {x for x in (s, e) if x is not None}
        ends = sorted(fixed) if len(fixed) == 2 or (s is not None and s == e) else end_candidates(graph, s, e)
        for v in ends:
            x = model.new_bool_var(f"{v}-d")
            lits[(v, n)] = x
            at[v].append(x)
            at[n].append(x)
            if v in fixed:
                model.add(x == 1)
    elif s is not None and e is not None and s != e:
        x = lits.get((min(s, e), max(s, e)))
        if x is None:  # no closing move: the model is infeasible, and says so
            x = model.new_bool_var(f"{e}-{s}")
            model.add(x == 0)
        model.add(x == 1)
    nodes = n if spec.closed else n + 1
    for v in range(nodes):
        if not at[v]:  # a node with no move at all: no 2-factor
            x = model.new_bool_var(f"lonely{v}")
            model.add(x == 0)
            model.add(x == 1)
            continue
        model.add(sum(at[v]) == 2)
        if len(at[v]) == 2:  # a node of degree two: both its moves are forced
            for x in at[v]:
                model.add(x == 1)
    if not colours_allow(graph, spec):
        _add_colour_counts(model, graph, lits)
    return lits


def end_candidates(graph: KnightGraph, s: int | None, e: int | None) -> list[int]:
    """The squares an open tour with at most one fixed end may end (or start) on, by colour counts.

    A tour alternates colours, so with as many squares of each colour its
    two ends have opposite colours (the free end is opposite the fixed
    one), and with one square more of a colour both ends have that colour.
    Where the colours allow no tour at all every square stays a candidate
    (the colour counts of the model refute it).  Fewer dummy edges make the
    first 2-factor quicker to find.

    Examples
    --------
    >>> from ktsolve import Board
    >>> g = KnightGraph(Board(3, 3, holes=[(1, 1)]))  # four squares of each colour
    >>> end_candidates(g, 0, None)  # square 0 itself (its forced edge) and the other colour
    [0, 1, 3, 4, 6]
    """
    colour = graph.colour
    n = graph.n
    n0 = int((colour == 0).sum())
    n1 = n - n0
    fixed = s if s is not None else e
    if n0 == n1 and fixed is not None:
        want = 1 - int(colour[fixed])
    elif abs(n0 - n1) == 1:
        want = 0 if n0 > n1 else 1
    else:
        return list(range(n))
    keep = [v for v in range(n) if colour[v] == want]
    if fixed is not None and fixed not in keep:
        keep.append(fixed)  # its dummy edge is forced; a wrong colour is refuted by the counts
        keep.sort()
    return keep


def _add_colour_counts(model, graph: KnightGraph, lits) -> None:
    """Redundant colour counts: ``sum of moves at colour c == 2 n_c``, so parity is seen at once.

    A move joins the two colours, so with ``E`` chosen moves and ``D_c``
    chosen dummy edges at colour ``c``: ``2 n_0 = E + D_0`` and
    ``2 n_1 = E + D_1``, ``D_0 + D_1 = 2`` (0 for a closed tour).  The
    degree constraints imply them; stated as one linear constraint, bound
    propagation refutes a board whose colours cannot alternate (see
    :func:`ktsolve.models.cpsat._add_colour_counts`).
    """
    n = graph.n
    colour = graph.colour
    count = [int((colour == 0).sum()), int((colour == 1).sum())]
    moves, dummy = [], {0: [], 1: []}
    for (a, b), x in lits.items():
        if b == n:
            dummy[int(colour[a])].append(x)
        else:
            moves.append(x)
    e = model.new_int_var(0, n, "moves")
    model.add(sum(moves) == e)
    model.add(e + sum(dummy[0]) == 2 * count[0])
    model.add(e + sum(dummy[1]) == 2 * count[1])


def cycles_of(nodes: int, chosen: list[tuple[int, int]]) -> list[list[int]]:
    """The cycles of a 2-factor on ``nodes`` nodes, each as its nodes in cycle order.

    Examples
    --------
    >>> cycles_of(6, [(0, 1), (1, 2), (0, 2), (3, 4), (4, 5), (3, 5)])
    [[0, 1, 2], [3, 4, 5]]
    """
    nbrs: list[list[int]] = [[] for _ in range(nodes)]
    for u, v in chosen:
        nbrs[u].append(v)
        nbrs[v].append(u)
    seen = np.zeros(nodes, dtype=bool)
    cycles = []
    for first in range(nodes):
        if seen[first] or not nbrs[first]:
            continue
        cycle = [first]
        seen[first] = True
        prev, v = first, nbrs[first][0]
        while v != first:
            cycle.append(v)
            seen[v] = True
            a, b = nbrs[v]
            prev, v = v, (b if a == prev else a)
        cycles.append(cycle)
    return cycles


def subtour_cut(cycle: list[int], nodes: int, at: list[list[tuple[int, object]]]) -> list:
    """The literals of the moves that leave ``cycle``'s node set (at least two of them must be chosen).

    ``at[v]`` lists ``(other end, literal)`` for every edge of node ``v``.
    """
    inside = np.zeros(nodes, dtype=bool)
    inside[cycle] = True
    return [x for v in cycle for w, x in at[v] if not inside[w]]


class TwoFactorLoop:
    """The refinement loop's state: the model, its edges, and the cuts added so far.

    ``solve_round(solver)`` is called by :func:`ktsolve.models.cpsat.solve_cpsat`
    with a fresh solver each round; see the module docstring.
    """

    def __init__(self, graph: KnightGraph, spec: TourSpec, deadline: Deadline | None = None):
        from ortools.sat.python import cp_model

        self.graph = graph
        self.spec = spec
        self.model = cp_model.CpModel()
        self.lits = build_two_factor_model(self.model, graph, spec, deadline=deadline)
        self.nodes = graph.n if spec.closed else graph.n + 1
        self.at: list[list[tuple[int, object]]] = [[] for _ in range(self.nodes)]
        for (u, v), x in self.lits.items():
            self.at[u].append((v, x))
            self.at[v].append((u, x))
        self.rounds = 0
        self.cuts = 0
        self.cycles: list[list[int]] = []
        self.cut_sets: list[list[int]] = []  # the squares of every cut, for the certificate of a "no"

    def refine(self, solver) -> bool:
        """Read the 2-factor of a solved round; add its cuts and hint it.  True when it is one cycle."""
        chosen = [e for e, x in self.lits.items() if solver.boolean_value(x)]
        self.rounds += 1
        self.cycles = cycles_of(self.nodes, chosen)
        if len(self.cycles) == 1:
            return True
        for cycle in self.cycles:
            leaving = subtour_cut(cycle, self.nodes, self.at)
            if not leaving:  # a cycle with no move out: the graph is not connected, no tour
                x = self.model.new_bool_var("no way out")
                leaving = [x]
                self.model.add(x == 0)
            self.model.add_bool_or(leaving)  # one leaving move means two, see the module docstring
            self.cuts += 1
            if self.graph.n not in cycle or self.spec.closed:
                self.cut_sets.append(sorted(int(v) for v in cycle))
        self.model.clear_hints()
        chosen_set = set(chosen)
        for e, x in self.lits.items():
            self.model.add_hint(x, e in chosen_set)
        return False

    def successors(self) -> dict[int, int]:
        """The one cycle as ``{square: next}``, oriented as the question asks (see :func:`orient`)."""
        return orient(self.cycles[0], self.graph, self.spec)


def orient(cycle: list[int], graph: KnightGraph, spec: TourSpec) -> dict[int, int]:
    """The Hamiltonian cycle ``cycle`` as ``{node: next}``, in the direction ``spec`` asks.

    For an open tour the dummy node (``graph.n``) is followed by the start
    (the fixed one, if any) and preceded by the end; a closed tour with a
    fixed start and end runs from the start and closes from the end.

    Examples
    --------
    >>> from ktsolve import Board
    >>> g = KnightGraph(Board(3, 4))
    >>> orient([12, 0, 5, 9], g, TourSpec(start=(2, 1)))  # square 9 is b1
    {12: 9, 9: 5, 5: 0, 0: 12}
    """
    n = graph.n
    board = graph.board
    order = list(cycle)
    if not spec.closed:
        k = order.index(n)
        order = order[k:] + order[:k]  # the dummy first, then the open tour
        if spec.start is not None and order[1] != board.index(*spec.start) or (
                spec.start is None and spec.end is not None and order[-1] != board.index(*spec.end)):
            order = [n] + order[1:][::-1]
    elif spec.start is not None and spec.end is not None:
        s, e = board.index(*spec.start), board.index(*spec.end)
        k = order.index(s)
        order = order[k:] + order[:k]
        if order[-1] != e:
            order = [s] + order[1:][::-1]
    return {a: b for a, b in zip(order, order[1:] + order[:1])}
