"""The models of method cpsat against the plain CP-SAT baseline on dense holed boards (issue 19, item 4).

Boards from ``frontier_boards.dense_holes`` (every square keeps two moves,
colours balanced), each asked closed and open from a fixed start (the first
free square in reading order).  On every board each variant runs once, with
two CP-SAT workers and the same time limit, one after the other in the same
process; the order of the variants turns by one from board to board, so
that a change in the machine's load does not always hit the same one.

Variants: ``plain`` (``frontier_boards.plain_cpsat``, the 40-line
``add_circuit`` model with CP-SAT's default parameters) and
``solve_cpsat(model=M, num_workers=2)`` for every model M of
:data:`ktsolve.models.cpsat.MODELS` (``sat`` only with python-sat).  Every
tour goes through ``ktsolve.validate``.  Reported per cell: answers settled
by each variant (found + infeasible), the median time of the answers it
settled, and disagreements between settled answers (target 0).

One run per board (a board is the unit, the seeds give several): the
figures are wall times on a shared machine, see the load line.

Run:  python benchmarks/bench_exact_frontier.py [--sizes 12,20,40,60,100]
      [--shares 0.2,0.25,0.3] [--seeds 12:3,20:3,40:2,60:1,100:1]
      [--limits 12:10,20:10,40:15,60:15,100:15] [--variants plain,circuit,redundant,cuts,sat] [--workers 2]
Writes benchmarks/results/exact_frontier.md (``--out NAME`` to change the name).
"""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _machine import machine_lines, markdown_table, write_result  # noqa: E402
from frontier_boards import dense_holes, plain_cpsat  # noqa: E402

from ktsolve import Board, KnightGraph, TourSpec, validate  # noqa: E402
from ktsolve.models.cpsat import MODELS, solve_cpsat  # noqa: E402
from ktsolve.models.satcuts import have_pysat  # noqa: E402


def _per_size(text: str, cast) -> dict[int, object]:
    return {int(k): cast(v) for k, v in (item.split(":") for item in text.split(",") if item)}


def run_variant(name: str, n: int, holes, board: Board, closed: bool, start, limit: float,
                workers: int = 2) -> tuple[str, float, str]:
    """One variant on one question: (answer, wall seconds, note)."""
    t0 = time.perf_counter()
    if name == "plain":
        answer, _ = plain_cpsat(n, holes, closed=closed, start=start, time_limit=limit, workers=workers)
        return answer, time.perf_counter() - t0, ""
    res = solve_cpsat(KnightGraph(board), TourSpec(closed, start), model=name, num_workers=workers,
                      time_limit=limit, seed=1)
    took = time.perf_counter() - t0
    if res.found:
        validate(board, res.tour, closed=closed, start=start)
    note = ""
    if "rounds" in res.stats:
        note = f"{res.stats['rounds']}r/{res.stats['cuts']}c"
        if res.stats.get("refuted_by"):
            note += " matching"
    return res.status.value, took, note


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="12,20,40,60,100")
    ap.add_argument("--shares", default="0.2,0.25,0.3")
    ap.add_argument("--seeds", default="12:3,20:3,40:2,60:1,100:1", help="boards per cell, by size")
    ap.add_argument("--limits", default="12:10,20:10,40:15,60:15,100:15", help="seconds per run, by size")
    ap.add_argument("--variants", default="plain," + ",".join(MODELS))
    ap.add_argument("--workers", type=int, default=2, help="CP-SAT workers of every variant")
    ap.add_argument("--out", default="exact_frontier", help="result file name under benchmarks/results/")
    args = ap.parse_args()
    sizes = [int(x) for x in args.sizes.split(",") if x]
    shares = [float(x) for x in args.shares.split(",") if x]
    seeds, limits = _per_size(args.seeds, int), _per_size(args.limits, float)
    variants = [v for v in args.variants.split(",") if v and (v != "sat" or have_pysat())]
    solve_cpsat(KnightGraph(Board(6, 6)), TourSpec(True), time_limit=10)  # import OR-Tools before timing
    rows, detail = [], []
    turn = 0
    for n in sizes:
        for share in shares:
            for mode in ("closed", "open from a fixed start"):
                closed = mode == "closed"
                settled, times = collections.Counter(), collections.defaultdict(list)
                disagree = 0
                for seed in range(seeds.get(n, 1)):
                    holes = dense_holes(n, share, seed)  # one board for both questions
                    board = Board(n, n, holes)
                    hole_set = set(holes)
                    start = None if closed else next(
                        (r, c) for r in range(n) for c in range(n) if (r, c) not in hole_set)
                    order = variants[turn % len(variants):] + variants[:turn % len(variants)]
                    turn += 1
                    answers = {}
                    for name in order:
                        answer, took, note = run_variant(name, n, holes, board, closed, start, limits.get(n, 15.0),
                                                         args.workers)
                        answers[name] = (answer, took, note)
                        if answer != "unknown":
                            settled[name] += 1
                            times[name].append(took)
                    firm = {a for a, _, _ in answers.values() if a != "unknown"}
                    disagree += len(firm) > 1
                    line = [n, share, mode, seed, len(holes)] + [
                        f"{answers[v][0]} {answers[v][1]:.2f}" + (f" ({answers[v][2]})" if answers[v][2] else "")
                        for v in variants]
                    detail.append(line)
                    print(*line, sep="\t", flush=True)
                rows.append([n, share, mode, seeds.get(n, 1), f"{limits.get(n, 15.0):g}"]
                            + [f"{settled[v]} / {statistics.median(times[v]):.2f}" if times[v] else "0 / -"
                               for v in variants] + [disagree])
    head = ["n", "holes", "question", "boards", "limit s"] + [f"{v}: settled / median s" for v in variants] + [
        "disagreements"]
    total = ["all", "", "", sum(r[3] for r in rows), ""] + [
        sum(int(r[5 + i].split(" ")[0]) for r in rows) for i in range(len(variants))] + [sum(r[-1] for r in rows)]
    text = "\n".join([
        "# The models of method cpsat against plain CP-SAT on dense holed boards", "",
        *machine_lines(("python-sat",)), "",
        f"Command: `python benchmarks/bench_exact_frontier.py --sizes {args.sizes} --shares {args.shares} "
        f"--seeds {args.seeds} --limits {args.limits} --variants {','.join(variants)} --workers {args.workers}`", "",
        f"Every variant with {args.workers} CP-SAT worker(s); one run per board; median over the answers each settled.", "",
        markdown_table(head, rows + [total]), "",
        "## Every board", "",
        "Answer and wall seconds; for cuts and sat, rounds r and cuts c (`matching`: refuted by the matching "
        "proof before the loop).", "",
        markdown_table(["n", "holes", "question", "seed", "holes placed", *variants], detail),
    ])
    write_result(args.out, text)
    print(markdown_table(head, rows + [total]))


if __name__ == "__main__":
    main()
