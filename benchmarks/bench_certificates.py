"""Every "no" checkable: certificates of prove's answers, verified as ``ktsolve verify`` verifies them, and forgeries.

Three parts (issue 29):

1. **Random holed boards up to 8x8.**  ``--questions`` questions (default
   10,000): a size ``m x n`` with ``1 <= m, n <= 8`` drawn uniformly, then a
   hole count drawn uniformly from 0 to ``m * n - 2`` (so every count
   occurs), the holes, and a question kind (closed, open, fixed start,
   fixed end, both fixed) in turn.  Each is settled by ``prove(race=False,
   seed=1)``; for every "no", the certificate file's object
   (:func:`ktsolve.certificates.certificate_of`) is written as JSON and
   checked by :func:`ktsolve.verify_certificate`, what ``ktsolve verify``
   calls.  Reported per argument: the "no" answers, the share whose
   certificate verify accepts (target 100 %), the certificate's size, the
   time to make it (the search's certificate: ``stats["certificate_s"]``)
   and to check it, and the check time over the solve time (target: at
   most 10).
2. **The dense family** of ``benchmarks/frontier_boards.py`` (sizes 8 to
   20, shares 0.2, 0.25, 0.3, closed and open from a fixed start, three
   seeds), the same measures.
3. **The forging fuzzer** (``tests/fuzz_certificates.py``), in its long
   profile with ``--fuzz-random`` random boards: forgeries checked per
   argument on questions that have a tour, and how many were accepted
   (target 0).

Run:  flock /work/team/bench.lock python benchmarks/bench_certificates.py [--questions 10000] [--fuzz-random 100]
Writes benchmarks/results/certificates.md.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from _machine import fmt_s, machine_lines, markdown_table, write_result  # noqa: E402

KINDS = ("closed", "open", "start", "end", "both")


def random_question(rng: random.Random, k: int):
    from ktsolve import Board, TourSpec

    while True:
        m, n = rng.randint(1, 8), rng.randint(1, 8)
        holes = rng.randint(0, max(0, m * n - 2))
        cells = [(r, c) for r in range(m) for c in range(n)]
        board = Board(m, n, rng.sample(cells, holes))
        squares = [tuple(int(x) for x in board.coords_of([i])[0]) for i in range(board.n_squares)]
        kind = KINDS[k % len(KINDS)]
        s = rng.choice(squares) if kind in ("start", "both") else None
        e = rng.choice(squares) if kind in ("end", "both") else None
        if kind == "both" and len(squares) > 1:
            while e == s:
                e = rng.choice(squares)
        return board, TourSpec(closed=kind == "closed", start=s, end=e), kind


def dense_questions(sizes, shares, seeds):
    from frontier_boards import dense_holes

    from ktsolve import Board, TourSpec

    for n in sizes:
        for share in shares:
            for seed in seeds:
                for closed in (True, False):
                    board = Board(n, n, dense_holes(n, share, seed, closed=closed))
                    start = None
                    if not closed:
                        start = tuple(int(x) for x in board.coords_of([0])[0])
                    yield board, TourSpec(closed=closed, start=start), f"{n}x{n} {share}"


def settle(board, spec, time_limit: float) -> dict:
    """One question: prove's answer, and for a "no" its certificate, checked as verify checks it."""
    from ktsolve import prove, verify_certificate
    from ktsolve.certificates import certificate_json
    from ktsolve.result import Status

    t0 = time.perf_counter()
    res = prove(board, closed=spec.closed, start=spec.start, end=spec.end, race=False, seed=1,
                time_limit=time_limit)
    solve_s = time.perf_counter() - t0
    row = {"status": res.status.value, "solve_s": solve_s, "settled_by": res.stats.get("settled_by")}
    if res.status is not Status.INFEASIBLE:
        return row
    text = certificate_json(res)
    t0 = time.perf_counter()
    verdict = verify_certificate(board, spec, json.loads(text))
    check_s = time.perf_counter() - t0
    ev = res.proof.evidence
    cert = ev.get("certificate") if isinstance(ev.get("certificate"), dict) else None
    row.update(argument=res.proof.argument, bytes=len(text.encode()), check_s=check_s, outcome=verdict.outcome,
               reason=verdict.reason, checker=verdict.checker,
               make_s=float(res.stats.get("certificate_s", 0.0)) if cert else None,
               proof_lines=cert["proof_lines"] if cert else None, cuts=len(cert["cuts"]) if cert else None,
               certified=ev.get("certified", True))
    return row


