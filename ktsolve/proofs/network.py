"""The matching proof's network as CSR arrays, built from the knight graph's own against the clock.

:func:`network_csr` adds to the knight graph's CSR arrays the extra squares
that close an open tour and sorts every row, in three linear passes that
each run range by range, so that a race's cancel, a time limit or Ctrl-C
is seen within a range however large the board.

Examples
--------
>>> import numpy as np
>>> g_indptr, g_indices = np.array([0, 1, 2], dtype=np.int32), np.array([1, 0], dtype=np.int32)
>>> indptr, indices, twin = network_csr(g_indptr, g_indices, [np.array([0])], compiled=False)
>>> indptr.tolist(), indices.tolist(), twin.tolist()
([0, 2, 3, 4], [1, 2, 0, 0], [2, 3, 0, 1])
"""

from __future__ import annotations

import numpy as np

from ..driver import Deadline

__all__ = ["network_csr", "NETWORK_PHASE"]

#: What a stop while the network is built names.
NETWORK_PHASE = "building the matching proof's network"


def network_csr(g_indptr, g_indices, extras=(), link: bool = False, clock: Deadline | None = None, *,
                compiled: bool = True):
    """The knight graph's CSR arrays (``g_indptr``, ``g_indices``: both directions of every move, rows in any
    order) with extra squares, every row sorted.

    ``extras[k]`` lists, increasing, the squares joined to the extra square
    numbered ``n + k`` (``n`` squares); ``link`` joins the two extra squares
    to each other.  Returns ``(indptr, indices, twin)``, int32: each node's
    row lists its neighbours in increasing order and ``twin[p]`` is the
    entry of the reverse move (no array names each entry's node: at 10^7
    squares it was 320 MB, and in a process that large a fresh megabyte cost
    about 2 ms).  The same arrays as sorting every directed move by
    ``(source, target)``, in linear time: the graph's rows copied with room
    for the extra squares, which number above every square and so close the
    rows they join; each square's row (at most eight moves) sorted on its
    own; each entry's reverse found by binary search in the other end's
    row.  The passes (kernels of :mod:`._kernels`) run range by range,
    ``clock`` checked between ranges
    (:func:`~ktsolve.factor.chunks.in_chunks`).  Taking the graph's rows as
    they are, rather than listing its moves and placing them by a counting
    sort, took the network of the 10^7-square pair board from 1.83 s to
    1.32 s, and leaving out the array of entries' nodes to 0.90 s (closed
    question, medians of 5).  With ``compiled`` False the kernels run as
    plain Python (the matching proof's choice on small boards, where
    loading them would cost more than it saves).
    """
    # numba's modules (ktsolve.factor's package loads its kernels too), when a network is first built: the
    # listing commands import neither
    from ..factor.chunks import in_chunks
    from . import _kernels

    phase = NETWORK_PHASE
    clock = Deadline.of(clock)
    copy_rows, sort_rows, twins = (getattr(_kernels, name) if compiled else getattr(_kernels, name).py_func
                                   for name in ("csr_copy_rows", "csr_sort_rows", "csr_twins"))
    n = g_indptr.size - 1
    extras = [np.asarray(x, dtype=np.int32) for x in extras]
    if link and len(extras) != 2:
        raise ValueError("only two extra squares are linked")
    clock.check(phase)
    deg = np.diff(g_indptr)
    size = np.zeros(n + len(extras) + 1, dtype=np.int64)
    size[1:n + 1] = deg
    for k, joined in enumerate(extras):
        size[1 + joined] += 1
        size[1 + n + k] = joined.size + int(link)
    np.cumsum(size, out=size)
    if size[-1] > np.iinfo(np.int32).max:
        raise ValueError("the matching proof's network has too many moves for int32 arrays")
    indptr = size.astype(np.int32)
    del size
    indices = np.empty(int(indptr[-1]), dtype=np.int32)
    in_chunks(n, lambda a, b: copy_rows(g_indptr, g_indices, indptr, indices, a, b), clock, phase, first=1 << 16)
    clock.check(phase)
    if extras:
        # each extra square after the square's own moves, in the order of the extra squares
        fill = (indptr[:n] + deg).astype(np.int64)
        for k, joined in enumerate(extras):
            indices[fill[joined]] = n + k
            fill[joined] += 1
            head = int(indptr[n + k])
            indices[head:head + joined.size] = joined
            if link:
                indices[head + joined.size] = n + 1 - k
        del fill
    del deg
    # the extra squares' rows are sorted already
    in_chunks(n, lambda a, b: sort_rows(indptr, indices, a, b), clock, phase, first=1 << 16)
    twin = np.empty(indices.size, dtype=np.int32)
    in_chunks(n + len(extras), lambda a, b: twins(indptr, indices, twin, a, b), clock, phase, first=1 << 14)
    return indptr, indices, twin
