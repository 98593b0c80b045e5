"""Artificial bee colony for long knight's paths (Banharnsakun 2019).

Banharnsakun casts the knight's tour as the search for the longest sequence
of legal knight's moves and solves it with Karaboga's artificial bee colony;
the Prolog paper that ktsolve follows restates the adaptation and compares
it with one Warnsdorff walk on 8x8, 12x12 and 16x16 boards from random
starts (``ktsolve bench papers --section bees``).  Here:

* a **food source** is a start square and a sequence of ``N - 1`` move codes
  (``N`` squares).  Codes are Squirrel & Cull's move types 1..8, the move
  order of :class:`~ktsolve.graph.KnightGraph`: column ``j`` of
  ``graph.table`` is code ``j + 1`` (the kernels store ``j``, 0..7);
* its **fitness** is the number of valid moves before the first invalid one
  (a move off the board, onto a hole, or onto a square already visited), so
  ``N - 1`` means a full open tour;
* **employed bees**: every source is crossed with a random partner at three
  cut points ``c1 <= c2 <= c3`` (drawn uniformly from ``0..N-1`` and sorted:
  codes ``[0, c1)`` and ``[c2, c3)`` from the source, ``[c1, c2)`` and
  ``[c3, N-1)`` from the partner); the change is kept only if the fitness
  rises;
* **onlooker bees**: as many as sources; each picks a source with
  probability proportional to its fitness (uniformly while every fitness is
  zero) and works it the same way;
* **scout bees**: every source, the best one included, tries to repair its
  first invalid move, replacing the code with one drawn uniformly among the
  moves to unvisited squares.  On the best source this *extends the best
  path* by at least one square, as the paper's scouts do.  A source with no
  such move (a dead end) is abandoned and replaced by new random codes from
  its start square, unless its fitness is the best of the colony: a best
  source at a dead end is kept.

Greedy selection never lowers a fitness and a best source is never
abandoned, so the best fitness of the colony never falls.  A run stops when
a source reaches ``N - 1`` (a full tour) or after its iterations.
``extend_best=False`` keeps the scouts off the best sources (they repair
only the sources below the best), the reading ktsolve used before; the bee
section of ``ktsolve bench papers`` measures both.

Defaults are the paper's colony: 32 food sources and 200 iterations, one run
(``runs`` restarts it with fresh sources until a tour is found).

Start square: with ``spec.start`` every source starts there; otherwise every
run draws one start square uniformly at random for all its sources (seed
paths keep their own starts).  A shared start keeps crossover coherent: the
partner's codes replay the partner's moves wherever the two walks agree.
Letting every source draw its own start instead gave paths 1.5 to 7.5
squares shorter on average on 8x8, 12x12 and 16x16 (20 seeds each).  Closed
tours and fixed ends are not supported (the move-code fitness has no notion
of the closing move); ask the exact side or the ant colonies for those.

Exact knowledge can seed the colony: ``initial_paths`` (for instance
Warnsdorff walks, built by the caller) become the first food sources, their
move codes followed by random codes.

Budgets and randomness: the work is cut into blocks of :data:`BLOCK`
iterations and run by :func:`ktsolve.driver.drive` (time limit, progress,
Ctrl-C).  Numba's ``np.random.random()`` is reseeded at the start of every
block from :func:`ktsolve.seeds.derive_seed` of ``(seed, run, block)``, so a
run does not depend on how it was cut into chunks and a slow pure-Python
reference reproduces it draw for draw.

References
----------
A. Banharnsakun, "Artificial bee colony algorithm for solving the knight's
tour problem", Advances in Intelligent Systems and Computing 866, Springer,
2019, doi:10.1007/978-3-030-00979-3_13.
D. Karaboga and B. Basturk, "A powerful and efficient algorithm for
numerical function optimization: artificial bee colony (ABC) algorithm",
J. Global Optimization 39:459-471, 2007.
"""

from __future__ import annotations

import time

import numpy as np

from ..checks import check_choice, check_flag, check_int
from ..driver import begin, drive, phase
from ..errors import InvalidParameterError, InvalidTourError, UnsupportedError
from ..graph import KnightGraph
from ..result import SolveResult, Status
from ..seeds import derive_seed, seed_doc
from ..tour import Tour, TourSpec
from ._abc_kernels import _block, _init
from ._colony import LOCAL_SEARCHES
from ._params import Param, Params, anything, choice, flag, whole
from ._seeding import SOURCES, seed_paths

