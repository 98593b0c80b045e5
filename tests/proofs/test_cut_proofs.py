"""The cut proofs (toughness, two-square cuts, region colours): soundness against exhaustive search, checkers.

Every "no tour" a finder says on a board of at most 36 squares is confirmed
by exhaustive backtracking; every witness a finder gives passes its
checker; on boards that have a tour, the checkers refuse every witness
(random sets of squares, regions and cuts), which tests the arguments'
statements themselves; forged witnesses (one square moved, added or removed)
are judged by the checker exactly as a separate networkx count judges them.
"""

from __future__ import annotations

import doctest
import time

import networkx as nx
import numpy as np
import pytest

from ktsolve import Board, KnightGraph, Proof, Status, TourSpec, solve
from ktsolve.driver import Deadline, Stopped
from ktsolve.proofs import cut_check, cuts
from ktsolve.proofs.cut_check import check_proof, check_region, check_toughness, check_two_cut
from ktsolve.proofs.cuts import cut_proofs, region_proof, toughness_proof, two_cut_proof
from ktsolve.request import make_spec

from conftest import random_board

FINDERS = (toughness_proof, two_cut_proof, region_proof)


def test_doctests():
    assert doctest.testmod(cuts).failed == 0
    assert doctest.testmod(cut_check).failed == 0


def _question(rng, board):
    closed = bool(rng.integers(2))
    squares = [tuple(int(v) for v in rc) for rc in board.coords_of(np.arange(board.n_squares))]
    start = end = None
    if not closed and rng.random() < 0.5:
        start = squares[int(rng.integers(len(squares)))]
        if rng.random() < 0.5:
            end = squares[int(rng.integers(len(squares)))]
            if end == start:
                end = None
    return make_spec(board, closed=closed, start=start, end=end)


def _exact(board, spec):
    res = solve(board, "backtrack", closed=spec.closed, start=spec.start, end=spec.end,
                presolve_proofs=False, time_limit=60)
    assert res.status is not Status.UNKNOWN
    return res.status


def _random_cases(seed, count, min_side=3, max_side=6, holes=0.25):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        board = random_board(rng, min_side, max_side, holes)
        if board.n_squares < 4:
            continue
        yield rng, board, _question(rng, board)


# ---------------------------------------------------------------------- soundness of the finders
def test_every_no_of_the_finders_is_confirmed_by_exhaustive_search():
    said = {f.__name__: 0 for f in FINDERS}
    for rng, board, spec in _random_cases(7, 400):
        g = KnightGraph(board)
        proofs = [(f, f(g, spec)) for f in FINDERS]
        if all(p is None for _, p in proofs):
            continue
        status = _exact(board, spec)
        for f, p in proofs:
            if p is None:
                continue
            said[f.__name__] += 1
            assert status is Status.INFEASIBLE, (board, spec, p)
            assert check_proof(g, spec, p).valid, (board, spec, p)
    # each argument spoke on these boards, so the test is not vacuous
    assert all(k >= 3 for k in said.values()), said


def test_full_boards_closed_and_open():
    # 3 x n and 4 x n boards have no closed tour (Schwenk); the finders may say so, never more
    for m, n in ((3, 4), (3, 6), (3, 8), (4, 5), (4, 6), (5, 6), (6, 6), (3, 7), (3, 10), (4, 4)):
        g = KnightGraph(Board(m, n))
        for closed in (True, False):
            spec = TourSpec(closed=closed)
            p = cut_proofs(g, spec)
            if p is not None:
                assert _exact(Board(m, n), spec) is Status.INFEASIBLE, (m, n, closed, p)
                assert check_proof(g, spec, p).valid


