"""The forging fuzzer of issue 29: real certificates, mutated, checked on questions that have a tour.

A checker is sound when it accepts no proof that no tour exists for a
question that has one.  The fuzzer takes real proofs, made by ktsolve's own
finders for questions without a tour (:func:`seed_cases`, one or more per
argument of :data:`ktsolve.proofs.CHECKERS`, and :func:`random_cases`), and
questions near them that do have a tour (the same board asked otherwise,
the board with one square added or taken out: :func:`targets`), each
proved by a tour in hand that :func:`ktsolve.validate` accepts.  Then it
forges (:func:`forgeries`): every one-square change of a square the
evidence names (to any cell of the board, holes included), dropped list
items and keys, duplicated and reordered items (steps), swapped sets,
changed numbers and levels, flipped flags, other reasons, the evidence
under another argument, and for a search's certificate a cut changed,
dropped or made the whole board, and DRUP proof lines dropped, negated or
renumbered.  Every forgery, and the real proof itself (a proof of another
board), is checked against every target: an accepted one is a violation.

``fuzz(profile)`` runs it: ``"fast"`` (the suite, seconds) samples the
one-square changes; ``"long"`` (``pytest -m fuzz``, the benchmark) makes
every one of them and adds random boards.
"""

from __future__ import annotations

import base64
import copy
import random
import time
import zlib
from collections import Counter
from dataclasses import dataclass, field

from ktsolve import Board, KnightGraph, TourSpec, prove, validate
from ktsolve.proofs import CHECKERS, check_proof
from ktsolve.result import Proof, Status

#: Arguments whose proofs name no square: their forgeries are numbers, flags and other boards.
REASONS = ["colour", "no entry", "search", "degree", "disconnected", "cut", "no perfect matching",
           "three forced", "short cycle", "forced excluded", "row parity"]


@dataclass
class Case:
    board: Board
    spec: TourSpec
    proof: Proof
    label: str = ""


@dataclass
class Report:
    real: Counter = field(default_factory=Counter)          # real proofs per argument
    genuine_refused: list = field(default_factory=list)     # real proofs their checker refused on their question
    forged: Counter = field(default_factory=Counter)        # forgeries checked per argument (target x forgery)
    one_square: Counter = field(default_factory=Counter)    # one-square forgeries checked per argument
    outcomes: Counter = field(default_factory=Counter)      # verdict outcomes of the forgeries
    accepted: list = field(default_factory=list)            # forgeries accepted on a question with a tour
    targets: int = 0
    seconds: float = 0.0

    def summary(self) -> dict:
        return {"real": dict(self.real), "genuine_refused": len(self.genuine_refused), "forged": dict(self.forged),
                "one_square": dict(self.one_square), "outcomes": dict(self.outcomes),
                "accepted": len(self.accepted), "targets": self.targets, "seconds": round(self.seconds, 1)}


# ---------------------------------------------------------------------------------------------- real proofs
def _graph(board):
    return KnightGraph(board)


def listed_hall_steps(graph, proof: Proof) -> Proof:
    """A closed question's matching proof with every Hall step's count of moves replaced by the list of
    them, the other form the checker reads (derived by its own plain-set replay)."""
    from ktsolve.proofs.certificate import closed_deletions

    ev = copy.deepcopy(dict(proof.evidence))
    for step, pairs in closed_deletions(graph, ev["steps"]):
        if step["step"] == "hall":
            step["deleted"] = [[graph.name(a), graph.name(b)] for a, b in pairs]
    return Proof(str(proof), argument=proof.argument, evidence=ev)


