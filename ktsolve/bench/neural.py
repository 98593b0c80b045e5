"""The Takefuji-Lee neural network of the blog post: closed tours per attempt, seed rule and best rule.

The seed is a blog post that re-implements Takefuji & Lee's network in
numpy: one neuron per knight's move (168 on 8x8), outputs started at random,
``U += 3 - S - V`` applied to every neuron at once (ktsolve's rule
``seed``; ``S`` is the sum of the outputs of the neurons sharing a square),
hysteresis ``V = 1`` above 3 and ``V = 0`` below 0, and new random starts
until the active neurons form a single cycle.  The post prints one 8x8 tour
and the size of its network; it gives no rate of tours per attempt, so the
section's published column says so.  The one figure it gives, 168 neurons
on 8x8, is checked in a table of its own.

For every board and rule the section runs a fixed number of attempts and
counts how they end: a single Hamiltonian cycle (a tour), a 2-factor of
several cycles, another fixed point, or no convergence within 1000 sweeps.
The cycle-merging repair runs on every multi-cycle fixed point and its
successes are counted in their own column; they never enter the tour rate.
The attempts go through :func:`ktsolve.solve` (method ``neural``), which
stops at the first tour: the section calls it again with a new seed until
the attempts of all calls add up to the budget, so the counts are those of
that many independent attempts.
"""

from __future__ import annotations

import time

from ..board import Board
from ..graph import KnightGraph
from . import NOT_GIVEN, Section, Stages, Table

__all__ = ["SECTION", "run", "sample", "BLOG_NEURONS_8X8"]

#: The blog post's one figure: neurons (knight's moves) of the 8x8 network.
BLOG_NEURONS_8X8 = 168

#: The rules compared: the blog post's and ktsolve's default.
RULES = ("seed", "sequential")

_COUNTS = ("attempts", "tours", "multi_cycle", "other_fixed", "non_converged", "repaired", "sweeps")


def sample(board: Board, attempts: int, *, rule: str, seed: int, repair: bool = True) -> dict:
    """Counts of ``attempts`` attempts of the network on ``board``, through :func:`ktsolve.solve`.

    Returns the summed counts (``attempts``, ``tours``, ``multi_cycle``,
    ``other_fixed``, ``non_converged``, ``repaired``, ``sweeps``), ``calls``
    and ``seconds``.

    Examples
    --------
    >>> out = sample(Board(6, 6), 20, rule="sequential", seed=1)
    >>> out["attempts"], out["tours"] + out["multi_cycle"] + out["other_fixed"] + out["non_converged"]
    (20, 20)
    """
    from ..seeds import derive_seed
    from ..solve import solve

    total = dict.fromkeys(_COUNTS, 0)
    calls = 0
    t0 = time.perf_counter()
    while total["attempts"] < attempts:
        res = solve(board, "neural", closed=True, rule=rule, repair=repair, attempts=attempts - total["attempts"],
                    seed=derive_seed(seed, "bench neural", calls), presolve_proofs=False)
        calls += 1
        st = res.stats
        if not st.get("attempts"):
            break
        for key in _COUNTS:
            total[key] += int(st.get(key, 0))
    total.update(calls=calls, seconds=time.perf_counter() - t0)
    return total


def run(quick: bool = True, seed: int = 1, progress=None, plots=None) -> list[Table]:
    if quick:
        plan = [(6, 600), (8, 600), (10, 200), (12, 100)]
    else:
        plan = [(6, 10_000), (8, 10_000), (10, 3_000), (12, 1_000), (14, 300), (20, 100)]
    rows = []
    stages = Stages(len(plan) * len(RULES), progress)
    sample(Board(6, 6), 2, rule="seed", seed=0)  # compile before timing
    sample(Board(6, 6), 2, rule="sequential", seed=0)
    t0 = time.perf_counter()
    for side, attempts in plan:
        board = Board(side, side)
        for rule in RULES:
            st = sample(board, attempts, rule=rule, seed=seed)
            n = st["attempts"]
            rows.append([
                f"{side}x{side}", rule, n, st["tours"], f"{100 * st['tours'] / n:.2f}%",
                st["multi_cycle"], st["other_fixed"], st["non_converged"],
                f"{100 * st['repaired'] / n:.2f}%", f"{st['sweeps'] / n:.0f}", NOT_GIVEN,
            ])
            stages.tick()
    elapsed = time.perf_counter() - t0
    neurons = int(len(KnightGraph.of(Board(8, 8)).edges()))
    notes = [
        "rules: seed = U += 3 - S - V, all neurons at once (the blog post's); sequential = U += 4 - S - 2V, "
        "one neuron at a time in random order (ktsolve's default); S = outputs of the neurons sharing a square.",
        "Neurons start on with probability 0.5 and U = 0; an attempt gives up after 1000 sweeps.",
        "repaired: multi-cycle fixed points merged into one tour by edge exchanges (not in the tour rate).",
        f"seed {seed}; {'quick budget (--full for the large samples and 14x14, 20x20)' if quick else 'full budget'}; "
        f"{elapsed:.1f} s in all (attempts per second: benchmarks/results/bees_neural.md).",
        f"published: {NOT_GIVEN}: the blog post retries until a tour appears and prints one 8x8 tour, not a rate "
        "per attempt.",
    ]
    size = Table(
        "Takefuji-Lee network: size of the 8x8 network (the blog post's one figure)",
        ["board", "neurons (ours)", "neurons (blog post)"],
        [["8x8", neurons, BLOG_NEURONS_8X8]],
        ["one neuron per knight's move between two squares: the edges of the knight graph."],
    )
    return [Table(
        "Takefuji-Lee network: closed tours per attempt",
        ["board", "rule", "attempts", "tours", "tour rate", "multi-cycle", "other fixed", "non-converged",
         "repaired", "mean sweeps", "published"],
        rows,
        notes,
    ), size]


SECTION = Section(
    name="neural",
    title="The Takefuji-Lee neural network of the blog post: closed-tour rate per attempt",
    run=run,
)
