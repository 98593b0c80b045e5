"""The numba kernels of the ant colonies (:mod:`.aco`, :mod:`.iaco`): walks, pheromone, cycle loops.

The kernels of one cycle call each other only inside this file (small
helpers are inlined into their callers by numba, ``inline="always"``: one
function to compile instead of many), and they draw their random numbers
from the one shared generator, :mod:`ktsolve._splitmix` (SplitMix64, its
state one uint64 carried from call to call, so a run does not depend on
how it is cut into calls).  Numba's on-disk cache checks the source file of
a function, not the files of the functions it calls, so no kernel here
calls into another file but that one (``tests/test_kernel_cache.py``).  The
colonies' other kernels have files of their own, cut where no kernel calls
across: the local search's in :mod:`._posa_kernels`, the GA's in
:mod:`._ga_kernels`.  The method modules call these kernels from Python.

The pieces, in the order a cycle uses them:

* :func:`walk` -- one ant, choosing among unvisited destinations with
  probability proportional to a weight table; :func:`walk_degree` -- the
  same with weights ``tau ** D`` where ``D`` is the destination's number of
  unvisited neighbours at that moment; :func:`warnsdorff_walk` -- the
  greedy rule (fewest unvisited neighbours, ties at random) for seeding.
* :func:`tally_complete` -- counts a complete walk and says whether it is
  a tour of the request.
* :func:`deposit_hk`, :func:`deposit_const` -- the deposit rules.
* :func:`evaporate` -- ``tau <- (1 - rho) tau + delta``, kept inside
  ``[lo, hi]``.
* :func:`powers_alpha`, :func:`powers_degree` -- the weight tables.
* :func:`share` -- the F-mean of the colonies' trails.
* :func:`start_of`, :func:`aco_cycles`, :func:`iaco_cycles` -- where ants
  start, and the cycle loops (with :func:`keep_walk` and :func:`track_best`),
  whose parameters travel in the two arrays :func:`bundle` builds.

Move choice, the convention the plain-Python references in
``tests/naive_colonies.py`` replay exactly: with two or more candidates one
uniform ``u`` is drawn and the first move, in move order, whose running
weight sum exceeds ``u * total`` is taken; a forced move draws nothing.
Each square keeps the bit set of its moves to unvisited squares, updated as
the ant enters squares, so a step reads one byte instead of eight squares.

Arrays: ``tpad`` is the move table padded to 8 columns, with the sentinel
square ``n`` wherever there is no move; ``full`` (``n + 1`` uint8) the bit
set of the moves of each square (0 for the sentinel); ``rev[j]`` the move
that undoes move ``j``; ``counts`` (int64) accumulates walks, complete
walks, closed complete walks, matching walks and the sum of walk lengths.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._splitmix import uniform

__all__ = [
    "walk",
    "walk_degree",
    "finish_reserved",
    "warnsdorff_walk",
    "is_closed",
    "tally_complete",
    "deposit_hk",
    "deposit_const",
    "evaporate",
    "powers_alpha",
    "powers_degree",
    "share",
    "start_of",
    "keep_walk",
    "track_best",
    "aco_cycles",
    "iaco_cycles",
    "bundle",
    "ACO_REALS",
    "IACO_REALS",
    "LOOP_INTS",
    "TAU_MAX",
    "DEPOSIT_SUM",
    "DEPOSIT_COMPLETE",
    "DEPOSIT_EDGE",
]

#: Largest trail or weight: eight of them still add up to a finite number.
TAU_MAX = 1e300 / 8

#: Deposit modes of :func:`deposit_const`: ``C`` for every use of a move by
#: every ant; for every use by an ant that made a complete tour; once per
#: move used by at least one ant of the colony in the cycle.
DEPOSIT_SUM = 0
DEPOSIT_COMPLETE = 1
DEPOSIT_EDGE = 2

#: The parameters of a cycle loop travel in two small arrays read at named
#: indices: ``reals`` (float64, one layout per colony) and ``ints`` (int64,
#: one layout for both loops; int64 because a cycle budget may pass 2**31).
#: :func:`bundle` builds them from values named like these entries.
ACO_REALS = ("alpha", "rho", "q", "tau_min")
A_ALPHA, A_RHO, A_Q, A_TAU_MIN = range(4)
IACO_REALS = ("rho", "deposit", "tau_lo", "tau_hi", "f")
I_RHO, I_DEPOSIT, I_LO, I_HI, I_F = range(5)
LOOP_INTS = ("ants", "cycle0", "cycles", "closed", "end", "first_only", "share_every", "deposit_mode", "dynamic")
ANTS, CYCLE0, CYCLES, CLOSED, END, FIRST_ONLY, SHARE_EVERY, DEPOSIT_MODE, DYNAMIC = range(9)


def bundle(reals: tuple, **values) -> tuple[np.ndarray, np.ndarray]:
    """``(reals, ints)`` for :func:`aco_cycles` (``reals=ACO_REALS``) or :func:`iaco_cycles` (``IACO_REALS``).

    Every entry of ``reals`` must be given; an entry of :data:`LOOP_INTS`
    left out is 0 (``share_every``, ``deposit_mode`` and ``dynamic`` mean
    nothing to the plain colony).

    Examples
    --------
    >>> r, i = bundle(ACO_REALS, alpha=1.0, rho=0.25, q=1.0, tau_min=1e-300, ants=64, cycles=10, end=-1)
    >>> r.tolist()[:3], int(i[ANTS]), int(i[END])
    ([1.0, 0.25, 1.0], 64, -1)
    """
    unknown = set(values) - set(reals) - set(LOOP_INTS)
    if unknown:
        raise TypeError(f"bundle() got unknown entries {sorted(unknown)}")
    r = np.array([float(values[k]) for k in reals], dtype=np.float64)
    i = np.array([int(values.get(k, 0)) for k in LOOP_INTS], dtype=np.int64)
    return r, i


# ---------------------------------------------------------------------- walks
@njit(cache=True, inline='always')
def _enter(tpad, rev, avail, s):
    """Square ``s`` is visited: no square keeps a move into it."""
    for j in range(8):
        avail[tpad[s, j]] &= ~np.uint8(1 << rev[j])


@njit(cache=True, inline='always')
def _only(av):
    """The one move of a bit set with one bit."""
    c = 0
    while (av >> c) & 1 == 0:
        c += 1
    return c


@njit(cache=True, inline='always')
def _popcount(b):
    """Number of bits set in a uint8."""
    c = 0
    while b:
        b &= b - np.uint8(1)
        c += 1
    return c


@njit(cache=True, inline='always')
def _draw(av, w, row, cum, rng):
    """Move drawn from bit set ``av`` (two bits or more) with weights ``w[row, j]``.

    Weights must be finite and not negative (the kernels keep every trail and
    weight inside ``[0, TAU_MAX]``, so the total of 8 is finite).  A total of
    zero takes the last candidate: every move stays on the board.
    """
    tot = 0.0
    for j in range(8):
        tot += w[row, j] * ((av >> j) & 1)
        cum[j] = tot
    r = uniform(rng) * tot
    c = 0
    for j in range(8):
        c += cum[j] <= r
    if c >= 8:  # only with a zero total (u < 1)
        c = 7
        while (av >> c) & 1 == 0:
            c -= 1
    return c


@njit(cache=True, nogil=True)
def walk(tpad, full, rev, weight, start, reserved, avail, path, moves, cum, rng):
    """One ant from ``start`` with weights ``weight[s, j]``; fills ``path[0..L]``, ``moves[0..L-1]``; returns ``L``.

    The ant walks until no unvisited square is a move away.  A ``reserved``
    square (-1: none) is kept for the last move: the ant never enters it
    before, and when it has visited every other square and stands a move
    away from it, :func:`finish_reserved` appends it.
    """
    return _ant(_BY_WEIGHT, tpad, full, rev, weight, start, reserved, avail, path, moves, cum, weight, rng)


@njit(cache=True, inline='always')
def finish_reserved(tpad, reserved, path, moves, length):
    """Append the ``reserved`` square to a walk that covers every other square and ends a move away from it."""
    if reserved < 0 or length != tpad.shape[0] - 2:
        return length
    s = path[length]
    for j in range(8):
        if tpad[s, j] == reserved:
            moves[length] = j
            path[length + 1] = reserved
            return length + 1
    return length


@njit(cache=True, nogil=True)
def walk_degree(tpad, full, rev, tau, start, reserved, avail, path, moves, cum, w, rng):
    """One ant with weights ``tau[s, j] ** D``, ``D`` the destination's unvisited neighbours now.

    ``w`` (a 1 x 8 float array) is scratch space.  ``D`` is counted after the
    current square is visited, so a destination whose only free neighbour is
    the current square has ``D = 0`` and weight 1, the largest.  ``reserved``
    is kept for the last move as in :func:`walk`.
    """
    return _ant(_BY_DEGREE, tpad, full, rev, tau, start, reserved, avail, path, moves, cum, w, rng)


@njit(cache=True, nogil=True)
def warnsdorff_walk(tpad, full, rev, start, avail, path, moves, rng):
    """Warnsdorff's rule from ``start``: the destination with the fewest unvisited neighbours, ties at random.

    Fills ``path`` and ``moves`` like :func:`walk` and returns the number of
    moves.  Ties draw one uniform and take the tied move it points to.
    """
    none = np.zeros((1, 8))
    return _ant(_FEWEST_ONWARD, tpad, full, rev, none, start, -1, avail, path, moves, none[0], none, rng)


# the rules of :func:`_ant` for the next move
_BY_WEIGHT = 0
_BY_DEGREE = 1
_FEWEST_ONWARD = 2


@njit(cache=True, inline='always')
def _ant(rule, tpad, full, rev, weight, start, reserved, avail, path, moves, cum, w, rng):
    """The walk of :func:`walk` (``rule`` ``_BY_WEIGHT``), :func:`walk_degree` (``_BY_DEGREE``, ``weight``
    is ``tau``) and :func:`warnsdorff_walk` (``_FEWEST_ONWARD``: a forced move is a choice without a tie,
    so it draws nothing there either)."""
    avail[:] = full
    if reserved >= 0:
        _enter(tpad, rev, avail, reserved)
    s = start
    path[0] = s
    length = 0
    while True:
        _enter(tpad, rev, avail, s)
        av = avail[s]
        if av == 0:
            break
        if rule == _FEWEST_ONWARD:
            c = _fewest_onward(tpad, avail, s, av, rng)
        elif av & (av - np.uint8(1)) == 0:
            c = _only(av)  # a forced move: no draw
        elif rule == _BY_DEGREE:
            for j in range(8):
                w[0, j] = 0.0
                if (av >> j) & 1:
                    t = weight[s, j]
                    p = 1.0
                    for _ in range(_popcount(avail[tpad[s, j]])):
                        p *= t
                    w[0, j] = p
            c = _draw(av, w, 0, cum, rng)
        else:
            c = _draw(av, weight, s, cum, rng)
        moves[length] = c
        s = tpad[s, c]
        length += 1
        path[length] = s
    return finish_reserved(tpad, reserved, path, moves, length)


@njit(cache=True, inline='always')
def _fewest_onward(tpad, avail, s, av, rng):
    """Warnsdorff's choice at ``s``: the free move whose square has the fewest free neighbours, ties by one
    uniform draw (none without a tie)."""
    best = 9
    ties = 0
    for j in range(8):
        if (av >> j) & 1:
            d = _popcount(avail[tpad[s, j]])
            if d < best:
                best = d
                ties = 1
            elif d == best:
                ties += 1
    k = int(uniform(rng) * ties) if ties > 1 else 0
    c = 0
    for j in range(8):
        if (av >> j) & 1 and _popcount(avail[tpad[s, j]]) == best:
            if k == 0:
                c = j
                break
            k -= 1
    return c


# ---------------------------------------------------------------------- counting
@njit(cache=True, inline='always')
def is_closed(tpad, first, last):
    """Whether ``last`` is a move away from ``first``."""
    for j in range(8):
        if tpad[last, j] == first:
            return True
    return False


@njit(cache=True, inline='always')
def tally_complete(tpad, path, length, want_closed, end, counts):
    """Count a complete walk of ``length`` moves; True when it is a tour of the request.

    A tour of the request is closed when ``want_closed`` and ends on ``end``
    when ``end >= 0``.  The loops count every walk themselves (``counts[0]``
    and ``counts[4]``) and call this for complete walks only, which keeps the
    call off the common path.
    """
    n = tpad.shape[0]
    counts[1] += 1
    closed = n > 2 and is_closed(tpad, path[0], path[length])
    if closed:
        counts[2] += 1
    if (closed or not want_closed) and (end < 0 or path[length] == end):
        counts[3] += 1
        return True
    return False


# ---------------------------------------------------------------------- pheromone
@njit(cache=True, inline='always')
def deposit_hk(delta, path, moves, length, share):
    """Hingston & Kendall's rule: move ``i`` of a walk of ``L`` moves gains ``(L - i) * share[i]``.

    ``share[i] = Q / (N - 1 - i)``, so a complete tour lays ``Q`` on each move.
    """
    for i in range(length):
        delta[path[i], moves[i]] += (length - i) * share[i]


@njit(cache=True, inline='always')
def deposit_const(delta, col, path, moves, length, amount, mode, complete):
    """A constant ``amount`` on the moves of a walk into ``delta[col]``, by ``mode`` (:data:`DEPOSIT_SUM` ...).

    ``complete`` says whether the walk is a complete tour (mode
    :data:`DEPOSIT_COMPLETE` deposits only then).
    """
    if mode == DEPOSIT_EDGE:
        for i in range(length):
            delta[col, path[i], moves[i]] = amount
    elif mode == DEPOSIT_SUM or complete:
        for i in range(length):
            delta[col, path[i], moves[i]] += amount


@njit(cache=True, inline='always')
def evaporate(tau, delta, keep, lo, hi):
    """``tau <- keep * tau + delta`` kept inside ``[lo, hi]``; ``delta`` is zeroed.  Both are ``(n, 8)``."""
    n = tau.shape[0]
    for s in range(n):
        for j in range(8):
            v = keep * tau[s, j] + delta[s, j]
            if v < lo:
                v = lo
            elif v > hi:
                v = hi
            tau[s, j] = v
            delta[s, j] = 0.0


@njit(cache=True, inline='always')
def powers_alpha(tau, weight, alpha, lo):
    """``weight = tau ** alpha``, never below ``lo`` nor above :data:`TAU_MAX`."""
    n, k = tau.shape
    for s in range(n):
        for j in range(k):
            w = tau[s, j] ** alpha
            weight[s, j] = w if w > lo else lo
            if w > TAU_MAX:
                weight[s, j] = TAU_MAX


@njit(cache=True, inline='always')
def powers_degree(tau, tpad, deg, weight):
    """``weight[s, j] = tau[s, j] ** deg[tpad[s, j]]`` by repeated multiplication."""
    n = tpad.shape[0]
    for s in range(n):
        for j in range(8):
            t = tau[s, j]
            p = 1.0
            for _ in range(deg[tpad[s, j]]):
                p *= t
            weight[s, j] = p


@njit(cache=True, inline='always')
def share(tau, f, lo, hi):
    """Every colony's trail becomes the F-mean over the colonies, kept inside ``[lo, hi]``.

    ``tau`` is ``(colonies, n, k)``; F = -inf is the minimum, 0 the
    geometric mean, +inf the maximum.
    """
    n_col, n, k = tau.shape
    for s in range(n):
        for j in range(k):
            if f == -np.inf:
                m = tau[0, s, j]
                for c in range(1, n_col):
                    if tau[c, s, j] < m:
                        m = tau[c, s, j]
            elif f == np.inf:
                m = tau[0, s, j]
                for c in range(1, n_col):
                    if tau[c, s, j] > m:
                        m = tau[c, s, j]
            elif f == 0.0:
                acc = 0.0
                for c in range(n_col):
                    acc += np.log(tau[c, s, j])
                m = np.exp(acc / n_col)
            else:
                acc = 0.0
                for c in range(n_col):
                    acc += tau[c, s, j] ** f
                m = (acc / n_col) ** (1.0 / f)
            if m < lo:
                m = lo
            elif m > hi:
                m = hi
            for c in range(n_col):
                tau[c, s, j] = m


# ---------------------------------------------------------------------- cycle loops
@njit(cache=True, inline='always')
def start_of(starts, ants, cycle, a):
    """Entry ``(cycle * ants + a) mod len(starts)`` of ``starts``: where ant ``a`` of cycle ``cycle`` starts.

    With as many ants as entries every ant keeps its square; with fewer the
    starts go round the list from cycle to cycle.  The same rule picks an
    ant's reserved last square from a list of them.
    """
    k = starts.shape[0]
    return starts[((cycle % k) * (ants % k) + a) % k]


@njit(cache=True, inline='always')
def keep_walk(path, out, n_out, counts):
    """Copy a tour of the request into row ``n_out`` of ``out`` when there is room; returns the new row count.

    A tour that finds no room is counted in ``counts[5]`` (only a single
    cycle with more tours than ``out`` has rows can drop one).
    """
    if n_out < out.shape[0]:
        out[n_out, :] = path
        return n_out + 1
    counts[5] += 1
    return n_out


@njit(cache=True, inline='always')
def track_best(path, length, best, best_len):
    """Keep the longest walk of the cycle in ``best`` (``best_len[0]`` moves; -1 before the first walk)."""
    if length > best_len[0]:
        best[: length + 1] = path[: length + 1]
        best_len[0] = length


@njit(cache=True, inline='always')
def _loop_ints(ints):
    """The entries of :data:`LOOP_INTS` every colony loop reads: ants, cycle0, cycles, closed, end, first_only."""
    return ints[ANTS], ints[CYCLE0], ints[CYCLES], ints[CLOSED], ints[END], ints[FIRST_ONLY]


@njit(cache=True, inline='always')
def _count_walk(tpad, path, length, want_closed, end, counts, out, n_out):
    """A walk counted in ``counts`` (walks, the sum of lengths, and by :func:`tally_complete`) and, when it is
    a tour of the request, kept in ``out`` (:func:`keep_walk`); returns ``(rows of out used, whether kept)``."""
    counts[0] += 1
    counts[4] += length
    if length == tpad.shape[0] - 1 and tally_complete(tpad, path, length, want_closed, end, counts):
        return keep_walk(path, out, n_out, counts), True
    return n_out, False


@njit(cache=True, nogil=True)
def aco_cycles(tpad, full, rev, tau, weight, reals, ints, starts, reserve, rng, out, counts, best, best_len):
    """Run up to ``n_cycles`` cycles of Hingston & Kendall's colony; ``tau`` and ``weight`` change in place.

    ``reals`` holds ``alpha``, ``rho``, ``q`` and ``tau_min`` (the layout of
    :data:`ACO_REALS`), ``ints`` the entries of :data:`LOOP_INTS`: ``ants``,
    ``cycle0``, ``n_cycles`` (``cycles``), ``want_closed`` (``closed``),
    ``end`` (-1: none) and ``first_only`` (see :func:`bundle`).
    ``weight`` is ``tau ** alpha`` (the same array as ``tau`` when alpha is
    1).  A cycle sends ``ants`` ants from the squares of :func:`start_of`
    (``cycle0`` cycles ran before this call); each keeps for its last move
    the square ``reserve`` gives it by the same rule (an empty ``reserve``
    or an entry -1: none).  Walks that are tours of the
    request are copied into the rows of ``out``; with ``first_only`` the call
    returns at the first one.  ``counts`` (int64): walks, complete walks,
    closed complete walks, tours of the request, the sum of walk lengths,
    tours dropped for want of room.  When ``best_len[0] >= -1`` the longest
    walk of the last cycle run is kept in ``best`` (:func:`track_best`);
    ``best_len[0] == -2`` turns that off.  Returns ``(cycles completed,
    rows of out used)``; a call stops early, at a cycle boundary, when
    ``out`` holds tours and could not hold another cycle's worth.
    """
    alpha = reals[A_ALPHA]
    rho = reals[A_RHO]
    q = reals[A_Q]
    tau_min = reals[A_TAU_MIN]
    ants, cycle0, n_cycles, want_closed, end, first_only = _loop_ints(ints)
    n = tpad.shape[0]
    avail = np.empty(n + 1, np.uint8)
    path = np.empty(n, np.int32)
    moves = np.empty(max(n - 1, 1), np.int32)
    cum = np.empty(8, np.float64)
    delta = np.zeros((n, 8), np.float64)
    cap = out.shape[0]
    keep = 1.0 - rho
    track = best_len[0] >= -1
    # q / (n - 1 - i): the deposit per unit of walk left after move i, divided once here
    per = np.empty(max(n - 1, 1), np.float64)
    for i in range(n - 1):
        per[i] = q / (n - 1 - i)
    n_out = 0
    for c in range(n_cycles):
        if not first_only and n_out > 0 and n_out + ants > cap:
            return c, n_out
        if track:
            best_len[0] = -1
        for a in range(ants):
            res = start_of(reserve, ants, cycle0 + c, a) if reserve.shape[0] else -1
            length = walk(tpad, full, rev, weight, start_of(starts, ants, cycle0 + c, a), res, avail, path, moves,
                          cum, rng)
            n_out, kept = _count_walk(tpad, path, length, want_closed, end, counts, out, n_out)
            if kept and first_only:
                return c, n_out
            if track:
                track_best(path, length, best, best_len)
            deposit_hk(delta, path, moves, length, per)
        evaporate(tau, delta, keep, tau_min, TAU_MAX)
        if alpha != 1.0:
            powers_alpha(tau, weight, alpha, tau_min)
    return n_cycles, n_out


@njit(cache=True, nogil=True)
def iaco_cycles(tpad, full, rev, deg, tau, reals, ints, starts, reserve, rng, out, counts, best, best_len):
    """Run up to ``n_cycles`` cycles of every colony; ``tau`` (colonies x n x 8) changes in place.

    ``reals`` holds ``rho``, ``deposit``, the clamp ``lo`` and ``hi`` and
    the sharing exponent ``f`` (the layout of :data:`IACO_REALS`); ``ints``
    the entries of :data:`LOOP_INTS`, those of :func:`aco_cycles` and
    ``share_every``, ``deposit_mode`` (:data:`DEPOSIT_SUM` ...) and
    ``dynamic`` (see :func:`bundle`).
    In a cycle each colony sends ``ants`` ants from the squares of
    :func:`start_of`, all on the trails of the previous cycle; then every
    colony's deposits and evaporation are applied, and after cycle ``w, 2w,
    ...`` of the run (``cycle0`` cycles ran before this call) the colonies
    share their trails.  ``dynamic`` chooses :func:`walk_degree` (``D`` the
    unvisited neighbours) over :func:`walk` on the board-degree table of
    :func:`powers_degree`.  Other arguments and the return value are those
    of :func:`aco_cycles`.
    """
    rho = reals[I_RHO]
    deposit = reals[I_DEPOSIT]
    lo = reals[I_LO]
    hi = reals[I_HI]
    f = reals[I_F]
    ants, cycle0, n_cycles, want_closed, end, first_only = _loop_ints(ints)
    share_every = ints[SHARE_EVERY]
    deposit_mode = ints[DEPOSIT_MODE]
    dynamic = ints[DYNAMIC]
    n = tpad.shape[0]
    n_col = tau.shape[0]
    avail = np.empty(n + 1, np.uint8)
    path = np.empty(n, np.int32)
    moves = np.empty(max(n - 1, 1), np.int32)
    cum = np.empty(8, np.float64)
    w = np.empty((1, 8), np.float64)
    weight = np.empty((n, 8), np.float64)
    delta = np.zeros(tau.shape, np.float64)
    cap = out.shape[0]
    keep = 1.0 - rho
    track = best_len[0] >= -1
    n_out = 0
    for c in range(n_cycles):
        if not first_only and n_out > 0 and n_out + n_col * ants > cap:
            return c, n_out
        if track:
            best_len[0] = -1
        for col in range(n_col):
            if not dynamic:
                powers_degree(tau[col], tpad, deg, weight)
            for a in range(ants):
                start = start_of(starts, ants, cycle0 + c, a)
                res = start_of(reserve, ants, cycle0 + c, a) if reserve.shape[0] else -1
                if dynamic:
                    length = walk_degree(tpad, full, rev, tau[col], start, res, avail, path, moves, cum, w, rng)
                else:
                    length = walk(tpad, full, rev, weight, start, res, avail, path, moves, cum, rng)
                n_out, kept = _count_walk(tpad, path, length, want_closed, end, counts, out, n_out)
                if kept and first_only:
                    return c, n_out
                if track:
                    track_best(path, length, best, best_len)
                deposit_const(delta, col, path, moves, length, deposit, deposit_mode, length == n - 1)
        for col in range(n_col):
            evaporate(tau[col], delta[col], keep, lo, hi)
        if share_every > 0 and n_col > 1 and (cycle0 + c + 1) % share_every == 0:
            share(tau, f, lo, hi)
    return n_cycles, n_out
