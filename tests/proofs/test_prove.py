"""prove(): the portfolio against the theorems and oracles, its report, and the ``prove`` command."""

import json

import numpy as np
import pytest

from ktsolve import Board, KnightGraph, Status, prove, solve
from ktsolve.proofs import check_matching_proof

from conftest import invoke, random_board
from naive_factor import check_evidence
from naive_tours import closed_exists, exhaustive_tour, open_exists


@pytest.mark.parametrize("m", range(1, 11))
def test_full_boards_agree_with_the_theorems(m):
    for n in range(m, 11):
        for closed, exists in ((True, closed_exists(m, n)), (False, open_exists(m, n))):
            res = prove(Board(m, n), closed=closed, time_limit=60, seed=1)
            assert res.status is (Status.FOUND if exists else Status.INFEASIBLE), (m, n, closed, res.stats)
            if res.status is Status.INFEASIBLE:
                assert res.proof and res.stats["settled_by"] in ("quick proofs", "2-factor proof", "matching proof",
                                                                 "cpsat", "backtrack")
                if res.proof.argument == "matching":
                    assert check_matching_proof(KnightGraph(Board(m, n)), res.spec, res.proof)
                if res.proof.argument == "2-factor":
                    assert check_evidence(Board(m, n), res.spec, res.proof) is None
            if m == 4 and closed:
                assert res.stats["settled_by"] == "matching proof"


def test_5x5_starts_and_6x6_starts():
    table = np.array([[304, 0, 56, 0, 304], [0, 56, 0, 56, 0], [56, 0, 64, 0, 56], [0, 56, 0, 56, 0],
                      [304, 0, 56, 0, 304]])
    for r in range(5):
        for c in range(5):
            res = prove("5x5", start=(r, c), time_limit=30, seed=2)
            assert res.status is (Status.FOUND if table[r, c] else Status.INFEASIBLE)
            if res.found:
                assert res.tour.start == (r, c)
    for r in range(6):
        for c in range(6):
            res = prove("6x6", start=(r, c), time_limit=30, seed=2)
            assert res.found and res.tour.start == (r, c)


def test_holed_oracle(holed_oracle):
    for case in holed_oracle["cases"]:
        b = Board(*case["board"], holes=[tuple(h) for h in case["holes"]])
        res = prove(b, closed=case["kind"] == "closed", start=case.get("start") and tuple(case["start"]),
                    time_limit=60, seed=3)
        assert res.status is (Status.FOUND if case["exists"] else Status.INFEASIBLE), case


def test_random_holed_boards_agree_with_exhaustive_search():
    rng = np.random.default_rng(12)
    seen = set()
    for _ in range(60):
        b = random_board(rng, 2, 6, 0.45)
        if b.n_squares > 18:
            continue
        g = KnightGraph(b)
        closed = bool(rng.integers(2))
        coords = [tuple(int(x) for x in b.coords_of([i])[0]) for i in range(b.n_squares)]
        start = coords[int(rng.integers(len(coords)))] if rng.random() < 0.5 else None
        res = prove(b, closed=closed, start=start, time_limit=60, seed=4)
        ref = exhaustive_tour(g, res.spec)
        assert res.status is (Status.FOUND if ref is not None else Status.INFEASIBLE), (b, res.spec)
        seen.add(res.stats["settled_by"])
    # Both kinds of answer occur: proofs, and tours (from a heuristic step or CP-SAT).
    assert "quick proofs" in seen and seen & {"warnsdorff", "backtrack", "cpsat"}


def test_report_lists_every_step():
    res = prove("8x8", closed=True, time_limit=60, seed=5)
    assert res.found and res.stats["settled_by"] in ("warnsdorff", "backtrack", "cpsat")
    names = [s["step"] for s in res.stats["steps"] if s.get("lane", "A") == "A"]  # in a race, CP-SAT is lane B
    assert names[:3] == ["quick proofs", "matching proof", "2-factor proof"]
    res = prove("4x1000", closed=True, time_limit=60)
    assert res.status is Status.INFEASIBLE and res.stats["settled_by"] == "matching proof"
    assert res.method == "matching" and res.proof.argument == "matching"
    res = prove("5x5", closed=True)
    assert res.stats["settled_by"] == "quick proofs" and res.proof.argument == "colour parity"


def test_unknown_only_when_time_runs_out():
    res = prove("30x30", closed=True, time_limit=1e-6)
    assert res.status is Status.UNKNOWN and "time limit ran out" in res.stats["reason"]


def test_solve_presolve_uses_the_matching_proof():
    res = solve("4x12", method="cpsat", closed=True, time_limit=5)
    assert res.status is Status.INFEASIBLE and res.method == "proofs" and res.proof.argument == "matching"


# ---------------------------------------------------------------------- the command
def test_cli_prove_exit_codes_and_json(tmp_path):
    out = invoke(["prove", "4x8", "--closed"], code=1)
    assert out.stdout.startswith("no tour:") and "perfect matching" in out.stdout
    assert "settled by matching proof" in out.stderr
    out = invoke(["prove", "5x5", "--start", "a1", "--format", "json"], code=0)
    data = json.loads(out.stdout)
    assert data["status"] == "found" and len(data["tour"]) == 25 and data["stats"]["settled_by"]
    out = invoke(["prove", "5x5", "--start", "b1", "--format", "json"], code=1)
    data = json.loads(out.stdout)
    assert data["proof"] and data["certificate"]["argument"] == "colour parity"
    out = invoke(["prove", "30x30", "--closed", "--time-limit", "0.000001"], code=3)
    assert out.stdout.startswith("unknown:")
    f = tmp_path / "p.svg"
    invoke(["prove", "3x4", "--format", "svg", "-o", f])
    assert f.read_text().startswith("<svg") or "<svg" in f.read_text()[:200]


def test_cli_prove_bad_input_exit_2():
    out = invoke(["prove", "4x4", "--holes", "a1", "--start", "a1"], code=2)
    assert out.stderr.startswith("ktsolve: error:") and out.stdout == ""


@pytest.mark.parametrize(
    "size, kw, status",
    [
        ("300x300", dict(closed=True), "found"),
        ("4x3000", dict(closed=True), "infeasible"),
        ("4x3000", dict(start=(1, 1500)), "infeasible"),
        ("101x101", dict(closed=True), "infeasible"),
        ("111x111", dict(start="a1"), "found"),
    ],
)
def test_large_full_boards_are_settled_by_divide_without_the_graph(size, kw, status):
    from ktsolve import KnightGraph
    from ktsolve.solve import as_board

    board = as_board(size)
    res = prove(board, **kw)
    assert res.status.value == status and res.stats["settled_by"] == "divide"
    assert [s["step"] for s in res.stats["steps"]] == ["divide"]
    assert "table" not in KnightGraph.of(board).__dict__


def test_divide_that_cannot_answer_hands_over_to_the_rest():
    # both ends fixed: divide answers only when its construction happens to join them
    res = prove("120x120", start="a1", end="a120", time_limit=60)
    assert res.status.value == "found"
    assert res.stats["steps"][0] == {**res.stats["steps"][0], "step": "divide", "status": "unknown"}
    assert len(res.stats["steps"]) > 1
