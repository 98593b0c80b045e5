"""Why splice's first attempt leaves one piece on 10000 x 10000 with 5 % holes, seed 1: exact tests around it.

Splice's steps are run to where the repairs gave up before their queues
could grow (divide's tour laid, the holes cut, the 2-factor restored, the
exchanges, one turn of reroutes and rotations, with
``reroute.GROW_MAX_PIECES`` set to 0); the piece left besides the largest
cycle is then examined with CP-SAT in windows around it:

* *exchanges*: four-square exchanges between the piece and the rest (a link
  ``a - b`` of the piece, ``c - d`` of the rest, ``a - c`` and ``b - d``
  moves), counted one by one;
* *one circuit, crossings kept*: the free window of splice's last repair
  (:mod:`ktsolve.heuristics.splice.free_window`), the links leaving the
  window kept and the stretches outside as joins;
* *2-factor avoiding the piece, crossings kept*: any two moves a square
  inside the window, the links leaving it kept, not every link of the piece;
* *2-factor avoiding the piece, outside free*: the same, with the squares
  outside the window free to give up their links;
* *control*: windows of 12 x 12 elsewhere, with one, two or three circuits
  asked for (the giant's stretches as joins).

and the rerouting search from it (its first link cut, the alternating path
back) is run with the first queue and with the largest.

Run:  python benchmarks/probe_frozen_piece.py [--state FILE.npz] [--out NAME]
``--state``: the links after the repairs (written by the first run, read by the next: the steps take about
3 minutes and 4 GB).  Writes benchmarks/results/frozen_piece.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from _machine import RESULTS, machine_lines  # noqa: E402

ROWS = COLS = 10000
SOLVER_SECONDS = 60.0


def stuck_state(path: Path | None):
    """The links, squares and labels after splice's steps and one turn of reroutes and rotations."""
    from ktsolve.driver import Deadline
    from ktsolve.generate import random_holed_board
    from ktsolve.heuristics.splice.build import lay_tour, restore
    from ktsolve.heuristics.splice.pieces import Job, merge_pieces, outside
    from ktsolve.heuristics.splice import reroute
    from ktsolve.heuristics.splice.repairs import REPAIRS, repair_pieces
    from ktsolve.tour import TourSpec

    reroute.GROW_MAX_PIECES = 0  # the queues as they were before they could grow: the piece is left

    if path is not None and path.exists():
        data = np.load(path)
        return data["links"], data["alive"], data["piece"], f"read from {path} ({data['how']})"
    t0 = time.perf_counter()
    board = random_holed_board(ROWS, COLS, 0.05, closed=True, seed=1)
    spec, clock = TourSpec(closed=True), Deadline(None)
    start = restore(board, spec, lay_tour(board, spec, clock), clock)
    links, alive = start.links, start.alive
    state = merge_pieces(links, alive, ROWS, COLS, deadline=clock)
    merged = state.pieces
    state, _ = repair_pieces(Job(links, alive, ROWS, COLS, clock, "cpsat", 1, {}), state, turns=1,
                             stages=REPAIRS[:2])
    piece, _ = outside(state, clock)
    how = (f"made: {merged} pieces after the exchanges, {state.pieces} after the reroutes and rotations, "
           f"{time.perf_counter() - t0:.0f} s")
    if path is not None:
        np.savez(path, links=links, alive=alive, piece=piece, how=np.array(how))
    return links, alive, piece, how


def neighbours(alive, f: int):
    from ktsolve._grid_kernels import MOVES

    r, c = divmod(f, COLS)
    for dr, dc in MOVES:
        r2, c2 = r + dr, c + dc
        if 0 <= r2 < ROWS and 0 <= c2 < COLS and alive[r2 * COLS + c2]:
            yield r2 * COLS + c2


def linked(links, f: int) -> list[int]:
    from ktsolve.heuristics.splice.window import linked_squares

    return linked_squares(links, f, COLS)


def exchanges(links, alive, piece) -> int:
    inside = set(int(f) for f in piece)
    count = 0
    for a in inside:
        for b in linked(links, a):
            near_b = set(neighbours(alive, b))
            for c in neighbours(alive, a):
                if c not in inside:
                    count += sum(1 for d in linked(links, c) if d not in inside and d in near_b)
    return count


def box(piece, up: int, down: int, left: int, right: int):
    rs, cs = piece // COLS, piece % COLS
    return int(rs.min()) - up, int(rs.max()) + down + 1, int(cs.min()) - left, int(cs.max()) + right + 1


def circuits_model(links, alive, window, circuits: int):
    """CP-SAT: the window's squares on ``circuits`` circuits, the first through every join."""
    from ortools.sat.python import cp_model

    from ktsolve.heuristics.splice.free_window import window_joins

    squares, partner = window_joins(links, alive, ROWS, COLS, *window)
    at = {f: i for i, f in enumerate(squares)}
    model = cp_model.CpModel()
    pairs = [(f, g) for f in squares for g in neighbours(alive, f) if g in at and f < g and partner.get(f) != g]
    off = [[model.new_bool_var("") for _ in squares] for _ in range(circuits)]
    for i in range(len(squares)):
        model.add_exactly_one([off[k][i].Not() for k in range(circuits)])
    used = {}
    for k in range(circuits):
        arcs = [(i, i, off[k][i]) for i in range(len(squares))]
        for f, g in pairs:
            there, back = model.new_bool_var(""), model.new_bool_var("")
            used.setdefault((f, g), []).extend([there, back])
            arcs += [(at[f], at[g], there), (at[g], at[f], back)]
        if k == 0:
            for q, p in partner.items():
                if q < p:
                    there, back = model.new_bool_var(""), model.new_bool_var("")
                    model.add_exactly_one(there, back)
                    arcs += [(at[q], at[p], there), (at[p], at[q], back)]
                    model.add(off[0][at[q]] == 0)
        else:
            model.add(sum(off[k][i].Not() for i in range(len(squares))) >= 4)
        model.add_circuit(arcs)
    for lits in used.values():
        model.add_at_most_one(lits)
    return model, len(squares)


