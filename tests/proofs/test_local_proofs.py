"""Local obstructions proved on the cells, without the knight graph (issue 18, item 4).

:func:`ktsolve.proofs.local.local_proof` must say what
:func:`ktsolve.proofs.quick_proof` says on the graph (same argument, same
words) wherever it speaks; its kernels are checked against networkx; its
witnesses are re-checked by :func:`~ktsolve.proofs.local_check.check_local_proof`,
which refuses forged ones; and boards above ``PRESOLVE_MAX`` squares whose
only obstruction is local get the proof from ``solve`` and ``prove``.
"""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from ktsolve import Board, TourSpec, prove, solve
from ktsolve.graph import KnightGraph
from ktsolve.plans import PRESOLVE_MAX, auto_plan, prove_plan
from ktsolve.proofs import _local_kernels as K
from ktsolve.proofs.local import local_cut_proof, local_proof
from ktsolve.proofs.local_check import check_local_proof
from ktsolve.proofs.quick import quick_proof
from ktsolve.result import Proof

#: Holes that leave five squares of the top-left corner joined to the board through c(rows - 2) alone
#: (found by a search over corner groups; the colours stay equal).
CUT_CORNER = [(0, 0), (0, 5), (1, 4), (2, 0), (2, 3), (2, 5), (3, 1), (3, 2), (3, 3), (3, 4), (4, 0), (4, 2)]


def _random_board(rng, lo=4, hi=13, most=25) -> Board:
    while True:
        r, c = (int(x) for x in rng.integers(lo, hi, size=2))
        k = int(rng.integers(0, most))
        holes = sorted({(int(a), int(b)) for a, b in zip(rng.integers(0, r, k), rng.integers(0, c, k))})
        if len(holes) < r * c:
            return Board(r, c, holes)


def _alive(b: Board) -> np.ndarray:
    return np.ascontiguousarray(b.mask.ravel().astype(np.uint8))


def test_kernels_against_networkx():
    rng = np.random.default_rng(5)
    for _ in range(60):
        b = _random_board(rng)
        g = KnightGraph(b)
        nxg = g.to_networkx() if hasattr(g, "to_networkx") else nx.Graph(
            [(i, int(j)) for i in range(g.n) for j in g.neighbours(i)])
        nxg.add_nodes_from(range(g.n))
        alive = _alive(b)
        cells = np.flatnonzero(alive)
        deg = np.empty(b.size, dtype=np.int8)
        K.grid_degree(alive, b.rows, b.cols, deg)
        assert deg[cells].tolist() == [nxg.degree(i) for i in range(g.n)]
        assert not deg[alive == 0].any()
        label = np.empty(b.size, dtype=np.int32)
        k = K.grid_labels(alive, b.rows, b.cols, label, np.empty(b.size, dtype=np.int32))
        assert k == nx.number_connected_components(nxg)
        assert (label[alive == 0] == -1).all()
        for comp in nx.connected_components(nxg):
            assert len({int(label[cells[i]]) for i in comp}) == 1
        z = [np.empty(b.size, dtype=np.int32) for _ in range(3)]
        parts = np.zeros(b.size, dtype=np.uint8)
        reached = K.cut_parts(alive, b.rows, b.cols, int(cells[0]), *z, np.empty(b.size, dtype=np.int8), parts)
        first = nx.node_connected_component(nxg, 0)
        assert reached == len(first)
        cut = {i for i in first if parts[cells[i]] > 1}
        assert cut == set(nx.articulation_points(nxg.subgraph(first)))
        for v in cut:  # the number of pieces left, too
            h = nxg.subgraph(first - {v})
            assert parts[cells[v]] == nx.number_connected_components(h)


def test_same_proofs_as_the_quick_proofs():
    """Argument and words of quick_proof on the graph, on random holed boards and ends (no leaf blocks here)."""
    rng = np.random.default_rng(18)
    said = set()
    split = Board(8, 12, [(r, c) for r in range(8) for c in (5, 6)])  # two 8x5 boards side by side
    named = [Board(20, 20, CUT_CORNER), split, Board(20, 21, CUT_CORNER), Board(1, 2)]
    for k in range(250 + len(named)):
        b = named[k] if k < len(named) else _random_board(rng)
        squares = [tuple(int(x) for x in rc) for rc in b.coords_of(np.arange(b.n_squares))]
        for closed in (True, False):
            s = squares[int(rng.integers(len(squares)))] if rng.random() < 0.4 else None
            e = squares[int(rng.integers(len(squares)))] if rng.random() < 0.4 else None
            spec = TourSpec(closed=closed, start=s, end=e)
            q = quick_proof(KnightGraph(b), spec)
            p = local_proof(b, spec)
            if q is not None and q.argument == "cut square" and p is None:
                continue  # an open tour's leaf blocks: the graph's proof alone (see local.py)
            if q is None and p is not None and p.argument == "forced moves":
                said.add(p.argument)  # the local proofs' own last argument, where the quick ones find nothing
                assert closed and check_local_proof(b, spec, p) is None, (b, spec, p)
                continue
            assert (p and (p.argument, str(p))) == (q and (q.argument, str(q))), (b, spec)
            if p is not None:
                said.add(p.argument)
                assert check_local_proof(b, spec, p) is None, (b, spec, p)
    assert said >= {"size", "ends", "colour parity", "degree", "connectivity", "cut square", "forced moves"}


