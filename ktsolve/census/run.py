"""The census itself: check the request, open the results file, run the questions, summarise.

:func:`census` is ``ktsolve.census``; the package docstring
(:mod:`ktsolve.census`) describes what it does and why.
"""

from __future__ import annotations

import os
import platform
import signal
import threading
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass

from ..checks import check_flag, check_int, check_seed, check_time_limit
from ..errors import InvalidBoardError, InvalidParameterError
from ..exit_codes import ExitCode
from ..request import as_board
from ..seeds import resolve_seed, seed_doc
from .family import Family, list_family, question_seeds, random_family, remove_family, starts_family
from ..output import is_stdout
from .pool import BatchPolicy, LocalPool, TaskQueue, usable_cpus, worker_cap
from .store import ResultStore, check_identity, check_tour_dir, now_iso, read_results
from .summary import Summary, summarize
from .worker import INLINE_TOUR_MAX, Answer

__all__ = ["census", "CensusReport", "make_family", "DEFAULT_TIME_LIMIT", "LOCAL_BATCH_SECONDS"]

#: Seconds per question unless told otherwise.
DEFAULT_TIME_LIMIT = 60.0
#: Seconds of work in one batch of the local pool.
LOCAL_BATCH_SECONDS = 0.2


@dataclass
class CensusReport:
    """How a run of a census went, and what the results file now holds.

    Attributes
    ----------
    path : str
        The results file.
    family : Family
    seed : int
        The census seed (each question's seed is derived from it).
    questions : int
        Questions in the family.
    answered_before, answered_now : int
        Questions answered by earlier runs, and by this one.
    interrupted : bool
        Ctrl-C (or SIGTERM) stopped this run; running it again resumes.
    wall_s : float
        Seconds this run took, from the first batch to the last answer.
    work_s : float
        Seconds the questions of this run took, added up.
    warm_s : list of float
        Warm-up seconds of each worker process started.
    restarts : int
        Worker processes replaced after dying or hanging.
    workers : int
        Workers that ran the questions (local processes, or Dask threads).
    summary : Summary
        The counts over the whole results file.
    workers_asked : int
        Workers asked for (``workers=``, by default the CPUs).
    worker_cap : str or None
        Why the local pool started fewer workers than asked for (the
        questions, the CPUs or the memory: :func:`~ktsolve.census.pool.worker_cap`).
    """

    path: str
    family: Family
    seed: int
    questions: int
    answered_before: int
    answered_now: int
    interrupted: bool
    wall_s: float
    work_s: float
    warm_s: list
    restarts: int
    workers: int
    summary: Summary
    workers_asked: int = 0
    worker_cap: str | None = None

    @property
    def busy(self) -> float:
        """Share of the workers' wall time spent on questions (1 - scheduling overhead and idling)."""
        if self.wall_s <= 0 or self.workers <= 0:
            return 0.0
        return min(1.0, self.work_s / (self.wall_s * self.workers))

    @property
    def exit_code(self) -> int:
        """130 interrupted, 3 when some answer is unknown, else 0 (every question settled)."""
        if self.interrupted:
            return int(ExitCode.INTERRUPTED)
        unknown = sum(self.summary.status[m]["unknown"][0] for m in self.summary.modes)
        if unknown or self.summary.answered < self.summary.questions:
            return int(ExitCode.UNKNOWN)
        return int(ExitCode.OK)


def _modes(closed) -> tuple[bool, ...]:
    if isinstance(closed, str):
        if closed == "both":
            return (False, True)
        raise InvalidParameterError(f"closed must be True, False or 'both', not {closed!r}")
    return (check_flag("closed", closed),)


