"""Re-checking the certificate of a search's "no": the CNF written again, its cuts checked, the DRUP proof run.

A "no" from exhaustive search or CP-SAT carries, when it could be made in
its budget, a certificate (``evidence["certificate"]``, made by
:mod:`ktsolve.models.certify`): the name of the CNF encoding, a list of
*cuts* (sets of squares, by name) and a DRUP proof that the CNF with those
cuts is unsatisfiable.  :func:`check_search` trusts none of it but the
proof's lines:

1. it writes the CNF of the question with its own encoder
   (:func:`cnf_clauses`, plain Python, no code of the maker), from the
   board and the tour asked;
2. it checks that every cut is a proper set of squares of the board (real
   squares, each named once, not empty, and for a closed tour not every
   square), since "some move of the tour leaves ``S``" holds of every tour
   exactly for those, and adds one clause per cut;
3. it inflates the proof within a byte budget, reads its lines, and runs a
   DRUP checker on the CNF and the proof: ``drup`` (extracted from code
   verified in Why3), or ``dratify`` (an independent checker in Python).

The encoding ``ktsolve-cnf/1``, which this module defines: squares are
numbered row by row, holes skipped; the moves ``(u, v)``, ``u < v``, in
increasing order are the variables ``1 .. E``.  An open tour adds an end
variable ``E + 1 + v`` per square ``v`` and the counter variables
``E + n + 1 + 2 i + j`` (``i < n - 1``, ``j`` in 0, 1; "at least ``j + 1``
ends among squares ``0 .. i``").  Clauses:

* every square: no three of its literals (its moves, then its end
  variable) true, and at least two (for each literal, the clause of the
  others); fewer than two literals: the empty clause;
* open tour: at most two ends (Sinz's sequential counter: for square 0,
  ``-t0 s0,0`` and ``-s0,1``; for ``0 < i < n - 1``, ``-ti si,0``,
  ``-si-1,0 si,0``, ``-ti -si-1,0 si,1``, ``-si-1,1 si,1``, ``-ti -si-1,1``;
  for the last, ``-tn-1 -sn-2,1``); when the colours' counts differ by one,
  no end on the smaller colour and some end on the larger; when they are
  equal, some end of each colour; otherwise some end; a fixed start or end
  is an end, and with both fixed no other square is (both fixed on one
  square: the empty clause, for no path of two or more squares has that);
* closed tour with a fixed start and a different fixed end: the move
  between them (the empty clause when they are not a knight's move apart);
* a cut ``S``: the moves with exactly one square in ``S``, then (open tour)
  the end variables of ``S``, in increasing order.

Every tour of the question satisfies these clauses (an open tour's ends
are joined through an imagined extra square that no cut contains), so an
unsatisfiable CNF proves that there is none.

Examples
--------
>>> from ktsolve import Board, TourSpec
>>> variables, clauses = cnf_clauses(Board(3, 4), TourSpec(closed=True))
>>> variables, len(clauses)
(14, 32)
>>> check_search(Board(3, 4), TourSpec(closed=True), {"nodes": 12}).line()
'not checkable: the search\\'s "no" carries no certificate (not certified)'
"""

from __future__ import annotations

import base64
import binascii
import itertools
import threading
import zlib

from ..board import Board
from ..tour import TourSpec
from ._grid_check import JUMPS
from .verdict import Verdict, not_checkable

__all__ = [
    "ENCODING",
    "cnf_clauses",
    "cut_clause",
    "check_search",
    "read_proof",
    "drup_checkers",
    "PROOF_BYTES_MAX",
    "PROOF_LINES_MAX",
    "CNF_SQUARES_MAX",
]

#: The encoding this module writes; a certificate naming another is refused.
ENCODING = "ktsolve-cnf/1"

#: Bytes a certificate's DRUP proof may inflate to (a zlib bomb stops there).
PROOF_BYTES_MAX = 256 << 20

#: Lines a DRUP proof may hold.
PROOF_LINES_MAX = 5_000_000

