"""Re-checking a matching proof from its evidence alone, with plain sets and no matching algorithm.

Examples
--------
>>> from ktsolve import Board, TourSpec
>>> from ktsolve.graph import KnightGraph
>>> from ktsolve.proofs import matching_proof
>>> g, spec = KnightGraph(Board(4, 6)), TourSpec(closed=True)
>>> check_matching_proof(g, spec, matching_proof(g, spec))
True
"""

from __future__ import annotations

from ..result import Proof
from ..tour import TourSpec
from ._grid_check import Grid
from .verdict import Verdict, not_checkable

__all__ = ["check_matching_proof", "check_matching", "hall_exclusions", "closed_deletions", "MATCHING_CHECK_MAX"]

#: Largest board whose matching proofs are re-checked (plain sets of every square's moves).
MATCHING_CHECK_MAX = 200_000


def check_matching(where, spec: TourSpec, evidence) -> "str | Verdict | None":
    """The checker of the one table: None when the matching proof's evidence is valid, else why not."""
    board = getattr(where, "board", where)
    if board.n_squares > MATCHING_CHECK_MAX:
        return not_checkable(f"matching proofs are re-checked on boards of at most {MATCHING_CHECK_MAX:,} squares")
    try:
        check_matching_proof(board, spec, Proof("", argument="matching", evidence=evidence))
    except ValueError as exc:
        return f"the matching proof does not check: {exc}"
    return None


