"""Posa rotations written plainly: the readable reference of one run of the rotation kernels.

The path is a Python list and every rotation really reverses a slice of it;
the repair search tries every rotation sequence by rotating copies; the
knight's distance comes from a breadth-first search.  Every random choice
is a draw of ``naive_splitmix.SplitMix64.below`` in the order the kernels
make theirs:

* extending the path: one ``below(64)`` per free neighbour of the end, in
  move order, the last part of the key ``(free neighbours, -distance from
  the centre, draw)``, smallest first;
* a walk step: per candidate rotation, in move order, one ``below(8)``;
  when it is 0 the key is one ``below(2**24)`` (a random step), else the
  key is ``(knight's distance of the new end to the goal, below(2**24))``.

Ties of equal keys go to the first candidate in move order.  So a kernel run
and a reference run from the same state word must give the same path, the
same counters and leave the generator in the same state.
"""

from __future__ import annotations

from collections import deque

from naive_splitmix import SplitMix64

FREE, RESERVED, PARKED = "free", "reserved", "parked"


def knight_distances(size: int) -> dict[tuple[int, int], int]:
    """Knight's-move distance of every offset ``(dr, dc)`` with ``|dr|, |dc| <= size`` on an unbounded board.

    A breadth-first search from the centre of a box with a margin of 8 squares
    beyond the offsets asked for, enough for the detours short offsets need.
    """
    reach = size + 8
    dist = {(0, 0): 0}
    queue = deque([(0, 0)])
    moves = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
    while queue:
        r, c = queue.popleft()
        for dr, dc in moves:
            nxt = (r + dr, c + dc)
            if abs(nxt[0]) <= reach and abs(nxt[1]) <= reach and nxt not in dist:
                dist[nxt] = dist[(r, c)] + 1
                queue.append(nxt)
    return {k: d for k, d in dist.items() if abs(k[0]) <= size and abs(k[1]) <= size}


def rotated(path: list[int], i: int) -> list[int]:
    """Posa rotation at pivot index ``i``: the part after ``path[i]`` reversed."""
    return path[: i + 1] + path[i + 1 :][::-1]


