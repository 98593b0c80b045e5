"""The racing ``prove`` against the fastest of its steps run alone (issue 19's promise).

Boards from ``frontier_boards.dense_holes``, asked closed and open from a
fixed start.  Each board is settled by ``prove(board, time_limit=T)`` and by
each step alone, ``solve(board, method=M, time_limit=T)`` for M in
``cpsat``, ``warnsdorff`` and ``backtrack`` (each after the presolve proofs,
which are steps of the plan too).  Reported: the questions a step alone
settles and ``prove`` leaves ``unknown`` (target 0), disagreements (target
0), and the worst ratio (prove - 0.3 s) / fastest step alone (target: at
most 1.5).

Run:  python benchmarks/bench_race.py [--sizes 12,16,20] [--shares 0.2,0.3] [--boards 2] [--time-limit 5]
Writes benchmarks/results/race.md (``--out NAME`` to change the name).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _machine import machine_lines, markdown_table, write_result  # noqa: E402
from frontier_boards import dense_holes  # noqa: E402

from ktsolve import Board, prove, solve  # noqa: E402

STEPS = ("cpsat", "warnsdorff", "backtrack")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="12,16,20")
    ap.add_argument("--shares", default="0.2,0.3")
    ap.add_argument("--boards", type=int, default=2)
    ap.add_argument("--time-limit", type=float, default=5.0)
    ap.add_argument("--out", default="race")
    args = ap.parse_args()
    for m in STEPS:  # compile the kernels before timing
        solve(Board(6, 6), method=m, closed=True, time_limit=10, seed=1)
    prove(Board(6, 6), closed=True, time_limit=10)
    detail, missed, disagree, worst = [], 0, 0, 0.0
    for n in [int(x) for x in args.sizes.split(",") if x]:
        for share in [float(x) for x in args.shares.split(",") if x]:
            for seed in range(args.boards):
                holes = dense_holes(n, share, seed)
                board = Board(n, n, holes)
                for closed in (True, False):
                    start = None if closed else next(
                        (r, c) for r in range(n) for c in range(n) if (r, c) not in set(holes))
                    t0 = time.perf_counter()
                    res = prove(board, closed=closed, start=start, time_limit=args.time_limit, seed=1)
                    tp = time.perf_counter() - t0
                    alone = {}
                    for m in STEPS:
                        t0 = time.perf_counter()
                        r = solve(board, method=m, closed=closed, start=start, time_limit=args.time_limit, seed=1)
                        alone[m] = (r.status.value, time.perf_counter() - t0)
                    settled = {m: t for m, (s, t) in alone.items() if s != "unknown"}
                    best = min(settled, key=settled.get) if settled else "-"
                    mine = res.status.value
                    missed += mine == "unknown" and bool(settled)
                    disagree += any(s != "unknown" and mine != "unknown" and s != mine for s, _ in alone.values())
                    if settled:
                        worst = max(worst, (tp - 0.3) / max(settled[best], 1e-3))
                    detail.append([n, share, "closed" if closed else "open", seed, mine, f"{tp:.2f}",
                                   res.stats.get("settled_by", "-"), best,
                                   f"{settled[best]:.2f}" if settled else "-",
                                   " ".join(f"{m}={s[0][:3]}/{s[1]:.2f}" for m, s in alone.items())])
                    print(*detail[-1], sep="\t", flush=True)
    summary = (f"Questions: {len(detail)}; settled by a step alone but unknown in prove: {missed}; "
               f"disagreements: {disagree}; worst (prove - 0.3 s) / fastest step alone: {worst:.2f}")
    text = "\n".join([
        "# The racing prove against its fastest step alone", "", *machine_lines(), "",
        f"Command: `python benchmarks/bench_race.py --sizes {args.sizes} --shares {args.shares} "
        f"--boards {args.boards} --time-limit {args.time_limit:g}`", "", summary, "",
        markdown_table(["n", "holes", "question", "seed", "prove", "s", "settled by", "fastest alone", "s",
                        "each step alone (status/s)"], detail),
    ])
    write_result(args.out, text)
    print(summary)


if __name__ == "__main__":
    main()