__all__ = [
    "BLOCK",
    "path_to_codes",
    "codes_to_path",
    "path_fitness",
    "run_abc",
    "solve_abc",
    "warm",
    "check_abc_params",
]

#: Iterations per kernel call; numba's generator is reseeded at every block.
BLOCK = 10

_STREAM = 0x41424300  # + run number: the bee colony's random streams

#: Counters kept by the kernels (index into the ``counters`` array).
_COUNTERS = ("candidates", "evaluations", "improvements", "repairs", "replacements")


# ---------------------------------------------------------------------- conversions
def path_to_codes(graph: KnightGraph, squares) -> np.ndarray:
    """Move codes 1..8 of a walk given as square numbers (the inverse of :func:`codes_to_path`).

    Raises
    ------
    InvalidTourError
        When two consecutive squares are not a knight's move apart.

    Examples
    --------
    >>> from ktsolve import Board
    >>> g = KnightGraph(Board(3, 4))
    >>> path_to_codes(g, [0, 6, 8]).tolist()
    [3, 6]
    """
    sq = np.asarray(squares, dtype=np.int64).reshape(-1)
    if sq.size == 0:
        raise InvalidTourError("the path is empty")
    if ((sq < 0) | (sq >= graph.n)).any():
        bad = int(sq[(sq < 0) | (sq >= graph.n)][0])
        raise InvalidTourError(f"square number {bad} is not in 0..{graph.n - 1}")
    table = graph.table
    hit = table[sq[:-1]] == sq[1:, None]
    ok = hit.any(axis=1)
    if not ok.all():
        k = int(np.argmin(ok))
        raise InvalidTourError(
            f"illegal move at step {k + 2}: {graph.name(int(sq[k]))} to {graph.name(int(sq[k + 1]))} "
            "is not a legal move"
        )
    return (np.argmax(hit, axis=1) + 1).astype(np.int8)


def codes_to_path(graph: KnightGraph, start: int, codes) -> np.ndarray:
    """Squares visited from ``start`` by move codes 1..8, up to (not including) the first invalid move.

    Examples
    --------
    >>> from ktsolve import Board
    >>> g = KnightGraph(Board(3, 4))
    >>> codes_to_path(g, 0, [3, 6, 6, 1]).tolist()
    [0, 6, 8]
    """
    table = graph.table
    seen = np.zeros(graph.n, dtype=bool)
    cur = int(start)
    out = [cur]
    seen[cur] = True
    for c in np.asarray(codes, dtype=np.int64).reshape(-1):
        if not 1 <= c <= table.shape[1]:
            break
        nxt = int(table[cur, c - 1])
        if nxt < 0 or seen[nxt]:
            break
        seen[nxt] = True
        out.append(nxt)
        cur = nxt
    return np.array(out, dtype=np.int32)


def path_fitness(graph: KnightGraph, start: int, codes) -> int:
    """Fitness of a food source: valid moves from ``start`` before the first invalid code (1..8)."""
    return int(codes_to_path(graph, start, codes).size - 1)


# ---------------------------------------------------------------------- driver
def _seed_rows(graph: KnightGraph, initial_paths, sources: int, fixed_start: int):
    """Codes (0-based) and starts of the caller's seed paths, at most ``sources`` of them."""
    rows = []
    for k, p in enumerate(_path_list(initial_paths)):
        if isinstance(p, Tour):
            sq = p.squares
        else:
            arr = np.asarray(p) if isinstance(p, (list, tuple, np.ndarray)) else None
            if arr is None or arr.ndim != 1 or (arr.size and not np.issubdtype(arr.dtype, np.integer)):
                raise InvalidParameterError(
                    f"method 'abc': initial path {k} must be a list of square numbers, not {p!r}"
                )
            sq = arr.astype(np.int64)
            if sq.size and (sq.min() < 0 or sq.max() >= graph.n):
                raise InvalidTourError(f"initial path {k} names a square outside 0..{graph.n - 1}")
        if sq.size == 0:
            continue
        if fixed_start >= 0 and int(sq[0]) != fixed_start:
            raise UnsupportedError(
                f"initial path {k} starts on {graph.name(int(sq[0]))}, not on the required start "
                f"{graph.name(fixed_start)}"
            )
        if np.unique(sq).size != sq.size:
            raise InvalidTourError(f"initial path {k} visits a square twice")
        codes = path_to_codes(graph, sq).astype(np.int8) - 1
        rows.append((int(sq[0]), codes[: max(graph.n - 1, 0)]))
        if len(rows) == sources:
            break
    return rows