def test_cut_proof_alone():
    b = Board(20, 20, CUT_CORNER)
    spec = TourSpec(closed=True)
    assert local_proof(b, TourSpec(), cuts=False) is None
    forcing = local_proof(b, spec, cuts=False)  # the forced moves of the corner's squares close a short cycle
    assert forcing.argument == "forced moves" and check_local_proof(b, spec, forcing) is None
    p = local_cut_proof(b, spec)
    assert p.argument == "cut square" and p.evidence["square"] == "c18"
    assert sorted(p.evidence["part"]) == sorted(["b20", "c20", "a19", "d19", "b18"])
    assert check_local_proof(b, spec, p) is None


def test_checker_refuses_forged_witnesses():
    b = Board(20, 20, CUT_CORNER)
    closed, opened = TourSpec(closed=True), TourSpec()
    p = local_cut_proof(b, closed)
    ev = p.evidence

    def forged(**change):
        return Proof("forged", argument=p.argument, evidence={**ev, **change})

    assert check_local_proof(b, closed, forged(part=ev["part"][:-1])) is not None  # a square left out
    assert check_local_proof(b, closed, forged(square="d17")) is not None  # not the cut square
    assert check_local_proof(b, closed, forged(part=[])) is not None
    assert check_local_proof(b, closed, forged(part=ev["part"] + ["c18"])) is not None
    assert check_local_proof(b, closed, forged(part=ev["part"] + ["j10"])) is not None
    assert check_local_proof(b, closed, forged(part=["zz99"])) is not None
    assert check_local_proof(b, opened, p) is not None  # two pieces do not refute an open tour
    assert check_local_proof(b, closed, Proof("x", argument="cut square", evidence={"square": "c18"})) is not None
    # degree
    d = local_proof(Board(8, 8, [(5, 1), (0, 1)]), TourSpec(closed=True))  # a1 keeps one move, b8 holds the colours
    assert d.argument == "degree" and check_local_proof(Board(8, 8, [(5, 1), (0, 1)]), TourSpec(closed=True), d) is None
    full = Board(8, 8)
    for evidence in ({"square": "a1", "neighbours": 1}, {"square": "d4", "neighbours": 0}):
        assert check_local_proof(full, TourSpec(closed=True), Proof("x", argument="degree", evidence=evidence))
    fake_open = {"one_neighbour": ["a1", "h8", "a8"], "fixed_ends": []}
    assert check_local_proof(full, TourSpec(), Proof("x", argument="degree", evidence=fake_open))
    two = Board(8, 8, [(5, 1), (2, 6)])  # a1 and h8 keep one move each: an open tour may end on both
    assert check_local_proof(two, TourSpec(), Proof("x", argument="degree", evidence={
        "one_neighbour": ["a1", "h8"], "fixed_ends": []}))


def test_plans_above_presolve_max():
    b = Board.from_mask(np.pad(np.ones((1, 1), bool), ((0, 2999), (0, 2999))))
    assert b.n_squares > PRESOLVE_MAX
    names = [s.name for s in auto_plan(b, TourSpec(closed=True))]
    assert names[:3] == ["local proofs", "splice", "local cuts"], names
    names = [s.name for s in prove_plan(b, TourSpec(closed=True))]
    assert names[:3] == ["local proofs", "splice", "local cuts"], names


def _huge(holes, n=3000) -> Board:
    m = np.zeros((n, n), dtype=bool)
    for r, c in holes:
        m[r, c] = True
    return Board.from_mask(m)


