"""The tight-set proof of an open tour (ktsolve.proofs.ends): its kernel, its soundness, its checker, its plans."""

from __future__ import annotations

import numpy as np
import pytest

from ktsolve import Board, TourSpec, solve
from ktsolve.generate import random_holed_board
from ktsolve.graph import KnightGraph
from ktsolve.proofs import _kernels as K
from ktsolve.proofs import check_proof
from ktsolve.proofs.ends import tight_sets_proof
from ktsolve.proofs.ends_check import check_tight_sets
from ktsolve.proofs.matching import matching_proof
from ktsolve.driver import Deadline

OPEN = TourSpec(closed=False)


def _matched(board: Board):
    g = KnightGraph(board)
    side = g.colour.astype(np.int32)
    match = np.full(g.n, -1, dtype=np.int32)
    K.hopcroft_karp(g.indptr, g.indices, np.ones(g.indices.size, dtype=np.uint8), side, match)
    return g, side, match


def _closed_by_sets(g, side, match, comp):
    """The reference: a component is closed when its squares are all matched and their neighbours are
    exactly their partners (plain sets)."""
    out = set()
    for c in set(comp[comp >= 0].tolist()):
        squares = [v for v in range(g.n) if comp[v] == c]
        if any(match[v] < 0 for v in squares):
            continue
        nbrs = {int(w) for v in squares for w in g.neighbours(v)}
        if nbrs == {int(match[v]) for v in squares}:
            out.add(c)
    return out


