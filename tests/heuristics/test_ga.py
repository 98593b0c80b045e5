"""Gordon & Slocum's genetic algorithm: generations replayed exactly in Python, repair, behaviour."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import load_oracle
from naive_splitmix import SplitMix64
from ktsolve import Board, KnightGraph, Status, TourSpec, solve, validate
from ktsolve.errors import UnsupportedError
from ktsolve.heuristics.ga import PARAMS, _GA, ga_rate, solve_ga
from ktsolve.heuristics._ga_kernels import decode as _decode


def decode(table, genes, start):
    """Walk with repair to the next legal unvisited move type (cyclic); genes repaired in place."""
    seen = {start}
    path = [start]
    s = start
    for i, g in enumerate(genes):
        for t in range(8):
            m = (g + t) % 8
            d = table[s][m] if m < len(table[s]) else -1
            if d >= 0 and d not in seen:
                break
        else:
            return i, path
        genes[i] = m
        s = d
        seen.add(s)
        path.append(s)
    return len(genes), path


def reference(graph, start, generations, seed, *, p=6, crossover=0.9, mutation=0.05, stall=3):
    """The GA of ktsolve.heuristics.ga, draw for draw: returns (population, fitness, counts)."""
    table = graph.table.tolist()
    n = graph.n
    m = n - 1
    rng = SplitMix64(seed)
    counts = {"attempts": 0, "complete": 0, "restarts": 0}

    def init():
        st = start if start >= 0 else int(rng.uniform() * n)
        pop = [[int(rng.uniform() * 8) for _ in range(m)] for _ in range(p)]
        fit = []
        for genes in pop:
            fit.append(decode(table, genes, st)[0])
            counts["attempts"] += 1
        return st, pop, fit

    st, pop, fit = init()
    best_seen, idle = -1, 0
    for _ in range(generations):
        best = max(range(p), key=lambda i: (fit[i], -i))
        if fit[best] > best_seen:
            best_seen, idle = fit[best], 0
        else:
            idle += 1
        if idle >= stall:
            counts["restarts"] += 1
            st, pop, fit = init()
            best_seen, idle = -1, 0
            continue

        def tournament():
            a = int(rng.uniform() * p)
            b = int(rng.uniform() * p)
            return b if fit[b] > fit[a] else a

        new = [list(pop[best])]
        for _ in range(1, p):
            a, b = tournament(), tournament()
            if rng.uniform() < crossover:
                cut = int(rng.uniform() * 3 * m)
                bits_a = [(g >> k) & 1 for g in pop[a] for k in (2, 1, 0)]
                bits_b = [(g >> k) & 1 for g in pop[b] for k in (2, 1, 0)]
                bits = bits_a[:cut] + bits_b[cut:]
                child = [bits[3 * i] * 4 + bits[3 * i + 1] * 2 + bits[3 * i + 2] for i in range(m)]
            else:
                child = list(pop[a])
            for k in range(m):
                for bit in range(3):
                    if rng.uniform() < mutation:
                        child[k] ^= 1 << bit
            new.append(child)
        fit0 = fit[best]
        pop = new
        fit = [fit0]
        for genes in pop[1:]:
            f = decode(table, genes, st)[0]
            fit.append(f)
            counts["attempts"] += 1
            counts["complete"] += f == m
    return pop, fit, counts


@pytest.mark.parametrize("board,start", [(Board(5, 5), 0), (Board(4, 5, holes=[(1, 1)]), -1), (Board(6, 6), 7)])
def test_generations_match_reference(board, start):
    graph = KnightGraph(board)
    spec = TourSpec(start=None if start < 0 else tuple(int(v) for v in board.coords_of(np.array([start]))[0]))
    values = PARAMS.check(dict(generations=12, population=6, crossover=0.9, mutation=0.05, stall=3), n=graph.n)
    ga = _GA(graph, spec, values, seed=77)
    out = np.zeros((100, graph.n), dtype=np.int32)
    ran, _ = ga.run(12, out, False)
    assert ran == 12
    pop, fit, counts = reference(graph, start, 12, 77)
    assert ga.pop.tolist() == pop
    assert ga.fit.tolist() == fit
    assert int(ga.counts[0]) == counts["attempts"] and int(ga.counts[4]) == counts["restarts"]
    assert int(ga.counts[1]) == counts["complete"]


def test_decode_repairs_and_writes_back():
    graph = KnightGraph(Board(5, 5))
    n = graph.n
    tpad = np.full((n, 8), n, dtype=np.int32)
    tpad[:, :8] = np.where(graph.table < 0, n, graph.table)
    rng = np.random.default_rng(0)
    for _ in range(50):
        genes = rng.integers(0, 8, size=n - 1)
        ref_genes = genes.tolist()
        f_ref, path_ref = decode(graph.table.tolist(), ref_genes, 0)
        path = np.zeros(n, dtype=np.int32)
        f = _decode(tpad, genes, 0, np.zeros(n + 1, dtype=np.int64), 1, path)
        assert f == f_ref and path[: f + 1].tolist() == path_ref
        assert genes[:f].tolist() == ref_genes[:f]
        validate(graph.board, path[: f + 1], complete=False)
        # decoding the repaired genes again needs no repair and gives the same walk
        again = np.zeros(n, dtype=np.int32)
        assert _decode(tpad, genes.copy(), 0, np.zeros(n + 1, dtype=np.int64), 1, again) == f


def test_same_seed_same_tour_different_seeds_differ():
    tours = [tuple(solve("6x6", "ga", seed=s).tour.squares.tolist()) for s in (1, 1, 2, 3, 4)]
    assert tours[0] == tours[1] and len(set(tours[1:])) > 1


@pytest.mark.parametrize("closed,start", [(False, None), (False, "a1"), (True, None)])
def test_finds_tours_on_6x6(closed, start):
    res = solve("6x6", "ga", closed=closed, start=start, seed=3, generations=20_000)
    assert res.status is Status.FOUND, res.stats
    validate(res.board, res.tour, closed=closed, start=start)


@pytest.mark.parametrize("case", [c for c in load_oracle("holed.json")["cases"] if c["exists"] and "start" in c],
                         ids=lambda c: f"{c['board']}-{c['holes']}")
def test_holed_boards_with_tours(case):
    board = Board(*case["board"], holes=[tuple(h) for h in case["holes"]])
    res = solve(board, "ga", start=tuple(case["start"]), seed=1, generations=20_000)
    assert res.status is Status.FOUND, res.stats
    validate(board, res.tour, start=tuple(case["start"]))


@pytest.mark.parametrize("board,closed", [(Board(4, 4), False), (Board(3, 6), False), (Board(5, 5), True),
                                          (Board(6, 6, holes=[(0, 0), (0, 2)]), False)])
def test_impossible_boards_end_unknown(board, closed):
    res = solve_ga(KnightGraph(board), TourSpec(closed=closed), seed=1, generations=300)
    assert res.status is Status.UNKNOWN and res.tour is None
    assert solve(board, "ga", closed=closed, seed=1, generations=300).status is not Status.FOUND


def test_rate_restarts_after_every_tour():
    st = ga_rate(KnightGraph(Board(6, 6)), TourSpec(), attempts=20_000, seed=1)
    assert st["attempts"] >= 20_000 and st["tours"] >= 1
    assert st["runs"] >= st["tours"]
    assert st["tours_per_attempt"] == pytest.approx(st["tours"] / st["attempts"])


@pytest.mark.parametrize("params", [{"population": 1}, {"crossover": 1.5}, {"mutation": -0.1}, {"stall": 0},
                                    {"generations": -1}])
def test_bad_parameters(params):
    with pytest.raises(UnsupportedError):
        solve("5x5", "ga", seed=1, **params)
