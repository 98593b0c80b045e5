"""Numba kernels of divide and conquer: lay blocks on the board, then walk the tour.

The board's tour is held as a successor array ``nxt`` (int32, one entry per
square, -1 after the last square of an open tour).  :func:`fill_successors`
copies every block's successor table to its place on the board and then
overwrites the entries of the joining moves; :func:`walk` follows ``nxt``
from the start square and writes the square numbers in visiting order,
mapped back through a reflection or transposition of the board.  Both run in
time linear in the number of squares and allocate nothing.

Kept in a file of their own so that ``ktsolve`` starts without numba; the
method imports this module when it runs.
"""

from __future__ import annotations

import numba as nb
import numpy as np

__all__ = ["fill_successors", "walk"]


@nb.njit(cache=True)
def fill_successors(nxt, ncols, r0, c0, btype, th, tw, tptr, tsr, tsc, src, dst):  # pragma: no cover
    """Write every block's successors into ``nxt`` and then the joining moves.

    Parameters
    ----------
    nxt : int32 array, one entry per square of the board (row-major)
    ncols : int, columns of the board
    r0, c0, btype : int32 arrays, top-left square and type of every block
    th, tw, tptr : int32 arrays, height, width and offset into ``tsr``/``tsc`` of every type
    tsr, tsc : int16 arrays, local row and column of the successor of every
        square of every type, -1 at the end of a piece
    src, dst : int64 arrays, moves ``src -> dst`` that replace the blocks' own
    """
    for b in range(r0.size):
        t = btype[b]
        h = th[t]
        w = tw[t]
        p = tptr[t]
        base = np.int64(r0[b]) * ncols + c0[b]
        for lr in range(h):
            row = base + lr * ncols
            for lc in range(w):
                k = p + lr * w + lc
                sr = tsr[k]
                if sr < 0:
                    nxt[row + lc] = -1
                else:
                    nxt[row + lc] = base + np.int64(sr) * ncols + tsc[k]
    for j in range(src.size):
        nxt[src[j]] = dst[j]


@nb.njit(cache=True)
def walk(nxt, start, total, out, nrows, ncols, flip_r, flip_c, transpose, out_cols, reverse):  # pragma: no cover
    """Follow ``nxt`` from ``start`` for ``total`` squares; return how many were visited.

    Square ``q`` of the built board (``nrows x ncols``) is written as the
    square of the original board it stands for: rows and columns are flipped
    first (``flip_r``, ``flip_c``), then swapped (``transpose``); the
    original board has ``out_cols`` columns.  With ``reverse`` the squares
    are written from the end of ``out`` backwards.  The walk stops early at
    a -1 (the end of an open path).
    """
    q = np.int64(start)
    plain = not (flip_r or flip_c or transpose)
    for k in range(total):
        if q < 0:
            return k
        if plain:
            v = q
        else:
            r = q // ncols
            c = q - r * ncols
            if flip_r:
                r = nrows - 1 - r
            if flip_c:
                c = ncols - 1 - c
            if transpose:
                v = c * out_cols + r
            else:
                v = r * out_cols + c
        if reverse:
            out[total - 1 - k] = v
        else:
            out[k] = v
        q = nxt[q]
    return total
