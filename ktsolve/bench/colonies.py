"""Ant colonies beside their papers: Hingston & Kendall (2004) and the improved colony's Table 1.

Hingston & Kendall ran their colony on 8x8 for 100,000 cycles (64 ants a
cycle, 6.4 million walks) and report about 488,000 distinct tours per run,
about 0.076 tours per walk.  The improved multi-colony paper (Jiang, Bai &
Dong) compares tours per attempt on 8x8 in its Table 1: naive depth-first
search 0.000003, Gordon & Slocum's GA 0.000642, the ant colony 0.076 and the
improved colony 0.0782.

What counts as an attempt here: an ant's walk (colonies), one decode of a
chromosome with restart after every tour (GA), a leaf of the search tree, a
dead end or a complete tour (DFS).  Quick mode runs reduced budgets (a few
seconds); ``--full`` runs the papers' budgets (minutes).  Figures: the
production rate against cycles, and the pheromone of the last run drawn on
the board, like the figures of Hingston & Kendall.
"""

from __future__ import annotations

import os
import time

from . import Section, Table

__all__ = ["SECTION", "run"]

PUBLISHED_HK_DISTINCT = 488_000
PUBLISHED_HK_RATE = 0.076
PUBLISHED_TABLE1 = {"dfs": 0.000003, "ga": 0.000642, "aco": 0.076, "iaco": 0.0782}


def _budgets(quick: bool) -> dict:
    if quick:
        return {"hk_cycles": 5_000, "hk_runs": 1, "iaco_cycles": 1_700, "ga_attempts": 300_000,
                "dfs_nodes": 20_000_000, "seed_runs": 5, "seed_cycles": 300, "seed_rate_cycles": 500,
                "seed_big": False, "seed_dfs_nodes": 50_000_000}
    return {"hk_cycles": 100_000, "hk_runs": 3, "iaco_cycles": 33_334, "ga_attempts": 5_000_000,
            "dfs_nodes": 2_000_000_000, "seed_runs": 20, "seed_cycles": 2000, "seed_rate_cycles": 5000,
            "seed_big": True, "seed_dfs_nodes": 500_000_000}