#: Largest number of move codes held by the colony (``sources * (N - 1)`` bytes).
MAX_CELLS = 2**30

#: Upper bounds of the colony's counts.
MAX_SOURCES = 100_000
MAX_ITERATIONS = 10**9
MAX_RUNS = 10**9


def check_abc_params(n: int, sources, iterations, runs, extend_best) -> tuple[int, int, int, bool]:
    """The colony's parameters, checked: whole numbers in their ranges and a colony that fits in memory.

    Examples
    --------
    >>> check_abc_params(64, 32, 200, 1, True)
    (32, 200, 1, True)
    >>> check_abc_params(64, 1, 200, 1, True)
    Traceback (most recent call last):
    ...
    ktsolve.errors.InvalidParameterError: method 'abc': sources = 1 must be from 2 to 100000
    """
    sources = check_int("sources", sources, 2, MAX_SOURCES, method="abc")
    iterations = check_int("iterations", iterations, 0, MAX_ITERATIONS, method="abc")
    runs = check_int("runs", runs, 1, MAX_RUNS, method="abc")
    extend_best = check_flag("extend_best", extend_best, method="abc")
    if sources * max(n - 1, 0) > MAX_CELLS:
        raise InvalidParameterError(
            f"method 'abc': {sources} food sources of {n - 1:,} move codes would need "
            f"{sources * (n - 1) / 2**30:.1f} GiB; use fewer sources"
        )
    return sources, iterations, runs, extend_best


