"""Boards from masks: Board.from_mask and .npy board files."""

from __future__ import annotations

import io

import numpy as np
import pytest
from numpy.lib import format as npy_format

from ktsolve import Board, InvalidBoardError


def _mask(rows=6, cols=7, holes=((0, 0), (2, 3), (5, 6))):
    m = np.zeros((rows, cols), dtype=bool)
    for r, c in holes:
        m[r, c] = True
    return m


@pytest.mark.parametrize("dtype", [bool, np.uint8, np.int8, np.int32, np.int64])
def test_from_mask_equals_the_board_of_its_holes(dtype):
    m = _mask()
    board = Board.from_mask(m.astype(dtype))
    assert board == Board(6, 7, holes=[(0, 0), (2, 3), (5, 6)])
    assert board.hole_flat.dtype == np.int64 and not board.hole_flat.flags.writeable
    assert Board.from_mask(~board.mask) == board
    assert board.index(0, 1) == 0 and board.n_squares == 39


def test_from_mask_without_holes_is_full():
    assert Board.from_mask(np.zeros((5, 5), dtype=np.uint8)).is_full


@pytest.mark.parametrize("arr,message", [
    (np.zeros(5, dtype=bool), "2-D"),
    (np.zeros((2, 2, 2), dtype=bool), "2-D"),
    (np.array([[0, 2]]), "only 0 and 1"),
    (np.array([[0, -1]]), "only 0 and 1"),
    (np.zeros((2, 2), dtype=float), "float64"),
    (np.ones((2, 3), dtype=bool), "every square"),
    (np.zeros((0, 3), dtype=bool), "at least one row"),
])
def test_from_mask_refuses_bad_masks(arr, message):
    with pytest.raises(InvalidBoardError, match=message):
        Board.from_mask(arr)


def test_npy_board_file_round_trip(tmp_path):
    m = _mask()
    for dtype in (bool, np.uint8):
        path = tmp_path / f"m_{np.dtype(dtype).name}.npy"
        np.save(path, m.astype(dtype))
        assert Board.read(str(path)) == Board.from_mask(m)
    fortran = tmp_path / "f.npy"
    np.save(fortran, np.asfortranarray(m))
    assert Board.read(str(fortran)) == Board.from_mask(m)


def test_npy_board_from_standard_input(monkeypatch):
    buf = io.BytesIO()
    np.save(buf, _mask())

    class Stdin:
        buffer = io.BytesIO(buf.getvalue())

    monkeypatch.setattr("sys.stdin", Stdin())
    assert Board.read("-") == Board.from_mask(_mask())


def _header_only(path, shape, descr="|b1", version=(1, 0)):
    with open(path, "wb") as fh:
        header = {"descr": descr, "fortran_order": False, "shape": shape}
        if version == (1, 0):
            npy_format.write_array_header_1_0(fh, header)
        else:
            npy_format.write_array_header_2_0(fh, header)


@pytest.mark.parametrize("shape,descr,message", [
    ((100_000, 100_000), "|b1", "ktsolve allows at most"),
    ((1000, 1000), "|b1", "ends before the 1000x1000 array"),
    ((10,), "|b1", "a board mask is 2-D"),
    ((4, 4), "<f8", "float64"),
])
def test_npy_headers_are_checked_before_the_data(tmp_path, shape, descr, message):
    path = tmp_path / "bad.npy"
    _header_only(path, shape, descr)
    with pytest.raises(InvalidBoardError, match=message):
        Board.read(str(path))


def test_npy_header_claiming_absurd_length(tmp_path):
    path = tmp_path / "long.npy"
    # version 2.0: a 4-byte header length, here 2**31, with nothing behind it
    path.write_bytes(b"\x93NUMPY\x02\x00" + (2**31).to_bytes(4, "little"))
    with pytest.raises(InvalidBoardError, match="not a readable .npy array"):
        Board.read(str(path))
    damaged = tmp_path / "damaged.npy"
    damaged.write_bytes(b"\x93NUMPY\x01\x00")
    with pytest.raises(InvalidBoardError, match="not a readable .npy array"):
        Board.read(str(damaged))


def test_large_mask_costs_no_python_object_per_square():
    import tracemalloc

    m = np.zeros((2000, 2000), dtype=np.uint8)
    m.ravel()[::997] = 1
    tracemalloc.start()
    board = Board.from_mask(m)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert board.n_holes == m.sum()
    # the hole positions and numpy's temporaries: at most two bytes a square, where one
    # Python int a square would cost 28 or more
    assert peak < 2 * m.size + (1 << 20)
