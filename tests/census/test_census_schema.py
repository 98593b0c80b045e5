"""Results files that are valid JSON but break the schema: refused in one line, by resume and summary alike.

Each case edits one line of a small finished census (or its header) and
checks that ``read_results`` (the reader of resume and of ``--summary``)
refuses it naming the file, the line and the field, that ``ktsolve census
--summary`` says so in one line with exit 2, and that resuming leaves the
file as it was.
"""

from __future__ import annotations

import json

import pytest

from ktsolve.census import census, read_results, summarize
from ktsolve.census import CensusFileError

from conftest import invoke

CENSUS = dict(starts=True, seed=3, workers=1, time_limit=10)


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """The lines of a finished 3x4 --starts census (header, run, 4 answers, run end)."""
    path = tmp_path_factory.mktemp("schema") / "r.jsonl"
    census("3x4", output=path, **CENSUS)
    return path.read_text().splitlines()


def _answer_line(lines) -> int:
    return next(i for i, line in enumerate(lines) if '"index"' in line)


def _edit_record(lines, **change):
    out = list(lines)
    k = _answer_line(out)
    rec = json.loads(out[k])
    rec.update(change)
    out[k] = json.dumps(rec)
    return out, k + 1


def _raw_record(lines, text):
    out = list(lines)
    k = _answer_line(out)
    out[k] = text
    return out, k + 1


def _edit_header(lines, **change):
    out = list(lines)
    head = json.loads(out[0])
    head.update(change)
    out[0] = json.dumps(head)
    return out, 1


def _edit_run_end(lines, **change):
    out = list(lines)
    k = next(i for i, line in enumerate(out) if '"run_end"' in line)
    rec = json.loads(out[k])
    rec.update(change)
    out[k] = json.dumps(rec)
    return out, k + 1


CASES = {
    "line 5": (lambda ls: _raw_record(ls, "5"), "a line must be a JSON object"),
    "line null": (lambda ls: _raw_record(ls, "null"), "a line must be a JSON object"),
    "line list": (lambda ls: _raw_record(ls, "[1, 2]"), "a line must be a JSON object"),
    "no kind": (lambda ls: _raw_record(ls, '{"hello": 1}'), "a line must be an answer"),
    "index text": (lambda ls: _edit_record(ls, index="abc"), "index must be a whole number from 0 to 3"),
    "index 1e400": (lambda ls: _raw_record(ls, ls[_answer_line(ls)].replace('"index":0', '"index":1e400')),
                    "index must be a whole number"),
    "index too big": (lambda ls: _edit_record(ls, index=99999999), "index must be a whole number from 0 to 3, not 99999999"),
    "index negative": (lambda ls: _edit_record(ls, index=-1), "index must be"),
    "index bool": (lambda ls: _edit_record(ls, index=True), "index must be"),
    "status": (lambda ls: _edit_record(ls, status="maybe"), "status must be one of found, infeasible, unknown"),
    "status list": (lambda ls: _edit_record(ls, status=["found"]), "status must be one of"),
    "orbit text": (lambda ls: _edit_record(ls, orbit="x"), "orbit must be a whole number from 1 to 8"),
    "orbit huge": (lambda ls: _edit_record(ls, orbit=10**30), "orbit must be"),
    "orbit zero": (lambda ls: _edit_record(ls, orbit=0), "orbit must be"),
    "seconds text": (lambda ls: _edit_record(ls, seconds="fast"), "seconds must be a number of seconds"),
    "seconds negative": (lambda ls: _edit_record(ls, seconds=-3), "seconds must be"),
    "seconds inf": (lambda ls: _raw_record(ls, ls[_answer_line(ls)].replace('"seconds":', '"seconds":1e400,"x":')),
                    "seconds must be"),
    "reason number": (lambda ls: _edit_record(ls, status="unknown", reason=5), "reason must be text or null"),
    "closed text": (lambda ls: _edit_record(ls, closed="yes"), "closed must be true or false"),
    "board missing": (lambda ls: _edit_record(ls, board=None), "board must be an object"),
    "hole off board": (lambda ls: _edit_record(ls, board={"rows": 3, "cols": 4, "holes": [[7, 7]]}),
                       r"board.holes holds square \[7, 7\], off the 3x4 board"),
    "hole not pair": (lambda ls: _edit_record(ls, board={"rows": 3, "cols": 4, "holes": [[1]]}),
                      "board.holes must hold"),
    "start off board": (lambda ls: _edit_record(ls, start=[0, 40]), "start holds square"),
    "wall_s text": (lambda ls: _edit_run_end(ls, wall_s="long"), "wall_s must be a number of seconds"),
    "wall_s negative": (lambda ls: _edit_run_end(ls, wall_s=-1.0), "wall_s must be"),
    "header identity": (lambda ls: _edit_header(ls, identity=5), "identity must be an object"),
    "header family": (lambda ls: _edit_header(ls, identity={"family": "x", "seed": 3}), "identity.family must be"),
    "header modes": (lambda ls: _edit_header(ls, identity={**json.loads(ls[0])["identity"],
                                                           "family": {**json.loads(ls[0])["identity"]["family"],
                                                                      "modes": 7}}),
                     "identity.family.modes must be one of"),
    "header board hole": (lambda ls: _edit_header(ls, identity={**json.loads(ls[0])["identity"],
                                                                "family": {**json.loads(ls[0])["identity"]["family"],
                                                                           "board": {"rows": 3, "cols": 4,
                                                                                     "holes": [[9, 0]]}}}),
                          "identity.family.board.holes holds square"),
    "header questions": (lambda ls: _edit_header(ls, questions="many"), "questions must be a whole number"),
    "header questions huge": (lambda ls: _edit_header(ls, questions=1e400), "questions must be a whole number"),
    "header symmetries": (lambda ls: _edit_header(ls, symmetries="x"), "symmetries must be"),
    "header boards_after": (lambda ls: _edit_header(ls, boards_after="x"), "boards_after must be"),
}


