"""The progress bar (issue 31, item 6): it ticks every second with the phase's name and the time, counts where a
count is known, and says nothing when standard error is not a terminal."""

import io
import os
import re
import subprocess
import sys
import threading
import time

import numba
import pytest

from ktsolve import jit
from ktsolve.driver import drive, phase
from ktsolve.progress import Bar, active_bar, format_elapsed, terminal_progress


class Terminal(io.StringIO):
    def isatty(self):
        return True


class Recorder:
    """A stream that keeps every write apart (what the terminal saw, in order)."""

    def __init__(self):
        self.writes = []
        self.lock = threading.Lock()

    def write(self, text):
        with self.lock:
            self.writes.append(text)

    def flush(self):
        pass

    def isatty(self):
        return True

    def frames(self):
        with self.lock:
            return [w.strip("\r").replace("\x1b[K", "") for w in self.writes if w.startswith("\r")]


def test_quiet_when_not_a_terminal():
    stream = io.StringIO()
    with terminal_progress("x", stream=stream) as progress:
        assert progress is None
        phase(progress, "anything", 3)  # a method naming its phase with no bar is a no-op
    assert stream.getvalue() == ""


def test_draws_on_a_terminal():
    stream = Terminal()
    with terminal_progress("work", enabled=True, stream=stream) as progress:
        for i in range(0, 101, 10):
            progress(i, 100)
    assert "work" in stream.getvalue()
    assert stream.getvalue().endswith("\r\x1b[K")  # the line is wiped: what follows starts at the margin


def test_the_clock_ticks_while_nothing_reports():
    """The frozen bar of the issue: one phase, no count, and yet the bar is redrawn with the time moving."""
    rec = Recorder()
    with terminal_progress("ktsolve splice", stream=rec, tick=0.05) as bar:
        bar.phase("restoring the 2-factor")
        bar.t0 -= 61.0  # a minute into the run
        time.sleep(0.4)
    frames = [f for f in rec.frames() if f][1:]  # the first is drawn by phase(), before the minute passed
    assert len(frames) >= 4, frames
    assert all(f.startswith("ktsolve splice | restoring the 2-factor | 1:0") for f in frames), frames


def test_a_phase_counts_when_its_total_is_known():
    bar = Bar("ktsolve rotation", Terminal(), tick=None, width=200)
    bar.phase("rotation: squares on the path", 900)
    bar(450, 900)
    line = bar.line()
    assert "rotation: squares on the path 450/900 [" in line and "] 50%" in line
    bar.phase("checking the tour")  # a new phase starts its count again
    assert "450" not in bar.line() and "checking the tour" in bar.line()
    bar(12)  # a count without a total: the number alone
    assert "checking the tour 12 |" in bar.line()
    bar.close()


def test_the_driver_counts_and_the_method_names_the_phase():
    rec = Recorder()
    with terminal_progress("ktsolve demo", stream=rec, tick=None) as bar:
        phase(bar, "demo: walks", 40)
        drive(lambda k: (k, False), units=40, progress=bar, first=4)
    frames = rec.frames()
    assert any(f.startswith("ktsolve demo | demo: walks 40/40 [####################] 100%") for f in frames)


def test_a_plain_function_is_left_alone():
    seen = []
    phase(seen.append, "walks")  # no .phase: nothing is called
    phase(lambda done, total: seen.append((done, total)), "walks", 3)
    assert seen == []


def test_a_long_line_is_cut_to_the_terminal():
    bar = Bar("ktsolve x", Terminal(), tick=None, width=30)
    bar.phase("a phase with a very long name indeed, longer than the terminal")
    assert len(bar.line()) <= 29 and bar.line().endswith("…")
    bar.close()


def test_the_first_run_compile_is_a_phase_of_the_bar():
    """On a terminal with a bar, the compile note is the bar's phase (no line of its own), then the phase before."""
    kern = numba.njit(lambda x: x + 31)
    rec = Recorder()
    real = sys.stderr
    sys.stderr = rec
    try:
        with terminal_progress("ktsolve demo", stream=rec, tick=None) as bar:
            assert active_bar() is bar
            bar.phase("demo: walks", 10)
            bar(3, 10)
            assert jit.prepare("test progress", lambda: kern(1), [kern]) > 0
            assert bar.state() == ("demo: walks", 3, 10)
    finally:
        sys.stderr = real
    assert active_bar() is None
    assert any("compiling the test progress kernels, first run only" in f for f in rec.frames())
    assert not any(w.startswith("ktsolve: compiling") for w in rec.writes)


def test_format_elapsed():
    assert [format_elapsed(s) for s in (0, 59.9, 60, 3600)] == ["0:00", "0:59", "1:00", "1:00:00"]


def test_no_thread_is_left_behind():
    before = set(threading.enumerate())
    with terminal_progress("x", stream=Terminal(), tick=0.01):
        time.sleep(0.05)
    assert set(threading.enumerate()) <= before


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_the_command_line_shows_its_steps_on_a_terminal_and_nothing_when_piped():
    """Through a pseudo-terminal: the steps of the plan by name and a clock; piped, not one byte of it."""
    import pty

    cmd = [sys.executable, "-c", "from ktsolve.cli import main; main()", "solve", "30x30", "-m", "rotation",
           "--seed", "1"]
    leader, follower = pty.openpty()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=follower)
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    proc.wait(timeout=300)
    os.close(leader)
    text = seen.decode("utf-8", "replace")
    assert proc.returncode == 0, text
    frames = [f.replace("\x1b[K", "") for f in text.split("\r") if f.strip()]
    # the step by its name with the clock, then the method's phase with its count
    assert any(re.match(r"ktsolve rotation \| rotation \| \d+:\d\d$", f) for f in frames), frames
    assert any(re.match(r"ktsolve rotation \| rotation: squares on the path \d+/900 \[", f) for f in frames), frames
    piped = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert piped.returncode == 0 and "\r" not in piped.stderr and "|" not in piped.stderr
