"""The matching proof: a closed tour is two disjoint perfect matchings.

See the package documentation of :mod:`ktsolve.proofs` for the argument;
:func:`matching_proof` builds the certificate that
:func:`~ktsolve.proofs.certificate.check_matching_proof` re-checks.
"""

from __future__ import annotations

import sys
import time
from collections import deque

import numpy as np

from ..driver import Deadline, Stopped
from ..graph import KnightGraph
from ..result import Proof
from ..tour import TourSpec
from ._common import PY_MAX, SHOW, colour_names, count, kernel, listing, spec_nodes, start
from .network import NETWORK_PHASE, network_csr

__all__ = ["matching_proof"]

# ---------------------------------------------------------------------- the matching proof
class _Network:
    """The graph a closed tour must cover: the board, plus extra squares closing an open tour.

    Nodes ``0 .. n_squares - 1`` are the board's squares; extra squares
    follow.  ``side`` is the colour parity of every node (extra squares get
    the colour their neighbours lack).  ``twin[p]`` is the CSR entry of the
    reverse of entry ``p``.
    """

    def __init__(self, graph: KnightGraph, extra: list[dict], forced: list[tuple[int, int]], explain: str,
                 clock: Deadline | None = None):
        self.graph = graph
        self.n_squares = graph.n
        self.extra = extra
        self.n = graph.n + len(extra)
        self.explain = explain
        clock = Deadline.of(clock)  # looked at between the parts of the build
        side = np.empty(self.n, dtype=np.int32)
        side[: graph.n] = graph.colour
        for k, x in enumerate(extra):
            side[graph.n + k] = x["side"]
        # every directed move sorted by (source, target), and each move's reverse, from the graph's own rows
        # (int32 throughout: at 10^7 squares every copy of the moves in int64 cost 0.6 GB)
        clock.check(NETWORK_PHASE)
        csr = network_csr(graph.indptr, graph.indices, [x["joined"] for x in extra], len(extra) == 2, clock,
                          compiled=self.n > PY_MAX)
        self.indptr, self.indices, self.twin = csr
        # read-only like the knight graph's own arrays, so the kernels they go to (shared with the quick
        # proofs) compile once: numba compiles a writable and a read-only array as two signatures
        self.indptr.flags.writeable = False
        self.indices.flags.writeable = False
        self.side = side
        self.forced0 = forced

    def name(self, v: int) -> str:
        return self.names([v])[0]

    def names(self, ids) -> list[str]:
        """Names of many nodes at once (square names, or the extra squares' names), joined in C loops."""
        ids = np.asarray(ids, dtype=np.int64).reshape(-1)
        if not hasattr(self, "_files"):
            from ..board import file_letters

            board = self.graph.board
            self._files = np.array([file_letters(c) for c in range(board.cols)], dtype=object)
            self._ranks = np.array([str(board.rows - r) for r in range(board.rows)], dtype=object)
            self._extra = np.array([x["name"] for x in self.extra] or [""], dtype=object)
        out = np.empty(ids.size, dtype=object)
        square = ids < self.n_squares
        rc = self.graph.coords[ids[square]]
        out[square] = self._files[rc[:, 1]] + self._ranks[rc[:, 0]]
        out[~square] = self._extra[ids[~square] - self.n_squares]
        return out.tolist()

    def source(self, entries):
        """The node whose row holds each CSR entry of ``entries`` (an int or an array), by binary search (the
        entries in the rows' own dtype: a Python int would make numpy copy all the rows to int64 each call)."""
        return np.searchsorted(self.indptr, np.asarray(entries, dtype=self.indptr.dtype), side="right") - 1

    def entry(self, u: int, v: int) -> int:
        """CSR entry of the move ``u -> v`` (-1 when there is none)."""
        lo, hi = int(self.indptr[u]), int(self.indptr[u + 1])
        k = np.flatnonzero(self.indices[lo:hi] == v)
        return lo + int(k[0]) if k.size else -1


