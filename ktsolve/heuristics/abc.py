"""Artificial bee colony for long knight's paths (Banharnsakun 2019).

Banharnsakun casts the knight's tour as the search for the longest sequence
of legal knight's moves and solves it with Karaboga's artificial bee colony;
the Prolog paper that ktsolve follows restates the adaptation.  Here:

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
* **scout bees**: every source below the best tries to repair its first
  invalid move, replacing the code with one drawn uniformly among the moves
  to unvisited squares; a source with no such move (a dead end) is abandoned
  and replaced by new random codes from its start square.

The best source is never touched by a scout and greedy selection never
lowers a fitness, so the best fitness of the colony never falls.  A run
stops when a source reaches ``N - 1`` (a full tour) or after its iterations.

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

Randomness: numba's ``np.random.random()`` is reseeded from ``(seed, run,
block)`` at the start of every block of :data:`BLOCK` iterations, so a run
does not depend on how it was cut into chunks and a slow pure-Python
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
from numba import njit

from ..errors import InvalidTourError, UnsupportedError
from ..graph import KnightGraph
from ..seeds import derive_seeds
from ..result import SolveResult, Status
from ..tour import Tour, TourSpec

__all__ = [
    "BLOCK",
    "path_to_codes",
    "codes_to_path",
    "path_fitness",
    "run_abc",
    "solve_abc",
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


# ---------------------------------------------------------------------- kernels
@njit(cache=True)
def _fitness(table, codes, start, mark, stamp):
    """Valid moves of ``codes`` (0-based) from ``start``; ``mark[x] == stamp`` means visited."""
    cur = start
    mark[cur] = stamp
    L = codes.size
    for p in range(L):
        nxt = table[cur, codes[p]]
        if nxt < 0 or mark[nxt] == stamp:
            return p
        mark[nxt] = stamp
        cur = nxt
    return L


@njit(cache=True)
def _crossover(x, y, c1, c2, c3, out):
    """``out`` = x[:c1] + y[c1:c2] + x[c2:c3] + y[c3:]."""
    L = x.size
    for p in range(L):
        if p < c1:
            out[p] = x[p]
        elif p < c2:
            out[p] = y[p]
        elif p < c3:
            out[p] = x[p]
        else:
            out[p] = y[p]


@njit(cache=True)
def _cuts(L):
    """Three cut points drawn uniformly from 0..L, sorted."""
    a = int(np.random.random() * (L + 1))
    b = int(np.random.random() * (L + 1))
    c = int(np.random.random() * (L + 1))
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
    if a > b:
        a, b = b, a
    return a, b, c


@njit(cache=True)
def _repair(table, codes, start, fit, mark, stamp, valid):
    """Replace the first invalid code (position ``fit``) by a random move to an unvisited square.

    Returns the new code, or -1 when the walk is at a dead end (no draw is made then).
    """
    cur = start
    mark[cur] = stamp
    for p in range(fit):
        cur = table[cur, codes[p]]
        mark[cur] = stamp
    cnt = 0
    for j in range(table.shape[1]):
        nxt = table[cur, j]
        if nxt >= 0 and mark[nxt] != stamp:
            valid[cnt] = j
            cnt += 1
    if cnt == 0:
        return -1
    j = valid[int(np.random.random() * cnt)]
    codes[fit] = j
    return j


@njit(cache=True)
def _random_codes(codes, first):
    """Uniform random move codes (0..7) at positions ``first..``."""
    for p in range(first, codes.size):
        codes[p] = int(np.random.random() * 8)


@njit(cache=True)
def _init(table, codes, starts, fit, preset, fixed_start, seed, mark):
    """Fill the food sources; returns the run's start square.

    Without a fixed start (``fixed_start < 0``) the run's start is drawn
    first.  Rows with ``preset[i] >= 0`` keep their start and first
    ``preset[i]`` codes (seed paths); the rest of every row is random codes.
    """
    np.random.seed(seed)
    SN = codes.shape[0]
    n = table.shape[0]
    start = fixed_start
    if start < 0:
        start = int(np.random.random() * n)
    for i in range(SN):
        if preset[i] < 0:
            starts[i] = start
            _random_codes(codes[i], 0)
        else:
            _random_codes(codes[i], preset[i])
    for i in range(n):
        mark[i] = 0
    stamp = 0
    for i in range(SN):
        stamp += 1
        fit[i] = _fitness(table, codes[i], starts[i], mark, stamp)
    return start


@njit(cache=True)
def _work(table, codes, starts, fit, i, tmp, mark, stamp, counters):
    """One bee on source ``i``: cross with a random partner at three cuts, keep it if fitter."""
    SN = codes.shape[0]
    L = codes.shape[1]
    k = int(np.random.random() * (SN - 1))
    if k >= i:
        k += 1
    c1, c2, c3 = _cuts(L)
    counters[0] += 1
    if c1 > fit[i] or fit[i] == L:
        return stamp  # the first invalid move is inherited unchanged: the fitness cannot rise
    _crossover(codes[i], codes[k], c1, c2, c3, tmp)
    stamp += 1
    f = _fitness(table, tmp, starts[i], mark, stamp)
    counters[1] += 1
    if f > fit[i]:
        codes[i, :] = tmp
        fit[i] = f
        counters[2] += 1
    return stamp


@njit(cache=True)
def _block(table, codes, starts, fit, iterations, seed, mark, counters):
    """Up to ``iterations`` colony iterations after reseeding; returns how many ran (stops at a tour)."""
    np.random.seed(seed)
    SN = codes.shape[0]
    L = codes.shape[1]
    n = table.shape[0]
    tmp = np.empty(L, dtype=codes.dtype)
    cum = np.empty(SN, dtype=np.int64)
    valid = np.empty(table.shape[1], dtype=np.int32)
    for i in range(n):
        mark[i] = 0
    stamp = 0
    for it in range(iterations):
        # employed bees
        for i in range(SN):
            stamp = _work(table, codes, starts, fit, i, tmp, mark, stamp, counters)
        # onlooker bees, choosing by the fitness after the employed phase
        total = 0
        for i in range(SN):
            total += fit[i]
            cum[i] = total
        for o in range(SN):
            if total > 0:
                x = np.random.random() * total
                i = 0
                while cum[i] <= x:
                    i += 1
            else:
                i = int(np.random.random() * SN)
            stamp = _work(table, codes, starts, fit, i, tmp, mark, stamp, counters)
        # scout bees
        best = 0
        for i in range(SN):
            if fit[i] > best:
                best = fit[i]
        for i in range(SN):
            if fit[i] < best:
                stamp += 1
                if _repair(table, codes[i], starts[i], fit[i], mark, stamp, valid) >= 0:
                    counters[3] += 1
                else:
                    counters[4] += 1
                    _random_codes(codes[i], 0)
                stamp += 1
                fit[i] = _fitness(table, codes[i], starts[i], mark, stamp)
        for i in range(SN):
            if fit[i] == L:
                return it + 1
    return iterations


# ---------------------------------------------------------------------- driver
def _seed_rows(graph: KnightGraph, initial_paths, sources: int, fixed_start: int):
    """Codes (0-based) and starts of the caller's seed paths, at most ``sources`` of them."""
    rows = []
    for k, p in enumerate(initial_paths or ()):
        sq = p.squares if isinstance(p, Tour) else np.asarray(p, dtype=np.int64).reshape(-1)
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


