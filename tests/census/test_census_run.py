"""Censuses on the real engine and a local pool: oracles, reproducibility, resuming, dying and hanging workers."""

from __future__ import annotations

import json
import os
import signal
import time

import numpy as np
import pytest

import ktsolve
from ktsolve import Board, Tour, validate
from ktsolve.census import CensusError, census, orbit_count, read_results
from ktsolve.census import pool as pool_module

from census_helpers import answers, index_counts, square_map, worker_pids


# ---------------------------------------------------------------------- oracles
def test_single_square_removals_against_the_oracles(tmp_path, holed_oracle):
    """holed.json's one-hole closed cases, and its theorems: 5x5 only corners, 7x7 every corner colour."""
    cases = [c for c in holed_oracle["cases"] if c["kind"] == "closed" and len(c["holes"]) == 1]
    sizes = sorted({tuple(c["board"]) for c in cases})
    assert (5, 5) in sizes and (3, 7) in sizes and len(cases) >= 10
    maps = {}
    for rows, cols in sizes:
        rep = census(f"{rows}x{cols}", remove=1, closed=True, output=tmp_path / f"{rows}x{cols}.jsonl", seed=1,
                     workers=2, time_limit=30)
        assert rep.exit_code == 0
        maps[(rows, cols)] = square_map(rep.summary, "closed")
        assert len(maps[(rows, cols)]) == rows * cols
    for c in cases:
        got = maps[tuple(c["board"])][tuple(c["holes"][0])]
        assert got == ("found" if c["exists"] else "infeasible"), c
    five = maps[(5, 5)]
    assert {sq for sq, s in five.items() if s == "found"} == {(0, 0), (0, 4), (4, 0), (4, 4)}
    seven = maps[(7, 7)]
    assert all((s == "found") == ((r + c) % 2 == 0) for (r, c), s in seven.items())


def test_start_squares_against_the_oracles(tmp_path, counts_oracle):
    """An open tour starts from a square iff OEIS counts tours from it; n x n, n >= 6, by the colour rule."""
    rep5 = census("5x5", starts=True, output=tmp_path / "s5.jsonl", seed=2, workers=2)
    rep6 = census("6x6", starts=True, output=tmp_path / "s6.jsonl", seed=2, workers=2)
    rep34 = census("3x4", starts=True, output=tmp_path / "s34.jsonl", seed=2, workers=2)
    maps = {(5, 5): square_map(rep5.summary, "open"), (3, 4): square_map(rep34.summary, "open")}
    for case in counts_oracle["per_start"]:
        got = maps[tuple(case["board"])][tuple(case["start"])]
        assert got == ("found" if case["value"] > 0 else "infeasible"), case
    five = maps[(5, 5)]
    assert all((s == "found") == ((r + c) % 2 == 0) for (r, c), s in five.items())  # the 5x5 matrix
    assert set(square_map(rep6.summary, "open").values()) == {"found"}  # Conrad et al.: every square


def test_question_file_against_the_oracles(tmp_path, holed_oracle):
    """Every case of holed.json asked through --from (holes, fixed starts, open and closed)."""
    path = tmp_path / "cases.jsonl"
    with open(path, "w") as fh:
        for c in holed_oracle["cases"]:
            line = {"board": {"rows": c["board"][0], "cols": c["board"][1], "holes": c["holes"]},
                    "closed": c["kind"] == "closed"}
            if "start" in c:
                line["start"] = c["start"]
            fh.write(json.dumps(line) + "\n")
    rep = census(from_file=path, output=tmp_path / "out.jsonl", seed=3, workers=2, time_limit=30)
    assert rep.exit_code == 0
    got = {i: r["status"] for i, r in rep.summary.records.items()}
    assert got == {i: "found" if c["exists"] else "infeasible" for i, c in enumerate(holed_oracle["cases"])}


# ---------------------------------------------------------------------- answers
def test_tours_are_valid_and_runs_reproducible(tmp_path):
    a = census("6x6", remove=2, closed="both", output=tmp_path / "a.jsonl", seed=9, workers=2)
    census("6x6", remove=2, closed="both", output=tmp_path / "b.jsonl", seed=9, workers=1)
    assert answers(tmp_path / "a.jsonl") == answers(tmp_path / "b.jsonl")
    assert a.questions == 2 * orbit_count(Board(6, 6), 2)[1] == 186 and a.summary.answered == a.questions
    n_found = 0
    for rec in read_results(tmp_path / "a.jsonl", full=True).records.values():
        board = Board(6, 6, [tuple(h) for h in rec["board"]["holes"]])
        if rec["status"] == "found":
            n_found += 1
            validate(board, Tour.from_coords(board, np.array(rec["tour"]), closed=rec["closed"]),
                     closed=rec["closed"])
        else:
            assert rec["status"] == "infeasible" and rec["proof"] and rec["argument"]
    assert n_found > 0


