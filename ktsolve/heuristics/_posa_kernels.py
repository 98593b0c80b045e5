"""The numba kernels of the colonies' local search: Warnsdorff extension and the choice of a Posa rotation.

``local_search="rotation"`` (:mod:`.aco`, :mod:`.iaco`) repairs each cycle's
longest walk in :func:`~._colony.posa_repair`, which calls these two kernels
from Python: :func:`posa_extend` grows the path from its end by
Warnsdorff's rule, :func:`posa_pivot` chooses the rotation that gives the
path a new end.  The rotation itself is
:func:`ktsolve.heuristics.rotation.rotate`, also called from Python.  No
kernel here calls a kernel of another file except the shared generator
(:mod:`ktsolve._splitmix`), as ``tests/test_kernel_cache.py`` requires.

Arrays: ``tpad`` is the move table padded to 8 columns with the sentinel
square ``n``; ``pos[s]`` the index of square ``s`` on the path, -1 for a
free square, any other negative value for a square kept off the path.
"""

from __future__ import annotations

from numba import njit

from .._grid_kernels import adjacent
from .._splitmix import uniform

__all__ = ["posa_extend", "posa_pivot"]


@njit(cache=True, nogil=True)
def _free_degree(tpad, pos, d):
    """Free squares (``pos == -1``) a move away from ``d``."""
    n = tpad.shape[0]
    k = 0
    for j in range(8):
        e = tpad[d, j]
        if e < n and pos[e] == -1:
            k += 1
    return k


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
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
            if (goal < 0 and _free_degree(tpad, pos, u) > 0) or (goal >= 0 and adjacent(tpad, goal, u)):
                good += 1
    if total == 0:
        return -1
    want_good = good > 0
    k = int(uniform(rng) * (good if want_good else total))
    for j in range(8):
        d = tpad[e, j]
        if d < n and 0 <= pos[d] < length - 2:
            u = path[pos[d] + 1]
            ok = (goal < 0 and _free_degree(tpad, pos, u) > 0) or (goal >= 0 and adjacent(tpad, goal, u))
            if ok or not want_good:
                if k == 0:
                    return pos[d]
                k -= 1
    return -1

