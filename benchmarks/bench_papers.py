"""How long ``ktsolve bench papers`` takes, and what it prints.

Runs the whole command (every section, quick budget by default) as a user
would, in a fresh process, and then each section alone, timing the wall
clock of each process (numba's compiled kernels come from the cache once a
first run filled it; the first run of all is reported apart).  The tables
the command printed are recorded with the times.

Usage: ``python benchmarks/bench_papers.py [--full] [--sections bees,dfs,...]``
Results: ``benchmarks/results/papers_quick.md`` (or ``papers_full.md``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))

from _machine import machine_lines, write_result  # noqa: E402


def run_cli(args: list[str]) -> tuple[float, str, int]:
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "ktsolve.cli", "bench", "papers", *args], capture_output=True,
                         text=True)
    return time.perf_counter() - t0, out.stdout, out.returncode


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--full", action="store_true", help="the papers' budgets")
    ap.add_argument("--sections", default="", help="comma-separated sections (default: every one)")
    args = ap.parse_args(argv)
    from ktsolve.bench import sections

    names = [n for n in args.sections.split(",") if n] or list(sections())
    extra = ["--full"] if args.full else []
    chosen = [x for n in names for x in ("--section", n)] if args.sections else []
    total, text, code = run_cli([*extra, *chosen])
    print(f"all sections: {total:.1f} s (exit {code})", file=sys.stderr, flush=True)
    rows = []
    for name in names:
        secs, _, rc = run_cli([*extra, "--section", name])
        rows.append((name, secs, rc))
        print(f"{name}: {secs:.1f} s", file=sys.stderr, flush=True)
    budget = "full" if args.full else "quick"
    lines = [f"# ktsolve bench papers ({budget} budget): run time and tables", ""]
    lines += [f"- {x}" for x in machine_lines()]
    lines += [
        "",
        f"`ktsolve bench papers{' --full' if args.full else ''}`: **{total:.1f} s** for every section in one "
        f"process (exit {code}).",
        "",
        "| section | seconds alone | exit |",
        "|---|---|---|",
        *[f"| {n} | {s:.1f} | {rc} |" for n, s, rc in rows],
        "",
        "Wall seconds of a fresh process each (`python -m ktsolve.cli bench papers [--section NAME]`), numba "
        "cache already filled by the first run.",
        "",
        "## Output of the run",
        "",
        "```",
        text.rstrip(),
        "```",
        "",
    ]
    path = write_result(f"papers_{budget}", "\n".join(lines))
    print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
