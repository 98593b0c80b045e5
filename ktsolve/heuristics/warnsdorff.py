"""Warnsdorff's rule: always move to the square with the fewest onward moves.

Warnsdorff (1823) proposed building a knight's tour greedily: from the
current square, move to the unvisited neighbour that has the fewest
unvisited neighbours of its own.  The rule is linear in the number of
squares and works remarkably often, but it does not say what to do when
several neighbours tie, and the tie-break decides whether the walk completes.
This module implements the walk as one numba kernel with five tie-breaks:

``first``
    the neighbour reached by the move that comes first in the graph's move
    order, which is Squirrel & Cull's move types 1..8 (see
    :mod:`ktsolve.graph`);
``random``
    a uniformly random tied neighbour (seeded);
``pohl``
    Pohl (1967): the tied neighbour whose own unvisited neighbours have the
    smallest sum of onward degrees (further ties: move order);
``roth``
    Roth: the tied neighbour farthest (Euclidean) from the board's centre
    (further ties: move order);
``squirrel``
    Squirrel & Cull (1996): ties go to the move type that comes first in the
    current one of a list of move orderings, the ordering switching when the
    knight arrives on given squares.  Ganzfried (2004, Table 1) lists the
    orderings for an open tour from the corner of every ``n x n`` board,
    ``n >= 5``, by ``n mod 8``; they were reported to fail only at
    ``n = 74``, where the single ordering 21345678 works.  They need a full
    square board and the corner start (any corner: the tour is reflected).

Fixed ends and closed tours.  A required last square ``end`` is *blocked*:
it is never a candidate, but it still counts as an unvisited neighbour of
the squares around it, so that those squares look less urgent and tend to
be left for the end of the walk; when every other square has been visited
and the current square is a knight's move from ``end``, the walk steps onto
it.  A closed tour is an open tour from an anchor ``a`` to a blocked
neighbour ``t`` of ``a``, so a walk that completes is closed by
construction; the cycle is then listed from the required start.  Anchors
near the centre work far better than corners: with Roth's tie-break about
half of such walks complete closed tours even on 1000x1000 (see
benchmarks/), where walks anchored at a corner fail from 20x20 on.

:func:`solve_warnsdorff` (method ``warnsdorff``) restarts the walk over
start squares, blocked ends and tie-break rules until one walk completes or
the budget ends (``restarts`` walks, default
:func:`default_restarts`, and ``time_limit``); then it answers ``unknown``,
since a failed greedy walk proves nothing.  :func:`warnsdorff_path` exposes
one walk, complete or not, for seeding ant colonies and bee food sources.

The walk never recurses and keeps four arrays of ``n`` entries, so boards
of millions of squares work.

References
----------
H. C. von Warnsdorf, *Des Rösselsprunges einfachste und allgemeinste
Lösung*, Schmalkalden, 1823.
I. Pohl, "A method for finding Hamilton paths and knight's tours",
Communications of the ACM 10(7):446-449, 1967.
D. Squirrel and P. Cull, "A Warnsdorff-rule algorithm for knight's tours on
square chessboards", Oregon State University REU report, 1996.
S. Ganzfried, "A new algorithm for knight's tours", Oregon State University
REU report, 2004 (Table 1: the Squirrel-Cull orderings).

Examples
--------
>>> from ktsolve import Board, KnightGraph, TourSpec
>>> g = KnightGraph(Board(8, 8))
>>> len(warnsdorff_path(g, "a1", rule="roth"))
64
>>> solve_warnsdorff(g, TourSpec(closed=True), seed=1).status.value
'found'
"""

from __future__ import annotations

import numpy as np

from .. import jit
from ..checks import check_int, check_seed
from ..driver import Stopped, begin, drive, interrupt_guard, phase
from ..errors import InvalidParameterError, UnsupportedError
from ..board import Board
from ..graph import KnightGraph
from ..result import SolveResult, Status
from ..seeds import derive_seeds, seed_doc
from ..tour import Tour, TourSpec, list_cycle

__all__ = [
    "RULES",
    "warnsdorff_path",
    "squirrel_orderings",
    "squirrel_applies",
    "default_restarts",
    "solve_warnsdorff",
    "warm",
    "MAX_RESTARTS",
]

