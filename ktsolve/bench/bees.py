"""Banharnsakun's bee colony: longest knight's paths beside Warnsdorff and the exact optimum.

Banharnsakun (2019) measures the artificial bee colony by the longest
sequence of legal moves it finds on 8x8, 12x12 and 16x16 boards.  This
section runs ktsolve's colony with the paper's colony (32 food sources, 200
iterations per run) from the corner a1, several independent runs, and prints
beside it the longest of several Warnsdorff walks with random tie-breaks
from the same corner, the colony seeded with those walks, and the exact
longest path from CP-SAT where it finishes within the section's time limit.
Three holed boards are added where Warnsdorff's walks fall short, the case
where a longest path is the question at all.

A second table asks whether exact knowledge helps the stochastic side: the
colony seeded with Warnsdorff walks against the walks alone and the colony
alone.
"""

from __future__ import annotations

import statistics
import time

import numpy as np

from ..board import Board
from ..graph import KnightGraph
from . import Section, Table

__all__ = ["SECTION", "warnsdorff_walks", "exact_longest"]


def _random_holes(side: int, count: int, rng) -> list[tuple[int, int]]:
    flat = rng.choice(side * side, size=count, replace=False)
    return sorted({(int(f) // side, int(f) % side) for f in flat} - {(side - 1, 0)})


def _boards() -> list[tuple[str, Board]]:
    rng = np.random.default_rng(2019)
    holes12 = _random_holes(12, 10, rng)
    holes16 = _random_holes(16, 20, rng)
    return [
        ("8x8", Board(8, 8)),
        ("12x12", Board(12, 12)),
        ("16x16", Board(16, 16)),
        ("8x8, holes a8 c8", Board(8, 8, [(0, 0), (0, 2)])),
        (f"12x12, {len(holes12)} random holes", Board(12, 12, holes12)),
        (f"16x16, {len(holes16)} random holes", Board(16, 16, holes16)),
    ]


def warnsdorff_walks(graph: KnightGraph, start: int, count: int, seed: int) -> list[np.ndarray]:
    """``count`` Warnsdorff walks from ``start`` with random tie-breaks, complete or not."""
    from ..heuristics.warnsdorff import warnsdorff_path

    return [np.asarray(warnsdorff_path(graph, start, rule="random", seed=(seed * 7919 + i) % 2**32))
            for i in range(count)]


def exact_longest(graph: KnightGraph, start: int, time_limit: float, seed: int):
    """``(length, bound, optimal)`` of the exact longest path from ``start`` (CP-SAT)."""
    from ..models.longest import longest_path

    res = longest_path(graph, start, time_limit=time_limit, num_workers=1, seed=seed)
    st = res.stats
    return int(st.get("length", 0)), st.get("bound"), bool(st.get("optimal", False))


def _exact_cell(ex) -> str:
    length, bound, optimal = ex
    if optimal:
        return f"{length} (optimal)"
    return f">= {length}, <= {bound}" if bound is not None else f">= {length}"


def run(quick: bool = True, seed: int = 1, progress=None, plots=None) -> list[Table]:
    from ..heuristics.abc import run_abc

    runs = 5 if quick else 30
    walks_k = 8 if quick else 32
    many = 250 if quick else 2000
    exact_limit = 5.0 if quick else 120.0
    boards = _boards()
    rows, seed_rows = [], []
    t0 = time.perf_counter()
    for b_i, (label, board) in enumerate(boards):
        g = KnightGraph(board)
        start = board.index(board.rows - 1, 0)
        plain = [run_abc(g, start=start, seed=seed * 1000 + r) for r in range(runs)]
        lens = [p["moves"] + 1 for p in plain]
        walks = warnsdorff_walks(g, start, walks_k, seed)
        w_lens = [len(w) for w in walks]
        w_best, w_full = max(w_lens), sum(x == g.n for x in w_lens)
        seeded = [run_abc(g, start=start, seed=seed * 1000 + r, initial_paths=walks) for r in range(runs)]
        seeded_ms = f"{1000 * statistics.mean(x['elapsed'] for x in seeded):.1f}"
        s_lens = [s["moves"] + 1 for s in seeded]
        seeded_cell = f"{statistics.mean(s_lens):.1f}"
        gain_cell = f"{statistics.mean(s_lens) - w_best:+.1f}"
        t_w = time.perf_counter()
        more = warnsdorff_walks(g, start, many, seed + 1)
        many_ms = f"{1000 * (time.perf_counter() - t_w):.1f}"
        many_best = max(len(w) for w in more)
        ex = exact_longest(g, start, exact_limit, seed)
        rows.append([label, g.n, max(lens), f"{statistics.mean(lens):.1f}", sum(x == g.n for x in lens),
                     w_best, seeded_cell, _exact_cell(ex)])
        seed_rows.append([label, walks_k, w_full, w_best,
                          f"{statistics.mean(lens):.1f}", seeded_cell, max(s_lens),
                          gain_cell, seeded_ms, many_best, many_ms])
        if progress is not None:
            progress(b_i + 1, len(boards))
    elapsed = time.perf_counter() - t0
    budget = "quick budget (--full for 30 runs, 32 walks, 120 s exact)" if quick else "full budget"
    notes = [
        f"{runs} runs of the paper's colony (32 food sources, 200 iterations) from a1, seeds "
        f"{seed * 1000}..{seed * 1000 + runs - 1}; {budget}; {elapsed:.1f} s in all.",
        "ABC best/mean: squares of the longest path; tours: runs that found a full open tour.",
        f"Warnsdorff: longest of {walks_k} walks from a1 with random tie-breaks; "
        "seeded: the colony started from those walks (mean over the runs).",
        f"exact: CP-SAT longest path from a1 (one worker, {exact_limit:g} s); 'optimal' when proved.",
        "Published: Banharnsakun (2019) reports the colony's longest paths on 8x8, 12x12 and 16x16; "
        "those figures were not available to us, so no published column is printed.",
    ]
    table = Table(
        "Artificial bee colony: longest knight's path from a1 (squares)",
        ["board", "squares", "ABC best", "ABC mean", "ABC tours", "Warnsdorff", "ABC seeded", "exact"],
        rows,
        notes,
    )
    seed_table = Table(
        "Exact seeds the stochastic side: the colony started from Warnsdorff walks",
        ["board", "walks", "complete walks", "best walk", "ABC alone", "ABC seeded", "seeded best",
         "seeded - best walk", "seeded ms/run", f"best of {many} walks", "walks ms"],
        seed_rows,
        [
            "A complete walk among the seeds is a food source of full fitness: the seeded colony returns it "
            "at once.",
            "'seeded - best walk' > 0 means the colony lengthened the best seed; 0 means it kept it.",
            f"'best of {many} walks': the longest of {many} further Warnsdorff walks (random tie-breaks), "
            "what plain restarts buy without the colony; 'walks ms' is their total time, 'seeded ms/run' "
            "the mean time of one seeded colony run.",
        ],
    )
    return [table, seed_table]


SECTION = Section(
    name="bees",
    title="Artificial bee colony (Banharnsakun 2019): longest knight's paths",
    run=run,
)
