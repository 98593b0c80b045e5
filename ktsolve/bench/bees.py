"""The Prolog paper: Banharnsakun's bee colony against one Warnsdorff walk, and the declarative search.

The paper's experiment, as the section runs it (every figure through the
public API, :func:`ktsolve.solve` and :func:`ktsolve.longest`):

* boards 8x8, 12x12 and 16x16, each from 5 start squares drawn at random
  (seeded by ``--seed``);
* from each start, the artificial bee colony with the paper's colony (32
  food sources, 200 iterations, one run; method ``abc``) and ONE Warnsdorff
  walk (method ``warnsdorff``, ties to the first move in move order, one
  walk): path lengths in squares and times;
* beside them the exact optimum from the same start (``ktsolve.longest``,
  CP-SAT), and the colony with the former scouts (``extend_best=False``:
  the best source never extended) to show what the paper's scouts add.

The times are wall-clock seconds of the whole ``solve`` call, compiled
kernels (each method runs once before the timing).

A second table asks whether exact knowledge helps the colony: the colony
started from Warnsdorff walks (``initial_paths``) against the walks alone,
on the same boards and three holed ones.

A third table is the paper's declarative question itself, the longest
knight's path from a given square found by backtracking with growing
length (``longest(..., method="csp")``), beside CP-SAT's optimum.

The paper's own figures are not printed: neither the issue that asked for
this section nor any other source the project has quotes the paper's table,
so the published column says so rather than invent a number.
"""

from __future__ import annotations

import statistics
import time

import numpy as np

from ..board import Board
from ..graph import KnightGraph
from . import NOT_GIVEN, Section, Stages, Table

__all__ = ["SECTION", "run", "warnsdorff_walks", "random_starts", "PAPER_BOARDS"]

#: The paper's boards and its number of random starts.
PAPER_BOARDS = (8, 12, 16)
PAPER_STARTS = 5

_WHY = ("the paper's table is not quoted in any source ktsolve has (the issue gives the experiment's design, "
        "not its numbers)")


def random_starts(board: Board, count: int, seed: int) -> list[str]:
    """``count`` different squares of ``board`` drawn with ``seed``, as names."""
    rng = np.random.default_rng([seed, board.rows, board.cols])
    picks = rng.choice(board.n_squares, size=min(count, board.n_squares), replace=False)
    coords = board.coords_of(np.sort(picks))
    return [board.name(int(r), int(c)) for r, c in coords]


def warnsdorff_walks(graph: KnightGraph, start: int, count: int, seed: int) -> list[np.ndarray]:
    """``count`` Warnsdorff walks from square ``start``, ties broken at random, complete or not.

    A plain walk over the public knight graph (fewest unvisited onward
    moves first), used as food sources for the colony; the section's
    "one Warnsdorff walk" is ktsolve's ``warnsdorff`` method itself.
    """
    rng = np.random.default_rng([seed, start])
    nbrs = [graph.neighbours(v).tolist() for v in range(graph.n)]
    walks = []
    for _ in range(count):
        free = [len(ws) for ws in nbrs]
        seen = np.zeros(graph.n, dtype=bool)
        path = [int(start)]
        seen[start] = True
        for w in nbrs[start]:
            free[w] -= 1
        while True:
            cands = [w for w in nbrs[path[-1]] if not seen[w]]
            if not cands:
                break
            low = min(free[w] for w in cands)
            ties = [w for w in cands if free[w] == low]
            v = ties[int(rng.integers(len(ties)))]
            seen[v] = True
            path.append(v)
            for w in nbrs[v]:
                free[w] -= 1
        walks.append(np.array(path, dtype=np.int32))
    return walks


def _exact_cell(ex) -> str:
    length, bound, optimal = ex
    if optimal:
        return f"{length} (optimal)"
    return f">= {length}, <= {bound}" if bound is not None else f">= {length}"


def _length(res) -> int:
    """Squares of the path a result reports: its tour, its path, or Warnsdorff's ``longest``."""
    if res.tour is not None:
        return len(res.tour)
    if res.path is not None:
        return len(res.path)
    return int(res.stats.get("longest", 1))


def _warm_up() -> None:
    """Compile the kernels before anything is timed."""
    from ..solve import solve

    solve("6x6", "abc", start="a1", seed=0, iterations=2, presolve_proofs=False)
    solve("6x6", "warnsdorff", start="a1", seed=0, rule="first", restarts=1, presolve_proofs=False)


