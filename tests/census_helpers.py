"""Helpers of the census tests: worker processes from /proc, answers and maps of results files."""

from __future__ import annotations

import collections
import json
import os

from ktsolve.census import orbit_members, read_results

WORKER_MARK = b"ktsolve.census.worker"


def worker_pids(parent: int | None = None) -> list[int]:
    """Pids of census worker processes (children of ``parent`` when given), from /proc."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                cmd = fh.read()
            with open(f"/proc/{entry}/stat", "rb") as fh:
                ppid = int(fh.read().rsplit(b")", 1)[1].split()[1])
        except OSError:
            continue
        if WORKER_MARK in cmd and (parent is None or ppid == parent):
            out.append(int(entry))
    return sorted(out)


def index_counts(path) -> collections.Counter:
    counts = collections.Counter()
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            if "index" in rec:
                counts[rec["index"]] += 1
    return counts


def answers(path) -> dict:
    """``{index: (status, settled_by, argument, tour)}`` of a results file."""
    ex = read_results(path, full=True)
    return {i: (r["status"], r["settled_by"], r["argument"], r.get("tour")) for i, r in ex.records.items()}


def square_map(summary, mode: str) -> dict:
    """``{(row, col): status}`` over the whole board of a one-square family, symmetric squares filled in."""
    base = summary.base
    out = {}
    for rec in summary.records.values():
        if ("closed" if rec["closed"] else "open") != mode:
            continue
        if summary.kind == "starts":
            sq = tuple(rec["start"])
        else:
            sq = next(tuple(h) for h in rec["board"]["holes"] if tuple(h) not in set(base.holes))
        for (flat,) in orbit_members(base, [sq[0] * base.cols + sq[1]]):
            out[divmod(flat, base.cols)] = rec["status"]
    return out
