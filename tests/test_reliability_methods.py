"""Issue 14 faults whose fix belongs inside a method module: each test states the contract.

Most were found by the fuzzer's long profile (``pytest -m fuzz``).  The cases
that once crashed the interpreter run in a child process, since a
segmentation fault would take the test session down with it.
"""

import subprocess
import sys

import pytest
from click.testing import CliRunner

from ktsolve import KtsolveError, solve
from ktsolve.cli import cli


def one_line_exit_2(args):
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 2, (res.exit_code, res.stderr)
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ktsolve: error: ") and "Traceback" not in res.stderr


def child(args, timeout=120):
    """Run ``ktsolve ARGS`` in a child process; its exit code and stderr."""
    proc = subprocess.run([sys.executable, "-m", "ktsolve.cli", *args], capture_output=True, timeout=timeout)
    return proc.returncode, proc.stderr.decode()


@pytest.mark.parametrize("param", ["num_workers=100000", "parameters=garbage", "num_workers=none"])
def test_cpsat_parameters_are_checked(param):
    one_line_exit_2(["solve", "6x6", "-m", "cpsat", "-p", param])


def test_csp_solver_is_a_choice():
    one_line_exit_2(["solve", "5x5", "-m", "csp", "-p", "solver=bogus"])


def test_neural_max_sweeps_is_bounded():
    one_line_exit_2(["solve", "6x6", "-m", "neural", "--closed", "-p", "max_sweeps=1e99"])


@pytest.mark.parametrize("value", [2, "abc", 1.5])
def test_abc_initial_paths_are_checked(value):
    # found by the fuzzer's long profile: solve("1x1", "abc", initial_paths=2) raised TypeError
    with pytest.raises(KtsolveError):
        solve("5x5", "abc", initial_paths=value, time_limit=0.5, seed=1)
    one_line_exit_2(["solve", "5x5", "-m", "abc", "-p", f"initial_paths={value}", "--time-limit", "0.5"])


@pytest.mark.parametrize("method", ["aco", "iaco"])
def test_colony_ants_are_bounded(method):
    # found by the fuzzer's long profile: ants=10**12 asked numpy for 7.28 TiB (MemoryError)
    with pytest.raises(KtsolveError):
        solve("5x6", method, ants=10**12, time_limit=0.2, seed=1)
    one_line_exit_2(["solve", "5x6", "-m", method, "-p", "ants=1e12", "--time-limit", "0.2"])


@pytest.mark.parametrize(
    "method, param, value",
    [
        ("dfs", "nodes", 2**63),  # an OverflowError in the kernel's int64
        ("rotation", "restarts", 2**63),  # an OverflowError
        ("ga", "population", 2**31),  # a MemoryError: 560 GiB asked of numpy
        ("abc", "sources", 2**31),  # a MemoryError: 70 GiB
    ],
    ids=lambda v: v if isinstance(v, str) and not v.startswith("ktsolve") else None,
)
def test_counts_are_bounded_by_their_method(method, param, value):
    with pytest.raises(KtsolveError):
        solve("6x6", method, time_limit=0.2, seed=1, **{param: value})
    one_line_exit_2(["solve", "6x6", "-m", method, "-p", f"{param}={value}", "--time-limit", "0.2"])


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "8x8", "-m", "aco", "-p", "alpha=1e308"],
        ["solve", "8x8", "-m", "aco", "-p", "alpha=700"],
        ["solve", "8x8", "-m", "aco", "-p", "q=1e308"],
        ["solve", "8x8", "-m", "aco", "-p", "alpha=inf"],
        ["solve", "8x8", "-m", "aco", "-p", "q=inf"],
        ["solve", "8x8", "-m", "aco", "-p", "tau0=inf"],
        ["enumerate", "6x6", "-p", "alpha=inf"],
    ],
    ids=" ".join,
)
def test_colony_reals_never_crash_the_interpreter(args):
    code, err = child([*args, "--time-limit", "5"])
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err, (code, err)


def test_colony_reals_from_python_raise_instead_of_crashing():
    code = (
        "from ktsolve import Board, KtsolveError, solve\n"
        "try:\n"
        "    solve(Board(8, 8), 'aco', alpha=700.0, time_limit=5)\n"
        "except KtsolveError:\n"
        "    raise SystemExit(7)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120)
    assert proc.returncode == 7, (proc.returncode, proc.stderr.decode()[-500:])


def test_the_cli_fixes_need_nothing_from_the_methods():
    # the same contract holds today for a method that checks its values
    one_line_exit_2(["solve", "6x6", "-m", "aco", "-p", "alpha=nan"])
    with pytest.raises(KtsolveError):
        solve("6x6", "aco", alpha=float("nan"))
