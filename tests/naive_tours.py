"""Slow, readable references for the exact side: exhaustive tour search and longest paths.

Plain depth-first search over sequences of squares, with an explicit stack
and no pruning beyond "not visited yet", so that it is obviously right; it
is meant for boards of about 20 squares at most.  The exact side (CP-SAT,
backtracking, python-constraint, longest paths, the proofs and ``prove``) is
checked against it in the test modules of those methods.
"""

from __future__ import annotations


def neighbour_lists(graph):
    return [[int(w) for w in graph.neighbours(v)] for v in range(graph.n)]


def exhaustive_tour(graph, spec):
    """A tour answering ``spec`` (a list of square numbers) or None when none exists."""
    n = graph.n
    board = graph.board
    nb = neighbour_lists(graph)
    s = None if spec.start is None else board.index(*spec.start)
    e = None if spec.end is None else board.index(*spec.end)
    if spec.closed and n < 3:
        return None
    if n == 1:
        return [0]
    if spec.closed:
        # A closed tour can be listed from any square: search from the start,
        # or from the end (then list it so that it ends there), or from 0.
        first = s if s is not None else (e if e is not None else 0)
        for path in _paths(nb, n, first):
            if path[0] not in nb[path[-1]]:
                continue
            if s is not None and e is not None and path[-1] != e:
                continue
            if s is None and e is not None:
                return path[1:] + path[:1]  # now it ends on e
            return path
        return None
    for first in ([s] if s is not None else range(n)):
        for path in _paths(nb, n, first):
            if e is None or path[-1] == e:
                return path
    return None


def _paths(nb, n, first):
    """Every Hamiltonian path from ``first``, one at a time."""
    used = [False] * n
    used[first] = True
    path = [first]
    nxt = [0]
    while path:
        v = path[-1]
        if len(path) == n:
            yield list(path)
        k = nxt[-1]
        if len(path) < n and k < len(nb[v]):
            nxt[-1] += 1
            w = nb[v][k]
            if not used[w]:
                used[w] = True
                path.append(w)
                nxt.append(0)
            continue
        used[v] = False
        path.pop()
        nxt.pop()


def longest_path_length(graph, start=None):
    """Number of squares of the longest knight's path from ``start`` (anywhere when None)."""
    n = graph.n
    nb = neighbour_lists(graph)
    best = 0
    for first in ([start] if start is not None else range(n)):
        used = [False] * n
        used[first] = True
        path = [first]
        nxt = [0]
        while path:
            best = max(best, len(path))
            v = path[-1]
            k = nxt[-1]
            if k < len(nb[v]):
                nxt[-1] += 1
                w = nb[v][k]
                if not used[w]:
                    used[w] = True
                    path.append(w)
                    nxt.append(0)
                continue
            used[v] = False
            path.pop()
            nxt.pop()
    return best


def closed_exists(m, n):
    """Schwenk (1991): does the full m x n board have a closed tour?"""
    m, n = min(m, n), max(m, n)
    if m % 2 == 1 and n % 2 == 1:
        return False
    if m in (1, 2, 4):
        return False
    if m == 3 and n in (4, 6, 8):
        return False
    return True


def open_exists(m, n):
    """Cull & De Curtins (1978), Conrad et al. (1994): does the full m x n board have an open tour?"""
    m, n = min(m, n), max(m, n)
    return (m == n == 1) or (m == 3 and (n == 4 or n >= 7)) or (m == 4 and n >= 5) or m >= 5
