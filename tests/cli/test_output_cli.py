"""Every command that writes goes through the one writer: special paths, kept files, closed pipes."""

import gzip
import re
import json
import os
import stat
import subprocess
import sys

import numpy as np
import pytest
from conftest import invoke
from special_files import char_device, guard_devices  # noqa: F401 - guard_devices is an autouse fixture
from test_output import FifoReader

from ktsolve import Board, validate
from ktsolve.files import parse_tour_text, read_tours

KTSOLVE = [sys.executable, "-m", "ktsolve.cli"]

# A command of each kind that finds a tour, as (args, board): solve, prove, longest, enumerate.
FINDS = {
    "solve": (["solve", "5x5", "-m", "warnsdorff", "--seed", "1"], "5x5"),
    "prove": (["prove", "5x5", "--seed", "1"], "5x5"),
    "longest": (["longest", "3x3", "--start", "a1"], "3x3"),
    "enumerate": (["enumerate", "5x5", "--cycles", "20", "--start", "a5", "--seed", "1"], "5x5"),
}


def run(args, input=None):
    """The CLI's result, whatever its exit code (through ``main``'s error handling)."""
    from click.testing import CliRunner

    from ktsolve.cli import cli

    return CliRunner().invoke(cli, [str(a) for a in args], input=input)


def _listing(folder):
    return sorted(p.name for p in folder.iterdir())


def _check_written(command, path, board):
    b = Board.from_spec(board)
    if command == "enumerate":
        tours, _ = read_tours(b, path)
        assert len(tours) >= 1
        for t in tours:
            validate(b, t)
    elif command == "longest":
        tours, _ = read_tours(b, path)
        validate(b, tours[0], complete=False)
    else:
        validate(b, parse_tour_text(b, open(path).read())[0])


# ---------------------------------------------------------------------- special paths
@pytest.mark.parametrize("command", FINDS)
def test_dev_null_stays_a_device(tmp_path, command):
    args, _ = FINDS[command]
    null = char_device("null", tmp_path)
    before = os.stat(null)
    invoke([*args, "-o", null], 0)
    st = os.stat(null)
    assert stat.S_ISCHR(st.st_mode) and st.st_rdev == before.st_rdev and st.st_ino == before.st_ino


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("command", FINDS)
def test_dev_full_is_one_line_and_stays_a_device(tmp_path, command):
    args, _ = FINDS[command]
    full = char_device("full", tmp_path)
    res = invoke([*args, "-o", full], 2)
    assert res.stderr.strip().splitlines() == [f"ktsolve: error: No space left on device: '{full}'"]
    assert stat.S_ISCHR(os.stat(full).st_mode)


@pytest.mark.parametrize("command", FINDS)
def test_a_symlink_target_gets_the_content_and_the_link_stays(tmp_path, command):
    args, board = FINDS[command]
    target = tmp_path / "target.txt"
    target.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to("target.txt")
    invoke([*args, "-o", str(link)], 0)
    assert link.is_symlink() and _listing(tmp_path) == ["link.txt", "target.txt"]
    _check_written(command, str(target), board)


@pytest.mark.parametrize("command", FINDS)
def test_a_fifo_reader_gets_the_bytes(tmp_path, command):
    args, board = FINDS[command]
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = FifoReader(str(fifo))
    invoke([*args, "-o", str(fifo)], 0)
    data = reader.join()
    assert data and stat.S_ISFIFO(os.stat(fifo).st_mode)
    copy = tmp_path / "copy.txt"
    copy.write_bytes(data)
    _check_written(command, str(copy), board)


def test_dash_writes_to_stdout_and_verify_reads_stdin(tmp_path):
    res = invoke(["solve", "5x5", "-m", "warnsdorff", "--seed", "1", "-o", "-"], 0)
    assert not (tmp_path / "-").exists() and not os.path.exists("-")
    validate(Board(5, 5), parse_tour_text(Board(5, 5), res.stdout)[0])
    out = invoke(["verify", "5x5", "-"], 0, input=res.stdout)
    assert out.stdout.startswith("valid: open tour of 25 squares")
    npy = invoke(["solve", "5x5", "-m", "warnsdorff", "--seed", "1", "--format", "npy", "-o", "-"], 0)
    assert npy.stdout_bytes.startswith(b"\x93NUMPY")
    assert invoke(["verify", "5x5", "-"], 0, input=npy.stdout_bytes).stdout.startswith("valid:")


def test_board_and_tour_cannot_both_come_from_stdin():
    res = invoke(["verify", "-", "-"], 2, input="...\n")
    assert "cannot both be read from standard input" in res.stderr


def test_enumerate_refuses_dash_before_any_work():
    res = invoke(["enumerate", "5x5", "--cycles", "1", "-o", "-"], 2)
    assert res.stdout == "" and "give a file for the tours" in res.stderr