def _closing_network(graph: KnightGraph, spec: TourSpec, clock: Deadline | None = None) -> _Network | None:
    """The network whose closed tours are the tours asked for, or None when colours already forbid them;
    ``clock`` is looked at while its arrays are built."""
    graph.build(clock, coords=True)  # the colours (from the coordinates) in bands, against the clock too
    n = graph.n
    even, odd = graph.board.colour_counts()
    s, e = spec_nodes(graph, spec)
    colour = graph.colour
    cname = colour_names(graph)
    if spec.closed:
        if n < 3 or even != odd:
            return None
        forced = []
        if s is not None and e is not None and s != e:
            if e not in graph.neighbours(s):
                return None
            forced.append((s, e))
        return _Network(graph, [], forced, "", clock)
    if n < 3 or abs(even - odd) > 1:
        return None
    fixed = [x for x in dict.fromkeys((s, e)) if x is not None]
    if len(fixed) == 1 and s == e and s is not None:
        return None
    all_of = [np.flatnonzero(colour == c) for c in (0, 1)]
    if even != odd:
        major = 0 if even > odd else 1
        if any(colour[x] != major for x in fixed):
            return None
        joined = np.array(sorted(fixed)) if len(fixed) == 2 else all_of[major]
        extra = [{"name": "*", "side": 1 - major, "joined": joined}]
        forced = [(n, x) for x in fixed]
        where = (
            f"{' and '.join(graph.name(x) for x in fixed)}"
            if len(fixed) == 2
            else f"every {cname[major]} square"
        )
        explain = (
            f"An open tour on this board starts and ends on {cname[major]} squares (there is one "
            f"{cname[major]} square more). Join its two ends through an extra square * joined to "
            f"{where}"
            + (f" (the tour uses the move *-{graph.name(fixed[0])})" if len(fixed) == 1 else "")
            + "; that gives a closed tour of the board plus *, so it is enough to show that none exists."
        )
        return _Network(graph, extra, forced, explain, clock)
    # Equal colour counts: the ends have opposite colours.
    if len(fixed) == 2 and colour[fixed[0]] == colour[fixed[1]]:
        return None
    ends = {0: all_of[0], 1: all_of[1]}
    for x in fixed:
        ends[int(colour[x])] = np.array([x])
    # "*1" has side 1 and joins the allowed side-0 ends; "*2" has side 0 and joins side-1 ends.
    extra = [
        {"name": "*1", "side": 1, "joined": ends[0]},
        {"name": "*2", "side": 0, "joined": ends[1]},
    ]
    forced = [(n, n + 1)] + [(n if colour[x] == 0 else n + 1, x) for x in fixed]

    def where(c):
        if ends[c].size == 1 and any(colour[x] == c for x in fixed):
            return graph.name(int(ends[c][0]))
        return f"every {cname[c]} square"

    explain = (
        f"An open tour on this board (as many {cname[0]} as {cname[1]} squares) ends on squares of "
        f"opposite colours. Join its ends through two extra squares joined to each other: *1, joined "
        f"to {where(0)}, and *2, joined to {where(1)}; the tour then closes through the moves "
        f"*1-*2 and {'those to ' + ' and '.join(graph.name(x) for x in fixed) if fixed else 'one move from each'}"
        f", so it is enough to show that the board plus *1 and *2 has no closed tour using these moves."
    )
    return _Network(graph, extra, forced, explain, clock)


class _Stop(Exception):
    """A contradiction was reached: the conclusion of the proof."""

    def __init__(self, conclusion: dict):
        self.conclusion = conclusion


