"""Real boards (issue 28): pictures, mazes, rings, cheese and planted obstructions, solved and proved whole.

The families, each made at about 10^5, 10^6 and 10^7 squares (the size is
aimed at; the table gives the squares each board has):

* ``picture``: scikit-image's sample pictures (camera, text, page, coins;
  in its wheel, no network), Otsu's threshold, the light region (the dark
  one of coins: the background, the coins its holes), scaled by the whole
  factor that comes nearest the size, and the same in 8 x 8 blocks
  (``ktsolve board image P --blocks 8 --scale S``);
* ``maze``: corridors 6 wide, walls 2 (seeds 1, 2, 3);
* ``rings``: rings 6 and 10 wide, 2 apart;
* ``cheese``: disks of radii 5-40 covering 20 % (seeds 1, 2, 3);
* ``planted``: a full square board with a corner pocket joined through one
  square, or with two squares sharing their only two moves.

Every board is cleaned for the question asked (``--closed``, or open),
written as a ``.npy`` mask, and run as whole processes under ``/usr/bin/time
-v`` (wall time, peak resident memory):

1. ``ktsolve solve MASK [--closed] --time-limit T --seed 1``;
2. ``ktsolve prove MASK [--closed] --time-limit T --seed 1``;

with ``--format json`` up to 10^6 squares, whose ``stats`` give the steps
(``stats["steps"]``) and the step that settled the question
(``stats["settled_by"]``).  Above that (JSON is limited to 10^6 squares)
the command writes ``--format npy`` and the steps come from a second
process that asks the same question through the Python API
(``bench_real.py --worker``).  Then the settling step runs alone in a fresh
process (``bench_real.py --alone STEP``): a method through
``solve(board, method=STEP, presolve_proofs=False)``, a proof through
``portfolio.run_proof`` on a fresh graph, its first-run compile left out.

Run:  python benchmarks/bench_real.py [--sizes 1e5,1e6,1e7] [--families picture,maze,rings,cheese,planted]
                                      [--questions closed,open] [--seeds 1,2,3] [--time-limit 60,60,120]
                                      [--no-api] [--no-alone] [--out real]
Writes benchmarks/results/NAME.md and NAME.jsonl (every record, with the steps).
Small run that shows it works: python benchmarks/bench_real.py --sizes 2e4 --time-limit 20 --out real_small
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _machine import machine_lines, markdown_table, write_result  # noqa: E402

#: The sample pictures and the side of Otsu's threshold taken: the light region, but the dark one of coins (the
#: background with the coins as round holes; its light side falls apart into the coins and a band of sky).
PICTURES = (("camera", False), ("text", False), ("page", False), ("coins", True))
SEEDS = (1, 2, 3)
#: Largest board whose answer ``ktsolve solve --format json`` writes (``render.JSON_MAX_SQUARES``).
JSON_MAX = 1_000_000


# ---------------------------------------------------------------- the boards

def _side(target: float, density: float) -> int:
    return max(16, int(round(math.sqrt(target / density))))


def _density(make) -> float:
    """Squares per cell of a family at a side of 400 (to aim the side at a number of squares)."""
    region = make(400)
    return region.cleaning.squares_out / region.squares.size


def boards(target: float, families: list[str], balance: str, seeds=SEEDS):
    """(family, name, seed, command line that makes it, maker) for every board of the size ``target``."""
    from ktsolve import shapes
    from ktsolve.images import from_picture

    if "picture" in families:
        import skimage.data

        for pic, dark in PICTURES:
            grey = getattr(skimage.data, pic)()
            base = from_picture(grey, dark=dark, balance=balance).cleaning.squares_out
            scale = max(1, int(round(math.sqrt(target / base))))
            for block in (1, 8):
                extra = (" --dark" if dark else "") + (f" --blocks {block}" if block > 1 else "")
                yield ("picture", f"{pic}{' dark' if dark else ''} x{scale}"
                       + (f", {block}x{block} blocks" if block > 1 else ""), None,
                       f"ktsolve board image {pic}.png --scale {scale}{extra}",
                       lambda g=grey, s=scale, b=block, d=dark: from_picture(g, dark=d, scale=s, block=b,
                                                                             balance=balance))
    if "maze" in families:
        n = _side(target, _density(lambda s: shapes.maze(s, s, seed=1, balance=balance)))
        for seed in seeds:
            yield ("maze", f"maze {n}x{n}, corridors 6", seed, f"ktsolve board maze {n}x{n} --seed {seed}",
                   lambda n=n, seed=seed: shapes.maze(n, n, seed=seed, balance=balance))
    if "rings" in families:
        for width in (6, 10):
            n = _side(target, _density(lambda s, w=width: shapes.rings(s, s, width=w, balance=balance)))
            yield ("rings", f"rings {n}x{n}, width {width}", None, f"ktsolve board rings {n}x{n} --width {width}",
                   lambda n=n, w=width: shapes.rings(n, n, width=w, balance=balance))
    if "cheese" in families:
        n = _side(target, 0.8)
        for seed in seeds:
            yield ("cheese", f"cheese {n}x{n}, r 5-40, 20 %", seed, f"ktsolve board cheese {n}x{n} --seed {seed}",
                   lambda n=n, seed=seed: shapes.cheese(n, n, seed=seed, balance=balance))
    if "planted" in families:
        n = _side(target, 1.0)
        for kind in shapes.PLANTED:
            yield ("planted", f"{kind} {n}x{n}", None, f"ktsolve board planted {n}x{n} --kind {kind}",
                   lambda n=n, kind=kind: shapes.planted(n, n, kind, balance=balance))


# ---------------------------------------------------------------- the processes

def timed(cmd: list[str], log: Path) -> dict:
    """Run ``cmd`` under ``/usr/bin/time -v``: wall seconds, peak resident MB, exit code, stdout and stderr lines."""
    import subprocess

    res = subprocess.run(["/usr/bin/time", "-v", "-o", str(log), *cmd], capture_output=True, text=True)
    report = log.read_text()

    def field(name: str) -> str:
        return next(ln.split(": ", 1)[1] for ln in report.splitlines() if ln.strip().startswith(name))

    wall = 0.0
    for part in field("Elapsed (wall clock) time").split(":"):
        wall = wall * 60 + float(part)
    return {"wall": wall, "peak_mb": int(field("Maximum resident set size")) / 1024, "exit": res.returncode,
            "out": res.stdout.strip().splitlines(), "err": res.stderr.strip().splitlines()}


def _answer(code: int) -> str:
    return {0: "found", 1: "no tour", 3: "unknown", 2: "bad input", 70: "internal error", 130: "interrupted"}.get(code, f"exit {code}")


def _settled_from_stderr(lines: list[str]) -> str | None:
    for line in lines:
        if line.startswith("ktsolve: settled by "):
            return line.split("settled by ", 1)[1].strip()
        if "[auto: " in line:
            return line.rsplit("[auto: ", 1)[1].rstrip("]").strip()
    return None


def run_command(run: list[str], command: str, mask: Path, closed: bool, limit: float, squares: int,
                tmp: Path) -> dict:
    """One ``ktsolve solve|prove`` as a whole process: answer, wall, peak memory, settled step, steps.

    Up to :data:`JSON_MAX` squares the answer is JSON on standard output
    (written whatever the status), whose ``stats`` hold the steps; above, the
    tour goes to a file and the settling step is read from stderr.
    """
    if squares <= JSON_MAX:
        fmt = ["--format", "json"]
    elif command == "solve":
        fmt = ["--format", "npy", "-o", str(tmp / "out.npy")]
    else:
        fmt = ["-o", str(tmp / "out.txt")]
    cmd = [*run, command, str(mask), *(["--closed"] if closed else []), "--time-limit", f"{limit:g}",
           "--seed", "1", *fmt]
    got = timed(cmd, tmp / "time.txt")
    rec = {"command": command, "answer": _answer(got["exit"]), "wall_s": round(got["wall"], 3),
           "peak_mb": round(got["peak_mb"]), "steps": None, "settled_by": None,
           "said": " / ".join(line.removeprefix("ktsolve: ") for line in got["err"][-2:])[:240]}
    if squares <= JSON_MAX and got["out"]:
        try:
            stats = json.loads("\n".join(got["out"])).get("stats", {})
            rec["steps"], rec["settled_by"] = stats.get("steps"), stats.get("settled_by")
        except ValueError:
            pass
    if rec["settled_by"] is None:
        rec["settled_by"] = _settled_from_stderr(got["err"])
    for name in ("out.npy", "out.txt"):
        (tmp / name).unlink(missing_ok=True)
    return rec


def run_worker(args: list[str], tmp: Path) -> dict:
    got = timed([sys.executable, str(Path(__file__).resolve()), *args], tmp / "time.txt")
    if got["exit"] != 0:
        return {"error": " / ".join(got["err"][-2:])[:200]}
    rec = json.loads(got["out"][-1])
    rec["process_wall_s"] = round(got["wall"], 3)
    rec["process_peak_mb"] = round(got["peak_mb"])
    return rec


def _step_name(settled: str | None) -> str | None:
    """The step to run alone: a plan's step title without its parameters (``cpsat (model=sat)``: cpsat); of
    auto's chain on stderr, the last step, and the step a necessary condition came from in its brackets."""
    if not settled or settled == "none":
        return None
    last = settled.split(" -> ")[-1].strip()
    if last.startswith(NECESSARY):
        return last[len(NECESSARY):].strip(" ()") or None
    return last.split(" (", 1)[0].strip()


