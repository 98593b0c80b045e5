"""Issue 29: every answer checkable.  Checkers that no forgery passes, certificates of a search's "no", verify.

* the audit's two forged matching proofs are refused, on boards whose tour is in hand;
* every argument any finder writes has a checker in the one table (read from the source);
* the forging fuzzer (tests/fuzz_certificates.py): real proofs of every kind, mutated (every one-square
  change among them), accepted on no question that has a tour; it sees a planted fault;
* the search certificate: the maker's and the checker's CNF encoders write the same clauses, and the
  checker's CNF with its cut loop answers as exhaustive search does on small boards;
* verify on certificate files: valid, tampered, truncated, another board's, a gzip bomb.
"""

from __future__ import annotations

import base64
import json
import random
import re
import zlib
from pathlib import Path

import pytest

from ktsolve import Board, KnightGraph, TourSpec, prove, solve, validate, verify_certificate
from ktsolve.proofs import CHECKERS, check_matching_proof, check_proof
from ktsolve.result import Proof, Status

from conftest import invoke

try:
    import pysat.solvers  # noqa: F401

    HAVE_PYSAT = True
except ImportError:
    HAVE_PYSAT = False

try:
    from ktsolve.proofs.cnf_check import drup_checkers

    HAVE_CHECKER = bool(drup_checkers())
except ImportError:  # pragma: no cover
    HAVE_CHECKER = False

needs_certify = pytest.mark.skipif(not (HAVE_PYSAT and HAVE_CHECKER),
                                   reason="needs the certify extra: pip install 'ktsolve[certify]'")

ROOT = Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------------------------------------- the audit's forgeries
TOURED = [(8, 8, True), (8, 8, False), (6, 6, True), (6, 6, False), (5, 5, False)]


def _a_tour(board, spec):
    res = solve(board, closed=spec.closed, seed=1)
    assert res.status is Status.FOUND
    return validate(board, res.tour, closed=spec.closed)


@pytest.mark.parametrize("rows,cols,closed", TOURED)
def test_the_audits_forged_short_cycle_is_refused(rows, cols, closed):
    board, spec = Board(rows, cols), TourSpec(closed=closed)
    _a_tour(board, spec)  # the tour in hand: any proof that none exists is forged
    forged = Proof("forged", argument="matching",
                   evidence={"steps": [], "conclusion": {"reason": "short cycle", "move": ["a1", "b3"]}})
    verdict = check_proof(board, spec, forged)
    assert verdict.invalid and "not a forced move" in verdict.reason
    with pytest.raises(ValueError):
        check_matching_proof(board, spec, forged)


@pytest.mark.parametrize("rows,cols,closed", TOURED)
def test_the_audits_forged_negative_hall_level_is_refused(rows, cols, closed):
    board, spec = Board(rows, cols), TourSpec(closed=closed)
    _a_tour(board, spec)
    # a square of side 0 (parity 0) on the bottom rank: level -1 'excludes' all its moves but one (and its
    # move to the extra square that closes an open tour), then 'degree' there
    r = rows - 1
    c = 0 if r % 2 == 0 else 1
    sq = board.name(r, c)
    moves = [board.name(r + dr, c + dc) for dr, dc in ((-2, -1), (-2, 1), (-1, 2), (1, 2), (-1, -2))
             if 0 <= r + dr < rows and 0 <= c + dc < cols]
    deleted = [[sq, m] for m in moves[1:]]
    if not closed:
        even, odd = board.colour_counts()
        deleted.append([sq, "*1" if even == odd else "*"])
    forged = Proof("forged", argument="matching", evidence={
        "steps": [{"step": "hall", "levels": {"-1": [sq]}, "deleted": deleted}],
        "conclusion": {"reason": "degree", "square": sq}})
    verdict = check_proof(board, spec, forged)
    assert verdict.invalid and "level" in verdict.reason
    # the same forgery with the level the finder writes (1 and up) fails on tightness instead
    forged.evidence["steps"][0]["levels"] = {"1": [sq]}
    assert check_proof(board, spec, forged).invalid


