"""Cold start of every method: the first run with an empty numba cache, whole process.

For each method, ``ktsolve solve 8x8 -m NAME --seed 1`` (``--closed`` for
the methods that build closed tours only) runs once with a fresh, empty
``NUMBA_CACHE_DIR`` (numba compiles every kernel the run calls, and caches
it) and then ``--warm`` more times with that cache (median): the difference
is the compile time the first run pays.  ``warnsdorff`` runs its first walks
of a small board in Python, so a 40x40 row shows its kernel's compile too.
Both wall time and CPU time (user + system) of the process are recorded:
on a shared machine the CPU time is the steadier figure.

With ``--before DIR`` (a checkout of an earlier version, put first on
``PYTHONPATH``) every case runs under both versions in turn, so the two
columns share the machine's load.

Every figure is recorded under a label (``--label``) in
``benchmarks/results/compile.json``; the Markdown file
``benchmarks/results/compile.md`` shows every label side by side.

Run:  python benchmarks/bench_compile.py [--before DIR] [--warm 3] [METHOD ...]
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

sys.path.insert(0, str(Path(__file__).parent))
from _machine import RESULTS, machine_lines, markdown_table, write_result  # noqa: E402

KTSOLVE = shutil.which("ktsolve", path=str(Path(sys.executable).parent)) or shutil.which("ktsolve")
CLOSED_ONLY = {"neural"}


def cases(names: list[str]) -> list[tuple[str, list[str]]]:
    out = []
    for name in names:
        extra = ["--closed"] if name in CLOSED_ONLY else []
        out.append((name, ["solve", "8x8", "-m", name, "--seed", "1", *extra]))
        if name == "warnsdorff":
            out.append(("warnsdorff (kernel, 40x40)", ["solve", "40x40", "-m", name, "--seed", "1"]))
    out.append(("auto", ["solve", "8x8", "--seed", "1"]))
    return out


def run(args, env) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one whole process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    res = subprocess.run([KTSOLVE, *args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    dt = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if res.returncode not in (0, 3):
        raise RuntimeError(f"ktsolve {' '.join(args)} exited {res.returncode}: {res.stderr.strip()}")
    return dt, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(args, warm: int, source: str | None = None) -> dict:
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        if source:
            env["PYTHONPATH"] = source + os.pathsep + env.get("PYTHONPATH", "")
        cold, cold_cpu = run(args, env)
        warm_runs = [run(args, env) for _ in range(warm)]
    return {"command": "ktsolve " + " ".join(args), "cold_s": round(cold, 2), "cold_cpu_s": round(cold_cpu, 2),
            "warm_s": round(statistics.median(w for w, _ in warm_runs), 2),
            "warm_cpu_s": round(statistics.median(c for _, c in warm_runs), 2)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("methods", nargs="*", help="methods to measure (default: every registered method)")
    ap.add_argument("--label", default="after", help="label of this tree's figures")
    ap.add_argument("--before", metavar="DIR", help="also measure the ktsolve package in DIR, as 'before'")
    ap.add_argument("--warm", type=int, default=3, help="warm runs per method (median)")
    args = ap.parse_args(argv)
    if KTSOLVE is None:
        sys.exit("the ktsolve command is not installed in this environment")
    from ktsolve.registry import methods

    names = args.methods or list(methods())
    store = RESULTS / "compile.json"
    data = json.loads(store.read_text()) if store.exists() else {}
    trees = [(args.label, None)] + ([("before", args.before)] if args.before else [])
    for label, source in trees:
        where = source or str(Path(__file__).resolve().parent.parent)
        head = subprocess.run(["git", "-C", where, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
        data[label] = {"machine": [f"Code: {where} at commit {head.stdout.strip() or 'unknown'}.", *machine_lines()],
                       "rows": {}}
    for case, cmd in cases(names):
        for label, source in trees:
            f = measure(cmd, args.warm, source)
            data[label]["rows"][case] = f
            print(f"{label:7s} {case:28s} cold {f['cold_s']:6.2f} s ({f['cold_cpu_s']:5.2f} s CPU)   "
                  f"warm {f['warm_s']:5.2f} s ({f['warm_cpu_s']:5.2f} s CPU)", flush=True)
    for label, _ in trees:
        data[label]["machine"][-1] += f" Load at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}."
    RESULTS.mkdir(parents=True, exist_ok=True)
    store.write_text(json.dumps(data, indent=1) + "\n")
    write_result("compile", report(data))


def report(data: dict) -> str:
    labels = [lab for lab in ("before", "after") if lab in data] + [lab for lab in data if lab not in ("before", "after")]
    rows_all = list(dict.fromkeys(r for lab in labels for r in data[lab]["rows"]))
    columns = ["run"] + [f"{lab}: cold (CPU) / warm (CPU)" for lab in labels]
    rows = []
    for r in rows_all:
        cells = [r]
        for lab in labels:
            f = data[lab]["rows"].get(r)
            if f is None:
                cells.append("not measured")
            else:
                cells.append(f"{f['cold_s']:.2f} s ({f.get('cold_cpu_s', float('nan')):.2f}) / "
                             f"{f['warm_s']:.2f} s ({f.get('warm_cpu_s', float('nan')):.2f})")
        rows.append(cells)
    lines = ["# Cold compile time of every method (whole process)", "",
             "Command: `ktsolve solve 8x8 -m NAME --seed 1` (`--closed` for neural), once with an empty",
             "`NUMBA_CACHE_DIR` (cold: numba compiles and caches every kernel the run calls) and then",
             "three times with that cache (warm, median); wall seconds, CPU seconds (user + system) in",
             "brackets.  'before' is the code this work started from, run in turn with 'after' so that both",
             "share the machine's load.  Target: no method above 5 s cold, warm start-up unchanged.", ""]
    for lab in labels:
        lines += [f"## Machine of '{lab}'", "", *data[lab]["machine"], ""]
    lines += [markdown_table(columns, rows), ""]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
