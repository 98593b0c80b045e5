"""ktsolve.testing: the assertions a researcher calls in a test suite, and the cached oracle."""

from __future__ import annotations

import sqlite3
import warnings

import numpy as np
import pytest

from ktsolve import Board, InvalidSquareError, InvalidTourError, SolveResult, Status, Tour, solve, validate
from ktsolve.errors import InvalidParameterError
from ktsolve.testing import (
    UnsettledWarning,
    assert_agrees,
    assert_tour,
    cache_info,
    clear_cache,
    exact_answer,
    use_disk_cache,
)
from ktsolve.testing import oracle

# A valid open tour of the 3x4 board (rows from the top), in three spellings.
B34 = Board(3, 4)
COORDS = [(0, 0), (1, 2), (2, 0), (0, 1), (1, 3), (2, 1), (0, 2), (2, 3), (1, 1), (0, 3), (2, 2), (1, 0)]
NAMES = ["a3", "c2", "a1", "b3", "d2", "b1", "c3", "d1", "b2", "d3", "c1", "a2"]
SQUARES = [int(B34.index(r, c)) for r, c in COORDS]
# The closed tour of the 3x3 ring (the centre is a hole).
RING = Board(3, 3, holes=[(1, 1)])
RING_TOUR = ["a3", "c2", "a1", "b3", "c1", "a2", "c3", "b1"]
# A board whose open tour prove finds by exhaustive search, not by Warnsdorff's rule.
HARD = Board(5, 6, holes=[(2, 1)])


@pytest.fixture(autouse=True)
def fresh_oracle():
    clear_cache()
    use_disk_cache(None)
    yield
    clear_cache()
    use_disk_cache(None)


# ---------------------------------------------------------------------- assert_tour
@pytest.mark.parametrize(
    "tour",
    [
        COORDS,
        [list(rc) for rc in COORDS],
        NAMES,
        " ".join(NAMES),
        ",".join(NAMES),
        ";".join(f"{r},{c}" for r, c in COORDS),
        np.array(COORDS),
        np.array(NAMES),
        np.array(SQUARES, dtype=np.int64),
        SQUARES,
        Tour(B34, SQUARES),
        SolveResult(Status.FOUND, tour=Tour(B34, SQUARES)),
    ],
    ids=["pairs", "lists", "names", "name-string", "comma-names", "rc-string", "coords-array", "names-array",
         "square-array",
         "square-list", "Tour", "SolveResult"],
)
def test_assert_tour_takes_every_form(tour):
    t = assert_tour(B34, tour)
    assert isinstance(t, Tour) and t.squares.tolist() == SQUARES
    assert_tour("3x4", tour, start="a3", end="a2")


def _validator_message(board, tour, **kw) -> str:
    with pytest.raises(InvalidTourError) as exc:
        validate(board, tour, **kw)
    return str(exc.value)


@pytest.mark.parametrize(
    "coords, kw",
    [
        (COORDS[:8] + [COORDS[9], COORDS[8]] + COORDS[10:], {}),  # illegal move at step 9
        (COORDS[:-1], {}),                                       # a square never visited
        (COORDS[:5] + [COORDS[3]] + COORDS[6:], {}),              # a square visited twice
        (COORDS, {"closed": True}),                              # does not close
        (COORDS, {"start": "a1"}),                               # wrong start
        (COORDS, {"end": "a3"}),                                 # wrong end
    ],
    ids=["illegal-move", "missing", "repeat", "not-closed", "start", "end"],
)
def test_assert_tour_fails_with_the_validators_message(coords, kw):
    expected = _validator_message(B34, np.array(coords), **kw)
    for form in (coords, B34.names(coords), np.array([B34.index(r, c) for r, c in coords])):
        with pytest.raises(AssertionError) as exc:
            assert_tour(B34, form, **kw)
        assert str(exc.value).endswith(expected), (str(exc.value), expected)
    what = "closed tour" if kw.get("closed") else "open tour"
    assert str(exc.value).startswith(f"not a valid {what}")


def test_assert_tour_names_a_hole_or_a_square_off_the_board():
    with pytest.raises(AssertionError, match=r"step 1: square b2 is a hole"):
        assert_tour(RING, ["b2", "a3"])
    with pytest.raises(AssertionError, match=r"outside the 3x3 board"):
        assert_tour(RING, [(0, 0), (5, 5)])
    with pytest.raises(AssertionError, match=r"step 2 .*z9"):
        assert_tour(RING, ["a3", "z9"])


def test_assert_tour_refuses_what_is_not_a_tour():
    for bad in ([0.5, 1.5], [[0, 1], [2]], 17, [], np.zeros((2, 3), dtype=int)):
        with pytest.raises(AssertionError, match="not a valid open tour"):
            assert_tour(B34, bad)
    with pytest.raises(AssertionError, match=r"the result has no tour \(status unknown: budget\)"):
        assert_tour(B34, SolveResult(Status.UNKNOWN, stats={"reason": "budget"}))


