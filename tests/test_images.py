"""ktsolve.images: pictures and arrays to boards, bad pictures refused, and the real pictures of scikit-image."""

from __future__ import annotations

import importlib
import struct
import subprocess
import sys
import zlib

import numpy as np
import pytest

from ktsolve import Board, Status, prove, solve
from ktsolve.errors import InvalidBoardError, InvalidParameterError
from ktsolve.images import from_picture, otsu_threshold

from test_cleaning import assert_fit

RAW = dict(largest=False, prune=False, balance=None)


def naive_otsu(grey: np.ndarray) -> int:
    """Otsu's rule read off its definition: every t, the weighted variance between the two classes."""
    values = grey.ravel().astype(float)
    scores = {}
    for t in range(1, 256):
        low, high = values[values < t], values[values >= t]
        if low.size and high.size:
            scores[t] = low.size * high.size * (low.mean() - high.mean()) ** 2
    best = max(scores.values())
    ties = [t for t, v in scores.items() if v >= best * (1 - 1e-12)]
    return ties[len(ties) // 2]


@pytest.mark.parametrize("seed", range(5))
def test_otsu_against_its_definition(seed):
    rng = np.random.default_rng(seed)
    grey = np.concatenate([rng.normal(60 + 10 * seed, 15, 300), rng.normal(170, 25, 200)])
    grey = np.clip(grey, 0, 255).astype(np.uint8).reshape(20, 25)
    assert otsu_threshold(grey) == naive_otsu(grey)
    assert otsu_threshold(np.full((3, 3), 77, dtype=np.uint8)) == 77


def test_grey_levels_threshold_both_ways():
    rng = np.random.default_rng(1)
    grey = rng.integers(0, 256, size=(30, 40), dtype=np.uint8)
    for t in (0, 1, 100, 255):
        got = from_picture(grey, threshold=t, **RAW) if (grey >= t).any() else None
        if got is not None:
            assert np.array_equal(got.squares, grey >= t)
    assert np.array_equal(from_picture(grey, threshold=100, dark=True, **RAW).squares, grey < 100)
    as_float = from_picture(grey.astype(np.float32) / 2, threshold=50.5, **RAW).squares
    assert np.array_equal(as_float, grey / 2 >= 50.5)


def test_bool_arrays_are_their_squares():
    rng = np.random.default_rng(2)
    mask = rng.random((17, 23)) < 0.7
    assert np.array_equal(from_picture(mask, **RAW).squares, mask)


def test_blocks_are_the_unit_of_thresholding():
    rng = np.random.default_rng(3)
    grey = rng.integers(0, 256, size=(21, 26), dtype=np.uint8)
    k, t = 4, 120
    want = np.zeros(grey.shape, dtype=bool)
    for r in range(0, 21, k):
        for c in range(0, 26, k):
            want[r:r + k, c:c + k] = grey[r:r + k, c:c + k].mean() >= t
    got = from_picture(grey, threshold=t, block=k, **RAW)
    assert np.array_equal(got.squares, want)
    assert "blocks of 4x4 pixels" in got.made[1]


def test_scale_repeats_every_pixel():
    mask = np.array([[1, 0, 1], [1, 1, 0]], dtype=bool)
    got = from_picture(mask, scale=3, **RAW)
    assert np.array_equal(got.squares, np.kron(mask, np.ones((3, 3), dtype=bool)))
    assert got.squares.shape == (6, 9)


def test_a_cleaned_picture_is_fit_and_its_record_adds_up():
    rng = np.random.default_rng(4)
    grey = (rng.random((60, 80)) * 255).astype(np.uint8)
    grey[10:50, 10:70] = 230
    for balance in ("open", "closed"):
        got = from_picture(grey, threshold=128, balance=balance)
        assert_fit(got.squares, balance)
        c = got.cleaning
        assert c.squares_in == int((grey >= 128).sum())
        assert c.squares_out == c.squares_in - c.outside_largest - c.pruned - c.balanced


def test_board_from_image_is_the_regions_board(tmp_path):
    grey = np.full((20, 20), 220, dtype=np.uint8)
    grey[:4, :4] = 0
    assert Board.from_image(grey, balance="closed") == from_picture(grey, balance="closed").board


def test_board_does_not_import_pillow():
    code = ("import sys, numpy as np; from ktsolve import Board; "
            "Board.from_image(np.full((10, 10), 200, dtype=np.uint8)); print('PIL' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


from test_cleaning import _oracle_cases  # noqa: E402


@pytest.mark.parametrize("case", _oracle_cases(), ids=lambda c: f"{c['board']}-{c['kind']}-{len(c['holes'])}")
def test_the_oracles_boards_drawn_as_pictures(case):
    """The oracle's board drawn in grey (squares light, holes dark) comes back as itself, and its answer holds."""
    rows, cols = case["board"]
    grey = np.full((rows, cols), 230, dtype=np.uint8)
    for r, c in case["holes"]:
        grey[r, c] = 20
    board = from_picture(grey, **RAW).board
    assert board == Board(rows, cols, [tuple(h) for h in case["holes"]])
    start = tuple(case["start"]) if "start" in case else None
    res = prove(board, closed=case["kind"] == "closed", start=start, race=False, time_limit=60, seed=1)
    assert res.status is (Status.FOUND if case["exists"] else Status.INFEASIBLE)


# ---------------------------------------------------------------- picture files

def _importable(name: str) -> bool:
    try:
        importlib.import_module(name)
    except ImportError:
        return False
    return True


needs_pillow = pytest.mark.skipif(not _importable("PIL.Image"), reason="Pillow is not installed")


def _picture(tmp_path, arr, mode, name="p.png", **save):
    from PIL import Image

    im = Image.fromarray(arr).convert(mode) if mode != "I;16" else Image.fromarray(arr.astype(np.uint16) * 257)
    path = tmp_path / name
    im.save(path, **save)
    return path


@needs_pillow
@pytest.mark.parametrize("mode", ["L", "RGB", "P", "1", "LA", "I;16"])
def test_png_modes_read_as_grey(tmp_path, mode):
    grey = np.zeros((16, 20), dtype=np.uint8)
    grey[2:14, 3:18] = 255
    grey[5, 5] = 0
    path = _picture(tmp_path, grey, mode)
    got = from_picture(path, threshold=128, **RAW)
    assert np.array_equal(got.squares, grey >= 128)
    assert f"({mode})" in got.made[0]


@needs_pillow
def test_jpeg_reads_as_pillow_decodes_it(tmp_path):
    from PIL import Image

    grey = np.zeros((32, 32), dtype=np.uint8)
    grey[4:28, 6:30] = 210
    path = _picture(tmp_path, grey, "RGB", "p.jpg", quality=90)
    decoded = np.asarray(Image.open(path).convert("L"))
    assert np.array_equal(from_picture(path, threshold=100, **RAW).squares, decoded >= 100)
    assert np.array_equal(from_picture(str(path), threshold=100, **RAW).squares, decoded >= 100)


@needs_pillow
def test_transparent_pixels_are_holes(tmp_path):
    from PIL import Image

    rgba = np.zeros((12, 12, 4), dtype=np.uint8)
    rgba[..., :3] = 255
    rgba[..., 3] = 255
    rgba[:, :4, 3] = 0  # transparent but white
    path = tmp_path / "a.png"
    Image.fromarray(rgba, "RGBA").save(path)
    got = from_picture(path, threshold=128, **RAW)
    assert not got.squares[:, :4].any() and got.squares[:, 4:].all()


@needs_pillow
def test_a_pillow_image_is_read_too():
    from PIL import Image

    im = Image.fromarray(np.full((9, 9), 200, dtype=np.uint8))
    assert from_picture(im, threshold=100, **RAW).squares.all()


def _png_declaring(width: int, height: int) -> bytes:
    """A PNG file whose header declares ``width x height`` grey pixels, with a few bytes of data."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + \
        chunk(b"IEND", b"")


def bad_pictures(tmp_path):
    """(path, what the message says) for every kind of bad picture file."""
    from PIL import Image

    cases = []
    empty = tmp_path / "empty.png"
    empty.write_bytes(b"")
    cases.append((empty, "is empty"))
    text = tmp_path / "text.png"
    text.write_text("not a picture\n")
    cases.append((text, "is not a PNG or JPEG picture"))
    bomb = tmp_path / "bomb.png"
    bomb.write_bytes(_png_declaring(100_000, 100_000))
    cases.append((bomb, "declares more than 134,217,728 pixels"))  # Pillow's own check, at open
    bomb2 = tmp_path / "bomb2.png"
    bomb2.write_bytes(_png_declaring(12_000, 12_000))
    cases.append((bomb2, "declares 12,000x12,000 pixels"))  # ours, between Pillow's warning and its error
    cmyk = tmp_path / "cmyk.jpg"
    Image.new("CMYK", (8, 8), (0, 0, 0, 0)).save(cmyk)
    cases.append((cmyk, "mode 'CMYK'"))
    truncated = tmp_path / "cut.png"
    full = tmp_path / "full.png"
    Image.fromarray(np.random.default_rng(0).integers(0, 255, (64, 64), dtype=np.uint8)).save(full)
    truncated.write_bytes(full.read_bytes()[:300])
    cases.append((truncated, "cannot read picture"))
    gif = tmp_path / "p.gif"
    Image.new("L", (8, 8), 255).save(gif)
    cases.append((gif, "is not a PNG or JPEG picture"))
    dark = tmp_path / "dark.png"
    Image.new("L", (8, 8), 0).save(dark)
    cases.append((dark, "no squares"))
    line = tmp_path / "line.png"
    Image.fromarray(np.eye(12, dtype=np.uint8) * 255).save(line)
    cases.append((line, "no squares are left after pruning"))
    cases.append((tmp_path / "missing.png", "cannot read picture"))
    return cases


@needs_pillow
def test_bad_pictures_are_refused_in_one_line(tmp_path):
    for path, message in bad_pictures(tmp_path):
        with pytest.raises(InvalidBoardError, match=message.replace("(", r"\(")) as info:
            from_picture(path, threshold=128)
        assert "\n" not in str(info.value)


@needs_pillow
def test_the_byte_budget_is_kept(tmp_path, monkeypatch):
    from ktsolve import _picture as reading  # where the picture is read, below the Board

    path = _picture(tmp_path, np.random.default_rng(1).integers(0, 255, (64, 64), dtype=np.uint8), "L")
    monkeypatch.setattr(reading, "MAX_PICTURE_BYTES", 1000)
    with pytest.raises(InvalidBoardError, match="larger than 1,000 bytes"):
        from_picture(path)
    with pytest.raises(InvalidBoardError, match="larger than 1,000 bytes"):  # through a pipe: counted as read
        with open(path, "rb") as fh:
            monkeypatch.setattr(sys, "stdin", type("In", (), {"buffer": fh})())
            from_picture("-")


def test_the_scaled_board_must_fit():
    with pytest.raises(InvalidBoardError, match="more than 268,435,456 squares"):
        from_picture(np.full((1000, 1000), 255, dtype=np.uint8), scale=17)


@pytest.mark.parametrize("kw,match", [
    ({"threshold": 256}, "threshold"), ({"threshold": -1}, "threshold"), ({"threshold": float("nan")}, "threshold"),
    ({"scale": 0}, "scale"), ({"block": 0}, "block"), ({"dark": "yes"}, "dark"),
])
def test_bad_options_are_refused(kw, match):
    with pytest.raises(InvalidParameterError, match=match):
        from_picture(np.full((8, 8), 200, dtype=np.uint8), **kw)


@pytest.mark.parametrize("arr,match", [
    (np.zeros((3, 4, 3), dtype=np.uint8), "2-D"),
    (np.full((4, 4), 300), "0 to 255"),
    (np.full((4, 4), np.nan), "0 to 255"),
    (np.full((4, 4), "a"), "grey levels"),
])
def test_bad_arrays_are_refused(arr, match):
    with pytest.raises(InvalidBoardError, match=match):
        from_picture(arr)


# ---------------------------------------------------------------- scikit-image's sample pictures

SAMPLES = ("camera", "text", "page", "coins")


@pytest.fixture(scope="module")
def samples():
    data = pytest.importorskip("skimage.data")
    return {name: getattr(data, name)() for name in SAMPLES}


@pytest.mark.parametrize("name", SAMPLES)
@pytest.mark.parametrize("block", [1, 8])
def test_sample_pictures_become_fit_boards(samples, name, block):
    got = from_picture(samples[name], block=block, balance="closed")
    assert_fit(got.squares, "closed")
    assert got.cleaning.squares_out > 1000


@pytest.mark.parametrize("name,window,dark", [
    ("camera", (slice(200, 212), slice(230, 242)), True),
    ("coins", (slice(40, 52), slice(60, 74)), False),
    ("text", (slice(25, 37), slice(85, 99)), True),
    ("text", (slice(85, 97), slice(35, 49)), True),
    ("page", (slice(100, 112), slice(30, 42)), False),
])
@pytest.mark.parametrize("closed", [True, False])
def test_small_sample_crops_agree_with_the_exact_side(samples, name, window, dark, closed):
    board = from_picture(samples[name][window], dark=dark, balance="closed" if closed else "open").board
    assert board.n_squares >= 50
    got = prove(board, closed=closed, race=False, time_limit=60, seed=1)
    assert got.status is not Status.UNKNOWN
    exact = solve(board, "cpsat", closed=closed, presolve_proofs=False, time_limit=60, seed=1)
    assert exact.status is got.status
    if board.n_squares <= 64:
        assert solve(board, "backtrack", closed=closed, presolve_proofs=False, time_limit=60).status is got.status
