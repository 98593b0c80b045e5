"""Exhaustive depth-first search for knight's tours, with Warnsdorff ordering and dead-end pruning.

The search extends a path one knight's move at a time and backs up when it
cannot go on, so run to the end it either finds a tour or proves that none
exists.  Two classic devices make it fast (Pohl 1967; the greedy-ordered
searches of the knight's-tour literature):

* **Warnsdorff ordering**: at every square the moves are tried in order of
  the fewest onward moves, ties in the graph's move order, so the first
  branch is Warnsdorff's greedy walk and most tours are found with little
  or no backing up.
* **Dead-end pruning**: call *available* the unvisited squares, the current
  square and the required last square (the start, for a closed tour).  The
  rest of the path must pass through every unvisited square, so a square
  that is not the tour's last needs two available neighbours (one to enter,
  one to leave) and the last square needs one.  The search keeps, for every
  square, its number of available neighbours, and ends a branch as soon as

  - an unvisited square has none, or one when it cannot be the last square
    (the last square is fixed, or the tour is closed), or
  - two unvisited squares have one each (both would have to be last), or
  - the fixed last square (the start, for a closed tour) has none.

  These are necessary conditions, so pruning never loses a tour.  Moving
  from ``p`` to ``c`` only takes ``p`` out of the available set, so only
  the neighbours of ``p`` change and each step costs ``O(k)`` for ``k``
  moves.  For a closed tour, the start stays available to the end, which
  makes the final square a neighbour of the start.

For a free-start open tour every start square is tried (a proof must cover
them all) except where an argument rules it out: when the colours' counts
differ both ends lie on the majority colour, and when a square has a single
neighbour every tour has it as an end, so the tours starting there are all
(up to reversal).  A start whose search is exhausted cannot be the end of
any tour either (reverse it), so later searches demand two available
neighbours of it, which is sound and prunes more.

The search is a numba kernel over an explicit stack held in arrays, so it
never recurses and can stop after a node budget and resume: Python checks
the clock between chunks.  :mod:`ktsolve.models.count` runs the same kernel
in counting mode.

References
----------
I. Pohl, "A method for finding Hamilton paths and knight's tours",
Communications of the ACM 10(7):446-449, 1967.

Examples
--------
>>> from ktsolve import Board, KnightGraph, TourSpec
>>> solve_backtrack(KnightGraph(Board(6, 6)), TourSpec(closed=True)).status.value
'found'
>>> print(solve_backtrack(KnightGraph(Board(3, 6)), TourSpec()).proof.argument)
exhaustive search
"""

from __future__ import annotations

import numpy as np

from .. import jit
from ..driver import Deadline, Stopped, begin, drive, interrupt_guard, phase
from ..graph import KnightGraph
from ..result import Proof, SolveResult, Status
from ..heuristics._params import Param, Params, flag, whole
from ..tour import Tour, TourSpec, list_cycle
from ._backtrack_kernels import _COUNT, _NODES, EXHAUSTED, FOUND, RUNNING, _init, _run
from ..seeds import seed_doc

__all__ = [
    "DEFAULT_MAX_NODES",
    "CHUNK_NODES",
    "Search",
    "run_search",
    "solve_backtrack",
    "warm",
]

#: Default node budget of :func:`solve_backtrack` (tens of seconds of search).
DEFAULT_MAX_NODES = 1_000_000_000

#: Boards above this many squares look at the clock before allocating each search's arrays.
_LARGE = 100_000

#: Nodes of the first kernel call; the driver then sizes the calls to the clock (a few milliseconds each).
CHUNK_NODES = 1 << 18


