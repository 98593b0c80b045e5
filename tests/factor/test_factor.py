"""The 2-factor machinery against its slow references: networkx max flow, explicit counting, tours."""

from __future__ import annotations

from dataclasses import replace

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ktsolve.factor.core as core
from conftest import random_board
from naive_factor import deficiency, has_two_factor
from naive_tours import exhaustive_tour
from ktsolve import Board, TourSpec, solve
from ktsolve.driver import Deadline
from ktsolve.generate import random_holed_board
from ktsolve.factor import (END, check_links, check_two_factor_witness, cycle_count, cycles, links_from_tour,
                            two_factor)
from ktsolve.graph import KNIGHT_MOVES, KnightGraph


def _square(board, k):
    return tuple(int(v) for v in board.coords_of([k])[0])


def _questions(board, rng):
    """Closed and open questions, with fixed ends of the colours a tour's ends can have."""
    yield True, None, None
    yield False, None, None
    even, odd = board.colour_counts()
    picks = [_square(board, int(k)) for k in rng.choice(board.n_squares, size=min(2, board.n_squares),
                                                         replace=False)]
    s, e = picks[0], picks[-1]
    yield True, s, None
    if s != e:
        yield True, s, e

    def colour(rc):
        return (rc[0] + rc[1]) % 2

    for fixed in ((s, None), (None, e), (s, e)):
        ends = [x for x in fixed if x is not None]
        if len(set(ends)) < len(ends):
            continue
        if even != odd and any(colour(x) != (0 if even > odd else 1) for x in ends):
            continue
        if even == odd and len(ends) == 2 and colour(ends[0]) == colour(ends[1]):
            continue
        yield False, fixed[0], fixed[1]


def _agrees(board, closed, start, end):
    tf = two_factor(board, closed=closed, start=start, end=end)
    ref = has_two_factor(board, closed, start, end)
    assert (tf.status == "found") == ref, (board, closed, start, end)
    spec = TourSpec(closed=closed, start=start, end=end)
    if tf.status == "found":
        assert check_links(board, tf.links, closed=closed, start=start, end=end) is None
    else:
        w = tf.witness
        assert check_two_factor_witness(board, spec, w) is None
        assert deficiency(board, closed, start, end, w.colour, w.X, w.Y, w.x_extra, w.y_extra) > 0
        assert w.need - w.supply_y - w.supply_rest == deficiency(board, closed, start, end, w.colour, w.X, w.Y,
                                                                 w.x_extra, w.y_extra)
    return tf.status


@pytest.mark.parametrize("seed", range(8))
def test_the_completion_agrees_with_networkx_max_flow(seed):
    rng = np.random.default_rng(seed)
    seen = set()
    for _ in range(40):
        board = random_board(rng, 3, 8, 0.2)
        for closed, s, e in _questions(board, rng):
            seen.add(_agrees(board, closed, s, e))
    assert seen == {"found", "none"}


@pytest.mark.parametrize("seed", range(3))
def test_the_jitted_kernels_agree_too(seed, monkeypatch):
    monkeypatch.setattr(core, "PY_MAX", 0)
    rng = np.random.default_rng(100 + seed)
    seen = set()
    for _ in range(25):
        board = random_board(rng, 4, 9, 0.12)
        for closed, s, e in _questions(board, rng):
            seen.add(_agrees(board, closed, s, e))
    assert seen == {"found", "none"}


def test_boards_above_the_plain_python_limit_use_the_kernels(monkeypatch):
    monkeypatch.setattr(core, "PY_MAX", 400)
    rng = np.random.default_rng(7)
    for _ in range(4):
        board = random_board(rng, 21, 26, 0.08)
        assert board.size > core.PY_MAX
        for closed in (True, False):
            _agrees(board, closed, None, None)


@pytest.mark.parametrize("seed", range(3))
def test_the_restored_cold_start_gives_the_same_answers(seed, monkeypatch):
    # short alternating paths and walks first, then the complete search: the same answers as max flow,
    # on closed and open questions with fixed ends (banned moves and capacity-1 ends dropped by sanitize)
    monkeypatch.setattr(core, "PY_MAX", 0)
    monkeypatch.setattr(core, "RESTORE_MIN", 0)
    rng = np.random.default_rng(300 + seed)
    seen = set()
    for _ in range(25):
        board = random_board(rng, 5, 10, 0.15)
        for closed, s, e in _questions(board, rng):
            seen.add(_agrees(board, closed, s, e))
    assert seen == {"found", "none"}


def test_the_restoration_leaves_little_to_the_complete_search():
    from ktsolve.generate import random_holed_board

    board = random_holed_board(120, 120, 144, closed=True, seed=3)
    plain = two_factor(board, restore=False)
    restored = two_factor(board, restore=True)
    assert plain.status == restored.status == "found"
    assert check_links(board, restored.links) is None
    assert "restore_s" in restored.stats and "restore_s" not in plain.stats
    assert restored.stats["restore_short_at_start"] > 0
    assert restored.stats["short_at_start"] < plain.stats["short_at_start"] // 4


