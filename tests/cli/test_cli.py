"""CLI tests for verify, methods and bench, and the bad-input contract shared by every command."""

import json

import pytest

from conftest import invoke

OPEN_3X4 = "a3 c2 a1 b3 d2 b1 c3 d1 b2 d3 c1 a2"
RING_3X3 = "a3 c2 a1 b3 c1 a2 c3 b1"


@pytest.fixture
def tour_file(tmp_path):
    def make(text, name="tour.txt"):
        p = tmp_path / name
        p.write_text(text)
        return p

    return make


def test_version_and_help():
    assert "ktsolve" in invoke(["--version"]).stdout
    assert "solve" in invoke(["--help"]).stdout
    assert "Usage" in invoke([]).stdout


def test_verify_valid_forms(tour_file, tmp_path):
    import numpy as np

    from ktsolve import Board, Tour

    b = Board(3, 4)
    t = Tour.from_names(b, OPEN_3X4.split())
    forms = {
        "names.txt": OPEN_3X4,
        "commas.txt": OPEN_3X4.replace(" ", ","),
        "pairs.txt": "\n".join(f"{r},{c}" for r, c in t.coords.tolist()),
        "tour.json": json.dumps({"tour": t.coords.tolist(), "closed": False}),
        "list.json": json.dumps(OPEN_3X4.split()),
        "matrix.txt": "\n".join(" ".join(f"{v:2d}" for v in row) for row in t.board_matrix()),
    }
    for name, text in forms.items():
        res = invoke(["verify", "3x4", tour_file(text, name)])
        assert res.stdout.startswith("valid: open tour of 12 squares"), name
    np.save(tmp_path / "t.npy", t.squares)
    invoke(["verify", "3x4", tmp_path / "t.npy"])
    np.save(tmp_path / "c.npy", t.coords)
    invoke(["verify", "3x4", tmp_path / "c.npy"])


def test_verify_closed_and_holes(tour_file):
    f = tour_file(RING_3X3)
    assert "closed tour of 8" in invoke(["verify", "3x3", f, "--holes", "b2", "--closed"]).stdout
    assert "closed tour" in invoke(["verify", "3x3", f, "--holes", "1,1", "--closed", "--start", "a3"]).stdout
    # The JSON's own 'closed' flag is honoured.
    f2 = tour_file(json.dumps({"tour": RING_3X3.split(), "closed": True}), "r.json")
    assert "closed" in invoke(["verify", "3x3", f2, "--holes", "b2"]).stdout


@pytest.mark.parametrize(
    "args, text, fault",
    [
        ([], OPEN_3X4.replace("c2", "b2", 1), "illegal move at step 2"),
        ([], " ".join(OPEN_3X4.split()[:-1]), "square a2 is never visited"),
        (["--closed"], OPEN_3X4, "not closed"),
        (["--start", "a1"], OPEN_3X4, "not on the required start a1"),
        (["--end", "a1"], OPEN_3X4, "not on the required end a1"),
        ([], OPEN_3X4 + " a3", "visited twice"),
        ([], OPEN_3X4.replace("c2", "z9", 1), "outside the 3x4 board"),
    ],
)
def test_verify_invalid_exit_1(tour_file, args, text, fault):
    res = invoke(["verify", "3x4", tour_file(text), *args], code=1)
    assert res.stdout.startswith("invalid:") and fault in res.stdout


def test_verify_hole_step_is_invalid(tour_file):
    res = invoke(["verify", "3x3", tour_file("a3 b2"), "--holes", "b2"], code=1)
    assert "b2 is a hole" in res.stdout


@pytest.mark.parametrize(
    "text, problem",
    [
        ("", "empty"),
        ("hello world", "not a list of squares"),
        ("{not json", "not valid JSON"),
        ('{"status": "found"}', "no 'tour'"),
        ("[1, 2, 3]", "neither"),
    ],
)
def test_verify_not_a_tour_exit_2(tour_file, text, problem):
    res = invoke(["verify", "3x4", tour_file(text)], code=2)
    assert problem in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1 and "Traceback" not in res.stderr


