"""The matching proof's kernels that replace whole-move numpy expressions, against those expressions."""

from __future__ import annotations

import numpy as np
import pytest

from ktsolve.generate import random_holed_board
from ktsolve.graph import KnightGraph
from ktsolve.proofs import _kernels as K
from ktsolve.proofs.network import network_csr


def _network(seed: int):
    """A holed board's moves as the matching proof's network, some moves dead, and a maximum matching."""
    board = random_holed_board(12, 14, 0.15, closed=True, seed=seed)
    graph = KnightGraph(board)
    indptr, indices, _ = network_csr(graph.indptr, graph.indices, compiled=True)
    src = np.repeat(np.arange(graph.n, dtype=np.int32), np.diff(indptr))
    # read-only as the matching proof makes them: the kernels then compile the proof's one signature
    indptr.flags.writeable = False
    indices.flags.writeable = False
    rng = np.random.default_rng(seed)
    alive = (rng.random(indices.size) < 0.9).astype(np.uint8)
    side = graph.colour.astype(np.int32)
    match = np.full(graph.n, -1, dtype=np.int32)
    K.hopcroft_karp(indptr, indices, alive, side, match)
    return indptr, indices, src, alive, side, match


def _lost_pairs_by_numpy(indices, src, alive, side, match):
    """The warm start as the numpy expressions wrote it."""
    match = match.copy()
    m_src = np.flatnonzero((side == 0) & (match >= 0))
    ok = np.zeros(side.size, dtype=bool)
    hit = (alive == 1) & (indices == match[src]) & (side[src] == 0)
    ok[src[hit]] = True
    gone = m_src[~ok[m_src]]
    match[match[gone]] = -1
    match[gone] = -1
    return match


def _off_by_numpy(indices, src, alive, side, match, comp):
    cand = (alive == 1) & (side[src] == 0) & (indices != match[src])
    partner = match[indices]
    return np.flatnonzero(cand & (comp[src] != comp[np.where(partner >= 0, partner, 0)]))


@pytest.mark.parametrize("compiled", [True, False])
@pytest.mark.parametrize("seed", range(6))
def test_drop_lost_pairs_and_off_matchings_match_the_numpy_expressions(seed, compiled):
    indptr, indices, src, alive, side, match = _network(seed)
    drop = K.drop_lost_pairs if compiled else K.drop_lost_pairs.py_func
    off = K.off_matchings if compiled else K.off_matchings.py_func
    # kill some matched moves, so that pairs are lost
    rng = np.random.default_rng(100 + seed)
    alive[rng.choice(indices.size, size=indices.size // 5, replace=False)] = 0
    want = _lost_pairs_by_numpy(indices, src, alive, side, match)
    before = int(((side == 0) & (match >= 0)).sum())
    lost = drop(indptr, indices, alive, side, match)
    assert np.array_equal(match, want)
    assert lost == before - int(((side == 0) & (match >= 0)).sum()) > 0
    K.hopcroft_karp(indptr, indices, alive, side, match)
    comp, _ = K.alternating_scc(indptr, indices, alive, side, match)
    got = off(indptr, indices, alive, side, match, comp)
    assert got.dtype == np.int64
    assert np.array_equal(got, _off_by_numpy(indices, src, alive, side, match, comp))


def test_the_network_is_int32_arrays_and_keeps_the_graphs_edges_without_a_copy():
    """At 10^7 squares every int64 copy of the moves cost 0.6 GB: the network's arrays are int32, and no array
    names each entry's node (its ``source`` searches the row starts)."""
    from ktsolve.proofs.matching import _closing_network
    from ktsolve.tour import TourSpec

    graph = KnightGraph(random_holed_board(40, 40, 0.1, closed=True, seed=3))
    net = _closing_network(graph, TourSpec(closed=True))
    assert {a.dtype for a in (net.indptr, net.indices, net.twin)} == {np.dtype(np.int32)}
    p = np.arange(net.indices.size)
    src = np.repeat(np.arange(net.n), np.diff(net.indptr))
    assert np.array_equal(net.source(p), src) and net.source(int(p[-1])) == net.n - 1
    assert np.array_equal(net.twin[net.twin], p)
    assert np.array_equal(net.indices[net.twin], src)


@pytest.mark.parametrize("interrupted", [False, True])
def test_building_the_network_looks_at_the_clock_between_ranges(monkeypatch, interrupted):
    """A race's cancel (or Ctrl-C) stops the matching proof while it builds its network: on 10^7 squares the
    build took 2.2 s in one kernel call, and the race waited for it after splice's tour."""
    from ktsolve.driver import Deadline, Stopped
    from ktsolve.factor import chunks
    from ktsolve.proofs import matching
    from ktsolve.tour import TourSpec

    monkeypatch.setattr(chunks, "MOST", 1)
    graph = KnightGraph(random_holed_board(12, 14, 0.15, closed=True, seed=1))
    looks = []

    class Clock(Deadline):
        def check(self, phase=""):
            looks.append(phase)
            if looks.count("building the matching proof's network") == 20:
                raise Stopped("interrupted" if interrupted else "time limit", phase)

    with pytest.raises(Stopped) as stop:
        matching.matching_proof(graph, TourSpec(closed=True), time_limit=Clock(None))
    assert stop.value.reason == ("interrupted" if interrupted else "time limit")
    assert looks.count("building the matching proof's network") == 20


def test_the_matching_proof_builds_the_graph_and_its_colours_against_the_clock():
    """On a graph whose arrays are not built yet, the matching proof builds them (the colours too) in bands,
    looking at the clock, and keeps none of a build that was stopped."""
    from ktsolve.driver import Deadline, Stopped
    from ktsolve.proofs import matching
    from ktsolve.tour import TourSpec

    graph = KnightGraph(random_holed_board(12, 14, 0.15, closed=True, seed=2))

    class Clock(Deadline):
        def check(self, phase=""):
            if phase == "building the knight graph":
                raise Stopped("time limit", phase)

    with pytest.raises(Stopped, match="building the knight graph"):
        matching.matching_proof(graph, TourSpec(closed=True), time_limit=Clock(None))
    assert "colour" not in graph.__dict__ and "coords" not in graph.__dict__


def _other_side_by_sets(indices, src, alive, side, level):
    """The side-1 levels from their definition: a square is in the k-th set from the top (k = 1 .. top) when
    no live move joins it to a side-0 square of level >= top + 1 - k."""
    top = int(level[side == 0].max(initial=0))
    out = np.zeros(side.size, dtype=np.int32)
    for k in range(1, top + 1):
        reached = np.zeros(side.size, dtype=bool)
        live = (alive == 1) & (side[src] == 0) & (level[src] >= top + 1 - k)
        reached[indices[live]] = True
        out[(side == 1) & ~reached] += 1
    return out


@pytest.mark.parametrize("compiled", [True, False])
@pytest.mark.parametrize("seed", range(6))
def test_other_side_levels_match_their_definition(seed, compiled):
    indptr, indices, src, alive, side, match = _network(seed)
    other = K.other_side_levels if compiled else K.other_side_levels.py_func
    # both directions of a move live or dead alike, as the matching proof keeps them
    alive &= alive[np.lexsort((src, indices))]
    # the definition needs no perfect matching: levels of every height, at random
    rng = np.random.default_rng(200 + seed)
    level = np.where(side == 0, rng.integers(0, 5, side.size), 0).astype(np.int32)
    got = other(indptr, indices, alive, side, level)
    assert got.dtype == np.int32
    assert np.array_equal(got, _other_side_by_sets(indices, src, alive, side, level))
