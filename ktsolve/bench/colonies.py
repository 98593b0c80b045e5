"""Ant colonies beside their papers: Hingston & Kendall (2004) and Jiang, Bai & Dong's improved colony.

Everything here goes through the public API (:func:`ktsolve.solve`,
:func:`ktsolve.enumerate_tours`, :func:`ktsolve.seeds.derive_seed`); no
method module is imported.  Quick mode (the default of ``ktsolve bench
papers``) runs reduced budgets and finishes in a few minutes; ``--full``
runs the papers' budgets (about an hour).  Each table prints the published
figure beside ours; where they differ the notes and this docstring say why.

Hingston & Kendall (AI 2004, LNCS 3339)
    The colony on 8x8, 100,000 cycles of 64 ants (6.4 million walks), 20
    runs: 488,245 distinct tours on average, 9,192 of them closed (1.9 %),
    0.076 distinct tours per walk.  Ours (``aco`` defaults, the paper's
    parameters): 345,000 to 680,000 distinct tours per run, the rate and
    the spread as published, but 30 to 43 % of them closed.  The closed
    share is not a defect of the counting: counting a closed tour once per
    cycle (rotations and reversals identified, ``stats["closed_cycles"]``)
    still gives 6 to 26 %, and a sampler without bias would give 8.7 %
    (13,267,364,410,532 closed tours, each listed 128 ways, among
    19,591,828,170,979,904 directed tours).  Trails shared by the ants of
    every square favour closed tours: any ant on a closed tour's cycle can
    follow its trail round (its rotations are closed tours too), while an
    open tour's trail serves its own start only.  Early in a run the share
    is 17 to 22 % (1,000 to 3,000 cycles).  Variants measured over 1,000 to
    10,000 cycles do not bring it to 1.9 %: random start squares (35 %),
    undirected trails (the colony collapses: 31 tours), trails per start
    square or deposits by complete walks only (no tour at all).  The paper's
    1.9 % is below even the unbiased share; we print it beside ours.
    The paper's depth-first comparisons: a naive search finds 308.6 tours
    per start square in 10^8 tries; one ordered by Warnsdorff's rule finds
    7,894,584 tours, 1,188,384 of them closed.  A *try* is read as an
    attempt (a leaf of the search: a dead end or a tour), the unit the
    improved colony's Table 1 turns into 0.000003 tours per attempt
    (308.6 / 10^8).  The naive search is run with that budget from every
    square in ``--full`` (``ktsolve enumerate 8x8 -m dfs -p
    attempts_per_start=100000000 -p order=12345678``).  The Warnsdorff
    search's budget is not given in a form we can reproduce: at 10^7
    attempts from a1 it already finds about 165,000 tours (7 % closed), so
    10^8 from every square would give about 100 million; we run 10^6
    attempts per start square (``--full``) and print the counts beside the
    paper's.
Jiang, Bai & Dong (the improved colony)
    Table 1, tours per attempt on 8x8: DFS 0.000003, GA 0.000642, ACO
    0.076, IACO 0.0782.  Ours at equal walks for the colonies: ``aco``'s
    distinct tours per walk after 6.4 million walks (0.054 to 0.106 by
    seed, 0.073 on average over seeds 1 to 3), ``iaco``'s with its default
    reading (:mod:`ktsolve.heuristics.iaco`), 0.065 for every seed: steadier
    than ``aco``, not better on average, where the paper has it slightly
    better; the GA
    (Gordon & Slocum's chromosome and repair, rates of our choosing since
    the papers give none) restarted after every tour; the naive DFS from
    every square.  The figures: the rate against ``rho`` (best at 0.45)
    and against ``F`` (a dip near 0) are reproduced in shape by the default
    reading; the tours of holed boards (8x8, 9x12, 10x10, 13x13, 15x15) are
    tours the paper shows, not counts: we print whether each method finds
    one from a1 and how fast.  The paper gives its 13x13 and 15x15 boards
    (the centre removed) but not the holes of the others: ours remove two
    central squares of opposite colours.

Figures (``--plots DIR``, needs matplotlib, the ``plot`` extra):
``colonies_production.png`` (rate against cycles), ``colonies_rho.png``,
``colonies_f.png`` and ``colonies_pheromone.png`` (the last run's trails
drawn on the board, like Hingston & Kendall's pictures).
"""

