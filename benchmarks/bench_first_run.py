"""First run of every method: a whole process on an empty numba cache, and on a fresh install, against a warm one.

Issue 20 (item 13) and issue 31 (item 2): a first run compiles the numba
kernels it calls (seconds per method, more for splice on a huge board),
where the README's user expects an answer.  The targets: a first run at
most 5 s dearer than a warm one for every method on boards up to 30x30,
and at most 10 s for splice on a huge board.

Two ways of being first are measured, case by case (each method on 8x8 and
on 30x30, closed where it must; splice on a 2000x2000 board with 1 %
holes):

* **empty cache**: ``ktsolve solve ...`` once with a fresh, empty
  ``NUMBA_CACHE_DIR`` (numba compiles every kernel the run calls and caches
  them), then ``--warm`` more times with that cache (median): the cost of
  compiling, on a machine where nothing was prepared;
* **fresh install** (``--install``): the README's set-up (a copy of this
  tree, a new virtual environment, ``pip install .``, which compiles every
  kernel into the wheel: setup.py), then each case once (its first run:
  numba loads the kernels installed beside the sources) and again (warm).
  The install's own time is measured with and without that compile
  (``KTSOLVE_WARM_AT_INSTALL=0``).

The first-run cost is first minus warm, in wall seconds and in CPU seconds
(user + system of the process, the steadier figure on a shared machine).
A time limit does not count the compile (the methods extend their clock by
it), so the cost is compiling plus loading.

Results: ``benchmarks/results/first_run.md`` (with the load average at the
start and the end: rerun it on a quiet machine for figures to compare).

Run:  python benchmarks/bench_first_run.py [--warm 2] [--install] [--no-empty] [METHOD ...]
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
from _machine import machine_lines, markdown_table, write_result  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
KTSOLVE = shutil.which("ktsolve", path=str(Path(sys.executable).parent)) or shutil.which("ktsolve")
#: The first-run costs the issue allows, in seconds: boards up to 30x30, and splice on a huge board.
TARGET_S = 5.0
TARGET_HUGE_S = 10.0
#: The huge board of splice's case.
HUGE = "2000x2000"


def cases(names: list[str], mask: Path) -> list[tuple[str, list[str], float]]:
    """(label, arguments, target) of each run."""
    from ktsolve.registry import methods

    reg = methods()
    out = []
    for name in names:
        info = reg[name]
        extra = [] if info.open else ["--closed"]
        out.append((f"{name} 8x8", ["solve", "8x8", "-m", name, "--seed", "1", "--time-limit", "1", *extra],
                    TARGET_S))
    for name in names:
        info = reg[name]
        if info.max_squares is not None and info.max_squares < 900:
            continue  # csp: 64 squares at most
        extra = [] if info.open else ["--closed"]
        # no time limit for rotation, the case: warm, a 30x30 run takes about the second a limit would
        # give it, so a limit would cut the warm runs and hide the cost
        limit = [] if name == "rotation" else ["--time-limit", "2"]
        out.append((f"{name} 30x30", ["solve", "30x30", "-m", name, "--seed", "1", *limit, *extra], TARGET_S))
    if "splice" in names:
        out.append((f"splice {HUGE}, 1 % holes", ["solve", str(mask), "-m", "splice", "--seed", "1", "-o",
                                                  os.devnull, "--format", "npy"], TARGET_HUGE_S))
    return out


def run(exe: str, args, env) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one whole process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    res = subprocess.run([exe, *args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    dt = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if res.returncode not in (0, 1, 3):
        raise RuntimeError(f"ktsolve {' '.join(args)} exited {res.returncode}: {res.stderr.strip()}")
    return dt, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(exe: str, args, warm: int, env) -> dict:
    cold, cold_cpu = run(exe, args, env)
    warm_runs = [run(exe, args, env) for _ in range(warm)]
    warm_s = statistics.median(w for w, _ in warm_runs)
    warm_cpu = statistics.median(c for _, c in warm_runs)
    return {"cold_s": cold, "cold_cpu_s": cold_cpu, "warm_s": warm_s, "warm_cpu_s": warm_cpu,
            "cost_s": cold - warm_s, "cost_cpu_s": cold_cpu - warm_cpu}


def row(label: str, f: dict, target: float) -> list[str]:
    # on a loaded machine the wall figure waits for other jobs: the CPU figure is the one to trust there
    verdict = " / ".join("yes" if cost <= target else f"no, {cost - target:.1f} s over"
                         for cost in (f["cost_s"], f["cost_cpu_s"]))
    return [label, f"{f['cold_s']:.2f} ({f['cold_cpu_s']:.2f})", f"{f['warm_s']:.2f} ({f['warm_cpu_s']:.2f})",
            f"{f['cost_s']:.2f} ({f['cost_cpu_s']:.2f})", f"{target:g}", verdict]


HEAD = ["run", "first s (CPU)", "warm s (CPU)", "first-run cost s (CPU)", "target s", "within (wall / CPU)"]


def fresh_install(work: Path, warm_at_install: bool) -> tuple[str, float]:
    """A copy of this tree installed by the README's command in a new venv: (its ktsolve, the install's seconds)."""
    src = work / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(".venv", "__pycache__", "*.nbi", "*.nbc", ".git",
                                                             "*.egg-info", "build", "results"))
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env["KTSOLVE_WARM_AT_INSTALL"] = "1" if warm_at_install else "0"
    t0 = time.perf_counter()
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "."], cwd=src, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return str(venv / "bin" / "ktsolve"), time.perf_counter() - t0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("methods", nargs="*", help="methods to measure (default: every registered method)")
    ap.add_argument("--warm", type=int, default=2, help="warm runs per case (median)")
    ap.add_argument("--install", action="store_true", help="also measure a fresh install (minutes)")
    ap.add_argument("--no-empty", action="store_true", help="skip the empty-cache runs")
    args = ap.parse_args(argv)
    if KTSOLVE is None:
        sys.exit("the ktsolve command is not installed in this environment")
    from ktsolve.registry import methods

    names = args.methods or list(methods())
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True).stdout.strip() or "unknown"
    sections = []
    with tempfile.TemporaryDirectory() as work:
        work = Path(work)
        mask = work / "huge.npy"
        if "splice" in names:
            subprocess.run([KTSOLVE, "board", "random", HUGE, "--holes", "1%", "--seed", "1", "-o", str(mask)],
                           check=True, stderr=subprocess.DEVNULL)
        todo = cases(names, mask)
        if not args.no_empty:
            rows = []
            for label, cmd, target in todo:
                with tempfile.TemporaryDirectory() as cache:
                    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
                    rows.append(row(label, measure(KTSOLVE, cmd, args.warm, env), target))
                print(" | ".join(rows[-1]), flush=True)
            with tempfile.TemporaryDirectory() as cache:
                env = dict(os.environ, NUMBA_CACHE_DIR=cache)
                warm_all, warm_all_cpu = run(KTSOLVE, ["warm"], env)
            print(f"ktsolve warm: {warm_all:.1f} s ({warm_all_cpu:.1f} CPU)", flush=True)
            sections += ["## Empty cache: every kernel a run calls is compiled", "",
                         "A fresh `NUMBA_CACHE_DIR` per case: the first run compiles, the next ones load.", "",
                         markdown_table(HEAD, rows), "",
                         f"`ktsolve warm` (every kernel any command can call) from an empty cache: {warm_all:.1f} s "
                         f"({warm_all_cpu:.1f} CPU s).", ""]
        if args.install:
            plain, plain_s = fresh_install(work / "plain", warm_at_install=False)
            exe, install_s = fresh_install(work / "warmed", warm_at_install=True)
            env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
            rows = []
            for label, cmd, target in todo:
                rows.append(row(label, measure(exe, cmd, args.warm, env), target))
                print(" | ".join(rows[-1]), flush=True)
            sections += ["## Fresh install: the kernels compiled by `pip install .`", "",
                         f"`python3 -m venv .venv && .venv/bin/pip install -q .` took {install_s:.1f} s with the "
                         f"compile (setup.py) and {plain_s:.1f} s without (`KTSOLVE_WARM_AT_INSTALL=0`), "
                         "in a copy of this tree; then each case ran once (its first run: numba loads the "
                         "kernels installed beside the sources) and again.", "",
                         markdown_table(HEAD, rows), ""]
    end_load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    text = "\n".join([
        "# First run of every method against a warm one (whole process)", "",
        *machine_lines(), f"Code at commit {head}. Load average at the end: {end_load}.",
        "Other developers' editors and tests may have been running on the same two cores.", "",
        "Command: `ktsolve solve BOARD -m NAME --seed 1 --time-limit 1` on 8x8 (2 s on 30x30; `--closed` for",
        "methods without open tours; rotation 30x30 without a time limit; splice on a random "
        f"{HUGE} board with 1 % holes, written as npy to /dev/null).",
        "Seconds of wall time, CPU seconds (user + system) in brackets; first-run cost = first - warm (median "
        f"of {args.warm}).",
        f"Targets: at most {TARGET_S:g} s dearer than a warm run on boards up to 30x30, {TARGET_HUGE_S:g} s for "
        "splice on the huge board.", "",
        *sections])
    write_result("first_run", text)


if __name__ == "__main__":
    main()
