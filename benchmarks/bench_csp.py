"""Where the python-constraint models stop being usable: tours, and the Prolog paper's longest paths.

For each board and question, both solvers (Warnsdorff value order, and
python-constraint's own BacktrackingSolver with forward checking) run once
with a time limit (default 10 s; the search is deterministic, so one run
is the figure).  A cell shows the answer and seconds, or "unknown" when the
limit ran out.

The third table is the Prolog paper's question, the longest knight's path
from a square: ``ktsolve.longest(..., method="csp")`` (backtracking with
growing length) beside the default CP-SAT model, on full and holed boards
up to 64 squares and on random holed boards; it counts the boards each
finishes (optimum proven) and checks that their optima agree.

Run: ``python benchmarks/bench_csp.py [--time-limit S] [--holed N] [--longest-only]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _exact_common import median, table, timed, write  # noqa: E402

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


LONGEST = [
    ("3x3", "a1"), ("3x4", "a1"), ("4x4", "a1"), ("4x4 minus b3", "a1"), ("3x5", "b1"), ("4x5", "a1"),
    ("5x5", "a1"), ("5x5", "b1"), ("5x5 minus c3", "a1"), ("4x6 minus b2,e3", "a1"), ("3x8", "a1"),
    ("6x6", "a1"), ("6x6 minus c3,d4", "a1"), ("7x7", "a1"), ("8x8", "a1"), ("8x8 minus d4,e5", "a1"),
]


def longest_board(label):
    if " minus " in label:
        size, holes = label.split(" minus ")
        return Board.from_spec(size, holes)
    return Board.from_spec(label)


def bench_longest(time_limit: float, holed: int) -> tuple[str, str]:
    """The longest-path table and its summary line."""
    import numpy as np

    from ktsolve import longest

    cases = [(label, longest_board(label), start) for label, start in LONGEST]
    rng = np.random.default_rng(7)
    while len(cases) < len(LONGEST) + holed:
        side = int(rng.integers(4, 7))
        k = int(rng.integers(1, side + 1))
        flat = rng.choice(side * side, size=k, replace=False)
        b = Board(side, side, [(int(f) // side, int(f) % side) for f in flat])
        start = b.name(*b.coords_of([int(rng.integers(b.n_squares))])[0])
        cases.append((f"{side}x{side} minus {k} (random)", b, start))
    rows = []
    finished = {"cpsat": 0, "csp": 0}
    agree = both = 0
    times = {"cpsat": [], "csp": []}
    for label, b, start in cases:
        row = [label, b.n_squares, start]
        out = {}
        for method in ("cpsat", "csp"):
            res, secs = timed(longest, b, start=start, time_limit=time_limit, method=method, seed=0)
            st = res.stats
            out[method] = st
            finished[method] += bool(st["optimal"])
            if st["optimal"]:
                times[method].append(secs)
            row.append(f"{st['length']} {'optimal' if st['optimal'] else 'unknown'} {secs:.3g} s")
        if out["cpsat"]["optimal"] and out["csp"]["optimal"]:
            both += 1
            agree += out["cpsat"]["length"] == out["csp"]["length"]
        row.append(len(out["csp"]["lengths"]))
        rows.append(row)
        print(" | ".join(map(str, row)), flush=True)
    body = table(["board", "squares", "start", "CP-SAT", "csp (declarative)", "lengths searched"], rows)
    summary = (f"Boards finished within {time_limit:g} s: CP-SAT {finished['cpsat']}/{len(cases)}, csp "
               f"{finished['csp']}/{len(cases)}; where both finished the optima agree on {agree} of {both}. "
               f"Median seconds of the finished runs: CP-SAT {median(times['cpsat']):.3g}, csp "
               f"{median(times['csp']):.3g}.")
    return body, summary


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time-limit", type=float, default=10.0)
    ap.add_argument("--holed", type=int, default=10, help="random holed boards per size")
    ap.add_argument("--longest-only", action="store_true", help="only the longest-path table")
    args = ap.parse_args(argv)
    lbody, lsummary = bench_longest(args.time_limit, args.holed)
    lbody = ("\n\nThe Prolog paper's question, the longest path from a square: `longest(..., method='csp')` "
             "(backtracking with growing length) beside `longest(...)` (CP-SAT, one worker); each cell the "
             "length, whether it is proven optimal, and the wall seconds of one run.\n\n" + lbody + "\n\n"
             + lsummary + "\n")
    if args.longest_only:
        print(write("csp_longest", "python-constraint model: the longest path from a square", lbody,
                    f"Time limit {args.time_limit:g} s per run."))
        return
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
    body += lbody
    note = (f"Each cell: the answer and wall seconds of one run (deterministic search), time limit "
            f"{args.time_limit:g} s ({args.time_limit / 5:g} s for the holed boards), presolve proofs off in "
            "the first table (the search itself must answer).")
    print(write("csp", "python-constraint model: where it stops being usable", body, note))


if __name__ == "__main__":
    main()
