"""The fuzzer of issue 14 (tests/fuzz_cli.py, tests/fuzz_api.py): a fast profile in every run, a long one with ``-m fuzz``.

The fast profile draws a fixed, reproducible set of command lines and API
calls (hypothesis with ``derandomize``) and takes a few seconds.  The long
profile (``pytest -m fuzz``) draws ``KTSOLVE_FUZZ_EXAMPLES`` of each (default
5000, a minute or two) from the seed ``KTSOLVE_FUZZ_SEED`` and, when ``KTSOLVE_FUZZ_STATS``
names a file, writes its counts there as JSON (benchmarks/bench_fuzz.py
records them).  Both collect every violation of the contract and fail
listing them all, each with its command line.

The checker itself is tested by planting faults: a fuzzer that cannot see
a broken contract would pass for the wrong reason.
"""

from __future__ import annotations

import collections
import json
import os
import time

import pytest
from fuzz_api import api_cases, fuzz_api_case
from fuzz_cli import COMMANDS, CliCase, Spec, cli_cases, fuzz_cli_case
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from special_files import guard_devices  # noqa: F401 - guard_devices is an autouse fixture

FAST_CLI = 300
FAST_API = 200


def _settings(n: int, derandomize: bool):
    return settings(max_examples=n, deadline=None, database=None, derandomize=derandomize, print_blob=False,
                    suppress_health_check=list(HealthCheck), phases=[Phase.generate])