def check_matching_proof(where, spec: TourSpec, proof: Proof) -> bool:
    """Re-check a matching proof from its evidence alone; True, or raise ``ValueError``.

    The checker rebuilds the network from the question (not from the
    evidence), then replays every step with plain sets: each Hall step must
    come with levels whose level sets are tight (the squares of level
    ``>= k`` have exactly as many neighbours as they are; the levels are of
    ``side0`` squares, or of the other side's when the step's
    ``levels_side`` is 1) and deletes moves ``a - b`` where ``b`` has a
    neighbour of level higher than ``a``'s: all of them when it gives their
    count, or those it lists (see :func:`hall_exclusions`); each forcing
    step must find exactly the moves it names; and the conclusion must hold
    of what is left.  It uses no matching algorithm, so a bug in the prover
    cannot hide in it.
    """
    if getattr(proof, "argument", None) != "matching":
        raise ValueError("not a matching proof")
    ev = proof.evidence
    if not isinstance(ev, dict) or not isinstance(ev.get("steps"), list) or not isinstance(ev.get("conclusion"), dict):
        raise ValueError("the evidence needs a list of steps and a conclusion")
    graph = Grid(where)
    board = graph.board
    n = graph.n
    if n < 3:
        raise ValueError("the matching argument needs at least three squares")
    colour = graph.colour
    s = None if spec.start is None else board.index(int(spec.start[0]), int(spec.start[1]))
    e = None if spec.end is None else board.index(int(spec.end[0]), int(spec.end[1]))
    fixed = [x for x in dict.fromkeys((s, e)) if x is not None]
    # The network, from the question.
    adj: dict = {v: set(int(w) for w in graph.neighbours(v)) for v in range(n)}
    side = {v: colour[v] for v in range(n)}
    forced: set = set()
    counts = [colour.count(0), colour.count(1)]
    if spec.closed:
        if counts[0] != counts[1]:
            raise ValueError("closed question on unequal colours")
        if s is not None and e is not None and s != e:
            forced.add(frozenset((s, e)))
    else:
        if abs(counts[0] - counts[1]) > 1:
            raise ValueError("open question on colours differing by more than one")
        if counts[0] != counts[1]:
            major = 0 if counts[0] > counts[1] else 1
            joined = set(fixed) if len(fixed) == 2 else {v for v in range(n) if colour[v] == major}
            adj["*"] = set(joined)
            side["*"] = 1 - major
            for v in joined:
                adj[v].add("*")
            for x in fixed:
                forced.add(frozenset(("*", x)))
        else:
            ends = {c: {v for v in range(n) if colour[v] == c} for c in (0, 1)}
            for x in fixed:
                ends[colour[x]] = {x}
            adj["*1"], side["*1"] = set(ends[0]) | {"*2"}, 1
            adj["*2"], side["*2"] = set(ends[1]) | {"*1"}, 0
            for c, d in ((0, "*1"), (1, "*2")):
                for v in ends[c]:
                    adj[v].add(d)
            forced.add(frozenset(("*1", "*2")))
            for x in fixed:
                forced.add(frozenset(("*1" if colour[x] == 0 else "*2", x)))
    nodes = list(adj)
    total = len(nodes)
    for u in nodes:
        for w in adj[u]:
            if side[u] == side[w]:
                raise ValueError("the network is not bipartite")

    def node(name):
        if isinstance(name, str) and name.startswith("*"):
            if name not in adj:
                raise ValueError(f"no extra square {name}")
            return name
        if not isinstance(name, (str, list, tuple)):
            raise ValueError(f"{name!r} is not a square name")
        return board.index(*board.parse_square(name))

    def edge(pair):
        u, w = node(pair[0]), node(pair[1])
        if w not in adj[u]:
            raise ValueError(f"{pair[0]}-{pair[1]} is not a move left")
        return u, w

    def forced_at(v):
        return [w for w in adj[v] if frozenset((v, w)) in forced]

    def path_from(u, w0):
        # Walk forced moves from u (not via w0 first); return the squares of the path.
        seen = [u]
        prev, cur = None, u
        while True:
            nxt = [x for x in forced_at(cur) if x != prev]
            if not nxt:
                return seen
            prev, cur = cur, nxt[0]
            if cur == u:
                return seen
            seen.append(cur)

    for step in ev["steps"]:
        kind = step["step"]
        if kind == "hall":
            for a, b in hall_exclusions(step, adj, side, node, edge):
                if frozenset((a, b)) in forced:
                    if ev["conclusion"].get("reason") == "forced excluded":
                        return True
                    raise ValueError("a forced move was deleted")
                adj[a].discard(b)
                adj[b].discard(a)
        elif kind == "forced":
            v = node(step["square"])
            named = {edge(pair)[1] for pair in step["moves"]}
            if len(adj[v]) != 2 or named != adj[v]:
                raise ValueError(f"{step['square']} does not have exactly the two moves named")
            for w in named:
                forced.add(frozenset((v, w)))
        elif kind == "drop":
            v = node(step["square"])
            if len(forced_at(v)) != 2:
                raise ValueError(f"{step['square']} does not use two forced moves")
            for pair in step["deleted"]:
                a, b = edge(pair)
                if frozenset((a, b)) in forced or v not in (a, b):
                    raise ValueError(f"{pair[0]}-{pair[1]} cannot be dropped at {step['square']}")
                adj[a].discard(b)
                adj[b].discard(a)
        elif kind == "subtour":
            a, b = edge(step["move"])
            if frozenset((a, b)) in forced:
                raise ValueError("a forced move closes a subtour")
            path = path_from(a, None)
            if len(forced_at(a)) != 1 or path[-1] != b or len(path) >= total:
                raise ValueError(f"{step['move']} does not close a short forced path")
            adj[a].discard(b)
            adj[b].discard(a)
        else:
            raise ValueError(f"unknown step {kind!r}")
        for v in nodes:
            if len(forced_at(v)) > 2 and ev["conclusion"].get("reason") != "three forced":
                raise ValueError("three forced moves at one square before the conclusion")

    c = ev["conclusion"]
    reason = c["reason"]
    if reason == "degree":
        if len(adj[node(c["square"])]) >= 2:
            raise ValueError(f"{c['square']} has two or more moves left")
    elif reason in ("disconnected", "cut"):
        gone = node(c["square"]) if reason == "cut" else None
        rest = [v for v in nodes if v != gone]
        seen = {rest[0]}
        stack = [rest[0]]
        while stack:
            v = stack.pop()
            for w in adj[v]:
                if w != gone and w not in seen:
                    seen.add(w)
                    stack.append(w)
        if len(seen) == len(rest):
            raise ValueError("what is left is connected")
    elif reason == "no perfect matching":
        S = {node(x) for x in c["S"]}
        if len({side[v] for v in S}) != 1:
            raise ValueError("the set S must be squares of one side")
        T = set().union(*(adj[v] for v in S))
        if len(T) >= len(S):
            raise ValueError("the set S has enough neighbours")
    elif reason == "three forced":
        if len(forced_at(node(c["square"]))) < 3:
            # The last forcing step names the square with a third forced move.
            raise ValueError(f"{c['square']} does not have three forced moves")
    elif reason == "short cycle":
        # the move was forced by the steps (its forcing step is the last one): with the other forced moves
        # it must close a cycle that leaves squares out
        a, b = edge(c["move"])
        if frozenset((a, b)) not in forced:
            raise ValueError(f"{c['move'][0]}-{c['move'][1]} is not a forced move")
        length = _forced_cycle(a, b, forced_at)
        if length is None or length >= total:
            raise ValueError("the forced moves do not close a cycle that leaves squares out")
    elif reason == "forced excluded":
        raise ValueError("no Hall step deleted the forced move")
    else:
        raise ValueError(f"unknown conclusion {reason!r}")
    return True


