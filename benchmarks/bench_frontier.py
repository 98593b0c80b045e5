"""``prove`` against a plain CP-SAT model on dense holed boards (issue 19's frontier).

Boards from ``frontier_boards.dense_holes`` (every square keeps two moves,
20-35 % holes, colours balanced), ``--boards`` per cell, each asked closed
and open from a fixed start (the first free square in reading order).  ``prove(board, time_limit=T)`` and the plain
``add_circuit`` model with two workers run in the same process, one after the
other, with the same limit.  Reported per cell: answers settled by each,
disagreements (target 0), the worst ratio of prove's time to the plain
model's (target: at most 1.5 x + 0.3 s wherever the plain model settles),
and the steps that settled prove's answers.

Run:  python benchmarks/bench_frontier.py [--sizes 12,16,20] [--shares 0.2,0.3] [--boards 5] [--time-limit 60]
Writes benchmarks/results/frontier.md (``--out NAME`` to change the name).
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _machine import machine_lines, markdown_table, write_result  # noqa: E402
from frontier_boards import dense_holes, plain_cpsat  # noqa: E402

from ktsolve import Board, prove  # noqa: E402


def _floats(text: str) -> list[float]:
    return [float(x) for x in text.split(",") if x]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="12,16,20,40,60,100")
    ap.add_argument("--shares", default="0.2,0.25,0.3,0.35")
    ap.add_argument("--boards", type=int, default=5, help="boards per cell (seeds 0..N-1)")
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--out", default="frontier", help="result file name under benchmarks/results/")
    args = ap.parse_args()
    sizes = [int(x) for x in args.sizes.split(",") if x]
    prove(Board(6, 6), closed=True, time_limit=10)  # compile the kernels before timing
    rows, detail = [], []
    for n in sizes:
        for share in _floats(args.shares):
            for mode in ("closed", "open from a fixed start"):
                cell = collections.Counter()
                worst = 0.0
                for seed in range(args.boards):
                    closed = mode == "closed"
                    holes = dense_holes(n, share, seed)  # one board for both questions
                    board = Board(n, n, holes)
                    start = None if closed else next(
                        (r, c) for r in range(n) for c in range(n) if (r, c) not in set(holes))
                    t0 = time.perf_counter()
                    res = prove(board, closed=closed, start=start, time_limit=args.time_limit, seed=1)
                    tp = time.perf_counter() - t0
                    plain, tc = plain_cpsat(n, holes, closed=closed, start=start, time_limit=args.time_limit)
                    mine = res.status.value
                    cell["prove settled"] += mine != "unknown"
                    cell["plain settled"] += plain != "unknown"
                    cell["disagreements"] += mine != "unknown" and plain != "unknown" and mine != plain
                    if plain != "unknown":
                        worst = max(worst, (tp - 0.3) / max(tc, 1e-3))
                    won = res.stats.get("settled_by", "-")
                    cell[f"won by {won}"] += 1
                    detail.append([n, share, mode, seed, len(holes), mine, f"{tp:.2f}", plain, f"{tc:.2f}", won])
                    print(*detail[-1], sep="\t", flush=True)
                rows.append([n, share, mode, args.boards, cell["prove settled"], cell["plain settled"],
                             cell["disagreements"], f"{worst:.2f}",
                             ", ".join(f"{k[7:]} {v}" for k, v in sorted(cell.items()) if k.startswith("won by "))])
    head = ["n", "holes", "question", "boards", "prove settled", "plain settled", "disagreements",
            "worst (prove - 0.3 s) / plain", "prove settled by"]
    text = "\n".join([
        "# prove against plain CP-SAT on dense holed boards", "",
        *machine_lines(), "",
        f"Command: `python benchmarks/bench_frontier.py --sizes {args.sizes} --shares {args.shares} "
        f"--boards {args.boards} --time-limit {args.time_limit:g}`", "",
        markdown_table(head, rows), "",
        "## Every board", "",
        markdown_table(["n", "holes", "question", "seed", "holes placed", "prove", "s", "plain", "s", "settled by"], detail),
    ])
    write_result(args.out, text)
    print(markdown_table(head, rows))


if __name__ == "__main__":
    main()
