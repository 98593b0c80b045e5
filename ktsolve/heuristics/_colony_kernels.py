"""The numba kernels of the colonies (:mod:`.aco`, :mod:`.iaco`) and of the GA (:mod:`.ga`), one idea each.

Every compiled function of those three methods lives in this one file, and
they call each other only here (small helpers are inlined into their
callers by numba, ``inline="always"``: one function to compile instead of
many, which keeps the first call's compile time that of the copied kernels
before them): numba's on-disk cache checks the source file
of a function, not the files of the functions it calls, so a kernel that
called into another file would keep running the old code after an edit
there (``tests/test_kernel_cache.py`` fails when any jitted function of
ktsolve calls one defined in another file).  The method modules call these
kernels from Python only.

The pieces, in the order a cycle uses them:

* :func:`uniform` -- SplitMix64 (Steele, Lea & Flood 2014), the one
  generator of the colonies and the GA: its state is one uint64 in a
  one-element array carried from call to call, so a run does not depend on
  how it is cut into calls, and a draw costs a few nanoseconds.
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
  start, and the cycle loops (with :func:`keep_walk` and :func:`track_best`);
* :func:`posa_extend`, :func:`posa_pivot` -- the greedy extension and the
  choice of a Posa rotation with which ``local_search="rotation"`` repairs
  a cycle's best walk (the rotation itself is
  :func:`ktsolve.heuristics.rotation.rotate`, called from Python);
  :func:`ga_generations` (with :func:`decode`, :func:`ga_init`,
  :func:`tournament`) -- the GA's generations.

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

__all__ = [
    "uniform",
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
    "posa_extend",
    "posa_pivot",
    "decode",
    "ga_init",
    "tournament",
    "ga_generations",
    "TAU_MAX",
    "DEPOSIT_SUM",
    "DEPOSIT_COMPLETE",
    "DEPOSIT_EDGE",
]

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)

#: Largest trail or weight: eight of them still add up to a finite number.
TAU_MAX = 1e300 / 8

#: Deposit modes of :func:`deposit_const`: ``C`` for every use of a move by
#: every ant; for every use by an ant that made a complete tour; once per
#: move used by at least one ant of the colony in the cycle.
DEPOSIT_SUM = 0
DEPOSIT_COMPLETE = 1
DEPOSIT_EDGE = 2


# ---------------------------------------------------------------------- generator
@njit(cache=True, inline='always')
def uniform(rng):
    """Next double in [0, 1) of the SplitMix64 generator whose state is ``rng[0]`` (uint64)."""
    x = rng[0] + _GOLDEN
    rng[0] = x
    x = (x ^ (x >> np.uint64(30))) * _MIX1
    x = (x ^ (x >> np.uint64(27))) * _MIX2
    x = x ^ (x >> np.uint64(31))
    return (x >> np.uint64(11)) * (1.0 / 9007199254740992.0)


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


@njit(cache=True)
def walk(tpad, full, rev, weight, start, reserved, avail, path, moves, cum, rng):
    """One ant from ``start`` with weights ``weight[s, j]``; fills ``path[0..L]``, ``moves[0..L-1]``; returns ``L``.

    The ant walks until no unvisited square is a move away.  A ``reserved``
    square (-1: none) is kept for the last move: the ant never enters it
    before, and when it has visited every other square and stands a move
    away from it, :func:`finish_reserved` appends it.
    """
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
        if av & (av - np.uint8(1)) == 0:
            c = _only(av)  # a forced move: no draw
        else:
            c = _draw(av, weight, s, cum, rng)
        moves[length] = c
        s = tpad[s, c]
        length += 1
        path[length] = s
    return finish_reserved(tpad, reserved, path, moves, length)


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


@njit(cache=True)
def walk_degree(tpad, full, rev, tau, start, reserved, avail, path, moves, cum, w, rng):
    """One ant with weights ``tau[s, j] ** D``, ``D`` the destination's unvisited neighbours now.

    ``w`` (a 1 x 8 float array) is scratch space.  ``D`` is counted after the
    current square is visited, so a destination whose only free neighbour is
    the current square has ``D = 0`` and weight 1, the largest.  ``reserved``
    is kept for the last move as in :func:`walk`.
    """
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
        if av & (av - np.uint8(1)) == 0:
            c = _only(av)
        else:
            for j in range(8):
                w[0, j] = 0.0
                if (av >> j) & 1:
                    t = tau[s, j]
                    p = 1.0
                    for _ in range(_popcount(avail[tpad[s, j]])):
                        p *= t
                    w[0, j] = p
            c = _draw(av, w, 0, cum, rng)
        moves[length] = c
        s = tpad[s, c]
        length += 1
        path[length] = s
    return finish_reserved(tpad, reserved, path, moves, length)


@njit(cache=True)
def warnsdorff_walk(tpad, full, rev, start, avail, path, moves, rng):
    """Warnsdorff's rule from ``start``: the destination with the fewest unvisited neighbours, ties at random.

    Fills ``path`` and ``moves`` like :func:`walk` and returns the number of
    moves.  Ties draw one uniform and take the tied move it points to.
    """
    avail[:] = full
    s = start
    path[0] = s
    length = 0
    while True:
        _enter(tpad, rev, avail, s)
        av = avail[s]
        if av == 0:
            break
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
        moves[length] = c
        s = tpad[s, c]
        length += 1
        path[length] = s
    return length


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


@njit(cache=True)
def aco_cycles(tpad, full, rev, tau, weight, alpha, rho, q, tau_min, starts, reserve, ants, cycle0, n_cycles,
               rng, want_closed, end, first_only, out, counts, best, best_len):
    """Run up to ``n_cycles`` cycles of Hingston & Kendall's colony; ``tau`` and ``weight`` change in place.

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
            counts[0] += 1
            counts[4] += length
            if length == n - 1 and tally_complete(tpad, path, length, want_closed, end, counts):
                n_out = keep_walk(path, out, n_out, counts)
                if first_only:
                    return c, n_out
            if track:
                track_best(path, length, best, best_len)
            deposit_hk(delta, path, moves, length, per)
        evaporate(tau, delta, keep, tau_min, TAU_MAX)
        if alpha != 1.0:
            powers_alpha(tau, weight, alpha, tau_min)
    return n_cycles, n_out


