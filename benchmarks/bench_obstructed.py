"""Huge holed boards with one local obstruction: the proof, whole processes, at up to 10^8 cells.

A random colour-balanced board (``ktsolve board random NxN --holes 0.01
--closed --seed 1``) is given one obstruction near a corner or the centre,
after the holes around the spot are cleared, and the colours are balanced
again by turning holes far away (the last rows) back into squares, which
never takes a move from a square:

* ``corner``: the corner square keeps one move (the degree argument);
* ``cut square``: five corner squares hang on one square (the cut-square
  argument of the local cut search);
* ``shared pair``: two squares whose only moves go to the same two squares,
  and a third square with a move to one of them and one other move; no
  square has fewer than two moves and no square cuts the board; the
  2-factor argument refutes it (three squares needing six moves where five
  are available), and so does degree-2 forcing (the third square is left
  with one move);
* ``moat``: a 10 x 10 block walled off by holes two thick but for two
  squares of colour 1, with three squares of colour 1 taken out inside it:
  its 50 squares of colour 0 have 49 neighbours, so no 2-factor exists,
  while no square has fewer than two moves, none is cut and forcing stops
  at the block's corners (the 2-factor argument alone).

Each mask runs through ``ktsolve prove MASK --closed --time-limit T`` and
``ktsolve solve MASK --closed --time-limit T`` as whole processes under
``/usr/bin/time -v`` (wall time and peak resident memory), once each.

Run:  python benchmarks/bench_obstructed.py [--size 10000] [--time-limit 900] [--out obstructed]
Writes benchmarks/results/obstructed.md (NAME.md).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _machine import fmt_s, machine_lines, markdown_table, timed_process, write_result  # noqa: E402

#: Holes that leave five squares of the top-left corner joined to the board through one square
#: (tests/proofs/test_local_proofs.py's CUT_CORNER; the colours stay equal).
CUT_CORNER = [(0, 0), (0, 5), (1, 4), (2, 0), (2, 3), (2, 5), (3, 1), (3, 2), (3, 3), (3, 4), (4, 0), (4, 2)]
MOVES = [(-2, 1), (-1, 2), (1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1)]


def _moves(r: int, c: int, n: int) -> list[tuple[int, int]]:
    return [(r + dr, c + dc) for dr, dc in MOVES if 0 <= r + dr < n and 0 <= c + dc < n]


def _balance(mask) -> None:
    """Equal colours again by turning holes of the short colour in the last rows back into squares."""
    import numpy as np

    n = mask.shape[0]
    colour = (np.add.outer(np.arange(n), np.arange(n)) & 1).astype(bool)
    squares = [int((~mask & (colour == k)).sum()) for k in (0, 1)]
    short = 0 if squares[0] < squares[1] else 1
    need = abs(squares[0] - squares[1])
    rows, cols = np.nonzero(mask[n - 20:, :] & ((colour[n - 20:, :]) == short))
    if rows.size < need:
        raise RuntimeError("not enough holes in the last rows to balance the colours")
    mask[rows[:need] + n - 20, cols[:need]] = False


def obstructed(base, kind: str):
    """A copy of the mask ``base`` with the obstruction ``kind``."""
    n = base.shape[0]
    mask = base.copy()
    if kind == "corner":
        mask[:8, :8] = False
        mask[1, 2] = True  # a1's square (0, 0) keeps only (2, 1)
    elif kind == "cut square":
        mask[:8, :8] = False
        for rc in CUT_CORNER:
            mask[rc] = True
    elif kind == "shared pair":
        r0 = c0 = n // 2
        mask[r0 - 6:r0 + 8, c0 - 6:c0 + 8] = False
        x1, x2, a, b = (r0, c0), (r0 + 2, c0), (r0 + 1, c0 + 2), (r0 + 1, c0 - 2)
        holes = {y for x in (x1, x2) for y in _moves(*x, n) if y not in (a, b)}
        x3 = (r0 - 1, c0 + 3)
        other = next(y for y in _moves(*x3, n) if y != a and y not in holes)
        holes |= {y for y in _moves(*x3, n) if y not in (a, other)}
        for h in holes:
            mask[h] = True
    elif kind == "moat":
        lo = n // 2
        hi = lo + 10
        mask[lo - 8:hi + 8, lo - 8:hi + 8] = False
        mask[lo - 2:hi + 2, lo - 2:hi + 2] = True
        mask[lo:hi, lo:hi] = False
        mid = lo + 5
        for r in (lo - 1, hi):
            mask[r, mid if (r + mid) % 2 == 1 else mid + 1] = False  # the two bridges, of colour 1
        inside = [(r, c) for r in range(lo + 2, hi - 2) for c in range(lo + 2, hi - 2) if (r + c) % 2 == 1]
        for rc in inside[::len(inside) // 3][:3]:
            mask[rc] = True
    else:
        raise ValueError(kind)
    _balance(mask)
    return mask


def _timed(cmd: list[str], log: Path) -> dict:
    got = timed_process(cmd, log)
    return {**got, "said": " / ".join(line.strip() for line in got["out"][:2])[:160]}


def main() -> None:
    import numpy as np

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=10_000)
    ap.add_argument("--time-limit", type=float, default=900.0)
    ap.add_argument("--kinds", default="corner,cut square,shared pair,moat")
    ap.add_argument("--out", default="obstructed")
    args = ap.parse_args()
    exe = Path(sys.executable).with_name("ktsolve")
    run = [str(exe)] if exe.exists() else [sys.executable, "-m", "ktsolve.cli"]
    n = args.size
    rows = []
    lines = ["# Huge holed boards with one local obstruction", "", *machine_lines(), ""]
    with tempfile.TemporaryDirectory(prefix="bench_obstructed_") as tmp:
        d = Path(tmp)
        base = d / "base.npy"
        got = _timed([*run, "board", "random", f"{n}x{n}", "--holes", "0.01", "--closed", "--seed", "1",
                      "-o", str(base)], d / "time.txt")
        rows.append(["none", "board random", fmt_s(got["wall"]), f"{got['peak_mb']:.0f} MB", got["exit"],
                     got["said"]])
        print(rows[-1], file=sys.stderr, flush=True)
        mask0 = np.load(base)
        for kind in args.kinds.split(","):
            path = d / "mask.npy"
            np.save(path, obstructed(mask0, kind))
            for command in ("prove", "solve"):
                cmd = [*run, command, str(path), "--closed", "--time-limit", f"{args.time_limit:g}"]
                got = _timed(cmd, d / "time.txt")
                rows.append([kind, command, fmt_s(got["wall"]), f"{got['peak_mb']:.0f} MB", got["exit"],
                             got["said"].replace(tmp + "/", "")])
                print(rows[-1], file=sys.stderr, flush=True)
    lines += [f"{n}x{n}, 1 % random holes (`ktsolve board random {n}x{n} --holes 0.01 --closed --seed 1`), "
              "one obstruction each (see the script's docstring); whole processes, once each, "
              f"`ktsolve prove|solve mask.npy --closed --time-limit {args.time_limit:g}`.", ""]
    lines.append(markdown_table(["obstruction", "command", "wall", "peak memory", "exit", "said"], rows))
    cmd = "python benchmarks/bench_obstructed.py" + (f" --size {n}" if n != 10_000 else "") + \
        (f" --time-limit {args.time_limit:g}" if args.time_limit != 900 else "") + \
        (f" --out {args.out}" if args.out != "obstructed" else "")
    lines += ["", f"Command: `{cmd}`", ""]
    print(write_result(args.out, "\n".join(lines)))


if __name__ == "__main__":
    main()
