"""The Takefuji-Lee network: kernels against a slow reference, tours validated, budgets honest."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from numba import njit

from ktsolve import Board, KnightGraph, Status, TourSpec, solve, validate
from ktsolve.errors import UnsupportedError
from ktsolve.heuristics import _neural_kernels as neural_kernels
from ktsolve.heuristics import neural
from ktsolve.seeds import derive_seeds as unit_seeds
from ktsolve.heuristics.neural import (
    MODES,
    RULES,
    NeuralRule,
    merge_cycles,
    neural_net,
    sample_neural,
    solve_neural,
)

from conftest import load_oracle, random_board
from naive_splitmix import SplitMix64

CLOSED = TourSpec(closed=True)


# ---------------------------------------------------------------------- slow reference
class RefNet:
    """A readable network: edges as pairs of squares, neighbours found by sharing a square."""

    def __init__(self, graph: KnightGraph):
        net = neural_net(graph)
        self.edges = [(int(x), int(y)) for x, y in zip(net.ea, net.eb)]
        self.n = graph.n
        self.touching = []
        for e, (x, y) in enumerate(self.edges):
            self.touching.append([f for f, (u, v) in enumerate(self.edges) if f != e and {u, v} & {x, y}])

    def increment(self, V, e, a, b):
        s = sum(V[f] for f in self.touching[e])
        return a - s - b * V[e]

    def sweep(self, U, V, order, rule, rs, clamp):
        a, b = rule.a, rule.b
        if rule.mode == "sync":
            inc = [self.increment(V, e, a, b) for e in range(len(self.edges))]
            new = list(V)
            for e in range(len(self.edges)):
                if clamp[e]:
                    continue
                U[e] += inc[e]
                new[e] = 1 if U[e] > 3 else 0 if U[e] < 0 else V[e]
            V[:] = new
            return
        if rule.mode == "random":
            for i in range(len(order) - 1, 0, -1):
                j = rs.below(i + 1)
                order[i], order[j] = order[j], order[i]
        for e in order:
            if clamp[e]:
                continue
            U[e] += self.increment(V, e, a, b)
            V[e] = 1 if U[e] > 3 else 0 if U[e] < 0 else V[e]

    def stable(self, V, rule, clamp):
        for e in range(len(self.edges)):
            if clamp[e]:
                continue
            inc = self.increment(V, e, rule.a, rule.b)
            if (V[e] == 1 and inc < 0) or (V[e] == 0 and inc > 0):
                return False
        return True

    def classify(self, V):
        g = nx.Graph()
        g.add_nodes_from(range(self.n))
        g.add_edges_from(self.edges[e] for e in range(len(V)) if V[e])
        if any(d != 2 for _, d in g.degree()):
            return "other_fixed"
        return "tour" if nx.number_connected_components(g) == 1 else "multi_cycle"

    def attempt(self, seed, rule, p_on=0.5, max_sweeps=1000, clamp=None):
        rs = np.random.RandomState(seed)
        E = len(self.edges)
        clamp = clamp if clamp is not None else [0] * E
        V = [1 if clamp[e] else (1 if rs.random_sample() < p_on else 0) for e in range(E)]
        shuffler = SplitMix64(int(rs.random_sample() * 2**53))
        U = [0] * E
        order = list(range(E))
        for s in range(1, max_sweeps + 1):
            self.sweep(U, V, order, rule, shuffler, clamp)
            if self.stable(V, rule, clamp):
                return self.classify(V), s, V
        return "non_converged", max_sweeps, V


def reference_counts(graph, attempts, rule, seed, p_on=0.5, max_sweeps=1000):
    ref = RefNet(graph)
    counts = dict.fromkeys(("tours", "multi_cycle", "other_fixed", "non_converged"), 0)
    sweeps = 0
    first = None
    for t, s in enumerate(unit_seeds(seed, neural._STREAM, 0, attempts)):
        out, k, V = ref.attempt(int(s), rule, p_on, max_sweeps)
        counts["tours" if out == "tour" else out] += 1
        sweeps += k
        if out == "tour" and first is None:
            first = (t, np.array(V, dtype=np.int32))
    return counts, sweeps, first


def is_hamiltonian_cycle(graph, V):
    net = neural_net(graph)
    g = nx.Graph()
    g.add_nodes_from(range(graph.n))
    g.add_edges_from((int(net.ea[e]), int(net.eb[e])) for e in np.flatnonzero(V))
    return all(d == 2 for _, d in g.degree()) and nx.is_connected(g)


# ---------------------------------------------------------------------- kernels
@njit
def seed_numba(s):
    np.random.seed(s)  # numba's generator is one per thread, shared by every jitted function


def kernel_attempt(graph, seed, rule, max_sweeps=300):
    """One attempt of the kernel alone: (outcome code, outputs)."""
    net = neural_net(graph)
    E, n = net.n_edges, graph.n
    V = np.zeros(E, np.int32)
    seed_numba(int(seed))
    out, _ = neural._attempt(net.ea, net.eb, net.eid, rule.a, rule.b, MODES[rule.mode], 0.5, max_sweeps,
                             np.zeros(E, np.int32), np.zeros(E, np.int32), V, np.zeros(n, np.int32),
                             np.zeros(E, np.int32), np.zeros(E, np.int32), np.zeros(n, np.int32),
                             np.zeros(1, np.uint64))
    return out, V


def test_splitmix_matches_reference():
    """The generator the shuffles draw from (ktsolve._splitmix.below) replays the reference's stream."""
    for state in (0, 1, 2**63 + 12345, 2**64 - 1):
        rng = np.array([state], dtype=np.uint64)
        ref = SplitMix64(state)
        for m in (1, 2, 7, 168, 2**31):
            got = [neural_kernels.below(rng, m) for _ in range(20)]
            assert got == [ref.below(m) for _ in range(20)]
            assert all(0 <= x < m for x in got)
        assert int(rng[0]) == ref.state