@njit(cache=True)
def iaco_cycles(tpad, full, rev, deg, tau, rho, deposit, lo, hi, f, share_every, cycle0, deposit_mode,
                dynamic, starts, reserve, ants, n_cycles, rng, want_closed, end, first_only, out, counts, best,
                best_len):
    """Run up to ``n_cycles`` cycles of every colony; ``tau`` (colonies x n x 8) changes in place.

    In a cycle each colony sends ``ants`` ants from the squares of
    :func:`start_of`, all on the trails of the previous cycle; then every
    colony's deposits and evaporation are applied, and after cycle ``w, 2w,
    ...`` of the run (``cycle0`` cycles ran before this call) the colonies
    share their trails.  ``dynamic`` chooses :func:`walk_degree` (``D`` the
    unvisited neighbours) over :func:`walk` on the board-degree table of
    :func:`powers_degree`.  Other arguments and the return value are those
    of :func:`aco_cycles`.
    """
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
                counts[0] += 1
                counts[4] += length
                if length == n - 1 and tally_complete(tpad, path, length, want_closed, end, counts):
                    n_out = keep_walk(path, out, n_out, counts)
                    if first_only:
                        return c, n_out
                if track:
                    track_best(path, length, best, best_len)
                deposit_const(delta, col, path, moves, length, deposit, deposit_mode, length == n - 1)
        for col in range(n_col):
            evaporate(tau[col], delta[col], keep, lo, hi)
        if share_every > 0 and n_col > 1 and (cycle0 + c + 1) % share_every == 0:
            share(tau, f, lo, hi)
    return n_cycles, n_out


