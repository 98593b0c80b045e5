"""``ktsolve solve``: exit codes, the three formats, output files, and every bad input."""

import json
import xml.etree.ElementTree as ET

import pytest
from conftest import invoke

from ktsolve import Board, validate
from ktsolve.files import parse_tour_text


# ---------------------------------------------------------------------- exit 0
def test_main_job_prints_eulers_matrix_that_verifies(tmp_path):
    res = invoke(["solve", "8x8", "--seed", "1"], 0)
    rows = [line.split() for line in res.stdout.strip().splitlines()]
    assert len(rows) == 8 and all(len(r) == 8 for r in rows)
    assert sorted(int(v) for r in rows for v in r) == list(range(1, 65))
    assert "found open tour" in res.stderr
    f = tmp_path / "tour.txt"
    f.write_text(res.stdout)
    out = invoke(["verify", "8x8", str(f)], 0)
    assert out.stdout.startswith("valid: open tour of 64 squares")


@pytest.mark.parametrize("method", ["warnsdorff", "backtrack"])
def test_each_method_with_holes_and_fixed_squares(tmp_path, method):
    args = ["solve", "6x6", "--holes", "c3,d4", "--closed", "--start", "a1", "--method", method,
            "--seed", "2", "--format", "json"]
    # c3 and d4 have the same colour, so no closed tour: exit 1 with the colour proof
    res = invoke(args, 1)
    assert json.loads(res.stdout)["status"] == "infeasible"
    args[3] = "c3,c4"
    res = invoke(args, 0)
    data = json.loads(res.stdout)
    board = Board.from_spec("6x6", holes="c3,c4")
    tour = validate(board, data["tour"], closed=True, start="a1")
    assert len(tour) == 34 and data["method"] == method


def test_json_has_the_schema_of_design():
    res = invoke(["solve", "5x5", "--start", "a1", "--method", "warnsdorff", "--seed", "7", "--format", "json"], 0)
    data = json.loads(res.stdout)
    for key in ("status", "board", "closed", "start", "end", "tour", "method", "seed", "elapsed_s", "proof",
                "stats"):
        assert key in data
    assert data["status"] == "found" and data["seed"] == 7 and data["method"] == "warnsdorff"
    assert data["board"] == {"rows": 5, "cols": 5, "holes": []}
    assert data["start"] == [4, 0] and data["end"] is None and data["closed"] is False
    assert data["tour"][0] == [4, 0] and len(data["tour"]) == 25
    assert data["proof"] is None
    validate(Board(5, 5), data["tour"], start="a1")


def test_svg_is_well_formed():
    res = invoke(["solve", "6x6", "--holes", "a1", "--method", "warnsdorff", "--seed", "1", "--format", "svg"], 0)
    root = ET.fromstring(res.stdout)
    assert root.tag.endswith("svg")


def test_output_file(tmp_path):
    f = tmp_path / "t.json"
    res = invoke(["solve", "8x8", "--method", "warnsdorff", "--seed", "4", "--format", "json", "-o", str(f)], 0)
    assert res.stdout == ""
    data = json.loads(f.read_text())
    validate(Board(8, 8), data["tour"])
    invoke(["verify", "8x8", str(f)], 0)


def test_board_file(tmp_path):
    f = tmp_path / "board.txt"
    f.write_text("; a 5x5 board with a corner removed\n#....\n.....\n.....\n.....\n.....\n")
    res = invoke(["solve", str(f), "--closed", "--method", "backtrack"], 0)
    tour, _ = parse_tour_text(Board.parse(f.read_text()), res.stdout)
    validate(Board(5, 5, holes=[(0, 0)]), tour, closed=True)


def test_same_seed_same_output():
    a = invoke(["solve", "10x10", "--holes", "e5", "--method", "warnsdorff", "-p", "rule=random", "--seed", "9"], 0)
    b = invoke(["solve", "10x10", "--holes", "e5", "--method", "warnsdorff", "-p", "rule=random", "--seed", "9"], 0)
    assert a.stdout == b.stdout


