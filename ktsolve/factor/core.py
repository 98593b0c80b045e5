"""Completing a 2-factor, or finding the witness that none exists: the Python side of the kernels.

See :mod:`ktsolve.factor` for the network, the witness and the link format.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import numpy as np

from .. import jit
from ..board import Board
from ..checks import check_flag
from ..driver import Deadline, Stopped
from ..errors import InvalidParameterError
from .chunks import in_chunks, loading
from .network import Network, network

__all__ = ["TwoFactor", "Witness", "two_factor", "warm", "PY_MAX", "RESTORE_MIN"]

#: Boards of at most this many cells run the kernels as plain Python: loading the compiled kernels
#: from numba's cache takes 0.4 to 1.3 s in a fresh process, plain Python about 15 us a cell on a
#: board with few holes but more on boards with many (0.2 s at 40 x 40 with 25% holes, loaded machine).
PY_MAX = 2_500

#: Boards of at least this many cells, started cold, have the tiled cycles restored by the short
#: alternating paths and Hilbert-curve walks of :mod:`ktsolve.factor.restore` before the complete
#: search: the complete search alone carries each colour surplus to the nearest short square of the
#: other colour, and its work grew faster than the board (22 s at 4000 x 4000 with 1 % holes, not
#: done in 15 min at 10000 x 10000; ``benchmarks/results/two_factor_huge.md``).
RESTORE_MIN = 250_000

#: The share of its searches a round of the restoration's searches towards a partner must link for another
#: round to run (:func:`ktsolve.factor.restore.restore_factor`); the forests take what is left.  On
#: 2000 x 2000 with 20 % holes the first round linked 65 % of its searches and the next ones 8 %, 0.5 %
#: and less at 45 s a round (no 2-factor: 54 s in all against more than 300 s); on rings 6 wide at 1311 x
#: 1311 the second round linked none (5.2 s against 7.5 s); on 4000 x 4000 with 1 % or 5 % holes at most one
#: round ran, and it linked every square.
TOWARD_YIELD = 0.75

#: Side of the square buckets in which short sink squares are looked up (the searches' targets).
_BUCKET = 32

#: Seconds one call of the augmenting kernel aims at, between looks at the clock.
_CHUNK_S = 0.05
#: Nodes the searches of one call of the augmenting kernel may reach before it returns to look at the clock
#: (about 0.05 s at 200 ns a node).  The count of searches a call makes is sized on the calls before, and
#: searches can grow costly: on rings 10 wide at 390 x 390 one call ran the last 1.1 s of the completion.
_REACHED_PER_CALL = 1 << 18


@dataclass(frozen=True)
class Witness:
    """Sets ``X`` (colour ``colour``) and ``Y`` (the other colour) with ``need > supply_y + supply_rest``.

    ``X`` and ``Y`` are sorted int32 square numbers of the board;
    ``x_extra`` / ``y_extra`` say whether the extra vertex of ``X``'s /
    ``Y``'s colour belongs to the set.  ``need`` is ``b(X)`` (the moves the
    vertices of ``X`` need), ``supply_y`` is ``b(Y)`` and ``supply_rest``
    is ``e(X, Q \\ Y)``, the moves from ``X`` to vertices outside ``Y``.
    """

    colour: int
    X: np.ndarray
    Y: np.ndarray
    x_extra: bool = False
    y_extra: bool = False
    need: int = 0
    supply_y: int = 0
    supply_rest: int = 0


@dataclass(frozen=True)
class TwoFactor:
    """The answer of :func:`two_factor`.

    Attributes
    ----------
    status : str
        ``"found"``, ``"none"`` or ``"unknown"`` (the deadline expired).
    links : ndarray or None
        ``int8 (rows, cols, 2)``, the 2-factor when found.
    witness : Witness or None
        Why none exists.
    network : Network
        The network of the question.
    seconds : float
    augmentations, searches, greedy, dropped : int
        Augmenting paths applied, residual searches run, links the greedy
        start added, slots of ``init`` that were not links of the network.
    stats : dict
        All of the counts, the seconds of every phase, and ``reason`` for an
        ``unknown``.
    """

    status: str
    links: np.ndarray | None = None
    witness: Witness | None = None
    network: Network | None = None
    seconds: float = 0.0
    augmentations: int = 0
    searches: int = 0
    greedy: int = 0
    dropped: int = 0
    stats: dict[str, Any] = field(default_factory=dict)


_PURE: dict = {}


def pure_kernels() -> dict:
    """The kernels of :mod:`._kernels` as plain Python, calling each other as plain Python.

    ``kernel.py_func`` alone would still call the jitted helpers (and load
    or compile them); each kernel here is its :func:`ktsolve.jit.python_twin`,
    whose helpers (its own file's and the shared grid helpers) are plain
    Python too, so a small board pays no numba start-up at all.
    """
    if not _PURE:
        from . import _kernels as K

        _PURE.update({name: jit.python_twin(getattr(K, name)) for name in K.__all__ if name != "DEAD"})
    return _PURE


#: The kernels a completion calls from Python.
_CALLED = ("sanitize_links", "sanitize_caps", "tile", "greedy_moves", "greedy_extras", "deficient_cells",
           "deficient_extra", "buckets", "augment")


def _kernels(n: int, deadline: Deadline) -> SimpleNamespace:
    """The kernels of a completion: jitted (compiled first, the deadline extended by it) or plain."""
    if n > PY_MAX:
        from . import _kernels as K

        deadline.extend(warm())
        return SimpleNamespace(**{name: getattr(K, name) for name in _CALLED})
    k = pure_kernels()
    return SimpleNamespace(**{name: k[name] for name in _CALLED})


class _Passes:
    """The passes of a completion over the cells, each in parts with the deadline checked between them
    (:func:`ktsolve.factor.chunks.in_chunks`); the same links as one pass over every cell."""

    def __init__(self, K, mask, links, rows: int, cols: int, net, epart, deadline: Deadline):
        self.K, self.mask, self.links, self.rows, self.cols = K, mask, links, rows, cols
        self.net, self.epart, self.deadline = net, epart, deadline
        self.n = rows * cols

    def _cells(self, kernel, *extra, phase: str) -> int:
        m, lk, r, c, net = self.mask, self.links, self.rows, self.cols, self.net
        return in_chunks(self.n, lambda a, b: kernel(m, lk, r, c, net, *extra, a, b), self.deadline, phase,
                         first=1 << 18)

    def tile(self) -> int:
        m, lk, r, c, net = self.mask, self.links, self.rows, self.cols, self.net
        return in_chunks(self.rows, lambda a, b: self.K.tile(m, lk, r, c, net, a, b), self.deadline,
                         "tiling the 2-factor", first=64)

    def sanitize(self) -> int:
        return (self._cells(self.K.sanitize_links, self.epart, phase="preparing the 2-factor")
                + self._cells(self.K.sanitize_caps, self.epart, phase="preparing the 2-factor"))

    def greedy(self) -> int:
        added = self._cells(self.K.greedy_moves, phase="preparing the 2-factor")
        for colour in range(2):
            added += self._cells(self.K.greedy_extras, self.epart, colour, phase="preparing the 2-factor")
        return added

    def deficient(self, colour: int) -> np.ndarray:
        parts = []
        m, lk, r, c, net = self.mask, self.links, self.rows, self.cols, self.net

        def some(a: int, b: int) -> int:
            parts.append(self.K.deficient_cells(m, lk, r, c, net, colour, a, b))
            return 0

        in_chunks(self.n, some, self.deadline, "completing the 2-factor", first=1 << 18)
        parts.append(self.K.deficient_extra(net, self.epart, colour, self.n))
        return np.concatenate(parts)


def _init_links(board: Board, init) -> np.ndarray:
    shape = (board.rows, board.cols, 2)
    if init is None:
        return np.full(shape, -1, dtype=np.int8)
    arr = np.asarray(init)
    if arr.shape != shape or not np.issubdtype(arr.dtype, np.integer):
        raise InvalidParameterError(
            f"init must be an integer array of shape {shape} (links), not {arr.dtype} {arr.shape}")
    out = np.empty(shape, dtype=np.int8)
    np.clip(arr, -1, 127, out=out, casting="unsafe")  # codes outside -1 .. 8 are dropped later
    return out


def _squares(board: Board, flat: np.ndarray) -> np.ndarray:
    """Square numbers of flat cells (sorted in, sorted out)."""
    flat = np.asarray(flat, dtype=np.int64)
    return (flat - np.searchsorted(board.hole_flat, flat)).astype(np.int32)


def _capacity(board: Board, net: Network, colour: int) -> int:
    """``b`` of every vertex of ``colour``: its squares and its extra vertex."""
    counts = board.colour_counts()
    total = 2 * counts[colour]
    total -= sum(1 for f in net.cap1 if (f // net.cols + f % net.cols) & 1 == colour)
    x = net.extra(colour)
    return total + (x.cap if x is not None else 0)


def _witness(board: Board, net: Network, colour: int, x_flat, y_flat, x_extra: bool, y_extra: bool) -> Witness:
    from .check import witness_counts

    need, sy, rest = witness_counts(board, net, colour, x_flat, y_flat, x_extra, y_extra)
    return Witness(colour, _squares(board, x_flat), _squares(board, y_flat), bool(x_extra), bool(y_extra),
                   need, sy, rest)


def _colour_cells(board: Board, colour: int) -> np.ndarray:
    r = np.arange(board.rows).reshape(-1, 1)
    c = np.arange(board.cols).reshape(1, -1)
    return np.flatnonzero(board.mask & (((r + c) & 1) == colour))


def _reinstate(links: np.ndarray, net: Network, closed: bool) -> None:
    """Put the forced moves the network took out back into a found 2-factor's links."""
    from ..graph import KNIGHT_MOVES

    cols = net.cols
    for f in net.cap1:
        r, c = divmod(f, cols)
        slot = 0 if links[r, c, 0] < 0 else 1
        if closed:
            g = net.banned[1] if f == net.banned[0] else net.banned[0]
            dr, dc = g // cols - r, g % cols - c
            links[r, c, slot] = [k for k, m in enumerate(KNIGHT_MOVES.tolist()) if m == [dr, dc]][0]
        else:
            links[r, c, slot] = 8


def _restore(board: Board, flat_links: np.ndarray, deadline: Deadline, phases: dict) -> None:
    """The tiled cycles with the holes' links cut, restored towards two links a square (no extra vertices).

    The restoration knows only squares and moves; links it lays that the
    question's network does not have (a banned closing move, a second link
    at a fixed end) are dropped by :func:`~._kernels.sanitize_links` afterwards, and what is
    still short goes to the complete search.
    """
    from .restore import restore_factor, warm as restore_warm

    deadline.extend(restore_warm())
    t = time.perf_counter()
    rows, cols = board.rows, board.cols
    alive = np.ascontiguousarray(board.mask).reshape(-1).view(np.uint8)
    # with its search forests: where the colours' surplus lies beyond thin links (rings 6 wide, 2 apart), each
    # complete search below crossed whole rings, about 280,000 squares a search at 10^6 squares (rings 6 wide at
    # 1311 x 1311: 11.3 s against 7.5 s; at 4144 x 4144 over 300 s against 84 s); where the searches towards a
    # partner leave none short (random holes), no forest runs
    short, rstats = restore_factor(flat_links.reshape(rows * cols, 2), alive, rows, cols, free_ends=0,
                                   deadline=deadline, toward_yield=TOWARD_YIELD)
    phases["restore_s"] = time.perf_counter() - t
    phases["restore_short_at_start"] = rstats["short_at_start"]
    phases["restore_left"] = short
    phases["forest_rounds"] = rstats["forest_rounds"]
    phases["toward_rounds"] = rstats["toward_rounds"]


def two_factor(board: Board, *, closed: bool = True, start=None, end=None, init=None,
               deadline: Deadline | None = None, restore: bool | None = None) -> TwoFactor:
    """A 2-factor of the question's network, or a witness that none exists.

    Parameters
    ----------
    board : Board
    closed : bool
        A closed tour (the plain 2-factor), or an open one (the network with
        extra vertices, see :mod:`ktsolve.factor`).
    start, end : square, optional
        Fixed ends, ``(row, col)`` or names.
    init : array, optional
        Links ``(rows, cols, 2)`` to start from (a warm start, such as
        :func:`~ktsolve.factor.links_from_tour` of a tour of the full board
        with the holes deleted); links that are not links of this network
        are dropped (counted in ``dropped``).  Not modified.
    deadline : Deadline, optional
        The caller's clock (None: no time limit), checked between phases
        and between calls of the augmenting kernel; when it expires (or
        Ctrl-C), the answer is ``unknown``.  The one conversion is here, at
        this public entry: every phase below takes the Deadline itself.
    restore : bool, optional
        Whether a cold start is first restored by
        :func:`ktsolve.factor.restore.restore_factor` (short alternating
        paths, then missing links walked to partners along a Hilbert curve);
        by default on boards of at least :data:`RESTORE_MIN` cells.  The
        answer does not depend on it, only the time: the complete search
        that follows finishes from whatever links the restoration leaves.

    Returns
    -------
    TwoFactor

    Notes
    -----
    The cold start lays a 2-factor of the 4 x 4 board on every whole 4 x 4
    block (so each hole leaves two squares of the other colour short of a
    move), a warm start keeps the valid links of ``init``; then a greedy
    pass links neighbours that are both short, and one residual search runs
    from every vertex of the source colour still short of moves.  A search
    goes nearest-first towards a short sink square found in buckets of
    32 x 32 cells, so a search whose augmenting path is ``d`` moves long
    reaches about ``d`` times a few nodes (breadth-first search reached the
    area ``d**2``, and random holes need paths of every length: the colours
    are unbalanced in regions of every size).  A search that fails marks the
    closed set it reached, which no later search enters; those sets are the
    witness.  Measured with 1% random holes on a shared 2-core machine:
    1000 x 1000 in 0.6 to 1.5 s, 4000 x 4000 in 18 to 35 s, the nodes
    reached growing a little faster than the board (1.3 a cell at 1000 x
    1000, 2.5 at 4000 x 4000: the long paths of the colours' imbalance in
    large regions); see ``benchmarks/results/two_factor.md``.  Memory: the mask
    (1 byte a cell), the links (2), a search stamp (4) and a parent move (1),
    plus work arrays as large as the largest search.

    The answer ``stats`` also hold ``tiled`` (moves of the cold start),
    ``reached`` (nodes reached by all searches), ``failed_searches``,
    ``short_at_start`` and the seconds of the phases (``start_s``,
    ``augment_s``, ``witness_s``); for an ``unknown``, ``reason``.

    Examples
    --------
    >>> tf = two_factor(Board(6, 6))
    >>> tf.status, int((tf.links >= 0).sum())
    ('found', 72)
    >>> tf = two_factor(Board(4, 5), closed=False)   # the ends joined through extra squares
    >>> tf.status, int((tf.links == 8).sum())
    ('found', 2)
    >>> tf = two_factor(Board(5, 4, holes=[(1, 3), (3, 0)]))
    >>> tf.status, tf.witness.need, tf.witness.supply_y, tf.witness.supply_rest
    ('none', 6, 2, 3)
    """
    if not isinstance(board, Board):
        raise InvalidParameterError(f"board must be a Board, not {type(board).__name__}")
    closed = check_flag("closed", closed)
    deadline = Deadline.of(deadline)
    t0 = time.perf_counter()
    net = network(board, closed=closed, start=start, end=end)
    rows, cols = board.rows, board.cols
    n = rows * cols
    phases: dict[str, float] = {}

    def done(status, links=None, witness=None, counters=(0, 0, 0, 0, 0), greedy=0, dropped=0, **extra):
        stats = {"augmentations": int(counters[2]), "searches": int(counters[1]),
                 "failed_searches": int(counters[3]), "reached": int(counters[4]), "greedy": int(greedy), "dropped": int(dropped),
                 "tiled": int(tiled), **{k: round(v, 6) for k, v in phases.items()}, **extra}
        return TwoFactor(status, links, witness, net, time.perf_counter() - t0, int(counters[2]),
                         int(counters[1]), int(greedy), int(dropped), stats)

    tiled = 0
    if net.trivial:
        links = np.full((rows, cols, 2), -1, dtype=np.int8)
        links[board.mask] = 8
        return done("found", links)
    try:
        deadline.check("preparing the 2-factor")
        links = _init_links(board, init)
        flat_links = links.reshape(-1)
        mask = np.ascontiguousarray(board.mask).view(np.uint8).reshape(-1)
        netarr = net.as_array()
        epart = np.full((2, 2), -1, dtype=np.int64)
        K = _kernels(n, deadline)
        buckets, augment = K.buckets, K.augment
        passes = _Passes(K, mask, flat_links, rows, cols, netarr, epart, deadline)
        t = time.perf_counter()
        if init is None:
            dropped, tiled = 0, passes.tile()
            if restore if restore is not None else n >= RESTORE_MIN:
                _restore(board, flat_links, deadline, phases)
                if net.cap1 or net.banned:  # the only links the restoration may lay that the network lacks
                    dropped = passes.sanitize()
        else:
            dropped, tiled = passes.sanitize(), 0
        added = passes.greedy()
        phases["start_s"] = time.perf_counter() - t
        deadline.check("completing the 2-factor")
        src = net.source
        b_src, b_snk = _capacity(board, net, src), _capacity(board, net, 1 - src)
        if b_src != b_snk:
            big = src if b_src > b_snk else 1 - src
            w = _witness(board, net, big, _colour_cells(board, big), _colour_cells(board, 1 - big),
                         net.extra(big) is not None, net.extra(1 - big) is not None)
            return done("none", witness=w, greedy=added, dropped=dropped)
        t = time.perf_counter()
        todo = passes.deficient(src)
        dsink = passes.deficient(1 - src)
        stamp = np.zeros(n, dtype=np.int32)
        estamp = np.zeros(2, dtype=np.int64)
        parent = np.zeros(n, dtype=np.int8)
        eparent = np.full(2, -1, dtype=np.int64)
        vis = np.empty(1 << 12, dtype=np.int32)  # the nodes a search reached (grown by the kernel)
        heap = np.empty(1 << 12, dtype=np.int64)  # its queue by distance to the target
        bstart, bentry, bcount = buckets(dsink, rows, cols, _BUCKET)
        counters = np.zeros(5, dtype=np.int64)
        pos, chunk = 0, 64
        while pos < todo.size:
            deadline.check("completing the 2-factor")
            c0 = time.perf_counter()
            pos, vis, heap = augment(mask, flat_links, rows, cols, netarr, epart, stamp, estamp, parent, eparent,
                                     vis, heap, todo, pos, chunk, _REACHED_PER_CALL, dsink, _BUCKET, bstart, bentry,
                                     bcount, counters)
            pos = int(pos)
            spent = time.perf_counter() - c0
            chunk = int(min(max(chunk * (2 if spent < _CHUNK_S / 2 else 1), 1), 1 << 24)) if spent < _CHUNK_S \
                else max(1, chunk // 2)
        phases["augment_s"] = time.perf_counter() - t
        phases["short_at_start"] = int(todo.size)
        del vis, heap, parent
        if counters[3] == 0:
            _reinstate(links, net, closed)
            return done("found", links, counters=counters, greedy=added, dropped=dropped)
        deadline.check("extracting the witness")
        t = time.perf_counter()
        dead = np.flatnonzero(stamp == -1)
        del stamp
        colour = ((dead // cols) + (dead % cols)) & 1
        w = _witness(board, net, src, dead[colour == src], dead[colour != src],
                     bool(estamp[src] == -1), bool(estamp[1 - src] == -1))
        phases["witness_s"] = time.perf_counter() - t
        return done("none", witness=w, counters=counters, greedy=added, dropped=dropped)
    except Stopped as stop:
        return done("unknown", **stop.stats())


def _warm_calls() -> None:
    from . import _kernels as K

    board = Board(6, 6)
    mask = np.ascontiguousarray(board.mask).view(np.uint8).reshape(-1)
    for closed in (True, False):
        net = network(board, closed=closed).as_array()
        links = np.full(72, -1, dtype=np.int8)
        epart = np.full((2, 2), -1, dtype=np.int64)
        K.sanitize_links(mask, links, 6, 6, net, epart, 0, 36)
        K.sanitize_caps(mask, links, 6, 6, net, epart, 0, 36)
        K.tile(mask, links, 6, 6, net, 0, 6)
        K.greedy_moves(mask, links, 6, 6, net, 0, 36)
        K.greedy_extras(mask, links, 6, 6, net, epart, 0, 0, 36)
        loading("2-factor")
        todo, sinks = (np.concatenate([K.deficient_cells(mask, links, 6, 6, net, c, 0, 36),
                                       K.deficient_extra(net, epart, c, 36)]) for c in (0, 1))
        bstart, bentry, bcount = K.buckets(sinks, 6, 6, _BUCKET)
        K.augment(mask, links, 6, 6, net, epart, np.zeros(36, dtype=np.int32), np.zeros(2, dtype=np.int64),
                  np.zeros(36, dtype=np.int8), np.full(2, -1, dtype=np.int64), np.empty(4, dtype=np.int32),
                  np.empty(4, dtype=np.int64), todo, 0, 64, _REACHED_PER_CALL, sinks, _BUCKET, bstart, bentry, bcount,
                  np.zeros(5, dtype=np.int64))
        K.label_cycles(links, 6, 6)


def warm() -> float:
    """Compile (or load from numba's cache) the 2-factor kernels; seconds spent compiling.

    Examples
    --------
    >>> warm() >= 0.0
    True
    """
    from . import _kernels as K

    return jit.prepare("2-factor", _warm_calls, [getattr(K, name) for name in K.__all__ if name != "DEAD"])
