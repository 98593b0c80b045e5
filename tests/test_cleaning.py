"""ktsolve.cleaning: the kernels against the readable references, and the invariants of a cleaned region."""

from __future__ import annotations

import numpy as np
import pytest

from ktsolve import Board, KnightGraph
from ktsolve.cleaning import Cleaning, clean, colour_counts
from ktsolve.errors import InvalidBoardError, InvalidParameterError
from ktsolve.proofs import components

import naive_cleaning as naive


def _random_masks(count, shape, share, seed):
    rng = np.random.default_rng(seed)
    return [rng.random(shape) >= share for _ in range(count)]


def assert_fit(squares: np.ndarray, balance: str | None) -> None:
    """Every square has two moves or more, one knight-connected part, colours balanced for ``balance``."""
    board = Board.from_mask(~squares)
    graph = KnightGraph(board)
    assert graph.degree.min() >= 2
    assert components(graph).max() == 0
    even, odd = board.colour_counts()
    if balance == "closed":
        assert even == odd
    elif balance == "open":
        assert abs(even - odd) <= 1


@pytest.mark.parametrize("shape,share,seed", [((9, 11), 0.3, 1), ((14, 13), 0.45, 2), ((20, 17), 0.55, 3),
                                              ((6, 30), 0.35, 4)])
def test_largest_part_and_prune_against_networkx(shape, share, seed):
    for mask in _random_masks(6, shape, share, seed):
        if not mask.any():
            continue
        sq = naive.squares_of(mask)
        want_largest, parts = naive.largest_part(sq)
        got = clean(mask, prune=False, balance=None)
        assert naive.squares_of(got.squares) == want_largest
        assert got.cleaning.parts == parts
        assert got.cleaning.outside_largest == len(sq) - len(want_largest)
        want = naive.prune(want_largest)
        if not want:
            with pytest.raises(InvalidBoardError, match="no squares are left after pruning"):
                clean(mask, balance=None)
            continue
        got = clean(mask, balance=None)
        assert naive.squares_of(got.squares) == want
        assert got.cleaning.pruned == len(want_largest) - len(want)
        # pruning alone, every part kept
        alone = clean(mask, largest=False, balance=None)
        assert naive.squares_of(alone.squares) == naive.prune(sq)
        assert alone.cleaning.parts is None


@pytest.mark.parametrize("balance", ["closed", "open"])
@pytest.mark.parametrize("shape,share,seed", [((12, 12), 0.2, 5), ((15, 19), 0.3, 6), ((25, 22), 0.25, 7),
                                              ((30, 9), 0.15, 8), ((18, 18), 0.0, 9)])
def test_balance_against_the_reference_and_fit(shape, share, seed, balance):
    checked = 0
    for mask in _random_masks(4, shape, share, seed):
        if share == 0.0:  # a full rectangle with a block cut out of one corner: a surplus of one colour
            mask[:3, :4] = False
        want = naive.clean(mask, balance_=balance)
        try:
            got = clean(mask, balance=balance)
        except InvalidBoardError:
            assert not want.any() or colour_counts(want)[0] != colour_counts(want)[1]
            continue
        assert np.array_equal(got.squares, want)
        assert_fit(got.squares, balance)
        c = got.cleaning
        assert c.squares_out == int(got.squares.sum()) == c.squares_in - c.outside_largest - c.pruned - c.balanced
        assert c.colours == colour_counts(got.squares)
        checked += 1
    assert checked


def test_balance_spreads_over_the_edge_and_prefers_it():
    sq = np.ones((60, 60), dtype=bool)
    sq[20:40, 20:40] = False  # a hole in the middle: 200 cells of each colour
    sq[0:10, 0:9] = False     # a corner: 45 of each colour
    sq[0, 59] = False         # parity 1
    sq[59, 59] = False        # parity 0
    sq[59, 0:24:2] = False    # 12 of parity 1: parity 0 has 12 squares more
    even, odd = colour_counts(sq)
    got = clean(sq, balance="closed")
    removed = sq & ~got.squares
    assert got.cleaning.balanced == removed.sum() == abs(even - odd)
    rows, cols = np.nonzero(removed)
    board = Board.from_mask(~sq)
    deg = KnightGraph(board).degree
    index = board.indices_of(np.stack([rows, cols], axis=1))
    assert (deg[index] < 8).all()  # at the edge
    assert rows.max() - rows.min() > 20 or cols.max() - cols.min() > 20  # not heaped in one place
    assert_fit(got.squares, "closed")