from __future__ import annotations

import math
import os
import time

from . import Section, Stages, Table

__all__ = ["SECTION", "run", "PUBLISHED"]

#: The papers' figures printed beside ours.
PUBLISHED = {
    "hk_distinct": 488_245,
    "hk_closed": 9_192,
    "hk_rate": 0.076,
    "hk_dfs_per_start": 308.6,
    "hk_warnsdorff_tours": 7_894_584,
    "hk_warnsdorff_closed": 1_188_384,
    "table1": {"DFS": 0.000003, "GA": 0.000642, "ACO": 0.076, "IACO": 0.0782},
    "best_rho": 0.45,
    # OEIS A165134: directed open tours of 8x8 (too many states for the frontier count in a bench run)
    "open_8x8": 19_591_828_170_979_904,
}

RHOS = (0.1, 0.2, 0.3, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9)
FS = (-math.inf, -10.0, -1.0, -0.1, 0.0, 0.1, 1.0, 10.0, math.inf)


def _budgets(quick: bool) -> dict:
    if quick:
        return {"hk_cycles": 5_000, "hk_runs": 1, "dfs_starts": 8, "dfs_tries": 1_000_000,
                "warnsdorff_tries": 100_000, "ga_attempts": 300_000, "sweep_walks": 192_000,
                "holed_limit": 5.0, "holed_iaco_default": ("13x13", "15x15"), "count_cycles": 2_000}
    return {"hk_cycles": 100_000, "hk_runs": 20, "dfs_starts": 64, "dfs_tries": 100_000_000,
            "warnsdorff_tries": 1_000_000, "ga_attempts": 5_000_000, "sweep_walks": 6_400_000,
            "holed_limit": 60.0, "holed_iaco_default": ("8x8", "9x12", "10x10", "13x13", "15x15"),
            "count_cycles": 100_000}


def _count_boards():
    """Boards small enough for an exact count in seconds: the colony's distinct tours beside all of them."""
    from ..board import Board

    return [
        ("5x5", Board(5, 5), "full"),
        ("6x6", Board(6, 6), "full"),
        ("5x5", Board(5, 5, holes=[(2, 2)]), "centre removed"),
        ("5x6", Board(5, 6, holes=[(0, 0)]), "a5 removed"),
        ("6x6", Board(6, 6, holes=[(2, 2), (2, 3)]), "c4 d4 removed"),
    ]


def _holed_boards():
    from ..board import Board

    return [
        ("8x8", Board(8, 8, holes=[(4, 3), (4, 4)]), "d4 e4 removed (ours)"),
        ("9x12", Board(9, 12, holes=[(4, 5), (4, 6)]), "f5 g5 removed (ours)"),
        ("10x10", Board(10, 10, holes=[(4, 4), (4, 5)]), "e6 f6 removed (ours)"),
        ("13x13", Board(13, 13, holes=[(6, 6)]), "centre removed (the paper's)"),
        ("15x15", Board(15, 15, holes=[(7, 7)]), "centre removed (the paper's)"),
    ]


