"""Racing a plan: its steps in two lanes, on two cores, the first definite answer wins.

:func:`ktsolve.portfolio.run_plan` runs a plan's steps one after another.
On a machine with at least two cores, a plan that has a CP-SAT step on a
board where CP-SAT has a chance (at most :data:`RACE_MAX` squares) is
raced instead by :func:`run_race`:

* lane A runs every other step in the plan's order (the proofs, the
  constructions, exhaustive search; the searches that may run out their
  budget with at most :data:`RACE_STEP_SHARE` of the time left each), then
  a second exact engine with the rest of the time (:func:`second_engine`:
  the 2-factor model refined by subtour cuts, in python-sat's Glucose when
  it can be imported, else in CP-SAT), so that its core keeps working on
  the question once the cheap steps are spent;
* lane B runs CP-SAT's circuit model with one worker (reproducible) and the
  whole time, from the moment lane A's proofs are behind, or
  :data:`HEAD_START` seconds into the call if they take longer.

Both lanes read one clock, the call's :class:`~ktsolve.driver.Deadline`,
with a cancel flag (a :class:`threading.Event`) shared by the race.  The
first lane whose step answers ``found`` or ``infeasible`` sets it; from
then on the other lane's clock reads as run out (``remaining()`` is 0,
``check()`` raises :class:`~ktsolve.driver.Stopped`, :func:`~ktsolve.driver.drive`
ends its chunk loop, CP-SAT's wait loop calls ``stop_search``), so it stops
within a chunk (about 50 ms) and answers ``unknown``.  Its step is recorded
as ``cancelled``.  One exception: when CP-SAT proves that no tour
exists while lane A is still on its proof steps, lane A's proofs get a
short grace (:func:`_grace`) to give the same answer with a witness that
a person can check, which is then preferred (``prove`` and ``auto`` say
the same thing whichever step is faster).  Both lanes are joined before :func:`run_race` returns:
no thread outlives the call.  Ctrl-C sets the flag too, and the answer is
the honest ``unknown`` with ``stats["interrupted"] = True``.

Every step gets the plan's seed, so a step repeated alone gives the same
answer; *which* step wins may depend on timing (which one answers first),
never an answer itself: each lane's tours are validated and its proofs
are the steps' own.

Examples
--------
>>> from ktsolve import Board
>>> from ktsolve.tour import TourSpec
>>> from ktsolve.plans import prove_plan
>>> a, b = split_lanes(prove_plan(Board(6, 6), TourSpec(closed=True)), Board(6, 6), cores=2)
>>> [s.name for s in b]
['cpsat']
>>> a[-1].title in ('cpsat (model=sat)', 'cpsat (model=cuts)')
True
>>> split_lanes(prove_plan(Board(6, 6), TourSpec(closed=True)), Board(6, 6), cores=1) is None
True
"""

from __future__ import annotations

import os
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import replace

from .board import Board
from .driver import Deadline, Stopped, interrupt_guard
from .graph import KnightGraph
from .result import SolveResult, Status
from .tour import TourSpec

__all__ = ["RACE_MAX", "RACING_STEPS", "RACE_CAPPED", "RACE_STEP_SHARE", "HEAD_START", "split_lanes", "proof_lanes",
           "Lanes", "second_engine", "run_race", "available_cores"]

