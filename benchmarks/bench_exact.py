"""Benchmarks of the exact side: CP-SAT tours, 4 x n impossibility, and a holed-board suite.

Three tables (medians of several runs, warm: imports and numba caches
loaded by a first untimed call):

1. CP-SAT with one worker through ``solve(method="cpsat")``: closed 8x8,
   closed 30x30, open 16x16 from a corner (targets 0.1 s, 2 s, 0.5 s).
2. Closed 4 x n, n = 24, 100, 1000, proven impossible by ``prove`` (the
   matching proof) and by the matching proof alone (target 1 s), beside
   CP-SAT alone with a short time limit.
3. ``prove`` on a suite of random holed boards (4x4 to 10x10, open and
   closed, free or fixed start, fixed seed): every answer definite?
   Median and worst time, and the share settled by each step.

Also the first-call numba compile time of the proof kernels (fresh cache).
Run: ``python benchmarks/bench_exact.py [--quick] [--boards N]``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _exact_common import median, table, timed, write  # noqa: E402

import numpy as np  # noqa: E402

from ktsolve import Board, KnightGraph, TourSpec, prove, solve  # noqa: E402
from ktsolve.proofs import matching_proof  # noqa: E402


def cpsat_table(runs: int) -> str:
    rows = []
    for label, kw, target in (
        ("closed 8x8", dict(board="8x8", closed=True), 0.1),
        ("closed 30x30", dict(board="30x30", closed=True), 2.0),
        ("open 16x16 from a1", dict(board="16x16", start="a1"), 0.5),
    ):
        totals, walls = [], []
        for seed in range(runs):
            res, secs = timed(solve, kw["board"], method="cpsat", closed=kw.get("closed", False),
                              start=kw.get("start"), seed=seed, time_limit=60)
            assert res.found, label
            totals.append(secs)
            walls.append(res.stats["wall_time_s"])
        rows.append([label, runs, f"{median(totals):.3f}", f"{max(totals):.3f}", f"{median(walls):.3f}",
                     f"< {target:g}", "yes" if median(totals) < target else "NO"])
        print(rows[-1], flush=True)
    return table(["question", "runs (seeds 0..)", "median s (solve)", "worst s", "median s (CP-SAT wall)",
                  "target", "met"], rows)


def four_by_n_table(runs: int, cpsat_limit: float) -> str:
    rows = []
    for n in (24, 100, 1000):
        board = Board(4, n)
        t_prove, t_match = [], []
        for _ in range(runs):
            res, secs = timed(prove, board, closed=True, time_limit=60)
            assert res.status.value == "infeasible" and res.stats["settled_by"] == "matching proof"
            t_prove.append(secs)
            g = KnightGraph(board)
            p, secs = timed(matching_proof, g, TourSpec(closed=True))
            assert p is not None
            t_match.append(secs)
        if n == 24:
            res, secs = timed(solve, board, method="cpsat", closed=True, presolve_proofs=False,
                              time_limit=cpsat_limit, seed=0)
            alone = f"{res.status.value} after {secs:.3g} s"
        else:
            alone = "-"
        rows.append([f"4x{n}", runs, f"{median(t_prove):.3f}", f"{max(t_prove):.3f}", f"{median(t_match):.3f}",
                     "< 1", "yes" if max(t_prove) < 1 else "NO", alone])
        print(rows[-1], flush=True)
    return table(["board (closed)", "runs", "median s (prove)", "worst s (prove)", "median s (matching proof)",
                  "target", "met", f"CP-SAT alone ({cpsat_limit:g} s limit)"], rows)


def random_suite(count: int, seed: int):
    """Random holed boards, 4x4 to 10x10; three in four have holes chosen so that colour parity holds.

    Purely random holes mostly unbalance the colours, and colour parity then
    settles the question at once; balancing most boards makes the suite test
    the other steps too.
    """
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        rows, cols = (int(x) for x in rng.integers(4, 11, size=2))
        closed = bool(rng.integers(2))
        colour = (np.add.outer(np.arange(rows), np.arange(cols)) % 2).ravel()
        cells = [np.flatnonzero(colour == c) for c in (0, 1)]
        k1 = int(rng.integers(0, rows * cols // 10 + 1))
        if rng.random() < 0.75:
            # Keep the colour counts equal (closed) or within one (open).
            slack = 0 if closed else int(rng.integers(-1, 2))
            k0 = k1 + (cells[0].size - cells[1].size) - slack
        else:
            k0 = int(rng.integers(0, rows * cols // 10 + 1))
        if not (0 <= k0 < cells[0].size and 0 <= k1 < cells[1].size):
            continue
        flat = np.concatenate([rng.choice(cells[0], size=k0, replace=False),
                               rng.choice(cells[1], size=k1, replace=False)])
        b = Board(rows, cols, [(int(f) // cols, int(f) % cols) for f in flat])
        squares = [tuple(int(x) for x in b.coords_of([i])[0]) for i in range(b.n_squares)]
        start = squares[int(rng.integers(len(squares)))] if rng.random() < 0.5 else None
        out.append((b, closed, start))
    return out


def suite_table(count: int, seed: int, time_limit: float) -> tuple[str, str]:
    suite = random_suite(count, seed)
    times, settled, statuses, arguments = [], Counter(), Counter(), Counter()
    worst = (0.0, None)
    for k, (b, closed, start) in enumerate(suite):
        res, secs = timed(prove, b, closed=closed, start=start, time_limit=time_limit, seed=k)
        times.append(secs)
        settled[res.stats["settled_by"]] += 1
        statuses[res.status.value] += 1
        if res.proof is not None:
            arguments[res.proof.argument] += 1
        if secs > worst[0]:
            worst = (secs, f"{b.rows}x{b.cols} with {b.n_holes} holes, {'closed' if closed else 'open'}"
                           f"{' from ' + b.name(*start) if start else ''}: {res.status.value} by "
                           f"{res.stats['settled_by']}")
    rows = [[step, n, f"{100 * n / len(suite):.1f}%"] for step, n in settled.most_common()]
    rows += [[f"(proofs by argument: {arg})", n, f"{100 * n / len(suite):.1f}%"] for arg, n in arguments.most_common()]
    summary = (
        f"{len(suite)} boards (seed {seed}): {statuses['found']} found, {statuses['infeasible']} infeasible, "
        f"{statuses['unknown']} unknown (time limit {time_limit:g} s each). Median {median(times):.3f} s, "
        f"worst {worst[0]:.3f} s ({worst[1]})."
    )
    print(summary, flush=True)
    return summary, table(["settled by", "boards", "share"], rows)


COMPILE_SNIPPET = """
import time
t0 = time.perf_counter()
from ktsolve import Board, KnightGraph, TourSpec
from ktsolve.proofs import matching_proof, cut_proof
g = KnightGraph(Board(4, 400))
matching_proof(g, TourSpec(closed=True))
cut_proof(KnightGraph(Board(40, 40)), TourSpec(closed=True))
print(time.perf_counter() - t0)
"""


def compile_times() -> str:
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        cold = float(subprocess.run([sys.executable, "-c", COMPILE_SNIPPET], env=env, capture_output=True,
                                    text=True, check=True).stdout.strip())
        warm = float(subprocess.run([sys.executable, "-c", COMPILE_SNIPPET], env=env, capture_output=True,
                                    text=True, check=True).stdout.strip())
    return (f"First call of the proof kernels in a fresh process (imports included): {cold:.2f} s with an "
            f"empty numba cache (compilation), {warm:.2f} s with the cache filled.")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer runs and boards")
    ap.add_argument("--boards", type=int, default=240, help="boards in the holed suite")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--time-limit", type=float, default=120.0, help="prove's limit per suite board")
    args = ap.parse_args(argv)
    runs = 2 if args.quick else 5
    # Warm-up: imports, OR-Tools, numba caches.
    solve("6x6", method="cpsat", closed=True, seed=0)
    prove("4x30", closed=True)
    prove(Board(6, 6, [(0, 0)]), start="a2")
    parts = []
    parts.append("## CP-SAT, one worker\n\n" + cpsat_table(runs))
    parts.append("## Closed 4 x n\n\n" + four_by_n_table(runs, 10.0 if args.quick else 60.0))
    summary, tab = suite_table(60 if args.quick else args.boards, args.seed, args.time_limit)
    parts.append("## Holed-board suite through prove()\n\n" + summary + "\n\n" + tab)
    parts.append("## Numba compile time\n\n" + compile_times())
    note = "Timings are wall seconds; 'solve' times include building the model and validating the tour."
    print(write("exact", "Exact side: CP-SAT, the matching proof, prove()", "\n\n".join(parts), note))


if __name__ == "__main__":
    main()
