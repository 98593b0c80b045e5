"""Published tour counts (OEIS, Knuth), recounted by the frontier method: the terms that take seconds.

The terms and where they were read are in ``tests/data/published_counts.json``; the exact counts of
full and holed boards in ``oracles/counts.json`` (a copy of /work/shared/oracles).  Longer runs (all 40
terms of A175881, 6 x 8 and 5 x 10 closed by search's standards) are behind the slow marker or in
``benchmarks/bench_count.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import load_oracle

from ktsolve import Board
from ktsolve.models.count import count_tours, strip_counts

PUBLISHED = json.loads((Path(__file__).resolve().parents[1] / "data" / "published_counts.json").read_text(encoding="utf-8"))
ORACLE = load_oracle("counts.json")

#: Oracle entries beyond seconds for the frontier method (7x7 and 8x8 open, 8x8 closed: the moonshot).
NEVER = {((7, 7), "open"), ((8, 8), "open"), ((8, 8), "closed")}
SLOW = {((6, 6), "open")}


def _entries():
    out = []
    for group in ("full", "holed"):
        for e in ORACLE[group]:
            key = (tuple(e["board"]), e["kind"])
            if key in NEVER:
                continue
            ident = f"{e['board'][0]}x{e['board'][1]}-{e['kind']}" + (f"-holes{e['holes']}" if e.get("holes") else "")
            out.append(pytest.param(e, marks=[pytest.mark.slow] if key in SLOW else [], id=ident))
    return out


@pytest.mark.parametrize("entry", _entries())
def test_the_oracle_counts_by_the_frontier_method(entry):
    board = Board(*entry["board"], holes=[tuple(h) for h in entry.get("holes", [])])
    res = count_tours(board, closed=entry["kind"] == "closed", directed=entry["counted"] == "directed",
                      method="frontier")
    assert res.complete and res.value == entry["value"], entry["source"]


@pytest.mark.parametrize("entry", ORACLE["per_start"], ids=lambda e: f"{e['board']}-{e['start']}")
def test_the_oracle_counts_per_start(entry):
    assert count_tours(Board(*entry["board"]), start=tuple(entry["start"]), method="frontier").value == entry["value"]


def _strip_terms(name, limit=None):
    e = PUBLISHED[name]
    terms = e["terms"][:limit]
    n = [e["step"] * (e["offset"] + i) for i in range(len(terms))]
    got = strip_counts(e["rows"], n[-1], closed=e["closed"], directed=e["directed"], by=e["by"])
    assert got.complete
    return [got.terms[i - 1] for i in n], terms


@pytest.mark.parametrize("name, limit", [("A175881", 10), ("A079137", None), ("A383660", None), ("A383661", None),
                                         ("A383663", None), ("A389755", None), ("A389759", None)])
def test_strip_sequences_equal_their_published_terms(name, limit):
    mine, published = _strip_terms(name, limit)
    assert mine == published, PUBLISHED[name]["source"]


@pytest.mark.slow
def test_all_forty_terms_of_a175881():
    mine, published = _strip_terms("A175881")
    assert mine == published


def test_a175881_with_the_second_set_of_primes():
    e = PUBLISHED["A175881"]
    got = strip_counts(6, 14, closed=True, arithmetic="residues", prime_set=1)
    assert got.terms == e["terms"][:14] and "set 1" in got.arithmetic


@pytest.mark.parametrize("name", ["A165134", "A001230"])
def test_square_boards_within_seconds(name):
    e = PUBLISHED[name]
    for i, want in enumerate(e["terms"]):
        n = (i + e["offset"]) * (2 if e.get("even") else 1)
        if n * n > 36:
            continue  # 7x7 and 8x8: the moonshot, benchmarks/bench_count.py
        res = count_tours(f"{n}x{n}", closed=e["closed"], directed=e["directed"], method="frontier")
        assert res.value == want, (name, n)
