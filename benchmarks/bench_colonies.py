"""Speed of the stochastic side: ant walks per second, the 100,000-cycle run, GA and DFS attempts per second.

Usage::

    python benchmarks/bench_colonies.py            # about 3-5 minutes
    python benchmarks/bench_colonies.py --quick    # under a minute

Prints a table and writes it to benchmarks/results/colonies.md.  Every
figure is the median of several runs; wall-clock and CPU seconds are both
given because a shared machine slows wall time.  Compile times are measured
in fresh processes with an empty numba cache (NUMBA_CACHE_DIR in a temporary
folder); "cached" is the first call of a fresh process whose cache is warm.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))
from _machine import machine_lines  # noqa: E402

FIRST_CALL = {
    "aco": "solve('6x6', 'aco', seed=1, cycles=5)",
    "iaco": "solve('6x6', 'iaco', seed=1, cycles=5)",
    "ga": "solve('6x6', 'ga', seed=1, generations=5)",
    "dfs": "solve('6x6', 'dfs', seed=1, nodes=1000)",
}


def first_call(method: str, cache_dir: str) -> float:
    code = ("import time; t=time.perf_counter(); from ktsolve import solve; "
            f"{FIRST_CALL[method]}; print(time.perf_counter()-t)")
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True,
                         cwd=str(ROOT))
    return float(out.stdout.strip().splitlines()[-1])


def timed(fn, reps: int):
    walls, cpus, outs = [], [], []
    for _ in range(reps):
        t0, c0 = time.perf_counter(), time.process_time()
        outs.append(fn())
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return statistics.median(walls), statistics.median(cpus), outs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller budgets (under a minute)")
    ap.add_argument("--runs", type=int, default=None, help="100,000-cycle runs (default 3, quick 0)")
    args = ap.parse_args()

    from ktsolve import Board, KnightGraph, TourSpec, solve
    from ktsolve.heuristics.aco import enumerate_aco
    from ktsolve.heuristics.dfs import dfs_count
    from ktsolve.heuristics.ga import ga_rate
    from ktsolve.heuristics.iaco import enumerate_iaco

    rows = []
    # Compile times: a fresh empty cache, then the same cache warm.
    for method in FIRST_CALL:
        with tempfile.TemporaryDirectory() as cache:
            cold = first_call(method, cache)
            warm = first_call(method, cache)
        rows.append((f"{method}: first call, empty numba cache (compile)", f"{cold:.1f} s", ""))
        rows.append((f"{method}: first call, warm cache", f"{warm:.2f} s", "includes importing ktsolve"))
        print(rows[-2], rows[-1], flush=True)
    for method, call in FIRST_CALL.items():  # compile in this process too
        eval(call, {"solve": solve})

    g8 = KnightGraph(Board(8, 8))
    reps = 3 if args.quick else 5
    cyc = 1000 if args.quick else 2000
    wall, cpu, outs = timed(lambda: enumerate_aco(g8, TourSpec(), cycles=cyc, seed=1), reps)
    walks = outs[0].stats["walks"]
    mean_len = outs[0].stats["mean_walk_moves"]
    rows.append((f"aco 8x8: ant walks per second, first {cyc:,} cycles", f"{walks / wall:,.0f} /s wall",
                 f"{walks / cpu:,.0f} /s CPU; mean walk {mean_len:.1f} moves; median of {reps}"))
    print(rows[-1], flush=True)
    wall, cpu, outs = timed(lambda: enumerate_iaco(g8, TourSpec(), cycles=cyc // 3, seed=1), reps)
    walks = outs[0].stats["walks"]
    rows.append((f"iaco 8x8: ant walks per second, first {cyc // 3:,} cycles", f"{walks / wall:,.0f} /s wall",
                 f"{walks / cpu:,.0f} /s CPU; mean walk {outs[0].stats['mean_walk_moves']:.1f} moves"))
    print(rows[-1], flush=True)

    runs = (0 if args.quick else 3) if args.runs is None else args.runs
    if runs:
        walls, cpus, ds, rates = [], [], [], []
        for r in range(runs):
            t0, c0 = time.perf_counter(), time.process_time()
            res = enumerate_aco(g8, TourSpec(), cycles=100_000, seed=1 + r)
            walls.append(time.perf_counter() - t0)
            cpus.append(time.process_time() - c0)
            ds.append(res.stats["distinct"])
            rates.append(res.stats["distinct_rate"])
            print("H&K run", r + 1, round(walls[-1], 1), "s wall", round(cpus[-1], 1), "s CPU", ds[-1], flush=True)
        rows.append(("aco 8x8: the 100,000-cycle Hingston & Kendall run (6.4 M walks)",
                     f"{statistics.median(walls):.1f} s wall",
                     f"{statistics.median(cpus):.1f} s CPU; median of {runs}; distinct tours "
                     f"{', '.join(f'{d:,}' for d in ds)} (paper ~488,000); distinct/walk "
                     f"{', '.join(f'{x:.3f}' for x in rates)} (paper 0.076); "
                     f"{6_400_000 / statistics.median(walls):,.0f} walks/s wall"))
        print(rows[-1], flush=True)

    att = 200_000 if args.quick else 1_000_000
    wall, cpu, outs = timed(lambda: ga_rate(g8, TourSpec(), attempts=att, seed=1), 3)
    a = outs[0]["attempts"]
    rows.append(("ga 8x8: attempts (decodes) per second", f"{a / wall:,.0f} /s wall",
                 f"{a / cpu:,.0f} /s CPU; tours per attempt {outs[0]['tours_per_attempt']:.6f} (paper 0.000642)"))
    print(rows[-1], flush=True)
    nodes = 20_000_000 if args.quick else 100_000_000
    wall, cpu, outs = timed(lambda: dfs_count(g8, TourSpec(start=(7, 0)), nodes=nodes, order="12345678"), 3)
    st = outs[0]
    rows.append(("dfs 8x8 from a1, order 12345678: attempts (leaves) per second",
                 f"{st['attempts'] / wall:,.0f} /s wall",
                 f"{st['nodes'] / wall:,.0f} nodes/s wall, {st['attempts'] / cpu:,.0f} leaves/s CPU; "
                 f"{st['tours']} tours in {st['attempts']:,} leaves ({st['tours_per_attempt']:.2g} per attempt; "
                 f"paper 0.000003)"))
    print(rows[-1], flush=True)

    head = ["what", "figure", "notes"]
    widths = [max(len(str(r[i])) for r in [head, *rows]) for i in range(3)]
    lines = [
        "# Ant colonies, GA and DFS: speed",
        "",
        *machine_lines(),
        f"Command: python benchmarks/bench_colonies.py{' --quick' if args.quick else ''}",
        "",
        "| " + " | ".join(h.ljust(w) for h, w in zip(head, widths)) + " |",
        "|" + "|".join("-" * (w + 2) for w in widths) + "|",
    ]
    lines += ["| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths)) + " |" for r in rows]
    text = "\n".join(lines) + "\n"
    print(text)
    out = HERE / "results" / "colonies.md"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    print(f"written to {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
