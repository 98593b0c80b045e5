"""A repair of splice: re-solve a small window exactly, keeping the moves that cross its edge.

A piece that no exchange joins is left inside a window ``W`` (its bounding
box, grown by a margin).  The links of the larger pieces that pass through
``W`` enter and leave it through *crossing* links (or an :data:`END` link of
an open path): inside ``W`` each of them is a path from one square ``p_i``
with a crossing link to another ``q_i``.  The window is re-solved so that
new paths inside ``W`` join the same pairs ``p_i - q_i`` and together cover
every square of ``W``: outside ``W`` nothing changes, every piece that
crossed ``W`` keeps its shape seen from outside, and the pieces that lay
wholly inside ``W`` are absorbed into those paths.  So the number of pieces
drops by the number of pieces inside, and no global order of the big cycle
is needed.

The exact model is CP-SAT's circuit constraint (Perron & Didier, OR-Tools)
over the squares of ``W``: the arcs are the knight's moves inside ``W`` and
one fixed arc ``q_i -> p_{i+1}`` per pair, which makes the circuit run
``p_1 ... q_1 p_2 ... q_2 ...``; a path number per square, equal along every
arc used inside ``W`` and fixed to ``i`` at ``p_i`` and ``q_i``, makes each
path end where it began.  A square whose two links both cross the edge stays
as it is and is left out of ``W``.

The same window can go to an ant colony instead (``method="aco"`` or
``"iaco"``, :mod:`ktsolve.heuristics.splice.colony_window`): the paths and
the relinking here are shared, only the solver differs.

Each window gets its own clock, a part of the call's
(:meth:`ktsolve.driver.Deadline.part`: a quarter of the time left, at most
:data:`WINDOW_TIME`), which carries the race's cancel flag.
"""

from __future__ import annotations

from ..._grid_kernels import END, MOVES, NONE
from ...driver import Deadline, Stopped, call_guarded
from ...seeds import derive_seed
from .colony_window import colony_edges, window_seed
from .pieces import Job, Pieces, piece_boxes

__all__ = ["repair_windows", "repair_window", "window_paths", "relink", "linked_squares", "move_index",
           "window_clock", "solver_seconds", "solve_window", "WINDOW_TIME", "WINDOW_MARGINS", "WINDOW_MAX_CELLS",
           "COUNTS"]

#: Seconds one window may take (CP-SAT's or a colony's; the free windows' too).
WINDOW_TIME = 2.0
#: The share of the call's time left that one window may take (at most :data:`WINDOW_TIME`).
WINDOW_SHARE = 0.25
#: Margins (squares) of the windows re-solved exactly around a piece left, tried in turn.
WINDOW_MARGINS = (2, 3, 4)
#: Largest window (cells) re-solved exactly; larger pieces are left to ruin and recreate.
WINDOW_MAX_CELLS = 900
#: The counts this repair reports.
COUNTS = ("windows", "windows_tried")
#: What the deadline's reason names while the windows are re-solved.
WINDOW_PHASE = "re-solving windows around the pieces left"


def window_clock(deadline: Deadline) -> Deadline:
    """The clock of one window: :data:`WINDOW_SHARE` of the time left, at most :data:`WINDOW_TIME` seconds."""
    return deadline.part(WINDOW_SHARE, WINDOW_TIME)


def solver_seconds(clock: Deadline) -> float:
    """The seconds a solver may run on a window whose clock is ``clock`` (at least 0.01)."""
    left = clock.remaining()
    return WINDOW_TIME if left is None else max(left, 0.01)


