"""The fuzzer's hostile files (issue 20): every reader against bombs, devices, pipes, deep JSON, huge numbers
and damaged or forged oracle caches, each batch in a child process under a memory cap.

``fuzz_cli.py`` runs command lines in its own process, on files that are
odd but small; the files here are built to exhaust memory or time (a gzip
bomb inflating to 400 MB, ``/dev/zero``, a ``.npy`` header claiming 10^11
squares), so they are read in a child whose address space is capped with
``resource.setrlimit(RLIMIT_AS)`` (:data:`hostile_inputs.MEMORY_CAP`) and
whose time is bounded.  (``fuzz_cli.py`` is past the 700 lines of the style
guide already, so they live in this module; ``test_fuzz_cli.py`` runs them
in its fast and long profiles.)

Cases are drawn by hypothesis (:func:`hostile_cases`) and run in batches
(:func:`fuzz_hostile`): the child builds each file, runs the reader or the
command, and reports what happened; the parent checks the contract:

* command line: exit 2 with one line on stderr (or 1, ``invalid: ...``, for
  a tour that reads but breaks a rule; 0 for a valid tour through a pipe),
  never a traceback, never a message longer than :data:`MAX_MESSAGE`;
* API readers: a :class:`~ktsolve.errors.KtsolveError` (``TourFileError``,
  ``InvalidTourError``, ``InvalidBoardError``) with a short message, or a
  result; never another exception;
* the oracle with a damaged, foreign, locked or forged disk cache: the same
  answer as without a cache, at most :class:`CacheWarning` warnings, and no
  exception; ``assert_agrees(board, None)`` still fails on a board with a tour;
* every case within :data:`CASE_SECONDS` and the whole batch under the cap (the readers'
  :data:`hostile_inputs.MEMORY_CAP`; the oracle's cases, which load OR-Tools and the SAT solvers,
  :data:`hostile_inputs.ORACLE_CAP`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass

from hypothesis import strategies as st

from hostile_inputs import MEMORY_CAP, ORACLE_CAP

#: Longest message a hostile file may get (it must never echo the file).
MAX_MESSAGE = 500

#: Seconds one case may take (a reader that reads /dev/zero to its end never returns).
CASE_SECONDS = 30

TOUR_KINDS = ["bomb", "newline bomb", "zero device", "random device", "npy 10^11", "deep json",
              "deep json within budget", "60 digits", "5000 digits", "5000-digit pair", "5000-digit name",
              "60-digit matrix", "long line", "json bomb", "pipe"]
BOARD_KINDS = ["board bomb", "board zero", "board random", "board long line", "board digits", "board rosetta",
               "size 5000 digits", "size fullwidth"]
CACHE_KINDS = ["not sqlite", "folder", "foreign table", "forged row", "forged quick proof", "bad evidence",
               "bad blob", "locked"]
SIZES = ["3x4", "4x4", "5x5", "8x8"]


@dataclass(frozen=True)
class HostileCase:
    side: str  # "cli" or "api"
    kind: str
    size: str
    reader: str  # the API function, or the CLI command

    def describe(self) -> str:
        return f"[{self.side}] {self.reader} {self.size} <- {self.kind}"


@st.composite
def hostile_cases(draw) -> HostileCase:
    side = draw(st.sampled_from(["cli", "api"]))
    kind = draw(st.sampled_from(TOUR_KINDS + BOARD_KINDS + (CACHE_KINDS if side == "api" else [])))
    size = draw(st.sampled_from(SIZES))
    if kind in CACHE_KINDS:
        reader = draw(st.sampled_from(["exact_answer", "assert_agrees"]))
    elif kind in BOARD_KINDS:
        reader = "solve" if side == "cli" else "Board.read"
    else:
        reader = "verify" if side == "cli" else draw(st.sampled_from(["read_tours", "check_tours", "iter_tours"]))
    return HostileCase(side, kind, size, reader)


# ---------------------------------------------------------------------- the child
_CHILD = r'''
import json, os, resource, signal, sys, threading, time, warnings
resource.setrlimit(resource.RLIMIT_AS, ({cap}, {cap}))
sys.path.insert(0, {tests!r})
import hostile_inputs as H
import numpy as np
import ktsolve
from ktsolve import Board
from ktsolve.errors import KtsolveError

folder = {folder!r}
cases = json.loads({cases!r})
made = H.hostile_tour_files(folder)
boards = {{
    "board bomb": H.gzip_bomb(os.path.join(folder, "board.gz"), inflated=300 << 20, byte=b"."),
    "board zero": "/dev/zero",
    "board random": "/dev/urandom",
    "board long line": H.long_line(os.path.join(folder, "board-line.txt")),
    "board digits": H._write(os.path.join(folder, "board-digits.txt"), "0 0 0\n0   0 0\n1 0 0\n"),
    "board rosetta": H._write(os.path.join(folder, "board-rosetta.txt"), ".xx\nxsx\nxx.\n"),
}}
SPECIAL_SIZES = {{"size 5000 digits": "9" * 5000 + "x8", "size fullwidth": "\uff18x\uff18"}}


class Timeout(BaseException):
    pass


def _alarm(signum, frame):
    raise Timeout()


signal.signal(signal.SIGALRM, _alarm)


def a_pipe(size):
    """/dev/fd/N of a pipe a thread fills with a valid tour of the board (read once, or it is empty)."""
    board = Board.from_spec(size)
    tour = ktsolve.solve(board, "warnsdorff", seed=1).tour
    r, w = os.pipe()
    data = json.dumps({{"tour": tour.names() if tour is not None else ["a1"]}}).encode()
    threading.Thread(target=lambda: (os.write(w, data), os.close(w)), daemon=True).start()
    return f"/dev/fd/{{r}}", r


def tour_path(kind, size):
    if kind == "pipe":
        return a_pipe(size)
    return made[kind], None


def cache_case(kind, size, reader):
    import sqlite3
    from ktsolve import TourSpec
    from ktsolve.testing import assert_agrees, clear_cache, exact_answer, oracle, use_disk_cache

    board = Board.from_spec(size)
    use_disk_cache(None)
    clear_cache()
    truth = exact_answer(board).status.value
    clear_cache()
    path = os.path.join(folder, f"cache-{{kind.replace(' ', '-')}}-{{size}}.sqlite")
    key = oracle._disk_key(board, TourSpec())
    v1 = "key, version, status, squares, proof, argument, evidence, settled_by, seconds"
    holder = None
    if kind == "not sqlite":
        with open(path, "wb") as fh:
            fh.write(b"not a database " * 200)
    elif kind == "folder":
        path = folder
    elif kind == "foreign table":
        with sqlite3.connect(path) as conn:
            conn.execute("CREATE TABLE IF NOT EXISTS answers (question, reply)")
    else:
        # a row that says the opposite of the truth, in ktsolve's own table
        lie = "infeasible" if truth == "found" else "found"
        squares = np.arange(board.n_squares, dtype=np.int32).tobytes() if lie == "found" else None
        argument = "colour parity" if kind == "forged quick proof" else "cpsat"
        evidence = "not json" if kind == "bad evidence" else "{{}}"
        if kind == "bad blob":
            squares, lie = b"\x01\x02", "found"
        row = (key, oracle._version(), lie, squares, "forged", argument, evidence, "cpsat")
        with sqlite3.connect(path) as conn:
            conn.execute(f"CREATE TABLE IF NOT EXISTS answers ({{v1}}, digest, PRIMARY KEY (key))")
            digest = oracle._digest(*row) if kind != "forged row" else None
            conn.execute("INSERT OR REPLACE INTO answers VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                         (*row, 0.1, digest))
        if kind == "locked":
            holder = sqlite3.connect(path, isolation_level=None)
            holder.execute("BEGIN EXCLUSIVE")
    use_disk_cache(path)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            if reader == "exact_answer":
                got = exact_answer(board).status.value
                said = "" if got == truth else f"the cache made the oracle say {{got}}, the truth is {{truth}}"
            else:
                try:
                    assert_agrees(board, None)
                    said = "" if truth != "found" else "assert_agrees(board, None) passed on a board with a tour"
                except AssertionError:
                    said = "" if truth == "found" else "assert_agrees(board, None) failed on a board without a tour"
        other = [str(w.category.__name__) for w in caught if w.category.__name__ != "CacheWarning"]
        if other:
            said = (said + "; " if said else "") + f"warnings other than CacheWarning: {{other}}"
        return {{"outcome": "ok", "problem": said}}
    finally:
        use_disk_cache(None)
        if holder is not None:
            holder.execute("ROLLBACK")
            holder.close()


def run_case(case):
    side, kind, size, reader = case["side"], case["kind"], case["size"], case["reader"]
    fd = None
    if kind in {cache_kinds!r}:
        return cache_case(kind, size, reader)
    if side == "cli":
        from fuzz_cli import run_cli

        if reader == "verify":
            path, fd = tour_path(kind, size)
            argv = ["verify", size, path]
        else:
            argv = ["solve", SPECIAL_SIZES.get(kind) or boards[kind], "--method", "warnsdorff", "--seed", "1",
                    "--time-limit", "2"]
        try:
            out = run_cli(argv)
        finally:
            if fd is not None:
                os.close(fd)
        return {{"outcome": "cli", "code": out.code, "stderr": out.stderr[-3000:], "stdout": out.stdout[:300].decode(
            "utf-8", "replace"), "escaped": repr(out.escaped)[:300] if out.escaped else None}}
    from ktsolve.files import check_tours, iter_tours, read_tours
    try:
        if reader == "Board.read":
            if kind in SPECIAL_SIZES:
                Board.from_spec(SPECIAL_SIZES[kind])
            else:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    Board.read(boards[kind])
            return {{"outcome": "ok", "problem": ""}}
        path, fd = tour_path(kind, size)
        board = Board.from_spec(size)
        if reader == "read_tours":
            read_tours(board, path)
        elif reader == "check_tours":
            check_tours(board, path)
        else:
            for _ in iter_tours(board, path):
                pass
        return {{"outcome": "ok", "problem": ""}}
    except KtsolveError as exc:
        return {{"outcome": "refused", "message": str(exc)[:3000], "length": len(str(exc))}}
    finally:
        if fd is not None:
            os.close(fd)


results = []
for case in cases:
    t0 = time.perf_counter()
    signal.alarm({seconds})
    try:
        res = run_case(case)
    except Timeout:
        res = {{"outcome": "timeout"}}
    except BaseException as exc:  # anything else escaping a reader breaks the contract
        res = {{"outcome": "escaped", "error": f"{{type(exc).__name__}}: {{str(exc)[:300]}}"}}
    finally:
        signal.alarm(0)
    res["seconds"] = round(time.perf_counter() - t0, 3)
    results.append(res)
print(json.dumps(results))
'''


def run_batch(cases: list[HostileCase], folder: str, *, cap: int = MEMORY_CAP) -> list[dict]:
    """Run ``cases`` in one capped child; one result dict per case (or one failure for the whole batch)."""
    tests = os.path.dirname(os.path.abspath(__file__))
    payload = json.dumps([c.__dict__ for c in cases])
    src = _CHILD.format(cap=cap, tests=tests, folder=folder, cases=payload, cache_kinds=CACHE_KINDS,
                        seconds=CASE_SECONDS)
    try:
        out = subprocess.run([sys.executable, "-c", src], capture_output=True, text=True,
                             timeout=CASE_SECONDS * (len(cases) + 2), cwd=folder)
    except subprocess.TimeoutExpired:
        return [{"outcome": "batch timeout"}] * len(cases)
    if out.returncode != 0 or not out.stdout.strip():
        tail = (out.stderr or "").strip().splitlines()[-3:]
        return [{"outcome": "batch died", "error": f"exit {out.returncode}: {' | '.join(tail)[:500]}"}] * len(cases)
    return json.loads(out.stdout.strip().splitlines()[-1])


def check_result(case: HostileCase, res: dict) -> list[str]:
    """The contract, for one case; the problems found (empty when kept)."""
    out = res.get("outcome")
    problems = []
    if out in ("timeout", "batch timeout"):
        return [f"took more than {CASE_SECONDS} s"]
    if out in ("escaped", "batch died"):
        return [f"the reader raised what it should have refused: {res.get('error')}"]
    if out == "ok" and res.get("problem"):
        problems.append(res["problem"])
    if out == "ok" and case.kind not in CACHE_KINDS and case.kind not in ("pipe", "board rosetta"):
        problems.append("a hostile file was read as if it were fine")
    if out == "refused" and res["length"] > MAX_MESSAGE:
        problems.append(f"a message of {res['length']:,} characters: the input echoed back")
    if out == "refused" and case.kind == "pipe":
        problems.append(f"a valid tour through a pipe was refused: {res['message'][:200]}")
    if out == "cli":
        code, err = res["code"], res["stderr"]
        if res.get("escaped"):
            problems.append(f"an exception escaped main: {res['escaped']}")
        if "Traceback" in err:
            problems.append("a traceback on stderr")
        lines = [ln for ln in err.splitlines() if ln.strip()]
        if any(len(ln) > MAX_MESSAGE for ln in lines):
            problems.append(f"a line of {max(map(len, lines)):,} characters on stderr: the input echoed back")
        allowed = {0, 1} if case.kind == "pipe" else ({0, 1, 3} if case.kind == "board rosetta" else {1, 2})
        if code not in allowed:
            problems.append(f"exit code {code}, expected one of {sorted(allowed)}")
        if code == 2 and len(lines) != 1 and case.kind != "board rosetta":
            problems.append(f"exit 2 with {len(lines)} lines on stderr")
    if res.get("seconds", 0) > CASE_SECONDS:
        problems.append(f"took {res['seconds']} s")
    return problems


def every_kind() -> list[HostileCase]:
    """One case of every kind on each side, sizes and readers taken in turn: the fast profile's fixed set."""
    out = []
    api_readers = ["read_tours", "check_tours", "iter_tours"]
    for i, kind in enumerate(TOUR_KINDS):
        out.append(HostileCase("cli", kind, SIZES[i % len(SIZES)], "verify"))
        out.append(HostileCase("api", kind, SIZES[(i + 1) % len(SIZES)], api_readers[i % 3]))
    for i, kind in enumerate(BOARD_KINDS):
        out.append(HostileCase("cli", kind, "8x8", "solve"))
        out.append(HostileCase("api", kind, "8x8", "Board.read"))
    for i, kind in enumerate(CACHE_KINDS):
        for j, reader in enumerate(("exact_answer", "assert_agrees")):
            out.append(HostileCase("api", kind, SIZES[(i + j) % len(SIZES)], reader))
    return out


def fuzz_hostile(cases: list[HostileCase], folder: str, batch: int = 12) -> list[tuple[HostileCase, str]]:
    """Run every case (``batch`` per child) and return each violation of the contract with its case."""
    found = []
    readers = [c for c in cases if c.kind not in CACHE_KINDS]
    oracles = [c for c in cases if c.kind in CACHE_KINDS]
    for group, cap in ((readers, MEMORY_CAP), (oracles, ORACLE_CAP)):
        for lo in range(0, len(group), batch):
            part = group[lo : lo + batch]
            for case, res in zip(part, run_batch(part, folder, cap=cap)):
                found += [(case, p) for p in check_result(case, res)]
    return found
