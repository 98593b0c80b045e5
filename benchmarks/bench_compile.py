"""Cold start of every method: the first run with an empty numba cache, whole process.

For each method, ``ktsolve solve 8x8 -m NAME --seed 1`` (``--closed`` for
the methods that build closed tours only) runs once with a fresh, empty
``NUMBA_CACHE_DIR`` (numba compiles every kernel the run calls, and caches
it) and then ``--warm`` more times with that cache (median): the difference
is the compile time the first run pays.  ``warnsdorff`` runs its first walks
of a small board in Python, so a 40x40 row shows its kernel's compile too.

Every figure is recorded under a label (``--label before`` / ``--label
after``) in ``benchmarks/results/compile.json``; the Markdown file
``benchmarks/results/compile.md`` shows every label side by side.

Run:  python benchmarks/bench_compile.py --label after [--warm 3] [METHOD ...]
"""

from __future__ import annotations

import argparse
import json
import os
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


def run(args, env) -> float:
    t0 = time.perf_counter()
    res = subprocess.run([KTSOLVE, *args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    dt = time.perf_counter() - t0
    if res.returncode not in (0, 3):
        raise RuntimeError(f"ktsolve {' '.join(args)} exited {res.returncode}: {res.stderr.strip()}")
    return dt


def measure(args, warm: int) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        cold = run(args, env)
        warm_s = statistics.median(run(args, env) for _ in range(warm))
    return cold, warm_s


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("methods", nargs="*", help="methods to measure (default: every registered method)")
    ap.add_argument("--label", default="after", help="label of this set of figures (before, after, ...)")
    ap.add_argument("--warm", type=int, default=3, help="warm runs per method (median)")
    args = ap.parse_args(argv)
    if KTSOLVE is None:
        sys.exit("the ktsolve command is not installed in this environment")
    from ktsolve.registry import methods

    names = args.methods or list(methods())
    store = RESULTS / "compile.json"
    data = json.loads(store.read_text()) if store.exists() else {}
    figures = data.setdefault(args.label, {"machine": machine_lines(), "rows": {}})
    figures["machine"] = machine_lines()
    for label, cmd in cases(names):
        cold, warm = measure(cmd, args.warm)
        figures["rows"][label] = {"command": "ktsolve " + " ".join(cmd), "cold_s": round(cold, 2),
                                  "warm_s": round(warm, 2)}
        print(f"{label:28s} cold {cold:6.2f} s   warm {warm:5.2f} s   compile ~{cold - warm:5.2f} s", flush=True)
    RESULTS.mkdir(parents=True, exist_ok=True)
    store.write_text(json.dumps(data, indent=1) + "\n")
    write_result("compile", report(data))


def report(data: dict) -> str:
    labels = list(data)
    rows_all = list(dict.fromkeys(r for lab in labels for r in data[lab]["rows"]))
    columns = ["run"] + [f"{lab}: cold / warm" for lab in labels]
    rows = []
    for r in rows_all:
        cells = [r]
        for lab in labels:
            f = data[lab]["rows"].get(r)
            cells.append("not measured" if f is None else f"{f['cold_s']:.2f} s / {f['warm_s']:.2f} s")
        rows.append(cells)
    lines = ["# Cold compile time of every method (whole process)", "",
             "Command: `ktsolve solve 8x8 -m NAME --seed 1` (`--closed` for neural), once with an empty",
             "`NUMBA_CACHE_DIR` (cold: numba compiles and caches every kernel the run calls) and then",
             "three times with that cache (warm, median).  Target: no method above 5 s cold, warm",
             "start-up unchanged.", ""]
    for lab in labels:
        lines += [f"## Machine of '{lab}'", "", *data[lab]["machine"], ""]
    lines += [markdown_table(columns, rows), ""]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
