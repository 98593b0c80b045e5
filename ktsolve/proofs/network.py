"""The matching proof's network as CSR arrays, built against the clock.

:func:`network_csr` turns a list of undirected edges into the arrays the
matching proof's kernels read (:mod:`ktsolve.proofs.matching`), in four
linear passes that each run range by range, so that a race's cancel, a time
limit or Ctrl-C is seen within a range however large the board.

Examples
--------
>>> import numpy as np
>>> indptr, indices, rows, twin = network_csr(np.array([0, 0], dtype=np.int32), np.array([2, 1], dtype=np.int32), 3,
...                                           compiled=False)
>>> indptr.tolist(), indices.tolist(), rows.tolist(), twin.tolist()
([0, 2, 3, 4], [1, 2, 0, 0], [0, 0, 1, 2], [2, 3, 0, 1])
"""

from __future__ import annotations

import numpy as np

from ..driver import Deadline

__all__ = ["network_csr", "NETWORK_PHASE"]

#: What a stop while the network is built names.
NETWORK_PHASE = "building the matching proof's network"


def network_csr(src, dst, n: int, clock: Deadline | None = None, *, compiled: bool = True):
    """The CSR arrays of the undirected edges ``(src[i], dst[i])`` on ``n`` nodes, both directions.

    Returns ``(indptr, indices, rows, twin)``, int32: each node's row lists its neighbours in increasing
    order, ``rows[p]`` is the node of entry ``p`` and ``twin[p]`` the entry of the reverse move.  The same
    arrays as sorting every directed edge by ``(source, target)``, in linear time: a counting sort by
    source, then each row sorted on its own, then each entry's reverse found by binary search in the other
    end's row.  The four passes (kernels of :mod:`._kernels`) run range by range, ``clock`` checked between
    ranges (:func:`~ktsolve.factor.chunks.in_chunks`): on 10^7 squares they take about two seconds, which a
    race's cancel would otherwise wait for.  With ``compiled`` False the kernels run as plain Python (the
    matching proof's choice on small boards, where loading them would cost more than it saves).
    """
    # numba's modules (ktsolve.factor's package loads its kernels too), when a network is first built: the
    # listing commands import neither
    from ..factor.chunks import in_chunks
    from . import _kernels

    phase = NETWORK_PHASE
    clock = Deadline.of(clock)
    m = src.size
    counting, place, sort_rows, twins = (getattr(_kernels, name) if compiled else getattr(_kernels, name).py_func
                                         for name in ("csr_count", "csr_place", "csr_sort_rows", "csr_twins"))
    indptr = np.zeros(n + 1, dtype=np.int32)
    in_chunks(m, lambda a, b: counting(src, dst, indptr, a, b), clock, phase, first=1 << 16)
    np.cumsum(indptr, out=indptr)
    fill = indptr[:n].copy()
    indices = np.empty(2 * m, dtype=np.int32)
    in_chunks(m, lambda a, b: place(src, dst, indices, fill, a, b), clock, phase, first=1 << 16)
    del fill
    rows = np.empty(2 * m, dtype=np.int32)
    in_chunks(n, lambda a, b: sort_rows(indptr, indices, rows, a, b), clock, phase, first=1 << 16)
    twin = np.empty(2 * m, dtype=np.int32)
    in_chunks(2 * m, lambda a, b: twins(indptr, indices, rows, twin, a, b), clock, phase, first=1 << 16)
    return indptr, indices, rows, twin
