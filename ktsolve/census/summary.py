"""What a census found: counts by answer and by the argument that settled it.

A :class:`Summary` is computed from a results file alone (its header names
the family), so ``ktsolve census --summary FILE`` works on a finished
census, on one still running elsewhere, and on one cut short.  Counts come
in two units: *questions* (what was asked; one per orbit when the family
was reduced by symmetry) and *boards* (every symmetric copy counted, the
sum of the ``orbit`` fields), which answers "how many of the ways to
remove two squares ..." directly.

Rows of the main table are the answers (``found``, ``infeasible``,
``unknown``), each split by what settled it: the construction that found
the tour (``tour by warnsdorff``), the proof's argument (``colour parity``,
``degree``, ``matching``, ``exhaustive search``, ``cpsat`` ...), or why the
answer is unknown (``time limit``, ``worker died``, ``hung``, ``error``).

For ``remove`` families with two squares removed there is a second table,
by the *knight distance* between the two removed squares (the fewest
knight's moves between them on the board before removal) and their
colours.  A knight's move changes colour, so the two squares have the same
colour exactly when their knight distance is even.
"""

from __future__ import annotations

import collections
import json
from dataclasses import dataclass, field

import numpy as np

from ..board import Board
from ..graph import KNIGHT_MOVES
from .family import MODE_NAMES
from .store import Existing, describe_header

__all__ = ["Summary", "summarize", "format_summary", "category", "knight_distances", "STATUSES"]

STATUSES = ("found", "infeasible", "unknown")


def category(rec: dict) -> str:
    """The settling argument of a record, as the summary and the pictures group it.

    >>> category({"status": "infeasible", "argument": "colour parity"})
    'colour parity'
    >>> category({"status": "found", "settled_by": "warnsdorff"})
    'tour by warnsdorff'
    >>> category({"status": "unknown", "reason": "the worker process died (killed by SIGKILL)"})
    'worker died'
    """
    status = rec.get("status")
    if status == "found":
        return f"tour by {rec.get('settled_by') or rec.get('method') or 'a method'}"
    if status == "infeasible":
        return rec.get("argument") or rec.get("settled_by") or "proof"
    reason = rec.get("reason") or ""
    for key, name in (("worker process died", "worker died"), ("its worker was killed", "hung"),
                      ("Dask task failed", "Dask task failed"), ("raised", "error"),
                      ("interrupted", "interrupted"), ("time limit", "time limit")):
        if key in reason:
            return name
    return "unknown reason"


def knight_distances(board: Board, source: tuple[int, int]) -> np.ndarray:
    """Fewest knight's moves from ``source`` to every cell of ``board`` (-1: unreachable or a hole).

    >>> knight_distances(Board(3, 3), (0, 0)).tolist()
    [[0, 3, 2], [3, -1, 1], [2, 1, 4]]
    """
    dist = np.full((board.rows, board.cols), -1, dtype=np.int64)
    mask = board.mask
    dist[source] = 0
    frontier = [source]
    d = 0
    while frontier:
        d += 1
        nxt = []
        for r, c in frontier:
            for dr, dc in KNIGHT_MOVES.tolist():
                r2, c2 = r + dr, c + dc
                if 0 <= r2 < board.rows and 0 <= c2 < board.cols and mask[r2, c2] and dist[r2, c2] < 0:
                    dist[r2, c2] = d
                    nxt.append((r2, c2))
        frontier = nxt
    return dist


def _base_board(header: dict) -> Board | None:
    fam = header.get("identity", {}).get("family", {})
    b = fam.get("board")
    if not isinstance(b, dict):
        return None
    return Board(b["rows"], b["cols"], [tuple(h) for h in b.get("holes", [])])


