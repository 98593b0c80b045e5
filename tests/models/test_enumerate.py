"""Enumeration: the public function, the bulk tour check, the tours file and the CLI command."""

from __future__ import annotations

import gzip
import json

import numpy as np
import pytest

from conftest import invoke
from ktsolve import Board, TourSpec, validate
from ktsolve.errors import InvalidTourError, UnsupportedError
from ktsolve.files import parse_tour_text, write_tours
from ktsolve.heuristics._colony import DistinctTours
from ktsolve.registry import enumerating_methods
from ktsolve.solve import enumerate_tours
from ktsolve.tour import validate_many


def check_tours(board, tours, spec):
    validate_many(board, tours, closed=spec.closed, start=spec.start, end=spec.end)

STATS = {"walks", "complete", "distinct", "closed", "production_rate"}


def test_enumerating_methods():
    assert {"aco", "iaco"} <= set(enumerating_methods())


@pytest.mark.parametrize("method", ["aco", "iaco"])
def test_enumerate_tours_keeps_distinct_valid_tours(method):
    res = enumerate_tours("6x6", method, cycles=40, seed=2)
    st = res.stats
    assert STATS <= set(st) and res.method == method and res.seed == 2
    assert st["distinct"] == len(res.tours) > 0
    assert st["production_rate"] == pytest.approx(st["complete"] / st["walks"])
    assert len({t.tobytes() for t in res.tours}) == len(res.tours)
    for t in res.tours[:200]:
        validate(res.board, t)
    again = enumerate_tours("6x6", method, cycles=40, seed=2)
    assert np.array_equal(again.tours, res.tours) and again.stats == res.stats


def test_closed_start_and_end_requests():
    res = enumerate_tours("6x6", "aco", cycles=80, seed=1, closed=True, start="c3")
    assert res.stats["distinct"] > 0 and res.closed
    for t in res.tours:
        validate(res.board, t, closed=True, start="c3")
    assert res.stats["complete"] >= res.stats["closed"] >= res.stats["distinct"]
    end = res.board.name(*res.board.coords_of(res.tours[:1, -1])[0])
    ended = enumerate_tours("6x6", "aco", cycles=80, seed=1, closed=True, start="c3", end=end)
    assert 0 < len(ended.tours) <= len(res.tours)
    assert (ended.tours[:, -1] == res.tours[0, -1]).all()


def test_5x5_never_more_than_the_oracle(counts_oracle):
    total = next(c["value"] for c in counts_oracle["full"] if c["board"] == [5, 5] and c["kind"] == "open")
    res = enumerate_tours("5x5", "iaco", cycles=300, seed=1)
    assert 0 < res.stats["distinct"] <= total


def test_infeasible_board_runs_nothing():
    res = enumerate_tours("5x5", "aco", closed=True, cycles=10, seed=1)
    assert res.stats["walks"] == 0 and "colour" in res.stats["proof"] and len(res.tours) == 0


def test_refuses_methods_that_cannot_enumerate():
    with pytest.raises(UnsupportedError, match="cannot enumerate"):
        enumerate_tours("5x5", "ga", cycles=1)
    with pytest.raises(UnsupportedError, match="no parameter"):
        enumerate_tours("5x5", "aco", cycles=1, beta=1)


def test_check_tours_names_the_fault():
    board = Board(5, 5)
    good = enumerate_tours(board, "aco", cycles=100, seed=3).tours
    check_tours(board, good, TourSpec())
    bad = good[:3].copy()
    bad[1, [4, 5]] = bad[1, [5, 4]]
    with pytest.raises(InvalidTourError, match="illegal move|visited twice"):
        check_tours(board, bad, TourSpec())
    with pytest.raises(InvalidTourError, match="not closed"):
        check_tours(board, good[:1], TourSpec(closed=True))
    with pytest.raises(InvalidTourError, match="start"):
        check_tours(board, good[:1], TourSpec(start=(2, 2)) if good[0, 0] != 12 else TourSpec(start=(0, 0)))


