"""``ktsolve census``: a run, a resume, the summary and pictures, and bad input (exit 2, nothing written)."""

from __future__ import annotations

import json

import pytest

from conftest import invoke


@pytest.fixture(scope="module")
def done(tmp_path_factory):
    """A finished 5x5 --remove 1 --both census and its command-line output."""
    path = tmp_path_factory.mktemp("census") / "r.jsonl"
    res = invoke(["census", "5x5", "--remove", "1", "--both", "-o", path, "--seed", "2", "--workers", "1"])
    return path, res


def test_run_prints_counts_and_summary(done):
    path, res = done
    assert "5x5 --remove 1, open and closed tours: 25 boards, 6 up to the 8 symmetries of the board; " \
           "12 questions" in res.stderr
    assert "census seed 2" in res.stderr and "12 questions answered" in res.stderr
    out = res.stdout
    assert out.startswith("5x5 --remove 1, open and closed tours (seed 2)")
    assert "12 of 12 questions answered" in out
    found = next(line for line in out.splitlines() if line.startswith("found"))
    # open: the 13 squares of the corners' colour (the others leave 13 + 11 squares); closed: the corners
    assert found.split()[1:] == ["4", "13", "1", "4"]
    assert "colour parity" in out


def test_same_command_resumes_and_asks_nothing(done):
    path, _ = done
    before = path.read_bytes()
    res = invoke(["census", "5x5", "--remove", "1", "--both", "-o", path, "--workers", "1"])
    assert "resuming" in res.stderr and "12 answered, 0 to ask" in res.stderr
    assert "already answered" in res.stderr
    assert path.read_bytes() == before


def test_another_census_on_the_same_file_is_refused(done):
    path, _ = done
    before = path.read_bytes()
    res = invoke(["census", "5x5", "--remove", "2", "--both", "-o", path], code=2)
    assert res.stderr.count("\n") == 1
    assert "holds another census: 5x5 --remove 1, open and closed tours (seed 2), not 5x5 --remove 2" in res.stderr
    assert path.read_bytes() == before


def test_summary_text_json_and_pictures(done, tmp_path):
    path, res = done
    again = invoke(["census", "--summary", path])
    assert again.stdout == res.stdout
    data = json.loads(invoke(["census", "--summary", path, "--format", "json"]).stdout)
    assert data["questions"] == 12 and data["boards_before"] == 25 and data["symmetries"] == 8
    assert data["modes"]["closed"]["status"]["found"] == {"questions": 1, "boards": 4}
    svg = tmp_path / "map.svg"
    invoke(["census", "--summary", path, "--plot", svg])
    text = svg.read_text()
    assert text.startswith("<svg") and text.rstrip().endswith("</svg>")
    assert text.count("<title>") == 2 * 25  # one square of each board map per mode
    assert text.count("found, tour by") == 13 + 4
    assert text.count("infeasible, colour parity") == 12 + 12
    pytest.importorskip("matplotlib")
    png = tmp_path / "map.png"
    invoke(["census", "--summary", path, "--plot", png])
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_remove_two_summary_by_distance_and_colour(tmp_path):
    path = tmp_path / "r2.jsonl"
    res = invoke(["census", "6x6", "--remove", "2", "--closed", "-o", path, "--seed", "1", "--workers", "1",
                  "--plot", tmp_path / "pairs.svg"])
    lines = res.stdout.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith("boards by the two removed squares"))
    rows = [ln.split() for ln in lines[start + 3:] if ln.strip()]
    assert rows and all(r[1] == ("same" if int(r[0]) % 2 == 0 else "opposite") for r in rows)
    assert sum(int(x) for r in rows for x in r[2:]) == 630  # every way to remove two squares of 6x6
    assert all(r[2] == "0" for r in rows if r[1] == "same")  # colour parity: no closed tour
    assert "<svg" in (tmp_path / "pairs.svg").read_text()


