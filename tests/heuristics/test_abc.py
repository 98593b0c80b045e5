"""The artificial bee colony: kernels against a slow reference, paths validated, budgets honest."""

from __future__ import annotations

import json

import numpy as np
import pytest
from numba import njit

from ktsolve import Board, KnightGraph, Status, TourSpec, solve, validate
from ktsolve.errors import InvalidTourError, KtsolveError, UnsupportedError
from ktsolve.heuristics import _abc_kernels as abc_kernels
from ktsolve.heuristics import abc
from ktsolve.seeds import derive_seeds as unit_seeds
from ktsolve.heuristics.abc import codes_to_path, path_fitness, path_to_codes, run_abc, solve_abc

from conftest import invoke, load_oracle, random_board


@njit
def seed_numba(s):
    np.random.seed(s)  # numba's generator is one per thread, shared by every jitted function


# ---------------------------------------------------------------------- slow reference
def ref_fitness(graph, start, codes):
    """Valid moves (codes 0..7) before the first move off the board, onto a hole or a visited square."""
    seen = {start}
    cur = start
    for p, c in enumerate(codes):
        nxt = int(graph.table[cur, c])
        if nxt < 0 or nxt in seen:
            return p
        seen.add(nxt)
        cur = nxt
    return len(codes)


def ref_crossover(x, y, cuts):
    c1, c2, c3 = cuts
    return list(x[:c1]) + list(y[c1:c2]) + list(x[c2:c3]) + list(y[c3:])


class RefColony:
    """The colony written plainly, drawing from numpy's RandomState in the kernels' order."""

    def __init__(self, graph, sources, fixed_start, extend_best=True):
        self.g = graph
        self.extend_best = extend_best
        self.n = graph.n
        self.L = graph.n - 1
        self.SN = sources
        self.fixed = fixed_start
        self.counters = dict.fromkeys(abc._COUNTERS, 0)

    def random_codes(self, rs, first, codes):
        for p in range(first, self.L):
            codes[p] = int(rs.random_sample() * 8)

    def init(self, seed, preset_rows):
        rs = np.random.RandomState(seed)
        start = self.fixed if self.fixed >= 0 else int(rs.random_sample() * self.n)
        self.codes = [[0] * self.L for _ in range(self.SN)]
        self.starts = [start] * self.SN
        for i in range(self.SN):
            if i < len(preset_rows):
                s, c = preset_rows[i]
                self.starts[i] = s
                self.codes[i][: len(c)] = [int(v) for v in c]
                self.random_codes(rs, len(c), self.codes[i])
            else:
                self.random_codes(rs, 0, self.codes[i])
        self.fit = [ref_fitness(self.g, self.starts[i], self.codes[i]) for i in range(self.SN)]

    def work(self, rs, i):
        k = int(rs.random_sample() * (self.SN - 1))
        if k >= i:
            k += 1
        cuts = sorted(int(rs.random_sample() * (self.L + 1)) for _ in range(3))
        self.counters["candidates"] += 1
        cand = ref_crossover(self.codes[i], self.codes[k], cuts)
        f = ref_fitness(self.g, self.starts[i], cand)
        if cuts[0] > self.fit[i] or self.fit[i] == self.L:
            assert f <= self.fit[i]  # the kernel's shortcut skips exactly these
            return
        self.counters["evaluations"] += 1
        if f > self.fit[i]:
            self.codes[i] = cand
            self.fit[i] = f
            self.counters["improvements"] += 1

    def repair(self, rs, i):
        path = codes_to_path(self.g, self.starts[i], np.array(self.codes[i][: self.fit[i]]) + 1)
        cur, seen = int(path[-1]), set(path.tolist())
        valid = [j for j in range(8) if self.g.table[cur, j] >= 0 and int(self.g.table[cur, j]) not in seen]
        if not valid:
            return False
        self.codes[i][self.fit[i]] = valid[int(rs.random_sample() * len(valid))]
        return True

    def block(self, seed, iterations):
        rs = np.random.RandomState(seed)
        for it in range(iterations):
            for i in range(self.SN):
                self.work(rs, i)
            total = sum(self.fit)
            cum = np.cumsum(self.fit)
            for _ in range(self.SN):
                if total > 0:
                    x = rs.random_sample() * total
                    i = int(np.flatnonzero(cum > x)[0])
                else:
                    i = int(rs.random_sample() * self.SN)
                self.work(rs, i)
            best = max(self.fit)
            for i in range(self.SN):
                if self.fit[i] == self.L or (self.fit[i] == best and not self.extend_best):
                    continue
                if self.repair(rs, i):
                    self.counters["repairs"] += 1
                elif self.fit[i] < best:
                    self.counters["replacements"] += 1
                    self.random_codes(rs, 0, self.codes[i])
                else:
                    continue  # a best source at a dead end stays
                self.fit[i] = ref_fitness(self.g, self.starts[i], self.codes[i])
            if max(self.fit) == self.L:
                return it + 1
        return iterations


