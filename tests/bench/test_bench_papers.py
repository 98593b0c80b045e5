"""``ktsolve bench papers``: one section per seed, the public API only, honest published columns, plots."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import numpy as np
import pytest

from ktsolve import Board, KnightGraph, validate
from ktsolve.bench import NOT_GIVEN, Table, format_table, require_plots, sections
from ktsolve.bench import bees, dfs, neural
from ktsolve.errors import UnsupportedError

from conftest import invoke

BENCH = Path(__file__).resolve().parents[2] / "ktsolve" / "bench"


def test_one_section_per_seed_paper():
    assert {"bees", "colonies", "dfs", "neural"} <= set(sections())


@pytest.mark.parametrize("path", sorted(BENCH.glob("*.py")), ids=lambda p: p.name)
def test_sections_use_the_public_api_only(path):
    """No bench module imports a method module (ktsolve.heuristics, ktsolve.models)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            mod = ("." * node.level) + (node.module or "")
            assert not any(part in ("heuristics", "models") for part in mod.strip(".").split(".")), (path.name, mod)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                assert not alias.name.startswith(("ktsolve.heuristics", "ktsolve.models")), (path.name, alias.name)


# ---------------------------------------------------------------------- tiny budgets of the sections
@pytest.fixture
def tiny(monkeypatch):
    monkeypatch.setattr(bees, "PAPER_BOARDS", (5, 6))
    monkeypatch.setattr(bees, "PAPER_STARTS", 2)
    monkeypatch.setattr(bees, "_declarative_cases", lambda quick: [
        ("3x3", Board(3, 3), "a1"), ("4x4, hole b3", Board.from_spec("4x4", "b3"), "a1")])


def _published_cells(table: Table):
    cols = [i for i, c in enumerate(table.columns) if c in ("published", "report")]
    return [row[i] for row in table.rows for i in cols]


def test_bees_section_at_a_tiny_budget(tiny):
    calls = []
    tables = bees.run(quick=True, seed=2, progress=lambda d, t: calls.append((d, t)))
    assert calls[-1][0] == calls[-1][1]
    paper, seeding, declarative = tables
    assert [r[0] for r in paper.rows] == ["5x5", "6x6"]
    for row in paper.rows:
        starts = row[2].split()
        assert len(starts) == 2 and len(set(starts)) == 2
        assert row[9].endswith("(all optimal)")
        assert float(row[3]) <= float(row[9].split()[0])  # the colony never beats the optimum
    assert all(row[3] == row[5] for row in declarative.rows)  # CP-SAT and the declarative search agree
    assert "finished 2 of 2" in " ".join(declarative.notes)
    for t in tables:
        assert all(len(r) == len(t.columns) for r in t.rows)
        assert all(c not in (None, "-", "") for c in _published_cells(t))
    assert NOT_GIVEN in _published_cells(paper)
    assert any("not quoted" in n for n in paper.notes)


def test_random_starts_are_reproducible_and_distinct():
    b = Board(8, 8)
    a = bees.random_starts(b, 5, 1)
    assert a == bees.random_starts(b, 5, 1) and len(set(a)) == 5
    assert a != bees.random_starts(b, 5, 2)
    for name in a:
        b.parse_square(name)


def test_neural_sample_counts_exactly_the_budget():
    out = neural.sample(Board(6, 6), 60, rule="sequential", seed=4)
    assert out["attempts"] == 60
    assert out["tours"] + out["multi_cycle"] + out["other_fixed"] + out["non_converged"] == 60
    assert out["calls"] >= 1 + out["tours"] - 1  # a call ends at each tour
    again = neural.sample(Board(6, 6), 60, rule="sequential", seed=4)
    keys = ("tours", "multi_cycle", "sweeps")
    assert {k: again[k] for k in keys} == {k: out[k] for k in keys}


def test_neural_section_quotes_only_the_blog_posts_figure(monkeypatch):
    monkeypatch.setattr(neural, "sample", lambda board, attempts, **kw: {
        "attempts": attempts, "tours": 1, "multi_cycle": 0, "other_fixed": 0, "non_converged": attempts - 1,
        "repaired": 0, "sweeps": 10 * attempts, "calls": 2, "seconds": 0.1})
    rates, size = neural.run(quick=True, seed=1)
    assert set(_published_cells(rates)) == {NOT_GIVEN}
    assert size.rows == [["8x8", 168, neural.BLOG_NEURONS_8X8]]
    assert len(KnightGraph(Board(8, 8)).edges()) == neural.BLOG_NEURONS_8X8
    text = format_table(rates)
    assert "0.5%" not in text and "20%" not in text  # figures no seed printed


