"""A census whose write fails (a full disk) leaves its results file as it was before the failing line (issue 31)."""

from __future__ import annotations

import errno
import os

import pytest
from conftest import invoke

from ktsolve.census import store as store_module
from ktsolve.census.family import Task
from ktsolve.census.store import ResultStore, read_results
from ktsolve.census.worker import make_answer
from ktsolve.errors import CensusFileError

HEADER = {"identity": {"family": {"kind": "remove", "remove": 1}, "seed": 4},
          "description": "5x5 --remove 1, open tours", "seed": 4, "questions": 10}


def _answer(i):
    return make_answer(Task(i, 5, 5, ((0, 0),), False, None, None, 100 + i, 5.0, 4), reason="a test answer")


def _full_after(monkeypatch, room: int):
    """os.write writes ``room`` more bytes in all, then fails with ENOSPC, as a file system that fills up."""
    real = os.write
    left = [room]

    def write(fd, data):
        if left[0] <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        n = real(fd, bytes(data)[: left[0]])
        left[0] -= n
        return n

    monkeypatch.setattr(store_module.os, "write", write)


@pytest.mark.parametrize("room", [0, 1, 17])
def test_a_line_cut_by_a_full_disk_is_taken_back(tmp_path, monkeypatch, room):
    path = tmp_path / "r.jsonl"
    store = ResultStore(path)
    store.open(HEADER, None)
    store.append([_answer(0), _answer(1)])
    before = path.read_bytes()
    _full_after(monkeypatch, room)
    with pytest.raises(CensusFileError, match="No space left on device") as err:
        store.append([_answer(2)])
    assert "whole" in str(err.value) and "resume" in str(err.value)
    monkeypatch.undo()
    store.close()
    assert path.read_bytes() == before
    ex = read_results(path)
    assert sorted(ex.records) == [0, 1] and not ex.cut


def test_a_full_disk_during_a_census_exits_2_and_keeps_whole_lines(tmp_path, monkeypatch):
    """Through the command: one error line, exit 2; the file reads back whole and the census resumes."""
    path = tmp_path / "r.jsonl"
    real = store_module.ResultStore.append
    calls = [0]

    def append(self, answers):
        calls[0] += 1
        if calls[0] == 2:  # the disk fills up in the middle of the second group of answers
            _full_after(monkeypatch, 5)
        return real(self, answers)

    monkeypatch.setattr(store_module.ResultStore, "append", append)
    res = invoke(["census", "5x5", "--remove", "1", "-o", path, "--workers", "1", "--batch", "1",
                  "--seed", "3"], 2)
    monkeypatch.undo()
    errors = [line for line in res.stderr.splitlines() if line.startswith("ktsolve: error:")]
    assert len(errors) == 1 and "No space left on device" in errors[0], res.stderr
    assert path.read_bytes().endswith(b"\n")
    ex = read_results(path)
    assert not ex.cut and len(ex.records) >= 1
    done = invoke(["census", "5x5", "--remove", "1", "-o", path, "--workers", "1", "--seed", "3"])
    assert "6 of 6 questions answered" in done.stdout
