"""Start-up: first-run numba compile time and warm whole-process time of the ``ktsolve`` command.

* ``ktsolve solve 8x8`` (the README's main job): the first run with an empty
  numba cache (compiles the kernels it calls) and warm runs (median).
  Target: warm whole process under 1.5 s.
* ``ktsolve solve 1000x1000 --method warnsdorff --start a1``: warm whole
  process, output to a file.  Target: under 2 s after the first run.
* In one fresh process with an empty cache: the first-call time of each
  kernel of ``warnsdorff`` and ``backtrack`` (compilation included), and
  the time to import ``numba`` and ``ktsolve``.

An empty cache is a fresh ``NUMBA_CACHE_DIR``; the warm runs reuse it.

Run:  python benchmarks/bench_startup.py [--quick]
Writes benchmarks/results/startup.md.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _machine import fmt_s, machine_lines, markdown_table, write_result  # noqa: E402

KTSOLVE = shutil.which("ktsolve", path=str(Path(sys.executable).parent)) or shutil.which("ktsolve")

FIRST_CALLS = r"""
import time, json
t0 = time.perf_counter(); import numba; t1 = time.perf_counter()
import ktsolve; from ktsolve.solve import methods; methods(); t2 = time.perf_counter()
from ktsolve import Board, KnightGraph
from ktsolve.heuristics.warnsdorff import warnsdorff_path
from ktsolve.models.backtrack import Search
g = KnightGraph(Board(5, 5)); g.table; g.degree
t3 = time.perf_counter(); warnsdorff_path(g, 0, "first"); t4 = time.perf_counter()
s = Search(g, 0); t5 = time.perf_counter(); s.run(1000); t6 = time.perf_counter()
print(json.dumps({"import numba": t1 - t0, "import ktsolve + registry": t2 - t1,
                  "warnsdorff walk kernel": t4 - t3, "backtrack init kernel": t5 - t4,
                  "backtrack search kernel": t6 - t5}))
"""


def run(cmd, env):
    """(wall seconds, CPU seconds user + system) of one run of ``cmd``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    res = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    dt = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if res.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {res.returncode}: {res.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return dt, cpu


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer warm runs")
    args = ap.parse_args(argv)
    if KTSOLVE is None:
        sys.exit("the ktsolve command is not installed in this environment")
    warm_runs = 3 if args.quick else 7
    rows = []
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as outdir:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        big_out = os.path.join(outdir, "tour.txt")
        commands = [
            ("ktsolve solve 8x8", [KTSOLVE, "solve", "8x8"]),
            ("ktsolve solve 8x8 --method backtrack", [KTSOLVE, "solve", "8x8", "--method", "backtrack"]),
            ("ktsolve solve 1000x1000 --method warnsdorff --start a1 -o FILE",
             [KTSOLVE, "solve", "1000x1000", "--method", "warnsdorff", "--start", "a1", "-o", big_out]),
            ("ktsolve solve 1000x1000 --method warnsdorff --start a1 --format json -o FILE",
             [KTSOLVE, "solve", "1000x1000", "--method", "warnsdorff", "--start", "a1", "--format", "json",
              "-o", big_out]),
            ("ktsolve --version", [KTSOLVE, "--version"]),
        ]
        for label, cmd in commands:
            first = run(cmd, env)
            warm = [run(cmd, env) for _ in range(warm_runs)]
            wall = [w for w, _ in warm]
            cpu = [c for _, c in warm]
            rows.append([f"`{label}`", fmt_s(first[0]), fmt_s(first[1]), fmt_s(statistics.median(wall)),
                         fmt_s(min(wall)), fmt_s(statistics.median(cpu))])
            print("  ", rows[-1], flush=True)
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        import json

        res = subprocess.run([sys.executable, "-c", FIRST_CALLS], env=env, capture_output=True, text=True,
                             check=True)
        cold = json.loads(res.stdout.strip().splitlines()[-1])
        res = subprocess.run([sys.executable, "-c", FIRST_CALLS], env=env, capture_output=True, text=True,
                             check=True)
        warm = json.loads(res.stdout.strip().splitlines()[-1])
    kernel_rows = [[k, fmt_s(cold[k]), fmt_s(warm[k])] for k in cold]
    for r in kernel_rows:
        print("  ", r)

    text = ["# Start-up and compile time", "", *machine_lines(),
            "",
            "## Whole-process wall time", "",
            f"First = empty numba cache (kernels compiled and cached); warm = median (and best) of "
            f"{warm_runs} later runs.  CPU = user + system time of the process, a steadier figure than "
            "wall time when other jobs share the machine.  Targets: `ktsolve solve 8x8` warm under "
            "1.5 s; the 1000x1000 command warm under 2 s.", "",
            markdown_table(["command", "first wall", "first CPU", "warm wall median", "warm wall best",
                            "warm CPU median"], rows), "",
            "## First call of each kernel in one process", "",
            "Cold = empty cache (compilation); warm = loaded from the cache.", "",
            markdown_table(["step", "cold", "warm"], kernel_rows), "",
            f"Command: `python benchmarks/bench_startup.py{' --quick' if args.quick else ''}`", ""]
    path = write_result("startup", "\n".join(text))
    print("\n".join(text))
    print(f"written {path}")


if __name__ == "__main__":
    main()