def hall_exclusions(step: dict, adj: dict, side: dict, node, edge) -> list:
    """The moves a Hall step deletes, as ``(a, b)`` with ``a`` on the named side; raise ``ValueError`` when
    its levels are not tight or it names a move they do not exclude.

    ``adj`` maps every node of the network to the set of its neighbours
    left, ``side`` to its side; ``node`` and ``edge`` turn the evidence's
    names into nodes and moves left.  The levels are of side 0, or of side 1
    when the step says ``levels_side: 1``: the squares of level ``>= k``
    must have exactly as many neighbours as they are, and then a move
    ``a - b`` from outside such a set to one of its neighbours lies in no
    perfect matching (``level[a] < maxlev[b]``, where ``maxlev[b]`` is the
    highest level among ``b``'s neighbours).  The step's ``deleted`` is
    either the number of those moves, which deletes every one of them and
    must be their count, or a list of move name pairs, each of which they
    must exclude.
    """
    on = step.get("levels_side", 0)
    if type(on) is not int or on not in (0, 1):
        raise ValueError(f"levels_side {str(on)[:20]!r} is not 0 or 1")
    levels = step.get("levels")
    if not isinstance(levels, dict):
        raise ValueError("a Hall step needs its levels")
    level = {v: 0 for v in adj if side[v] == on}
    for k, names in levels.items():
        # levels are whole numbers from 1 up: the squares of level >= k form a tight set for each
        # k >= 1, and level 0 (every square not named) is the outside of them all
        if not (isinstance(k, (str, int)) and str(k).isdigit() and int(k) >= 1):
            raise ValueError(f"level {str(k)[:20]!r} is not a whole number from 1 up")
        for name in names:
            v = node(name)
            if side[v] != on:
                raise ValueError(f"{name} is not on side {on}")
            level[v] = int(k)
    top = max(level.values(), default=0)
    maxlev = {b: max((level[a] for a in adj[b]), default=-1) for b in adj if side[b] != on}
    for k in range(1, top + 1):
        n_s = sum(1 for a in level if level[a] >= k)
        n_t = sum(1 for b in maxlev if maxlev[b] >= k)
        if n_s != n_t:
            raise ValueError(f"the squares of level >= {k} are {n_s} with {n_t} neighbours: not tight")
    said = step.get("deleted")
    if type(said) is int:
        # every move the tight sets exclude; the count guards against a finder and checker that disagree
        moves = [(a, b) for a in level for b in adj[a] if level[a] < maxlev[b]]
        if len(moves) != said:
            raise ValueError(f"the tight sets exclude {len(moves)} moves, not the {said} the step says")
        return moves
    if not isinstance(said, list):
        raise ValueError("a Hall step's deleted is a count or a list of moves")
    moves = []
    for pair in said:
        a, b = edge(pair)
        if side[a] != on:
            a, b = b, a
        if not level[a] < maxlev[b]:
            raise ValueError(f"{pair[0]}-{pair[1]} is not excluded by a tight set")
        moves.append((a, b))
    return moves



def closed_deletions(graph, steps):
    """The moves each step of a closed question's matching proof deletes, replayed in order: ``(step, pairs)``
    for every Hall, drop and subtour step, ``pairs`` as square numbers of ``graph`` (a knight graph, whose
    moves are the question's network), each deleted before the next step is read.

    The checker's replay (:func:`hall_exclusions` for a Hall step, so a bad level raises ``ValueError``)
    without its checks of forced moves and of the conclusion: for what reads the moves a checked proof
    deleted (the proof pictures' parts, the certificates' list form in the tests).
    """
    adj = {v: {int(w) for w in graph.neighbours(v)} for v in range(graph.n)}
    side = {v: int(graph.colour[v]) for v in range(graph.n)}
    board = graph.board

    def node(name):
        return board.index(*board.parse_square(name))

    def edge(pair):
        return node(pair[0]), node(pair[1])

    for step in steps:
        kind = step.get("step")
        if kind == "hall":
            pairs = hall_exclusions(step, adj, side, node, edge)
        elif kind == "drop":
            pairs = [edge(mv) for mv in step["deleted"]]
        elif kind == "subtour":
            pairs = [edge(step["move"])]
        else:
            continue
        for a, b in pairs:
            adj[a].discard(b)
            adj[b].discard(a)
        yield step, pairs


def _forced_cycle(a, b, forced_at) -> int | None:
    """Squares of the shortest cycle of forced moves through the move ``a - b``, or None when there is none.

    A breadth-first search from ``b`` to ``a`` over forced moves, leaving out
    the move ``a - b`` itself.
    """
    dist = {b: 1}
    queue = [b]
    for v in queue:
        for w in forced_at(v):
            if v == b and w == a:
                continue
            if w not in dist:
                dist[w] = dist[v] + 1
                if w == a:
                    return dist[w]
                queue.append(w)
    return None
