"""Which update rule of the Takefuji-Lee network finds closed tours most often?

Grid: ``U += a - S - b V`` for ``a`` in 2..5, ``b`` in 0..3, and the three
update orders (synchronous, sequential in a fresh random order every sweep,
sequential in fixed edge order), on 6x6 and 8x8, the same number of attempts
and the same seed for every rule.  Prints one table per board, sorted by tour
rate, and writes it to ``benchmarks/results/neural_rules.md``.

Then the finalists (``a = 4, b = 2``) with larger samples: every update order
against the probability ``p_on`` that a neuron starts on, on 6x6, 8x8, 10x10.

Usage: ``python benchmarks/explore_neural_rules.py [--attempts 400] [--max-sweeps 300] [--final-attempts 3000]``
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

from _machine import machine_lines  # noqa: E402

from ktsolve import Board, KnightGraph  # noqa: E402
from ktsolve.heuristics.neural import MODES, NeuralRule, sample_neural  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--attempts", type=int, default=400)
    ap.add_argument("--max-sweeps", type=int, default=300)
    ap.add_argument("--sizes", default="6,8")
    ap.add_argument("--final-attempts", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "results", "neural_rules.md"))
    args = ap.parse_args(argv)
    lines = ["# Takefuji-Lee network: tour rate of update rules", ""]
    lines.append(
        f"{args.attempts} attempts per rule and board, at most {args.max_sweeps} sweeps each, seed {args.seed}; "
        "neurons start on with probability 0.5 and U = 0."
    )
    lines.append("Rule: U += a - S - bV, S = outputs of the edges sharing a square.")
    lines.append("")
    for size in (int(s) for s in args.sizes.split(",")):
        g = KnightGraph(Board(size, size))
        rows = []
        for a, b, mode in itertools.product(range(2, 6), range(0, 4), MODES):
            st = sample_neural(g, args.attempts, rule=NeuralRule(a, b, mode), max_sweeps=args.max_sweeps,
                               seed=args.seed)
            n = st["attempts"]
            rows.append((st["tour_rate"], a, b, mode, st["tours"], st["multi_cycle"], st["other_fixed"],
                         st["non_converged"], st["mean_sweeps"], n / st["elapsed"] if st["elapsed"] else 0.0))
            print(f"{size}x{size} a={a} b={b} {mode:6s} tours {st['tours']:4d}/{n}", file=sys.stderr, flush=True)
        rows.sort(key=lambda r: (-r[0], r[8]))
        lines.append(f"## {size}x{size}")
        lines.append("")
        lines.append("| a | b | order | tour rate | tours | multi-cycle | other fixed | non-converged | mean sweeps | attempts/s |")
        lines.append("|---|---|---|---|---|---|---|---|---|---|")
        for r in rows:
            lines.append(f"| {r[1]} | {r[2]} | {r[3]} | {r[0]:.4f} | {r[4]} | {r[5]} | {r[6]} | {r[7]} | {r[8]:.1f} | {r[9]:.0f} |")
        lines.append("")
    # Part 2: the finalists with larger samples, update order against start density.
    lines.append("## The a = 4, b = 2 family: update order and start density")
    lines.append("")
    lines.append(f"{args.final_attempts} attempts each (6x6, 8x8; a third of that on 10x10), at most 1000 sweeps, "
                 f"seed {args.seed + 1}; +- is one standard error of the tour rate.")
    lines.append("")
    lines.append("| board | order | p_on | tour rate | +- | non-converged | mean sweeps | attempts/s | tours/s |")
    lines.append("|---|---|---|---|---|---|---|---|---|")
    for size in (6, 8, 10):
        g = KnightGraph(Board(size, size))
        n_att = args.final_attempts if size < 10 else args.final_attempts // 3
        for mode in MODES:
            for p_on in (0.25, 0.5, 0.75):
                st = sample_neural(g, n_att, rule=NeuralRule(4, 2, mode), p_on=p_on, max_sweeps=1000,
                                   seed=args.seed + 1)
                r = st["tour_rate"]
                se = (r * (1 - r) / st["attempts"]) ** 0.5
                el = st["elapsed"] or float("nan")
                lines.append(f"| {size}x{size} | {mode} | {p_on} | {r:.4f} | {se:.4f} | {st['non_converged']} | "
                             f"{st['mean_sweeps']:.1f} | {st['attempts'] / el:.0f} | {st['tours'] / el:.1f} |")
                print(f"{size}x{size} 4,2,{mode} p_on={p_on}: {r:.4f}", file=sys.stderr, flush=True)
    lines.append("")
    lines += [f"- {x}" for x in machine_lines()]
    text = "\n".join(lines) + "\n"
    print(text)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as fh:
        fh.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
