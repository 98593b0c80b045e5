"""Dense holed boards at the exact frontier, and the plain CP-SAT model they are measured against.

The boards: starting from the full ``n x n`` board, squares are visited in a
random order (numpy's PCG64 from the seed) and a square is removed when every
square left keeps at least two knight's moves, until the wanted share of
squares are holes.  For a closed tour the colours are kept balanced: a square
is removed only from a colour that has at least as many squares left as the
other, and the draw stops at the first balanced count at or past the share.
The degree condition is the cheapest necessary one, so these boards pass the
quick proofs and reach the searches.

The baseline is the 40-line model a CP-SAT user writes first: one Boolean per
directed knight's move, ``add_circuit`` over the free squares (and a dummy
node joining the ends of an open tour), two workers, nothing else.

Used by ``bench_frontier.py`` and by the tests of the exact frontier.
"""

from __future__ import annotations

import numpy as np

MOVES = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


def dense_holes(n: int, share: float, seed: int, *, closed: bool = True) -> list[tuple[int, int]]:
    """The holes of one dense board: ``(row, col)`` pairs, see the module docstring."""
    rng = np.random.default_rng(seed)
    free = np.ones((n, n), dtype=bool)
    deg = np.zeros((n, n), dtype=np.int32)
    for r in range(n):
        for c in range(n):
            deg[r, c] = sum(0 <= r + dr < n and 0 <= c + dc < n for dr, dc in MOVES)
    left = [(n * n + 1) // 2, n * n // 2]  # squares left of colour 0 ((r+c) even) and 1
    want = int(round(share * n * n))
    holes: list[tuple[int, int]] = []
    order = rng.permutation(n * n)
    for _ in range(4):  # a few passes: a square refused early may be removable later
        for k in order:
            r, c = divmod(int(k), n)
            if not free[r, c]:
                continue
            colour = (r + c) % 2
            if closed and left[colour] < left[1 - colour]:
                continue
            nbrs = [(r + dr, c + dc) for dr, dc in MOVES
                    if 0 <= r + dr < n and 0 <= c + dc < n and free[r + dr, c + dc]]
            if any(deg[a, b] <= 2 for a, b in nbrs):
                continue
            free[r, c] = False
            for a, b in nbrs:
                deg[a, b] -= 1
            left[colour] -= 1
            holes.append((r, c))
            if len(holes) >= want and (not closed or left[0] == left[1]):
                return holes
    return holes


def plain_cpsat(n: int, holes, *, closed: bool, start=None, time_limit: float = 60.0, workers: int = 2):
    """The plain ``add_circuit`` model: returns ``("found" | "infeasible" | "unknown", seconds)``."""
    from ortools.sat.python import cp_model

    hole_set = set(map(tuple, holes))
    squares = [(r, c) for r in range(n) for c in range(n) if (r, c) not in hole_set]
    index = {sq: i + 1 for i, sq in enumerate(squares)}  # node 0 is the open tour's dummy
    model = cp_model.CpModel()
    arcs = []
    for (r, c), i in index.items():
        for dr, dc in MOVES:
            j = index.get((r + dr, c + dc))
            if j is not None:
                arcs.append((i, j, model.new_bool_var(f"m{i}_{j}")))
    if closed:
        # node 0 stays out of the circuit
        arcs.append((0, 0, model.new_constant(1)))
    else:
        first = index[start] if start is not None else None
        for i in index.values():
            if first is None or i == first:
                arcs.append((0, i, model.new_bool_var(f"s{i}")))
            arcs.append((i, 0, model.new_bool_var(f"e{i}")))
    model.add_circuit(arcs)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.num_workers = workers
    status = solver.solve(model)
    word = {cp_model.OPTIMAL: "found", cp_model.FEASIBLE: "found", cp_model.INFEASIBLE: "infeasible"}
    return word.get(status, "unknown"), solver.wall_time
