"""Under a time limit the first attempt of splice keeps time for the second (pipeline.repair_clock)."""

from __future__ import annotations

import pytest

from ktsolve import KnightGraph, Status, TourSpec
from ktsolve.driver import Deadline, Stopped
from ktsolve.generate import random_holed_board
from ktsolve.heuristics import splice
from ktsolve.heuristics.splice import pieces, pipeline, repairs
from ktsolve.tour import validate

BOARD = random_holed_board(30, 41, 0.03, closed=True, seed=3)


@pytest.fixture
def pieces_left(monkeypatch):
    """The exchanges of the attempts' step 4 join nothing (so the repairs have pieces to work on); the first
    repair stage records the clock it was given and the call's time left, and in the first attempt stops as a
    clock that has run out would."""
    splice.warm()
    real = pieces.merge_pieces
    monkeypatch.setattr(pipeline, "merge_pieces", lambda *a, **kw: real(*a, **{**kw, "passes": 0}))
    seen = []

    def first_stage(job, state, turn):
        seen.append((job.deadline, state.pieces))
        if len(seen) == 1:
            job.deadline.check("rerouting the pieces left")  # the stage's first look at its clock
            raise Stopped("time limit", "rerouting the pieces left")
        return state, {}

    monkeypatch.setattr(repairs, "REPAIRS", (repairs.Stage("first", first_stage, ()), *repairs.REPAIRS))
    return seen


def _reserving(monkeypatch, seconds: float) -> list:
    """The first attempt keeps ``seconds`` for the second (whatever its own steps took); the reserves asked."""
    real, asked = pipeline.repair_clock, []

    def fixed(deadline, reserve):
        asked.append(reserve)
        return real(deadline, seconds)

    monkeypatch.setattr(pipeline, "repair_clock", fixed)
    return asked


def test_the_repairs_clock_keeps_the_second_attempts_share(pieces_left, monkeypatch):
    asked = _reserving(monkeypatch, 600.0)
    res = splice.solve_splice(KnightGraph(BOARD), TourSpec(closed=True), time_limit=3600)
    clock, first_pieces = pieces_left[0]
    assert len(asked) == 1 and asked[0] > 0  # the first attempt only, from the seconds its steps took
    assert first_pieces > 1
    assert 2990 < clock.remaining() <= 3000  # the call's hour less the reserve
    # the repairs' clock running out ended the first attempt only: the transposed board was toured
    assert res.status is Status.FOUND, res.stats
    assert res.stats["transposed"] is True and res.stats["first_attempt"]["pieces"] == first_pieces
    assert "share of the time ran out" in res.stats["first_attempt"]["reason"]
    validate(BOARD, res.tour, closed=True)


def test_without_a_time_limit_the_repairs_have_the_calls_clock(pieces_left):
    res = splice.solve_splice(KnightGraph(BOARD), TourSpec(closed=True))
    assert pieces_left[0][0].remaining() is None
    # the stop was the call's own: no second attempt follows
    assert res.status is Status.UNKNOWN and res.stats.get("stopped") and "first_attempt" not in res.stats


def test_where_the_second_attempt_has_no_time_the_repairs_keep_it_all(pieces_left, monkeypatch):
    _reserving(monkeypatch, 2000.0)  # more than half the call's time
    res = splice.solve_splice(KnightGraph(BOARD), TourSpec(closed=True), time_limit=3600)
    assert 3590 < pieces_left[0][0].remaining() <= 3600
    assert res.status is Status.UNKNOWN and res.stats.get("stopped")
    # the unknown says that no second attempt was made, and why
    reason = res.stats["reason"]
    assert "no second attempt (" in reason and "s left after the exchanges, under twice the" in reason, reason
    assert "repair" in reason and "so far" in reason  # the phase that was running, with its seconds
    assert "running" not in res.stats


def test_repair_clock_shares_the_calls_cancel_flag_and_compile_time():
    import threading

    flag = threading.Event()
    whole = Deadline(100.0, cancel=flag)
    whole.extend(5.0)
    part = pipeline.repair_clock(whole, 30.0)
    assert 74.0 < part.remaining() <= 75.0
    flag.set()
    assert part.expired() and whole.expired()
