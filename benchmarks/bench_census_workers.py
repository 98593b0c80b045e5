"""``ktsolve census --workers N`` on a 6-question census: asking for more workers costs nothing (issue 20).

A census starts no more workers than it has questions, CPUs and memory for
(:func:`ktsolve.census.pool.worker_cap`), so ``--workers 40`` on the 6
questions of ``6x6 --starts`` must take no longer than ``--workers 2``.
Before the cap, ``--workers 1000`` started a thousand warming workers and
ran the machine out of memory; this benchmark never asks for more than 40.

What runs: ``ktsolve census 6x6 --starts --seed 1 -o FILE --workers N``
as a whole process (start, warm-up, questions, summary), for N = 1, 2, 40,
``--repeat`` times each (default 3) in turn, into fresh files, with the
address space of every process capped (``RLIMIT_AS``, 4 GiB).  While each
run goes, ``/proc`` is read every 20 ms for the census's worker processes:
the table gives the median wall time, the most workers seen at once, and
the cap the census reported.

Usage::

    python benchmarks/bench_census_workers.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _machine import machine_lines, markdown_table, write_result  # noqa: E402

WORKERS = (1, 2, 40)
MARK = b"ktsolve.census.worker"
CODE = "import sys; from ktsolve.cli import main; main(sys.argv[1:])"


def _cap_memory():
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


def _children(pid: int) -> int:
    """Census workers whose parent is ``pid``, from /proc."""
    n = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                ppid = int(fh.read().rsplit(b")", 1)[1].split()[1])
            if ppid != pid:
                continue
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                if MARK in fh.read():
                    n += 1
        except (OSError, ValueError, IndexError):
            continue
    return n


def run(workers: int, folder: str, k: int) -> tuple[float, int, str]:
    """Wall seconds, most workers at once, and the census's line about the cap (or '-')."""
    out = os.path.join(folder, f"w{workers}-{k}.jsonl")
    args = [sys.executable, "-c", CODE, "census", "6x6", "--starts", "--seed", "1", "-o", out,
            "--workers", str(workers)]
    t0 = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=_cap_memory)
    most = 0
    while proc.poll() is None:
        most = max(most, _children(proc.pid))
        time.sleep(0.02)
    wall = time.perf_counter() - t0
    err = proc.stderr.read().decode()
    if proc.returncode != 0:
        raise SystemExit(f"census --workers {workers} failed ({proc.returncode}): {err.strip()[-300:]}")
    cap = next((line.split("ktsolve: ", 1)[1] for line in err.splitlines() if "(asked for" in line), "-")
    return wall, most, cap


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    times: dict = {n: [] for n in WORKERS}
    most: dict = {n: 0 for n in WORKERS}
    caps: dict = {}
    with tempfile.TemporaryDirectory() as folder:
        for k in range(args.repeat):
            for n in WORKERS:
                wall, seen, cap = run(n, folder, k)
                times[n].append(wall)
                most[n] = max(most[n], seen)
                caps[n] = cap
                print(f"--workers {n}: {wall:.2f} s, {seen} workers at most; {cap}", flush=True)
    rows = [[n, f"{statistics.median(times[n]):.2f}", " ".join(f"{t:.2f}" for t in times[n]), most[n], caps[n]]
            for n in WORKERS]
    text = "\n".join([
        "# census --workers N on a 6-question census (6x6 --starts)",
        "",
        *machine_lines(),
        "",
        "`ktsolve census 6x6 --starts --seed 1 -o FILE --workers N`, the whole process, "
        f"{args.repeat} runs each in turn, fresh files; workers counted from /proc every 20 ms.",
        "",
        markdown_table(["--workers", "median wall s", "runs (s)", "workers at most", "what the census said"], rows),
        "",
        f"--workers 40 / --workers 2: {statistics.median(times[40]) / statistics.median(times[2]):.2f} "
        "(the cap makes them the same census).",
        "",
    ])
    path = write_result("census_workers", text)
    print(text)
    print(f"written to {path}")


if __name__ == "__main__":
    main()