# ---------------------------------------------------------------------- Posa repair helpers
@njit(cache=True)
def _free_degree(tpad, pos, d):
    """Free squares (``pos == -1``) a move away from ``d``."""
    n = tpad.shape[0]
    k = 0
    for j in range(8):
        e = tpad[d, j]
        if e < n and pos[e] == -1:
            k += 1
    return k


@njit(cache=True)
def posa_extend(tpad, path, pos, length, rng):
    """Extend ``path[:length]`` from its end by Warnsdorff's rule (ties at random) while it can; returns the length.

    ``pos[s]`` is the index of square ``s`` on the path, -1 for a free
    square, any other negative value for a square kept off the path.
    """
    n = tpad.shape[0]
    while True:
        e = path[length - 1]
        best = 9
        ties = 0
        for j in range(8):
            d = tpad[e, j]
            if d < n and pos[d] == -1:
                k = _free_degree(tpad, pos, d)
                if k < best:
                    best = k
                    ties = 1
                elif k == best:
                    ties += 1
        if ties == 0:
            return length
        pick = int(uniform(rng) * ties) if ties > 1 else 0
        nxt = -1
        for j in range(8):
            d = tpad[e, j]
            if d < n and pos[d] == -1 and _free_degree(tpad, pos, d) == best:
                if pick == 0:
                    nxt = d
                    break
                pick -= 1
        path[length] = nxt
        pos[nxt] = length
        length += 1


@njit(cache=True)
def posa_pivot(tpad, path, pos, length, goal, rng):
    """Pivot index ``i`` of a Posa rotation of ``path[:length]``, or -1 when there is none.

    ``path[i]`` is a move away from the end and ``0 <= i < length - 2``;
    reversing ``path[i+1:length]`` makes ``path[i+1]`` the end.  Among the
    pivots, one whose new end has a free square a move away (``goal < 0``)
    or is a move away from ``goal`` is taken at random; when none is, any
    pivot at random.
    """
    n = tpad.shape[0]
    e = path[length - 1]
    good = 0
    total = 0
    for j in range(8):
        d = tpad[e, j]
        if d < n and 0 <= pos[d] < length - 2:
            total += 1
            u = path[pos[d] + 1]
            if (goal < 0 and _free_degree(tpad, pos, u) > 0) or (goal >= 0 and is_closed(tpad, goal, u)):
                good += 1
    if total == 0:
        return -1
    want_good = good > 0
    k = int(uniform(rng) * (good if want_good else total))
    for j in range(8):
        d = tpad[e, j]
        if d < n and 0 <= pos[d] < length - 2:
            u = path[pos[d] + 1]
            ok = (goal < 0 and _free_degree(tpad, pos, u) > 0) or (goal >= 0 and is_closed(tpad, goal, u))
            if ok or not want_good:
                if k == 0:
                    return pos[d]
                k -= 1
    return -1


# ---------------------------------------------------------------------- genetic algorithm
@njit(cache=True)
def decode(tpad, genes, start, visited, stamp, path):
    """Walk ``genes`` from ``start`` with repair (written back); returns the fitness.

    A gene whose move leaves the board, lands on a hole or on a visited
    square is replaced by the next move type in cyclic order that is legal;
    the walk ends when none is.  ``visited[s] == stamp`` marks visited squares.
    """
    n = tpad.shape[0]
    visited[n] = stamp
    s = start
    visited[s] = stamp
    path[0] = s
    m = genes.shape[0]
    for i in range(m):
        g = genes[i]
        d = n
        mm = g
        for t in range(8):
            mm = (g + t) & 7
            d = tpad[s, mm]
            if visited[d] != stamp:
                break
        if visited[d] == stamp:
            return i
        genes[i] = mm
        s = d
        visited[s] = stamp
        path[i + 1] = s
    return m