def seed_cases() -> list[Case]:
    """Real proofs of every argument, made by the finders on questions chosen to reach them."""
    from ktsolve.factor import two_factor, witness_proof
    from ktsolve.models.backtrack import solve_backtrack
    from ktsolve.models.cpsat import solve_cpsat
    from ktsolve.proofs import (colour_proof, connectivity_proof, cut_proof, degree_proof, ends_proof,
                                full_board_proof, matching_proof, region_proof, size_proof, toughness_proof,
                                two_cut_proof)
    from ktsolve.proofs.local import local_cut_proof

    out: list[Case] = []

    def add(board, spec, proof, label=""):
        if proof is not None:
            out.append(Case(board, spec, proof, label))

    closed, opened = TourSpec(closed=True), TourSpec()
    add(Board(1, 2), closed, size_proof(Board(1, 2), closed))
    b = Board(3, 4)
    add(b, TourSpec(start=(0, 0), end=(0, 0)), size_proof(b, TourSpec(start=(0, 0), end=(0, 0))))
    for bb in (Board(5, 5), Board(6, 6, [(0, 0)]), Board(5, 6, [(0, 0), (0, 2)])):
        add(bb, closed, colour_proof(bb, closed))
    b = Board(6, 6)
    add(b, TourSpec(start=(5, 0), end=(1, 2)), colour_proof(b, TourSpec(start=(5, 0), end=(1, 2))))
    add(b, TourSpec(closed=True, start=(5, 0), end=(4, 0)),
        ends_proof(_graph(b), TourSpec(closed=True, start=(5, 0), end=(4, 0))))
    add(b, TourSpec(closed=True, start=(5, 0), end=(4, 0)),
        full_board_proof(b, TourSpec(closed=True, start=(5, 0), end=(4, 0))), "closing move")
    b = Board(8, 8, [(1, 2), (4, 4)])
    add(b, closed, degree_proof(_graph(b), closed))
    b = Board(6, 6, [(1, 2), (2, 1), (4, 1), (5, 2)])  # a8-like corners with one move each
    for spec in (opened, TourSpec(start=(2, 2))):
        add(b, spec, degree_proof(_graph(b), spec))
    add(Board(1, 5), opened, full_board_proof(Board(1, 5), opened))
    add(Board(2, 5), opened, full_board_proof(Board(2, 5), opened))
    b = Board(6, 6, [(1, 2), (2, 1)])
    add(b, opened, connectivity_proof(_graph(b), opened))
    b = Board(7, 7, [(2, 3), (3, 2), (1, 4), (4, 1)])
    for spec in (closed, opened):
        add(b, spec, cut_proof(_graph(b), spec))
        add(b, spec, local_cut_proof(b, spec))
    add(Board(3, 6), closed, full_board_proof(Board(3, 6), closed))
    add(Board(3, 5), opened, full_board_proof(Board(3, 5), opened))
    add(Board(4, 6), closed, full_board_proof(Board(4, 6), closed))
    add(Board(4, 6), TourSpec(start=(1, 2)), full_board_proof(Board(4, 6), TourSpec(start=(1, 2))))
    for bb, spec in ((Board(4, 6), closed), (Board(4, 7), closed), (Board(3, 8), closed)):
        proof = matching_proof(_graph(bb), spec)
        add(bb, spec, proof)
        if proof is not None:
            add(bb, spec, listed_hall_steps(_graph(bb), proof), "listed moves")
    from ktsolve.proofs.forcing import forcing_proof
    from ktsolve.shapes import planted

    # forcing ends in a short cycle, three forced moves, a square left with one move; the planted pair
    for bb in (Board(4, 5), Board(3, 6), Board(3, 5), planted(16, 16, "pair", balance="closed").board):
        add(bb, closed, forcing_proof(bb, closed))
    b = Board(5, 7, [(1, 3), (3, 3), (3, 4), (3, 6), (4, 0)])  # two pairs of light squares hold the ends
    add(b, opened, matching_proof(_graph(b), opened), "tight sets")
    b = Board(5, 4, [(1, 3), (3, 0)])
    add(b, closed, witness_proof(b, closed, two_factor(b).witness))
    b = Board(5, 5, [(1, 2), (2, 1), (2, 3), (3, 2)])
    tf = two_factor(b, closed=False)
    if tf.status == "none":
        add(b, opened, witness_proof(b, opened, tf.witness))
    for bb, spec, finder in _cut_finder_cases(toughness_proof, two_cut_proof, region_proof):
        add(bb, spec, finder)
    b = Board(3, 6)
    add(b, opened, solve_backtrack(_graph(b), opened).proof)
    b = Board(4, 4, [(1, 2), (3, 3)])
    add(b, opened, solve_cpsat(_graph(b), opened, seed=1).proof)
    b = Board(4, 4)
    add(b, TourSpec(start=(3, 3)), solve_cpsat(_graph(b), TourSpec(start=(3, 3)), seed=1, model="sat").proof)
    add(Board(3, 4), closed, solve_backtrack(_graph(Board(3, 4)), closed).proof)
    return out


