"""Degree-2 forcing on the board's cells: a closed tour ruled out by the moves a few squares must use.

A closed tour uses exactly two moves at every square.  So a square left with
two moves uses both (they are *forced*), and a square with two forced moves
uses no other (the others are *deleted*, which may leave a neighbour with
two).  Repeated until nothing changes, this rules the closed tour out when a
square is left with fewer than two moves, when a square gets three forced
moves, or when forced moves close a cycle that misses squares: two squares
whose only moves go to the same two squares force a cycle of four, however
large the board (:func:`ktsolve.shapes.planted`'s ``"pair"``).  The matching
proof makes the same steps between its Hall steps, on the knight graph;
here they run on the cells (:func:`~._local_kernels.forcing_steps`, two bytes
a cell and the squares whose moves change), so :func:`~.local.local_proof`
makes them on boards of any size before any graph is built.

The proof keeps only the steps its conclusion rests on, traced back from it,
in the order they were taken; :func:`~.local_check.check_forcing` replays
them by counting moves around the squares they name.

Examples
--------
>>> from ktsolve import TourSpec
>>> from ktsolve.shapes import planted
>>> board = planted(16, 16, "pair", balance="closed").board
>>> p = forcing_proof(board, TourSpec(closed=True))
>>> p.argument, p.evidence["conclusion"]["reason"], len(p.evidence["conclusion"]["squares"])
('forced moves', 'short cycle', 4)
"""

from __future__ import annotations

import numpy as np

from ..board import Board
from ..driver import Deadline
from ..graph import KNIGHT_MOVES
from ..result import Proof
from ..tour import TourSpec

__all__ = ["forcing_proof", "FORCING_PHASE"]

#: What the deadline's reason names while the forcing runs.
FORCING_PHASE = "forcing the moves of squares left with two"
#: Room for this many cells in the queue and steps at the start (grown by doubling).
_ROOM = 1 << 12
#: The moves in the order of the kernels' bits (move ``j`` is bit ``j``), without importing numba here.
_MOVES = [tuple(m) for m in KNIGHT_MOVES.tolist()]


def forcing_proof(board: Board, spec: TourSpec, *, alive: np.ndarray | None = None, deg: np.ndarray | None = None,
                  time_limit=None) -> Proof | None:
    """The forcing argument against a closed tour, as a proof; None when it finds nothing (or the question is open).

    ``alive`` (uint8, flat over the cells: 1 on the squares) and ``deg``
    (int8: the moves of each square, as :func:`~._local_kernels.degree_rows`
    counts them) are the local proofs' arrays; ``deg`` is lowered in place
    as moves are deleted.  Without them they are made here.
    ``time_limit`` (seconds, or a :class:`~ktsolve.driver.Deadline`) is
    looked at between parts of about a tenth of a second
    (:class:`~ktsolve.driver.Stopped`).
    """
    from ..factor.chunks import in_budgets
    from . import _local_kernels as K

    board = getattr(board, "board", board)
    if not spec.closed or board.n_squares < 3:
        return None
    clock = Deadline.of(time_limit)
    rows, cols, size = board.rows, board.cols, board.size
    if alive is None:
        alive = np.ones(size, dtype=np.uint8)
        alive[board.hole_flat] = 0
    if deg is None:
        deg = np.empty(size, dtype=np.int8)
        K.degree_rows(alive, rows, cols, deg, 0, rows)
    dead = np.zeros(size, dtype=np.uint8)  # zero pages cost nothing until a move is deleted or forced
    forced = np.zeros(size, dtype=np.uint8)
    room = {"queue": np.empty(_ROOM, dtype=np.int32), "steps": np.empty(_ROOM, dtype=np.int64)}
    state = np.zeros(8, dtype=np.int64)

    def some(budget: int):
        work = K.forcing_steps(alive, rows, cols, deg, dead, forced, room["queue"], room["steps"], state, budget)
        if state[7]:
            _make_room(room, state)
        return work, bool(state[4])

    in_budgets(some, clock, FORCING_PHASE, first=1 << 20)
    steps = room["steps"][: state[3]]
    reason, square = int(state[5]), int(state[6])
    if reason == 1:
        conclusion = {"reason": "degree", "square": _name(board, square)}
        needed = {"dead": _moves_of(board, square, int(dead[square]))}
    elif reason == 2:
        conclusion = {"reason": "three forced", "square": _name(board, square)}
        needed = {"forced": _moves_of(board, square, int(forced[square]))}
    else:
        clock.check(FORCING_PHASE)
        start, length = K.forced_cycle(forced, rows, cols, steps, steps.size, np.zeros(size, dtype=np.uint8))
        if start < 0 or length >= board.n_squares:
            return None  # paths only, or the forced moves are a whole tour
        cells = np.empty(length, dtype=np.int64)
        K.cycle_cells(forced, rows, cols, start, cells)
        names = _names(board, cells)
        conclusion = {"reason": "short cycle", "length": int(length), "squares": names}
        ring = cells.tolist()
        needed = {"forced": {_move(a, b) for a, b in zip(ring, ring[1:] + ring[:1])}}
    kept = _rests_on(board, steps, needed, clock)
    listed = [["forced" if kind == 0 else "drop", _name(board, cell)] for kind, cell in kept]
    return Proof(_text(board, conclusion, len(listed)), argument="forced moves",
                 evidence={"steps": listed, "conclusion": conclusion})