def ref_run(graph, start, sources, iterations, seed, initial_paths=(), extend_best=True):
    """One run of the documented driver: init, then blocks of ``abc.BLOCK`` iterations."""
    col = RefColony(graph, sources, -1 if start is None else start, extend_best)
    rows = [(int(p[0]), path_to_codes(graph, p).astype(int) - 1) for p in initial_paths]
    col.init(int(unit_seeds(seed, abc._STREAM, 0, 1)[0]), rows)
    done, blk = 0, 0
    while done < iterations and max(col.fit) < col.L:
        done += col.block(int(unit_seeds(seed, abc._STREAM, blk + 1, 1)[0]), min(abc.BLOCK, iterations - done))
        blk += 1
    return col, done


# ---------------------------------------------------------------------- kernels
def test_conversions_round_trip():
    g = KnightGraph(Board(5, 5))
    path = [0, 7, 14, 23, 16, 5]
    codes = path_to_codes(g, path)
    assert codes.min() >= 1 and codes.max() <= 8
    assert codes_to_path(g, 0, codes).tolist() == path
    assert path_fitness(g, 0, codes) == 5
    # Move code j + 1 is column j of the table, Squirrel & Cull's type order.
    for j in range(8):
        dest = g.table[12, j]
        assert codes_to_path(g, 12, [j + 1]).tolist() == [12, dest]
    with pytest.raises(InvalidTourError):
        path_to_codes(g, [0, 1])


def test_fitness_kernel_matches_reference():
    rng = np.random.default_rng(1)
    for _ in range(30):
        board = random_board(rng, 3, 8, 0.3)
        g = KnightGraph(board)
        table = np.ascontiguousarray(g.table)
        mark = np.zeros(g.n, np.int32)
        for stamp in range(1, 20):
            codes = rng.integers(0, 8, max(g.n - 1, 0)).astype(np.int8)
            s = int(rng.integers(g.n))
            # Walk a real path for half of the cases so that long fitnesses occur too.
            if stamp % 2 and g.n > 1:
                path = [s]
                while True:
                    nb = [int(x) for x in g.neighbours(path[-1]) if int(x) not in path]
                    if not nb:
                        break
                    path.append(nb[int(rng.integers(len(nb)))])
                c = path_to_codes(g, path) - 1
                codes[: c.size] = c
            want = ref_fitness(g, s, codes.tolist())
            assert abc_kernels._fitness(table, codes, s, mark, stamp) == want
            assert path_fitness(g, s, codes.astype(int) + 1) == want


def test_crossover_kernel_matches_reference():
    rng = np.random.default_rng(2)
    for L in (1, 2, 5, 24, 63):
        for _ in range(40):
            x = rng.integers(0, 8, L).astype(np.int8)
            y = rng.integers(0, 8, L).astype(np.int8)
            cuts = sorted(int(v) for v in rng.integers(0, L + 1, 3))
            out = np.empty(L, np.int8)
            abc_kernels._crossover(x, y, *cuts, out)
            assert out.tolist() == ref_crossover(x.tolist(), y.tolist(), cuts)


