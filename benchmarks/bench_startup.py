"""Start-up and the whole-process path: what a user of the command line waits for.

All in one run, whole processes, warm (numba's cache filled by a first run
that is not timed), median of ``--repeat`` runs (5 by default):

* ``python -c "import click"`` and ``python -c "import numba"``, the
  yardsticks;
* ``ktsolve --version`` and ``ktsolve methods`` (target: within 0.2 s of
  importing click);
* ``ktsolve solve 8x8``, the README's main job (target: within 0.3 s of
  importing numba);
* ``ktsolve solve 1000x1000 --start a1 -m warnsdorff --format json -o FILE``
  and the same with ``--format npy`` and text, beside JGraphT 1.5.1's
  Warnsdorff demo on 1000x1000 as a whole process, JVM included (target:
  at most a quarter of JGraphT's time; the aim is a tenth).

It also prints where the time of the 1000x1000 JSON command goes, from the
``stats["steps"]`` of one in-process run, and the first run of each
command with an empty numba cache.

Run:  python benchmarks/bench_startup.py [--repeat 5] [--no-java]
Writes benchmarks/results/startup.md.
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

sys.path.insert(0, str(Path(__file__).parent))
from _machine import machine_lines, markdown_table, write_result  # noqa: E402

KTSOLVE = shutil.which("ktsolve", path=str(Path(sys.executable).parent)) or shutil.which("ktsolve")
JARS = ("/usr/share/java/jgrapht-core.jar", "/usr/share/java/jgrapht-demo.jar")
JAVA_SRC = Path(__file__).parent / "java" / "JGraphTWarnsdorff.java"

PHASES = r"""
import json, time
t0 = time.perf_counter()
from ktsolve import solve
from ktsolve.render import result_json
t1 = time.perf_counter()
res = solve("1000x1000", method="warnsdorff", start="a1", seed=1)
t2 = time.perf_counter()
text = result_json(res)
t3 = time.perf_counter()
with open(OUT, "w") as fh:
    fh.write(text)
t4 = time.perf_counter()
print(json.dumps({"imports": t1 - t0, "solve": t2 - t1, "json": t3 - t2, "write": t4 - t3,
                  "steps": res.stats["steps"]}))
"""


def timed(cmd, env) -> float:
    t0 = time.perf_counter()
    res = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    dt = time.perf_counter() - t0
    if res.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, cmd))} exited {res.returncode}: {res.stderr.strip()}")
    return dt


def java_command(tmp: str) -> list[str] | str:
    if not all(os.path.exists(j) for j in JARS):
        return "JGraphT not installed (apt-get install libjgrapht-java)"
    if not shutil.which("javac") or not shutil.which("java"):
        return "no javac/java on PATH"
    cp = ":".join(JARS)
    subprocess.run(["javac", "-d", tmp, "-cp", cp, str(JAVA_SRC)], check=True)
    return ["java", "-cp", f"{cp}:{tmp}", "org.jgrapht.demo.JGraphTWarnsdorff", "1000", "0"]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=5, help="warm runs per command (median)")
    ap.add_argument("--no-java", action="store_true", help="skip JGraphT")
    args = ap.parse_args(argv)
    if KTSOLVE is None:
        sys.exit("the ktsolve command is not installed in this environment")
    py = sys.executable
    rows, first_rows = [], []
    medians: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        out = os.path.join(tmp, "tour")
        commands = [
            ("import click", [py, "-c", "import click"]),
            ("import numba", [py, "-c", "import numba"]),
            ("ktsolve --version", [KTSOLVE, "--version"]),
            ("ktsolve methods", [KTSOLVE, "methods"]),
            ("ktsolve solve 8x8", [KTSOLVE, "solve", "8x8"]),
            ("1000x1000 json", [KTSOLVE, "solve", "1000x1000", "--start", "a1", "-m", "warnsdorff", "--format",
                                "json", "-o", out + ".json"]),
            ("1000x1000 npy", [KTSOLVE, "solve", "1000x1000", "--start", "a1", "-m", "warnsdorff", "--format",
                               "npy", "-o", out + ".npy"]),
            ("1000x1000 text", [KTSOLVE, "solve", "1000x1000", "--start", "a1", "-m", "warnsdorff",
                                "-o", out + ".txt"]),
        ]
        java = "skipped (--no-java)" if args.no_java else java_command(tmp)
        if isinstance(java, list):
            commands.append(("JGraphT Warnsdorff 1000x1000", java))
        for label, cmd in commands:
            first_rows.append([label, f"{timed(cmd, env):.3f}"])
        # warm runs one command at a time: a JVM that just exited leaves the kernel reclaiming its
        # gigabyte of heap, which slowed the command after it by up to 0.2 s when runs were interleaved
        times = {label: [timed(cmd, env) for _ in range(args.repeat)] for label, cmd in commands}
        for label, cmd in commands:
            medians[label] = statistics.median(times[label])
            shown = " ".join(str(c) for c in cmd[1:]) if label.startswith(("import", "JGraphT")) else \
                " ".join(str(c) for c in cmd[1:]).replace(out, "FILE")
            rows.append([label, f"`{Path(cmd[0]).name} {shown}`", f"{medians[label]:.3f}",
                         f"{min(times[label]):.3f}", f"{max(times[label]):.3f}"])
            print(rows[-1], flush=True)
        phases = json.loads(subprocess.run([py, "-c", f"OUT = {out + '.p.json'!r}\n" + PHASES], env=env,
                                           capture_output=True, text=True, check=True).stdout.splitlines()[-1])
    click_, numba_ = medians["import click"], medians["import numba"]
    checks = [
        ["`ktsolve --version` - `import click`", f"{medians['ktsolve --version'] - click_:.3f}", "0.2"],
        ["`ktsolve methods` - `import click`", f"{medians['ktsolve methods'] - click_:.3f}", "0.2"],
        ["`ktsolve solve 8x8` - `import numba`", f"{medians['ktsolve solve 8x8'] - numba_:.3f}", "0.3"],
    ]
    jg = medians.get("JGraphT Warnsdorff 1000x1000")
    if jg:
        checks.append(["1000x1000 json / JGraphT", f"{medians['1000x1000 json'] / jg:.3f}", "0.25 (aim 0.1)"])
    phase_rows = [[k, f"{phases[k]:.3f}"] for k in ("imports", "solve", "json", "write")]
    phase_rows += [[f"  step {s['step']}", f"{s['seconds']:.3f}" + (f" (+ graph {s['graph_s']:.3f})" if "graph_s" in s
                                                                    else "")
                    + (f" (+ validation {s['validation_s']:.3f})" if "validation_s" in s else "")]
                   for s in phases["steps"]]
    text = "\n".join([
        "# Start-up and the whole-process path", "", *machine_lines(java=not args.no_java), "",
        f"Command: `python benchmarks/bench_startup.py --repeat {args.repeat}`. Whole processes, warm numba "
        f"cache, median (min, max) of {args.repeat} runs of each command in a row.", "",
        markdown_table(["what", "command", "median s", "min s", "max s"], rows), "",
        "## Targets (issue 11)", "",
        markdown_table(["figure", "measured", "target"], checks), "",
        "## Where the 1000x1000 JSON command's time goes (one warm in-process run)", "",
        markdown_table(["phase", "seconds"], phase_rows), "",
        "## First run with an empty numba cache", "",
        markdown_table(["command", "seconds"], first_rows),
        f"\nJGraphT: {java if isinstance(java, str) else 'measured above'}", ""])
    write_result("startup", text)
    print(text)


if __name__ == "__main__":
    main()
