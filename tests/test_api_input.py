"""The Python API refuses the seeds and time limits the command line refuses, with a KtsolveError."""

import math

import pytest

from ktsolve import KtsolveError, enumerate_tours, prove, solve

BAD_SEEDS = [-1, 2**32, "abc", 1.5, True]
BAD_LIMITS = [0, -1, math.nan, "10", False]


@pytest.mark.parametrize("seed", BAD_SEEDS, ids=repr)
@pytest.mark.parametrize("call", ["solve auto", "solve warnsdorff", "prove", "enumerate"])
def test_bad_seed_is_a_ktsolve_error(call, seed):
    with pytest.raises(KtsolveError, match="seed must be a whole number"):
        _run(call, seed=seed)


@pytest.mark.parametrize("limit", BAD_LIMITS, ids=repr)
@pytest.mark.parametrize("call", ["solve auto", "solve warnsdorff", "prove", "enumerate"])
def test_bad_time_limit_is_a_ktsolve_error(call, limit):
    with pytest.raises(KtsolveError, match="time_limit must be a positive number"):
        _run(call, time_limit=limit)


def test_good_values_pass():
    res = solve("5x5", "warnsdorff", start="a1", seed=2**32 - 1, time_limit=5)
    assert res.status.value == "found" and res.seed == 2**32 - 1


def _run(call, **kw):
    if call == "prove":
        return prove("5x5", **kw)
    if call == "enumerate":
        return enumerate_tours("5x5", "aco", cycles=1, **kw)
    return solve("5x5", call.split()[1], **kw)
