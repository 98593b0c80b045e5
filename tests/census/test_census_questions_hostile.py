"""``census --from FILE``: a hostile question file is one line and exit 2, read within a budget, never a hang."""

from __future__ import annotations

import gzip
import os
import resource
import subprocess
import sys

import pytest
from conftest import invoke

from ktsolve.census import family

CODE = "import sys; from ktsolve.cli import main; main(sys.argv[1:])"


def _refused(tmp_path, path, message, code=2):
    out = tmp_path / "out.jsonl"
    res = invoke(["census", "--from", path, "-o", out, "--workers", "1"], code=code)
    assert res.stderr.startswith("ktsolve: error:") and res.stderr.count("\n") == 1, res.stderr
    assert message in res.stderr, res.stderr
    assert not out.exists()
    return res


def _limit_memory():
    """A reader with no budget meets /dev/zero: it fails at 2 GiB instead of taking the machine's memory."""
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def _run(tmp_path, path):
    """The command in its own process: a reader that blocks fails the test by its timeout instead of hanging it."""
    out = tmp_path / "out.jsonl"
    try:
        res = subprocess.run([sys.executable, "-c", CODE, "census", "--from", str(path), "-o", str(out)],
                             capture_output=True, text=True, timeout=30, preexec_fn=_limit_memory)
    except subprocess.TimeoutExpired:
        pytest.fail(f"ktsolve census --from {path} hung")
    assert not out.exists()
    return res


def test_a_fifo_is_refused_without_hanging(tmp_path):
    fifo = tmp_path / "questions.fifo"
    os.mkfifo(fifo)
    res = _run(tmp_path, fifo)
    assert res.returncode == 2 and res.stderr.count("\n") == 1 and "not a regular file" in res.stderr, res.stderr


def test_dev_zero_is_refused_before_reading(tmp_path):
    res = _run(tmp_path, "/dev/zero")
    assert res.returncode == 2 and res.stderr.count("\n") == 1 and "not a regular file" in res.stderr, res.stderr


def test_a_gzip_bomb_stops_at_the_line_budget(tmp_path, monkeypatch):
    """70 MB of one line, gzipped to ~70 kB: read no further than the budget, one line, exit 2."""
    bomb = tmp_path / "bomb.jsonl"
    with gzip.open(bomb, "wb", compresslevel=9) as fh:
        block = b"x" * (1 << 20)
        for _ in range(70):
            fh.write(block)
    assert bomb.stat().st_size < 1 << 20
    _refused(tmp_path, bomb, "larger than")


def test_many_lines_stop_at_the_file_budget(tmp_path, monkeypatch):
    monkeypatch.setattr(family, "MAX_QUESTION_FILE_BYTES", 1000)
    many = tmp_path / "many.jsonl"
    many.write_text('{"board": "5x5"}\n' * 100)
    _refused(tmp_path, many, "larger than 1,000 bytes")


@pytest.mark.parametrize("line, message", [
    ("[" * 100_000, "not JSON"),  # deep: Python's parser would raise RecursionError
    ('{"board": {"rows": ' + "[" * 100_000 + "}}", "not JSON"),
    ('{"board": {"rows": ' + "9" * 100_000 + ', "cols": 5}}', "not JSON"),  # beyond int's digit limit
    ('{"board": {"rows": 1e999, "cols": 5}}', "line 1"),
    ('{"board": {"rows": 99999999999999999999999999, "cols": 5}}', "line 1"),
    ('{"board": "5x5", "start": [99999999999999999999999999, 0]}', "line 1"),
    ('{"board": "5x5", "holes": [[1e308, -1e308]]}', "line 1"),
])
def test_hostile_json_is_one_line(tmp_path, line, message):
    f = tmp_path / "q.jsonl"
    f.write_text(line + "\n")
    res = _refused(tmp_path, f, message)
    assert len(res.stderr) < 1000


def test_blank_lines_keep_the_line_numbers_of_the_file(tmp_path):
    f = tmp_path / "q.jsonl"
    f.write_text('\n  \n{"board": "5x5"}\n\n{"board": "5x5", "holes": "q99"}\n')
    _refused(tmp_path, f, "line 5 of")