class _MatchingProver:
    """State of the matching proof on a network: alive and forced moves, the steps taken."""

    def __init__(self, net: _Network):
        self.net = net
        n = net.n
        self.alive = np.ones(net.indices.size, dtype=np.uint8)
        self.forced = np.zeros(net.indices.size, dtype=np.uint8)
        # int32: half of int64's fresh memory, which cost about 2 ms a megabyte in a 10^7-square proof's process
        self.deg = np.diff(net.indptr)
        self.fdeg = np.zeros(n, dtype=np.int32)
        self.match = np.full(n, -1, dtype=np.int32)
        # Forced moves form paths: union-find over nodes with the two ends of each path.
        self.root = np.arange(n, dtype=np.int32)
        self.size = np.ones(n, dtype=np.int32)
        self._ends: dict[int, tuple[int, int]] = {}
        self.steps: list[dict] = []
        self.excluded = 0

    # ------------------------------------------------------------ small helpers
    def nm(self, v) -> str:
        return self.net.name(v)

    def move(self, u, v) -> list[str]:
        return self.net.names([u, v])

    def moves(self, us, vs) -> list[list[str]]:
        a, b = self.net.names(us), self.net.names(vs)
        return [list(x) for x in zip(a, b)]

    def path_ends(self, r: int) -> tuple[int, int]:
        return self._ends.get(r, (r, r))

    def find(self, v: int) -> int:
        root = self.root
        r = v
        while root[r] != r:
            r = int(root[r])
        while root[v] != r:
            root[v], v = r, int(root[v])
        return r

    def alive_moves(self, v: int) -> np.ndarray:
        lo, hi = int(self.net.indptr[v]), int(self.net.indptr[v + 1])
        return lo + np.flatnonzero(self.alive[lo:hi])

    def delete(self, p: int) -> None:
        net = self.net
        if not self.alive[p]:
            return
        q = int(net.twin[p])
        self.alive[p] = self.alive[q] = 0
        self.deg[net.source(p)] -= 1
        self.deg[net.indices[p]] -= 1
        self.excluded += 1

    def delete_many(self, entries: np.ndarray, sources: np.ndarray) -> None:
        """Delete the moves of ``entries``, whose nodes are ``sources``."""
        net, live = self.net, self.alive[entries] == 1
        entries, sources = entries[live], sources[live]
        self.alive[entries] = 0
        self.alive[net.twin[entries]] = 0
        self.deg -= np.bincount(sources, minlength=net.n)
        self.deg -= np.bincount(net.indices[entries], minlength=net.n)
        self.excluded += int(entries.size)

    # ------------------------------------------------------------ checks on what is left
    def check_left(self, connectivity: bool = True) -> None:
        """Stop when a square has fewer than two moves, or (``connectivity``) the moves fall apart."""
        net = self.net
        low = np.flatnonzero(self.deg < 2)
        if low.size:
            v = int(low[0])
            left = [self.nm(net.indices[p]) for p in self.alive_moves(v)]
            raise _Stop({"reason": "degree", "square": self.nm(v), "moves_left": left})
        if not connectivity:
            return
        label = kernel("component_labels", net.n)(net.indptr, net.indices, self.alive)
        k = int(label.max()) + 1
        if k > 1:
            sizes = np.bincount(label)
            first = [int(np.argmax(label == c)) for c in range(min(k, 6))]
            raise _Stop({
                "reason": "disconnected", "parts": k, "sizes": sizes[:1000].tolist(),
                "squares": [self.nm(v) for v in first],
            })
        disc, low_, parent, order, count = kernel("lowpoint_dfs", net.n)(net.indptr, net.indices, self.alive, 0)
        parts, _, _ = kernel("blocks", net.n)(disc, low_, parent, order, count)
        cut = np.flatnonzero(parts > 1)
        if cut.size:
            v = int(cut[0])
            alive = self.alive.copy()
            lo, hi = int(net.indptr[v]), int(net.indptr[v + 1])
            alive[lo:hi] = 0
            alive[net.twin[lo:hi]] = 0
            label = kernel("component_labels", net.n)(net.indptr, net.indices, alive)
            keep = np.arange(net.n) != v
            ids, first, sizes = np.unique(label[keep], return_index=True, return_counts=True)
            idx = np.flatnonzero(keep)
            raise _Stop({
                "reason": "cut", "square": self.nm(v), "parts": int(ids.size),
                "sizes": sizes[:1000].tolist(), "squares": [self.nm(idx[f]) for f in first[:1000]],
            })

    # ------------------------------------------------------------ the matching step
    def hall_step(self) -> int:
        """Delete the moves in no perfect matching; return how many went."""
        net = self.net
        match = self.match
        # the pairs whose move is still there are the warm start; the kernels make no array as long as the
        # moves (the numpy expressions they replace raised the proof's peak by 1.3 GB at 10^7 squares)
        kernel("drop_lost_pairs", net.n)(net.indptr, net.indices, self.alive, net.side, match)
        size = kernel("hopcroft_karp", net.n)(net.indptr, net.indices, self.alive, net.side, match)
        half = int((net.side == 0).sum())
        if size < half or half * 2 != net.n:
            self.hall_violation()
        comp, level = kernel("alternating_scc", net.n)(net.indptr, net.indices, self.alive, net.side, match)
        dst = net.indices
        gone = kernel("off_matchings", net.n)(net.indptr, dst, self.alive, net.side, match, comp)
        if not gone.size:
            return 0
        gone_src = net.source(gone)
        # the same tight sets named from the colour that needs fewer names: on the 10^7-square pair board
        # side 0 named 4,999,108 squares (52 MB of evidence), side 1 the two squares of the pair
        other = kernel("other_side_levels", net.n)(net.indptr, net.indices, self.alive, net.side, level)
        named = 0
        if np.count_nonzero(other) < np.count_nonzero(level[net.side == 0]):
            level, named = other, 1
        top = int(level.max())
        levels = {}
        for k in range(1, top + 1):
            levels[str(k)] = net.names(np.flatnonzero(level == k))
        # the moves in no perfect matching are exactly those the levels exclude, so the step gives their count
        # and the checker derives them (the open 10^6-square pocket board listed 499,978 moves: 8 MB)
        step = {"step": "hall", "levels": levels, "deleted": int(gone.size)}
        if named:
            step["levels_side"] = 1
        # Readable example: the smallest tight set (highest level) and its neighbours, with the moves from
        # those neighbours to other squares (``gone`` runs from side 0 to side 1)
        s_set = np.flatnonzero(level == top)
        nb = np.zeros(net.n, dtype=bool)
        # the set's own live moves, not a mask of every move (the step's own time at 10^7: 0.04 s, not 0.84 s)
        width = (net.indptr[s_set + 1] - net.indptr[s_set]).astype(np.int64)
        ent = np.repeat(net.indptr[s_set].astype(np.int64) - np.cumsum(width) + width, width)
        ent += np.arange(ent.size)
        nb[dst[ent[self.alive[ent] == 1]]] = True
        del ent
        t_set = np.flatnonzero(nb)
        there, back = (gone_src, dst[gone]) if named else (dst[gone], gone_src)
        ex = np.flatnonzero(nb[there])
        step["example"] = {
            "S": net.names(s_set[:SHOW]), "S_size": int(s_set.size), "side": named,
            "T": net.names(t_set[:SHOW]), "T_size": int(t_set.size),
            "moves": self.moves(there[ex[:SHOW]], back[ex[:SHOW]]), "moves_size": int(ex.size),
        }
        forced_gone = np.flatnonzero(self.forced[gone] == 1)
        self.steps.append(step)
        if forced_gone.size:
            k = int(forced_gone[0])
            raise _Stop({"reason": "forced excluded", "move": self.move(gone_src[k], dst[gone[k]])})
        self.delete_many(gone, gone_src)
        return int(gone.size)

    def hall_violation(self) -> None:
        """No perfect matching: the squares reached by alternating paths from an unmatched one."""
        net = self.net
        match = self.match
        for want in (0, 1):
            free = np.flatnonzero((net.side == want) & (match < 0))
            if free.size:
                break
        a0 = int(free[0])
        seen = {a0}
        nbrs: set[int] = set()
        queue = deque([a0])
        while queue:
            a = queue.popleft()
            for p in self.alive_moves(a):
                b = int(net.indices[p])
                if b in nbrs:
                    continue
                nbrs.add(b)
                m = int(match[b])
                if m >= 0 and m not in seen:
                    seen.add(m)
                    queue.append(m)
        raise _Stop({
            "reason": "no perfect matching",
            "S": [self.nm(v) for v in sorted(seen)],
            "T": [self.nm(v) for v in sorted(nbrs)],
        })

    # ------------------------------------------------------------ degree-2 forcing
    def force(self, p: int, queue: deque) -> None:
        net = self.net
        u, w = int(net.source(p)), int(net.indices[p])
        q = int(net.twin[p])
        self.forced[p] = self.forced[q] = 1
        self.fdeg[u] += 1
        self.fdeg[w] += 1
        for x in (u, w):
            if self.fdeg[x] > 2:
                moves = [self.nm(net.indices[r]) for r in self.alive_moves(x) if self.forced[r]]
                raise _Stop({"reason": "three forced", "square": self.nm(x), "forced_to": moves})
        ru, rw = self.find(u), self.find(w)
        if ru == rw:
            if self.size[ru] < net.n:
                raise _Stop({"reason": "short cycle", "move": self.move(u, w), "squares": int(self.size[ru])})
            raise _Stop({"reason": "forced tour"})  # the forced moves are a whole tour: no proof
        a1, a2 = self.path_ends(ru)
        b1, b2 = self.path_ends(rw)
        eu = a2 if a1 == u else a1
        ew = b2 if b1 == w else b1
        if self.size[ru] < self.size[rw]:
            ru, rw = rw, ru
        self.root[rw] = ru
        self.size[ru] += self.size[rw]
        self._ends.pop(rw, None)
        self._ends[ru] = (eu, ew)
        queue.append(u)
        queue.append(w)

    def no_short_cycle(self, v: int, queue: deque) -> None:
        """Delete the move joining the two ends of the forced path through ``v``, if it would close a short cycle."""
        net = self.net
        r = self.find(v)
        if self.size[r] >= net.n or self.size[r] < 2:
            return
        eu, ew = self.path_ends(r)
        p = net.entry(eu, ew)
        if p >= 0 and self.alive[p] and not self.forced[p]:
            self.delete(p)
            self.steps.append({"step": "subtour", "move": self.move(eu, ew), "path_squares": int(self.size[r])})
            queue.append(eu)
            queue.append(ew)

    def propagate(self, queue: deque, check=lambda: None) -> int:
        """Degree-2 forcing until nothing changes, ``check()`` (the clock) every 4,096 squares; the steps taken."""
        net = self.net
        before, looked = len(self.steps), 0
        while queue:
            looked += 1
            if looked % 4096 == 0:
                check()
            v = int(queue.popleft())
            if self.deg[v] < 2:
                left = [self.nm(net.indices[p]) for p in self.alive_moves(v)]
                raise _Stop({"reason": "degree", "square": self.nm(v), "moves_left": left})
            if self.fdeg[v] == 2 and self.deg[v] > 2:
                drop = [int(p) for p in self.alive_moves(v) if not self.forced[p]]
                self.steps.append({
                    "step": "drop", "square": self.nm(v),
                    "deleted": [self.move(v, net.indices[p]) for p in drop],
                })
                for p in drop:
                    self.delete(p)
                    queue.append(int(net.indices[p]))
            elif self.deg[v] == 2 and self.fdeg[v] < 2:
                moves = self.alive_moves(v)
                self.steps.append({
                    "step": "forced", "square": self.nm(v),
                    "moves": [self.move(v, net.indices[p]) for p in moves],
                })
                for p in moves:
                    if not self.forced[p]:
                        self.force(int(p), queue)
                self.no_short_cycle(v, queue)
        return len(self.steps) - before

    def start_queue(self) -> deque:
        want = ((self.deg == 2) & (self.fdeg < 2)) | ((self.fdeg == 2) & (self.deg > 2))
        return deque(np.flatnonzero(want).tolist())