# ---------------------------------------------------------------------- Python driver
class Search:
    """A resumable search for tours of one graph from one start (the state lives in arrays).

    Parameters
    ----------
    graph : KnightGraph
    start : int
        First square.
    end : int
        Required last square, or -1.  For ``closed=True`` it is ignored:
        the start is the square the tour must come back to.
    closed : bool
    need : (n,) int32 array, optional
        2 for squares that cannot be the last square of the tour (besides
        those the mode already rules out), 1 otherwise.
    counting : bool
        Count every tour instead of stopping at the first.

    Examples
    --------
    >>> from ktsolve import Board, KnightGraph
    >>> s = Search(KnightGraph(Board(3, 4)), start=0, end=-1, closed=False, counting=True)
    >>> s.run(10_000), s.count
    ('exhausted', 2)
    """

    def __init__(self, graph: KnightGraph, start: int, end: int = -1, closed: bool = False,
                 need=None, counting: bool = False):
        n = graph.n
        self.graph = graph
        self.table = graph.table
        k = self.table.shape[1]
        self.start = int(start)
        self.end = self.start if closed else int(end)
        self.closed = bool(closed)
        self.counting = bool(counting)
        if need is None:
            need = np.ones(n, dtype=np.int32)
        need = np.asarray(need, dtype=np.int32).copy()
        if self.end >= 0:
            need[:] = 2  # the last square is fixed: every other one is passed through
        self.need = need
        self.visited = np.zeros(n, dtype=np.uint8)
        self.deg = np.zeros(n, dtype=np.int32)
        self.path = np.zeros(n + 1, dtype=np.int32)
        self.cand = np.zeros((n + 1) * k, dtype=np.int32)
        self.ncand = np.zeros(n + 1, dtype=np.int32)
        self.ptr = np.zeros(n + 1, dtype=np.int32)
        self.st = np.zeros(8, dtype=np.int64)
        warm()
        code = _init(self.table, graph.degree, self.need, self.start, self.end, int(self.closed),
                     self.visited, self.deg, self.path, self.cand, self.ncand, self.ptr, self.st)
        self.state = "exhausted" if code == EXHAUSTED else "running"

    @property
    def nodes(self) -> int:
        return int(self.st[_NODES])

    @property
    def count(self) -> int:
        return int(self.st[_COUNT])

    def tour(self) -> np.ndarray:
        """The tour found (valid after :meth:`run` returned ``"found"``)."""
        return self.path[: self.graph.n].copy()

    def run(self, budget: int) -> str:
        """Search at most ``budget`` more nodes; returns ``"found"``, ``"exhausted"`` or ``"running"``.

        After ``"found"`` a further call goes on to the next tour.
        """
        if self.state == "exhausted":
            return self.state
        code = _run(self.table, self.need, int(self.counting), int(budget), self.visited, self.deg,
                    self.path, self.cand, self.ncand, self.ptr, self.st)
        self.state = {RUNNING: "running", FOUND: "found", EXHAUSTED: "exhausted"}[code]
        return self.state


def run_search(search: Search, deadline: Deadline | None, nodes_left: int, progress=None, done_before: int = 0,
               total: int | None = None) -> str:
    """Run ``search`` through :func:`ktsolve.driver.drive` until it answers or a budget ends.

    Parameters
    ----------
    search : Search
    deadline : Deadline, optional
        The clock of the whole call.
    nodes_left : int
        Node budget of this search.
    progress : callable, optional
        ``progress(done_before + nodes searched, total)`` after every chunk.

    Returns
    -------
    str
        ``"found"``, ``"exhausted"``, ``"nodes"`` (the budget ran out),
        ``"time"`` or ``"interrupted"`` (Ctrl-C).

    Examples
    --------
    >>> from ktsolve import Board, KnightGraph
    >>> run_search(Search(KnightGraph(Board(5, 5)), start=0), None, 10**6)
    'found'
    >>> run_search(Search(KnightGraph(Board(5, 5)), start=0), None, 3)
    'nodes'
    """
    start_nodes = search.nodes

    def step(k):
        before = search.nodes
        state = search.run(k)
        return search.nodes - before, state != "running"

    position = None
    if progress is not None and total is not None:
        def position(done):
            return min(total, done_before + search.nodes), total
    phase(progress, "backtrack: nodes searched", total)
    outcome = drive(step, units=max(0, nodes_left - start_nodes), deadline=deadline, progress=progress,
                    first=CHUNK_NODES, position=position)
    if outcome.reason == "finished":
        return search.state
    return {"budget": "nodes", "time limit": "time", "interrupted": "interrupted"}[outcome.reason]


def _open_starts(graph: KnightGraph) -> tuple[np.ndarray, str]:
    """Start squares an exhaustive free-start open search must try, and why they suffice."""
    deg = graph.degree
    ones = np.flatnonzero(deg == 1)
    if ones.size:
        return ones[:1].astype(np.int32), (
            f"{graph.name(int(ones[0]))} has one neighbour, so every open tour has it as an end"
        )
    even, odd = graph.board.colour_counts()
    cand = np.arange(graph.n, dtype=np.int32)
    why = "every square was tried as the start"
    if even != odd:
        major = 0 if even > odd else 1
        cand = cand[graph.colour == major]
        why = "every square of the majority colour (where both ends of an open tour lie) was tried as the start"
    # A symmetry of the board maps the tours from a square onto the tours from its
    # image: one start per orbit is enough.
    perms = graph.board.symmetries(squares=True) if graph.is_knight else []
    if len(perms) > 1:
        orbit = np.min(np.stack(perms), axis=0)
        cand = cand[orbit[cand] == cand]
        why = why.replace("was tried", "or a symmetric image of it was tried")
    # Low degree first: the searches from there are the shortest, and each exhausted
    # start strengthens the pruning of the later ones.
    return cand[np.argsort(deg[cand], kind="stable")], why


