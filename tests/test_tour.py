import numpy as np
import pytest

from ktsolve import Board, InvalidTourError, Tour, validate

# A closed tour of the 3x4 board does not exist; an open one does.
OPEN_3X4 = ["a3", "c2", "a1", "b3", "d2", "b1", "c3", "d1", "b2", "d3", "c1", "a2"]
# 3x3 with the centre removed: the 8 outer squares form a knight cycle.
RING = ["a3", "c2", "a1", "b3", "c1", "a2", "c3", "b1"]


def test_valid_open_tour():
    b = Board(3, 4)
    t = validate(b, Tour.from_names(b, OPEN_3X4))
    assert t.is_complete and not t.closed
    assert t.names() == OPEN_3X4


def test_valid_closed_ring():
    b = Board(3, 3, holes=[(1, 1)])
    t = validate(b, Tour.from_names(b, RING), closed=True)
    assert t.closed
    r = t.rotated(5)
    assert validate(b, r, closed=True).squares[0] == 5
    assert validate(b, t.reversed(), closed=True)


def test_accepts_index_and_coordinate_arrays():
    b = Board(3, 4)
    t = Tour.from_names(b, OPEN_3X4)
    assert validate(b, t.squares) == t
    assert validate(b, t.coords) == t
    assert validate(b, t.coords.tolist()) == t


@pytest.mark.parametrize(
    "tour, kwargs, message",
    [
        (OPEN_3X4[:1] + OPEN_3X4[2:] + OPEN_3X4[1:2], {}, "illegal move at step 2: a3 to a1"),
        (OPEN_3X4[:-1], {}, "square a2 is never visited"),
        (OPEN_3X4[:5] + ["c2"] + OPEN_3X4[6:], {}, "square c2 is visited twice, at steps 2 and 6"),
        (OPEN_3X4, {"start": "c1"}, "starts on a3, not on the required start c1"),
        (OPEN_3X4, {"end": "a3"}, "ends on a2, not on the required end a3"),
        (OPEN_3X4, {"closed": True}, "not closed: a2 back to a3"),
        (OPEN_3X4[:2], {"closed": True, "complete": False}, "at least 3 squares"),
    ],
)
def test_each_fault_is_named(tour, kwargs, message):
    b = Board(3, 4)
    squares = np.array([b.index(*b.parse_square(s)) for s in tour])
    with pytest.raises(InvalidTourError, match=message):
        validate(b, squares, **kwargs)


def test_hole_and_off_board_steps():
    b = Board(3, 3, holes=[(1, 1)])
    with pytest.raises(InvalidTourError, match="step 2: square b2 is a hole"):
        validate(b, [(0, 0), (1, 1)], complete=False)
    with pytest.raises(InvalidTourError, match="step 1: square .* outside the 3x3 board"):
        validate(b, [(5, 5)], complete=False)
    with pytest.raises(InvalidTourError, match="names square number 9"):
        validate(b, np.array([0, 9]))
    with pytest.raises(InvalidTourError, match="empty"):
        validate(b, [])


def test_first_fault_in_walking_order():
    b = Board(3, 4)
    sq = [b.index(*b.parse_square(s)) for s in OPEN_3X4]
    broken = sq[:3] + [sq[5]] + sq[3:5] + sq[5:]  # illegal move at step 4, repeat later
    with pytest.raises(InvalidTourError, match="illegal move at step 4"):
        validate(b, np.array(broken))


def test_tour_of_another_board():
    t = Tour.from_names(Board(3, 4), OPEN_3X4)
    with pytest.raises(InvalidTourError, match="belongs to a 3x4 board"):
        validate(Board(4, 3), t)


def test_board_matrix_is_eulers_view():
    b = Board(3, 4)
    t = Tour.from_names(b, OPEN_3X4)
    m = t.board_matrix()
    assert m[0, 0] == 1 and m[1, 0] == 12 and m[2, 2] == 11
    assert sorted(m.ravel().tolist()) == list(range(1, 13))


def test_long_tour_in_chunks(monkeypatch):
    import ktsolve.tour as tour_mod

    monkeypatch.setattr(tour_mod, "_CHUNK", 7)
    b = Board(3, 4)
    t = Tour.from_names(b, OPEN_3X4)
    assert validate(b, t)
    bad = t.squares.copy()
    bad[[9, 10]] = bad[[10, 9]]
    with pytest.raises(InvalidTourError, match="illegal move at step 10"):
        validate(b, bad)


def test_list_cycle_against_every_rotation_and_direction():
    from ktsolve.tour import list_cycle

    cycle = [4, 9, 2, 7, 0, 5]
    n = len(cycle)
    for k in range(n):
        start = cycle[k]
        fwd = cycle[k:] + cycle[:k]
        assert list_cycle(cycle, start=start).tolist() == fwd
        # the two neighbours of start on the cycle: one listing ends on each
        before, after = cycle[k - 1], cycle[(k + 1) % n]
        assert list_cycle(cycle, start=start, end=before).tolist() == fwd
        assert list_cycle(cycle, start=start, end=after).tolist() == [start] + fwd[1:][::-1]
        # end alone: the listing starts on the square after it
        assert list_cycle(cycle, end=start).tolist() == cycle[k + 1 :] + cycle[: k + 1]
    assert list_cycle(cycle).tolist() == cycle