# ---------------------------------------------------------------------- the Java report's searches
def ref_greedy(n, start, bug, closed=True):
    """Recursive reference of the rebuilt search: (found, squares taken back)."""
    sys.setrecursionlimit(10_000)
    moves = dfs.JAVA_MOVES
    free = [[True] * n for _ in range(n)]
    free[start[0]][start[1]] = False
    back = [0]

    def onward(x, y):
        return sum(1 for dx, dy in moves if 0 <= x + dx < n and 0 <= (x if bug else y) + dy < n
                   and free[x + dx][(x if bug else y) + dy])

    def go(x, y, m):
        if m == n * n:
            return not closed or any((x + dx, y + dy) == start for dx, dy in moves)
        cands = sorted((onward(x + dx, y + dy), k, x + dx, y + dy) for k, (dx, dy) in enumerate(moves)
                       if 0 <= x + dx < n and 0 <= y + dy < n and free[x + dx][y + dy])
        for _, _, a, b in cands:
            free[a][b] = False
            if go(a, b, m + 1):
                return True
            free[a][b] = True
            back[0] += 1
        return False

    return go(start[0], start[1], 1), back[0]


@pytest.mark.parametrize("n, start, closed, bug", [
    (5, (0, 0), False, False), (5, (0, 0), False, True), (6, (0, 2), True, False), (6, (1, 1), True, False),
    (6, (1, 1), True, True), (5, (2, 2), False, True), (6, (0, 0), False, True), (6, (2, 3), True, False),
])
def test_rebuilt_java_greedy_matches_its_reference(n, start, closed, bug):
    out = dfs.java_greedy(n, start, bug=bug, closed=closed)
    found, back = ref_greedy(n, start, bug, closed)
    assert (out["found"], out["backtracks"]) == (found, back)
    if found:
        b = Board(n, n)
        squares = [b.index(r, c) for r, c in out["squares"]]
        validate(b, squares, closed=closed, start=start)


def test_the_fixed_greedy_search_hardly_backtracks():
    out = dfs.java_greedy(bug=False)
    assert out["found"] and out["backtracks"] == 21
    capped = dfs.java_greedy(bug=True, max_backtracks=10_000)
    assert capped["stopped"] and not capped["found"]  # the bug sends it far astray


@pytest.mark.slow
def test_the_buggy_greedy_search_backtracks_hundreds_of_thousands_of_times():
    out = dfs.java_greedy(bug=True)
    assert out["found"] and out["backtracks"] == 820_181


@pytest.mark.slow
def test_dfs_section_runs():
    (table,) = dfs.run(quick=True, seed=1)
    assert table.rows[0][1] == "found" and "233,393,476 moves" in table.rows[0][2]
    assert all(c not in (None, "-", "") for c in _published_cells(table))


# ---------------------------------------------------------------------- plots
def test_plots_are_refused_up_front_without_matplotlib(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    target = tmp_path / "figs"
    with pytest.raises(UnsupportedError, match="matplotlib"):
        require_plots(str(target))
    assert not target.exists()
    ran = []
    monkeypatch.setattr(bees, "run", lambda **kw: ran.append(1) or [])
    for args in (["bench", "papers", "--plots", str(target)],
                 ["bench", "papers", "--section", "bees", "--plots", str(target)]):
        out = invoke(args, 2)
        assert out.stdout == "" and len(out.stderr.strip().splitlines()) == 1 and "matplotlib" in out.stderr
    assert not target.exists() and not ran


def test_a_plots_path_that_is_a_file_is_refused(tmp_path):
    pytest.importorskip("matplotlib")
    f = tmp_path / "file"
    f.write_text("x")
    out = invoke(["bench", "papers", "--section", "bees", "--plots", str(f)], 2)
    assert "not a folder" in out.stderr and f.read_text() == "x"


def test_shared_plot_helpers(tmp_path):
    pytest.importorskip("matplotlib")
    from ktsolve.bench import plots

    folder = str(tmp_path)
    p1 = plots.curves(folder, "c", [("a", [1, 2, 3], [0.1, 0.2, 0.15]), ("b", [1, 2, 3], [0.05, 0.1, 0.1], "--")],
                      xlabel="cycle", ylabel="rate", title="t", published=[("paper", 0.076)])
    p2 = plots.grouped_bars(folder, "b", ["8x8", "12x12"], {"x": [1, 2], "y": [2, 3]}, ylabel="s", title="t",
                            marks={"opt": [3, 4]}, logy=True)
    g = KnightGraph(Board(6, 6, [(2, 2)]))
    w = np.where(g.table >= 0, np.arange(g.table.size).reshape(g.table.shape), 0)
    p3 = plots.trail_picture(folder, "p", g, w, title="t")
    for p in (p1, p2, p3):
        assert Path(p).stat().st_size > 1000


def test_bees_section_draws_its_plots(tiny, tmp_path):
    pytest.importorskip("matplotlib")
    bees.run(quick=True, seed=1, plots=str(tmp_path))
    assert (tmp_path / "bees_lengths.png").stat().st_size > 1000
    assert (tmp_path / "bees_times.png").stat().st_size > 1000