def run_abc(
    graph: KnightGraph,
    *,
    start: int | None = None,
    sources: int = 32,
    iterations: int = 200,
    runs: int = 1,
    initial_paths=None,
    seed: int | None = 0,
    time_limit: float | None = None,
    progress=None,
) -> dict:
    """Run the bee colony and return its best food source and counters.

    Parameters
    ----------
    graph : KnightGraph
    start : int, optional
        Square number every source starts from; None lets every source draw its own.
    sources : int
        Food sources (and employed bees, and onlookers); default 32 (Banharnsakun).
    iterations : int
        Iterations per run; default 200 (Banharnsakun).
    runs : int
        Independent runs; stops at the first that finds a full tour.
    initial_paths : sequence of paths, optional
        Walks (square numbers or :class:`Tour`) that become the first food
        sources of every run; their codes are followed by random ones.
    seed : int, optional
        Seed of every random choice (None means 0).
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
        ``elapsed`` and ``timed_out``.
    """
    n = graph.n
    if int(sources) < 2:
        raise UnsupportedError(f"sources={sources}: the colony needs at least 2 food sources")
    if int(iterations) < 0 or int(runs) < 1:
        raise UnsupportedError(f"iterations={iterations} and runs={runs} must be >= 0 and >= 1")
    if graph.table.shape[1] != 8:
        raise UnsupportedError("the bee colony's move codes are the knight's 8 moves")
    seed = 0 if seed is None else int(seed)
    fixed = -1 if start is None else int(start)
    SN, L = int(sources), max(n - 1, 0)
    table = np.ascontiguousarray(graph.table, dtype=np.int32)
    seeds_rows = _seed_rows(graph, initial_paths, SN, fixed)
    counters = np.zeros(len(_COUNTERS), dtype=np.int64)
    mark = np.zeros(n, dtype=np.int32)
    best = None  # (fitness, start, codes, run)
    total_iters = 0
    timed_out = False
    t0 = time.perf_counter()
    for run in range(int(runs)):
        codes = np.zeros((SN, L), dtype=np.int8)
        starts = np.full(SN, max(fixed, 0), dtype=np.int32)
        preset = np.full(SN, -1, dtype=np.int32)
        for i, (s, c) in enumerate(seeds_rows):
            starts[i] = s
            codes[i, : c.size] = c
            preset[i] = c.size
        fit = np.zeros(SN, dtype=np.int32)
        stream = _STREAM + run
        _init(table, codes, starts, fit, preset, fixed, int(derive_seeds(seed, stream, 0, 1)[0]), mark)
        done = 0
        blk = 0
        while done < iterations and int(fit.max()) < L:
            if time_limit is not None and time.perf_counter() - t0 >= time_limit:
                timed_out = True
                break
            k = min(BLOCK, int(iterations) - done)
            s = int(derive_seeds(seed, stream, blk + 1, 1)[0])
            done += _block(table, codes, starts, fit, k, s, mark, counters)
            blk += 1
            if progress is not None:
                progress(total_iters + done, int(iterations) * int(runs))
        total_iters += done
        i = int(np.argmax(fit))
        if best is None or int(fit[i]) > best[0]:
            best = (int(fit[i]), int(starts[i]), codes[i].copy(), run)
        if best[0] == L or timed_out:
            break
    fitness, s, c, best_run = best
    squares = codes_to_path(graph, s, c[:fitness].astype(np.int64) + 1)
    out = {name: int(counters[k]) for k, name in enumerate(_COUNTERS)}
    out.update(
        squares=squares,
        moves=fitness,
        complete=fitness == L,
        codes=(c.astype(np.int8) + 1),
        iterations=total_iters,
        runs=run + 1,
        best_run=best_run,
        seeded=len(seeds_rows),
        elapsed=time.perf_counter() - t0,
        timed_out=timed_out,
    )
    return out


