"""Slow, readable references of the ant colonies (plain Python, no numpy in the loops).

They follow the papers' descriptions step by step, with the kernels'
documented conventions (the SplitMix64 stream of ``naive_splitmix``, one draw per step with two or
more candidates, first candidate in move order whose running weight sum
exceeds ``u * total``), so a kernel run and a reference run from the same
seed must agree exactly: same walks, same tours, same pheromone.
"""

from __future__ import annotations

import math

from naive_splitmix import SplitMix64

from ktsolve.heuristics.aco import PARAMS as ACO_PARAMS, TAU_MIN
from ktsolve.heuristics.iaco import PARAMS as IACO_PARAMS

#: The methods' declared defaults: the references run what the product runs unless told otherwise.
ACO = ACO_PARAMS.defaults
IACO = IACO_PARAMS.defaults
#: Ants per colony and cycle (None: one per start) and deposit rule of each reading of the improved colony.
READINGS = {"ant": (1, "all"), "square": (None, "all"), "edge": (None, "edge"), "complete": (None, "complete")}


def walk(table, weight, start, rng, reserved=-1, tau=None):
    """One ant: returns (path, moves).  ``table[s][j]`` is a square or -1.

    ``weight[s][j]`` are the weights; with ``tau`` given instead, the weight
    of a move is ``tau[s][j] ** D``, ``D`` the destination's unvisited
    neighbours after the ant has entered ``s``.  A ``reserved`` square is
    kept for the last move: never entered before every other square is
    visited, then appended when it is a move away.
    """
    n = len(table)
    visited = {start} | ({reserved} if reserved >= 0 else set())
    path, moves = [start], []
    s = start
    while True:
        cands = [j for j in range(len(table[s])) if table[s][j] >= 0 and table[s][j] not in visited]
        if not cands:
            break
        if len(cands) == 1:
            j = cands[0]
        else:
            total = 0.0
            running = []
            for jj in range(8):
                if jj not in cands:
                    w = 0.0
                elif tau is None:
                    w = weight[s][jj]
                else:
                    d = table[s][jj]
                    free = sum(1 for e in table[d] if e >= 0 and e not in visited)
                    w = 1.0
                    for _ in range(free):
                        w *= tau[s][jj]
                total += w
                running.append(total)
            r = rng.uniform() * total
            j = next(jj for jj in range(8) if running[jj] > r)
        moves.append(j)
        s = table[s][j]
        visited.add(s)
        path.append(s)
    if reserved >= 0 and len(path) == n - 1 and reserved in table[s]:
        moves.append(table[s].index(reserved))
        path.append(reserved)
    return path, moves


def start_of(starts, ants, cycle, a):
    """Entry ``(cycle * ants + a) mod len(starts)``: the start (or reserved square) of ant ``a``."""
    return starts[(cycle * ants + a) % len(starts)]


def is_closed(table, path):
    return len(path) > 2 and path[0] in table[path[-1]]


def aco(table, tau, starts, cycles, seed, *, rho=ACO["rho"], q=ACO["q"], alpha=ACO["alpha"], tau_min=TAU_MIN,
        closed=False, ants=None, reserve=()):
    """Hingston & Kendall: returns (tau, tours kept, counts [walks, complete, closed])."""
    n = len(table)
    ants = len(starts) if ants is None else ants
    tau = [list(row) for row in tau]
    rng = SplitMix64(seed)
    tours, counts = [], [0, 0, 0]
    for cycle in range(cycles):
        if alpha == 1.0:
            weight = tau
        else:
            weight = [[max(t**alpha, tau_min) for t in row] for row in tau]
        delta = [[0.0] * 8 for _ in range(n)]
        for a in range(ants):
            start = start_of(starts, ants, cycle, a)
            reserved = start_of(reserve, ants, cycle, a) if reserve else -1
            path, moves = walk(table, weight, start, rng, reserved)
            length = len(moves)
            counts[0] += 1
            if length == n - 1:
                counts[1] += 1
                c = is_closed(table, path)
                counts[2] += c
                if c or not closed:
                    tours.append(path)
            for i in range(length):
                delta[path[i]][moves[i]] += (length - i) * (q / (n - 1 - i))
        tau = [[max((1.0 - rho) * tau[s][j] + delta[s][j], tau_min) for j in range(8)] for s in range(n)]
    return tau, tours, counts


def f_mean(values, f):
    """Power mean with the limits: -inf min, 0 geometric, +inf max."""
    if f == -math.inf:
        return min(values)
    if f == math.inf:
        return max(values)
    k = len(values)
    if f == 0:
        acc = 0.0
        for v in values:
            acc += math.log(v)
        return math.exp(acc / k)
    acc = 0.0
    for v in values:
        acc += v**f
    return (acc / k) ** (1.0 / f)


def iaco(table, degree, tau, starts, cycles, seed, *, rho=IACO["rho"], deposit=IACO["deposit"], lo=IACO["tau_lo"],
         hi=IACO["tau_hi"], f=IACO["f"], share_every=IACO["share_every"], reading=IACO["reading"], closed=False,
         ants=None, free=IACO["degree"] == "free", reserve=()):
    """Jiang, Bai & Dong: ``tau[c][s][j]`` per colony; returns (tau, tours, counts).

    ``reading`` (:data:`READINGS`) sets the ants of a colony per cycle when
    ``ants`` is None (1 for "ant", else one per start) and the deposit:
    "ant" and "square" lay C per use (the sum over ants), "edge" C once per
    used move and colony, "complete" C per use by a complete walk.
    ``free``: ``D`` counts unvisited neighbours (else the board degree).
    """
    n = len(table)
    k_col = len(tau)
    per_colony, deposit_on = READINGS[reading]
    ants = (per_colony or len(starts)) if ants is None else ants
    tau = [[list(row) for row in col] for col in tau]
    rng = SplitMix64(seed)
    tours, counts = [], [0, 0, 0]
    for cycle in range(1, cycles + 1):
        delta = [[[0.0] * 8 for _ in range(n)] for _ in range(k_col)]
        for c in range(k_col):
            weight = []
            for s in range(n):
                row = []
                for j in range(8):
                    d = table[s][j]
                    p = 1.0
                    for _ in range(degree[d] if d >= 0 else 0):
                        p *= tau[c][s][j]
                    row.append(p)
                weight.append(row)
            for a in range(ants):
                start = start_of(starts, ants, cycle - 1, a)
                reserved = start_of(reserve, ants, cycle - 1, a) if reserve else -1
                path, moves = walk(table, weight, start, rng, reserved, tau=tau[c] if free else None)
                length = len(moves)
                counts[0] += 1
                if length == n - 1:
                    counts[1] += 1
                    cl = is_closed(table, path)
                    counts[2] += cl
                    if cl or not closed:
                        tours.append(path)
                for i in range(length):
                    if deposit_on == "edge":
                        delta[c][path[i]][moves[i]] = deposit
                    elif deposit_on == "all" or length == n - 1:
                        delta[c][path[i]][moves[i]] += deposit
        for c in range(k_col):
            for s in range(n):
                for j in range(8):
                    tau[c][s][j] = min(max((1.0 - rho) * tau[c][s][j] + delta[c][s][j], lo), hi)
        if share_every and k_col > 1 and cycle % share_every == 0:
            share(tau, f, lo, hi)
    return tau, tours, counts


def share(tau, f, lo, hi):
    """Every colony's trail becomes the F-mean over colonies (clamped), in place."""
    for s in range(len(tau[0])):
        for j in range(8):
            m = min(max(f_mean([col[s][j] for col in tau], f), lo), hi)
            for col in tau:
                col[s][j] = m
