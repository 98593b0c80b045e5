"""``ktsolve count``: the count on standard output, one line on standard error, budgets and bad input."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import invoke

PUBLISHED = json.loads((Path(__file__).resolve().parents[1] / "data" / "published_counts.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("args, out", [
    (["6x6", "--closed"], "9862"),                      # OEIS A001230, undirected by default
    (["6x6", "--closed", "--directed"], "19724"),
    (["5x5"], "1728"),                                  # OEIS A165134, directed by default
    (["5x5", "--undirected"], "864"),
    (["5x5", "--start", "a1"], "304"),
    (["5x5", "--start", "a1", "--method", "search"], "304"),
    (["5x5", "--holes", "c3"], "128"),
    (["5x5", "--holes", "c3", "--method", "search"], "128"),
    (["5x6", "--closed", "--arithmetic", "residues", "--primes", "1"], "8"),
])
def test_counts(args, out):
    res = invoke(["count", *args])
    assert res.stdout == out + "\n"
    err = res.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("ktsolve: ") and f"{int(out):,}" in err[0]


def test_json_says_what_was_counted():
    res = invoke(["count", "5x5", "--start", "a1", "--format", "json"])
    got = json.loads(res.stdout)
    assert got["value"] == 304 and got["count"] == "open tours (directed) from a1" and got["method"] == "search"
    got = json.loads(invoke(["count", "6x6", "--closed", "--format", "json"]).stdout)
    assert got["value"] == 9862 and got["method"] == "frontier" and got["states"] > 0


def test_a_board_file(tmp_path):
    path = tmp_path / "b.txt"
    path.write_text(".....\n.....\n..#..\n.....\n.....\n")
    assert invoke(["count", str(path)]).stdout == "128\n"


def test_strip_terms_are_a_b_file():
    res = invoke(["count", "6xN", "--closed", "--terms", "8"])
    lines = res.stdout.splitlines()
    assert lines == [f"{n} {v}" for n, v in enumerate(PUBLISHED["A175881"]["terms"][:8], 1)]
    got = json.loads(invoke(["count", "4xN", "--undirected", "--terms", "24", "--format", "json"]).stdout)
    assert got["terms"] == PUBLISHED["A079137"]["terms"] and got["by"] == "columns"
    cells = invoke(["count", "3xN", "--undirected", "--cells", "--terms", "30"]).stdout.splitlines()
    assert [int(line.split()[1]) for line in cells] == PUBLISHED["A389759"]["terms"][:30]


def test_an_output_file_gets_the_count(tmp_path):
    out = tmp_path / "n.txt"
    res = invoke(["count", "6x6", "--closed", "-o", out])
    assert res.stdout == "" and out.read_text() == "9862\n"


def test_a_time_limit_says_unknown_and_writes_nothing(tmp_path):
    out = tmp_path / "n.txt"
    out.write_text("old\n")
    res = invoke(["count", "8x8", "--closed", "--time-limit", "0.3", "-o", out], code=3)
    assert out.read_text() == "old\n" and res.stdout == ""
    assert "unknown" in res.stderr and "time limit" in res.stderr and "nothing was written" in res.stderr
    res = invoke(["count", "8x8", "--closed", "--time-limit", "0.3"], code=3)
    assert res.stdout.startswith("unknown: ") and not res.stdout.strip().isdigit()
    res = invoke(["count", "6xN", "--closed", "--terms", "40", "--time-limit", "0.2"], code=3)
    assert res.stdout.startswith("unknown: ")


def test_a_memory_budget_says_unknown_with_the_states_reached():
    res = invoke(["count", "7x7", "--memory", "2M"], code=3)
    assert "memory budget" in res.stderr and "states" in res.stderr


@pytest.mark.parametrize("args, words", [
    (["6xN", "--closed"], "--terms"),
    (["6x6", "--terms", "3"], "strip"),
    (["12xN", "--terms", "3"], "1 to 11"),
    (["6xN", "--terms", "3", "--holes", "a1"], "--holes"),
    (["6xN", "--terms", "3", "--method", "search"], "frontier"),
    (["5x5", "--memory", "3Q"], "size"),
    (["5x5", "--memory", "10"], "1M"),
    (["5x5", "--closed", "--start", "a1"], "start"),
    (["5x5", "--undirected", "--start", "a1"], "directed"),
    (["5x5", "--method", "search", "--memory", "1G"], "frontier"),
    (["5x5", "--holes", "z9"], "z9"),
    (["13x13", "--method", "frontier"], "at most 11"),
    (["5x5", "--terms", "0"], "--terms"),
    (["5x5", "--primes", "2"], "--primes"),
])
def test_bad_input_is_one_line_and_exit_2(args, words):
    res = invoke(["count", *args], code=2)
    err = res.stderr.strip().splitlines()
    assert res.stdout == "" and len(err) == 1 and err[0].startswith("ktsolve: error:") and words in err[0]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc to see that the process is working")
def test_ctrl_c_exits_130_and_writes_nothing(tmp_path):
    out = tmp_path / "n.txt"
    proc = subprocess.Popen([sys.executable, "-c", "from ktsolve.cli import main; main()", "count", "8x8",
                             "--closed", "-o", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ticks = os.sysconf("SC_CLK_TCK")
    try:
        deadline = time.monotonic() + 120
        while True:
            with open(f"/proc/{proc.pid}/stat", encoding="ascii") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
            if (int(fields[11]) + int(fields[12])) / ticks >= 3.0:
                break
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130 and err == "ktsolve: interrupted\n" and not out.exists()