#: Largest board whose CNF the checker writes (the clauses are Python lists).
CNF_SQUARES_MAX = 40_000

#: ``drup`` (verified, but slow: about quadratic) runs in ``checker="auto"`` while proof lines times
#: clauses stay below this; above it ``dratify`` does.
DRUP_WORK_MAX = 5_000_000



def _squares(board: Board) -> list[tuple[int, int]]:
    return [(r, c) for r in range(board.rows) for c in range(board.cols) if not board.is_hole(r, c)]


class _Encoding:
    """The CNF of one question in ``ktsolve-cnf/1`` (see the module docstring), plain Python."""

    def __init__(self, board: Board, spec: TourSpec):
        squares = _squares(board)
        number = {sq: i for i, sq in enumerate(squares)}
        n = len(squares)
        edges = []
        for u, (r, c) in enumerate(squares):
            for dr, dc in JUMPS:
                v = number.get((r + dr, c + dc))
                if v is not None and v > u:
                    edges.append((u, v))
        edges.sort()
        self.number = number
        self.n = n
        self.closed = bool(spec.closed)
        self.edges = edges
        self.var = {e: k + 1 for k, e in enumerate(edges)}
        m = len(edges)
        self.m = m
        at: list[list[int]] = [[] for _ in range(n)]
        for k, (u, v) in enumerate(edges):
            at[u].append(k + 1)
            at[v].append(k + 1)
        if not self.closed:
            for v in range(n):
                at[v].append(m + 1 + v)
        clauses: list[list[int]] = []
        for lits in at:
            # two of a square's literals exactly: never three, and one more beside any one left out;
            # a square with fewer than two gets the empty clause
            if len(lits) >= 2:
                clauses += [[-x for x in trio] for trio in itertools.combinations(lits, 3)]
                clauses += [[y for y in lits if y != x] for x in lits]
            else:
                clauses.append([])
        self.variables = m if self.closed else m + n + 2 * max(n - 1, 0)
        ends = []
        for sq in (spec.start, spec.end):
            if sq is not None:
                key = (int(sq[0]), int(sq[1]))
                if key not in number:
                    raise ValueError("the question's start or end is not a square of the board")
                ends.append(number[key])
        if self.closed:
            if len(ends) == 2 and ends[0] != ends[1]:
                k = self.var.get((min(ends), max(ends)))
                clauses.append([] if k is None else [k])
        else:
            clauses.extend(self._ends(squares, ends))
        self.clauses = clauses

    def _ends(self, squares, ends) -> list[list[int]]:
        n, m = self.n, self.m

        def t(v):
            return m + 1 + v

        def s(i, j):
            return m + n + 1 + 2 * i + j

        out: list[list[int]] = []
        for i in range(n):
            if i == 0:
                if n > 1:
                    out += [[-t(0), s(0, 0)], [-s(0, 1)]]
            elif i < n - 1:
                out += [[-t(i), s(i, 0)], [-s(i - 1, 0), s(i, 0)], [-t(i), -s(i - 1, 0), s(i, 1)],
                        [-s(i - 1, 1), s(i, 1)], [-t(i), -s(i - 1, 1)]]
            else:
                out.append([-t(i), -s(i - 1, 1)])
        colour = [(r + c) % 2 for r, c in squares]
        count = [colour.count(0), colour.count(1)]
        if abs(count[0] - count[1]) == 1:
            major = 0 if count[0] > count[1] else 1
            out += [[-t(v)] for v in range(n) if colour[v] != major]
            out.append([t(v) for v in range(n) if colour[v] == major])
        elif count[0] == count[1]:
            out.append([t(v) for v in range(n) if colour[v] == 0])
            out.append([t(v) for v in range(n) if colour[v] == 1])
        else:
            out.append([t(v) for v in range(n)])
        fixed = list(dict.fromkeys(ends))
        if len(ends) == 2 and len(fixed) == 1 and n > 1:
            out.append([])  # one square as both ends of a path of two or more squares: no such tour
        out += [[t(x)] for x in fixed]
        if len(fixed) == 2:
            out += [[-t(v)] for v in range(n) if v not in fixed]
        return out

    def cut(self, inside: set[int]) -> list[int]:
        lits = [k + 1 for k, (u, v) in enumerate(self.edges) if (u in inside) != (v in inside)]
        if not self.closed:
            lits += [self.m + 1 + v for v in sorted(inside)]
        return lits


