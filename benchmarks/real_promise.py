"""The promise of issue 28 over a recorded bench_real run: each answer within 1.5x + 0.3 s of its settling step alone.

Two readings, both printed: the command's whole process against the step's whole process run alone
(start-up and reading the board on both sides), and the command's whole process against the step's own
seconds (start-up charged to the command alone, which small boards cannot meet: Python's start-up is 1-2 s).

Run:  python benchmarks/real_promise.py [benchmarks/results/real.jsonl]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "results" / "real.jsonl"
    rows, met_proc, met_step, total = [], 0, 0, 0
    for line in path.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        for cmd in ("solve", "prove"):
            r = rec.get(cmd) or {}
            alone = r.get("alone") or {}
            if "wall_s" not in r or "process_wall_s" not in alone:
                continue
            total += 1
            by_proc = r["wall_s"] <= 1.5 * alone["process_wall_s"] + 0.3
            by_step = r["wall_s"] <= 1.5 * alone["seconds"] + 0.3
            met_proc += by_proc
            met_step += by_step
            if not by_proc:
                rows.append(f"| {rec['board']} | {cmd} | {r['wall_s']:.2f} | {alone['process_wall_s']:.2f} | "
                            f"{alone['seconds']:.2f} | {r.get('settled_by')} |")
    print(f"{met_proc} of {total} answers within 1.5x + 0.3 s of the settling step's whole process alone; "
          f"{met_step} of {total} within 1.5x + 0.3 s of its own seconds.")
    if rows:
        print("\n| board | command | wall s | step's process s | step's own s | settled by |\n|---|---|---|---|---|---|")
        print("\n".join(rows))


if __name__ == "__main__":
    main()
