"""Exact tour counts (issue 32): the frontier method beside exhaustive search, published terms, the moonshot.

Every count runs as its own process, ``ktsolve count ... --format json``,
under ``/usr/bin/time -v``: the count's own seconds (from the JSON, numba's
compile excluded), the process's wall time (start-up and loading numba's
cache included) and its peak resident memory.  Exhaustive search
(``--method search``) runs the same question in the same run with a time
limit; a search that does not finish is reported as such.  Counts of a
few seconds are run ``--repeat`` times and their medians reported.

Sections (``--section``, default all but the moonshot):

* ``full``: full boards beside exhaustive search (A165134, A001230, A175881,
  A383661 terms), with the frontier's largest table of states;
* ``strips``: A175881 to 50 terms (6 x n closed; 40 are published) and
  A079137 to 600 terms (4 x n open; its b-file has 500), each run again
  with residues modulo the second, disjoint set of primes (the terms
  beyond the published ones we read are checked that way);
* ``ragged``: Knuth's boards of the first n cells (A383660, A383661,
  A383663, A389755, A389759) to their published terms;
* ``holed``: random holed boards 6x6 to 8x8 (seeded) and the seeds' holed
  boards (oracles/holed.json), beside exhaustive search;
* ``auto``: the small boards where the two methods' times cross, behind
  ``count_tours(method="auto")``'s rule;
* ``moonshot`` (``--moonshot closed|open``, not in ``all``): 8x8, one
  process for hours: run it alone, under ``nice -n 10``, outside the
  bench lock, and note so.

Run:  python benchmarks/bench_count.py [--quick] [--section NAME] [--repeat 3] [--search-limit 600]
      python benchmarks/bench_count.py --moonshot closed [--memory 16G] [--primes 0]
Writes benchmarks/results/count.md (count_quick.md with --quick; count_<section>.md for one section),
or count_moonshot_<kind>.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _machine import machine_lines, markdown_table, timed_process, write_result  # noqa: E402

PUBLISHED = json.loads((HERE.parent / "tests" / "data" / "published_counts.json").read_text(encoding="utf-8"))
ORACLES = Path("/work/shared/oracles")
KTSOLVE = [sys.executable, "-c", "from ktsolve.cli import main; main()", "count"]

#: Full boards: (label, arguments, published value, where it is published).
FULL = [
    ("5x5 open, directed", ["5x5"], 1728, "A165134"),
    ("6x6 closed", ["6x6", "--closed"], 9862, "A001230"),
    ("5x8 closed", ["5x8", "--closed"], 44202, "A383661"),
    ("6x6 open, directed", ["6x6"], 6637920, "A165134"),
    ("6x7 closed", ["6x7", "--closed"], 1067638, "A175881"),
    ("5x10 closed", ["5x10", "--closed"], 13311268, "A383661"),
    ("6x8 closed", ["6x8", "--closed"], 55488142, "A175881"),
    ("7x7 open, directed", ["7x7"], 165575218320, "A165134"),
]
#: Searches not run: 165 billion tours at the search's tens of thousands to millions a second.
NO_SEARCH = {"7x7 open, directed"}
QUICK_FULL = 5


def _run(args: list[str], log: Path) -> dict:
    """One ``ktsolve count`` process: its JSON (or None), wall seconds, peak MB, exit code."""
    got = timed_process([*KTSOLVE, *args, "--format", "json"], log)
    data = None
    if got["exit"] == 0:
        data = json.loads(got["out"][-1])
    return {**got, "json": data}


def _median(args: list[str], log: Path, repeat: int) -> dict:
    first = _run(args, log)
    if first["json"] is None or first["json"].get("seconds", 99) > 5 or repeat <= 1:
        first["runs"] = 1
        return first
    runs = [first] + [_run(args, log) for _ in range(repeat - 1)]
    out = dict(runs[-1])
    out["wall"] = statistics.median(r["wall"] for r in runs)
    out["json"] = dict(out["json"], seconds=statistics.median(r["json"]["seconds"] for r in runs))
    out["runs"] = len(runs)
    return out


def _fmt_s(x) -> str:
    return "-" if x is None else (f"{x:.3f}" if x < 10 else f"{x:.1f}")


def _cell(res: dict, limit: float) -> tuple[str, str]:
    """(value, seconds) of a run, or why there is none."""
    if res["json"] is None:
        return ("unknown", f"not within {limit:g} s" if res["exit"] == 3 else f"exit {res['exit']}")
    return (f"{res['json']['value']:,}", _fmt_s(res["json"]["seconds"]))


def full(args, tmp: Path) -> list[str]:
    rows = []
    cases = FULL[:QUICK_FULL] if args.quick else FULL
    for label, argv, want, source in cases:
        limit = args.search_limit
        fr = _median([*argv, "--method", "frontier", "--time-limit", str(args.frontier_limit), "--memory",
                      args.bench_memory], tmp / "f.log", args.repeat)
        value, secs = _cell(fr, args.frontier_limit)
        if fr["json"] is None:
            value = "unknown: " + " ".join(fr["out"])[-160:]
        if label in NO_SEARCH:
            se = {"json": None, "exit": None, "wall": None}
            svalue, ssecs = "not run", "-"
        else:
            se = _median([*argv, "--method", "search", "--time-limit", str(limit)], tmp / "s.log", args.repeat)
            svalue, ssecs = _cell(se, limit)
        ok = ("yes" if fr["json"]["value"] == want else "NO") if fr["json"] else "not counted"
        if se["json"] and fr["json"] and se["json"]["value"] != fr["json"]["value"]:
            ok = "NO (search differs)"
        states = f"{fr['json']['states']:,}" if fr["json"] else "-"
        rows.append([label, f"{want:,} ({source})", value, ok, states, secs, _fmt_s(fr["wall"]),
                     f"{fr['peak_mb']:.0f}", svalue, ssecs, fr["runs"]])
        print(rows[-1], flush=True)
    return ["## Full boards beside exhaustive search", "",
            f"Frontier limit {args.frontier_limit:g} s and {args.bench_memory} of tables, search limit "
            f"{args.search_limit:g} s. 's' is the count's "
            "own time (compile excluded), 'process s' the whole process (start-up and numba's cache included), "
            "'peak MB' the process's peak resident memory; medians of the runs shown for counts under 5 s.", "",
            markdown_table(["count", "published", "frontier", "equal", "states (largest table)", "s", "process s",
                            "peak MB", "search", "search s", "runs"], rows), ""]


def _terms(rows: int, n: int, closed: bool, directed: bool, by: str, prime_set: int, tmp: Path, limit: float,
           memory: str = "4G"):
    argv = [f"{rows}xN", "--terms", str(n), "--primes", str(prime_set), "--time-limit", str(limit), "--memory",
            memory]
    argv += ["--arithmetic", "residues"] if prime_set else []
    argv += ["--closed"] if closed else []
    argv += ["--directed"] if directed else ["--undirected"]
    argv += ["--cells"] if by == "cells" else []
    return _run(argv, tmp / "t.log")


def _sequence_row(name: str, n_terms: int, tmp: Path, args, twice: bool) -> list:
    """One sequence to ``n_terms`` terms (past the published ones if asked), and, ``twice``, again with the
    second set of primes, residues forced: the same numbers from disjoint moduli."""
    e = PUBLISHED[name]
    step = e.get("step", 1)
    last = step * (e["offset"] + n_terms - 1) if e["by"] == "cells" else n_terms
    res = _terms(e["rows"], last, e["closed"], e["directed"], e["by"], 0, tmp, args.strip_limit)
    if res["json"] is None:
        return [name, e["rows"], last, "unknown", "-", "-", "-", _fmt_s(res["wall"]), f"{res['peak_mb']:.0f}", "-", "-"]
    got = res["json"]["terms"]
    idx = [step * (e["offset"] + i) for i in range(len(e["terms"]))]
    compared = [(i, w) for i, w in zip(idx, e["terms"]) if i <= last]
    equal = all(got[i - 1] == w for i, w in compared)
    other = "-"
    if twice:
        res2 = _terms(e["rows"], last, e["closed"], e["directed"], e["by"], 1, tmp, args.strip_limit)
        other = "equal" if res2["json"] and res2["json"]["terms"] == got else "DIFFERENT"
    return [name, e["rows"], f"{last} {e['by']}", f"{len(compared)} of {len(compared)}" if equal else "NO",
            f"{got[-1]:,}"[:40] + ("..." if len(f"{got[-1]:,}") > 40 else ""), f"{res['json']['states']:,}",
            _fmt_s(res["json"]["seconds"]), _fmt_s(res["wall"]), f"{res['peak_mb']:.0f}", res["json"]["arithmetic"],
            other]


HEAD = ["sequence", "rows", "terms", "published terms equal", "last term", "states", "s", "process s", "peak MB",
        "arithmetic", "second primes"]


def strips(args, tmp: Path) -> list[str]:
    rows = [_sequence_row("A175881", 12 if args.quick else 50, tmp, args, True),
            _sequence_row("A079137", 100 if args.quick else 600, tmp, args, True)]
    for r in rows:
        print(r, flush=True)
    return ["## Strips: a sequence of terms from one pass", "",
            "A175881: closed tours of 6 x n, 40 published terms, counted to 50: terms 41 to 50 are new. A079137: "
            "undirected open tours of 4 x n, 24 terms read from the entry (its b-file has 500, not read), counted "
            "to 600. The terms past the published ones we read are checked by a second run with residues modulo "
            "a disjoint set of primes ('second primes': the same numbers).", "",
            markdown_table(HEAD, rows), ""]


def ragged(args, tmp: Path) -> list[str]:
    rows = []
    for name in ("A383660", "A383661", "A383663", "A389755", "A389759"):
        rows.append(_sequence_row(name, len(PUBLISHED[name]["terms"]), tmp, args, False))
        print(rows[-1], flush=True)
    return ["## Knuth's ragged boards (the first n cells of an R-row board)", "",
            "Terms read from the OEIS entries (sources in tests/data/published_counts.json); every published "
            "term we read is compared.", "", markdown_table(HEAD, rows), ""]


def _holed_boards(quick: bool):
    import numpy as np

    from ktsolve import Board

    out = []
    rng = np.random.default_rng(32)
    sizes = [(6, 6), (7, 7)] if quick else [(6, 6), (6, 7), (7, 7), (7, 8), (8, 8)]
    for rows, cols in sizes:
        for _ in range(2):
            k = int(rng.integers(rows * cols // 8, rows * cols // 4))
            flat = rng.choice(rows * cols, size=k, replace=False)
            out.append((f"random {rows}x{cols}", Board(rows, cols, holes=[(int(f) // cols, int(f) % cols)
                                                                         for f in flat])))
    cases = json.loads((ORACLES / "holed.json").read_text())["cases"]
    for c in cases:
        if c.get("tours_from_start") is not None:
            out.append(("seed: " + c["source"], Board(*c["board"], holes=[tuple(h) for h in c["holes"]]),
                        tuple(c["start"]), c["tours_from_start"]))
    return out


def holed(args, tmp: Path) -> list[str]:
    rows = []
    for case in _holed_boards(args.quick):
        label, board = case[0], case[1]
        holes = ",".join(board.name(r, c) for r, c in board.holes)
        questions = [("closed", ["--closed"]), ("open, directed", [])]
        if len(case) > 2:
            questions = [(f"open from {board.name(*case[2])}", ["--start", board.name(*case[2])])]
        for kind, extra in questions:
            argv = [board.spec(), "--holes", holes, *extra] if holes else [board.spec(), *extra]
            fr = _median([*argv, "--method", "frontier", "--time-limit", str(args.frontier_limit), "--memory",
                          args.bench_memory], tmp / "f.log", args.repeat)
            se = _median([*argv, "--method", "search", "--time-limit", str(args.search_limit)], tmp / "s.log",
                         args.repeat)
            value, secs = _cell(fr, args.frontier_limit)
            svalue, ssecs = _cell(se, args.search_limit)
            agree = "-" if not (fr["json"] and se["json"]) else (
                "yes" if fr["json"]["value"] == se["json"]["value"] else "NO")
            if len(case) > 3:
                agree += f"; published {case[3]}: " + ("yes" if fr["json"] and fr["json"]["value"] == case[3] else "NO")
            rows.append([label, f"{board.rows}x{board.cols}", board.n_holes, kind, value,
                         f"{fr['json']['states']:,}" if fr["json"] else "-", secs, f"{fr['peak_mb']:.0f}", svalue,
                         ssecs, agree])
            print(rows[-1], flush=True)
    return ["## Holed boards beside exhaustive search", "",
            "Random boards: seed 32, 1/8 to 1/4 of the squares removed; the seeds' boards: oracles/holed.json's "
            "cases with a published number of tours from their start.", "",
            markdown_table(["board", "size", "holes", "count", "frontier", "states", "s", "peak MB", "search",
                            "search s", "agree"], rows), ""]


def auto(args, tmp: Path) -> list[str]:
    """In this process, both methods' kernels loaded first: medians of 5 runs on small questions."""
    import time

    from ktsolve.models.count import count_tours

    count_tours("5x5", method="frontier")
    count_tours("5x5", method="search")
    rows = []
    cases = (("3x10", True), ("4x5", False), ("5x5", False), ("5x6", True), ("4x8", False), ("6x6", True),
             ("3x16", True), ("5x7", False), ("6x7", True))
    for spec, closed in cases:
        times = {}
        for method in ("frontier", "search"):
            runs = []
            for _ in range(5 if method == "frontier" or spec not in ("5x7", "6x7") else 1):
                t0 = time.perf_counter()
                res = count_tours(spec, closed=closed, directed=not closed, method=method,
                                  time_limit=args.search_limit)
                runs.append(time.perf_counter() - t0)
            times[method] = (statistics.median(runs), res)
        fr, se = times["frontier"], times["search"]
        rows.append([f"{spec} {'closed' if closed else 'open'}", f"{fr[1].value:,}", _fmt_s(fr[0]),
                     _fmt_s(se[0]) if se[1].complete else f"not within {args.search_limit:g} s",
                     f"{fr[1].states:,}", f"{se[1].nodes:,}", "frontier" if fr[0] < se[0] else "search"])
        print(rows[-1], flush=True)
    return ["## Where auto switches", "",
            "count_tours(method='auto') counts by the frontier method up to a shorter side of 8, by exhaustive "
            "search on boards of at most 30 squares. In one process with both methods' kernels loaded, medians of "
            "5 runs (1 for the longer searches); closed counts undirected, open ones directed.", "",
            markdown_table(["question", "count", "frontier s", "search s", "frontier states", "search nodes",
                            "faster"], rows), ""]


