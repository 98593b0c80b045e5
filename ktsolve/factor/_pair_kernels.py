"""Numba kernels that choose which squares the 2-factor restoration pairs: a scan for the squares short of
links, and a pairing of the two colours along a space-filling curve.

They read the ``links`` and ``alive`` arrays of :mod:`ktsolve.factor._restore_kernels` (``NONE``, -1:
an empty slot, from the shared :mod:`ktsolve._grid_kernels`) and change nothing; the searches that act on the pairs are there.  Their tests
(``tests/heuristics/test_splice_kernels.py``) check them against numpy and by hand.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from .._grid_kernels import NONE

__all__ = ["short_among", "pair_along_curve"]


@nb.njit(cache=True, nogil=True)
def short_among(cells, links, alive):  # pragma: no cover
    """Of ``cells`` (int64), the squares with an empty slot (in the given order) and how many each has."""
    count = 0
    for i in range(cells.size):
        f = cells[i]
        if alive[f] and (links[f, 0] == NONE or links[f, 1] == NONE):
            count += 1
    out = np.empty(count, dtype=np.int64)
    miss = np.empty(count, dtype=np.int8)
    k = 0
    for i in range(cells.size):
        f = cells[i]
        if alive[f] and (links[f, 0] == NONE or links[f, 1] == NONE):
            out[k] = f
            miss[k] = (links[f, 0] == NONE) + (links[f, 1] == NONE)
            k += 1
    return out, miss


@nb.njit(cache=True, nogil=True)
def pair_along_curve(cells, colour, order):  # pragma: no cover
    """Pair cells of colour 0 with cells of colour 1 along ``order`` (their order on a space-filling
    curve) like brackets: a cell meets the last unpaired cell before it when that one is of the other
    colour.  Returns ``partner`` (int64 per cell, -1 where none).
    """
    n = cells.size
    partner = np.full(n, -1, dtype=np.int64)
    stack = np.empty(n, dtype=np.int64)
    top = 0
    for t in range(n):
        i = order[t]
        if top > 0 and colour[stack[top - 1]] != colour[i]:
            top -= 1
            j = stack[top]
            partner[i] = cells[j]
            partner[j] = cells[i]
        else:
            stack[top] = i
            top += 1
    return partner
