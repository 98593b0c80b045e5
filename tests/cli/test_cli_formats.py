"""Formats on a user's first day (issue 31): gzip read back everywhere, the format named by the output's name.

* every reader takes a gzip-compressed file for every format it reads
  (``board random ... -o m.npy.gz`` reads back in solve and verify);
* ``-o NAME.EXT`` picks the format from the extension when ``--format`` is
  not given, refuses a contradiction in one line (exit 2), and refuses a
  format the command cannot write;
* ``prove --format npy`` writes a tour compactly (and nothing for a proof).
"""

from __future__ import annotations

import gzip
import json

import numpy as np
import pytest
from conftest import invoke

from ktsolve import Board
from ktsolve.cli.args import format_of_name


def _gzip(path, data: bytes):
    with gzip.open(path, "wb") as fh:
        fh.write(data)


# ---------------------------------------------------------------------- gzip read back
def test_a_gzipped_mask_reads_back_in_solve_and_verify(tmp_path):
    """The issue's reproduction: board random -o m50.npy.gz, then solve and verify read it."""
    mask = tmp_path / "m50.npy.gz"
    invoke(["board", "random", "50x50", "--seed", "1", "-o", mask])
    assert mask.read_bytes()[:2] == b"\x1f\x8b"
    tour = tmp_path / "t.npy.gz"
    invoke(["solve", mask, "-o", tour])
    assert tour.read_bytes()[:2] == b"\x1f\x8b"
    out = invoke(["verify", mask, tour])
    assert out.stdout.startswith("valid: open tour of ")
    plain = Board.read_file(mask).board
    assert plain.shape == (50, 50) and plain.n_holes > 0


def test_a_gzipped_text_board_and_a_gzipped_mask_read_as_the_plain_ones(tmp_path):
    text = "S..#\n....\n....\n#...\n"
    (tmp_path / "b.txt").write_text(text)
    _gzip(tmp_path / "b.txt.gz", text.encode())
    plain, zipped = Board.read_file(tmp_path / "b.txt"), Board.read_file(tmp_path / "b.txt.gz")
    assert plain == zipped
    mask = np.zeros((5, 6), dtype=bool)
    mask[0, 0] = mask[4, 5] = True
    np.save(tmp_path / "m.npy", mask)
    _gzip(tmp_path / "m.npy.gz", (tmp_path / "m.npy").read_bytes())
    assert Board.read_file(tmp_path / "m.npy.gz").board == Board.read_file(tmp_path / "m.npy").board
    # a gzip name is not needed: the content says gzip
    _gzip(tmp_path / "m.bin", (tmp_path / "m.npy").read_bytes())
    assert Board.read_file(tmp_path / "m.bin").board.n_holes == 2


def test_a_gzipped_mask_from_standard_input(tmp_path):
    mask = np.zeros((6, 6), dtype=bool)
    mask[2, 3] = True
    np.save(tmp_path / "m.npy", mask)
    data = gzip.compress((tmp_path / "m.npy").read_bytes())
    from click.testing import CliRunner

    from ktsolve.cli import cli

    res = CliRunner().invoke(cli, ["solve", "-", "--format", "json"], input=data)
    assert res.exit_code == 0, res.stderr
    assert json.loads(res.stdout)["board"]["holes"] == [[2, 3]]


