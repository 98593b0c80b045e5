"""The portfolio engine: run one method safely, or a plan of steps, on one question.

:func:`run_plan` runs the steps of a plan (:mod:`ktsolve.plans`) in turn and
stops at the first definite answer (a tour, or a proof that none exists);
:func:`run_proof` runs one proof step and :func:`presolve` the proofs every
method gets first.

Every answer passes through :func:`run_method`, which calls the method,
validates its tour with the one validator, refuses a proof from a method
that cannot prove, and records the seed and the time.  The steps tried,
with their status and seconds (graph building and validation included), are
kept in ``stats["steps"]``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
import numpy as np

from .board import Board
from .driver import Deadline, Stopped, interrupt_guard, interrupted, phase
from .errors import InvalidTourError
from .graph import KnightGraph
from .jit import compile_reason, take_compile_seconds
from .plans import Step, left_of, plan_reason, proof_steps
from .proofs.registry import PROOFS, proof_step
from .registry import MethodInfo, methods
from .result import SolveResult, Status
from .tour import Tour, TourSpec, validate

__all__ = ["run_method", "method_time_limit", "run_proof", "run_plan", "presolve", "wants_presolve"]

#: Seconds per square the one validator takes on a found tour (about 30 ns measured); a method
#: step's budget leaves this much for it, so a tour found at the end of the budget is still in time.
VALIDATE_S_PER_SQUARE = 5e-8
#: The most of a method step's budget that is left for validation (a board of hundreds of
#: millions of squares would otherwise leave the method no time at all).
VALIDATE_SHARE_MAX = 0.2

# ---------------------------------------------------------------------- one method
def _as_result(out, info: MethodInfo, graph: KnightGraph, spec: TourSpec) -> SolveResult:
    """A method's return value as a SolveResult: user methods may return a tour or None."""
    if isinstance(out, SolveResult):
        return out
    if out is None:
        return SolveResult(Status.UNKNOWN, stats={"reason": f"method {info.name!r} returned no tour"})
    if isinstance(out, Tour):
        return SolveResult(Status.FOUND, tour=out)
    try:
        squares = np.asarray(out)
    except Exception:  # noqa: BLE001 - anything that is not an array of squares
        squares = None
    pairs = squares is not None and squares.ndim == 2 and squares.shape[1:] == (2,)
    if squares is None or not (squares.ndim == 1 or pairs) or squares.size == 0 \
            or squares.dtype == bool or not np.issubdtype(squares.dtype, np.integer):
        raise RuntimeError(
            f"method {info.name!r} returned {type(out).__name__}; a method returns a SolveResult, "
            "a tour as square numbers or (row, col) pairs, or None"
        )
    if pairs:  # (row, col) pairs, as assert_tour takes them: the validator converts them, naming a bad step
        return SolveResult(Status.FOUND, tour=squares.astype(np.int64))
    return SolveResult(Status.FOUND, tour=squares.astype(np.int32))


#: Seconds (plus this share of the limit) a user's method may run past its time limit before it is an overrun.
OVERRUN_GRACE = (0.25, 0.1)


def _overrun(info: MethodInfo, seconds: float, time_limit) -> float:
    """Seconds a user's method ran past the seconds it was given beyond the grace; 0 when it kept to them, has
    none, or is built in (a built-in method reads the Deadline itself)."""
    if info.builtin or time_limit is None:
        return 0.0
    over = seconds - time_limit
    return over if over > OVERRUN_GRACE[0] + OVERRUN_GRACE[1] * time_limit else 0.0


def method_time_limit(info: MethodInfo, deadline: Deadline) -> Deadline | float | None:
    """What a method is given as ``time_limit``: the Deadline itself, or its seconds left for a user's method.

    A built-in method takes the caller's :class:`~ktsolve.driver.Deadline`
    and reads that one clock (:func:`ktsolve.driver.begin`); a user's
    method gets the documented number of seconds (None without a limit).
    """
    return deadline if info.builtin else deadline.budget()