def test_a_genuine_matching_proof_still_checks():
    from ktsolve.proofs import matching_proof

    for board, spec in ((Board(4, 6), TourSpec(closed=True)), (Board(4, 9), TourSpec(closed=True))):
        p = matching_proof(KnightGraph(board), spec)
        assert check_proof(board, spec, p).valid


# ---------------------------------------------------------------------------------------------- the one table
def test_every_argument_a_finder_writes_has_a_checker():
    written = set()
    for path in (ROOT / "ktsolve").rglob("*.py"):
        if "testing" in path.parts:
            continue
        written |= set(re.findall(r'argument="([^"]+)"', path.read_text()))
    written.discard("")
    assert written, "no argument found: the pattern no longer matches the finders"
    assert written <= set(CHECKERS), sorted(written - set(CHECKERS))


def test_a_verdict_has_three_outcomes_and_no_truth_value():
    board, spec = Board(3, 4), TourSpec(closed=True)
    valid = check_proof(board, spec, prove(board, closed=True).proof)
    assert valid.valid and valid.outcome == "valid"
    assert check_proof(board, spec, Proof("x", argument="size", evidence={"squares": 12})).invalid
    unknown = check_proof(board, spec, Proof("x", argument="an argument nobody knows"))
    assert unknown.outcome == "not checkable" and not unknown.valid and not unknown.invalid
    with pytest.raises(TypeError):
        bool(valid)


def test_the_cut_square_proof_checks_its_parts():
    # the quick proofs' cut square names one square of each part: the checker walks them apart
    from ktsolve.proofs import cut_proof

    board = Board(7, 7, [(2, 3), (3, 2), (1, 4), (4, 1)])
    spec = TourSpec(closed=True)
    p = cut_proof(KnightGraph(board), spec)
    assert p.argument == "cut square" and "part" not in p.evidence
    assert check_proof(board, spec, p).valid
    # the audit's forgery: a cut square without its parts, on 8x8 closed (which has a tour)
    forged = Proof("x", argument="cut square", evidence={"square": "d4"})
    assert check_proof(Board(8, 8), spec, forged).invalid
    # two squares of one part named as two parts
    v = p.evidence["square"]
    same = Proof("x", argument="cut square", evidence={"square": v, "squares": [p.evidence["squares"][0]] * 2})
    assert check_proof(board, spec, same).invalid


