"""The cut loops of :func:`ktsolve.models.cpsat.solve_cpsat`: ``model="cuts"`` and ``model="sat"``.

Both solve a model with only "two moves per square" (a 2-factor), split the
answer into its cycles, cut each cycle off ("some move leaves it") and solve
again, until one cycle is left (a tour) or the model is infeasible (no tour:
every cut holds for every tour).  ``cuts`` re-solves with CP-SAT, hinted with
the last 2-factor (:mod:`ktsolve.models.cpsat_cuts`); ``sat`` keeps one
incremental SAT solver (:mod:`ktsolve.models.satcuts`, the optional
python-sat), with CP-SAT's first 2-factor.  Imported when one of these
models is asked for.
"""

from __future__ import annotations

import numpy as np

from ..driver import Deadline, Stopped, interrupt_guard
from ..graph import KnightGraph
from ..result import Proof, SolveResult, Status
from ..seeds import derive_seed
from ..tour import TourSpec
from .cpsat_run import (DEFAULT_PARAMETERS, apply_parameters, as_mapping, run_solver, solver_stats, status_map,
                        tour_from_successors)

__all__ = ["solve_cuts", "solve_sat"]


def solve_cuts(graph: KnightGraph, spec: TourSpec, deadline: Deadline, seed: int, num_workers: int,
                parameters, cuts_out: list | None = None) -> SolveResult:
    """The ``cuts`` model: solve the 2-factor model, cut its subtours, again, until one cycle or a proof.

    Every round is a fresh solver on the grown model with the time left,
    hinted with the last 2-factor.  Ctrl-C or the time limit, during a
    round or between two, give ``unknown`` with the rounds and cuts so far.
    ``cuts_out``, a list, receives the square sets of the cuts added (for
    the certificate of a "no").
    """
    from ortools.sat.python import cp_model

    from .cpsat_cuts import TwoFactorLoop

    loop = TwoFactorLoop(graph, spec, deadline)
    if cuts_out is not None:
        loop.cut_sets = cuts_out
    total = {"branches": 0, "conflicts": 0, "wall_time_s": 0.0, "deterministic_time": 0.0}

    def stats_now(status_name: str) -> dict:
        return {"status": status_name, **total, "rounds": loop.rounds, "cuts": loop.cuts,
                "edges": len(loop.lits), "num_workers": num_workers, "model": "cuts"}

    with interrupt_guard():
        while True:
            try:
                deadline.check(f"refining the 2-factor model (round {loop.rounds + 1})")
            except Stopped as stop:
                return SolveResult(Status.UNKNOWN, seed=seed, stats={**stats_now("UNKNOWN"), **stop.stats()})
            solver = cp_model.CpSolver()
            apply_parameters(solver, {**DEFAULT_PARAMETERS, **as_mapping(parameters)})
            solver.parameters.num_workers = num_workers
            solver.parameters.random_seed = derive_seed(seed, f"cpsat cuts {loop.rounds}") % 2**31
            status, interrupted = run_solver(solver, loop.model, deadline, what="2-factor model")
            for key, value in solver_stats(solver, status).items():
                if key != "status":
                    total[key] += value
            stats = stats_now(solver.status_name(status))
            if interrupted:
                stats.update(reason="interrupted (Ctrl-C) while CP-SAT searched", interrupted=True)
                return SolveResult(Status.UNKNOWN, seed=seed, stats=stats)
            mapped = status_map()[status]
            if mapped is Status.INFEASIBLE:
                text = (
                    f"CP-SAT proved the 2-factor model with {loop.cuts} subtour cuts infeasible "
                    f"({loop.rounds} rounds, {total['branches']} branches, {total['conflicts']} conflicts, "
                    f"{total['wall_time_s']:.3g} s)"
                )
                return SolveResult(Status.INFEASIBLE, proof=Proof(text, argument="cpsat", evidence=stats),
                                   seed=seed, stats=stats)
            if mapped is Status.UNKNOWN:
                stats["reason"] = (f"CP-SAT found no tour and no proof within {deadline.time_limit:g} s "
                                   f"({loop.rounds} rounds, {loop.cuts} cuts)")
                return SolveResult(Status.UNKNOWN, seed=seed, stats=stats)
            if loop.refine(solver):
                stats["rounds"] = loop.rounds
                tour = tour_from_successors(graph, spec, loop.successors())
                return SolveResult(Status.FOUND, tour=tour, seed=seed, stats=stats)