@pytest.mark.parametrize("mode", list(MODES))
def test_one_sweep_matches_reference(mode):
    """One sweep from a given state and order: same U, V, and degree counts."""
    rng = np.random.default_rng(11)
    for board in (Board(6, 6), Board(5, 5, [(0, 0)]), random_board(rng, 4, 7, 0.2)):
        g = KnightGraph(board)
        net = neural_net(g)
        ref = RefNet(g)
        E = net.n_edges
        if E == 0:
            continue
        for a, b in ((4, 2), (3, 1), (2, 0)):
            rule = NeuralRule(a, b, mode)
            U = rng.integers(-3, 7, E).astype(np.int32)
            V = rng.integers(0, 2, E).astype(np.int32)
            clamp = (rng.random(E) < 0.1).astype(np.int32)
            V[clamp == 1] = 1
            order = rng.permutation(E).astype(np.int32)
            dv = np.zeros(g.n, dtype=np.int32)
            np.add.at(dv, net.ea, V)
            np.add.at(dv, net.eb, V)
            U2, V2, ordr = list(U), list(V), list(order)
            state = int(rng.integers(0, 2**63)) * 2 + 1
            neural._sweep(net.ea, net.eb, U, V, dv, order, np.zeros(E, np.int32), clamp, a, b, MODES[mode],
                          np.array([state], dtype=np.uint64))
            ref.sweep(U2, V2, ordr, rule, SplitMix64(state), clamp)
            assert U.tolist() == U2 and V.tolist() == V2
            assert order.tolist() == ordr
            dv_ref = np.zeros(g.n, dtype=np.int64)
            for e in np.flatnonzero(V):
                dv_ref[net.ea[e]] += 1
                dv_ref[net.eb[e]] += 1
            assert dv.tolist() == dv_ref.tolist()
            assert bool(neural._stable(net.ea, net.eb, V, dv, clamp, a, b)) == ref.stable(V2, rule, clamp)


@pytest.mark.parametrize(
    "board, rule",
    [
        (Board(6, 6), "sequential"),
        (Board(6, 6), "seed"),
        (Board(6, 6), "fixed"),
        (Board(3, 10), "sequential"),
        (Board(5, 5, [(0, 0)]), "paper"),
        (Board(6, 5, [(2, 2), (0, 4)]), "sequential"),
    ],
)
def test_whole_attempts_match_reference(board, rule):
    """Counts of every outcome, total sweeps and the first tour agree with the slow network."""
    g = KnightGraph(board)
    r = RULES[rule]
    attempts = 25 if r.mode != "sync" else 8
    st = sample_neural(g, attempts, rule=rule, seed=4, max_sweeps=200)
    counts, sweeps, first = reference_counts(g, attempts, r, 4, max_sweeps=200)
    assert {k: st[k] for k in counts} == counts
    assert st["sweeps"] == sweeps
    if first is None:
        assert st["first_tour"] is None
    else:
        assert st["first_tour"] == first[0]
        assert st["tour_V"].tolist() == first[1].tolist()


def test_chunking_does_not_change_the_run():
    """Every attempt has its own stream: 300 attempts in one call or in two give the same counts."""
    g = KnightGraph(Board(6, 6))
    net = neural_net(g)
    r = RULES["sequential"]
    seeds = unit_seeds(8, neural._STREAM, 0, 300)

    def run(part):
        counts = np.zeros(6, np.int64)
        args = (net.table, net.eid, net.ea, net.eb, r.a, r.b, MODES[r.mode], 0.5, 1000,
                np.zeros(net.n_edges, np.int32))
        for chunk in part:
            neural._run(*args, chunk, False, True, counts, np.zeros(net.n_edges, np.int32),
                        np.zeros(net.n_edges, np.int32), np.array([-1, -1]))
        return counts.tolist()

    assert run([seeds]) == run([seeds[:100], seeds[100:]]) == run([seeds[:7], seeds[7:250], seeds[250:]])
    st = sample_neural(g, 300, seed=8, repair=True)
    assert [st[k] for k in neural._COUNTERS] == run([seeds])