#: Tie-breaking rules of one walk, by name (``auto`` is the restart strategy of the method).
RULES = ("first", "random", "pohl", "roth", "squirrel")
_RULE_CODE = {name: code for code, name in enumerate(RULES)}

#: Rules that ``rule="auto"`` rotates through, in this order.
_AUTO_CYCLE = ("roth", "pohl", "first", "random")


# ---------------------------------------------------------------------- kernel
from ._params import Param, Params, Range, described  # noqa: E402 - beside the kernels' imports
from ._warnsdorff_kernels import (  # noqa: E402 - the kernels live in a file of their own
    _DONE,
    _LEN,
    _NSTATE,
    _walk_start,
    _walk_steps,
)
from ._warnsdorff_squirrel import (  # noqa: E402 - Ganzfried's table and the corner reflections
    corner_transform,
    reflect,
    squirrel_applies,
    squirrel_orderings,
)


class _Walker:
    """The arrays of resumable kernel walks on one graph, allocated once."""

    def __init__(self, graph: KnightGraph):
        n = graph.n
        self.table = graph.table
        self.degree = graph.degree
        self.deg = np.empty(n, dtype=np.int32)
        self.visited = np.empty(n, dtype=np.uint8)
        self.out = np.empty(n, dtype=np.int32)
        self.st = np.zeros(_NSTATE, dtype=np.int64)
        self.rng = np.zeros(1, dtype=np.uint64)

    def start(self, start: int, end: int, seed: int) -> None:
        _walk_start(self.table, self.degree, int(start), int(end), int(seed), self.deg, self.visited,
                    self.out, self.st, self.rng)

    def steps(self, rule: int, rank, switch, dist, budget: int) -> int:
        return int(_walk_steps(self.table, int(rule), rank, switch, dist, self.deg, self.visited, self.out,
                               self.st, self.rng, int(budget)))

    @property
    def done(self) -> bool:
        return bool(self.st[_DONE])

    @property
    def length(self) -> int:
        return int(self.st[_LEN])