def _first_two_factor(graph: KnightGraph, spec: TourSpec, deadline: Deadline, seed: int, num_workers: int,
                      parameters) -> tuple[SolveResult | None, dict | None]:
    """Round 0 of ``sat``: CP-SAT's 2-factor, or its answer when there is none (or no time).

    A 2-factor is a matching problem, which CDCL without counting can take
    minutes to solve either way.  So ktsolve's matching proof
    (:func:`ktsolve.proofs.matching_proof`, polynomial, the tour's two
    disjoint perfect matchings with degree-2 forcing) refutes first, with
    half the time left, and answers with its own certified proof; then
    CP-SAT finds a 2-factor in a single dive (about a second on 100x100).
    Returns ``(answer, None)`` to stop, or ``(None, {edge: chosen})``.
    """
    from ortools.sat.python import cp_model

    from ..proofs import matching_proof
    from .cpsat_cuts import TwoFactorLoop

    try:
        proof = matching_proof(graph, spec, time_limit=deadline.part(0.5))
    except Stopped:
        proof = None  # its half of the time ran out: the 2-factor and the cut loop go on
    if proof is not None:
        stats = {"status": "INFEASIBLE", "rounds": 0, "cuts": 0, "model": "sat", "refuted_by": "matching proof"}
        return SolveResult(Status.INFEASIBLE, proof=proof, seed=seed, stats=stats), None
    deadline.check("refuting the 2-factor")
    answer, chosen = _factor_two_factor(graph, spec, deadline, seed)
    if answer is not None or chosen is not None:
        return answer, chosen

    first = TwoFactorLoop(graph, spec, deadline)
    solver = cp_model.CpSolver()
    apply_parameters(solver, {**DEFAULT_PARAMETERS, **as_mapping(parameters)})
    solver.parameters.num_workers = num_workers
    solver.parameters.random_seed = derive_seed(seed, "cpsat sat first") % 2**31
    status, interrupted = run_solver(solver, first.model, deadline, what="2-factor model")
    stats = {**solver_stats(solver, status), "rounds": 0, "cuts": 0, "model": "sat", "num_workers": num_workers}
    if interrupted:
        stats.update(reason="interrupted (Ctrl-C) while CP-SAT searched", interrupted=True)
        return SolveResult(Status.UNKNOWN, seed=seed, stats=stats), None
    mapped = status_map()[status]
    if mapped is Status.INFEASIBLE:
        text = (f"CP-SAT proved that the board has no 2-factor for this tour ({stats['branches']} branches, "
                f"{stats['conflicts']} conflicts, {stats['wall_time_s']:.3g} s)")
        return SolveResult(Status.INFEASIBLE, proof=Proof(text, argument="cpsat", evidence=stats), seed=seed,
                           stats=stats), None
    if mapped is Status.UNKNOWN:
        stats["reason"] = f"CP-SAT found no 2-factor and no proof within {deadline.time_limit:g} s"
        return SolveResult(Status.UNKNOWN, seed=seed, stats=stats), None
    return None, {e: solver.boolean_value(x) for e, x in first.lits.items()}


#: The share of the time left the linear-time 2-factor of :mod:`ktsolve.factor` may take as the first
#: round of ``sat`` before CP-SAT is asked instead.
FACTOR_SHARE = 0.25


def _factor_two_factor(graph: KnightGraph, spec: TourSpec, deadline: Deadline, seed: int
                       ) -> tuple[SolveResult | None, dict | None]:
    """Round 0 of ``sat`` by :func:`ktsolve.factor.two_factor` (augmenting paths, near-linear time).

    Its 2-factor becomes the SAT solver's first phases: ``(None, {edge:
    chosen})``, an open tour's links to the extra vertex read as edges to
    the dummy node (only hints: a link the SAT model lacks is dropped).
    When the network has none, the answer is the 2-factor proof, whose
    witness :func:`ktsolve.factor.check_two_factor_witness` re-checks.
    ``(None, None)`` when it runs out of its share of the time: CP-SAT
    then looks for the first 2-factor.  On a dense 100 x 100 board open
    from a fixed start, CP-SAT with one worker found none in 20 s
    (``benchmarks/results/race_max.md``).
    """
    from ..factor import END, two_factor, witness_proof
    from ..graph import KNIGHT_MOVES

    board = graph.board
    tf = two_factor(board, closed=spec.closed, start=spec.start, end=spec.end,
                    deadline=deadline.part(FACTOR_SHARE))
    if tf.status == "none":
        stats = {"status": "INFEASIBLE", "rounds": 0, "cuts": 0, "model": "sat", "refuted_by": "2-factor proof"}
        return SolveResult(Status.INFEASIBLE, proof=witness_proof(board, spec, tf.witness), seed=seed,
                           stats=stats), None
    if tf.status != "found":
        return None, None
    n = graph.n
    chosen: dict = {}
    rows, cols = np.nonzero((tf.links >= 0).any(axis=2))
    for r, c in zip(rows.tolist(), cols.tolist()):
        u = board.index(r, c)
        for code in tf.links[r, c].tolist():
            if code == END:
                chosen[(u, n)] = True
            elif code >= 0:
                dr, dc = KNIGHT_MOVES[code].tolist()
                v = board.index(r + dr, c + dc)
                chosen[(min(u, v), max(u, v))] = True
    return None, chosen