# ---------------------------------------------------------------------- kept files
@pytest.mark.parametrize(
    "args",
    [
        ["solve", "8x8", "-m", "backtrack", "-p", "max_nodes=10"],  # unknown: exit 3
        ["solve", "8x8", "-m", "backtrack", "-p", "max_nodes=10", "--format", "json"],
        ["solve", "3x6", "-m", "backtrack"],  # proved impossible: exit 1
        ["solve", "3x6", "-m", "backtrack", "--format", "npy"],
        ["enumerate", "4x4", "--cycles", "3", "--seed", "1"],  # no tour kept: exit 3
        ["enumerate", "5x5", "--closed"],  # a proof: exit 1
        ["prove", "8x8", "--time-limit", "0.001", "--seed", "1"],  # unknown: exit 3
    ],
    ids=lambda a: " ".join(a),
)
def test_an_existing_file_is_kept_when_there_is_no_tour(tmp_path, args):
    f = tmp_path / "keep.out"
    f.write_text("precious")
    res = run([*args, "-o", str(f)])
    assert res.exit_code in (1, 3), res.stderr
    assert f.read_text() == "precious" and _listing(tmp_path) == ["keep.out"]
    assert f"nothing was written to '{f}'" in res.stderr.splitlines()[-1]


@pytest.mark.parametrize("fmt", ["npy", "text", "json"])
def test_an_unknown_kept_from_a_file_says_why_on_stderr(tmp_path, fmt):
    """With -o FILE an unknown writes nothing, and its reason (what stdout would have said) goes to stderr."""
    f = tmp_path / "answer.out"
    res = run(["solve", "8x8", "-m", "backtrack", "-p", "max_nodes=10", "--format", fmt, "-o", str(f)])
    assert res.exit_code == 3, res.stderr
    last = res.stderr.splitlines()[-1]
    assert last.startswith("ktsolve: no tour was found (") and f"), so nothing was written to '{f}'" in last
    shown = run(["solve", "8x8", "-m", "backtrack", "-p", "max_nodes=10"])
    reason = shown.stdout.strip().removeprefix("unknown: ")
    seconds = re.compile(r"\([0-9.e-]+ s\)")  # each step's seconds differ from run to run
    assert "node budget of 10 ran out" in reason and seconds.sub("", reason) in seconds.sub("", last)
    assert not f.exists()


def test_prove_writes_its_proof(tmp_path):
    f = tmp_path / "proof.json"
    invoke(["prove", "4x6", "--closed", "--format", "json", "-o", str(f)], 1)
    data = json.loads(f.read_text())
    assert data["format"] == "ktsolve-certificate" and data["answer"] == "no tour"
    assert data["argument"] == "matching"


def test_a_no_written_to_a_text_file_is_the_proofs_words_and_stdout_json_the_answer(tmp_path):
    """A file named .txt gets the proof for a reader; stdout's json is the answer with its certificate part."""
    f = tmp_path / "proof.txt"
    invoke(["prove", "4x6", "--closed", "-o", str(f)], 1)
    assert f.read_text().startswith("no tour: ")
    data = json.loads(invoke(["prove", "4x6", "--closed", "--format", "json"], 1).stdout)
    assert data["status"] == "infeasible" and data["certificate"]["argument"] == "matching"


def test_a_failed_run_names_the_users_path_not_a_temporary(tmp_path):
    res = invoke(["enumerate", "5x5", "--cycles", "1", "-o", "/proc/ktsolve-x"], 2)
    line = res.stderr.strip()
    assert "'/proc/ktsolve-x'" in line and "tmp" not in line and "kept" not in line


# ---------------------------------------------------------------------- closed pipes
def _run_into_pipe(args, read_bytes):
    """Run ktsolve with its stdout into a pipe whose reader takes ``read_bytes`` bytes and leaves."""
    proc = subprocess.Popen([*KTSOLVE, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    head = proc.stdout.read(read_bytes) if read_bytes else b""
    proc.stdout.close()
    err = proc.stderr.read()
    proc.wait(timeout=120)
    return proc.returncode, head, err


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "1000x1000"],
        ["solve", "1000x1000", "--format", "npy"],
        ["solve", "300x300", "--format", "json"],
        ["methods"],
    ],
    ids=lambda a: " ".join(a),
)
def test_a_closed_pipe_exits_141_quietly(args):
    code, head, err = _run_into_pipe(args, 0)
    assert err == b"" and code in (141, 0)  # 0 only when everything fitted in the pipe first
    if args[0] == "solve":
        assert code == 141


def test_a_pipe_read_to_the_end_exits_0():
    proc = subprocess.run([*KTSOLVE, "methods"], capture_output=True, timeout=120)
    assert proc.returncode == 0 and proc.stderr == b"" and b"warnsdorff" in proc.stdout