#: The parameters of :func:`solve_backtrack`, declared once: default, check, and what ``ktsolve methods`` prints.
PARAMS = Params("backtrack", (
    Param("max_nodes", DEFAULT_MAX_NODES, whole(1), "int",
          "Node budget over all start squares (a node is one move tried); the default is tens of seconds."),
    Param("certify", True, flag, "bool",
          "Re-derive a \"no\" as an unsatisfiable CNF with a DRUP proof (needs python-sat), so it carries a certificate."),
))


@seed_doc
def solve_backtrack(graph: KnightGraph, spec: TourSpec, *, time_limit=None, progress=None,
                    max_nodes: int = DEFAULT_MAX_NODES, certify: bool = True, seed=None) -> SolveResult:
    """Exhaustive depth-first search: a tour, a proof that none exists, or ``unknown``.

    Parameters
    ----------
    graph : KnightGraph
    spec : TourSpec
        Any question: an open tour is searched from its fixed start or from
        each square in turn, a closed one from one square (see Notes).
    %(unseeded seed)s
    time_limit : float, optional
        Seconds for the whole call; the driver looks at the clock every few
        milliseconds of search.
    progress : callable, optional
        ``progress(nodes searched, max_nodes)``.
    max_nodes : int
        Node budget over all start squares (default :data:`DEFAULT_MAX_NODES`,
        tens of seconds); a node is one move tried.
    certify : bool
        Certify a "no" (default): the question as a CNF refuted by a DRUP
        proof (:func:`ktsolve.models.certify.certify_answer`, within the
        time left), which anyone can check; without python-sat, or out of
        time, the proof says "not certified".

    Returns
    -------
    SolveResult
        ``found``; ``infeasible`` with a :class:`Proof` (argument
        ``"exhaustive search"``, evidence: nodes searched, the starts
        tried, and the certificate or why there is none) when the whole
        tree was searched; ``unknown`` when the node
        budget or the time limit ran out, or after Ctrl-C
        (``stats["interrupted"]``).

    Notes
    -----
    Worst case exponential; see the module docstring for the pruning.  A
    closed tour is searched from the square of fewest neighbours (every
    closed tour passes through it) and listed afterwards from the required
    start; with a fixed start and end, it is an open tour from the start to
    the end, which must be a knight's move apart.

    Examples
    --------
    >>> from ktsolve import Board
    >>> res = solve_backtrack(KnightGraph(Board(5, 5)), TourSpec(start=(0, 0)))
    >>> res.status.value, len(res.tour), res.tour.start
    ('found', 25, (0, 0))
    >>> solve_backtrack(KnightGraph(Board(3, 4)), TourSpec(closed=True)).proof.argument
    'exhaustive search'
    """
    deadline, _ = begin(time_limit, seed, seeded=False)
    values = PARAMS.check({"max_nodes": max_nodes, "certify": certify}, n=graph.n)
    max_nodes, certify = values.max_nodes, values.certify
    with interrupt_guard():
        try:
            graph.build(deadline, csr=False)
            res = _solve(graph, spec, deadline, progress, max_nodes)
        except Stopped as stop:
            res = SolveResult(Status.UNKNOWN, stats={**stop.stats(), "nodes": 0})
        if res.status is Status.INFEASIBLE:
            from .certify import settle

            res = settle(res, graph.board, spec, deadline, certify)
    return res