@pytest.mark.parametrize("seed", range(3))
def test_connectivity_and_cut_square_checkers_agree_with_networkx(seed):
    nx = pytest.importorskip("networkx")
    rng = random.Random(seed)
    checked = 0
    for _ in range(60):
        m, n = rng.randint(3, 7), rng.randint(3, 7)
        cells = [(r, c) for r in range(m) for c in range(n)]
        board = Board(m, n, rng.sample(cells, rng.randint(0, m * n // 3)))
        if board.n_squares < 4:
            continue
        g = KnightGraph(board).to_networkx()
        squares = list(range(board.n_squares))
        name = {v: board.name(*map(int, board.coords_of([v])[0])) for v in squares}
        a, b = rng.sample(squares, 2)
        ev = {"squares": [name[a], name[b]]}
        expect = not nx.has_path(g, a, b)
        assert check_proof(board, TourSpec(), Proof("x", argument="connectivity", evidence=ev)).valid == expect
        v = rng.choice(squares)
        h = g.copy()
        h.remove_node(v)
        comps = list(nx.connected_components(h))
        picks = [name[min(c)] for c in comps] + [name[x] for x in rng.sample([x for x in squares if x != v], 1)]
        for spec in (TourSpec(closed=True), TourSpec()):
            need = 2 if spec.closed else 3
            ev = {"square": name[v], "squares": picks[:need]}
            verdict = check_proof(board, spec, Proof("x", argument="cut square", evidence=ev))
            assert verdict.valid == (len(comps) >= need and len(set(picks[:need])) == need), (board, v, spec)
            checked += 1
    assert checked > 50


def test_the_theorem_checkers_agree_with_exhaustive_search():
    from ktsolve.models.backtrack import solve_backtrack

    for m in range(1, 5):
        for n in range(m, 9):
            board = Board(m, n)
            for spec in (TourSpec(closed=True), TourSpec()):
                said = check_proof(board, spec, Proof("x", argument="theorem", evidence={}))
                if said.valid:
                    res = solve_backtrack(KnightGraph(board), spec, certify=False)
                    assert res.status is Status.INFEASIBLE, (m, n, spec)
    # every open tour of a 4 x n board ends on an outer row: an inner start has none
    for n in (5, 6, 7):
        board = Board(4, n)
        for r in (1, 2):
            spec = TourSpec(start=(r, 0))
            said = check_proof(board, spec, Proof("x", argument="outer and inner rows",
                                                  evidence={"start": board.name(r, 0)}))
            assert said.valid
            assert solve_backtrack(KnightGraph(board), spec, certify=False).status is Status.INFEASIBLE


# ---------------------------------------------------------------------------------------------- the forging fuzzer
def _fuzzer():
    import fuzz_certificates

    return fuzz_certificates


#: Arguments whose evidence names no square (numbers only): their forgeries are other numbers and boards.
NO_SQUARES = {"theorem"}


def test_the_forging_fuzzer_finds_no_forgery_accepted():
    fz = _fuzzer()
    rep = fz.fuzz("fast", seed=0)
    assert not rep.accepted, rep.accepted[:3]
    # without drup or dratify a search's genuine certificate is "not checkable", which is no refusal
    refused = [r for r in rep.genuine_refused if HAVE_CHECKER or not r[3].startswith("not checkable")]
    assert not refused, refused[:3]
    for argument in CHECKERS:
        if argument in ("exhaustive search", "cpsat") and not (HAVE_PYSAT and HAVE_CHECKER):
            continue
        assert rep.real[argument] >= 1, f"no real {argument} proof was forged"
        assert rep.forged[argument] > 0, f"no forgery of a {argument} proof was checked on a question with a tour"
        if argument not in NO_SQUARES:
            assert rep.one_square[argument] > 0, f"no one-square change of a {argument} proof was checked"


def test_the_forging_fuzzer_sees_a_planted_fault(monkeypatch):
    # a checker that accepts every toughness witness: the fuzzer must catch it
    import ktsolve.proofs.cut_check as cut_check

    fz = _fuzzer()
    cases = [c for c in fz.seed_cases() if c.proof.argument == "toughness"]
    monkeypatch.setattr(cut_check, "check_toughness", lambda board, spec, evidence: None)
    rep = fz.fuzz("fast", cases=cases)
    assert rep.accepted


@pytest.mark.fuzz
def test_the_forging_fuzzer_long_profile():
    rep = _fuzzer().fuzz("long", seed=1)
    assert not rep.accepted, rep.accepted[:3]
    assert not rep.genuine_refused, rep.genuine_refused[:3]


# ---------------------------------------------------------------------------------------------- search certificates
def _random_questions(seed, count, max_side=5):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        m, n = rng.randint(1, max_side), rng.randint(1, max_side)
        cells = [(r, c) for r in range(m) for c in range(n)]
        board = Board(m, n, rng.sample(cells, rng.randint(0, m * n // 3)))
        sq = [tuple(int(x) for x in board.coords_of([k])[0]) for k in range(board.n_squares)]
        if not sq:
            continue
        for spec in (TourSpec(closed=True), TourSpec(), TourSpec(start=rng.choice(sq)),
                     TourSpec(start=rng.choice(sq), end=rng.choice(sq)),
                     TourSpec(closed=True, start=rng.choice(sq), end=rng.choice(sq))):
            out.append((board, spec))
    return out


@pytest.mark.skipif(not HAVE_PYSAT, reason="needs python-sat")
def test_the_makers_and_the_checkers_cnf_are_the_same():
    import numpy as np

    from ktsolve.models.certify import encode
    from ktsolve.proofs.cnf_check import cnf_clauses

    rng = random.Random(5)
    for board, spec in _random_questions(4, 120, max_side=7):
        cnf = encode(board, spec)
        cuts = [rng.sample(range(board.n_squares), rng.randint(1, board.n_squares)) for _ in range(2)]
        cuts = [c for c in cuts if not (spec.closed and len(c) == board.n_squares)]
        names = board.names(board.coords_of(np.arange(board.n_squares)))
        variables, clauses = cnf_clauses(board, spec, [[names[x] for x in c] for c in cuts])
        made = [cnf.clauses[i] for i in range(len(cnf.clauses))] + [cnf.cut_clause(c) for c in cuts]
        assert variables == cnf.variables
        assert sorted(map(sorted, made)) == sorted(map(sorted, clauses)), (board, spec)


def _cnf_answer(board, spec):
    """Whether the checker's CNF, refined by subtour cuts until one cycle or unsatisfiable, has a tour."""
    from pysat.solvers import Solver

    from ktsolve.proofs.cnf_check import _Encoding, cnf_clauses

    if not spec.closed and board.n_squares == 1:
        return True
    enc = _Encoding(board, spec)
    names = board.names(board.coords_of(list(range(board.n_squares))))
    cuts: list = []
    while True:
        _, clauses = cnf_clauses(board, spec, cuts)
        with Solver(name="g4", bootstrap_with=clauses) as s:
            if not s.solve():
                return False
            true = {x for x in s.get_model() if x > 0}
        adj = {v: [] for v in range(enc.n)}
        for k, (u, v) in enumerate(enc.edges):
            if k + 1 in true:
                adj[u].append(v)
                adj[v].append(u)
        ends = {v for v in range(enc.n) if not enc.closed and enc.m + 1 + v in true}
        seen, comps = set(), []
        for s0 in range(enc.n):
            if s0 in seen:
                continue
            comp, stack = {s0}, [s0]
            seen.add(s0)
            while stack:
                for w in adj[stack.pop()]:
                    if w not in seen:
                        seen.add(w)
                        comp.add(w)
                        stack.append(w)
            comps.append(comp)
        if len(comps) == 1:
            return True
        cuts += [[names[v] for v in sorted(c)] for c in comps if not c & ends]


@pytest.mark.skipif(not HAVE_PYSAT, reason="needs python-sat")
def test_the_checkers_cnf_answers_as_exhaustive_search_does():
    from ktsolve.models.backtrack import solve_backtrack

    tally = {True: 0, False: 0}
    for board, spec in _random_questions(7, 150, max_side=5):
        if spec.closed and board.n_squares < 3:
            continue
        if not spec.closed and spec.start is not None and spec.start == spec.end and board.n_squares > 1:
            continue  # the size argument's question: no encoding is asked to answer it
        truth = solve_backtrack(KnightGraph(board), spec, certify=False).status is Status.FOUND
        assert _cnf_answer(board, spec) == truth, (board, spec)
        tally[truth] += 1
    assert tally[True] > 10 and tally[False] > 10, tally


@needs_certify
def test_a_search_no_is_certified_and_the_certificate_refuses_tampering():
    from ktsolve.models.backtrack import solve_backtrack
    from ktsolve.models.cpsat import solve_cpsat

    board, spec = Board(4, 4, [(1, 2), (3, 3)]), TourSpec()
    for res in (solve_backtrack(KnightGraph(board), spec), solve_cpsat(KnightGraph(board), spec, seed=1),
                solve_cpsat(KnightGraph(board), spec, seed=1, model="cuts"),
                solve_cpsat(KnightGraph(board), spec, seed=1, model="sat")):
        if res.proof.argument not in ("exhaustive search", "cpsat"):
            continue  # model=sat's matching proof may settle it first
        ev = res.proof.evidence
        assert ev["certified"] is True and "certified:" in res.proof
        assert check_proof(board, spec, res.proof).valid
        cert = ev["certificate"]

        def forged(**change):
            return Proof("x", argument=res.proof.argument, evidence={**ev, "certificate": {**cert, **change}})

        hole = board.name(1, 2)
        assert check_proof(board, spec, forged(cuts=[*cert["cuts"], [hole]])).invalid
        everything = board.names(board.coords_of(list(range(board.n_squares))))
        assert check_proof(board, TourSpec(closed=True), forged(cuts=[everything])).invalid
        # no lemmas, or no cuts: the CNF is not refuted by unit propagation alone, nor without its cuts
        empty = base64.b64encode(zlib.compress(b"")).decode()
        assert check_proof(board, spec, forged(proof=empty)).invalid
        assert check_proof(board, spec, forged(cuts=[])).invalid
        assert check_proof(board, spec, forged(encoding="ktsolve-cnf/2")).invalid
        bomb = base64.b64encode(zlib.compress(b"1 0\n" * (80 << 20))).decode()  # 320 MiB of lines
        assert "inflates to more than" in check_proof(board, spec, forged(proof=bomb)).reason


@needs_certify
def test_an_uncertified_no_says_so_and_is_not_checkable():
    from ktsolve.driver import Deadline
    from ktsolve.models.backtrack import solve_backtrack
    from ktsolve.models.certify import certify_answer

    board, spec = Board(3, 6), TourSpec()
    res = solve_backtrack(KnightGraph(board), spec, certify=False)
    assert "(not certified: certify=False)" in res.proof and res.proof.evidence["certified"] is False
    verdict = check_proof(board, spec, res.proof)
    assert verdict.outcome == "not checkable" and "not certified" in verdict.reason
    bare = res.replace(proof=Proof("search", argument="exhaustive search", evidence={"nodes": 1}))
    out = certify_answer(bare, board, spec, Deadline(1e-9))
    assert out.status is Status.INFEASIBLE and "not certified" in out.proof
    assert check_proof(board, spec, out.proof).outcome == "not checkable"


# ---------------------------------------------------------------------------------------------- verify
@pytest.fixture(scope="module")
def certificates(tmp_path_factory):
    folder = tmp_path_factory.mktemp("certificates")
    made = {}
    for name, args in (("colour", ["5x5", "--closed"]), ("matching", ["4x6", "--closed"]),
                       ("search", ["4x4", "--holes", "c3,d1"])):
        path = folder / f"{name}.json"
        invoke(["prove", *args, "-o", path], code=1)
        made[name] = path
    gz = folder / "colour.json.gz"
    invoke(["prove", "5x5", "--closed", "-o", gz], code=1)
    made["gz"] = gz
    return made


def test_verify_accepts_a_valid_certificate_in_one_line(certificates):
    out = invoke(["verify", "5x5", certificates["colour"]], code=0).stdout
    assert out == "valid: no closed tour exists (colour parity)\n"
    out = invoke(["verify", "4x6", certificates["matching"], "--closed"], code=0).stdout
    assert out.startswith("valid: no closed tour exists (matching") and out.count("\n") == 1
    assert invoke(["verify", "5x5", certificates["gz"], "--closed"], code=0).stdout.startswith("valid:")


@needs_certify
def test_verify_checks_a_search_certificate_with_drup(certificates):
    data = json.loads(certificates["search"].read_text())
    assert data["argument"] in ("cpsat", "exhaustive search") and data["certified"] is True
    for checker in ("auto", "dratify"):
        out = invoke(["verify", "4x4", "--holes", "c3,d1", certificates["search"], "--checker", checker]).stdout
        assert out.startswith("valid: no open tour exists") and "DRUP proof checked by" in out


def test_verify_refuses_a_tampered_certificate(certificates, tmp_path):
    data = json.loads(certificates["matching"].read_text())
    step = next(s for s in data["evidence"]["steps"] if s["step"] == "hall")
    level = step["levels"]["1"]
    level[0] = "b4" if level[0] != "b4" else "a4"  # a square of the other side in the tight set
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(data))
    out = invoke(["verify", "4x6", bad, "--closed"], code=1).stdout
    assert out.startswith("invalid: ") and out.count("\n") == 1
    data = json.loads(certificates["colour"].read_text())
    data["evidence"]["dark"] += 1
    bad.write_text(json.dumps(data))
    assert invoke(["verify", "5x5", bad], code=1).stdout.startswith("invalid: the evidence says")


def test_verify_refuses_another_boards_and_another_questions_certificate(certificates):
    out = invoke(["verify", "5x5", "--holes", "a1", certificates["colour"]], code=1).stdout
    assert out.startswith("invalid: the certificate is about another board") and out.count("\n") == 1
    out = invoke(["verify", "5x5", certificates["colour"], "--start", "a1"], code=1).stdout
    assert "the question asks for an open tour from a1" in out


def test_verify_refuses_a_truncated_certificate_as_bad_input(certificates, tmp_path):
    text = certificates["matching"].read_text()
    cut = tmp_path / "cut.json"
    cut.write_text(text[: len(text) // 2])
    res = invoke(["verify", "4x6", cut], code=2)
    assert res.stderr.startswith("ktsolve: error: certificate file") and res.stderr.count("\n") == 1
    assert "not valid JSON" in res.stderr and res.stdout == ""


def test_verify_refuses_a_certificate_of_another_version_as_bad_input(certificates, tmp_path):
    data = json.loads(certificates["colour"].read_text())
    data["version"] = 99
    other = tmp_path / "v99.json"
    other.write_text(json.dumps(data))
    res = invoke(["verify", "5x5", other], code=2)
    assert "version 99" in res.stderr and res.stderr.count("\n") == 1


def test_verify_refuses_a_gzip_bomb_certificate_in_one_line(tmp_path):
    import gzip

    bomb = tmp_path / "bomb.json.gz"
    with gzip.open(bomb, "wb", compresslevel=9) as fh:
        fh.write(b'{"format": "ktsolve-certificate", "version": 1, "pad": "')
        block = b" " * (1 << 20)
        for _ in range(100):  # 100 MiB inflated, past the 64 MiB budget of a 5x5 board
            fh.write(block)
        fh.write(b'"}')
    res = invoke(["verify", "5x5", bomb], code=2)
    assert "is larger than" in res.stderr and "once inflated" in res.stderr and res.stderr.count("\n") == 1


def test_verify_certificate_in_python(certificates):
    board = Board(5, 5)
    assert verify_certificate(board, None, certificates["colour"]).valid
    assert verify_certificate("5x5", TourSpec(closed=True), str(certificates["gz"])).valid
    res = prove(board, closed=True)
    assert verify_certificate(board, TourSpec(closed=True), res).valid
    assert verify_certificate(board, TourSpec(), res).invalid
    assert verify_certificate(Board(5, 6), TourSpec(closed=True), res).invalid


@needs_certify
@pytest.mark.parametrize("method", ["cpsat", "backtrack"])
def test_an_open_tour_asked_to_start_and_end_on_one_square_is_certified(method):
    """Both encoders say no path of two or more squares starts and ends on one square (found by test_cross_check)."""
    board, spec = Board(3, 4), TourSpec(closed=False, start=(0, 0), end=(0, 0))
    res = solve(board, method, start=spec.start, end=spec.end, seed=1, presolve_proofs=False, time_limit=30)
    assert res.status is Status.INFEASIBLE, res.stats.get("reason")
    assert check_proof(board, spec, res.proof).outcome == "valid"
