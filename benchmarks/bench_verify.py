"""Checking files of many tours: the streaming reader against reading everything first.

The file is the README's ``ktsolve enumerate 8x8 --cycles 100000 -o
t.txt.gz`` (seed 1: about 560,000 distinct tours, 7 MB gzipped, 130 MB of
text).  Each case runs in a fresh child process under an address-space cap
(``--cap`` GiB, ``resource.setrlimit(RLIMIT_AS)``) and reports its wall
time and peak resident memory (``VmHWM`` of ``/proc/self/status``):

* ``ktsolve verify``: the command (through click's runner, in the child);
* ``check_tours``: :func:`ktsolve.files.check_tours`, which parses and
  validates a block of lines at a time and stops at the first fault (what
  ``ktsolve verify`` calls);
* ``read_tours + validate_many``: every tour read into a list of
  :class:`~ktsolve.tour.Tour` objects, stacked and validated at the end
  (how ``ktsolve verify`` worked before issue 20, now over the streaming
  parser);
* ``fault at line 2``: a 50 MB file whose second tour is invalid, checked by
  ``check_tours`` (the reader must stop there) and by reading everything.

Run:  python benchmarks/bench_verify.py [--cycles 100000] [--cap 8]
Writes benchmarks/results/verify.md.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _machine import machine_lines, markdown_table, write_result  # noqa: E402

CHILD = """
import json, resource, sys, time
resource.setrlimit(resource.RLIMIT_AS, ({cap}, {cap}))
import numpy as np
from ktsolve import Board
from ktsolve.errors import KtsolveError
from ktsolve.files import check_tours, read_tours
from ktsolve.tour import validate_many
board = Board(8, 8)
use = resource.getrusage(resource.RUSAGE_SELF)
cpu0 = use.ru_utime + use.ru_stime  # the CPU time of the case alone, less the imports
t0 = time.perf_counter()
try:
    if {how!r} == "cli":
        from click.testing import CliRunner
        from ktsolve.cli import cli
        out = CliRunner().invoke(cli, ["verify", "8x8", {path!r}])
        said = f"exit {{out.exit_code}}: {{out.output.strip()}}"
    elif {how!r} == "check":
        said = f"{{check_tours(board, {path!r}).count:,}} valid"
    else:
        tours, _ = read_tours(board, {path!r})
        validate_many(board, np.stack([t.squares for t in tours]))
        said = f"{{len(tours):,}} valid"
except KtsolveError as exc:
    said = str(exc)[:60]
except MemoryError:
    said = "MemoryError (over the cap)"
# VmHWM, not ru_maxrss: Linux carries the parent's ru_maxrss across fork and exec
peak = [ln for ln in open("/proc/self/status") if ln.startswith("VmHWM")][0].split()[1]
use = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({{"seconds": time.perf_counter() - t0, "cpu": use.ru_utime + use.ru_stime - cpu0, "said": said,
                  "peak_mb": int(peak) / 1024}}))
"""


def run(path: str, how: str, cap: int) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD.format(path=path, how=how, cap=cap)],
                         capture_output=True, text=True)
    if out.returncode:
        return {"seconds": float("nan"), "cpu": float("nan"), "peak_mb": float("nan"),
                "said": out.stderr.strip().splitlines()[-1][:60]}
    return json.loads(out.stdout)


def enumerate_file(folder: Path, cycles: int) -> Path:
    path = folder / "t.txt.gz"
    cmd = [sys.executable, "-c", "from ktsolve.cli import console_main; console_main()",
           "enumerate", "8x8", "--cycles", str(cycles), "--seed", "1", "-o", str(path)]
    subprocess.run(cmd, check=True, capture_output=True)
    return path


def faulty_file(folder: Path, source: Path, megabytes: int = 50) -> Path:
    """A plain-text file of ``megabytes`` MB whose second tour has two squares swapped (an illegal move)."""
    import gzip

    with gzip.open(source, "rb") as fh:
        lines = fh.read().splitlines(keepends=True)
    bad = lines[1].split()
    bad[3], bad[4] = bad[4], bad[3]
    path = folder / "fault.txt"
    with open(path, "wb") as out:
        out.write(lines[0] + b" ".join(bad) + b"\n")
        size, k = 0, 2
        while size < megabytes << 20:
            out.write(lines[k % len(lines)])
            size += len(lines[k % len(lines)])
            k += 1
    return path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cycles", type=int, default=100_000)
    ap.add_argument("--cap", type=float, default=8.0, help="address-space cap of each case, GiB")
    args = ap.parse_args()
    cap = int(args.cap * (1 << 30))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        t0 = time.perf_counter()
        tours = enumerate_file(folder, args.cycles)
        made = time.perf_counter() - t0
        fault = faulty_file(folder, tours)
        rows = []
        for label, path, how in [
            ("enumerate output, ktsolve verify", tours, "cli"),
            ("enumerate output, check_tours", tours, "check"),
            ("enumerate output, read_tours + validate_many", tours, "read"),
            ("50 MB, fault at line 2, ktsolve verify", fault, "cli"),
            ("50 MB, fault at line 2, check_tours", fault, "check"),
            ("50 MB, fault at line 2, read_tours + validate_many", fault, "read"),
        ]:
            r = run(str(path), how, cap)
            rows.append([label, f"{os.path.getsize(path) / 1e6:.1f} MB", f"{r['seconds']:.2f}", f"{r['cpu']:.2f}",
                         f"{r['peak_mb']:.0f}", r["said"]])
            print(rows[-1], flush=True)
    text = "\n".join([
        "# Checking files of many tours (`benchmarks/bench_verify.py`)",
        "",
        *machine_lines(),
        "",
        f"File: `ktsolve enumerate 8x8 --cycles {args.cycles} --seed 1 -o t.txt.gz` ({made:.0f} s to make).",
        f"Each case in a fresh process capped at {args.cap:g} GiB of address space; peak = VmHWM (resident).",
        "",
        markdown_table(["case", "file", "wall s", "CPU s", "peak MB", "result"], rows),
        "",
        "Wall time depends on the machine's load (see the load line above); CPU time (user + system of the",
        "case, imports excluded) much less.",
        "",
        "Before issue 20 `ktsolve verify` read the whole file into Python lists first: 62 s and 7.3 GB on",
        "the README's enumerate output, 79 s for the 50 MB file with its fault at line 2 (figures of the",
        "issue's report).  `verify` now calls `check_tours`; the `read_tours` rows show what reading",
        "everything first costs over the new parser.",
        "",
    ])
    print(write_result("verify", text))


if __name__ == "__main__":
    main()