class NaiveRun:
    """One run of the search, from ``first``: the path grows, rotates, walks and gives squares back.

    ``reserved`` is the square kept for the end of an open tour (or None),
    ``closed`` asks for the end next to ``path[0]``, ``depth`` is the
    longest repair sequence, ``max_rot`` the rotations a run may spend
    without growing its path, ``state`` the generator's state word.
    """

    def __init__(self, graph, first, reserved, closed, depth, max_rot, state):
        self.n = graph.n
        self.nbrs = [[int(w) for w in graph.neighbours(v)] for v in range(graph.n)]
        self.rc = [(int(r), int(c)) for r, c in graph.coords]
        rows, cols = graph.board.rows, graph.board.cols
        self.centre = [(2 * r - (rows - 1)) ** 2 + (2 * c - (cols - 1)) ** 2 for r, c in self.rc]
        self.kd = knight_distances(max(rows, cols))
        self.rs = SplitMix64(state)
        self.reserved, self.closed, self.depth, self.max_rot = reserved, closed, depth, max_rot
        self.place = [FREE] * self.n  # FREE, RESERVED, PARKED, or "path"
        if reserved is not None:
            self.place[reserved] = RESERVED
        self.target = self.n - 1 if reserved is not None else self.n
        self.path = []
        self.parked = None  # the square given back last, kept off until the path grows
        self.goal = None  # the square the walk heads for
        self.prev = None  # the end before the last rotation: the walk does not step straight back
        self.goal_steps = self.goal_cap = 0
        self.counts = dict.fromkeys(("rotations", "extensions", "repairs", "walk_steps", "reversed",
                                     "given_back", "swaps"), 0)
        self.since = 0  # rotations (and squares given back) since the path last grew past its longest
        self.append(first)
        self.longest = 1

    # ------------------------------------------------------------------ the board
    def distance(self, a: int, b: int) -> int:
        (r1, c1), (r2, c2) = self.rc[a], self.rc[b]
        return self.kd[(r1 - r2, c1 - c2)]

    def colour(self, v: int) -> int:
        return sum(self.rc[v]) % 2

    def free_neighbours(self, v: int) -> int:
        return sum(1 for w in self.nbrs[v] if self.place[w] == FREE)

    # ------------------------------------------------------------------ moves of the path
    def append(self, w: int) -> None:
        self.path.append(w)
        self.place[w] = "path"

    def rotate(self, i: int) -> None:
        self.counts["reversed"] += len(self.path) - 1 - i
        self.path = rotated(self.path, i)

    def give_back(self) -> None:
        """The end leaves the path and is parked; a square parked before is free again."""
        if self.parked is not None:
            self.place[self.parked] = FREE
        self.parked = self.path.pop()
        self.place[self.parked] = PARKED
        self.counts["given_back"] += 1
        self.since += 1
        self.goal = self.prev = None

    # ------------------------------------------------------------------ the repair search
    def sequences(self, path, length, cost=0, pivots=()):
        """Every sequence of ``length`` rotations of ``path``, depth-first in move order: (pivots, cost, path)."""
        if length == 0:
            yield pivots, cost, path
            return
        where = {v: i for i, v in enumerate(path)}
        for v in self.nbrs[path[-1]]:
            i = where.get(v)
            if i is None or i >= len(path) - 2:
                continue  # off the path, or the end's predecessor
            yield from self.sequences(rotated(path, i), length - 1, cost + len(path) - 2 - i, pivots + (i,))

    def search(self, goal):
        """Pivots of the shortest sequence after which the end has a free neighbour (or is next to ``goal``).

        Among the shortest, the one that reverses the fewest squares; among
        those, the first met.  Empty when no sequence of ``depth`` rotations helps.
        """
        for length in range(1, self.depth + 1):
            best = None
            for pivots, cost, path in self.sequences(self.path, length):
                end = path[-1]
                ok = self.free_neighbours(end) > 0 if goal is None else goal in self.nbrs[end]
                if ok and (best is None or cost < best[0]):
                    best = (cost, pivots)
            if best is not None:
                return best[1]
        return ()

    def nearest_free(self, u: int, colour: int):
        """The free square of ``colour`` next to the path nearest to ``u`` (the first in square order), or None."""
        reachable = [w for w in range(self.n) if self.place[w] == FREE and self.colour(w) == colour
                     and any(self.place[x] == "path" for x in self.nbrs[w])]
        return min(reachable, key=lambda w: self.distance(u, w), default=None)

    # ------------------------------------------------------------------ the run
    def run(self) -> str:
        """Go on until the path is a tour of the request (``"done"``) or the run stalls (``"stalled"``)."""
        while True:
            u = self.path[-1]
            options = [((self.free_neighbours(w) << 40) - (self.centre[w] << 6) + self.rs.below(64), w)
                       for w in self.nbrs[u] if self.place[w] == FREE]
            if options:
                self.append(min(options, key=lambda o: o[0])[1])
                if self.parked is not None:
                    self.place[self.parked] = FREE
                    self.parked = None
                self.counts["extensions"] += 1
                if len(self.path) > self.longest:
                    self.longest = len(self.path)
                    self.since = 0
                continue
            goal = None
            if len(self.path) == self.target:
                if self.closed:
                    goal = self.path[0]
                elif self.reserved is not None:
                    goal = self.reserved
                else:
                    return "done"
                if goal in self.nbrs[u]:
                    if self.reserved is not None:
                        self.append(self.reserved)
                    return "done"
            if self.since >= self.max_rot:
                return "stalled"
            pivots = self.search(goal)
            if pivots:
                for i in pivots:
                    self.prev = self.path[-1]
                    self.rotate(i)
                self.counts["rotations"] += len(pivots)
                self.since += len(pivots)
                self.counts["repairs"] += 1
                continue
            if not self.head_for(u, goal):
                continue
            self.walk_step(u)

    def head_for(self, u: int, goal) -> bool:
        """Choose the walk's goal; False when the path was changed instead (ends swapped, a square given back)."""
        if goal is not None:  # the square the end must come next to
            if goal != self.goal:
                self.goal, self.goal_steps = goal, 0
                self.goal_cap = 64 + 8 * self.distance(u, goal)
            elif self.closed and self.goal_steps > self.goal_cap:
                self.path.reverse()  # the other end walks to the start instead
                self.counts["swaps"] += 1
                self.prev = None
                return False
            return True
        colour = 1 - self.colour(u)  # a free square next to the end has the other colour
        g = self.goal
        if g is None or self.place[g] != FREE or self.colour(g) != colour:
            g = self.goal = self.nearest_free(u, colour)
            self.goal_steps = 0
            if g is not None:
                self.goal_cap = 64 + 8 * self.distance(u, g)
        if g is None or self.goal_steps > self.goal_cap:
            if len(self.path) <= 2:
                raise _Stalled
            self.give_back()
            return False
        return True

    def walk_step(self, u: int) -> None:
        """One rotation towards the goal: the candidate of smallest key, or the way back, or a square given back."""
        where = {v: i for i, v in enumerate(self.path)}
        L = len(self.path)
        pivots = [where[v] for v in self.nbrs[u] if v in where and where[v] < L - 2]
        options = []
        for i in pivots:
            if self.path[i + 1] == self.prev:
                continue
            if self.rs.below(8) == 0:
                key = self.rs.below(1 << 24)  # now and then a random step
            else:
                key = (self.distance(self.path[i + 1], self.goal) << 24) + self.rs.below(1 << 24)
            options.append((key, i))
        if options:
            choice = min(options, key=lambda o: o[0])[1]
        elif pivots:
            choice = pivots[0]  # only the way back is open
        else:  # a dead end
            if L <= 2:
                raise _Stalled
            self.give_back()
            return
        self.prev = u
        self.rotate(choice)
        self.counts["rotations"] += 1
        self.since += 1
        self.counts["walk_steps"] += 1
        self.goal_steps += 1


class _Stalled(Exception):
    """The path is down to two squares and cannot give one back."""


def run(graph, first, reserved, closed, depth, max_rot, state) -> tuple[str, NaiveRun]:
    """One run from ``first``; returns ``("done" or "stalled", the run)``."""
    r = NaiveRun(graph, first, reserved, closed, depth, max_rot, state)
    try:
        return r.run(), r
    except _Stalled:
        return "stalled", r
