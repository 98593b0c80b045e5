"""ktsolve.testing against the methods it exists to catch (issue 20, items 1 and 5)."""

from __future__ import annotations

import importlib.util
import pathlib
import time

import numpy as np
import pytest

import ktsolve
from ktsolve.testing import assert_agrees

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "docs" / "examples" / "test_random_walk.py"


def _example():
    spec = importlib.util.spec_from_file_location("_random_walk_example", EXAMPLE)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("unknown", ["allow", "easy", "any"])
def test_the_docs_careless_walk_fails_assert_agrees_whatever_unknown_says(unknown):
    # solve turns the invalid tour into "unknown" with stats["invalid_tour"]; that is a fault, not a shrug
    careless = _example().careless_walk
    for board in (ktsolve.Board(5, 5), ktsolve.Board(6, 7, holes="a1,b3,c5")):
        res = ktsolve.solve(board, method=careless, seed=4)
        assert res.status.value == "unknown" and "invalid_tour" in res.stats
        with pytest.raises(AssertionError,
                           match="returned an invalid tour, not a valid open tour .*: .*is never visited"):
            assert_agrees(board, res, unknown=unknown)


def test_an_honest_unknown_is_still_allowed():
    def giving_up(graph, spec, *, seed=None, time_limit=None, progress=None):
        return None

    res = ktsolve.solve("6x7", method=giving_up, seed=1)
    assert_agrees("6x7", res, unknown="allow")


# ---------------------------------------------------------------------- item 5: strategies and the contract
from hypothesis import given, settings  # noqa: E402

from ktsolve.errors import InvalidParameterError  # noqa: E402
from ktsolve.testing import strategies  # noqa: E402


@settings(max_examples=25, deadline=None)
@given(strategies.questions(strategies.boards(3, 5), ends="start"))
def test_questions_can_fix_the_start_alone(q):
    assert q.start is not None and q.end is None


@settings(max_examples=10, deadline=None)
@given(strategies.questions("5x5", ends="both", closed=False))
def test_questions_about_one_board(q):
    assert q.board == ktsolve.Board(5, 5) and q.start is not None and q.end is not None


@pytest.mark.parametrize("call", [lambda: strategies.questions(5), lambda: strategies.squares(8),
                                  lambda: strategies.squares(strategies.boards()),
                                  lambda: strategies.questions(ends="middle")])
def test_strategies_refuse_what_is_no_board_by_name(call):
    with pytest.raises(InvalidParameterError):
        call()


@settings(max_examples=10, deadline=None)
@given(strategies.squares("8x8"))
def test_squares_takes_a_size(square):
    assert 0 <= square[0] < 8 and 0 <= square[1] < 8


def test_dir_shows_the_strategies():
    import ktsolve.testing as t

    assert {"boards", "questions", "squares", "ring_boards", "Question"} <= set(dir(t))


def test_a_user_method_may_return_row_col_pairs():
    def pairs(graph, spec, *, seed=None, time_limit=None, progress=None):
        return [(0, 0), (1, 2), (2, 0), (0, 1), (1, 3), (2, 1), (0, 2), (2, 3), (1, 1), (0, 3), (2, 2), (1, 0)]

    res = ktsolve.solve("3x4", method=pairs, seed=1)
    assert res.found and res.tour.names()[:2] == ["a3", "c2"]

    def off_board(graph, spec, *, seed=None, time_limit=None, progress=None):
        return np.array([(0, 0), (9, 9)])

    res = ktsolve.solve("3x4", method=off_board, seed=1)
    assert res.status.value == "unknown" and "outside" in res.stats["invalid_tour"]


def test_a_user_method_that_sleeps_past_its_limit_is_reported():
    def sleepy(graph, spec, *, seed=None, time_limit=None, progress=None):
        time.sleep(1.2)
        return None

    res = ktsolve.solve("6x6", method=sleepy, seed=1, time_limit=0.3)
    assert res.stats.get("overrun_s", 0) > 0.5
    assert "past its time limit" in res.stats["reason"]
    quick = ktsolve.solve("6x6", method=lambda g, s, *, seed=None, time_limit=None, progress=None: None,
                          seed=1, time_limit=5)
    assert "overrun_s" not in quick.stats
