"""The seed rule in the colonies, the GA and the naive DFS: one docstring paragraph, seeds recorded and replayable."""

from __future__ import annotations

import inspect

import pytest

from ktsolve import Board, KnightGraph, TourSpec
from ktsolve.heuristics.aco import enumerate_aco, solve_aco
from ktsolve.heuristics.dfs import dfs_count, enumerate_dfs, solve_dfs
from ktsolve.heuristics.ga import ga_rate, solve_ga
from ktsolve.heuristics.iaco import enumerate_iaco, solve_iaco
from ktsolve.seeds import SEED_DOC

FUNCS = [solve_aco, enumerate_aco, solve_iaco, enumerate_iaco, solve_ga, ga_rate, solve_dfs, enumerate_dfs,
         dfs_count]


@pytest.mark.parametrize("func", FUNCS, ids=lambda f: f.__name__)
def test_seed_paragraph_is_the_one_of_the_seed_rule(func):
    assert SEED_DOC in inspect.getdoc(func)


RUNS = {
    "aco": lambda g, s: solve_aco(g, TourSpec(start=(0, 0)), seed=s, cycles=300),
    "iaco": lambda g, s: solve_iaco(g, TourSpec(), seed=s, cycles=3000),
    "ga": lambda g, s: solve_ga(g, TourSpec(), seed=s, generations=20_000),
    "dfs": lambda g, s: solve_dfs(g, TourSpec(start=(0, 0)), seed=s),
}


@pytest.mark.parametrize("name", sorted(RUNS))
def test_a_drawn_seed_is_recorded_and_repeats_the_run(name):
    graph = KnightGraph(Board(5, 5))
    first = RUNS[name](graph, None)
    assert isinstance(first.seed, int) and 0 <= first.seed < 2**32
    again = RUNS[name](graph, first.seed)
    assert again.seed == first.seed and again.tour == first.tour and again.stats == first.stats


def test_enumerations_record_their_seed():
    graph = KnightGraph(Board(5, 5))
    for func, kw in ((enumerate_aco, {"cycles": 30}), (enumerate_iaco, {"cycles": 300}),
                     (enumerate_dfs, {"nodes": 10**5})):
        res = func(graph, TourSpec(), seed=None, **kw)
        assert isinstance(res.seed, int)
        again = func(graph, TourSpec(), seed=res.seed, **kw)
        assert (again.tours == res.tours).all() and again.stats["walks"] == res.stats["walks"]