def test_cuts_and_repair_kernels_match_reference():
    g = KnightGraph(Board(6, 6, [(2, 3)]))
    table = np.ascontiguousarray(g.table)
    L = g.n - 1
    rng = np.random.default_rng(3)
    mark = np.zeros(g.n, np.int32)
    valid = np.zeros(8, np.int32)
    for t in range(200):
        seed_numba(t)
        rs = np.random.RandomState(t)
        assert abc_kernels._cuts(L) == tuple(sorted(int(rs.random_sample() * (L + 1)) for _ in range(3)))
        codes = rng.integers(0, 8, L).astype(np.int8)
        s = int(rng.integers(g.n))
        fit = abc_kernels._fitness(table, codes, s, mark, 1000 + 2 * t)
        if fit == L:
            continue
        col = RefColony(g, 2, s)
        col.codes, col.starts, col.fit = [codes.tolist()], [s], [fit]
        ok = col.repair(np.random.RandomState(t), 0)
        seed_numba(t)
        got = abc_kernels._repair(table, codes, s, fit, mark, 1001 + 2 * t, valid)
        assert (got >= 0) == ok
        assert codes.tolist() == col.codes[0]
        if ok:
            assert abc_kernels._fitness(table, codes, s, mark, 5000 + t) > fit


@pytest.mark.parametrize(
    "board, start, iterations",
    [
        (Board(5, 5), 0, 40),
        (Board(5, 5), None, 25),
        (Board(6, 6, [(0, 0), (3, 3)]), 4, 30),
        (Board(3, 4), 0, 200),  # a tour is found: the run stops early
        (Board(8, 8), None, 12),
    ],
)
@pytest.mark.parametrize("extend_best", [True, False])
def test_whole_runs_match_reference(board, start, iterations, extend_best):
    """The colony's final food sources, fitnesses and counters equal the slow colony's."""
    g = KnightGraph(board)
    table = np.ascontiguousarray(g.table)
    SN, L = 8, g.n - 1
    col, done = ref_run(g, start, SN, iterations, seed=5, extend_best=extend_best)
    # The same run through the kernels, block by block as run_abc cuts it.
    codes = np.zeros((SN, L), np.int8)
    starts = np.full(SN, max(start or 0, 0), np.int32)
    fit = np.zeros(SN, np.int32)
    mark = np.zeros(g.n, np.int32)
    counters = np.zeros(len(abc._COUNTERS), np.int64)
    fixed = -1 if start is None else start
    abc_kernels._init(table, codes, starts, fit, np.full(SN, -1, np.int32), fixed,
                      int(unit_seeds(5, abc._STREAM, 0, 1)[0]), mark)
    k, blk = 0, 0
    while k < iterations and fit.max() < L:
        k += abc_kernels._block(table, codes, starts, fit, min(abc.BLOCK, iterations - k),
                                int(unit_seeds(5, abc._STREAM, blk + 1, 1)[0]), mark, counters, extend_best)
        blk += 1
    assert k == done
    assert codes.tolist() == col.codes and starts.tolist() == col.starts and fit.tolist() == col.fit
    assert dict(zip(abc._COUNTERS, counters.tolist())) == col.counters
    # run_abc reports the fittest source (the first of the fittest).
    st = run_abc(g, start=start, sources=SN, iterations=iterations, seed=5, extend_best=extend_best)
    i = int(np.argmax(col.fit))
    assert st["moves"] == col.fit[i] and st["iterations"] == done
    assert st["squares"].tolist() == codes_to_path(g, col.starts[i], np.array(col.codes[i][: col.fit[i]]) + 1).tolist()


