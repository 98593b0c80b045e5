"""Numba kernels of :func:`ktsolve.tour.validate` and of the text matrix of long knight's tours.

A tour is checked in one pass over its squares: each square is range
checked, marked in a byte per square of the board (a repeat is a square
already marked), and its flat position ``row * cols + col`` is compared with
the previous one for a knight's move.  On a board with holes the flat
positions come from a table of one int32 per square, built in one pass over
the sorted hole positions, so neither coordinates nor the knight graph are
ever built.  The pass stops at the first fault, so the verdict is the same
as the plain numpy walk's (the slow, readable reference in the tests).

:func:`step_grid` and :func:`format_cells` write a long tour as the text
matrix of :func:`ktsolve.render.write_tour_matrix` in one pass each, the
same bytes as its numpy expressions (the reference in the tests).

Kept in a file of its own so that ``ktsolve`` starts without numba.
"""

from __future__ import annotations

import numba as nb
import numpy as np

__all__ = ["square_flats", "walk_tour", "step_grid", "format_cells", "OK", "OUT_OF_RANGE", "REPEAT", "ILLEGAL"]

#: Codes of :func:`walk_tour`'s first fault.
OK = 0
OUT_OF_RANGE = 1
REPEAT = 2
ILLEGAL = 3


# nogil=True: a racing lane validates its tour while the other lane may still be at work (ktsolve.race).
@nb.njit(cache=True, nogil=True)
def square_flats(hole_flat, size):  # pragma: no cover
    """int32 flat position of every square (not hole) of a rectangle of ``size`` cells, in square order.

    ``hole_flat`` is sorted (int64); the squares between two holes are a run of positions.
    """
    out = np.empty(size - hole_flat.size, dtype=np.int32)
    i = 0
    lo = 0  # first cell after the last hole
    for j in range(hole_flat.size + 1):
        hi = hole_flat[j] if j < hole_flat.size else size
        for f in range(lo, hi):
            out[i] = f
            i += 1
        lo = hi + 1
    return out


@nb.njit(cache=True, nogil=True)
def walk_tour(squares, flats, n_squares, cols, seen):  # pragma: no cover
    """First fault walking ``squares``: ``(code, step)``, 0-based step; ``(OK, n)`` when there is none.

    ``flats`` maps square numbers to flat positions (empty: they are the
    same, a board without holes); ``seen`` (uint8, one per square, zeros)
    is left marked on every square walked.  At a step, a square out of
    range comes first, then a repeat, then an illegal move from the step
    before.
    """
    full = flats.size == 0
    prev = np.int64(0)
    for k in range(squares.size):
        s = np.int64(squares[k])
        if s < 0 or s >= n_squares:
            return OUT_OF_RANGE, k
        if seen[s]:
            return REPEAT, k
        seen[s] = 1
        f = s if full else np.int64(flats[s])
        if k > 0:
            d = f - prev
            dc = f % cols - prev % cols
            adc = abs(dc)
            adr = abs(d - dc)
            if not ((adc == 1 and adr == 2 * cols) or (adc == 2 and adr == cols)):
                return ILLEGAL, k
        prev = f
    return OK, squares.size


@nb.njit(cache=True, nogil=True)
def step_grid(squares, flats, size):  # pragma: no cover
    """int32 over the ``size`` cells of the rectangle: the 1-based step of every square of ``squares``, 0
    elsewhere; ``flats`` is :func:`square_flats`'s table, or empty on a board without holes."""
    out = np.zeros(size, dtype=np.int32)
    if flats.size == 0:
        for i in range(squares.size):
            out[squares[i]] = i + 1
    else:
        for i in range(squares.size):
            out[flats[squares[i]]] = i + 1
    return out


@nb.njit(cache=True, nogil=True)
def format_cells(cells, width, out):  # pragma: no cover
    """Rows of step numbers ``cells`` (2-D) as text bytes in ``out`` (``rows x cols x (width + 1)`` uint8):
    each number right-aligned in ``width`` characters, 0 as ``width`` times ``#``, a space after every cell
    but the last of a row, which gets a newline."""
    rows, cols = cells.shape
    for r in range(rows):
        for c in range(cols):
            v = cells[r, c]
            if v == 0:
                for pos in range(width):
                    out[r, c, pos] = 35  # '#'
            else:
                pos = width - 1
                while pos >= 0:
                    if v > 0:
                        out[r, c, pos] = 48 + v % 10
                        v //= 10
                    else:
                        out[r, c, pos] = 32
                    pos -= 1
            out[r, c, width] = 10 if c == cols - 1 else 32
    return out
