"""Proofs of impossibility: kernels against references, each argument on its own, soundness, certificates."""

import copy
import doctest

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ktsolve import Board, KnightGraph, TourSpec
from ktsolve.request import make_spec
from ktsolve.proofs import _kernels as K
from ktsolve import Proof, proofs
from ktsolve.proofs.quick import _full_and_2_connected
from ktsolve.proofs._common import colour_names
from ktsolve.proofs import (
    check_matching_proof,
    cut_proof,
    degree_proof,
    matching_proof,
    quick_proof,
)

from conftest import random_board
from naive_tours import exhaustive_tour


def spec(closed=False, start=None, end=None):
    return TourSpec(closed=closed, start=start, end=end)


def sp(g, closed=False, start=None, end=None):
    """The question with squares given by name, checked against the board."""
    return make_spec(g.board, closed=closed, start=start, end=end)


def test_doctests():
    assert doctest.testmod(proofs).failed == 0


# ---------------------------------------------------------------------- kernels against references
def _random_alive(rng, g, frac):
    """A symmetric random alive mask (both directions of an edge alike)."""
    e = g.edges()
    keep = rng.random(len(e)) >= frac
    kept = {(int(u), int(v)) for (u, v), k in zip(e, keep) if k}
    src = np.repeat(np.arange(g.n), g.degree)
    alive = np.array([(min(a, b), max(a, b)) in kept for a, b in zip(src, g.indices)], dtype=np.uint8)
    return alive, kept


@pytest.mark.parametrize("compiled", [True, False])
def test_cut_squares_and_components_match_networkx(compiled):
    rng = np.random.default_rng(11)
    dfs = K.lowpoint_dfs if compiled else K.lowpoint_dfs.py_func
    blocks = K.blocks if compiled else K.blocks.py_func
    labels = K.component_labels if compiled else K.component_labels.py_func
    for _ in range(60):
        g = KnightGraph(random_board(rng, 2, 9, 0.3))
        alive, kept = _random_alive(rng, g, 0.2)
        ref = nx.Graph()
        ref.add_nodes_from(range(g.n))
        ref.add_edges_from(kept)
        lab = labels(g.indptr, g.indices, alive)
        comps = list(nx.connected_components(ref))
        assert int(lab.max()) + 1 == len(comps)
        for comp in comps:
            assert len({int(lab[v]) for v in comp}) == 1
        root = int(rng.integers(g.n))
        disc, low, parent, order, count = dfs(g.indptr, g.indices, alive, root)
        comp = nx.node_connected_component(ref, root)
        assert count == len(comp)
        parts, block, ncut = blocks(disc, low, parent, order, count)
        sub = ref.subgraph(comp)
        cuts = set(nx.articulation_points(sub))
        assert {int(v) for v in np.flatnonzero(parts > 1)} == cuts
        for v in cuts:
            h = sub.copy()
            h.remove_node(v)
            assert parts[v] == nx.number_connected_components(h)
        # Blocks: ids are the squares heading them; the number of blocks matches networkx.
        heads = {int(block[w]) for w in order[1:count]}
        assert len(heads) == len(list(nx.biconnected_components(sub)))