def test_distinct_tours_keeps_first_seen_order():
    d = DistinctTours(300)
    rows = np.arange(900).reshape(3, 300) % 300
    assert d.add(rows) == 1 and d.add(rows[::-1].copy()) == 0
    assert d.array().tolist() == [rows[0].tolist()]


@pytest.mark.parametrize("name", ["tours.txt", "tours.txt.gz"])
def test_write_tours_format(tmp_path, name):
    board = Board(5, 5, holes=[(4, 4)])
    res = enumerate_tours(board, "aco", cycles=60, seed=1)
    path = tmp_path / name
    assert write_tours(path, board, res.tours) == len(res.tours) > 0
    raw = path.read_bytes()
    text = (gzip.decompress(raw) if name.endswith(".gz") else raw).decode("ascii")
    lines = text.splitlines()
    assert text.endswith("\n") and len(lines) == len(res.tours)
    for line, row in zip(lines, res.tours):
        assert "  " not in line and line == line.strip()
        tour, _ = parse_tour_text(board, line)
        assert np.array_equal(tour.squares, row)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".ktsolve-")]


def test_cli_enumerate_json_and_file(tmp_path):
    out = tmp_path / "t.txt.gz"
    res = invoke(["enumerate", "6x6", "--method", "iaco", "--cycles", "30", "--seed", "4", "-o", out])
    data = json.loads(res.stdout)
    assert STATS <= set(data["stats"]) and data["method"] == "iaco" and data["seed"] == 4
    lines = gzip.decompress(out.read_bytes()).decode().splitlines()
    assert len(lines) == data["stats"]["distinct"] > 0
    assert res.stderr.count("\n") == 1 and res.stderr.startswith("ktsolve: kept")  # no progress bar when piped


def test_cli_enumerate_closed_start_and_holes(tmp_path):
    out = tmp_path / "t.txt"
    res = invoke(["enumerate", "6x6", "--holes", "a1,a2", "--start", "c3", "--cycles", "50", "--seed", "1",
                  "-o", out], code=0)
    data = json.loads(res.stdout)
    assert data["start"] == [3, 2] and data["board"]["holes"] == [[4, 0], [5, 0]]
    for line in out.read_text().splitlines():
        assert line.split()[0] == "c3"


def test_cli_enumerate_exit_codes(tmp_path):
    invoke(["enumerate", "5x5", "--closed", "--cycles", "5"], code=1)
    res = invoke(["enumerate", "4x4", "--cycles", "5", "--seed", "1"], code=3)
    assert json.loads(res.stdout)["stats"]["distinct"] == 0
    res = invoke(["enumerate", "5x5", "--method", "nope"], code=2)
    assert res.stderr.count("\n") == 1
    invoke(["enumerate", "5x5", "-p", "rho=7", "--cycles", "1"], code=2)
    out = tmp_path / "never.txt"
    invoke(["enumerate", "5x5", "--start", "z9", "-o", out], code=2)
    assert not out.exists()


# ---------------------------------------------------------------------- bias measures
def test_bias_measures_of_known_tour_sets():
    from ktsolve import KnightGraph, solve
    from ktsolve.heuristics._colony import bias_stats

    graph = KnightGraph(Board(6, 6))
    tour = solve("6x6", "backtrack", closed=True, seed=1).tour.squares
    listings = [np.roll(tour, -k) for k in range(36)] + [np.roll(tour[::-1], -k) for k in range(36)]
    st = bias_stats(graph, np.array(listings))
    assert st["closed_tours"] == 72 and st["closed_share"] == 1.0 and st["closed_cycles"] == 1
    assert st["start_squares"] == 36 and st["tours_per_start_min"] == st["tours_per_start_max"] == 2
    from_corner = enumerate_tours("5x5", "aco", start="a5", cycles=300, seed=1).tours
    st = bias_stats(KnightGraph(Board(5, 5)), from_corner)
    assert st["start_squares"] == 1 and st["closed_tours"] == 0 and st["closed_cycles"] == 0