def run(quick: bool = True, seed: int = 1, progress=None, plots: str | None = None) -> list:
    """Both tables; see the module notes for budgets and definitions."""
    from ..board import Board
    from ..graph import KnightGraph
    from ..heuristics.dfs import dfs_count
    from ..heuristics.ga import ga_rate
    from ..solve import enumerate_tours
    from ..tour import TourSpec

    b = _budgets(quick)
    board = Board(8, 8)
    graph = KnightGraph.of(board)
    stages = b["hk_runs"] + 4
    done = 0

    def tick():
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, stages)

    hk_rows = []
    hk_runs = []
    for r in range(b["hk_runs"]):
        t0 = time.perf_counter()
        res = enumerate_tours(board, "aco", cycles=b["hk_cycles"], seed=seed + r)
        secs = time.perf_counter() - t0
        st = res.stats
        hk_runs.append(res)
        hk_rows.append([f"ours, seed {seed + r}", b["hk_cycles"], st["walks"], st["complete"], st["distinct"],
                        st["closed"], round(st["production_rate"], 4), round(st["distinct_rate"], 4),
                        round(secs, 1), round(st["walks"] / secs) if secs else None])
        tick()
    hk_rows.append(["Hingston & Kendall 2004", 100_000, 6_400_000, None, PUBLISHED_HK_DISTINCT, None, None,
                    PUBLISHED_HK_RATE, None, None])
    hk = Table(
        "Hingston & Kendall: ant colony on 8x8 (one ant per square per cycle)",
        ["run", "cycles", "walks", "complete", "distinct", "closed", "complete/walk", "distinct/walk", "s",
         "walks/s"],
        hk_rows,
        [f"budget: {b['hk_cycles']:,} cycles per run{' (quick; --full runs 100,000)' if quick else ''}",
         "rho 0.25, Q 1, alpha 1, initial trail 1e-6 (the paper's); synchronous updates",
         "the paper's 0.076 is distinct tours per walk (488,000 / 6.4 million walks); the rate grows with cycles",
         "seconds include compiling nothing (kernels cached) and the distinct-tour bookkeeping"],
    )

    t0 = time.perf_counter()
    ires = enumerate_tours(board, "iaco", cycles=b["iaco_cycles"], seed=seed)
    isecs = time.perf_counter() - t0
    tick()
    t0 = time.perf_counter()
    ga = ga_rate(graph, TourSpec(), attempts=b["ga_attempts"], seed=seed)
    tick()
    t0 = time.perf_counter()
    dfs = dfs_count(graph, TourSpec(start=(7, 0)), nodes=b["dfs_nodes"], order="12345678")
    dsecs = time.perf_counter() - t0
    tick()
    aco = hk_runs[0].stats
    asecs = hk_rows[0][8]
    ist = ires.stats
    rows = [
        ["DFS", "leaf of the search tree", PUBLISHED_TABLE1["dfs"], dfs["tours_per_attempt"], None,
         dfs["attempts"], round(dsecs, 1), round(dfs["attempts"] / dsecs) if dsecs else None],
        ["GA", "decode, restart after a tour", PUBLISHED_TABLE1["ga"], ga["tours_per_attempt"], None,
         ga["attempts"], round(ga["seconds"], 1), round(ga["attempts"] / ga["seconds"]) if ga["seconds"] else None],
        ["ACO", "ant walk", PUBLISHED_TABLE1["aco"], aco["production_rate"], aco["distinct_rate"], aco["walks"],
         asecs, hk_rows[0][9]],
        ["IACO", "ant walk", PUBLISHED_TABLE1["iaco"], ist["production_rate"], ist["distinct_rate"], ist["walks"],
         round(isecs, 1), round(ist["walks"] / isecs) if isecs else None],
    ]
    t1 = Table(
        "Improved colony, Table 1: tours per attempt on 8x8",
        ["method", "attempt", "published", "ours", "ours distinct", "attempts", "s", "attempts/s"],
        rows,
        [f"budgets: DFS {b['dfs_nodes']:,} nodes from a1, move order 12345678; GA {b['ga_attempts']:,} decodes; "
         f"ACO {b['hk_cycles']:,} cycles; IACO {b['iaco_cycles']:,} cycles of 3 colonies"
         + (" (quick; --full runs the papers' budgets)" if quick else ""),
         "GA: population 50, crossover 0.9, mutation 1/189 per bit (our rates); "
         "IACO: deposit once per used move per cycle, F = +inf (our readings, see ktsolve.heuristics.iaco)",
         f"DFS found {dfs['tours']} tours; GA {ga['tours']} tours in {ga['runs']} runs"],
    )
    seeding = _seeding_table(b, seed)
    tick()
    if plots:
        _plot(plots, hk_runs, ires)
    return [hk, t1, seeding]


def _seed_tour(board, start, dfs_nodes):
    """A tour from ``start`` by Warnsdorff when it is installed, else by the naive DFS; and its source."""
    from ..solve import methods, solve

    if "warnsdorff" in methods():
        res = solve(board, "warnsdorff", start=start, seed=1)
        if res.found:
            return res.tour, "warnsdorff"
    res = solve(board, "dfs", start=start, order="12345678", nodes=dfs_nodes, seed=1)
    return (res.tour, "dfs") if res.found else (None, "none")


