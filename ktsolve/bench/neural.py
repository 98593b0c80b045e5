"""Takefuji-Lee neural network: closed-tour rate per attempt, for the seed's rule and the best rule.

For every board and rule the section runs a fixed number of random starts
and counts how they end: a single Hamiltonian cycle (a tour), a 2-factor of
several cycles, another fixed point, or no convergence within 1000 sweeps.
The cycle-merging repair runs on every multi-cycle fixed point and its
successes are counted in their own column; they never enter the tour rate.
"""

from __future__ import annotations

import time

from ..board import Board
from ..graph import KnightGraph
from . import Section, Table

__all__ = ["SECTION", "PUBLISHED"]

#: Published or quoted tour rates per attempt, by (board side, rule).
PUBLISHED = {
    (8, "seed"): "about 0.5% (seed project's numpy prototype)",
    (8, "sequential"): "about 20% (quick test quoted in the issue)",
}


def run(quick: bool = True, seed: int = 1, progress=None, plots=None) -> list[Table]:
    from ..heuristics.neural import RULES, sample_neural

    if quick:
        plan = [(6, 600), (8, 600), (10, 200), (12, 100)]
    else:
        plan = [(6, 10_000), (8, 10_000), (10, 3_000), (12, 1_000), (14, 300), (20, 100)]
    rules = ["seed", "sequential"]
    rows = []
    total = len(plan) * len(rules)
    done = 0
    t0 = time.perf_counter()
    for side, attempts in plan:
        g = KnightGraph(Board(side, side))
        for rule in rules:
            st = sample_neural(g, attempts, rule=rule, repair=True, seed=seed)
            n = st["attempts"]
            rows.append([
                f"{side}x{side}", rule, n, st["tours"], f"{100 * st['tour_rate']:.2f}%",
                st["multi_cycle"], st["other_fixed"], st["non_converged"],
                f"{100 * st['repaired_rate']:.2f}%", f"{st['mean_sweeps']:.0f}",
                round(st["attempts_per_s"]), PUBLISHED.get((side, rule), "-"),
            ])
            done += 1
            if progress is not None:
                progress(done, total)
    elapsed = time.perf_counter() - t0
    notes = [
        f"rules: seed = {RULES['seed'].describe()}; sequential = {RULES['sequential'].describe()} "
        "(ktsolve's default); S = outputs of the edges sharing a square.",
        "Neurons start on with probability 0.5 and U = 0; an attempt gives up after 1000 sweeps.",
        "repaired: multi-cycle fixed points merged into one tour by edge exchanges (not in the tour rate).",
        f"seed {seed}; {'quick budget (--full for the large samples and 14x14, 20x20)' if quick else 'full budget'}; "
        f"{elapsed:.1f} s in all; attempts/s on one core, numba compiled.",
        "Takefuji & Lee (1992) ran 14x14 to 20x20 and report fewer than 100 iteration steps on average, "
        "and more convergence to several closed loops on larger boards; they give no tour rate per attempt.",
    ]
    return [Table(
        "Takefuji-Lee network: closed tours per attempt",
        ["board", "rule", "attempts", "tours", "tour rate", "multi-cycle", "other fixed", "non-converged",
         "repaired", "mean sweeps", "attempts/s", "published"],
        rows,
        notes,
    )]


SECTION = Section(
    name="neural",
    title="Takefuji-Lee neural network (1992): closed-tour rate per attempt",
    run=run,
)
