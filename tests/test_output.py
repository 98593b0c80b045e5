"""The one output writer (ktsolve.output): checked paths, atomic files, devices, links and pipes."""

import io
import os
import socket
import stat
import sys
import threading

import pytest

from special_files import char_device, guard_devices  # noqa: F401 - guard_devices is an autouse fixture

from ktsolve.errors import KtsolveError, OutputPathError
from ktsolve.output import check_output_path, is_stdout, open_output, write_output


def _listing(folder):
    return sorted(p.name for p in folder.iterdir())


class FifoReader:
    """Reads a FIFO in a thread, the way a process at the other end of a pipe would."""

    def __init__(self, path, limit=None):
        self.path, self.limit, self.data = path, limit, b""
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        with open(self.path, "rb") as fh:  # blocks until the writer opens its end
            if self.limit is not None:
                self.data = fh.read(self.limit)
                return  # closing early: the writer meets a closed pipe
            self.data = fh.read()

    def join(self):
        self.thread.join(timeout=30)
        assert not self.thread.is_alive()
        return self.data


# ---------------------------------------------------------------------- checks before any work
@pytest.mark.parametrize(
    "make, message",
    [
        (lambda t: "", "name is empty"),
        (lambda t: str(t), "is a directory"),
        (lambda t: str(t / "no" / "such" / "f.txt"), "does not exist"),
        (lambda t: "/proc/ktsolve-test-x", "cannot write '/proc/ktsolve-test-x'"),
        (lambda t: str(t / "file.txt" / "below"), "Not a directory"),
        (lambda t: str(t / "new.txt") + "/", "names a directory, not a file"),
        (lambda t: str(t / "loop"), "Too many levels of symbolic links"),
    ],
    ids=["empty", "directory", "missing folder", "proc", "below a file", "trailing slash", "link loop"],
)
def test_unwritable_paths_are_refused_by_name(tmp_path, make, message):
    (tmp_path / "file.txt").write_text("keep")
    (tmp_path / "loop").symlink_to("loop")
    path = make(tmp_path)
    before = _listing(tmp_path)
    with pytest.raises(OutputPathError, match=message) as info:
        check_output_path(path)
    assert isinstance(info.value, KtsolveError) and isinstance(info.value, ValueError)
    assert ".ktsolve-tmp" not in str(info.value) and "probe" not in str(info.value)
    assert _listing(tmp_path) == before and (tmp_path / "file.txt").read_text() == "keep"


def test_a_socket_is_refused(tmp_path):
    path = tmp_path / "s.sock"
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(path))
        with pytest.raises(OutputPathError, match="is a socket"):
            check_output_path(str(path))
    finally:
        sock.close()


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through any permission bits")
def test_a_read_only_file_and_folder_are_refused(tmp_path):
    f = tmp_path / "ro.txt"
    f.write_text("keep")
    f.chmod(0o444)
    with pytest.raises(OutputPathError, match="permission denied"):
        check_output_path(str(f))
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        with pytest.raises(OutputPathError, match="cannot create files"):
            check_output_path(str(folder / "new.txt"))
    finally:
        folder.chmod(0o755)


def test_good_paths_pass_and_leave_nothing(tmp_path):
    (tmp_path / "old.txt").write_text("keep")
    null = char_device("null", tmp_path)
    for path in (tmp_path / "new.txt", tmp_path / "old.txt", null):
        assert check_output_path(str(path)) == str(path)
    assert check_output_path("-") is None and check_output_path(None) is None
    assert [p for p in _listing(tmp_path) if p != "dev-null"] == ["old.txt"]
    assert is_stdout("-") and is_stdout(None) and is_stdout("/dev/stdout") and not is_stdout("x")


# ---------------------------------------------------------------------- regular files
def test_a_regular_file_is_replaced_whole_and_keeps_its_mode(tmp_path):
    f = tmp_path / "t.txt"
    f.write_text("old")
    f.chmod(0o640)
    inode = f.stat().st_ino
    write_output(str(f), "new\n")
    assert f.read_text() == "new\n" and _listing(tmp_path) == ["t.txt"]
    assert stat.S_IMODE(f.stat().st_mode) == 0o640
    assert f.stat().st_ino != inode  # a new file renamed over the old one