def run_method(
    info: MethodInfo,
    graph: KnightGraph,
    spec: TourSpec,
    *,
    time_limit: Deadline | float | None = None,
    progress: Callable | None = None,
    seed: int | None = None,
    **params,
) -> SolveResult:
    """Call one method and check what it returns.

    ``time_limit`` is the step's clock (a Deadline, or seconds), handed to
    the method by :func:`method_time_limit`.  ``seed`` is passed on as it
    is: the caller settled it (:func:`ktsolve.driver.begin`), and a
    built-in method settles a None itself at its entry.

    A tour is validated (an invalid one becomes an honest ``unknown`` whose
    ``stats["invalid_tour"]`` has the validator's message); only a method
    that can prove may answer ``infeasible`` (a built-in one that says so
    otherwise is a bug, raised; a user's becomes ``unknown`` with its claim
    in ``stats["unproven_claim"]``); the seed used is recorded.
    A user's method that runs past its time limit (beyond
    :data:`OVERRUN_GRACE`) gets ``stats["overrun_s"]`` and a reason that
    says so.  ``stats["steps"]`` gets the method's time and the validation's time,
    and ``stats["compile_s"]`` the seconds the method spent compiling its
    numba kernels on their first run (:mod:`ktsolve.jit`), which the
    method's own clock did not count.
    """
    board = graph.board
    func = info.load()
    take_compile_seconds()
    t0 = time.perf_counter()
    given = method_time_limit(info, Deadline.of(time_limit))
    out = func(graph, spec, time_limit=given, progress=progress, **params, seed=seed)
    elapsed = time.perf_counter() - t0
    compiled = take_compile_seconds()
    res = _as_result(out, info, graph, spec)
    tour, stats = res.tour, dict(res.stats)
    if compiled:
        stats["compile_s"] = round(compiled, 3)
    overrun = _overrun(info, elapsed - (compiled or 0.0), given)
    if overrun:
        # a user's method that ignores its time limit is reported, not hidden in the elapsed time
        stats["overrun_s"] = round(overrun, 3)
        said = f"; {stats['reason']}" if stats.get("reason") else ""
        stats["reason"] = (f"method {info.name!r} ran {overrun:.3g} s past its time limit of "
                           f"{given:.3g} s{said}")
    status = res.status
    t1 = time.perf_counter()
    if status is Status.FOUND:
        phase(progress, "checking the tour")
        if tour is None:
            raise RuntimeError(f"method {info.name!r} reported a tour but returned none")
        try:
            # The one validator: a method's bug must never reach a user as a tour.
            tour = validate(board, tour, closed=spec.closed, start=spec.start, end=spec.end, moves=graph.moves)
        except InvalidTourError as exc:
            status, tour = Status.UNKNOWN, None
            stats["invalid_tour"] = str(exc)
            stats["reason"] = f"method {info.name!r} returned an invalid tour: {exc}"
    elif tour is not None:
        raise RuntimeError(f"method {info.name!r} returned a tour with status {res.status.value}")
    if status is Status.INFEASIBLE and not info.proves:
        if info.builtin:
            raise RuntimeError(f"method {info.name!r} cannot prove infeasibility but said so")
        # a user's method: its claim is kept in the stats, the answer stays honest
        status = Status.UNKNOWN
        stats["unproven_claim"] = str(res.proof) if res.proof is not None else "no tour exists"
        stats["reason"] = (f"method {info.name!r} said no tour exists, but it is not registered as a method "
                           "that proves (MethodInfo(..., proves=True)); the claim is not taken")
        res = res.replace(proof=None)
    if compiled and status is Status.UNKNOWN:
        # the clock was extended by the compile, but the user waited for it: say where the time went
        # (the call's entry says it again with every step's compile: one figure, jit.compile_reason)
        stats = compile_reason(stats)
    path = res.path
    if path is not None:
        path = validate(board, path, closed=False, start=spec.start, complete=False, moves=graph.moves)
    checking = time.perf_counter() - t1
    entry = {"step": info.name, "status": status.value, "seconds": round(elapsed, 6),
             "validation_s": round(checking, 6)}
    if compiled:
        entry["compile_s"] = round(compiled, 3)
    stats.setdefault("steps", [entry])
    return res.replace(
        status=status,
        tour=tour,
        path=path,
        stats=stats,
        method=res.method or info.name,
        seed=(seed if seed is not None else res.seed) if info.seeded else res.seed,
        elapsed=res.elapsed or elapsed,
        board=board,
        spec=spec,
    )


# ---------------------------------------------------------------------- proofs as steps
def _proof_result(proof, method: str, graph: KnightGraph, spec: TourSpec, seconds: float) -> SolveResult:
    return SolveResult(Status.INFEASIBLE, proof=proof, method=method, elapsed=seconds, board=graph.board, spec=spec)


def run_proof(name: str, graph: KnightGraph, spec: TourSpec, *, time_limit) -> tuple[object, bool]:
    """Run proof step ``name`` (:mod:`ktsolve.proofs.registry`); returns ``(proof or None, ran to the end)``.

    ``time_limit`` is the step's clock (a :class:`~ktsolve.driver.Deadline`,
    or seconds).  A step that stops before its end (its time, a race's
    cancel flag, Ctrl-C) proves nothing and did not run to the end; the
    caller looks at its own clock to tell whether the plan goes on.
    """
    step = proof_step(name)
    try:
        proof = step.run(graph if step.graph else graph.board, spec, time_limit)
    except Stopped:
        return None, False
    return proof, True