def test_the_restored_start_still_finds_the_witness():
    # a cornered square (one move) inside a large board: no 2-factor, and the witness says why
    board = Board(40, 40, holes=[(1, 2), (20, 20)])
    tf = two_factor(board, restore=True)
    assert tf.status == "none" and "restore_s" in tf.stats and tf.stats["failed_searches"] > 0
    assert check_two_factor_witness(board, TourSpec(closed=True), tf.witness) is None


def test_a_tour_gives_a_2_factor_of_the_network():
    """The reduction: the moves of every tour exhaustive search finds, its open ends joined through the
    extra vertices, are a complete 2-factor of the question's network (so "none" proves no tour)."""
    rng = np.random.default_rng(3)
    tours = 0
    for _ in range(120):
        board = random_board(rng, 3, 5, 0.25)
        if board.n_squares > 14:
            continue
        graph = KnightGraph(board)
        for closed, s, e in _questions(board, rng):
            spec = TourSpec(closed=closed, start=s, end=e)
            tour = exhaustive_tour(graph, spec)
            if tour is None:
                continue
            tours += 1
            links = links_from_tour(board, tour, closed=closed)
            assert check_links(board, links, closed=closed, start=s, end=e) is None, (board, spec, tour)
            assert cycle_count(links) == 1
            assert two_factor(board, closed=closed, start=s, end=e).status == "found"
    assert tours > 30


