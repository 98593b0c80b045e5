import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ktsolve import Board, InvalidBoardError, InvalidSquareError
from ktsolve.board import MAX_SQUARES, file_index, file_letters


@st.composite
def boards(draw, max_side=12):
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    cells = rows * cols
    flat = draw(st.sets(st.integers(0, cells - 1), max_size=cells - 1))
    return Board(rows, cols, [(f // cols, f % cols) for f in flat])


@given(st.integers(0, 100_000))
def test_file_letters_round_trip(col):
    assert file_index(file_letters(col)) == col


@given(boards())
def test_text_round_trip(board):
    assert Board.parse(board.to_text()) == board


@given(boards())
def test_names_round_trip(board):
    for r in range(board.rows):
        for c in range(board.cols):
            assert board.parse_square(board.name(r, c), allow_hole=True) == (r, c)
            assert board.parse_square(f"{r},{c}", allow_hole=True) == (r, c)


@given(boards())
def test_numbering_round_trip(board):
    idx = np.arange(board.n_squares)
    coords = board.coords_of(idx)
    assert (board.indices_of(coords) == idx).all()
    assert board.mask[coords[:, 0], coords[:, 1]].all()
    # row-major order
    flat = coords[:, 0] * board.cols + coords[:, 1]
    assert (np.diff(flat) > 0).all()
    assert (board.indices_of(np.array(board.holes).reshape(-1, 2)) == -1).all()


@given(boards())
def test_colour_counts(board):
    even = sum(1 for r in range(board.rows) for c in range(board.cols) if board.mask[r, c] and (r + c) % 2 == 0)
    assert board.colour_counts() == (even, board.n_squares - even)


@given(boards())
def test_hole_spec_round_trip(board):
    if board.n_holes == 0:
        return
    names = ",".join(board.name(r, c) for r, c in board.holes)
    pairs = ";".join(f"{r},{c}" for r, c in board.holes)
    assert Board.from_spec(board.spec(), holes=names) == board
    assert Board.from_spec(board.spec(), holes=pairs) == board


def test_algebraic_orientation():
    b = Board(8, 8)
    assert b.name(7, 0) == "a1" and b.name(0, 7) == "h8" and b.name(0, 0) == "a8"
    assert b.parse_square("a1") == (7, 0)
    assert b.parse_square("7,0") == (7, 0)
    assert b.colour_name(7, 0) == "dark" and b.colour_name(7, 7) == "light"
    assert Board(30, 30).name(29, 27) == "ab1"


def test_parse_file_format():
    text = """; a board with a hole
    . . o #
    x...

    ....  ; trailing comment
    """
    from ktsolve.board import BoardFileWarning

    with pytest.warns(BoardFileWarning, match="mixes|both as"):  # it mixes conventions on purpose: said so
        b = Board.parse(text)
    assert b.shape == (3, 4)
    assert b.holes == ((0, 3), (1, 0))


@pytest.mark.parametrize(
    "spec, message",
    [
        ("0x8", "at least one row"),
        ("-3x4", "at least one row"),
        ("8x0", "at least one row"),
        ("axb", "not of the form ROWSxCOLS"),
        ("8", "not of the form ROWSxCOLS"),
        ("", "not of the form ROWSxCOLS"),
        ("100000x100000", "at most"),
    ],
)
def test_bad_sizes(spec, message):
    with pytest.raises(InvalidBoardError, match=message):
        Board.from_spec(spec)


def test_bad_constructor_values():
    with pytest.raises(InvalidBoardError):
        Board(2.5, 3)
    with pytest.raises(InvalidBoardError, match="outside"):
        Board(3, 3, holes=[(3, 0)])
    with pytest.raises(InvalidBoardError, match="every square"):
        Board(1, 2, holes=[(0, 0), (0, 1)])
    with pytest.raises(InvalidBoardError, match="at most"):
        Board(MAX_SQUARES, 2)


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "no rows"),
        ("; only a comment\n\n", "no rows"),
        ("...\n..\n", "line 2 has 2 squares"),
        ("..q\n", "has 'q' at column 3"),
    ],
)
def test_bad_board_files(text, message):
    with pytest.raises(InvalidBoardError, match=message):
        Board.parse(text)


@pytest.mark.parametrize(
    "text, message",
    [
        ("i1", "outside the 8x8 board"),
        ("a9", "outside the 8x8 board"),
        ("a0", "outside the 8x8 board"),
        ("8,0", "outside the 8x8 board"),
        ("-1,0", "outside"),
        ("1a", "not a square name"),
        ("a-1", "not a square name"),
        ("", "not a square name"),
        ("b1", "on a hole"),
    ],
)
def test_bad_squares(text, message):
    b = Board(8, 8, holes=[(7, 1)])
    with pytest.raises(InvalidSquareError, match=message):
        b.parse_square(text)


def test_hole_outside_message():
    with pytest.raises(InvalidBoardError, match="hole j3 is outside the 8x8 board"):
        Board.from_spec("8x8", holes="j3")


def test_equality_and_hash():
    a = Board(4, 5, holes=[(0, 0), (1, 1)])
    b = Board(4, 5, holes=[(1, 1), (0, 0)])
    assert a == b and hash(a) == hash(b) and a.n_holes == 2
    assert a != Board(4, 5)
    assert "holes" in repr(a)


def test_huge_board_costs_no_memory_per_square():
    b = Board(16000, 16000, holes=[(5, 5)])
    assert b.n_squares == 16000 * 16000 - 1
    assert b.coords_of(np.array([0, 5 * 16000 + 5]))[1].tolist() == [5, 6]
    assert "mask" not in b.__dict__
