"""Census families: symmetry reduction against brute force, question lists, random boards, seeds."""

from __future__ import annotations

import itertools
import json
import math

import networkx as nx
import numpy as np
import pytest

from ktsolve import Board, InvalidBoardError, InvalidParameterError, KnightGraph
from ktsolve.census.family import (
    list_family,
    orbit_count,
    orbit_members,
    orbit_representatives,
    question_seed,
    random_family,
    remove_family,
    starts_family,
    symmetries,
)
from ktsolve.census.summary import knight_distances
from ktsolve.seeds import derive_seed


def _images(rows, cols, r, c):
    """Every symmetry of the rectangle applied to (r, c), written out by hand."""
    R, C = rows - 1, cols - 1
    out = [(r, c), (R - r, c), (r, C - c), (R - r, C - c)]
    if rows == cols:
        out += [(c, r), (C - c, R - r), (c, R - r), (C - c, r)]
    return out


def brute_orbits(board: Board, k: int):
    """Orbits of k-subsets of squares by sets: the slow, readable reference."""
    rows, cols = board.rows, board.cols
    holes = set(board.holes)
    n_maps = 8 if rows == cols else 4
    maps = []
    for j in range(n_maps):
        image = {(r, c): _images(rows, cols, r, c)[j] for r in range(rows) for c in range(cols)}
        if {image[h] for h in holes} == holes:
            maps.append(image)
    squares = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in holes]
    seen, orbits = set(), []
    for combo in itertools.combinations(squares, k):
        if frozenset(combo) in seen:
            continue
        orbit = {frozenset(m[s] for s in combo) for m in maps}
        seen |= orbit
        orbits.append(orbit)
    return orbits, len(maps)


BOARDS = [Board(4, 4), Board(3, 5), Board(5, 5), Board(4, 6), Board(5, 5, holes=[(0, 0)]),
          Board(6, 6, holes=[(0, 0), (5, 5)]), Board(4, 4, holes=[(1, 2)])]


@pytest.mark.parametrize("board", BOARDS, ids=repr)
@pytest.mark.parametrize("k", [1, 2, 3])
def test_orbits_match_brute_force(board, k):
    orbits, n_maps = brute_orbits(board, k)
    reps, sizes = orbit_representatives(board, k)
    assert len(symmetries(board)) == n_maps
    assert len(reps) == len(orbits) == orbit_count(board, k)[1]
    assert orbit_count(board, k)[0] == math.comb(board.n_squares, k) == int(sizes.sum())
    cols = board.cols
    by_rep = {}
    for rep, size in zip(reps.tolist(), sizes.tolist()):
        subset = frozenset(divmod(f, cols) for f in rep)
        by_rep[subset] = size
    # every orbit has exactly one representative, its smallest member, with the orbit's size
    for orbit in orbits:
        mine = [s for s in orbit if s in by_rep]
        assert len(mine) == 1
        smallest = min(orbit, key=lambda s: sorted(r * cols + c for r, c in s))
        assert mine[0] == smallest and by_rep[smallest] == len(orbit)
    assert reps.tolist() == sorted(reps.tolist())


def test_symmetry_counts_of_the_issue():
    assert len(symmetries(Board(8, 8))) == 8
    assert len(symmetries(Board(3, 10))) == 4
    assert len(symmetries(Board(8, 8, holes=[(7, 0)]))) == 2  # a1 stays on the long diagonal
    assert orbit_count(Board(8, 8), 2) == (2016, 278)
    assert orbit_count(Board(12, 12), 3)[0] == math.comb(144, 3)


def test_no_symmetry_asks_every_board():
    reps, sizes = orbit_representatives(Board(4, 5), 2, symmetry=False)
    assert len(reps) == math.comb(20, 2) and set(sizes.tolist()) == {1}
    fam = remove_family(Board(4, 5), 2, symmetry=False)
    assert fam.n_symmetries == 1 and fam.boards_after == fam.boards_before == 190


def test_orbit_members():
    b = Board(5, 5)
    assert orbit_members(b, [0]) == [(0,), (4,), (20,), (24,)]
    assert orbit_members(b, [12]) == [(12,)]
    assert len(orbit_members(b, [0, 1])) == 8
    assert orbit_members(b, [0, 1], symmetry=False) == [(0, 1)]


def test_remove_family_tasks():
    base = Board(6, 6, holes=[(2, 2)])
    fam = remove_family(base, 2, (False, True))
    assert len(fam) == 2 * fam.boards_after
    seen = set()
    for i in range(len(fam)):
        t = fam.task(i, census_seed=11, time_limit=5.0)
        assert t.index == i and t.closed == bool(i % 2) and t.time_limit == 5.0
        assert (2, 2) in t.holes and len(t.holes) == 3 and list(t.holes) == sorted(t.holes)
        assert t.seed == derive_seed(11, "census question", i) == question_seed(11, i)
        seen.add((t.holes, t.closed))
    assert len(seen) == len(fam)
    assert sum(fam.task(i, 0, None).orbit for i in range(0, len(fam), 2)) == math.comb(35, 2)