def make_family(board=None, *, remove=None, starts=False, from_file=None, random=None, holes=None,
                closed=False, symmetry: bool = True, seed: int | None = None) -> Family:
    """The family of questions of a census (the arguments as in :func:`census`)."""
    starts = check_flag("starts", starts)
    symmetry = check_flag("symmetry", symmetry)
    chosen = [name for name, on in (("remove", remove is not None), ("starts", starts),
                                    ("from_file", from_file is not None), ("random", random is not None)) if on]
    if len(chosen) != 1:
        raise InvalidParameterError(
            "a census needs exactly one family: remove=K, starts=True, from_file=PATH or random=N"
            + (f" (got {', '.join(chosen)})" if chosen else ""))
    modes = _modes(closed)
    if holes is not None and random is None:
        raise InvalidParameterError("holes= is the number of holes of random boards; give the board's own holes "
                                    "in the Board")
    if from_file is not None:
        if board is not None:
            raise InvalidParameterError("from_file= names its own boards; give no board")
        return list_family(from_file, modes)
    if board is None:
        raise InvalidBoardError("a census of this family needs a board (a Board or a size such as '8x8')")
    board = as_board(board)
    if remove is not None:
        if board.n_squares < 2:
            raise InvalidBoardError(f"the board has {board.n_squares} square; nothing to remove")
        remove = check_int("remove", remove, 1, board.n_squares - 1)
        return remove_family(board, remove, modes, symmetry=symmetry)
    if starts:
        return starts_family(board, modes, symmetry=symmetry)
    if board.n_holes:
        raise InvalidBoardError("random boards are drawn on an empty rectangle; give a size such as '12x12'")
    if holes is None:
        raise InvalidParameterError("random= needs holes=, the number of holes of each board")
    return random_family(board.rows, board.cols, random, holes, modes, seed=seed)


class _Stop:
    """Ctrl-C and SIGTERM set :attr:`flag`; a second Ctrl-C raises :class:`KeyboardInterrupt`."""

    def __init__(self):
        self.flag = False

    def __call__(self) -> bool:
        return self.flag


@contextmanager
def _stop_signals():
    stop = _Stop()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def handler(signum, frame):
        if stop.flag and signum == signal.SIGINT:
            raise KeyboardInterrupt
        stop.flag = True

    old = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    for s in old:
        signal.signal(s, handler)
    try:
        yield stop
    finally:
        for s, h in old.items():
            signal.signal(s, h)