def test_open_tour_with_a_fixed_end_inside_the_removed_squares():
    # the open bound drops by one for each fixed end inside S: the checker must use it, and soundly
    hit = 0
    for rng, board, spec in _random_cases(21, 300, 3, 5, 0.2):
        if spec.closed or spec.start is None:
            continue
        g = KnightGraph(board)
        s = board.index(*spec.start)
        for extra in range(g.n):
            S = sorted({s, extra})
            ev = {"removed": [g.name(v) for v in S]}
            if check_toughness(g, spec, ev) is None:
                hit += 1
                assert _exact(board, spec) is Status.INFEASIBLE, (board, spec, S)
                break
    assert hit >= 3


# ---------------------------------------------------------------------- the statements, on boards with tours
def _random_region(rng, g, size):
    v = int(rng.integers(g.n))
    R = [v]
    while len(R) < size:
        frontier = sorted({int(w) for r in R for w in g.neighbours(r)} - set(R))
        if not frontier:
            break
        R.append(frontier[int(rng.integers(len(frontier)))])
    return R


def test_checkers_refuse_every_witness_on_boards_with_a_tour():
    refused = {"toughness": 0, "two-square cut": 0, "region colours": 0}
    boards = 0
    for rng, board, spec in _random_cases(3, 200, 3, 6, 0.15):
        if _exact(board, spec) is not Status.FOUND:
            continue
        boards += 1
        g = KnightGraph(board)
        ends = [board.index(*x) for x in (spec.start, spec.end) if x is not None]
        for _ in range(40):
            k = int(rng.integers(1, 5))
            S = set(rng.choice(g.n, size=min(k, g.n), replace=False).tolist())
            if ends and rng.random() < 0.5:
                S.add(ends[int(rng.integers(len(ends)))])
            assert check_toughness(g, spec, {"removed": [g.name(v) for v in S]}) is not None, (board, spec, S)
            refused["toughness"] += 1
            R = _random_region(rng, g, int(rng.integers(1, 12)))
            assert check_region(g, spec, {"region": [g.name(v) for v in R]}) is not None, (board, spec, R)
            refused["region colours"] += 1
        G = g.to_networkx()
        for u in range(g.n):
            for v in range(u + 1, g.n):
                H = G.copy()
                H.remove_nodes_from([u, v])
                comps = list(nx.connected_components(H))
                if len(comps) < 2:
                    continue
                for reason in ("colour", "no entry", "search"):
                    # each piece alone, and all of them at once
                    for pieces in [[c] for c in comps] + [comps]:
                        ev = {"cut": [g.name(u), g.name(v)],
                              "pieces": [{"piece": [g.name(a) for a in c], "reason": reason} for c in pieces]}
                        assert check_two_cut(g, spec, ev) is not None, (board, spec, u, v, pieces, reason)
                        refused["two-square cut"] += 1
    assert boards >= 20 and all(k > 20 for k in refused.values()), (boards, refused)


# ---------------------------------------------------------------------- forged witnesses
def _parts_nx(g, S):
    H = g.to_networkx()
    H.remove_nodes_from(S)
    return nx.number_connected_components(H)


def _forgeries(g, squares):
    """Every witness one square away: one removed, one added, one moved to a neighbour."""
    sq = list(squares)
    for i in range(len(sq)):
        yield "removed", sq[:i] + sq[i + 1:]
        for w in g.neighbours(sq[i]).tolist():
            if w not in sq:
                yield "moved", sq[:i] + [w] + sq[i + 1:]
    for w in range(g.n):
        if w not in sq:
            yield "added", sq + [w]


def _names(g, squares):
    return [g.name(v) for v in squares]


def _index(g, names):
    return [g.board.index(*g.board.parse_square(x)) for x in names]