def presolve(graph: KnightGraph, spec: TourSpec, *, deadline: Deadline) -> SolveResult | None:
    """The proofs every method gets before it runs; an ``infeasible`` result, or None.

    When ``deadline`` expires while the graph is built or before a proof,
    the answer is None (no proof): the method then answers for itself.

    :func:`~ktsolve.proofs.quick_proof` runs on every board, and
    :func:`~ktsolve.proofs.matching_proof` too on boards of at most
    :data:`PRESOLVE_MATCHING_MAX` squares, at most
    :data:`PRESOLVE_MATCHING_TIME` seconds, so that no method burns its
    budget on a question with no answer (a closed tour of a 4 x n board).
    """
    t0 = time.perf_counter()
    for step in proof_steps(graph.board, prove=False):
        try:
            graph.build(deadline)
        except Stopped:
            return None  # no proof in time: the method runs and answers for itself
        proof, _ = run_proof(step.name, graph, spec, time_limit=deadline.part(step.share, step.cap))
        deadline.extend(take_compile_seconds())  # the proofs' first-run compile is not the call's work
        if deadline.expired() or interrupted():
            return None
        if proof is not None:
            return _proof_result(proof, proof_step(step.name).method, graph, spec, time.perf_counter() - t0)
    return None


def wants_presolve(info: MethodInfo) -> bool:
    """Whether the presolve proofs run before ``info``'s method.

    Not before a method that needs no graph and proves infeasibility itself
    (``needs_graph=False, proves=True``, such as ``divide``): it checks the
    necessary conditions on its own, and the proofs would build the graph
    of the board for nothing.
    """
    return info.needs_graph or not info.proves


# ---------------------------------------------------------------------- plans
def _build_graph(graph: KnightGraph, deadline: Deadline, csr: bool) -> dict:
    """Build the graph arrays now, against the clock, so that their time is reported apart (``graph_s``).

    Only the table and the degrees for a method (the CSR pair is built by
    the methods that use it); everything for the proofs.  Raises
    :class:`~ktsolve.driver.Stopped` when the deadline expires meanwhile.
    """
    if "table" in graph.__dict__ and (not csr or "_csr" in graph.__dict__):
        return {}
    return {"graph_s": round(graph.build(deadline, csr=csr), 6)}