def solve_window(model, clock: Deadline, phase: str):
    """CP-SAT on a window's ``model`` (one worker, :func:`solver_seconds`): ``(solver, status)``.

    The solve runs through :func:`ktsolve.driver.call_guarded`, so Ctrl-C
    (and a race settled by another step, through ``clock``'s cancel flag)
    stops it at once rather than after its seconds; Ctrl-C then raises
    :class:`~ktsolve.driver.Stopped` naming ``phase``.
    """
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = solver_seconds(clock)
    solver.parameters.catch_sigint_signal = False  # Ctrl-C is ktsolve's (call_guarded stops the search)
    status, interrupted = call_guarded(lambda: solver.solve(model), on_interrupt=solver.stop_search,
                                       cancel=clock.cancel)
    if interrupted:
        raise Stopped("interrupted", phase)
    return solver, status


def linked_squares(links, f: int, cols: int) -> list[int]:
    """The squares linked to cell ``f`` (moves only), and -1 for an END link."""
    out = []
    r, c = divmod(f, cols)
    for j in links[f].tolist():
        if 0 <= j < 8:
            out.append((r + MOVES[j][0]) * cols + c + MOVES[j][1])
        elif j == END:
            out.append(-1)
    return out


def move_index(f: int, g: int, cols: int) -> int:
    """The move (index into ``KNIGHT_MOVES``) from cell ``f`` to cell ``g``, a knight's move away."""
    (r, c), (r2, c2) = divmod(f, cols), divmod(g, cols)
    return MOVES.index((r2 - r, c2 - c))


def window_paths(links, alive, rows: int, cols: int, r0: int, r1: int, c0: int, c1: int):
    """The window's squares and the paths through it: ``(nodes, node_set, nbrs, pairs)``, or None.

    ``nodes`` are the window's squares that do not keep both links (a
    square whose two links cross the edge stays as it is), ``nbrs`` the
    squares linked to every square of the window, ``pairs`` the ends
    ``(p_i, q_i)`` of the paths of the larger pieces inside the window.
    None when the window holds no such path or is not a 2-factor.
    """
    r0, r1, c0, c1 = max(0, r0), min(rows, r1), max(0, c0), min(cols, c1)
    box = [r * cols + c for r in range(r0, r1) for c in range(c0, c1) if alive[r * cols + c]]
    inside = set(box)
    nbrs = {f: linked_squares(links, f, cols) for f in box}
    crossing = {f: sum(1 for g in nbrs[f] if g not in inside) for f in box}
    nodes = [f for f in box if crossing[f] < 2]  # both links crossing: the square stays as it is
    node_set = set(nodes)
    # the paths of the larger pieces through the window: from one crossing square to another
    pairs, seen = [], set()
    for p in nodes:
        if crossing[p] != 1 or p in seen:
            continue
        prev, cur = -2, p
        seen.add(p)
        while True:
            nxt = [g for g in nbrs[cur] if g in node_set and g != prev]
            if cur != p and crossing[cur] == 1:
                break
            if not nxt:
                return None  # not a 2-factor here: leave it
            prev, cur = cur, nxt[0]
            seen.add(cur)
        pairs.append((p, cur))
    if not pairs:
        return None
    return nodes, node_set, nbrs, pairs


def relink(links, nodes, node_set, nbrs, edges, cols: int) -> None:
    """Replace the links between the window's squares by ``edges`` (pairs of cells); crossing links stay."""
    for f in nodes:
        for g in nbrs[f]:
            if g in node_set and f < g:
                j = move_index(f, g, cols)
                links[f, 0 if links[f, 0] == j else 1] = NONE
                links[g, 0 if links[g, 0] == (j ^ 4) else 1] = NONE
    for f, g in edges:
        j = move_index(f, g, cols)
        links[f, 0 if links[f, 0] == NONE else 1] = j
        links[g, 0 if links[g, 0] == NONE else 1] = j ^ 4


