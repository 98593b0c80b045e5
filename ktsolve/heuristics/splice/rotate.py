"""A repair of splice, for the last few pieces: each joined to the largest cycle by Posa rotations of one path.

Where a piece sits in a stretch of forced moves, every alternating cycle
through it cuts the cycles it crosses into many small ones (seen on a
10000 x 10000 board with 5 % holes: each reroute of a 10-square piece left
46 to 53 cycles).  Rotations never do: the largest cycle ``G`` is opened at
a link ``g - g2`` next to a square ``p`` of the piece ``P``, ``P`` at a link
``p - p2``, and the link ``g - p`` makes one Hamiltonian path of both, from
``g2`` to ``p2``.  A *rotation* at the end ``e`` takes a square ``x`` of the
path a knight's move from ``e`` (not the square before ``e``): with ``y``
after ``x``, the link ``x - y`` goes and ``x - e`` comes, and the path now
ends at ``y`` (Posa 1976); the same at the start.  The path stays one path
whatever the rotations, so once an end is a knight's move from the other
end, their link closes one cycle holding ``G`` and ``P``.

The path's order is kept as a short list of segments of positions (the
cells of ``G`` numbered along it by one walk, then those of the pieces): a
rotation splits one segment and reverses the order and direction of the
segments after the split, so its cost is the number of segments, a few per
rotation made, not the length of the path.  Which of a square's two links
leads on is the one to the square of the next position.

References
----------
L. Posa, "Hamiltonian circuits in random graphs", Discrete Mathematics 14
(1976) 359-364.
"""

from __future__ import annotations

from bisect import bisect_right

import numpy as np

from ..._grid_kernels import MOVES
from ._merge_kernels import cycle_cells, cycle_positions
from .pieces import Job, Pieces, outside
from .reroute import REROUTE_QUEUE, Searches
from .window import linked_squares, move_index

__all__ = ["repair_rotate", "repair_kick", "ROTATE_MAX", "ROTATIONS", "OPENINGS", "KICKS", "COUNTS", "KICK_COUNTS"]

#: Pieces (besides the largest) this repair takes on; more go to the other repairs first.
ROTATE_MAX = 64
#: Rotations tried from one opening before it is undone.
ROTATIONS = 400
#: Openings (a square of the piece, a move to the largest cycle, the links cut) tried per piece.
OPENINGS = 12
#: Kicks (every piece left rerouted whatever small cycles that leaves, the board labelled and merged
#: again, then rotations) before the pieces left go to the other repairs.
KICKS = 4

#: The counts the rotations report, and the kicks.
COUNTS = ("rotate_joined", "rotations")
KICK_COUNTS = ("kicks", "kicks_undone", "kick_queue_grown", "kick_queue_held")

#: One rotation in this many is taken at random rather than the one that brings the ends nearest.
_WANDER = 8


class _Rope:
    """A path over positions as segments ``[lo, hi, reversed]`` in path order (the segments partition the
    positions in use)."""

    def __init__(self, segs):
        self.segs = [list(s) for s in segs]
        self._index()

    def _index(self) -> None:
        order = sorted(range(len(self.segs)), key=lambda i: self.segs[i][0])
        self.los = [self.segs[i][0] for i in order]
        self.at = order
        self.first = []
        k = 0
        for lo, hi, _ in self.segs:
            self.first.append(k)
            k += hi - lo + 1
        self.length = k

    def copy(self) -> "_Rope":
        return _Rope(self.segs)

    def where(self, p: int) -> tuple[int, int]:
        """``(segment, index along the path)`` of position ``p``."""
        i = self.at[bisect_right(self.los, p) - 1]
        lo, hi, rev = self.segs[i]
        return i, self.first[i] + (hi - p if rev else p - lo)

    def split_after(self, p: int) -> int:
        """Make position ``p`` the last of its segment; returns that segment."""
        i, _ = self.where(p)
        lo, hi, rev = self.segs[i]
        if (not rev and p == hi) or (rev and p == lo):
            return i
        self.segs[i:i + 1] = [[lo, p, False], [p + 1, hi, False]] if not rev else [[p, hi, True], [lo, p - 1, True]]
        self._index()
        return i

    def reverse(self, i: int, j: int) -> None:
        """Reverse the path from segment ``i`` to segment ``j`` (inclusive)."""
        part = self.segs[i:j + 1][::-1]
        for s in part:
            s[2] = not s[2]
        self.segs[i:j + 1] = part
        self._index()

    def rotate_to(self, i: int) -> None:
        """The cyclic order started at segment ``i``."""
        self.segs = self.segs[i:] + self.segs[:i]
        self._index()