def _solve(graph, spec, deadline, progress, max_nodes) -> SolveResult:
    board = graph.board
    n = graph.n
    s = None if spec.start is None else board.index(*spec.start)
    e = None if spec.end is None else board.index(*spec.end)
    what = spec.describe(board)

    def infeasible(text, **evidence):
        return SolveResult(Status.INFEASIBLE, proof=Proof(text, argument="exhaustive search", evidence=evidence),
                           stats={"nodes": evidence.get("nodes", 0)})

    # Tiny cases the search itself does not cover.
    if n == 1:
        if spec.closed:
            return SolveResult(Status.INFEASIBLE, proof=Proof(
                "the board has 1 square; a closed tour needs at least 3", argument="size",
                evidence={"squares": 1}))
        return SolveResult(Status.FOUND, tour=Tour(board, [0]), stats={"nodes": 0})
    if spec.closed and n < 3:
        return SolveResult(Status.INFEASIBLE, proof=Proof(
            f"the board has {n} squares; a closed tour needs at least 3", argument="size", evidence={"squares": n}))
    if not spec.closed and s is not None and s == e:
        return SolveResult(Status.INFEASIBLE, proof=Proof(
            f"an open tour of {n} squares cannot start and end on the same square {graph.name(s)}",
            argument="size", evidence={"squares": n}))

    # What to search: (start, end, closed, reverse the tour found?)
    finish = lambda sq: sq  # noqa: E731
    if spec.closed:
        if s is not None and e is not None:
            if e not in graph.table[s]:
                return SolveResult(Status.INFEASIBLE, proof=Proof(
                    f"a closed tour from {graph.name(s)} to {graph.name(e)} must close with a knight's move "
                    f"from {graph.name(e)} back to {graph.name(s)}, and there is none",
                    argument="closing move", evidence={"start": graph.name(s), "end": graph.name(e)}))
            searches = [(s, e, False)]
            why = f"every closed tour from {graph.name(s)} to {graph.name(e)} is an open one closed by a move"
        else:
            anchor = int(np.argmin(graph.degree))
            searches = [(anchor, -1, True)]
            why = f"every closed tour passes through {graph.name(anchor)}"

            def finish(sq):
                return list_cycle(sq, s, e)
    elif s is not None:
        searches = [(s, -1 if e is None else e, False)]
        why = f"the start {graph.name(s)} is fixed"
    elif e is not None:
        searches = [(e, -1, False)]
        why = f"the tours ending on {graph.name(e)} are the reversed ones starting there"
        finish = lambda sq: sq[::-1].copy()  # noqa: E731
    else:
        starts, why = _open_starts(graph)
        searches = [(int(v), -1, False) for v in starts]

    deadline.extend(warm())  # a first-run compile is not the search's time
    need = np.ones(n, dtype=np.int32)
    nodes = 0
    tried = []
    outcome = "exhausted"
    for start, end, closed in searches:
        if tried and deadline.expired():
            outcome = "time"
            break
        if n > _LARGE:
            deadline.check("preparing the search")  # a search's arrays are a pass over a large board
        search = Search(graph, start, end, closed=closed, need=need)
        outcome = run_search(search, deadline, max_nodes - nodes, progress, nodes, max_nodes)
        nodes += search.nodes
        tried.append(graph.name(start))
        if outcome == "found":
            sq = finish(search.tour())
            return SolveResult(Status.FOUND, tour=Tour(board, sq, closed=spec.closed),
                               stats={"nodes": nodes, "starts_tried": len(tried)})
        if outcome != "exhausted":
            break
        if not closed and end < 0:
            need[start] = 2  # no tour starts here, so none ends here (reverse it)
    if outcome == "exhausted":
        seconds = round(deadline.elapsed(), 3)
        return infeasible(
            f"an exhaustive search of {nodes:,} nodes ({seconds:.3g} s) found no {what} ({why})",
            nodes=nodes, seconds=seconds, starts=tried,
        )
    stats = {"nodes": nodes, "starts_tried": len(tried)}
    if outcome == "interrupted":
        return SolveResult(Status.UNKNOWN, stats={
            "reason": f"interrupted (Ctrl-C) after {nodes:,} nodes", "interrupted": True, **stats})
    budget = (f"the node budget of {max_nodes:,} ran out" if outcome == "nodes"
              else f"the time limit of {deadline.time_limit:g} s ran out")
    return SolveResult(Status.UNKNOWN, stats={
        "reason": f"{budget} after {nodes:,} nodes ({len(tried)} start squares begun)", **stats})


def _warm_calls() -> None:
    from ..board import Board

    g = KnightGraph(Board(5, 5))
    for counting in (False, True):
        Search(g, 0, -1, closed=False, counting=counting).run(1000)


def warm() -> float:
    """Compile (or load from numba's cache) the search kernels; the seconds spent compiling.

    Examples
    --------
    >>> warm() >= 0.0
    True
    """
    return jit.prepare("backtrack", _warm_calls, (_init, _run))