@pytest.mark.parametrize("size,closed", [((3, 4), True), ((3, 6), True), ((4, 5), True)])
def test_forged_toughness_witnesses_are_judged_by_the_count(size, closed):
    g, spec = KnightGraph(Board(*size)), TourSpec(closed=closed)
    p = toughness_proof(g, spec)
    assert p is not None and check_proof(g, spec, p).valid
    S = _index(g, p.evidence["removed"])
    refused = 0
    for kind, forged in _forgeries(g, S):
        verdict = check_toughness(g, spec, {"removed": _names(g, forged)})
        expected_valid = bool(forged) and _parts_nx(g, forged) > len(forged)
        assert (verdict is None) == expected_valid, (kind, forged, verdict)
        refused += verdict is not None
    assert refused > 0
    # the stated count must match too
    bad = dict(p.evidence, parts=p.evidence["parts"] + 1)
    assert not check_proof(g, spec, Proof("x", "toughness", bad)).valid


def _region_valid(g, spec, R):
    """The region condition recounted with networkx (closed tours)."""
    G = g.to_networkx()
    col = {v: (int(r) + int(c)) % 2 for v, (r, c) in G.nodes(data="pos")}
    counts = [sum(1 for r in R if col[r] == k) for k in (0, 1)]
    major = 0 if counts[0] > counts[1] else 1
    border = set(nx.node_boundary(G, R))
    supply = sum(min(2, len(set(G[c]) & set(R))) for c in border if col[c] != major)
    return 2 * (counts[major] - counts[1 - major]) > supply


def test_forged_region_witnesses_are_judged_by_the_count():
    g, spec = KnightGraph(Board(3, 6)), TourSpec(closed=True)
    p = region_proof(g, spec)
    assert p is not None and check_proof(g, spec, p).valid
    R = _index(g, p.evidence["region"])
    refused = 0
    for kind, forged in _forgeries(g, R):
        if not forged:
            continue
        verdict = check_region(g, spec, {"region": _names(g, forged)})
        assert (verdict is None) == _region_valid(g, spec, forged), (kind, forged, verdict)
        refused += verdict is not None
    assert refused > 0


def test_forged_two_cut_witnesses_are_refused():
    g, spec = KnightGraph(Board(3, 6)), TourSpec(closed=True)
    p = two_cut_proof(g, spec)
    assert p is not None and p.argument == "two-square cut" and check_proof(g, spec, p).valid
    item = p.evidence["pieces"][0]
    piece = _index(g, item["piece"])
    u, v = _index(g, p.evidence["cut"])
    # a piece with one square more, fewer or moved is not a whole part of the board without {u, v}
    for kind, forged in _forgeries(g, piece):
        ev = dict(p.evidence, pieces=[dict(item, piece=_names(g, forged))])
        assert check_two_cut(g, spec, ev) is not None, (kind, forged)
    # no piece, or the same piece twice, proves nothing
    assert check_two_cut(g, spec, dict(p.evidence, pieces=[])) is not None
    assert check_two_cut(g, spec, dict(p.evidence, pieces=[item, item])) is not None
    # one cut square moved: the piece is no longer cut off by the pair (or the argument fails)
    for w in range(g.n):
        if w in (u, v) or w in piece:
            continue
        ev = dict(p.evidence, cut=[g.name(u), g.name(w)])
        H = g.to_networkx()
        H.remove_nodes_from([u, w])
        if any(set(c) == set(piece) for c in nx.connected_components(H)):
            continue  # the same piece is cut off by this pair too: not a forgery
        assert check_two_cut(g, spec, ev) is not None, w
    # an open question (two free ends) needs more pieces; another reason is refused
    assert check_two_cut(g, TourSpec(), p.evidence) is not None
    magic = dict(p.evidence, pieces=[dict(item, reason="magic")])
    assert not check_proof(g, spec, Proof("x", "two-square cut", magic)).valid


def test_check_proof_refuses_malformed_and_cannot_check_unknown_arguments():
    g, spec = KnightGraph(Board(3, 4)), TourSpec(closed=True)
    assert not check_proof(g, spec, Proof("x", "toughness", {"removed": ["z9"]})).valid
    assert not check_proof(g, spec, Proof("x", "toughness", {"removed": ["a1", "a1"]})).valid
    assert not check_proof(g, spec, Proof("x", "toughness", {})).valid
    assert not check_proof(g, spec, Proof("x", "region colours", {"region": []})).valid
    assert not check_proof(g, spec, Proof("x", "matching", {"steps": []})).valid
    # 3x4 has six squares of each colour: colour parity, recounted, refutes nothing
    assert check_proof(g, spec, Proof("x", "colour parity", {})).invalid
    assert check_proof(g, spec, Proof("x", "a new argument", {})).outcome == "not checkable"


