"""The knight graph of a board: squares joined by a knight's move.

Two views of one graph:

* numpy arrays for numba kernels: ``table`` (``n x k`` int32, the square
  reached by move ``j`` from square ``i`` or -1) and the CSR pair ``indptr``,
  ``indices`` (int32) with ``edge_move`` giving the move number of every CSR
  entry.  Within a square, neighbours follow the fixed move order.
* :meth:`KnightGraph.to_networkx` for the exact side and for tests.

The move order is the one of Squirrel & Cull's move types 1..8 (Ganzfried
2004), as ``(row change, col change)``:
``(-2,+1) (-1,+2) (+1,+2) (+2,+1) (+2,-1) (+1,-2) (-1,-2) (-2,-1)``,
so move ``j`` (0-based) is their type ``j + 1``.  Other leapers are a
parameter: :func:`leaper_moves` builds the move set of an ``(a, b)``-leaper.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from functools import cached_property

import numpy as np

from .board import Board
from .errors import InvalidBoardError

__all__ = ["KNIGHT_MOVES", "KnightGraph", "leaper_moves", "MAX_GRAPH_SQUARES"]


def leaper_moves(a: int, b: int) -> np.ndarray:
    """Moves of the ``(a, b)``-leaper as an ``(k, 2)`` int32 array, clockwise from ``(-b, +a)``.

    Examples
    --------
    >>> leaper_moves(1, 2).tolist()[:3]
    [[-2, 1], [-1, 2], [1, 2]]
    >>> len(leaper_moves(1, 1)), len(leaper_moves(0, 1))
    (4, 4)
    """
    a, b = abs(int(a)), abs(int(b))
    if a == 0 and b == 0:
        raise ValueError("a (0, 0)-leaper does not move")
    cands = [(-b, a), (-a, b), (a, b), (b, a), (b, -a), (a, -b), (-a, -b), (-b, -a)]
    seen: list[tuple[int, int]] = []
    for mv in cands:
        if mv not in seen:
            seen.append(mv)
    return np.array(seen, dtype=np.int32)


#: The knight's moves in Squirrel & Cull's type order 1..8.
KNIGHT_MOVES = leaper_moves(1, 2)
KNIGHT_MOVES.setflags(write=False)

#: Largest board whose graph arrays are built (about 0.8 GB of int32 at this size).
MAX_GRAPH_SQUARES = 25_000_000

#: Squares per band when the arrays are built (a band takes a few milliseconds).
BAND_SQUARES = 250_000

_CACHE: "OrderedDict[tuple, KnightGraph]" = OrderedDict()
#: Held while a graph's arrays are built (:meth:`KnightGraph.build`).
_BUILD_LOCK = threading.RLock()
_CACHE_SIZE = 8


class KnightGraph:
    """Knight graph of a board.

    Parameters
    ----------
    board : Board
    moves : (k, 2) array of int, optional
        The leaper's moves as ``(row change, col change)``; the knight by default.

    Notes
    -----
    Arrays are built on first use and kept: ``table`` in ``O(n k)`` time with
    numpy, then the CSR arrays from it.  Use :meth:`of` to share one graph per
    board.

    Examples
    --------
    >>> g = KnightGraph(Board(8, 8))
    >>> g.n, g.n_edges, int(g.degree.min()), int(g.degree.max())
    (64, 168, 2, 8)
    """

    def __init__(self, board: Board, moves=None):
        if not isinstance(board, Board):
            raise TypeError(f"expected a Board, got {type(board).__name__}")
        self.board = board
        mv = KNIGHT_MOVES if moves is None else np.asarray(moves, dtype=np.int32).reshape(-1, 2)
        self.moves = mv
        self.n = board.n_squares

    @classmethod
    def of(cls, board: Board, moves=None) -> "KnightGraph":
        """The shared graph of ``board`` (a small cache keeps the last few)."""
        mv = KNIGHT_MOVES if moves is None else np.asarray(moves, dtype=np.int32).reshape(-1, 2)
        key = (board, mv.tobytes())
        graph = _CACHE.get(key)
        if graph is None:
            graph = cls(board, mv)
            _CACHE[key] = graph
            while len(_CACHE) > _CACHE_SIZE:
                _CACHE.popitem(last=False)
        else:
            _CACHE.move_to_end(key)
        return graph

    @property
    def is_knight(self) -> bool:
        return self.moves.shape == KNIGHT_MOVES.shape and bool((self.moves == KNIGHT_MOVES).all())

    def _check_size(self) -> None:
        if self.n > MAX_GRAPH_SQUARES:
            raise InvalidBoardError(
                f"the knight graph of a {self.board.rows}x{self.board.cols} board "
                f"({self.n:,} squares) is too large to build; graph methods allow "
                f"{MAX_GRAPH_SQUARES:,} squares (use method 'divide' for full boards)"
            )

    # ------------------------------------------------------------------ arrays
    @cached_property
    def coords(self) -> np.ndarray:
        """``(n, 2)`` int32 array of ``(row, col)`` of every square."""
        return self._build_coords(None)

    def _build_coords(self, deadline) -> np.ndarray:
        self._check_size()
        board = self.board
        cols = board.cols
        out = np.empty((self.n, 2), dtype=np.int32)
        rows_per_band = max(1, BAND_SQUARES // cols)
        pos = 0
        for r0 in self._bands():
            if deadline is not None:
                deadline.check("building the knight graph")
            r1 = min(board.rows, r0 + rows_per_band)
            c = np.arange(cols, dtype=np.int32)
            band_r = np.repeat(np.arange(r0, r1, dtype=np.int32), cols)
            band_c = np.tile(c, r1 - r0)
            if not board.is_full:
                keep = board.mask[r0:r1].ravel()
                band_r, band_c = band_r[keep], band_c[keep]
            out[pos : pos + band_r.size, 0] = band_r
            out[pos : pos + band_r.size, 1] = band_c
            pos += band_r.size
        return out

    def centre_distance(self, deadline=None) -> np.ndarray:
        """``(n,)`` int64 squared distance of every square from the board's centre, doubled coordinates.

        ``(2 r - (rows - 1))**2 + (2 c - (cols - 1))**2``, so it stays a
        whole number (Roth's tie-break of Warnsdorff's rule).  Built in
        bands with ``deadline`` checked between them, and kept.

        Examples
        --------
        >>> KnightGraph(Board(3, 3)).centre_distance().tolist()
        [8, 4, 8, 4, 0, 4, 8, 4, 8]
        """
        got = self.__dict__.get("_centre_distance")
        if got is not None:
            return got
        coords = self._build_coords(deadline) if "coords" not in self.__dict__ else self.coords
        out = np.empty(self.n, dtype=np.int64)
        rows, cols = self.board.rows, self.board.cols
        for a in range(0, self.n, BAND_SQUARES):
            if deadline is not None:
                deadline.check("measuring distances from the centre")
            c = coords[a : a + BAND_SQUARES].astype(np.int64)
            dr = 2 * c[:, 0] - (rows - 1)
            dc = 2 * c[:, 1] - (cols - 1)
            out[a : a + len(c)] = dr * dr + dc * dc
        out.setflags(write=False)
        self.__dict__["_centre_distance"] = out
        return out

    @cached_property
    def colour(self) -> np.ndarray:
        """``(n,)`` int32 parity ``(row + col) % 2`` of every square."""
        c = self.coords
        return ((c[:, 0] + c[:, 1]) & 1).astype(np.int32)

    @cached_property
    def table(self) -> np.ndarray:
        """``(n, k)`` int32: ``table[i, j]`` is the square move ``j`` reaches from ``i``, or -1."""
        return self._build_table(None)

    def _bands(self) -> range:
        """First board rows of the bands the arrays are built in (about :data:`BAND_SQUARES` squares each)."""
        cols = self.board.cols
        return range(0, self.board.rows, max(1, BAND_SQUARES // cols))

    def _grid_rows(self, r0: int, r1: int) -> np.ndarray:
        """Square numbers of board rows ``r0 .. r1 - 1`` as an int32 grid, -1 on holes."""
        board = self.board
        cols = board.cols
        cells = np.arange(r0 * cols, r1 * cols, dtype=np.int64)
        if board.is_full:
            return cells.astype(np.int32).reshape(r1 - r0, cols)
        holes = board._hole_flat
        numbers = cells - np.searchsorted(holes, cells)  # holes before each cell
        at = np.searchsorted(holes, [cells[0], cells[-1] + 1]) if cells.size else (0, 0)
        numbers[holes[at[0] : at[1]] - r0 * cols] = -1
        return numbers.astype(np.int32).reshape(r1 - r0, cols)

    def _build_table(self, deadline) -> np.ndarray:
        self._check_size()
        if deadline is not None:
            deadline.check("building the knight graph")
        board = self.board
        rows, cols = board.rows, board.cols
        k = len(self.moves)
        out = np.empty((self.n, k), dtype=np.int32)
        # Square numbers on the grid (-1 on holes); each move is then one shifted slice
        # copy, done in bands of rows to keep temporaries small on big boards and to
        # look at the clock between bands.
        reach = int(np.abs(self.moves[:, 0]).max()) if k else 0
        band = max(1, BAND_SQUARES // cols)
        moves = self.moves.tolist()
        pos = 0
        buffer = None if board.is_full else np.empty((min(band, rows), cols, k), dtype=np.int32)
        for r0 in self._bands():
            if deadline is not None:
                deadline.check("building the knight graph")
            r1 = min(rows, r0 + band)
            g0, g1 = max(0, r0 - reach), min(rows, r1 + reach)
            grid = self._grid_rows(g0, g1)
            if board.is_full:
                block = out[r0 * cols : r1 * cols].reshape(r1 - r0, cols, k)
            else:
                block = buffer[: r1 - r0]
            block.fill(-1)
            for j, (dr, dc) in enumerate(moves):
                a0, a1 = max(r0, -dr), min(r1, rows - dr)
                c0, c1 = max(0, -dc), min(cols, cols - dc)
                if a0 < a1 and c0 < c1:
                    block[a0 - r0 : a1 - r0, c0:c1, j] = grid[a0 + dr - g0 : a1 + dr - g0, c0 + dc : c1 + dc]
            if not board.is_full:
                # np.compress copies the kept rows far faster than boolean indexing
                kept = np.compress(board.mask[r0:r1].ravel(), block.reshape(-1, k), axis=0)
                out[pos : pos + len(kept)] = kept
                pos += len(kept)
        out.setflags(write=False)
        return out

    def build(self, deadline=None, *, csr: bool = True, coords: bool = False) -> float:
        """Build the arrays now (the table, the degrees, with ``csr`` the CSR pair, with ``coords`` the
        coordinates and colours); returns seconds.

        The arrays are built in bands of rows, and ``deadline`` (a
        :class:`~ktsolve.driver.Deadline`) is checked between bands: when it
        expires, or Ctrl-C is pressed, :class:`~ktsolve.driver.Stopped` is
        raised and nothing is kept, so a huge board never holds up a call
        past its time limit.  Arrays built before are not built again.

        Examples
        --------
        >>> g = KnightGraph(Board(6, 6))
        >>> g.build() >= 0, "table" in g.__dict__
        (True, True)
        """
        import time

        t0 = time.perf_counter()
        with _BUILD_LOCK:  # the two lanes of a race may ask for the same graph at once: it is built once
            self._build_missing(deadline, csr, coords)
        return time.perf_counter() - t0

    def _build_missing(self, deadline, csr: bool, coords: bool) -> None:
        if "table" not in self.__dict__:
            self.__dict__["table"] = self._build_table(deadline)
        if "degree" not in self.__dict__:
            self.__dict__["degree"] = self._build_degree(deadline)
        if csr and "_csr" not in self.__dict__:
            self.__dict__["_csr"] = self._build_csr(deadline)
        if coords and "coords" not in self.__dict__:
            self.__dict__["coords"] = self._build_coords(deadline)
        if coords and "colour" not in self.__dict__:
            if deadline is not None:
                deadline.check("building the knight graph")
            self.__dict__["colour"] = self.colour

    @cached_property
    def _csr(self) -> tuple[np.ndarray, np.ndarray]:
        return self._build_csr(None)

    def _build_csr(self, deadline) -> tuple[np.ndarray, np.ndarray]:
        t = self.table
        deg = self.degree
        total = int(deg.sum(dtype=np.int64))
        if total > np.iinfo(np.int32).max:
            raise InvalidBoardError("the knight graph has too many edges for int32 arrays")
        indptr = np.empty(self.n + 1, dtype=np.int32)
        indptr[0] = 0
        indices = np.empty(total, dtype=np.int32)
        cols = self.board.cols
        # the bands of the board's rows, as ranges of square numbers
        mask_rows = None if self.board.is_full else np.cumsum(self.board.mask.sum(axis=1))
        for r0 in self._bands():
            if deadline is not None:
                deadline.check("building the knight graph")
            r1 = min(self.board.rows, r0 + max(1, BAND_SQUARES // cols))
            if mask_rows is None:
                a, b = r0 * cols, r1 * cols
            else:
                a = int(mask_rows[r0 - 1]) if r0 > 0 else 0
                b = int(mask_rows[r1 - 1])
            np.cumsum(deg[a:b], out=indptr[a + 1 : b + 1])
            indptr[a + 1 : b + 1] += indptr[a]
            part = t[a:b]
            indices[indptr[a] : indptr[b]] = part[part >= 0]
        for arr in (indptr, indices):
            arr.setflags(write=False)
        return indptr, indices

    def _build_degree(self, deadline) -> np.ndarray:
        t = self.table
        d = np.empty(self.n, dtype=np.int32)
        k = t.shape[1]
        step = max(1, BAND_SQUARES)
        for a in range(0, self.n, step):
            if deadline is not None:
                deadline.check("building the knight graph")
            ok = t[a : a + step] >= 0
            if k == 8 and ok.flags.c_contiguous:
                # eight 0/1 bytes per square read as one 64-bit word: their sum is its top byte
                # after multiplying by 0x0101...01 (ten times faster than a sum along the rows)
                words = ok.view(np.uint64).reshape(-1)
                d[a : a + step] = (words * np.uint64(0x0101010101010101)) >> np.uint64(56)
            else:
                d[a : a + step] = ok.sum(axis=1, dtype=np.int32)
        d.setflags(write=False)
        return d

    @property
    def indptr(self) -> np.ndarray:
        """CSR row pointers (int32, length ``n + 1``)."""
        return self._csr[0]

    @property
    def indices(self) -> np.ndarray:
        """CSR neighbour list (int32), in move order within each square."""
        return self._csr[1]

    @cached_property
    def edge_move(self) -> np.ndarray:
        """Move number (0-based, int32) of every CSR entry (built on first use)."""
        t = self.table
        move = np.broadcast_to(np.arange(t.shape[1], dtype=np.int32), t.shape)[t >= 0]
        move = np.ascontiguousarray(move, dtype=np.int32)
        move.setflags(write=False)
        return move

    @cached_property
    def degree(self) -> np.ndarray:
        """Number of neighbours of every square (int32).

        Counted from :attr:`table`, so the CSR arrays are not built for it
        (Warnsdorff's walk and the quick proofs need only the table).
        """
        return self._build_degree(None)

    @property
    def n_edges(self) -> int:
        """Number of undirected edges."""
        return int(self.indptr[-1]) // 2

    def edges(self, deadline=None) -> np.ndarray:
        """``(E, 2)`` int32 array of undirected edges ``(u, v)`` with ``u < v``, in order of ``u`` then move.

        Made in bands of :data:`BAND_SQUARES` squares, ``deadline`` (a :class:`~ktsolve.driver.Deadline`)
        checked before each: on 10^7 squares the whole array took two seconds beside a construction.

        Examples
        --------
        >>> KnightGraph(Board(3, 3)).edges()[:2].tolist()
        [[0, 5], [0, 7]]
        """
        indptr, indices, degree = self.indptr, self.indices, self.degree
        out = np.empty((indices.size // 2, 2), dtype=np.int32)
        pos = 0
        for a in range(0, self.n, BAND_SQUARES):
            if deadline is not None:
                deadline.check("listing the knight graph's moves")
            b = min(self.n, a + BAND_SQUARES)
            src = np.repeat(np.arange(a, b, dtype=np.int32), degree[a:b])
            dst = indices[indptr[a]:indptr[b]]
            keep = src < dst
            k = int(np.count_nonzero(keep))
            out[pos:pos + k, 0] = src[keep]
            out[pos:pos + k, 1] = dst[keep]
            pos += k
        return out

    def neighbours(self, i: int) -> np.ndarray:
        """Neighbours of square ``i`` in move order."""
        return self.indices[self.indptr[i] : self.indptr[i + 1]]

    # ------------------------------------------------------------------ squares
    def node(self, square) -> int:
        """Square number of ``(row, col)``, a name such as ``"a1"``, or an int (returned as is)."""
        if isinstance(square, (int, np.integer)) and not isinstance(square, bool):
            if not 0 <= int(square) < self.n:
                raise InvalidBoardError(f"square number {square} is not in 0..{self.n - 1}")
            return int(square)
        r, c = self.board.parse_square(square)
        return self.board.index(r, c)

    def name(self, i: int) -> str:
        r, c = self.board.coords_of(np.array([i]))[0]
        return self.board.name(int(r), int(c))

    def to_networkx(self):
        """An undirected :class:`networkx.Graph` with nodes ``0 .. n-1``.

        Each node carries ``pos=(row, col)``.
        """
        import networkx as nx

        g = nx.Graph()
        coords = self.coords.tolist()
        g.add_nodes_from((i, {"pos": tuple(rc)}) for i, rc in enumerate(coords))
        g.add_edges_from(self.edges().tolist())
        return g

    def __repr__(self) -> str:
        return f"KnightGraph({self.board!r}, n={self.n})"