class _Colony:
    """The state of a colony run by :func:`run_abc`: the food sources of the current run and the best so far."""

    def __init__(self, graph: KnightGraph, sources: int, iterations: int, runs: int, fixed: int, seed_rows,
                 seed: int, extend_best: bool, local_search: str = "none"):
        self.graph = graph
        self.local_search = local_search
        self.rotation_repairs = 0  # blocks whose best path the local search made longer
        self.table = np.ascontiguousarray(graph.table, dtype=np.int32)
        self.SN, self.L = sources, max(graph.n - 1, 0)
        self.iterations, self.runs, self.fixed = iterations, runs, fixed
        self.seed_rows, self.seed, self.extend_best = seed_rows, seed, extend_best
        self.counters = np.zeros(len(_COUNTERS), dtype=np.int64)
        self.mark = np.zeros(graph.n, dtype=np.int32)
        self.best = None  # (fitness, start, codes, run)
        self.total_iters = 0
        self.run = -1
        self.start_run()

    def start_run(self) -> None:
        """Fresh food sources for the next run (the seed paths first)."""
        self.run += 1
        SN, L = self.SN, self.L
        self.codes = np.zeros((SN, L), dtype=np.int8)
        self.starts = np.full(SN, max(self.fixed, 0), dtype=np.int32)
        preset = np.full(SN, -1, dtype=np.int32)
        for i, (s, c) in enumerate(self.seed_rows):
            self.starts[i] = s
            self.codes[i, : c.size] = c
            preset[i] = c.size
        self.fit = np.zeros(SN, dtype=np.int32)
        self.done = 0  # iterations of this run
        self.block = 0
        _init(self.table, self.codes, self.starts, self.fit, preset, self.fixed,
              derive_seed(self.seed, _STREAM + self.run, 0), self.mark)
        self.keep_best()

    def keep_best(self) -> None:
        """The first fittest source of this run, or of an earlier run when that one is strictly fitter."""
        i = int(np.argmax(self.fit))
        f = int(self.fit[i])
        if self.best is None or f > self.best[0] or (self.best[3] == self.run and f >= self.best[0]):
            self.best = (f, int(self.starts[i]), self.codes[i].copy(), self.run)

    @property
    def complete(self) -> bool:
        return self.best[0] == self.L

    def step(self, blocks: int) -> tuple[int, bool]:
        """Run up to ``blocks`` blocks; the driver's step.  Finished at a tour or after the last run."""
        ran = 0
        while ran < blocks:
            if self.complete:
                return ran, True
            if self.done >= self.iterations:
                if self.run + 1 >= self.runs:
                    return ran, True
                self.start_run()
                continue
            k = min(BLOCK, self.iterations - self.done)
            s = derive_seed(self.seed, _STREAM + self.run, self.block + 1)
            did = _block(self.table, self.codes, self.starts, self.fit, k, s, self.mark, self.counters,
                         self.extend_best)
            self.done += did
            self.total_iters += did
            self.block += 1
            ran += 1
            if did < k:  # a full tour: the run stopped early
                self.done = self.iterations
            self.keep_best()
            if self.local_search != "none" and not self.complete:
                self.repair_best()
        return ran, self.complete or (self.done >= self.iterations and self.run + 1 >= self.runs)

    def repair_best(self) -> None:
        """Extend the run's best path by Posa rotations; a longer path replaces the run's weakest source."""
        from ._colony import REPAIR_ROTATIONS_PER_SQUARE, posa_repair
        from ._walks import seed_state, walk_arrays

        graph = self.graph
        i = int(np.argmax(self.fit))
        path = codes_to_path(graph, int(self.starts[i]), self.codes[i].astype(np.int64) + 1)
        if not hasattr(self, "_tpad"):
            self._tpad = walk_arrays(graph)[0]
            self._rng = seed_state(derive_seed(self.seed, "local_search"))
        fixed_start = TourSpec(start=None if self.fixed < 0 else tuple(int(v) for v in graph.coords[self.fixed]))
        repaired, m, _ = posa_repair(graph, self._tpad, path, path.size - 1, fixed_start, self._rng,
                                     REPAIR_ROTATIONS_PER_SQUARE * graph.n)
        if m - 1 <= int(self.fit[i]):
            return
        weakest = int(np.argmin(self.fit))
        codes = path_to_codes(graph, repaired[:m]).astype(np.int8) - 1
        self.codes[weakest, : codes.size] = codes
        self.starts[weakest] = repaired[0]
        self.fit[weakest] = m - 1
        self.rotation_repairs += 1
        self.keep_best()

    def blocks_per_run(self) -> int:
        return -(-self.iterations // BLOCK)


@seed_doc
def run_abc(
    graph: KnightGraph,
    *,
    start: int | None = None,
    sources: int = 32,
    iterations: int = 200,
    runs: int = 1,
    extend_best: bool = True,
    initial_paths=None,
    local_search: str = "none",
    time_limit=None,
    progress=None,
    seed: int | None = None,
) -> dict:
    """Run the bee colony and return its best food source and counters.

    Parameters
    ----------
    graph : KnightGraph
    start : int, optional
        Square number every source starts from; None: every run draws one start for all its sources.
    sources : int
        Food sources (and employed bees, and onlookers), 2 to 100,000;
        default 32 (Banharnsakun).
    iterations : int
        Iterations per run, 0 to 10**9; default 200 (Banharnsakun).  With
        0, only the first run's initial sources are scored.
    runs : int
        Independent runs (1 to 10**9); stops at the first that finds a full tour.
    extend_best : bool
        The scouts extend the best sources too (default, the paper); False
        keeps them to the sources below the best.
    initial_paths : sequence of paths, optional
        Walks (square numbers or :class:`Tour`) that become the first food
        sources of every run; their codes are followed by random ones.
    local_search : {"none", "rotation"}
        ``"rotation"``: after every block of iterations the run's best path
        is extended greedily and repaired by Posa rotations
        (:func:`ktsolve.heuristics._colony.posa_repair`); a longer path
        replaces the run's weakest food source.
    %(seed)s
    time_limit : float, optional
        Seconds; checked between blocks of :data:`BLOCK` iterations.
    progress : callable, optional
        ``progress(iterations done, iterations * runs)``.

    Returns
    -------
    dict
        ``squares`` (the longest path, int32 square numbers), ``moves`` (its
        fitness), ``complete`` (a full tour), ``codes`` (its move codes 1..8,
        the whole food source), ``iterations``, ``runs``, ``best_run``,
        ``seeded`` (seed paths used), the counters ``candidates``,
        ``evaluations``, ``improvements``, ``repairs``, ``replacements``,
        ``elapsed``, ``reason`` (why the run ended: ``"finished"``,
        ``"budget"``, ``"time limit"`` or ``"interrupted"``) and ``seed``
        (the seed used; the dict stands in for ``result`` here).

    Examples
    --------
    >>> from ktsolve import Board
    >>> st = run_abc(KnightGraph(Board(6, 6)), start=0, seed=3)
    >>> st["seed"], st["moves"] + 1 == st["squares"].size
    (3, True)
    """
    n = graph.n
    sources, iterations, runs, extend_best = check_abc_params(n, sources, iterations, runs, extend_best)
    if graph.table.shape[1] != 8:
        raise UnsupportedError("the bee colony's move codes are the knight's 8 moves")
    deadline, seed = begin(time_limit, seed)
    # a first-run compile (of the kernels this run calls) is not the search's time
    deadline.extend(warm(local_search=local_search, seed_with="none"))
    fixed = -1 if start is None else check_int("start", start, 0, n - 1, method="abc")
    local_search = check_choice("local_search", local_search, LOCAL_SEARCHES, method="abc")
    t0 = time.perf_counter()
    colony = _Colony(graph, sources, iterations, runs, fixed, _seed_rows(graph, initial_paths, sources, fixed),
                     seed, extend_best, local_search)
    per_run = colony.blocks_per_run()
    total = iterations * runs

    def report(done_blocks, _total):
        if progress is not None:
            progress(colony.total_iters, total)

    if colony.complete or per_run == 0:
        reason = "finished" if colony.complete else "budget"
    else:
        phase(progress, "abc: iterations", total)
        reason = drive(colony.step, units=per_run * runs, deadline=deadline, progress=report).reason
    fitness, s, c, best_run = colony.best
    squares = codes_to_path(graph, s, c[:fitness].astype(np.int64) + 1)
    out = {name: int(colony.counters[k]) for k, name in enumerate(_COUNTERS)}
    out.update(
        squares=squares,
        moves=fitness,
        complete=fitness == colony.L,
        codes=(c.astype(np.int8) + 1),
        iterations=colony.total_iters,
        runs=colony.run + 1,
        best_run=best_run,
        seeded=len(colony.seed_rows),
        elapsed=time.perf_counter() - t0,
        reason=reason,
        seed=seed,
    )
    if local_search != "none":
        out.update(local_search=local_search, rotation_repairs=colony.rotation_repairs)
    return out


def _from_start(path: np.ndarray, start: int | None) -> np.ndarray | None:
    """The part of a seed path a food source can use: all of it, or (fixed start) the part from the start on.

    A path through the start is cut there and its longer side kept, turned
    to begin at the start; a path that misses the start is no source.
    """
    path = np.asarray(path, dtype=np.int32)
    if start is None:
        return path
    at = np.flatnonzero(path == start)
    if at.size == 0:
        return None
    k = int(at[0])
    after, before = path[k:], path[: k + 1][::-1]
    return after if after.size >= before.size else before


def _path_list(initial_paths) -> list:
    """``initial_paths`` as a list (None is none); anything but a sequence of paths is refused."""
    if initial_paths is None:
        return []
    if not isinstance(initial_paths, (list, tuple, np.ndarray)):
        raise InvalidParameterError(
            f"method 'abc': initial_paths must be a list of paths (square numbers), not {initial_paths!r}"
        )
    return list(initial_paths)


def _seed_paths(seed_tour, initial_paths) -> list:
    """``seed_tour`` (a Tour, a path, or rows of a 2-D array) put before ``initial_paths``."""
    if seed_tour is None:
        return _path_list(initial_paths)
    if isinstance(seed_tour, Tour):
        extra = [seed_tour]
    elif isinstance(seed_tour, (list, tuple)) and seed_tour and isinstance(seed_tour[0], (Tour, np.ndarray, list)):
        extra = list(seed_tour)
    else:
        arr = np.asarray(seed_tour)
        extra = list(arr) if arr.ndim == 2 else [arr]
    return extra + _path_list(initial_paths)


def _warm_calls(part: str) -> None:
    """The kernel calls of one part of the colony on a tiny board, with the argument types real runs use.

    ``"base"``: open paths, free and from a fixed start; ``"rotation"``:
    the same with the local search; ``"warnsdorff"``: first food sources
    from Warnsdorff walks.
    """
    from ..board import Board

    graph = KnightGraph(Board(6, 6))
    if part == "warnsdorff":
        solve_abc(graph, TourSpec(start=(0, 0)), sources=4, iterations=2, seed_with="warnsdorff", seed=1)
        return
    for spec in (TourSpec(), TourSpec(start=(0, 0))):
        solve_abc(graph, spec, sources=4, iterations=2, local_search="rotation" if part == "rotation" else "none",
                  seed=1)


def warm(*, local_search: str = "rotation", seed_with: str = "warnsdorff") -> float:
    """Compile (or load from numba's cache) the colony's kernels; the seconds spent compiling.

    The kernels every run calls are prepared first; those of the local
    search and of the first food sources (``seed_with``) only when asked
    for, so that a first run compiles what it calls and no more.  The
    defaults ask for everything (``ktsolve warm``); a run passes its own.
    """
    from ..jit import kernels_of, prepare
    from . import _abc_kernels, _colony_kernels, _posa_kernels

    seconds = prepare("abc", lambda: _warm_calls("base"), kernels_of(_abc_kernels))
    if local_search == "rotation":
        seconds += prepare("abc rotation", lambda: _warm_calls("rotation"), kernels_of(_posa_kernels))
    if seed_with in ("warnsdorff", "exact"):
        seconds += prepare("abc warnsdorff", lambda: _warm_calls("warnsdorff"), kernels_of(_colony_kernels))
    if seed_with == "exact":
        from ..models.backtrack import warm as warm_backtrack

        seconds += warm_backtrack()
    return seconds


#: The parameters of :func:`solve_abc`, declared once: defaults (Banharnsakun's where the paper gives them),
#: checks, and what ``ktsolve methods`` prints.
PARAMS = Params("abc", (
    Param("sources", 32, whole(2, MAX_SOURCES), "int", f"Food sources, 2 to {MAX_SOURCES:,} (Banharnsakun)."),
    Param("iterations", 200, whole(0, MAX_ITERATIONS), "int", "Iterations per run (Banharnsakun)."),
    Param("runs", 1, whole(1, MAX_RUNS), "int", "Independent runs until a tour is found."),
    Param("extend_best", True, flag, "bool",
          "The scouts extend the best food source, as in the paper; false limits them to the sources below it."),
    Param("initial_paths", None, anything, "sequence of paths, optional",
          "Seed walks (square numbers or Tours), complete or not (in Python)."),
    Param("seed_tour", None, anything, "Tour or int array, optional",
          "A tour or path (or several) put before initial_paths (in Python)."),
    Param("seed_with", "none", choice(SOURCES), '{"none", "warnsdorff", "exact"}',
          "First food sources from greedy Warnsdorff walks or exact tours of other boards, never a tour of the "
          "question; none is the paper's random sources."),
    Param("local_search", "none", choice(LOCAL_SEARCHES), '{"none", "rotation"}',
          "rotation: after every block of iterations the best path is extended and repaired by Posa rotations; "
          "none is the paper's algorithm."),
))


@seed_doc
def solve_abc(
    graph: KnightGraph,
    spec: TourSpec,
    *,
    time_limit=None,
    progress=None,
    sources: int = 32,
    iterations: int = 200,
    runs: int = 1,
    extend_best: bool = True,
    initial_paths=None,
    seed_tour=None,
    seed_with: str = "none",
    local_search: str = "none",
    seed: int | None = None,
) -> SolveResult:
    """Open knight's tour, or the longest path found, by the artificial bee colony.

    Parameters
    ----------
    graph : KnightGraph
    spec : TourSpec
        An open tour, optionally from ``spec.start``; closed tours and fixed
        ends are not supported.
    %(seed)s
    time_limit : float, optional
        Seconds; the answer is ``unknown`` when it runs out.
    progress : callable, optional
        ``progress(done, total)`` in iterations.
    sources : int
        Food sources, 2 to 100,000; default 32 (Banharnsakun).
    iterations : int
        Iterations per run, 0 to 10**9; default 200 (Banharnsakun).
    runs : int
        Independent runs until a tour is found, 1 to 10**9; default 1.
    extend_best : bool
        The scouts extend the best food source (default, as in the paper);
        False limits them to the sources below the best.
    initial_paths : sequence of paths, optional
        Seed walks (square numbers or :class:`Tour`), e.g. Warnsdorff's,
        complete or not.
    seed_tour : Tour or int array, optional
        A tour or path (or several, as rows of a 2-D array or a list) put
        before ``initial_paths``.  A complete tour is a food source of full
        fitness, returned at once.
    seed_with : {"none", "warnsdorff", "exact"}
        First food sources from greedy Warnsdorff walks, or from exact tours
        of other boards (the board without its holes, or its halves), cut
        into paths from the start; never a finished tour of the question
        (:mod:`ktsolve.heuristics._seeding`).  Default ``"none"``: the
        paper's random sources.
    local_search : {"none", "rotation"}
        ``"rotation"``: after every block of iterations the best path is
        extended and repaired by Posa rotations, and a longer path becomes
        a food source.  Default ``"none"``, the paper's algorithm.

    Returns
    -------
    SolveResult
        ``found`` with a full open tour, or ``unknown``; either way
        ``result.path`` is the longest path found and ``stats["length"]``
        its number of squares.  A run stopped by Ctrl-C is ``unknown`` with
        ``stats["interrupted"] = True``.

    Notes
    -----
    Each iteration costs ``O(sources * N)``.  With the paper's budget the
    colony's longest path falls short of a full tour on 8x8 and larger
    boards (``benchmarks/results/bees_section.md`` has the figures beside
    one Warnsdorff walk and the exact optimum); full tours are found on
    small boards such as 5x5 by restarting (``runs``) rather than by
    iterating longer.

    Examples
    --------
    >>> from ktsolve import Board
    >>> res = solve_abc(KnightGraph(Board(8, 8)), TourSpec(start=(0, 0)), seed=1)
    >>> res.stats["length"] == len(res.path) > 30, res.seed
    (True, 1)
    """
    PARAMS.check({"sources": sources, "iterations": iterations, "runs": runs, "extend_best": extend_best,
                  "initial_paths": initial_paths, "seed_tour": seed_tour, "seed_with": seed_with,
                  "local_search": local_search}, n=graph.n)
    deadline, seed = begin(time_limit, seed)
    # a first-run compile (of the kernels this run calls) is not the search's time
    deadline.extend(warm(local_search=local_search, seed_with=seed_with))
    if spec.closed:
        raise UnsupportedError("method 'abc' cannot build closed tours")
    if spec.end is not None:
        raise UnsupportedError("method 'abc' cannot fix the end square")
    start = None if spec.start is None else graph.board.index(*spec.start)
    paths = _seed_paths(seed_tour, initial_paths)
    source = check_choice("seed_with", seed_with, SOURCES, method="abc")
    seed_info = {}
    if source != "none":
        if seed_tour is not None:
            raise InvalidParameterError("method 'abc': give seed_with or seed_tour, not both")
        laid, seed_info = seed_paths(graph, spec, source, seed=derive_seed(seed, "seed_with"),
                                     time_limit=deadline.part(0.5))
        paths = [p for p in (_from_start(q, start) for q in laid) if p is not None and p.size > 1] + paths
    st = run_abc(graph, start=start, sources=sources, iterations=iterations, runs=runs, extend_best=extend_best,
                 initial_paths=paths, local_search=local_search, time_limit=deadline, progress=progress,
                 seed=seed)
    squares = st["squares"]
    why = st["reason"]
    stats = {k: v for k, v in st.items() if k not in ("squares", "codes", "elapsed", "complete", "reason", "seed")}
    stats.update(length=int(squares.size), sources=int(sources), extend_best=bool(extend_best),
                 candidates_per_s=(st["candidates"] / st["elapsed"]) if st["elapsed"] > 0 else 0.0, **seed_info)
    path = Tour(graph.board, squares, closed=False)
    if st["complete"]:
        return SolveResult(Status.FOUND, tour=path, path=path, stats=stats, seed=seed)
    longest = f"the longest path has {squares.size} of {graph.n} squares"
    if why == "interrupted":
        stats["interrupted"] = True
        stats["reason"] = f"interrupted after {st['iterations']} iterations; {longest}"
    elif why == "time limit":
        stats["reason"] = f"time limit reached after {st['iterations']} iterations; {longest}"
    else:
        stats["reason"] = f"{st['runs']} run(s) of {iterations} iterations found no full tour; {longest}"
    return SolveResult(Status.UNKNOWN, path=path, stats=stats, seed=seed)