#: Boards up to this many squares race CP-SAT against the other steps (dense 100 x 100 boards included).
#: Above it a board goes first to splice (holed) or divide (full), which need no graph
#: (``plans.SPLICE_FIRST``, ``PROVE_DIVIDE_FIRST``), and the plan runs in turn.
RACE_MAX = 10_000
#: The steps that run in lane B, from the start of the call.
RACING_STEPS = ("cpsat",)
#: Lane A's steps that search until their budget ends, and the most of the time left each may take there,
#: so that the second engine gets most of the time (rotation and Warnsdorff settle dense boards of 40 x 40
#: in under half a second when they settle them at all: benchmarks/results/frontier_race.md).
RACE_CAPPED = ("splice", "rotation", "warnsdorff", "backtrack")
RACE_STEP_SHARE = 0.05
#: The grace lane A's proofs get after CP-SAT's "no tour" (:func:`_grace`): this share of CP-SAT's time,
#: and at least this many seconds.
GRACE_SHARE, GRACE_MIN = 0.4, 0.2
#: Seconds lane B waits, at most, for lane A's proofs to be behind before it starts (within the promise's
#: 0.3 s of slack): building a CP-SAT model beside them made the proofs of dense 60 x 60 and 100 x 100
#: boards 2 to 10 times slower (benchmarks/results/race_max.md).
HEAD_START = 0.25
#: Seconds between two looks of the waiting main thread at the lanes and at Ctrl-C.
_POLL = 0.02


