"""The readable reference of random_holed_board's draw: plain Python over a 2-D grid.

This is the draw ktsolve used before its numba kernels (``ktsolve._generate_kernels``):
the holes of one colour class are tried in the order of ``rng.permutation`` of the
class's cells, and a candidate is kept when every neighbour keeps at least two
neighbours and no square gets more than two neighbours of degree two.
``tests/test_generate_kernels.py`` checks that the kernels give the same boards.
"""

from __future__ import annotations

import numpy as np

from ktsolve import Board, KnightGraph
from ktsolve.generate import _ATTEMPTS, _hole_counts
from ktsolve.graph import KNIGHT_MOVES


def degree_grid(rows: int, cols: int) -> np.ndarray:
    deg = np.zeros((rows, cols), dtype=np.int32)
    rr, cc = np.mgrid[0:rows, 0:cols]
    for dr, dc in KNIGHT_MOVES.tolist():
        r2, c2 = rr + dr, cc + dc
        deg += ((r2 >= 0) & (r2 < rows) & (c2 >= 0) & (c2 < cols)).astype(np.int32)
    return deg


def draw(rows: int, cols: int, n0: int, n1: int, rng: np.random.Generator) -> list[int] | None:
    deg = degree_grid(rows, cols)
    alive = np.ones((rows, cols), dtype=bool)
    moves = KNIGHT_MOVES.tolist()

    def neighbours(r, c):
        for dr, dc in moves:
            r2, c2 = r + dr, c + dc
            if 0 <= r2 < rows and 0 <= c2 < cols and alive[r2, c2]:
                yield r2, c2

    def forced(r, c):
        return sum(1 for r2, c2 in neighbours(r, c) if deg[r2, c2] == 2)

    flat = np.arange(rows * cols)
    parity = (flat // cols + flat % cols) % 2
    chosen: list[int] = []
    for want, par in ((n0, 0), (n1, 1)):
        if want == 0:
            continue
        order = rng.permutation(flat[parity == par])
        got = 0
        for f in order.tolist():
            r, c = divmod(f, cols)
            nbs = list(neighbours(r, c))
            if any(deg[r2, c2] <= 2 for r2, c2 in nbs):
                continue
            alive[r, c] = False
            for r2, c2 in nbs:
                deg[r2, c2] -= 1
            bad = any(deg[r2, c2] == 2 and any(forced(r3, c3) > 2 for r3, c3 in neighbours(r2, c2))
                      for r2, c2 in nbs)
            if bad:
                alive[r, c] = True
                for r2, c2 in nbs:
                    deg[r2, c2] += 1
                continue
            chosen.append(f)
            got += 1
            if got == want:
                break
        if got < want:
            return None
    return chosen


def connected(board: Board) -> bool:
    import networkx as nx

    return nx.is_connected(KnightGraph(board).to_networkx())


def random_holed_board(rows: int, cols: int, k: int, *, closed: bool, seed: int) -> Board | None:
    """The reference draw of ``k`` holes (a whole number), or None where it gives up."""
    n0, n1 = _hole_counts(rows, cols, k, closed)
    rng = np.random.default_rng(seed)
    for _ in range(_ATTEMPTS):
        chosen = draw(rows, cols, n0, n1, rng)
        if chosen is None:
            continue
        r, c = np.divmod(np.asarray(chosen, dtype=np.int64), cols)
        board = Board(rows, cols, np.stack([r, c], axis=1))
        if connected(board):
            return board
    return None
