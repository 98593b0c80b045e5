"""ktsolve.testing: ``assert_agrees`` on 1,000 random holed boards, with the oracle's cache cold and warm.

Boards: rows and columns uniform in 4..10, 0 to 4 holes; where both sides
are at least 5 the holes come from ``random_holed_board`` (every square
keeps two neighbours, colours balanced, connected: the cheap proofs say
nothing), else they are drawn uniformly.  Each board gets an open or a
closed question at random.  Everything follows from ``--seed``.

Two kinds of claims, made before the clock starts:

* ``None`` ("my method says no tour exists"): every board asks the oracle;
  claims that are wrong fail, as they should (counted);
* Warnsdorff's result (``solve(board, "warnsdorff", seed=1)``): a found
  tour is only validated; ``infeasible`` and ``unknown`` answers ask the
  oracle.

Cold: the in-memory cache emptied first (every question costs a call of
``prove``).  Warm: the same 1,000 calls again.  Disk: memory emptied, the
answers read from the SQLite cache a first cold run wrote (a new test
session).  Warm and disk times are medians of ``--repeat`` runs; the cold
time is the median of ``--cold`` runs.

Run:  python benchmarks/bench_testing.py [--boards 1000] [--seed 1]
Writes benchmarks/results/testing.md.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _machine import fmt_s, machine_lines, markdown_table, write_result  # noqa: E402

import numpy as np  # noqa: E402

from ktsolve import Board, random_holed_board, solve  # noqa: E402
from ktsolve.errors import InvalidBoardError  # noqa: E402
from ktsolve.testing import assert_agrees, cache_info, clear_cache, use_disk_cache  # noqa: E402


def questions(n: int, seed: int) -> list[tuple[Board, bool]]:
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        rows, cols = (int(v) for v in rng.integers(4, 11, 2))
        k = int(rng.integers(0, 5))
        closed = bool(rng.integers(2))
        if rows >= 5 and cols >= 5:
            try:
                board = random_holed_board(rows, cols, k, closed=closed, seed=int(rng.integers(2**32)))
            except InvalidBoardError:
                continue
        else:
            flat = rng.choice(rows * cols, size=k, replace=False)
            board = Board(rows, cols, [(int(f) // cols, int(f) % cols) for f in flat])
        out.append((board, closed))
    return out


def check_all(cases, claims) -> tuple[float, int]:
    """Seconds for every assert_agrees call, and how many failed."""
    failed = 0
    t0 = time.perf_counter()
    for (board, closed), claim in zip(cases, claims, strict=True):
        try:
            assert_agrees(board, claim, closed=closed)
        except AssertionError:
            failed += 1
    return time.perf_counter() - t0, failed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=5, help="runs of the warm and disk passes (median)")
    ap.add_argument("--cold", type=int, default=3, help="runs of the cold pass (median)")
    args = ap.parse_args()

    cases = questions(args.boards, args.seed)
    sizes = [b.size for b, _ in cases]
    holes = [b.n_holes for b, _ in cases]
    t0 = time.perf_counter()
    warnsdorff = [solve(b, "warnsdorff", closed=c, seed=1) for b, c in cases]
    claim_s = time.perf_counter() - t0
    kinds = {"None (no tour)": [None] * len(cases), "Warnsdorff's result": warnsdorff}

    rows = []
    for name, claims in kinds.items():
        cold, fails, proves = [], None, None
        for _ in range(args.cold):
            clear_cache()
            use_disk_cache(None)
            dt, fails = check_all(cases, claims)
            cold.append(dt)
            proves = cache_info()["misses"]
        warm = []
        for _ in range(args.repeat):
            dt, f = check_all(cases, claims)
            assert f == fails and cache_info()["misses"] == proves
            warm.append(dt)
        with tempfile.TemporaryDirectory() as tmp:
            use_disk_cache(Path(tmp) / "answers.sqlite")
            clear_cache()
            check_all(cases, claims)  # writes the file
            disk = []
            for _ in range(args.repeat):
                clear_cache()
                dt, f = check_all(cases, claims)
                assert f == fails
                disk.append(dt)
            use_disk_cache(None)
        rows.append([name, len(cases), proves, fails, fmt_s(statistics.median(cold)),
                     fmt_s(statistics.median(warm)), fmt_s(statistics.median(disk)),
                     f"{statistics.median(cold) / statistics.median(warm):.0f}x"])
        print(rows[-1], flush=True)

    found = sum(r.found for r in warnsdorff)
    lines = ["# ktsolve.testing: assert_agrees on 1,000 random holed boards", "", *machine_lines(), ""]
    lines += [
        f"Boards: {len(cases)} questions, rows and columns 4..10 (cells {min(sizes)}..{max(sizes)}, median "
        f"{int(statistics.median(sizes))}), 0..4 holes (mean {statistics.mean(holes):.2f}); "
        f"{sum(c for _, c in cases)} closed questions; seed {args.seed}.  Warnsdorff found {found} tours "
        f"(claims made in {fmt_s(claim_s)}, not timed below).",
        "",
        f"Cold: cache emptied, median of {args.cold} runs.  Warm: the same calls again, median of {args.repeat}.  "
        f"Disk: memory emptied, answers read from the SQLite file of a first run (a new session), median of "
        f"{args.repeat}.  prove calls: distinct questions the oracle answered in a cold run (prove's time "
        "limit 10 s, seed 0).  failed: claims assert_agrees rejected (a 'no tour' claim on a board with a tour; "
        "an 'unknown' where prove's Warnsdorff step found one).",
        "",
        markdown_table(["claims", "calls", "prove calls", "failed", "cold", "warm", "disk", "cold / warm"], rows),
        "",
        "Command: `python benchmarks/bench_testing.py`",
        "",
    ]
    path = write_result("testing", "\n".join(lines))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
