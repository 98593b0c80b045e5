"""Large boards with holes: ktsolve's default method against LKH-3 and CP-SAT.

Targets (issue "huge boards"): through ``ktsolve solve ... --closed`` with the
default method, a 200x200 board with 1% random holes gets a closed tour in
under 5 s on at least 9 of 10 boards, and a 1000x1000 board with 0.1% holes
in under 60 s; open tours likewise.

Boards come from :func:`ktsolve.generate.random_holed_board` with fixed seeds
(no square with fewer than two neighbours, colours balanced, connected).

What runs
---------
* ktsolve through the public API, ``ktsolve.solve(board, closed=..., seed=k)``
  with the default method (``auto``): 10 boards of 200x200 with 1% holes and
  2 boards (5 with ``--full``) of 1000x1000 with 0.1% holes, closed and open.
  Every tour is validated by ``solve`` itself.  The time is ``result.elapsed``
  (graph, presolve proofs, method, validation).
* The stages of one 1000x1000 solve: building the knight graph, the
  linear-time proofs of :mod:`ktsolve.proofs`, the method, validation.
* The whole ``ktsolve solve BOARD_FILE --closed`` process for one board of
  each size (start-up, reading the board, writing the text output), and the
  numba first-call compile time with an empty cache.
* LKH-3 through the ``elkai`` package (benchmark-only: install it with
  ``pip install elkai``; it is not a ktsolve dependency).  The knight graph is
  written as a TSPLIB ``HCP`` problem (Hamiltonian cycle: graph edges cost 0,
  any other pair 1, so a tour of cost 0 is a Hamiltonian cycle; the same as
  "distance 1 for knight's moves, a large distance otherwise"), with
  ``OPTIMUM = 0`` so that LKH stops at the first Hamiltonian cycle and
  ``TIME_LIMIT``/``TOTAL_TIME_LIMIT`` as a cap.  Open tours add a dummy node
  joined to every square.  LKH runs in a child process that is killed after
  the cap plus a margin (its preprocessing ignores the time limits), and its
  tour is checked with ``ktsolve.validate``.  Two settings: elkai's defaults
  (``RUNS = 1``), and ``SUBGRADIENT = NO``, which skips the subgradient
  ascent that dominates its preprocessing.
* CP-SAT (OR-Tools ``add_circuit`` over the knight's arcs, 2 workers, so not
  reproducible run to run) on the smaller boards for contrast.

The machine may be shared while this runs: timings carry the date, the CPU and
the load average, and are noisy.

Usage::

    python benchmarks/bench_rotation.py            # default run, a few minutes
    python benchmarks/bench_rotation.py --full     # all boards, every peer on 200x200
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _machine import machine_lines  # noqa: E402

from ktsolve import KnightGraph, TourSpec, solve, validate
from ktsolve.generate import random_holed_board

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "rotation.md"


# ---------------------------------------------------------------------- helpers
def fmt(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x:.3f}" if x < 0.1 else f"{x:.2f}"


def table(title: str, columns: list[str], rows: list[list], notes: list[str] = ()) -> str:
    out = [f"### {title}", "", "| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    if notes:
        out.append("")
        out += [f"- {n}" for n in notes]
    return "\n".join(out) + "\n"


def boards(size: int, frac: float, count: int, closed: bool):
    return [random_holed_board(size, size, frac, seed=k, closed=closed) for k in range(count)]


# ---------------------------------------------------------------------- ktsolve
def run_ktsolve(groups, report) -> list[list]:
    rows = []
    # Load the numba cache once, outside the timings.
    solve(random_holed_board(30, 30, 0.02, seed=0, closed=True), method="rotation", closed=True, seed=0)
    for size, frac, count, closed, target in groups:
        times, found, used = [], 0, set()
        for k, board in enumerate(boards(size, frac, count, closed)):
            res = solve(board, closed=closed, seed=k)
            times.append(res.elapsed)
            used.add(res.stats.get("auto", res.method))
            if res.found:
                found += 1
            report(f"  ktsolve {size}x{size} {'closed' if closed else 'open'} board {k}: "
                   f"{res.status.value} in {res.elapsed:.2f} s")
        under = sum(t < target for t in times)
        rows.append([f"{size}x{size}", f"{frac:.1%}", "closed" if closed else "open", count,
                     f"{found}/{count}", f"{under}/{count}", fmt(statistics.median(times)), fmt(max(times)),
                     ", ".join(sorted(used))])
    return rows


def stages(size: int, frac: float) -> list[list]:
    from ktsolve.heuristics.rotation import solve_rotation
    from ktsolve.proofs import quick_proof

    rows = []
    for closed in (True, False):
        board = random_holed_board(size, size, frac, seed=0, closed=closed)
        spec = TourSpec(closed=closed)
        t = time.perf_counter()
        graph = KnightGraph(board)
        graph.indptr, graph.coords  # noqa: B018 - build the arrays
        t_graph = time.perf_counter() - t
        t = time.perf_counter()
        proof = quick_proof(graph, spec)
        t_proof = time.perf_counter() - t
        t = time.perf_counter()
        res = solve_rotation(graph, spec, seed=0)
        t_method = time.perf_counter() - t
        t = time.perf_counter()
        if res.found:
            validate(board, res.tour, closed=closed)
        t_valid = time.perf_counter() - t
        rows.append([f"{size}x{size}", "closed" if closed else "open", fmt(t_graph), fmt(t_proof),
                     "none" if proof is None else proof.argument, fmt(t_method), res.status.value, fmt(t_valid),
                     res.stats.get("rotations"), res.stats.get("walk_steps"), res.stats.get("given_back")])
    return rows


def ktsolve_exe() -> list[str]:
    exe = Path(sys.executable).with_name("ktsolve")
    return [str(exe)] if exe.exists() else [sys.executable, "-c", "from ktsolve.cli import main; main()"]


def whole_process(specs, tmp: Path) -> list[list]:
    rows = []
    for size, frac in specs:
        board = random_holed_board(size, size, frac, seed=0, closed=True)
        path = tmp / f"board{size}.txt"
        path.write_text(board.to_text() + "\n")
        out = tmp / f"tour{size}.txt"
        t = time.perf_counter()
        proc = subprocess.run(ktsolve_exe() + ["solve", str(path), "--closed", "--seed", "0", "-o", str(out)],
                              capture_output=True, text=True)
        wall = time.perf_counter() - t
        rows.append([f"{size}x{size}", f"{frac:.1%}", "closed", proc.returncode, fmt(wall),
                     proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else ""])
    return rows


def compile_time(tmp: Path) -> list[list]:
    board = random_holed_board(30, 30, 0.02, seed=0, closed=True)
    path = tmp / "board30.txt"
    path.write_text(board.to_text() + "\n")
    rows = []
    cache = tempfile.mkdtemp(prefix="numba-cache-")
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    for label in ("empty numba cache (compiles)", "warm cache"):
        t = time.perf_counter()
        proc = subprocess.run(ktsolve_exe() + ["solve", str(path), "--closed", "--method", "rotation",
                                               "--seed", "0", "-o", str(tmp / "t30.txt")],
                              capture_output=True, text=True, env=env)
        rows.append([label, proc.returncode, fmt(time.perf_counter() - t)])
    return rows


# ---------------------------------------------------------------------- LKH-3 (elkai)
def _hcp_problem(graph: KnightGraph, closed: bool, path: Path) -> int:
    edges = graph.edges().astype(np.int64) + 1
    dim = graph.n
    if not closed:
        dim += 1  # a dummy node next to every square turns a cycle into a path
        extra = np.stack([np.full(graph.n, dim), np.arange(1, graph.n + 1)], axis=1)
        edges = np.concatenate([edges, extra])
    with open(path, "w", encoding="ascii") as fh:
        fh.write(f"NAME : knight\nTYPE : HCP\nDIMENSION : {dim}\nEDGE_DATA_FORMAT : EDGE_LIST\n")
        fh.write("EDGE_DATA_SECTION\n")
        np.savetxt(fh, edges, fmt="%d")
        fh.write("-1\nEOF\n")
    return dim


def lkh_worker(problem: str, cap: float, extra: str) -> None:
    """Child process: run LKH-3 on ``problem`` and print the tour as JSON."""
    from elkai import _elkai

    params = (f"PROBLEM_FILE = {problem}\nRUNS = 1\nOPTIMUM = 0\nTIME_LIMIT = {cap}\n"
              f"TOTAL_TIME_LIMIT = {cap}\nTRACE_LEVEL = 0\n" + extra.replace(";", "\n") + "\n")
    t = time.perf_counter()
    tour = _elkai.solve_problem(params, "")
    print(json.dumps({"tour": tour, "seconds": time.perf_counter() - t}))


def run_lkh(board, closed: bool, cap: float, extra: str, tmp: Path) -> tuple[str, float | None]:
    graph = KnightGraph(board)
    problem = tmp / "knight.hcp"
    dim = _hcp_problem(graph, closed, problem)
    t = time.perf_counter()
    try:
        proc = subprocess.run([sys.executable, __file__, "--lkh-worker", str(problem), str(cap), extra],
                              capture_output=True, text=True, timeout=cap + 30)
    except subprocess.TimeoutExpired:
        return f"killed after {cap + 30:.0f} s", None
    wall = time.perf_counter() - t
    if proc.returncode != 0 or not proc.stdout.strip():
        return f"failed (exit {proc.returncode})", None
    tour = np.array(json.loads(proc.stdout.strip().splitlines()[-1])["tour"], dtype=np.int64) - 1
    if not closed:
        k = int(np.flatnonzero(tour == dim - 1)[0])
        tour = np.roll(tour, -k)[1:]
    try:
        validate(board, tour, closed=closed)
    except Exception:
        return f"no tour within {cap:.0f} s", None
    return "found", wall


def lkh_rows(groups, cap: float, tmp: Path, report) -> list[list]:
    rows = []
    for size, frac, count, closed, settings in groups:
        for label, extra in settings:
            results = []
            for k, board in enumerate(boards(size, frac, count, closed)):
                status, wall = run_lkh(board, closed, cap, extra, tmp)
                results.append((status, wall))
                report(f"  LKH-3 ({label}) {size}x{size} {'closed' if closed else 'open'} board {k}: {status}"
                       + ("" if wall is None else f" in {wall:.2f} s"))
            times = [w for s, w in results if w is not None]
            others = sorted({s for s, w in results if w is None})
            rows.append([f"{size}x{size}", f"{frac:.1%}", "closed" if closed else "open", label, count,
                         f"{len(times)}/{count}", fmt(statistics.median(times)) if times else "-",
                         fmt(max(times)) if times else "-", "; ".join(others)])
    return rows


# ---------------------------------------------------------------------- CP-SAT
def run_cpsat(board, closed: bool, cap: float) -> tuple[str, float | None]:
    from ortools.sat.python import cp_model

    t = time.perf_counter()
    graph = KnightGraph(board)
    model = cp_model.CpModel()
    n = graph.n
    src = np.repeat(np.arange(n), graph.degree).tolist()
    arcs, lits = [], {}
    for a, b in zip(src, graph.indices.tolist()):
        lit = model.new_bool_var("")
        arcs.append((a, b, lit))
        lits[(a, b)] = lit
    if not closed:
        for v in range(n):  # dummy node n: the tour leaves it to the start and enters it from the end
            arcs.append((n, v, model.new_bool_var("")))
            arcs.append((v, n, model.new_bool_var("")))
    model.add_circuit(arcs)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = cap
    solver.parameters.num_workers = 2
    status = solver.solve(model)
    wall = time.perf_counter() - t
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return f"{solver.status_name(status).lower()} when it stopped at {wall:.0f} s (cap {cap:g} s)", None
    nxt = {a: b for (a, b), lit in lits.items() if solver.value(lit)}
    if closed:
        tour = [0]
    else:
        heads = set(nxt.values())
        tour = [next(v for v in range(n) if v not in heads)]
    while len(tour) < n:
        tour.append(nxt[tour[-1]])
    validate(board, np.array(tour), closed=closed)
    return "found", wall


def cpsat_rows(groups, cap: float, report) -> list[list]:
    rows = []
    for size, frac, count, closed in groups:
        results = []
        for k, board in enumerate(boards(size, frac, count, closed)):
            status, wall = run_cpsat(board, closed, cap)
            results.append((status, wall))
            report(f"  CP-SAT {size}x{size} {'closed' if closed else 'open'} board {k}: {status}"
                   + ("" if wall is None else f" in {wall:.2f} s"))
        times = [w for s, w in results if w is not None]
        others = sorted({s for s, w in results if w is None})
        rows.append([f"{size}x{size}", f"{frac:.1%}", "closed" if closed else "open", count,
                     f"{len(times)}/{count}", fmt(statistics.median(times)) if times else "-",
                     fmt(max(times)) if times else "-", "; ".join(others)])
    return rows


# ---------------------------------------------------------------------- main
def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--full", action="store_true", help="5 boards of 1000x1000 and every peer on 200x200")
    ap.add_argument("--no-lkh", action="store_true", help="skip LKH-3")
    ap.add_argument("--no-cpsat", action="store_true", help="skip CP-SAT")
    ap.add_argument("--lkh-cap", type=float, default=120.0, help="seconds LKH-3 may search (default 120)")
    ap.add_argument("--cpsat-cap", type=float, default=60.0, help="seconds CP-SAT may search (default 60)")
    ap.add_argument("--out", type=Path, default=RESULTS, help="markdown file for the tables")
    ap.add_argument("--lkh-worker", nargs=3, metavar=("PROBLEM", "CAP", "EXTRA"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.lkh_worker:
        problem, cap, extra = args.lkh_worker
        lkh_worker(problem, float(cap), extra)
        return

    def report(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    t_start = time.perf_counter()
    big = 5 if args.full else 2
    sections = ["# Large boards with holes: ktsolve (auto) against LKH-3 and CP-SAT", ""]
    sections += [f"- {line}" for line in machine_lines(extra=("elkai",))]
    shown = " ".join(sys.argv[1:] if argv is None else argv)
    sections.append(f"- command: `python benchmarks/bench_rotation.py{' ' + shown if shown else ''}`")
    sections.append("")

    report("ktsolve, default method ...")
    groups = [(200, 0.01, 10, True, 5.0), (200, 0.01, 10, False, 5.0),
              (1000, 0.001, big, True, 60.0), (1000, 0.001, big, False, 60.0)]
    rows = run_ktsolve(groups, report)
    sections.append(table(
        "ktsolve.solve(board, closed=..., seed=k), default method",
        ["board", "holes", "tour", "boards", "found", "under target", "median s", "worst s", "methods"],
        rows,
        ["target: under 5 s (200x200) and under 60 s (1000x1000); board seeds 0.., solve seed = board seed",
         "time = result.elapsed: knight graph, presolve proofs, method, validation of the tour"]))

    report("stages of one 1000x1000 solve ...")
    sections.append(table(
        "Stages of one solve (board seed 0, rotation seed 0)",
        ["board", "tour", "graph s", "proofs s", "proof", "rotation s", "status", "validate s", "rotations",
         "walk steps", "given back"],
        stages(1000, 0.001),
        ["proofs = ktsolve.proofs.quick_proof (colour, degree, connectivity), which solve() runs "
         "first on boards up to 5,000,000 squares"]))

    with tempfile.TemporaryDirectory() as tmpname:
        tmp = Path(tmpname)
        report("whole ktsolve processes ...")
        sections.append(table(
            "Whole process: ktsolve solve BOARD_FILE --closed --seed 0 -o FILE",
            ["board", "holes", "tour", "exit", "wall s", "summary line"],
            whole_process([(200, 0.01), (1000, 0.001)], tmp),
            ["wall time of the whole command: start-up, reading the board file, graph, proofs, method, "
             "validation, writing the text matrix"]))
        report("numba compile time ...")
        sections.append(table(
            "Numba first call (ktsolve solve 30x30-board --closed --method rotation)",
            ["cache", "exit", "wall s"], compile_time(tmp),
            ["first run: NUMBA_CACHE_DIR pointed at an empty folder, so the kernels compile; "
             "second run: same folder, now filled"]))

        if not args.no_lkh:
            try:
                import elkai  # noqa: F401
                have_elkai = True
            except ImportError:
                have_elkai = False
            if have_elkai:
                report("LKH-3 ...")
                default = ("elkai defaults", "")
                nosub = ("SUBGRADIENT = NO", "SUBGRADIENT = NO")
                lkh_groups = [(50, 0.01, 3, True, [default, nosub]), (50, 0.01, 3, False, [nosub]),
                              (200, 0.01, 1, True, [nosub])]
                if args.full:
                    lkh_groups = [(50, 0.01, 10, True, [default, nosub]), (50, 0.01, 10, False, [nosub]),
                                  (200, 0.01, 1, True, [default]), (200, 0.01, 10, True, [nosub]),
                                  (200, 0.01, 3, False, [nosub])]
                ours = run_ktsolve([(50, 0.01, 10 if args.full else 3, True, 5.0),
                                    (50, 0.01, 10 if args.full else 3, False, 5.0)], report)
                sections.append(table(
                    "LKH-3 (elkai), the knight graph as an HCP problem",
                    ["board", "holes", "tour", "setting", "boards", "found", "median s", "worst s", "otherwise"],
                    lkh_rows(lkh_groups, args.lkh_cap, tmp, report),
                    [f"cap: TIME_LIMIT = TOTAL_TIME_LIMIT = {args.lkh_cap:g} s, child killed {30} s later; "
                     "wall time of the child process (reading the problem, preprocessing, search)",
                     "boards: the same seeds as ktsolve's rows (seed 0.. of each size)",
                     "ktsolve on the same 50x50 boards: "
                     + "; ".join(f"{r[2]} {r[4]} found, median {r[6]} s, worst {r[7]} s" for r in ours)]))
            else:
                sections.append("### LKH-3\n\nelkai is not installed (pip install elkai); skipped.\n")

        if not args.no_cpsat:
            report("CP-SAT ...")
            cp_groups = [(50, 0.01, 3, True), (50, 0.01, 3, False), (200, 0.01, 1, True)]
            if args.full:
                cp_groups = [(50, 0.01, 10, True), (50, 0.01, 10, False), (200, 0.01, 3, True)]
            sections.append(table(
                "CP-SAT (OR-Tools add_circuit on the knight's arcs)",
                ["board", "holes", "tour", "boards", "found", "median s", "worst s", "otherwise"],
                cpsat_rows(cp_groups, args.cpsat_cap, report),
                [f"cap: max_time_in_seconds = {args.cpsat_cap:g}, 2 workers; time includes building the model",
                 "the 200x200 model has about 309,000 arc literals; CP-SAT spends most of its time in presolve"]))

    sections.append(f"Total benchmark time {time.perf_counter() - t_start:.0f} s.\n")
    text = "\n".join(sections)
    print(text)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
