"""How many dense holed boards each cut proof settles as infeasible, and how long it takes.

Boards from ``frontier_boards.dense_holes`` (every square keeps two moves,
colours balanced), ``--boards`` seeds per cell, each asked for a closed
tour and for an open tour with free ends (the same balanced boards: the
unbalanced boards drawn for open tours all fall to colour parity).  Every board first goes through
the quick proofs and the matching proof (``--matching-limit`` seconds);
then each cut proof of :mod:`ktsolve.proofs.cuts` runs on its own
(``--limit`` seconds each), whatever the others said.  Reported per cell:
the boards the quick and matching proofs settle, the boards each cut proof
settles (and, after the slash, those of them the quick and matching proofs
did not settle), the median and largest seconds of each cut proof, and
whether every witness passed its checker (target: all).

On boards of at most ``--truth-max`` squares a side, the plain CP-SAT model
(``frontier_boards.plain_cpsat``, ``--truth-limit`` seconds) says how many
boards have no tour at all, which is what the proofs could settle.

A second table does the same on ``--small`` random holed boards of 4x4 to
6x6 that the quick proofs leave open (numpy's PCG64, seed 2026; up to a
quarter of the squares are holes, boards with fewer than 8 squares
skipped), where exhaustive backtracking says which boards have no tour.

Run:  python benchmarks/bench_no_arguments.py [--sizes 12,16,20,40,60] [--shares 0.2,0.25,0.3,0.35]
      [--boards 5] [--limit 1.0] [--matching-limit 5.0] [--truth-max 12] [--truth-limit 10] [--small 500]
Writes benchmarks/results/no_arguments.md (``--out NAME`` to change the name).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _machine import fmt_s, machine_lines, markdown_table, write_result  # noqa: E402
from frontier_boards import dense_holes, plain_cpsat  # noqa: E402

import numpy as np  # noqa: E402

from ktsolve import Board, KnightGraph, Status, TourSpec, solve  # noqa: E402
from ktsolve.proofs import check_proof, matching_proof, quick_proof  # noqa: E402
from ktsolve.proofs.cuts import region_proof, toughness_proof, two_cut_proof  # noqa: E402

FINDERS = (("region", region_proof), ("toughness", toughness_proof), ("two-cut", two_cut_proof))


def _floats(text: str) -> list[float]:
    return [float(x) for x in text.split(",") if x]


def run_cell(n: int, share: float, closed: bool, boards: int, limit: float, matching_limit: float,
             truth_limit: float | None) -> dict:
    cell = {"boards": 0, "quick": 0, "matching": 0, "checked": True, "none": 0 if truth_limit else None}
    for name, _ in FINDERS:
        cell[name] = [0, 0, []]  # settled, settled beyond quick + matching, seconds
    spec = TourSpec(closed=closed)
    for seed in range(boards):
        holes = dense_holes(n, share, seed)
        board = Board(n, n, holes)
        g = KnightGraph(board)
        if truth_limit:
            cell["none"] += plain_cpsat(n, holes, closed=closed, time_limit=truth_limit)[0] == "infeasible"
        cell["boards"] += 1
        before = quick_proof(g, spec)
        if before is not None:
            cell["quick"] += 1
        else:
            before = matching_proof(g, spec, time_limit=matching_limit)
            cell["matching"] += before is not None
        for name, finder in FINDERS:
            t0 = time.perf_counter()
            proof = finder(g, spec, time_limit=limit)
            cell[name][2].append(time.perf_counter() - t0)
            if proof is not None:
                cell[name][0] += 1
                cell[name][1] += before is None
                cell["checked"] &= check_proof(g, spec, proof).valid
    return cell


def small_boards(count: int) -> list[list]:
    """The second table: random boards of at most 36 squares, against exhaustive search."""
    rng = np.random.default_rng(2026)
    rows = []
    for closed in (True, False):
        spec = TourSpec(closed=closed)
        tally = {"boards": 0, "none": 0, "quick": 0, "matching": 0, "checked": True}
        for name, _ in FINDERS:
            tally[name] = [0, 0, []]
        left = 0
        while tally["boards"] < count:
            r, c = int(rng.integers(4, 7)), int(rng.integers(4, 7))
            k = int(rng.integers(0, r * c // 4 + 1))
            flat = rng.choice(r * c, size=k, replace=False)
            board = Board(r, c, [(int(f) // c, int(f) % c) for f in flat])
            if board.n_squares < 8:
                continue
            g = KnightGraph(board)
            tally["quick"] += 1
            if quick_proof(g, spec) is not None:
                continue  # only the boards the quick proofs leave open
            tally["boards"] += 1
            exact = solve(board, "backtrack", closed=closed, presolve_proofs=False, time_limit=60)
            none = exact.status is Status.INFEASIBLE
            tally["none"] += none
            before = matching_proof(g, spec)
            tally["matching"] += before is not None
            settled = False
            for name, finder in FINDERS:
                t0 = time.perf_counter()
                proof = finder(g, spec)
                tally[name][2].append(time.perf_counter() - t0)
                if proof is not None:
                    assert none, (board, spec, proof)  # soundness: exhaustive search agrees
                    settled = True
                    tally[name][0] += 1
                    tally[name][1] += before is None
                    tally["checked"] &= check_proof(g, spec, proof).valid
            left += none and before is None and not settled
        row = ["4x4..6x6", "random", "closed" if closed else "open", tally["boards"], tally["none"],
               f"{tally['quick'] - tally['boards']} of {tally['quick']} (left out)", tally["matching"]]
        for name, _ in FINDERS:
            settled, beyond, secs = tally[name]
            row += [f"{settled} / {beyond}", f"{fmt_s(statistics.median(secs))} / {fmt_s(max(secs))}"]
        row.append("yes" if tally["checked"] else "NO")
        rows.append(row)
        print(" | ".join(map(str, row)), f"| no tour and no proof: {left}", flush=True)
        rows[-1].append(left)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="12,16,20,40,60")
    ap.add_argument("--shares", default="0.2,0.25,0.3,0.35")
    ap.add_argument("--boards", type=int, default=5, help="boards per cell (seeds 0..N-1)")
    ap.add_argument("--limit", type=float, default=1.0, help="seconds per cut proof and board")
    ap.add_argument("--matching-limit", type=float, default=5.0)
    ap.add_argument("--truth-max", type=int, default=12, help="largest side CP-SAT checks (0: none)")
    ap.add_argument("--truth-limit", type=float, default=10.0)
    ap.add_argument("--small", type=int, default=500, help="random small boards per question (0: none)")
    ap.add_argument("--out", default="no_arguments")
    args = ap.parse_args()
    rows = []
    for n in [int(x) for x in args.sizes.split(",")]:
        for share in _floats(args.shares):
            for closed in (True, False):
                truth = args.truth_limit if n <= args.truth_max else None
                c = run_cell(n, share, closed, args.boards, args.limit, args.matching_limit, truth)
                row = [f"{n}x{n}", f"{share:.2f}", "closed" if closed else "open", c["boards"],
                       "-" if c["none"] is None else c["none"], c["quick"], c["matching"]]
                for name, _ in FINDERS:
                    settled, beyond, secs = c[name]
                    row += [f"{settled} / {beyond}", f"{fmt_s(statistics.median(secs))} / {fmt_s(max(secs))}"]
                row.append("yes" if c["checked"] else "NO")
                rows.append(row)
                print(" | ".join(map(str, row)), flush=True)
    cols = ["board", "holes", "tour", "boards", "no tour (CP-SAT)", "quick", "matching"]
    for name, _ in FINDERS:
        cols += [f"{name}: settled / beyond", f"{name}: median / max"]
    cols.append("witnesses check")
    small = small_boards(args.small) if args.small else []
    text = "\n".join([
        "# The cut proofs on dense holed boards",
        "",
        *machine_lines(),
        "",
        f"Command: `python benchmarks/bench_no_arguments.py --sizes {args.sizes} --shares {args.shares} "
        f"--boards {args.boards} --limit {args.limit} --matching-limit {args.matching_limit} "
        f"--truth-max {args.truth_max} --truth-limit {args.truth_limit} --small {args.small}`",
        "",
        "Boards from `frontier_boards.dense_holes(n, share, seed)` (colours balanced), seeds 0..boards-1, "
        "asked for a closed tour and for an open one with free ends.  `no tour (CP-SAT)`: boards the plain "
        "CP-SAT model proves to have no tour (`-`: not asked; an unsettled board counts as having one), the "
        "most any proof could settle.  `quick` and `matching`: boards the quick proofs settle, and "
        "the matching proof settles after them.  Each cut proof then runs alone with the limit: `settled` "
        "boards it proves infeasible, `beyond` those of them the quick and matching proofs left open; "
        "`median / max`: its seconds per board (a proof that finds nothing runs until its search ends or the "
        "limit).  `witnesses check`: every witness passed `ktsolve.proofs.check_proof`.",
        "",
        markdown_table(cols, rows),
        "",
        *([f"Random boards of 4x4 to 6x6 that the quick proofs leave open ({args.small} per question; `quick`: "
           "how many of the boards drawn the quick proofs settled, left out), exhaustive backtracking for "
           "`no tour`; the last column counts the boards with no tour that neither the matching proof nor "
           "a cut proof settles.", "",
           markdown_table(cols + ["no tour, no proof"], small), ""] if small else []),
    ])
    path = write_result(args.out, text)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
