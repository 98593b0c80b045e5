"""Every long phase of splice (and of the restoration under it) looks at its deadline, and cutting the work
into chunks changes nothing (issue 28, item 2)."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from ktsolve import KnightGraph, Status, TourSpec
from ktsolve.driver import Deadline, Stopped
from ktsolve.factor import chunks
from ktsolve.generate import random_holed_board
from ktsolve.heuristics.splice import solve_splice
from splice_helpers import build_links, merge_pieces, restore_factor


class CountingDeadline(Deadline):
    """A clock without a limit that counts its checks per phase, and stops at the ``at``-th check of ``phase``
    (``interrupted``: as Ctrl-C would)."""

    def __init__(self, phase: str | None = None, at: int = 1, interrupted: bool = False):
        super().__init__(None)
        self.phase, self.at, self.why = phase, at, "interrupted" if interrupted else "time limit"
        self.counts: dict[str, int] = {}

    def check(self, phase: str = "") -> None:
        self.counts[phase] = self.counts.get(phase, 0) + 1
        if phase == self.phase and self.counts[phase] >= self.at:
            raise Stopped(self.why, phase)


@pytest.fixture
def one_item(monkeypatch):
    """Every chunked kernel call takes one item (one cell, one search, one step of a walk)."""
    monkeypatch.setattr(chunks, "MOST", 1)


@pytest.fixture
def one_chunk(monkeypatch):
    """Every chunked kernel call takes all its items at once."""
    monkeypatch.setattr(chunks, "FIRST", 1 << 40)
    monkeypatch.setattr(chunks, "MOST", 1 << 40)


def _restored(board):
    links, alive = build_links(board)
    short, stats = restore_factor(links, alive, board.rows, board.cols, free_ends=0)
    return links, short, stats


# 600 rows: the restoration works in its eight bands of rows (on two threads) and on the whole board
BANDED = random_holed_board(600, 90, 0.05, closed=True, seed=4)


def test_the_restoration_gives_the_same_links_in_one_chunk_and_in_chunks_of_one_item(monkeypatch):
    monkeypatch.setattr(chunks, "FIRST", 1 << 40)
    monkeypatch.setattr(chunks, "MOST", 1 << 40)
    whole = _restored(BANDED)
    monkeypatch.setattr(chunks, "FIRST", 1)
    monkeypatch.setattr(chunks, "MOST", 1)
    cut = _restored(BANDED)
    assert whole[1] == cut[1] == 0
    assert whole[2] == cut[2] and whole[2]["walks"] > 0
    assert np.array_equal(whole[0], cut[0])


def test_the_labels_and_exchanges_are_the_same_in_one_chunk_and_in_chunks_of_one_cell(monkeypatch):
    links, _, _ = _restored(BANDED)
    states = []
    for size in (1 << 40, 1):
        monkeypatch.setattr(chunks, "FIRST", size)
        monkeypatch.setattr(chunks, "MOST", size)
        mine = links.copy()
        state = merge_pieces(mine, np.ascontiguousarray(BANDED.mask).reshape(-1).view(np.uint8), 600, 90)
        states.append((mine, state))
    (a, sa), (b, sb) = states
    assert np.array_equal(a, b) and np.array_equal(sa.labels, sb.labels) and np.array_equal(sa.parent, sb.parent)
    assert sa.stats == sb.stats and sa.stats["cycles"] > 1


def _tour_hash(res):
    return hashlib.sha1(np.ascontiguousarray(res.tour.squares, dtype=np.int32).tobytes()).hexdigest()


@pytest.mark.parametrize("closed", [True, False])
def test_a_tour_is_the_same_in_one_chunk_and_in_small_chunks(monkeypatch, closed):
    board = random_holed_board(120, 130, 0.05, closed=closed, seed=3)
    got = []
    for size in (1 << 40, 3):
        monkeypatch.setattr(chunks, "FIRST", size)
        monkeypatch.setattr(chunks, "MOST", size)
        res = solve_splice(KnightGraph(board), TourSpec(closed=closed))
        assert res.status is Status.FOUND
        got.append((_tour_hash(res), {k: v for k, v in res.stats.items() if k != "seconds"}))
    assert got[0] == got[1]


#: The phases of splice that check the deadline, each with the repair that must run alone to reach it.
PHASES = [("linking the full board's tour", None), ("cutting out the holes", None),
          ("restoring two moves at every square", None), ("labelling the cycles", None),
          ("merging the cycles", None), ("walking the tour", None),
          ("rerouting the pieces left", "rerouting"), ("joining the pieces left by rotations", "rotating"),
          ("re-making wide boxes around the pieces left", "wide ruin"),
          ("kicking the pieces left", "kicking"), ("re-making the pieces left", "ruin and recreate"),
          ("re-solving windows around the pieces left", "windows"),
          ("re-solving free windows around the pieces left", "free windows")]


@pytest.mark.parametrize("phase,alone", PHASES)
@pytest.mark.parametrize("interrupted", [False, True])
def test_every_phase_stops_at_its_deadline(one_item, monkeypatch, phase, alone, interrupted):
    from ktsolve.heuristics.splice import repairs

    if alone is not None:
        monkeypatch.setattr(repairs, "REPAIRS", tuple(st for st in repairs.REPAIRS if st.name == alone))
    # the exchanges leave pieces on the first board (tests/heuristics/test_splice_kernels.py, LEFT_PIECES),
    # which the repairs do not all join: the walk is reached on the second
    board = (random_holed_board(120, 130, 0.05, closed=True, seed=3) if phase == "walking the tour"
             else random_holed_board(80, 80, 0.15, closed=True, seed=11))
    clock = CountingDeadline(phase, at=1 if alone else 3, interrupted=interrupted)
    res = solve_splice(KnightGraph(board), TourSpec(closed=True), time_limit=clock)
    assert clock.counts.get(phase, 0) >= 1, clock.counts
    assert res.status is Status.UNKNOWN and res.tour is None
    assert f"while {phase}" in res.stats["reason"]
    assert res.stats["interrupted"] is interrupted


def test_an_attempt_stopped_among_the_repairs_says_what_it_left():
    """The reason names the phase, the pieces left and each finished phase's seconds (issue 28: an unknown
    says why)."""
    board = random_holed_board(80, 80, 0.15, closed=True, seed=11)
    clock = CountingDeadline("rerouting the pieces left", at=1)
    res = solve_splice(KnightGraph(board), TourSpec(closed=True), time_limit=clock)
    assert res.status is Status.UNKNOWN and res.stats["pieces"] > 1
    reason = res.stats["reason"]
    assert f"with {res.stats['pieces']} pieces left" in reason
    assert "restore" in reason and "merge" in reason and set(res.stats["seconds"]) >= {"restore", "merge"}
    assert "first_attempt" not in res.stats  # a stopped attempt is not followed by a second one


def test_long_phases_look_at_the_deadline_between_small_parts(one_item):
    # with one item a call, every phase asks the clock about once an item: a scan of the cells once a cell
    board = random_holed_board(60, 70, 0.05, closed=True, seed=3)
    clock = CountingDeadline()
    res = solve_splice(KnightGraph(board), TourSpec(closed=True), time_limit=clock)
    assert res.status is Status.FOUND
    cells = 60 * 70
    for phase in ("linking the full board's tour", "cutting out the holes", "walking the tour"):
        assert clock.counts[phase] >= cells, phase
    assert clock.counts["labelling the cycles"] >= 2 * cells
    assert clock.counts["restoring two moves at every square"] >= res.stats["short_at_start"] // 2


def test_loading_kernels_stops_at_ctrl_c():
    # the warm-ups look between their kernels' first calls (each a load from numba's cache)
    from ktsolve.driver import interrupt_guard
    from ktsolve.factor.chunks import loading

    loading("splice")
    with interrupt_guard() as flag:
        flag.set = True
        with pytest.raises(Stopped, match="interrupted .* while loading the splice kernels"):
            loading("splice")