def repair_window(links, alive, rows: int, cols: int, r0: int, r1: int, c0: int, c1: int,
                  *, clock: Deadline, method: str = "cpsat", seed: int | None = None) -> bool:
    """Re-solve the window rows ``r0 .. r1 - 1``, columns ``c0 .. c1 - 1`` (see the module docstring).

    ``links`` (int8 ``(cells, 2)``) is changed only when a solution is
    found; returns whether it was.  The window's squares must all have two
    links (a 2-factor, with its END links).  ``clock`` is the window's own
    (:func:`window_clock`).  ``method`` is ``"cpsat"`` (the exact model
    above) or an ant colony of
    :mod:`ktsolve.heuristics.splice.colony_window`, which draws from
    ``seed``.
    """
    found = window_paths(links, alive, rows, cols, r0, r1, c0, c1)
    if found is None:
        return False
    nodes, node_set, nbrs, pairs = found
    if method != "cpsat":
        edges = colony_edges(nodes, node_set, pairs, rows, cols, method=method, clock=clock, seed=seed)
    else:
        edges = _cpsat_edges(nodes, node_set, pairs, rows, cols, clock)
    if edges is None:
        return False
    relink(links, nodes, node_set, nbrs, edges, cols)
    return True


def repair_windows(job: Job, state: Pieces, turn: int, *, margins=WINDOW_MARGINS,
                   max_cells: int = WINDOW_MAX_CELLS) -> tuple[Pieces, dict]:
    """Every piece but the largest re-solved exactly in a window around it (:func:`repair_window`), then the
    pieces counted and merged again.

    Windows of more than ``max_cells`` cells are left to ruin and recreate.  ``job.method`` solves each
    window; window ``k`` of a colony draws from a seed derived from the turn's (itself derived from
    ``job.seed`` and ``turn``).  Returns the new :class:`~.pieces.Pieces` and the counts ``windows``
    (windows solved) and ``windows_tried``.
    """
    links, alive, rows, cols, deadline = job.links, job.alive, job.rows, job.cols, job.deadline
    seed = None if job.seed is None else derive_seed(job.seed, "splice repair turn", turn)
    solved = tried = 0
    for top, bottom, left, right in piece_boxes(state, cols, deadline):
        for grow in margins:
            if (bottom - top + 1 + 2 * grow) * (right - left + 1 + 2 * grow) > max_cells:
                break
            deadline.check(WINDOW_PHASE)
            tried += 1
            if repair_window(links, alive, rows, cols, top - grow, bottom + grow + 1, left - grow, right + grow + 1,
                             clock=window_clock(deadline), method=job.method, seed=window_seed(seed, tried)):
                solved += 1
                break
    if solved:
        state = job.merge()
    return state, {"windows": solved, "windows_tried": tried}


def _cpsat_edges(nodes, node_set, pairs, rows: int, cols: int, clock: Deadline):
    """The window's new links by CP-SAT's circuit with path numbers (:func:`solve_window`), or None."""
    from ortools.sat.python import cp_model

    index = {f: i for i, f in enumerate(nodes)}
    model = cp_model.CpModel()
    arcs, interior = [], {}
    forced = {(pairs[i][1], pairs[(i + 1) % len(pairs)][0]) for i in range(len(pairs))}
    for f in nodes:
        r, c = divmod(f, cols)
        for dr, dc in MOVES:
            r2, c2 = r + dr, c + dc
            g = r2 * cols + c2
            if 0 <= r2 < rows and 0 <= c2 < cols and g in node_set and (f, g) not in forced:
                lit = model.new_bool_var(f"a{f}_{g}")
                interior[(f, g)] = lit
                arcs.append((index[f], index[g], lit))
    for q, p in forced:
        lit = model.new_bool_var(f"x{q}_{p}")
        model.add(lit == 1)
        arcs.append((index[q], index[p], lit))
    model.add_circuit(arcs)
    label = {f: model.new_int_var(0, len(pairs) - 1, f"l{f}") for f in nodes}
    for i, (p, q) in enumerate(pairs):
        model.add(label[p] == i)
        model.add(label[q] == i)
    for (f, g), lit in interior.items():
        model.add(label[f] == label[g]).only_enforce_if(lit)
    solver, status = solve_window(model, clock, WINDOW_PHASE)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    return [fg for fg, lit in interior.items() if solver.value(lit)]
