"""Numba kernels of Posa rotations (:mod:`ktsolve.heuristics.rotation`).

One search is the arrays ``path``, ``pos`` (the index of every square on the
path, or a mark: free, reserved, parked), ``udeg`` (free neighbours of every
square), ``state`` (the scalars, slots below) and ``rng`` (the state word of
the SplitMix64 stream of :mod:`ktsolve._splitmix`), so :func:`_run` can stop
after any amount of work and the next call goes on where it stopped: the
search is the same however the driver cuts it.  :func:`_init` and
:func:`_begin` start a run, :func:`_run` extends, repairs, walks and gives
squares back as the module docstring of :mod:`ktsolve.heuristics.rotation`
describes; the other kernels are its parts.

Every random choice is a :func:`~ktsolve._splitmix.below` draw: one per free
neighbour of the end when extending (the last tie-break), and one or two per
candidate rotation of a walk step.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._splitmix import below

#: Longest rotation sequence the repair search tries.
_MAXD = 6

# ---------------------------------------------------------------------- state layout
_L = 0  # path length
_TARGET = 1  # squares the path must hold before closing (n, or n - 1 with a reserved end)
_RESERVED = 2  # reserved end square, or -1
_CLOSED = 3  # 1: the end must come next to path[0]
_GOAL = 4  # free square the walk heads for, or -1
_ROT = 5  # rotations in this run
_EXT = 6  # squares appended in this run
_SPENT = 7  # work units the last call of _run did
_DEPTH = 8  # repair search depth
_PREV = 9  # previous end (the walk does not step straight back)
_WALK = 10  # walk steps in this run
_REPAIRS = 11  # repair sequences applied in this run
_REVERSED = 12  # squares moved by rotations in this run
_BEST = 13  # longest path of this run
_SINCE = 14  # rotations since the path last grew past _BEST
_POPS = 15  # squares given back to change the end's colour
_PARKED = 16  # square given back, kept off until the path grows, or -1
_GSTEPS = 17  # walk steps towards the current goal
_GCAP = 18  # walk steps allowed towards the current goal
_FLIPS = 19  # times the two ends of the path were swapped
_NSTATE = 20

# Kernel answers.
_GOING = 0
_DONE = 1
_STALLED = 2

# Squares that are neither free nor on the path.
_FREE = -1
_RESERVED_MARK = -2
_PARKED_MARK = -3


# ---------------------------------------------------------------------- kernels
# nogil=True: a racing lane (ktsolve.race) must not hold the GIL for seconds (the measure is in
# ktsolve.models._backtrack_kernels).
@njit(cache=True, nogil=True)
def _knight_dist(r1, c1, r2, c2):
    """Knight's-move distance between two squares of an unbounded board."""
    x = abs(r1 - r2)
    y = abs(c1 - c2)
    if x < y:
        x, y = y, x
    if x == 1 and y == 0:
        return 3
    if x == 2 and y == 2:
        return 4
    delta = x - y
    if y > delta:
        return delta - 2 * ((delta - y) // 3)
    return delta - 2 * ((delta - y) // 4)


@njit(cache=True, nogil=True)
def rotate(path, pos, length, i):
    """Posa rotation of ``path[:length]`` at pivot index ``i``; returns the new end.

    Reverses ``path[i+1:length]`` in place, so the old ``path[i + 1]`` becomes
    the end, and updates ``pos`` (the index of every square on the path) for
    the squares that moved.  Costs ``length - 1 - i``.  The caller checks that
    ``path[i]`` is next to the end and that ``0 <= i < length - 2``.

    Examples
    --------
    >>> path = np.array([0, 1, 2, 3, 4], dtype=np.int32)
    >>> pos = np.arange(5, dtype=np.int32)
    >>> int(rotate(path, pos, 5, 1)), path.tolist(), pos.tolist()
    (2, [0, 1, 4, 3, 2], [0, 1, 4, 3, 2])
    """
    _reverse_between(path, pos, i + 1, length - 1)
    return path[length - 1]


@njit(cache=True, nogil=True)
def _reverse_all(path, pos, L):
    """Reverse the whole path: its start and end swap."""
    _reverse_between(path, pos, 0, L - 1)


@njit(cache=True, inline='always')
def _reverse_between(path, pos, lo, hi):
    """Reverse ``path[lo..hi]`` (both included) in place, keeping ``pos`` its inverse."""
    while lo < hi:
        a = path[lo]
        b = path[hi]
        path[lo] = b
        pos[b] = lo
        path[hi] = a
        pos[a] = hi
        lo += 1
        hi -= 1


@njit(cache=True, nogil=True)
def _fmap(k, piv, d, L):
    """Index, after ``d`` rotations at pivot indices ``piv[:d]``, of the square now at ``k``."""
    for j in range(d):
        i = piv[j]
        if k > i:
            k = L + i - k
    return k


@njit(cache=True, nogil=True)
def _elem(path, k, piv, d, L):
    """Square at index ``k`` after ``d`` rotations at pivot indices ``piv[:d]``."""
    for j in range(d - 1, -1, -1):
        i = piv[j]
        if k > i:
            k = L + i - k
    return path[k]


@njit(cache=True, nogil=True)
def _adjacent(indptr, indices, a, b):
    for k in range(indptr[a], indptr[a + 1]):
        if indices[k] == b:
            return True
    return False


@njit(cache=True, nogil=True)
def _has_free(indptr, indices, pos, e):
    for k in range(indptr[e], indptr[e + 1]):
        if pos[indices[k]] == _FREE:
            return True
    return False


@njit(cache=True, nogil=True)
def _search(indptr, indices, path, pos, L, depth, goal, best_piv):
    """Depth-first search over sequences of up to ``depth`` rotations.

    Looks for a sequence after which the end has a free neighbour (``goal <
    0``) or is next to ``goal``.  Nothing moves: positions and squares after
    the rotations come from :func:`_fmap` and :func:`_elem`.  Returns the
    length of the sequence that reverses the fewest squares among the
    shortest ones found, with its pivot indices in ``best_piv``, or 0.
    """
    piv = np.empty(_MAXD, dtype=np.int64)
    ends = np.empty(_MAXD + 1, dtype=np.int64)
    cursor = np.empty(_MAXD + 1, dtype=np.int64)
    cost = np.empty(_MAXD + 1, dtype=np.int64)
    for maxd in range(1, depth + 1):
        best_cost = np.int64(-1)
        d = np.int64(0)  # not a literal 0: callees get one signature
        ends[0] = path[L - 1]
        cursor[0] = indptr[ends[0]]
        cost[0] = 0
        while d >= 0:
            e = ends[d]
            if cursor[d] >= indptr[e + 1]:
                d -= 1
                continue
            v = indices[cursor[d]]
            cursor[d] += 1
            pv = pos[v]
            if pv < 0:
                continue
            k = _fmap(pv, piv, d, L)
            if k >= L - 2:
                continue  # the end's predecessor (or the end) is no pivot
            c = cost[d] + (L - 2 - k)
            if best_cost >= 0 and c >= best_cost:
                continue
            piv[d] = k
            e2 = _elem(path, k + 1, piv, d, L)
            if d + 1 == maxd:
                if goal < 0:
                    ok = _has_free(indptr, indices, pos, e2)
                else:
                    ok = _adjacent(indptr, indices, e2, goal)
                if ok:
                    best_cost = c
                    for j in range(maxd):
                        best_piv[j] = piv[j]
                continue
            d += 1
            ends[d] = e2
            cursor[d] = indptr[e2]
            cost[d] = c
        if best_cost >= 0:
            return maxd
    return 0


@njit(cache=True, nogil=True)
def _append(indptr, indices, path, pos, udeg, L, w):
    path[L] = w
    pos[w] = L
    for k in range(indptr[w], indptr[w + 1]):
        udeg[indices[k]] -= 1
    return L + 1


@njit(cache=True, nogil=True)
def _nearest_free(indptr, indices, coords, pos, u, colour):
    """The free square nearest to ``u`` that the end can reach, or -1.

    Reachable: of colour ``colour`` (the end's colour never changes under
    rotations, and a knight's move changes colour) and next to a square on
    the path (the end is always on the path).
    """
    best = -1
    bd = np.int64(1) << 62
    r, c = coords[u, 0], coords[u, 1]
    for w in range(pos.size):
        if pos[w] != _FREE or (coords[w, 0] + coords[w, 1]) % 2 != colour:
            continue
        d = _knight_dist(r, c, coords[w, 0], coords[w, 1])
        if d >= bd:
            continue
        for k in range(indptr[w], indptr[w + 1]):
            if pos[indices[k]] >= 0:
                bd = d
                best = w
                break
    return best


@njit(cache=True, nogil=True)
def _free_square(indptr, indices, pos, udeg, w):
    """Make ``w`` free (it was parked or just left the path)."""
    pos[w] = _FREE
    for k in range(indptr[w], indptr[w + 1]):
        udeg[indices[k]] += 1


@njit(cache=True, nogil=True)
def _give_back(indptr, indices, path, pos, udeg, state, L):
    """Take the end off the path and park it; returns the new length.

    The path gets one square shorter and its end changes colour.  The square
    is parked (neither free nor on the path, so the squares around it keep
    their free-neighbour counts) until the path grows again; a square parked
    before is freed first.
    """
    if state[_PARKED] >= 0:
        _free_square(indptr, indices, pos, udeg, state[_PARKED])
    u = path[L - 1]
    pos[u] = _PARKED_MARK
    state[_PARKED] = u
    state[_POPS] += 1
    state[_SINCE] += 1  # counts as a rotation against the budget
    state[_GOAL] = -1
    state[_PREV] = -1
    return L - 1


@njit(cache=True, nogil=True)
def _init(indptr, indices, pos, udeg, reserved, lo, hi):
    """Reset squares ``lo .. hi - 1`` for a new run: free, ``reserved`` (or -1) kept off the path.

    The free-neighbour counts ``udeg`` of ``lo .. hi - 1`` are counted with
    only ``reserved`` off, so run this over every square (in as many pieces
    as the clock wants) before :func:`_begin`.
    """
    for v in range(lo, hi):
        pos[v] = _FREE
    if reserved >= lo and reserved < hi:
        pos[reserved] = _RESERVED_MARK
    for v in range(lo, hi):
        deg = 0
        for k in range(indptr[v], indptr[v + 1]):
            if indices[k] != reserved:
                deg += 1
        udeg[v] = deg


@njit(cache=True, nogil=True)
def _begin(indptr, indices, path, pos, udeg, state, start):
    """Start the path at ``start`` once every square is reset (:func:`_init`)."""
    L = _append(indptr, indices, path, pos, udeg, np.int64(0), np.int64(start))
    state[_L] = L
    state[_BEST] = L
    state[_GOAL] = -1
    state[_PREV] = -1
    state[_PARKED] = -1
    state[_ROT] = 0
    state[_EXT] = 0
    state[_WALK] = 0
    state[_REPAIRS] = 0
    state[_REVERSED] = 0
    state[_SINCE] = 0
    state[_POPS] = 0
    state[_GSTEPS] = 0
    state[_GCAP] = 0
    state[_FLIPS] = 0


@njit(cache=True, nogil=True)
def _run(indptr, indices, coords, prio, path, pos, udeg, state, rng, work, max_rot):
    """Advance the search by about ``work`` units (squares appended or moved).

    Returns ``_DONE`` when ``path`` is a tour of the request, ``_STALLED``
    when this run has spent ``max_rot`` rotations without growing the path,
    else ``_GOING``.  Everything the next call needs is in the arrays, the
    random stream (``rng``) included, so a run is the same however many
    chunks it takes.  The work actually done is added to ``state[_SPENT]``.
    """
    L = state[_L]
    target = state[_TARGET]
    reserved = state[_RESERVED]
    closed = state[_CLOSED] == 1
    depth = state[_DEPTH]
    best_piv = np.empty(_MAXD, dtype=np.int64)
    spent = np.int64(0)
    status = _GOING
    while spent < work:
        u = path[L - 1]
        # ---------------------------------------------------------- extension
        best = -1
        bkey = np.int64(1) << 62
        for k in range(indptr[u], indptr[u + 1]):
            w = indices[k]
            if pos[w] != _FREE:
                continue
            key = (np.int64(udeg[w]) << np.int64(40)) - (np.int64(prio[w]) << np.int64(6)) + below(rng, np.int64(64))
            if key < bkey:
                bkey = key
                best = w
        if best >= 0:
            L = _append(indptr, indices, path, pos, udeg, L, np.int64(best))
            if state[_PARKED] >= 0:
                _free_square(indptr, indices, pos, udeg, state[_PARKED])
                state[_PARKED] = -1
            state[_EXT] += 1
            spent += 1
            if L > state[_BEST]:
                state[_BEST] = L
                state[_SINCE] = 0
            continue
        # ---------------------------------------------------------- complete?
        goal = -1
        if L == target:
            if closed:
                goal = path[0]
            elif reserved >= 0:
                goal = reserved
            else:
                status = _DONE
                break
            if _adjacent(indptr, indices, u, goal):
                if reserved >= 0:
                    L = _append(indptr, indices, path, pos, udeg, L, np.int64(reserved))
                status = _DONE
                break
        if state[_SINCE] >= max_rot:
            status = _STALLED
            break
        # ---------------------------------------------------------- repair
        nd = _search(indptr, indices, path, pos, L, depth, goal, best_piv)
        if nd > 0:
            for j in range(nd):
                spent += L - 1 - best_piv[j]
                state[_REVERSED] += L - 1 - best_piv[j]
                state[_PREV] = path[L - 1]
                rotate(path, pos, L, best_piv[j])
            state[_ROT] += nd
            state[_SINCE] += nd
            state[_REPAIRS] += 1
            continue
        # ---------------------------------------------------------- walk
        g = goal
        if g >= 0:
            if g != state[_GOAL]:
                state[_GOAL] = g
                state[_GSTEPS] = 0
                state[_GCAP] = 64 + 8 * _knight_dist(coords[u, 0], coords[u, 1], coords[g, 0], coords[g, 1])
            elif closed and state[_GSTEPS] > state[_GCAP]:
                # The end does not find its way to the start: for a cycle the
                # start is free too, so swap the two ends and walk the other.
                _reverse_all(path, pos, L)
                spent += L
                state[_FLIPS] += 1
                state[_PREV] = -1
                continue
        else:
            g = state[_GOAL]
            colour = 1 - (coords[u, 0] + coords[u, 1]) % 2
            if g < 0 or pos[g] != _FREE or (coords[g, 0] + coords[g, 1]) % 2 != colour:
                g = _nearest_free(indptr, indices, coords, pos, u, colour)
                spent += pos.size
                state[_GOAL] = g
                state[_GSTEPS] = 0
                if g >= 0:
                    state[_GCAP] = 64 + 8 * _knight_dist(coords[u, 0], coords[u, 1], coords[g, 0], coords[g, 1])
            if g < 0 or state[_GSTEPS] > state[_GCAP]:
                # Colour fix: no free square the end can reach, or the walk to
                # one takes too long (the squares along the edge of a free
                # region often all have the end's colour).
                if L <= 2:
                    status = _STALLED
                    break
                L = _give_back(indptr, indices, path, pos, udeg, state, L)
                continue
        gr, gc = coords[g, 0], coords[g, 1]
        prev = state[_PREV]
        choice = -1
        cbest = np.int64(1) << 62
        for k in range(indptr[u], indptr[u + 1]):
            i = pos[indices[k]]
            if i < 0 or i >= L - 2:
                continue
            e = path[i + 1]
            if e == prev:
                continue
            if below(rng, np.int64(8)) == 0:
                key = below(rng, np.int64(1 << 24))  # now and then a random step
            else:
                dist = _knight_dist(coords[e, 0], coords[e, 1], gr, gc)
                key = (np.int64(dist) << np.int64(24)) + below(rng, np.int64(1 << 24))
            if key < cbest:
                cbest = key
                choice = i
        if choice < 0:
            # Only the way back is open: take it.
            for k in range(indptr[u], indptr[u + 1]):
                i = pos[indices[k]]
                if i >= 0 and i < L - 2:
                    choice = i
                    break
        if choice < 0:
            # A dead end: no free neighbour and no neighbour on the path but
            # its predecessor (say a corner next to the reserved end).
            if L <= 2:
                status = _STALLED
                break
            L = _give_back(indptr, indices, path, pos, udeg, state, L)
            continue
        spent += L - 1 - choice
        state[_REVERSED] += L - 1 - choice
        state[_PREV] = u
        rotate(path, pos, L, choice)
        state[_ROT] += 1
        state[_SINCE] += 1
        state[_WALK] += 1
        state[_GSTEPS] += 1
    state[_L] = L
    state[_SPENT] = spent
    return status
