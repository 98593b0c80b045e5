"""The small untruths of issue 31: what a newcomer reads is what happens."""

from __future__ import annotations

import json

from conftest import invoke

from ktsolve import Board, prove, solve
from ktsolve.board import BoardFile
from ktsolve.cli.board import parse_holes


def test_a_board_file_read_from_python_is_solved_with_its_start_and_end(tmp_path):
    """Board.read_file returns a BoardFile; solve and prove take it, with the start and end it marks."""
    path = tmp_path / "puzzle.txt"
    path.write_text("S....\n.....\n.....\n....E\n.....\n")
    parsed = Board.read_file(path)
    assert isinstance(parsed, BoardFile) and parsed.start == (0, 0) and parsed.end == (3, 4)
    res = solve(parsed, seed=1)
    assert res.status.value in ("found", "infeasible")
    assert res.spec.start == (0, 0) and res.spec.end == (3, 4)
    assert prove(parsed, seed=1).status is res.status
    # the call's own start and end win over the file's
    other = solve(parsed, start="e1", end=None, seed=1)
    assert other.spec.start == (4, 4) and other.spec.end == (3, 4)


def test_a_share_in_percent_is_exact():
    assert parse_holes("20.0001%") == 0.200001
    assert parse_holes("1%") == 0.01 and parse_holes("12.5%") == 0.125


def test_a_share_just_over_the_limit_is_named_as_written():
    res = invoke(["board", "random", "10x10", "--holes", "20.0001%"], 2)
    assert "0.200001 " in res.stderr and "0.2000009" not in res.stderr


def test_one_question_is_one_question(tmp_path):
    questions = tmp_path / "q.jsonl"
    questions.write_text(json.dumps({"board": "5x5", "holes": "a1"}) + "\n")
    out = tmp_path / "r.jsonl"
    res = invoke(["census", "--from", questions, "-o", out, "--workers", "1", "--time-limit", "5"])
    text = res.stdout + res.stderr
    assert "1 questions" not in text and "1 question" in text
    assert "1 of 1 question answered" in res.stdout


def test_prove_never_says_settled_by_none():
    res = invoke(["prove", "8x8", "--time-limit", "0.001", "--seed", "1"], 3)
    assert "settled by none" not in res.stderr
    assert "ktsolve: no step settled it" in res.stderr
    ok = invoke(["prove", "4x4"], 1)
    assert ok.stderr.splitlines()[-1].startswith("ktsolve: settled by ")