@seed_doc
def census(
    board=None,
    *,
    remove: int | None = None,
    starts: bool = False,
    from_file=None,
    random: int | None = None,
    holes=None,
    closed=False,
    output,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    workers: int | None = None,
    scheduler=None,
    symmetry: bool = True,
    retry_unknown: bool = False,
    batch: int | None = None,
    runner=None,
    progress: Callable | None = None,
    log: Callable[[str], None] | None = None,
    seed: int | None = None,
) -> CensusReport:
    """Settle a whole family of questions with :func:`ktsolve.prove`, resumably, on a pool or a Dask cluster.

    Parameters
    ----------
    board : Board or str, optional
        The board of a ``remove``, ``starts`` or ``random`` family.
    remove : int, optional
        Ask about every way to remove this many squares of ``board``.
    starts : bool
        Ask about every start square of ``board``.
    from_file : path, optional
        A JSON-lines file of questions (see :func:`~ktsolve.census.family.list_family`).
    random : int, optional
        Ask about this many distinct random boards of ``board``'s size with
        ``holes`` holes each (:func:`ktsolve.random_holed_board`).
    holes : int or float, optional
        Holes of each random board (a share of the cells when a float).
    closed : bool or "both"
        Closed tours, open tours, or both (two questions per board).
    output : path
        The results file (JSON lines).  An existing file of the same census
        is resumed; one of another census is refused.  It must be a regular
        file (or a new name): the census reads it back, locks it and appends
        to it, which standard output (``"-"``), a device or a pipe cannot
        do, so those are refused before any work.
    %(seed)s
        Here the census seed is recorded in the results file's header (and
        in ``report.seed``); a resumed census without a seed takes it from
        there.  Question ``i`` gets ``derive_seed(seed, "census question",
        i)``.
    time_limit : float or None
        Seconds for each question (default 60); a question that runs past
        it by more than a grace is killed and recorded ``unknown``.
    workers : int, optional
        Worker processes of the local pool (default: the CPUs this process
        may use).  Never more are started than there are questions to ask,
        CPUs, and room in the available memory
        (:func:`~ktsolve.census.pool.worker_cap`; ``report.worker_cap``
        says which, when it applied).  Ignored with ``scheduler``.
    scheduler : str or distributed.Client, optional
        Run on the Dask cluster of this scheduler address (or client).
    symmetry : bool
        Reduce ``remove`` and ``starts`` families by the board's symmetries
        (default).
    retry_unknown : bool
        Ask again the questions whose recorded answer is ``unknown``.
    batch : int, optional
        Questions per batch (default: sized from the measured cost).
    runner : LocalPool or DaskRunner, optional
        Workers already started (:class:`~ktsolve.census.pool.LocalPool`
        or :class:`~ktsolve.census.cluster.DaskRunner`), to run several
        censuses on the same warm workers; they are left running.
        ``workers`` and ``scheduler`` are then ignored.
    progress : callable, optional
        ``progress(done, total)`` after every group of answers recorded.
    log : callable, optional
        Receives the lines a person wants to read: counts before and after
        the symmetry reduction, what is resumed, the seed.

    Returns
    -------
    CensusReport

    Raises
    ------
    InvalidBoardError, InvalidParameterError
        A bad family, board or value, or ``output="-"`` (nothing is written).
    CensusFileError
        ``output`` belongs to another census, is no census file, is not a
        regular file, breaks the schema of a results file, or is locked by
        a census still running; or ``FILE.tours`` is in the way.  All are
        found before any worker starts.
    CensusError
        Workers that cannot start, a scheduler that cannot be reached.

    Examples
    --------
    >>> import tempfile, os
    >>> out = os.path.join(tempfile.mkdtemp(), "5x5.jsonl")
    >>> rep = census("5x5", remove=1, closed=True, output=out, seed=1, workers=1)
    >>> rep.family.boards_before, rep.family.boards_after
    (25, 6)
    >>> rep.summary.status["closed"]["found"]   # questions, boards: the corners
    [1, 4]
    """
    time_limit = check_time_limit(time_limit)
    seed = check_seed(seed)
    retry_unknown = check_flag("retry_unknown", retry_unknown)
    if workers is None:
        workers = usable_cpus()
    workers = check_int("workers", workers, 1, 4096)
    if batch is not None:
        batch = check_int("batch", batch, 1, 10_000_000)
    if output is None:
        raise InvalidParameterError("a census needs an output file (its results, resumable)")
    path = os.fspath(output)
    if is_stdout(path):
        # the results are read back, locked and appended: standard output can do none of it
        raise InvalidParameterError(f"a census writes its results to a file it can resume; {path!r} is standard "
                                    "output: give -o FILE")
    if os.path.isdir(path):
        raise InvalidParameterError(f"output {path!r} is a directory")
    say = log or (lambda line: None)
    existing = read_results(path)  # refuses a device, a pipe or a socket without opening it for writing
    check_tour_dir(path)
    if seed is None:
        seed = int(existing.header["seed"]) if existing is not None and "seed" in existing.header else resolve_seed(None)
    family = make_family(board, remove=remove, starts=starts, from_file=from_file, random=random, holes=holes,
                         closed=closed, symmetry=symmetry, seed=seed)
    identity = {"family": family.identity, "seed": seed}
    if existing is not None:
        check_identity(path, existing, identity, family.description)
    done = existing.done if existing is not None else set()
    redo = set()
    if retry_unknown and existing is not None:
        redo = {i for i, r in existing.records.items() if r.get("status") == "unknown"}
    todo = [i for i in range(len(family)) if i not in done or i in redo]

    n_sym = family.n_symmetries
    if family.kind in ("remove", "starts"):
        unit = "boards" if family.kind == "remove" else "start squares"
        reduced = (f", {family.boards_after:,} up to the {n_sym} symmetries of the board"
                   if n_sym > 1 else " (no symmetry reduction)")
        say(f"{family.description}: {family.boards_before:,} {unit}{reduced}; {len(family):,} question{'s' if len(family) != 1 else ''}")
    else:
        say(f"{family.description}: {len(family):,} question{'s' if len(family) != 1 else ''}")
    if existing is not None:
        say(f"resuming {path}: {len(done):,} answered, {len(todo):,} to ask"
            + (f" ({len(redo):,} unknown asked again)" if redo else "") + (" (a cut-off last line dropped)"
                                                                           if existing.cut else ""))
    say(f"census seed {seed}")

    header = {"identity": identity, "description": family.description, "seed": seed, "questions": len(family),
              "boards_before": family.boards_before, "boards_after": family.boards_after,
              "symmetries": n_sym, "created": now_iso(), "ktsolve": _version()}
    answered_now, work = 0, 0.0
    interrupted = False
    wall = 0.0
    warm: list = []
    restarts = 0
    n_workers, cap = workers, None
    if todo:
        owned = runner is None
        if owned and scheduler is None:
            n_workers, cap = worker_cap(workers, len(todo))
            if cap is not None:
                say(f"{n_workers} worker{'s' if n_workers > 1 else ''} (asked for {workers:,}; no more than {cap})")
        store = ResultStore(path)
        store.lock(existing)  # a census still writing the file is found before any worker starts
        try:
            runner = _runner(scheduler, n_workers) if owned else runner
        except BaseException:
            store.close()
            raise
        on_dask = not isinstance(runner, LocalPool)
        warm_before, restarts_before = len(runner.warm_s), runner.restarts
        try:
            if owned:
                runner.start()
            n_workers = runner.workers
            if on_dask:
                say(f"Dask scheduler {runner.address}: {n_workers} worker thread{'s' if n_workers > 1 else ''}")
            store.begin(header, existing)
            run_no = len(existing.runs) + 1 if existing is not None else 1
            store.mark({"run": run_no, "started": now_iso(), "host": platform.node(), "workers": n_workers,
                        "workers_asked": workers, "worker_cap": cap,
                        "scheduler": str(runner.address) if on_dask else None,
                        "time_limit": time_limit, "to_ask": len(todo)})
            settings = {"inline_max": INLINE_TOUR_MAX, "tour_dir": store.tour_dir_name}
            seeds = question_seeds(seed, len(family))
            queue = TaskQueue(todo, lambda i: family.task(i, seed, time_limit, seeds[i]))
            target = _dask_target() if on_dask else LOCAL_BATCH_SECONDS
            policy = BatchPolicy(n_workers, target=target, fixed=batch)
            total = len(todo)

            def emit(answers: list[Answer]) -> None:
                nonlocal answered_now, work
                store.append(answers)
                answered_now += len(answers)
                work += sum(a.seconds for a in answers)
                if progress is not None:
                    progress(answered_now, total)

            t0 = time.perf_counter()
            try:
                with _stop_signals() as stop:
                    finished = runner.run(queue, emit, policy=policy, settings=settings, stop=stop)
            except KeyboardInterrupt:
                finished = False
            wall = time.perf_counter() - t0
            interrupted = not finished
            store.mark({"run_end": run_no, "ended": now_iso(), "wall_s": round(wall, 3), "answered": answered_now,
                        "question_s": round(work, 3), "interrupted": interrupted})
        finally:
            store.close()
            warm = list(runner.warm_s[warm_before:])
            restarts = runner.restarts - restarts_before
            if owned:
                runner.close()
    final = read_results(path)
    summary = summarize(final) if final is not None else None
    return CensusReport(path, family, seed, len(family), len(done), answered_now, interrupted, wall, work,
                        warm, restarts, n_workers, summary, workers, cap)


def _runner(scheduler, workers: int):
    if scheduler is None:
        return LocalPool(workers)
    from .cluster import DaskRunner

    return DaskRunner(scheduler)


def _dask_target() -> float:
    from .cluster import TASK_SECONDS

    return TASK_SECONDS


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("ktsolve")
    except PackageNotFoundError:  # pragma: no cover
        return "0+unknown"
