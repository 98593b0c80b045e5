"""The colonies' bench section: tables with published figures beside ours, plots on request."""

from __future__ import annotations

import pytest

from ktsolve.bench import colonies, format_table, sections


@pytest.fixture
def tiny(monkeypatch):
    monkeypatch.setattr(colonies, "_budgets", lambda quick: {
        "hk_cycles": 30, "hk_runs": 1, "iaco_cycles": 10, "ga_attempts": 2000, "dfs_nodes": 20000,
        "seed_runs": 2, "seed_cycles": 20, "seed_rate_cycles": 10, "seed_big": False, "seed_dfs_nodes": 200_000})


def test_section_is_registered():
    assert "colonies" in sections()


def test_tables_put_published_figures_beside_ours(tiny):
    calls = []
    hk, t1, seeding = colonies.run(quick=True, seed=3, progress=lambda d, t: calls.append((d, t)))
    assert calls[-1][0] == calls[-1][1]
    assert hk.rows[-1][4] == 488_000 and hk.rows[-1][7] == 0.076
    assert hk.rows[0][1] == 30 and hk.rows[0][2] == 30 * 64
    assert [r[0] for r in t1.rows] == ["DFS", "GA", "ACO", "IACO"]
    assert [r[2] for r in t1.rows] == [0.000003, 0.000642, 0.076, 0.0782]
    assert all(isinstance(r[3], float) for r in t1.rows)
    text = format_table(t1)
    assert "0.0782" in text and "quick" in text
    assert {r[1] for r in seeding.rows} == {"aco", "iaco"} and len(seeding.rows) == 8


def test_plots(tiny, tmp_path):
    pytest.importorskip("matplotlib")
    colonies.run(quick=True, seed=1, plots=str(tmp_path))
    assert (tmp_path / "colonies_production.png").stat().st_size > 1000
    assert (tmp_path / "colonies_pheromone.png").stat().st_size > 1000
