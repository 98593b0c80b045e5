"""The 'bees' and 'neural' sections of ``ktsolve bench papers``."""

from __future__ import annotations

import numpy as np
import pytest

from ktsolve import Board, KnightGraph, validate
from ktsolve.bench import Table, sections
from ktsolve.bench import bees as bees_section


def test_sections_are_registered():
    secs = sections()
    assert "bees" in secs and "neural" in secs


def test_warnsdorff_walks_are_walks_or_absent():
    g = KnightGraph(Board(8, 8, [(0, 0)]))
    start = g.board.index(7, 0)
    walks = bees_section.warnsdorff_walks(g, start, 3, seed=1)
    if walks is None:
        pytest.skip("Warnsdorff's rule is not in this installation")
    assert len(walks) == 3
    for w in walks:
        validate(g.board, np.asarray(w), start=(7, 0), complete=False)


def test_exact_cell_formats():
    assert bees_section._exact_cell((64, 64, True)) == "64 (optimal)"
    assert bees_section._exact_cell((50, 61, False)) == ">= 50, <= 61"


@pytest.mark.slow
@pytest.mark.parametrize("name", ["bees", "neural"])
def test_quick_sections_run(name):
    tables = sections()[name].run(quick=True, seed=1, progress=None, plots=None)
    assert tables and all(isinstance(t, Table) for t in tables)
    for t in tables:
        assert all(len(r) == len(t.columns) for r in t.rows)