def _write(tmp_path, case, finished):
    lines, no = CASES[case][0](finished)
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path, no


@pytest.mark.parametrize("case", sorted(CASES))
def test_read_results_names_file_line_and_field(tmp_path, finished, case):
    path, no = _write(tmp_path, case, finished)
    with pytest.raises(CensusFileError, match=CASES[case][1]) as err:
        summarize(read_results(path))
    msg = str(err.value)
    assert msg.startswith(f"{str(path)!r} line {no}: ") and "\n" not in msg and len(msg) < 300


@pytest.mark.parametrize("case", ["line 5", "index too big", "hole off board", "header identity", "wall_s text"])
def test_summary_and_resume_refuse_in_one_line(tmp_path, finished, case):
    path, no = _write(tmp_path, case, finished)
    before = path.read_bytes()
    res = invoke(["census", "--summary", path], code=2)
    assert res.stdout == "" and res.stderr.count("\n") == 1 and f"line {no}:" in res.stderr
    res = invoke(["census", "3x4", "--starts", "--seed", "3", "--workers", "1", "-o", path], code=2)
    assert res.stderr.count("\n") == 1 and f"line {no}:" in res.stderr
    assert path.read_bytes() == before


def test_the_untouched_file_passes(tmp_path, finished):
    path = tmp_path / "good.jsonl"
    path.write_text("\n".join(finished) + "\n")
    s = summarize(read_results(path))
    assert s.answered == s.questions == 4


def test_a_line_past_the_byte_budget_is_refused(tmp_path, finished, monkeypatch):
    from ktsolve.census import store

    monkeypatch.setattr(store, "MAX_LINE_BYTES", 1000)
    lines = list(finished)
    k = _answer_line(lines)
    rec = json.loads(lines[k])
    rec["padding"] = "x" * 5000
    lines[k] = json.dumps(rec)
    path = tmp_path / "long.jsonl"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(CensusFileError, match=f"line {k + 1} is longer than 1,000 bytes"):
        read_results(path)


def test_a_fifo_is_refused_without_opening_it_for_long(tmp_path):
    import os

    fifo = tmp_path / "r.fifo"
    os.mkfifo(fifo)
    with pytest.raises(CensusFileError, match="is not a regular file"):
        read_results(fifo)  # O_NONBLOCK: no writer needed, no hang
