"""Shared bits of the benchmark scripts: machine description, medians, Markdown tables, result files."""

from __future__ import annotations

import datetime
import os
import platform
import statistics
import time
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

RESULTS = Path(__file__).parent / "results"

#: Load average when the benchmark started (this module is imported first thing).
START_LOAD = os.getloadavg() if hasattr(os, "getloadavg") else None


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def versions(extra: tuple[str, ...] = ()) -> str:
    """Python and the versions of the packages behind the figures (``extra``: more package names)."""
    parts = [f"Python {platform.python_version()}"]
    for pkg in ("numpy", "numba", "ortools", "python-constraint", "ktsolve", *extra):
        try:
            parts.append(f"{pkg} {version(pkg)}")
        except PackageNotFoundError:
            parts.append(f"{pkg} (not installed)")
    return ", ".join(parts)


def java_version() -> str | None:
    """First line of ``java -version``, or None without a JVM."""
    import shutil
    import subprocess

    java = shutil.which("java")
    if not java:
        return None
    res = subprocess.run([java, "-version"], capture_output=True, text=True)
    return (res.stderr or res.stdout).splitlines()[0].replace('"', "")


def machine_lines(extra: tuple[str, ...] = (), java: bool = False) -> list[str]:
    """Date, CPU and cores, versions, and the load note: the lines every result file starts with."""
    vers = versions(extra)
    if java:
        vers += f", {java_version() or 'no JVM'}"
    return [
        f"Date: {datetime.datetime.now().isoformat(timespec='minutes')}",
        f"Machine: {cpu_model()}, {os.cpu_count()} cores",
        f"Versions: {vers}",
        load_note(),
    ]


def median_time(fn, repeat: int) -> tuple[float, object]:
    """Median wall time of ``repeat`` calls of ``fn()`` and the last result."""
    times = []
    out = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def fmt_s(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def markdown_table(columns, rows) -> str:
    cells = [[str(c) for c in columns]] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(columns))]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(cells[0], widths)) + " |",
             "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    lines += ["| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |" for r in cells[1:]]
    return "\n".join(lines)


def write_result(name: str, text: str) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.md"
    path.write_text(text, encoding="utf-8")
    return path


def load_note() -> str:
    """One line on whether other jobs shared the machine, from the load average when it started.

    Benchmarks run one after another, so the load left by the previous one
    (about 1 on this machine) is no sign of other work; above 1.6 is.
    """
    if START_LOAD is None:
        return "Load average unknown: other jobs may have shared the machine."
    shown = " ".join(f"{x:.2f}" for x in START_LOAD)
    if START_LOAD[0] < 1.6:
        return f"Load average {shown} at the start: no other heavy job ran beside this benchmark."
    return f"Load average {shown} at the start: other jobs shared the machine, so wall times are noisy."


def timed_process(cmd: list[str], log: Path) -> dict:
    """Run ``cmd`` under ``/usr/bin/time -v`` (its report written to ``log``): wall seconds, peak resident MB,
    exit code, and the lines it printed (``out``: standard output, else standard error)."""
    import subprocess

    res = subprocess.run(["/usr/bin/time", "-v", "-o", str(log), *cmd], capture_output=True, text=True)
    report = log.read_text()

    def field(name: str) -> str:
        return next(ln.split(": ", 1)[1] for ln in report.splitlines() if ln.strip().startswith(name))

    wall = 0.0
    for part in field("Elapsed (wall clock) time").split(":"):
        wall = wall * 60 + float(part)
    out = res.stdout.strip().splitlines() or res.stderr.strip().splitlines() or [""]
    return {"wall": wall, "peak_mb": int(field("Maximum resident set size")) / 1024, "exit": res.returncode,
            "out": out, "cmd": " ".join(cmd)}

