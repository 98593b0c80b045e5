"""Posa rotations: Warnsdorff's greedy path repaired by rotating it, for large boards with holes.

The idea
--------
Warnsdorff's rule (1823) builds a knight's path greedily: always move to the
unvisited square with the fewest unvisited neighbours.  On large boards, and
on boards with holes, the greedy path gets stuck before it has visited every
square.  Posa (1976) showed how to go on from a stuck end ``u``: pick a
neighbour ``v = p[i]`` of ``u`` on the path ``p[0] .. p[L-1]`` (not its
predecessor) and reverse the part after ``v``::

    p[0] .. p[i]  p[i+1] .. p[L-1]      becomes      p[0] .. p[i]  p[L-1] .. p[i+1]

The new path holds the same squares and ends on the old ``p[i+1]``; when that
square has an unvisited neighbour the greedy extension goes on from it.
Angluin & Valiant (1979) made this *rotation-extension* step a fast algorithm
for Hamiltonian cycles in random graphs; here it repairs the greedy knight's
path.  The start ``p[0]`` never moves, so a fixed start costs nothing.

One numba kernel, run in chunks so that Python can watch the clock, does:

1. **Extension.**  Warnsdorff's rule, ties broken by Roth's rule (the square
   farthest from the board's centre first) and then at random.  A square
   whose last free neighbour is the end has no free neighbour left and is
   taken at once, so squares are not stranded behind the path.
2. **Repair.**  When the end is stuck, a depth-first search over sequences of
   up to ``depth`` rotations (3 by default) looks for a new end with an
   unvisited neighbour, without moving any data: after a rotation at pivot
   index ``i`` the square at index ``k > i`` sits at ``L + i - k``, so where a
   square is after a few rotations, and which square sits at an index, are a
   few integer operations away.  The sequence that reverses the fewest
   squares is applied.
3. **Walk.**  When no short sequence helps, the end walks towards the nearest
   free square it can reach: each step is the rotation whose new end is
   closest to it in knight's moves, now and then a random one.  The knight
   graph is bipartite and a rotation keeps the path's start and length, so
   the end's colour never changes and only free squares of the other colour,
   next to the path, are goals.
4. **Colour fix.**  The free squares along the edge of a region the greedy
   path left behind often all have the end's colour (the path ran along a
   diagonal), and then no rotation can ever reach them.  When there is no
   goal, when the walk to one takes too long, or when the end is a dead end
   (no free neighbour, no pivot), the end is given back: the path gets one
   square shorter, its end changes colour, and the square given back is
   *parked* (neither free nor on the path) until the path grows again.
5. **Closing.**  A closed tour needs the end next to the start ``p[0]``; an
   open tour with a fixed end ``t`` keeps ``t`` off the path (reserved) and
   needs the end next to ``t``, which is then appended.  Both are steps 2 and
   3 with that square as the goal.  For a closed tour the kernel chooses
   ``p[0]`` itself, in the board's top-left corner, where Warnsdorff's rule
   starts well (a requested start only fixes where the listing begins, so the
   cycle is rotated afterwards); and since that start is free, when the end
   does not find its way to it the whole path is reversed and the other end
   walks.  An open tour with no fixed start begins in the corner too, on the
   colour with more squares (an open tour starts and ends on it).
6. **Restarts.**  A run that spends ``rotations`` rotations (default
   :data:`DEFAULT_ROTATIONS`, or :data:`ROTATIONS_PER_LENGTH` per square of
   the board's long side when that is more: on a long thin board the end
   walks back along the whole length, a few rotations per column; each
   square given back counts as one) without
   growing its path past its longest stops, and the next run starts again
   with a fresh random stream.  After ``restarts`` runs (default
   :data:`DEFAULT_RESTARTS`), or when the time limit runs out, the answer is
   ``unknown``: a heuristic never proves that no tour exists.

No exact fallback lives here.  On small boards ``auto`` runs the exact
methods first (:func:`ktsolve.solve.auto_plan`); this method only ever
answers ``found`` with a tour it built, or ``unknown``.

Cost
----
Extension is O(1) per square.  A rotation reverses ``L - 1 - i`` squares.
Repairs pick the cheapest sequence, and the pivots of a freshly stuck end were
mostly visited recently, so repairs cost little; walks through old parts of
the path cost up to ``L`` per step.  On a 1000 x 1000 board with 0.1% holes
the greedy part takes a fraction of a second and the walks a few seconds
(``benchmarks/bench_rotation.py``).

References
----------
.. [1] H. C. von Warnsdorf, *Des Rösselsprunges einfachste und allgemeinste
   Lösung*, Schmalkalden, 1823.
.. [2] L. Pósa, "Hamiltonian circuits in random graphs", *Discrete
   Mathematics* 14 (1976) 359-364.
.. [3] D. Angluin and L. G. Valiant, "Fast probabilistic algorithms for
   Hamiltonian circuits and matchings", *Journal of Computer and System
   Sciences* 18 (1979) 155-193.
.. [4] A. Roth, "The Problem of the Knight": break Warnsdorff's ties by
   taking the square farthest from the board's centre.

Examples
--------
>>> from ktsolve import Board, KnightGraph, TourSpec
>>> board = Board(20, 20, holes=[(3, 4), (10, 10)])
>>> res = solve_rotation(KnightGraph(board), TourSpec(start=(0, 0)), seed=2)
>>> res.status.value, len(res.tour), res.tour.start
('found', 398, (0, 0))
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .. import jit
from ..checks import COUNT_MAX, check_int
from ..driver import Stopped, begin, drive, interrupt_guard
from ..graph import KnightGraph
from ..result import SolveResult, Status
from ..seeds import derive_seeds
from ..tour import Tour, TourSpec, list_cycle

__all__ = [
    "solve_rotation",
    "warm",
    "DEFAULT_ROTATIONS",
    "ROTATIONS_PER_LENGTH",
    "DEFAULT_RESTARTS",
    "DEFAULT_DEPTH",
    "MAX_RESTARTS",
    "rotate",
]

#: Rotations a run may spend without growing the path before it gives up.
DEFAULT_ROTATIONS = 50_000
#: Rotations without growth allowed per square of the long side, for long thin boards
#: (a 4 x 100,000 board with the start in the middle needs about 2.2 per column).
ROTATIONS_PER_LENGTH = 3
#: Runs (the first one included) before answering ``unknown``.
DEFAULT_RESTARTS = 3
#: Rotations in the sequences the repair search tries.
DEFAULT_DEPTH = 3
#: Most runs a call may be given.
MAX_RESTARTS = 1_000_000

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
@njit(cache=True)
def _below(rng, m):
    """A number in ``0..m-1`` from the SplitMix64 stream whose state is ``rng[0]``.

    The stream lives in the caller's array, so a run cut into chunks draws
    the same numbers however the chunks fall.
    """
    z = rng[0] + np.uint64(0x9E3779B97F4A7C15)
    rng[0] = z
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return np.int64(((z >> np.uint64(32)) * np.uint64(m)) >> np.uint64(32))


@njit(cache=True)
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


@njit(cache=True)
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
    lo = i + 1
    hi = length - 1
    while lo < hi:
        a = path[lo]
        b = path[hi]
        path[lo] = b
        pos[b] = lo
        path[hi] = a
        pos[a] = hi
        lo += 1
        hi -= 1
    return path[length - 1]


@njit(cache=True)
def _reverse_all(path, pos, L):
    """Reverse the whole path: its start and end swap."""
    lo = 0
    hi = L - 1
    while lo < hi:
        a = path[lo]
        b = path[hi]
        path[lo] = b
        pos[b] = lo
        path[hi] = a
        pos[a] = hi
        lo += 1
        hi -= 1


@njit(cache=True)
def _fmap(k, piv, d, L):
    """Index, after ``d`` rotations at pivot indices ``piv[:d]``, of the square now at ``k``."""
    for j in range(d):
        i = piv[j]
        if k > i:
            k = L + i - k
    return k


@njit(cache=True)
def _elem(path, k, piv, d, L):
    """Square at index ``k`` after ``d`` rotations at pivot indices ``piv[:d]``."""
    for j in range(d - 1, -1, -1):
        i = piv[j]
        if k > i:
            k = L + i - k
    return path[k]


@njit(cache=True)
def _adjacent(indptr, indices, a, b):
    for k in range(indptr[a], indptr[a + 1]):
        if indices[k] == b:
            return True
    return False


@njit(cache=True)
def _has_free(indptr, indices, pos, e):
    for k in range(indptr[e], indptr[e + 1]):
        if pos[indices[k]] == _FREE:
            return True
    return False


@njit(cache=True)
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


@njit(cache=True)
def _append(indptr, indices, path, pos, udeg, L, w):
    path[L] = w
    pos[w] = L
    for k in range(indptr[w], indptr[w + 1]):
        udeg[indices[k]] -= 1
    return L + 1


@njit(cache=True)
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


@njit(cache=True)
def _free_square(indptr, indices, pos, udeg, w):
    """Make ``w`` free (it was parked or just left the path)."""
    pos[w] = _FREE
    for k in range(indptr[w], indptr[w + 1]):
        udeg[indices[k]] += 1


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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
            key = (np.int64(udeg[w]) << np.int64(40)) - (np.int64(prio[w]) << np.int64(6)) + _below(rng, np.int64(64))
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
            if _below(rng, np.int64(8)) == 0:
                key = _below(rng, np.int64(1 << 24))  # now and then a random step
            else:
                dist = _knight_dist(coords[e, 0], coords[e, 1], gr, gc)
                key = (np.int64(dist) << np.int64(24)) + _below(rng, np.int64(1 << 24))
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


# ---------------------------------------------------------------------- Python side
def _priority(graph: KnightGraph, deadline=None) -> np.ndarray:
    """Roth's tie-break: squared distance from the board's centre (larger is taken first)."""
    return graph.centre_distance(deadline)


def _corner_square(graph: KnightGraph, colour: int | None = None, deadline=None) -> int:
    """The square nearest the top-left corner (of ``colour`` when given; fewest neighbours among equals).

    Found a slice of squares at a time, with ``deadline`` checked between slices.
    """
    best, best_key = 0, np.iinfo(np.int64).max
    step = 1 << 20
    for a in range(0, graph.n, step):
        if deadline is not None:
            deadline.check("preparing the search")
        c = graph.coords[a : a + step].astype(np.int64)
        key = (c[:, 0] + c[:, 1]) * 16 + graph.degree[a : a + step]
        if colour is not None:
            key = np.where(graph.colour[a : a + step] == colour, key, np.iinfo(np.int64).max)
        i = int(np.argmin(key))
        if key[i] < best_key:
            best, best_key = a + i, int(key[i])
    return best


def _majority_colour(graph: KnightGraph) -> int | None:
    """The colour with more squares (parity 0 or 1), or None when the counts are equal.

    An open tour of a board with unequal counts starts and ends on the
    majority colour.
    """
    even, odd = graph.board.colour_counts()
    if even == odd:
        return None
    return 0 if even > odd else 1


def _plan(graph: KnightGraph, spec: TourSpec, deadline=None) -> tuple[int, int, bool, bool]:
    """``(first, reserved, closing, flip)``: where the path starts, the square kept for its end
    (-1: none), whether the end must come back next to ``first``, and whether the path is
    reversed at the end."""
    board = graph.board
    start = None if spec.start is None else board.index(*spec.start)
    end = None if spec.end is None else board.index(*spec.end)
    if spec.closed:
        if start is not None and end is not None:
            # The closing move is end -> start: a path from start to end.
            return start, end, False, False
        # Any cycle will do: it is listed from the requested start (or so as
        # to end on the requested end) afterwards.
        return _corner_square(graph, None, deadline), -1, True, False
    if start is not None:
        return start, (-1 if end is None else end), False, False
    if end is not None:
        return end, -1, False, True
    return _corner_square(graph, _majority_colour(graph), deadline), -1, False, False


def solve_rotation(
    graph: KnightGraph,
    spec: TourSpec,
    *,
    time_limit=None,
    progress=None,
    rotations: int | None = None,
    restarts: int = DEFAULT_RESTARTS,
    depth: int = DEFAULT_DEPTH,
    seed: int | None = None,
) -> SolveResult:
    """Warnsdorff extension with Posa rotations: open or closed tours, fixed start and end.

    Parameters
    ----------
    graph : KnightGraph
    spec : TourSpec
    seed : int, optional
        Seed of every random choice, a whole number from 0 to 2**32 - 1.  None
        draws a fresh seed; the seed used is recorded in ``result.seed``, and
        passing it again repeats the run exactly.
    time_limit : float, optional
        Seconds for the whole call (graph building and the reset of every
        run included); when they run out the answer is ``unknown``.
    progress : callable, optional
        Called as ``progress(squares on the path, squares of the board)``.
    rotations : int
        Rotations a run may spend without growing its path before it stops
        (default :data:`DEFAULT_ROTATIONS`, or :data:`ROTATIONS_PER_LENGTH`
        times the board's long side when that is more).
    restarts : int
        Runs before answering ``unknown`` (default :data:`DEFAULT_RESTARTS`,
        at most :data:`MAX_RESTARTS`).
    depth : int
        Longest rotation sequence the repair search tries, 1 to 6 (default
        :data:`DEFAULT_DEPTH`).

    Returns
    -------
    SolveResult
        ``found`` with the tour, or ``unknown`` with ``stats["reason"]``
        (and ``stats["interrupted"]`` after Ctrl-C).  ``stats`` counts
        rotations, squares appended, repairs, walk steps, squares moved by
        rotations (``reversed``), squares given back to change the end's
        colour, and runs.

    Notes
    -----
    Memory: four arrays of ``n`` entries (three int32, one int64) besides the
    graph's.
    Time: see the module docstring.  The answer is ``unknown`` on boards with
    no tour (the method cannot prove that; :func:`ktsolve.solve` runs the
    cheap proofs first), and may be ``unknown`` on boards with one.  Run
    ``r`` draws from a SplitMix64 stream seeded by ``derive_seed(seed,
    "rotation", r)``, kept in an array, so the answer does not depend on how
    the driver cuts the work into chunks.

    Examples
    --------
    >>> from ktsolve import Board, KnightGraph, TourSpec
    >>> g = KnightGraph(Board(12, 12, holes=[(5, 5), (6, 7)]))
    >>> res = solve_rotation(g, TourSpec(closed=True), seed=1)
    >>> res.status.value, len(res.tour), res.seed
    ('found', 142, 1)
    """
    if rotations is None:
        rotations = max(DEFAULT_ROTATIONS, ROTATIONS_PER_LENGTH * max(graph.board.rows, graph.board.cols))
    rotations = check_int("rotations", rotations, 1, COUNT_MAX, method="rotation")
    restarts = check_int("restarts", restarts, 1, MAX_RESTARTS, method="rotation")
    depth = check_int("depth", depth, 1, _MAXD, method="rotation")
    deadline, seed = begin(time_limit, seed)
    board = graph.board
    n = graph.n
    if spec.closed and n < 3:
        return SolveResult(Status.UNKNOWN, seed=seed, stats={"reason": "a closed tour needs at least 3 squares"})
    stats: dict = {}
    with interrupt_guard():
        try:
            graph.build(deadline, coords=True)
            return _solve(graph, spec, seed, deadline, progress, rotations, restarts, depth, stats)
        except Stopped as stop:
            stats.update(stop.stats())
            return SolveResult(Status.UNKNOWN, seed=seed, stats=stats)


def _solve(graph, spec, seed, deadline, progress, rotations, restarts, depth, stats) -> SolveResult:
    board = graph.board
    n = graph.n
    first, reserved, closing, flip = _plan(graph, spec, deadline)
    if n == 1:
        return SolveResult(Status.FOUND, tour=Tour(board, np.array([first]), closed=False), seed=seed)
    if reserved == first:
        return SolveResult(Status.UNKNOWN, seed=seed,
                           stats={"reason": "the start and the end are the same square"})
    if spec.closed and reserved >= 0 and not np.isin(reserved, graph.neighbours(first)):
        return SolveResult(
            Status.UNKNOWN, seed=seed,
            stats={"reason": "the end is not a knight's move from the start, so no closed tour joins them"},
        )
    deadline.check("preparing the search")
    indptr, indices, coords = graph.indptr, graph.indices, graph.coords
    prio = _priority(graph, deadline)
    deadline.extend(warm())  # a first-run compile is not the search's time
    deadline.check("preparing the search")
    path = np.empty(n, dtype=np.int32)
    pos = np.empty(n, dtype=np.int32)
    udeg = np.empty(n, dtype=np.int32)
    state = np.zeros(_NSTATE, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    state[_TARGET] = n - 1 if reserved >= 0 else n
    state[_RESERVED] = reserved
    state[_CLOSED] = 1 if closing else 0
    state[_DEPTH] = depth
    streams = derive_seeds(seed, "rotation", 0, restarts)

    names = ("rotations", "extensions", "repairs", "walk_steps", "reversed", "given_back", "swaps")
    fields = (_ROT, _EXT, _REPAIRS, _WALK, _REVERSED, _POPS, _FLIPS)
    totals = dict.fromkeys(names, 0)
    run = {"number": 0, "reset": 0, "status": _GOING, "best": 0}

    def start_run() -> None:
        run["reset"] = 0
        run["status"] = _GOING
        rng[0] = np.uint64(int(streams[run["number"]]))
        run["number"] += 1

    def end_run() -> None:
        for name, f in zip(names, fields):
            totals[name] += int(state[f])
        run["best"] = max(run["best"], int(state[_BEST]))

    def step(k):
        """``k`` units: squares reset at the start of a run, then the search's own work units."""
        if run["reset"] < n:
            # reset the arrays for a new run, a slice at a time (a pass over n squares)
            hi = min(n, run["reset"] + k)
            _init(indptr, indices, pos, udeg, reserved, run["reset"], hi)
            done = hi - run["reset"]
            run["reset"] = hi
            if hi == n:
                _begin(indptr, indices, path, pos, udeg, state, first)
            return done, False
        status = _run(indptr, indices, coords, prio, path, pos, udeg, state, rng, k, rotations)
        spent = max(1, int(state[_SPENT]))
        if status == _GOING:
            return spent, False
        end_run()
        run["status"] = status
        if status == _STALLED and run["number"] < restarts:
            start_run()
            return spent, False
        return spent, True

    start_run()
    outcome = drive(step, units=None, deadline=deadline, progress=progress, first=1 << 14,
                    position=lambda done: (int(state[_L]), n))
    if run["status"] == _GOING:
        end_run()
    status = run["status"]
    runs = run["number"]
    stats.update(totals, runs=runs, longest=run["best"], squares=n, rotation_limit=rotations)
    if outcome.interrupted:
        stats.update(reason=f"interrupted (Ctrl-C) in run {runs}", interrupted=True)
        return SolveResult(Status.UNKNOWN, seed=seed, stats=stats)
    if status != _DONE:
        if status == _GOING:
            stats["reason"] = f"the time limit of {deadline.time_limit:g} s ran out"
        else:
            stats["reason"] = (
                f"{runs} run{'s' if runs != 1 else ''} ended without a tour (longest path "
                f"{run['best']:,} of {n:,} squares); a run stops when its end is stuck for good "
                f"or after {rotations:,} rotations without growing its path"
            )
        return SolveResult(Status.UNKNOWN, seed=seed, stats=stats)
    squares = path[::-1] if flip else path
    tour = Tour(board, squares, closed=spec.closed)
    if spec.closed:
        tour = _list_closed(tour, board, spec)
    return SolveResult(Status.FOUND, tour=tour, seed=seed, stats=stats)


def _warm_calls() -> None:
    from ..board import Board

    for spec in (TourSpec(closed=True), TourSpec(start=(0, 0), end=(4, 1))):
        solve_rotation(KnightGraph(Board(6, 6)), spec, seed=1, restarts=1)


def warm() -> float:
    """Compile (or load from numba's cache) the rotation kernels; the seconds spent compiling.

    Examples
    --------
    >>> warm() >= 0.0
    True
    """
    return jit.prepare("rotation", _warm_calls, (_init, _begin, _run))


def _list_closed(tour: Tour, board, spec: TourSpec) -> Tour:
    """The cycle listed as asked: from ``spec.start``, or ending on ``spec.end``."""
    s = None if spec.start is None else board.index(*spec.start)
    e = None if spec.end is None else board.index(*spec.end)
    return Tour(board, list_cycle(tour.squares, s, e), closed=True)