def _boards(count: int, seed: int):
    """Small holed boards of both colour splits (balanced for an open tour: equal, or one more)."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        r, c = int(rng.integers(5, 9)), int(rng.integers(5, 9))
        try:
            out.append(random_holed_board(r, c, float(rng.choice([0.1, 0.2])), seed=int(rng.integers(1 << 30))))
        except Exception:
            continue
    return out


@pytest.mark.parametrize("compiled", [True, False])
def test_closed_components_match_the_sets_reference(compiled):
    scc = K.alternating_scc if compiled else K.alternating_scc.py_func
    closed = K.closed_components if compiled else K.closed_components.py_func
    checked = unmatched = 0
    for board in _boards(60, 3):
        g, side, match = _matched(board)
        alive = np.ones(g.indices.size, dtype=np.uint8)
        alive[(match < 0)[g.indices]] = 0  # as the finder does: no arc through an unmatched square
        for parity in (0, 1):
            sd = side if parity == 0 else (1 - side).astype(np.int32)
            comp, _ = scc(g.indptr, g.indices, alive, sd, match)
            ncomp = int(comp.max()) + 1
            got = set(np.flatnonzero(closed(g.indptr, g.indices, sd, match, comp, ncomp)).tolist())
            assert got == _closed_by_sets(g, sd, match, comp)
            checked += 1
        unmatched += int((match < 0).any())
    assert checked == 120 and unmatched >= 10  # both splits of the colours were seen


# Boards on which the proof fires (found by a search of random boards): the exact side agrees.
def _fired_boards():
    rng = np.random.default_rng(2315)
    yield random_holed_board(8, 5, float(rng.choice([0.1, 0.15, 0.2])), closed=False, seed=2315)
    for s in (14, 18398):
        rng = np.random.default_rng(s)
        r, c = int(rng.integers(5, 8)), int(rng.integers(5, 8))
        yield Board.from_mask(rng.random((r, c)) < 0.2)


def _two_pairs() -> Board:
    """A 24 x 24 board with two planted pairs of one colour (two squares sharing their only two moves), the
    colours balanced again by holes of that colour away from them: no open tour (each pair holds an end, and
    an open tour has one of that colour), while the quick proofs and the matching argument see nothing."""
    n, pairs = 24, ((6, 7), (15, 16))  # r + c odd for both
    jumps = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
    holes = np.zeros((n, n), dtype=bool)
    for r, c in pairs:
        for a in ((r, c), (r + 2, c)):
            for dr, dc in jumps:
                if (a[0] + dr, a[1] + dc) not in ((r + 1, c - 2), (r + 1, c + 2)):
                    holes[a[0] + dr, a[1] + dc] = True
    taken = int(holes.sum())  # all of the other colour
    spots = [(r, c) for r in range(2, n - 2, 3) for c in range(2, n - 2) if (r + c) % 2 == 1 and c % 3 in (0, 1)
             and all(abs(r - x - 1) + abs(c - y) > 6 for x, y in pairs)]
    assert len(spots) >= taken
    for r, c in spots[:taken]:
        holes[r, c] = True
    return Board.from_mask(holes)


@pytest.mark.parametrize("board", list(_fired_boards()) + [_two_pairs()], ids=lambda b: f"{b.rows}x{b.cols}")
def test_the_proof_fires_where_the_exact_side_finds_no_open_tour(board):
    assert board.colour_counts()[0] - board.colour_counts()[1] in (-1, 0, 1)
    proof = matching_proof(KnightGraph(board), OPEN)
    assert proof is not None and proof.argument == "tight sets"
    assert check_proof(board, OPEN, proof).outcome == "valid"
    assert "so no open tour exists" in proof
    exact = solve(board, closed=False, method="cpsat", time_limit=120)
    assert exact.status.value == "infeasible"


def test_solve_and_prove_settle_the_two_pairs_by_it():
    board = _two_pairs()
    for how in ("solve", "prove"):
        res = solve(board, closed=False, time_limit=60) if how == "solve" else __import__("ktsolve").prove(
            board, closed=False, time_limit=60)
        assert res.status.value == "infeasible", how
        assert res.proof.argument == "tight sets" and res.stats["settled_by"] == "matching proof", how


def test_it_never_fires_on_a_board_with_an_open_tour():
    """Cross-check with the exact side: every board the finder refutes has no open tour, and on the boards
    with a tour it finds nothing (it is given a maximum matching of each)."""
    fired = toured = 0
    for board in _boards(80, 7):
        ends = board.colour_counts()
        if abs(ends[0] - ends[1]) > 1:
            continue
        g, _, match = _matched(board)
        proof = tight_sets_proof(g, OPEN, match, Deadline(None))
        exact = solve(board, closed=False, method="cpsat", time_limit=60)
        if proof is not None:
            fired += 1
            assert exact.status.value == "infeasible"
            assert check_tight_sets(board, OPEN, proof.evidence) is None
        toured += exact.status.value == "found"
    assert toured >= 20


def test_a_fixed_end_inside_a_set_answers_for_it():
    board = _two_pairs()
    g, _, match = _matched(board)
    first = matching_proof(g, OPEN).evidence["sets"][0]
    # the first set's square fixed as the start: that set is answered for, the other still needs an end of the
    # same colour, and none is free
    spec = TourSpec(closed=False, start=board.parse_square(first[0]))
    fixed = tight_sets_proof(g, spec, match, Deadline(None))
    assert fixed.argument == "tight sets" and check_proof(board, spec, fixed).outcome == "valid"
    assert len(fixed.evidence["sets"]) == 1 and not set(first) & set(fixed.evidence["sets"][0])
    # both ends fixed on that colour: the colours rule the question out, which is the quick proofs' to say
    other = fixed.evidence["sets"][0]
    both = TourSpec(closed=False, start=board.parse_square(first[0]), end=board.parse_square(other[0]))
    assert tight_sets_proof(g, both, match, Deadline(None)) is None


def test_the_checker_rejects_tampering():
    board = _two_pairs()
    proof = matching_proof(KnightGraph(board), OPEN)
    ev = proof.evidence
    assert check_tight_sets(board, OPEN, ev) is None
    sets = ev["sets"]
    bad = [
        ({**ev, "sets": sets[:1]}, "do not outnumber"),
        ({**ev, "sets": [sets[0], sets[0]]}, "lies in two of the sets"),
        ({**ev, "sets": [sets[0][:1], sets[1]]}, "not as many"),
        ({**ev, "colour": "light" if ev["colour"] == "dark" else "dark"}, "square, and the evidence names"),
        ({**ev, "sets": [sets[0], ["zz99"]]}, "is not a square of the board"),
        ({**ev, "sets": "a1"}, "must be lists"),
    ]
    for evidence, why in bad:
        said = check_tight_sets(board, OPEN, evidence)
        assert said is not None and why in said, (evidence, said)
    assert "open tours" in check_tight_sets(board, TourSpec(closed=True), ev)
    # a fixed end inside a set named: that set needs no other end
    start = board.parse_square(sets[0][0])
    assert "fixed end" in check_tight_sets(board, TourSpec(closed=False, start=start), ev)