def test_keep_is_left_alone():
    sq = np.ones((16, 16), dtype=bool)
    sq[0, 1::2] = False  # 8 squares of parity 1: a surplus of 8 of parity 0
    keep = np.zeros_like(sq)
    keep[8:, :] = True
    got = clean(sq, balance="closed", keep=keep)
    assert got.squares[8:, :].all()
    assert np.array_equal(got.squares, naive.clean(sq, balance_="closed", keep=keep))


def test_a_balance_that_cannot_be_done_is_refused():
    # a 5 x 6 region (found by a search) whose every square of the larger colour is needed for two moves
    sq = np.ones((5, 6), dtype=bool)
    for rc in [(0, 2), (0, 3), (1, 5), (2, 1), (2, 3), (3, 2), (3, 3)]:
        sq[rc] = False
    with pytest.raises(InvalidBoardError, match="cannot balance the colours for a closed tour: 1 more square "):
        clean(sq, balance="closed")
    # the reference gets as far and no further
    got = naive.clean(sq, balance_="closed")
    even, odd = colour_counts(got)
    assert abs(even - odd) == 1


def test_the_input_is_not_changed_and_the_output_is_read_only():
    sq = np.ones((8, 9), dtype=bool)
    sq[0, 0] = False
    before = sq.copy()
    got = clean(sq, balance="closed")
    assert np.array_equal(sq, before)
    assert not got.squares.flags.writeable
    assert got.board == Board.from_mask(got.holes)


@pytest.mark.parametrize("squares,kw,error,match", [
    (np.ones(5, dtype=bool), {}, InvalidBoardError, "2-D"),
    (np.zeros((3, 3), dtype=bool), {}, InvalidBoardError, "no squares"),
    (np.full((3, 3), 2), {}, InvalidBoardError, "0 and 1"),
    (np.ones((3, 3), dtype=float), {}, InvalidBoardError, "float64"),
    (np.ones((5, 5), dtype=bool), {"balance": "both"}, InvalidParameterError, "balance"),
    (np.ones((5, 5), dtype=bool), {"prune": 1}, InvalidParameterError, "prune"),
])
def test_bad_regions_are_refused(squares, kw, error, match):
    with pytest.raises(error, match=match):
        clean(squares, **kw)


def test_the_record_says_each_step_in_a_line():
    sq = np.ones((10, 10), dtype=bool)
    sq[0, 0] = False
    sq[5, 6] = False
    got = clean(sq, balance="closed")
    assert got.cleaning == Cleaning(98, 1, 0, 0, "closed", 0, 98, (49, 49))
    assert got.lines()[-1] == "board 10x10, 2 holes, 49+49 squares of the two colours"
    assert got.cleaning.as_dict()["colours"] == [49, 49]
    sq[5, 5] = False  # parity 0 again: one square of parity 1 goes
    lines = clean(sq, balance="closed").lines()
    assert lines == ["kept the largest of 1 knight-connected part: removed 0 squares",
                     "pruned 0 squares with fewer than two moves",
                     "balanced the colours for a closed tour: removed 1 square of the larger colour",
                     "board 10x10, 4 holes, 48+48 squares of the two colours"]


def _oracle_cases():
    import json

    from conftest import SHARED_ORACLES, ORACLES

    path = SHARED_ORACLES / "holed.json" if (SHARED_ORACLES / "holed.json").exists() else ORACLES / "holed.json"
    return json.loads(path.read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("case", [c for c in _oracle_cases() if c["exists"]],
                         ids=lambda c: f"{c['board']}-{c['kind']}-{len(c['holes'])}")
def test_the_oracles_boards_with_a_tour_are_left_as_they_are(case):
    """A board with a tour is connected, its colours balanced, and (closed) every square has two moves:
    cleaning it for its question removes nothing."""
    rows, cols = case["board"]
    squares = np.ones((rows, cols), dtype=bool)
    for r, c in case["holes"]:
        squares[r, c] = False
    closed = case["kind"] == "closed"
    got = clean(squares, prune=closed, balance=case["kind"])
    assert np.array_equal(got.squares, squares)
    assert got.cleaning.removed == 0


def test_after_warm_cleaning_compiles_nothing():
    from ktsolve import _cleaning_kernels as K
    from ktsolve.cleaning import warm

    warm()
    kernels = [K.degrees, K.largest_part, K.prune, K.balance]
    before = [len(k.signatures) for k in kernels]
    sq = np.ones((30, 31), dtype=bool)
    sq[0, :7] = False
    clean(sq, balance="closed", keep=np.zeros_like(sq))
    clean(sq.astype(np.int64), largest=False, balance="open")
    assert [len(k.signatures) for k in kernels] == before