@pytest.mark.parametrize("compiled", [True, False])
def test_matching_and_alternating_components_match_references(compiled):
    rng = np.random.default_rng(5)
    hk = K.hopcroft_karp if compiled else K.hopcroft_karp.py_func
    scc = K.alternating_scc if compiled else K.alternating_scc.py_func
    checked = 0
    for _ in range(150):
        g = KnightGraph(random_board(rng, 2, 6, 0.15))
        alive, kept = _random_alive(rng, g, 0.08)
        ref = nx.Graph()
        ref.add_nodes_from(range(g.n))
        ref.add_edges_from(kept)
        side = g.colour.astype(np.int32)
        match = np.full(g.n, -1, dtype=np.int32)
        size = hk(g.indptr, g.indices, alive, side, match)
        top = [v for v in range(g.n) if side[v] == 0]

        def max_matching(h):
            return len(nx.bipartite.maximum_matching(h, top_nodes=[v for v in top if v in h])) // 2

        ref_size = max_matching(ref)
        assert size == ref_size
        for v in range(g.n):  # a matching of alive edges, both ways
            if match[v] >= 0:
                assert match[match[v]] == v and (min(v, match[v]), max(v, match[v])) in kept
        if 2 * size != g.n:
            continue
        comp, level = scc(g.indptr, g.indices, alive, side, match)
        # Reference: an edge lies in some perfect matching iff the rest has one.
        for a, b in kept:
            rest = ref.copy()
            rest.remove_nodes_from([a, b])
            allowed = 2 * len(nx.max_weight_matching(rest, maxcardinality=True)) == g.n - 2
            a0, b1 = (a, b) if side[a] == 0 else (b, a)
            same = match[a0] == b1 or comp[a0] == comp[match[b1]]
            assert allowed == same, (a, b)
            if not same:  # an excluded arc goes up a level
                assert level[a0] < level[match[b1]]
        for a, b in kept:  # arcs never go down a level
            a0, b1 = (a, b) if side[a] == 0 else (b, a)
            assert level[a0] <= level[match[b1]]
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("one_by_one", [False, True])
@pytest.mark.parametrize("compiled", [True, False])
def test_network_csr_matches_sorting_every_directed_move(monkeypatch, compiled, one_by_one):
    """The matching proof's network: a graph's rows in any order with none, one or two extra squares (linked or
    not) give the same arrays as a lexicographic sort of every directed move and a search for each twin, its
    passes run whole or in ranges of one item (as against a clock)."""
    from ktsolve.factor import chunks
    from ktsolve.proofs.network import network_csr

    if one_by_one:
        monkeypatch.setattr(chunks, "MOST", 1)
    rng = np.random.default_rng(11)
    for trial in range(40):
        n = int(rng.integers(2, 60))
        pairs = {tuple(sorted(rng.choice(n, size=2, replace=False).tolist())) for _ in range(int(rng.integers(1, 4 * n)))}
        # the graph's CSR with its rows shuffled, as a knight graph lists them in move order
        src = np.array([a for a, b in pairs] + [b for a, b in pairs], dtype=np.int64)
        dst = np.array([b for a, b in pairs] + [a for a, b in pairs], dtype=np.int64)
        order = np.lexsort((rng.random(src.size), src))
        g_indptr = np.concatenate([[0], np.cumsum(np.bincount(src, minlength=n))]).astype(np.int32)
        g_indices = dst[order].astype(np.int32)
        for a in (g_indptr, g_indices):  # read-only as the knight graph's (one compiled signature)
            a.flags.writeable = False
        k = trial % 4  # 0, 1 or 2 extra squares, the 2 linked when k is 3
        extras = [np.flatnonzero(rng.random(n) < 0.5) for _ in range(min(k, 2))]
        link = k == 3
        indptr, indices, twin = network_csr(g_indptr, g_indices, extras, link, compiled=compiled)
        assert {a.dtype for a in (indptr, indices, twin)} == {np.dtype(np.int32)}
        rows = np.repeat(np.arange(indptr.size - 1), np.diff(indptr))
        moves = list(pairs) + [(int(v), n + e) for e, joined in enumerate(extras) for v in joined]
        moves += [(n, n + 1)] if link else []
        total = n + len(extras)
        src = np.array([a for a, b in moves] + [b for a, b in moves], dtype=np.int64)
        dst = np.array([b for a, b in moves] + [a for a, b in moves], dtype=np.int64)
        order = np.lexsort((dst, src))
        src, dst = src[order], dst[order]
        assert np.array_equal(rows, src) and np.array_equal(indices, dst)
        assert np.array_equal(indptr[1:], np.cumsum(np.bincount(src, minlength=total)))
        key = src * total + dst
        assert np.array_equal(twin, np.searchsorted(key, dst * total + src))