def test_a_new_file_gets_the_umask_mode(tmp_path):
    old = os.umask(0o027)
    try:
        write_output(str(tmp_path / "n.txt"), b"x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "n.txt").stat().st_mode) == 0o640


@pytest.mark.parametrize("error", [OSError(28, "No space left on device"), KeyboardInterrupt()],
                         ids=["disk full", "ctrl-c"])
def test_a_failure_while_writing_keeps_the_old_file_and_leaves_no_temporary(tmp_path, error):
    f = tmp_path / "t.txt"
    f.write_text("old")
    with pytest.raises(type(error)) as info:
        with open_output(str(f)) as fh:
            fh.write(b"half of the")
            raise error
    assert f.read_text() == "old" and _listing(tmp_path) == ["t.txt"]
    if isinstance(error, OSError):
        assert info.value.filename == str(f)  # the user's name, never the temporary one


def test_a_failure_of_fsync_names_the_users_path(tmp_path, monkeypatch):
    f = tmp_path / "t.txt"

    def full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("ktsolve.output.os.fsync", full)
    with pytest.raises(OSError) as info:
        write_output(str(f), "data")
    assert info.value.filename == str(f) and ".ktsolve-tmp" not in str(info.value)
    assert not f.exists() and _listing(tmp_path) == []


# ---------------------------------------------------------------------- links, devices, pipes
def test_a_symlink_stays_a_link_and_its_target_gets_the_content(tmp_path):
    target = tmp_path / "target.txt"
    target.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(target.name)
    write_output(str(link), "new")
    assert link.is_symlink() and os.readlink(link) == "target.txt"
    assert target.read_text() == "new" and _listing(tmp_path) == ["link.txt", "target.txt"]


def test_a_dangling_symlink_creates_its_target(tmp_path):
    link = tmp_path / "link.txt"
    link.symlink_to("made.txt")
    assert check_output_path(str(link)) == str(link)
    write_output(str(link), "new")
    assert link.is_symlink() and (tmp_path / "made.txt").read_text() == "new"


def test_dev_null_stays_a_device(tmp_path):
    null = char_device("null", tmp_path)
    before = os.stat(null)
    write_output(null, b"x" * 100_000)
    after = os.stat(null)
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev and after.st_ino == before.st_ino


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_dev_full_is_an_error_naming_it_and_stays_a_device(tmp_path):
    full = char_device("full", tmp_path)
    with pytest.raises(OSError) as info:
        write_output(full, b"x" * 100_000)
    assert info.value.errno == 28 and info.value.filename == full
    assert stat.S_ISCHR(os.stat(full).st_mode)


def test_a_fifo_reader_gets_every_byte_and_the_fifo_stays(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = FifoReader(str(fifo))
    data = os.urandom(300_000)
    write_output(str(fifo), data)
    assert reader.join() == data
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and _listing(tmp_path) == ["pipe"]


def test_a_fifo_reader_that_leaves_early_is_a_broken_pipe(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = FifoReader(str(fifo), limit=10)
    with pytest.raises(BrokenPipeError) as info:
        with open_output(str(fifo)) as fh:
            for _ in range(100):
                fh.write(b"x" * 65536)
    assert reader.join() == b"x" * 10 and info.value.filename == str(fifo)


def test_dash_is_standard_output(monkeypatch):
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    monkeypatch.setattr(sys, "stdout", out)
    out.write("text first, ")
    write_output("-", "then bytes")
    assert out.buffer.getvalue() == b"text first, then bytes"


def test_npy_into_a_closed_pipe_is_a_broken_pipe_not_a_byte_count(tmp_path):
    import numpy as np

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = FifoReader(str(fifo), limit=10)
    with pytest.raises(BrokenPipeError):
        with open_output(str(fifo)) as fh:
            np.save(fh, np.arange(4_000_000, dtype=np.int32))
    reader.join()


def test_a_short_write_is_continued_never_lost(monkeypatch):
    # a buffered writer returns a short count (not an error) when a pipe's reader leaves mid-write
    class Short:
        def __init__(self):
            self.data = b""

        def write(self, b):
            b = bytes(b)
            k = max(1, len(b) // 3)
            self.data += b[:k]
            return k

        def flush(self):
            pass

    class Stdout:
        buffer = Short()

        def flush(self):
            pass

    monkeypatch.setattr(sys, "stdout", Stdout())
    write_output("-", b"0123456789" * 1000)
    assert Stdout.buffer.data == b"0123456789" * 1000
