"""Exact counts of knight's tours by a frontier method: a table of partial states carried across the board.

The board is turned so that its shorter side, ``R`` rows, runs down the
columns, and its squares are taken one at a time, column by column
(:mod:`ktsolve.models.frontier_plan`).  When a square is taken, every move
between it and the squares before it is decided: none, one or two of its
(at most four) earlier neighbours.  What the squares taken so far can
still become depends only on the *frontier*, the squares that still have a
neighbour to come (at most ``2R + 2`` of them): for each, whether it has
no move yet, two (it is done), or one, and then which other frontier
square is the far end of its path (or that the far end is a finished end
of the tour).  A table maps each such state to the number of ways of
reaching it; each square's step turns the table into the next one
(:mod:`ktsolve.models._frontier_kernels`).  A cycle may close, and a path
may get its second finished end, only where the board ends and every
other square has its moves; a state dies as soon as a square leaves the
frontier without the moves it needs, or can no longer get them: its
moves and neighbours to come fall short, the colours of its finished ends
break the colour count, or, where the board's end is near, no flow gives
the frontier and the squares ahead their moves (the look-ahead,
:func:`ktsolve.models.frontier_plan.make_plan`).  The work is the number
of states (hundreds of thousands on 6 x n, tens of millions on 8 x 8)
times the squares, not the number of tours.

What is counted: undirected Hamiltonian cycles (closed tours as OEIS
counts them; directed is twice that), undirected Hamiltonian paths (open
tours; directed is twice that), and paths with a fixed first or last
square (directed by nature), on any board with holes whose shorter side
is at most 11.  Counts are exact: plain int64 where a count fits (an
int64 pass that reaches 2**63 - 1 says so and is run again), else
residues modulo several primes below 2**62, as many as a proved upper
bound needs, joined by the Chinese remainder theorem
(:mod:`ktsolve.models.frontier_exact`); never floats.

A strip of ``R`` rows yields the counts of its prefixes in one pass: the
``R x n`` boards for ``n = 1, 2, ...`` (a transfer matrix, OEIS A175881,
A079137), or the boards of its first ``n`` squares (Knuth's ragged boards,
A383660-A383663, A389755, A389759): :func:`strip_counts`.

Budgets: a time limit (``ktsolve.driver.Deadline``; the clock is read
between chunks of states), Ctrl-C, and a memory budget for the tables
(half the memory available when the count starts, by default): a count
that would need more stops.  A count stopped by any of them is
incomplete and says how far it got (squares, states); it never reports a
partial number.

References
----------
Knuth, "Hamiltonian paths and cycles", TAOCP pre-fascicle 8a (2025);
frontier-based search (Kawahara et al., 2017) in the style of SIMPATH.
OEIS A001230, A165134, A175881, A079137, A383660-A383663, A389755, A389759.

Examples
--------
>>> count_board("6x6", closed=True).value         # undirected closed tours (OEIS A001230)
9862
>>> strip_counts(4, 8, directed=False).terms      # undirected open tours of 4 x n (OEIS A079137)
[0, 0, 8, 0, 82, 744, 6378, 31088]
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from .. import jit
from ..checks import check_choice, check_flag, check_int
from ..driver import Deadline, Stopped, begin, interrupt_guard
from ..errors import InvalidParameterError, UnsupportedError
from ..request import as_board
from . import _frontier_kernels as fk
from .frontier_exact import ARITHMETIC, bound_bits, crt, primes, residues_needed
from .frontier_plan import MAX_SHORT_SIDE, Plan, cropped, make_plan, turned

__all__ = ["FrontierCount", "StripCounts", "count_board", "strip_counts", "default_memory", "warm",
           "ARITHMETIC"]

#: Largest fill of a hash table before it grows (linear probing with a well-mixed hash stays quick there).
LOAD = 0.8
#: ``auto`` runs one int64 pass when the bound is below 2**(2 * INT64_GUESS_BITS): counts measured so far lie
#: near the bound's square root (8 x 8 closed: 2**43.6 for a bound of 2**88); past it, residues at once.
INT64_GUESS_BITS = 56
#: Seconds a chunk of states aims at between two looks at the clock.
CHUNK_SECONDS = 0.1


@dataclass(frozen=True, kw_only=True)
class _RunMeasures:
    """What a run of the frontier counts says beside its numbers (keywords only): why it stopped short
    (``reason``, ``interrupted``), its largest table, its memory, its arithmetic and its seconds."""

    reason: str = ""
    states: int = 0
    peak_bytes: int = 0
    arithmetic: str = ""
    elapsed: float = 0.0
    compile_s: float = 0.0
    interrupted: bool = False


@dataclass(frozen=True)
class FrontierCount(_RunMeasures):
    """The answer of a frontier count: the number, or why there is none.

    Attributes
    ----------
    value : int or None
        The count, exact; None when the count did not finish.
    complete : bool
    reason : str
        Why it did not finish ('' when complete).
    states : int
        The largest table (states after one square).
    steps_done, steps : int
        Squares taken, of the board's squares.
    peak_bytes : int
        The largest memory the tables held at once.
    arithmetic : str
        ``int64`` or ``residues mod K primes`` (and which set).
    elapsed : float
        Seconds, compiling excluded (``compile_s``).
    """

    value: int | None
    complete: bool
    steps_done: int = 0
    steps: int = 0


@dataclass(frozen=True)
class StripCounts(_RunMeasures):
    """The counts of a strip's prefixes (see :func:`strip_counts`); ``terms`` is empty unless complete."""

    rows: int
    by: str
    terms: list = field(default_factory=list)
    complete: bool = True


