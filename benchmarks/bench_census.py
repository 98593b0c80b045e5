"""Census throughput on one worker, two pool workers and two Dask workers; the largest census; a projection.

Targets (issue 13): two workers answer at least 1.8 times as many questions
per second as one; two workers of a local Dask cluster within 15 % of two
pool workers.

What runs
---------
1. Throughput.  ``--remove 1`` and ``--remove 2`` on 8x8, 10x10 and 12x12,
   open and closed, each through :func:`ktsolve.census` on workers started
   once and kept warm for the whole section (``runner=``), so the table
   measures the census, not the start of the workers (measured apart):
   a :class:`~ktsolve.census.pool.LocalPool` of one worker, one of two
   workers, and a ``distributed.LocalCluster`` of two worker processes of
   one thread each.  Every census is run ``--repeat`` times (default 3) in
   turn on the three set-ups, into fresh files; the table gives the median
   wall time as questions per second, and the share of the workers' time
   spent inside ``prove`` ("busy": one minus the scheduling overhead and
   the idle time at the end).
2. The largest census: ``ktsolve census 12x12 --remove 2 --both`` through
   the command line (the whole process: start, warm-up, questions,
   summary), and with ``--largest3`` also ``12x12 --remove 3 --both``;
   summary and picture go to ``benchmarks/results/``.
3. A projection of ``--remove 3`` on 12x12 and 16x16 to a 100-core
   cluster: questions counted exactly (Burnside), the cost of a question
   measured on a seeded sample of the family's own questions, and the busy
   share measured on the Dask cluster in section 1.

The machine has 2 cores, shared with other work: each section notes the load
average before and after it.

Usage::

    python benchmarks/bench_census.py                 # sections 1-3 (about 5 minutes)
    python benchmarks/bench_census.py --largest3      # also 12x12 --remove 3 --both (several minutes more)
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _machine import machine_lines, markdown_table  # noqa: E402

from ktsolve import Board  # noqa: E402
from ktsolve.census import census, orbit_count, orbit_representatives  # noqa: E402
from ktsolve.census.pool import LocalPool  # noqa: E402

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def cpu_split(runner, pools: list) -> tuple[float, float, float]:
    """CPU seconds so far of this process, of Dask's processes, and of ``runner``'s census workers.

    A pool: this process coordinates, the pool's processes work.  Dask: this
    process (which holds the scheduler's threads) and Dask's nanny and worker
    processes coordinate, the census workers inside the Dask workers work.
    Measured in CPU time, so other jobs on the machine do not inflate it.
    """
    import psutil

    me = psutil.Process()
    parent = sum(me.cpu_times()[:2])
    helpers = work = 0.0
    pool_pids = {pid for p in pools for pid in p.pids()}
    mine = set(runner.pids()) if isinstance(runner, LocalPool) else None
    for child in me.children(recursive=True):
        try:
            t = sum(child.cpu_times()[:2])
            if mine is not None:
                work += t if child.pid in mine else 0.0
            elif child.pid not in pool_pids:
                if b"ktsolve.census.worker" in " ".join(child.cmdline()).encode():
                    work += t
                else:
                    helpers += t
        except psutil.NoSuchProcess:
            pass
    return parent, helpers, work


def pool_cpu(pool: LocalPool) -> float:
    """CPU seconds so far of the worker processes of ``pool``."""
    import psutil

    total = 0.0
    for pid in pool.pids():
        try:
            total += sum(psutil.Process(pid).cpu_times()[:2])
        except psutil.NoSuchProcess:
            pass
    return total


# ---------------------------------------------------------------------- 1. throughput
def throughput(repeat: int, tmp: str) -> tuple[list[str], dict]:
    from distributed import Client, LocalCluster

    from ktsolve.census.cluster import DaskRunner

    lines = [f"Load average before: {load()}"]
    t = time.perf_counter()
    one = LocalPool(1)
    one.start()
    t_one = time.perf_counter() - t
    t = time.perf_counter()
    two = LocalPool(2)
    two.start()
    t_two = time.perf_counter() - t
    t = time.perf_counter()
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                           silence_logs=50)
    client = Client(cluster, set_as_default=False)
    dask = DaskRunner(client)
    dask.start()
    t_dask = time.perf_counter() - t
    setups = {"1 worker": one, "2 pool workers": two, "2 Dask workers": dask}
    import psutil

    c0 = sum(psutil.Process().cpu_times()[:2])
    time.sleep(3.0)
    idle = (sum(psutil.Process().cpu_times()[:2]) - c0) / 3.0  # the Dask scheduler's threads at rest
    families = [(n, k, closed) for k in (1, 2) for n in (8, 10, 12) for closed in (False, True)]
    walls = {(f, s): [] for f in families for s in setups}
    busy = {(f, s): [] for f in families for s in setups}
    cpu = {s: [0.0, 0.0, 0.0] for s in setups}  # this process, Dask's processes, census workers
    cpu_12 = [0.0, 0.0, 0.0, 0, 0.0]  # Dask's processes, census workers, this process, answers, wall: 12x12 -r 2
    questions = {}
    k = 0
    for rnd in range(repeat):
        for fam in families:
            n, rem, closed = fam
            for name, runner in setups.items():
                k += 1
                before = cpu_split(runner, [one, two])
                t_run = time.perf_counter()
                rep = census(f"{n}x{n}", remove=rem, closed=closed, output=os.path.join(tmp, f"t{k}.jsonl"),
                             seed=1, runner=runner)
                t_run = time.perf_counter() - t_run
                after = cpu_split(runner, [one, two])
                for j in range(3):
                    cpu[name][j] += after[j] - before[j]
                if name == "2 Dask workers" and fam[:2] == (12, 2):
                    cpu_12[0] += after[1] - before[1]
                    cpu_12[1] += after[2] - before[2]
                    cpu_12[2] += after[0] - before[0]
                    cpu_12[3] += rep.questions
                    cpu_12[4] += t_run
                walls[(fam, name)].append(rep.wall_s)
                busy[(fam, name)].append(rep.busy)
                questions[fam] = rep.questions
            say(f"  round {rnd + 1}: {n}x{n} --remove {rem} {'closed' if closed else 'open'} "
                f"({questions[fam]} questions) load {load()}")
    # the same questions asked by a plain loop of prove() in this process, no census machinery
    plain = {}
    from ktsolve import prove
    from ktsolve.census.family import remove_family

    for closed in (False, True):
        fam = remove_family(Board(12, 12), 2, (closed,))
        tasks = [fam.task(i, 1, 60.0) for i in range(len(fam))]
        times = []
        for _ in range(repeat):
            t = time.perf_counter()
            for tk in tasks:
                prove(Board(tk.rows, tk.cols, tk.holes), closed=tk.closed, seed=tk.seed, time_limit=tk.time_limit)
            times.append(time.perf_counter() - t)
        plain[closed] = len(tasks) / statistics.median(times)
    rows, total = [], {s: [0, 0.0] for s in setups}
    for fam in families:
        n, rem, closed = fam
        q = questions[fam]
        rate = {s: q / statistics.median(walls[(fam, s)]) for s in setups}
        for s in setups:
            total[s][0] += q
            total[s][1] += statistics.median(walls[(fam, s)])
        rows.append([f"{n}x{n} --remove {rem}", "closed" if closed else "open", q,
                     f"{rate['1 worker']:,.0f}", f"{rate['2 pool workers']:,.0f}",
                     f"{rate['2 pool workers'] / rate['1 worker']:.2f}x", f"{rate['2 Dask workers']:,.0f}",
                     f"{rate['2 Dask workers'] / rate['2 pool workers']:.2f}",
                     " / ".join(f"{100 * statistics.median(busy[(fam, s)]):.0f}" for s in setups)])
    agg = {s: total[s][0] / total[s][1] for s in setups}
    rows.append(["all twelve censuses", "", sum(questions.values()), f"{agg['1 worker']:,.0f}",
                 f"{agg['2 pool workers']:,.0f}", f"{agg['2 pool workers'] / agg['1 worker']:.2f}x",
                 f"{agg['2 Dask workers']:,.0f}", f"{agg['2 Dask workers'] / agg['2 pool workers']:.2f}", ""])
    lines += ["", markdown_table(["family", "tours", "questions", "1 worker q/s", "2 pool q/s", "speed-up",
                                  "2 Dask q/s", "Dask / pool", "busy % (1 / 2 pool / 2 Dask)"], rows), ""]
    lines += [
        "- the same 12x12 --remove 2 questions asked by a plain loop of prove() in the benchmark's own process "
        f"(no census: no worker processes, no results file): open {plain[False]:,.0f} q/s, closed "
        f"{plain[True]:,.0f} q/s, against the 1-worker census above",
        f"- median of {repeat} runs of each census; q/s = questions / wall time of the census (from the first "
        "batch to the last answer written, results file and summary excluded); the three set-ups take turns",
        "- busy = time inside prove() / (wall time x workers); the rest is scheduling, the parent process "
        "and the last batches' tail (a census of 10 questions cannot keep two workers busy)",
        f"- start of the workers (spawn, import, warm-up), not in the table: 1 worker {t_one:.2f} s, 2 pool "
        f"workers {t_two:.2f} s, Dask LocalCluster of 2 workers with their worker processes {t_dask:.2f} s; "
        f"warm-up per worker process {', '.join(f'{w:.2f}' for w in one.warm_s + two.warm_s + dask.warm_s)} s",
        "- coordination CPU / worker CPU, over all runs (psutil; the census workers' CPU against that of this "
        "process, which holds the Dask scheduler's threads, and of Dask's nanny and worker processes): "
        + ", ".join(f"{s} {100 * (c + h) / w:.1f}%" for s, (c, h, w) in cpu.items() if w > 0)
        + " (includes enumerating the families and reading each results file back for its summary; this "
        f"process also spends {100 * idle:.1f}% of a core at rest on the Dask scheduler's threads, in every "
        "set-up's figure)",
        f"- load average after: {load()}",
    ]
    d_parent, d_helpers, d_work = cpu["2 Dask workers"]
    lines.insert(-1, f"- of the Dask figure, this process (client, scheduler, family, results file) "
                     f"{100 * d_parent / d_work:.1f}% and Dask's nanny and worker processes "
                     f"{100 * d_helpers / d_work:.1f}%; on 12x12 --remove 2 alone Dask's processes cost "
                     f"{100 * cpu_12[0] / cpu_12[1]:.1f}% of the census workers' CPU")
    stats = {"agg": agg, "dask_busy": statistics.median(busy[((12, 2, False), "2 Dask workers")]),
             "dask_eff": cpu_12[1] / (cpu_12[0] + cpu_12[1]),
             # less the scheduler's threads at rest, which a real cluster runs on a machine of their own
             "parent_per_answer": max(cpu_12[2] - idle * cpu_12[4], 0.0) / cpu_12[3],
             "pool_busy": statistics.median(busy[((12, 2, False), "2 pool workers")])}
    for r in (one, two, dask):
        r.close()
    client.close()
    cluster.close()
    return lines, stats


# ---------------------------------------------------------------------- 2. largest census
def largest(spec: list[str], name: str, tmp: str) -> tuple[list[str], float]:
    out = os.path.join(tmp, f"{name}.jsonl")
    svg = RESULTS / f"census_{name}.svg"
    png = RESULTS / f"census_{name}.png"
    cmd = [sys.executable, "-m", "ktsolve.cli", "census", *spec, "-o", out, "--seed", "1", "--plot", str(svg)]
    before = load()
    t = time.perf_counter()
    res = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t
    if res.returncode not in (0, 3):
        raise SystemExit(f"census failed: {res.stderr}")
    subprocess.run([*cmd[:3], "census", "--summary", out, "--plot", str(png)], capture_output=True, check=True)
    size = os.path.getsize(out)
    shown = " ".join(["ktsolve", "census", *spec, "-o", f"{name}.jsonl", "--seed", "1", "--plot", svg.name])
    lines = [f"### `{shown}`", "", f"Load average before {before}, after {load()}.", "",
            f"Whole process: {wall:.1f} s (exit code {res.returncode}); results file {size / 1e6:.1f} MB "
            "(not kept in the repository).", "", "Standard error:", "", "```", res.stderr.strip(), "```", "",
            "Summary:", "", "```", res.stdout.rstrip(), "```", "", f"Pictures: `{svg.name}`, `{png.name}`.", ""]
    return lines, wall


# ---------------------------------------------------------------------- 3. projection
def sample_cost(n: int, k: int, sample: int, tmp: str, pool: LocalPool) -> dict:
    """Per-question seconds of ``n x n --remove k`` (open and closed), measured on a seeded sample."""
    reps, sizes = orbit_representatives(Board(n, n), k)
    rng = np.random.default_rng(2024)
    pick = rng.choice(len(reps), size=min(sample, len(reps)), replace=False)
    path = os.path.join(tmp, f"sample_{n}_{k}.jsonl")
    with open(path, "w") as fh:
        for j in sorted(pick.tolist()):
            holes = [list(divmod(int(f), n)) for f in reps[j]]
            fh.write(json.dumps({"board": {"rows": n, "cols": n, "holes": holes}}) + "\n")
    out = {}
    for closed in (False, True):
        c0 = pool_cpu(pool)
        rep = census(from_file=path, closed=closed, output=os.path.join(tmp, f"s{n}{k}{closed}.jsonl"), seed=1,
                     runner=pool)
        cpu = (pool_cpu(pool) - c0) / rep.questions
        secs = [float(r["seconds"]) for r in rep.summary.records.values()]
        unknown = sum(r["status"] == "unknown" for r in rep.summary.records.values())
        out[closed] = {"cpu": cpu, "mean": statistics.fmean(secs), "p99": float(np.percentile(secs, 99)), "max": max(secs),
                       "n": len(secs), "unknown": unknown}
    return out


def projection(stats: dict, tmp: str, sample: int, measured: float | None) -> list[str]:
    lines = [f"Load average before: {load()}", ""]
    eff = stats.get("dask_eff", 0.9)
    per_answer = stats.get("parent_per_answer", 2e-4)
    rows, bound = [], []
    with LocalPool(2) as pool:
        for n in (12, 16):
            total, reduced = orbit_count(Board(n, n), 3)
            cost = sample_cost(n, 3, sample, tmp, pool)
            say(f"  {n}x{n} --remove 3 sampled: {cost}")
            cpu = reduced * (cost[False]["cpu"] + cost[True]["cpu"])
            for cores in (2, 100):
                compute = cpu / (cores * eff)
                client = 2 * reduced * per_answer
                if client > compute:
                    bound.append(f"{n}x{n} on {cores} cores")
                rows.append([f"{n}x{n} --remove 3 --both", f"{total:,}", f"{reduced:,}", f"{2 * reduced:,}",
                             f"{cost[False]['cpu'] * 1e3:.2f} / {cost[True]['cpu'] * 1e3:.2f}",
                             f"{cost[False]['mean'] * 1e3:.2f} / {cost[True]['mean'] * 1e3:.2f}",
                             f"{cost[False]['max']:.2f} / {cost[True]['max']:.2f}", f"{cpu / 3600:.2f}", cores,
                             _hms(compute), _hms(client), _hms(max(compute, client))])
    lines += [markdown_table(["census", "boards", "up to symmetry", "questions", "CPU ms per question (open / closed)",
                              "wall ms here (open / closed)", "slowest in sample, s", "CPU hours", "cores",
                              "workers' time", "client's time", "projected wall time"], rows), ""]
    lines += [
        f"- questions counted exactly by Burnside's lemma; cost = CPU seconds of the census workers per question, "
        f"measured with psutil on {sample} questions drawn (seed 2024) from the family's own questions, run on "
        "two pool workers; 'wall ms here' is the time inside prove() on this loaded machine, where a worker gets "
        "only part of a core",
        f"- workers' time = CPU hours / (cores x {eff:.2f}); {eff:.2f} is the share of a Dask worker node's CPU "
        "that goes to census workers (against Dask's nanny and worker processes) measured on 12x12 --remove 2 "
        "in the throughput section; it assumes dedicated cores as fast as these, one Dask thread per core, "
        "batches of about 1 s (the default), and the client and scheduler on a machine of their own",
        f"- client's time = questions x {per_answer * 1e6:.0f} us, the CPU the census process spent per answer "
        "on Dask in the 12x12 --remove 2 censuses of the throughput section (receiving, writing the lines, the "
        "scheduler's work for the tasks, the family and the summary; less the scheduler's threads at rest, "
        "which a real cluster runs on a machine of its own): one process writes the results file, so it bounds "
        "the rate at about "
        f"{1 / per_answer:,.0f} answers per second, and the projection is the larger of the two times"
        + (f"; the client is the bottleneck for {', '.join(bound)}" if bound else ""),
        "- 2-core rows are the same formula for two dedicated cores"
        + (f"; on this shared machine the whole 12x12 --remove 3 --both process took {_hms(measured)} "
           "(section 2), with the load noted there"
           if measured else " (run with --largest3 to measure 12x12 --remove 3 --both in section 2)"),
        f"- load average after: {load()}",
    ]
    return lines


def _hms(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--sample", type=int, default=1500, help="questions sampled for the projection")
    ap.add_argument("--largest3", action="store_true", help="also run 12x12 --remove 3 --both")
    ap.add_argument("--skip-throughput", action="store_true")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="ktsolve-census-bench-")
    RESULTS.mkdir(exist_ok=True)
    text = ["# Census: throughput, the largest census here, and a projection", ""]
    text += [f"- {line}" for line in machine_lines(extra=("dask", "distributed"))]
    text += [f"- command: `python benchmarks/bench_census.py{' --largest3' if args.largest3 else ''}`", ""]
    stats = {"dask_busy": 0.9}
    if not args.skip_throughput:
        say("throughput ...")
        lines, stats = throughput(args.repeat, tmp)
        text += ["## 1. Throughput (questions per second)", "", *lines, ""]
    say("largest census ...")
    text += ["## 2. The largest census run here", ""]
    text += largest(["12x12", "--remove", "2", "--both"], "12x12_remove2_both", tmp)[0]
    measured = None
    if args.largest3:
        lines, measured = largest(["12x12", "--remove", "3", "--both"], "12x12_remove3_both", tmp)
        text += lines
    say("projection ...")
    text += ["## 3. Projection of --remove 3 to a 100-core cluster", "",
             *projection(stats, tmp, args.sample, measured), ""]
    (RESULTS / "census.md").write_text("\n".join(text), encoding="utf-8")
    print("\n".join(text))
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
