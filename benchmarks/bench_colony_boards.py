"""The colonies on the papers' holed boards and on large holed boards, beside plain Posa rotations.

Usage::

    python benchmarks/bench_colony_boards.py            # about 15-30 minutes
    python benchmarks/bench_colony_boards.py --quick    # a few minutes (no 200x200)

Two tables, written to benchmarks/results/colony_boards.md:

1. 13x13 and 15x15 with the centre removed (Jiang, Bai & Dong's boards),
   open and closed tours from a1: ``aco`` and ``iaco`` with their defaults,
   and ``iaco`` with ``degree="free"``; seconds to the first tour (limit 60 s),
   seeds 1 to 3, the first call's compile excluded (a warm-up runs first).
2. 40x40 with 10 holes and 200x200 with 1 % holes (colour-balanced, from
   :func:`ktsolve.random_holed_board`, seed 1), closed from a1:
   ``seed_with="exact"`` and ``local_search="rotation"`` alone and together,
   beside the ``rotation`` method; what the ants add is the difference
   between a colony with local search and the repair of its first walk.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from _machine import machine_lines  # noqa: E402


def table(head, rows) -> list[str]:
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    return out + ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]


def attempt(board, method, closed, seed, limit, **kw):
    from ktsolve import solve

    t0 = time.perf_counter()
    res = solve(board, method, start="a1", closed=closed, seed=seed, time_limit=limit, **kw)
    return res, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    load0 = os.getloadavg()
    from ktsolve import Board, random_holed_board, solve

    for m in ("aco", "iaco", "rotation"):  # compile before timing
        solve("8x8", m, start="a1", seed=1, time_limit=5, **({"local_search": "rotation"} if m != "rotation" else {}))
    limit = 20.0 if args.quick else 60.0
    seeds = (1,) if args.quick else (1, 2, 3)
    rows = []
    for size in (13, 15):
        board = Board(size, size, holes=[(size // 2, size // 2)])
        for closed in (False, True):
            for label, method, kw in (("aco", "aco", {}), ("iaco", "iaco", {}),
                                      ("iaco degree=free", "iaco", {"degree": "free"})):
                cells = []
                for seed in seeds:
                    res, secs = attempt(board, method, closed, seed, limit, **kw)
                    cells.append(f"{secs:.1f} s" if res.found else f"none in {secs:.0f} s")
                rows.append([f"{size}x{size} - centre", "closed" if closed else "open", label, ", ".join(cells)])
                print(rows[-1], flush=True)
    big = [(40, 10, 60.0)] + ([] if args.quick else [(200, 0.01, 600.0)])
    rows2 = []
    for side, holes, lim in big:
        board = random_holed_board(side, side, holes, closed=True, seed=1)
        if (side - 1, 0) in board.holes:
            board = Board(side, side, holes=[h for h in board.holes if h != (side - 1, 0)])
        label = f"{side}x{side}, {board.n_holes} holes"
        configs = [("rotation", "rotation", {})]
        for m in ("aco", "iaco"):
            configs += [(f"{m} seed_with=exact local_search=rotation", m,
                         {"seed_with": "exact", "local_search": "rotation"}),
                        (f"{m} local_search=rotation", m, {"local_search": "rotation"}),
                        (f"{m} seed_with=exact", m, {"seed_with": "exact"})]
        for name, method, kw in configs:
            res, secs = attempt(board, method, True, 1, lim, **kw)
            st = res.stats
            how = ""
            if "repaired_walks" in st:
                how = (f"cycles {st['cycles']}, repaired walks {st['repaired_walks']}, found by repair "
                       f"{st['found_by_repair']}, longest repaired {st['repaired_longest']:,} of {board.n_squares:,}")
            elif "walks" in st:
                how = f"cycles {st['cycles']}, walks {st['walks']:,}, mean walk {st['mean_walk_moves']:.0f} moves"
            rows2.append([label, name, res.status.value, f"{secs:.1f}", how])
            print(rows2[-1], flush=True)
    load1 = os.getloadavg()
    lines = [
        "# The colonies on holed boards",
        "",
        *machine_lines(),
        f"Load average at the end: {load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f} (start {load0[0]:.2f}).",
        f"Command: python benchmarks/bench_colony_boards.py{' --quick' if args.quick else ''}",
        "",
        f"## Jiang, Bai & Dong's boards, from a1, defaults (limit {limit:g} s; seeds {', '.join(map(str, seeds))})",
        "",
        *table(["board", "tour", "method", "seconds to the first tour"], rows),
        "",
        "## Large holed boards, closed from a1: seeding and local search beside plain Posa rotations",
        "",
        *table(["board", "method", "answer", "s", "how"], rows2),
        "",
    ]
    text = "\n".join(lines)
    print(text)
    (HERE / "results" / "colony_boards.md").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
