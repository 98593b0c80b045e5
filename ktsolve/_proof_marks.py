"""What a proof's picture highlights: the squares, moves and parts its evidence names (:func:`proof_marks`).

Read from a :class:`~ktsolve.result.Proof`'s argument and evidence, for
:mod:`ktsolve._pictures` (the notebook pictures, ``--format svg`` and
``--format html``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .board import Board

__all__ = ["Marks", "proof_marks", "NAMED", "OTHER"]

#: Colours of the squares a proof names, and of the others it points at.
NAMED, OTHER = "#d32f2f", "#1565c0"

#: Boards above this many cells get no shading of their parts (a graph of the board would be built).
PARTS_MAX = 10_000


@dataclass
class Marks:
    """Squares and moves a proof names, for the pictures: red ``named``, blue ``other``, coloured ``parts``."""

    named: list = field(default_factory=list)
    other: list = field(default_factory=list)
    moves: list = field(default_factory=list)
    parts: np.ndarray | None = None
    legend: list = field(default_factory=list)


def _squares(board: Board, names) -> list[tuple[int, int]]:
    """``(row, col)`` of the square names that are squares of ``board`` (the matching proof's ``*`` are not)."""
    out = []
    for name in names or ():
        try:
            out.append(board.parse_square(str(name), allow_hole=True))
        except Exception:  # noqa: BLE001 - extra squares of a proof, or garbage: not drawn
            continue
    return out


def _part_labels(board: Board, drop_square=None, drop_moves=()) -> np.ndarray | None:
    """``(rows, cols)`` component labels of the knight graph (-1 on holes), or None on a large board."""
    if board.size > PARTS_MAX:
        return None
    import networkx as nx

    from .graph import KnightGraph

    g = KnightGraph(board).to_networkx()
    if drop_moves:
        idx = {board.name(*board.coords_of([i])[0]): i for i in range(board.n_squares)}
        g.remove_edges_from((idx[a], idx[b]) for a, b in drop_moves if a in idx and b in idx)
    if drop_square is not None:
        g.remove_node(board.index(*drop_square))
    labels = np.full(board.size, -1, dtype=np.int64)
    parts = sorted(nx.connected_components(g), key=min)
    for k, part in enumerate(parts):
        labels[board.flat_of(np.fromiter(part, dtype=np.int64))] = k
    return labels.reshape(board.rows, board.cols) if len(parts) > 1 else None


def _deleted_moves(board: Board, ev: dict) -> list:
    """The name pairs of the moves a closed question's matching proof deletes, replayed step by step (a
    Hall step may give only the count of the moves its levels exclude), or none on a large board or evidence
    that does not replay."""
    if board.size > PARTS_MAX:
        return []
    from .graph import KnightGraph
    from .proofs.certificate import closed_deletions

    g = KnightGraph(board)
    try:
        return [(g.name(a), g.name(b)) for _, pairs in closed_deletions(g, ev.get("steps", ())) for a, b in pairs]
    except (ValueError, KeyError, TypeError):
        return []


def proof_marks(board: Board, proof) -> Marks:
    """What to highlight for a proof that no tour exists, read from its evidence.

    The squares a degree proof names, the cut square and the parts it
    leaves, the parts of a disconnected board, the squares a matching proof
    cannot pair (and their few neighbours), the move that closes a short
    cycle, the cycle or square forcing ends on and the squares it forced.
    Proofs without squares (CP-SAT, exhaustive search) mark nothing.

    Examples
    --------
    >>> from ktsolve import prove
    >>> m = proof_marks(Board(3, 3), prove("3x3").proof)
    >>> m.named, m.legend[0][1]
    ([(1, 1)], 'a square with no neighbour')
    """
    m = Marks()
    if proof is None:
        return m
    arg = getattr(proof, "argument", "")
    ev = dict(getattr(proof, "evidence", {}) or {})
    if arg in ("size", "ends", "colour parity"):
        m.named = _squares(board, [ev[k] for k in ("start", "end") if isinstance(ev.get(k), str)])
        if m.named:
            m.legend.append((NAMED, "the fixed start or end the argument is about"))
    elif arg == "degree":
        if "square" in ev:
            m.named = _squares(board, [ev["square"]])
            k = ev.get("neighbours", 0)
            m.legend.append((NAMED, "a square with no neighbour" if k == 0 else
                             f"a square with {k} neighbour{'s' if k != 1 else ''}"))
        if ev.get("one_neighbour"):
            m.named = _squares(board, ev["one_neighbour"])
            m.legend.append((NAMED, "squares with one neighbour: each must be an end"))
            m.other = _squares(board, ev.get("fixed_ends"))
            if m.other:
                m.legend.append((OTHER, "the fixed ends"))
    elif arg == "connectivity":
        m.named = _squares(board, ev.get("squares"))
        m.parts = _part_labels(board)
        m.legend.append((NAMED, "a square of each of two parts no knight's move joins"))
    elif arg == "cut square":
        if "square" in ev:
            m.named = _squares(board, [ev["square"]])
            m.other = _squares(board, ev.get("squares"))
            m.parts = _part_labels(board, drop_square=m.named[0]) if m.named else None
            m.legend += [(NAMED, "the cut square"), (OTHER, "a square of each part it leaves")]
        for g in ev.get("groups", ()):
            m.named += _squares(board, [g.get("through")])
            m.other += _squares(board, [g.get("square")])
        if ev.get("groups"):
            m.legend += [(NAMED, "squares that join a group to the rest"), (OTHER, "a square of each group")]
    elif arg == "matching":
        _matching_marks(board, ev, m)
    elif arg == "forced moves":
        c = ev.get("conclusion", {}) or {}
        m.other = _squares(board, [s[1] for s in ev.get("steps", ()) if isinstance(s, list) and len(s) == 2])
        if c.get("reason") == "short cycle":
            ring = _squares(board, c.get("squares"))
            m.named = ring
            m.moves = list(zip(ring, ring[1:] + ring[:1]))
            m.legend.append((NAMED, "forced moves closing a cycle short of the board"))
        else:
            m.named = _squares(board, [c.get("square")])
            m.legend.append((NAMED, "left with fewer than two moves" if c.get("reason") == "degree" else
                             "would need three forced moves"))
        m.other = [x for x in m.other if x not in m.named]
        m.legend.append((OTHER, "squares whose two moves were forced, or whose others were dropped"))
    elif arg == "toughness":
        m.named, m.other = _squares(board, ev.get("removed")), _squares(board, ev.get("squares"))
        m.legend += [(NAMED, "the squares taken out"), (OTHER, "a square of each part they leave")]
    elif arg == "two-square cut":
        m.named = _squares(board, ev.get("cut"))
        m.other = _squares(board, [x for p in ev.get("pieces", ()) for x in p.get("piece", ())])
        m.legend += [(NAMED, "the two cut squares"), (OTHER, "parts with no path between them")]
    elif arg == "region colours":
        m.named = _squares(board, ev.get("region"))
        m.legend.append((NAMED, "a group richer in one colour than its border can feed"))
    # a legend line only for a colour that is on the picture
    shown = {NAMED: bool(m.named or m.moves), OTHER: bool(m.other)}
    m.legend = [(c, t) for c, t in m.legend if shown[c]]
    return m


def _matching_marks(board: Board, ev: dict, m: Marks) -> None:
    c = ev.get("conclusion", {}) or {}
    reason = c.get("reason")
    if reason == "no perfect matching":
        m.named, m.other = _squares(board, c.get("S")), _squares(board, c.get("T"))
        m.legend += [(NAMED, "squares that cannot all be paired with a neighbour"),
                     (OTHER, "the only neighbours left to them")]
    elif reason == "degree":
        m.named, m.other = _squares(board, [c.get("square")]), _squares(board, c.get("moves_left"))
        m.moves = [(m.named[0], o) for o in m.other] if m.named else []
        m.legend += [(NAMED, "a square left with fewer than two usable moves"), (OTHER, "where its usable moves go")]
    elif reason in ("cut", "three forced"):
        m.named = _squares(board, [c.get("square")])
        m.other = _squares(board, c.get("forced_to"))
        m.legend.append((NAMED, "splits the remaining moves" if reason == "cut" else "would need three moves"))
        if m.other:
            m.legend.append((OTHER, "its three forced moves go here"))
    elif reason == "disconnected":
        m.other = _squares(board, c.get("squares"))
        m.legend.append((OTHER, "a square of each part the remaining moves fall into"))
        if not ev.get("extra"):
            # A closed question: the remaining moves are the board's moves less those the proof deleted.
            m.parts = _part_labels(board, drop_moves=_deleted_moves(board, ev))
    elif reason in ("forced excluded", "short cycle"):
        pair = _squares(board, c.get("move"))
        if len(pair) == 2:
            m.moves = [tuple(pair)]
            m.named = pair
            m.legend.append((NAMED, "the forced move that breaks the tour"))
    if not (m.named or m.other or m.moves):
        halls = [s for s in ev.get("steps", ()) if s.get("step") == "hall"]
        if halls:
            ex = halls[0]["example"]
            m.named, m.other = _squares(board, ex.get("S")), _squares(board, ex.get("T"))
            m.legend += [(NAMED, "a tight set of the matching argument"), (OTHER, "its only neighbours")]
