"""The census results file: header, appending, cut-off lines, refusals, locking, npy tours."""

from __future__ import annotations

import json

import numpy as np
import pytest

from ktsolve import Board, Tour, prove, validate
from ktsolve.census.family import Task
from ktsolve.census.store import ResultStore, check_identity, read_results
from ktsolve.census.worker import answer, make_answer
from ktsolve.errors import CensusFileError

IDENTITY = {"family": {"kind": "remove", "remove": 1}, "seed": 4}
HEADER = {"identity": IDENTITY, "description": "5x5 --remove 1, open tours", "seed": 4, "questions": 10}


def _task(i, holes=((0, 0),), closed=False):
    return Task(i, 5, 5, holes, closed, None, None, 100 + i, 5.0, 4)


def _write(path, answers, existing=None):
    store = ResultStore(path)
    store.open(HEADER, existing)
    for a in answers:
        store.append([a])
    store.close()


def test_header_records_and_runs(tmp_path):
    path = tmp_path / "r.jsonl"
    _write(path, [answer(_task(0)), make_answer(_task(1), reason="the worker process died (killed by SIGKILL)")])
    ex = read_results(path, full=True)
    assert ex.header["identity"] == IDENTITY and ex.header["ktsolve_census"] == 1
    assert sorted(ex.records) == [0, 1] and not ex.cut
    rec = ex.records[0]
    assert rec["status"] == "found" and rec["board"] == {"rows": 5, "cols": 5, "holes": [[0, 0]]}
    assert rec["seed"] == 100 and rec["time_limit"] == 5.0 and rec["orbit"] == 4
    board = Board(5, 5, [(0, 0)])
    validate(board, Tour.from_coords(board, np.array(rec["tour"])))
    assert ex.records[1]["status"] == "unknown" and "SIGKILL" in ex.records[1]["reason"]
    assert "tour" not in read_results(path).records[0]  # summaries need not hold every tour


def test_infeasible_record_carries_the_proof(tmp_path):
    res = answer(_task(0, holes=((0, 1),), closed=True))
    rec = json.loads(res.line)
    want = prove(Board(5, 5, [(0, 1)]), closed=True, seed=100)
    assert rec["status"] == "infeasible" == want.status.value
    assert rec["argument"] == want.proof.argument and rec["proof"] == str(want.proof)
    assert rec["settled_by"] == want.stats["settled_by"] and isinstance(rec["evidence"], dict)


def test_cut_off_last_line_is_dropped(tmp_path):
    path = tmp_path / "r.jsonl"
    _write(path, [answer(_task(0)), answer(_task(1))])
    whole = path.read_bytes()
    path.write_bytes(whole + b'{"index": 2, "board": {"ro')
    ex = read_results(path)
    assert ex.cut and sorted(ex.records) == [0, 1] and ex.good_end == len(whole)
    _write(path, [answer(_task(2))], existing=ex)
    ex2 = read_results(path)
    assert not ex2.cut and sorted(ex2.records) == [0, 1, 2]
    assert path.read_bytes().startswith(whole)
    assert all(json.loads(line) for line in path.read_text().splitlines())


def test_damaged_line_in_the_middle_is_refused(tmp_path):
    path = tmp_path / "r.jsonl"
    _write(path, [answer(_task(0)), answer(_task(1))])
    lines = path.read_text().splitlines()
    lines[1] = lines[1][:20]
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(CensusFileError, match="line 2 .* damaged"):
        read_results(path)


def test_not_a_census_file_is_refused(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("my precious notes\n")
    with pytest.raises(CensusFileError, match="not a census results file"):
        read_results(path)
    assert path.read_text() == "my precious notes\n"


def test_another_census_is_named(tmp_path):
    path = tmp_path / "r.jsonl"
    _write(path, [])
    ex = read_results(path)
    check_identity(path, ex, IDENTITY, "whatever")  # the same census passes
    with pytest.raises(CensusFileError, match=r"holds another census: 5x5 --remove 1, open tours \(seed 4\), "
                                              r"not 8x8 --starts \(seed 4\)"):
        check_identity(path, ex, {**IDENTITY, "family": {"kind": "starts"}}, "8x8 --starts")


def test_one_writer_at_a_time(tmp_path):
    path = tmp_path / "r.jsonl"
    first = ResultStore(path)
    first.open(HEADER, None)
    try:
        with pytest.raises(CensusFileError, match="another census that is still running"):
            ResultStore(path).open(HEADER, read_results(path))
    finally:
        first.close()


def test_large_tours_go_to_npy(tmp_path):
    path = tmp_path / "r.jsonl"
    settings = {"inline_max": 20, "tour_dir": "r.jsonl.tours"}
    ans = answer(_task(7), settings)
    assert ans.squares is not None
    _write(path, [ans])
    rec = read_results(path).records[7]
    assert "tour" not in rec and rec["tour_file"] == "r.jsonl.tours/q0000007.npy"
    squares = np.load(tmp_path / rec["tour_file"])
    board = Board(5, 5, [(0, 0)])
    assert validate(board, Tour(board, squares)).is_complete


def test_error_in_prove_is_an_unknown_with_its_reason():
    bad = Task(0, 5, 5, ((0, 0),), False, (0, 0), None, 1, 5.0, 1)  # a start on a hole
    rec = json.loads(answer(bad).line)
    assert rec["status"] == "unknown" and "prove() raised InvalidSquareError" in rec["reason"]