#: How auto's chain names a proof step whose argument is a necessary condition (ktsolve.portfolio).
NECESSARY = "a necessary condition fails"


# ---------------------------------------------------------------- the workers (python bench_real.py --worker ...)

def worker(ns) -> None:
    """Ask the question through the API; print one JSON line without the tour."""
    from ktsolve import Board, prove, solve

    board = Board.read(ns.mask)
    kw = dict(closed=ns.closed, time_limit=ns.time_limit, seed=1)
    res = prove(board, **kw) if ns.worker == "prove" else solve(board, **kw)
    stats = res.stats or {}
    print(json.dumps({"status": res.status.value, "elapsed_s": round(res.elapsed, 3),
                      "settled_by": stats.get("settled_by"), "steps": stats.get("steps")}, default=str))


def alone(ns) -> None:
    """Run one step by itself, its kernels loaded first; print its seconds (first-run compile left out)."""
    from ktsolve import Board, KnightGraph, TourSpec, solve
    from ktsolve.factor import warm as warm_factor
    from ktsolve.factor.restore import warm as warm_restore
    from ktsolve.jit import take_compile_seconds, warm_method
    from ktsolve.plans import PROOFS
    from ktsolve.portfolio import run_proof
    from ktsolve.proofs import warm as warm_proofs
    from ktsolve.proofs.local import warm as warm_local
    from ktsolve.registry import method_info

    board = Board.read(ns.mask)
    name = ns.alone
    # the kernels are loaded (or compiled) first: a step in a plan finds them ready, and loading is not its work
    warm_proofs()
    if name in PROOFS:
        warm_local()
        if name == "2-factor proof":
            warm_factor(), warm_restore()
        spec = TourSpec(closed=ns.closed)
        take_compile_seconds()
        t0 = time.perf_counter()
        proof, finished = run_proof(name, KnightGraph(board), spec, time_limit=ns.time_limit)
        seconds = time.perf_counter() - t0 - take_compile_seconds()
        status = "infeasible" if proof is not None else ("no proof" if finished else "unknown")
    else:
        warm_method(method_info(name).load())
        res = solve(board, method=name, closed=ns.closed, presolve_proofs=False, time_limit=ns.time_limit, seed=1)
        seconds = res.elapsed - float((res.stats or {}).get("compile_s", 0.0))
        status = res.status.value
    print(json.dumps({"step": name, "status": status, "seconds": round(seconds, 3)}))