def _seeding_table(b: dict, seed: int):
    """Does a seed tour help?  Walks to the first tour from a fixed start, and tours per walk."""
    import statistics

    from ..board import Board
    from ..solve import enumerate_tours, solve

    boards = [(Board(8, 8), "a1"), (Board(8, 8, holes=[(0, 0), (7, 6)]), "b1")]
    if b["seed_big"]:
        boards.append((Board(10, 10), "a1"))
    runs, cycles, rate_cycles = b["seed_runs"], b["seed_cycles"], b["seed_rate_cycles"]
    rows = []
    for board, start in boards:
        tour, source = _seed_tour(board, start, b["seed_dfs_nodes"])
        label = f"{board.rows}x{board.cols}" + (f" - {board.n_holes} holes" if board.n_holes else "")
        for method in ("aco", "iaco"):
            for seeded in (False, True):
                if seeded and tour is None:
                    rows.append([label, method, "no seed tour found", None, None, None, None, None])
                    continue
                kw = {"seed_tour": tour} if seeded else {}
                firsts, secs = [], []
                for r in range(runs):
                    t0 = time.perf_counter()
                    res = solve(board, method, start=start, seed=seed + r, cycles=cycles, **kw)
                    secs.append(time.perf_counter() - t0)
                    firsts.append(res.stats["walks_to_first"] if res.found else None)
                got = [f for f in firsts if f is not None]
                en = enumerate_tours(board, method, cycles=rate_cycles, seed=seed, **kw)
                rows.append([label, method, f"{source} tour from {start}" if seeded else "none",
                             f"{len(got)}/{runs}", statistics.median(got) if got else None,
                             round(statistics.median(secs), 3), round(en.stats["production_rate"], 4),
                             round(en.stats["distinct_rate"], 4)])
    return Table(
        "Seeding the colonies with a tour (pheromone laid along it before the first cycle)",
        ["board", "method", "seed", "found", "median walks to first", "median s", "complete/walk",
         "distinct/walk"],
        rows,
        [f"first tour: {runs} seeds, every ant on the start square, at most {cycles} cycles; "
         f"rates: {rate_cycles} cycles, one ant per square",
         "seed amounts: aco one full tour's deposit (Q on each move); iaco the trail clamp 0.999",
         "seed source: Warnsdorff when installed, else the naive DFS (an exhaustive search's first tour)"],
    )


def _plot(folder: str, hk_runs, ires) -> None:
    """Production rate against cycles, and the last run's pheromone drawn on the board."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    fig, ax = plt.subplots(figsize=(7, 4))
    for res, label in [*((r, f"ACO seed {r.seed}") for r in hk_runs), (ires, f"IACO seed {ires.seed}")]:
        h = np.array(res.history, dtype=float)
        if len(h) < 2:
            continue
        cyc, walks, comp, dist = h.T
        dw = np.diff(walks)
        ax.plot(cyc[1:], np.diff(comp) / dw, label=f"{label}: complete/walk")
        ax.plot(cyc[1:], np.diff(dist) / dw, "--", label=f"{label}: distinct/walk")
    ax.axhline(PUBLISHED_HK_RATE, color="k", lw=0.8, ls=":", label="Hingston & Kendall 0.076")
    ax.set_xlabel("cycle")
    ax.set_ylabel("tours per walk")
    ax.set_title("Production rate on 8x8")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(folder, "colonies_production.png"), dpi=120)
    plt.close(fig)

    res = hk_runs[-1]
    tau = np.asarray(res.pheromone)
    from ..graph import KnightGraph

    graph = KnightGraph.of(res.board)
    coords = graph.coords
    fig, ax = plt.subplots(figsize=(5.5, 5.5))
    top = tau[graph.table >= 0].max()
    for s in range(graph.n):
        for j in range(graph.table.shape[1]):
            d = graph.table[s, j]
            if d < 0:
                continue
            w = tau[s, j] / top
            if w < 1e-3:
                continue
            (r0, c0), (r1, c1) = coords[s], coords[d]
            # a move is drawn from its square half-way to its destination: two directions, two halves
            ax.plot([c0, (c0 + c1) / 2], [r0, (r0 + r1) / 2], color="tab:red", lw=4 * w, alpha=0.3 + 0.7 * w)
    ax.set_xticks(range(res.board.cols))
    ax.set_yticks(range(res.board.rows))
    ax.set_xlim(-0.5, res.board.cols - 0.5)
    ax.set_ylim(res.board.rows - 0.5, -0.5)
    ax.set_aspect("equal")
    ax.set_title(f"Pheromone after {res.stats['cycles']:,} cycles (ACO seed {res.seed})")
    fig.tight_layout()
    fig.savefig(os.path.join(folder, "colonies_pheromone.png"), dpi=120)
    plt.close(fig)


SECTION = Section(
    name="colonies",
    title="Ant colonies: Hingston & Kendall (2004) and the improved colony's Table 1",
    run=run,
)