def run(quick: bool = True, seed: int = 1, progress=None, plots: str | None = None) -> list[Table]:
    """Every table of the section; see the module notes for budgets, definitions and differences."""
    if plots:
        _pyplot()  # fail before the work when matplotlib is missing
    b = _budgets(quick)
    stages = Stages(b["hk_runs"] + 8, progress)
    hk_runs = [_hk_run(b, seed + r) for r in range(b["hk_runs"])]
    for _ in hk_runs:
        stages.tick()
    dfs = _dfs_runs(b, seed)
    stages.tick()
    iaco = _iaco_equal_walks(hk_runs[0].stats["walks"], seed)
    stages.tick()
    ga = _ga_rate(b["ga_attempts"], seed)
    stages.tick()
    rho = _sweep("rho", RHOS, b["sweep_walks"], seed)
    stages.tick()
    fs = _sweep("f", FS, b["sweep_walks"], seed)
    stages.tick()
    holed = _holed(b, seed)
    stages.tick()
    counted = _counted(b, seed)
    stages.tick()
    tables = [_hk_table(b, hk_runs, quick), _hk_dfs_table(b, dfs, quick), _table1(b, hk_runs, iaco, ga, dfs, quick),
              _sweep_table("rho", rho, b, quick), _sweep_table("f", fs, b, quick), _holed_table(b, holed, quick),
              _cycles_table(hk_runs[0], iaco), _counts_table(b, counted, quick)]
    if plots:
        _plot(plots, hk_runs, iaco, rho, fs)
    stages.tick()
    return tables


# ---------------------------------------------------------------------- runs
def _hk_run(b: dict, seed: int):
    from ..solve import enumerate_tours

    t0 = time.perf_counter()
    res = enumerate_tours("8x8", "aco", cycles=b["hk_cycles"], seed=seed)
    return res.replace(elapsed=time.perf_counter() - t0)