def cnf_clauses(board: Board, spec: TourSpec, cuts=()) -> tuple[int, list[list[int]]]:
    """``(variables, clauses)`` of the question in ``ktsolve-cnf/1``, with one clause per cut (square names).

    Raises ``ValueError`` for a cut that is not a proper set of squares.
    """
    enc = _Encoding(board, spec)
    clauses = list(enc.clauses)
    for cut in cuts:
        clauses.append(cut_clause(board, enc, cut))
    return enc.variables, clauses


def cut_clause(board: Board, enc: _Encoding, names) -> list[int]:
    """The clause of one cut, after checking that it is a proper set of squares of the board."""
    if not isinstance(names, (list, tuple)) or not names:
        raise ValueError("a cut must be a non-empty list of squares")
    inside = set()
    for name in names:
        if not isinstance(name, (str, list, tuple)):
            raise ValueError(f"{str(name)[:40]!r} is not a square name")
        r, c = board.parse_square(name)  # refuses holes and squares off the board
        v = enc.number[(r, c)]
        if v in inside:
            raise ValueError(f"a cut names {board.name(r, c)} twice")
        inside.add(v)
    if enc.closed and len(inside) >= enc.n:
        raise ValueError("a cut of a closed tour may not hold every square")
    return enc.cut(inside)