def test_kernels_warm_start_keeps_a_valid_matching():
    g = KnightGraph(Board(6, 6))
    alive = np.ones(g.indices.size, dtype=np.uint8)
    side = g.colour.astype(np.int32)
    match = np.full(g.n, -1, dtype=np.int32)
    assert K.hopcroft_karp(g.indptr, g.indices, alive, side, match) == 18
    again = match.copy()
    assert K.hopcroft_karp(g.indptr, g.indices, alive, side, again) == 18
    assert np.array_equal(again, match)


# ---------------------------------------------------------------------- each quick proof
def test_size_and_ends():
    g = KnightGraph(Board(1, 2))
    assert quick_proof(g, spec(closed=True)).argument == "size"
    g = KnightGraph(Board(3, 4))
    p = quick_proof(g, spec(start=(0, 0), end=(0, 0)))
    assert p.argument == "size"
    g = KnightGraph(Board(6, 6))
    p = quick_proof(g, sp(g, closed=True, start="a1", end="a2"))
    assert p.argument == "ends" and "a2 is not a knight's move from a1" in p


def test_colour_parity_variants():
    g = KnightGraph(Board(5, 5))
    assert quick_proof(g, spec(closed=True)).argument == "colour parity"
    p = quick_proof(g, sp(g, start="b1"))
    assert p.argument == "colour parity" and "start b1" in p
    p = quick_proof(g, sp(g, end="b1"))
    assert p.argument == "colour parity" and "end b1" in p
    g = KnightGraph(Board(6, 6))
    p = quick_proof(g, sp(g, start="a1", end="c1"))
    assert p.argument == "colour parity" and "opposite colours" in p
    p = quick_proof(KnightGraph(Board(4, 4, holes=[(0, 0), (0, 2)])), spec())
    assert p.argument == "colour parity"


def test_degree_against_fixed_ends():
    # 3x4: the corners of the board have degree 2; a 3x3 ring (minus the centre)
    # with one hole has exactly two squares of degree 1.
    b = Board(3, 3, holes=[(1, 1), (0, 0)])
    g = KnightGraph(b)
    ones = [b.name(*b.coords_of([i])[0]) for i in np.flatnonzero(g.degree == 1)]
    assert sorted(ones) == ["b1", "c2"]
    assert degree_proof(g, spec()) is None
    assert degree_proof(g, sp(g, start="b1")) is None  # the other one-neighbour square ends it
    assert degree_proof(g, sp(g, start="b1", end="c2")) is None
    assert degree_proof(g, sp(g, end="c2")) is None
    p = degree_proof(g, sp(g, start="a1"))
    assert p is not None and "limited to a1 and one more square" in p
    p = degree_proof(g, sp(g, start="b1", end="a1"))
    assert p is not None and "c2 has only one neighbour" in p and "fixed at b1 and a1" in p
    p = degree_proof(g, spec(closed=True))
    assert p is not None and "closed tour" in p
    # Every answer agrees with exhaustive search on this little board.
    for q in (spec(), sp(g, start="b1"), sp(g, start="a1"), sp(g, start="b1", end="a1"), sp(g, start="c2", end="b1")):
        assert (exhaustive_tour(g, q) is None) or degree_proof(g, q) is None


def test_connectivity_and_isolated():
    assert quick_proof(KnightGraph(Board(3, 3)), spec()).argument == "degree"  # b2 has no move
    b = Board(4, 4, holes=[(1, 2), (2, 1), (1, 1), (2, 2), (0, 3), (3, 0)])
    p = proofs.connectivity_proof(KnightGraph(b), spec())
    assert p is not None and p.argument == "connectivity"