def _cut_finder_cases(toughness_proof, two_cut_proof, region_proof):
    """Boards where the cut finders find their witnesses (searched once, deterministically)."""
    rng = random.Random(29)
    found: dict[str, list] = {"toughness": [], "two-square cut": [], "region colours": []}
    for _ in range(4000):
        if all(len(v) >= 2 for v in found.values()):
            break
        m, n = rng.randint(4, 7), rng.randint(4, 7)
        cells = [(r, c) for r in range(m) for c in range(n)]
        b = Board(m, n, rng.sample(cells, rng.randint(1, m * n // 4)))
        if b.n_squares < 4:
            continue
        spec = rng.choice([TourSpec(closed=True), TourSpec()])
        g = KnightGraph(b)
        for name, finder in (("toughness", toughness_proof), ("two-square cut", two_cut_proof),
                             ("region colours", region_proof)):
            if len(found[name]) >= 2:
                continue
            p = finder(g, spec)
            if p is not None and p.argument == name:
                found[name].append((b, spec, p))
    return [x for v in found.values() for x in v]


def random_cases(count: int, seed: int, max_side: int = 7) -> list[Case]:
    """The ``infeasible`` answers of ``prove`` on random holed boards (every kind of question)."""
    rng = random.Random(seed)
    out = []
    tries = 0
    while len(out) < count and tries < 50 * count:
        tries += 1
        b, spec = _random_question(rng, max_side)
        if b is None:
            continue
        res = prove(b, closed=spec.closed, start=spec.start, end=spec.end, race=False, seed=1, time_limit=5)
        if res.status is Status.INFEASIBLE:
            out.append(Case(b, spec, res.proof, "random"))
    return out


def _random_question(rng, max_side):
    m, n = rng.randint(1, max_side), rng.randint(1, max_side)
    cells = [(r, c) for r in range(m) for c in range(n)]
    try:
        b = Board(m, n, rng.sample(cells, rng.randint(0, max(0, m * n - 1) // 3)))
    except ValueError:
        return None, None
    sq = [tuple(int(x) for x in b.coords_of([k])[0]) for k in range(b.n_squares)]
    if not sq:
        return None, None
    kind = rng.choice(["closed", "open", "start", "end", "both"])
    s = rng.choice(sq) if kind in ("start", "both") else None
    e = rng.choice(sq) if kind in ("end", "both") else None
    return b, TourSpec(closed=kind == "closed", start=s, end=e)


# ---------------------------------------------------------------------------------------------- targets
_target_cache: dict = {}


def _tour_of(board: Board, spec: TourSpec):
    """A validated tour of the question, or None (prove's answer, cached)."""
    key = (board.rows, board.cols, board.holes, spec)
    if key not in _target_cache:
        res = prove(board, closed=spec.closed, start=spec.start, end=spec.end, race=False, seed=1, time_limit=5)
        tour = None
        if res.status is Status.FOUND:
            tour = validate(board, res.tour, closed=spec.closed, start=spec.start, end=spec.end)
        _target_cache[key] = tour
    return _target_cache[key]


def targets(case: Case, rng: random.Random, limit: int) -> list[tuple[Board, TourSpec]]:
    """Questions near the case's that have a tour (each checked by a validated tour)."""
    b = case.board
    specs = [TourSpec(), TourSpec(closed=True)]
    sq = [tuple(int(x) for x in b.coords_of([k])[0]) for k in range(b.n_squares)]
    if sq:
        specs += [TourSpec(start=rng.choice(sq)), TourSpec(end=rng.choice(sq))]
    boards = [b]
    for hole in b.holes:  # a square given back: the likeliest way to a board with a tour
        boards.append(Board(b.rows, b.cols, sorted(set(b.holes) - {hole})))
    cells = [(r, c) for r in range(b.rows) for c in range(b.cols) if not b.is_hole(r, c)]
    rng.shuffle(cells)
    for cell in cells[: 2 * limit]:
        if len(b.holes) + 1 < b.size:
            boards.append(Board(b.rows, b.cols, sorted(set(b.holes) | {cell})))
    for big in ((b.rows + 1, b.cols), (b.rows, b.cols + 1)):
        boards.append(Board(*big, [h for h in b.holes]))
    boards.append(Board(b.rows, b.cols))  # every square given back
    out = []
    for bb in boards:
        for spec in [case.spec] + specs:
            if len(out) >= limit:
                return out
            if spec.start is not None and (bb.is_hole(*spec.start) if bb.contains(*spec.start) else True):
                continue
            if spec.end is not None and (bb.is_hole(*spec.end) if bb.contains(*spec.end) else True):
                continue
            if bb.n_squares == 1 and not spec.closed:
                continue  # the one-square tour: every proof of it is refused outright, nothing to learn
            if _tour_of(bb, spec) is not None and (bb, spec) not in out:
                out.append((bb, spec))
    return out


# ---------------------------------------------------------------------------------------------- forgeries
def _is_square(board: Board, x) -> bool:
    if not isinstance(x, str) or len(x) > 8:
        return False
    try:
        board.parse_square(x, allow_hole=True)
    except ValueError:
        return False
    return True


def _paths(node, path=()):
    """Every position in a JSON tree: ``(path, value)``."""
    yield path, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, path + (i,))


def _get(tree, path):
    for k in path:
        tree = tree[k]
    return tree


def _set(tree, path, value):
    tree = copy.deepcopy(tree)
    _get(tree, path[:-1])[path[-1]] = value
    return tree


def _drop(tree, path):
    tree = copy.deepcopy(tree)
    parent = _get(tree, path[:-1])
    del parent[path[-1]]
    return tree


def _proof_lines(blob: str) -> list[str]:
    return zlib.decompress(base64.b64decode(blob)).decode("ascii").splitlines()


def _blob(lines: list[str]) -> str:
    return base64.b64encode(zlib.compress(("\n".join(lines) + "\n").encode("ascii"))).decode("ascii")


def forgeries(case: Case, rng: random.Random, *, every_square: bool, cap: int):
    """``(kind, Proof)`` forgeries of the case's proof (see the module docstring), at most about ``cap``."""
    proof, board = case.proof, case.board
    ev = dict(proof.evidence)
    arg = proof.argument
    names = [board.name(r, c) for r in range(board.rows) for c in range(board.cols)]
    out = []

    def emit(kind, evidence, argument=arg):
        out.append((kind, Proof(str(proof), argument=argument, evidence=evidence)))

    positions = list(_paths(ev))
    squares = [(p, v) for p, v in positions if p and _is_square(board, v)]
    for p, v in squares:
        pool = [x for x in names if x != v]
        if not every_square:
            pool = rng.sample(pool, min(len(pool), 3))
        for x in pool:
            emit("one square", _set(ev, p, x))
    for p, v in positions:
        if not p:
            continue
        if isinstance(v, list):
            idx = range(len(v)) if len(v) <= 12 else rng.sample(range(len(v)), 12)
            for i in idx:
                emit("drop item", _drop(ev, p + (i,)))
            if len(v) >= 2:
                emit("reorder", _set(ev, p, v[::-1]))
                i = rng.randrange(len(v) - 1)
                w = list(v)
                w[i], w[i + 1] = w[i + 1], w[i]
                emit("reorder", _set(ev, p, w))
            if v:
                emit("duplicate item", _set(ev, p, list(v) + [copy.deepcopy(v[0])]))
                emit("empty list", _set(ev, p, []))
        elif isinstance(v, dict):
            for k in list(v)[:20]:
                emit("drop key", _drop(ev, p + (k,)))
                if isinstance(k, str) and k.lstrip("-").isdigit():  # a level of a Hall step
                    for new in {str(int(k) + 1), str(int(k) - 1), "0", "-1"} - {k}:
                        w = dict(v)
                        w[new] = w.pop(k)
                        emit("level", _set(ev, p, w))
            lists = [k for k in v if isinstance(v[k], list)]
            for a, b in zip(lists, lists[1:]):
                w = dict(v)
                w[a], w[b] = v[b], v[a]
                emit("swap sets", _set(ev, p, w))
        elif isinstance(v, bool):
            emit("flag", _set(ev, p, not v))
        elif isinstance(v, int):
            for d in (1, -1):
                emit("number", _set(ev, p, v + d))
        elif isinstance(v, str) and p[-1] in ("reason", "step"):
            for r in rng.sample(REASONS, 3):
                if r != v:
                    emit("reason", _set(ev, p, r))
    p = ("certificate",)
    cert = ev.get("certificate")
    if isinstance(cert, dict) and isinstance(cert.get("proof"), str):
        lines = _proof_lines(cert["proof"])
        body = [ln for ln in lines if ln.strip()]
        for i in rng.sample(range(len(body)), min(len(body), 6)):
            w = body[:i] + body[i + 1:]
            emit("proof line", _set(ev, p, {**cert, "proof": _blob(w)}))
            lits = body[i].split()
            if len(lits) > 1:
                k = rng.randrange(len(lits) - 1)
                for new in (str(-int(lits[k])), str(abs(int(lits[k])) + 1)):
                    emit("proof literal", _set(ev, p, {**cert, "proof": _blob(
                        body[:i] + [" ".join(lits[:k] + [new] + lits[k + 1:])] + body[i + 1:])}))
        emit("proof line", _set(ev, p, {**cert, "proof": _blob(body[:-1])}))
        emit("proof cut short", _set(ev, p, {**cert, "proof": cert["proof"][: len(cert["proof"]) // 2]}))
        emit("whole-board cut", _set(ev, p, {**cert, "cuts": [*cert.get("cuts", []), names]}))
    for other in rng.sample(sorted(CHECKERS), 3):
        if other != arg:
            emit("argument", copy.deepcopy(ev), other)
    if len(out) > cap:
        keep = [x for x in out if x[0] == "one square"][: cap // 2]
        rest = [x for x in out if x[0] != "one square"]
        out = keep + rng.sample(rest, min(len(rest), cap - len(keep)))
    return out


# ---------------------------------------------------------------------------------------------- the run
PROFILES = {
    "fast": {"random": 0, "targets": 3, "every_square": False, "cap": 60},
    "long": {"random": 100, "targets": 4, "every_square": True, "cap": 400},
}


def fuzz(profile: str = "fast", *, seed: int = 0, cases: list[Case] | None = None) -> Report:
    """Forge every case's proof and check the forgeries on questions that have a tour."""
    conf = PROFILES[profile]
    rng = random.Random(seed)
    rep = Report()
    t0 = time.perf_counter()
    if cases is None:
        cases = seed_cases() + random_cases(conf["random"], seed)
    for case in cases:
        arg = case.proof.argument
        rep.real[arg] += 1
        verdict = check_proof(case.board, case.spec, case.proof)
        if not verdict.valid:
            rep.genuine_refused.append((case.board, case.spec, arg, verdict.line()))
        tg = targets(case, rng, conf["targets"])
        rep.targets += len(tg)
        forged = [("another question", case.proof)] + forgeries(case, rng, every_square=conf["every_square"],
                                                                 cap=conf["cap"])
        for board, spec in tg:
            for kind, p in forged:
                v = check_proof(board, spec, p)
                rep.forged[arg] += 1
                if kind == "one square":
                    rep.one_square[arg] += 1
                rep.outcomes[v.outcome] += 1
                if v.valid:
                    rep.accepted.append((board, spec, kind, p.argument, dict(p.evidence)))
    rep.seconds = time.perf_counter() - t0
    return rep