def read_proof(blob, variables: int, *, budget: int = PROOF_BYTES_MAX) -> list[list[int]]:
    """The lemmas of a DRUP proof carried as zlib and base64 (deletions dropped), each checked to be a clause.

    Raises ``ValueError`` for a damaged blob, a proof that inflates past
    ``budget`` bytes or holds more than :data:`PROOF_LINES_MAX` lines, a
    line that is not a clause ending in 0, or a literal of a variable the
    CNF does not have.
    """
    if not isinstance(blob, str):
        raise ValueError("the proof must be a base64 string")
    try:
        packed = base64.b64decode(blob.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        raise ValueError("the proof is not base64") from None
    inflate = zlib.decompressobj()
    try:
        raw = inflate.decompress(packed, budget + 1)
    except zlib.error:
        raise ValueError("the proof is not zlib data") from None
    if len(raw) > budget or inflate.unconsumed_tail:
        raise ValueError(f"the proof inflates to more than {budget:,} bytes")
    if not inflate.eof:
        raise ValueError("the proof's zlib data is cut short")
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError:
        raise ValueError("the proof is not ASCII text") from None
    lemmas = []
    for k, line in enumerate(text.splitlines()):
        if k >= PROOF_LINES_MAX:
            raise ValueError(f"the proof has more than {PROOF_LINES_MAX:,} lines")
        parts = line.split()
        if not parts or parts[0] == "d":
            continue
        if len(parts) > variables + 1:
            raise ValueError(f"line {k + 1} of the proof is longer than any clause of the CNF")
        try:
            lits = [int(x) for x in parts]
        except ValueError:
            raise ValueError(f"line {k + 1} of the proof is not a clause") from None
        if lits[-1] != 0 or 0 in lits[:-1]:
            raise ValueError(f"line {k + 1} of the proof does not end with its only 0")
        lits = lits[:-1]
        if any(abs(x) > variables for x in lits):
            raise ValueError(f"line {k + 1} of the proof names a variable the CNF does not have")
        lemmas.append(lits)
    return lemmas


def drup_checkers() -> list[str]:
    """The DRUP checkers that can be imported here, in the order ``checker="auto"`` prefers them."""
    out = []
    for name in ("drup", "dratify"):
        try:
            __import__(name)
        except ImportError:
            continue
        out.append(name)
    return out


#: drup's checker is OCaml code behind ctypes: its runtime aborts the process when two threads enter it, or one
#: that is not the main thread, so it runs in the main thread alone, one call at a time (dratify elsewhere).
_DRUP_LOCK = threading.Lock()


def _drup_usable() -> bool:
    return threading.current_thread() is threading.main_thread()


def _run_checker(name: str, variables: int, clauses, lemmas) -> bool:
    """Whether the checker ``name`` accepts ``lemmas`` as a refutation of ``clauses``."""
    if name == "drup":
        import drup

        with _DRUP_LOCK:
            return drup.check_proof(clauses, lemmas).outcome == drup.Outcome.VALID
    import dratify

    text = "p cnf %d %d\n" % (variables, len(clauses)) + "".join(
        " ".join(map(str, c)) + (" 0\n" if c else "0\n") for c in clauses)
    formula = dratify.parse_dimacs(text)
    proof = "".join(" ".join(map(str, c)) + (" 0\n" if c else "0\n") for c in lemmas)
    result = dratify.check_proof(formula, proof, engine="python")
    return bool(result.ok) and bool(getattr(result, "reached_empty", True))


def check_search(board: Board, spec: TourSpec, evidence, *, checker: str = "auto") -> "str | Verdict | None":
    """The checker of the one table for ``"exhaustive search"`` and ``"cpsat"`` proofs (see the module docstring).

    ``checker``: ``"drup"``, ``"dratify"``, or ``"auto"`` (drup where its
    work, proof lines times clauses, stays below :data:`DRUP_WORK_MAX`,
    else dratify; whichever is installed).  drup runs in the main thread
    only (its OCaml runtime aborts the process otherwise); elsewhere dratify
    checks.  Returns None (valid), the
    reason it is invalid, or a "not checkable" verdict (no certificate, a
    board above :data:`CNF_SQUARES_MAX` squares, no checker installed).
    """
    board = getattr(board, "board", board)
    cert = evidence.get("certificate")
    if cert is None:
        return not_checkable('the search\'s "no" carries no certificate (not certified)')
    if not isinstance(cert, dict):
        return "the certificate is not an object"
    if cert.get("encoding") != ENCODING:
        return f"the certificate's encoding is {str(cert.get('encoding'))[:40]!r}, not {ENCODING!r}"
    n = board.n_squares
    if not spec.closed and n < 2:
        return "an open tour of one square exists"
    if n > CNF_SQUARES_MAX:
        return not_checkable(f"search certificates are re-checked on boards of at most {CNF_SQUARES_MAX:,} squares")
    cuts = cert.get("cuts")
    if not isinstance(cuts, list):
        return "the certificate's cuts must be a list"
    try:
        variables, clauses = cnf_clauses(board, spec, cuts)
        lemmas = read_proof(cert.get("proof"), variables)
    except ValueError as exc:
        return str(exc)
    have = drup_checkers()
    if "drup" in have and not _drup_usable():
        have.remove("drup")  # see _DRUP_LOCK
    if checker == "auto":
        work = (len(lemmas) + 1) * (len(clauses) + 1)
        order = ["drup", "dratify"] if work <= DRUP_WORK_MAX else ["dratify", "drup"]
        names = [x for x in order if x in have][:1]
    elif checker in ("drup", "dratify"):
        names = [checker] if checker in have else []
    else:
        raise ValueError(f"checker must be 'auto', 'drup' or 'dratify', not {checker!r}")
    if not names:
        return not_checkable("checking a DRUP proof needs drup or dratify (pip install 'ktsolve[certify]')")
    name = names[0]
    if _run_checker(name, variables, clauses, lemmas):
        return Verdict("valid", "", f"DRUP proof checked by {name}")
    return f"{name} refuses the DRUP proof of the CNF with its {len(cuts)} cuts"