def run_plan(
    plan: list[Step],
    board: Board,
    spec: TourSpec,
    *,
    deadline: Deadline,
    progress: Callable | None = None,
    label: str | None = "auto",
    params: dict | None = None,
    seed: int,
    race: bool | str = False,
    proofs_behind=None,
) -> SolveResult:
    """Run ``plan`` until a step settles the question or the time runs out.

    With ``race`` a plan that :func:`ktsolve.race.split_lanes` splits runs
    in two lanes at once and the first definite answer wins
    (:func:`ktsolve.race.run_race`): ``True`` races CP-SAT from the start
    beside the other steps where it has a chance (``prove``), and else the
    proofs beside the constructions; ``"proofs"`` only the latter (a race
    whose answer does not depend on timing, since a proof and a tour never
    both exist).  Each step still gets the plan's seed and gives the answer
    it gives alone, but which step wins may depend on timing.  Every step
    then has its ``lane`` in ``stats["steps"]``.  ``proofs_behind`` (a race's
    :class:`threading.Event`) is set once the plan's first method step
    starts: the proofs with a witness are behind it.

    Every method step gets the same ``seed``, so a step can be repeated on
    its own with that seed.  Returns the settling step's result with
    ``stats["steps"]`` (every step tried: name, status, seconds),
    ``stats["settled_by"]`` (the settling step, or ``"none"``) and
    ``stats[label]``, the steps tried joined by arrows (unless ``label`` is
    None).  ``params[name]`` are the parameters of method step ``name``.
    An interrupted step (Ctrl-C) ends the plan with its ``unknown``.
    """
    if race:
        from .race import run_race, split_lanes

        lanes = split_lanes(plan, board, search=race != "proofs")
        if lanes is not None:
            return run_race(lanes, board, spec, deadline=deadline, run_lane=run_plan, label=label,
                            progress=progress, params=params, seed=seed)
    reg = methods()
    graph = KnightGraph.of(board)
    steps: list[dict] = []
    tried: list[str] = []
    finished_proofs: set[str] = set()
    last: SolveResult | None = None

    def finish(res: SolveResult, settled_by: str) -> SolveResult:
        stats = dict(res.stats)
        stats.pop("steps", None)
        stats["steps"] = steps
        stats["settled_by"] = settled_by
        # every step's first-run compile (proofs included), which the clock did not count
        compiled = sum(entry.get("compile_s", 0.0) for entry in steps)
        if compiled:
            stats["compile_s"] = round(compiled, 3)
        if label is not None:
            stats[label] = " -> ".join(tried) if tried else "none"
        return res.replace(stats=stats, elapsed=deadline.elapsed(), board=board, spec=spec)

    with interrupt_guard():
        for step in plan:
            if deadline.expired() and not step.always:
                continue
            if step.name in finished_proofs:
                continue  # an earlier run of this proof went to the end and found nothing
            is_proof = step.name in PROOFS
            if not is_proof and proofs_behind is not None:
                proofs_behind.set()
            try:
                phase(progress, step.title)  # the bar names the step, its graph's building included
                needs = proof_step(step.name).graph if is_proof else reg[step.name].needs_graph
                built = _build_graph(graph, deadline, csr=is_proof) if needs else {}
            except Stopped as stop:
                # the time ran out (or Ctrl-C) while the graph was built: no later step can do better
                steps.append({"step": step.title, "status": "unknown", "seconds": 0.0, **stop.stats()})
                return finish(SolveResult(Status.UNKNOWN, method=label or step.name, stats=stop.stats()), "none")
            # the step's share of the time left once its graph is built; a method leaves
            # time for the validation of the tour it may find
            budget = deadline.share(step.share, step.cap)
            if budget is not None and not is_proof:
                budget -= min(board.n_squares * VALIDATE_S_PER_SQUARE, VALIDATE_SHARE_MAX * budget)
            if budget is not None:
                budget = max(budget, 1e-9)
            # the step reads its own clock: the plan's, cut to the step's share (a race's cancel reaches it)
            clock = Deadline(budget, cancel=deadline.cancel)
            if is_proof:
                take_compile_seconds()
                t0 = time.perf_counter()
                proof, finished = run_proof(step.name, graph, spec, time_limit=clock)
                seconds = time.perf_counter() - t0
                # the proofs' first-run compile (their clock was extended by it) is not their work
                compiled = take_compile_seconds()
                deadline.extend(compiled)
                seconds -= compiled
                entry = {"step": step.name, "status": "infeasible" if proof else "no proof",
                         "seconds": round(seconds, 6), **built, **({"compile_s": round(compiled, 3)} if compiled else {})}
                if proof is None:
                    entry["left"] = "no contradiction" if finished else "stopped before its end"
                if proof is None and (deadline.expired() or interrupted()):
                    # the time ran out (or Ctrl-C) while the proof ran: no later step can do better
                    stop = Stopped("interrupted" if interrupted() else "time limit", f"running the {step.name}")
                    steps.append({**entry, "status": "unknown", **stop.stats()})
                    return finish(SolveResult(Status.UNKNOWN, method=label or step.name, stats=stop.stats()), "none")
                if finished:
                    finished_proofs.add(step.name)
                steps.append(entry)
                if proof is not None:
                    found = proof_step(step.name)
                    tried.append(f"a necessary condition fails ({step.name})" if found.necessary else step.name)
                    return finish(_proof_result(proof, found.method, graph, spec, seconds), step.name)
                continue
            info = reg[step.name]
            res = run_method(info, graph, spec, time_limit=clock, progress=progress,
                             **{**(params or {}).get(step.name, {}), **dict(step.params)}, seed=seed)
            # the first-run compile of a method's kernels is not the call's work
            deadline.extend(res.stats.get("compile_s", 0.0))
            for k, entry in enumerate(res.stats.get("steps", ())):
                if k == 0 and res.status is Status.UNKNOWN:
                    entry = {**entry, "left": left_of(res.stats)}
                steps.append({**entry, **built, "step": step.title} if k == 0 else entry)
            tried.append(step.title)
            last = res
            if res.status is not Status.UNKNOWN:
                return finish(res, step.title)
            if res.stats.get("interrupted"):
                return finish(res, "none")
    if last is None and not steps:
        reason = ("the time limit ran out before any step settled the question" if deadline.expired()
                  else "no method can answer this question on this board")
        last = SolveResult(Status.UNKNOWN, method=label or "", stats={"reason": reason})
    elif last is None or len(steps) > 1:
        # more than one step tried: the reason says what each left (the last one's own is kept apart)
        last = SolveResult(Status.UNKNOWN, method=label or "") if last is None else last
        stats = dict(last.stats)
        if stats.get("reason") and "last_reason" not in stats:
            stats["last_reason"] = stats["reason"]
        stats["reason"] = plan_reason(steps, deadline.expired())
        last = last.replace(stats=stats)
    return finish(last, "none")
