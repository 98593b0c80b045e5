"""Huge boards with holes (issue 18): splice beside rotation.

For n x n boards (n = 1000, 2000, 4000; 10,000 with --huge), hole shares
0.1%, 1% and 5%, several seeds of ``random_holed_board`` (colour-balanced
for the question asked), and three questions (closed; open; open with a
fixed start and end), measures in-process, with the numba kernels loaded:

* ``solve(board, closed=..., start=..., end=...)`` (auto, whose first step
  on these boards is splice, before any graph or proof): wall time of the
  whole call (the tour's validation included) and its two parts, the
  method and the validation; tours found by splice of the seeds;
* ``solve(board, method="rotation", closed=True, time_limit=...)`` on the
  closed question of the first seed (n <= 2000; --rotation-limit seconds);
* the time ``random_holed_board`` takes;
* peak memory (``ru_maxrss``) of the worker process of one board size and
  hole share (all its seeds and questions; Python, numpy and numba
  included).

Times are medians over the seeds (each seed run ``--runs`` times, the median
taken).  Run:

    python benchmarks/bench_huge.py [--sizes 1000,2000,4000] [--seeds 3] [--runs 1]
                                    [--rotation-limit 60] [--shares 0.001,0.01,0.05] [--out NAME]
                                    [--huge [--process]]
    python benchmarks/bench_huge.py --windows [--sizes 2000] [--seeds 3]

``--windows`` (issue 18, item 2) runs ``solve_splice`` on n x n boards with
1% and 5% holes, closed, with each window solver (``window_method``: CP-SAT's
exact model, the colonies ``aco`` and ``iaco``), splice seed 1, and prints
the time, the windows tried and solved, and whether a validated tour came
out; it writes benchmarks/results/huge_windows.md.

``--rotation-limit 0`` skips the rotation runs.

Writes benchmarks/results/huge.md (huge_10k.md with --huge, which runs only
10,000 x 10,000 at 1%, one seed, closed; with --process also the whole programs
``ktsolve board random``, ``ktsolve solve MASK.npy --closed --format npy -o
tour.npy`` and ``ktsolve verify`` under ``/usr/bin/time -v``, and the
local proofs on that board).  Check ``free -g`` first: a
10,000 x 10,000 run takes a few GB.
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
from _machine import machine_lines, timed_process  # noqa: E402

FRACS = (0.001, 0.01, 0.05)
#: Seconds of the whole auto call, should splice not settle the question (rotation and the proofs follow).
AUTO_LIMIT = 120.0
QUESTIONS = ("closed", "open", "open s-t")


def seconds(x) -> str:
    if x is None:
        return "-"
    return f"{x * 1000:.0f} ms" if x < 1 else f"{x:.2f} s"


def table(head, rows) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _ends(board):
    """A start and an end for an open tour: far apart, of the colours the board's counts allow."""
    import numpy as np

    even, odd = board.colour_counts()
    idx = np.linspace(0, board.n_squares - 1, 64).astype(np.int64)
    squares = [tuple(int(v) for v in rc) for rc in board.coords_of(idx)]
    if even != odd:
        want = 0 if even > odd else 1
        ok = [sq for sq in squares if (sq[0] + sq[1]) % 2 == want]
        return ok[0], ok[-1]
    s = squares[0]
    t = next(sq for sq in reversed(squares) if (sq[0] + sq[1]) % 2 != (s[0] + s[1]) % 2)
    return s, t