def test_head_of_a_big_tour_exits_141_with_nothing_on_stderr():
    code, head, err = _run_into_pipe(["solve", "1000x1000"], 50)
    assert code == 141 and err == b"" and len(head) == 50


# ---------------------------------------------------------------------- what verify reads
def test_enumerate_gz_output_verifies(tmp_path):
    f = tmp_path / "tours.txt.gz"
    invoke(["enumerate", "5x5", "--cycles", "20", "--start", "a5", "--seed", "1", "-o", str(f)], 0)
    assert gzip.open(f).read().count(b"\n") >= 1
    res = invoke(["verify", "5x5", str(f), "--start", "a5"], 0)
    assert res.stdout.startswith("valid: ") and "open tour" in res.stdout
    renamed = tmp_path / "tours.bin"  # recognised by content, not by name
    renamed.write_bytes(f.read_bytes())
    invoke(["verify", "5x5", str(renamed), "--start", "a5"], 0)


def test_enumerate_output_with_a_bad_tour_names_it(tmp_path):
    f = tmp_path / "tours.txt"
    invoke(["enumerate", "5x5", "--cycles", "40", "--start", "a5", "--seed", "1", "-o", str(f)], 0)
    lines = f.read_text().splitlines()
    swapped = lines[-1].split()
    swapped[3], swapped[4] = swapped[4], swapped[3]
    f.write_text("\n".join([*lines, " ".join(swapped)]) + "\n")
    res = invoke(["verify", "5x5", str(f)], 1)
    assert res.stdout.startswith(f"invalid: tour {len(lines) + 1}: illegal move at step 4")


def test_longest_output_verifies_as_a_path(tmp_path):
    for fmt in ("text", "json"):
        f = tmp_path / f"path.{fmt}"
        invoke(["longest", "4x4", "--start", "a1", "--format", fmt, "-o", str(f)], 0)
        res = invoke(["verify", "4x4", str(f), "--path", "--start", "a1"], 0)
        assert res.stdout.startswith("valid: open path of ") and "of 16 squares from a1" in res.stdout
        # as a tour it is what it is: a path that misses squares
        assert "never visited" in invoke(["verify", "4x4", str(f)], 1).stdout


def test_npy_written_through_a_link_reads_back(tmp_path):
    target = tmp_path / "t.npy"
    link = tmp_path / "l.npy"
    link.symlink_to(target)
    invoke(["solve", "6x6", "-m", "warnsdorff", "--seed", "3", "--format", "npy", "-o", str(link)], 0)
    validate(Board(6, 6), np.load(target))


@pytest.mark.parametrize("fmt", ["text", "npy", "json"])
def test_ctrl_c_while_writing_keeps_the_old_file_and_leaves_no_temporary(tmp_path, monkeypatch, fmt):
    from ktsolve import output

    f = tmp_path / "t.out"
    f.write_text("old")
    real = output._Sink.write

    def interrupted(self, data):
        real(self, bytes(memoryview(data).cast("B"))[:3])
        raise KeyboardInterrupt

    monkeypatch.setattr(output._Sink, "write", interrupted)
    res = run(["solve", "5x5", "-m", "warnsdorff", "--seed", "1", "--format", fmt, "-o", str(f)])
    assert res.exit_code == 130 and "interrupted" in res.stderr
    assert f.read_text() == "old" and _listing(tmp_path) == ["t.out"]


@pytest.mark.parametrize("args", [["verify", "5x5", "-"], ["solve", "-"]], ids=" ".join)
def test_a_closed_standard_input_is_one_line(args):
    proc = subprocess.run([*KTSOLVE, *args], capture_output=False, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, preexec_fn=lambda: os.close(0), timeout=120)
    lines = proc.stderr.decode().strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1 and "standard input: it is closed" in lines[0], lines


@pytest.mark.parametrize(
    "args",
    [["solve", "5x5"], ["solve", "5x5", "-o", "-"], ["methods"], ["verify", "5x5", "t.txt"],
     ["enumerate", "5x5", "--cycles", "1", "-o", "tours.txt"], ["prove", "5x5"]],
    ids=" ".join,
)
def test_a_closed_standard_output_is_one_line_before_any_work(tmp_path, args):
    proc = subprocess.run([*KTSOLVE, *args], stderr=subprocess.PIPE, cwd=tmp_path,
                          preexec_fn=lambda: os.close(1), timeout=120)
    lines = proc.stderr.decode().strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1 and "standard output is closed" in lines[0], lines
    assert list(tmp_path.iterdir()) == []


def test_a_closed_standard_output_is_no_matter_with_a_file(tmp_path):
    f = tmp_path / "t.txt"
    proc = subprocess.run([*KTSOLVE, "solve", "5x5", "-m", "warnsdorff", "--seed", "1", "-o", str(f)],
                          stderr=subprocess.PIPE, preexec_fn=lambda: os.close(1), timeout=120)
    assert proc.returncode == 0 and b"found" in proc.stderr
    validate(Board(5, 5), parse_tour_text(Board(5, 5), f.read_text())[0])