def test_results_file_can_be_asked_again_as_a_question_file(done, tmp_path):
    path, _ = done
    res = invoke(["census", "--from", path, "-o", tmp_path / "again.jsonl", "--workers", "1"])
    assert "--from r.jsonl (12 questions)" in res.stderr
    assert "12 of 12 questions answered" in res.stdout


def test_random_family(tmp_path):
    path = tmp_path / "rand.jsonl"
    res = invoke(["census", "8x8", "--random", "4", "--holes", "2", "--closed", "--seed", "3", "-o", path,
                  "--workers", "1"])
    assert "8x8 --random 4 --holes 2, closed tours: 4 questions" in res.stderr
    again = invoke(["census", "8x8", "--random", "4", "--holes", "2", "--closed", "-o", path, "--workers", "1"])
    assert "4 answered, 0 to ask" in again.stderr


@pytest.fixture
def bad_from(tmp_path):
    p = tmp_path / "bad.jsonl"
    p.write_text('{"board": "5x5"}\n{"board": "5x5", "holes": "q99"}\n')
    return p


BAD = [
    ([], "give one family"),
    (["5x5", "--remove", "1", "--starts"], "give one family"),
    (["5x5", "--remove", "1", "--open", "--closed", "--bogus", "-o", "OUT"], "--bogus"),
    (["5x5", "--remove", "1"], "give -o FILE"),
    (["--remove", "1", "-o", "OUT"], "needs a BOARD"),
    (["5x5", "--remove", "0", "-o", "OUT"], "--remove"),
    (["5x5", "--remove", "25", "-o", "OUT"], "remove = 25 must be from 1 to 24"),
    (["-3x5", "--remove", "1", "-o", "OUT"], "at least one row"),
    (["5x5", "--holes", "z9", "--remove", "1", "-o", "OUT"], "outside"),
    (["5x5", "--random", "3", "-o", "OUT"], "needs --holes"),
    (["8x8", "--random", "3", "--holes", "many", "-o", "OUT"], "not a number of holes"),
    (["3x3", "--random", "2", "--holes", "1", "-o", "OUT"], "too small"),
    (["5x5", "--remove", "1", "--time-limit", "0", "-o", "OUT"], "--time-limit"),
    (["5x5", "--remove", "1", "--workers", "0", "-o", "OUT"], "--workers"),
    (["5x5", "--remove", "1", "-o", "OUT", "--plot", "PIC.pdf"], "not '.pdf'"),
    (["--from", "MISSING", "-o", "OUT"], "cannot read question file"),
    (["--from", "BADFROM", "-o", "OUT"], "line 2 of"),
    (["5x5", "--from", "BADFROM", "-o", "OUT"], "give no BOARD"),
    (["--summary", "MISSING"], "does not exist"),
    (["--summary", "NOTES"], "not a census results file"),
    (["--summary", "NOTES", "--remove", "1"], "drop --remove"),
]


@pytest.mark.parametrize("args, message", BAD, ids=[" ".join(map(str, a)) or "nothing" for a, _ in BAD])
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, bad_from, args, message):
    out = tmp_path / "out.jsonl"
    notes = tmp_path / "notes.txt"
    notes.write_text("not a census\n")
    subst = {"OUT": out, "PIC.pdf": tmp_path / "pic.pdf", "MISSING": tmp_path / "missing.jsonl",
             "BADFROM": bad_from, "NOTES": notes}
    res = invoke(["census", *[subst.get(a, a) for a in args]], code=2)
    assert res.stderr.startswith("ktsolve: error:") and res.stderr.count("\n") == 1, res.stderr
    assert message in res.stderr
    assert not out.exists() and not (tmp_path / "pic.pdf").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.jsonl", "notes.txt"]
    assert notes.read_text() == "not a census\n"


def test_the_output_help_says_what_census_accepts():
    """census refuses '-', devices and pipes: its -o help must not promise them (it is not the shared text)."""
    text = " ".join(invoke(["census", "--help"]).stdout.split())
    assert "'-' is standard output" not in text and "written through" not in text
    assert "regular file" in text and "refused" in text