def solve_abc(
    graph: KnightGraph,
    spec: TourSpec,
    *,
    seed: int | None = None,
    time_limit: float | None = None,
    progress=None,
    sources: int = 32,
    iterations: int = 200,
    runs: int = 1,
    initial_paths=None,
    seed_tour=None,
) -> SolveResult:
    """Open knight's tour, or the longest path found, by the artificial bee colony.

    Parameters
    ----------
    graph : KnightGraph
    spec : TourSpec
        An open tour, optionally from ``spec.start``; closed tours and fixed
        ends are not supported.
    seed : int, optional
        Seed of every random choice (None means 0 when called directly;
        :func:`ktsolve.solve` draws and records one).
    time_limit : float, optional
        Seconds; the answer is ``unknown`` when it runs out.
    progress : callable, optional
        ``progress(done, total)`` in iterations.
    sources : int
        Food sources; default 32 (Banharnsakun).
    iterations : int
        Iterations per run; default 200 (Banharnsakun).
    runs : int
        Independent runs until a tour is found; default 1.
    initial_paths : sequence of paths, optional
        Seed walks (square numbers or :class:`Tour`), e.g. Warnsdorff's,
        complete or not.
    seed_tour : Tour or int array, optional
        A tour (or several, as rows of a 2-D array) put before
        ``initial_paths``; :func:`ktsolve.solve` fills it in from
        ``seed_with="warnsdorff"`` or ``"exact"``.  A complete tour is a
        food source of full fitness, returned at once.

    Returns
    -------
    SolveResult
        ``found`` with a full open tour, or ``unknown``; either way
        ``result.path`` is the longest path found and ``stats["length"]``
        its number of squares.

    Notes
    -----
    Each iteration costs ``O(sources * N)``.  The colony stagnates once its
    best sources tie (scouts only work below the best): with the paper's
    budget the longest path from a1 averages about 55 squares on 8x8, 111 on
    12x12 and 175 on 16x16 (``benchmarks/results/bees_neural.md``), and
    full tours are found on small boards such as 5x5 by restarting
    (``runs``) rather than by iterating longer.

    Examples
    --------
    >>> from ktsolve import Board
    >>> res = solve_abc(KnightGraph(Board(8, 8)), TourSpec(start=(0, 0)), seed=1)
    >>> res.stats["length"] == len(res.path) > 30
    True
    """
    if spec.closed:
        raise UnsupportedError("method 'abc' cannot build closed tours")
    if spec.end is not None:
        raise UnsupportedError("method 'abc' cannot fix the end square")
    start = None if spec.start is None else graph.board.index(*spec.start)
    if seed_tour is not None:
        if isinstance(seed_tour, Tour):
            extra = [seed_tour]
        else:
            arr = np.asarray(seed_tour)
            extra = list(arr) if arr.ndim == 2 else [arr]
        initial_paths = extra + list(initial_paths or ())
    st = run_abc(graph, start=start, sources=sources, iterations=iterations, runs=runs,
                 initial_paths=initial_paths, seed=seed, time_limit=time_limit, progress=progress)
    squares = st["squares"]
    stats = {k: v for k, v in st.items() if k not in ("squares", "codes", "elapsed", "complete", "timed_out")}
    stats.update(length=int(squares.size), sources=int(sources),
                 candidates_per_s=(st["candidates"] / st["elapsed"]) if st["elapsed"] > 0 else 0.0)
    path = Tour(graph.board, squares, closed=False)
    if st["complete"]:
        return SolveResult(Status.FOUND, tour=path, path=path, stats=stats)
    if st["timed_out"]:
        stats["reason"] = (f"time limit reached after {st['iterations']} iterations; the longest path "
                           f"has {squares.size} of {graph.n} squares")
    else:
        stats["reason"] = (f"{st['runs']} run(s) of {iterations} iterations found no full tour; the "
                           f"longest path has {squares.size} of {graph.n} squares")
    return SolveResult(Status.UNKNOWN, path=path, stats=stats)

