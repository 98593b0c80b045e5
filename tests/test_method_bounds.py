"""Every number that reaches a kernel of the driver's methods is checked: one line, exit 2, nothing run.

The values come from issue 14 (``num_workers=100000``, ``parameters=garbage``,
``max_sweeps=1e99``) and from the upper bounds added with it, so that no
value can crash the interpreter or run without end.
"""

from __future__ import annotations

import pytest
from conftest import invoke

from ktsolve import Board, KnightGraph, TourSpec, solve
from ktsolve.errors import InvalidParameterError
from ktsolve.models.cpsat import solve_cpsat


@pytest.mark.parametrize(
    "args, words",
    [
        (["-m", "cpsat", "-p", "num_workers=100000"], "num_workers = 100000 must be from 1 to 256"),
        (["-m", "cpsat", "-p", "parameters=garbage"], "parameters must be a mapping"),
        (["--closed", "-m", "neural", "-p", "max_sweeps=1e99"], "max_sweeps"),
        (["--closed", "-m", "neural", "-p", "attempts=1e99"], "attempts"),
        (["--closed", "-m", "neural", "-p", "rule=100000,2,random"], "the rule's a = 100000"),
        (["--closed", "-m", "neural", "-p", "p_on=nan"], "p_on"),
        (["-m", "rotation", "-p", "rotations=1e99"], "rotations"),
        (["-m", "rotation", "-p", "restarts=1e99"], "restarts"),
        (["-m", "warnsdorff", "-p", "restarts=1e99"], "restarts"),
        (["-m", "backtrack", "-p", "max_nodes=1e99"], "max_nodes"),
    ],
)
def test_bad_values_are_one_line_and_exit_2(args, words, tmp_path):
    out = tmp_path / "tour.txt"
    res = invoke(["solve", "6x6", *args, "-o", out], 2)
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ktsolve: error:") and words in lines[0]
    assert "Traceback" not in res.stderr and not out.exists()


@pytest.mark.parametrize(
    "parameters, words",
    [
        ({"max_time_in_seconds": 5}, "set by the call's time_limit"),
        ({"random_seed": 3}, "set by the call's seed"),
        ({"num_workers": 4}, "set by the call's num_workers"),
        ({"catch_sigint_signal": True}, "Ctrl-C"),
        ({"linearization_level": "high"}, "cannot be 'high'"),
        ({"max_deterministic_time": -1.0}, "refused its parameters"),
        ("garbage", "must be a mapping"),
    ],
)
def test_cpsat_parameters_are_checked(parameters, words):
    with pytest.raises(InvalidParameterError, match=words):
        solve_cpsat(KnightGraph(Board(5, 5)), TourSpec(), seed=1, time_limit=5, parameters=parameters)


def test_in_range_values_still_run():
    res = solve("6x6", "neural", closed=True, seed=1, max_sweeps=10_000_000, attempts=10)
    assert res.status.value in ("found", "unknown")
    res = solve("6x6", "cpsat", seed=1, num_workers=256, time_limit=10)
    assert res.found
