"""``prove`` on structured holed boards, beside ``solve`` (auto) on the same questions.

Families (each question open and closed unless it fixes both ends):

* long ``3 x n`` strips with one square removed (a corner, the middle of an
  edge row, the middle of the centre row), n = 1001, 3001;
* ring boards: a rectangle with its middle removed, leaving a frame of
  width 1 to 6, from 7x7 to 1000x1000;
* open tours with both ends fixed on full ``n x n`` boards up to 1000.

Each question is asked of ``solve(board, seed=1)`` and of
``prove(board, seed=1, time_limit=60)``.  Targets (issue 11): ``prove``
never answers ``unknown`` where ``solve`` finds a tour, and each answer
comes in under 2 s.  Times are warm (every kernel was compiled before the
first timed question) and the median of ``--repeat`` runs.

Run:  python benchmarks/bench_prove_structured.py [--quick] [--repeat 3]
Writes benchmarks/results/prove_structured.md.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _machine import machine_lines, markdown_table, write_result  # noqa: E402

from ktsolve import Board, prove, solve  # noqa: E402


def ring(rows: int, cols: int, width: int) -> Board:
    """The frame of ``width`` squares around a ``rows x cols`` rectangle."""
    holes = [(r, c) for r in range(width, rows - width) for c in range(width, cols - width)]
    return Board(rows, cols, holes)


def cases(quick: bool):
    strips = (1001,) if quick else (1001, 3001)
    for n in strips:
        for label, hole in (("corner", (0, 0)), ("edge middle", (0, n // 2)), ("centre", (1, n // 2))):
            for closed in (False, True):
                yield "3 x n minus one", f"3x{n} minus {label}", Board(3, n, [hole]), dict(closed=closed)
    sizes = ((7, 7), (8, 8), (10, 10), (20, 20), (101, 99), (200, 200)) if quick else (
        (7, 7), (8, 8), (10, 10), (20, 20), (101, 99), (200, 200), (500, 500), (1000, 1000))
    for rows, cols in sizes:
        for width in range(1, 7):
            if 2 * width >= min(rows, cols):
                continue
            board = ring(rows, cols, width)
            for closed in (False, True):
                yield "rings", f"ring {rows}x{cols} width {width}", board, dict(closed=closed)
    for n in ((8, 20, 101) if quick else (8, 20, 101, 500, 1000)):
        # a1 to the top-right corner (odd n: same colour, both on the majority colour)
        # or to the square left of it (even n: opposite colours)
        end = (0, n - 1) if n % 2 else (0, n - 2)
        yield "fixed ends", f"{n}x{n} a1 to {Board(n, n).name(*end)}", Board(n, n), dict(start=(n - 1, 0), end=end)


def timed(func, board, kw, repeat):
    times, res = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        res = func(board, seed=1, **kw)
        times.append(time.perf_counter() - t0)
    return res, statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller boards only")
    ap.add_argument("--repeat", type=int, default=3, help="runs per question (median)")
    args = ap.parse_args()
    # compile every kernel the questions use before timing anything
    for _, _, board, kw in cases(True):
        solve(board, seed=1, **kw)
        prove(board, seed=1, time_limit=60, **kw)
        break
    prove(ring(20, 20, 3), closed=True, seed=1)
    prove("30x30", start="a1", end="a29", seed=1)
    rows = []
    misses = slow = 0
    worst = 0.0
    for family, name, board, kw in cases(args.quick):
        s, ts = timed(solve, board, kw, args.repeat)
        p, tp = timed(lambda b, **k: prove(b, time_limit=60, **k), board, kw, args.repeat)
        what = "closed" if kw.get("closed") else "open"
        if "start" in kw:
            what = "open, both ends"
        missed = s.found and not p.found
        misses += missed
        slow += tp > 2.0
        worst = max(worst, tp)
        rows.append([family, name, what, board.n_squares, s.status.value, f"{ts:.3f}", p.status.value,
                     f"{tp:.3f}", p.stats.get("settled_by", ""), "MISS" if missed else ""])
        print(" | ".join(str(c) for c in rows[-1]), flush=True)
    head = ["family", "board", "question", "squares", "solve", "solve s", "prove", "prove s", "settled by", ""]
    lines = [
        "# prove on structured holed boards",
        "",
        *machine_lines(),
        "",
        f"Command: `python benchmarks/bench_prove_structured.py{' --quick' if args.quick else ''} "
        f"--repeat {args.repeat}` (median of {args.repeat} warm runs per question; prove with a 60 s limit).",
        "",
        f"Questions: {len(rows)}. prove unknown where solve found a tour: {misses}. "
        f"prove answers over 2 s: {slow}. Slowest prove answer: {worst:.3f} s.",
        "",
        markdown_table(head, rows),
    ]
    text = "\n".join(lines) + "\n"
    write_result("prove_structured", text)
    print(text)


if __name__ == "__main__":
    main()
