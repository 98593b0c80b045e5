"""Certificates for the "no" of a search: the question as a CNF with cuts, and a DRUP proof that it is unsatisfiable.

An exhaustive search or CP-SAT that finds no tour says so with a node or
conflict count, which nobody can check.  This module turns such a "no"
into something anyone can check with a verified proof checker: the
question is written as a CNF in the fixed encoding ``ktsolve-cnf/1`` (every
tour of the question satisfies it), a few *cuts* are added (a set of
squares ``S``: "some move of the tour leaves ``S``", true of every tour), and
a SAT solver that logs its reasoning (Glucose 4 through python-sat) proves
the whole unsatisfiable, writing a DRUP proof.  The checker
(:mod:`ktsolve.proofs.cnf_check`) writes the same CNF again with its own
encoder, from the board, the question and the listed cuts, checks that
every cut is a proper set of squares, and runs the verified checker
``drup`` on the proof.

The encoding ``ktsolve-cnf/1`` (also documented in
:mod:`ktsolve.proofs.cnf_check`, which is the reference):

* squares are numbered in row-major order, holes skipped (the board's own
  numbering); moves are the pairs ``(u, v)``, ``u < v``, a knight's move
  apart, in increasing ``(u, v)`` order, and move ``k`` (from 0) is the
  variable ``k + 1``;
* an open tour adds an *end* variable ``E + 1 + v`` for every square ``v``
  (``E`` moves), and the counter variables of "at most two ends",
  ``E + n + 1 + 2 i + j`` for ``i`` in ``0 .. n - 2`` and ``j`` in 0, 1
  (Sinz's sequential counter: "at least ``j + 1`` of the ends ``0 .. i``");
* every square has exactly two moves, counting its end variable as one:
  no three of its literals (one clause per three) and at least two (one
  clause per literal: all the others); a square with fewer than two
  literals gives the empty clause;
* an open tour: at most two ends (the counter); its ends on the larger
  colour when the colours' counts differ by one (the others are not ends)
  and "some end" among those squares, or "some end" of each colour when the
  counts are equal; a fixed start or end is an end, and with both fixed no
  other square is;
* a closed tour with a fixed start and end a knight's move apart uses that
  move (a unit clause); with no such move, the empty clause;
* a cut ``S``: the clause of the moves with one square in ``S`` (and, for
  an open tour, the end variables of ``S``).

Finding the cuts is the subtour loop of :mod:`ktsolve.models.satcuts`:
solve, split the answer into its cycles, cut each cycle, solve again,
until the solver answers "unsatisfiable"; a search that already has cuts
(``cpsat`` with ``model="sat"`` or ``"cuts"``) passes them in first.  The
proof is logged from the first call on: every clause a call learns follows
from the clauses it had, and those are all in the final CNF, so the log is
a proof for the final CNF.

python-sat is an optional dependency (``pip install 'ktsolve[sat]'``);
without it :func:`certify_search` answers with the reason.
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import threading
import time
import zlib

import numpy as np

from ..board import Board
from ..driver import Deadline, call_guarded
from ..graph import KNIGHT_MOVES
from ..tour import TourSpec

__all__ = ["ENCODING", "CERTIFY_SOLVER", "CNF", "encode", "certify_search", "certify_answer", "cut_clause", "proof_blob",
           "CERTIFY_MIN_SECONDS", "CERTIFY_FACTOR", "CERTIFY_MAX_SQUARES", "uncertified", "settle"]

#: The name and version of the CNF encoding; a certificate names it, and the checker refuses any other.
ENCODING = "ktsolve-cnf/1"

#: The SAT solver that writes the DRUP proof (python-sat's Glucose 4: incremental, interruptible, proof logging).
CERTIFY_SOLVER = "glucose4"

#: Without a time limit a certificate gets this many seconds at least ...
CERTIFY_MIN_SECONDS = 30.0
#: ... or this many times the search's own time, whichever is more.
CERTIFY_FACTOR = 10.0
#: Largest board certified (the checker writes its CNF as Python lists: :data:`ktsolve.proofs.cnf_check.CNF_SQUARES_MAX`).
CERTIFY_MAX_SQUARES = 40_000


class CNF:
    """The clauses of ``ktsolve-cnf/1`` for one question, before any cut.

    Attributes
    ----------
    n : int
        Squares.
    edges : (E, 2) int64 array
        The moves ``(u, v)``, ``u < v``, in variable order.
    closed : bool
    variables : int
        Variables used (moves, ends and counters).
    clauses : list of list of int
    at : list of list of int
        The literals of every square (its moves, then its end variable).
    """

    def __init__(self, board: Board, spec: TourSpec):
        n = board.n_squares
        self.n = n
        self.closed = bool(spec.closed)
        rows, cols = board.rows, board.cols
        number = np.full(rows * cols, -1, dtype=np.int64)
        number[board.mask.reshape(-1)] = np.arange(n)
        coords = board.coords_of(np.arange(n)).astype(np.int64)
        pairs = []
        for dr, dc in KNIGHT_MOVES.tolist():
            r2, c2 = coords[:, 0] + dr, coords[:, 1] + dc
            ok = (r2 >= 0) & (r2 < rows) & (c2 >= 0) & (c2 < cols)
            v = np.full(n, -1, dtype=np.int64)
            v[ok] = number[r2[ok] * cols + c2[ok]]
            u = np.arange(n)
            keep = v > u
            pairs.append(np.stack([u[keep], v[keep]], axis=1))
        edges = np.concatenate(pairs) if pairs else np.zeros((0, 2), dtype=np.int64)
        edges = edges[np.lexsort((edges[:, 1], edges[:, 0]))]
        self.edges = edges
        m = len(edges)
        self.moves = m
        at: list[list[int]] = [[] for _ in range(n)]
        for k, (u, v) in enumerate(edges.tolist()):
            at[u].append(k + 1)
            at[v].append(k + 1)
        self.end_var = None if self.closed else (lambda v: m + 1 + v)
        if not self.closed:
            for v in range(n):
                at[v].append(m + 1 + v)
        self.at = at
        self.variables = m if self.closed else m + n + 2 * max(n - 1, 0)
        clauses: list[list[int]] = []
        for lits in at:
            if len(lits) < 2:
                clauses.append([])
                continue
            clauses.extend([-a, -b, -c] for a, b, c in itertools.combinations(lits, 3))
            clauses.extend([y for y in lits if y != x] for x in lits)
        s = None if spec.start is None else board.index(*spec.start)
        e = None if spec.end is None else board.index(*spec.end)
        if self.closed:
            if s is not None and e is not None and s != e:
                k = self.edge_variable(min(s, e), max(s, e))
                clauses.append([] if k is None else [k])
        else:
            clauses.extend(self._end_clauses(board, s, e))
        self.clauses = clauses
        self._var_of = None

    def edge_variable(self, u: int, v: int) -> int | None:
        """The variable of the move ``(u, v)``, ``u < v``, or None when there is no such move."""
        edges = self.edges
        lo = int(np.searchsorted(edges[:, 0], u, side="left"))
        hi = int(np.searchsorted(edges[:, 0], u, side="right"))
        k = lo + int(np.searchsorted(edges[lo:hi, 1], v))
        if k < hi and int(edges[k, 1]) == v:
            return k + 1
        return None

    def _end_clauses(self, board: Board, s: int | None, e: int | None) -> list[list[int]]:
        n, m = self.n, self.moves
        t = [m + 1 + v for v in range(n)]
        out: list[list[int]] = []

        def aux(i: int, j: int) -> int:  # "at least j + 1 of the ends 0 .. i"
            return m + n + 1 + 2 * i + j

        for i in range(n):
            if i == 0:
                if n > 1:
                    out.append([-t[0], aux(0, 0)])
                    out.append([-aux(0, 1)])
            elif i < n - 1:
                out.append([-t[i], aux(i, 0)])
                out.append([-aux(i - 1, 0), aux(i, 0)])
                out.append([-t[i], -aux(i - 1, 0), aux(i, 1)])
                out.append([-aux(i - 1, 1), aux(i, 1)])
                out.append([-t[i], -aux(i - 1, 1)])
            else:
                out.append([-t[i], -aux(i - 1, 1)])
        colour = ((board.coords_of(np.arange(n)).sum(axis=1)) & 1).astype(np.int64)
        count = [int((colour == 0).sum()), int((colour == 1).sum())]
        if abs(count[0] - count[1]) == 1:
            major = 0 if count[0] > count[1] else 1
            out.extend([-t[v]] for v in range(n) if colour[v] != major)
            out.append([t[v] for v in range(n) if colour[v] == major])
        elif count[0] == count[1]:
            out.append([t[v] for v in range(n) if colour[v] == 0])
            out.append([t[v] for v in range(n) if colour[v] == 1])
        else:
            out.append(list(t))
        fixed = [x for x in dict.fromkeys((s, e)) if x is not None]
        if s is not None and s == e and n > 1:
            out.append([])  # an open tour of two or more squares cannot start and end on one square
        out.extend([t[x]] for x in fixed)
        if len(fixed) == 2:
            out.extend([-t[v]] for v in range(n) if v not in fixed)
        return out

    def cut_clause(self, squares) -> list[int]:
        """The clause of the cut ``squares``: the moves that leave it (and its end variables, for an open tour)."""
        inside = np.zeros(self.n, dtype=bool)
        inside[np.asarray(list(squares), dtype=np.int64)] = True
        edges = self.edges
        leave = np.flatnonzero(inside[edges[:, 0]] != inside[edges[:, 1]]) + 1
        lits = leave.tolist()
        if not self.closed:
            lits += (self.moves + 1 + np.flatnonzero(inside)).tolist()
        return lits


def encode(board: Board, spec: TourSpec) -> CNF:
    """The CNF ``ktsolve-cnf/1`` of a question, before any cut (see the module docstring).

    Examples
    --------
    >>> cnf = encode(Board(3, 4), TourSpec(closed=True))
    >>> cnf.moves, cnf.variables
    (14, 14)
    """
    return CNF(board, spec)


def cut_clause(cnf: CNF, squares) -> list[int]:
    """The clause of the cut ``squares`` in ``cnf`` (see :meth:`CNF.cut_clause`)."""
    return cnf.cut_clause(squares)


def proof_blob(lines) -> str:
    """A DRUP proof (lines of text) as the certificate carries it: zlib-compressed, then base64."""
    text = "\n".join(lines) + "\n"
    return base64.b64encode(zlib.compress(text.encode("ascii"), 6)).decode("ascii")


def _cycles(cnf: CNF, model_true: set[int]) -> tuple[list[list[int]], bool]:
    """The cycles of a model (its components without an end), and whether it is one tour."""
    n = cnf.n
    adj: list[list[int]] = [[] for _ in range(n)]
    for k in np.flatnonzero(np.isin(np.arange(1, cnf.moves + 1), list(model_true))).tolist():
        u, v = cnf.edges[k].tolist()
        adj[u].append(v)
        adj[v].append(u)
    ends = set()
    if not cnf.closed:
        ends = {v for v in range(n) if cnf.moves + 1 + v in model_true}
    seen = [False] * n
    comps = []
    for s in range(n):
        if seen[s]:
            continue
        seen[s] = True
        comp, stack = [s], [s]
        while stack:
            x = stack.pop()
            for y in adj[x]:
                if not seen[y]:
                    seen[y] = True
                    comp.append(y)
                    stack.append(y)
        comps.append(comp)
    if len(comps) == 1:
        return [], True
    return [c for c in comps if not ends.intersection(c)], False


def certify_search(board: Board, spec: TourSpec, *, deadline: Deadline | None = None, cuts=(),
                   max_rounds: int = 100_000) -> dict:
    """Try to certify that the question has no tour: ``{"certified": True, "certificate": {...}}`` or why not.

    Parameters
    ----------
    board : Board
    spec : TourSpec
    deadline : Deadline, optional
        The clock: when it runs out (or Ctrl-C, or a race's cancel flag)
        the answer is ``{"certified": False, "reason": ...}``.
    cuts : iterable of iterables of square numbers
        Cuts a search already needed; they are added first.
    max_rounds : int
        Rounds of the cut loop at most.

    Returns
    -------
    dict
        ``certified`` True with ``certificate``: ``encoding``, ``cuts``
        (square names), ``proof`` (:func:`proof_blob`), ``solver``,
        ``variables``, ``clauses``, ``rounds``, ``seconds``; or
        ``certified`` False with ``reason``; or, when the loop meets a tour
        (the search was wrong), ``certified`` False with ``tour_model``
        True and the edges of the tour in ``tour_edges``.

    Examples
    --------
    >>> out = certify_search(Board(3, 4), TourSpec(closed=True))
    >>> out["certified"], out["certificate"]["encoding"]
    (True, 'ktsolve-cnf/1')
    """
    try:
        from pysat.solvers import Solver
    except ImportError:
        return {"certified": False, "reason": "python-sat is not installed (pip install 'ktsolve[sat]')"}
    deadline = deadline if deadline is not None else Deadline(None)
    t0 = time.perf_counter()
    n = board.n_squares
    if n < 3 and spec.closed or n < 2:
        return {"certified": False, "reason": "the board is too small for the CNF encoding"}
    if n > CERTIFY_MAX_SQUARES:
        return {"certified": False, "reason": f"boards above {CERTIFY_MAX_SQUARES:,} squares are not certified"}
    if deadline.expired():
        return {"certified": False, "reason": "no time was left to make a certificate"}
    cnf = encode(board, spec)
    kept: list[list[int]] = []
    seen: set[tuple[int, ...]] = set()

    def add_cut(squares) -> list[int] | None:
        key = tuple(sorted(int(x) for x in squares))
        if not key or key in seen or (cnf.closed and len(key) >= n):
            return None
        seen.add(key)
        kept.append(list(key))
        return cnf.cut_clause(key)

    solver = Solver(name=CERTIFY_SOLVER, with_proof=True)
    rounds = 0
    try:
        for clause in cnf.clauses:
            solver.add_clause(clause)
        for c in cuts:
            clause = add_cut(c)
            if clause is not None:
                solver.add_clause(clause)
        while True:
            if deadline.expired():
                return {"certified": False, "reason": "the time ran out before the certificate was made",
                        "rounds": rounds}
            if rounds >= max_rounds:
                return {"certified": False, "reason": f"{max_rounds} rounds of cuts did not finish",
                        "rounds": rounds}
            rounds += 1
            answer, interrupted = _solve(solver, deadline)
            if interrupted:
                return {"certified": False, "reason": "interrupted (Ctrl-C) while the certificate was made",
                        "interrupted": True, "rounds": rounds}
            if answer is None:
                return {"certified": False, "reason": "the time ran out before the certificate was made",
                        "rounds": rounds}
            if answer is False:
                break
            true = {x for x in solver.get_model() if x > 0}
            cycles, whole = _cycles(cnf, true)
            if whole:
                tour = [cnf.edges[x - 1].tolist() for x in sorted(true) if x <= cnf.moves]
                return {"certified": False, "reason": "the CNF has a tour: the search's answer is wrong",
                        "tour_model": True, "tour_edges": tour, "rounds": rounds}
            for cycle in cycles:
                clause = add_cut(cycle)
                if clause is not None:
                    solver.add_clause(clause)
        proof = solver.get_proof() or []
    finally:
        solver.delete()
    names = board.names(board.coords_of(np.arange(n)))
    cut_names = [[names[v] for v in cut] for cut in kept]
    lines = [ln for ln in proof if not ln.startswith("d")]
    blob = proof_blob(lines)
    return {"certified": True, "certificate": {
        "encoding": ENCODING,
        "cuts": cut_names,
        "proof": blob,
        "proof_format": "drup, zlib, base64",
        "proof_lines": len(lines),
        "proof_sha256": hashlib.sha256(blob.encode("ascii")).hexdigest(),
        "solver": CERTIFY_SOLVER,
        "variables": cnf.variables,
        "clauses": len(cnf.clauses) + len(kept),
        "rounds": rounds,
        "seconds": round(time.perf_counter() - t0, 3),
    }}


def _solve(solver, deadline: Deadline) -> tuple[bool | None, bool]:
    """One SAT call within the time left: ``(answer, interrupted)``, answer None when stopped."""
    left = deadline.remaining()
    timer = None
    if left is not None:
        timer = threading.Timer(max(left, 1e-3), solver.interrupt)
        timer.daemon = True
        timer.start()
    try:
        answer, interrupted = call_guarded(lambda: solver.solve_limited(expect_interrupt=True),
                                           on_interrupt=solver.interrupt, cancel=deadline.cancel)
    finally:
        if timer is not None:
            timer.cancel()
            timer.join()
        solver.clear_interrupt()
    return answer, interrupted


def certify_answer(result, board: Board, spec: TourSpec, deadline: Deadline | None, *, cuts=()):
    """A search's ``infeasible`` answer with its certificate attached, or marked "not certified".

    The certificate gets the time left on ``deadline`` (without a time
    limit: :data:`CERTIFY_MIN_SECONDS`, or :data:`CERTIFY_FACTOR` times the
    time spent so far if that is more).  Certified: the proof's evidence
    gains ``certificate`` (see :func:`certify_search`) and ``certified``
    True.  Not: the proof's text ends with "(not certified: REASON)" and its
    evidence says ``certified`` False with the reason, so the answer never
    passes for a checked proof.  Ctrl-C while certifying gives the honest
    ``unknown`` of an interrupted run; a CNF that turns out to have a tour
    (the search was wrong: a bug) gives ``unknown`` with that reason.
    """
    from ..result import Proof, SolveResult, Status

    proof = result.proof
    if deadline is None:
        deadline = Deadline(None)
    own = deadline
    if deadline.remaining() is None:
        own = Deadline(max(CERTIFY_MIN_SECONDS, CERTIFY_FACTOR * deadline.elapsed()), cancel=deadline.cancel)
    out = certify_search(board, spec, deadline=own, cuts=cuts)
    evidence = dict(proof.evidence)
    stats = dict(result.stats)
    if out.get("interrupted"):
        stats.update(reason="interrupted (Ctrl-C) while the certificate of 'no tour' was made", interrupted=True)
        return SolveResult(Status.UNKNOWN, seed=result.seed, stats=stats)
    if out.get("tour_model"):
        stats["reason"] = ("the search found no tour, but the CNF of its certificate has one: "
                           "a bug in ktsolve, so the answer is unknown")
        stats["search_contradicted"] = True
        return SolveResult(Status.UNKNOWN, seed=result.seed, stats=stats)
    if out["certified"]:
        cert = out["certificate"]
        evidence.update(certified=True, certificate=cert)
        text = (f"{proof} (certified: the question as a CNF with {len(cert['cuts'])} cuts, refuted by a DRUP "
                f"proof of {cert['proof_lines']:,} lines from {cert['solver']})")
        stats["certificate_s"] = cert["seconds"]
    else:
        evidence.update(certified=False, not_certified=out["reason"])
        text = f"{proof} (not certified: {out['reason']})"
    return result.replace(proof=Proof(text, argument=proof.argument, evidence=evidence), stats=stats)


def uncertified(result, reason: str):
    """A search's ``infeasible`` answer marked "not certified" with ``reason`` (``certify=False``, say)."""
    from ..result import Proof

    proof = result.proof
    evidence = {**proof.evidence, "certified": False, "not_certified": reason}
    return result.replace(proof=Proof(f"{proof} (not certified: {reason})", argument=proof.argument,
                                      evidence=evidence))


def settle(result, board: Board, spec: TourSpec, deadline: Deadline | None, certify: bool, *, cuts=()):
    """What a search returns: a "no" from the search certified (or marked not certified), anything else as is."""
    if result.status.value != "infeasible" or getattr(result.proof, "argument", None) not in ("exhaustive search",
                                                                                            "cpsat"):
        return result
    if not certify:
        return uncertified(result, "certify=False")
    return certify_answer(result, board, spec, deadline, cuts=cuts)