def test_symmetry_reduction_gives_the_answers_of_every_board(tmp_path):
    red = census("5x6", remove=1, closed="both", output=tmp_path / "r.jsonl", seed=4, workers=2)
    full = census("5x6", remove=1, closed="both", output=tmp_path / "f.jsonl", seed=4, workers=2, symmetry=False)
    assert full.family.boards_after == 30 and red.family.boards_after < 30
    for mode in ("open", "closed"):
        every = {}
        for rec in full.summary.records.values():
            if ("closed" if rec["closed"] else "open") == mode:
                every[tuple(rec["board"]["holes"][0])] = rec["status"]
        assert square_map(red.summary, mode) == every
    boards = {m: sum(red.summary.status[m][s][1] for s in ("found", "infeasible", "unknown"))
              for m in red.summary.modes}
    assert boards == {"open": 30, "closed": 30}


def test_python_entry_point_is_the_module(tmp_path):
    rep = ktsolve.census("4x5", remove=1, output=tmp_path / "c.jsonl", seed=1, workers=1)
    assert rep.summary.answered == rep.questions == 6
    assert ktsolve.census.census is census


# ---------------------------------------------------------------------- nothing lost
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_interrupted_census_resumes_without_asking_twice(tmp_path, signum):
    path = tmp_path / "r.jsonl"
    sent = []

    def progress(done, total):
        if done >= 40 and not sent:
            sent.append(done)
            os.kill(os.getpid(), signum)

    first = census("6x6", remove=2, closed="both", output=path, seed=5, workers=2, batch=4, progress=progress)
    assert first.interrupted and first.exit_code == 130 and sent
    part = read_results(path)
    assert not part.cut and 40 <= len(part.records) < first.questions
    assert part.run_ends[-1]["interrupted"] is True
    second = census("6x6", remove=2, closed="both", output=path, workers=2)  # the seed comes from the file
    assert not second.interrupted and second.exit_code == 0 and second.seed == 5
    assert second.answered_before == len(part.records)
    assert second.answered_now == first.questions - len(part.records)
    counts = index_counts(path)
    assert sorted(counts) == list(range(first.questions)) and set(counts.values()) == {1}
    clean = census("6x6", remove=2, closed="both", output=tmp_path / "clean.jsonl", seed=5, workers=1)
    assert answers(path) == answers(tmp_path / "clean.jsonl")
    assert clean.summary.answered == clean.questions


