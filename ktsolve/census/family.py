"""Families of questions: which boards a census asks about, up to the board's symmetries.

A family is a list of *questions*; each question is one call of
:func:`ktsolve.prove`: a board (rows, cols, holes), ``closed``, and an
optional ``start`` and ``end``.  Four kinds:

``remove``
    Every way to remove ``k`` squares from a base board (which may have
    holes of its own), one question per mode (open, closed).
``starts``
    Every start square of one board.
``list``
    Boards and questions read from a JSON-lines file.
``random``
    ``n`` distinct boards drawn by :func:`ktsolve.random_holed_board`.

Symmetry
--------
The knight's moves are the same seen in a mirror or turned a quarter, so a
symmetry of the rectangle maps tours to tours: a board and its image have
the same answer.  The symmetries of a ``rows x cols`` rectangle are the
identity, the two mirrors and the half turn (4), and on a square board also
the two diagonal mirrors and the quarter turns (8).  A base board with
holes keeps only the symmetries that map its holes onto its holes.

``remove`` and ``starts`` ask one question per *orbit* (set of boards
that are images of each other) and record its size (``orbit``), so a
summary counts both questions and boards.  The representative of an orbit
is its smallest member: the removed squares as sorted flat positions
``row * cols + col``, compared lexicographically.  Enumeration is
vectorised: all ``k``-subsets in chunks, each mapped by every symmetry,
keeping the subsets that are no larger than any image.  The number of
orbits is also known in advance from Burnside's lemma (the mean number of
subsets a symmetry fixes), which :func:`orbit_count` computes without
enumerating; the two agree (tested).

Every question has an index (its place in the family, boards first and
modes second), and its seed is ``derive_seed(census_seed, "census
question", index)``, so the same census asks the same questions with the
same seeds whatever the machine, the workers or the order of execution.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from ..board import Board
from ..checks import check_int
from ..errors import InvalidBoardError, InvalidParameterError, InvalidSquareError
from ..seeds import derive_seed, derive_seeds

__all__ = [
    "Task",
    "Family",
    "symmetries",
    "orbit_count",
    "orbit_representatives",
    "orbit_members",
    "remove_family",
    "starts_family",
    "list_family",
    "random_family",
    "question_seed",
    "question_seeds",
    "MODE_NAMES",
    "MAX_ENUMERATE",
]

#: Most subsets ``remove`` enumerates before reducing them (about a minute of numpy work).
MAX_ENUMERATE = 60_000_000

#: Subsets handled per numpy chunk while enumerating orbits.
_CHUNK = 1 << 19

#: ``closed`` flag -> name of the mode.
MODE_NAMES = {False: "open", True: "closed"}


class Task(NamedTuple):
    """One question as a worker gets it (plain values, cheap to pickle)."""

    index: int
    rows: int
    cols: int
    holes: tuple
    closed: bool
    start: tuple | None
    end: tuple | None
    seed: int
    time_limit: float | None
    orbit: int


def question_seed(census_seed: int, index: int) -> int:
    """The seed of question ``index`` of a census with seed ``census_seed``.

    >>> question_seed(7, 3) == question_seed(7, 3) != question_seed(7, 4)
    True
    """
    return derive_seed(census_seed, "census question", index)


def question_seeds(census_seed: int, count: int) -> np.ndarray:
    """The seeds of questions ``0 .. count - 1`` at once (the same as :func:`question_seed`).

    >>> int(question_seeds(7, 5)[3]) == question_seed(7, 3)
    True
    """
    return derive_seeds(census_seed, "census question", 0, count)


# ---------------------------------------------------------------------- symmetries
def symmetries(board: Board) -> list[np.ndarray]:
    """The symmetries of ``board`` as permutations of flat positions ``row * cols + col`` (:meth:`Board.symmetries`).

    Examples
    --------
    >>> len(symmetries(Board(8, 8))), len(symmetries(Board(3, 7))), len(symmetries(Board(8, 8, holes=[(0, 0)])))
    (8, 4, 2)
    """
    return board.symmetries()


def _eligible(board: Board) -> np.ndarray:
    """Flat positions of the squares of ``board`` (not its holes)."""
    return np.flatnonzero(board.mask.ravel()).astype(np.int64)


def orbit_count(board: Board, k: int, *, symmetry: bool = True) -> tuple[int, int]:
    """``(subsets, orbits)``: ways to remove ``k`` squares, before and after symmetry (Burnside).

    Examples
    --------
    >>> orbit_count(Board(8, 8), 1), orbit_count(Board(8, 8), 2), orbit_count(Board(3, 4), 1)
    ((64, 10), (2016, 278), (12, 4))
    """
    cells = _eligible(board)
    total = math.comb(cells.size, k)
    if not symmetry:
        return total, total
    perms = symmetries(board)
    fixed = 0
    for perm in perms:
        seen = np.zeros(board.size, dtype=bool)
        poly = [1] + [0] * k  # subsets made of whole cycles, by size
        for start in cells.tolist():
            if seen[start]:
                continue
            length, f = 0, start
            while not seen[f]:
                seen[f] = True
                f = int(perm[f])
                length += 1
            for d in range(k, length - 1, -1):
                poly[d] += poly[d - length]
        fixed += poly[k]
    return total, fixed // len(perms)


def _codes(sorted_cells: np.ndarray, base: int) -> np.ndarray:
    """One integer per row of sorted cells, ordered as the rows are lexicographically."""
    code = np.zeros(sorted_cells.shape[0], dtype=np.int64)
    for j in range(sorted_cells.shape[1]):
        code = code * base + sorted_cells[:, j]
    return code


def orbit_representatives(board: Board, k: int, *, symmetry: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """The smallest member of every orbit of ``k``-subsets of squares, and the orbit sizes.

    Returns ``(reps, sizes)``: ``reps`` a ``(m, k)`` int32 array of sorted
    flat positions in lexicographic order, ``sizes`` the number of subsets
    in each orbit (they add up to ``comb(n_squares, k)``).

    Examples
    --------
    >>> reps, sizes = orbit_representatives(Board(3, 3), 1)
    >>> reps.ravel().tolist(), sizes.tolist()
    ([0, 1, 4], [4, 4, 1])
    """
    cells = _eligible(board)
    total = math.comb(cells.size, k)
    if total > MAX_ENUMERATE:
        raise InvalidParameterError(
            f"removing {k} squares from a {board.rows}x{board.cols} board gives {total:,} boards; "
            f"a census enumerates at most {MAX_ENUMERATE:,}"
        )
    base = board.size
    if base ** k >= 2**62:
        raise InvalidParameterError(f"remove = {k} is too many squares for a {board.rows}x{board.cols} board")
    perms = symmetries(board) if symmetry else symmetries(Board(board.rows, board.cols))[:1]
    reps, sizes = [], []
    combos = itertools.combinations(cells.tolist(), k)
    while True:
        flat = np.fromiter(itertools.chain.from_iterable(itertools.islice(combos, _CHUNK)), dtype=np.int64)
        if flat.size == 0:
            break
        chunk = flat.reshape(-1, k)
        code = _codes(chunk, base)
        keep = np.ones(chunk.shape[0], dtype=bool)
        stab = np.ones(chunk.shape[0], dtype=np.int64)
        for perm in perms[1:]:
            image = _codes(np.sort(perm[chunk], axis=1), base)
            keep &= code <= image
            stab += image == code
        reps.append(chunk[keep].astype(np.int32))
        sizes.append(len(perms) // stab[keep])
    if not reps:
        return np.zeros((0, k), dtype=np.int32), np.zeros(0, dtype=np.int64)
    return np.concatenate(reps), np.concatenate(sizes)


def orbit_members(board: Board, cells, *, symmetry: bool = True) -> list[tuple[int, ...]]:
    """Every distinct image of the set of flat positions ``cells`` under the symmetries of ``board``.

    >>> orbit_members(Board(3, 3), [0])
    [(0,), (2,), (6,), (8,)]
    """
    perms = symmetries(board) if symmetry else symmetries(Board(board.rows, board.cols))[:1]
    arr = np.asarray(cells, dtype=np.int64)
    return sorted({tuple(sorted(int(x) for x in perm[arr])) for perm in perms})


# ---------------------------------------------------------------------- families
def _board_json(board: Board) -> dict:
    return {"rows": board.rows, "cols": board.cols, "holes": [list(h) for h in board.holes]}


def _modes_text(modes: tuple[bool, ...]) -> str:
    return "both" if len(modes) == 2 else MODE_NAMES[modes[0]]


@dataclass
class Family:
    """A family of questions (see the module docstring); build one with the ``*_family`` functions.

    Attributes
    ----------
    kind : str
        ``"remove"``, ``"starts"``, ``"list"`` or ``"random"``.
    base : Board or None
        The board the family is built on (``remove``, ``starts``).
    modes : tuple of bool
        The ``closed`` values asked for each board (``(False, True)`` for both).
    identity : dict
        What makes two censuses the same (kind, board, parameters, modes,
        symmetry, the questions' content for a list); stored in the header
        of the results file.
    description : str
        The family in words, such as ``"8x8 --remove 2, open and closed tours"``.
    boards_before, boards_after : int
        Boards (or start squares) before and after the symmetry reduction.
    n_symmetries : int
        Symmetries used for the reduction (1 without it).
    """

    kind: str
    base: Board | None
    modes: tuple
    identity: dict
    description: str
    boards_before: int
    boards_after: int
    n_symmetries: int = 1
    k: int = 0
    _cells: np.ndarray | None = None
    _orbits: np.ndarray | None = None
    _specs: list = field(default_factory=list)

    def __len__(self) -> int:
        if self._cells is not None:
            return int(self._cells.shape[0]) * len(self.modes)
        return len(self._specs)

    def task(self, index: int, census_seed: int, time_limit: float | None, seed: int | None = None) -> Task:
        """Question ``index`` as a :class:`Task` with its derived seed.

        ``seed``, when given, is that seed already derived (see
        :func:`question_seeds`, which derives a whole family's at once).
        """
        seed = question_seed(census_seed, index) if seed is None else int(seed)
        if self._cells is not None:
            j, m = divmod(index, len(self.modes))
            closed = bool(self.modes[m])
            base = self.base
            r, c = np.divmod(self._cells[j].astype(np.int64), base.cols)
            cells = tuple(zip(r.tolist(), c.tolist()))
            orbit = int(self._orbits[j])
            if self.kind == "remove":
                holes = tuple(sorted(base.holes + cells))
                return Task(index, base.rows, base.cols, holes, closed, None, None, seed, time_limit, orbit)
            return Task(index, base.rows, base.cols, base.holes, closed, cells[0], None, seed, time_limit, orbit)
        rows, cols, holes, closed, start, end = self._specs[index]
        return Task(index, rows, cols, holes, closed, start, end, seed, time_limit, 1)

    def removed(self, holes, base: Board | None = None) -> list[tuple[int, int]]:
        """The squares a question of a ``remove`` family removed (its holes less the base's)."""
        base = base or self.base
        own = set(base.holes)
        return [tuple(h) for h in holes if tuple(h) not in own]


def _check_modes(modes) -> tuple[bool, ...]:
    modes = tuple(bool(m) for m in modes)
    if modes not in ((False,), (True,), (False, True)):
        raise InvalidParameterError(f"modes must be (False,), (True,) or (False, True), not {modes!r}")
    return modes


def remove_family(board: Board, k: int, modes=(False,), *, symmetry: bool = True) -> Family:
    """Every way to remove ``k`` squares of ``board``, up to its symmetries.

    Examples
    --------
    >>> fam = remove_family(Board(8, 8), 2, (False, True))
    >>> fam.boards_before, fam.boards_after, len(fam)
    (2016, 278, 556)
    >>> t = fam.task(1, census_seed=7, time_limit=10.0)
    >>> t.holes, t.closed, t.orbit
    (((0, 0), (0, 1)), True, 8)
    """
    modes = _check_modes(modes)
    cells = board.n_squares
    k = check_int("remove", k, 1, max(1, cells - 1))
    cells_arr, orbits = orbit_representatives(board, k, symmetry=symmetry)
    n_sym = len(symmetries(board)) if symmetry else 1
    before = math.comb(cells, k)
    holes = f" with holes {','.join(board.names(board.holes))}" if board.n_holes else ""
    what = {(False,): "open tours", (True,): "closed tours", (False, True): "open and closed tours"}[modes]
    desc = f"{board.rows}x{board.cols}{holes} --remove {k}, {what}"
    identity = {"kind": "remove", "board": _board_json(board), "remove": k,
                "modes": _modes_text(modes), "symmetry": bool(symmetry)}
    return Family("remove", board, modes, identity, desc, before, int(cells_arr.shape[0]), n_sym, k,
                  cells_arr, orbits)


def starts_family(board: Board, modes=(False,), *, symmetry: bool = True) -> Family:
    """Every start square of ``board``, up to its symmetries.

    >>> fam = starts_family(Board(5, 5))
    >>> fam.boards_before, fam.boards_after
    (25, 6)
    """
    modes = _check_modes(modes)
    cells_arr, orbits = orbit_representatives(board, 1, symmetry=symmetry)
    n_sym = len(symmetries(board)) if symmetry else 1
    holes = f" with holes {','.join(board.names(board.holes))}" if board.n_holes else ""
    what = {(False,): "open tours", (True,): "closed tours", (False, True): "open and closed tours"}[modes]
    desc = f"{board.rows}x{board.cols}{holes} --starts, {what}"
    identity = {"kind": "starts", "board": _board_json(board), "modes": _modes_text(modes),
                "symmetry": bool(symmetry)}
    return Family("starts", board, modes, identity, desc, board.n_squares, int(cells_arr.shape[0]), n_sym, 1,
                  cells_arr, orbits)


def _digest(specs: list) -> str:
    text = json.dumps(specs, separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _parse_holes(board: Board, value, where: str):
    if value is None:
        return []
    if isinstance(value, str):
        return board.parse_squares(value, what="hole", allow_holes=True)
    if not isinstance(value, list):
        raise InvalidBoardError(f"{where}: holes must be a list of [row, col] pairs or square names")
    out = []
    for h in value:
        out.append(board.parse_square(h, what="hole", allow_hole=True))
    return out


def _parse_line(obj, where: str, modes: tuple[bool, ...]) -> list[tuple]:
    """The questions of one line of a ``list`` file."""
    if not isinstance(obj, dict):
        raise InvalidBoardError(f"{where} is not a JSON object")
    spec = obj.get("board")
    holes = obj.get("holes")
    if isinstance(spec, dict):
        try:
            rows, cols = spec["rows"], spec["cols"]
        except KeyError:
            raise InvalidBoardError(f"{where}: the board needs 'rows' and 'cols'") from None
        holes = spec.get("holes", holes)
        empty = Board(rows, cols)
    elif isinstance(spec, str):
        empty = Board.from_spec(spec)
    else:
        raise InvalidBoardError(f"{where} has no 'board' (a size like \"8x8\" or {{\"rows\", \"cols\", \"holes\"}})")
    board = Board(empty.rows, empty.cols, _parse_holes(empty, holes, where))
    start = obj.get("start")
    end = obj.get("end")
    start = None if start is None else board.parse_square(start, what="start")
    end = None if end is None else board.parse_square(end, what="end")
    closed = obj.get("closed")
    if closed is not None and not isinstance(closed, bool):
        raise InvalidParameterError(f"{where}: closed must be true or false, not {closed!r}")
    asked = (closed,) if closed is not None else modes
    return [(board.rows, board.cols, board.holes, bool(c), start, end) for c in asked]


#: Most bytes a question file may hold, after gzip inflation (a results file of a large census read as questions).
MAX_QUESTION_FILE_BYTES = 256 << 20
#: Longest line of a question file: the longest line a census results file may hold.
MAX_QUESTION_LINE_BYTES = 64 << 20


def _question_lines(path: str):
    """The lines of a question file (str), streamed, within :data:`MAX_QUESTION_FILE_BYTES`.

    Read through the bounded reader the tour files use, so a gzip bomb, a
    line with no end or ``/dev/zero`` stops at a budget with one message;
    a device or a FIFO is refused before a byte is read (a question file is
    a regular file, as a results file is), and a FIFO without a writer
    cannot hang the census.  Blank lines are yielded too, so line numbers
    stay those of the file.
    """
    from .._reading import Source

    what = f"question file {path!r}"
    budget = MAX_QUESTION_FILE_BYTES
    total = 0
    with Source(path, what, budget, InvalidBoardError,
                regular_only="a census reads its questions from a file") as src:
        for block in src.lines(min(MAX_QUESTION_LINE_BYTES, budget), "a line longer than any question needs",
                               keep_blank=True):
            for raw in block:
                total += len(raw) + 1
                if total > budget:
                    raise src._too_large(budget, "more than a census question file needs")
                try:
                    yield raw.decode("utf-8-sig" if total == len(raw) + 1 else "utf-8")
                except UnicodeDecodeError:
                    raise InvalidBoardError(f"cannot read {what}: not UTF-8 text") from None


def list_family(path, modes=(False,)) -> Family:
    """The questions of a JSON-lines file, one board per line.

    Each line is an object with ``board`` (a size such as ``"8x8"``, or
    ``{"rows", "cols", "holes"}`` with holes as ``[row, col]`` pairs or
    square names), optionally ``holes``, ``start``, ``end`` (``[row, col]``
    or a name such as ``"a1"``) and ``closed``; a line without ``closed``
    asks one question per mode of ``modes``.  Blank lines are skipped, and
    so are the header and run lines of a census results file, so a results
    file (or the lines of it a person kept, its unknowns say) is itself a
    list of questions.
    """
    import os

    modes = _check_modes(modes)
    path = os.fspath(path)
    specs = []
    for no, line in enumerate(_question_lines(path), 1):
        if not line.strip():
            continue
        where = f"line {no} of {path!r}"
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InvalidBoardError(f"{where} is not JSON ({exc.msg})") from None
        except (ValueError, RecursionError):  # a number past int's digit limit; arrays nested past the stack
            raise InvalidBoardError(f"{where} is not JSON a census can read (nested too deep, or a number "
                                    "too long)") from None
        if isinstance(obj, dict) and ("ktsolve_census" in obj or "run" in obj or "run_end" in obj):
            continue
        try:
            specs.extend(_parse_line(obj, where, modes))
        except (InvalidSquareError, InvalidBoardError) as exc:
            msg = str(exc)
            raise type(exc)(msg if msg.startswith(where) else f"{where}: {msg}") from None
    if not specs:
        raise InvalidBoardError(f"question file {path!r} has no questions")
    plain = [[r, c, [list(h) for h in hs], cl, None if s is None else list(s), None if e is None else list(e)]
             for r, c, hs, cl, s, e in specs]
    identity = {"kind": "list", "questions": len(specs), "sha256": _digest(plain), "modes": _modes_text(modes)}
    desc = f"--from {os.path.basename(path)} ({len(specs):,} question{'s' if len(specs) != 1 else ''})"
    return Family("list", None, modes, identity, desc, len(specs), len(specs), 1, 0, None, None, specs)


def random_family(rows: int, cols: int, n: int, holes, modes=(False,), *, seed: int) -> Family:
    """``n`` distinct boards drawn by :func:`ktsolve.random_holed_board`, each asked in every mode.

    Board ``i`` is drawn with the seed ``derive_seed(seed, "census board",
    i)``; a board equal to one drawn before is skipped and the next ``i``
    is drawn, so the family has ``n`` distinct boards.  The colours are
    balanced for a closed tour when closed tours are asked for.
    """
    from ..generate import random_holed_board

    modes = _check_modes(modes)
    n = check_int("random", n, 1, 10_000_000)
    boards, seen, i = [], set(), 0
    while len(boards) < n:
        if i >= 10 * n + 100:
            raise InvalidBoardError(
                f"only {len(boards)} distinct {rows}x{cols} boards with {holes} holes found in {i} draws"
            )
        b = random_holed_board(rows, cols, holes, closed=True in modes, seed=derive_seed(seed, "census board", i))
        i += 1
        if b in seen:
            continue
        seen.add(b)
        boards.append(b)
    specs = [(b.rows, b.cols, b.holes, bool(m), None, None) for b in boards for m in modes]
    identity = {"kind": "random", "rows": rows, "cols": cols, "random": n, "holes": holes,
                "modes": _modes_text(modes), "board_seed": seed}
    what = {(False,): "open tours", (True,): "closed tours", (False, True): "open and closed tours"}[modes]
    desc = f"{rows}x{cols} --random {n} --holes {holes}, {what}"
    return Family("random", Board(rows, cols), modes, identity, desc, n, n, 1, 0, None, None, specs)