def reference_merge(graph, V, clamp):
    """The documented scan, written plainly: first (a, b, c, d) in square/cycle/move order."""
    net = neural_net(graph)
    table = graph.table
    V = list(int(v) for v in V)
    nb = {i: [] for i in range(graph.n)}
    for e in range(len(V)):
        if V[e]:
            x, y = int(net.ea[e]), int(net.eb[e])
            nb[x].append(y)
            nb[y].append(x)

    def comps():
        g = nx.Graph()
        g.add_nodes_from(range(graph.n))
        g.add_edges_from((x, y) for x in nb for y in nb[x])
        lab = {}
        for k, c in enumerate(nx.connected_components(g)):
            for s in c:
                lab[s] = k
        return lab, nx.number_connected_components(g)

    while True:
        lab, count = comps()
        if count == 1:
            return V
        hit = None
        for a in range(graph.n):
            for b in nb[a]:
                if clamp[net.edge(a, b)]:
                    continue
                for c in table[a]:
                    c = int(c)
                    if c < 0 or lab[c] == lab[a]:
                        continue
                    for d in nb[c]:
                        if clamp[net.edge(c, d)] or net.edge(b, d) < 0:
                            continue
                        hit = (a, b, c, d)
                        break
                    if hit:
                        break
                if hit:
                    break
            if hit:
                break
        if hit is None:
            return None
        a, b, c, d = hit
        V[net.edge(a, b)] = 0
        V[net.edge(c, d)] = 0
        V[net.edge(a, c)] = 1
        V[net.edge(b, d)] = 1
        nb[a][nb[a].index(b)] = c
        nb[c][nb[c].index(d)] = a
        nb[b][nb[b].index(a)] = d
        nb[d][nb[d].index(c)] = b


def test_merge_cycles_matches_reference_and_gives_a_cycle():
    merged = failed = 0
    for board in (Board(6, 6), Board(8, 8), Board(6, 7, [(0, 0), (5, 6)])):
        g = KnightGraph(board)
        E = neural_net(g).n_edges
        for s in unit_seeds(3, 1, 0, 40):
            out, V = kernel_attempt(g, s, RULES["sequential"])
            if out != neural._MULTI:
                continue
            clamp = np.zeros(E, dtype=np.int32)
            got = merge_cycles(g, V, clamp)
            want = reference_merge(g, V, clamp)
            if want is None:
                assert got is None
                failed += 1
            else:
                assert got is not None and got.tolist() == want
                assert is_hamiltonian_cycle(g, got)
                merged += 1
    assert merged > 10


# ---------------------------------------------------------------------- tours
@pytest.mark.parametrize(
    "board",
    [Board(6, 6), Board(3, 10), Board(5, 5, [(0, 0)]), Board(3, 7, [(1, 1)]), Board(3, 9, [(0, 0)]),
     Board(7, 7, [(3, 3)]), Board(8, 8), Board(6, 6, [(0, 0), (5, 5), (0, 5), (5, 0)])],
)
def test_finds_closed_tours(board):
    res = solve(board, method="neural", closed=True, seed=1)
    assert res.status is Status.FOUND, res.stats
    validate(board, res.tour, closed=True)
    assert res.tour.is_complete and res.tour.closed
    assert res.stats["tours"] == 1 and res.stats["tour_source"] == "network"


def test_seed_rule_is_reachable_and_finds_6x6():
    res = solve("6x6", method="neural", closed=True, seed=2, rule="seed", attempts=2000)
    assert res.found and res.stats["rule"] == "seed"
    assert "3 - S - 1V" in res.stats["update"]
    default = solve("6x6", method="neural", closed=True, seed=2)
    assert default.stats["rule"] == "sequential" and "4 - S - 2V" in default.stats["update"]
    custom = solve("6x6", method="neural", closed=True, seed=2, rule="4,2,fixed")
    assert custom.found and custom.stats["rule"] == "4,2,fixed"