def _paper_table(quick: bool, seed: int, tick, plots) -> Table:
    from ..solve import longest, solve

    exact_limit = 10.0 if quick else 120.0
    rows, per_board = [], {}
    for side in PAPER_BOARDS:
        board = Board(side, side)
        starts = random_starts(board, PAPER_STARTS, seed)
        abc_len, abc_s, old_len, w_len, w_s, ex, ex_s = [], [], [], [], [], [], []
        for k, sq in enumerate(starts):
            s = seed * 1000 + k
            res = solve(board, "abc", start=sq, seed=s, presolve_proofs=False)
            abc_len.append(_length(res))
            abc_s.append(res.elapsed)
            old = solve(board, "abc", start=sq, seed=s, extend_best=False, presolve_proofs=False)
            old_len.append(_length(old))
            res = solve(board, "warnsdorff", start=sq, seed=s, rule="first", restarts=1, presolve_proofs=False)
            w_len.append(_length(res))
            w_s.append(res.elapsed)
            res = longest(board, start=sq, time_limit=exact_limit, seed=s)
            ex.append((int(res.stats["length"]), res.stats.get("bound"), bool(res.stats["optimal"])))
            ex_s.append(res.elapsed)
        per_board[side] = dict(abc=abc_len, abc_s=abc_s, old=old_len, w=w_len, w_s=w_s, ex=ex)
        all_opt = all(e[2] for e in ex)
        ex_cell = (f"{statistics.mean(e[0] for e in ex):.0f}" + (" (all optimal)" if all_opt else " (not all proven)"))
        rows.append([f"{side}x{side}", side * side, " ".join(starts),
                     f"{statistics.mean(abc_len):.1f}", f"{min(abc_len)}-{max(abc_len)}",
                     f"{1000 * statistics.mean(abc_s):.0f}", f"{statistics.mean(old_len):.1f}",
                     f"{statistics.mean(w_len):.1f}", f"{1000 * statistics.mean(w_s):.1f}",
                     ex_cell, f"{statistics.mean(ex_s):.2f}", NOT_GIVEN])
        tick()
    if plots:
        _plot(plots, per_board)
    notes = [
        f"{PAPER_STARTS} random starts per board (drawn with seed {seed}); ABC seeds {seed * 1000}.."
        f"{seed * 1000 + PAPER_STARTS - 1}; the paper's colony: 32 food sources, 200 iterations, one run.",
        "ABC: mean, min-max and mean ms of the longest path found (squares); 'former scouts': the same runs "
        "with extend_best=False (the best source never extended), the reading ktsolve used to default to.",
        "Warnsdorff: ONE walk from the same start (rule 'first', restarts=1): squares and ms.",
        f"exact: ktsolve.longest (CP-SAT, one worker, {exact_limit:g} s each), mean squares and seconds.",
        f"published: {NOT_GIVEN}: {_WHY}.",
        ("quick budget: exact optimum limited to 10 s (--full: 120 s); the colony runs the paper's budget."
         if quick else "full budget."),
    ]
    return Table(
        "Prolog paper: ABC against one Warnsdorff walk from random starts (path length in squares, time in ms)",
        ["board", "squares", "starts", "ABC mean", "ABC range", "ABC ms", "former scouts", "Warnsdorff",
         "Warnsdorff ms", "exact", "exact s", "published"],
        rows,
        notes,
    )