def test_seeded_run_matches_reference():
    g = KnightGraph(Board(6, 6))

    def first_walk(steps):
        path = [0]
        for _ in range(steps):
            path.append(next(int(x) for x in g.neighbours(path[-1]) if int(x) not in path))
        return path

    paths = [first_walk(6), first_walk(3)]
    col, done = ref_run(g, 0, 6, 20, seed=9, initial_paths=paths)
    st = run_abc(g, start=0, sources=6, iterations=20, seed=9, initial_paths=paths)
    assert st["seeded"] == 2 and st["moves"] == max(col.fit) and st["iterations"] == done


# ---------------------------------------------------------------------- paths and tours
def test_finds_an_open_5x5_tour_from_a_corner():
    res = solve("5x5", method="abc", start="a1", seed=0, runs=40)
    assert res.status is Status.FOUND, res.stats
    validate(Board(5, 5), res.tour, closed=False, start="a1")
    assert res.tour.is_complete and res.stats["length"] == 25
    assert res.path == res.tour


@pytest.mark.parametrize("case", [c for c in load_oracle("holed.json")["cases"]
                                  if c["kind"] == "open" and c["exists"]])
def test_finds_tours_of_holed_boards(case):
    board = Board(*case["board"], [tuple(h) for h in case["holes"]])
    res = solve(board, method="abc", start=tuple(case["start"]), seed=1, runs=300)
    assert res.found, res.stats
    validate(board, res.tour, start=tuple(case["start"]))


def test_longest_path_is_reported_and_valid():
    board = Board(8, 8)
    res = solve(board, method="abc", start="a1", seed=3)
    assert res.path is not None
    validate(board, res.path, closed=False, start="a1", complete=False)
    assert res.stats["length"] == len(res.path) > 40
    if res.status is Status.UNKNOWN:
        assert res.tour is None and "longest path" in res.stats["reason"]
    holed = Board(8, 8, [(0, 1), (1, 0), (3, 3), (4, 4), (6, 6)])
    res = solve(holed, method="abc", seed=3)  # start chosen by the colony
    validate(holed, res.path, complete=False)


def test_same_seed_same_result_different_seeds_differ():
    a = solve("8x8", method="abc", seed=4)
    b = solve("8x8", method="abc", seed=4)
    assert a.path == b.path
    # wall-clock figures (the rate, the steps' seconds, and the plan's reason that quotes them) differ from run
    # to run; the method's own reason is kept apart (last_reason)
    wall = ("candidates_per_s", "steps", "reason")
    assert {k: v for k, v in a.stats.items() if k not in wall} == {k: v for k, v in b.stats.items() if k not in wall}
    assert a.stats["last_reason"] == b.stats["last_reason"]
    paths = {tuple(solve("8x8", method="abc", seed=s).path.squares) for s in range(4)}
    assert len(paths) > 1


IMPOSSIBLE = [Board(4, 4), Board(3, 3), Board(3, 5), Board(3, 6), Board(2, 5), Board(6, 6, [(0, 0), (0, 2)])] + [
    Board(*c["board"], [tuple(h) for h in c["holes"]])
    for c in load_oracle("holed.json")["cases"]
    if c["kind"] == "open" and not c["exists"]
]


@pytest.mark.parametrize("board", IMPOSSIBLE, ids=lambda b: f"{b.rows}x{b.cols}-{len(b.holes)}holes")
def test_never_a_tour_where_none_exists(board):
    g = KnightGraph(board)
    res = solve_abc(g, TourSpec(), seed=1, runs=3, iterations=100)
    assert res.status is Status.UNKNOWN and res.tour is None
    assert res.stats["length"] < board.n_squares
    validate(board, res.path, complete=False)
    via_solve = solve(board, method="abc", seed=1)
    assert via_solve.status in (Status.INFEASIBLE, Status.UNKNOWN)