def test_cut_square_closed():
    b = Board.parse("##..\n#..#\n....\n....\n")
    g = KnightGraph(b)
    p = quick_proof(g, spec(closed=True))
    assert p.argument == "cut square" and p.evidence["square"] == "b3"
    assert "2 separate parts (8 squares around c4, 3 squares around d4)" in p
    assert exhaustive_tour(g, spec(closed=True)) is None
    # Random boards that pass the other checks: a cut square exactly when networkx finds one.
    rng = np.random.default_rng(2)
    found = 0
    for _ in range(3000):
        b = random_board(rng, 3, 6, 0.3)
        g = KnightGraph(b)
        q = spec(closed=True)
        if any(f(g, q) for f in (proofs.size_proof, proofs.colour_proof, proofs.degree_proof,
                                 proofs.connectivity_proof)):
            continue
        p = cut_proof(g, q)
        ref = nx.articulation_points(g.to_networkx())
        assert (p is not None) == bool(list(ref))
        if p is not None:
            found += 1
            assert p.argument == "cut square" and "splits the board" in p
            assert b.index(*b.parse_square(p.evidence["square"])) in set(nx.articulation_points(g.to_networkx()))
    assert found >= 1


def test_cut_square_open_variants():
    rng = np.random.default_rng(8)
    kinds = set()
    for _ in range(2000):
        b = random_board(rng, 3, 6, 0.35)
        g = KnightGraph(b)
        n = g.n
        coords = [tuple(int(x) for x in b.coords_of([i])[0]) for i in range(n)]
        s = coords[int(rng.integers(n))] if rng.random() < 0.5 else None
        e = coords[int(rng.integers(n))] if rng.random() < 0.3 else None
        q = spec(start=s, end=e)
        if any(f(g, q) for f in (proofs.size_proof, proofs.colour_proof, proofs.degree_proof,
                                 proofs.connectivity_proof)):
            continue
        p = cut_proof(g, q)
        if p is None:
            continue
        text = str(p)
        kinds.add("groups" if "groups" in p.evidence else ("fixed" if "starts on" in text or "ends on" in text
                                                           else "three parts"))
        if n <= 20:
            assert exhaustive_tour(g, q) is None, (b, q, text)
    assert {"groups", "three parts"} <= kinds


def _leaf_groups_by_networkx(g: KnightGraph, fixed: list[int]) -> set:
    """The loose leaf groups, read off networkx's blocks: a block with one articulation point, as that point
    and the block's other squares, when none of those is a fixed end."""
    nxg = g.to_networkx()
    cut = set(nx.articulation_points(nxg))
    groups = set()
    for block in nx.biconnected_components(nxg):
        through = block & cut
        inner = block - cut
        if len(through) == 1 and inner and not inner & set(fixed):
            groups.add((next(iter(through)), frozenset(inner)))
    return groups


def test_the_leaf_groups_are_networkx_s_leaf_blocks():
    """quick._loose_groups (block members counted at once) against networkx's biconnected components, on
    random holed boards with cut squares, with and without fixed ends."""
    from ktsolve.proofs.quick import _loose_groups

    rng = np.random.default_rng(28)
    compared = with_groups = 0
    for _ in range(600):
        b = random_board(rng, 3, 9, 0.3)
        g = KnightGraph(b)
        if g.n < 3 or not nx.is_connected(g.to_networkx()):
            continue
        alive = np.ones(g.indices.size, dtype=np.uint8)
        disc, low, parent, order, count = K.lowpoint_dfs(g.indptr, g.indices, alive, 0)
        parts, block, ncut = K.blocks(disc, low, parent, order, count)
        fixed = sorted({int(x) for x in rng.integers(g.n, size=int(rng.integers(0, 3)))})
        got = _loose_groups(order[:count], block, parent, parts, ncut, fixed, g.n)
        want = _leaf_groups_by_networkx(g, fixed)
        assert {(x, frozenset(inner)) for x, inner in got} == want, (b, fixed)
        assert len(got) == len(want)
        compared += 1
        with_groups += bool(want)
    assert compared >= 300 and with_groups >= 50


