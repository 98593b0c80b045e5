"""Holed boards, closed tours: splice and rotation beside LKH-3 (elkai) and graphillion, in one run (issue 18).

For n x n boards (30, 50, 100, 200; 1000 and 2000 for splice and rotation),
1% and 5% holes, three seeds of ``random_holed_board(n, n, share,
closed=True, seed=k)``:

* splice: ``solve(board, method="splice", closed=True)`` (validated by
  ``solve``), wall time in-process;
* rotation: ``solve(board, method="rotation", closed=True, seed=1,
  time_limit=--rotation-cap)``; on boards of 1000x1000 and more only the
  first seed (each run can take the whole cap);
* LKH-3 through elkai (``pip install elkai``, the ``bench`` extra), the
  route of benchmarks/bench_rotation.py: the knight graph as a TSPLIB HCP
  problem (knight's moves cost 0, every other pair 1, so a tour of cost 0
  is a Hamiltonian cycle), ``OPTIMUM = 0``, ``SUBGRADIENT = NO``, a time
  limit of --lkh-cap seconds, in a child process killed 30 s after the cap
  (its preprocessing ignores the limit); a tour counts only when it passes
  ``ktsolve.tour.validate`` (which checks every step is a knight's move).
  Boards above --lkh-max squares are not run, and the table says why;
* graphillion, when it imports: ``GraphSet.cycles(is_hamilton=True)`` over
  the knight graph's edges, in a child process killed after
  --graphillion-cap seconds, on the first seed of the --graphillion-sizes.

Run:

    python benchmarks/bench_huge_peers.py [--seeds 3] [--lkh-cap 30] [--rotation-cap 60]

Writes benchmarks/results/huge_peers.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _machine import machine_lines  # noqa: E402

SMALL = (30, 50, 100, 200)
BIG = (1000, 2000)
FRACS = (0.01, 0.05)
LKH_SETTING = "SUBGRADIENT = NO"


def fmt(x) -> str:
    return "-" if x is None else (f"{x * 1000:.0f} ms" if x < 1 else f"{x:.2f} s")


def table(head, rows) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def summary(results) -> str:
    """``found/runs, median s of the found`` and the other outcomes."""
    times = [w for s, w in results if s == "found"]
    others = sorted({s for s, w in results if s != "found"})
    text = f"{len(times)}/{len(results)}"
    if times:
        text += f", median {fmt(statistics.median(times))}"
    return text + (f" ({'; '.join(others)})" if others else "")


def graphillion_worker(n: int, frac: float, seed: int) -> None:
    """Child process: graphillion's Hamiltonian cycles of the knight graph; prints the outcome as JSON."""
    from graphillion import GraphSet

    from ktsolve import KnightGraph
    from ktsolve.generate import random_holed_board

    board = random_holed_board(n, n, frac, closed=True, seed=seed)
    edges = [tuple(int(v) for v in e) for e in KnightGraph(board).edges().tolist()]
    t = time.perf_counter()
    GraphSet.set_universe(edges, traversal="bfs")
    cycles = GraphSet.cycles(is_hamilton=True)
    count = len(cycles)
    print(json.dumps({"seconds": time.perf_counter() - t, "cycles": str(count)}))


