"""The 2-factor model with lazy subtour cuts, in an incremental SAT solver (python-sat).

The same refinement as :mod:`ktsolve.models.cpsat_cuts`, in CNF: one
variable per undirected move (and per edge of an open tour's dummy node),
"exactly two moves at every node" as clauses, a forced move as a unit
clause, and after each 2-factor one clause per cycle, "some move leaves
this cycle's squares" (in a 2-factor one leaving move means two).  The
solver is incremental: it keeps its learnt clauses and saved phases from
round to round, so a round after the first costs milliseconds where a
fresh CP-SAT solve costs about a second.  This is the scheme of Ohashi et
al. (SAT 2025) for the FHCP challenge graphs.

The degree constraints: a node with ``k <= 8`` moves gets the direct
encoding (no three chosen: ``C(k, 3)`` clauses of three literals; at least
two: ``k`` clauses "some move but this one"); the dummy node of an open
tour, joined to every square, gets python-sat's cardinality encoding.  The
encoding has no counting of colours, so a question the colours rule out is
left to the caller (:func:`colours_allow` false: use the circuit model).

python-sat is an optional dependency (``pip install ktsolve[sat]``).

References
----------
A. Ignatiev, A. Morgado and J. Marques-Silva, *PySAT: A Python toolkit for
prototyping with SAT oracles*, SAT 2018.
T. Ohashi et al., *Hamiltonian cycles by SAT and lazy subtour elimination*,
SAT 2025.
"""

from __future__ import annotations

import itertools
import threading

from ..driver import Deadline, call_guarded
from ..errors import UnsupportedError
from ..graph import KnightGraph
from ..tour import TourSpec
from .cpsat_cuts import cycles_of, end_candidates

__all__ = ["SatLoop", "SAT_SOLVER", "have_pysat"]

#: The python-sat back end: Glucose 4, incremental and interruptible (python-sat cannot interrupt CaDiCaL).
SAT_SOLVER = "glucose4"


def have_pysat() -> bool:
    """Whether python-sat can be imported."""
    try:
        import pysat.solvers  # noqa: F401
    except ImportError:
        return False
    return True


class SatLoop:
    """The CNF 2-factor model of one question and its cut loop; see the module docstring.

    Nodes are the squares ``0 .. n - 1`` and, for an open tour, the dummy
    ``n``.  Needs at least three nodes on the cycle, as the CP-SAT 2-factor
    model does.
    """

    def __init__(self, graph: KnightGraph, spec: TourSpec, deadline: Deadline | None = None):
        try:
            from pysat.card import CardEnc, EncType
            from pysat.formula import IDPool
            from pysat.solvers import Solver
        except ImportError:
            raise UnsupportedError(
                "method 'cpsat' with model='sat' needs python-sat (pip install 'ktsolve[sat]')"
            ) from None
        self.graph = graph
        self.spec = spec
        n = graph.n
        board = graph.board
        self.nodes = n if spec.closed else n + 1
        self.edges: list[tuple[int, int]] = [tuple(e) for e in graph.edges().tolist()]
        s = None if spec.start is None else board.index(*spec.start)
        e = None if spec.end is None else board.index(*spec.end)
        units: list[int] = []
        if not spec.closed:
            fixed = {x for x in (s, e) if x is not None}
            ends = sorted(fixed) if len(fixed) == 2 or (s is not None and s == e) else end_candidates(graph, s, e)
            for v in ends:
                self.edges.append((v, n))
                if v in fixed:
                    units.append(len(self.edges))
        self.var = {edge: i + 1 for i, edge in enumerate(self.edges)}
        self.at: list[list[tuple[int, int]]] = [[] for _ in range(self.nodes)]
        for (u, v), x in self.var.items():
            self.at[u].append((v, x))
            self.at[v].append((u, x))
        self.solver = Solver(name=SAT_SOLVER)
        add = self.solver.add_clause
        if spec.closed and s is not None and e is not None and s != e:
            closing = self.var.get((min(s, e), max(s, e)))
            units.append(closing if closing is not None else None)
        for x in units:
            if x is None:  # the closing move does not exist: the empty clause
                add([])
            else:
                add([x])
        pool = IDPool(start_from=len(self.edges) + 1)
        for v in range(self.nodes):
            if deadline is not None and v % 2000 == 0:
                deadline.check("building the SAT model")
            lits = [x for _, x in self.at[v]]
            if len(lits) < 2:
                add([])  # a node with fewer than two moves: no 2-factor
            elif len(lits) == 2:
                add([lits[0]])
                add([lits[1]])
            elif len(lits) <= 8:
                for trio in itertools.combinations(lits, 3):
                    add([-x for x in trio])
                for x in lits:
                    add([y for y in lits if y != x])
            else:
                cnf = CardEnc.equals(lits=lits, bound=2, vpool=pool, encoding=EncType.seqcounter)
                for clause in cnf.clauses:
                    add(clause)
        self.rounds = 0
        self.cuts = 0
        self.cycles: list[list[int]] = []
        self.cut_sets: list[list[int]] = []  # the squares of every cut, for the certificate of a "no"

    def solve_round(self, deadline: Deadline, assumptions=()) -> tuple[bool | None, bool]:
        """One SAT call with the time left: ``(answer, interrupted)``; answer None when stopped.

        ``assumptions`` are literals taken as true for this call only (False
        then means "not with these", never "no tour").

        A timer interrupts the solver when the deadline passes, and Ctrl-C
        or a race's cancel flag (:attr:`~ktsolve.driver.Deadline.cancel`)
        interrupt it through :func:`ktsolve.driver.call_guarded`.
        """
        left = deadline.remaining()
        timer = None
        if left is not None:
            timer = threading.Timer(max(left, 1e-3), self.solver.interrupt)
            timer.daemon = True
            timer.start()
        try:
            answer, interrupted = call_guarded(lambda: self.solver.solve_limited(assumptions=list(assumptions),
                                                                                 expect_interrupt=True),
                                               on_interrupt=self.solver.interrupt, cancel=deadline.cancel)
        finally:
            if timer is not None:
                timer.cancel()
                timer.join()  # its thread is gone before the call returns, not a moment later
            self.solver.clear_interrupt()
        return answer, interrupted

    def refine(self) -> bool:
        """Read the 2-factor of a satisfied round and add its cuts.  True when it is one cycle."""
        model = self.solver.get_model()
        true = {x for x in model if x > 0}
        chosen = [edge for edge, x in self.var.items() if x in true]
        self.rounds += 1
        self.cycles = cycles_of(self.nodes, chosen)
        if len(self.cycles) == 1:
            return True
        inside = [False] * self.nodes
        for cycle in self.cycles:
            for v in cycle:
                inside[v] = True
            self.solver.add_clause([x for v in cycle for w, x in self.at[v] if not inside[w]])
            for v in cycle:
                inside[v] = False
            self.cuts += 1
            if self.spec.closed or self.graph.n not in cycle:
                self.cut_sets.append(sorted(int(v) for v in cycle))
        return False

    def successors(self) -> dict[int, int]:
        """The one cycle as ``{square: next}``, oriented as the question asks."""
        from .cpsat_cuts import orient

        return orient(self.cycles[0], self.graph, self.spec)

    def close(self) -> None:
        self.solver.delete()
