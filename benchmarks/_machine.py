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


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def versions() -> str:
    parts = [f"Python {platform.python_version()}"]
    for pkg in ("numpy", "numba", "ortools", "ktsolve"):
        try:
            parts.append(f"{pkg} {version(pkg)}")
        except PackageNotFoundError:
            parts.append(f"{pkg} (not installed)")
    return ", ".join(parts)


def machine_lines() -> list[str]:
    load = ""
    if hasattr(os, "getloadavg"):
        load = " (load average %.2f %.2f %.2f when started)" % os.getloadavg()
    return [
        f"Date: {datetime.datetime.now().isoformat(timespec='minutes')}",
        f"Machine: {cpu_model()}, {os.cpu_count()} cores{load}",
        f"Versions: {versions()}",
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