def test_verify_missing_file_exit_2(tmp_path):
    res = invoke(["verify", "3x4", tmp_path / "nope.txt"], code=2)
    assert "cannot read tour file" in res.stderr


def test_binary_tour_and_board_files_are_named_as_not_text(tmp_path):
    f = tmp_path / "junk.bin"
    f.write_bytes(b"\x00\xff\xfe\x80")
    res = invoke(["verify", "3x4", f], code=2)
    assert res.stderr.strip() == f"ktsolve: error: cannot read tour file '{f}': not UTF-8 text"
    res = invoke(["solve", f], code=2)
    assert res.stderr.strip() == f"ktsolve: error: cannot read board file '{f}': not UTF-8 text"


@pytest.mark.parametrize(
    "args, problem",
    [
        (["verify", "0x4", "t"], "at least one row"),
        (["verify", "ax4", "t"], "not of the form"),
        (["verify", "3x4", "t", "--start", "q"], "not a square name"),
        (["verify", "3x4", "t", "--start", "e1"], "outside the 3x4 board"),
        (["verify", "3x4", "t", "--holes", "a1", "--start", "a1"], "on a hole"),
        (["verify", "3x4", "t", "--holes", "e5"], "hole e5 is outside"),
        (["verify", "missing.txt", "t"], "does not exist"),
        (["frobnicate"], "No such command"),
        (["solve", "-3x8"], "board size -3x8 must have at least one row"),
        (["prove", "-3x-8", "--closed"], "at least one row"),
        (["solve", "8x8", "--frobnicate"], "No such option '--frobnicate'"),
        (["verify", "3x4"], "Missing argument"),
        (["methods", "--format", "xml"], "Invalid value for '--format'"),
        (["bench", "papers", "--section", "nope"], "no section 'nope'"),
    ],
)
def test_bad_input_is_one_line_exit_2(args, problem):
    res = invoke(args, code=2)
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith("ktsolve: error:") and problem in lines[0]
    assert res.stdout == ""


def test_board_file_argument(tmp_path, tour_file):
    board = tmp_path / "b.txt"
    board.write_text("...\n.#.\n...\n")
    assert "closed tour" in invoke(["verify", board, tour_file(RING_3X3), "--closed"]).stdout
    ragged = tmp_path / "r.txt"
    ragged.write_text("...\n..\n")
    assert "every row must be the same length" in invoke(["verify", ragged, "t"], code=2).stderr
    empty = tmp_path / "e.txt"
    empty.write_text("\n; nothing\n")
    assert "no rows" in invoke(["verify", empty, "t"], code=2).stderr


def test_board_from_stdin(tour_file):
    res = invoke(["verify", "-", tour_file(RING_3X3), "--closed"], input="...\n.#.\n...\n")
    assert "closed tour of 8" in res.stdout


def test_methods_table_lists_registry():
    from ktsolve import methods

    text = invoke(["methods"]).stdout
    assert text.splitlines()[0].split()[:3] == ["method", "family", "holes"]
    for name in methods():
        assert any(line.split()[0] == name for line in text.splitlines()[1:])
    rows = json.loads(invoke(["methods", "--format", "json"]).stdout)
    assert [r["name"] for r in rows] == list(methods())


def test_a_huge_error_message_is_clipped_to_one_bounded_line(monkeypatch):
    """An exception whose message is 10 MB still makes one ``ktsolve: error:`` line of bounded length."""
    from ktsolve.cli import answers
    from ktsolve.cli import solve as solve_cli
    from ktsolve.errors import InvalidBoardError

    def hostile(*args, **kwargs):
        raise InvalidBoardError("x" * 10_000_000)

    monkeypatch.setattr(solve_cli, "load_question", hostile)
    res = invoke(["solve", "5x5"], code=2)
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("ktsolve: error: xxx") and lines[0].endswith("…")
    assert len(lines[0]) <= len("ktsolve: error: ") + answers.ONE_LINE_MAX
    assert answers.one_line("a\n  b") == "a b" and len(answers.one_line(" y" * 10**6)) == answers.ONE_LINE_MAX
