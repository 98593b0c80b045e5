"""The arrays every walker of the colonies, the GA and the bee colony reads, and its random state.

The walk kernels (:mod:`._colony_kernels`, :mod:`._ga_kernels`, :mod:`._abc_kernels`) step through a
padded move table; a question's fixed ends are square numbers; every stream starts from a seed word that
SplitMix64 mixes.  These three pieces stand below :mod:`._colony` and :mod:`._seeding`, which both use them.
"""

from __future__ import annotations

import numpy as np

from ..graph import KnightGraph
from ..tour import TourSpec

__all__ = ["spec_squares", "walk_arrays", "seed_state"]


def spec_squares(graph: KnightGraph, spec: TourSpec) -> tuple[int, int]:
    """Square numbers of the fixed start and end (-1 where none is fixed)."""
    b = graph.board
    s = -1 if spec.start is None else b.index(*spec.start)
    e = -1 if spec.end is None else b.index(*spec.end)
    return s, e


def walk_arrays(graph: KnightGraph) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(tpad, full, rev)`` for the walk kernels.

    ``tpad`` (``n x 8`` int32) is ``graph.table`` with ``n`` for "no move"
    (and extra columns of ``n`` for leapers with fewer than 8 moves), ``full``
    (``n + 1`` uint8) the bit set of the moves of each square (0 for the
    sentinel), ``rev[j]`` the move that undoes move ``j``.
    """
    table = np.ascontiguousarray(graph.table, dtype=np.int32)
    n, k = table.shape
    if k > 8:
        raise ValueError(f"the walk kernel handles at most 8 moves per square, not {k}")
    tpad = np.full((n, 8), n, dtype=np.int32)
    tpad[:, :k] = np.where(table < 0, n, table)
    bits = (tpad < n).astype(np.uint8) << np.arange(8, dtype=np.uint8)
    full = np.zeros(n + 1, dtype=np.uint8)
    full[:n] = bits.sum(axis=1, dtype=np.uint8)
    mv = graph.moves.tolist()
    rev = np.zeros(8, dtype=np.int32)
    rev[:k] = [mv.index([-a, -b]) for a, b in mv]
    return tpad, full, rev


def seed_state(seed: int) -> np.ndarray:
    """The generator state (one uint64) for a seed: the seed itself, as SplitMix64 mixes it."""
    return np.array([seed], dtype=np.uint64)