def summarise(rows: list[dict]) -> tuple[list, dict]:
    by_arg: dict[str, list] = defaultdict(list)
    for r in rows:
        if r["status"] == "infeasible":
            by_arg[r["argument"]].append(r)
    table = []
    total = Counter()
    for arg in sorted(by_arg, key=lambda a: -len(by_arg[a])):
        rs = by_arg[arg]
        ok = sum(r["outcome"] == "valid" for r in rs)
        ratio = [r["check_s"] / max(r["solve_s"], 1e-9) for r in rs]
        within = sum(x <= 10 for x in ratio)
        made = [r["make_s"] for r in rs if r["make_s"] is not None]
        table.append([arg, len(rs), f"{ok} ({100 * ok / len(rs):.1f} %)",
                      f"{statistics.median(r['bytes'] for r in rs):,.0f} / {max(r['bytes'] for r in rs):,}",
                      fmt_s(statistics.median(made)) if made else "-",
                      fmt_s(statistics.median(r["solve_s"] for r in rs)),
                      fmt_s(statistics.median(r["check_s"] for r in rs)), fmt_s(max(r["check_s"] for r in rs)),
                      f"{statistics.median(ratio):.2f} / {max(ratio):.1f}", f"{within} of {len(rs)}"])
        total["no"] += len(rs)
        total["valid"] += ok
        total["within"] += within
    return table, total


COLUMNS = ["argument", "no answers", "verify accepts", "certificate bytes (median / max)",
           "make (median)", "solve (median)", "check (median)", "check (max)", "check / solve (median / max)",
           "check <= 10 x solve"]


