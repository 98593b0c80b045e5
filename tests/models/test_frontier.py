"""The frontier count: its kernels against the readable reference, and its counts against exhaustive search.

* ``tests/naive_frontier.py`` runs the same method in plain Python: the
  kernels must give the same counts *and* the same number of states after
  every square, so a pruning rule or a transition that differs shows.
* Every hole pattern of small boards, and random holed boards up to 6x6,
  every question kind, against ``count_tours(method="search")``.
* Budgets: a time limit and a memory budget give an incomplete count with
  no value.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import random_board
from naive_frontier import frontier_count as naive_count

from ktsolve import Board, InvalidParameterError, UnsupportedError
from ktsolve.driver import Deadline
from ktsolve.models import _frontier_kernels as fk
from ktsolve.models.count import count_tours, strip_counts
from ktsolve.models.frontier import _Run, count_board
from ktsolve.models.frontier_exact import bound_bits, crt, is_prime, primes
from ktsolve.models.frontier_plan import make_plan, turned


def _kernel(mask, closed, fixed=(), ends=None, mods=None):
    """The kernels' counts by step and their states after every step (a plan run directly)."""
    plan = make_plan(mask, fixed, ends)
    mods = np.zeros(1, dtype=np.int64) if mods is None else np.asarray(mods, dtype=np.int64)
    budget = 0 if closed else 2 - len(fixed)
    run = _Run(plan, mods, closed, budget, Deadline(None), None, 1 << 32, "test")
    out = run.run()
    counts = {int(plan.cells[s]): (int(r[0]) if mods[0] == 0 else crt(r.tolist(), mods.tolist()))
              for s, r in out.items()}
    return counts, run.sizes


