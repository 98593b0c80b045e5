"""Time limits and Ctrl-C at 10^8 squares, as whole processes (issue 28, item 2).

Each case is a command line of ``ktsolve`` run as a process on a board of
10^8 cells (``ktsolve board random 10000x10000 --holes 5% --seed 7``,
16384 x 16384 with 20 % holes, and the open board of seed 1 between
fixed ends, whose tour needs the repairs), answering into a file in a
fresh folder.
For a time limit: the wall time of the process, its overrun past the
limit, the answer and its exit code; the target is an overrun of at most
10 % of the limit + 1 s.  For Ctrl-C: SIGINT is sent some seconds after
the start (into the restoration, where the answer stood still before),
and the table gives the seconds from the signal to the end of the
process (target: 1 s), the exit code (130) and whether a file was
written (it must not be).  Peak memory is the process's maximum resident
set.  Run alone (``flock /work/team/bench.lock``): each process needs
about 4 GB and both cores.

Run:  python benchmarks/bench_huge_time_limits.py [--repeat 1] [--cases NAME ...] [--out huge_time_limits]
Writes benchmarks/results/OUT.md.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _machine import machine_lines, markdown_table, write_result  # noqa: E402

KTSOLVE = shutil.which("ktsolve", path=str(Path(sys.executable).parent)) or shutil.which("ktsolve")

#: The boards: name -> ``ktsolve board random`` arguments.
BOARDS = {"10k 5%": ["10000x10000", "--holes", "5%", "--seed", "7"],
          "16k 20%": ["16384x16384", "--holes", "20%", "--seed", "7"],
          "10k 5% s-t": ["10000x10000", "--holes", "5%", "--seed", "1"]}

#: Boards asked for an open tour between fixed ends (bench_huge's ends: far apart, of the colours allowed).
FIXED_ENDS = {"10k 5% s-t"}

#: name -> (board, command after the board, time limit or None, seconds to SIGINT or None)
CASES = {
    "solve 5 s": ("10k 5%", ["solve", "--closed"], 5.0, None),
    "solve 10 s": ("10k 5%", ["solve", "--closed"], 10.0, None),
    "solve 30 s": ("10k 5%", ["solve", "--closed"], 30.0, None),
    "prove 10 s": ("10k 5%", ["prove", "--closed"], 10.0, None),
    "solve 16k 10 s": ("16k 20%", ["solve", "--closed"], 10.0, None),
    "Ctrl-C at 4 s": ("10k 5%", ["solve", "--closed"], None, 4.0),
    "Ctrl-C at 7 s": ("10k 5%", ["solve", "--closed"], None, 7.0),
    "Ctrl-C at 10 s": ("10k 5%", ["solve", "--closed"], None, 10.0),
    # the board of bench_huge whose tour needs the repairs: its pieces are left to the reroutes at about
    # 45 s and to the wide ruin at about 75 s (in-process times; the process adds its start and reading)
    "solve s-t 60 s": ("10k 5% s-t", ["solve"], 60.0, None),
    "solve s-t 80 s": ("10k 5% s-t", ["solve"], 80.0, None),
    "Ctrl-C s-t at 70 s": ("10k 5% s-t", ["solve"], None, 70.0),
}


def make_board(name: str, folder: Path) -> Path:
    path = folder / (name.replace(" ", "_").replace("%", "") + ".npy")
    if not path.exists():
        subprocess.run([KTSOLVE, "board", "random", *BOARDS[name], "-o", str(path)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return path


def ends_of(mask: Path) -> list[str]:
    """``--start``/``--end`` options of bench_huge's ends for the board in ``mask``."""
    import numpy as np

    from bench_huge import _ends
    from ktsolve import Board

    holes = np.load(mask, mmap_mode="r")
    start, end = _ends(Board.from_mask(holes))
    return ["--start", f"{start[0]},{start[1]}", "--end", f"{end[0]},{end[1]}"]


def run_case(name: str, boards: Path) -> dict:
    board, command, limit, sigint = CASES[name]
    mask = make_board(board, boards)
    if board in FIXED_ENDS:
        command = [*command, *ends_of(mask)]
    with tempfile.TemporaryDirectory() as tmp:
        # a tour is written as .npy by both commands (JSON stops at 10^6 squares)
        out = Path(tmp) / "answer.npy"
        form = ["--format", "npy"]
        args = [KTSOLVE, command[0], str(mask), *command[1:], *form, "-o", str(out)]
        if limit is not None:
            args += ["--time-limit", f"{limit:g}"]
        t0 = time.perf_counter()
        proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        sent, peak = None, 0
        while proc.poll() is None:
            peak = max(peak, _hwm(proc.pid))
            if sigint is not None and sent is None and time.perf_counter() - t0 >= sigint:
                proc.send_signal(signal.SIGINT)
                sent = time.perf_counter()
            time.sleep(0.02)
        end = time.perf_counter()
        err = proc.stderr.read()
        line = err.strip().splitlines()[-1] if err.strip() else ""
        return {"case": name, "board": board, "limit": limit, "wall": end - t0, "code": proc.returncode,
                "after_sigint": None if sent is None else end - sent, "written": out.exists(),
                "peak_mb": peak / 1024 or None, "line": line[:400]}


def _hwm(pid: int) -> int:
    """The process's peak resident set so far (kB), 0 when it cannot be read."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--cases", nargs="*", default=list(CASES))
    ap.add_argument("--boards", default=os.path.join(tempfile.gettempdir(), "ktsolve_huge_boards"))
    ap.add_argument("--out", default="huge_time_limits")
    args = ap.parse_args(argv)
    boards = Path(args.boards)
    boards.mkdir(parents=True, exist_ok=True)
    rows = []
    for name in args.cases:
        for _ in range(args.repeat):
            r = run_case(name, boards)
            print(r, flush=True)
            over = "" if r["limit"] is None else f"{r['wall'] - r['limit']:+.2f}"
            ok = ("" if r["limit"] is None else ("yes" if r["wall"] <= 1.1 * r["limit"] + 1 else "OVER"))
            if r["after_sigint"] is not None:
                ok = "yes" if r["after_sigint"] <= 1 and r["code"] == 130 and not r["written"] else "MISS"
            rows.append([r["case"], r["board"], f"{r['wall']:.2f}", over,
                         "" if r["after_sigint"] is None else f"{r['after_sigint']:.2f}", str(r["code"]),
                         "yes" if r["written"] else "no", "" if r["peak_mb"] is None else f"{r['peak_mb']:.0f}",
                         ok, r["line"]])
    head = ["case", "board", "wall s", "overrun s", "s after SIGINT", "exit", "file written", "peak MB",
            "target met", "last line on stderr"]
    text = ["# Time limits and Ctrl-C at 10^8 squares", "", *machine_lines(),
            f"Load average {os.getloadavg()[0]:.2f} at the end.  Run under the shared lock, but other "
            "developers' editors and tests may have been running beside it.", "",
            "Whole `ktsolve` processes (interpreter start, imports, reading the board, the answer written through "
            "`-o FILE`, `--format npy`).  Targets: an answer within 10 % of the limit + 1 s; after SIGINT, the end "
            "within 1 s, exit 130, no file.  Peak memory: the process's VmHWM, read every 20 ms.", "",
            markdown_table(head, rows)]
    write_result(args.out, "\n".join(text) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
