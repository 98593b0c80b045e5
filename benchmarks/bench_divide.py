"""Divide and conquer on huge boards, beside JGraphT 1.5.1's ParberryKnightTour.

Measures, for square and odd-shaped boards up to 4000x4000 (only the
10,000x10,000 boards with --huge, written to results/divide_huge.md):

* solver time in-process (median of several runs, numba kernels already
  loaded): the whole ``solve(board, method="divide")`` call the user gets,
  tour validation included, and its two parts (construction, validation);
* peak memory of a fresh process that builds and validates one tour
  (``ru_maxrss``, Python, numpy and numba included);
* whole-process command-line time and peak memory of
  ``ktsolve solve NxN --closed --method divide --format npy -o FILE`` and of
  ``ktsolve verify`` on that file;
* numba: first call with an empty cache (compilation) and with the cache;
* JGraphT's ``ParberryKnightTour`` (Debian ``libjgrapht-java``, our harness
  in benchmarks/java/ compiled here), which builds closed tours of n x n
  and n x (n+2) boards (n even) only: first run and median of the rest,
  time to ``getTour()`` and to list the squares.

Run:  python benchmarks/bench_divide.py [--huge] [--runs 3] [--no-java]
Writes benchmarks/results/divide.md (divide_huge.md with --huge).  The
default run takes a few minutes on a quiet machine; JGraphT's 4000x4000 runs
once there.  JGraphT is not run at 10,000x10,000 (its tour of 10^8 linked
Java objects does not fit the memory of the machines we use).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _machine import machine_lines  # noqa: E402

RESULTS = HERE / "results" / "divide.md"
JARS = ("/usr/share/java/jgrapht-core.jar", "/usr/share/java/jgrapht-demo.jar")
JAVA_SRC = HERE / "java" / "ParberryTiming.java"

# (rows, cols, closed, start) -- the targets of the issue: 1000x1000 < 0.2 s, 4000x4000 < 3 s,
# 10,000x10,000 < 30 s and < 3 GB, and the same for odd shapes.
BOARDS = [
    (1000, 1000, True, None),
    (999, 1000, True, None),
    (1001, 1001, False, None),
    (1000, 1000, False, (500, 500)),
    (3, 333_334, True, None),
    (4, 250_001, False, None),
    (4000, 4000, True, None),
    (3999, 4000, True, None),
    (4001, 4001, False, None),
]
HUGE = [(10_000, 10_000, True, None), (9_999, 10_000, True, None), (10_001, 10_001, False, None)]
# (rows, cols, timed runs after the first)
JAVA_BOARDS = [(1000, 1000, 2), (1000, 1002, 2), (4000, 4000, 0)]


# ---------------------------------------------------------------------- small helpers
def seconds(x) -> str:
    if x is None:
        return "-"
    return f"{x * 1000:.0f} ms" if x < 1 else f"{x:.2f} s"


def table(head, rows) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def label(rows, cols, closed, start) -> str:
    text = f"{rows}x{cols} {'closed' if closed else 'open'}"
    return text + (f" from {start[0]},{start[1]}" if start else "")


# ---------------------------------------------------------------------- worker (a fresh process)
def worker(rows: int, cols: int, closed: bool, start, runs: int) -> dict:
    """Time construction, validation and the whole solve() in this process; report its peak memory."""
    t0 = time.perf_counter()
    from ktsolve import Board, KnightGraph, TourSpec, solve, validate
    from ktsolve.heuristics.divide import solve_divide

    t_import = time.perf_counter() - t0
    board = Board(rows, cols)
    spec = TourSpec(closed=closed, start=start)
    t0 = time.perf_counter()
    first = solve(board, method="divide", closed=closed, start=start)  # loads numba kernels and blocks
    t_first = time.perf_counter() - t0
    assert first.status.value == "found", first.stats
    del first
    build, check, whole, cpu = [], [], [], []
    for _ in range(runs):
        t0 = time.perf_counter()
        res = solve_divide(KnightGraph(board), spec)
        t1 = time.perf_counter()
        validate(board, res.tour, closed=closed, start=start)
        t2 = time.perf_counter()
        del res
        c3, t3 = time.process_time(), time.perf_counter()
        full = solve(board, method="divide", closed=closed, start=start)
        t4, c4 = time.perf_counter(), time.process_time()
        assert full.status.value == "found"
        del full
        build.append(t1 - t0)
        check.append(t2 - t1)
        whole.append(t4 - t3)
        cpu.append(c4 - c3)
    return {
        "import": t_import,
        "first": t_first,
        "build": statistics.median(build),
        "validate": statistics.median(check),
        "solve": statistics.median(whole),
        "solve_cpu": statistics.median(cpu),
        "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def run_worker(board, runs: int, env=None) -> dict:
    rows, cols, closed, start = board
    arg = json.dumps([rows, cols, closed, start, runs])
    res = subprocess.run([sys.executable, __file__, "--worker", arg], capture_output=True, text=True, env=env)
    if res.returncode:
        raise RuntimeError(f"worker {arg} failed:\n{res.stderr}")
    return json.loads(res.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------------- command line and numba
def timed_process(cmd, env=None) -> tuple[float, float, int]:
    """Wall time, peak memory (MB) and exit code of one process."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, _, ru = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.stderr.close()
    return wall, ru.ru_maxrss / 1024, proc.returncode if proc.returncode is not None else 0