@pytest.mark.parametrize("method", ["aco", "iaco"])
def test_enumeration_reports_the_bias(method):
    st = enumerate_tours("6x6", method, cycles=60 if method == "aco" else 2000, seed=1).stats
    assert {"start_squares", "tours_per_start_min", "tours_per_start_max", "closed_tours", "closed_share",
            "closed_cycles"} <= set(st)
    assert 0 < st["start_squares"] <= 36 and st["closed_tours"] <= st["distinct"]
    assert st["closed_share"] == pytest.approx(st["closed_tours"] / st["distinct"])
    assert st["closed_cycles"] <= st["closed_tours"]


# ---------------------------------------------------------------------- Ctrl-C keeps what was found
def _interrupting(after):
    import os
    import signal

    calls = []

    def progress(done, total):
        calls.append(done)
        if len(calls) == after:
            os.kill(os.getpid(), signal.SIGINT)

    return progress


@pytest.mark.parametrize("method", ["aco", "iaco"])
def test_ctrl_c_keeps_the_tours_found_so_far(method):
    res = enumerate_tours("6x6", method, cycles=10**9, seed=1, progress=_interrupting(8))
    st = res.stats
    assert st["stopped"] == "interrupted" and st["interrupted"] is True
    assert st["distinct"] == len(res.tours) > 0 and st["cycles"] < 10**9
    for t in res.tours[:50]:
        validate(res.board, t)


def test_ctrl_c_on_solve_answers_unknown():
    from ktsolve import solve

    res = solve("20x20", "aco", start="a1", closed=True, seed=1, cycles=10**9, progress=_interrupting(3))
    assert res.status.value == "unknown" and res.stats["interrupted"] and "interrupted" in res.stats["reason"]


def test_cli_ctrl_c_writes_the_tours_and_exits_130(tmp_path, monkeypatch):
    import ktsolve.cli.enumerate as cli_module

    real = cli_module.enumerate_tours

    def interrupted_run(*args, progress=None, **kw):
        return real(*args, progress=_interrupting(6), **kw)

    monkeypatch.setattr(cli_module, "enumerate_tours", interrupted_run)
    out = tmp_path / "t.txt"
    res = invoke(["enumerate", "6x6", "--seed", "1", "--cycles", "1000000000", "-o", out], code=130)
    data = json.loads(res.stdout)
    assert data["stats"]["stopped"] == "interrupted"
    assert len(out.read_text().splitlines()) == data["stats"]["distinct"] > 0
    assert res.stderr.startswith("ktsolve: interrupted: kept") and res.stderr.count("\n") == 1


def test_ctrl_c_for_real_keeps_the_tours(tmp_path):
    """SIGINT to a real process: exit 130, one line, the tours found so far written and counted."""
    import os
    import signal
    import subprocess
    import sys
    import time

    if not sys.platform.startswith("linux"):
        pytest.skip("reads /proc to see that the process is working")
    ticks = os.sysconf("SC_CLK_TCK")
    out = tmp_path / "t.txt"
    proc = subprocess.Popen([sys.executable, "-c", "from ktsolve.cli import main; main()", "enumerate", "6x6",
                             "--seed", "1", "--cycles", "1000000000", "-o", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while True:
            with open(f"/proc/{proc.pid}/stat", encoding="ascii") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
            if (int(fields[11]) + int(fields[12])) / ticks >= 3.0:
                break
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        stdout, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130 and err.startswith("ktsolve: interrupted: kept") and err.count("\n") == 1
    data = json.loads(stdout)
    assert data["stats"]["stopped"] == "interrupted"
    assert len(out.read_text().splitlines()) == data["stats"]["distinct"] > 0