class _Path:
    """The one path the rotations work on: the links (changed in place, logged), the positions, the rope."""

    def __init__(self, links, alive, rows: int, cols: int, pos, inside):
        self.links, self.alive, self.rows, self.cols, self.pos = links, alive, rows, cols, pos
        self.inside = inside  # whether a square is on the path (its piece is joined or being joined)
        self.log: list[tuple[str, int, int]] = []

    def moves(self, f: int):
        r, c = divmod(f, self.cols)
        for dr, dc in MOVES:
            r2, c2 = r + dr, c + dc
            if 0 <= r2 < self.rows and 0 <= c2 < self.cols and self.alive[r2 * self.cols + c2]:
                yield r2 * self.cols + c2

    def linked(self, f: int) -> list[int]:
        return [g for g in linked_squares(self.links, f, self.cols) if g >= 0]

    def _set(self, f: int, g: int, on: bool) -> None:
        j = move_index(f, g, self.cols)
        for a, k in ((f, j), (g, j ^ 4)):
            row = self.links[a]
            if on:
                row[0 if row[0] == -1 else 1] = k
            else:
                row[0 if row[0] == k else 1] = -1

    def link(self, f: int, g: int) -> None:
        self._set(f, g, True)
        self.log.append(("link", f, g))

    def unlink(self, f: int, g: int) -> None:
        self._set(f, g, False)
        self.log.append(("unlink", f, g))

    def undo(self, mark: int) -> None:
        while len(self.log) > mark:
            what, f, g = self.log.pop()
            self._set(f, g, what == "unlink")

    def index(self, rope: _Rope, f: int) -> int:
        return rope.where(int(self.pos[f]))[1]

    def step(self, rope: _Rope, f: int, ahead: bool) -> int:
        """The square after (``ahead``) or before ``f`` on the path (-1 past an end)."""
        want = self.index(rope, f) + (1 if ahead else -1)
        for g in self.linked(f):
            if self.inside(g) and self.index(rope, g) == want:
                return g
        return -1


def _cycle_rope(path: _Path, rope: _Rope, g: int, g2: int) -> _Rope:
    """The cycle ``rope`` (its last position linked to its first) opened at its link ``g - g2``: a path
    from ``g2`` round to ``g``."""
    rope = rope.copy()
    ig, ig2 = path.index(rope, g), path.index(rope, g2)
    if (ig2 - ig) % rope.length != 1:  # walk the other way round
        rope.reverse(0, len(rope.segs) - 1)
    i = rope.split_after(int(path.pos[g]))
    rope.rotate_to(i + 1)
    return rope


def _piece_rope(path: _Path, base: int, size: int, p: int, p2: int) -> list:
    """The segments of a piece's cycle (positions ``base .. base + size - 1`` in its order) from ``p`` round
    to ``p2``, its neighbour."""
    a, b = int(path.pos[p]) - base, int(path.pos[p2]) - base
    if (a - b) % size == 1:  # p2 comes just before p: walk forwards from p
        segs = [[base + a, base + size - 1, False], [base, base + a - 1, False]]
    else:  # p2 just after p: walk backwards from p
        segs = [[base, base + a, True], [base + a + 1, base + size - 1, True]]
    return [s for s in segs if s[0] <= s[1]]