def _walk(table, degree, start, end, rule, seed, rank, switch, dist, out, python=False):
    """One whole walk; fills ``out`` and returns its length (``n`` for a complete tour).

    ``python=True`` runs the kernels' plain-Python twins (:func:`ktsolve.jit.python_twin`):
    the same squares for the same arguments.  Calling a numba function the
    first time in a process costs about 0.3 s of CPU even when it is cached,
    more than a whole walk of a small board takes in Python, so
    :func:`solve_warnsdorff` runs its first few walks of small boards that
    way (``ktsolve solve 8x8`` never starts numba's machinery) and hands
    later restarts to the kernels.
    """
    n = table.shape[0]
    deg = np.empty(n, dtype=np.int32)
    visited = np.empty(n, dtype=np.uint8)
    st = np.zeros(_NSTATE, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    arrays = [table, degree, rank, switch, dist, deg, visited, out, st]
    begin, steps = _walk_start, _walk_steps
    if python:
        begin, steps = jit.python_twin(_walk_start), jit.python_twin(_walk_steps)
        # memoryviews read and write the same arrays, a few times faster than numpy's indexing
        # from Python; rng stays an array, its uint64 arithmetic is numpy's
        arrays = [memoryview(a) for a in arrays]
    table, degree, rank, switch, dist, deg, visited, out, st = arrays
    with np.errstate(over="ignore"):  # the twins' SplitMix64 wraps around on numpy scalars
        begin(table, degree, int(start), int(end), int(seed), deg, visited, out, st, rng)
        steps(table, int(rule), rank, switch, dist, deg, visited, out, st, rng, n + 1)
    return int(st[_LEN])


#: Boards up to this many squares run their first walks in Python (see :func:`_walk`).
_PY_MAX_SQUARES = 1024
#: How many walks of a small board run in Python before the kernel takes over.
_PY_MAX_WALKS = 8


# ---------------------------------------------------------------------- one walk
_EMPTY_I32 = np.zeros(0, dtype=np.int32)
_EMPTY_I64 = np.zeros(0, dtype=np.int64)
_EMPTY_I64.setflags(write=False)  # read-only like the distances it stands for: one kernel signature
_IDENTITY_RANK: dict[int, np.ndarray] = {}


def _identity_rank(k: int) -> np.ndarray:
    if k not in _IDENTITY_RANK:
        _IDENTITY_RANK[k] = np.arange(k, dtype=np.int32).reshape(1, k)
    return _IDENTITY_RANK[k]


def _centre_dist(graph: KnightGraph, deadline=None) -> np.ndarray:
    """Squared distance from the centre, doubled coordinates so it stays integral."""
    return graph.centre_distance(deadline)


def _rule_arrays(graph: KnightGraph, rule: str, deadline=None):
    if rule not in _RULE_CODE:
        raise UnsupportedError(f"Warnsdorff has no tie-break rule {rule!r}; choose one of {', '.join(RULES)}")
    k = graph.table.shape[1]
    if rule == "squirrel":
        if not squirrel_applies(graph):
            b = graph.board
            raise UnsupportedError(
                f"the Squirrel-Cull orderings need a full n x n board with n >= 5, not a "
                f"{b.rows}x{b.cols} board with {b.n_holes} holes"
            )
        rank, switch = squirrel_orderings(graph.board.rows)
        return rank, switch, _EMPTY_I64
    dist = _centre_dist(graph, deadline) if rule == "roth" else _EMPTY_I64
    return _identity_rank(k), _EMPTY_I32, dist


def warnsdorff_path(graph: KnightGraph, start, rule: str = "first", *, end=None,
                    seed: int | None = None) -> np.ndarray:
    """One Warnsdorff walk from ``start``; the squares visited, complete or not.

    Parameters
    ----------
    graph : KnightGraph
    start : int, (row, col) or str
        First square (a square number, coordinates or a name such as ``"a1"``).
    rule : {"first", "random", "pohl", "roth", "squirrel"}
        Tie-break among the neighbours with the fewest onward moves (see the
        module docstring).  ``"squirrel"`` needs a full ``n x n`` board,
        ``n >= 5``, and is meant for the start ``(0, 0)``.
    seed : int, optional
        Seed of rule ``"random"``'s tie-breaks, a whole number from 0 to
        2**32 - 1; the other rules ignore it.  Rule ``"random"`` needs one,
        since a walk returns no result that could record a fresh draw.
    end : int, (row, col) or str, optional
        A square kept for last: the walk never enters it before every other
        square is visited, then enters it if it is a knight's move away.
        Give a neighbour of ``start`` to ask for a closed tour.

    Returns
    -------
    (L,) int32 array
        Square numbers in visiting order.  ``L == graph.n`` exactly when the
        walk is a complete open tour (ending on ``end`` when one is given);
        a shorter array is the walk up to its dead end.

    Notes
    -----
    ``O(k n)`` time for ``n`` squares and ``k`` moves (``O(k^2 n)`` for rule
    ``pohl``); no recursion.  Same arguments, same walk.

    Examples
    --------
    >>> from ktsolve import Board, KnightGraph
    >>> g = KnightGraph(Board(5, 5))
    >>> path = warnsdorff_path(g, "a5", rule="first")
    >>> len(path), g.name(int(path[0]))
    (25, 'a5')
    """
    n = graph.n
    s = graph.node(start)
    e = -1 if end is None else graph.node(end)
    if e == s and n > 1:
        raise UnsupportedError(f"the end {graph.name(e)} is the start of the walk")
    seed = check_seed(seed)
    if seed is None and rule == "random":
        raise InvalidParameterError("rule 'random' needs a seed (a whole number from 0 to 2**32 - 1)")
    rank, switch, dist = _rule_arrays(graph, rule)
    out = np.empty(n, dtype=np.int32)
    length = _walk(graph.table, graph.degree, s, e, _RULE_CODE[rule], 0 if seed is None else int(seed),
                   rank, switch, dist, out)
    return out[:length].copy() if length < n else out


# ---------------------------------------------------------------------- the method
def default_restarts(n: int) -> int:
    """Default number of walks of :func:`solve_warnsdorff` on ``n`` squares.

    As many walks as visit about ``2 * 10**7`` squares, at least 100 and at
    most 10,000: 10,000 walks up to 2,000 squares, 100 walks from 200,000
    squares on.

    Examples
    --------
    >>> default_restarts(64), default_restarts(1_000_000)
    (10000, 100)
    """
    return int(min(10_000, max(100, 20_000_000 // max(1, n))))


#: Squares per slice of :func:`_start_order`.
_ORDER_SLICE = 1 << 20


def _start_order(graph: KnightGraph, deadline=None) -> np.ndarray:
    """Candidate first squares of a free open tour, most promising first.

    A square with one neighbour must be an end of every open tour, so when
    there is one it is the only start needed (a tour ending there, reversed,
    starts there).  When the colours' counts differ, both ends lie on the
    majority colour.  Otherwise squares of low degree come first: the
    corners, from which Warnsdorff's rule succeeds most often (ties in
    square order).  Done in slices of the board, with ``deadline`` checked
    between them: a board of millions of squares takes a while.
    """
    deg = graph.degree
    even, odd = graph.board.colour_counts()
    major = None if even == odd else (0 if even > odd else 1)
    by_degree: list[list[np.ndarray]] = [[] for _ in range(int(deg.max(initial=0)) + 1)]
    step = _ORDER_SLICE
    for a in range(0, graph.n, step):
        if deadline is not None:
            deadline.check("choosing the walks")
        d = deg[a : a + step]
        ones = np.flatnonzero(d == 1)
        if ones.size:
            return (ones[:1] + a).astype(np.int32)
        keep = np.arange(a, a + d.size, dtype=np.int32)
        if major is not None:
            pick = graph.colour[a : a + step] == major
            keep, d = keep[pick], d[pick]
        order = np.argsort(d.astype(np.uint8), kind="stable")  # small keys: a radix sort
        keep, d = keep[order], d[order]
        cuts = np.searchsorted(d, np.arange(len(by_degree) + 1))
        for k in range(len(by_degree)):
            if cuts[k + 1] > cuts[k]:
                by_degree[k].append(keep[cuts[k] : cuts[k + 1]])
    parts = [p for group in by_degree for p in group]
    return np.concatenate(parts).astype(np.int32) if parts else np.zeros(0, dtype=np.int32)


#: Squares nearest the centre that anchor a free closed tour.
_CLOSED_ANCHORS = 16


class _Starts:
    """The triples ``(start, -1, False)`` of an array of start squares, made one at a time.

    A free open start on a board of millions of squares has millions of
    candidates; a list of tuples of them would cost seconds.
    """

    def __init__(self, squares: np.ndarray):
        self._squares = squares

    def __len__(self):
        return len(self._squares)

    def __getitem__(self, i):
        return int(self._squares[i]), -1, False


def _plan(graph: KnightGraph, spec: TourSpec, deadline=None):
    """(triples, finish, reason) for the walks of ``spec``.

    Each triple is ``(start, blocked end or -1, reversed)``; ``finish`` turns
    a complete walk (already reversed where asked) into the tour's squares,
    and ``reason`` explains an empty plan.

    * Open from ``s`` to ``e``: walks ``s -> e`` and ``e -> s`` reversed.
    * Open from ``s``: walks from ``s``.  Open to ``e``: walks from ``e``, reversed.
    * Open, free: walks from :func:`_start_order`.
    * Closed: an open walk from an anchor ``a`` to a blocked neighbour ``t``
      of ``a`` closes by construction.  Anchors are the squares nearest the
      centre (where Roth's rule completes closed tours even on 1000x1000);
      the cycle is then listed from the required start, or so that it ends
      on the required end.  With both, the tour must use the move ``e -> s``:
      walks ``s -> e`` and ``e -> s`` reversed.
    """
    b = graph.board
    s = None if spec.start is None else b.index(*spec.start)
    e = None if spec.end is None else b.index(*spec.end)
    table = graph.table
    same = lambda sq: sq  # noqa: E731
    if spec.closed:
        if s is not None and e is not None:
            if e not in table[s]:
                return [], same, (f"a closed tour from {graph.name(s)} to {graph.name(e)} needs them "
                                  "a knight's move apart")
            return [(s, e, False), (e, s, True)], same, ""

        # the squares nearest the centre, ties in square order (a stable sort of those few)
        dist = _centre_dist(graph, deadline)
        k = min(_CLOSED_ANCHORS, graph.n)
        near = np.flatnonzero(dist <= np.partition(dist, k - 1)[k - 1])
        anchors = near[np.argsort(dist[near], kind="stable")][:k]
        triples = [(int(a), int(t), False) for a in anchors for t in table[a] if t >= 0]

        def finish(sq):
            return list_cycle(sq, s, e)

        return triples, finish, ""
    if s is not None and e is not None:
        return [(s, e, False), (e, s, True)], same, ""
    if s is not None:
        return [(s, -1, False)], same, ""
    if e is not None:
        return [(e, -1, True)], same, ""
    return _Starts(_start_order(graph, deadline)), same, ""


#: Most walks a run may be given (a walk of a small board takes microseconds).
MAX_RESTARTS = 10**9

#: Walk seeds are derived in blocks of this many.
_SEED_BLOCK = 1024


def _restarts(value) -> int:
    try:
        return check_int("restarts", value, 1, MAX_RESTARTS)
    except InvalidParameterError:
        raise InvalidParameterError(
            f"restarts must be a whole number from 1 to {MAX_RESTARTS:,}, not {value!r}"
        ) from None


class _Seeds:
    """The seeds of walk ``i``: its random tie-breaks, and its pick of a random candidate."""

    def __init__(self, seed: int):
        self.seed = seed
        self.first = -1
        self.walk = self.pick = None

    def __call__(self, i: int) -> tuple[int, int]:
        block = i - i % _SEED_BLOCK
        if block != self.first:
            self.first = block
            self.walk = derive_seeds(self.seed, "warnsdorff walk", block, _SEED_BLOCK)
            self.pick = derive_seeds(self.seed, "warnsdorff pick", block, _SEED_BLOCK)
        return int(self.walk[i - block]), int(self.pick[i - block])


def _warm_calls() -> None:
    g = KnightGraph(Board(5, 5))
    walker = _Walker(g)
    for rule in RULES:
        rank, switch, dist = _rule_arrays(g, rule)
        walker.start(0, -1, 1)
        walker.steps(_RULE_CODE[rule], rank, switch, dist, g.n + 1)


def warm() -> float:
    """Compile (or load from numba's cache) the walk kernels; the seconds spent compiling.

    Examples
    --------
    >>> warm() >= 0.0
    True
    """
    return jit.prepare("warnsdorff", _warm_calls, (_walk_start, _walk_steps))


@described(Range("choice", options=("auto", *RULES)))
def _rule(value, name, get, ctx):
    if isinstance(value, str) and (value == "auto" or value in _RULE_CODE):
        return value
    raise InvalidParameterError(
        f"Warnsdorff has no tie-break rule {value!r}; choose one of auto, {', '.join(RULES)}"
    )


@described(Range("whole", 1, MAX_RESTARTS))
def _restarts_check(value, name, get, ctx):
    return _restarts(value)


#: The parameters of :func:`solve_warnsdorff`, declared once: defaults, checks, and what ``ktsolve methods``
#: prints.
PARAMS = Params("warnsdorff", (
    Param("rule", "auto", _rule, '{"auto", "first", "random", "pohl", "roth", "squirrel"}',
          "Tie-break rule: auto tries Squirrel-Cull's orderings where they apply, then roth, pohl, first and "
          "random on each candidate walk; a named rule uses only that rule."),
    Param("restarts", None, _restarts_check, "int, optional",
          f"Most walks to try, 1 to {MAX_RESTARTS:,}; default from the board's size (default_restarts).",
          computed=lambda get, n: default_restarts(n)),
))


@seed_doc
def solve_warnsdorff(graph: KnightGraph, spec: TourSpec, *, time_limit=None, progress=None, rule: str = "auto",
                     restarts: int | None = None, seed=None) -> SolveResult:
    """Warnsdorff's rule with restarts over start squares and tie-break rules.

    Parameters
    ----------
    graph : KnightGraph
    spec : TourSpec
        Open or closed, with optional fixed start and end.
    %(seed)s
    time_limit : float, optional
        Seconds for the whole call, graph building included; a walk is cut
        into chunks, so even a walk of millions of squares stops in time.
    progress : callable, optional
        ``progress(walks done, walks allowed)``.
    rule : {"auto", "first", "random", "pohl", "roth", "squirrel"}
        ``"auto"`` (default) first tries the Squirrel-Cull orderings where
        they apply (an open tour of a full ``n x n`` board, ``n >= 5``, with
        a free start or a corner start and a free end), then sweeps the
        candidate walks of :func:`_plan`, trying rules roth, pohl, first and
        random on each (Roth's rule completed the most walks on full and
        holed boards, see benchmarks/), then keeps drawing random candidates
        with the random rule.  A named rule uses only that rule; a
        deterministic one stops after one sweep.
    restarts : int, optional
        Most walks to try, 1 to :data:`MAX_RESTARTS`;
        :func:`default_restarts` of the board size when None.

    Returns
    -------
    SolveResult
        ``found`` with the first complete walk, else ``unknown`` (a greedy
        walk that fails proves nothing).  ``stats`` holds ``walks``, the
        ``rule`` and ``start`` of the winning walk, ``longest`` (the most
        squares any walk covered), and ``interrupted`` after Ctrl-C.

    Notes
    -----
    Closed tours are open walks from an anchor ``a`` to a blocked neighbour
    ``t`` of ``a``, listed afterwards from the required start (see
    :func:`_plan`).  A fixed end without a start runs the walks from the end
    and reverses them.  Walk ``i`` draws its random tie-breaks (and, after
    the sweep, its candidate) from seeds derived from ``(seed, i)``, so a
    run does not depend on how the walks were cut into chunks.

    Examples
    --------
    >>> from ktsolve import Board
    >>> res = solve_warnsdorff(KnightGraph(Board(8, 8)), TourSpec(closed=True), seed=3)
    >>> res.status.value, len(res.tour), res.seed
    ('found', 64, 3)
    >>> res = solve_warnsdorff(KnightGraph(Board(3, 6)), TourSpec(), seed=1, restarts=5)
    >>> res.status.value, res.stats["walks"]
    ('unknown', 5)
    """
    values = PARAMS.check({"rule": rule, "restarts": restarts}, n=graph.n)
    rule, restarts = values.rule, values.restarts
    deadline, seed = begin(time_limit, seed)
    n = graph.n
    board = graph.board
    if n == 1 and not spec.closed:
        return SolveResult(Status.FOUND, tour=Tour(board, [0], closed=False), seed=seed,
                           stats={"walks": 0, "rule": "none"})
    squirrel_ok = squirrel_applies(graph) and not spec.closed and spec.end is None
    if rule == "squirrel":
        if not squirrel_ok:
            raise UnsupportedError(
                "rule 'squirrel' builds open tours of full n x n boards (n >= 5) from a corner, "
                f"not a {spec.describe(board)} on a {board.rows}x{board.cols} board with {board.n_holes} holes"
            )
        if spec.start is not None and corner_transform(graph, board.index(*spec.start)) is None:
            raise UnsupportedError(f"rule 'squirrel' starts from a corner, not from {board.name(*spec.start)}")
    stats: dict = {"walks": 0, "longest": 0}
    with interrupt_guard():
        try:
            graph.build(deadline, csr=False, coords=True)
            return _run(graph, spec, rule, restarts, seed, deadline, progress, squirrel_ok, stats)
        except Stopped as stop:
            stats.update(stop.stats())
            return SolveResult(Status.UNKNOWN, seed=seed, stats=stats)


def _run(graph, spec, rule, restarts, seed, deadline, progress, squirrel_ok, stats) -> SolveResult:
    """The walks of :func:`solve_warnsdorff`, driven in chunks of squares."""
    n = graph.n
    board = graph.board
    table, degree = graph.table, graph.degree

    # The walks: first the Squirrel-Cull walk where it applies (one walk settles most
    # square boards), then restarts over candidate walks and rules.
    first_walks = 0
    flips = None
    if squirrel_ok and rule in ("auto", "squirrel"):
        corner = 0 if spec.start is None else board.index(*spec.start)
        flips = corner_transform(graph, corner)
        first_walks = int(flips is not None)
    if rule == "squirrel":
        triples, finish = [], None
        sweep, cycle, deterministic = 0, ("squirrel",), True
        budget = first_walks
    else:
        triples, finish, reason = _plan(graph, spec, deadline)
        deadline.check("choosing the walks")
        if not len(triples):
            stats["reason"] = reason
            return SolveResult(Status.UNKNOWN, seed=seed, stats=stats)
        cycle = _AUTO_CYCLE if rule == "auto" else (rule,)
        sweep = len(triples) * len(cycle)
        deterministic = rule not in ("auto", "random")
        budget = min(restarts, first_walks + sweep) if deterministic else restarts
    seeds = _Seeds(seed)
    arrays: dict = {}
    state = {"next": 0, "walk": None, "walker": None, "found": None}
    out = np.empty(n, dtype=np.int32)

    def arrays_of(name):
        if name not in arrays:
            deadline.check("preparing the walks")  # a pass over every square follows
            if name == "squirrel":
                rank, switch = squirrel_orderings(board.rows)
                arrays[name] = (rank, switch, _EMPTY_I64)
            else:
                arrays[name] = _rule_arrays(graph, name, deadline)
        return arrays[name]

    def plan_walk(i):
        """(start, blocked end, reversed, rule, finish) of walk ``i``."""
        if i < first_walks:
            return 0, -1, False, "squirrel", lambda sq: reflect(graph, sq, flips)
        j = i - first_walks
        if j < sweep:
            s, e, rev = triples[j // len(cycle)]
            return s, e, rev, cycle[j % len(cycle)], finish
        s, e, rev = triples[seeds(i)[1] % len(triples)]
        return s, e, rev, "random", finish

    def ended(length, squares, rev, fin, name) -> bool:
        stats["walks"] += 1
        stats["longest"] = max(stats["longest"], length)
        if length < n:
            return False
        state["found"] = (fin(squares[::-1].copy() if rev else squares), name)
        return True

    def step(k):
        ran = 0
        while ran < k:
            if state["walk"] is None:
                i = state["next"]
                if i >= budget:
                    return ran, True
                state["next"] = i + 1
                s, e, rev, name, fin = plan_walk(i)
                rank, switch, dist = arrays_of(name)
                wseed = seeds(i)[0]
                if n <= _PY_MAX_SQUARES and stats["walks"] < _PY_MAX_WALKS:
                    # the first walks of a small board in Python: no numba start-up for `ktsolve solve 8x8`
                    length = _walk(table, degree, s, e, _RULE_CODE[name], wseed, rank, switch, dist, out,
                                   python=True)
                    ran += length
                    if ended(length, out, rev, fin, name):
                        return ran, True
                    continue
                if state["walker"] is None:
                    deadline.extend(warm())  # a first-run compile is not the search's time
                    deadline.check("preparing the walks")
                    state["walker"] = _Walker(graph)
                deadline.check("starting a walk")  # resetting the walk's arrays is a pass over them
                state["walker"].start(s, e, wseed)
                ran += 1 + n // 16  # resetting the walk's arrays: a pass over them
                state["walk"] = (name, rev, fin, rank, switch, dist)
            walker = state["walker"]
            name, rev, fin, rank, switch, dist = state["walk"]
            ran += walker.steps(_RULE_CODE[name], rank, switch, dist, max(1, k - ran))
            if walker.done:
                state["walk"] = None
                if ended(walker.length, walker.out, rev, fin, name):
                    return ran, True
        return ran, False

    phase(progress, "warnsdorff: walks", budget)
    outcome = drive(step, units=None, deadline=deadline, progress=progress, first=min(n, 1 << 16),
                    position=lambda done: (stats["walks"], budget))
    walks, longest = stats["walks"], stats["longest"]
    if outcome.interrupted:
        stats.update(reason=f"interrupted (Ctrl-C) after {walks} walks", interrupted=True)
        return SolveResult(Status.UNKNOWN, seed=seed, stats=stats)
    if state["found"] is not None:
        squares, name = state["found"]
        stats.update(rule=name, start=graph.name(int(squares[0])), longest=n)
        return SolveResult(Status.FOUND, tour=Tour(board, squares, closed=spec.closed), seed=seed, stats=stats)
    if outcome.reason == "time limit":
        stats["reason"] = (f"the time limit of {deadline.time_limit:g} s ran out after {walks} walks "
                           f"(the longest covered {longest} of {n} squares)")
    elif rule == "squirrel":
        stats["reason"] = f"the Squirrel-Cull walk stopped after {longest} of {n} squares"
    else:
        what = "every start and rule" if deterministic and budget == first_walks + sweep else f"{walks} walks"
        stats["reason"] = (f"Warnsdorff's rule tried {what} without completing a tour "
                           f"(the longest walk covered {longest} of {n} squares)")
    return SolveResult(Status.UNKNOWN, seed=seed, stats=stats)