def test_full_boards_from_5x5_are_2_connected():
    """The base case and the first sizes of the argument in proofs._full_and_2_connected."""
    for m in range(5, 13):
        for n in range(m, 13):
            g = KnightGraph(Board(m, n))
            assert nx.is_biconnected(g.to_networkx()), (m, n)
            assert _full_and_2_connected(g)
    for m, n in ((4, 9), (3, 12), (8, 8)):
        g = KnightGraph(Board(m, n, holes=[(0, 0)] if m == 8 else []))
        assert not _full_and_2_connected(g)


def test_cut_proof_needs_no_recursion_on_a_million_squares():
    g = KnightGraph(Board(3, 333_334))
    # The depth-first search goes about a million squares deep; no recursion limit is hit.
    p = cut_proof(g, spec(closed=True))
    assert p is None or p.argument == "cut square"
    g = KnightGraph(Board(1000, 1000, holes=[(500, 500)]))
    assert cut_proof(g, spec(closed=True)) is None


# ---------------------------------------------------------------------- the matching proof
@pytest.mark.parametrize("n", [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 24, 31, 50])
def test_matching_proof_kills_every_closed_4xn(n):
    g = KnightGraph(Board(4, n))
    p = matching_proof(g, spec(closed=True))
    assert p is not None and p.argument == "matching"
    assert p.evidence["conclusion"]["reason"] in ("disconnected", "degree")
    assert check_matching_proof(g, spec(closed=True), p)
    # The n x 4 board too (same proof, transposed).
    g2 = KnightGraph(Board(n, 4))
    p2 = matching_proof(g2, spec(closed=True))
    assert p2 is not None and check_matching_proof(g2, spec(closed=True), p2)


@pytest.mark.parametrize("ns", [list(range(3, 201, 11)) + [199, 200],
                                pytest.param(range(3, 201), marks=pytest.mark.slow)])
def test_matching_proof_4xn_up_to_200_alone(ns):
    for n in ns:
        g = KnightGraph(Board(4, n))
        p = matching_proof(g, spec(closed=True))
        assert p is not None, n
        if n % 37 == 0:
            assert check_matching_proof(g, spec(closed=True), p)


def test_matching_proof_text_says_what_and_why():
    g = KnightGraph(Board(4, 1000))
    p = matching_proof(g, spec(closed=True))
    text = str(p)
    assert "perfect matching" in text and "1000 light squares" in text
    assert "1996 moves" in text and "2 separate parts" in text
    ev = p.evidence
    assert ev["excluded"] == 1996
    assert ev["steps"][0]["deleted"] == 1996
    assert sum(len(v) for v in ev["steps"][0]["levels"].values()) == 1000


def _pair_proof(size=40):
    from ktsolve.shapes import planted

    g = KnightGraph(planted(size, size, "pair", balance="closed").board)
    return g, matching_proof(g, spec(closed=True))


def test_a_hall_step_names_its_tight_sets_from_the_smaller_colour():
    """On the pair board the tight sets the matching finds first hold every square of one colour but two;
    the same sets seen from the other colour are the two squares of the pair.  The step names those, says
    which colour with ``levels_side``, and checks; named from side 0 it would name hundreds."""
    g, p = _pair_proof()
    hall = next(s for s in p.evidence["steps"] if s["step"] == "hall")
    assert hall["levels_side"] == 1
    named = [x for names in hall["levels"].values() for x in names]
    side0 = int((g.colour == 0).sum())
    assert 0 < len(named) <= 4 < side0 // 10
    assert all(g.colour[_index(g, x)] == 1 for x in named)
    assert check_matching_proof(g, spec(closed=True), p)
    # the readable example is the same small set, and the text names its colour
    assert hall["example"]["S_size"] == len(hall["levels"][max(hall["levels"], key=int)])
    assert colour_names(g)[1] in str(p).split("have between them")[0]


