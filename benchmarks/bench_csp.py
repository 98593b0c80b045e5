"""Where the python-constraint model stops being usable.

For each board and question, both solvers (Warnsdorff value order, and
python-constraint's own BacktrackingSolver with forward checking) run once
with a time limit (default 10 s; the search is deterministic, so one run
is the figure).  A cell shows the answer and seconds, or "unknown" when the
limit ran out.  Run: ``python benchmarks/bench_csp.py [--time-limit S]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _exact_common import table, timed, write  # noqa: E402

from ktsolve import Board, solve  # noqa: E402

CASES = [
    ("3x4", dict(start="a1")),
    ("4x4", dict()),
    ("3x3 minus b2", dict(closed=True)),
    ("4x5", dict(start="a1")),
    ("5x5", dict(start="a1")),
    ("5x5", dict(start="c3")),
    ("5x5", dict(start="b1")),
    ("3x10", dict(closed=True)),
    ("5x6", dict(start="a1")),
    ("5x6", dict(closed=True)),
    ("6x6", dict(start="a1")),
    ("6x6", dict(closed=True)),
    ("7x7", dict(start="a1")),
    ("8x8", dict(start="a1")),
    ("8x8", dict(closed=True)),
]


def board_of(label):
    if label == "3x3 minus b2":
        return Board(3, 3, holes=[(1, 1)])
    return Board.from_spec(label)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time-limit", type=float, default=10.0)
    ap.add_argument("--holed", type=int, default=10, help="random holed boards per size")
    args = ap.parse_args(argv)
    rows = []
    for label, kw in CASES:
        b = board_of(label)
        what = ("closed" if kw.get("closed") else "open") + (f" from {kw['start']}" if "start" in kw else "")
        row = [label, b.n_squares, what]
        for variant in ("warnsdorff", "plain"):
            res, secs = timed(solve, b, method="csp", variant=variant, time_limit=args.time_limit,
                              presolve_proofs=False, **kw)
            row.append(f"{res.status.value} {secs:.3g} s")
        rows.append(row)
        print(" | ".join(map(str, row)), flush=True)
    body = table(["board", "squares", "question", "csp warnsdorff", "csp plain"], rows)
    # Random holed boards: the share each variant answers (found or proved) within the limit.
    import numpy as np

    rng = np.random.default_rng(2024)
    hrows = []
    for side in (4, 5, 6, 7, 8):
        boards = []
        while len(boards) < args.holed:
            k = int(rng.integers(1, side + 1))
            flat = rng.choice(side * side, size=k, replace=False)
            b = Board(side, side, [(int(f) // side, int(f) % side) for f in flat])
            boards.append((b, bool(rng.integers(2))))
        row = [f"{side}x{side} minus 1..{side}", len(boards)]
        for variant in ("warnsdorff", "plain"):
            answered, secs = 0, []
            for b, closed in boards:
                res, t = timed(solve, b, method="csp", variant=variant, closed=closed,
                               time_limit=args.time_limit / 5, presolve_proofs=True)
                answered += res.status.value != "unknown"
                secs.append(t)
            row.append(f"{answered}/{len(boards)} (median {sorted(secs)[len(secs) // 2]:.3g} s)")
        hrows.append(row)
        print(" | ".join(map(str, row)), flush=True)
    body += "\n\nRandom holed boards (open or closed, free start; presolve proofs on, so boards they refute count as answered):\n\n"
    body += table(["boards", "count", "answered, warnsdorff", "answered, plain"], hrows)
    note = (f"Each cell: the answer and wall seconds of one run (deterministic search), time limit "
            f"{args.time_limit:g} s ({args.time_limit / 5:g} s for the holed boards), presolve proofs off in "
            "the first table (the search itself must answer).")
    print(write("csp", "python-constraint model: where it stops being usable", body, note))


if __name__ == "__main__":
    main()