def test_a_truncated_gzipped_mask_is_one_line(tmp_path):
    mask = np.zeros((40, 40), dtype=bool)
    np.save(tmp_path / "m.npy", mask)
    data = gzip.compress((tmp_path / "m.npy").read_bytes())
    (tmp_path / "cut.npy.gz").write_bytes(data[: len(data) // 2])
    res = invoke(["solve", tmp_path / "cut.npy.gz"], 2)
    assert len(res.stderr.splitlines()) == 1 and "gzip" in res.stderr


def test_a_gzipped_mask_that_claims_too_many_cells_is_refused_before_its_data(tmp_path):
    """The header is read through the inflation first: a claim past the largest board is refused unread."""
    header = "{'descr': '|b1', 'fortran_order': False, 'shape': (20000, 20000), }"
    header = header.ljust(128 - 10 - 1) + "\n"
    raw = b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode() + bytes(1 << 16)
    _gzip(tmp_path / "big.npy.gz", raw)
    res = invoke(["solve", tmp_path / "big.npy.gz"], 2)
    assert len(res.stderr.splitlines()) == 1 and "20,000" in res.stderr.replace("20000", "20,000")


def test_census_summary_reads_a_gzipped_results_file_and_resume_refuses_it(tmp_path):
    out = tmp_path / "r.jsonl"
    invoke(["census", "5x5", "--remove", "1", "-o", out, "--workers", "1", "--time-limit", "5"])
    plain = invoke(["census", "--summary", out]).stdout
    _gzip(tmp_path / "r.jsonl.gz", out.read_bytes())
    assert invoke(["census", "--summary", tmp_path / "r.jsonl.gz"]).stdout == plain
    gz = tmp_path / "g.jsonl"
    _gzip(gz, b"".join(out.read_bytes().splitlines(keepends=True)[:2]))  # the header and one answer
    before = gz.read_bytes()
    res = invoke(["census", "5x5", "--remove", "1", "-o", gz, "--workers", "1"], 2)
    assert "gzip" in res.stderr and res.stderr.splitlines()[-1].startswith("ktsolve: error:")
    assert gz.read_bytes() == before


# ---------------------------------------------------------------------- the extension names the format
@pytest.mark.parametrize("name, fmt", [("t.npy", "npy"), ("t.json", "json"), ("t.svg", "svg"), ("t.txt", "text"),
                                        ("t.html", "html"), ("t.npy.gz", "npy"), ("T.JSON", "json"),
                                        ("t.out", None), ("t", None), ("t.gz", None), ("-", None), (None, None),
                                        ("dir.json/t", None)])
def test_format_of_name(name, fmt):
    assert format_of_name(name) == fmt


@pytest.mark.parametrize("ext, check", [
    ("npy", lambda p: np.load(p).dtype == np.int32),
    ("json", lambda p: json.loads(p.read_text())["status"] == "found"),
    ("svg", lambda p: p.read_text().startswith("<svg")),
    ("html", lambda p: p.read_text().lstrip().lower().startswith("<!doctype html>")),
    ("txt", lambda p: p.read_text().split()[0].isdigit()),
])
def test_solve_picks_the_format_from_the_extension(tmp_path, ext, check):
    out = tmp_path / f"tour.{ext}"
    invoke(["solve", "6x6", "--seed", "1", "-o", out])
    assert check(out)
    if ext in ("npy", "json", "txt"):
        assert invoke(["verify", "6x6", out]).stdout.startswith("valid: ")


def test_a_gzipped_name_picks_the_format_under_the_gzip(tmp_path):
    out = tmp_path / "tour.json.gz"
    invoke(["solve", "6x6", "--seed", "1", "-o", out])
    assert json.loads(gzip.decompress(out.read_bytes()))["status"] == "found"


def test_a_contradiction_is_refused_in_one_line_and_nothing_is_written(tmp_path):
    out = tmp_path / "tour.npy"
    res = invoke(["solve", "6x6", "--format", "json", "-o", out], 2)
    assert len(res.stderr.splitlines()) == 1
    assert "--format json" in res.stderr and "tour.npy" in res.stderr
    assert not out.exists()


def test_an_extension_the_command_cannot_write_is_refused(tmp_path):
    res = invoke(["longest", "5x5", "--start", "a1", "-o", tmp_path / "p.npy"], 2)
    assert len(res.stderr.splitlines()) == 1 and "npy" in res.stderr
    assert not (tmp_path / "p.npy").exists()


def test_the_same_format_twice_and_unknown_extensions_are_fine(tmp_path):
    invoke(["solve", "6x6", "--seed", "1", "--format", "json", "-o", tmp_path / "a.json"])
    invoke(["solve", "6x6", "--seed", "1", "-o", tmp_path / "a.tour"])
    assert (tmp_path / "a.tour").read_text().split()[0].isdigit()  # text, the default
    invoke(["solve", "6x6", "--seed", "1", "--format", "json", "-o", tmp_path / "b.tour"])
    assert json.loads((tmp_path / "b.tour").read_text())["status"] == "found"


def test_board_random_picks_text_or_npy_from_the_name(tmp_path):
    invoke(["board", "random", "12x12", "--seed", "2", "-o", tmp_path / "b.txt"])
    assert set((tmp_path / "b.txt").read_text()) <= set(".#\n")
    invoke(["board", "random", "12x12", "--seed", "2", "-o", tmp_path / "b.npy"])
    assert np.load(tmp_path / "b.npy").dtype == bool
    res = invoke(["board", "random", "12x12", "--seed", "2", "--format", "npy", "-o", tmp_path / "c.txt"], 2)
    assert len(res.stderr.splitlines()) == 1 and not (tmp_path / "c.txt").exists()
    assert Board.read_file(tmp_path / "b.txt").board == Board.read_file(tmp_path / "b.npy").board


def test_longest_picks_json_from_the_name(tmp_path):
    invoke(["longest", "4x4", "--start", "a1", "-o", tmp_path / "p.json"])
    assert json.loads((tmp_path / "p.json").read_text())["path"]


# ---------------------------------------------------------------------- prove --format npy
def test_prove_writes_a_tour_as_npy(tmp_path):
    out = tmp_path / "t.npy"
    invoke(["prove", "6x6", "--seed", "1", "--format", "npy", "-o", out])
    assert np.load(out).shape == (36,)
    assert invoke(["verify", "6x6", out]).stdout.startswith("valid: ")
    invoke(["prove", "6x6", "--seed", "1", "-o", tmp_path / "u.npy"])  # by the name
    # the tour may differ: which timed step of prove's plan finds it first is not fixed by the seed
    assert np.load(tmp_path / "u.npy").shape == (36,)
    assert invoke(["verify", "6x6", tmp_path / "u.npy"]).stdout.startswith("valid: ")


def test_prove_npy_of_a_proof_writes_nothing_and_says_so(tmp_path):
    out = tmp_path / "t.npy"
    out.write_bytes(b"before")
    res = invoke(["prove", "4x4", "-o", out], 1)
    assert out.read_bytes() == b"before"
    assert "nothing was written" in res.stderr and "npy" in res.stderr


def test_board_read_npy_takes_a_gzipped_mask_and_census_from_a_gzipped_question_file(tmp_path):
    mask = np.zeros((5, 7), dtype=bool)
    mask[1, 2] = True
    np.save(tmp_path / "m.npy", mask)
    _gzip(tmp_path / "m.npy.gz", (tmp_path / "m.npy").read_bytes())
    assert Board.read_npy(tmp_path / "m.npy.gz") == Board.read_npy(tmp_path / "m.npy")
    questions = tmp_path / "q.jsonl.gz"
    _gzip(questions, (json.dumps({"board": "5x5", "holes": "a1"}) + "\n").encode())
    res = invoke(["census", "--from", questions, "-o", tmp_path / "r.jsonl", "--workers", "1", "--time-limit", "5"])
    assert "1 of 1 question answered" in res.stdout