SECTIONS = {"full": full, "strips": strips, "ragged": ragged, "holed": holed, "auto": auto}


def moonshot(args, tmp: Path) -> None:
    """8x8 in this process, every square's states and time appended to count_moonshot_<kind>.jsonl as they come."""
    import resource
    import time

    from ktsolve.cli.count import parse_size
    from ktsolve.models.count import count_tours

    kind = args.moonshot
    want = 13_267_364_410_532 if kind == "closed" else 19_591_828_170_979_904
    log = HERE / "results" / f"count_moonshot_{kind}.jsonl"
    t0 = time.perf_counter()
    with open(log, "w", encoding="utf-8") as fh:
        fh.write(json.dumps({"board": "8x8", "kind": kind, "memory": args.memory, "primes": args.primes,
                             "machine": machine_lines()}) + "\n")

        def progress(done, total, note):
            rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            fh.write(json.dumps({"square": done, "of": total, "states": int(note.split()[0].replace(",", "")),
                                 "seconds": round(time.perf_counter() - t0, 1), "peak_mb": round(rss)}) + "\n")
            fh.flush()

        res = count_tours("8x8", closed=kind == "closed", directed=True if kind == "open" else False,
                          method="frontier", max_memory=parse_size(args.memory), prime_set=args.primes,
                          arithmetic=args.arithmetic, progress=progress)
        fh.write(json.dumps({"value": res.value, "complete": res.complete, "reason": res.reason,
                             "states": res.states, "seconds": round(res.elapsed, 1), **res.stats}) + "\n")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    lines = [f"# The moonshot: {'closed' if kind == 'closed' else 'directed open'} tours of 8x8", "",
             *machine_lines(), "",
             "One process under `nice -n 10`, outside the bench lock (hours); other developers' jobs shared the two "
             "cores, so the times are wall times on a shared machine.", "",
             f"Command: `nice -n 10 python benchmarks/bench_count.py --moonshot {kind} --memory {args.memory} "
             f"--primes {args.primes} --arithmetic {args.arithmetic}`", "",
             f"- published: {want:,} ({'OEIS A001230, McKay 1997' if kind == 'closed' else 'OEIS A165134'})",
             f"- counted: {res.value:,}" if res.complete else f"- counted: unknown: {res.reason}",
             f"- equal: {'yes' if res.value == want else 'no'}",
             f"- largest table: {res.states:,} states; tables at most {res.stats.get('peak_bytes', 0) / 2**30:.2f} GiB",
             f"- arithmetic: {res.stats.get('arithmetic')}",
             f"- count's time: {res.elapsed:,.0f} s; process peak resident memory {peak:,.0f} MB",
             f"- states after every square: `benchmarks/results/count_moonshot_{kind}.jsonl`", ""]
    path = write_result(f"count_moonshot_{kind}", "\n".join(lines))
    print("\n".join(lines))
    print(f"written {path}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="smaller cases, shorter limits")
    ap.add_argument("--section", choices=[*SECTIONS, "all"], default="all")
    ap.add_argument("--repeat", type=int, default=3, help="runs of counts under 5 s (medians)")
    ap.add_argument("--search-limit", type=float, default=600.0, help="seconds for each exhaustive search")
    ap.add_argument("--frontier-limit", type=float, default=3600.0, help="seconds for each frontier count")
    ap.add_argument("--strip-limit", type=float, default=3600.0, help="seconds for each strip of terms")
    ap.add_argument("--bench-memory", default="4G", help="memory budget of each count of the sections")
    ap.add_argument("--moonshot", choices=["closed", "open"], help="count 8x8 (hours); nothing else runs")
    ap.add_argument("--memory", default="16G", help="the moonshot's memory budget")
    ap.add_argument("--primes", type=int, default=0, choices=[0, 1], help="the moonshot's set of primes")
    ap.add_argument("--arithmetic", default="auto", choices=["auto", "int64", "residues"],
                    help="the moonshot's arithmetic")
    args = ap.parse_args(argv)
    if args.quick:
        args.search_limit = min(args.search_limit, 60.0)
        args.frontier_limit = min(args.frontier_limit, 300.0)
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        if args.moonshot:
            return moonshot(args, tmp)
        names = list(SECTIONS) if args.section == "all" else [args.section]
        body = []
        for name in names:
            print(f"== {name}", flush=True)
            body += SECTIONS[name](args, tmp)
    cmd = " ".join(["python benchmarks/bench_count.py", *(sys.argv[1:] if argv is None else argv)])
    text = ["# Exact counts: the frontier method beside exhaustive search", "", *machine_lines(), "",
            "Other developers' editors, tests and benchmarks may have run beside this one (see the load line).", "",
            f"Command: `flock /work/team/bench.lock {cmd}`", "", *body]
    name = "count" + ("_quick" if args.quick else "") + (f"_{args.section}" if args.section != "all" else "")
    path = write_result(name, "\n".join(text))
    print("\n".join(text))
    print(f"written {path}")


if __name__ == "__main__":
    main()