def test_check_proof_rechecks_the_2_factor_degree_and_listed_cut_square_proofs():
    from ktsolve.proofs import quick_proof
    from ktsolve.proofs.local import local_proof
    from ktsolve.proofs.two_factor import two_factor_proof

    def replace(proof, evidence):
        return Proof(str(proof), argument=proof.argument, evidence=evidence)

    spec = TourSpec(closed=True)
    # the 2-factor proof: genuine passes; X with one square moved to a neighbour of its colour fails
    board = Board(5, 4, holes=[(1, 3), (3, 0)])
    g = KnightGraph(board)
    p = two_factor_proof(board, spec)
    assert p.argument == "2-factor" and check_proof(g, spec, p).valid
    x = list(p.evidence["X"])
    moved = next(board.name(r, c) for r in range(5) for c in range(4)
                 if (r + c) % 2 == p.evidence["colour"] and board.mask[r, c] and board.name(r, c) not in x)
    forged = replace(p, evidence={**p.evidence, "X": [moved, *x[1:]]})
    assert not check_proof(g, spec, forged).valid
    # a degree proof: genuine passes; naming a square with two moves fails
    corner = Board(8, 8, holes=[(1, 2), (4, 4)])  # a8 keeps one move; the colours stay equal
    q = quick_proof(KnightGraph(corner), spec)
    assert q.argument == "degree" and check_proof(KnightGraph(corner), spec, q).valid
    wrong = replace(q, evidence={**q.evidence, "square": "d4"})
    assert not check_proof(KnightGraph(corner), spec, wrong).valid
    # a cut square that lists the squares it cuts off (the local proofs'): re-checked by counting
    cut = Board(20, 20, [(0, 0), (0, 5), (1, 4), (2, 0), (2, 3), (2, 5), (3, 1), (3, 2), (3, 3), (3, 4), (4, 0),
                         (4, 2)])
    lp = local_proof(cut, spec)
    assert lp.argument == "cut square" and "part" in lp.evidence
    assert check_proof(KnightGraph(cut), spec, lp).valid
    part = list(lp.evidence["part"])
    assert check_proof(KnightGraph(cut), spec, replace(lp, evidence={**lp.evidence, "part": part[1:]})).invalid


