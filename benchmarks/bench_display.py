"""Notebook pictures: time and size of ``_repr_svg_`` / ``_repr_html_`` from 8x8 to 10^7 squares.

For each board a tour is built first (Warnsdorff's rule up to 100x100,
divide and conquer above, not timed), then the notebook's calls are timed:
``Board._repr_svg_``, ``Tour._repr_svg_`` and ``SolveResult._repr_html_``
(median of ``--repeat`` runs), with the size of what the notebook receives.
Up to 100x100 the pictures are drawn square by square (numbers up to
32x32), above as a heat map of blocks whose size does not depend on the
board.

Run:  python benchmarks/bench_display.py [--repeat 5]
Writes benchmarks/results/display.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _machine import fmt_s, machine_lines, markdown_table, median_time, write_result  # noqa: E402

from ktsolve import Board, solve  # noqa: E402

SIZES = [(8, 8), (30, 30), (100, 100), (1000, 1000), (3162, 3162)]


def kb(n: int) -> str:
    return f"{n / 1024:.1f} KB"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    rows = []
    for r, c in SIZES:
        board = Board(r, c)
        method = "warnsdorff" if board.size <= 10_000 else "divide"
        res = solve(board, method=method, seed=1)
        assert res.found
        tb, sb = median_time(board._repr_svg_, args.repeat)
        tt, st = median_time(res.tour._repr_svg_, args.repeat)
        th, sh = median_time(res._repr_html_, args.repeat)
        kind = "numbered squares" if board.size <= 1024 else "squares" if board.size <= 10_000 else "heat map"
        rows.append([f"{r}x{c}", f"{board.size:,}", kind, fmt_s(tb), kb(len(sb)), fmt_s(tt), kb(len(st)), fmt_s(th),
                     kb(len(sh))])
        print(rows[-1], flush=True)
    lines = ["# Notebook pictures: time and size", "", *machine_lines(), "",
             f"Median of {args.repeat} calls each; sizes are the characters the notebook receives.  Tours from "
             "warnsdorff (up to 100x100) or divide (above), built before timing.", "",
             markdown_table(["board", "squares", "picture", "Board svg", "size", "Tour svg", "size",
                             "SolveResult html", "size"], rows),
             "", "Command: `python benchmarks/bench_display.py`", ""]
    path = write_result("display", "\n".join(lines))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