def refused_lines(rows) -> list[str]:
    out = []
    for r in rows:
        if r["status"] == "infeasible" and r["outcome"] != "valid":
            out.append(f"- {r['argument']}: {r['outcome']}: {r['reason']}")
    return out[:30]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--questions", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=29)
    ap.add_argument("--time-limit", type=float, default=20.0)
    ap.add_argument("--dense-sizes", default="8,10,12,14,16,18,20")
    ap.add_argument("--dense-seeds", type=int, default=3)
    ap.add_argument("--fuzz-random", type=int, default=100)
    ap.add_argument("--fuzz-cap", type=int, default=400)
    ap.add_argument("--fuzz-targets", type=int, default=4)
    ap.add_argument("--name", default="certificates")
    args = ap.parse_args()

    from ktsolve.proofs.cnf_check import drup_checkers

    lines = ["# Certificates: every \"no\" checkable, and forgeries refused", ""]
    lines += machine_lines(extra=("python-sat", "drup", "dratify"))
    lines += ["Other developers' editors and tests may have run beside it (the run held the shared bench lock).",
              f"DRUP checkers installed: {', '.join(drup_checkers()) or 'none'}.", "",
              f"Command: `python benchmarks/bench_certificates.py --questions {args.questions} --seed {args.seed} "
              f"--time-limit {args.time_limit:g} --dense-sizes {args.dense_sizes} --dense-seeds {args.dense_seeds} "
              f"--fuzz-random {args.fuzz_random} --fuzz-cap {args.fuzz_cap} --fuzz-targets {args.fuzz_targets}`",
              ""]

    # every checker imported and the proof checkers loaded first: a first import is not a check's time
    from ktsolve import Board, TourSpec
    from ktsolve.proofs import CHECKERS
    from ktsolve.proofs.verdict import checker_of

    for argument in CHECKERS:
        checker_of(argument)
    settle(Board(4, 4, [(1, 2), (3, 3)]), TourSpec(), args.time_limit)
    settle(Board(5, 5), TourSpec(closed=True), args.time_limit)

    # 1. random holed boards up to 8x8
    rng = random.Random(args.seed)
    rows = []
    kinds = Counter()
    holes_seen = set()
    t0 = time.perf_counter()
    for k in range(args.questions):
        board, spec, kind = random_question(rng, k)
        kinds[kind] += 1
        holes_seen.add((board.rows * board.cols, board.n_holes))
        rows.append(settle(board, spec, args.time_limit))
        if (k + 1) % 1000 == 0:
            print(f"{k + 1} questions, {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    wall = time.perf_counter() - t0
    status = Counter(r["status"] for r in rows)
    table, total = summarise(rows)
    lines += ["## Random holed boards up to 8x8", "",
              f"{args.questions:,} questions ({', '.join(f'{kinds[k]:,} {k}' for k in KINDS)}), "
              f"{len(holes_seen):,} (cells, holes) pairs; answers: "
              f"{', '.join(f'{v:,} {k}' for k, v in sorted(status.items()))}; {wall:.0f} s in all.", "",
              f"**{total['valid']:,} of {total['no']:,} \"no\" answers ({100 * total['valid'] / max(total['no'], 1):.2f} %) "
              f"carry a certificate that verify accepts; {total['within']:,} "
              f"({100 * total['within'] / max(total['no'], 1):.2f} %) are checked within 10 times their solve time.**",
              "", markdown_table(COLUMNS, table), ""]
    bad = refused_lines(rows)
    if bad:
        lines += ["Refused or not checkable:", "", *bad, ""]
    search = [r for r in rows if r.get("argument") in ("exhaustive search", "cpsat")]
    if search:
        lines += ["Search certificates: " + "; ".join(
            f"{r['argument']} {r['cuts']} cuts, {r['proof_lines']} DRUP lines, made in {fmt_s(r['make_s'])}, "
            f"checked in {fmt_s(r['check_s'])} ({r['checker']})" if r["proof_lines"] is not None
            else f"{r['argument']} not certified" for r in search[:20]) + ".", ""]

    # 2. the dense family
    sizes = [int(x) for x in args.dense_sizes.split(",") if x]
    dense = []
    t0 = time.perf_counter()
    for board, spec, label in dense_questions(sizes, (0.2, 0.25, 0.3), range(args.dense_seeds)):
        row = settle(board, spec, args.time_limit)
        row["label"] = label
        dense.append(row)
    wall = time.perf_counter() - t0
    status = Counter(r["status"] for r in dense)
    table, total = summarise(dense)
    lines += ["## The dense family, 8x8 to 20x20", "",
              f"{len(dense)} questions (sizes {args.dense_sizes}; shares 0.2, 0.25, 0.3; seeds 0..{args.dense_seeds - 1}; "
              f"closed and open from the first square); answers: "
              f"{', '.join(f'{v} {k}' for k, v in sorted(status.items()))}; {wall:.0f} s in all.", "",
              f"**{total['valid']} of {total['no']} \"no\" answers carry a certificate that verify accepts; "
              f"{total['within']} are checked within 10 times their solve time.**", "",
              markdown_table(COLUMNS, table), ""]
    bad = refused_lines(dense)
    if bad:
        lines += ["Refused or not checkable:", "", *bad, ""]

    # 3. the forging fuzzer
    import fuzz_certificates as fz

    fz.PROFILES["bench"] = {"random": args.fuzz_random, "targets": args.fuzz_targets, "every_square": True,
                            "cap": args.fuzz_cap}
    rep = fz.fuzz("bench", seed=args.seed)
    frows = [[arg, rep.real[arg], rep.forged[arg], rep.one_square[arg],
              sum(1 for a in rep.accepted if a[3] == arg)] for arg in sorted(rep.real)]
    lines += ["## The forging fuzzer", "",
              f"Real proofs: the seed cases of every argument and prove's \"no\" on {args.fuzz_random} random "
              f"boards; {rep.targets} questions with a tour in hand; every one-square change (at most "
              f"{args.fuzz_cap} forgeries a proof, half of them one-square changes when there are more), drops, "
              f"reorders, swapped sets, numbers, levels, flags, other arguments; {rep.seconds:.0f} s.", "",
              f"**{len(rep.accepted)} of {sum(rep.forged.values()):,} forgeries accepted** "
              f"(verdicts: {', '.join(f'{v:,} {k}' for k, v in sorted(rep.outcomes.items()))}); "
              f"real proofs refused on their own question: {len(rep.genuine_refused)}.", "",
              markdown_table(["argument", "real proofs", "forgeries checked", "of them one-square", "accepted"], frows),
              ""]
    for a in rep.accepted[:10]:
        lines.append(f"- accepted: {a[0]!r} {a[1]} {a[2]} {a[3]}")
    text = "\n".join(lines) + "\n"
    path = write_result(args.name, text)
    print(text)
    print(f"written to {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