def _iaco_equal_walks(walks: int, seed: int):
    from ..solve import enumerate_tours

    t0 = time.perf_counter()
    res = enumerate_tours("8x8", "iaco", cycles=walks // 3, seed=seed)
    return res.replace(elapsed=time.perf_counter() - t0)


def _dfs_runs(b: dict, seed: int) -> dict:
    """Naive and Warnsdorff-ordered depth-first searches, ``tries`` attempts from each of ``starts`` squares."""
    from ..board import Board
    from ..solve import enumerate_tours

    board = Board(8, 8)
    step = max(1, 64 // b["dfs_starts"])
    squares = [board.name(*board.coords_of([i])[0]) for i in range(0, 64, step)][: b["dfs_starts"]]
    out = {}
    for order, tries in (("12345678", b["dfs_tries"]), ("warnsdorff", b["warnsdorff_tries"])):
        tot = {"tours": 0, "closed": 0, "attempts": 0, "seconds": 0.0, "starts": len(squares), "tries": tries}
        for sq in squares:
            t0 = time.perf_counter()
            res = enumerate_tours(board, "dfs", start=sq, order=order, attempts_per_start=tries, keep=0, seed=seed,
                                  nodes=2**62)
            tot["seconds"] += time.perf_counter() - t0
            tot["tours"] += res.stats["tours"]
            tot["closed"] += res.stats["closed"]
            tot["attempts"] += res.stats["attempts"]
        out[order] = tot
    return out


def _ga_rate(attempts: int, seed: int) -> dict:
    """Tours per decode of the GA restarted after every tour (runs seeded by :func:`derive_seed`)."""
    from ..seeds import derive_seed
    from ..solve import solve

    t0 = time.perf_counter()
    tours = used = runs = 0
    while used < attempts:
        res = solve("8x8", "ga", seed=derive_seed(seed, "ga_rate", runs), generations=max(1, (attempts - used) // 49))
        runs += 1
        used += res.stats["attempts"]
        tours += res.found
        if not res.found and res.stats.get("generations", 0) == 0:
            break
    return {"tours": tours, "attempts": used, "runs": runs, "seconds": time.perf_counter() - t0,
            "rate": tours / used if used else 0.0}


def _sweep(name: str, values, walks: int, seed: int) -> list[tuple]:
    from ..solve import enumerate_tours

    rows = []
    for v in values:
        res = enumerate_tours("8x8", "iaco", cycles=walks // 3, seed=seed, **{name: v})
        rows.append((v, res.stats["distinct_rate"], res.stats["production_rate"], res.stats["walks"]))
    return rows


def _counted(b: dict, seed: int) -> list[tuple]:
    """The colony on each board of :func:`_count_boards` and the exact number of its tours (as sequences)."""
    from .. import count_tours
    from ..solve import enumerate_tours

    out = []
    for label, board, holes in _count_boards():
        t0 = time.perf_counter()
        res = enumerate_tours(board, "aco", cycles=b["count_cycles"], seed=seed)
        ran = time.perf_counter() - t0
        t0 = time.perf_counter()
        total = count_tours(board, directed=True)  # every tour an ant can list is a directed open tour
        out.append((label, holes, res.stats["distinct"], res.stats["walks"], ran, total, time.perf_counter() - t0))
    return out


def _holed(b: dict, seed: int) -> list[tuple]:
    from ..solve import solve

    out = []
    for label, board, holes in _holed_boards():
        configs = [("aco", {}), ("iaco", {"degree": "free"})]
        if label in b["holed_iaco_default"]:
            configs.insert(1, ("iaco", {}))
        for closed in (False, True):
            for method, kw in configs:
                t0 = time.perf_counter()
                res = solve(board, method, start="a1", closed=closed, seed=seed, time_limit=b["holed_limit"], **kw)
                out.append((label, holes, "closed" if closed else "open", method, kw, res.status.value,
                            time.perf_counter() - t0, res.stats.get("walks")))
    return out


# ---------------------------------------------------------------------- tables
def _budget_note(quick: bool, text: str) -> str:
    return f"budget: {text}" + (" (quick; --full runs the paper's)" if quick else "")


def _hk_table(b: dict, runs, quick: bool) -> Table:
    rows = []
    for res in runs:
        st = res.stats
        rows.append([f"ours, seed {res.seed}", st["cycles"], st["walks"], st["distinct"], st["closed_tours"],
                     round(st["closed_share"], 3), st["closed_cycles"], st["start_squares"],
                     round(st["distinct_rate"], 4), round(res.elapsed, 1), _of_all(st["distinct"])])
    if len(runs) > 1:
        mean = [sum(r.stats[k] for r in runs) / len(runs) for k in ("distinct", "closed_tours", "walks")]
        rows.append([f"ours, mean of {len(runs)}", b["hk_cycles"], round(mean[2]), round(mean[0]), round(mean[1]),
                     round(mean[1] / mean[0], 3) if mean[0] else 0.0, "per run above", "per run above",
                     round(mean[0] / mean[2], 4) if mean[2] else 0.0,
                     round(sum(r.elapsed for r in runs), 1), _of_all(mean[0])])
    p = PUBLISHED
    rows.append(["Hingston & Kendall 2004, mean of 20", 100_000, 6_400_000, p["hk_distinct"], p["hk_closed"],
                 "0.019 (9,192 / 488,245)", "not given", "not given", p["hk_rate"],
                 "not given", _of_all(p["hk_distinct"])])
    return Table(
        "Hingston & Kendall: distinct and closed tours of the ant colony on 8x8",
        ["run", "cycles", "walks", "distinct", "closed", "closed share", "closed cycles", "start squares",
         "distinct/walk", "s", "share of all tours"],
        rows,
        [_budget_note(quick, f"{b['hk_cycles']:,} cycles of 64 ants, {len(runs)} run(s)"),
         "aco defaults = the paper's rho 0.25, Q 1, alpha 1, initial trail 1e-6",
         "a tour is its square sequence; 'closed cycles' counts each closed cycle once (rotations, reversal)",
         "closed share: ours 30-43 % over 100,000 cycles, the paper 1.9 %, an unbiased sampler 8.7 %: shared "
         "trails favour closed tours (see ktsolve.bench.colonies); no reading tried reaches 1.9 %",
         "share of all tours: distinct tours over the 19,591,828,170,979,904 directed open tours of 8x8 (OEIS "
         "A165134; a tour is its square sequence, closed ones included)"],
    )


def _of_all(distinct) -> str:
    """The share of all directed open tours of 8x8 (OEIS A165134) that ``distinct`` tours are."""
    return f"{distinct / PUBLISHED['open_8x8']:.3g}"


def _hk_dfs_table(b: dict, dfs: dict, quick: bool) -> Table:
    naive, warn = dfs["12345678"], dfs["warnsdorff"]
    p = PUBLISHED
    rows = [
        ["naive DFS (order 12345678), ours", f"{naive['tries']:,} x {naive['starts']} squares", naive["tours"],
         round(naive["tours"] / naive["starts"], 1), naive["closed"], round(naive["seconds"], 1)],
        ["naive DFS, Hingston & Kendall", "10^8 x 64 squares", "not given", p["hk_dfs_per_start"], "not given",
         "not given"],
        ["Warnsdorff-ordered DFS, ours", f"{warn['tries']:,} x {warn['starts']} squares", warn["tours"],
         round(warn["tours"] / warn["starts"]), warn["closed"], round(warn["seconds"], 1)],
        ["Warnsdorff-ordered DFS, Hingston & Kendall", "not given in a form we can match",
         p["hk_warnsdorff_tours"], "not given", p["hk_warnsdorff_closed"], "not given"],
    ]
    return Table(
        "Hingston & Kendall: depth-first enumerations on 8x8, tries (attempts: dead ends and tours) per start square",
        ["search", "tries", "tours", "tours per start", "closed", "s"],
        rows,
        [_budget_note(quick, f"naive {b['dfs_tries']:,} tries from {b['dfs_starts']} squares, "
                             f"Warnsdorff {b['warnsdorff_tries']:,}"),
         "'not given': the paper prints the naive search's tours per square only, and the Warnsdorff "
         "search's totals only",
         "a try is read as an attempt (a leaf of the search); tours per start vary widely by square",
         "the paper's Warnsdorff budget is not given per square: at 10^8 tries from every square ours would "
         "find about 100 million tours, so --full runs 10^6 and the counts differ by design"],
    )


def _table1(b: dict, hk_runs, iaco, ga: dict, dfs: dict, quick: bool) -> Table:
    aco = hk_runs[0]
    naive = dfs["12345678"]
    pub = PUBLISHED["table1"]
    dfs_rate = naive["tours"] / naive["attempts"] if naive["attempts"] else 0.0
    rows = [
        ["DFS", "leaf: dead end or tour", pub["DFS"], dfs_rate, naive["attempts"], round(naive["seconds"], 1)],
        ["GA", "decode, restart after a tour", pub["GA"], ga["rate"], ga["attempts"], round(ga["seconds"], 1)],
        ["ACO", "ant walk (distinct tours)", pub["ACO"], aco.stats["distinct_rate"], aco.stats["walks"],
         round(aco.elapsed, 1)],
        ["IACO", "ant walk (distinct tours)", pub["IACO"], iaco.stats["distinct_rate"], iaco.stats["walks"],
         round(iaco.elapsed, 1)],
    ]
    return Table(
        "Jiang, Bai & Dong, Table 1: tours per attempt on 8x8",
        ["method", "attempt", "published", "ours", "attempts", "s"],
        rows,
        [_budget_note(quick, f"colonies {aco.stats['walks']:,} walks each; GA {ga['attempts']:,} decodes "
                             f"in {ga['runs']} runs; DFS {naive['tries']:,} tries from {naive['starts']} squares"),
         "IACO: the default reading (one ant per colony and cycle, the deposit summed over it, F = -inf, "
         "board degree); at 6.4 million walks it makes about 0.065, below the paper's 0.0782 and below "
         "ACO's run of seed 1 (0.106), above seeds 2 and 3 (0.054, 0.060): ACO's rate varies by run",
         "GA: population 50, crossover 0.9, mutation 1/189 per bit (our rates: the papers give none), "
         f"{ga['tours']} tours; DFS: the same runs as the table above"],
    )


def _sweep_table(name: str, rows_in, b: dict, quick: bool) -> Table:
    if name == "rho":
        best = max(rows_in, key=lambda r: r[1])[0]
        title = "Jiang, Bai & Dong: distinct tours per walk against the evaporation rho (figure)"
        published = [f"best at {PUBLISHED['best_rho']}" if v == PUBLISHED["best_rho"] else "curve only"
                     for v, *_ in rows_in]
        note = (f"ours best at rho = {best} (576,000 walks: 0.4, then 0.45); at 0.3 and below the colony memorises "
                "a few walks and the rate collapses")
    else:
        title = "Jiang, Bai & Dong: distinct tours per walk against the sharing exponent F (figure)"
        published = ["dip near 0" if v == 0 else "curve only" for v, *_ in rows_in]
        at0 = next(r[1] for r in rows_in if r[0] == 0)
        ends = max(rows_in[0][1], rows_in[-1][1])
        note = f"ours: {at0:.4f} at F = 0 against {ends:.4f} at an infinity"
    rows = [[v, pub, round(rate, 4), round(comp, 4), walks] for (v, rate, comp, walks), pub in zip(rows_in, published)]
    return Table(title, [name, "published", "distinct/walk", "complete/walk", "walks"], rows,
                 [_budget_note(quick, f"{b['sweep_walks']:,} walks per value, iaco defaults otherwise"),
                  "the paper draws curves without a table of values: its shape is printed beside ours", note])


def _holed_table(b: dict, rows_in, quick: bool) -> Table:
    rows = []
    for label, holes, kind, method, kw, status, secs, walks in rows_in:
        cfg = method + ("" if not kw else " " + " ".join(f"{k}={v}" for k, v in kw.items()))
        rows.append([label, holes, kind, cfg, "a tour shown", status, round(secs, 2), walks])
    return Table(
        "Jiang, Bai & Dong: tours of holed boards from a1 (start square and tour type control)",
        ["board", "holes", "tour", "method", "published", "ours", "s", "walks"],
        rows,
        [_budget_note(quick, f"{b['holed_limit']:g} s per run"),
         "iaco's default reading (board degree) memorises one walk per colony from a fixed start and stops "
         "exploring; degree=free (Warnsdorff's count) finds these tours at once; see ktsolve.heuristics.iaco",
         "closed from a1: every ant keeps a1's other neighbour for its last move (tour type control)"],
    )


def _counts_table(b: dict, rows_in, quick: bool) -> Table:
    rows = []
    for label, holes, distinct, walks, ran, total, counting in rows_in:
        share = f"{distinct / total.value:.3g}" if total.complete and total.value else "no count"
        rows.append([label, holes, distinct, walks, round(ran, 2), f"{total.value:,}" if total.complete else
                     f"unknown: {total.reason}", total.method, round(counting, 2), share])
    return Table(
        "Hingston & Kendall: the distinct tours the colony meets beside all the tours there are",
        ["board", "holes", "distinct", "walks", "s", "all tours (directed)", "counted by", "count s",
         "share met"],
        rows,
        [_budget_note(quick, f"{b['count_cycles']:,} cycles of aco (the paper's parameters) per board"),
         "a tour is its square sequence, so every tour an ant can list is a directed open tour (closed ones "
         "included): the count is ktsolve.count_tours(board, directed=True), exact",
         "on 8x8 the share is the first table's distinct tours over OEIS A165134's 19,591,828,170,979,904"],
    )


def _cycles_table(aco, iaco) -> Table:
    rows = []
    for label, res in (("ACO", aco), ("IACO", iaco)):
        hist = list(res.history)
        total = hist[-1][1] if hist else 0
        marks = [m for m in (0.01, 0.1, 0.5, 1.0)]
        prev = (0, 0, 0, 0)
        for frac in marks:
            h = next((x for x in hist if x[1] >= frac * total), hist[-1] if hist else None)
            if h is None or h[1] == prev[1]:
                continue
            rows.append([label, h[0], h[1], round(h[3] / h[1], 4), round((h[3] - prev[3]) / (h[1] - prev[1]), 4),
                         PUBLISHED["hk_rate"] if label == "ACO" and frac == 1.0 else "curve only"])
            prev = h
    return Table(
        "Production rate against cycles on 8x8 (Hingston & Kendall's figure)",
        ["colony", "cycles", "walks", "distinct/walk so far", "distinct/walk since last row", "published"],
        rows,
        ["the same runs as the tables above; the paper prints the rate at the end of a run (0.076) and draws "
         "the curve"],
    )


# ---------------------------------------------------------------------- figures
def _pyplot():
    try:
        import matplotlib
    except ImportError:
        from ..errors import UnsupportedError

        raise UnsupportedError("figures need matplotlib: pip install 'ktsolve[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _plot(folder: str, hk_runs, iaco, rho, fs) -> None:
    import numpy as np

    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4))
    for res, label in [*((r, f"ACO seed {r.seed}") for r in hk_runs[:3]), (iaco, f"IACO seed {iaco.seed}")]:
        h = np.array(res.history, dtype=float)
        if len(h) < 2:
            continue
        dw = np.diff(h[:, 1])
        ok = dw > 0
        ax.plot(h[1:, 1][ok], np.diff(h[:, 3])[ok] / dw[ok], label=f"{label}: distinct/walk")
    ax.axhline(PUBLISHED["hk_rate"], color="k", lw=0.8, ls=":", label="Hingston & Kendall 0.076")
    ax.set_xlabel("walks")
    ax.set_ylabel("distinct tours per walk")
    ax.set_title("Production rate on 8x8")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(folder, "colonies_production.png"), dpi=120)
    plt.close(fig)

    for name, rows, xlabel in (("rho", rho, "rho"), ("f", fs, "F")):
        fig, ax = plt.subplots(figsize=(5, 3.5))
        xs = [r[0] for r in rows]
        ticks = list(range(len(xs)))
        ax.plot(ticks, [r[1] for r in rows], "o-", label="IACO, ours")
        ax.set_xticks(ticks)
        ax.set_xticklabels([f"{x:g}" for x in xs], fontsize=7)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("distinct tours per walk")
        if name == "rho":
            ax.axvline(xs.index(PUBLISHED["best_rho"]), color="k", lw=0.8, ls=":", label="paper's best, 0.45")
        ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(os.path.join(folder, f"colonies_{name}.png"), dpi=120)
        plt.close(fig)

    from .. import KnightGraph

    res = hk_runs[-1]
    tau = np.asarray(res.pheromone)
    graph = KnightGraph(res.board)
    rows_, cols_ = res.board.rows, res.board.cols
    coords = graph.coords
    fig, ax = plt.subplots(figsize=(5.5, 5.5))
    top = tau.max()
    for s in range(graph.n):
        for j in range(graph.table.shape[1]):
            d = graph.table[s, j]
            w = tau[s, j] / top
            if d < 0 or w < 1e-3:
                continue
            (r0, c0), (r1, c1) = coords[s], coords[d]
            # a move is drawn from its square half-way to its destination: two directions, two halves
            ax.plot([c0, (c0 + c1) / 2], [r0, (r0 + r1) / 2], color="tab:red", lw=4 * w, alpha=0.3 + 0.7 * w)
    ax.set_xlim(-0.5, cols_ - 0.5)
    ax.set_ylim(rows_ - 0.5, -0.5)
    ax.set_aspect("equal")
    ax.set_title(f"Pheromone after {res.stats['cycles']:,} cycles (ACO seed {res.seed})")
    fig.tight_layout()
    fig.savefig(os.path.join(folder, "colonies_pheromone.png"), dpi=120)
    plt.close(fig)


SECTION = Section(
    name="colonies",
    title="Ant colonies: Hingston & Kendall (2004) and Jiang, Bai & Dong's improved colony",
    run=run,
)
