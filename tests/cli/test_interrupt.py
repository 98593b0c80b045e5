"""Ctrl-C for real: the command line in a subprocess, SIGINT once it is working.

Every case must end the same way: exit code 130, exactly ``ktsolve: interrupted``
on standard error, and no output file.  "Working" means the process has
used a few seconds of CPU, well past its imports (about 0.7 s), so the
signal lands in the method's work, not in Python's start-up.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

if not sys.platform.startswith("linux"):  # CPU time is read from /proc
    pytest.skip("reads /proc to see that the process is working", allow_module_level=True)

KTSOLVE = [sys.executable, "-c", "from ktsolve.cli import main; main()"]
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def interrupt(args: list[str], tmp_path: Path, *, working: float = 2.0) -> tuple[int, str, Path]:
    """Run ``ktsolve ARGS -o FILE``, send SIGINT after ``working`` CPU seconds; (exit code, stderr, FILE)."""
    out = tmp_path / "answer.txt"
    proc = subprocess.Popen([*KTSOLVE, *args, "-o", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        deadline = time.monotonic() + 120
        while cpu_seconds(proc.pid) < working:
            assert proc.poll() is None, f"ended before it was interrupted: {proc.communicate()}"
            assert time.monotonic() < deadline, "never got to work"
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    return proc.returncode, err, out


CASES = {
    # CP-SAT: its own SIGINT handling is off, the search is stopped through the driver
    "cpsat": ["solve", "120x120", "--closed", "-m", "cpsat", "--seed", "1", "--time-limit", "100"],
    # the cut loop: Ctrl-C inside a CP-SAT round or between two
    "cpsat-cuts": ["solve", "120x120", "--closed", "-m", "cpsat", "-p", "model=cuts", "--seed", "1",
                   "--time-limit", "100"],
    # numba methods on boards where they find nothing, with budgets far beyond the test
    # 4x4 has no open tour and no presolve proof sees it (3x6: the 2-factor proof does)
    "warnsdorff": ["solve", "4x4", "-m", "warnsdorff", "--seed", "1", "-p", "restarts=1000000000"],
    "neural": ["solve", "3x8", "--closed", "-m", "neural", "--seed", "1", "-p", "attempts=1000000000"],
}
SLOW_CASES = {
    "rotation": ["solve", "4x4", "-m", "rotation", "--seed", "1", "-p", "restarts=1000000"],
    # the portfolio on a huge board: graph building, then Posa rotations
    "auto": ["solve", "3000x3000", "--holes", "a1", "--seed", "1", "--format", "npy"],
    "longest": ["longest", "60x60", "--start", "a1", "--holes", "b3", "--time-limit", "100"],
}


def test_ctrl_c_in_the_sat_cut_loop(tmp_path):
    """model=sat: Ctrl-C in the matching proof, the first CP-SAT round or the SAT solver (python-sat needed)."""
    pytest.importorskip("pysat.solvers")
    code, err, out = interrupt(["solve", "120x120", "--closed", "-m", "cpsat", "-p", "model=sat", "--seed", "1",
                                "--time-limit", "100"], tmp_path)
    assert (code, err) == (130, "ktsolve: interrupted\n") and not out.exists()


@pytest.mark.parametrize("name", list(CASES))
def test_ctrl_c_ends_with_exit_130_one_line_and_no_file(name, tmp_path):
    code, err, out = interrupt(CASES[name], tmp_path)
    assert code == 130, err
    assert err == "ktsolve: interrupted\n"
    assert not out.exists()


@pytest.mark.slow
@pytest.mark.parametrize("name", list(SLOW_CASES))
def test_ctrl_c_everywhere_else(name, tmp_path):
    code, err, out = interrupt(SLOW_CASES[name], tmp_path)
    assert (code, err) == (130, "ktsolve: interrupted\n")
    assert not out.exists()


@pytest.mark.slow
def test_an_existing_output_file_is_left_alone(tmp_path):
    out = tmp_path / "answer.txt"
    out.write_text("an earlier answer\n")
    code, err, _ = interrupt(CASES["warnsdorff"], tmp_path)
    assert code == 130 and err == "ktsolve: interrupted\n"
    assert out.read_text() == "an earlier answer\n"