#: Seconds per square the matching proof spends before it first looks at the clock (its network and first
#: matching: about 3 us per square measured); with less time it does not start.
SETUP_S_PER_SQUARE = 4e-6
#: Seconds a fresh process takes to load the matching proof's kernels from numba's cache (measured 0.2 to
#: 0.7 s on a shared machine), added to the setup while they are not loaded.
LOAD_S = 0.5
#: The kernels the matching proof loads on boards above ``PY_MAX`` squares.
_KERNELS = ("component_labels", "lowpoint_dfs", "blocks", "hopcroft_karp", "alternating_scc", "drop_lost_pairs",
            "off_matchings", "other_side_levels")


def _setup_seconds(n: int) -> float:
    """Seconds the matching proof needs on ``n`` squares before it first looks at the clock."""
    seconds = n * SETUP_S_PER_SQUARE
    if n > PY_MAX:
        kernels = sys.modules.get("ktsolve.proofs._kernels")  # not imported: surely not loaded
        if kernels is None or not all(getattr(kernels, k).signatures for k in _KERNELS):
            seconds += LOAD_S
    return seconds


#: The share of the time left that the first perfect matching may take from a 2-factor (:func:`_factor_matching`).
FACTOR_SHARE = 0.3


def _factor_matching(graph: KnightGraph, match: np.ndarray, clock) -> bool:
    """A perfect matching of the board from a 2-factor of it, as the first matching, in place.

    Hopcroft and Karp's phases find shortest augmenting paths, and the paths that carry one colour's
    surplus across a holed board are long: on 10^6 squares the first matching took 34 s from a greedy start.
    :func:`ktsolve.factor.two_factor` builds a 2-factor of such a board in about a second (its restoration
    carries the surplus by walks), and every second move of its even cycles pairs every square.  Without a
    2-factor in a share of the time (none may exist: the 2-factor proof says so), the matching starts
    greedy as before.  Returns whether the board's squares were paired.
    """
    from ..factor import two_factor
    from .two_factor import found_factor

    board = graph.board
    links = found_factor(board)  # the 2-factor proof's, when it ran on this board before
    if links is None:
        tf = two_factor(board, closed=True, deadline=clock.part(FACTOR_SHARE))
        if tf.status != "found":
            return False
        links = tf.links
    number = np.full(board.size, -1, dtype=np.int32)
    number[np.flatnonzero(board.mask.reshape(-1))] = np.arange(graph.n, dtype=np.int32)
    # a writable copy: the kernel's one compiled signature, and the 2-factor proof's links stay as they were
    links = np.array(links, dtype=np.int8, order="C").reshape(board.size, 2)
    kernel("matching_from_factor", graph.n)(links, board.rows, board.cols, number, match)
    return True


