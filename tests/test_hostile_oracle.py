"""The oracle's disk cache in a hostile world (issue 20, item 11): damaged, foreign, locked or forged files."""

from __future__ import annotations

import sqlite3
import threading
import time
import warnings

import pytest

from ktsolve import Board, TourSpec
from ktsolve.result import Status
from ktsolve.testing import assert_agrees, clear_cache, exact_answer, use_disk_cache
from ktsolve.testing import oracle

V1 = "key, version, status, squares, proof, argument, evidence, settled_by, seconds"


@pytest.fixture(autouse=True)
def _fresh():
    clear_cache()
    use_disk_cache(None)
    yield
    use_disk_cache(None)
    clear_cache()


def _answer_with_warning(path, board=Board(4, 4), **kw):
    use_disk_cache(path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ans = exact_answer(board, **kw)
    return ans, [str(w.message) for w in caught if issubclass(w.category, Warning)]


def test_a_file_that_is_not_sqlite_is_ignored_with_a_warning(tmp_path):
    path = tmp_path / "cache.sqlite"
    path.write_bytes(b"this is not a database, it is a shopping list\n" * 100)
    before = path.read_bytes()
    ans, said = _answer_with_warning(path)
    assert ans.status is Status.INFEASIBLE and not ans.cached
    assert any("ignored and answers are recomputed" in m for m in said)
    assert path.read_bytes() == before  # never altered


def test_a_folder_is_ignored_with_a_warning(tmp_path):
    ans, said = _answer_with_warning(tmp_path)
    assert ans.status is Status.INFEASIBLE and said


def test_someone_elses_database_is_not_written(tmp_path):
    path = tmp_path / "theirs.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE answers (question TEXT, reply TEXT)")
        conn.execute("CREATE TABLE people (name TEXT)")
    ans, said = _answer_with_warning(path)
    assert ans.status is Status.INFEASIBLE and any("not ktsolve's" in m for m in said)
    with sqlite3.connect(path) as conn:
        tables = sorted(r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))
        assert tables == ["answers", "people"] and conn.execute("SELECT COUNT(*) FROM answers").fetchone()[0] == 0


def test_a_locked_cache_is_skipped_quickly(tmp_path):
    path = tmp_path / "locked.sqlite"
    use_disk_cache(path)
    exact_answer(Board(3, 3))  # the file exists, with its table
    use_disk_cache(path)
    clear_cache()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        t0 = time.perf_counter()
        ans, _ = _answer_with_warning(path)
        assert ans.status is Status.INFEASIBLE and time.perf_counter() - t0 < 5
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def _forge(path, board, spec, status="infeasible", proof="forged", argument="cpsat", evidence="{}", digest=None,
           squares=None):
    """A row written by hand into a cache of ktsolve's first format (no digest column), or with ``digest``."""
    key = oracle._disk_key(board, spec)
    with sqlite3.connect(path) as conn:
        conn.execute(f"CREATE TABLE IF NOT EXISTS answers ({V1}, PRIMARY KEY (key))")
        conn.execute("INSERT OR REPLACE INTO answers VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     (key, oracle._version(), status, squares, proof, argument, evidence, "cpsat", 0.1))
        if digest is not None:
            cols = [r[1] for r in conn.execute("PRAGMA table_info(answers)")]
            if "digest" not in cols:
                conn.execute("ALTER TABLE answers ADD COLUMN digest")
            conn.execute("UPDATE answers SET digest = ? WHERE key = ?", (digest, key))


def test_a_forged_row_does_not_make_assert_agrees_pass(tmp_path):
    path = tmp_path / "forged.sqlite"
    board = Board(5, 5)  # has open tours
    _forge(path, board, TourSpec())
    use_disk_cache(path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(AssertionError, match="but ktsolve.prove found one"):
            assert_agrees(board, None)


def test_a_forged_quick_proof_is_proved_again(tmp_path):
    # even a row whose digest is right is re-checked when a checker exists
    path = tmp_path / "forged.sqlite"
    board, spec = Board(5, 5), TourSpec()
    key = oracle._disk_key(board, spec)
    row = (key, oracle._version(), "infeasible", None, "31 light squares", "colour parity", "{}", "cpsat")
    _forge(path, board, spec, proof=row[4], argument=row[5], digest=oracle._digest(*row))
    ans, said = _answer_with_warning(path, board)
    assert ans.status is Status.FOUND and not ans.cached and said


@pytest.mark.parametrize("evidence, squares", [("not json at all", None), ("[1, 2]", None), ("{}", b"\x01\x02\x03")])
def test_bad_evidence_or_blobs_are_recomputed(tmp_path, evidence, squares):
    path = tmp_path / "bad.sqlite"
    board, spec = Board(4, 4), TourSpec()
    key = oracle._disk_key(board, spec)
    status = "found" if squares is not None else "infeasible"
    row = (key, oracle._version(), status, squares, "p", "cpsat", evidence, "cpsat")
    _forge(path, board, spec, status=status, evidence=evidence, squares=squares, digest=oracle._digest(*row))
    ans, said = _answer_with_warning(path, board)
    assert ans.status is Status.INFEASIBLE and not ans.cached and said


def test_workers_sharing_a_cache_agree(tmp_path):
    path = tmp_path / "shared.sqlite"
    use_disk_cache(path)
    boards = [Board(4, 4), Board(3, 4), Board(5, 5)]
    out = []
    threads = [threading.Thread(target=lambda b=b: out.append(exact_answer(b).status)) for b in boards * 3]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(out) == 9


def test_a_row_larger_than_any_answer_is_not_read(tmp_path):
    # a row with a right digest and valid JSON, but 40 MB of evidence: no answer needs that much
    path = tmp_path / "huge.sqlite"
    board, spec = Board(5, 5), TourSpec()
    key = oracle._disk_key(board, spec)
    evidence = '{"pad": "' + "x" * (40 << 20) + '"}'
    row = (key, oracle._version(), "infeasible", None, "p", "cpsat", evidence, "cpsat")
    _forge(path, board, spec, evidence=evidence, digest=oracle._digest(*row))
    ans, said = _answer_with_warning(path, board)
    assert ans.status is Status.FOUND and not ans.cached and any("more than any answer needs" in m for m in said)