@dataclass
class Summary:
    """Counts of a census (see the module docstring).

    ``table[mode][(status, category)]`` and ``status[mode][status]`` are
    ``[questions, boards]``; ``pairs[mode][(distance, colours)][status]``
    is a count of boards (``remove`` families of two squares), and
    ``pairs[...]["by"]`` the same boards by ``"status: argument"``;
    ``records`` the last record of every question answered, by index.
    """

    header: dict
    questions: int
    answered: int
    modes: list
    status: dict
    table: dict
    pairs: dict = field(default_factory=dict)
    seconds: float = 0.0
    wall_s: float = 0.0
    runs: int = 0
    records: dict = field(default_factory=dict)

    @property
    def kind(self) -> str:
        return self.header.get("identity", {}).get("family", {}).get("kind", "")

    @property
    def remove(self) -> int:
        return int(self.header.get("identity", {}).get("family", {}).get("remove", 0))

    @property
    def base(self) -> Board | None:
        return _base_board(self.header)

    @property
    def reduced(self) -> bool:
        return int(self.header.get("symmetries", 1)) > 1

    def to_dict(self) -> dict:
        """The summary as JSON-ready data (``ktsolve census --summary FILE --format json``)."""
        def rows(d):
            return [{"status": s, "settled": c, "questions": q, "boards": b} for (s, c), (q, b) in d.items()]

        out = {
            "description": self.header.get("description"),
            "seed": self.header.get("seed"),
            "questions": self.questions,
            "answered": self.answered,
            "boards_before": self.header.get("boards_before"),
            "boards_after": self.header.get("boards_after"),
            "symmetries": self.header.get("symmetries"),
            "question_seconds": round(self.seconds, 3),
            "wall_seconds": round(self.wall_s, 3),
            "runs": self.runs,
            "modes": {m: {"status": {s: {"questions": q, "boards": b} for s, (q, b) in self.status[m].items()},
                          "settled": rows(self.table[m])} for m in self.modes},
        }
        if self.pairs:
            out["pairs"] = {m: [{"knight_distance": d, "colours": col, **counts}
                                for (d, col), counts in sorted(self.pairs[m].items(), key=_pair_key)]
                            for m in self.modes}
        return out


def _pair_key(item):
    (d, col), _ = item
    return (d if d is not None else 10**9, col)


def summarize(existing: Existing) -> Summary:
    """The :class:`Summary` of a results file read by :func:`~ktsolve.census.store.read_results`."""
    header = existing.header
    modes_text = header.get("identity", {}).get("family", {}).get("modes", "open")
    modes = ["open", "closed"] if modes_text == "both" else [modes_text]
    status = {m: {s: [0, 0] for s in STATUSES} for m in modes}
    table: dict = {m: collections.defaultdict(lambda: [0, 0]) for m in modes}
    seconds = 0.0
    for rec in existing.records.values():
        mode = MODE_NAMES[bool(rec.get("closed"))]
        if mode not in status:
            status[mode] = {s: [0, 0] for s in STATUSES}
            table[mode] = collections.defaultdict(lambda: [0, 0])
            modes.append(mode)
        orbit = int(rec.get("orbit", 1))
        s = rec.get("status", "unknown")
        status[mode][s][0] += 1
        status[mode][s][1] += orbit
        cell = table[mode][(s, category(rec))]
        cell[0] += 1
        cell[1] += orbit
        seconds += float(rec.get("seconds") or 0.0)
    order = {s: i for i, s in enumerate(STATUSES)}
    table = {m: dict(sorted(t.items(), key=lambda kv: (order.get(kv[0][0], 9), -kv[1][1], kv[0][1])))
             for m, t in table.items()}
    summary = Summary(
        header=header, questions=int(header.get("questions", len(existing.records))),
        answered=len(existing.records), modes=modes, status=status, table=table, seconds=seconds,
        wall_s=sum(float(r.get("wall_s", 0.0)) for r in existing.run_ends), runs=len(existing.runs),
        records=existing.records,
    )
    if summary.kind == "remove" and summary.remove == 2:
        summary.pairs = _pairs(summary)
    return summary