def run_graphillion(n: int, frac: float, seed: int, cap: float) -> tuple[str, float | None]:
    t = time.perf_counter()
    try:
        proc = subprocess.run([sys.executable, __file__, "--graphillion-worker", json.dumps([n, frac, seed])],
                              capture_output=True, text=True, timeout=cap)
    except subprocess.TimeoutExpired:
        return f"killed after {cap:.0f} s", None
    if proc.returncode:
        last = (proc.stderr.strip().splitlines() or ["?"])[-1]
        return f"failed: {last[:80]}", None
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    return f"found ({got['cycles']} cycles)" if got["cycles"] != "0" else "no cycle", time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--lkh-cap", type=float, default=30.0)
    ap.add_argument("--lkh-max", type=int, default=200 * 200)
    ap.add_argument("--rotation-cap", type=float, default=60.0)
    ap.add_argument("--graphillion-cap", type=float, default=30.0)
    ap.add_argument("--graphillion-sizes", default="30")
    ap.add_argument("--graphillion-worker")
    args = ap.parse_args()
    if args.graphillion_worker:
        graphillion_worker(*json.loads(args.graphillion_worker))
        return
    from bench_rotation import run_lkh

    head = machine_lines(extra=("elkai", "graphillion"))  # the load average before the run

    from ktsolve import solve
    from ktsolve.generate import random_holed_board
    from ktsolve.heuristics import rotation, splice

    splice.warm()
    rotation.warm()
    try:
        import graphillion  # noqa: F401

        has_graphillion = True
    except ImportError:
        has_graphillion = False
    g_sizes = {int(s) for s in args.graphillion_sizes.split(",") if s}
    rows = []
    lkh_seen: dict[int, list] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in SMALL + BIG:
            for frac in FRACS:
                res = {"splice": [], "rotation": [], "lkh": [], "graphillion": []}
                squares = []
                for seed in range(1, args.seeds + 1):
                    board = random_holed_board(n, n, frac, closed=True, seed=seed)
                    squares.append(board.n_squares)
                    t = time.perf_counter()
                    r = solve(board, method="splice", closed=True)
                    res["splice"].append(("found" if r.found else r.status.value, time.perf_counter() - t))
                    if n < 1000 or seed == 1:
                        t = time.perf_counter()
                        r = solve(board, method="rotation", closed=True, seed=1, time_limit=args.rotation_cap)
                        res["rotation"].append(("found" if r.found else r.status.value, time.perf_counter() - t))
                    if board.n_squares <= args.lkh_max:
                        status, wall = run_lkh(board, True, args.lkh_cap, LKH_SETTING, Path(tmp))
                        res["lkh"].append((status, wall))
                    if has_graphillion and n in g_sizes and seed == 1:
                        res["graphillion"].append(run_graphillion(n, frac, seed, args.graphillion_cap))
                    del board, r
                    print(f"{n} {frac:.0%} seed {seed}: " + "; ".join(f"{k} {v[-1]}" for k, v in res.items() if v),
                          file=sys.stderr, flush=True)
                big = max(squares)
                if res["lkh"]:
                    lkh = summary(res["lkh"])
                    lkh_seen[(n, frac)] = res["lkh"]
                else:
                    # elkai's own API (solve_int_matrix, DistanceMatrix) takes a dense matrix: n^2 entries
                    at200 = lkh_seen.get((200, frac), [])
                    lkh = (f"not run: {big:,} squares; elkai's distance matrix would be {big:,}^2 x 4 bytes = "
                           f"{big * big * 4:.2e} bytes (int32); the sparse HCP route needs no matrix, but LKH-3 "
                           f"found {sum(s == 'found' for s, _ in at200)} of {len(at200)} tours at 200x200 "
                           f"{frac:.0%} within {args.lkh_cap:.0f} s")
                if has_graphillion:
                    gr = summary(res["graphillion"]) if res["graphillion"] else "not run (sizes above --graphillion-sizes)"
                else:
                    gr = "not installed (`pip install graphillion` failed here)"
                rows.append([f"{n}x{n}", f"{frac:.0%}", summary(res["splice"]), summary(res["rotation"]), lkh, gr])
    text = ["# Holed boards, closed tours: splice and rotation beside LKH-3 and graphillion", "",
            *[f"- {line}" for line in head],
            f"- command: `{' '.join(['python benchmarks/bench_huge_peers.py', *sys.argv[1:]])}`", "",
            f"Boards `random_holed_board(n, n, share, closed=True, seed=1..{args.seeds})`. Each cell: tours found / "
            "runs, the median wall time of the runs that found one, and the other outcomes. splice: "
            "`solve(board, method='splice', closed=True)`; rotation: `solve(board, method='rotation', closed=True, "
            f"seed=1, time_limit={args.rotation_cap:g})` (first seed only from 1000x1000); LKH-3: elkai's LKH-3 on "
            f"the knight graph as a TSPLIB HCP problem, `{LKH_SETTING}`, `TIME_LIMIT = {args.lkh_cap:g}`, killed "
            "30 s after it, wall time of the child process, a tour counted only when `ktsolve.tour.validate` "
            "accepts it; graphillion: `GraphSet.cycles(is_hamilton=True)` over the knight graph's edges, killed "
            f"after {args.graphillion_cap:g} s (first seed only; on the full 6x6 board it counts the 9,862 closed tours "
            "in about 9 s here).", "",
            table(["board", "holes", "splice", "rotation", "LKH-3 (elkai)", "graphillion"], rows), ""]
    (HERE / "results" / "huge_peers.md").write_text("\n".join(text))
    print("\n".join(text))


if __name__ == "__main__":
    main()
