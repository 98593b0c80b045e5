"""What each proof step costs a square where it finds nothing: the figures behind ``ProofStep.cost``.

A racing plan runs its proofs cheapest first (``ktsolve.plans.proof_lane``), by the seconds a square
each step takes on a board where it proves nothing (a random holed board fit for a closed tour, so every
step runs to its end).  Each step runs alone in this process, its kernels warmed first, the knight graph
built before the steps that read it (its own time is the row ``knight graph``); median of ``--repeat``
runs.

Run:  python benchmarks/bench_proof_costs.py [--sizes 316,1000,3162] [--holes 0.01] [--repeat 3]
Writes benchmarks/results/proof_costs.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _machine import machine_lines, markdown_table, median_time, write_result  # noqa: E402


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="316,1000,3162", help="board sides, comma-separated")
    ap.add_argument("--holes", type=float, default=0.01, help="share of holes")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", default="proof_costs")
    args = ap.parse_args(argv)

    from ktsolve import KnightGraph, TourSpec
    from ktsolve.generate import random_holed_board
    from ktsolve.proofs import warm
    from ktsolve.proofs.local import warm as warm_local
    from ktsolve.proofs.registry import PROOF_STEPS

    warm()
    warm_local()
    spec = TourSpec(closed=True)
    names = ["local proofs", "quick proofs", "2-factor proof", "local cuts", "matching proof"]
    rows = []
    for side in (int(x) for x in args.sizes.split(",")):
        board = random_holed_board(side, side, args.holes, closed=True, seed=1)
        n = board.n_squares

        def build():
            graph = KnightGraph(board)
            graph.build()
            return graph

        secs, graph = median_time(build, args.repeat)
        rows.append([f"{side}x{side}", f"{n:,}", "knight graph", f"{secs:.3f}", f"{secs / n * 1e9:.0f}", "-", "-"])
        for name in names:
            step = PROOF_STEPS[name]
            target = graph if step.graph else board
            secs, proof = median_time(lambda: step.run(target, spec, None), args.repeat)
            rows.append([f"{side}x{side}", f"{n:,}", name, f"{secs:.3f}", f"{secs / n * 1e9:.0f}",
                         f"{step.cost * 1e9:.0f}", "none" if proof is None else proof.argument])
            print(rows[-1], flush=True)
    cols = ["board", "squares", "step", "seconds", "ns a square", "ProofStep.cost (ns)", "proof"]
    body = "\n".join([
        "# What each proof step costs a square where it finds nothing",
        "",
        *machine_lines(),
        "",
        f"Command: `python benchmarks/bench_proof_costs.py --sizes {args.sizes} --holes {args.holes} "
        f"--repeat {args.repeat}`; random holed boards fit for a closed tour (seed 1), each step alone in one "
        f"process after its kernels were warmed, median of {args.repeat}; the proofs that read the graph "
        "were given it built (its own row).",
        "",
        markdown_table(cols, rows),
        "",
    ])
    print(body)
    print(write_result(args.out, body))


if __name__ == "__main__":
    main()