@pytest.mark.parametrize("call", [solve, prove])
def test_cornered_square_of_a_huge_board(call):
    """a1 keeps one move: the one-pass local proofs settle it before splice, without the graph."""
    n = 3000
    b = _huge([(n - 3, 1), (n // 2, n // 2 + 1)])
    assert b.n_squares > PRESOLVE_MAX and b.colour_counts()[0] == b.colour_counts()[1]
    res = call(b, closed=True, time_limit=60, seed=1)
    assert res.status.value == "infeasible" and res.proof.argument == "degree", res.stats
    assert res.stats["settled_by"] == "local proofs"
    assert check_local_proof(b, TourSpec(closed=True), res.proof) is None
    assert "table" not in KnightGraph.of(b).__dict__


@pytest.mark.parametrize("call", [solve, prove])
def test_cut_square_of_a_huge_board(call):
    """Two halves joined through ber1500 alone, across a wall of holes two columns thick (and a square taken
    to balance the colours): splice cannot close the tour, the local cut search proves why.  The forcing of
    the local proofs finds nothing here: no squares cut off are cornered."""
    n = 3000
    b = _huge([(r, c) for r in range(n) for c in (n // 2 - 1, n // 2) if (r, c) != (n // 2, n // 2 - 1)] + [(10, 11)])
    assert b.n_squares > PRESOLVE_MAX and b.colour_counts()[0] == b.colour_counts()[1]
    res = call(b, closed=True, time_limit=120, seed=1)
    assert res.status.value == "infeasible" and res.proof.argument == "cut square", res.stats
    assert res.stats["settled_by"] == "local cuts"
    assert res.proof.evidence["square"] == "ber1500"
    assert res.proof.evidence["sizes"] == [b.n_squares // 2, b.n_squares // 2 - 1]


@pytest.mark.parametrize("call", [solve, prove])
def test_a_cornered_group_of_a_huge_board_is_refuted_by_forcing(call):
    """Five corner squares hang on c2998: the forcing of the one-pass local proofs refutes the closed tour
    before splice and without the graph, with the steps it rests on alone."""
    b = _huge(CUT_CORNER)
    assert b.n_squares > PRESOLVE_MAX
    res = call(b, closed=True, time_limit=120, seed=1)
    assert res.status.value == "infeasible" and res.proof.argument == "forced moves", res.stats
    assert res.stats["settled_by"] == "local proofs"
    assert sorted(res.proof.evidence["conclusion"]["squares"]) == sorted(["c2998", "b3000", "a2999", "c3000",
                                                                          "d2999", "b2998"])
    assert len(res.proof.evidence["steps"]) < 10
    assert check_local_proof(b, TourSpec(closed=True), res.proof) is None
    assert "table" not in KnightGraph.of(b).__dict__


# ---------------------------------------------------------------------- the deadline (issue 28, item 2)
def _searched(b, budget):
    """The cut-square search and the labels of ``b``, run in parts of ``budget`` steps."""
    alive = _alive(b)
    size = b.size
    disc, low, stack = (np.empty(size, dtype=np.int32) for _ in range(3))
    moves, parts, state = np.empty(size, dtype=np.int8), np.zeros(size, dtype=np.uint8), np.zeros(3, dtype=np.int64)
    K.cut_start(int(np.argmax(alive)), disc, low, stack, moves, parts, state)
    calls = 0
    while not state[2]:
        K.cut_steps(alive, b.rows, b.cols, disc, low, stack, moves, parts, state, budget)
        calls += 1
    label, queue, lstate = np.empty(size, dtype=np.int32), np.empty(size, dtype=np.int32), np.zeros(5, dtype=np.int64)
    K.labels_start(label, lstate)
    while not lstate[4]:
        K.labels_steps(alive, b.rows, b.cols, label, queue, lstate, budget)
    return disc, low, parts, int(state[0]), label, int(lstate[3]), calls


@pytest.mark.parametrize("holes", [CUT_CORNER, [(r, c) for r in range(30) for c in (14, 15)]])
def test_the_cut_search_and_the_labels_are_the_same_in_steps_of_one_and_in_one_call(holes):
    b = Board(30, 40, holes=holes)
    whole, one = _searched(b, 1 << 30), _searched(b, 1)
    reached = whole[0] >= 0  # low points exist on the squares reached
    assert np.array_equal(whole[0], one[0]) and np.array_equal(whole[1][reached], one[1][reached])
    for a, c in zip(whole[2:-1], one[2:-1]):
        assert np.array_equal(a, c) if isinstance(a, np.ndarray) else a == c
    assert whole[-1] == 1 and one[-1] > b.n_squares


class _Counting:
    """A clock that counts its checks and stops at the ``at``-th (``interrupted``: as Ctrl-C would)."""

    def __new__(cls, at, interrupted=False):
        from ktsolve.driver import Deadline, Stopped

        class Clock(Deadline):
            def check(self, phase=""):
                self.n = getattr(self, "n", 0) + 1
                if self.n >= at:
                    raise Stopped("interrupted" if interrupted else "time limit", phase)

        return Clock(None)


@pytest.mark.parametrize("interrupted", [False, True])
def test_the_local_cut_proof_stops_between_parts_of_its_search(monkeypatch, interrupted):
    from ktsolve.driver import Stopped
    from ktsolve.factor import chunks

    monkeypatch.setattr(chunks, "MOST", 1)
    b = Board(30, 40, holes=[(r, c) for r in range(30) for c in (14, 15)])  # two parts: the labels run too
    for at in (2, 50, 5000):
        with pytest.raises(Stopped, match="while running the local cut proofs") as stop:
            local_cut_proof(b, TourSpec(closed=True), time_limit=_Counting(at, interrupted))
        assert stop.value.interrupted is interrupted
    monkeypatch.setattr(chunks, "MOST", 1 << 30)
    assert local_cut_proof(b, TourSpec(closed=True), time_limit=_Counting(10)).argument == "connectivity"