def _tight_sets(graph: KnightGraph, spec: TourSpec, match: np.ndarray, clock) -> Proof | None:
    """The tight-set proof of an open question (:mod:`.ends`), where the matching argument found nothing:
    from the last matching, its pairs with an extra square undone."""
    from .ends import tight_sets_proof

    board_match = match[: graph.n].copy()
    board_match[board_match >= graph.n] = -1
    return tight_sets_proof(graph, spec, board_match, clock)


def matching_proof(graph: KnightGraph, spec: TourSpec, *, time_limit=None) -> Proof | None:
    """The matching proof with degree-2 forcing; a :class:`Proof` or None.

    Parameters
    ----------
    graph : KnightGraph
    spec : TourSpec
    time_limit : float or Deadline, optional
        Seconds, or a caller's :class:`~ktsolve.driver.Deadline` (a race's
        cancel flag included); looked at between rounds and every 4,096
        squares of their forcing.  When it runs out,
        or Ctrl-C is pressed, :class:`~ktsolve.driver.Stopped` is raised,
        never a wrong answer; it is raised at once when the time left is
        less than the network and the first matching need (about
        :data:`SETUP_S_PER_SQUARE` a square, and :data:`LOAD_S` to load the
        kernels in a fresh process), and before a round when the time left
        is less than the last round took, since it would not end in it.

    Returns
    -------
    Proof or None
        ``argument == "matching"``; ``evidence`` holds every step (see
        :func:`check_matching_proof`).  On an open question where that
        argument finds nothing, the tight-set proof of :mod:`.ends` from its
        last matching (``argument == "tight sets"``).  None when neither
        finds a contradiction, or when colour counts or sizes already rule
        the tour out (:func:`quick_proof` says so).

    Notes
    -----
    Each round costs one maximum matching (``O(E sqrt(V))``, warm-started
    from the previous round), one strongly-connected-components pass and one
    depth-first search (``O(E)``); every round but the last deletes at least
    one move.  Boards of at most :data:`PY_MAX` nodes run the kernels as
    plain Python, larger ones compiled by numba.

    Examples
    --------
    >>> from ktsolve import Board
    >>> proof = matching_proof(KnightGraph(Board(4, 9)), TourSpec(closed=True))
    >>> proof.argument, proof.evidence["conclusion"]["reason"]
    ('matching', 'disconnected')
    """
    phase = "running the matching proof"
    left = Deadline.of(time_limit).remaining()
    if left is not None and _setup_seconds(graph.n) > left:
        raise Stopped("time limit", phase)  # it would not look at the clock before the time is up
    clock = start(graph.n, time_limit)
    net = _closing_network(graph, spec, clock)
    if net is None:
        return None
    prover = _MatchingProver(net)
    if len(net.extra) != 1 and graph.n > PY_MAX:
        # a closed question, or an open one on a board of equal colours (*1 and *2 then pair each other)
        if _factor_matching(graph, prover.match, clock) and net.extra:
            prover.match[graph.n], prover.match[graph.n + 1] = graph.n + 1, graph.n
    rounds = 0
    try:
        queue: deque = deque()
        for u, v in net.forced0:
            p = net.entry(u, v)
            if not prover.forced[p]:
                prover.force(p, queue)
        for u, _ in net.forced0:
            prover.no_short_cycle(u, queue)
        # Before any deletion a closed question's network is the board itself,
        # whose connectivity and cut squares quick_proof examines.
        prover.check_left(connectivity=bool(net.extra))
        took = 0.0  # seconds of the last round: a round that cannot end in the time left does not start
        while True:
            clock.check(phase)
            left = clock.remaining()
            if left is not None and took > left:
                raise Stopped("time limit", phase)
            t0 = time.perf_counter()
            rounds += 1
            deleted = prover.hall_step()
            if deleted:
                prover.check_left()
            changed = prover.propagate(prover.start_queue(), lambda: clock.check(phase))
            if changed:
                prover.check_left()
            if not deleted and not changed:
                return _tight_sets(graph, spec, prover.match, clock) if net.extra else None
            took = time.perf_counter() - t0
    except _Stop as stop:
        conclusion = stop.conclusion
    if conclusion["reason"] == "forced tour":
        return None
    evidence = {
        "nodes": "board squares by name; extra squares * / *1 / *2 close an open tour",
        "side0": colour_names(graph)[0],
        "extra": [
            {"name": x["name"], "colour": colour_names(graph)[x["side"]],
             "joined_to": [net.name(v) for v in x["joined"][:1000]], "joined_count": int(len(x["joined"]))}
            for x in net.extra
        ],
        "forced_at_start": [[net.name(u), net.name(v)] for u, v in net.forced0],
        "steps": prover.steps,
        "conclusion": conclusion,
        "rounds": rounds,
        "excluded": prover.excluded,
    }
    return Proof(_matching_text(graph, spec, net, prover.steps, conclusion, prover.excluded), argument="matching",
                 evidence=evidence)