# ---------------------------------------------------------------- the run

def _fmt(x) -> str:
    if x is None:
        return "-"
    return f"{x:.2f} s" if x >= 0.1 else f"{x * 1e3:.0f} ms"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1e5,1e6,1e7", help="Squares aimed at, comma-separated.")
    ap.add_argument("--families", default="picture,maze,rings,cheese,planted")
    ap.add_argument("--questions", default="closed,open")
    ap.add_argument("--seeds", default="1,2,3", help="Seeds of the families that have seeds (maze, cheese).")
    ap.add_argument("--time-limit", default="60,60,120",
                    help="--time-limit of solve and prove per size (one value: every size).")
    ap.add_argument("--no-alone", action="store_true", help="Do not run the settling step alone.")
    ap.add_argument("--no-api", action="store_true",
                    help="Above 10^6 squares, do not ask again through the API for the steps.")
    ap.add_argument("--out", default="real")
    ap.add_argument("--json-max", type=int, default=JSON_MAX, help=argparse.SUPPRESS)  # to try the large path
    ap.add_argument("--worker", choices=["solve", "prove"], help=argparse.SUPPRESS)
    ap.add_argument("--alone", help=argparse.SUPPRESS)
    ap.add_argument("--mask", help=argparse.SUPPRESS)
    ap.add_argument("--closed", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--limit", dest="time_limit_value", type=float, default=None, help=argparse.SUPPRESS)
    ns = ap.parse_args()
    if ns.worker or ns.alone:
        ns.time_limit = ns.time_limit_value
        (worker if ns.worker else alone)(ns)
        return
    globals()["JSON_MAX"] = ns.json_max
    sizes = [float(s) for s in ns.sizes.split(",")]
    limits = [float(t) for t in ns.time_limit.split(",")]
    limits = limits if len(limits) == len(sizes) else [limits[0]] * len(sizes)
    families = ns.families.split(",")
    questions = ns.questions.split(",")
    seeds = [int(x) for x in ns.seeds.split(",")]
    exe = Path(sys.executable).with_name("ktsolve")
    run = [str(exe)] if exe.exists() else [sys.executable, "-m", "ktsolve.cli"]
    records, rows = [], []
    t_start = time.perf_counter()
    jsonl = write_result(ns.out, "").with_suffix(".jsonl")
    jsonl.write_text("")
    with tempfile.TemporaryDirectory(prefix="bench_real_") as tmp_name:
        tmp = Path(tmp_name)
        mask = tmp / "mask.npy"
        for target, limit in zip(sizes, limits):
            for question in questions:
                closed = question == "closed"
                for family, name, seed, how, make in boards(target, families, question, seeds):

                    t0 = time.perf_counter()
                    try:
                        region = make()
                    except Exception as exc:  # a board the cleaning refuses is a row too
                        rows.append([family, name, "-", question, f"not made: {exc}"[:80]] + ["-"] * 7)
                        continue
                    made_s = time.perf_counter() - t0
                    np.save(mask, region.holes)
                    squares = region.cleaning.squares_out
                    rec = {"family": family, "board": name, "seed": seed, "made_by": how, "question": question,
                           "squares": squares, "cells": int(region.squares.size), "made_s": round(made_s, 3),
                           "cleaning": region.cleaning.as_dict(), "time_limit": limit}
                    flags = ["--mask", str(mask), "--limit", f"{limit:g}", *(["--closed"] if closed else [])]
                    for command in ("solve", "prove"):
                        got = run_command(run, command, mask, closed, limit, squares, tmp)
                        if got["steps"] is None and not ns.no_api:
                            api = run_worker(["--worker", command, *flags], tmp)
                            got["steps"], got["steps_from"] = api.get("steps"), "api"
                            if api.get("settled_by") and (got["settled_by"] is None or "->" in got["settled_by"]):
                                got["settled_by"] = api["settled_by"]  # solve's stderr names the chain tried
                        step = _step_name(got["settled_by"])
                        if step and not ns.no_alone:
                            got["alone"] = run_worker(["--alone", step, *flags], tmp)
                        rec[command] = got
                    records.append(rec)
                    with jsonl.open("a") as fh:
                        fh.write(json.dumps(rec, default=str) + "\n")
                    s, p = rec["solve"], rec["prove"]
                    rows.append([family, name, f"{squares:,}", question,
                                 s["answer"], _fmt(s["wall_s"]), f"{s['peak_mb']} MB", s["settled_by"] or "-",
                                 _fmt((s.get("alone") or {}).get("seconds")),
                                 p["answer"], _fmt(p["wall_s"]), p["settled_by"] or "-",
                                 _fmt((p.get("alone") or {}).get("seconds"))])
                    print(" | ".join(map(str, rows[-1])), file=sys.stderr, flush=True)
    total = time.perf_counter() - t_start
    lines = ["# Real boards: pictures, mazes, rings, cheese, planted obstructions", "",
             *machine_lines(("scikit-image",)),
             "Other developers' editors and tests may have been running on the same two cores.", "",
             f"Sizes aimed at: {ns.sizes} squares; time limits {ns.time_limit} s; every command with `--seed 1`; "
             "whole processes under `/usr/bin/time -v`.  *alone*: the settling step run by itself in a fresh "
             "process, its kernels loaded first (compiling and loading are not the step's work).  Every record "
             f"with its steps: `benchmarks/results/{jsonl.name}`.", "",
             markdown_table(["family", "board", "squares", "question", "solve", "wall", "peak", "settled by",
                             "alone", "prove", "wall", "settled by", "alone"], rows), "",
             f"The whole run took {total:.0f} s.", "",
             f"Command: `python benchmarks/bench_real.py {' '.join(sys.argv[1:])}`", ""]
    print(write_result(ns.out, "\n".join(lines)))


if __name__ == "__main__":
    main()