def test_the_checker_reads_levels_of_either_colour_and_refuses_forged_ones():
    g, p = _pair_proof()
    step = next(i for i, s in enumerate(p.evidence["steps"]) if s["step"] == "hall")
    for forge in (
        lambda h: h["levels"][max(h["levels"], key=int)].pop(),  # a set no longer tight
        lambda h: h.__setitem__("levels_side", 0),  # the same names read as the other colour's
        lambda h: h.__setitem__("levels_side", 2),
        lambda h: h.__setitem__("levels_side", "1"),
        lambda h: h.__setitem__("deleted", h["deleted"] + 1),  # a count the sets do not exclude
        lambda h: h.__setitem__("deleted", h["deleted"] - 1),
        lambda h: h.__setitem__("deleted", str(h["deleted"])),
        lambda h: h.__setitem__("deleted", True),
        lambda h: h.__setitem__("deleted", [[h["levels"]["1"][0], h["levels"]["1"][0]]]),  # not a move
    ):
        bad = copy.deepcopy(dict(p.evidence))
        forge(bad["steps"][step])
        with pytest.raises(ValueError):
            check_matching_proof(g, spec(closed=True), Proof("x", "matching", bad))
    # a listed move that the tight sets do not exclude: one of the pair's own two moves
    bad = _listed(g, p.evidence)
    assert check_matching_proof(g, spec(closed=True), Proof("x", "matching", bad))
    hall = bad["steps"][step]
    pair = hall["levels"][max(hall["levels"], key=int)][0]
    own = next(m for m in _moves_of(g, pair))
    hall["deleted"].append([pair, own])
    with pytest.raises(ValueError):
        check_matching_proof(g, spec(closed=True), Proof("x", "matching", bad))


def _listed(g, evidence):
    from fuzz_certificates import listed_hall_steps

    return dict(listed_hall_steps(g, Proof("x", "matching", evidence)).evidence)


def _index(g, name):
    return next(i for i in range(g.n) if g.name(i) == name)


def _moves_of(g, name):
    """The names of the squares a knight's move from the square called ``name``."""
    v = _index(g, name)
    return [g.name(int(w)) for w in g.indices[g.indptr[v]:g.indptr[v + 1]]]


def test_matching_proof_checker_rejects_tampering():
    g = KnightGraph(Board(4, 8))
    p = matching_proof(g, spec(closed=True))
    bad = copy.deepcopy(dict(p.evidence))
    level1 = bad["steps"][0]["levels"]["1"]
    level1.pop()  # the set is no longer tight
    with pytest.raises(ValueError):
        check_matching_proof(g, spec(closed=True), Proof("x", "matching", bad))
    bad = _listed(g, p.evidence)
    assert check_matching_proof(g, spec(closed=True), Proof("x", "matching", bad))
    bad["steps"][0]["deleted"] = bad["steps"][0]["deleted"][:-1]  # one move kept: still connected
    with pytest.raises(ValueError):
        check_matching_proof(g, spec(closed=True), Proof("x", "matching", bad))
    # The checker also refuses a proof for a question it does not answer.
    with pytest.raises(ValueError):
        check_matching_proof(KnightGraph(Board(6, 6)), spec(closed=True), p)


def test_matching_proof_open_tours_and_fixed_ends():
    # 3x5 open: no tour (theorem); the matching proof shows it through extra squares.
    g = KnightGraph(Board(3, 5))
    p = matching_proof(g, spec())
    assert p is not None and "extra square" in p and check_matching_proof(g, spec(), p)
    assert exhaustive_tour(g, spec()) is None


def test_matching_proof_that_runs_out_of_time_raises_stopped_never_none():
    from ktsolve.driver import Deadline, Stopped
    from ktsolve.errors import InvalidParameterError

    g = KnightGraph(Board(4, 30))
    with pytest.raises(Stopped):
        matching_proof(g, spec(closed=True), time_limit=Deadline(1e-9, t0=0.0))
    with pytest.raises(InvalidParameterError):
        matching_proof(g, spec(closed=True), time_limit=-1)
    assert matching_proof(g, spec(closed=True), time_limit=60) is not None


