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

from ..driver import Deadline, Stopped, interrupt_guard
from ..graph import KnightGraph
from ..result import Proof, SolveResult, Status
from ..seeds import derive_seed
from ..tour import TourSpec
from .cpsat import (
    DEFAULT_PARAMETERS,
    _as_mapping,
    _status_map,
    _tour_from_successors,
    apply_parameters,
    run_solver,
    solver_stats,
)

__all__ = ["solve_cuts", "solve_sat"]


def solve_cuts(graph: KnightGraph, spec: TourSpec, deadline: Deadline, seed: int, num_workers: int,
                parameters) -> SolveResult:
    """The ``cuts`` model: solve the 2-factor model, cut its subtours, again, until one cycle or a proof.

    Every round is a fresh solver on the grown model with the time left,
    hinted with the last 2-factor.  Ctrl-C or the time limit, during a
    round or between two, give ``unknown`` with the rounds and cuts so far.
    """
    from ortools.sat.python import cp_model

    from .cpsat_cuts import TwoFactorLoop

    loop = TwoFactorLoop(graph, spec, deadline)
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
            apply_parameters(solver, {**DEFAULT_PARAMETERS, **_as_mapping(parameters)})
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
            mapped = _status_map()[status]
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
                tour = _tour_from_successors(graph, spec, loop.successors())
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

    proof = matching_proof(graph, spec, time_limit=deadline.share(0.5), cancel=deadline.cancel)
    if proof is not None:
        stats = {"status": "INFEASIBLE", "rounds": 0, "cuts": 0, "model": "sat", "refuted_by": "matching proof"}
        return SolveResult(Status.INFEASIBLE, proof=proof, seed=seed, stats=stats), None
    deadline.check("refuting the 2-factor")

    first = TwoFactorLoop(graph, spec, deadline)
    solver = cp_model.CpSolver()
    apply_parameters(solver, {**DEFAULT_PARAMETERS, **_as_mapping(parameters)})
    solver.parameters.num_workers = num_workers
    solver.parameters.random_seed = derive_seed(seed, "cpsat sat first") % 2**31
    status, interrupted = run_solver(solver, first.model, deadline, what="2-factor model")
    stats = {**solver_stats(solver, status), "rounds": 0, "cuts": 0, "model": "sat", "num_workers": num_workers}
    if interrupted:
        stats.update(reason="interrupted (Ctrl-C) while CP-SAT searched", interrupted=True)
        return SolveResult(Status.UNKNOWN, seed=seed, stats=stats), None
    mapped = _status_map()[status]
    if mapped is Status.INFEASIBLE:
        text = (f"CP-SAT proved that the board has no 2-factor for this tour ({stats['branches']} branches, "
                f"{stats['conflicts']} conflicts, {stats['wall_time_s']:.3g} s)")
        return SolveResult(Status.INFEASIBLE, proof=Proof(text, argument="cpsat", evidence=stats), seed=seed,
                           stats=stats), None
    if mapped is Status.UNKNOWN:
        stats["reason"] = f"CP-SAT found no 2-factor and no proof within {deadline.time_limit:g} s"
        return SolveResult(Status.UNKNOWN, seed=seed, stats=stats), None
    return None, {e: solver.boolean_value(x) for e, x in first.lits.items()}


def solve_sat(graph: KnightGraph, spec: TourSpec, deadline: Deadline, seed: int, num_workers: int,
               parameters) -> SolveResult:
    """The ``sat`` model: the cut loop of :func:`solve_cuts` in one incremental SAT solver.

    The first 2-factor comes from CP-SAT (:func:`_first_two_factor`) and
    becomes the SAT solver's initial phases; the SAT solver keeps its
    learnt clauses and phases from round to round.
    """
    from .satcuts import SAT_SOLVER, SatLoop

    loop = SatLoop(graph, spec, deadline)  # first: without python-sat, nothing else runs
    try:
        with interrupt_guard():
            try:
                answer, first = _first_two_factor(graph, spec, deadline, seed, num_workers, parameters)
            except Stopped as stop:
                return SolveResult(Status.UNKNOWN, seed=seed, stats={"rounds": 0, "cuts": 0, "model": "sat",
                                                                     **stop.stats()})
            if answer is not None:
                return answer
            loop.solver.set_phases([x if first[e] else -x for e, x in loop.var.items()])
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
                    tour = _tour_from_successors(graph, spec, loop.successors())
                    return SolveResult(Status.FOUND, tour=tour, seed=seed, stats=stats)
    finally:
        loop.close()
