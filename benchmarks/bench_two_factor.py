"""The 2-factor machinery on huge holed boards and on the dense boards of issue 19.

Measures:

* huge boards (1000x1000, 4000x4000; 10000x10000 with --huge) with 1% of
  the cells removed at random, as many of each colour (masks drawn with
  numpy, not ``random_holed_board``): :func:`ktsolve.factor.two_factor` of
  the closed question from the cold start (``tiled``: the tiled 4x4
  2-factor and a greedy fill; ``restored``: the same tiles first restored
  by :mod:`ktsolve.factor.restore`'s short paths and walks, the default
  from ``RESTORE_MIN`` cells) and warm-started from a tour of the full board (``divide``) with the
  holes deleted (:func:`~ktsolve.factor.links_from_tour`).  Each case runs
  in a fresh process: median wall time of the timed calls after one untimed
  call that loads the kernels (the warm case also times building the full
  tour and its links), the searches and nodes they reached, and the peak
  resident memory of the process (``ru_maxrss``, Python, numpy and numba
  included);
* dense boards: 40x40 and 60x60 boards from which random squares are
  removed, one of each colour in turn (so the colours stay equal), as long as
  every square keeps at least two moves, until 20% to 35% of the cells are
  holes; for each, whether the quick proofs, the 2-factor proof and the
  matching proof refute a closed tour, and the 2-factor proof's time.

Run:  python benchmarks/bench_two_factor.py [--huge] [--runs 3] [--dense 40] [--sizes N ...] [--out NAME]
                                           [--modes tiled,restored,warm]
Writes benchmarks/results/two_factor.md (NAME.md); ``--sizes`` with no size runs the dense boards only,
``--dense 0`` the huge boards only.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _machine import fmt_s, machine_lines, markdown_table, write_result  # noqa: E402

SIZES = [1000, 4000]
HUGE = [10_000]


def holes_of(n: int, seed: int = 1):
    """1% of an n x n board's cells, half of each colour, as an (k, 2) int64 array."""
    import numpy as np

    rng = np.random.default_rng(seed)
    k = n * n // 100
    cells = rng.choice(n * n, size=int(k * 1.2), replace=False)
    colour = (cells // n + cells % n) & 1
    chosen = np.concatenate([cells[colour == 0][: k // 2], cells[colour == 1][: k // 2]])
    return np.stack(np.divmod(chosen, n), axis=1)


def child(n: int, mode: str, runs: int) -> dict:
    """One case in this process: ``mode`` is ``tiled``, ``restored`` or ``warm``; returns the figures as a dict."""
    from ktsolve import Board
    from ktsolve.factor import links_from_tour, two_factor, warm
    from ktsolve.factor.restore import warm as restore_warm

    t0 = time.perf_counter()
    board = Board(n, n, holes_of(n))
    out = {"n": n, "mode": mode, "board_s": time.perf_counter() - t0}
    out["compile_s"] = warm() + restore_warm()
    init = None
    if mode == "warm":
        from ktsolve import solve

        t0 = time.perf_counter()
        tour = solve(Board(n, n), method="divide", closed=True).tour.squares
        out["tour_s"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        init = links_from_tour(board, tour, closed=True, source=Board(n, n))
        out["links_s"] = time.perf_counter() - t0
        del tour
    times = []
    for k in range(runs + 1):
        t0 = time.perf_counter()
        tf = two_factor(board, init=init, restore=None if mode == "warm" else mode == "restored")
        if k:
            times.append(time.perf_counter() - t0)
        if runs == 0:
            times.append(time.perf_counter() - t0)
    out.update(status=tf.status, seconds=statistics.median(times), times=times, stats=tf.stats,
               peak_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    return out


def run_child(n: int, mode: str, runs: int) -> dict:
    res = subprocess.run([sys.executable, __file__, "--child", str(n), mode, str(runs)], capture_output=True,
                         text=True, check=True)
    return json.loads(res.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------------- dense boards
def dense_board(n: int, fraction: float, rng):
    """Random squares removed from an n x n board, colours in turn, while every square keeps two moves."""
    import numpy as np

    from ktsolve import Board
    from ktsolve.graph import KNIGHT_MOVES

    mask = np.ones((n, n), dtype=bool)
    deg = np.zeros((n, n), dtype=np.int64)
    for dr, dc in KNIGHT_MOVES.tolist():
        r0, r1 = max(0, -dr), min(n, n - dr)
        c0, c1 = max(0, -dc), min(n, n - dc)
        deg[r0:r1, c0:c1] += 1
    target = int(fraction * n * n)
    removed = 0
    colour = 0
    order = rng.permutation(n * n)
    tries = 0
    while removed < target and tries < 4:
        progress = False
        for f in order:
            if removed >= target:
                break
            r, c = divmod(int(f), n)
            if not mask[r, c] or (r + c) % 2 != colour:
                continue
            nbs = [(r + dr, c + dc) for dr, dc in KNIGHT_MOVES.tolist() if 0 <= r + dr < n and 0 <= c + dc < n]
            if any(mask[a, b] and deg[a, b] <= 2 for a, b in nbs):
                continue
            mask[r, c] = False
            for a, b in nbs:
                deg[a, b] -= 1
            removed += 1
            colour ^= 1
            progress = True
        tries += 1
        if not progress:
            break
    if removed % 2:  # keep the colours equal
        r, c = np.argwhere(~mask)[-1]
        mask[r, c] = True
        removed -= 1
    return Board(n, n, np.argwhere(~mask)), removed / (n * n)


def dense_rows(count: int) -> list:
    import numpy as np

    from ktsolve import TourSpec
    from ktsolve.graph import KnightGraph
    from ktsolve.proofs import matching_proof, quick_proof
    from ktsolve.proofs.two_factor import two_factor_proof

    spec = TourSpec(closed=True)
    rows = []
    for n in (40, 60):
        for fraction in (0.20, 0.25, 0.30, 0.35):
            rng = np.random.default_rng(int(1000 * fraction) + n)
            stats = {"boards": 0, "reached": [], "quick": 0, "factor": 0, "matching": 0, "times": []}
            for _ in range(count):
                board, got = dense_board(n, fraction, rng)
                graph = KnightGraph(board)
                stats["boards"] += 1
                stats["reached"].append(got)
                quick = quick_proof(graph, spec) is not None
                t0 = time.perf_counter()
                factor = two_factor_proof(graph, spec) is not None
                stats["times"].append(time.perf_counter() - t0)
                match = matching_proof(graph, spec, time_limit=30) is not None
                stats["quick"] += quick
                stats["factor"] += factor
                stats["matching"] += match
            rows.append([f"{n}x{n}", f"{fraction:.0%}", f"{statistics.mean(stats['reached']):.1%}",
                         stats["boards"], stats["quick"], stats["factor"], stats["matching"],
                         fmt_s(statistics.median(stats["times"])), fmt_s(max(stats["times"]))])
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--huge", action="store_true", help="also 10000x10000 (one timed run)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--dense", type=int, default=40, help="dense boards per size and fraction")
    parser.add_argument("--sizes", type=int, nargs="*", default=SIZES, help="sides of the huge boards")
    parser.add_argument("--out", default="two_factor", help="name of the result file in results/")
    parser.add_argument("--modes", default="tiled,restored,warm",
                        help="starts of the huge boards, comma-separated: tiled, restored, warm")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        n, mode, runs = args.child
        print(json.dumps(child(int(n), mode, int(runs))))
        return
    lines = ["# The 2-factor machinery", "", *machine_lines(), ""]
    lines += [
        "## Huge boards, 1% random holes (as many of each colour), closed question", "",
        "Fresh process per case. `two_factor` is the median of the timed calls (after one untimed call; "
        "one call at 10000x10000); searches and reached are those of one call; peak memory is the whole "
        "process (for warm starts, building the full board's tour with `divide` included). Tiled: the tiled "
        "4x4 2-factor and a greedy fill, then augmenting paths; restored: the tiles with the holes' links "
        "cut restored by short alternating paths and walks along a Hilbert curve (`ktsolve.factor.restore`, "
        "the default cold start from `RESTORE_MIN` cells), then the greedy fill and augmenting paths; warm: "
        "the full board's tour with the holes deleted, then augmenting paths.", "",
    ]
    rows = []
    sizes = list(args.sizes) + (HUGE if args.huge else [])
    for n in sizes:
        runs = args.runs if n < 10_000 else 0
        for mode in args.modes.split(","):
            r = run_child(n, mode, runs)
            st = r["stats"]
            extra = "" if mode != "warm" else f"tour {fmt_s(r['tour_s'])}, links {fmt_s(r['links_s'])}"
            restore = fmt_s(st["restore_s"]) if "restore_s" in st else "not run"
            rows.append([f"{n}x{n}", mode, r["status"], fmt_s(r["seconds"]), fmt_s(st.get("start_s")), restore,
                         fmt_s(st.get("augment_s")), f"{st['short_at_start']:,}", f"{st['searches']:,}",
                         f"{st['reached']:,}", f"{r['peak_mb']:.0f} MB",
                         f"{r['peak_mb'] * 2**20 / (n * n):.1f}", extra])
            print(rows[-1], flush=True)
    lines.append(markdown_table(["board", "start", "status", "two_factor", "start phase", "of it restore",
                                 "augmenting",
                                 "short at start", "searches", "nodes reached", "peak memory",
                                 "bytes/cell (peak)", "full tour"], rows))
    if args.dense:
        lines += ["", "## Dense boards (issue 19), closed question", "",
                  f"{args.dense} boards per size and target: random squares removed, colours in turn, while every "
                  "square keeps two moves (the share reached may fall short of the target); how many each proof "
                  "refutes (the matching proof with 30 s each), and the 2-factor proof's median and largest time "
                  "(plain Python up to 2,500 cells, numba kernels above).", ""]
        lines.append(markdown_table(["board", "target holes", "holes reached", "boards", "quick proofs",
                                     "2-factor proof", "matching proof", "2-factor median", "2-factor max"],
                                    dense_rows(args.dense)))
    cmd = "python benchmarks/bench_two_factor.py" + (" --huge" if args.huge else "") + \
        f" --runs {args.runs} --dense {args.dense}"
    if args.sizes != SIZES:
        cmd += " --sizes " + " ".join(str(n) for n in args.sizes)
    if args.out != "two_factor":
        cmd += f" --out {args.out}"
    if args.modes != "tiled,restored,warm":
        cmd += f" --modes {args.modes}"
    lines += ["", f"Command: `{cmd}`", ""]
    path = write_result(args.out, "\n".join(lines))
    print(path)


if __name__ == "__main__":
    main()
