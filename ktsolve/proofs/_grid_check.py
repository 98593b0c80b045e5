"""The squares of a board and their knight's moves as plain Python sets, for the checkers.

Built from the board's mask and the eight jumps, not from the finders' graph
arrays, so a checker and the finder it checks share no code.
"""

from __future__ import annotations

import numpy as np

__all__ = ["Grid", "JUMPS", "square_moves"]

JUMPS = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))


def square_moves(board, rc: tuple[int, int]) -> list[tuple[int, int]]:
    """The squares ``(row, col)`` a knight's move from ``rc`` on ``board`` (holes and the edge left out)."""
    r, c = rc
    return [(r + dr, c + dc) for dr, dc in JUMPS
            if board.contains(r + dr, c + dc) and not board.is_hole(r + dr, c + dc)]


class Grid:
    """The squares of a board (numbered row by row, holes skipped), their moves as sets and their colours."""

    def __init__(self, where):
        board = getattr(where, "board", where)
        self.board = board
        n = board.n_squares
        self.n = n
        rows, cols = board.rows, board.cols
        mask = board.mask
        number = np.full((rows, cols), -1, dtype=np.int64)
        number[mask] = np.arange(n)
        coords = np.argwhere(mask)
        adj: list[set[int]] = [set() for _ in range(n)]
        for dr, dc in JUMPS:
            r2, c2 = coords[:, 0] + dr, coords[:, 1] + dc
            ok = (r2 >= 0) & (r2 < rows) & (c2 >= 0) & (c2 < cols)
            src = np.flatnonzero(ok)
            dst = number[r2[ok], c2[ok]]
            for a, b in zip(src[dst >= 0].tolist(), dst[dst >= 0].tolist()):
                adj[a].add(b)
        self.adj = adj
        self.colour = ((coords[:, 0] + coords[:, 1]) % 2).tolist()

    def neighbours(self, v: int) -> set[int]:
        return self.adj[v]
