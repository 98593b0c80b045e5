"""Issue 20: a census on hostile input and outputs, and workers that are capped and die with their census.

Every refusal here happens before a worker starts (the pool's ``start`` is
replaced by one that fails the test) and leaves no file behind.
"""

from __future__ import annotations

import fcntl
import os
import resource
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from ktsolve.census import census
from ktsolve.census import pool as pool_module
from ktsolve.census.plot import check_plot_path, plot
from ktsolve.census import CensusFileError
from ktsolve.errors import InvalidParameterError, KtsolveError

from conftest import invoke

CMD = ["census", "3x4", "--starts", "--seed", "3", "--workers", "1"]


@pytest.fixture
def no_workers(monkeypatch):
    """Fail the test if a census starts its workers."""
    def start(self):
        raise AssertionError("workers were started before the refusal")

    monkeypatch.setattr(pool_module.LocalPool, "start", start)


# ---------------------------------------------------------------------- outputs
def test_dash_is_refused_not_a_file_named_dash(tmp_path, monkeypatch, no_workers):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InvalidParameterError, match="'-' is standard output: give -o FILE"):
        census("3x4", starts=True, output="-", workers=1)
    res = invoke([*CMD, "-o", "-"], code=2)
    assert res.stderr.count("\n") == 1 and "standard output" in res.stderr and res.stdout == ""
    assert os.listdir(tmp_path) == []


def test_a_device_is_refused_before_any_work(no_workers):
    with pytest.raises(CensusFileError, match="'/dev/null' is not a regular file"):
        census("3x4", starts=True, output="/dev/null", workers=1)
    res = invoke([*CMD, "-o", "/dev/null"], code=2)
    assert res.stderr.count("\n") == 1 and "not a regular file" in res.stderr


def _limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


def test_a_fifo_is_refused_without_hanging(tmp_path):
    fifo = tmp_path / "results.fifo"
    os.mkfifo(fifo)
    code = "import sys; from ktsolve.cli import main; main(sys.argv[1:])"
    try:
        res = subprocess.run([sys.executable, "-c", code, *CMD, "-o", str(fifo)], capture_output=True, text=True,
                             timeout=60, preexec_fn=_limit_memory)
    except subprocess.TimeoutExpired:
        pytest.fail("ktsolve census -o FIFO hung")
    assert res.returncode == 2 and res.stderr.count("\n") == 1 and "not a regular file" in res.stderr


def test_a_tours_file_in_the_way_is_refused_before_work(tmp_path, no_workers):
    out = tmp_path / "r.jsonl"
    (tmp_path / "r.jsonl.tours").write_text("mine\n")
    with pytest.raises(CensusFileError, match="r.jsonl.tours' exists and is not a folder"):
        census("3x4", starts=True, output=out, workers=1)
    assert sorted(os.listdir(tmp_path)) == ["r.jsonl.tours"]


def test_a_locked_results_file_is_found_before_workers_start(tmp_path, no_workers):
    out = tmp_path / "r.jsonl"
    with open(out, "a+b") as fh:  # another census holds the lock, not a line written yet
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        with pytest.raises(CensusFileError, match="being written by another census"):
            census("3x4", starts=True, output=out, workers=1)
    assert out.read_bytes() == b""


def test_a_census_whose_workers_cannot_start_leaves_no_file(tmp_path, monkeypatch):
    from ktsolve.census import CensusError

    def start(self):
        raise CensusError("census workers cannot start: test")

    monkeypatch.setattr(pool_module.LocalPool, "start", start)
    with pytest.raises(CensusError):
        census("3x4", starts=True, output=tmp_path / "r.jsonl", workers=1)
    assert os.listdir(tmp_path) == []


