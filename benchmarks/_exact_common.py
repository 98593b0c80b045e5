"""Shared helpers of the benchmark scripts: machine description, medians, tables."""

from __future__ import annotations

import statistics
import time

from _machine import RESULTS, machine_lines  # noqa: E402


def timed(func, *args, **kwargs):
    t0 = time.perf_counter()
    out = func(*args, **kwargs)
    return out, time.perf_counter() - t0


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def table(head, rows) -> str:
    cells = [[str(c) for c in head]] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(head))]
    line = lambda r: "| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |"
    sep = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line(cells[0]), sep] + [line(r) for r in cells[1:]])


def write(name: str, title: str, body: str, note: str = "") -> str:
    text = f"# {title}\n\n" + "\n".join(machine_lines()) + "\n\n"
    if note:
        text += note.strip() + "\n\n"
    text += body.strip() + "\n"
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{name}.md").write_text(text, encoding="utf-8")
    return text