def worker(n: int, frac: float, seeds: int, runs: int, rotation_limit: float | None, questions) -> dict:
    """All seeds and questions of one board size and hole share, in this process."""
    from ktsolve import solve
    from ktsolve.generate import random_holed_board
    from ktsolve.heuristics import splice

    splice.warm()
    out = {"cases": [], "gen": []}
    for seed in range(1, seeds + 1):
        for question in questions:
            closed = question == "closed"
            t0 = time.perf_counter()
            board = random_holed_board(n, n, frac, closed=closed, seed=seed)
            out["gen"].append(time.perf_counter() - t0)
            start = end = None
            if question == "open s-t":
                start, end = _ends(board)
            times, method_s, valid_s, found, reason = [], [], [], 0, ""
            for _ in range(runs):
                t0 = time.perf_counter()
                # auto: on these boards splice is its first step (no graph, no proof before it)
                res = solve(board, closed=closed, start=start, end=end, seed=1, time_limit=AUTO_LIMIT)
                times.append(time.perf_counter() - t0)
                # above PRESOLVE_MAX squares the one-pass local proofs come first (tenths of a second)
                step = next(s for s in res.stats["steps"] if s["step"] == "splice")
                method_s.append(step["seconds"])
                valid_s.append(step.get("validation_s", 0.0))
                found = int(res.stats.get("settled_by") == "splice")
                phases = res.stats.get("seconds", {})
                reason = "" if found else f"seed {seed}, {step.get('status')}: {res.stats['steps']}"
                del res
            case = {"seed": seed, "question": question, "solve": statistics.median(times),
                    "method": statistics.median(method_s), "validate": statistics.median(valid_s),
                    "found": found, "reason": reason, "squares": board.n_squares, "phases": phases}
            if rotation_limit and closed and seed == 1:
                t0 = time.perf_counter()
                rot = solve(board, method="rotation", closed=True, seed=1, time_limit=rotation_limit)
                case["rotation"] = time.perf_counter() - t0
                case["rotation_found"] = int(rot.found)
                del rot
            out["cases"].append(case)
            del board
    out["maxrss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


WINDOW_FRACS = (0.01, 0.05)


def windows_worker(n: int, frac: float, seeds: int) -> dict:
    """Every window method on the closed question of each seed of one size and share, in this process."""
    from ktsolve import KnightGraph, TourSpec
    from ktsolve.generate import random_holed_board
    from ktsolve.heuristics import splice
    from ktsolve.heuristics.splice.colony_window import WINDOW_METHODS, warm_window
    from ktsolve.tour import validate

    splice.warm()
    for method in WINDOW_METHODS:
        warm_window(method)
    cases = []
    for seed in range(1, seeds + 1):
        board = random_holed_board(n, n, frac, closed=True, seed=seed)
        for method in WINDOW_METHODS:
            t0 = time.perf_counter()
            res = splice.solve_splice(KnightGraph(board), TourSpec(closed=True), window_method=method, seed=1)
            wall = time.perf_counter() - t0
            tour = 0
            if res.tour is not None:
                validate(board, res.tour, closed=True)
                tour = 1
            st = res.stats
            cases.append({"seed": seed, "method": method, "seconds": wall, "tour": tour,
                          "tried": st.get("windows_tried", 0), "solved": st.get("windows", 0),
                          "repair_rounds": st.get("repair_rounds", 0),
                          "repair_s": st.get("seconds", {}).get("repair", 0.0), "reason": st.get("reason", "")})
        del board
    return {"cases": cases, "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def windows_main(args) -> None:
    head = machine_lines()
    rows = []
    for n in (int(s) for s in args.sizes.split(",")):
        for frac in WINDOW_FRACS:
            t0 = time.perf_counter()
            res = subprocess.run([sys.executable, __file__, "--windows-worker", json.dumps([n, frac, args.seeds])],
                                 capture_output=True, text=True)
            if res.returncode:
                raise RuntimeError(f"worker {n} {frac} failed:\n{res.stderr}")
            got = json.loads(res.stdout.strip().splitlines()[-1])
            print(f"{n} {frac:.1%}: {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
            for c in got["cases"]:
                rows.append([f"{n}x{n}", f"{frac:.1%}", c["seed"], c["method"], seconds(c["seconds"]),
                             seconds(c["repair_s"]), c["tried"], c["solved"], c["repair_rounds"],
                             "yes" if c["tour"] else f"no: {c['reason']}"])
    text = ["# Huge boards with holes: splice's window step, CP-SAT against the colonies", "", *head, "",
            "`solve_splice(KnightGraph(board), TourSpec(closed=True), window_method=m, seed=1)` on "
            "`random_holed_board(n, n, share, closed=True, seed=k)`; time is the whole call, repair is splice's "
            "step 5 and after (windows, then ruin and recreate; `stats['seconds']['repair']`); windows tried and "
            "solved are `stats['windows_tried']` and `stats['windows']`; ruin and recreate rounds are "
            "`stats['repair_rounds']`; every tour is checked with `ktsolve.tour.validate`. Colonies: "
            "`aco` with its defaults, `iaco` with `degree='free'`, each at most 20,000 walks and the window's "
            "time cap per window; a colony's cycle is taken only when its paths join the same pairs of ends.", "",
            table(["board", "holes", "board seed", "window method", "time", "repair", "windows tried",
                   "windows solved", "ruin rounds", "tour"], rows), "",
            f"Command: `python benchmarks/bench_huge.py {' '.join(sys.argv[1:])}`", ""]
    (HERE / "results" / "huge_windows.md").write_text("\n".join(text))
    print("\n".join(text))


def run_worker(n, frac, seeds, runs, rotation_limit, questions) -> dict:
    arg = json.dumps([n, frac, seeds, runs, rotation_limit, list(questions)])
    res = subprocess.run([sys.executable, __file__, "--worker", arg], capture_output=True, text=True)
    if res.returncode:
        raise RuntimeError(f"worker {arg} failed:\n{res.stderr}")
    return json.loads(res.stdout.strip().splitlines()[-1])


def _timed(cmd: list[str], log: Path) -> dict:
    """Run ``cmd`` under ``/usr/bin/time -v``: wall seconds, peak resident MB, exit code, its last line."""
    got = timed_process(cmd, log)
    return {**got, "said": got["out"][-1][:90]}


LOCAL_CHILD = """
import json, resource, sys, time
import numpy as np
from ktsolve import Board, TourSpec
from ktsolve.proofs.local import local_proof, warm
warm()
board = Board.from_mask(np.load(sys.argv[1]))
t0 = time.perf_counter()
proof = local_proof(board, TourSpec(closed=True), cuts=False)
one_pass = time.perf_counter() - t0
t0 = time.perf_counter()
proof = local_proof(board, TourSpec(closed=True))
print(json.dumps({"one_pass": one_pass, "all": time.perf_counter() - t0, "proof": str(proof),
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def process_rows(n: int, share: str, seed: int) -> tuple[list, dict]:
    """The whole programs on an n x n board: make the mask, solve it to a .npy tour, verify it."""
    import tempfile

    exe = Path(sys.executable).with_name("ktsolve")
    run = [str(exe)] if exe.exists() else [sys.executable, "-m", "ktsolve.cli"]
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench_huge_") as tmp:
        d = Path(tmp)
        mask, tour = str(d / "mask.npy"), str(d / "tour.npy")
        steps = [
            ("make the board", [*run, "board", "random", f"{n}x{n}", "--holes", share, "--closed", "--seed",
                                str(seed), "-o", mask]),
            ("solve", [*run, "solve", mask, "--closed", "--format", "npy", "-o", tour]),
            ("verify", [*run, "verify", mask, tour, "--closed"]),
        ]
        for name, cmd in steps:
            got = _timed(cmd, d / "time.txt")
            shown = " ".join(["ktsolve", *cmd[len(run):]]).replace(tmp + "/", "")
            rows.append([name, f"`{shown}`", seconds(got["wall"]), f"{got['peak_mb']:.0f} MB", got["exit"],
                         got["said"]])
            print(rows[-1], file=sys.stderr, flush=True)
        res = subprocess.run([sys.executable, "-c", LOCAL_CHILD, mask], capture_output=True, text=True, check=True)
        local = json.loads(res.stdout.strip().splitlines()[-1])
    return rows, local


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,2000,4000")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--rotation-limit", type=float, default=60.0)
    ap.add_argument("--rotation-max", type=int, default=2000, help="largest n that gets the rotation run")
    ap.add_argument("--shares", default=",".join(str(f) for f in FRACS), help="hole shares (fractions)")
    ap.add_argument("--out", help="name of the results file (default huge, or huge_10k with --huge)")
    ap.add_argument("--huge", action="store_true")
    ap.add_argument("--process", action="store_true",
                    help="with --huge: also the whole programs (board random, solve -o tour.npy, verify)")
    ap.add_argument("--worker")
    ap.add_argument("--windows", action="store_true", help="splice's window solvers (writes huge_windows.md)")
    ap.add_argument("--windows-worker")
    args = ap.parse_args()
    if args.windows_worker:
        print(json.dumps(windows_worker(*json.loads(args.windows_worker))))
        return
    if args.windows:
        if args.sizes == ap.get_default("sizes"):
            args.sizes = "2000"
        windows_main(args)
        return
    if args.worker:
        n, frac, seeds, runs, rot, questions = json.loads(args.worker)
        print(json.dumps(worker(n, frac, seeds, runs, rot, questions)))
        return
    head = machine_lines()
    if args.huge:
        plan = [(10_000, 0.01, 1, ("closed",))]
        target = HERE / "results" / "huge_10k.md"
    else:
        shares = [float(f) for f in args.shares.split(",")]
        plan = [(int(s), f, args.seeds, QUESTIONS) for s in args.sizes.split(",") for f in shares]
        target = HERE / "results" / "huge.md"
    if args.out:
        target = HERE / "results" / (Path(args.out).name if args.out.endswith(".md") else f"{args.out}.md")
    rows, rss_rows, per_square, phase_rows = [], [], {}, []
    for n, frac, seeds, questions in plan:
        rot = args.rotation_limit if n <= args.rotation_max and not args.huge else None
        t0 = time.perf_counter()
        got = run_worker(n, frac, seeds, args.runs, rot, questions)
        print(f"{n} {frac:.1%}: {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
        rss_rows.append([f"{n}x{n}", f"{frac:.1%}", f"{got['maxrss_mb']:.0f} MB",
                         seconds(statistics.median(got["gen"]))])
        for question in questions:
            cases = [c for c in got["cases"] if c["question"] == question]
            solve_t = statistics.median(c["solve"] for c in cases)
            squares = statistics.median(c["squares"] for c in cases)
            rot_cases = [c for c in cases if "rotation" in c]
            rot_text = "-"
            if rot_cases:
                rc = rot_cases[0]
                rot_text = f"{'found' if rc['rotation_found'] else 'unknown'} in {seconds(rc['rotation'])}"
            reasons = sorted({c["reason"] for c in cases if c["reason"]})
            rows.append([f"{n}x{n}", f"{frac:.1%}", question, f"{sum(c['found'] for c in cases)}/{len(cases)}",
                         seconds(solve_t), seconds(statistics.median(c["method"] for c in cases)),
                         seconds(statistics.median(c["validate"] for c in cases)),
                         f"{solve_t / squares * 1e9:.0f} ns", rot_text, "; ".join(reasons) or ""])
            if question == "closed" and frac == 0.01:
                per_square[n] = solve_t / squares
            if question == "closed":
                names = ("tour_of_full_board", "restore", "merge", "repair", "walk")
                phase_rows.append([f"{n}x{n}", f"{frac:.1%}"] + [
                    seconds(statistics.median(c["phases"].get(k, 0.0) for c in cases)) for k in names])
    text = ["# Huge boards with holes: splice beside rotation", "", *head, "",
            "Boards from `random_holed_board(n, n, share, closed=..., seed=1..k)` (colour-balanced for the "
            "question). `solve()` is the whole in-process call `solve(board, closed=..., start=..., end=...)` "
            "(auto: splice is its first step on boards with holes above 10,000 squares, before any graph "
            "is built), the tour's validation included; tours: settled by splice; method and validation are its two parts (`stats['steps']`); per "
            "square is `solve()` over the squares. Medians over the seeds. Rotation: "
            "`solve(board, method='rotation', closed=True, time_limit=...)` on the first seed's closed "
            "question. Peak memory: `ru_maxrss` of the worker process of one size and share (all its "
            "seeds and questions).", "",
            table(["board", "holes", "question", "tours", "solve()", "method", "validation", "per square",
                   "rotation", "unknown because"], rows), "",
            table(["board", "holes", "peak memory", "random_holed_board"], rss_rows), "",
            "Splice's phases on the closed question (`stats['seconds']`, medians): divide's tour of the full "
            "board as links with the holes cut out; the 2-factor restored; the exchanges; windows and ruin and "
            "recreate; the walk into the tour.", "",
            table(["board", "holes", "full board", "restore", "merge", "repair", "walk"], phase_rows), ""]
    if args.huge and args.process:
        rows, local = process_rows(10_000, "1%", 1)
        text += ["Whole process (issue 18's target: solve under 90 s, peak RSS under 6.4 GB): each command under "
                 "`/usr/bin/time -v` (wall clock, maximum resident set size), numba's cache already filled; "
                 "the same board as above (seed 1).", "",
                 table(["step", "command", "wall", "peak RSS", "exit", "said"], rows), "",
                 "The local proofs on that board (no obstruction there), in a fresh process after loading "
                 "their kernels: the one-pass checks (size, ends, colours, degrees; what runs before splice) "
                 f"{seconds(local['one_pass'])}; with connectivity and cut squares (the depth-first search "
                 f"that runs after splice gives up) {seconds(local['all'])}; peak {local['peak_mb']:.0f} MB; "
                 f"said: {local['proof']}.", ""]
    if per_square:
        base = min(per_square)
        text += ["Time per square, closed, 1% holes, relative to the smallest board: "
                 + ", ".join(f"{n}x{n}: {v / per_square[base]:.2f}x" for n, v in sorted(per_square.items())), ""]
    text += [f"Command: `python benchmarks/bench_huge.py {' '.join(sys.argv[1:])}`".replace("  ", " "), ""]
    target.write_text("\n".join(text))
    print("\n".join(text))


if __name__ == "__main__":
    main()
