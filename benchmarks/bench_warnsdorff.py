"""Warnsdorff's rule: success from a corner and time per tie-break rule, beside JGraphT.

For each board n x n (n = 8, 50, 100, 200, 500, 1000) and each tie-break
rule, one walk from the corner (0, 0) (many seeded walks for the random
rule): does it complete an open tour, and how long does the walk take
(median, graph building excluded, numba compiled beforehand).  Beside it,
JGraphT 1.5.1's ``WarnsdorffRuleKnightTourHeuristic`` (Debian
``libjgrapht-java``): time to its first open tour; it starts from random
squares and retries until one walk completes, and breaks ties by distance
from the centre.  Then the random tie-break's success rate from a corner
against the figures quoted in oracles/theorems.md, and the whole
``solve()`` call for an open 1000x1000 tour from a corner.

Run:  python benchmarks/bench_warnsdorff.py [--quick] [--no-java]
Writes benchmarks/results/warnsdorff.md.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


sys.path.insert(0, str(Path(__file__).parent))
from _machine import fmt_s, machine_lines, markdown_table, median_time, write_result  # noqa: E402

from ktsolve import Board, KnightGraph, solve, validate  # noqa: E402
from ktsolve.graph import _CACHE as graph_cache  # noqa: E402
from ktsolve.heuristics.warnsdorff import warnsdorff_path  # noqa: E402

JARS = ("/usr/share/java/jgrapht-core.jar", "/usr/share/java/jgrapht-demo.jar")
JAVA_SRC = Path(__file__).parent / "java" / "JGraphTWarnsdorff.java"
# Published rates of plain Warnsdorff with random tie-breaks from a corner (theorems.md).
PUBLISHED_RANDOM = {7: "72%", 50: "83%", 100: "35%", 300: "almost never"}


def random_walks(n_side: int) -> int:
    """Seeded random walks per size (fewer on big boards to keep the run short)."""
    return 200 if n_side <= 100 else 50 if n_side <= 200 else 20 if n_side <= 500 else 10


def time_rules(sizes, repeat):
    rows = []
    for m in sizes:
        def build():
            graph = KnightGraph(Board(m, m))
            graph.table, graph.degree  # noqa: B018 - builds the arrays
            return graph

        t_graph, g = median_time(build, 1)
        row = [f"{m}x{m}", fmt_s(t_graph)]
        for rule in ("first", "pohl", "roth", "squirrel"):
            t, path = median_time(lambda: warnsdorff_path(g, 0, rule), repeat if m < 1000 else max(1, repeat // 2))
            ok = len(path) == g.n
            if ok:
                validate(g.board, path, start=(0, 0))
            row.append(f"{'yes' if ok else 'no (' + str(len(path)) + ')'} {fmt_s(t)}")
        walks = random_walks(m)
        times, wins = [], 0
        for seed in range(walks):
            t0 = time.perf_counter()
            path = warnsdorff_path(g, 0, "random", seed=seed)
            times.append(time.perf_counter() - t0)
            wins += len(path) == g.n
        row.append(f"{100 * wins / walks:.0f}% of {walks} {fmt_s(statistics.median(times))}")
        rows.append(row)
        print("  ", " | ".join(row), flush=True)
    return rows


def java_times(sizes, quick):
    """{n: (cold s, median warm s, squares)} from the Java harness, or a reason string."""
    if not all(os.path.exists(j) for j in JARS):
        return "JGraphT not installed (apt-get install libjgrapht-java)"
    if not shutil.which("javac") or not shutil.which("java"):
        return "no javac/java on PATH"
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        cp = ":".join(JARS)
        subprocess.run(["javac", "-d", tmp, "-cp", cp, str(JAVA_SRC)], check=True)
        for m in sizes:
            reps = 5 if m <= 200 else 2 if m <= 500 else (1 if quick else 2)
            res = subprocess.run(["java", "-cp", f"{cp}:{tmp}", "org.jgrapht.demo.JGraphTWarnsdorff", str(m),
                                  str(reps)], capture_output=True, text=True, check=True)
            runs = [line.split() for line in res.stdout.splitlines() if line.startswith("run ")]
            secs = [float(r[2]) for r in runs]
            out[m] = (secs[0], statistics.median(secs[1:]), int(runs[-1][3]))
            print(f"   JGraphT {m}x{m}: cold {fmt_s(secs[0])}, warm {fmt_s(out[m][1])}", flush=True)
    return out


def random_rates(quick):
    rows = []
    for m, published in PUBLISHED_RANDOM.items():
        walks = (200 if quick else 1000) if m <= 100 else (50 if quick else 200)
        g = KnightGraph(Board(m, m))
        wins = sum(len(warnsdorff_path(g, 0, "random", seed=seed)) == g.n for seed in range(walks))
        rows.append([f"{m}x{m}", walks, f"{100 * wins / walks:.1f}%", published])
        print("  ", rows[-1], flush=True)
    return rows


def closed_rates(quick):
    """Share of closed-tour walks (anchor -> blocked neighbour) that complete, per anchor and rule."""
    rows = []
    for m in (8, 20, 50, 100, 200, 1000):
        g = KnightGraph(Board(m, m))
        centre = g.board.index(m // 2, m // 2)
        for label, anchor in (("corner (0,0)", 0), (f"centre ({m // 2},{m // 2})", centre)):
            ends = [int(t) for t in g.table[anchor] if t >= 0]
            if m >= 200:
                ends = ends[:4] if not quick else ends[:2]
            row = [f"{m}x{m}", label]
            for rule in ("first", "pohl", "roth", "random"):
                seeds = range(3) if rule == "random" else range(1)
                tries = [(t, sd) for t in ends for sd in seeds]
                wins = sum(len(warnsdorff_path(g, anchor, rule, end=t, seed=sd)) == g.n for t, sd in tries)
                row.append(f"{wins}/{len(tries)}")
            rows.append(row)
            print("  ", row, flush=True)
    return rows


def solve_1000(repeat):
    board = Board(1000, 1000)
    rows = []
    for corner in ("a1", "a1000"):
        t_total = []
        t_walk = None
        for _ in range(repeat):
            graph_cache.clear()  # every call builds the graph arrays, as a fresh process does
            t0 = time.perf_counter()
            res = solve(board, method="warnsdorff", start=corner, seed=1)
            t_total.append(time.perf_counter() - t0)
            assert res.found
        g = KnightGraph.of(board)
        t_walk, _ = median_time(lambda: warnsdorff_path(g, 0, "squirrel"), repeat)
        rows.append([corner, res.stats["rule"], fmt_s(t_walk), fmt_s(statistics.median(t_total))])
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer repeats and walks")
    ap.add_argument("--no-java", action="store_true", help="skip JGraphT")
    args = ap.parse_args(argv)
    sizes = (8, 50, 100, 200, 500, 1000)
    repeat = 3 if args.quick else 5
    # compile (or load from cache) before timing anything
    warnsdorff_path(KnightGraph(Board(8, 8)), 0, "first")
    warnsdorff_path(KnightGraph(Board(8, 8)), 0, "random", seed=1)

    print("Warnsdorff from the corner, per rule:")
    rule_rows = time_rules(sizes, repeat)
    jg = "skipped (--no-java)" if args.no_java else java_times(sizes, args.quick)
    cols = ["board", "graph build", "first", "pohl", "roth", "squirrel", "random (success, median walk)",
            "JGraphT cold", "JGraphT warm"]
    for row, m in zip(rule_rows, sizes):
        if isinstance(jg, dict) and m in jg:
            cold, warm, size = jg[m]
            ok = "" if size == m * m else " (no tour)"
            row += [fmt_s(cold) + ok, fmt_s(warm) + ok]
        else:
            row += ["-", "-"]
    print("Random tie-break from a corner vs published rates:")
    rate_rows = random_rates(args.quick)
    print("Closed tours: walks from an anchor to a blocked neighbour:")
    closed_rows = closed_rates(args.quick)
    print("solve() of an open 1000x1000 tour from a corner:")
    solve_rows = solve_1000(repeat)

    text = ["# Warnsdorff's rule", "", *machine_lines(),
            "",
            "## Success from the corner (0,0) and time of one walk", "",
            "Each cell: completed an open tour? and the median time of the walk (numba kernel, graph "
            "built beforehand; 'no (k)' = stopped after k squares).  Random: share of seeded walks that "
            "completed and their median time.  JGraphT 1.5.1 `WarnsdorffRuleKnightTourHeuristic`: time "
            "to its first open tour (construction + `getTour(OPEN, ...)`; it restarts from random squares "
            "until a walk completes, so it always ends with a tour); cold = first call in a fresh JVM, "
            "warm = median of later calls.", "",
            markdown_table(cols, rule_rows), "",
            "## Random tie-breaks from a corner vs published rates (theorems.md)", "",
            markdown_table(["board", "walks", "ktsolve success", "published"], rate_rows), "",
            "## Closed tours: anchor and rule", "",
            "A walk from the anchor to a blocked neighbour of it completes a closed tour when it "
            "completes; each cell: completed walks / walks tried (one per neighbour of the anchor, the "
            "first 4 on 200x200 and larger; three seeds each for random).  The method anchors closed "
            "tours at the squares nearest the centre and tries Roth's rule first because of this table.", "",
            markdown_table(["board", "anchor", "first", "pohl", "roth", "random"], closed_rows), "",
            "## `solve(Board(1000, 1000), method='warnsdorff', start=corner)`", "",
            "Walk = the Squirrel-Cull walk alone (target under 0.3 s); solve = the whole call, medians: "
            "graph arrays built afresh each time, quick proofs, walk, reflection to the corner, "
            "validation.", "",
            markdown_table(["corner", "rule used", "walk", "solve() total"], solve_rows), "",
            f"Command: `python benchmarks/bench_warnsdorff.py{' --quick' if args.quick else ''}`", ""]
    path = write_result("warnsdorff", "\n".join(text))
    print("\n".join(text))
    print(f"written {path}")


if __name__ == "__main__":
    main()
