"""``ktsolve board image|maze|rings|cheese|planted``: the masks are the Python regions, bad input is one line."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import invoke
from ktsolve import Board
from ktsolve.images import from_picture
from ktsolve.shapes import cheese, maze, planted, rings


def _mask(path) -> np.ndarray:
    mask = np.load(path)
    assert mask.dtype == bool and mask.ndim == 2
    return mask


@pytest.mark.parametrize("args,region", [
    (["maze", "40x50", "--corridor", "4", "--wall", "2", "--seed", "3", "--closed"],
     lambda: maze(40, 50, corridor=4, wall=2, balance="closed", seed=3)),
    (["maze", "40x50", "--seed", "3", "--no-balance", "--no-prune", "--all-parts"],
     lambda: maze(40, 50, largest=False, prune=False, balance=None, seed=3)),
    (["rings", "45x45", "--width", "5", "--gap", "1"], lambda: rings(45, 45, width=5, gap=1)),
    (["cheese", "50x60", "--share", "25%", "--radii", "2-7", "--seed", "9", "--closed"],
     lambda: cheese(50, 60, share=0.25, radii=(2, 7), balance="closed", seed=9)),
    (["cheese", "50x60", "--share", "0.1", "--radii", "3", "--seed", "1"],
     lambda: cheese(50, 60, share=0.1, radii=(3, 3), seed=1)),
    (["planted", "30x30", "--kind", "pair", "--closed"], lambda: planted(30, 30, "pair", balance="closed")),
    (["planted", "30x30", "--kind", "pocket"], lambda: planted(30, 30, "pocket")),
])
def test_shape_masks_are_the_python_regions(tmp_path, args, region):
    out = tmp_path / "m.npy"
    res = invoke(["board", *args, "-o", out])
    want = region()
    assert np.array_equal(_mask(out), want.holes)
    lines = res.stderr.strip().splitlines()
    assert lines == [f"ktsolve: {line}" for line in want.lines()]
    assert res.stdout == ""


def test_a_fresh_seed_is_reported_and_repeats_the_board(tmp_path):
    res = invoke(["board", "cheese", "40x40", "--radii", "2-4", "-o", tmp_path / "a.npy"])
    seed = int(res.stderr.strip().rsplit("seed ", 1)[1])
    invoke(["board", "cheese", "40x40", "--radii", "2-4", "--seed", seed, "-o", tmp_path / "b.npy"])
    assert np.array_equal(np.load(tmp_path / "a.npy"), np.load(tmp_path / "b.npy"))


def test_text_format_is_the_board_file(tmp_path):
    res = invoke(["board", "rings", "21x21", "--width", "3", "--gap", "1", "--format", "text"])
    assert Board.parse(res.stdout) == rings(21, 21, width=3, gap=1).board


def test_a_shape_mask_is_solved_and_verified(tmp_path):
    mask, tour = tmp_path / "m.npy", tmp_path / "t.npy"
    invoke(["board", "maze", "30x30", "--corridor", "4", "--seed", "2", "--closed", "-o", mask])
    invoke(["solve", mask, "--closed", "--format", "npy", "-o", tour, "--seed", "1"])
    assert invoke(["verify", mask, tour, "--closed"]).stdout.startswith("valid: closed tour")


@pytest.fixture
def picture(tmp_path):
    Image = pytest.importorskip("PIL.Image")
    rng = np.random.default_rng(5)
    grey = (rng.random((40, 50)) * 90).astype(np.uint8)
    grey[5:35, 8:44] = 200
    grey[12:20, 15:25] = 30
    path = tmp_path / "p.png"
    Image.fromarray(grey).save(path)
    return path, grey


@pytest.mark.parametrize("args,kw", [
    ([], {}),
    (["--threshold", "128", "--closed"], {"threshold": 128, "balance": "closed"}),
    (["--threshold", "otsu", "--blocks", "4", "--scale", "2"], {"block": 4, "scale": 2}),
    (["--threshold", "100", "--dark", "--all-parts", "--no-prune", "--no-balance"],
     {"threshold": 100, "dark": True, "largest": False, "prune": False, "balance": None}),
])
def test_image_mask_is_the_python_region(tmp_path, picture, args, kw):
    path, _ = picture
    out = tmp_path / "m.npy"
    res = invoke(["board", "image", path, *args, "-o", out])
    want = from_picture(path, **kw)
    assert np.array_equal(_mask(out), want.holes)
    assert res.stderr.strip().splitlines() == [f"ktsolve: {line}" for line in want.lines()]


def test_image_from_standard_input(tmp_path, picture):
    path, _ = picture
    res = invoke(["board", "image", "-", "--threshold", "128", "--format", "text"], input=path.read_bytes())
    assert Board.parse(res.stdout) == from_picture(path, threshold=128).board


def _refused(args, message, out):
    import re

    res = invoke(["board", *args, "-o", out], code=2)
    err = res.stderr.strip()
    assert len(err.splitlines()) == 1 and err.startswith("ktsolve: error:"), (args, err)
    assert re.search(message.replace("(", r"\(").replace(")", r"\)"), err), (args, err)
    assert out.read_bytes() == b"before", args


@pytest.mark.parametrize("args,message", [
    (["maze", "8x8"], "no room for a maze cell"),
    (["maze", "40x40", "--corridor", "0"], "corridor = 0"),
    (["maze", "40x40", "--seed", "-3"], "seed"),
    (["rings", "40x40", "--width", "0"], "width = 0"),
    (["cheese", "40x40", "--share", "95%"], "share = 0.95 is outside"),
    (["cheese", "40x40", "--share", "lots"], "share 'lots' must be a share of the cells"),
    (["cheese", "40x40", "--radii", "a-b"], "radii 'a-b' must be R1-R2"),
    (["cheese", "40x40", "--radii", "9-3"], "r2"),
    (["planted", "10x10", "--kind", "pair"], "too small"),
    (["planted", "40x40", "--kind", "hole"], "hole"),
    (["maze", "0x40"], "at least one row"),
])
def test_bad_shapes_are_one_line_exit_2_and_nothing_written(tmp_path, args, message):
    out = tmp_path / "out.npy"
    out.write_bytes(b"before")
    _refused(args, message, out)


def test_bad_pictures_are_one_line_exit_2_and_nothing_written(tmp_path, picture):
    from test_images import bad_pictures

    path, _ = picture
    out = tmp_path / "out.npy"
    out.write_bytes(b"before")
    cases = [(["image", p, "--threshold", "128"], message) for p, message in bad_pictures(tmp_path)]
    cases += [
        (["image", path, "--threshold", "300"], "threshold = 300"),
        (["image", path, "--threshold", "-1"], "threshold = -1"),
        (["image", path, "--threshold", "light"], "threshold 'light' must be a grey level"),
        (["image", path, "--scale", "0"], "scale = 0"),
        (["image", path, "--blocks", "0"], "block = 0"),
        (["image", path, "--threshold", "0", "--dark"], "no squares: no pixel is below the threshold 0"),
    ]
    for args, message in cases:
        _refused(args, message, out)
