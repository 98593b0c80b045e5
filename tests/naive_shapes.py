"""Readable references of ``ktsolve._shapes_kernels``: the same shapes painted in plain Python.

Each replays the kernel's draws with the plain-Python SplitMix64 of
``tests/naive_splitmix.py``, so ``tests/test_shapes.py`` can ask for the
very same squares.
"""

from __future__ import annotations

import math

import numpy as np

from naive_splitmix import SplitMix64


def maze_tree(n_rows: int, n_cols: int, state: int) -> tuple[set, set]:
    """The openings of the depth-first maze: cells that open to the right, and cells that open downwards."""
    rng = SplitMix64(state)
    start = rng.below(n_rows * n_cols)
    seen = {divmod(start, n_cols)}
    stack = [divmod(start, n_cols)]
    east, south = set(), set()
    while stack:
        i, j = stack[-1]
        options = [(di, dj) for di, dj in ((-1, 0), (0, 1), (1, 0), (0, -1))
                   if 0 <= i + di < n_rows and 0 <= j + dj < n_cols and (i + di, j + dj) not in seen]
        if not options:
            stack.pop()
            continue
        di, dj = options[rng.below(len(options))]
        nxt = (i + di, j + dj)
        if di:
            south.add(min((i, j), nxt))
        else:
            east.add(min((i, j), nxt))
        seen.add(nxt)
        stack.append(nxt)
    return east, south


def maze(rows: int, cols: int, corridor: int, wall: int, state: int) -> np.ndarray:
    step = corridor + wall
    n_rows, n_cols = (rows - wall) // step, (cols - wall) // step
    east, south = maze_tree(n_rows, n_cols, state)
    out = np.zeros((rows, cols), dtype=bool)
    for i in range(n_rows):
        for j in range(n_cols):
            r0, c0 = wall + i * step, wall + j * step
            out[r0:r0 + corridor, c0:c0 + corridor] = True
            if (i, j) in east:
                out[r0:r0 + corridor, c0 + corridor:c0 + step] = True
            if (i, j) in south:
                out[r0 + corridor:r0 + step, c0:c0 + corridor] = True
    return out


def rings(rows: int, cols: int, width: int, gap: int) -> np.ndarray:
    out = np.zeros((rows, cols), dtype=bool)
    centre = ((rows - 1) / 2, (cols - 1) / 2)
    for r in range(rows):
        for c in range(cols):
            x = (2 * r - rows + 1) ** 2 + (2 * c - cols + 1) ** 2  # (2d)^2, whole
            d = math.dist((r, c), centre)
            assert math.isqrt(x) // 2 == math.floor(d) or abs(d - round(d)) < 1e-9
            out[r, c] = 2 * d <= min(rows, cols) and math.isqrt(x) // 2 % (width + gap) < width
    return out


def cheese(rows: int, cols: int, target: int, r1: float, r2: float, state: int) -> tuple[np.ndarray, int]:
    rng = SplitMix64(state)
    out = np.ones((rows, cols), dtype=bool)
    holes = disks = 0
    while holes < target:
        cr, cc = rng.uniform() * rows, rng.uniform() * cols
        rad = r1 + rng.uniform() * (r2 - r1)
        disks += 1
        for r in range(max(0, math.ceil(cr - rad)), min(rows - 1, math.floor(cr + rad)) + 1):
            for c in range(max(0, math.ceil(cc - rad)), min(cols - 1, math.floor(cc + rad)) + 1):
                if (r - cr) * (r - cr) + (c - cc) * (c - cc) <= rad * rad and out[r, c]:
                    out[r, c] = False
                    holes += 1
    return out, disks