# ---------------------------------------------------------------------- exit 1
@pytest.mark.parametrize(
    "args, argument",
    [
        (["4x4", "--method", "backtrack"], "exhaustive search"),  # the quick proofs cannot see it
        (["3x6", "--method", "backtrack"], "2-factor"),  # the presolve's 2-factor proof sees it
        # the matching proof runs before the method on holed boards: b4, c1 and a3, d2 are two pairs of dark
        # squares that each hold an end (the cut proofs after it would show toughness: taking out b2 and c3
        # leaves four parts)
        (["4x4", "--holes", "0,3;1,1;2,2;3,0", "--start", "a4", "--method", "backtrack"], "tight sets"),
        (["5x6", "--holes", "1,2;2,1", "--start", "0,0"], "colour parity"),
        (["5x5", "--closed"], "colour parity"),
        (["5x5", "--closed", "--method", "backtrack"], "colour parity"),
    ],
)
def test_proved_impossible(args, argument):
    res = invoke(["solve", *args, "--format", "json"], 1)
    data = json.loads(res.stdout)
    assert data["status"] == "infeasible" and data["tour"] is None
    assert data["certificate"]["argument"] == argument
    text = invoke(["solve", *args], 1)
    assert text.stdout.startswith("no tour: ")


def test_auto_proves_what_quick_proofs_cannot():
    # 4x4: balanced colours, no square with fewer than two neighbours, connected
    res = invoke(["solve", "4x4", "--format", "json"], 1)
    data = json.loads(res.stdout)
    assert data["status"] == "infeasible" and data["method"] != "proofs"
    assert data["certificate"]["argument"] not in ("colour parity", "degree", "connectivity", "size")


# ---------------------------------------------------------------------- exit 3
@pytest.mark.parametrize(
    "args",
    [
        ["8x8", "--method", "backtrack", "-p", "max_nodes=10"],
        # 4x4 has no open tour and no presolve proof sees it (3x6, used before, the 2-factor proof refutes)
        ["4x4", "--method", "warnsdorff", "-p", "restarts=3", "--seed", "1"],
        ["4x4", "--method", "warnsdorff", "--time-limit", "0.05", "--seed", "2"],
    ],
)
def test_unknown(args):
    res = invoke(["solve", *args], 3)
    assert res.stdout.startswith("unknown: ")
    res = invoke(["solve", *args, "--format", "json"], 3)
    data = json.loads(res.stdout)
    assert data["status"] == "unknown" and data["stats"]["reason"]


# ---------------------------------------------------------------------- exit 2
BAD = [
    (["0x8"], "at least one row"),
    (["8x0"], "at least one row"),
    (["--", "-3x8"], "at least one row"),
    (["axb"], "not of the form"),
    (["8xb"], "not of the form"),
    (["20000x20000"], "at most"),
    (["8x8", "--holes", "i9"], "outside"),
    (["8x8", "--holes", "9,0"], "outside"),
    (["8x8", "--start", "i1"], "outside"),
    (["8x8", "--end", "0,8"], "outside"),
    (["8x8", "--holes", "a1", "--start", "a1"], "hole"),
    (["8x8", "--holes", "a1,h8", "--end", "h8"], "hole"),
    (["8x8", "--start", "1a"], "not a square name"),
    (["8x8", "--holes", "a1,??"], "not a square name"),
    (["8x8", "--method", "nope"], "nope"),
    (["8x8", "--method", "warnsdorff", "-p", "rule=squirrel", "--closed"], "squirrel"),
    (["8x9", "--method", "warnsdorff", "-p", "rule=squirrel"], "squirrel"),
    (["8x8", "--method", "warnsdorff", "-p", "rule=bogus"], "rule"),
    (["8x8", "--method", "warnsdorff", "-p", "colour=red"], "no parameter"),
    (["8x8", "--method", "backtrack", "-p", "max_nodes=-1"], "max_nodes"),
    (["8x8", "-p", "rule=roth"], "auto"),
]


@pytest.mark.parametrize("args, message", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, args, message):
    out = tmp_path / "out.txt"
    res = invoke(["solve", "-o", str(out), *args], 2)
    assert res.stdout == ""
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ktsolve: error: ")
    assert message in lines[0]
    assert "Traceback" not in res.stderr
    assert not out.exists()
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    "text, message",
    [("", "no rows"), ("\n; only a comment\n", "no rows"), ("...\n..\n", "same length"), ("..z\n", "'z'")],
)
def test_bad_board_files(tmp_path, text, message):
    f = tmp_path / "board.txt"
    f.write_text(text)
    res = invoke(["solve", str(f)], 2)
    assert res.stdout == "" and message in res.stderr and len(res.stderr.strip().splitlines()) == 1