def _pairs(summary: Summary) -> dict:
    base = summary.base
    own = set(base.holes)
    dist_from: dict = {}
    out: dict = {m: collections.defaultdict(lambda: {s: 0 for s in STATUSES}) for m in summary.modes}
    for rec in summary.records.values():
        removed = [tuple(h) for h in rec["board"]["holes"] if tuple(h) not in own]
        if len(removed) != 2:
            continue
        a, b = removed
        if a not in dist_from:
            dist_from[a] = knight_distances(base, a)
        d = int(dist_from[a][b])
        colours = "same" if (sum(a) + sum(b)) % 2 == 0 else "opposite"
        mode = MODE_NAMES[bool(rec.get("closed"))]
        cell = out[mode][(d if d >= 0 else None, colours)]
        orbit = int(rec.get("orbit", 1))
        cell[rec.get("status", "unknown")] += orbit
        key = f"{rec.get('status', 'unknown')}: {category(rec)}"
        cell.setdefault("by", {})
        cell["by"][key] = cell["by"].get(key, 0) + orbit
    return {m: dict(v) for m, v in out.items()}


def _secs(x: float) -> str:
    return f"{x:.3g} s" if x < 100 else f"{x:,.0f} s"


def _table(head: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    fmt = lambda r: "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))  # noqa: E731
    return [fmt(head), fmt(["-" * w for w in widths]), *[fmt(r) for r in rows]]


def format_summary(summary: Summary) -> str:
    """The summary as text: a heading, the table by answer and argument, the pairs table."""
    h = summary.header
    lines = [describe_header(h)]
    reduced = summary.reduced
    if reduced:
        lines.append(f"{h.get('boards_after'):,} boards up to the {h.get('symmetries')} symmetries of the board "
                     f"({h.get('boards_before'):,} in all); 'boards' counts every symmetric copy")
    lines.append(f"{summary.answered:,} of {summary.questions:,} question{'s' if summary.questions != 1 else ''} "
                 "answered"
                 + ("" if summary.answered == summary.questions else
                    f"; {summary.questions - summary.answered:,} still to ask (run the census again to resume)"))
    if summary.runs:
        lines.append(f"{_secs(summary.seconds)} of questions in {_secs(summary.wall_s)} of wall time "
                     f"over {summary.runs} run{'s' if summary.runs > 1 else ''}")
    lines.append("")
    head = ["answer"]
    for m in summary.modes:
        head += [f"{m}: questions"] + ([f"{m}: boards"] if reduced else [])
    keys: list = []
    for s in STATUSES:
        for m in summary.modes:
            for key in summary.table[m]:
                if key[0] == s and key not in keys:
                    keys.append(key)
    rows = []
    for s in STATUSES:
        row = [s]
        for m in summary.modes:
            q, b = summary.status[m][s]
            row += [f"{q:,}"] + ([f"{b:,}"] if reduced else [])
        rows.append(row)
        for key in keys:
            if key[0] != s:
                continue
            row = [f"  {key[1]}"]
            for m in summary.modes:
                q, b = summary.table[m].get(key, (0, 0))
                row += [f"{q:,}" if q else "-"] + ([f"{b:,}" if b else "-"] if reduced else [])
            rows.append(row)
    lines += _table(head, rows)
    if summary.pairs:
        lines += ["", "boards by the two removed squares (knight distance between them on the board before "
                  "removal, and their colours)"]
        head = ["distance", "colours"]
        for m in summary.modes:
            head += [f"{m}: {s}" for s in STATUSES]
        keys = sorted({k for m in summary.modes for k in summary.pairs.get(m, {})},
                      key=lambda k: (k[0] if k[0] is not None else 10**9, k[1]))
        rows = []
        for d, col in keys:
            row = ["unreachable" if d is None else str(d), col]
            for m in summary.modes:
                counts = summary.pairs.get(m, {}).get((d, col), {})
                row += [f"{counts.get(s, 0):,}" for s in STATUSES]
            rows.append(row)
        lines += _table(head, rows)
    return "\n".join(lines) + "\n"


def summary_json(summary: Summary) -> str:
    return json.dumps(summary.to_dict(), indent=2) + "\n"