def _tampered(board, w, rng):
    """The witness with one square moved, added or removed, in X or in Y."""
    cols = board.cols
    for which in ("X", "Y"):
        own = getattr(w, which)
        colour = w.colour if which == "X" else 1 - w.colour
        flat = board.flat_of(np.arange(board.n_squares))
        pool = np.flatnonzero(((flat // cols + flat % cols) & 1) == colour)
        outside = np.setdiff1d(pool, own).astype(np.int32)
        if own.size:
            k = int(rng.integers(own.size))
            yield replace(w, **{which: np.delete(own, k)})
            if outside.size:
                moved = own.copy()
                moved[k] = outside[int(rng.integers(outside.size))]
                yield replace(w, **{which: np.sort(moved)})
        if outside.size:
            yield replace(w, **{which: np.sort(np.append(own, outside[int(rng.integers(outside.size))]))})


def test_the_checker_follows_the_count_and_refuses_forgeries():
    rng = np.random.default_rng(5)
    refused = accepted = 0
    for _ in range(150):
        board = random_board(rng, 4, 7, 0.2)
        for closed, s, e in _questions(board, rng):
            tf = two_factor(board, closed=closed, start=s, end=e)
            if tf.status != "none":
                continue
            spec = TourSpec(closed=closed, start=s, end=e)
            for t in _tampered(board, tf.witness, rng):
                verdict = check_two_factor_witness(board, spec, t)
                truth = deficiency(board, closed, s, e, t.colour, t.X, t.Y, t.x_extra, t.y_extra)
                assert (verdict is None) == (truth > 0), (board, spec, t, verdict)
                refused += verdict is not None
                accepted += verdict is None
            w = tf.witness
            # structural forgeries are always refused
            assert check_two_factor_witness(board, spec, replace(w, colour=1 - w.colour)) is not None or \
                (w.X.size == 0 and w.Y.size == 0)
            if w.X.size:
                assert check_two_factor_witness(board, spec, replace(w, X=np.append(w.X, w.X[0]))) is not None
                assert check_two_factor_witness(board, spec, replace(w, X=np.append(w.X, board.n_squares))) \
                    is not None
    assert refused > 50 and accepted > 10


def test_the_checker_refuses_an_extra_vertex_the_question_lacks():
    board = Board(5, 4, holes=[(1, 3), (3, 0)])
    w = two_factor(board).witness
    assert check_two_factor_witness(board, TourSpec(closed=True), w) is None
    assert "extra vertex" in check_two_factor_witness(board, TourSpec(closed=True), replace(w, x_extra=True))
    assert "colour" in check_two_factor_witness(board, TourSpec(closed=True), replace(w, X=w.Y))


@pytest.mark.parametrize("closed", [True, False])
def test_a_warm_start_from_a_full_board_tour_with_holes_deleted(closed, monkeypatch):
    monkeypatch.setattr(core, "PY_MAX", 0)
    full = Board(30, 30)
    res = solve(full, method="divide", closed=closed)
    assert res.found
    rng = np.random.default_rng(1)
    for trial in range(4):
        # a few holes of each colour, so the colours stay balanced
        cells = rng.choice(900, size=40, replace=False)
        even = [c for c in cells if (c // 30 + c % 30) % 2 == 0][:6]
        odd = [c for c in cells if (c // 30 + c % 30) % 2 == 1][:6]
        board = Board(30, 30, holes=[divmod(int(c), 30) for c in even + odd])
        init = links_from_tour(board, res.tour.squares, closed=closed, source=full)
        before = init.copy()
        tf = two_factor(board, closed=closed, init=init)
        assert np.array_equal(init, before)  # not modified
        assert tf.status == "found" and tf.dropped == 0
        assert check_links(board, tf.links, closed=closed) is None
        assert tf.searches <= 40  # a few local repairs, not a fresh start
        cold = two_factor(board, closed=closed)
        assert cold.status == "found"


def test_a_bad_warm_start_is_cleaned_not_trusted():
    board = Board(8, 8, holes=[(0, 0), (7, 0)])
    rng = np.random.default_rng(0)
    init = rng.integers(-3, 12, size=(8, 8, 2)).astype(np.int8)
    tf = two_factor(board, init=init)
    assert tf.status == "found" and tf.dropped > 0
    assert check_links(board, tf.links) is None
    with pytest.raises(ValueError):
        two_factor(board, init=np.zeros((8, 8)))


def test_cycles_are_the_components_of_the_links():
    rng = np.random.default_rng(2)
    for _ in range(30):
        board = random_board(rng, 5, 9, 0.1)
        for closed in (True, False):
            tf = two_factor(board, closed=closed)
            if tf.status != "found":
                continue
            g = nx.Graph()
            for r, c in zip(*np.nonzero(board.mask)):
                g.add_node((r, c))
                for code in tf.links[r, c]:
                    if 0 <= code < 8:
                        dr, dc = KNIGHT_MOVES[code]
                        g.add_edge((r, c), (r + dr, c + dc))
            labels, count = cycles(tf.links)
            comps = list(nx.connected_components(g))
            assert count == len(comps)
            for comp in comps:
                assert len({int(labels[v]) for v in comp}) == 1
            assert (labels[~board.mask] == -1).all()
            from ktsolve.factor import _kernels as K

            jl, jc = K.label_cycles(np.ascontiguousarray(tf.links).reshape(-1), board.rows, board.cols)
            assert jc == count and np.array_equal(jl.reshape(labels.shape), labels)


def test_an_open_tour_of_one_square_and_small_boards():
    tf = two_factor(Board(1, 1), closed=False)
    assert tf.status == "found" and (tf.links == END).all()
    assert two_factor(Board(1, 1), closed=True).status == "none"
    assert two_factor(Board(1, 2), closed=False).status == "none"


def test_an_expired_deadline_is_unknown():
    tf = two_factor(Board(40, 40), deadline=Deadline(1e-9, t0=0.0))
    assert tf.status == "unknown" and tf.links is None and "time limit" in tf.stats["reason"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.integers(3, 7), cols=st.integers(3, 7), data=st.data())
def test_property_random_boards(rows, cols, data):
    holes = data.draw(st.sets(st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1)),
                              max_size=rows * cols // 4))
    if len(holes) >= rows * cols:
        return
    board = Board(rows, cols, sorted(holes))
    closed = data.draw(st.booleans())
    _agrees(board, closed, None, None)


def test_the_cold_start_tile_is_a_2_factor_of_the_4x4_board():
    from ktsolve.factor import _kernels as K

    tile = np.array(K._TILE, dtype=np.int8).reshape(4, 4, 2)
    assert check_links(Board(4, 4), tile) is None
    # laid on a holed board, every link it lays is mutual and the completion needs only local repairs
    board = Board(8, 12, holes=[(1, 1), (2, 6)])
    links = np.full(8 * 12 * 2, -1, dtype=np.int8)
    net = core.network(board, closed=True).as_array()
    laid = K.tile.py_func(np.ascontiguousarray(board.mask).view(np.uint8).reshape(-1), links, 8, 12, net, 0, 8)
    assert laid == 96 - 2 * 2  # the 96 moves of six whole blocks, but the two of each hole
    links = links.reshape(8, 12, 2)
    for r, c, s in zip(*np.nonzero(links >= 0)):
        dr, dc = KNIGHT_MOVES[links[r, c, s]]
        assert (links[r + dr, c + dc] == (links[r, c, s] ^ 4)).any()
        assert board.mask[r + dr, c + dc]


@pytest.mark.parametrize("closed,restore", [(True, True), (True, False), (False, False)])
def test_the_completion_is_the_same_in_one_chunk_and_in_chunks_of_one(monkeypatch, closed, restore):
    """The passes over the cells (tile, sanitize, greedy, the deficient squares) and the restoration run in
    parts with the deadline checked between them; the links and the answer do not depend on the parts."""
    from ktsolve.factor import chunks

    board = random_holed_board(70, 64, 0.04, closed=True, seed=5)
    got = []
    for size in (1 << 40, 1):
        monkeypatch.setattr(chunks, "FIRST", size)
        monkeypatch.setattr(chunks, "MOST", size)
        tf = two_factor(board, closed=closed, restore=restore)
        got.append((tf.status, None if tf.links is None else tf.links.copy(),
                    {k: v for k, v in tf.stats.items() if not k.endswith("_s")}))
    assert got[0][0] == got[1][0] and got[0][2] == got[1][2]
    assert got[0][1] is None and got[1][1] is None or np.array_equal(got[0][1], got[1][1])


@pytest.mark.parametrize("phase", ["tiling the 2-factor", "preparing the 2-factor", "completing the 2-factor",
                                   "restoring two moves at every square"])
def test_every_pass_of_the_completion_stops_at_its_deadline(monkeypatch, phase):
    from ktsolve.driver import Stopped
    from ktsolve.factor import chunks

    class Clock(Deadline):
        def check(self, name=""):
            if name == phase:
                raise Stopped("interrupted", name)

    monkeypatch.setattr(chunks, "MOST", 1)
    board = random_holed_board(70, 64, 0.04, closed=True, seed=5)
    tf = two_factor(board, closed=True, restore=True, deadline=Clock(None))
    assert tf.status == "unknown" and tf.stats["reason"] == f"interrupted (Ctrl-C) while {phase}"


def test_the_complete_search_looks_at_the_clock_after_a_bounded_amount_of_work(monkeypatch):
    """A call of the augmenting kernel ends once its searches have reached ``_REACHED_PER_CALL`` squares, so
    that a chunk sized on cheap searches cannot run on into expensive ones between looks at the clock (rings
    10 wide at 390 x 390: a cancel 0.05 s into the completion was seen 1.07 s later, at its end).  With a
    budget of one square each call makes one search; the answer and the links do not depend on it."""
    from types import SimpleNamespace

    from ktsolve import shapes

    board = shapes.rings(120, 120, width=10, balance="closed").board
    real = core._kernels
    per_call = []

    def counting(n, deadline):
        K = real(n, deadline)

        def augment(*args):
            counters = args[-1]
            before = int(counters[1])
            out = K.augment(*args)
            per_call.append(int(counters[1]) - before)
            return out

        return SimpleNamespace(**{**vars(K), "augment": augment})

    monkeypatch.setattr(core, "_kernels", counting)
    got = []
    for budget in (1 << 40, 1):
        monkeypatch.setattr(core, "_REACHED_PER_CALL", budget)
        per_call.clear()
        tf = two_factor(board, closed=True, restore=False)
        got.append((tf.status, tf.links.copy() if tf.links is not None else None,
                    {k: v for k, v in tf.stats.items() if not k.endswith("_s")}, list(per_call)))
    (status0, links0, stats0, calls0), (status1, links1, stats1, calls1) = got
    assert stats0["searches"] > 50 and max(calls0) > 1  # the unbounded calls make many searches each
    assert max(calls1) <= 1 and sum(calls1) == stats1["searches"]
    assert status0 == status1 and stats0 == stats1
    assert links0 is None and links1 is None or np.array_equal(links0, links1)


def test_the_restoration_search_forests_leave_the_complete_search_little_to_cross_on_rings():
    """Rings 6 wide and 2 apart: the colours' surplus lies beyond thin links, and each complete search from a
    square the restoration left short crossed whole rings (104,733 squares reached at 520 x 520, 17.9 million
    at 1311 x 1311).  The restoration's search forests carry it first, so the complete search only meets the
    closed sets of the witness."""
    from ktsolve import shapes
    from ktsolve.factor import check_two_factor_witness

    board = shapes.rings(520, 520, width=6, balance="closed").board
    tf = two_factor(board, closed=True)
    assert tf.status == "none"
    assert tf.stats["forest_rounds"] > 0
    assert tf.stats["reached"] < 5_000
    assert tf.stats["augmentations"] == 0
    assert check_two_factor_witness(board, TourSpec(closed=True), tf.witness) is None


def test_a_round_of_searches_towards_a_partner_that_links_few_is_the_last(monkeypatch):
    """Rounds of the restoration's searches towards a partner cost alike whatever they link: below
    ``TOWARD_YIELD`` of its searches linked, the round is the last and the forests take the rest (the answer
    is the same)."""
    board = random_holed_board(600, 600, 0.2, closed=True, seed=1)
    rounds = {}
    for share in (0.0, 0.9):
        monkeypatch.setattr(core, "TOWARD_YIELD", share)
        tf = two_factor(board, closed=True)
        assert tf.status == "none"
        rounds[share] = tf.stats["toward_rounds"]
    assert rounds == {0.0: 2, 0.9: 1}