def _moves_text(moves, total: int | None = None, limit: int = 6) -> str:
    total = len(moves) if total is None else total
    shown = ", ".join(f"{a}-{b}" for a, b in moves[:limit])
    return shown + (f" ... ({total} moves)" if total > limit else "")


def _matching_text(graph, spec, net, steps, conclusion, excluded) -> str:
    cname = colour_names(graph)
    parts = []
    if net.explain:
        parts.append(net.explain)
    parts.append(
        "A closed tour uses two moves at every square and, as colours alternate, every second move "
        "of it pairs each square with a neighbour of the other colour: the tour is two disjoint "
        "perfect matchings, so each of its moves lies in some perfect matching, and a square left "
        "with two usable moves must use both."
    )
    halls = [s for s in steps if s["step"] == "hall"]
    if halls:
        ex = halls[0]["example"]
        n_hall = sum(s["deleted"] for s in halls)  # a Hall step gives its count
        colour = cname[ex.get("side", 0)]
        parts.append(
            f"The {ex['S_size']} {colour} squares {listing(ex['S'], ex['S_size'])} have between them only "
            f"the {ex['T_size']} neighbours {listing(ex['T'], ex['T_size'])}; every perfect matching pairs "
            f"the first with the second, so the {ex['moves_size']} moves {_moves_text(ex['moves'], ex['moves_size'])} "
            f"from those neighbours to other squares lie in no perfect matching"
            + (
                f". The same argument with the nested sets of the evidence (Hall's theorem"
                f"{', ' + str(len(halls)) + ' rounds' if len(halls) > 1 else ''}) excludes {n_hall} moves in all."
                if n_hall > ex["moves_size"] else "."
            )
        )
    forced = [s for s in steps if s["step"] == "forced"]
    drops = [s for s in steps if s["step"] == "drop"]
    subs = [s for s in steps if s["step"] == "subtour"]
    if forced or drops or subs:
        bits = []
        if forced:
            bits.append(
                f"{count(len(forced), 'square')} left with two moves must use both "
                f"({listing([s['square'] for s in forced], len(forced), 6)})"
            )
        if drops:
            k = sum(len(s["deleted"]) for s in drops)
            bits.append(f"squares already using two forced moves cannot use their other {count(k, 'move')}")
        if subs:
            bits.append(
                f"{count(len(subs), 'move')} would close a chain of forced moves into a cycle missing other "
                f"squares ({_moves_text([s['move'] for s in subs], len(subs), 4)})"
            )
        parts.append("Then " + "; ".join(bits) + ".")
    reason = conclusion["reason"]
    if reason == "degree":
        left = conclusion["moves_left"]
        end = (
            f"{conclusion['square']} is left with {len(left)} usable move{'s' if len(left) != 1 else ''}"
            f"{' (to ' + ', '.join(left) + ')' if left else ''}, but a closed tour needs two"
        )
    elif reason == "disconnected":
        sz = conclusion["sizes"]
        end = (
            f"the remaining moves fall into {conclusion['parts']} separate parts "
            f"({', '.join(f'{a} squares around {b}' for a, b in zip(sz[:4], conclusion['squares'][:4]))})"
        )
    elif reason == "cut":
        end = (f"taking out {conclusion['square']} splits the remaining moves into {conclusion['parts']} "
               f"parts, but a closed tour without one square is still one path")
    elif reason == "no perfect matching":
        end = (f"the {len(conclusion['S'])} squares {listing(conclusion['S'], len(conclusion['S']))} have "
               f"only {len(conclusion['T'])} neighbours left between them, so no perfect matching exists")
    elif reason == "forced excluded":
        a, b = conclusion["move"]
        end = f"the move {a}-{b} is forced but lies in no perfect matching"
    elif reason == "three forced":
        end = f"{conclusion['square']} would have to use three moves ({', '.join(conclusion['forced_to'])})"
    elif reason == "short cycle":
        a, b = conclusion["move"]
        end = f"the forced moves close into a cycle of {conclusion['squares']} squares through {a}-{b}"
    else:  # pragma: no cover - every reason is listed above
        end = reason
    what = "closed tour" if spec.closed else "tour"
    tail = f" ({count(excluded, 'move')} excluded in all)" if excluded else ""
    parts.append(f"Finally, {end}; so no {what} exists{tail}.")
    return " ".join(parts)

