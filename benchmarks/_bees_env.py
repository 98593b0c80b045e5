"""Machine and versions printed under every table of the bee-colony and neural-network benchmarks."""

from __future__ import annotations

import datetime
import os
import platform


def machine_lines() -> list[str]:
    """Date, CPU model, cores and the versions of Python, numpy and numba."""
    import numba
    import numpy

    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return [
        f"date: {datetime.date.today().isoformat()}",
        f"machine: {cpu}, {os.cpu_count()} cores; one core used",
        f"python {platform.python_version()}, numpy {numpy.__version__}, numba {numba.__version__}",
    ]


def load_average() -> str:
    try:
        return "load average at the end: " + " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "load average unknown"