def test_assert_tour_closed_and_a_bad_question_is_the_tests_fault():
    t = assert_tour(RING, RING_TOUR, closed=True, start="a3")
    assert t.closed
    with pytest.raises(InvalidSquareError):
        assert_tour(RING, RING_TOUR, start="b2")  # the start is a hole: the question is wrong
    with pytest.raises(InvalidParameterError):
        assert_tour(RING, RING_TOUR, closed="yes")


# ---------------------------------------------------------------------- assert_agrees
def test_a_valid_tour_needs_no_proof():
    assert_agrees(B34, NAMES)
    assert_agrees(RING, solve(RING, "backtrack", closed=True), closed=True)
    assert cache_info()["misses"] == 0


def test_an_invalid_claimed_tour_fails_with_the_validators_message():
    bad = COORDS[:8] + [COORDS[9], COORDS[8]] + COORDS[10:]
    expected = _validator_message(B34, np.array(bad))
    with pytest.raises(AssertionError) as exc:
        assert_agrees(B34, bad)
    assert str(exc.value).endswith(expected)
    res = SolveResult(Status.FOUND, tour=Tour(B34, [B34.index(r, c) for r, c in bad]))
    with pytest.raises(AssertionError, match="illegal move at step 9"):
        assert_agrees(B34, res)


def test_no_tour_claims_against_prove():
    assert_agrees(Board(4, 4), None)
    assert_agrees(Board(4, 4), None, closed=True)
    assert_agrees(Board(5, 5), SolveResult(Status.INFEASIBLE), closed=True)
    with pytest.raises(AssertionError) as exc:
        assert_agrees(Board(5, 5), None, start="a1")
    msg = str(exc.value)
    assert "the claim says no open tour from a1 exists on the 5x5 board" in msg
    assert 'ktsolve.prove("5x5", start="a1", seed=0)' in msg
    # the tour shown is the oracle's, which is valid
    shown = msg.split("): ")[1].split(" ...")[0].split()
    validate(Board(5, 5), Tour.from_names(Board(5, 5), shown), start="a1", complete=False)
    with pytest.raises(AssertionError, match="claim says no closed tour exists on the 6x6 board"):
        assert_agrees(Board(6, 6), SolveResult(Status.INFEASIBLE), closed=True)


def test_unknown_claims_fail_on_easy_boards_only_by_default():
    unknown = SolveResult(Status.UNKNOWN)
    assert exact_answer(Board(6, 6)).easy
    with pytest.raises(AssertionError, match="unknown whether an open tour exists on the 6x6 board, but ktsolve.prove"):
        assert_agrees(Board(6, 6), unknown)
    assert_agrees(Board(6, 6), unknown, unknown="allow")
    hard = exact_answer(HARD)
    assert hard.status is Status.FOUND and hard.settled_by == "backtrack" and not hard.easy
    assert_agrees(HARD, unknown)
    with pytest.raises(AssertionError, match="settled by backtrack"):
        assert_agrees(HARD, unknown, unknown="any")
    # unknown where no tour exists is honest
    assert_agrees(Board(4, 4), unknown, unknown="any")
    with pytest.raises(InvalidParameterError, match="unknown must be one of easy, any, allow"):
        assert_agrees(HARD, unknown, unknown="sometimes")


def test_a_result_about_another_question_fails():
    res = solve(Board(5, 5), "warnsdorff", seed=1)
    with pytest.raises(AssertionError, match="question about the 5x5 board, not about the 6x6 board"):
        assert_agrees(Board(6, 6), res)
    with pytest.raises(AssertionError, match="answers the question 'open tour', not 'open tour from a1'"):
        assert_agrees(Board(5, 5), res, start="a1")


def test_a_claim_prove_cannot_settle_warns_and_passes():
    with pytest.warns(UnsettledWarning, match="could not settle"):
        assert_agrees(Board(6, 6), None, time_limit=1e-9)
    # the unknown answer is not reused for a longer time limit
    with pytest.raises(AssertionError):
        assert_agrees(Board(6, 6), None, time_limit=10)


def test_a_found_claim_never_asks_the_oracle():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert_agrees(B34, SQUARES, time_limit=1e-9)


# ---------------------------------------------------------------------- the cache
def test_answers_are_cached_per_board_and_question():
    a = exact_answer(HARD)
    assert not a.cached and cache_info()["misses"] == 1
    b = exact_answer(Board(5, 6, holes=[(2, 1)]))
    assert b.cached and b.status is a.status and b.tour == a.tour and cache_info()["hits"] == 1
    exact_answer(HARD, closed=True)
    exact_answer(HARD, start="a1")
    assert cache_info()["misses"] == 3 and cache_info()["size"] == 3
    # the same question in another spelling is the same key
    assert exact_answer(HARD, start=(4, 0)).cached
    clear_cache()
    assert cache_info() == {"hits": 0, "misses": 0, "disk_hits": 0, "size": 0, "path": None}


