"""ktsolve.testing against the methods it exists to catch (issue 20, items 1 and 5)."""

from __future__ import annotations

import importlib.util
import pathlib
import time

import numpy as np
import pytest

import ktsolve
from ktsolve.testing import assert_agrees

EXAMPLE = pathlib.Path(__file__).resolve().parents[1] / "docs" / "examples" / "test_random_walk.py"


def _example():
    spec = importlib.util.spec_from_file_location("_random_walk_example", EXAMPLE)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("unknown", ["allow", "easy", "any"])
def test_the_docs_careless_walk_fails_assert_agrees_whatever_unknown_says(unknown):
    # solve turns the invalid tour into "unknown" with stats["invalid_tour"]; that is a fault, not a shrug
    careless = _example().careless_walk
    for board in (ktsolve.Board(5, 5), ktsolve.Board(6, 7, holes="a1,b3,c5")):
        res = ktsolve.solve(board, method=careless, seed=4)
        assert res.status.value == "unknown" and "invalid_tour" in res.stats
        with pytest.raises(AssertionError, match="returned an invalid tour, not a valid open tour .*: .*is never visited"):
            assert_agrees(board, res, unknown=unknown)


def test_an_honest_unknown_is_still_allowed():
    def giving_up(graph, spec, *, seed=None, time_limit=None, progress=None):
        return None

    res = ktsolve.solve("6x7", method=giving_up, seed=1)
    assert_agrees("6x7", res, unknown="allow")