def _random_question(rng, b):
    n = b.n_squares
    coords = [tuple(int(x) for x in b.coords_of([i])[0]) for i in range(n)]
    closed = bool(rng.integers(2))
    r = rng.random()
    s = e = None
    if r < 0.3:
        s = coords[int(rng.integers(n))]
    elif r < 0.45:
        e = coords[int(rng.integers(n))]
    elif r < 0.6:
        s, e = coords[int(rng.integers(n))], coords[int(rng.integers(n))]
    if closed and s is not None and s == e:
        e = None
    return spec(closed, s, e)


boards = st.builds(
    lambda seed: np.random.default_rng(seed), st.integers(0, 2**32 - 1)
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rng=boards)
def test_proofs_agree_with_exhaustive_search(rng):
    """On boards of at most 20 squares every proof is double-checked by exhaustive search."""
    b = random_board(rng, 1, 6, 0.5)
    if b.n_squares > 20:
        return
    g = KnightGraph(b)
    question = _random_question(rng, b)
    tour = exhaustive_tour(g, question)
    q = quick_proof(g, question)
    m = matching_proof(g, question)
    if tour is not None:
        assert q is None and m is None, (b, question, q, m)
    if m is not None:
        assert check_matching_proof(g, question, m)


def test_proofs_never_fire_on_boards_with_a_known_tour():
    """Soundness on bigger boards: a tour found by CP-SAT means no proof may exist."""
    from ktsolve.models.cpsat import solve_cpsat
    from ktsolve import validate

    rng = np.random.default_rng(21)
    tours = 0
    for _ in range(50):
        b = random_board(rng, 5, 8, 0.15)
        g = KnightGraph(b)
        question = _random_question(rng, b)
        res = solve_cpsat(g, question, time_limit=2, seed=1)
        if res.tour is None:
            continue
        validate(b, res.tour, closed=question.closed, start=question.start, end=question.end)
        tours += 1
        assert quick_proof(g, question) is None
        assert matching_proof(g, question) is None
    assert tours >= 10


def test_matching_proof_starts_no_round_it_cannot_end_in_the_time_left(monkeypatch):
    """A round as long as the last one would end past the clock: Stopped before it, not an overrun."""
    import time

    from ktsolve.driver import Deadline, Stopped
    from ktsolve.generate import random_holed_board
    from ktsolve.proofs import matching as M

    board = random_holed_board(10, 10, 0.2, seed=199)  # two rounds, and no contradiction
    assert matching_proof(KnightGraph(board), spec(closed=True)) is None
    real = M._MatchingProver.hall_step

    def slow_first(self):
        if not getattr(self, "_slowed", False):
            self._slowed = True
            time.sleep(0.4)
        return real(self)

    monkeypatch.setattr(M._MatchingProver, "hall_step", slow_first)
    with pytest.raises(Stopped):
        matching_proof(KnightGraph(board), spec(closed=True), time_limit=Deadline(0.6))
    assert matching_proof(KnightGraph(board), spec(closed=True), time_limit=Deadline(5)) is None