def test_initial_paths_seed_the_colony():
    board = Board(5, 5)
    g = KnightGraph(board)
    tour = solve(board, method="abc", start="a1", seed=0, runs=40).tour
    # A full tour as a seed path is a food source of full fitness: no iteration is needed.
    res = solve_abc(g, TourSpec(start=(4, 0)), seed=2, initial_paths=[tour])
    assert res.found and res.tour == tour and res.stats["iterations"] == 0 and res.stats["seeded"] == 1
    # A prefix of it: the colony starts at least that long.
    res = solve_abc(g, TourSpec(start=(4, 0)), seed=2, initial_paths=[tour.squares[:15]], iterations=0)
    assert res.stats["length"] >= 15
    with pytest.raises(UnsupportedError):
        solve_abc(g, TourSpec(start=(0, 0)), initial_paths=[tour])
    with pytest.raises(InvalidTourError):
        solve_abc(g, TourSpec(), initial_paths=[[0, 1]])


def test_budgets_and_unsupported_requests():
    g = KnightGraph(Board(8, 8))
    res = solve_abc(g, TourSpec(), seed=1, time_limit=1e-9)
    assert res.status is Status.UNKNOWN and "time limit" in res.stats["reason"]
    validate(Board(8, 8), res.path, complete=False)
    res = solve_abc(g, TourSpec(), seed=1, iterations=7)
    assert res.stats["iterations"] == 7
    with pytest.raises(UnsupportedError):
        solve_abc(g, TourSpec(closed=True))
    with pytest.raises(UnsupportedError):
        solve_abc(g, TourSpec(start=(0, 0), end=(7, 7)))
    with pytest.raises(UnsupportedError):
        solve("8x8", method="abc", closed=True)
    with pytest.raises(UnsupportedError):
        solve_abc(g, TourSpec(), sources=1)
    single = solve(Board(1, 1), method="abc", seed=1)
    assert single.found and len(single.tour) == 1


def test_cli_abc_reports_the_path():
    out = invoke(["solve", "8x8", "--method", "abc", "--start", "a1", "--seed", "1", "--format", "json"], 3)
    data = json.loads(out.stdout)
    assert data["status"] == "unknown" and data["tour"] is None
    assert len(data["path"]) == data["stats"]["length"] and data["path"][0] == [7, 0]
    out = invoke(["solve", "5x5", "--method", "abc", "--start", "a1", "--seed", "0", "-p", "runs=40",
                  "--format", "json"], 0)
    assert json.loads(out.stdout)["status"] == "found"
    invoke(["solve", "8x8", "--method", "abc", "--closed"], 2)


def test_seed_with_lays_paths_that_never_answer_the_question():
    """seed_with gives the bees Warnsdorff walks or exact tours of other boards, never a tour of the question.

    The rule of issue 10: the colony must still find the tour itself (a
    finished tour of the same question handed over as a food source, as an
    earlier version did, made the colony's answer the seeding method's).
    """
    from ktsolve.heuristics._seeding import answers

    board = Board(8, 8)
    graph = KnightGraph(board)
    spec = TourSpec(start=(7, 0))
    for source in ("warnsdorff", "exact"):
        res = solve(board, method="abc", start="a1", seed=5, seed_with=source, iterations=0)
        assert res.stats["seeded"] >= 1 and res.stats["seed_source"]
        assert res.stats["iterations"] == 0 and not res.found  # the seeds alone are no tour of the question
        # what the seeding produced, recomputed: none of it answers the question
        paths, _ = abc.seed_paths(graph, spec, source, seed=1)
        assert paths and not any(answers(graph, spec, p) for p in paths)
    res = solve(board, method="abc", start="a1", seed=5, seed_with="warnsdorff", local_search="rotation")
    assert res.found and res.stats["rotation_repairs"] >= 1
    with pytest.raises(KtsolveError, match="seed_with must be one of"):
        solve(board, method="abc", start="a1", seed_with="magic")
    # A caller's own tours remain usable as food sources: several seed rows at once, as a 2-D array.
    tour = solve(Board(5, 5), method="abc", start="a1", seed=0, runs=40).tour
    res = solve_abc(KnightGraph(Board(5, 5)), TourSpec(start=(4, 0)), seed=1,
                    seed_tour=np.stack([tour.squares, tour.squares]))
    assert res.found and res.stats["seeded"] == 2