def solve_sat(graph: KnightGraph, spec: TourSpec, deadline: Deadline, seed: int, num_workers: int,
               parameters, cuts_out: list | None = None) -> SolveResult:
    """The ``sat`` model: the cut loop of :func:`solve_cuts` in one incremental SAT solver.

    The first 2-factor comes from :mod:`ktsolve.factor` or CP-SAT
    (:func:`_first_two_factor`) and is the first round (solved under it as
    assumptions); the SAT solver keeps its learnt clauses and phases from
    round to round.  ``cuts_out``, a list, receives the square sets of the
    cuts added (for the certificate of a "no").
    """
    from .satcuts import SAT_SOLVER, SatLoop

    loop = SatLoop(graph, spec, deadline)  # first: without python-sat, nothing else runs
    if cuts_out is not None:
        loop.cut_sets = cuts_out
    try:
        with interrupt_guard():
            try:
                answer, first = _first_two_factor(graph, spec, deadline, seed, num_workers, parameters)
            except Stopped as stop:
                return SolveResult(Status.UNKNOWN, seed=seed, stats={"rounds": 0, "cuts": 0, "model": "sat",
                                                                     **stop.stats()})
            if answer is not None:
                return answer
            phases = [x if first.get(e, False) else -x for e, x in loop.var.items()]
            loop.solver.set_phases(phases)
            # the first 2-factor is the first round: solved under it as assumptions, Glucose has a model at
            # once and keeps its values as saved phases for the next round (the phases alone did not lead a
            # dense 100 x 100 board's first round to a 2-factor in 40 s); a "no" here is only "not this one"
            answer, interrupted = loop.solve_round(deadline, assumptions=phases)
            if interrupted:
                return SolveResult(Status.UNKNOWN, seed=seed, stats={
                    "rounds": 0, "cuts": 0, "model": "sat", "interrupted": True,
                    "reason": "interrupted (Ctrl-C) while the SAT solver searched"})
            if answer is True and loop.refine():
                tour = tour_from_successors(graph, spec, loop.successors())
                return SolveResult(Status.FOUND, tour=tour, seed=seed, stats={
                    "status": "FEASIBLE", "rounds": loop.rounds, "cuts": 0, "edges": len(loop.edges), "model": "sat",
                    "sat_solver": SAT_SOLVER})
            while True:
                stats = {"status": "UNKNOWN", "rounds": loop.rounds, "cuts": loop.cuts, "edges": len(loop.edges),
                         "model": "sat", "sat_solver": SAT_SOLVER}
                try:
                    deadline.check(f"refining the 2-factor model (round {loop.rounds + 1})")
                except Stopped as stop:
                    return SolveResult(Status.UNKNOWN, seed=seed, stats={**stats, **stop.stats()})
                answer, interrupted = loop.solve_round(deadline)
                if interrupted:
                    stats.update(reason="interrupted (Ctrl-C) while the SAT solver searched", interrupted=True)
                    return SolveResult(Status.UNKNOWN, seed=seed, stats=stats)
                if answer is None:
                    stats["reason"] = (f"the SAT solver found no tour and no proof within {deadline.time_limit:g} s "
                                       f"({loop.rounds} rounds, {loop.cuts} cuts)")
                    return SolveResult(Status.UNKNOWN, seed=seed, stats=stats)
                if answer is False:
                    stats["status"] = "INFEASIBLE"
                    text = (f"{SAT_SOLVER} proved the 2-factor model with {loop.cuts} subtour cuts unsatisfiable "
                            f"({loop.rounds} rounds, {deadline.elapsed():.3g} s)")
                    return SolveResult(Status.INFEASIBLE, proof=Proof(text, argument="cpsat", evidence=stats),
                                       seed=seed, stats=stats)
                if loop.refine():
                    stats.update(status="FEASIBLE", rounds=loop.rounds)
                    tour = tour_from_successors(graph, spec, loop.successors())
                    return SolveResult(Status.FOUND, tour=tour, seed=seed, stats=stats)
    finally:
        loop.close()