@dataclass(frozen=True)
class _OutOfMemory:
    """Why a run stopped short of memory: the states reached and the bytes the next table needed."""

    states: int
    need: int


def default_memory() -> int:
    """Half the memory available now (``MemAvailable``), or 4 GiB where it cannot be read.

    Examples
    --------
    >>> default_memory() > 0
    True
    """
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024 // 2
    except (OSError, ValueError, IndexError):
        pass
    return 4 << 30


class _Run:
    """One pass of the kernels over a plan, with one set of moduli."""

    def __init__(self, plan: Plan, mods: np.ndarray, closed: bool, budget: int, deadline: Deadline,
                 progress, max_bytes: int, what: str):
        self.plan, self.mods, self.closed, self.budget = plan, mods, closed, np.int64(budget)
        self.deadline, self.progress, self.max_bytes, self.what = deadline, progress, max_bytes, what
        self.bpe = 16 + 8 * mods.size
        self.peak_states = 1
        self.peak_bytes = 0
        self.step = 0
        self.states = 1
        self.sizes: list[int] = []  # states after each square
        self.looked = 0  # look-ahead answers computed (flows run), summed over the squares
        self.short: _OutOfMemory | None = None  # set when the memory budget stopped the run

    def _room(self, *entries: int) -> bool:
        """Whether tables of these many entries fit the budget (else the run records why it stops)."""
        need = sum(entries) * self.bpe
        if need > self.max_bytes:
            self.short = _OutOfMemory(self.states, need)
            return False
        self.peak_bytes = max(self.peak_bytes, need)
        return True

    def _table(self, cap: int) -> np.ndarray:
        tab = np.zeros((cap, 2 + self.mods.size), dtype=np.int64)
        tab[:, 0] = fk.EMPTY
        return tab

    def run(self) -> dict[int, np.ndarray] | None:
        """Residues (or int64 counts) of the tours that end at each step where the board may end.

        None when the memory budget stopped the run (``self.short`` says why).
        """
        plan, p = self.plan, self.mods.size
        word = fk.empty_word()
        tab = np.ones((1, 2 + p), dtype=np.int64)
        tab[0, :2] = word
        n = 1
        growth = 4.0
        chunk = 4096
        out: dict[int, np.ndarray] = {}
        net = plan.net
        max_e, max_n = net[1].shape[1], net[3].shape[1]
        work = (np.zeros(max_e, dtype=np.int32), np.zeros(max_n, dtype=np.int32), np.zeros(max_n, dtype=np.int32))
        memo_size = 1024
        for s in range(plan.n_steps):
            self.step = s
            phase = f"counting ({self.what}): square {s + 1} of {plan.n_steps}, {n:,} states"
            self.deadline.check(phase)
            cap = int(max(64.0, n * growth * 1.05) / LOAD) + 64
            whole = max(64, self.max_bytes // self.bpe - n - memo_size * 2 // 3)
            if cap + cap + cap // 2 > whole:
                # a grown table could not sit beside this one: take the room the budget leaves at once
                cap = whole
            if not self._room(n, cap):
                return None
            new = self._table(cap)
            size = np.zeros(1, dtype=np.int64)
            fin = np.zeros(p, dtype=np.int64)
            memo = np.full((memo_size, 2), fk.EMPTY, dtype=np.int64)
            memo_n = np.zeros(1, dtype=np.int64)
            row = 0
            while row < n:
                hi = min(n, row + chunk)
                t0 = time.perf_counter()
                got = fk.step(tab, np.int64(row), np.int64(hi), new, size, np.int64(int(cap * LOAD)), fin,
                              self.mods, plan.info, plan.fr_slot, plan.fr_rem, plan.fr_fix, plan.slot_sign,
                              np.int64(s), self.closed, self.budget, plan.colours, memo, memo_n, net, work)
                spent = time.perf_counter() - t0
                if got - row > 0 and spent > 0:
                    chunk = int(min(max(1024, (got - row) * CHUNK_SECONDS / spent), 1 << 26))
                row = int(got)
                self.states = int(size[0])
                if row < hi and memo_n[0] + 16 > memo_size * 7 // 10:  # the memo is full: four times the room
                    bigger = memo.copy()
                    memo = np.full((memo_size * 4, 2), fk.EMPTY, dtype=np.int64)
                    fk.rememo(bigger, memo)
                    memo_size *= 4
                    del bigger
                elif row < hi:  # the table is full: half as much room again
                    bigger = cap + cap // 2
                    if not self._room(n, cap, bigger, memo_size * 2 // 3):
                        return None
                    grown = self._table(bigger)
                    fk.rehash(new, grown, self.mods)
                    new, cap = grown, bigger
                self.deadline.check(f"counting ({self.what}): square {s + 1} of {plan.n_steps}, "
                                    f"{int(size[0]):,} states so far")
            self.looked += int(memo_n[0])
            memo_size = max(1024, int(memo_n[0]) * 2)  # the next step's memo: room for what this one needed
            tab = None  # the input table is done with: free it before the copy below
            m = int(fk.compact(new))
            if plan.info[s, fk.C_MAYEND]:
                out[s] = fin.copy()
            # the compacted table is the next input: shrunk where it lies (realloc gives the tail back, no copy)
            new.resize((m, 2 + p), refcheck=False)
            tab = new
            del new
            growth = min(64.0, max(1.0, m / max(n, 1)))
            n = m
            self.states = n
            self.sizes.append(n)
            self.peak_states = max(self.peak_states, n)
            if self.progress is not None:
                self.progress(s + 1, plan.n_steps, f"{n:,} states")
            if n == 0:
                for rest in range(s + 1, plan.n_steps):
                    if plan.info[rest, fk.C_MAYEND]:
                        out[rest] = np.zeros(p, dtype=np.int64)
                break
        return out


def _moduli(arithmetic: str, bits: float, prime_set: int) -> tuple[np.ndarray, str]:
    if arithmetic == "int64" or (arithmetic == "auto" and bits < 2 * INT64_GUESS_BITS):
        return np.zeros(1, dtype=np.int64), "int64"
    k = residues_needed(bits, prime_set)
    ps = primes(k, prime_set)
    return np.array(ps, dtype=np.int64), f"residues mod {k} primes (set {prime_set})"


def _value(res: np.ndarray, mods: np.ndarray) -> int | None:
    """The exact count from one step's counts; None for an int64 count that saturated."""
    if mods[0] == 0:
        v = int(res[0])
        return None if v >= int(fk.SATURATED) else v
    return crt(res.tolist(), mods.tolist())


def _settle(plan: Plan, closed: bool, budget: int, deadline: Deadline, progress, max_bytes: int,
            arithmetic: str, prime_set: int, what: str):
    """Run the passes a count needs: (values by step or None, run, arithmetic label, stop)."""
    bits = bound_bits(plan.degrees, closed)
    mods, label = _moduli(arithmetic, bits, prime_set)
    while True:
        run = _Run(plan, mods, closed, budget, deadline, progress, max_bytes, what)
        try:
            with interrupt_guard():
                raw = run.run()
        except Stopped as exc:
            return None, run, label, exc
        if raw is None:
            return None, run, label, run.short
        values = {s: _value(r, mods) for s, r in raw.items()}
        if all(v is not None for v in values.values()):
            return values, run, label, None
        if arithmetic == "int64":
            return None, run, label, OverflowError("a count reached 2**63 - 1: count again with "
                                                   "arithmetic='residues'")
        k = residues_needed(bits, prime_set)
        mods = np.array(primes(k, prime_set), dtype=np.int64)
        label = f"int64, then residues mod {k} primes (set {prime_set})"


def _stop_reason(stop, run: _Run, plan: Plan, max_bytes: int) -> tuple[str, bool]:
    where = f"after {run.step} of {plan.n_steps} squares"
    if isinstance(stop, Stopped):
        return f"{stop.describe()} ({run.states:,} states)", stop.interrupted
    if isinstance(stop, _OutOfMemory):
        return (f"the memory budget ({max_bytes / 2**30:.2f} GiB) ran out {where} with {stop.states:,} states; "
                f"the next table needed {stop.need / 2**30:.2f} GiB"), False
    return str(stop), False


def _check_common(time_limit, max_memory, arithmetic, prime_set):
    deadline, _ = begin(time_limit, None, seeded=False)
    if max_memory is None:
        max_memory = default_memory()
    max_memory = check_int("max_memory", max_memory, 1 << 20, 1 << 50)
    arithmetic = check_choice("arithmetic", arithmetic, ARITHMETIC)
    prime_set = check_int("prime_set", prime_set, 0, 1)
    return deadline, max_memory, arithmetic, prime_set


def count_board(board, *, closed: bool = False, start=None, end=None, directed: bool = False,
                time_limit=None, max_memory: int | None = None, progress=None, arithmetic: str = "auto",
                prime_set: int = 0) -> FrontierCount:
    """Count the tours of ``board`` (holes allowed) by the frontier method.

    Parameters
    ----------
    board : Board or str
    closed : bool
        Closed tours (Hamiltonian cycles) instead of open ones.
    start, end : square, optional
        Open tours from ``start`` and/or to ``end`` (counted directed).
    directed : bool
        Count a tour and its reversal as two (the default here is one, as
        OEIS counts; :func:`ktsolve.count_tours` counts directed by default).
    time_limit : float or Deadline, optional
    max_memory : int, optional
        Bytes the tables may hold at once (default :func:`default_memory`).
    progress : callable, optional
        ``progress(squares done, squares, note)`` after every square.
    arithmetic : {'auto', 'int64', 'residues'}
    prime_set : {0, 1}
        Which set of primes the residues use (two disjoint sets, to check a count twice).

    Returns
    -------
    FrontierCount

    Examples
    --------
    >>> count_board("5x5", directed=True).value, count_board("5x5", start=(0, 0)).value
    (1728, 304)
    >>> count_board("8x8", closed=True, time_limit=0.01).complete
    False
    """
    t0 = time.perf_counter()
    deadline, max_memory, arithmetic, prime_set = _check_common(time_limit, max_memory, arithmetic, prime_set)
    board = as_board(board)
    closed, directed = check_flag("closed", closed), check_flag("directed", directed)
    s = None if start is None else board.parse_square(start, what="start")
    e = None if end is None else board.parse_square(end, what="end")
    if closed and (s is not None or e is not None):
        raise UnsupportedError("closed tour counts do not depend on a start or end; leave them out")
    n = board.n_squares
    if n == 1:
        return FrontierCount(0 if closed else 1, True, arithmetic="int64")
    if (s is not None and e is not None and s == e) or (closed and n < 3):
        return FrontierCount(0, True, arithmetic="int64")
    mask, r0, c0 = cropped(board.mask)
    s, e = ((q[0] - r0, q[1] - c0) if q is not None else None for q in (s, e))
    mask, flipped = turned(mask)
    if mask.shape[0] > MAX_SHORT_SIDE:
        raise UnsupportedError(f"the frontier method counts boards whose shorter side is at most {MAX_SHORT_SIDE} "
                               f"squares; this one's is {mask.shape[0]}")
    rows = mask.shape[0]
    fixed = [(c * rows + r) if not flipped else (r * rows + c) for r, c in (q for q in (s, e) if q is not None)]
    deadline.extend(compile_s := warm())
    plan = make_plan(mask, fixed)
    budget = 0 if closed else 2 - len(fixed)
    what = f"{board.rows}x{board.cols}"
    values, run, label, stop = _settle(plan, closed, budget, deadline, progress, max_memory, arithmetic,
                                       prime_set, what)
    elapsed = time.perf_counter() - t0 - compile_s
    common = dict(states=run.peak_states, steps=plan.n_steps, peak_bytes=run.peak_bytes, arithmetic=label,
                  elapsed=elapsed, compile_s=compile_s)
    if values is None:
        reason, interrupted = _stop_reason(stop, run, plan, max_memory)
        return FrontierCount(None, False, reason=reason, steps_done=run.step, interrupted=interrupted, **common)
    value = values[plan.n_steps - 1]
    if directed and not fixed:
        value *= 2
    return FrontierCount(value, True, steps_done=plan.n_steps, **common)


def strip_counts(rows: int, count: int, *, closed: bool = False, directed: bool = False, by: str = "columns",
                 time_limit=None, max_memory: int | None = None, progress=None, arithmetic: str = "auto",
                 prime_set: int = 0) -> StripCounts:
    """The tours of a strip's prefixes, all from one pass: ``rows x 1``, ``rows x 2``, ... or its first squares.

    Parameters
    ----------
    rows : int
        The strip's height, 1 to 11.
    count : int
        How many terms: boards of 1 to ``count`` columns (``by="columns"``)
        or of the first 1 to ``count`` squares taken column by column,
        top to bottom (``by="cells"``, Knuth's ragged boards).
    closed, directed : bool
        As :func:`count_board` (undirected by default, as OEIS counts).
    by : {'columns', 'cells'}

    Returns
    -------
    StripCounts
        ``terms[i]`` is the count of the board of ``i + 1`` columns (or squares).

    Examples
    --------
    >>> strip_counts(3, 12, closed=True, by="cells").terms[-1]   # 3 x 4 has no closed tour
    0
    >>> strip_counts(3, 10, closed=True).terms[9]                 # OEIS A070030: 16 closed tours of 3 x 10
    16
    """
    t0 = time.perf_counter()
    deadline, max_memory, arithmetic, prime_set = _check_common(time_limit, max_memory, arithmetic, prime_set)
    rows = check_int("rows", rows, 1, MAX_SHORT_SIDE)
    count = check_int("count", count, 1, 100_000)
    by = check_choice("by", by, ("columns", "cells"))
    closed, directed = check_flag("closed", closed), check_flag("directed", directed)
    cols = count if by == "columns" else -(-count // rows)
    if rows * cols > 10_000_000:
        raise InvalidParameterError(f"a strip of {rows} x {cols} squares is beyond this counter's plan")
    mask = np.ones((rows, cols), dtype=bool)
    ends = [c * rows + rows - 1 for c in range(cols)] if by == "columns" else list(range(count))
    deadline.extend(compile_s := warm())
    plan = make_plan(mask, (), ends)
    what = f"{rows} x n, {count} terms"
    values, run, label, stop = _settle(plan, closed, 0 if closed else 2, deadline, progress, max_memory,
                                       arithmetic, prime_set, what)
    elapsed = time.perf_counter() - t0 - compile_s
    common = dict(states=run.peak_states, peak_bytes=run.peak_bytes, arithmetic=label, elapsed=elapsed,
                  compile_s=compile_s)
    if values is None:
        reason, interrupted = _stop_reason(stop, run, plan, max_memory)
        return StripCounts(rows, by, [], False, reason=reason, interrupted=interrupted, **common)
    terms = []
    for i, step in enumerate(plan.info[:, fk.C_MAYEND].nonzero()[0].tolist()):
        v = values[step]
        squares = step + 1
        if squares == 1:
            v = 0 if closed else 1
        elif directed:
            v *= 2
        terms.append(v)
    return StripCounts(rows, by, terms[:count], True, **common)


def _warm_calls() -> None:
    for p in (1, 2):  # a table and a memo growing, as a count's do when its first guess is short
        tab = np.full((4, 2 + p), fk.EMPTY, dtype=np.int64)
        fk.rehash(tab, np.full((8, 2 + p), fk.EMPTY, dtype=np.int64), np.zeros(p, dtype=np.int64))
    fk.rememo(np.full((4, 2), fk.EMPTY, dtype=np.int64), np.full((16, 2), fk.EMPTY, dtype=np.int64))
    for closed in (False, True):
        for mods in (np.zeros(1, dtype=np.int64), np.array(primes(2), dtype=np.int64)):
            plan = make_plan(np.ones((3, 5), dtype=bool), (0,) if not closed else ())
            _Run(plan, mods, closed, 1 if not closed else 0, Deadline(None), None, 1 << 30, "warm").run()
            _Run(make_plan(np.ones((3, 4), dtype=bool), (), range(12)), mods, closed, 0 if closed else 2,
                 Deadline(None), None, 1 << 30, "warm").run()


def warm() -> float:
    """Compile (or load from numba's cache) the frontier kernels; the seconds spent compiling.

    Examples
    --------
    >>> warm() >= 0.0
    True
    """
    return jit.prepare("frontier count", _warm_calls, jit.kernels_of(fk))