def _rotations(path: _Path, rope: _Rope, s: int, e: int, budget: int, rng) -> _Rope | None:
    """Rotate the path ``s .. e`` until its ends are a knight's move apart, then link them; the new cycle's
    rope, or None after ``budget`` rotations (the links then as they were when called).

    Each rotation moves one end; the one that brings the ends nearest
    (squared distance on the board) to a pair of ends not met before is
    taken, or, one time in :data:`_WANDER`, one at random: random rotations
    alone drift the ends apart along the strands of the path.
    """
    mark = len(path.log)
    cols = path.cols
    seen = {(s, e)}
    for _ in range(budget):
        if e in set(path.moves(s)):
            path.link(e, s)
            return rope
        options = []  # (distance of the new ends, end moved, x, the new end)
        before_e, after_s = path.step(rope, e, False), path.step(rope, s, True)
        for at_end, end, other, last in ((True, e, s, before_e), (False, s, e, after_s)):
            for x in path.moves(end):
                if x == last or not path.inside(x):
                    continue
                new = path.step(rope, x, at_end)
                if new < 0:
                    continue
                (r, c), (r2, c2) = divmod(new, cols), divmod(other, cols)
                pair = (s, new) if at_end else (new, e)
                options.append(((r - r2) ** 2 + (c - c2) ** 2 + (1 << 20) * (pair in seen), at_end, x, new))
        if not options:
            break
        if rng.integers(_WANDER) == 0:
            _, at_end, x, new = options[int(rng.integers(len(options)))]
        else:
            _, at_end, x, new = min(options)
        if at_end:  # ... x y ... e  ->  ... x e ... y
            i = rope.split_after(int(path.pos[x]))
            rope.reverse(i + 1, len(rope.segs) - 1)
            path.unlink(x, new)
            path.link(x, e)
            e = new
        else:  # s ... w x ...  ->  w ... s x ...
            i = rope.split_after(int(path.pos[new]))
            rope.reverse(0, i)
            path.unlink(new, x)
            path.link(s, x)
            s = new
        seen.add((s, e))
    path.undo(mark)
    return None


