"""Readable references of ``ktsolve._cleaning_kernels``: plain Python over sets of squares and networkx.

``tests/test_cleaning.py`` checks that the kernels give the same regions:
the largest part and the pruning by their definitions (networkx's connected
components and 2-core), the balance by replaying its rule square by square
in the same order.
"""

from __future__ import annotations

import math

import networkx as nx
import numpy as np

MOVES = [(-2, 1), (-1, 2), (1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1)]
WINDOW = 6


def moves(sq: set, r: int, c: int):
    """The squares of ``sq`` a knight's move from (r, c)."""
    return [(r + dr, c + dc) for dr, dc in MOVES if (r + dr, c + dc) in sq]


def knight_graph(sq: set) -> nx.Graph:
    g = nx.Graph()
    g.add_nodes_from(sq)
    for r, c in sq:
        for other in moves(sq, r, c):
            g.add_edge((r, c), other)
    return g


def squares_of(mask: np.ndarray) -> set:
    return {(int(r), int(c)) for r, c in zip(*np.nonzero(mask))}


def mask_of(sq: set, shape) -> np.ndarray:
    out = np.zeros(shape, dtype=bool)
    for r, c in sq:
        out[r, c] = True
    return out


def largest_part(sq: set) -> tuple[set, int]:
    """The largest part (on a tie, the one holding the first square in row-major order) and the part count."""
    parts = list(nx.connected_components(knight_graph(sq)))
    if not parts:
        return set(), 0
    best = max(len(p) for p in parts)
    firsts = [min(p) for p in parts if len(p) == best]
    first = min(firsts)
    return next(set(p) for p in parts if first in p), len(parts)


def prune(sq: set) -> set:
    """The 2-core: what is left once squares with fewer than two moves are removed, again and again."""
    return set(nx.k_core(knight_graph(sq), 2).nodes)


def stride(n: int) -> int:
    s = max(1, int(n * 0.6180339887498949)) | 1
    while math.gcd(s, n) != 1:
        s += 2
    return s


def _joined_without(sq: set, f, nbs) -> bool:
    """The moves of ``f`` joined inside its 13 x 13 window once ``f`` is gone."""
    if len(nbs) <= 1:
        return True
    r0, c0 = f
    inside = {s for s in sq if abs(s[0] - r0) <= WINDOW and abs(s[1] - c0) <= WINDOW and s != f}
    reach = nx.node_connected_component(knight_graph(inside), nbs[0])
    return all(g in reach for g in nbs[1:])


def _over_forced(sq: set, deg: dict, around) -> bool:
    for g in around:
        if deg[g] != 2:
            continue
        for h in moves(sq, *g):
            if sum(1 for x in moves(sq, *h) if deg[x] == 2) > 2:
                return True
    return False


def balance(sq: set, shape, par: int, want: int, keep: set = frozenset()) -> tuple[set, int]:
    """The balance's rule replayed: cells in the order f, f + s, f + 2s, ... (mod rows * cols), four passes."""
    rows, cols = shape
    n = rows * cols
    s = stride(n)
    sq = set(sq)
    deg = {x: len(moves(sq, *x)) for x in sq}
    removed = 0
    for phase in range(4):
        if removed >= want:
            break
        edge_only, strict = phase < 2, phase % 2 == 0
        f = 0
        for _ in range(n):
            f = (f + s) % n
            x = divmod(f, cols)
            if x not in sq or x in keep or sum(x) % 2 != par:
                continue
            if edge_only and deg[x] == 8:
                continue
            nbs = moves(sq, *x)
            if not nbs or any(deg[g] - 1 < (3 if strict else 2) for g in nbs):
                continue
            if not _joined_without(sq, x, nbs):
                continue
            sq.discard(x)
            for g in nbs:
                deg[g] -= 1
            if not strict and _over_forced(sq, deg, nbs):
                sq.add(x)
                for g in nbs:
                    deg[g] += 1
                continue
            del deg[x]
            removed += 1
            if removed >= want:
                break
    return sq, removed


def clean(mask: np.ndarray, *, largest=True, prune_=True, balance_="open", keep=None) -> np.ndarray:
    """The whole cleaning, step by step, on sets."""
    sq = squares_of(mask)
    if largest:
        sq, _ = largest_part(sq)
    if prune_:
        sq = prune(sq)
    if balance_ is not None:
        even = sum(1 for r, c in sq if (r + c) % 2 == 0)
        odd = len(sq) - even
        want = abs(even - odd) - (0 if balance_ == "closed" else 1)
        if want > 0:
            sq, _ = balance(sq, mask.shape, 0 if even > odd else 1, want,
                            squares_of(keep) if keep is not None else frozenset())
    return mask_of(sq, mask.shape)