def test_cut_off_line_is_asked_again(tmp_path):
    path = tmp_path / "r.jsonl"
    census("6x6", remove=1, closed="both", output=path, seed=5, workers=1)
    lines = path.read_bytes().splitlines(keepends=True)
    records = [ln for ln in lines if b'"index"' in ln]
    # drop the run_end line and cut the last record in half, as a crash would
    body = b"".join(ln for ln in lines if b'"run_end"' not in ln)
    body = body[: -len(records[-1]) // 2]
    path.write_bytes(body)
    rep = census("6x6", remove=1, closed="both", output=path, workers=1)
    assert rep.answered_now == 1
    counts = index_counts(path)
    assert set(counts.values()) == {1} and len(counts) == rep.questions


def test_a_killed_worker_loses_no_result(tmp_path):
    path = tmp_path / "r.jsonl"
    killed = []

    def progress(done, total):
        if done >= 30 and not killed:
            pids = worker_pids(os.getpid())
            os.kill(pids[0], signal.SIGKILL)
            killed.append(pids[0])

    rep = census("6x6", remove=2, closed="both", output=path, seed=6, workers=2, batch=8, progress=progress)
    assert killed and rep.restarts >= 1 and not rep.interrupted
    counts = index_counts(path)
    assert sorted(counts) == list(range(rep.questions)) and set(counts.values()) == {1}
    got = read_results(path).records
    lost = {i: r for i, r in got.items() if r["status"] == "unknown"}
    assert len(lost) <= 1
    for r in lost.values():
        assert r["reason"].startswith("the worker process died (killed by SIGKILL)")
    census("6x6", remove=2, closed="both", output=tmp_path / "ref.jsonl", seed=6, workers=1)
    ref = answers(tmp_path / "ref.jsonl")
    mine = answers(path)
    assert {i: a for i, a in mine.items() if i not in lost} == {i: a for i, a in ref.items() if i not in lost}
    assert killed[0] not in worker_pids()


def test_a_hung_question_is_recorded_and_the_census_goes_on(tmp_path, monkeypatch):
    monkeypatch.setattr(pool_module, "HANG_GRACE_S", 0.3)
    monkeypatch.setattr(pool_module, "HANG_GRACE_SHARE", 0.0)
    path = tmp_path / "r.jsonl"
    stopped = []

    def progress(done, total):
        if done >= 5 and not stopped:
            pid = worker_pids(os.getpid())[0]
            os.kill(pid, signal.SIGSTOP)  # the question never ends, as a hung kernel would
            stopped.append(pid)

    t0 = time.perf_counter()
    rep = census("6x6", remove=2, output=path, seed=7, workers=2, batch=4, time_limit=0.5, progress=progress)
    assert stopped and time.perf_counter() - t0 < 60
    got = read_results(path).records
    assert len(got) == rep.questions == len(index_counts(path))
    hung = [r for r in got.values() if r["status"] == "unknown"]
    assert len(hung) == 1
    assert "past its time limit of 0.5 s" in hung[0]["reason"] and "its worker was killed" in hung[0]["reason"]
    assert rep.exit_code == 3 and rep.summary.table["open"][("unknown", "hung")] == [1, hung[0]["orbit"]]
    assert stopped[0] not in worker_pids()
    # asking the unknowns again settles them, in new lines
    again = census("6x6", remove=2, output=path, workers=1, retry_unknown=True, time_limit=10)
    assert again.answered_now == 1 and again.exit_code == 0
    assert max(index_counts(path).values()) == 2 and len(read_results(path).records) == rep.questions


def test_workers_that_cannot_start_end_the_census(tmp_path, monkeypatch):
    monkeypatch.setattr(pool_module, "_CHILD", "import sys; sys.exit('no ktsolve here')")
    path = tmp_path / "r.jsonl"
    with pytest.raises(CensusError, match="workers cannot start.*no ktsolve here"):
        census("5x5", remove=1, output=path, seed=1, workers=1)
    assert not path.exists()


def test_a_scheduler_without_dask_is_refused(tmp_path, monkeypatch):
    from ktsolve.census import cluster

    monkeypatch.setattr(cluster, "have_dask", lambda: False)
    with pytest.raises(CensusError, match=r"pip install 'ktsolve\[cluster\]'"):
        census("5x5", remove=1, output=tmp_path / "r.jsonl", scheduler="tcp://127.0.0.1:8786")
    assert not (tmp_path / "r.jsonl").exists()


@pytest.mark.slow
def test_three_by_n_single_removals(tmp_path, holed_oracle):
    """Which single squares of 3 x n (n = 5..14) can go for a closed tour: settled, checked, oracles where listed."""
    listed = {(tuple(c["board"]), tuple(c["holes"][0])): c["exists"] for c in holed_oracle["cases"]
              if c["kind"] == "closed" and len(c["holes"]) == 1 and c["board"][0] == 3}
    seen = 0
    for n in range(5, 15):
        rep = census(f"3x{n}", remove=1, closed=True, output=tmp_path / f"3x{n}.jsonl", seed=1, workers=2,
                     time_limit=60)
        assert rep.exit_code == 0, f"3x{n} left unknowns"
        for rec in read_results(tmp_path / f"3x{n}.jsonl", full=True).records.values():
            board = Board(3, n, [tuple(h) for h in rec["board"]["holes"]])
            if rec["status"] == "found":
                validate(board, Tour.from_coords(board, np.array(rec["tour"]), closed=True), closed=True)
        squares = square_map(rep.summary, "closed")
        for (size, hole), exists in listed.items():
            if size == (3, n):
                assert squares[hole] == ("found" if exists else "infeasible")
                seen += 1
        if n % 2 == 0:  # 3n - 1 squares, an odd number: the colours cannot balance
            assert set(rep.summary.table["closed"]) == {("infeasible", "colour parity")}
        elif n >= 7:  # holed.json lists such squares for n = 7, 9, 11 (Miller & Farnsworth 2013)
            assert "found" in squares.values()
    assert seen == len(listed)