def test_negative_size_without_separator_is_still_bad_input():
    # click reads "-3x8" as an option; the answer is still one line and exit 2
    res = invoke(["solve", "-3x8"], 2)
    assert res.stdout == "" and len(res.stderr.strip().splitlines()) == 1


def test_missing_board_file():
    res = invoke(["solve", "no/such/board.txt"], 2)
    assert "does not exist" in res.stderr


# ---------------------------------------------------------------------- the text renderer
def _plain_matrix_text(tour):
    """Euler's matrix formatted cell by cell (the fast renderer must print exactly this)."""
    mat = tour.board_matrix()
    width = max(2, len(str(len(tour))))
    lines = []
    for r in range(tour.board.rows):
        cells = [("#" * width) if not tour.board.mask[r, c] else str(mat[r, c]).rjust(width)
                 for c in range(tour.board.cols)]
        lines.append(" ".join(cells))
    return "\n".join(lines)


@pytest.mark.parametrize(
    "board",
    [Board(1, 1), Board(3, 3, holes=[(1, 1)]), Board(4, 5), Board(12, 9, holes=[(0, 0), (5, 4)]),
     Board(32, 33), Board(101, 100, holes=[(50, 50)])],
    ids=lambda b: f"{b.rows}x{b.cols}-{b.n_holes}-holes",
)
def test_text_matrix_matches_plain_formatting(board):
    from ktsolve import solve
    from ktsolve.render import tour_matrix_text

    res = solve(board, method="warnsdorff", seed=1)
    assert res.found
    assert tour_matrix_text(res.tour) == _plain_matrix_text(res.tour)


def test_text_matrix_of_a_partial_path():
    from ktsolve import Tour
    from ktsolve.render import tour_matrix_text

    path = Tour(Board(4, 5, holes=[(0, 0)]), [0, 8, 11], closed=False)  # squares never visited show 0
    assert tour_matrix_text(path) == _plain_matrix_text(path)


# ---------------------------------------------------------------------- output paths
@pytest.mark.parametrize(
    "command",
    [
        ["solve", "5x5", "--method", "warnsdorff"],
        ["prove", "5x5"],
        ["longest", "4x4", "--start", "a1"],
        ["enumerate", "5x5", "--cycles", "1"],
    ],
    ids=lambda c: c[0],
)
@pytest.mark.parametrize("where", ["missing directory", "a directory"])
def test_unwritable_output_is_refused_before_any_work(tmp_path, command, where):
    target = tmp_path / "no" / "such" / "out.txt" if where == "missing directory" else tmp_path
    before = sorted(p.name for p in tmp_path.iterdir())
    res = invoke([*command, "-o", str(target)], 2)
    lines = res.stderr.strip().splitlines()
    assert res.stdout == "" and len(lines) == 1 and lines[0].startswith("ktsolve: error: ")
    assert ("does not exist" if where == "missing directory" else "is a directory") in lines[0]
    assert "found" not in res.stderr and "Traceback" not in res.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_a_failed_write_is_one_line(tmp_path, monkeypatch):
    # a disk that fills up while the output is written: one line naming the user's path, exit 2,
    # no traceback, and neither the file nor a temporary file left behind
    out = tmp_path / "t.json"

    def disk_full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("ktsolve.output.os.fsync", disk_full)
    res = invoke(["solve", "5x5", "--method", "warnsdorff", "--seed", "1", "--format", "json", "-o", str(out)], 2)
    assert res.stderr.strip().splitlines()[-1] == f"ktsolve: error: No space left on device: '{out}'"
    assert "Traceback" not in res.stderr and not out.exists()
    assert list(tmp_path.iterdir()) == []


def test_one_square_board_is_a_tour_of_one_square():
    res = invoke(["solve", "1x1"], 0)
    assert res.stdout.split() == ["1"] and "open tour of 1 square with" in res.stderr