def avoiding_model(links, alive, piece, window, crossings: bool):
    """CP-SAT: two moves at every square of the window, not every link of the piece; with ``crossings``
    the links leaving the window kept, else the squares outside free to give theirs up."""
    from ortools.sat.python import cp_model

    r0, r1, c0, c1 = window
    inside = lambda f: r0 <= f // COLS < r1 and c0 <= f % COLS < c1  # noqa: E731
    model, edge, ends = cp_model.CpModel(), {}, {}
    for r in range(r0, r1):
        for c in range(c0, c1):
            f = r * COLS + c
            if not alive[f]:
                continue
            for g in neighbours(alive, f):
                if crossings and not inside(g):
                    continue
                e = (min(f, g), max(f, g))
                if e not in edge:
                    edge[e] = model.new_bool_var("")
                    for x in e:
                        ends.setdefault(x, []).append(edge[e])
    for f, lits in ends.items():
        if inside(f):
            kept = sum(1 for g in linked(links, f) if not inside(g)) if crossings else 0
            model.add(sum(lits) == 2 - kept)
        else:
            model.add(sum(lits) <= 2)
    own = {(min(f, g), max(f, g)) for f in piece.tolist() for g in linked(links, f)}
    model.add(sum(edge[e] for e in own) <= len(own) - 1)
    return model, len(ends)


def solve(model) -> str:
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = SOLVER_SECONDS
    solver.parameters.num_workers = 1
    status = solver.solve(model)
    return f"{solver.status_name(status).lower()} in {solver.wall_time:.2f} s"


def search_back(links, alive, piece, queue: int) -> str:
    """The rerouting search from the piece's first square, its first link cut, with a queue of ``queue``."""
    from ktsolve._grid_kernels import NONE
    from ktsolve.factor._restore_kernels import augment_from

    links = links.copy()
    f = int(piece[0])
    j = int(links[f, 0])
    g = linked(links, f)[0]
    links[f, 0] = NONE
    links[g, 0 if links[g, 0] == (j ^ 4) else 1] = NONE
    stamp = np.zeros(ROWS * COLS, dtype=np.int32)
    qv, qx, qp = (np.empty(queue, dtype=np.int64) for _ in range(3))
    t0 = time.perf_counter()
    h = int(augment_from(f, links, alive, ROWS, COLS, stamp, 1, qv, qx, qp, g))
    took = time.perf_counter() - t0
    if not h:
        return f"queue of {queue:,}: no path, {int((stamp == 1).sum()):,} squares seen, {took:.2f} s"
    return f"queue of {queue:,}: found at queue position {h - 1:,}, {int((stamp == 1).sum()):,} squares seen, {took:.2f} s"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--state", type=Path, default=None)
    ap.add_argument("--out", default="frozen_piece")
    args = ap.parse_args(argv)
    lines = ["# A piece splice's repairs do not join: exact tests in windows around it", "", *machine_lines(), ""]
    links, alive, piece, how = stuck_state(args.state)
    names = ", ".join(f"({f // COLS},{f % COLS})" for f in piece.tolist())
    lines += [f"Board: `random_holed_board(10000, 10000, 0.05, closed=True, seed=1)`; state {how}.",
              f"The piece: {len(piece)} squares, {names}.", "",
              f"Four-square exchanges between the piece and the rest: {exchanges(links, alive, piece)}.", "",
              "| test | window (margins up, down, left, right) | squares | CP-SAT |", "|---|---|---|---|"]

    def row(test, margins, built):
        model, n = built
        lines.append(f"| {test} | {margins} | {n} | {solve(model)} |")
        print(lines[-1], flush=True)

    for m in (2, 4, 6, 10, 16):
        row("one circuit, crossings kept", (m,) * 4, circuits_model(links, alive, box(piece, *(m,) * 4), 1))
    for margins in ((3, 3, 30, 30), (30, 30, 3, 3), (2, 2, 60, 2), (2, 2, 2, 60), (20, 2, 2, 2), (2, 20, 2, 2)):
        row("one circuit, crossings kept", margins, circuits_model(links, alive, box(piece, *margins), 1))
    for m in (6, 12, 20):
        row("2-factor avoiding the piece, crossings kept", (m,) * 4,
            avoiding_model(links, alive, piece, box(piece, *(m,) * 4), True))
    for m in (2, 4, 8, 16):
        row("2-factor avoiding the piece, outside free", (m,) * 4,
            avoiding_model(links, alive, piece, box(piece, *(m,) * 4), False))
    for r, c in ((3000, 3000), (7000, 2000), (5200, 9003)):
        for k in (1, 2, 3):
            row(f"control at ({r},{c}): {k} circuit(s)", "12 x 12", circuits_model(links, alive, (r, r + 12, c, c + 12), k))
    lines += ["", "The rerouting search (`augment_from`, the piece's first link cut, the path back avoiding it):"]
    for queue in (1 << 20, 1 << 23):
        lines.append(f"- {search_back(links, alive, piece, queue)}")
        print(lines[-1], flush=True)
    lines += ["", f"Each CP-SAT call: one worker, at most {SOLVER_SECONDS:.0f} s.", "",
              f"Command: `python benchmarks/probe_frozen_piece.py --state /tmp/frozen.npz --out {args.out}`"]
    (RESULTS / f"{args.out}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
