"""``prove`` against a plain CP-SAT model on dense holed boards (issue 19's frontier), the full run in one command.

Boards from ``frontier_boards.dense_holes`` (every square keeps two moves,
colours balanced), ``--boards`` per cell (seeds 0..N-1), each asked closed
and open from a fixed start (the first free square in reading order).
``prove(board, time_limit=T)`` and the plain ``add_circuit`` model with two
workers (``frontier_boards.plain_cpsat``) run in the same process, one after
the other, with the same limit.

Reported per cell: answers settled by each, disagreements (target 0), the
time ratio ``max(0, prove - 0.3 s) / plain`` wherever the plain model settles
(target at most 1.5: the race's promise, with plain CP-SAT as the fastest
step alone), the misses of that promise (a ratio above 1.5, or prove
``unknown`` where the plain model settled), and the steps that settled
prove's answers, with their lane.  The moonshot line: is every 100x100
board with 20 % holes settled by prove within the limit?

The results file is rewritten after every board (atomically) and each board
is appended to ``NAME.jsonl`` beside it, so a long run can be watched and an
interrupted run keeps what it did; ``--resume`` skips the boards already in
``NAME.jsonl`` (same sizes, shares, question and seed).

Run (the full run of issue 19, about two hours on two quiet cores):
      python benchmarks/bench_frontier.py
Small cells:  python benchmarks/bench_frontier.py --sizes 12,20,40 --time-limit 30
Options: [--sizes 12,20,40,60,100] [--shares 0.2,0.35] [--more-shares (adds 0.25,0.3)]
         [--boards 5] [--time-limit 60] [--out frontier_race] [--resume]
Writes benchmarks/results/NAME.md and NAME.jsonl (NAME: ``--out``, default frontier_race).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _machine import RESULTS, machine_lines, markdown_table  # noqa: E402
from frontier_boards import dense_holes, plain_cpsat  # noqa: E402

from ktsolve import Board, prove  # noqa: E402

#: The race's promise: prove is at most this many times the fastest step alone, plus SLACK seconds.
RATIO, SLACK = 1.5, 0.3
QUESTIONS = ("closed", "open from a fixed start")


def _floats(text: str) -> list[float]:
    return [float(x) for x in text.split(",") if x]


def run_board(n: int, share: float, question: str, seed: int, limit: float) -> dict:
    """One question on one board, by prove and by the plain model: a row of the results."""
    closed = question == "closed"
    holes = dense_holes(n, share, seed)  # one board for both questions
    hole_set = set(holes)
    board = Board(n, n, holes)
    start = None if closed else next((r, c) for r in range(n) for c in range(n) if (r, c) not in hole_set)
    t0 = time.perf_counter()
    res = prove(board, closed=closed, start=start, time_limit=limit, seed=1)
    tp = time.perf_counter() - t0
    plain, tc = plain_cpsat(n, holes, closed=closed, start=start, time_limit=limit)
    mine = res.status.value
    won = res.stats.get("settled_by", "none")
    if res.stats.get("lane"):
        won += f" [{res.stats['lane']}]"
    ratio = max(0.0, tp - SLACK) / max(tc, 1e-3) if plain != "unknown" else None
    return {"n": n, "share": share, "question": question, "seed": seed, "holes": len(holes), "prove": mine,
            "prove_s": round(tp, 3), "plain": plain, "plain_s": round(tc, 3), "won": won,
            "ratio": None if ratio is None else round(ratio, 3),
            "miss": plain != "unknown" and (mine == "unknown" or ratio > RATIO),
            "disagree": mine != "unknown" and plain != "unknown" and mine != plain,
            "load": round(os.getloadavg()[0], 2)}


def summary(rows: list[dict], cells: list[tuple]) -> list[list]:
    out = []
    for n, share, question in cells:
        mine = [r for r in rows if (r["n"], r["share"], r["question"]) == (n, share, question)]
        if not mine:
            continue
        ratios = [r["ratio"] for r in mine if r["ratio"] is not None]
        won = collections.Counter(r["won"] for r in mine)
        out.append([n, share, question, len(mine), sum(r["prove"] != "unknown" for r in mine),
                    sum(r["plain"] != "unknown" for r in mine), sum(r["disagree"] for r in mine),
                    f"{max(ratios):.2f}" if ratios else "-", f"{statistics.median(ratios):.2f}" if ratios else "-",
                    sum(r["miss"] for r in mine), ", ".join(f"{k} {v}" for k, v in sorted(won.items()))])
    return out


def moonshot(rows: list[dict], limit: float) -> str:
    shot = [r for r in rows if r["n"] == 100 and r["share"] == 0.2]
    if not shot:
        return "Moonshot (every 100x100 board with 20 % holes settled): not run."
    settled = sum(r["prove"] != "unknown" and r["prove_s"] <= limit + 1 for r in shot)
    verdict = "yes" if settled == len(shot) else "no"
    return (f"Moonshot (every 100x100 board with 20 % holes settled within {limit:g} s): {verdict}, "
            f"prove settled {settled} of {len(shot)}; plain CP-SAT {sum(r['plain'] != 'unknown' for r in shot)}.")


def render(rows: list[dict], cells: list[tuple], command: str, limit: float, done: bool) -> str:
    head = ["n", "holes", "question", "boards", "prove settled", "plain settled", "disagreements",
            "worst ratio", "median ratio", "promise misses", "prove settled by [lane]"]
    table = summary(rows, cells)
    total = ["all", "", "", len(rows), sum(r["prove"] != "unknown" for r in rows),
             sum(r["plain"] != "unknown" for r in rows), sum(r["disagree"] for r in rows),
             max((f"{r['ratio']:.2f}" for r in rows if r["ratio"] is not None), key=float, default="-"), "",
             sum(r["miss"] for r in rows), ""]
    detail = [[r["n"], r["share"], r["question"], r["seed"], r["holes"], r["prove"], f"{r['prove_s']:.2f}", r["won"],
               r["plain"], f"{r['plain_s']:.2f}", "-" if r["ratio"] is None else f"{r['ratio']:.2f}",
               "miss" if r["miss"] else "", r["load"]] for r in rows]
    return "\n".join([
        "# prove against plain CP-SAT on dense holed boards", "",
        *machine_lines(("python-sat",)), "",
        f"Command: `{command}`", "",
        ("Run complete." if done else f"Run in progress or interrupted: {len(rows)} questions so far."), "",
        f"Ratio: max(0, prove - {SLACK} s) / plain, on the questions plain CP-SAT (two workers) settled; the promise is "
        f"at most {RATIO}.  A miss: a ratio above {RATIO}, or prove unknown where plain CP-SAT settled.", "",
        markdown_table(head, table + [total]), "",
        moonshot(rows, limit), "",
        "## Every board", "",
        "Seconds are wall times; `load` is the one-minute load average after the board.", "",
        markdown_table(["n", "holes", "question", "seed", "holes placed", "prove", "s", "settled by [lane]",
                        "plain", "s", "ratio", "", "load"], detail),
    ]) + "\n"


def warm_up() -> None:
    """Load every kernel and engine the timed questions use (numba's cache, OR-Tools, python-sat), untimed.

    The first-run cost is measured by ``bench_first_run.py``; here it would
    land on the first board.
    """
    from ktsolve import KnightGraph, TourSpec
    from ktsolve.jit import warm_method
    from ktsolve.models.cpsat import MODELS, solve_cpsat
    from ktsolve.models.satcuts import have_pysat
    from ktsolve.proofs import warm
    from ktsolve.registry import methods

    warm()
    for name in ("rotation", "warnsdorff", "backtrack"):
        warm_method(methods()[name].load())
    holes = dense_holes(12, 0.2, 99)
    board = Board(12, 12, holes)
    for closed in (True, False):
        prove(board, closed=closed, time_limit=10, seed=1)
        for model in MODELS:
            if model != "sat" or have_pysat():
                solve_cpsat(KnightGraph(board), TourSpec(closed=closed), model=model, time_limit=10, seed=1)
    plain_cpsat(12, holes, closed=True, time_limit=10)


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="12,20,40,60,100")
    ap.add_argument("--shares", default="0.2,0.35")
    ap.add_argument("--more-shares", action="store_true", help="add the hole shares 0.25 and 0.3")
    ap.add_argument("--boards", type=int, default=5, help="boards per cell (seeds 0..N-1)")
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--out", default="frontier_race", help="result file name under benchmarks/results/")
    ap.add_argument("--resume", action="store_true", help="keep the boards already in NAME.jsonl")
    args = ap.parse_args()
    sizes = [int(x) for x in args.sizes.split(",") if x]
    shares = sorted(set(_floats(args.shares) + ([0.25, 0.3] if args.more_shares else [])))
    cells = [(n, share, q) for n in sizes for share in shares for q in QUESTIONS]
    command = (f"python benchmarks/bench_frontier.py --sizes {args.sizes} --shares {args.shares}"
               f"{' --more-shares' if args.more_shares else ''} --boards {args.boards} "
               f"--time-limit {args.time_limit:g} --out {args.out}")
    RESULTS.mkdir(parents=True, exist_ok=True)
    md, jsonl = RESULTS / f"{args.out}.md", RESULTS / f"{args.out}.jsonl"
    rows: list[dict] = []
    if args.resume and jsonl.exists():
        rows = [json.loads(line) for line in jsonl.read_text(encoding="utf-8").splitlines() if line.strip()]
    elif jsonl.exists():
        jsonl.unlink()
    done = {(r["n"], r["share"], r["question"], r["seed"]) for r in rows}
    warm_up()
    for n, share, question in cells:
        for seed in range(args.boards):
            if (n, share, question, seed) in done:
                continue
            row = run_board(n, share, question, seed, args.time_limit)
            rows.append(row)
            with open(jsonl, "a", encoding="utf-8") as fh:
                fh.write(json.dumps(row) + "\n")
            _write_atomic(md, render(rows, cells, command, args.time_limit, done=False))
            print(*(row[k] for k in ("n", "share", "question", "seed", "prove", "prove_s", "won", "plain",
                                     "plain_s", "ratio")), sep="\t", flush=True)
    text = render(rows, cells, command, args.time_limit, done=True)
    _write_atomic(md, text)
    print(text.split("## Every board")[0])


if __name__ == "__main__":
    main()