def _make_room(room: dict, state: np.ndarray) -> None:
    """Drop the queue's cells already looked at, and double what is still short of room."""
    queue, head, tail = room["queue"], int(state[1]), int(state[2])
    queue[: tail - head] = queue[head:tail]
    state[1], state[2] = 0, tail - head
    if state[2] + 8 > queue.size // 2:
        room["queue"] = np.concatenate([queue, np.empty(queue.size, dtype=np.int32)])
    steps = room["steps"]
    if state[3] + 1 > steps.size // 2:
        room["steps"] = np.concatenate([steps, np.empty(steps.size, dtype=np.int64)])
    state[7] = 0


def _move(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _moves_of(board: Board, cell: int, bits: int) -> set:
    """The moves (pairs of cells) from ``cell`` to squares whose bits are set in ``bits``."""
    r, c = divmod(cell, board.cols)
    out = set()
    for j, (dr, dc) in enumerate(_MOVES):
        r2, c2 = r + dr, c + dc
        if bits >> j & 1 and board.contains(r2, c2) and not board.is_hole(r2, c2):
            out.add(_move(cell, r2 * board.cols + c2))
    return out


def _rests_on(board: Board, steps: np.ndarray, needed: dict, clock: Deadline) -> list[tuple[int, int]]:
    """The steps the conclusion rests on, in their order: ``(kind, cell)``.

    Walking the steps backwards: a step is kept when it forced a move or
    deleted one that something kept needs.  A kept forcing step needs the
    deletion of every other move of its square (it had two left), a kept
    deletion step needs the two forced moves of its square.
    """
    want_forced, want_dead = set(needed.get("forced", ())), set(needed.get("dead", ()))
    kept = []
    codes = steps.tolist()
    for i in range(len(codes) - 1, -1, -1):
        if i % 100_000 == 0:
            clock.check(FORCING_PHASE)
        code = codes[i]
        cell, kind, two, new = code >> 18, (code >> 16) & 3, (code >> 8) & 255, code & 255
        made = _moves_of(board, cell, new)
        if kind == 0 and made & want_forced:
            kept.append((0, cell))
            want_dead |= _moves_of(board, cell, 255 & ~two)
        elif kind == 1 and made & want_dead:
            kept.append((1, cell))
            want_forced |= _moves_of(board, cell, two)
    kept.reverse()
    return kept


def _name(board: Board, cell: int) -> str:
    return board.name(*divmod(int(cell), board.cols))


def _names(board: Board, cells) -> list[str]:
    return [_name(board, x) for x in np.asarray(cells).tolist()]


def _text(board: Board, conclusion: dict, steps: int) -> str:
    why = (f"a closed tour uses exactly two moves at every square, so a square left with two moves uses both "
           f"and a square with two forced moves uses no other ({steps} such step{'s' if steps != 1 else ''})")
    reason = conclusion["reason"]
    if reason == "degree":
        return f"{conclusion['square']} is left with fewer than two moves: {why}"
    if reason == "three forced":
        return f"{conclusion['square']} would use three forced moves: {why}"
    shown = ", ".join(conclusion["squares"][:8]) + (" ..." if conclusion["length"] > 8 else "")
    return (f"forced moves close a cycle of {conclusion['length']} squares ({shown}), short of all "
            f"{board.n_squares:,}: {why}")
