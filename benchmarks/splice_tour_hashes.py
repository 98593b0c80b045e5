"""What splice answers, as hashes: one line per question, to compare two versions of the code.

Runs ``solve_splice`` through its public entry on random holed boards of
several sizes and hole shares, every kind of question (closed, open, a
fixed start, a fixed end, both), and the three window solvers, and prints
for each the status, the sha1 of the tour array (int32 square numbers),
and the sha1 of the stats without their seconds.  Two versions of splice
that print the same lines give the same answers (the same tours, the same
repairs counted the same way).

The whole method joins the pieces of these boards by its first repair (the
reroutes), so ``--only`` runs splice with one repair alone (the others
switched off) on larger boards, to reach the later repairs too: rotations,
kicks, ruin and recreate, windows (CP-SAT and the colonies) and free
windows.  The switch works on the package's ``REPAIRS`` tuple and on the
modules of the layout before it (``_splice_*.py``), so both versions can
be compared.  A case whose window is ended by its time cap could depend on
the machine's speed.

Run:  python benchmarks/splice_tour_hashes.py [--only] [-o FILE]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys

import numpy as np

# (rows, cols, hole share, board seed, closed board)
BOARDS = [
    (24, 30, 0.03, 1, True),
    (40, 40, 0.02, 1, True),
    (61, 50, 0.05, 2, False),
    (120, 121, 0.05, 3, False),
    (200, 200, 0.08, 4, True),
    (300, 300, 0.05, 3, True),
    (257, 300, 0.10, 5, False),
    (600, 600, 0.05, 6, True),
]


def _specs(board, closed):
    from ktsolve import TourSpec

    squares = [tuple(int(v) for v in rc)
               for rc in board.coords_of(np.linspace(0, board.n_squares - 1, 25).astype(int))]
    even, odd = board.colour_counts()
    if closed:
        s = squares[7]
        t = next(((s[0] + dr, s[1] + dc) for dr, dc in ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1))
                  if board.contains(s[0] + dr, s[1] + dc) and not board.is_hole(s[0] + dr, s[1] + dc)), None)
        out = [TourSpec(closed=True), TourSpec(closed=True, start=s), TourSpec(closed=True, end=s)]
        if t is not None:
            out.append(TourSpec(closed=True, start=s, end=t))
        out.append(TourSpec(closed=False))
        return out
    want = None if even == odd else (0 if even > odd else 1)
    ok = [sq for sq in squares if want is None or (sq[0] + sq[1]) % 2 == want]
    s = ok[1]
    t = next(sq for sq in reversed(ok) if want is not None or (sq[0] + sq[1]) % 2 != (s[0] + s[1]) % 2)
    return [TourSpec(closed=False), TourSpec(closed=False, start=s), TourSpec(closed=False, end=s),
            TourSpec(closed=False, start=s, end=t)]


#: Boards for the repairs alone: (rows, cols, hole share, board seed).
ONLY_BOARDS = [(300, 300, 0.05, 3), (400, 400, 0.08, 1), (500, 420, 0.05, 2)]
#: The repairs, each run alone.
STAGES = ("reroute", "rotate", "kick", "ruin", "windows", "free")


def _only(stage: str):
    """Switch off every repair but ``stage``; returns a function that switches them back on."""
    try:
        from ktsolve.heuristics.splice import repairs
    except ImportError:
        repairs = None
    if repairs is not None and hasattr(repairs, "REPAIRS"):
        names = dict(zip(STAGES, ("rerouting", "rotating", "kicking", "ruin and recreate", "windows", "free windows")))
        saved = repairs.REPAIRS
        repairs.REPAIRS = tuple(st for st in saved if st.name == names[stage])
        if stage != "kick":
            return lambda: setattr(repairs, "REPAIRS", saved)
        # the kicks' own rotations are switched off too, as the switch of the layout before did
        from ktsolve.heuristics.splice import rotate

        rotations = rotate.repair_rotate
        rotate.repair_rotate = lambda job, state, turn, **kw: (state, {"rotate_joined": 0, "rotations": 0})
        return lambda: (setattr(repairs, "REPAIRS", saved), setattr(rotate, "repair_rotate", rotations))
    import dataclasses

    from ktsolve.heuristics import _splice_free_window, _splice_reroute, _splice_rotate, splice

    keys = {"reroute": ("reroute_rounds", "reroute_undone"), "rotate": ("rotate_joined",), "kick": ("kicks",),
            "ruin": ("repair_rounds", "repair_undone"), "windows": ("windows", "windows_tried"),
            "free": ("free_windows",)}
    where = {"reroute": (_splice_reroute, "repair_reroute"), "rotate": (_splice_rotate, "repair_rotate"),
             "kick": (_splice_rotate, "repair_kick"), "ruin": (splice, "repair_leftovers"),
             "windows": (splice, "repair_windows"), "free": (_splice_free_window, "repair_free")}
    undo = []
    for name, (module, attr) in where.items():
        if name == stage:
            continue

        def same(links, alive, rows, cols, state, _keys=keys[name], **kw):
            return dataclasses.replace(state, stats={**state.stats, **{k: 0 for k in _keys}})

        undo.append((module, attr, getattr(module, attr)))
        setattr(module, attr, same)
    return lambda: [setattr(m, a, f) for m, a, f in undo]


def _stats_digest(stats: dict, ignore=()) -> str:
    """sha1 of the stats without their seconds, the counts that are 0 and the keys in ``ignore``."""
    def clean(v):
        if isinstance(v, dict):
            return {k: clean(x) for k, x in v.items() if k != "seconds" and k not in ignore and x != 0}
        return v

    return hashlib.sha1(json.dumps(clean(stats), sort_keys=True, default=str).encode()).hexdigest()[:12]


def _line(board: str, question: str, method: str, res, ignore) -> str:
    tour = "-" if res.tour is None else hashlib.sha1(
        np.ascontiguousarray(res.tour.squares, dtype=np.int32).tobytes()).hexdigest()[:16]
    used = ",".join(k for k in ("reroute_rounds", "rotate_joined", "kicks", "repair_rounds", "windows",
                                "free_windows", "first_attempt") if res.stats.get(k))
    return (f"{board} | {question} | {method} | {res.status.value} | {tour} | {_stats_digest(res.stats, ignore)} | "
            f"{used or '-'}")


def main(argv=None) -> int:
    from ktsolve import KnightGraph, TourSpec
    from ktsolve.generate import random_holed_board
    from ktsolve.heuristics.splice import solve_splice

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", help="write the lines to this file too")
    ap.add_argument("--only", action="store_true", help="each repair alone, on the larger boards")
    ap.add_argument("--ignore", nargs="*", default=[], help="stats keys left out of the stats digest")
    ap.add_argument("--stages", nargs="*", default=list(STAGES), help="with --only: these repairs")
    args = ap.parse_args(argv)
    lines = []
    if args.only:
        for rows, cols, share, bseed in ONLY_BOARDS:
            board = random_holed_board(rows, cols, share, closed=True, seed=bseed)
            for stage in args.stages:
                restore = _only(stage)
                try:
                    for method in ("cpsat", "aco", "iaco") if stage == "windows" else ("cpsat",):
                        res = solve_splice(KnightGraph(board), TourSpec(closed=True), window_method=method, seed=11)
                        line = _line(f"{rows}x{cols} {share:.2f} s{bseed}", f"closed only={stage}", method, res,
                                     args.ignore)
                        print(line, flush=True)
                        lines.append(line)
                finally:
                    restore()
    for rows, cols, share, bseed, closed in ([] if args.only else BOARDS):
        board = random_holed_board(rows, cols, share, closed=closed, seed=bseed)
        graph = KnightGraph(board)
        for spec in _specs(board, closed):
            methods = ["cpsat"] + (["aco", "iaco"] if rows * cols <= 90_000 and spec.start is None else [])
            for method in methods:
                res = solve_splice(graph, spec, window_method=method, seed=11)
                q = ("closed" if spec.closed else "open") + (f" s={spec.start}" if spec.start else "") + (
                    f" e={spec.end}" if spec.end else "")
                line = _line(f"{rows}x{cols} {share:.2f} s{bseed}", q, method, res, args.ignore)
                print(line, flush=True)
                lines.append(line)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