def fuzz(n_cli: int, n_api: int, *, derandomize: bool = True, seed: int = 0, every_command: bool = False) -> dict:
    """Run ``n_cli`` command lines and ``n_api`` API calls; counts, times and every violation.

    With ``every_command`` the command lines are split evenly over the commands
    (``n_cli // len(COMMANDS)`` each, at least one), so a derandomized run reaches
    every command whatever the draw's skew.
    """
    stats = {"cli_cases": 0, "api_cases": 0, "codes": collections.Counter(), "violations": [],
             "commands": collections.Counter()}

    def record(kind, description, problems, extra=""):
        for problem in problems:
            stats["violations"].append({"kind": kind, "case": description, "problem": problem, "stderr": extra})

    def one_case(case):
        stats["cli_cases"] += 1
        stats["commands"][" ".join(case.path)] += 1
        problems, out = fuzz_cli_case(case)
        stats["codes"][str(out.code) if out else "none"] += 1
        record("cli", case.describe(), problems, out.stderr.strip()[-300:] if out else "")

    def cli_run(n, path=None):
        run = _settings(n, derandomize)(given(cli_cases(path))(one_case))
        return run if derandomize else hypothesis_seed(seed)(run)

    if every_command:
        runs = [cli_run(max(1, n_cli // len(COMMANDS)), path) for path, _ in COMMANDS]
    else:
        runs = [cli_run(n_cli)]

    def one_cli():
        for run in runs:
            run()

    @_settings(n_api, derandomize)
    @given(api_cases())
    def one_api(case):
        stats["api_cases"] += 1
        record("api", case.describe(), fuzz_api_case(case))

    if not derandomize:
        one_api = hypothesis_seed(seed + 1)(one_api)
    t0 = time.perf_counter()
    if n_cli:
        one_cli()
    t1 = time.perf_counter()
    if n_api:
        one_api()
    t2 = time.perf_counter()
    stats["cli_seconds"], stats["api_seconds"] = round(t1 - t0, 3), round(t2 - t1, 3)
    return stats


def _report(stats) -> str:
    lines = [f"{len(stats['violations'])} violations in {stats['cli_cases']} command lines and "
             f"{stats['api_cases']} API calls:"]
    for v in stats["violations"][:40]:
        lines.append(f"- [{v['kind']}] {v['case']}\n    {v['problem']}\n    stderr: {v['stderr']!r}")
    return "\n".join(lines)


def test_fast_profile_keeps_the_contract():
    stats = fuzz(FAST_CLI, FAST_API, every_command=True)
    assert not stats["violations"], _report(stats)
    assert stats["cli_cases"] == len(COMMANDS) * (FAST_CLI // len(COMMANDS)) and stats["api_cases"] == FAST_API
    # the draw reaches every command and both sides of the contract
    assert {p for p, _ in COMMANDS} == {tuple(c.split()) for c in stats["commands"]}
    assert {"0", "1", "2"} <= set(stats["codes"])


@pytest.mark.fuzz
def test_long_profile_keeps_the_contract():
    n = int(os.environ.get("KTSOLVE_FUZZ_EXAMPLES", "5000"))
    seed = int(os.environ.get("KTSOLVE_FUZZ_SEED", "0"))
    stats = fuzz(n, n, derandomize=False, seed=seed)
    out = os.environ.get("KTSOLVE_FUZZ_STATS")
    if out:
        with open(out, "w") as fh:
            json.dump({**stats, "seed": seed, "codes": dict(stats["codes"]), "commands": dict(stats["commands"])},
                      fh, indent=1)
    assert not stats["violations"], _report(stats)


# ---------------------------------------------------------------------- the checker sees planted faults
def _case(*tokens) -> CliCase:
    return CliCase(tuple(tokens[:1]), list(tokens[1:]))


EXISTING = Spec("output", "existing", ".txt")
NEW = Spec("output", "new", ".txt")


def _problems(case) -> list[str]:
    problems, _ = fuzz_cli_case(case)
    return problems


def test_a_clean_case_has_no_violation():
    assert _problems(_case("solve", "5x5", "-m", "warnsdorff", "--seed", "1", "-o", NEW)) == []
    assert _problems(_case("solve", "8x8", "-m", "backtrack", "-p", "max_nodes=10", "-o", EXISTING)) == []


def test_the_checker_sees_an_existing_file_replaced_by_unknown(monkeypatch):
    from ktsolve.cli import answers
    from ktsolve.cli import solve as cli

    monkeypatch.setattr(cli, "deliver", lambda res, fmt, output, **kw: answers.emit(answers.render_result(res, fmt),
                                                                                     output))
    problems = _problems(_case("solve", "8x8", "-m", "backtrack", "-p", "max_nodes=10", "-o", EXISTING))
    assert any(p.startswith("output file:") for p in problems), problems


def test_the_checker_sees_an_invalid_tour_written(monkeypatch):
    import numpy as np

    from ktsolve import Tour
    from ktsolve.cli import answers as cli

    real = cli.emit_tour

    def swapped(tour, fmt, output):
        sq = np.array(tour.squares)
        sq[[1, 2]] = sq[[2, 1]]
        real(Tour(tour.board, sq), fmt, output)

    monkeypatch.setattr(cli, "emit_tour", swapped)
    for out in (NEW, Spec("output", "fifo"), Spec("output", "dash")):
        problems = _problems(_case("solve", "5x5", "-m", "warnsdorff", "--seed", "1", "-o", out))
        assert any("no valid answer" in p for p in problems), (out, problems)


def test_the_fifo_reader_keeps_bytes_written_just_before_it_stops(tmp_path):
    """The writer's bytes can land between the reader's last empty read and its stop; they are kept."""
    import fuzz_cli

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    state = {}

    class Racing(fuzz_cli.FifoDrain):
        def _read(self):
            chunk = super()._read()
            if not chunk and "writer" not in state:
                # an empty read, then the command writes and exits, then the test stops the reader
                state["writer"] = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
                os.write(state["writer"], b"the answer\n")
                os.close(state["writer"])
                self.stop.set()
            return chunk

    drain = Racing(str(fifo))
    drain.thread.join(timeout=10)
    assert drain.close() == b"the answer\n"


def test_the_checker_sees_two_lines_for_exit_2_and_a_write_before_it(monkeypatch):
    from ktsolve.cli import solve as cli
    from ktsolve.errors import InvalidBoardError

    def report(res):
        cli.click.echo("ktsolve: a line too many", err=True)
        raise InvalidBoardError("late refusal")

    monkeypatch.setattr(cli, "report", report)
    problems = _problems(_case("solve", "5x5", "-m", "warnsdorff", "--seed", "1", "-o", NEW))
    assert any("exit 2 with 2 stderr lines" in p for p in problems), problems
    assert "exit 2 changed the output file" in problems


def test_the_checker_sees_a_leftover_file_and_an_escaping_error(monkeypatch):
    from ktsolve.cli import answers as cli
    from ktsolve.cli import solve as solve_cli

    real = cli.emit_tour

    def leaves_a_temporary(tour, fmt, output):
        open(output + ".tmp", "w").close()
        real(tour, fmt, output)

    monkeypatch.setattr(cli, "emit_tour", leaves_a_temporary)
    problems = _problems(_case("solve", "5x5", "-m", "warnsdorff", "--seed", "1", "-o", NEW))
    assert any("'out.txt.tmp' was created" in p for p in problems), problems

    def crash(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(solve_cli, "solve_board", crash)
    problems = _problems(_case("solve", "5x5"))
    assert any(p.startswith("exit code 70, ktsolve: internal error") and "RuntimeError: a bug" in p
               for p in problems), problems


def test_the_api_checker_sees_a_stray_exception_and_an_invalid_tour(monkeypatch):
    from fuzz_api import ApiCase

    import ktsolve

    def crash(*args, **kwargs):
        raise AttributeError("a bug")

    monkeypatch.setattr(ktsolve, "prove", crash)
    problems = fuzz_api_case(ApiCase("prove", {"board": "5x5", "time_limit": 0.2}))
    assert problems == ["AttributeError: a bug"]


# ---------------------------------------------------------------------- hostile files (issue 20)
def test_hostile_files_keep_the_contract(tmp_path):
    """Every hostile kind once, on both sides, in capped children (tests/fuzz_hostile.py)."""
    from fuzz_hostile import every_kind, fuzz_hostile

    found = fuzz_hostile(every_kind(), str(tmp_path), batch=40)
    assert not found, "\n".join(f"- {case.describe()}: {problem}" for case, problem in found)


def test_the_hostile_checker_sees_a_broken_contract():
    # planted faults: a checker that cannot see them would pass for the wrong reason
    from fuzz_hostile import HostileCase, check_result

    verify = HostileCase("cli", "bomb", "8x8", "verify")
    read = HostileCase("api", "deep json", "8x8", "read_tours")
    cache = HostileCase("api", "forged row", "5x5", "assert_agrees")
    planted = [
        (verify, {"outcome": "cli", "code": 1, "stderr": "Traceback (most recent call last):\n  boom\n",
                  "escaped": None}, "traceback"),
        (verify, {"outcome": "cli", "code": 2, "stderr": "ktsolve: error: " + "q" * 5000 + "\n", "escaped": None},
         "echoed"),
        (verify, {"outcome": "cli", "code": 0, "stderr": "", "escaped": None}, "exit code 0"),
        (read, {"outcome": "escaped", "error": "RecursionError: maximum recursion depth"}, "raised"),
        (read, {"outcome": "refused", "message": "x" * 900, "length": 900}, "echoed"),
        (read, {"outcome": "ok", "problem": ""}, "read as if it were fine"),
        (read, {"outcome": "timeout"}, "more than"),
        (cache, {"outcome": "ok", "problem": "assert_agrees(board, None) passed on a board with a tour"}, "passed"),
    ]
    for case, result, words in planted:
        problems = check_result(case, result)
        assert any(words in p for p in problems), (case, result, problems)


@pytest.mark.fuzz
def test_long_profile_of_hostile_files(tmp_path):
    from fuzz_hostile import fuzz_hostile, hostile_cases
    from hypothesis import given

    n = int(os.environ.get("KTSOLVE_FUZZ_HOSTILE", "200"))
    drawn = []

    @_settings(n, False)
    @given(hostile_cases())
    def draw(case):
        drawn.append(case)

    draw()
    found = fuzz_hostile(drawn, str(tmp_path))
    assert not found, "\n".join(f"- {case.describe()}: {problem}" for case, problem in found)