@pytest.mark.parametrize("compiled", [True, False])
def test_matching_from_factor_pairs_every_square_along_the_2_factor(compiled):
    from ktsolve.factor import two_factor
    from ktsolve.generate import random_holed_board

    build = K.matching_from_factor if compiled else K.matching_from_factor.py_func
    for seed in range(6):
        board = random_holed_board(9 + seed, 12, 0.1, closed=True, seed=seed)
        tf = two_factor(board, closed=True)
        assert tf.status == "found"
        links = np.ascontiguousarray(tf.links, dtype=np.int8).reshape(board.size, 2)
        number = np.full(board.size, -1, dtype=np.int32)
        number[np.flatnonzero(board.mask.reshape(-1))] = np.arange(board.n_squares, dtype=np.int32)
        match = np.full(board.n_squares, -1, dtype=np.int32)
        assert build(links, board.rows, board.cols, number, match) == board.n_squares
        g = KnightGraph(board)
        cells = np.flatnonzero(board.mask.reshape(-1))
        factor_moves = set()
        for f in cells.tolist():
            for j in links[f]:
                dr, dc = [(-2, 1), (-1, 2), (1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1)][int(j)]
                h = (f // board.cols + dr) * board.cols + f % board.cols + dc
                factor_moves.add((int(number[f]), int(number[h])))
        for v in range(board.n_squares):  # a perfect matching of the 2-factor's moves
            w = int(match[v])
            assert match[w] == v and w != v and w in g.neighbours(v).tolist() and (v, w) in factor_moves


def test_matching_proofs_of_large_boards_start_from_the_2_factor_and_still_check():
    """Above PY_MAX squares a closed question's first matching comes from a 2-factor: the proofs still check."""
    from ktsolve.generate import random_holed_board
    from ktsolve.proofs import check_proof

    four = KnightGraph(Board(4, 400))  # no closed tour; 1,600 squares
    proof = matching_proof(four, spec(closed=True))
    assert proof is not None and check_proof(four, spec(closed=True), proof).valid
    board = random_holed_board(40, 40, 0.05, closed=True, seed=3)
    assert matching_proof(KnightGraph(board), spec(closed=True)) is None  # a tour exists (the oracle's kind)


def test_the_matching_proof_starts_from_the_2_factor_the_2_factor_proof_found_on_the_same_board(monkeypatch):
    """A race's lane runs the 2-factor proof, then the matching proof, on one board: the second takes the first's
    2-factor (not built again) and proves the same; an equal board that is another object, an open question
    and a board that is gone leave nothing to take."""
    import gc

    import ktsolve.factor as factor
    from ktsolve.proofs import two_factor as tfp
    from ktsolve.shapes import planted

    board = planted(40, 40, "pair", balance="closed").board
    expected = matching_proof(KnightGraph(board), spec(closed=True))
    assert tfp.two_factor_proof(board, spec(closed=True)) is None  # a 2-factor exists: no proof
    links = tfp.found_factor(board)
    assert links is not None and links.shape == (40, 40, 2) and not links.flags.writeable
    assert tfp.found_factor(Board(40, 40, holes=board.holes)) is None  # equal, but not the same object
    built = []
    real = factor.two_factor
    monkeypatch.setattr(factor, "two_factor", lambda *a, **k: built.append(1) or real(*a, **k))
    got = matching_proof(KnightGraph(board), spec(closed=True))
    assert built == [] and str(got) == str(expected) and got.evidence == expected.evidence
    assert np.array_equal(tfp.found_factor(board), links)  # read, not changed
    other = planted(40, 40, "pair", balance="open").board
    assert tfp.two_factor_proof(other, spec(closed=False)) is None and tfp.found_factor(other) is None
    matching_proof(KnightGraph(other), spec(closed=True))
    assert built == [1]  # another board: its own 2-factor
    del board
    gc.collect()
    assert tfp._FOUND == [None, None]


def test_the_matching_proofs_forcing_looks_at_the_clock():
    """The forcing between Hall steps looks at the clock every 4,096 squares: on a 10^7-square maze it ran
    for minutes past a race's end without looking (its Python loop visits every square it forces)."""
    from collections import deque

    from ktsolve.driver import Stopped
    from ktsolve.proofs.matching import _closing_network, _MatchingProver

    graph = KnightGraph(Board(8, 600))
    closed = TourSpec(closed=True)
    calls = []
    _MatchingProver(_closing_network(graph, closed)).propagate(deque(list(range(graph.n)) * 2), lambda: calls.append(1))
    assert len(calls) >= 2 * graph.n // 4096

    def cancelled():
        raise Stopped("cancelled", "running the matching proof")

    with pytest.raises(Stopped):
        _MatchingProver(_closing_network(graph, closed)).propagate(deque(range(graph.n)), cancelled)