def cli_rows(sizes, runs: int):
    exe = shutil.which("ktsolve") or str(Path(sys.executable).with_name("ktsolve"))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for r, c, closed, fmt in sizes:
            out = os.path.join(tmp, f"t.{'npy' if fmt == 'npy' else 'txt'}")
            solve_cmd = [exe, "solve", f"{r}x{c}", "--method", "divide", "--format", fmt, "-o", out]
            verify_cmd = [exe, "verify", f"{r}x{c}", out]
            if closed:
                solve_cmd.insert(3, "--closed")
                verify_cmd.append("--closed")
            s = [timed_process(solve_cmd) for _ in range(runs)]
            v = [timed_process(verify_cmd) for _ in range(runs)]
            rows.append([
                f"{r}x{c} {'closed' if closed else 'open'}, {fmt}",
                seconds(statistics.median(x[0] for x in s)),
                f"{max(x[1] for x in s):.0f} MB",
                seconds(statistics.median(x[0] for x in v)),
                f"{max(x[1] for x in v):.0f} MB",
            ])
    return rows


def numba_rows():
    """First call of the kernels with an empty numba cache (compiles) and with a filled one."""
    rows = []
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        probe = [
            sys.executable, "-c",
            "import time; t=time.perf_counter(); import numba; t1=time.perf_counter();"
            "from ktsolve import solve; t2=time.perf_counter(); solve('12x12', method='divide', closed=True);"
            "print(t1-t, time.perf_counter()-t2)",
        ]
        for what in ("empty cache (compiles)", "filled cache"):
            res = subprocess.run(probe, capture_output=True, text=True, env=env)
            imp, first = (float(v) for v in res.stdout.split())
            rows.append([what, seconds(imp), seconds(first)])
    return rows


# ---------------------------------------------------------------------- JGraphT
def java_rows(sizes):
    if not (shutil.which("javac") and all(os.path.exists(j) for j in JARS)):
        return None
    build = tempfile.mkdtemp(prefix="ktsolve-java-")
    cp = ":".join(JARS)
    subprocess.run(["javac", "-cp", cp, "-d", build, str(JAVA_SRC)], check=True)
    rows = []
    for r, c, runs in sizes:
        cmd = ["java", "-cp", f"{cp}:{build}", "org.jgrapht.demo.ParberryTiming", str(r), str(c), str(runs + 1),
               "check" if r * c <= 1_100_000 else "nocheck"]
        t0 = time.perf_counter()
        res = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        if res.returncode:
            rows.append([f"{r}x{c} closed", "failed: " + (res.stderr.strip().splitlines() or ["?"])[-1], "", "", ""])
            continue
        lines = res.stdout.split("\n")
        runs_ = [ln.split() for ln in lines if ln.startswith("run ")]
        get = [float(x[2]) for x in runs_]
        listing = [float(x[3]) for x in runs_]
        verdict = next((ln for ln in lines if ln.startswith(("valid", "invalid"))), "not checked")
        rest = get[1:] or get
        rows.append([f"{r}x{c} closed", seconds(get[0]), seconds(statistics.median(rest)),
                     seconds(statistics.median(listing[1:] or listing)), seconds(wall), verdict])
    shutil.rmtree(build, ignore_errors=True)
    return rows


