"""Tour files from a hostile world (issue 20, items 2 to 4 and 8): bombs, devices, pipes, huge numbers.

Every reader has a byte budget, reads its file once, and refuses what it
cannot read with one short line (a TourFileError or InvalidTourError, which
the command line turns into exit 2), in a child process capped at
``hostile_inputs.MEMORY_CAP`` bytes of address space.
"""

from __future__ import annotations

import os
import threading
import time

import pytest

from ktsolve import Board
from ktsolve.errors import InvalidTourError
from ktsolve.files import check_tours, read_tour, read_tours, write_tours
from tests.hostile_inputs import hostile_tour_files, run_capped

READ = """
from ktsolve import Board
from ktsolve.errors import KtsolveError
from ktsolve.files import read_tours
try:
    read_tours(Board(8, 8), {path!r})
except KtsolveError as exc:
    print(type(exc).__name__, len(str(exc)), str(exc)[:300])
else:
    print("read")
"""


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    return hostile_tour_files(tmp_path_factory.mktemp("hostile"))


@pytest.mark.parametrize("name", ["bomb", "newline bomb", "zero device", "random device", "npy 10^11", "deep json",
                                  "deep json within budget", "60 digits",
                                  "5000 digits", "5000-digit pair", "5000-digit name", "60-digit matrix",
                                  "long line", "json bomb"])
def test_a_hostile_tour_file_is_refused_in_one_short_line(hostile, name):
    t0 = time.perf_counter()
    out = run_capped(READ.format(path=hostile[name]), timeout=60)
    assert out.returncode == 0, out.stderr[-2000:]
    kind, length, _ = out.stdout.split(" ", 2)
    assert kind in ("TourFileError", "InvalidTourError"), out.stdout
    assert int(length) < 400, out.stdout  # never the input echoed back
    assert time.perf_counter() - t0 < 30


def test_the_budget_is_named_in_the_message(hostile):
    out = run_capped(READ.format(path=hostile["bomb"]))
    assert "is larger than" in out.stdout and "once inflated" in out.stdout


def test_a_pipe_is_read_once(tmp_path):
    # `verify 8x8 <(cat tour.json)`: a path that can be opened only once
    board = Board(3, 4)
    r, w = os.pipe()
    text = b'{"tour": ["a3", "c2", "a1", "b3", "d2", "b1", "c3", "d1", "b2", "d3", "c1", "a2"]}'
    threading.Thread(target=lambda: (os.write(w, text), os.close(w)), daemon=True).start()
    try:
        tour, closed = read_tour(board, f"/dev/fd/{r}")
    finally:
        os.close(r)
    assert len(tour) == 12 and closed is None


def test_check_tours_stops_at_the_first_fault_while_the_writer_still_writes(tmp_path):
    board = Board(3, 4)
    good = "a3 c2 a1 b3 d2 b1 c3 d1 b2 d3 c1 a2\n"
    bad = "a3 c2 a1 b3 d2 b1 c3 d1 d3 b2 c1 a2\n"
    fifo = tmp_path / "tours"
    os.mkfifo(fifo)
    done = threading.Event()

    def writer():
        with open(fifo, "w") as fh:
            fh.write(good + bad)
            fh.flush()
            done.wait(20)  # the file never ends until the reader has answered

    threading.Thread(target=writer, daemon=True).start()
    t0 = time.perf_counter()
    try:
        with pytest.raises(InvalidTourError, match=r"^tour 2: illegal move at step 9"):
            check_tours(board, str(fifo))
    finally:
        done.set()
    assert time.perf_counter() - t0 < 10


def test_check_tours_streams_many_tours_and_numbers_the_faulty_line(tmp_path):
    # 35,000 tours of 36 bytes fill two blocks of a megabyte: the faulty tour is named by its line in the
    # file, not in its block
    from ktsolve import solve

    board = Board(3, 4)
    t = solve(board, method="backtrack").tour.squares
    f = tmp_path / "t.txt.gz"
    write_tours(f, board, [t] * 40_000)
    res = check_tours(board, str(f))
    assert (res.count, res.closed, res.tour) == (40_000, False, None)
    bad = [t] * 35_000 + [t[::-1]] + [t] * 5
    write_tours(f, board, bad)
    with pytest.raises(InvalidTourError, match=r"^tour 35001: "):
        check_tours(board, str(f), start=board.name(*board.coords_of([t[0]])[0]))
    assert len(read_tours(board, str(f))[0]) == 35_006


def test_a_line_of_another_length_is_named(tmp_path):
    board = Board(3, 4)
    f = tmp_path / "t.txt"
    line = "a3 c2 a1 b3 d2 b1 c3 d1 b2 d3 c1 a2\n"
    f.write_text(line * 3 + "a3 c2\n")
    from ktsolve.errors import TourFileError

    with pytest.raises(TourFileError, match="line 4 has 2 squares"):
        check_tours(board, str(f))


@pytest.mark.parametrize("sep", [" ", ", ", "\t", " ;  "])
def test_every_spelling_of_a_file_of_tours_reads_the_same(tmp_path, sep):
    # the vectorised parser and the general one (upper case names, 7,0 pairs) must agree
    from ktsolve import solve

    board = Board(5, 6, holes="a1")
    t = solve(board, method="backtrack", seed=1).tour
    names = t.names()
    lines = [sep.join(names), sep.join(reversed(names)), sep.join(n.upper() for n in names)]
    f = tmp_path / "t.txt"
    f.write_text("\n".join(lines * 2) + "\n")
    tours, _ = read_tours(board, str(f))
    assert [x.names() for x in tours] == [names, names[::-1], names] * 2


def test_verify_stops_at_the_first_fault_of_a_stream(tmp_path):
    # the command line through check_tours: a fault at line 2 is reported while the writer still writes
    from click.testing import CliRunner

    from ktsolve.cli import cli

    good = "a3 c2 a1 b3 d2 b1 c3 d1 b2 d3 c1 a2\n"
    bad = "a3 c2 a1 b3 d2 b1 c3 d1 d3 b2 c1 a2\n"
    fifo = tmp_path / "tours"
    os.mkfifo(fifo)
    done = threading.Event()

    def writer():
        with open(fifo, "w") as fh:
            fh.write(good + bad)
            fh.flush()
            done.wait(20)

    threading.Thread(target=writer, daemon=True).start()
    t0 = time.perf_counter()
    try:
        res = CliRunner().invoke(cli, ["verify", "3x4", str(fifo)])
    finally:
        done.set()
    assert res.exit_code == 1 and res.output.startswith("invalid: tour 2: illegal move at step 9"), res.output
    assert time.perf_counter() - t0 < 10
