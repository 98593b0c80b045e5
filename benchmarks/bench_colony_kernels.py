"""Compile time (cold, whole process) and ant walks per second of the colony kernels, before and after a change.

Usage::

    python benchmarks/bench_colony_kernels.py                      # this tree only
    git archive df64eff | tar -x -C /tmp/before                    # any older tree ...
    python benchmarks/bench_colony_kernels.py --before /tmp/before # ... measured beside this one

Every figure of one tree is measured in alternation with the other tree's,
in the same run, so both see the same machine load.  Compile time: a fresh
Python process with an empty numba cache (``NUMBA_CACHE_DIR`` in a new
temporary folder) imports ktsolve and makes one small call of the method;
the wall time of the whole process is taken (interpreter start, imports,
compiling, the call).  "warm" is the same process with that cache filled.
Walks per second: 8x8, one ant per square, median of ``--reps`` runs in one
process after a warm-up call.  Writes ``benchmarks/results/colony_kernels.md``.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from _machine import RESULTS, machine_lines  # noqa: E402

CALLS = {
    "aco": "solve('6x6', 'aco', seed=1, cycles=5)",
    "iaco": "solve('6x6', 'iaco', seed=1, cycles=5)",
    "ga": "solve('6x6', 'ga', seed=1, generations=5)",
    "dfs": "solve('6x6', 'dfs', seed=1, nodes=1000)",
}

SPEED = r"""
import inspect, statistics, sys, time
from ktsolve import enumerate_tours
from ktsolve.heuristics import iaco
reps = int(sys.argv[1])
# the same work per walk in both trees: iaco with one ant per square, C once per used move, F = +inf
# (the default of earlier versions; a named reading now)
same = {"reading": "edge", "f": float("inf")} if "reading" in inspect.signature(iaco.solve_iaco).parameters else {}
for method, cycles, kw in (("aco", 2000, {}), ("iaco", 666, same)):
    enumerate_tours("8x8", method, cycles=5, seed=1, **kw)
    walls, cpus = [], []
    for _ in range(reps):
        t0, c0 = time.perf_counter(), time.process_time()
        res = enumerate_tours("8x8", method, cycles=cycles, seed=1, **kw)
        walls.append(res.stats["walks"] / (time.perf_counter() - t0))
        cpus.append(res.stats["walks"] / (time.process_time() - c0))
    print(method, statistics.median(walls), statistics.median(cpus))
"""


def process_seconds(tree: Path, code: str, cache: str) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of a fresh process running ``code``."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=str(tree))
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], env=env, check=True, cwd=str(tree), capture_output=True)
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def compile_times(tree: Path, method: str) -> tuple[tuple[float, float], tuple[float, float]]:
    code = f"from ktsolve import solve; {CALLS[method]}"
    with tempfile.TemporaryDirectory() as cache:
        cold = process_seconds(tree, code, cache)
        warm = process_seconds(tree, code, cache)
    return cold, warm


def speeds(tree: Path, reps: int) -> dict:
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=str(tree))
        out = subprocess.run([sys.executable, "-c", SPEED, str(reps)], env=env, check=True, cwd=str(tree),
                             capture_output=True, text=True).stdout
    res = {}
    for line in out.splitlines():
        method, wall, cpu = line.split()
        res[method] = (float(wall), float(cpu))
    return res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", type=Path, help="an older source tree to measure beside this one")
    ap.add_argument("--reps", type=int, default=5, help="runs per speed figure (median)")
    ap.add_argument("--rounds", type=int, default=3, help="cold compiles per method and tree (median)")
    ap.add_argument("--out", type=Path, default=RESULTS / "colony_kernels.md")
    args = ap.parse_args()
    trees = {"after": ROOT}
    if args.before:
        trees = {"before": args.before.resolve(), "after": ROOT}
    load0 = os.getloadavg()
    comp = {t: {m: [] for m in CALLS} for t in trees}
    warm = {t: {m: [] for m in CALLS} for t in trees}
    for _ in range(args.rounds):
        for m in CALLS:
            for t, path in trees.items():
                c, w = compile_times(path, m)
                comp[t][m].append(c)
                warm[t][m].append(w)
                print(t, m, f"cold {c[0]:.2f} s ({c[1]:.2f} CPU), warm {w[0]:.2f} s ({w[1]:.2f} CPU)", flush=True)
    speed = {t: [] for t in trees}
    for _ in range(2):
        for t, path in trees.items():
            speed[t].append(speeds(path, args.reps))
            print(t, speed[t][-1], flush=True)
    load1 = os.getloadavg()
    rows = []
    for m in CALLS:
        cells = [f"{m}: whole process, first call with an empty cache (compile) / warm cache; "
                 f"wall s (CPU s), median of {args.rounds}"]
        for t in trees:
            cw = statistics.median(c[0] for c in comp[t][m])
            cc = statistics.median(c[1] for c in comp[t][m])
            ww = statistics.median(c[0] for c in warm[t][m])
            wc = statistics.median(c[1] for c in warm[t][m])
            cells.append(f"{cw:.2f} ({cc:.2f}) / {ww:.2f} ({wc:.2f})")
        rows.append(cells)
    for m in ("aco", "iaco"):
        what = "" if m == "aco" else " (one ant per square a cycle, as before: reading='edge', f=inf after)"
        cells = [f"{m}{what} 8x8: ant walks per second, wall (CPU); median of {args.reps}, best of 2 processes"]
        for t in trees:
            wall = max(s[m][0] for s in speed[t])
            cpu = max(s[m][1] for s in speed[t])
            cells.append(f"{wall:,.0f} ({cpu:,.0f})")
        rows.append(cells)
    head = ["what", *trees]
    lines = [
        "# Colony kernels: compile time and walk speed" + (" before and after" if args.before else ""),
        "",
        *machine_lines(),
        f"Load average at the end: {load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f} (start {load0[0]:.2f}).",
        "Command: python benchmarks/bench_colony_kernels.py" + (f" --before {args.before}" if args.before else ""),
        "",
        "| " + " | ".join(head) + " |",
        "|" + "|".join("---" for _ in head) + "|",
        *("| " + " | ".join(r) + " |" for r in rows),
        "",
    ]
    text = "\n".join(lines)
    print(text)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
