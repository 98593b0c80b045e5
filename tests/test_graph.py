import networkx as nx
import numpy as np
import pytest

from ktsolve import Board, KnightGraph
from ktsolve.graph import leaper_moves
from ktsolve.graph import KNIGHT_MOVES

from conftest import random_board


def reference_neighbours(board, moves):
    """Slow, readable neighbour lists in move order."""
    out = {}
    for r in range(board.rows):
        for c in range(board.cols):
            if not board.mask[r, c]:
                continue
            nb = []
            for dr, dc in moves:
                r2, c2 = r + dr, c + dc
                if 0 <= r2 < board.rows and 0 <= c2 < board.cols and board.mask[r2, c2]:
                    nb.append(board.index(r2, c2))
            out[board.index(r, c)] = nb
    return out


@pytest.mark.parametrize("rows, cols", [(1, 1), (2, 3), (3, 3), (5, 7), (8, 8), (10, 3)])
def test_edge_count_formula(rows, cols):
    g = KnightGraph(Board(rows, cols))
    if rows >= 2 and cols >= 2:
        assert g.n_edges == 4 * rows * cols - 6 * (rows + cols) + 8


def test_csr_matches_reference_on_random_boards():
    rng = np.random.default_rng(3)
    for _ in range(40):
        board = random_board(rng, 1, 9, 0.4)
        g = KnightGraph(board)
        ref = reference_neighbours(board, KNIGHT_MOVES.tolist())
        assert g.indptr.dtype == np.int32 and g.indices.dtype == np.int32
        for i in range(g.n):
            assert g.neighbours(i).tolist() == ref[i]
            mv = g.edge_move[g.indptr[i] : g.indptr[i + 1]]
            for j, m in zip(g.neighbours(i), mv):
                d = g.coords[j] - g.coords[i]
                assert d.tolist() == KNIGHT_MOVES[m].tolist()
        nxg = g.to_networkx()
        assert nxg.number_of_edges() == g.n_edges
        assert nxg.number_of_nodes() == g.n


def test_other_leapers():
    board = Board(6, 6, holes=[(2, 2)])
    moves = leaper_moves(1, 3)
    g = KnightGraph(board, moves)
    ref = reference_neighbours(board, moves.tolist())
    assert all(g.neighbours(i).tolist() == ref[i] for i in range(g.n))
    assert nx.is_bipartite(g.to_networkx())


def test_graph_of_is_shared():
    b = Board(6, 6)
    assert KnightGraph.of(b) is KnightGraph.of(Board(6, 6))


def test_node_lookup():
    g = KnightGraph(Board(8, 8, holes=[(0, 0)]))
    assert g.node("a1") == 55
    assert g.node((0, 1)) == 0
    assert g.name(0) == "b8"


def test_banded_build_matches_the_reference_across_many_bands(monkeypatch):
    """Bands of a few rows: the arrays agree with the reference on holed boards and other leapers."""
    import ktsolve.graph as graph_module

    monkeypatch.setattr(graph_module, "BAND_SQUARES", 7)
    rng = np.random.default_rng(11)
    for moves in (KNIGHT_MOVES, leaper_moves(1, 3)):
        for _ in range(15):
            board = random_board(rng, 1, 12, 0.3)
            g = KnightGraph(board, moves)
            g.build(coords=True)
            ref = reference_neighbours(board, moves.tolist())
            want = board.coords_of(np.arange(board.n_squares))
            assert g.coords.dtype == np.int32 and g.coords.tolist() == want.tolist()
            assert g.colour.tolist() == ((want[:, 0] + want[:, 1]) % 2).tolist()
            assert g.degree.tolist() == [len(ref[i]) for i in range(g.n)]
            assert all(g.neighbours(i).tolist() == ref[i] for i in range(g.n))
            want_edges = sorted((u, v) for u in range(g.n) for v in ref[u] if u < v)
            assert g.edges().dtype == np.int32 and sorted(map(tuple, g.edges().tolist())) == want_edges


def test_the_moves_are_listed_in_bands_against_the_clock(monkeypatch):
    """graph.edges in bands of 10 squares: every band looks at the deadline, and the list is the same."""
    import ktsolve.graph as graph_module
    from ktsolve.driver import Deadline, Stopped

    g = KnightGraph(Board(40, 40, holes=[(0, 0)]))
    whole = g.edges()
    monkeypatch.setattr(graph_module, "BAND_SQUARES", 10)
    looks = []

    class Clock(Deadline):
        def check(self, phase=""):
            looks.append(phase)

    assert np.array_equal(g.edges(Clock(None)), whole)
    assert looks == ["listing the knight graph's moves"] * 160
    with pytest.raises(Stopped, match="the time limit ran out while listing the knight graph's moves"):
        g.edges(Deadline(1e-9, t0=0.0))


def test_build_stops_at_the_deadline_and_keeps_nothing(monkeypatch):
    import ktsolve.graph as graph_module
    from ktsolve.driver import Deadline, Stopped

    monkeypatch.setattr(graph_module, "BAND_SQUARES", 10)
    g = KnightGraph(Board(40, 40, holes=[(0, 0)]))
    with pytest.raises(Stopped, match="the time limit ran out while building the knight graph"):
        g.build(Deadline(1e-9, t0=0.0))
    assert "table" not in g.__dict__ and "_csr" not in g.__dict__
    assert g.build(Deadline(60)) >= 0
    assert g.table.shape == (1599, 8) and g.indptr[-1] == 2 * g.n_edges


def test_build_without_csr_leaves_the_csr_for_later():
    g = KnightGraph(Board(9, 9))
    g.build(csr=False)
    assert "table" in g.__dict__ and "degree" in g.__dict__ and "_csr" not in g.__dict__
    assert int(g.indptr[-1]) == int(g.degree.sum())