# ---------------------------------------------------------------------- the paper's scouts, the seed rule, ranges
def test_scouts_extend_the_best_source():
    """With the paper's scouts the best path grows each iteration the best source can move on."""
    g = KnightGraph(Board(12, 12))
    paper = [run_abc(g, start=0, seed=s)["moves"] for s in range(6)]
    below = [run_abc(g, start=0, seed=s, extend_best=False)["moves"] for s in range(6)]
    assert sum(paper) > sum(below)
    # One iteration from identical sources: only the paper's scouts touch the best source.
    st = {eb: run_abc(g, start=0, seed=11, iterations=1, extend_best=eb) for eb in (True, False)}
    assert st[True]["repairs"] > st[False]["repairs"]


def test_a_best_source_at_a_dead_end_is_kept():
    """The 3x3 ring from a corner: every source ends at a dead end; the best is never abandoned."""
    g = KnightGraph(Board(3, 3))
    for seed in range(5):
        st = run_abc(g, start=0, seed=seed, iterations=30, sources=4)
        assert st["moves"] == 7  # the ring of eight squares, the longest path from a1


def test_seed_rule():
    import inspect

    from ktsolve.seeds import SEED_DOC

    for func in (solve_abc, run_abc):
        assert SEED_DOC in inspect.getdoc(func), func.__name__
    g = KnightGraph(Board(8, 8))
    res = solve_abc(g, TourSpec(start=(0, 0)))
    assert isinstance(res.seed, int) and 0 <= res.seed < 2**32
    again = solve_abc(g, TourSpec(start=(0, 0)), seed=res.seed)
    assert again.path == res.path and again.seed == res.seed
    via_solve = solve("8x8", method="abc", start="a1")
    assert via_solve.seed is not None
    assert solve("8x8", method="abc", start="a1", seed=via_solve.seed).path == via_solve.path


@pytest.mark.parametrize("params", [
    {"sources": 1}, {"sources": 10**6}, {"sources": 2.5}, {"iterations": -1}, {"iterations": 1e99},
    {"iterations": float("inf")}, {"runs": 0}, {"runs": float("nan")}, {"extend_best": "yes"},
    {"sources": True},
])
def test_every_parameter_has_a_finite_range(params):
    from ktsolve.errors import InvalidParameterError

    with pytest.raises(InvalidParameterError):
        solve("6x6", method="abc", seed=1, **params)


def test_a_colony_too_large_for_memory_is_refused():
    from ktsolve.errors import InvalidParameterError

    with pytest.raises(InvalidParameterError, match="GiB"):
        abc.check_abc_params(1_000_000, 100_000, 200, 1, True)


def test_cli_refuses_out_of_range_parameters_in_one_line():
    out = invoke(["solve", "8x8", "-m", "abc", "-p", "iterations=1e99"], 2)
    assert len(out.stderr.strip().splitlines()) == 1 and "iterations" in out.stderr


def test_ctrl_c_ends_in_an_honest_unknown():
    import os
    import signal

    g = KnightGraph(Board(16, 16))
    calls = []

    def progress(done, total):
        calls.append(done)
        if len(calls) == 2:
            os.kill(os.getpid(), signal.SIGINT)

    res = solve_abc(g, TourSpec(), seed=2, iterations=10**6, progress=progress)
    assert res.status is Status.UNKNOWN and res.stats["interrupted"] is True
    assert "interrupted" in res.stats["reason"] and res.stats["iterations"] < 10**6
    validate(g.board, res.path, complete=False)


def test_progress_counts_iterations():
    seen = []
    solve_abc(KnightGraph(Board(8, 8)), TourSpec(), seed=1, iterations=35, runs=2,
              progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (70, 70) and all(t == 70 for _, t in seen)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