def repair_rotate(job: Job, state: Pieces, turn: int, *, rotations: int = ROTATIONS,
                  openings: int = OPENINGS) -> tuple[Pieces, dict]:
    """Join the pieces left to the largest cycle by rotations (see the module docstring); returns the last
    :class:`~.pieces.Pieces` and the counts ``rotate_joined`` and ``rotations``.

    Runs when the largest piece is a cycle, every other piece is a cycle,
    and at most :data:`ROTATE_MAX` of them are left (else the state comes
    back as it was).  A piece gets up to ``openings`` openings of
    ``rotations`` rotations each (numpy's generator seeded with ``turn``
    picks a rotation when none closes the path at once); one that none
    joins is left as it was.  The links stay a 2-factor, and every join
    lowers the count of pieces by one, so the count is known without
    labelling the board again; the state is labelled again once at the
    end when a piece was left.
    """
    links, alive, rows, cols, deadline = job.links, job.alive, job.rows, job.cols, job.deadline
    if state.labels is None:
        state = job.merge()
    nothing = {"rotate_joined": 0, "rotations": 0}
    if not 1 < state.pieces <= ROTATE_MAX + 1:
        return state, nothing
    cells, roots = outside(state, deadline)
    if (links[cells] >= 8).any():
        return state, nothing  # an open path among the pieces: its fixed ends are not for rotations
    pieces = {int(r): cells[roots == r] for r in np.unique(roots).tolist()}
    labels, parent, giant = state.labels, state.parent, state.giant

    def root(f: int) -> int:
        a = int(labels[f])
        while parent[a] != a:
            a = int(parent[a])
        return a

    joined = {giant}
    pos = np.empty(rows * cols, dtype=np.int32)
    path = _Path(links, alive, rows, cols, pos, lambda f: labels[f] >= 0 and root(f) in joined)
    rope = None
    ring = np.empty(max(int(v.size) for v in pieces.values()) + 1, dtype=np.int64)
    rng = np.random.default_rng(turn)
    base = joins = made = 0
    for r, squares in sorted(pieces.items(), key=lambda kv: int(kv[1][0])):
        deadline.check("joining the pieces left by rotations")
        # the piece's squares in its cycle's order, numbered after everything so far
        size = int(squares.size)
        order = ring[:cycle_cells(int(squares[0]), links, rows, cols, ring)]
        if order.size != size:
            continue  # not a cycle
        openings_tried = 0
        done = False
        for p in order.tolist():
            if done or openings_tried >= openings:
                break
            for g in path.moves(p):
                if labels[g] < 0 or root(g) not in joined or openings_tried >= openings:
                    continue
                if rope is None:  # the largest cycle, numbered along one walk
                    base = int(cycle_positions(links, rows, cols, g, pos, 0))
                    if base != int(alive.sum()) - cells.size:
                        return state, nothing  # the largest piece is an open path
                    rope = _Rope([[0, base - 1, False]])
                pos[order] = base + np.arange(size, dtype=np.int32)
                openings_tried += 1
                deadline.check("joining the pieces left by rotations")
                # the four ways to cut: which link of g, which of p (the strands' directions near the ends)
                g2 = path.linked(g)[openings_tried % 2]
                p2 = path.linked(p)[(openings_tried // 2) % 2]
                mark = len(path.log)
                trial = _cycle_rope(path, rope, g, g2)
                trial.segs += _piece_rope(path, base, size, p, p2)
                trial._index()
                path.unlink(g, g2)
                path.unlink(p, p2)
                path.link(g, p)
                joined.add(r)
                got = _rotations(path, trial, g2, p2, rotations, rng)
                made += rotations if got is None else 1
                if got is None:
                    joined.discard(r)
                    path.undo(mark)
                    continue
                rope = got
                parent[r] = giant
                base += size
                state.pieces -= 1
                joins += 1
                done = True
                break
    del pos
    path.log.clear()
    if state.pieces > 1 and joins:
        # the union-find above knows the joins; labelling again gives the later repairs fresh pieces
        state = job.merge()
    return state, {"rotate_joined": joins, "rotations": made}


def repair_kick(job: Job, state: Pieces, turn: int, *, kicks: int = KICKS, queue: int = REROUTE_QUEUE
                ) -> tuple[Pieces, dict]:
    """Kicks for the pieces rotations leave: each piece is rerouted once whatever small cycles that leaves
    (:func:`ktsolve.factor._restore_kernels.reroute`, forced), the board is labelled and merged by
    exchanges, and the pieces left, now elsewhere, get their rotations (:func:`repair_rotate`, kick ``k``
    with the generator seeded ``k + 1``).

    A piece rotations cannot join sits where the strands of the cycles
    near it carry both ends of the path apart; a reroute moves the pieces
    somewhere else.  A kick that leaves more pieces than before is undone
    (from a copy of the links; the state before it is kept).  A reroute
    whose search fills its queue (``queue`` squares at first) and finds no
    path is made again with longer queues (:class:`~.reroute.Searches`).
    Returns the last :class:`~.pieces.Pieces` and the counts ``kicks``,
    ``kicks_undone``, ``kick_queue_grown`` and ``kick_queue_held`` (the queues
    kept short for the time left).  Every turn kicks alike
    (``turn`` is not read).
    """
    links, alive, rows, cols, deadline = job.links, job.alive, job.rows, job.cols, job.deadline
    done = undone = 0
    saved = searches = None
    for k in range(kicks):
        if not 1 < state.pieces <= ROTATE_MAX + 1:
            break
        deadline.check("kicking the pieces left")
        cells, roots = outside(state, deadline)
        if saved is None:
            saved = links.copy()
            searches = Searches(rows * cols, deadline, "kicking the pieces left", queue)
        else:
            saved[:] = links
        before = state.pieces
        for r in np.unique(roots).tolist():
            squares = cells[roots == r]
            f = int(squares[(k * 7 + 3) % squares.size])
            s = k % 2
            if not 0 <= links[f, s] < 8:
                s = 1 - s
                if not 0 <= links[f, s] < 8:
                    continue
            while searches.reroute(f, s, links, alive, rows, cols, 0, 1) == 0 and searches.grow():
                pass  # a search that filled its queue found nothing: again with longer queues
        done += 1
        after, _ = repair_rotate(job, job.merge(), k + 1)
        if after.pieces <= before:
            state = after
            continue
        links[:] = saved
        undone += 1
    return state, {"kicks": done, "kicks_undone": undone, "kick_queue_grown": 0 if searches is None else searches.grown,
                   "kick_queue_held": 0 if searches is None else searches.held}