def _questions(mask):
    """Closed, open, and open with fixed ends (first square, last square, both) of a turned mask."""
    cells = [c * mask.shape[0] + r for c in range(mask.shape[1]) for r in range(mask.shape[0]) if mask[r, c]]
    yield True, ()
    yield False, ()
    if len(cells) >= 2:
        yield False, (cells[0],)
        yield False, (cells[-1],)
        yield False, (cells[0], cells[-1])
        yield False, (cells[len(cells) // 2],)


def _small_masks(seed, count, max_side=5):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        b = random_board(rng, min_side=2, max_side=max_side, max_hole_frac=0.3)
        if b.n_squares >= 2:
            yield turned(b.mask)[0]


@pytest.mark.parametrize("seed", range(6))
def test_kernels_match_the_reference_state_by_state(seed):
    for mask in _small_masks(seed, 6, max_side=4 if seed % 2 else 5):
        for closed, fixed in _questions(mask):
            want = naive_count(mask, closed=closed, fixed=fixed)
            got = _kernel(mask, closed, fixed)
            assert got[0] == want[0], (mask.astype(int).tolist(), closed, fixed)
            # the table may empty early: the kernels then stop, the reference goes on with empty tables
            assert got[1] == want[1][:len(got[1])] and not any(want[1][len(got[1]):])


@pytest.mark.parametrize("rows, cols, closed", [(3, 8, False), (3, 12, True), (4, 6, False), (5, 6, True),
                                                (2, 7, False)])
def test_kernels_match_the_reference_on_every_prefix(rows, cols, closed):
    mask = np.ones((rows, cols), dtype=bool)
    ends = list(range(rows * cols))
    want = naive_count(mask, closed=closed, terms=ends)
    got = _kernel(mask, closed, ends=ends)
    assert got[0] == want[0]
    assert got[1] == want[1][:len(got[1])] and not any(want[1][len(got[1]):])


def test_the_colour_count_prunes_open_questions_and_the_reference_agrees():
    mask = np.ones((5, 5), dtype=bool)
    with_colours = _kernel(mask, False)
    assert with_colours == naive_count(mask, closed=False)
    without = naive_count(mask, closed=False, colours=False)
    assert without[0] == with_colours[0] and max(without[1]) > max(with_colours[1])


def test_residues_and_both_prime_sets_give_the_same_counts():
    mask = np.ones((4, 7), dtype=bool)
    plain = _kernel(mask, False)[0]
    for which in (0, 1):
        assert _kernel(mask, False, mods=primes(2, which))[0] == plain
    assert _kernel(mask, False, mods=[101])[0] == {k: v % 101 for k, v in plain.items()}


# ---------------------------------------------------------------- against exhaustive search
def _kinds(board):
    """Every question kind, as keyword arguments of count_tours."""
    squares = [tuple(map(int, rc)) for rc in board.coords_of(np.arange(board.n_squares))]
    yield {"closed": True, "directed": False}
    yield {"closed": True}
    yield {}
    yield {"directed": False}
    yield {"start": squares[0]}
    yield {"end": squares[-1]}
    if len(squares) >= 2:
        yield {"start": squares[-1], "end": squares[len(squares) // 2]}


def _agree(board, kinds=None):
    for kw in kinds or _kinds(board):
        a = count_tours(board, method="frontier", **kw)
        b = count_tours(board, method="search", **kw)
        assert a.complete and b.complete
        assert a.value == b.value, (board.to_text(), kw, a.value, b.value)


def _patterns(rows, cols):
    """Every hole pattern of a rows x cols board (not all holes), one per class of the board's symmetries."""
    seen = set()
    for bits in range(1, 1 << (rows * cols)):
        mask = np.array([(bits >> i) & 1 for i in range(rows * cols)], dtype=bool).reshape(rows, cols)
        forms = [mask, mask[::-1], mask[:, ::-1], mask[::-1, ::-1]]
        if rows == cols:
            forms += [f.T for f in forms]
        key = min(f.tobytes() for f in forms)
        if key in seen:
            continue
        seen.add(key)
        yield Board.from_mask(~mask)


@pytest.mark.parametrize("rows, cols", [(3, 3), (2, 5), (1, 4)])
def test_every_hole_pattern_of_small_boards(rows, cols):
    for board in _patterns(rows, cols):
        _agree(board)


def test_every_hole_pattern_of_3x4_closed_and_open():
    for board in _patterns(3, 4):
        _agree(board, [{"closed": True, "directed": False}, {}, {"start": board.coords_of([0])[0].tolist()}])


@pytest.mark.slow
def test_every_hole_pattern_of_4x4():
    for board in _patterns(4, 4):
        _agree(board)


@pytest.mark.parametrize("seed", range(8))
def test_random_holed_boards_up_to_6x6(seed):
    rng = np.random.default_rng(1000 + seed)
    for _ in range(4):
        board = random_board(rng, min_side=3, max_side=6, max_hole_frac=0.35)
        while board.n_squares > 30:  # exhaustive search stays within seconds
            holes = {tuple(h) for h in board.holes}
            free = [(r, c) for r in range(board.rows) for c in range(board.cols) if (r, c) not in holes]
            holes.add(free[int(rng.integers(len(free)))])
            board = Board(board.rows, board.cols, holes=sorted(holes))
        _agree(board)


def test_a_full_6x6_closed_count_against_search():
    assert count_tours("6x6", closed=True, directed=False, method="frontier").value == \
        count_tours("6x6", closed=True, directed=False, method="search").value == 9862


# ---------------------------------------------------------------- strips
def test_strip_terms_are_the_counts_of_each_board():
    got = strip_counts(3, 12, closed=False, directed=True).terms
    assert got == [count_board(f"3x{n}", directed=True).value for n in range(1, 13)]
    cells = strip_counts(4, 14, closed=True, by="cells").terms
    for n in (8, 10, 12, 13, 14):
        flat = np.zeros(16, dtype=bool)
        flat[:n] = True
        mask = flat.reshape(4, 4).T  # the first n cells, column by column, top to bottom
        board = Board.from_mask(~mask[:, :-(-n // 4)])
        assert cells[n - 1] == count_tours(board, closed=True, directed=False, method="search").value


def test_one_square_and_empty_strips():
    assert strip_counts(1, 3).terms == [1, 0, 0]
    assert strip_counts(2, 4, closed=True).terms == [0, 0, 0, 0]
    assert count_tours("1x1", method="frontier").value == 1
    assert count_tours("1x1", closed=True, method="frontier").value == 0


# ---------------------------------------------------------------- exact integers
def test_the_primes_are_primes_and_the_two_sets_are_disjoint():
    small = [n for n in range(2, 2000) if all(n % d for d in range(2, int(n ** 0.5) + 1))]
    assert [n for n in range(2000) if is_prime(n)] == small
    a, b = primes(8, 0), primes(8, 1)
    assert all(2**61 < p < 2**62 for p in a) and all(2**60 < p < 2**61 for p in b)
    assert all(is_prime(p) for p in a + b) and not set(a) & set(b)
    assert not is_prime(2**62 - 1) and not is_prime(561)  # a composite and a Carmichael number


def test_crt_recovers_numbers_below_the_product():
    rng = np.random.default_rng(5)
    ps = primes(4, 0)
    for _ in range(50):
        x = int(rng.integers(0, 2**62)) * int(rng.integers(0, 2**62)) * int(rng.integers(0, 2**62))
        assert crt([x % p for p in ps], ps) == x


@pytest.mark.parametrize("spec, closed, count", [("5x5", False, 864), ("6x6", True, 9862), ("5x6", False, 18784),
                                                 ("3x10", True, 16), ("4x7", False, 6378)])
def test_the_bound_is_above_the_counts(spec, closed, count):
    from ktsolve import KnightGraph

    degrees = KnightGraph(Board.from_spec(spec)).degree
    assert 2 ** bound_bits(degrees, closed) > 2 * count


def test_int64_forced_past_its_range_is_an_honest_unknown():
    res = strip_counts(4, 40, arithmetic="int64")
    assert not res.complete and "2**63" in res.reason and res.terms == []
    auto = strip_counts(4, 40)
    assert auto.complete and auto.terms[-1] > 2**63 and auto.arithmetic.startswith("residues")
    assert strip_counts(4, 40, arithmetic="residues", prime_set=1).terms == auto.terms


def test_auto_runs_int64_again_with_residues_when_it_saturates(monkeypatch):
    from ktsolve.models import frontier

    monkeypatch.setattr(frontier, "INT64_GUESS_BITS", 10_000)  # make auto try int64 first on a huge count
    res = strip_counts(4, 40)
    assert res.complete and res.arithmetic.startswith("int64, then residues")
    assert res.terms == strip_counts(4, 40, arithmetic="residues").terms


# ---------------------------------------------------------------- budgets and bad input
def test_a_time_limit_gives_unknown_and_no_number():
    res = count_tours("8x8", closed=True, method="frontier", time_limit=0.2)
    assert not res.complete and res.value is None and res.status == "unknown"
    assert "time limit" in res.reason and "states" in res.reason
    with pytest.raises(ValueError, match="no number"):
        int(res)
    strip = strip_counts(6, 40, closed=True, time_limit=0.05)
    assert not strip.complete and strip.terms == [] and "time limit" in strip.reason


def test_a_memory_budget_stops_with_the_states_reached():
    res = count_tours("7x7", method="frontier", max_memory=2 << 20)
    assert not res.complete and res.value is None
    assert "memory budget" in res.reason and "states" in res.reason
    assert res.stats["peak_bytes"] <= 2 << 20


@pytest.mark.parametrize("kw, error, message", [
    ({"method": "nope"}, InvalidParameterError, "method"),
    ({"method": "frontier", "max_nodes": 10}, UnsupportedError, "max_nodes"),
    ({"method": "search", "max_memory": 1 << 30}, UnsupportedError, "max_memory"),
    ({"max_nodes": 10, "max_memory": 1 << 30}, UnsupportedError, "max_memory"),
    ({"method": "frontier", "arithmetic": "float"}, InvalidParameterError, "arithmetic"),
    ({"method": "frontier", "max_memory": 10}, InvalidParameterError, "max_memory"),
    ({"method": "frontier", "closed": True, "start": "a1"}, UnsupportedError, "closed"),
])
def test_bad_arguments_are_refused_by_name(kw, error, message):
    with pytest.raises(error, match=message):
        count_tours("5x5", **kw)


def test_a_board_too_wide_for_the_plan_is_refused():
    with pytest.raises(UnsupportedError, match="at most 11"):
        count_tours("12x12", method="frontier")
    assert count_tours("12x12", method="auto", closed=True, max_nodes=10).method == "search"


def test_auto_picks_the_frontier_on_narrow_boards_and_search_on_wide_or_tiny_ones():
    assert count_tours("6x6", closed=True).method == "frontier"
    assert count_tours("5x5").method == "search"  # 25 squares: search takes milliseconds
    assert count_tours("6x6", closed=True, max_nodes=10**8).method == "search"
    assert count_tours("9x9", closed=True, max_nodes=10).method == "search"


def test_rows_and_columns_of_holes_at_the_edges_are_cut_off():
    """A 12x12 board whose squares fit in 3 x 12 is counted by the frontier method, on 3 rows."""
    board = Board(12, 12, holes=[(r, c) for r in range(12) for c in range(12) if not 4 <= r <= 6])
    res = count_tours(board, closed=True, directed=False)
    assert res.method == "frontier" and res.value == 176  # the 3 x 12 board's closed tours (OEIS A169764)
    assert count_tours(board, start=(4, 0)).value == count_tours("3x12", start=(0, 0)).value


def test_after_warm_no_count_compiles_a_kernel():
    """warm() calls every kernel with the argument types counts use: a count afterwards adds no signature."""
    from ktsolve import jit
    from ktsolve.models import frontier

    frontier.warm()
    kernels = jit.kernels_of(fk)
    before = {k.__name__: len(k.signatures) for k in kernels}
    count_tours("4x7", closed=True, method="frontier")
    count_tours(Board(5, 6, holes=[(0, 0)]), start=(4, 5), method="frontier")
    count_tours("4x8", method="frontier", arithmetic="residues")
    strip_counts(4, 12, closed=True)
    strip_counts(3, 20, by="cells", arithmetic="residues")
    count_tours("7x7", closed=True, method="frontier", time_limit=0.5)
    assert {k.__name__: len(k.signatures) for k in kernels} == before


def test_the_progress_bar_shows_the_states():
    import io

    from ktsolve.progress import terminal_progress

    stream = io.StringIO()
    with terminal_progress("count", enabled=True, stream=stream) as progress:
        count_tours("6x6", closed=True, method="frontier", progress=progress)
    assert "states" in stream.getvalue()
    with terminal_progress("count", stream=io.StringIO()) as progress:
        assert progress is None  # silent when not a terminal
