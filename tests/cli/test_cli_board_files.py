"""Board files that mark the start and end (S, E), on the command line.

The library reads them (``Board.read_file``); every command that takes a
board uses the file's squares unless ``--start``/``--end`` name others, and
a board file that reads, but perhaps not as meant, gets one warning line
per note.
"""

from __future__ import annotations

import json

from click.testing import CliRunner
from conftest import invoke

from ktsolve.cli import cli

# 5x5 with S at a1's row 4 col 0 (a1) and no end; a 5x5 open tour from a corner exists.
FROM_A1 = "\n".join([".....", ".....", ".....", ".....", "S...."]) + "\n"
# the same board with E on e5 (row 0, col 4): corner to corner on 5x5 (both light)
A1_TO_E5 = "\n".join(["....E", ".....", ".....", ".....", "S...."]) + "\n"


def _tour(res) -> list:
    return json.loads(res.stdout)["tour"]


def test_solve_starts_at_the_files_S(tmp_path):
    path = tmp_path / "board.txt"
    path.write_text(FROM_A1)
    res = invoke(["solve", path, "--format", "json", "--seed", "1"])
    assert _tour(res)[0] in ("a1", [4, 0])


def test_start_option_overrides_the_file(tmp_path):
    path = tmp_path / "board.txt"
    path.write_text(FROM_A1)
    res = invoke(["solve", path, "--format", "json", "--seed", "1", "--start", "e1"])
    assert _tour(res)[0] in ("e1", [4, 4])


def test_solve_ends_at_the_files_E(tmp_path):
    path = tmp_path / "board.txt"
    path.write_text(A1_TO_E5)
    tour = _tour(invoke(["solve", path, "--format", "json", "--seed", "1"]))
    assert tour[0] in ("a1", [4, 0]) and tour[-1] in ("e5", [0, 4])


def test_verify_holds_a_tour_to_the_files_start(tmp_path):
    path = tmp_path / "board.txt"
    path.write_text(FROM_A1)
    tour = _tour(invoke(["solve", "5x5", "--format", "json", "--seed", "1", "--start", "e1"]))
    (tmp_path / "t.json").write_text(json.dumps({"tour": tour}))
    res = invoke(["verify", path, tmp_path / "t.json"], 1)
    assert "a1" in res.stdout + res.stderr


def test_a_note_is_one_warning_line(tmp_path):
    path = tmp_path / "board.txt"
    # x beside S: Rosetta's strings use x for squares, so this board may be the complement
    path.write_text("\n".join(["xxxxx", "xxxxx", ".....", ".....", "S...."]) + "\n")
    out = CliRunner().invoke(cli, ["prove", str(path), "--time-limit", "5"])
    warnings = [line for line in out.stderr.splitlines() if line.startswith("ktsolve: warning: ")]
    assert warnings, out.stderr
    assert "Traceback" not in out.stderr and "BoardFileWarning" not in out.stderr