def test_thousand_claims_about_few_boards_prove_each_board_once():
    # 4x4 and 3x4-closed have no tour (the claim is right), HARD has one (an unknown there is fine)
    cases = [(Board(4, 4), {}, None), (B34, {"closed": True}, None), (HARD, {}, SolveResult(Status.UNKNOWN))]
    for k in range(999):
        board, kw, claim = cases[k % 3]
        assert_agrees(board, claim, **kw)
    info = cache_info()
    assert info["misses"] == 3 and info["hits"] == 996


def test_memory_cache_is_bounded(monkeypatch):
    monkeypatch.setattr(oracle, "MEMORY_SIZE", 2)
    for b in (Board(3, 3), Board(3, 4), Board(4, 4)):
        exact_answer(b)
    assert cache_info()["size"] == 2
    assert not exact_answer(Board(3, 3)).cached  # the oldest went first
    assert exact_answer(Board(4, 4)).cached


def test_unknown_answers_serve_only_shorter_time_limits():
    a = exact_answer(Board(6, 6), time_limit=1e-9)
    assert a.status is Status.UNKNOWN
    assert exact_answer(Board(6, 6), time_limit=1e-10).cached
    b = exact_answer(Board(6, 6), time_limit=5)
    assert not b.cached and b.status is Status.FOUND
    assert exact_answer(Board(6, 6), time_limit=1e-9).status is Status.FOUND  # a settled answer serves all


def test_disk_cache_keeps_settled_answers_between_runs(tmp_path):
    path = tmp_path / "answers.sqlite"
    use_disk_cache(path)
    first = [exact_answer(HARD), exact_answer(Board(4, 4), closed=True), exact_answer(Board(6, 6), time_limit=1e-9)]
    clear_cache()  # a new run: memory empty, the file stays
    again = exact_answer(HARD)
    assert again.cached and again.tour == first[0].tour and again.settled_by == "backtrack"
    proof = exact_answer(Board(4, 4), closed=True)
    assert proof.cached and str(proof.proof) == str(first[1].proof)
    assert proof.proof.argument == first[1].proof.argument and proof.proof.evidence == first[1].proof.evidence
    assert cache_info()["disk_hits"] == 2
    # unknown answers are not written
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM answers").fetchone()[0] == 2
    assert cache_info()["path"] == str(path)


def test_disk_cache_distrusts_damaged_tours_and_old_proofs(tmp_path):
    path = tmp_path / "answers.sqlite"
    use_disk_cache(path)
    exact_answer(HARD)
    exact_answer(Board(4, 4), closed=True)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE answers SET squares = ? WHERE status = 'found'",
                     (np.arange(HARD.n_squares, dtype=np.int32).tobytes(),))
        conn.execute("UPDATE answers SET version = '0.0.0-old' WHERE status = 'infeasible'")
    use_disk_cache(path)
    clear_cache()
    with pytest.warns(oracle.CacheWarning, match="does not check"):  # the damage is reported, once
        a = exact_answer(HARD)
        b = exact_answer(Board(4, 4), closed=True)
    assert not a.cached and not b.cached and cache_info()["disk_hits"] == 0
    validate(HARD, a.tour)


def test_disk_cache_from_the_environment(tmp_path, monkeypatch):
    path = tmp_path / "env.sqlite"
    monkeypatch.setenv("KTSOLVE_TESTING_CACHE", str(path))
    monkeypatch.setitem(oracle._disk, "env_read", False)
    monkeypatch.setitem(oracle._disk, "path", None)
    exact_answer(Board(4, 4))
    assert path.exists() and cache_info()["path"] == str(path)


def test_exact_answer_checks_its_arguments():
    with pytest.raises(InvalidParameterError):
        exact_answer(Board(4, 4), time_limit=-1)
    with pytest.raises(InvalidSquareError):
        exact_answer(RING, start="b2")
    assert exact_answer("4x4", closed=True).status is Status.INFEASIBLE
    # a closed tour "from a3 to a3" is the question "closed tour from a3"
    exact_answer(RING, closed=True, start="a3")
    assert exact_answer(RING, closed=True, start="a3", end="a3").cached


def test_strategies_are_reachable_from_the_package():
    import ktsolve.testing as kt
    from ktsolve.testing import strategies

    assert kt.boards is strategies.boards and kt.ring_boards is strategies.ring_boards
    with pytest.raises(AttributeError):
        kt.no_such_thing  # noqa: B018
