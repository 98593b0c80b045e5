"""The readings of the improved colony (Jiang, Bai & Dong) measured at equal walks on 8x8.

Usage::

    python benchmarks/bench_iaco_readings.py            # about 15 minutes
    python benchmarks/bench_iaco_readings.py --quick    # about 2 minutes

Every reading of ``iaco`` (``reading=`` and ``degree=``, see
:mod:`ktsolve.heuristics.iaco`) runs from the paper's stated values on 8x8
without a fixed start; the table gives distinct tours per walk after
576,000 and (without --quick) 6.4 million walks, beside ``aco`` at the same
walks and the paper's Table 1 (ACO 0.076, IACO 0.0782).  Then the default
reading against ``rho`` and ``F`` (the paper's figures: best at 0.45, a dip
near 0).  Writes benchmarks/results/iaco_readings.md.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from _machine import machine_lines  # noqa: E402

READINGS = [
    ("ant (default)", {}),
    ("square", {"reading": "square"}),
    ("edge", {"reading": "edge"}),
    ("complete", {"reading": "complete"}),
    ("ant, degree=free", {"degree": "free"}),
    ("edge, F = +inf (earlier default)", {"reading": "edge", "f": math.inf}),
]


def rate(method: str, walks: int, seed: int, **kw) -> tuple[float, float, float]:
    from ktsolve import enumerate_tours

    per_cycle = 64 if method == "aco" else (64 * 3 if kw.get("reading", "ant") != "ant" else 3)
    t0 = time.perf_counter()
    st = enumerate_tours("8x8", method, cycles=max(1, walks // per_cycle), seed=seed, **kw).stats
    return st["distinct_rate"], st["production_rate"], time.perf_counter() - t0


def table(head, rows) -> list[str]:
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    return out + ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    load0 = os.getloadavg()
    marks = (576_000,) if args.quick else (576_000, 6_400_000)
    rows = []
    aco = {w: rate("aco", w, 1) for w in marks}
    rows.append(["aco (Hingston & Kendall)", *(f"{aco[w][0]:.4f}" for w in marks), "0.076"])
    print(rows[-1], flush=True)
    for label, kw in READINGS:
        got = [rate("iaco", w, 1, **kw) for w in marks]
        rows.append([f"iaco {label}", *(f"{g[0]:.4f} ({g[1]:.4f} complete)" for g in got),
                     "0.0782" if label.startswith("ant (default)") else "not the paper's reading"])
        print(rows[-1], flush=True)
    sweep_walks = 192_000 if args.quick else 576_000
    rho_rows = []
    for rho in (0.1, 0.2, 0.3, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9):
        r = rate("iaco", sweep_walks, 1, rho=rho)
        rho_rows.append([rho, f"{r[0]:.4f}", f"{r[1]:.4f}", "best" if rho == 0.45 else "curve"])
        print(rho_rows[-1], flush=True)
    f_rows = []
    for f in (-math.inf, -10.0, -1.0, -0.1, 0.0, 0.1, 1.0, 10.0, math.inf):
        r = rate("iaco", sweep_walks, 1, f=f)
        f_rows.append([f, f"{r[0]:.4f}", f"{r[1]:.4f}", "dip" if f == 0 else "curve"])
        print(f_rows[-1], flush=True)
    load1 = os.getloadavg()
    lines = [
        "# The readings of the improved colony at equal walks (8x8, seed 1)",
        "",
        *machine_lines(),
        f"Load average at the end: {load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f} (start {load0[0]:.2f}).",
        f"Command: python benchmarks/bench_iaco_readings.py{' --quick' if args.quick else ''}",
        "",
        "Distinct tours per walk (complete tours per walk) after the walks of each column.",
        "",
        *table(["colony", *(f"{w:,} walks" for w in marks), "Table 1"], rows),
        "",
        f"## The default reading against rho ({sweep_walks:,} walks each; the paper: best at 0.45)",
        "",
        *table(["rho", "distinct/walk", "complete/walk", "paper"], rho_rows),
        "",
        f"## The default reading against F ({sweep_walks:,} walks each; the paper: a dip near 0)",
        "",
        *table(["F", "distinct/walk", "complete/walk", "paper"], f_rows),
        "",
    ]
    text = "\n".join(lines)
    print(text)
    (HERE / "results" / "iaco_readings.md").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