def test_starts_family_tasks():
    fam = starts_family(Board(5, 5), (True,))
    starts = [fam.task(i, 1, None).start for i in range(len(fam))]
    assert starts == [(0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2)]
    assert fam.boards_before == 25 and fam.identity["kind"] == "starts"


def test_remove_refuses_too_many():
    with pytest.raises(InvalidParameterError, match="at most"):
        remove_family(Board(30, 30), 4)
    with pytest.raises(InvalidParameterError, match="remove"):
        remove_family(Board(3, 3), 9)


def test_list_family(tmp_path):
    path = tmp_path / "q.jsonl"
    lines = [
        {"ktsolve_census": 1, "identity": {}},  # a results file's header is skipped
        {"board": "5x5", "holes": "a1"},
        {"board": {"rows": 3, "cols": 4, "holes": [[0, 0]]}, "closed": True},
        {"board": "6x6", "start": "a1", "end": [0, 5]},
        {"run": 1},
    ]
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n\n")
    fam = list_family(path, (False, True))
    specs = [fam.task(i, 3, None) for i in range(len(fam))]
    assert [(t.rows, t.cols, t.holes, t.closed, t.start, t.end) for t in specs] == [
        (5, 5, ((4, 0),), False, None, None),
        (5, 5, ((4, 0),), True, None, None),
        (3, 4, ((0, 0),), True, None, None),
        (6, 6, (), False, (5, 0), (0, 5)),
        (6, 6, (), True, (5, 0), (0, 5)),
    ]
    other = tmp_path / "r.jsonl"
    other.write_text(json.dumps({"board": "5x5", "holes": "a2"}) + "\n")
    assert list_family(other).identity["sha256"] != fam.identity["sha256"]
    assert list_family(path, (False, True)).identity == fam.identity


@pytest.mark.parametrize("text, match", [
    ('{"board": "5x5"}\nnot json\n', "line 2 .* not JSON"),
    ('{"board": "5x5", "holes": "z9"}\n', "line 1 .*outside"),
    ('{"board": "5x5", "start": "a1", "holes": "a1"}\n', "line 1 .*start a1 is on a hole"),
    ('{"holes": "a1"}\n', "line 1 .*no 'board'"),
    ('{"board": "5x5", "closed": "yes"}\n', "line 1 .*closed must be"),
    ('\n', "no questions"),
])
def test_list_family_errors(tmp_path, text, match):
    path = tmp_path / "bad.jsonl"
    path.write_text(text)
    with pytest.raises((InvalidBoardError, InvalidParameterError), match=match):
        list_family(path)


def test_list_family_missing_file(tmp_path):
    with pytest.raises(InvalidBoardError, match="cannot read question file"):
        list_family(tmp_path / "nope.jsonl")


def test_random_family_reproducible_and_distinct():
    a = random_family(8, 8, 12, 4, (False, True), seed=5)
    b = random_family(8, 8, 12, 4, (False, True), seed=5)
    c = random_family(8, 8, 12, 4, (False, True), seed=6)
    ta = [a.task(i, 5, None) for i in range(len(a))]
    assert ta == [b.task(i, 5, None) for i in range(len(b))]
    assert [t.holes for t in ta] != [c.task(i, 6, None).holes for i in range(len(c))]
    boards = {t.holes for t in ta}
    assert len(ta) == 24 and len(boards) == 12
    for t in ta:
        light, dark = Board(8, 8, t.holes).colour_counts()
        assert light == dark  # balanced for closed tours, since closed tours are asked


def test_knight_distances_against_networkx():
    board = Board(6, 7, holes=[(2, 3), (0, 6)])
    graph = KnightGraph(board).to_networkx()
    coords = KnightGraph(board).coords
    src = (1, 1)
    got = knight_distances(board, src)
    lengths = nx.single_source_shortest_path_length(graph, board.index(*src))
    want = np.full((6, 7), -1)
    for node, d in lengths.items():
        r, c = coords[node]
        want[r, c] = d
    assert np.array_equal(got, want)


def test_seeds_derived_at_once_are_the_seeds_of_each_question():
    from ktsolve.census.family import question_seeds

    fam = remove_family(Board(6, 6), 2, (False, True))
    seeds = question_seeds(42, len(fam))
    for i in (0, 1, 17, len(fam) - 1):
        assert fam.task(i, 42, None, seeds[i]) == fam.task(i, 42, None)