def test_plot_onto_the_results_is_refused(tmp_path):
    out = tmp_path / "same.svg"
    with pytest.raises(InvalidParameterError, match="is the results file"):
        check_plot_path(out, results=out)  # not written yet: the names are compared
    rep = census("3x4", starts=True, output=out, seed=3, workers=1)
    before = out.read_bytes()
    with pytest.raises(InvalidParameterError, match="is the results file"):
        check_plot_path(out, results=out)
    link = tmp_path / "map.svg"
    link.symlink_to(out)
    with pytest.raises(InvalidParameterError, match="is the results file"):
        check_plot_path(link, results=out)
    # and plot() itself never draws over a census results file, whatever called it
    with pytest.raises(InvalidParameterError, match="holds census results"):
        plot(rep.summary, link)
    assert out.read_bytes() == before and link.is_symlink()


# ---------------------------------------------------------------------- workers
def test_workers_are_capped_by_questions_and_cpus(tmp_path, monkeypatch):
    monkeypatch.setattr(pool_module, "usable_cpus", lambda: 2)
    started = []
    real = pool_module.LocalPool.__init__

    def init(self, workers):
        started.append(workers)
        real(self, workers)

    monkeypatch.setattr(pool_module.LocalPool, "__init__", init)
    lines = []
    rep = census("3x4", starts=True, output=tmp_path / "r.jsonl", seed=3, workers=5, log=lines.append)
    assert started == [2] and rep.workers == 2 and rep.workers_asked == 5
    assert rep.worker_cap == "the 2 CPUs this process may use"
    assert "2 workers (asked for 5; no more than the 2 CPUs this process may use)" in lines
    runs = rep.summary and __import__("ktsolve.census.store", fromlist=["x"]).read_results(rep.path).runs
    assert runs[-1]["workers"] == 2 and runs[-1]["workers_asked"] == 5