# A command of each kind and format, as (args, suffix, verify args): its -o NAME.gz must be gzip and verify
GZ_CASES = {
    "solve text": (["solve", "5x5", "-m", "warnsdorff", "--seed", "1"], "txt", ["verify", "5x5"]),
    "solve json": (["solve", "5x5", "-m", "warnsdorff", "--seed", "1", "--format", "json"], "json",
                   ["verify", "5x5"]),
    "solve npy": (["solve", "5x5", "-m", "warnsdorff", "--seed", "1", "--format", "npy"], "npy", ["verify", "5x5"]),
    "solve svg": (["solve", "5x5", "-m", "warnsdorff", "--seed", "1", "--format", "svg"], "svg", None),
    "prove text": (["prove", "5x5", "--seed", "1"], "txt", ["verify", "5x5"]),
    "prove json": (["prove", "5x5", "--seed", "1", "--format", "json"], "json", ["verify", "5x5"]),
    "longest text": (["longest", "4x4", "--start", "a1"], "txt", ["verify", "4x4", "--path", "--start", "a1"]),
    "longest json": (["longest", "4x4", "--start", "a1", "--format", "json"], "json",
                     ["verify", "4x4", "--path", "--start", "a1"]),
}


@pytest.mark.parametrize("case", list(GZ_CASES))
def test_a_gz_name_gets_gzip_for_every_command_and_format(tmp_path, case):
    """``-o x.txt.gz`` is gzip, as enumerate's is, whatever the command and format; verify reads it back."""
    args, suffix, verify = GZ_CASES[case]
    f = tmp_path / f"out.{suffix}.gz"
    invoke([*args, "-o", str(f)], 0)
    raw = f.read_bytes()
    assert raw[:2] == b"\x1f\x8b", f"{case}: -o {f.name} is not gzip"
    plain = tmp_path / f"plain.{suffix}"
    invoke([*args, "-o", str(plain)], 0)
    inflated, expected = gzip.decompress(raw), plain.read_bytes()
    if args[0] == "prove":
        # prove races its steps on two cores, so two runs may give two different tours: both are checked below
        assert inflated.strip() and expected.strip()
        if verify is not None:
            assert invoke([*verify, str(plain)], 0).stdout.startswith("valid: ")
    elif suffix == "json":  # the same answer, compressed (the elapsed time may differ)
        drop = ("elapsed_s", "stats")
        assert ({k: v for k, v in json.loads(inflated).items() if k not in drop}
                == {k: v for k, v in json.loads(expected).items() if k not in drop})
    elif suffix == "svg":
        assert inflated.startswith(b"<svg") and inflated.endswith(b"</svg>\n")
    else:
        assert inflated == expected
    assert _listing(tmp_path) == sorted([f.name, plain.name])  # no temporary left
    if verify is not None:
        res = invoke([*verify, str(f)], 0)
        assert res.stdout.startswith("valid: ")


def test_a_proof_written_to_a_gz_name_is_gzip(tmp_path):
    f = tmp_path / "proof.json.gz"
    invoke(["prove", "4x6", "--closed", "--format", "json", "-o", str(f)], 1)
    assert json.loads(gzip.decompress(f.read_bytes()))["answer"] == "no tour"


def _fault(*args, **kwargs):
    raise RuntimeError("a fault planted by the test")


@pytest.mark.parametrize("traceback", [False, True])
def test_a_fault_inside_ktsolve_is_not_taken_for_an_answer(monkeypatch, tmp_path, traceback):
    """A bug is exit 70 with one line naming it, never exit 1 ("no tour") after Python's traceback; the
    traceback follows the line only when ``KTSOLVE_TRACEBACK`` asks for it, and no output file is left."""
    import ktsolve.cli.solve
    from ktsolve.exit_codes import ExitCode

    monkeypatch.setattr(ktsolve.cli.solve, "solve_board", _fault)
    if traceback:
        monkeypatch.setenv("KTSOLVE_TRACEBACK", "1")
    else:
        monkeypatch.delenv("KTSOLVE_TRACEBACK", raising=False)
    out = tmp_path / "tour.txt"
    res = run(["solve", "6x6", "-o", out])
    assert res.exit_code == ExitCode.INTERNAL == 70
    lines = res.stderr.strip().splitlines() if hasattr(res, "stderr") else res.output.strip().splitlines()
    said = [ln for ln in lines if ln.startswith("ktsolve: internal error")]
    assert said == ["ktsolve: internal error (a bug in ktsolve, please report it): RuntimeError: a fault planted "
                    "by the test"]
    assert ("Traceback (most recent call last):" in res.output) is traceback
    assert not out.exists()