@njit(cache=True)
def ga_init(tpad, pop, fit, start_fixed, starts, rng, visited, stamp, path, counts):
    """Random chromosomes (one draw per gene) and a start (one draw unless fixed); decodes them all."""
    n = tpad.shape[0]
    p, m = pop.shape
    if start_fixed < 0:
        starts[0] = int(uniform(rng) * n)
    else:
        starts[0] = start_fixed
    for i in range(p):
        for k in range(m):
            pop[i, k] = int(uniform(rng) * 8)
    for i in range(p):
        stamp[0] += 1
        fit[i] = decode(tpad, pop[i], starts[0], visited, stamp[0], path)
        counts[0] += 1


@njit(cache=True)
def tournament(fit, rng):
    """Binary tournament: two draws, the fitter contestant (ties to the first)."""
    p = fit.shape[0]
    a = int(uniform(rng) * p)
    b = int(uniform(rng) * p)
    return b if fit[b] > fit[a] else a


@njit(cache=True)
def _child(pop, new, i, a, b, crossover, mutation, rng):
    """Child ``i`` of ``new`` from parents ``a`` and ``b``: one-point crossover at a bit, then bit flips."""
    m = pop.shape[1]
    if uniform(rng) < crossover:
        cut = int(uniform(rng) * (3 * m))
        g = cut // 3
        keep_bits = 3 - cut % 3  # low bits of gene g taken from b
        for k in range(g):
            new[i, k] = pop[a, k]
        low = (1 << keep_bits) - 1
        new[i, g] = (pop[a, g] & (7 - low)) | (pop[b, g] & low)
        for k in range(g + 1, m):
            new[i, k] = pop[b, k]
    else:
        new[i, :] = pop[a]
    for k in range(m):
        for bit in range(3):
            if uniform(rng) < mutation:
                new[i, k] ^= 1 << bit


@njit(cache=True)
def ga_generations(tpad, pop, fit, new, start_fixed, starts, want_closed, end, crossover, mutation, stall,
                   n_gens, rng, visited, stamp, path, out, state, counts, first_only):
    """Run up to ``n_gens`` generations of Gordon & Slocum's GA.

    ``state`` (int64): [generations without progress, best fitness of this
    restart, initialised flag].  ``counts`` (int64): decodes (attempts),
    complete tours, closed tours, matching tours, restarts, generations.
    Matching complete tours are copied to ``out`` rows; returns (generations
    run, rows used); with ``first_only`` it returns at the first.
    """
    n = tpad.shape[0]
    p, m = pop.shape
    n_out = 0
    cap = out.shape[0]
    if state[2] == 0:
        ga_init(tpad, pop, fit, start_fixed, starts, rng, visited, stamp, path, counts)
        state[0] = 0
        state[1] = -1
        state[2] = 1
    for gen in range(n_gens):
        best = 0
        for i in range(1, p):
            if fit[i] > fit[best]:
                best = i
        if fit[best] > state[1]:
            state[1] = fit[best]
            state[0] = 0
        else:
            state[0] += 1
        if state[0] >= stall:
            counts[4] += 1
            counts[5] += 1
            ga_init(tpad, pop, fit, start_fixed, starts, rng, visited, stamp, path, counts)
            state[0] = 0
            state[1] = -1
            continue
        new[0, :] = pop[best]
        for i in range(1, p):
            a = tournament(fit, rng)
            b = tournament(fit, rng)
            _child(pop, new, i, a, b, crossover, mutation, rng)
        # The elite keeps its fitness; children are decoded.
        fit0 = fit[best]
        pop[:, :] = new
        fit[0] = fit0
        for i in range(1, p):
            stamp[0] += 1
            f = decode(tpad, pop[i], starts[0], visited, stamp[0], path)
            fit[i] = f
            counts[0] += 1
            if f == m:
                counts[1] += 1
                last = path[m]
                closed = n > 2 and is_closed(tpad, path[0], last)
                if closed:
                    counts[2] += 1
                if (closed or not want_closed) and (end < 0 or last == end) and n_out < cap:
                    counts[3] += 1
                    out[n_out, :] = path
                    n_out += 1
                    if first_only:
                        counts[5] += 1
                        return gen + 1, n_out
        counts[5] += 1
    return n_gens, n_out
