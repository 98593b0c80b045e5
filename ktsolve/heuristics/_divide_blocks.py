"""The small structured blocks that divide and conquer joins, built by CP-SAT and cached.

Divide and conquer (:mod:`ktsolve.heuristics.divide`) cuts a board into small
rectangles ("blocks") and joins a precomputed tour of every block with its
neighbours.  This module describes the blocks, builds them with CP-SAT
(``add_circuit`` on the block's knight graph, with the joining moves fixed),
stores them in the package data file ``ktsolve/data/divide_blocks.npz`` and
checks every block again when it is taken from the file.  No block is typed in
by hand: :func:`build_catalog` regenerates the whole file.

A block is named by a key that says everything the block must satisfy, so the
file cannot claim more than it holds: :func:`block_spec` turns a key into a
:class:`BlockSpec` (size, pieces and required moves) and :func:`check_block`
verifies a stored block against it.  Keys:

``gc/HxW/FLAGS``
    A closed tour (Hamiltonian cycle) of an ``H x W`` block (Parberry's
    structured tours).  ``FLAGS`` (letters of ``LRTB`` or ``none``) names the
    directed moves it contains, used to join it to its neighbours:
    ``L`` (3,0)->(1,1), ``R`` (0,W-1)->(2,W-2), ``T`` (0,W-4)->(1,W-2),
    ``B`` (H-1,W-1)->(H-2,W-3).
``gp/HxW/r,c/FLAGS``
    An open path of an odd ``H x W`` block from ``(r, c)`` (free end) that
    contains the same moves: the one block of an odd x odd board that carries
    the ends of an open tour.
``t4/...``, ``t3c/...``, ``t3/...``
    Blocks of the 4-row and 3-row boards, which are chains of blocks crossed
    by one or two "lanes" (paths that run left or right); see
    :data:`LANES` and :func:`block_spec`.

Blocks are stored as successor tables: one uint8 per square (row-major in the
block), the local number of the next square, 255 at the end of a piece.

The blocks follow Parberry (1997) and Lin & Wei (2005); the references are
in :mod:`ktsolve.heuristics.divide`.

Examples
--------
>>> spec = block_spec("gc/6x6/LRTB")
>>> spec.h, spec.w, spec.pieces is None, len(spec.arcs)
(6, 6, True, 4)
>>> check_block(spec, load_catalog().get("gc/6x6/LRTB")) is None
True
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..graph import KNIGHT_MOVES

__all__ = [
    "BlockSpec",
    "Catalog",
    "LANES",
    "PORTS",
    "OCCURRING_FLAGS",
    "block_spec",
    "check_block",
    "solve_block",
    "build_catalog",
    "load_catalog",
    "catalog_path",
]

_END = 255

# ---------------------------------------------------------------------- 2-D grid ports
#: Directed moves a grid block contains for each join, as functions of (H, W).
PORTS = {
    "L": lambda h, w: ((3, 0), (1, 1)),
    "R": lambda h, w: ((0, w - 1), (2, w - 2)),
    "T": lambda h, w: ((0, w - 4), (1, w - 2)),
    "B": lambda h, w: ((h - 1, w - 1), (h - 2, w - 3)),
}

#: The port sets a grid block can need: a block joins its left and right
#: neighbours (L, R), and blocks of the last column also join up and down (T, B).
OCCURRING_FLAGS = tuple(
    sorted(
        {
            frozenset(f)
            for f in (
                [s for s, on in zip("LR", bits) if on] for bits in itertools.product((0, 1), repeat=2)
            )
        }
        | {
            frozenset(f)
            for f in (
                [s for s, on in zip("LTB", bits) if on] for bits in itertools.product((0, 1), repeat=3)
            )
        },
        key=lambda s: (-len(s), "".join(sorted(s))),
    )
)


def flags_text(flags) -> str:
    """``"LRTB"``-ordered letters of a flag set, ``"none"`` for the empty set."""
    text = "".join(ch for ch in "LRTB" if ch in flags)
    return text or "none"


def _flags_of(text: str) -> frozenset:
    return frozenset() if text == "none" else frozenset(text)


# ---------------------------------------------------------------------- thin-board lanes
#: Lane conventions of the chains of 3-row and 4-row boards.  A lane that runs
#: right enters a block at ``(ri, ci)`` and leaves it at ``(re, W-1-ce)``; a
#: lane that runs left enters at ``(ri, W-1-ci)`` and leaves at ``(re, ce)``.
#: The move from one block's exit to the next block's entry is a knight move
#: for every block width.  Chosen by a CP-SAT search over all conventions.
LANES = {
    "t4": {"R": (0, 0, 2, 0), "L": (1, 0, 3, 0)},
    "t3c": {"R": (0, 0, 1, 1), "L": (0, 0, 1, 1)},
    "t3": {"R": (1, 1, 0, 0), "L": (1, 1, 0, 0)},
}


def lane_entry(family: str, lane: str, w: int) -> tuple[int, int]:
    ri, ci, _, _ = LANES[family][lane]
    return (ri, ci) if lane == "R" else (ri, w - 1 - ci)


def lane_exit(family: str, lane: str, w: int) -> tuple[int, int]:
    _, _, re_, ce = LANES[family][lane]
    return (re_, w - 1 - ce) if lane == "R" else (re_, ce)


def lane_arc(family: str, lane: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """The crossing move at a boundary, as ``((row, dcol), (row, dcol))`` from the boundary column.

    ``dcol`` is relative to the first column of the block right of the
    boundary: the move goes from ``(row0, X + d0)`` to ``(row1, X + d1)``.
    """
    ri, ci, re_, ce = LANES[family][lane]
    if lane == "R":
        return (re_, -1 - ce), (ri, ci)
    return (re_, ce), (ri, -1 - ci)


# ---------------------------------------------------------------------- block specs
@dataclass(frozen=True)
class BlockSpec:
    """What a block must be: its size, its pieces and the moves it must contain.

    ``pieces`` is None for one closed cycle through every square, or a tuple
    of ``(start, end)`` pairs (each a local ``(row, col)`` or None for a free
    end): disjoint paths that together cover the block.  ``arcs`` are
    directed moves ``((r, c), (r, c))`` that the cycle or the paths contain.

    Examples
    --------
    >>> spec = block_spec("gc/8x6/LR")
    >>> spec.h, spec.w, spec.arcs[0]
    (8, 6, ((3, 0), (1, 1)))
    """

    key: str
    h: int
    w: int
    pieces: tuple | None
    arcs: tuple = ()


_SQ = r"(\d+),(\d+)"


@lru_cache(maxsize=None)
def block_spec(key: str) -> BlockSpec:
    """The :class:`BlockSpec` that ``key`` names (see the module docstring)."""
    parts = key.split("/")
    fam = parts[0]
    if fam in ("gc", "gp"):
        m = re.fullmatch(r"(\d+)x(\d+)", parts[1])
        if not m:
            raise ValueError(f"bad block key {key!r}")
        h, w = int(m.group(1)), int(m.group(2))
        flags = _flags_of(parts[-1])
        arcs = tuple(PORTS[f](h, w) for f in "LRTB" if f in flags)
        if fam == "gc":
            return BlockSpec(key, h, w, None, arcs)
        m = re.fullmatch(_SQ, parts[2])
        s = (int(m.group(1)), int(m.group(2)))
        return BlockSpec(key, h, w, ((s, None),), arcs)
    h = {"t4": 4, "t3c": 3, "t3": 3}.get(fam)
    if h is None:
        raise ValueError(f"bad block key {key!r}")
    w = int(parts[1])
    kind = parts[2]
    s = None
    if len(parts) > 3:
        m = re.fullmatch(_SQ, parts[3])
        s = (int(m.group(1)), int(m.group(2)))

    def ent(lane):
        return lane_entry(fam, lane, w)

    def ext(lane):
        return lane_exit(fam, lane, w)

    table = {
        # every family
        "s": ((s, None),),  # a single block: an open tour from s
        "mid": ((ent("R"), ext("R")), (ent("L"), ext("L"))),  # two lanes pass through
        "ur": ((ent("R"), ext("L")),),  # right end: the right-running lane turns back
        "ul": ((ent("L"), ext("R")),),  # left end: the left-running lane turns back
        # 4-row chains: the first block holds the start and the end
        "f": ((s, ext("R")), (ent("L"), None)),
        # 3-row closed chains
        "cyc": None,
        # 3-row open chains (one lane, or two lanes left of the start)
        "first": ((s, ext("R")),),
        "mid1": ((ent("R"), ext("R")),),
        "last": ((ent("R"), None),),
        "sl": ((s, ext("L")), (ent("R"), ext("R"))),
    }
    if kind not in table:
        raise ValueError(f"bad block key {key!r}")
    return BlockSpec(key, h, w, table[kind], ())


def _knight(a, b) -> bool:
    return (abs(a[0] - b[0]), abs(a[1] - b[1])) in ((1, 2), (2, 1))


def check_block(spec: BlockSpec, succ) -> None:
    """Raise ValueError unless ``succ`` (uint8 successor table) is a valid block for ``spec``.

    Examples
    --------
    >>> spec = block_spec("gc/6x6/LRTB")
    >>> check_block(spec, load_catalog().get(spec.key)) is None
    True
    >>> check_block(spec, np.zeros(36, dtype=np.uint8))
    Traceback (most recent call last):
    ...
    ValueError: block gc/6x6/LRTB: (0, 0) to (0, 0) is not a knight move
    """
    h, w = spec.h, spec.w
    n = h * w
    succ = np.asarray(succ)
    if succ.shape != (n,):
        raise ValueError(f"block {spec.key}: {succ.size} entries for {n} squares")
    nxt = [int(v) for v in succ]
    pred = [-1] * n
    for i, j in enumerate(nxt):
        if j == _END:
            continue
        if not 0 <= j < n:
            raise ValueError(f"block {spec.key}: successor {j} of square {i} is off the block")
        if not _knight(divmod(i, w), divmod(j, w)):
            raise ValueError(f"block {spec.key}: {divmod(i, w)} to {divmod(j, w)} is not a knight move")
        if pred[j] >= 0:
            raise ValueError(f"block {spec.key}: square {divmod(j, w)} is entered twice")
        pred[j] = i
    for a, b in spec.arcs:
        if nxt[a[0] * w + a[1]] != b[0] * w + b[1]:
            raise ValueError(f"block {spec.key}: the required move {a} -> {b} is missing")
    if spec.pieces is None:
        if _END in nxt:
            raise ValueError(f"block {spec.key}: a closed block has a path end")
        i, steps = 0, 0
        while True:
            i = nxt[i]
            steps += 1
            if i == 0:
                break
        if steps != n:
            raise ValueError(f"block {spec.key}: the cycle has {steps} of {n} squares")
        return
    chains = []
    covered = 0
    for start in range(n):
        if pred[start] >= 0:
            continue
        i, length = start, 1
        while nxt[i] != _END:
            i = nxt[i]
            length += 1
        chains.append((divmod(start, w), divmod(i, w)))
        covered += length
    if covered != n:
        raise ValueError(f"block {spec.key}: the paths cover {covered} of {n} squares (a cycle is left)")
    if len(chains) != len(spec.pieces):
        raise ValueError(f"block {spec.key}: {len(chains)} paths where {len(spec.pieces)} are required")
    for perm in itertools.permutations(chains):
        if all(
            (s is None or s == a) and (e is None or e == b) for (s, e), (a, b) in zip(spec.pieces, perm)
        ):
            return
    raise ValueError(f"block {spec.key}: path ends {chains} do not match {spec.pieces}")


# ---------------------------------------------------------------------- CP-SAT
def solve_block(spec: BlockSpec, *, time_limit: float = 30.0, seed: int = 0):
    """Build the block with CP-SAT; returns the uint8 successor table, ``"infeasible"`` or ``"unknown"``.

    One circuit over the block's squares (``add_circuit``); pieces become
    one dummy node per piece, linking each piece's end to the next piece's
    start (a free end may link to any square).  Required moves are fixed
    arcs.  One worker and a fixed seed keep the result reproducible for a
    given OR-Tools version.  ``seed`` is CP-SAT's random seed; the blocks in the
    package data were built with the default, 0 (the function returns a
    table, so no result records it).

    Examples
    --------
    >>> table = solve_block(block_spec("gc/6x6/LRTB"), time_limit=20)
    >>> check_block(block_spec("gc/6x6/LRTB"), table) is None
    True
    """
    from ortools.sat.python import cp_model

    h, w = spec.h, spec.w
    n = h * w
    model = cp_model.CpModel()
    lits = {}
    arcs = []
    for r in range(h):
        for c in range(w):
            for dr, dc in KNIGHT_MOVES:
                r2, c2 = r + dr, c + dc
                if 0 <= r2 < h and 0 <= c2 < w:
                    v = model.new_bool_var(f"x{r}_{c}_{r2}_{c2}")
                    lits[(r, c), (r2, c2)] = v
                    arcs.append((r * w + c, r2 * w + c2, v))
    if spec.pieces is not None:
        k = len(spec.pieces)
        for j, (s, e) in enumerate(spec.pieces):
            d, d_next = n + j, n + (j + 1) % k
            if s is None:
                for q in range(n):
                    arcs.append((d, q, model.new_bool_var("")))
            else:
                arcs.append((d, s[0] * w + s[1], model.new_constant(1)))
            if e is None:
                for q in range(n):
                    arcs.append((q, d_next, model.new_bool_var("")))
            else:
                arcs.append((e[0] * w + e[1], d_next, model.new_constant(1)))
    for a, b in spec.arcs:
        if (a, b) not in lits:
            return "infeasible"
        model.add(lits[a, b] == 1)
    model.add_circuit(arcs)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = float(time_limit)
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = int(seed)
    solver.parameters.catch_sigint_signal = False  # Ctrl-C goes to the driver of build_catalog
    status = solver.solve(model)
    if status == cp_model.INFEASIBLE:
        return "infeasible"
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        if status == cp_model.MODEL_INVALID:
            raise RuntimeError(f"CP-SAT says the model of block {spec.key} is invalid")
        return "unknown"
    succ = np.full(n, _END, dtype=np.uint8)
    for (a, b), v in lits.items():
        if solver.boolean_value(v):
            succ[a[0] * w + a[1]] = b[0] * w + b[1]
    check_block(spec, succ)
    return succ


# ---------------------------------------------------------------------- what the file holds
#: Block sizes and ranges the catalog covers (see :func:`catalog_plan`).
GRID_SIDES = range(5, 12)
ODD_SIDES = (5, 7, 9)
T4_F_WIDTHS = range(5, 21)
T4_SINGLE_WIDTHS = range(5, 13)
T4_END_WIDTHS = range(5, 11)
T3_SINGLE_WIDTHS = (4, 7, 8, 9, 11, 13)
T3_CHAIN_WIDTHS = range(7, 12)
EVEN_MID_WIDTHS = (6, 8, 10)


def _lattice_keys(prefix: str):
    """Keys ``prefix/FLAGS`` for the full port set, then every occurring set (largest first)."""
    yield f"{prefix}/LRTB"
    for flags in OCCURRING_FLAGS:
        yield f"{prefix}/{flags_text(flags)}"


def catalog_plan():
    """Groups of candidate keys: within a group, a key is skipped when a stored one covers it.

    Yields ``(keys, lattice)``: for lattice groups (grid blocks) a key is
    skipped when a stored key of the group has a superset of its flags.
    """
    for h in GRID_SIDES:
        for w in GRID_SIDES:
            if (h * w) % 2 == 0:
                yield list(_lattice_keys(f"gc/{h}x{w}")), True
    for h in ODD_SIDES + (11,):
        for w in ODD_SIDES + (11,):
            for r in range(h):
                for c in range(w):
                    # a side of 11 is cut 11 only to reach its middle square (5 + 6 and 6 + 5 reach the rest)
                    middle = (h == 11 and r == 5) or (w == 11 and c == 5)
                    if (r + c) % 2 == 0 and (11 not in (h, w) or middle):
                        yield list(_lattice_keys(f"gp/{h}x{w}/{r},{c}")), True
    single = []
    for w in T4_SINGLE_WIDTHS:
        single += [f"t4/{w}/s/{r},{c}" for r in (0, 3) for c in range(w)]
    for w in T4_F_WIDTHS:
        single += [f"t4/{w}/f/{r},{c}" for r in (0, 3) for c in range(w)]
    single += [f"t4/{w}/mid" for w in EVEN_MID_WIDTHS]
    single += [f"t4/{w}/ur" for w in T4_END_WIDTHS]
    single += [f"t3c/{w}/cyc" for w in (10, 12)]
    single += [f"t3c/{w}/mid" for w in EVEN_MID_WIDTHS]
    single += [f"t3c/{w}/{k}" for w in (7, 9, 11) for k in ("ul", "ur")]
    for w in T3_SINGLE_WIDTHS:
        single += [f"t3/{w}/s/{r},{c}" for r in range(3) for c in range(w)]
    for w in T3_CHAIN_WIDTHS:
        single += [f"t3/{w}/{k}" for k in ("mid1", "last")]
        single += [f"t3/{w}/first/{r},{c}" for r in range(3) for c in range(w)]
        single += [f"t3/{w}/sl/{r},{c}" for r in range(3) for c in range(w)]
    single += [f"t3/{w}/mid" for w in EVEN_MID_WIDTHS]
    single += [f"t3/{w}/ul" for w in (7, 9, 11)]
    for key in single:
        yield [key], False


def _covers(stored: str, wanted: str) -> bool:
    return _flags_of(stored.rsplit("/", 1)[1]) >= _flags_of(wanted.rsplit("/", 1)[1])


def build_catalog(path=None, *, time_limit: float = 30.0, progress=None) -> dict:
    """Build every block of :func:`catalog_plan` with CP-SAT and save them to ``path``.

    Returns counts: ``{"stored": ..., "infeasible": ..., "unknown": ...}``
    (and ``"interrupted": True`` after Ctrl-C, when nothing is written).
    Without ``path`` nothing is written (the slow test regenerates blocks
    this way).  Takes about a minute; the groups of blocks are built through
    :func:`ktsolve.driver.drive`, which reports ``progress(groups done,
    groups)``.

    Examples
    --------
    >>> counts = build_catalog()  # doctest: +SKIP
    >>> counts["unknown"]  # doctest: +SKIP
    0
    """
    from ..driver import drive

    groups = list(catalog_plan())
    keys, tables = [], []
    counts = {"stored": 0, "infeasible": 0, "unknown": 0}
    done = [0]

    def step(k):
        """Build the blocks of ``k`` more groups."""
        for group, lattice in groups[done[0] : done[0] + k]:
            stored_here: list[str] = []
            for key in group:
                if lattice and any(_covers(s, key) for s in stored_here):
                    continue
                res = solve_block(block_spec(key), time_limit=time_limit)
                if isinstance(res, str):
                    counts[res] += 1
                    continue
                stored_here.append(key)
                keys.append(key)
                tables.append(res)
                counts["stored"] += 1
        ran = min(k, len(groups) - done[0])
        done[0] += ran
        return ran, done[0] == len(groups)

    outcome = drive(step, units=None, progress=progress, position=lambda n: (n, len(groups)))
    if outcome.interrupted:
        counts["interrupted"] = True
        return counts  # an incomplete catalog is never written
    if path is not None:
        offsets = np.zeros(len(tables) + 1, dtype=np.int64)
        np.cumsum([t.size for t in tables], out=offsets[1:])
        np.savez_compressed(
            path,
            keys=np.array(keys),
            offsets=offsets,
            succ=np.concatenate(tables).astype(np.uint8),
        )
    return counts


# ---------------------------------------------------------------------- loading
def catalog_path():
    """Path of the package data file holding the blocks.

    Examples
    --------
    >>> catalog_path().name
    'divide_blocks.npz'
    """
    from importlib.resources import files

    return files("ktsolve") / "data" / "divide_blocks.npz"


class Catalog:
    """The stored blocks; each block is checked by :func:`check_block` the first time it is taken.

    Parameters
    ----------
    keys : sequence of str
    offsets : int array, ``len(keys) + 1`` entries into ``succ``
    succ : uint8 array, successor tables one after the other

    Examples
    --------
    >>> cat = load_catalog()
    >>> "gc/6x6/LRTB" in cat, cat.get("gc/6x6/LRTB").shape
    (True, (36,))
    """

    def __init__(self, keys, offsets, succ):
        self.keys = [str(k) for k in keys]
        self._index = {k: i for i, k in enumerate(self.keys)}
        self._offsets = np.asarray(offsets, dtype=np.int64)
        self._succ = np.asarray(succ, dtype=np.uint8)
        self._checked: dict[str, np.ndarray] = {}
        # grid blocks by their key without the flags, for "any stored superset" look-ups
        self._variants: dict[str, list[tuple[frozenset, str]]] = {}
        for k in self.keys:
            if k.startswith(("gc/", "gp/")):
                head, flags = k.rsplit("/", 1)
                self._variants.setdefault(head, []).append((_flags_of(flags), k))

    def __contains__(self, key: str) -> bool:
        return key in self._index

    def __len__(self) -> int:
        return len(self.keys)

    def raw(self, key: str) -> np.ndarray:
        """The stored successor table of ``key``, unchecked."""
        i = self._index[key]
        return self._succ[self._offsets[i] : self._offsets[i + 1]]

    def get(self, key: str) -> np.ndarray:
        """The successor table of ``key`` (uint8), checked against its spec on first use."""
        table = self._checked.get(key)
        if table is None:
            table = self.raw(key).copy()
            check_block(block_spec(key), table)
            table.setflags(write=False)
            self._checked[key] = table
        return table

    def grid_key(self, head: str, flags) -> str | None:
        """A stored key ``head/FLAGS`` whose flags include ``flags``, or None."""
        want = frozenset(flags)
        for have, key in self._variants.get(head, ()):
            if have >= want:
                return key
        return None

    def heads(self, prefix: str) -> list[str]:
        """Grid keys without flags that start with ``prefix``."""
        return [h for h in self._variants if h.startswith(prefix)]


_CATALOG: Catalog | None = None


def load_catalog(path=None) -> Catalog:
    """The block catalog from the package data (cached), or from ``path``.

    Examples
    --------
    >>> len(load_catalog()) > 100
    True
    """
    global _CATALOG
    if path is None and _CATALOG is not None:
        return _CATALOG
    src = catalog_path() if path is None else path
    with np.load(src if path is not None else str(src), allow_pickle=False) as data:
        cat = Catalog(data["keys"], data["offsets"], data["succ"])
    if path is None:
        _CATALOG = cat
    return cat


if __name__ == "__main__":  # pragma: no cover - maintenance entry point
    import sys
    import time

    out = sys.argv[1] if len(sys.argv) > 1 else str(catalog_path())
    t0 = time.perf_counter()
    counts = build_catalog(out, progress=lambda d, t: print(f"\r{d}/{t}", end="", file=sys.stderr))
    print(f"\n{counts} in {time.perf_counter() - t0:.1f} s -> {out}", file=sys.stderr)
