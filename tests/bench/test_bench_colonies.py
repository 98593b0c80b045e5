"""The colonies' bench section: tables with published figures beside ours, public API only, plots on request."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from ktsolve.bench import colonies, format_table, sections

TINY = {"hk_cycles": 30, "hk_runs": 2, "dfs_starts": 2, "dfs_tries": 2000, "warnsdorff_tries": 500,
        "ga_attempts": 2000, "sweep_walks": 600, "holed_limit": 0.3, "holed_iaco_default": ("13x13",),
        "count_cycles": 20}


@pytest.fixture
def tiny(monkeypatch):
    monkeypatch.setattr(colonies, "_budgets", lambda quick: dict(TINY))
    monkeypatch.setattr(colonies, "RHOS", (0.3, 0.45, 0.6))
    monkeypatch.setattr(colonies, "FS", (float("-inf"), 0.0, float("inf")))


def test_section_is_registered():
    assert "colonies" in sections()


def test_the_section_uses_the_public_api_only():
    tree = ast.parse(Path(colonies.__file__).read_text(encoding="utf-8"))
    imported = {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
    assert not [m for m in imported if "heuristics" in m or "models" in m]


def test_tables_put_published_figures_beside_ours(tiny):
    calls = []
    tables = colonies.run(quick=True, seed=3, progress=lambda d, t: calls.append((d, t)))
    assert calls[-1][0] == calls[-1][1]
    hk, hk_dfs, t1, rho, f, holed, cycles, counted = tables
    assert hk.rows[-1][3] == 488_245 and hk.rows[-1][4] == 9_192 and hk.rows[-1][8] == 0.076
    assert hk.rows[0][1] == 30 and hk.rows[0][2] == 30 * 64
    assert [r[0] for r in t1.rows] == ["DFS", "GA", "ACO", "IACO"]
    assert [r[2] for r in t1.rows] == [0.000003, 0.000642, 0.076, 0.0782]
    assert all(isinstance(r[3], float) for r in t1.rows)
    assert t1.rows[2][4] == t1.rows[3][4] or abs(t1.rows[2][4] - t1.rows[3][4]) < 3  # equal walks
    assert hk_dfs.rows[1][3] == 308.6 and hk_dfs.rows[3][2] == 7_894_584 and hk_dfs.rows[3][4] == 1_188_384
    assert [r[0] for r in rho.rows] == [0.3, 0.45, 0.6] and rho.rows[1][1] == "best at 0.45"
    assert f.rows[1][1] == "dip near 0"
    assert {r[0] for r in holed.rows} == {"8x8", "9x12", "10x10", "13x13", "15x15"}
    assert {r[2] for r in holed.rows} == {"open", "closed"}
    assert hk.rows[-1][10] == "2.49e-11"  # 488,245 of OEIS A165134's 19,591,828,170,979,904
    assert [r[5] for r in counted.rows[:2]] == ["1,728", "6,637,920"]  # A165134's 5x5 and 6x6, counted here
    assert all(r[2] <= int(r[5].replace(",", "")) for r in counted.rows)
    for table in tables:
        text = format_table(table)
        assert "quick" in text or table is cycles
        for row in table.rows:
            assert None not in row  # a missing figure says why, never a bare "-"


def test_plots(tiny, tmp_path):
    pytest.importorskip("matplotlib")
    colonies.run(quick=True, seed=1, plots=str(tmp_path))
    for name in ("production", "rho", "f", "pheromone"):
        assert (tmp_path / f"colonies_{name}.png").stat().st_size > 1000


def test_plots_without_matplotlib_fail_before_the_work(tiny, monkeypatch, tmp_path):
    import builtins

    from ktsolve.errors import UnsupportedError

    real = builtins.__import__

    def no_matplotlib(name, *args, **kw):
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real(name, *args, **kw)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    monkeypatch.setattr(colonies, "_hk_run", lambda *a: pytest.fail("work started"))
    with pytest.raises(UnsupportedError, match="matplotlib"):
        colonies.run(quick=True, seed=1, plots=str(tmp_path))
