"""Numba kernels of divide and conquer: lay blocks on the board, then walk the tour.

The board's tour is held as a successor array ``nxt`` (int32, one entry per
square, -1 after the last square of an open tour).  :func:`fill_blocks`
copies the successor tables of a range of blocks to their places on the
board (the joining moves then overwrite their entries, see
:func:`fill_successors`); :func:`walk_part` follows ``nxt`` for a range of
steps and writes the square numbers in visiting order, mapped back through
a reflection or transposition of the board.  Both run in time linear in the
squares they touch and allocate nothing, and both work on a part of the
board at a time, so the method can look at the clock between parts.

Kept in a file of their own so that ``ktsolve`` starts without numba; the
method imports this module when it runs.

Examples
--------
>>> import numpy as np
>>> nxt = np.array([2, 0, 1, -1], dtype=np.int32)      # 3 -> end, 0 -> 2 -> 1 -> 0
>>> out = np.empty(3, dtype=np.int32)
>>> walk(nxt, 0, 3, out, 2, 2, False, False, False, 2, False), out.tolist()
(3, [0, 2, 1])
"""

from __future__ import annotations

import numba as nb
import numpy as np

__all__ = ["fill_blocks", "fill_successors", "walk_part", "walk"]


@nb.njit(cache=True, nogil=True)
def fill_blocks(nxt, ncols, r0, c0, btype, th, tw, tptr, tsr, tsc, b0, b1):  # pragma: no cover
    """Write the successors of blocks ``b0 .. b1 - 1`` into ``nxt``; returns the squares written.

    Parameters
    ----------
    nxt : int32 array, one entry per square of the board (row-major)
    ncols : int, columns of the board
    r0, c0, btype : int32 arrays, top-left square and type of every block
    th, tw, tptr : int32 arrays, height, width and offset into ``tsr``/``tsc`` of every type
    tsr, tsc : int16 arrays, local row and column of the successor of every
        square of every type, -1 at the end of a piece
    b0, b1 : int, the range of blocks

    Examples
    --------
    >>> nxt = np.zeros(4, dtype=np.int32)            # one 1 x 4 "block": 0 -> 1 -> 2 -> 3, end
    >>> one = np.zeros(1, dtype=np.int32)
    >>> tsr = np.array([0, 0, 0, -1], dtype=np.int16)
    >>> tsc = np.array([1, 2, 3, -1], dtype=np.int16)
    >>> width = np.array([4], dtype=np.int32)
    >>> int(fill_blocks(nxt, 4, one, one.copy(), one.copy(), one + 1, width, one.copy(), tsr, tsc, 0, 1))
    4
    >>> nxt.tolist()
    [1, 2, 3, -1]
    """
    written = 0
    for b in range(b0, b1):
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
        written += h * w
    return written


@nb.njit(cache=True, nogil=True)
def walk_part(nxt, q, k0, k1, total, out, nrows, ncols, flip_r, flip_c, transpose, out_cols, reverse):  # pragma: no cover
    """Follow ``nxt`` from square ``q`` for steps ``k0 .. k1 - 1``; returns ``(next square, steps reached)``.

    Square ``q`` of the built board (``nrows x ncols``) is written as the
    square of the original board it stands for: rows and columns are flipped
    first (``flip_r``, ``flip_c``), then swapped (``transpose``); the
    original board has ``out_cols`` columns.  With ``reverse`` step ``k``
    is written to ``out[total - 1 - k]``.  The walk stops early at a -1 (the
    end of an open path): then the steps reached are fewer than ``k1``.

    Examples
    --------
    >>> nxt = np.array([2, 0, 1, -1], dtype=np.int32)
    >>> out = np.zeros(3, dtype=np.int32)
    >>> q, reached = walk_part(nxt, 0, 0, 2, 3, out, 2, 2, False, False, False, 2, False)
    >>> int(q), int(reached), out[:2].tolist()
    (1, 2, [0, 2])
    """
    q = np.int64(q)
    plain = not (flip_r or flip_c or transpose)
    for k in range(k0, k1):
        if q < 0:
            return q, k
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
    return q, k1


def fill_successors(nxt, ncols, r0, c0, btype, th, tw, tptr, tsr, tsc, src, dst) -> None:
    """Every block's successors (:func:`fill_blocks` over all blocks), then the joining moves ``src -> dst``.

    Examples
    --------
    >>> nxt = np.zeros(4, dtype=np.int32)
    >>> one = np.zeros(1, dtype=np.int32)
    >>> tsr = np.array([0, 0, 0, -1], dtype=np.int16)
    >>> tsc = np.array([1, 2, 3, -1], dtype=np.int16)
    >>> fill_successors(nxt, 4, one, one.copy(), one.copy(), one + 1, one + 4, one.copy(), tsr, tsc,
    ...                 np.array([3]), np.array([0]))   # then close 3 -> 0
    >>> nxt.tolist()
    [1, 2, 3, 0]
    """
    fill_blocks(nxt, ncols, r0, c0, btype, th, tw, tptr, tsr, tsc, 0, r0.size)
    nxt[src] = dst


def walk(nxt, start, total, out, nrows, ncols, flip_r, flip_c, transpose, out_cols, reverse) -> int:
    """The whole walk from ``start`` (:func:`walk_part` over every step); returns the steps reached.

    Examples
    --------
    >>> out = np.zeros(3, dtype=np.int32)
    >>> walk(np.array([2, 0, 1, -1], dtype=np.int32), 0, 3, out, 2, 2, False, False, False, 2, True), out.tolist()
    (3, [1, 2, 0])
    """
    return int(walk_part(nxt, start, 0, total, total, out, nrows, ncols, flip_r, flip_c, transpose, out_cols,
                         reverse)[1])