def test_start_and_end():
    board = Board(6, 6)
    res = solve(board, method="neural", closed=True, start="c3", seed=3)
    assert res.tour.names()[0] == "c3"
    # a1 and b3 are a knight's move apart: the closing edge is clamped on.
    res = solve(board, method="neural", closed=True, start="a1", end="b3", seed=3)
    assert res.found
    validate(board, res.tour, closed=True, start="a1", end="b3")
    res = solve(board, method="neural", closed=True, end="d4", seed=3)
    assert res.tour.names()[-1] == "d4"
    # a1 and a2 are not a knight's move apart: the presolve proves it; the method alone says unknown.
    res = solve(board, method="neural", closed=True, start="a1", end="a2", seed=3, attempts=5)
    assert res.status is Status.INFEASIBLE
    res = solve_neural(KnightGraph(board), TourSpec(closed=True, start=(5, 0), end=(4, 0)), seed=3, attempts=5)
    assert res.status is Status.UNKNOWN and "not a knight's move" in res.stats["reason"]
    assert res.stats["attempts"] == 0


def test_same_seed_same_tour_different_seeds_differ():
    a = solve("8x8", method="neural", closed=True, seed=10)
    b = solve("8x8", method="neural", closed=True, seed=10)
    assert a.tour == b.tour and a.stats["attempts"] == b.stats["attempts"]
    tours = {tuple(solve("8x8", method="neural", closed=True, seed=s).tour.squares) for s in range(4)}
    assert len(tours) > 1


IMPOSSIBLE = [Board(5, 5), Board(4, 4), Board(4, 6), Board(3, 6), Board(6, 6, [(0, 0)]),
              Board(3, 5, [(0, 0)])] + [
    Board(*c["board"], [tuple(h) for h in c["holes"]])
    for c in load_oracle("holed.json")["cases"]
    if c["kind"] == "closed" and not c["exists"]
]


@pytest.mark.parametrize("board", IMPOSSIBLE, ids=lambda b: f"{b.rows}x{b.cols}-{len(b.holes)}holes")
def test_never_a_tour_where_none_exists(board):
    g = KnightGraph(board)
    res = solve_neural(g, CLOSED, seed=1, attempts=150, max_sweeps=200, repair=True)
    assert res.status is Status.UNKNOWN and res.tour is None
    assert res.stats["tours"] == 0 and res.stats["repaired"] == 0
    assert res.stats["attempts"] == 150
    via_solve = solve(board, method="neural", closed=True, seed=1, attempts=50)
    assert via_solve.status in (Status.INFEASIBLE, Status.UNKNOWN)


def test_repair_is_counted_apart():
    g = KnightGraph(Board(10, 10))
    plain = sample_neural(g, 150, seed=6)
    rep = sample_neural(g, 150, seed=6, repair=True)
    assert rep["tours"] == plain["tours"] and rep["multi_cycle"] == plain["multi_cycle"]
    assert rep["tour_rate"] == plain["tour_rate"]
    assert 0 < rep["repaired"] <= rep["multi_cycle"] and plain["repaired"] == 0
    assert is_hamiltonian_cycle(g, rep["repaired_V"])
    # A repaired tour is returned only when asked for, and is labelled.
    res = solve_neural(KnightGraph(Board(12, 12)), CLOSED, seed=1, repair=True, attempts=20)
    if res.found and res.stats["tour_source"] == "repair":
        assert res.stats["repaired"] >= 1
        validate(Board(12, 12), res.tour, closed=True)


def test_budgets_and_bad_parameters():
    g = KnightGraph(Board(6, 6))
    res = solve_neural(g, CLOSED, seed=1, attempts=3, max_sweeps=2)
    assert res.status is Status.UNKNOWN and res.stats["attempts"] == 3
    assert res.stats["non_converged"] == 3
    res = solve_neural(g, CLOSED, seed=1, time_limit=1e-9)
    assert res.status is Status.UNKNOWN and "time limit" in res.stats["reason"]
    with pytest.raises(UnsupportedError):
        solve_neural(g, TourSpec(closed=False))
    with pytest.raises(UnsupportedError):
        solve("6x6", method="neural")
    for bad in ({"rule": "nope"}, {"rule": "4,2,sideways"}, {"p_on": 2.0}, {"max_sweeps": 0},
                {"attempts": 0}):
        with pytest.raises(UnsupportedError):
            solve_neural(g, CLOSED, seed=1, **bad)


def test_board_without_moves():
    res = solve_neural(KnightGraph(Board(2, 2)), CLOSED, seed=1)
    assert res.status is Status.UNKNOWN and "no knight's move" in res.stats["reason"]


def test_cli_neural(tmp_path):
    from conftest import invoke
    import json

    out = invoke(["solve", "6x6", "--closed", "--method", "neural", "--seed", "1", "--format", "json"], 0)
    data = json.loads(out.stdout)
    assert data["status"] == "found" and data["stats"]["rule"] == "sequential"
    out = invoke(["solve", "6x6", "--closed", "--method", "neural", "--seed", "1", "-p", "rule=seed",
                  "-p", "attempts=3000", "--format", "json"], 0)
    assert json.loads(out.stdout)["stats"]["rule"] == "seed"
    invoke(["solve", "6x6", "--method", "neural"], 2)
