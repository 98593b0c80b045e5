"""Where the race pays: ``prove`` racing its plan against the same plan in turn, on dense 60x60 and 100x100 boards.

The race builds a second model (lane B's circuit model, beside lane A's
proofs and its second engine) and shares the interpreter between two
threads; this measures whether that costs more than it saves on the boards
above the old limit of 2,500 squares, which :data:`ktsolve.race.RACE_MAX`
now admits.  Boards from ``frontier_boards.dense_holes``; each question is
asked with ``prove(..., race=True)`` and ``prove(..., race=False)``, same
seed and limit, one after the other in one process (the order turns by one
from question to question).

Run:  python benchmarks/bench_race_max.py [--sizes 60,100] [--shares 0.2,0.25] [--boards 1] [--time-limit 30]
Writes benchmarks/results/race_max.md (``--out NAME`` to change the name).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _machine import machine_lines, markdown_table, write_result  # noqa: E402
from frontier_boards import dense_holes  # noqa: E402

from ktsolve import Board, prove  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="60,100")
    ap.add_argument("--shares", default="0.2,0.25")
    ap.add_argument("--boards", type=int, default=1, help="boards per cell (seeds 0..N-1)")
    ap.add_argument("--time-limit", type=float, default=30.0)
    ap.add_argument("--out", default="race_max", help="result file name under benchmarks/results/")
    args = ap.parse_args()
    from ktsolve.proofs import warm

    warm()  # load the proofs' kernels from numba's cache before timing (the first board would pay for it)
    prove(Board(6, 6), closed=True, time_limit=10)
    rows = []
    turn = 0
    for n in [int(x) for x in args.sizes.split(",") if x]:
        for share in [float(x) for x in args.shares.split(",") if x]:
            for seed in range(args.boards):
                holes = dense_holes(n, share, seed)
                board = Board(n, n, holes)
                for closed in (True, False):
                    start = None if closed else next(
                        (r, c) for r in range(n) for c in range(n) if (r, c) not in set(holes))
                    got = {}
                    for race in ((True, False) if turn % 2 == 0 else (False, True)):
                        t0 = time.perf_counter()
                        res = prove(board, closed=closed, start=start, time_limit=args.time_limit, seed=1, race=race)
                        got[race] = (res.status.value, time.perf_counter() - t0, res.stats.get("settled_by", "-"))
                    turn += 1
                    rows.append([n, share, "closed" if closed else "open, fixed start", seed, board.n_squares,
                                 *(f"{got[r][0]} {got[r][1]:.2f} s" for r in (True, False)),
                                 got[True][2], got[False][2]])
                    print(*rows[-1], sep="\t", flush=True)
    head = ["n", "holes", "question", "seed", "squares", "race", "in turn", "race settled by", "in turn settled by"]
    text = "\n".join([
        "# prove racing its plan against the plan in turn, above the old race limit", "",
        *machine_lines(("python-sat",)), "",
        f"Command: `python benchmarks/bench_race_max.py --sizes {args.sizes} --shares {args.shares} "
        f"--boards {args.boards} --time-limit {args.time_limit:g}`", "",
        markdown_table(head, rows),
    ])
    write_result(args.out, text)
    print(markdown_table(head, rows))


if __name__ == "__main__":
    main()