# ---------------------------------------------------------------------- main
def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--huge", action="store_true", help="only the 10,000x10,000 boards (no JGraphT)")
    ap.add_argument("--runs", type=int, default=3, help="timed runs per board (median)")
    ap.add_argument("--no-java", action="store_true", help="skip JGraphT")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        rows, cols, closed, start, runs = json.loads(args.worker)
        print(json.dumps(worker(rows, cols, closed, tuple(start) if start else None, runs)))
        return 0

    head = ["# Divide and conquer on huge boards", "", *machine_lines(java=True), ""]
    print("\n".join(head), flush=True)
    out = list(head)

    boards = HUGE if args.huge else BOARDS
    rows = []
    for b in boards:
        runs = 1 if b[0] * b[1] >= 50_000_000 else args.runs
        m = run_worker(b, runs)
        rows.append([label(*b), seconds(m["solve"]), seconds(m["solve_cpu"]), seconds(m["build"]),
                     seconds(m["validate"]), seconds(m["first"]), f"{m['maxrss_mb']:.0f} MB"])
        print("  ", rows[-1], flush=True)
    sec = [
        "## ktsolve divide, in-process",
        "",
        f"Median of {args.runs} runs (1 run from 50M squares) in a fresh process per board, after one "
        "untimed call that loads the numba kernels and the stored blocks. `solve()` is what "
        "`ktsolve.solve(board, method='divide')` costs, the validation of the tour included; "
        "build is the construction alone; CPU is the process time of `solve()` (user + system), "
        "which a shared machine inflates less than the wall time. First call: the untimed call "
        "(numba kernels loaded from the cache). Peak memory: the process's maximum resident set "
        "(Python, numpy, numba included).",
        "",
        table(["board", "solve()", "solve() CPU", "build", "validate", "first call", "peak memory"], rows),
        "",
    ]
    print("\n".join(sec), flush=True)
    out += sec

    sizes = [(1000, 1000, True, "npy"), (999, 1000, True, "npy"), (1001, 1001, False, "npy"),
             (4000, 4000, True, "npy"), (1000, 1000, True, "text")]
    if args.huge:
        sizes = [(10_000, 10_000, True, "npy"), (10_000, 10_000, True, "text")]
    sec = [
        "## Command line, whole process",
        "",
        "`ktsolve solve RxC [--closed] --method divide --format npy -o FILE` (or `--format text`, "
        "Euler's matrix streamed row by row), then `ktsolve verify RxC FILE`: "
        f"median wall time of {args.runs} processes and their peak memory (`wait4` ru_maxrss).",
        "",
        table(["board", "solve", "peak", "verify", "peak"], cli_rows(sizes, args.runs)),
        "",
    ]
    print("\n".join(sec), flush=True)
    out += sec

    sec = [
        "## numba",
        "",
        "A fresh process with NUMBA_CACHE_DIR set to an empty folder, then again with the filled folder: "
        "`import numba`, and the first `solve('12x12', method='divide', closed=True)` (kernels compiled "
        "or loaded; blocks loaded and checked).",
        "",
        table(["numba cache", "import numba", "first solve"], numba_rows()),
        "",
    ]
    print("\n".join(sec), flush=True)
    out += sec

    if not args.no_java and not args.huge:
        jrows = java_rows(JAVA_BOARDS)
        if jrows is None:
            sec = ["## JGraphT", "", "javac or libjgrapht-java is missing: `apt-get install -y libjgrapht-java`.", ""]
        else:
            sec = [
                "## JGraphT 1.5.1 ParberryKnightTour, same run",
                "",
                "One JVM per board: the first (cold) run, the median of 2 more (none at 4000x4000), and the "
                "time to list the "
                "squares of the tour (`toList()`); the last column is the whole JVM's wall time. It builds "
                "closed tours of n x n and n x (n+2) boards (n even) only; 999x1000 or odd boards are not "
                "possible. Tours up to 1,000,000 squares are checked by the harness.",
                "",
                table(["board", "first getTour", "median getTour", "toList", "JVM wall", "check"], jrows),
                "",
            ]
        print("\n".join(sec), flush=True)
        out += sec

    target = RESULTS.with_name("divide_huge.md") if args.huge else RESULTS
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("\n".join(out) + "\n", encoding="utf-8")
    print(f"wrote {target.relative_to(HERE.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
