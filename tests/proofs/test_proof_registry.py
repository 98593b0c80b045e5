"""The proof steps' one interface: every finder called one way, one clock, "did not finish" never None."""

from __future__ import annotations

import inspect

import pytest

from ktsolve import Board, KnightGraph, TourSpec
from ktsolve.driver import Deadline, Stopped
from ktsolve.plans import auto_plan, prove_plan
from ktsolve.portfolio import run_proof
from ktsolve.proofs.registry import PROOF_STEPS, PROOFS, proof_step
from ktsolve.registry import methods

STEPS = list(PROOF_STEPS.values())

# Small questions with no tour, each refuted by at least one step (their arguments are checked below).
REFUTED = [
    (Board(5, 5), TourSpec(closed=True)),  # colour parity
    (Board(4, 9), TourSpec(closed=True)),  # matching proof
    (Board(3, 6), TourSpec()),  # 2-factor
    (Board(4, 6, [(0, 2), (3, 0)]), TourSpec(closed=True)),  # region colours
    (Board(5, 12, [(r, c) for r in range(5) for c in (5, 6)]), TourSpec()),  # connectivity
    (Board(6, 6, [(0, 1), (1, 0)]), TourSpec(closed=True)),  # a corner square with one move
    (Board(8, 8), TourSpec(closed=True, start=(0, 0), end=(7, 7))),  # closing move
]


@pytest.mark.parametrize("step", STEPS, ids=lambda s: s.name)
def test_every_finder_has_the_one_signature(step):
    params = inspect.signature(step.load()).parameters
    names = list(params)
    assert names[:2] == ["graph", "spec"] or names[:2] == ["board", "spec"]
    assert params["time_limit"].kind is inspect.Parameter.KEYWORD_ONLY and params["time_limit"].default is None
    assert all(k in params for k, _ in step.params)


@pytest.mark.parametrize("step", STEPS, ids=lambda s: s.name)
def test_a_finder_whose_clock_is_spent_says_it_did_not_finish(step):
    graph = KnightGraph(Board(8, 8, [(0, 0), (0, 1)]))  # a closed tour exists: nothing to prove early
    with pytest.raises(Stopped):
        step.run(graph if step.graph else graph.board, TourSpec(closed=True), Deadline(1e-9, t0=0.0))
    assert run_proof(step.name, graph, TourSpec(closed=True), time_limit=Deadline(1e-9, t0=0.0)) == (None, False)


@pytest.mark.parametrize("step", STEPS, ids=lambda s: s.name)
def test_a_finder_writes_only_the_arguments_it_declares(step):
    proved = 0
    for board, spec in REFUTED:
        graph = KnightGraph(board)
        proof, finished = run_proof(step.name, graph, spec, time_limit=30)
        if proof is not None:
            proved += 1
            assert proof.argument in step.arguments, (step.name, proof.argument)
    assert proved, f"no question of REFUTED is refuted by the {step.name}: the test would check nothing"


def test_the_plans_name_only_proof_steps_and_methods():
    reg = methods()
    boards = [Board(6, 6), Board(30, 30, [(0, 0), (29, 29)]), Board(200, 200, [(5, 5), (6, 7)]),
              Board(3000, 3000, [(5, 5), (6, 7)])]
    for board in boards:
        for spec in (TourSpec(closed=True), TourSpec(), TourSpec(start=(0, 1))):
            for step in (*auto_plan(board, spec), *prove_plan(board, spec)):
                assert step.name in PROOFS or step.name in reg, step.name


def test_the_step_names_are_the_registry_keys():
    assert all(proof_step(name).name == name for name in PROOFS)
    with pytest.raises(KeyError):
        proof_step("splice")


def test_methods_that_need_the_graph_are_left_out_of_plans_beyond_its_size():
    from ktsolve.errors import UnsupportedError
    from ktsolve.graph import MAX_GRAPH_SQUARES

    big = Board(5001, 5001, [(0, 0)])  # 25,010,000 squares: splice and the cell proofs only
    assert big.n_squares > MAX_GRAPH_SQUARES
    for plan in (auto_plan(big, TourSpec(closed=True)), prove_plan(big, TourSpec(closed=True))):
        names = [s.name for s in plan]
        assert "splice" in names and not {"rotation", "warnsdorff", "quick proofs", "matching proof"} & set(names)
    with pytest.raises(UnsupportedError, match="needs the knight graph"):
        from ktsolve import solve

        solve(big, "rotation", closed=True, time_limit=1)


def test_every_argument_a_proof_step_writes_has_its_checker_beside_it():
    from ktsolve.proofs.registry import CHECKERS
    from ktsolve.proofs.verdict import checker_of

    for step in STEPS:
        for argument in step.arguments:
            assert argument in CHECKERS, (step.name, argument)
            assert callable(checker_of(argument))