def test_worker_cap_by_questions_and_memory():
    cap = pool_module.worker_cap
    assert cap(1000, 6, cpus=64, memory=None) == (6, "the 6 questions to ask")
    assert cap(40, 6, cpus=2, memory=None)[0] == 2
    assert cap(8, 100, cpus=8, memory=pool_module.WORKER_BYTES // 2)[0] == 1  # never below one
    assert cap(3, 100, cpus=8, memory=100 * pool_module.WORKER_BYTES) == (3, None)
    assert cap(4096, 10**6)[0] <= pool_module.usable_cpus()  # this machine's own figures


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            state = fh.read().rsplit(b")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in (b"Z", b"X")


PARENT = textwrap.dedent("""
    import sys, time
    from ktsolve.census.pool import LocalPool
    pool = LocalPool(2)
    pool.start()
    print(" ".join(map(str, pool.pids())), flush=True)
    time.sleep(600)
""")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_workers_die_with_a_census_killed_by_sigkill():
    """A census killed outright (SIGKILL, the out-of-memory killer) takes its workers with it.

    The workers are stopped (SIGSTOP) first, so they cannot notice that
    their input closed: only the kernel's death signal can end them.
    """
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True,
                              preexec_fn=_limit_memory)
    pids = []
    try:
        pids = [int(p) for p in parent.stdout.readline().split()]
        assert len(pids) == 2
        for pid in pids:
            os.kill(pid, signal.SIGSTOP)
        parent.kill()
        parent.wait(10)
        deadline = time.monotonic() + 10
        while any(_alive(p) for p in pids) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(_alive(p) for p in pids), "workers outlived their census"
    finally:
        parent.kill()
        parent.wait(10)
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


WATCHED = textwrap.dedent("""
    import os, subprocess, sys
    child = subprocess.Popen([sys.executable, "-c",
        "import os, time\\n"
        "from ktsolve.census.worker import _watch_parent\\n"
        "_watch_parent(os.getppid(), 0.05)\\n"
        "print('watching', flush=True)\\n"
        "time.sleep(600)\\n"], stdout=subprocess.PIPE, text=True)
    said = child.stdout.readline().strip()
    print(child.pid, said, flush=True)
    os._exit(0)
""")


def test_a_worker_whose_parent_is_gone_ends_itself():
    """The parent watch (for pools started off the main thread, where the kernel's signal does not apply)."""
    res = subprocess.run([sys.executable, "-c", WATCHED], capture_output=True, text=True, timeout=60,
                         preexec_fn=_limit_memory)
    pid, said = res.stdout.split()
    pid = int(pid)
    assert said == "watching"
    deadline = time.monotonic() + 10
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    alive = _alive(pid)
    if alive:
        os.kill(pid, signal.SIGKILL)
    assert not alive


# ---------------------------------------------------------------------- a scheduler that is not Dask
class _FakeServer:
    """A TCP server on 127.0.0.1 that accepts and then says nothing, garbage, or hangs up."""

    def __init__(self, mode: str):
        self.mode = mode
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.address = f"tcp://127.0.0.1:{self.sock.getsockname()[1]}"
        self.conns = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.conns.append(conn)
            try:
                if self.mode == "garbage":
                    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello" * 20)
                elif self.mode == "small garbage":
                    conn.sendall((40).to_bytes(8, "little") + b"x" * 40)
                elif self.mode == "hang up":
                    conn.close()
            except OSError:
                pass

    def close(self):
        self.sock.close()
        for c in self.conns:
            c.close()


@pytest.mark.parametrize("mode, message", [
    ("silent", "said nothing in 2 s"),
    ("garbage", "not as a Dask scheduler"),
    ("small garbage", "not as a Dask scheduler"),
    ("hang up", "cannot reach the Dask scheduler"),
])
def test_a_scheduler_that_is_not_dask_is_refused_in_bounded_time(mode, message):
    pytest.importorskip("distributed")
    from ktsolve.census.cluster import DaskRunner

    server = _FakeServer(mode)
    out = {}

    def connect():
        t0 = time.monotonic()
        try:
            DaskRunner(server.address, timeout=2)
        except BaseException as exc:  # noqa: BLE001 - the test looks at what came out
            out["error"] = exc
        out["seconds"] = time.monotonic() - t0

    thread = threading.Thread(target=connect, daemon=True)
    thread.start()
    thread.join(40)
    server.close()
    assert not thread.is_alive(), "connecting to a port that is not Dask hung"
    err = out["error"]
    assert isinstance(err, KtsolveError) and message in str(err) and "\n" not in str(err)
    assert out["seconds"] < 2 + 5 + 2


def test_command_line_never_draws_over_the_results(tmp_path):
    """--plot onto the results (the same name, or a link to them): refused in one line, the results intact."""
    same = tmp_path / "same.svg"
    invoke([*CMD, "-o", same])
    before = same.read_bytes()
    res = invoke([*CMD, "-o", same, "--plot", same], code=2)
    assert res.stderr.count("\n") == 1 and "is the results file" in res.stderr
    link = tmp_path / "map.svg"
    link.symlink_to(same)
    res = invoke(["census", "--summary", same, "--plot", link], code=2)
    assert res.stdout == "" and res.stderr.count("\n") == 1 and "is the results file" in res.stderr
    assert same.read_bytes() == before and link.is_symlink()
    # and plot() itself refuses a file holding census results, whatever called it
    with pytest.raises(InvalidParameterError, match="holds census results"):
        check_plot_path(link)

def test_command_line_refuses_a_picture_onto_the_results_before_work(tmp_path, no_workers):
    """--plot X -o X on a new census: refused before any worker starts, nothing written."""
    same = tmp_path / "same.svg"
    res = invoke([*CMD, "-o", same, "--plot", same], code=2)
    assert res.stderr.count("\n") == 1 and "is the results file" in res.stderr
    assert os.listdir(tmp_path) == []


def test_command_line_summary_of_a_fifo_names_it(tmp_path):
    fifo = tmp_path / "r.fifo"
    os.mkfifo(fifo)
    res = invoke(["census", "--summary", fifo], code=2)
    assert res.stderr.count("\n") == 1 and "is not a regular file" in res.stderr