# ---------------------------------------------------------------------- budgets
def test_time_limits_bound_the_search():
    rng = np.random.default_rng(5)
    holes = rng.choice(1600, size=400, replace=False)
    g = KnightGraph(Board(40, 40, [(int(f) // 40, int(f) % 40) for f in holes]))
    spec = TourSpec(closed=True)
    cut_proofs(KnightGraph(Board(12, 12, [(0, 0)])), spec, time_limit=2.0)  # loads the compiled kernels
    t0 = time.perf_counter()
    try:
        cut_proofs(g, spec, time_limit=0.2)
    except Stopped:
        pass  # the bounded search ran out of its time: it says so
    assert time.perf_counter() - t0 < 1.0
    for f in FINDERS:
        with pytest.raises(Stopped):  # a search stopped by its clock proves nothing, and says it did not finish
            f(g, spec, time_limit=Deadline(1e-9, t0=0.0))


# ---------------------------------------------------------------------- wiring
WIRED = Board(4, 6, [(0, 2), (3, 0)])  # no closed tour; the quick and matching proofs say nothing


def test_the_plans_run_the_cut_proofs_after_the_matching_proof_on_holed_boards():
    from ktsolve.plans import auto_plan, prove_plan

    spec = TourSpec(closed=True)
    for plan in (auto_plan(WIRED, spec), prove_plan(WIRED, spec)):
        names = [s.name for s in plan]
        assert names.index("quick proofs") < names.index("matching proof") < names.index("cut proofs")
    assert "cut proofs" not in [s.name for s in auto_plan(Board(8, 8), spec)]  # full boards: the theorems


def test_solve_and_prove_settle_with_the_cut_proofs_and_the_witness_checks():
    from ktsolve import prove
    from ktsolve.proofs import matching_proof, quick_proof

    g, spec = KnightGraph(WIRED), TourSpec(closed=True)
    assert quick_proof(g, spec) is None and matching_proof(g, spec) is None
    assert _exact(WIRED, spec) is Status.INFEASIBLE
    for res in (solve(WIRED, closed=True), prove(WIRED, closed=True), solve(WIRED, "warnsdorff", closed=True)):
        assert res.status is Status.INFEASIBLE
        assert res.stats["settled_by"] == "cut proofs" and res.proof.argument == "region colours"
        assert check_proof(g, spec, res.proof).valid


def test_the_testing_oracle_rechecks_witnesses(monkeypatch, tmp_path):
    import sys

    from ktsolve.testing import oracle

    solve_module = sys.modules["ktsolve.solve"]

    oracle.clear_cache()
    real = solve_module.prove
    forged = Proof("forged", "toughness", {"removed": ["a1"]})

    def lying_prove(*args, **kw):
        res = real(*args, **kw)
        return res.replace(proof=forged)

    monkeypatch.setattr(solve_module, "prove", lying_prove)
    with pytest.raises(RuntimeError, match="does not check"):
        oracle.exact_answer(WIRED, closed=True)
    monkeypatch.setattr(solve_module, "prove", real)
    oracle.clear_cache()
    assert oracle.exact_answer(WIRED, closed=True).status is Status.INFEASIBLE
    # a stored answer whose witness does not check is not trusted
    oracle.use_disk_cache(tmp_path / "answers.sqlite")
    try:
        ans = oracle.exact_answer(WIRED, closed=True)
        oracle._disk_put(WIRED, make_spec(WIRED, closed=True), oracle.ExactAnswer(
            Status.INFEASIBLE, None, forged, "cut proofs", 0.0, None))
        with pytest.warns(oracle.CacheWarning, match="does not check is ignored"):
            assert oracle._disk_get(WIRED, make_spec(WIRED, closed=True)) is None
        oracle._disk_put(WIRED, make_spec(WIRED, closed=True), ans)
        assert oracle._disk_get(WIRED, make_spec(WIRED, closed=True)) is not None
    finally:
        oracle.use_disk_cache(None)
        oracle.clear_cache()


def test_exhaustive_proofs_say_how_large_the_search_was():
    import re

    res = solve(Board(3, 4), "backtrack", closed=True, presolve_proofs=False)
    assert res.proof.argument == "exhaustive search"
    assert re.search(r"[\d,]+ nodes \([\d.e-]+ s\)", res.proof), res.proof
    assert res.proof.evidence["nodes"] > 0 and "seconds" in res.proof.evidence
    res = solve(Board(3, 3), "csp", closed=True, presolve_proofs=False)
    assert re.search(r"[\d,]+ knight's-move checks, [\d.e-]+ s", res.proof), res.proof
    res = solve(Board(3, 4), "cpsat", closed=True, presolve_proofs=False, seed=0)
    assert re.search(r"\d+ branches, \d+ conflicts, [\d.e-]+ s", res.proof), res.proof


def test_proof_marks_show_the_witness():
    from ktsolve.render import proof_marks

    for board, finder in ((Board(3, 4), toughness_proof), (Board(3, 6), two_cut_proof), (Board(3, 6), region_proof)):
        p = finder(KnightGraph(board), TourSpec(closed=True))
        m = proof_marks(board, p)
        assert m.named and m.legend, (finder.__name__, p)