def available_cores() -> int:
    """The cores this process may use (``os.sched_getaffinity`` where there is one)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def second_engine():
    """Lane A's last step: CP-SAT's method with the cut model, ``sat`` where python-sat can be imported.

    Both refine a 2-factor by subtour cuts (:mod:`ktsolve.models.cpsat_cuts`).
    ``sat`` settles dense holed boards that the circuit model of lane B
    does not (``benchmarks/results/exact_frontier_one_worker.md``: 11 of
    14 questions against 9); ``cuts``, without the optional dependency, is
    at least a search other than lane B's (it settled as many there).  The
    step gets the rest of the time (CP-SAT's own default budget without a
    time limit).
    """
    from .models.satcuts import have_pysat
    from .plans import Step

    return Step("cpsat", 1.0, None, params=(("model", "sat" if have_pysat() else "cuts"),))


def split_lanes(plan: list, board: Board, *, cores: int | None = None, search: bool = True):
    """The plan's two lanes ``(A, B)``, or None when the plan runs in turn.

    None on one core.  With ``search`` (``prove``, and ``solve(race=True)``),
    on boards of at most :data:`RACE_MAX` squares whose plan has a step of
    :data:`RACING_STEPS`, lane B is that search with the whole time (share
    1, no cap); lane A keeps the plan's order and shares (its proofs get the
    caps of :func:`~ktsolve.plans.prove_plan`, in ``auto`` too), with at
    most :data:`RACE_STEP_SHARE` of the time left for each step of
    :data:`RACE_CAPPED`, and ends with :func:`second_engine`, which gets the
    rest of the time.

    Otherwise the proofs race the constructions (:func:`proof_lanes`): a
    reproducible race, since a proof and a tour never both exist.
    """
    from .plans import Step, proof_steps

    n_cores = available_cores() if cores is None else cores
    if n_cores < 2:
        return None
    if not search or board.n_squares > RACE_MAX or not any(s.name in RACING_STEPS for s in plan):
        return proof_lanes(plan, board)
    b = [Step(s.name, 1.0, s.cap, s.always) for s in plan if s.name in RACING_STEPS]
    # lane A's proofs run beside CP-SAT, so they hold no construction back: every racing plan (auto's
    # too) gives them prove's time, and auto says "no" with the witness prove gives
    proving = {s.name: s for s in proof_steps(board, prove=True)}
    a = [proving.get(s.name, s) for s in plan if s.name not in RACING_STEPS]
    if not a:
        return None
    a = [Step(s.name, min(s.share, RACE_STEP_SHARE), s.cap, s.always, s.params) if s.name in RACE_CAPPED else s
         for s in a]
    return Lanes(a + [second_engine()], b, b_waits=True)


def proof_lanes(plan: list, board: Board):
    """Lane A the plan's proofs (:func:`~ktsolve.plans.proof_lane`: each once, cheapest first, with
    ``prove``'s caps), lane B its other steps in order, then what is left of lane A's: the lane that runs
    out of steps first takes the next proof of the other (one queue), so both cores work to the end.
    None when the plan has no proof or no other step, or starts with a method that proves.  On a board above
    :data:`~ktsolve.plans.TWO_FACTOR_AFTER_SPLICE` squares whose constructions start with splice, the
    2-factor proof is not in the queue: it follows splice in lane B, and splice gets the whole time left.

    Examples
    --------
    >>> from ktsolve.plans import auto_plan
    >>> from ktsolve.tour import TourSpec
    >>> board = Board(300, 300, holes=[(0, 0), (0, 1)])
    >>> lanes = proof_lanes(auto_plan(board, TourSpec(closed=True)), board)
    >>> lanes.titles()
    {'A': ['quick proofs', '2-factor proof', 'matching proof'], 'B': ['splice', 'rotation', 'warnsdorff']}
    """
    from .plans import proof_lane
    from .proofs.registry import PROOFS
    from .registry import methods

    from . import plans

    proofs = proof_lane(plan, board)
    others = [s for s in plan if s.name not in PROOFS]
    if not proofs or not others or (plan[0].name not in PROOFS and methods()[plan[0].name].proves):
        # a plan that starts with a step that proves without the graph (divide on a full board, by the
        # existence theorems) runs in turn: the proofs would build the graph for nothing
        return None
    if others[0].name == "splice" and board.n_squares > plans.TWO_FACTOR_AFTER_SPLICE:
        # splice restores a 2-factor of the proof's own network on both cores: the proof follows it, and
        # splice takes the whole time left, since where no 2-factor exists its restoration ends it early
        after = [s for s in proofs if s.name == "2-factor proof"]
        proofs = [s for s in proofs if s.name != "2-factor proof"]
        others = [replace(others[0], share=1.0), *after, *others[1:]]
    queue = _Queue(proofs)
    return Lanes(queue, _Then(others, queue), b_waits=False, listed=(proofs, others))


class _Queue:
    """Steps that two lanes take one at a time, each the next one left (``deque.popleft`` is atomic)."""

    def __init__(self, steps):
        self._steps = deque(steps)

    def __iter__(self):
        while True:
            try:
                yield self._steps.popleft()
            except IndexError:
                return


class _Then:
    """A lane's own steps, then the steps left in another lane's queue."""

    def __init__(self, steps, queue: _Queue):
        self._steps, self._queue = list(steps), queue

    def __iter__(self):
        yield from self._steps
        yield from self._queue


class Lanes:
    """The two lanes of a race: lane A's steps, lane B's, and whether lane B waits for lane A's proofs
    (:data:`HEAD_START`: a CP-SAT model built in Python beside them slows them down)."""

    def __init__(self, a, b, *, b_waits: bool, listed=None):
        self.a, self.b, self.b_waits = a, b, b_waits
        self._listed = listed if listed is not None else (list(a), list(b))

    def __iter__(self):  # (A, B), as the lanes were a pair
        return iter((self.a, self.b))

    def __getitem__(self, k: int):
        return (self.a, self.b)[k]

    def steps(self) -> list:
        """Every step of both lanes, each once (a shared queue's under the lane that owns it); consumes no
        queue."""
        return [*self._listed[0], *self._listed[1]]

    def titles(self) -> dict:
        """Each lane's own steps by title (a shared queue's steps under the lane that owns them)."""
        return {name: [s.title for s in steps] for name, steps in zip("AB", self._listed)}


def prepare_lanes(lanes: Lanes) -> None:
    """Import, in this thread, every step's module and the packages its steps import when they run.

    Two lanes importing one package at once can deadlock Python's module locks: one lane holds the lock of
    a submodule (``ktsolve.factor.chunks``) and waits for its package, whose ``__init__``, run by the other
    lane, waits for that submodule; Python then raises ``_DeadlockError`` in one of them (seen in ``solve``
    of a 10^7-square board).  Once the packages are imported, a lane imports at most leaf modules, whose
    locks form no such cycle.
    """
    from .proofs.registry import PROOF_STEPS
    from .registry import methods

    known = methods()
    for step in lanes.steps():
        if step.name in PROOF_STEPS:
            PROOF_STEPS[step.name].prepare()
        elif step.name in known:
            known[step.name].load()


def run_race(
    lanes: Lanes,
    board: Board,
    spec: TourSpec,
    *,
    deadline: Deadline,
    run_lane: Callable[..., SolveResult],
    label: str | None,
    **kwargs,
) -> SolveResult:
    """Run the two lanes at once; the first definite answer wins (see the module's docstring).

    ``run_lane(plan, board, spec, deadline=..., label=..., **kwargs)`` runs
    one lane in turn (:func:`ktsolve.portfolio.run_plan`).  Returns the
    winner's result with ``stats["steps"]`` (both lanes' steps, each with
    its ``lane``, ``"A"`` or ``"B"``; a step stopped by the other lane's
    answer has the status ``cancelled``), ``stats["settled_by"]`` and, when
    ``label`` is given, ``stats[label]`` (each lane's steps joined by
    arrows, the lanes by ``" | "``; in a proof race the winner's alone).
    Without a winner the answer is the ``unknown`` of the lane that ran the
    constructions (lane A in a search race, lane B in a proof race), with
    ``stats["reason"]`` saying what every step of both lanes left.
    """
    from .proofs.registry import PROOFS

    prepare_lanes(lanes)
    cancel = threading.Event()
    clock = Deadline(deadline.time_limit, t0=deadline.t0, cancel=cancel)
    clock.extra = deadline.extra
    graph_s = None
    if lanes.b_waits:
        try:
            # a search race's graph, built once before the lanes start, so that they only read it (a proof
            # race's lanes build it when a step needs it: the constructions of large boards need none)
            graph_s = KnightGraph.of(board).build(clock)
        except Stopped as stop:
            return SolveResult(Status.UNKNOWN, method=label or "", board=board, spec=spec,
                               elapsed=deadline.elapsed(), stats={**stop.stats(), "steps": [], "settled_by": "none"})
    results: dict[str, SolveResult] = {}
    order: list[str] = []  # the lanes in the order they ended
    errors: dict[str, BaseException] = {}

    proofs_behind = threading.Event()  # lane A has passed its proof steps (or ended)
    searched = threading.Event()  # lane B proved "no tour" by search: lane A's proofs may still give a witness
    searched_at: list[float] = []

    # one progress bar, drawn by one lane: the constructions' in a proof race, lane A's in a search race
    drawing = "A" if lanes.b_waits else "B"

    def lane(name: str, steps) -> None:
        try:
            if name == "B" and lanes.b_waits:
                # lane B builds its model in Python, which holds the interpreter lane A's proofs need: it starts
                # once they are behind, or after a head start that the promise's slack covers
                proofs_behind.wait(HEAD_START)
            # lane A says when its proofs are behind
            extra = {"proofs_behind": proofs_behind} if name == "A" else {}
            if name != drawing:
                extra["progress"] = None
            res = run_lane(steps, board, spec, deadline=clock, label=label, **{**kwargs, **extra})
            results[name] = res
            order.append(name)
            searched_no = res.status is Status.INFEASIBLE and res.stats.get("settled_by") not in PROOFS
            if searched_no and name == "B" and not proofs_behind.is_set():
                searched_at.append(clock.elapsed())
                searched.set()  # the main thread gives lane A's proofs a grace before it stops them
            elif res.status is not Status.UNKNOWN or res.stats.get("interrupted"):
                cancel.set()  # the first definite answer wins (a Ctrl-C ends all): stop the other lane
        except BaseException as exc:  # noqa: BLE001 - raised again in the calling thread
            errors[name] = exc
            cancel.set()
        finally:
            if name == "A":
                proofs_behind.set()

    threads = [threading.Thread(target=lane, args=(name, steps), name=f"ktsolve-lane-{name}", daemon=True)
               for name, steps in zip("AB", lanes)]
    with interrupt_guard(on_interrupt=cancel.set) as flag:
        for t in threads:
            t.start()
        while any(t.is_alive() for t in threads):
            # in slices, so that the main thread's Ctrl-C handler runs
            threads[0].join(_POLL) if threads[0].is_alive() else threads[1].join(_POLL)
            if searched.is_set() and not cancel.is_set() and (
                    proofs_behind.is_set() or clock.elapsed() - searched_at[0] > _grace(searched_at[0])):
                cancel.set()  # lane A's proofs found no witness in their grace: the search's answer stands
    deadline.extend(clock.extra - deadline.extra)  # compile time the lanes gave back
    if errors:
        raise errors.get("A") or errors["B"]
    # the lane that ended the race: the first to answer, or to be interrupted; a proof with a witness
    # (lane A's proof steps) is preferred to a "no tour" that rests on a search
    ended = [k for k in order if results[k].status is not Status.UNKNOWN or results[k].stats.get("interrupted")]
    witnessed = [k for k in ended if results[k].status is Status.INFEASIBLE
                 and results[k].stats.get("settled_by") in PROOFS]
    first = witnessed[0] if witnessed else (ended[0] if ended else None)
    winner = first if first is not None and results[first].status is not Status.UNKNOWN else None
    stopped = flag.set or (first is not None and winner is None)
    steps: list[dict] = []
    # the deciding lane's steps come last, so the last step is the one that settled (or ended) the call
    for name in sorted("AB", key=lambda k: k == first):
        res = results.get(name)
        entries = list(res.stats.get("steps", ())) if res is not None else []
        for k, entry in enumerate(entries):
            entry = {**entry, "lane": name}
            # the loser's step that was running when the winner answered (its lane ended after the winner's)
            if (winner is not None and name != winner and k == len(entries) - 1
                    and order.index(name) > order.index(winner) and entry.get("status") in ("unknown", "no proof")):
                entry["status"] = "cancelled"
            steps.append(entry)
    # without a winner, the answer of the lane that ran the constructions carries their stats (lane B's in
    # a proof race, lane A's in a search race)
    prefer = "AB" if lanes.b_waits else "BA"
    out = results[first] if first is not None else (results.get(prefer[0]) or results[prefer[1]])
    stats = dict(out.stats)
    stats["steps"] = steps
    stats["settled_by"] = out.stats.get("settled_by", "none") if winner is not None else "none"
    if graph_s is not None:
        stats["graph_s"] = round(graph_s, 6)
    stats["lanes"] = lanes.titles()
    # both lanes' first-run compiles (proofs included), which the clock did not count
    compiled = sum(entry.get("compile_s", 0.0) for entry in steps)
    stats.pop("compile_s", None)
    if compiled:
        stats["compile_s"] = round(compiled, 3)
    if winner is not None:
        stats["lane"] = winner
    if label is not None and winner is not None and not lanes.b_waits:
        stats[label] = results[winner].stats.get(label, "none")  # a proof race: the steps that led to the answer
    elif label is not None:
        stats[label] = " | ".join(results[k].stats.get(label, "none") for k in "AB" if k in results)
    if stopped and winner is None:
        stats.update(interrupted=True, settled_by="none")
        stats.setdefault("reason", "interrupted (Ctrl-C)")
    elif winner is None:
        from .plans import plan_reason

        stats["reason"] = plan_reason(steps, clock.expired())  # what both lanes tried
    return out.replace(stats=stats, elapsed=deadline.elapsed())


def _grace(seconds: float) -> float:
    """Seconds lane A's proofs may still take after CP-SAT proved, in ``seconds``, that no tour exists.

    A proof with a witness reads better than a search's size, so it is
    worth waiting for, but never more than the race's promise (1.5 x the
    fastest step alone, plus 0.3 s) allows: :data:`GRACE_SHARE` of the
    search's time, and at least :data:`GRACE_MIN`.
    """
    return max(GRACE_MIN, GRACE_SHARE * seconds)
