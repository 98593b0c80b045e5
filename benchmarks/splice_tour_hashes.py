"""What splice answers, as hashes: one line per question, to compare two versions of the code.

Runs ``solve_splice`` through its public entry on random holed boards of
several sizes and hole shares, every kind of question (closed, open, a
fixed start, a fixed end, both), and the three window solvers, and prints
for each the status, the sha1 of the tour array (int32 square numbers),
and the sha1 of the stats without their seconds.  Two versions of splice
that print the same lines give the same answers (the same tours, the same
repairs counted the same way).

A case whose colony window is ended by its time cap could depend on the
machine's speed; the boards here join their pieces before any window, or
in windows the colonies finish within their walks.

Run:  python benchmarks/splice_tour_hashes.py [-o FILE]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys

import numpy as np

# (rows, cols, hole share, board seed, closed board)
BOARDS = [
    (24, 30, 0.03, 1, True),
    (40, 40, 0.02, 1, True),
    (61, 50, 0.05, 2, False),
    (120, 121, 0.05, 3, False),
    (200, 200, 0.08, 4, True),
    (300, 300, 0.05, 3, True),
    (257, 300, 0.10, 5, False),
    (600, 600, 0.05, 6, True),
]


def _specs(board, closed):
    from ktsolve import TourSpec

    squares = [tuple(int(v) for v in rc)
               for rc in board.coords_of(np.linspace(0, board.n_squares - 1, 25).astype(int))]
    even, odd = board.colour_counts()
    if closed:
        s = squares[7]
        t = next(((s[0] + dr, s[1] + dc) for dr, dc in ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1))
                  if board.contains(s[0] + dr, s[1] + dc) and not board.is_hole(s[0] + dr, s[1] + dc)), None)
        out = [TourSpec(closed=True), TourSpec(closed=True, start=s), TourSpec(closed=True, end=s)]
        if t is not None:
            out.append(TourSpec(closed=True, start=s, end=t))
        out.append(TourSpec(closed=False))
        return out
    want = None if even == odd else (0 if even > odd else 1)
    ok = [sq for sq in squares if want is None or (sq[0] + sq[1]) % 2 == want]
    s = ok[1]
    t = next(sq for sq in reversed(ok) if want is not None or (sq[0] + sq[1]) % 2 != (s[0] + s[1]) % 2)
    return [TourSpec(closed=False), TourSpec(closed=False, start=s), TourSpec(closed=False, end=s),
            TourSpec(closed=False, start=s, end=t)]


def _stats_digest(stats: dict) -> str:
    def clean(v):
        if isinstance(v, dict):
            return {k: clean(x) for k, x in v.items() if k != "seconds"}
        return v

    return hashlib.sha1(json.dumps(clean(stats), sort_keys=True, default=str).encode()).hexdigest()[:12]


def main(argv=None) -> int:
    from ktsolve import KnightGraph
    from ktsolve.generate import random_holed_board
    from ktsolve.heuristics.splice import solve_splice

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", help="write the lines to this file too")
    args = ap.parse_args(argv)
    lines = []
    for rows, cols, share, bseed, closed in BOARDS:
        board = random_holed_board(rows, cols, share, closed=closed, seed=bseed)
        graph = KnightGraph(board)
        for spec in _specs(board, closed):
            methods = ["cpsat"] + (["aco", "iaco"] if rows * cols <= 90_000 and spec.start is None else [])
            for method in methods:
                res = solve_splice(graph, spec, window_method=method, seed=11)
                tour = "-" if res.tour is None else hashlib.sha1(
                    np.ascontiguousarray(res.tour.squares, dtype=np.int32).tobytes()).hexdigest()[:16]
                q = ("closed" if spec.closed else "open") + (f" s={spec.start}" if spec.start else "") + (
                    f" e={spec.end}" if spec.end else "")
                used = ",".join(k for k in ("reroute_rounds", "rotate_joined", "kicks", "repair_rounds", "windows_tried",
                                            "free_windows", "first_attempt") if res.stats.get(k))
                line = (f"{rows}x{cols} {share:.2f} s{bseed} | {q} | {method} | {res.status.value} | {tour} | "
                        f"{_stats_digest(res.stats)} | {used or '-'}")
                print(line, flush=True)
                lines.append(line)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