def _seeding_table(quick: bool, seed: int, tick) -> Table:
    from ..solve import solve

    walks_k = 8 if quick else 32
    runs = 3 if quick else 10
    rng = np.random.default_rng(2019)
    boards = [(f"{s}x{s}", Board(s, s)) for s in PAPER_BOARDS]
    for side, count in ((12, 10), (16, 20)):
        flat = rng.choice(side * side, size=count, replace=False)
        holes = sorted({(int(f) // side, int(f) % side) for f in flat} - {(side - 1, 0)})
        boards.append((f"{side}x{side}, {len(holes)} random holes", Board(side, side, holes)))
    rows = []
    for label, board in boards:
        g = KnightGraph.of(board)
        start = board.index(board.rows - 1, 0)
        walks = warnsdorff_walks(g, start, walks_k, seed)
        w_lens = [len(w) for w in walks]
        alone, seeded, secs = [], [], []
        for r in range(runs):
            a = solve(board, "abc", start="a1", seed=seed * 1000 + r, presolve_proofs=False)
            alone.append(_length(a))
            t0 = time.perf_counter()
            b = solve(board, "abc", start="a1", seed=seed * 1000 + r, initial_paths=walks, presolve_proofs=False)
            secs.append(time.perf_counter() - t0)
            seeded.append(_length(b))
        rows.append([label, g.n, walks_k, sum(x == g.n for x in w_lens), max(w_lens),
                     f"{statistics.mean(alone):.1f}", f"{statistics.mean(seeded):.1f}", max(seeded),
                     f"{statistics.mean(seeded) - max(w_lens):+.1f}", f"{1000 * statistics.mean(secs):.0f}"])
        tick()
    return Table(
        "Exact seeds the stochastic side: the colony started from Warnsdorff walks, from a1",
        ["board", "squares", "walks", "complete walks", "best walk", "ABC alone", "ABC seeded", "seeded best",
         "seeded - best walk", "seeded ms"],
        rows,
        [f"{walks_k} Warnsdorff walks from a1 with random ties become food sources (initial_paths); "
         f"{runs} colony runs each, seeds {seed * 1000}..",
         "A complete walk among the seeds is a food source of full fitness: the seeded colony returns it at once.",
         "'seeded - best walk' > 0: the colony lengthened the best seed; 0: it kept it.",
         "The paper gives no seeded runs; this table is ktsolve's own question."],
    )


#: The declarative search's boards: (label, board, start).
def _declarative_cases(quick: bool) -> list[tuple[str, Board, str | None]]:
    cases = [
        ("3x3", Board(3, 3), "a1"),
        ("3x4", Board(3, 4), "a1"),
        ("4x4", Board(4, 4), "a1"),
        ("4x4, hole b3", Board.from_spec("4x4", "b3"), "a1"),
        ("3x5", Board(3, 5), "b1"),
        ("4x5", Board(4, 5), "a1"),
        ("5x5", Board(5, 5), "a1"),
        ("5x5, hole c3", Board.from_spec("5x5", "c3"), "a1"),
        ("6x6", Board(6, 6), "a1"),
        ("8x8", Board(8, 8), "a1"),
        ("5x5", Board(5, 5), "b1"),
    ]
    if not quick:
        cases += [("4x6, holes b2 e3", Board.from_spec("4x6", "b2,e3"), "a1"),
                  ("6x6, holes c3 d4", Board.from_spec("6x6", "c3,d4"), "a1")]
    return cases


def _declarative_table(quick: bool, seed: int, tick) -> Table:
    from ..solve import longest

    limit = 10.0 if quick else 120.0
    rows = []
    finished = agree = 0
    for label, board, start in _declarative_cases(quick):
        ref = longest(board, start=start, time_limit=limit, seed=seed)
        dec = longest(board, start=start, time_limit=limit, method="csp")
        if dec.stats["optimal"]:
            finished += 1
            agree += dec.stats["length"] == ref.stats["length"]
        rows.append([label, board.n_squares, start or "any", _exact_cell(_triple(ref)), f"{ref.elapsed:.3f}",
                     _exact_cell(_triple(dec)), f"{dec.elapsed:.3f}", len(dec.stats["lengths"]),
                     f"{dec.stats['checks']:,}"])
        tick()
    return Table(
        "Prolog paper: the longest path from a square, declaratively (python-constraint) beside CP-SAT",
        ["board", "squares", "start", "CP-SAT", "CP-SAT s", "declarative", "declarative s", "lengths searched",
         "knight checks"],
        rows,
        [f"declarative: longest(..., method='csp'): steps are squares, all different, consecutive steps a "
         f"knight's move apart, searched with length 1, 2, ... until one is exhausted; {limit:g} s each.",
         f"finished {finished} of {len(rows)}; where it finished it agrees with CP-SAT on {agree} of {finished}.",
         "A board whose longest path from the start is shorter than the board needs an exhaustive last "
         "search (4x4, 3x5 from b1, 5x5 from b1): that is where the Python backtracking stops being usable.",
         f"published: {NOT_GIVEN}: the paper's timings are not quoted in any source ktsolve has."],
    )


def _triple(res):
    st = res.stats
    return int(st["length"]), st.get("bound"), bool(st["optimal"])


def _plot(folder: str, per_board: dict) -> None:
    from .plots import grouped_bars

    groups = [f"{s}x{s}" for s in per_board]
    grouped_bars(
        folder, "bees_lengths", groups,
        {"ABC (paper's scouts)": [statistics.mean(d["abc"]) for d in per_board.values()],
         "ABC (former scouts)": [statistics.mean(d["old"]) for d in per_board.values()],
         "one Warnsdorff walk": [statistics.mean(d["w"]) for d in per_board.values()]},
        marks={"exact optimum": [statistics.mean(e[0] for e in d["ex"]) for d in per_board.values()]},
        ylabel="squares of the longest path (mean of 5 starts)", title="Path lengths from 5 random starts",
    )
    grouped_bars(
        folder, "bees_times", groups,
        {"ABC": [1000 * statistics.mean(d["abc_s"]) for d in per_board.values()],
         "one Warnsdorff walk": [1000 * statistics.mean(d["w_s"]) for d in per_board.values()]},
        ylabel="ms per start (mean)", title="Times from 5 random starts", logy=True,
    )


def run(quick: bool = True, seed: int = 1, progress=None, plots=None) -> list[Table]:
    """The three tables of the section; see the module notes for budgets."""
    tick = Stages(len(PAPER_BOARDS) + len(PAPER_BOARDS) + 2 + len(_declarative_cases(quick)), progress).tick

    _warm_up()
    return [_paper_table(quick, seed, tick, plots), _seeding_table(quick, seed, tick),
            _declarative_table(quick, seed, tick)]


SECTION = Section(
    name="bees",
    title="The Prolog paper: Banharnsakun's bee colony, one Warnsdorff walk, and the declarative search",
    run=run,
)
