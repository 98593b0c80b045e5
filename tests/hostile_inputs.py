"""Hostile input files, and a runner that reads them in a child process under a memory cap.

Shared by ``tests/test_hostile_files.py`` and the fuzzers: each maker writes
one file (or names a device) in a folder and returns its path; :func:`run_capped`
runs a short Python snippet in a subprocess whose address space is capped
(``resource.setrlimit(RLIMIT_AS)``) and whose time is bounded, so a reader
that inflates a bomb or reads a device forever fails the test instead of
the machine.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import zlib

#: Address-space cap of a child that reads a hostile file (numpy and ktsolve need ~300 MB of it).
MEMORY_CAP = 900 << 20
#: The cap of a child that runs the exact oracle on a damaged cache: OR-Tools, the SAT solvers and their
#: threads map about 560 MB more address space than the readers (VmSize 365 MB -> 924 MB on a 4x4 board),
#: which MEMORY_CAP would turn into a crash inside the SAT solver rather than a refusal to test.
ORACLE_CAP = 2 << 30

_PRELUDE = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({cap}, {cap}))
sys.setrecursionlimit(10_000)
"""


def run_capped(code: str, *, timeout: float = 60, cap: int = MEMORY_CAP) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter under an address-space cap; the result (returncode, stdout, stderr)."""
    src = _PRELUDE.format(cap=cap) + code
    return subprocess.run([sys.executable, "-c", src], capture_output=True, text=True, timeout=timeout)


def gzip_bomb(path, inflated: int = 400 << 20, byte: bytes = b" ") -> str:
    """A gzip file of ``inflated`` copies of ``byte`` (a few hundred kilobytes on disk; made once per path)."""
    if os.path.exists(path):
        return str(path)
    comp = zlib.compressobj(9, zlib.DEFLATED, 31)  # wbits 31: a gzip header and trailer
    block = byte * (1 << 20)
    with open(path, "wb") as fh:
        for _ in range(inflated >> 20):
            fh.write(comp.compress(block))
        fh.write(comp.flush())
    return str(path)


def npy_claiming(path, count: int = 10**11) -> str:
    """A ``.npy`` file whose header claims ``count`` int64 values and holds eight bytes."""
    header = "{'descr': '<i8', 'fortran_order': False, 'shape': (%d,), }" % count
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(path, "wb") as fh:
        fh.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode("latin1"))
        fh.write(b"\0" * 8)
    return str(path)


def deep_json(path, depth: int = 100_000) -> str:
    with open(path, "w") as fh:
        fh.write("[" * depth + "]" * depth)
    return str(path)


def json_tour_with(path, value: str) -> str:
    """A JSON tour whose second step is ``[value, 0]`` (a number written out as given)."""
    with open(path, "w") as fh:
        fh.write('{"tour": [[0, 0], [' + value + ", 0]]}")
    return str(path)


def long_line(path, chars: int = 5 << 20) -> str:
    """A tour file of one token of ``chars`` letters: a message must not echo it."""
    with open(path, "w") as fh:
        fh.write("q" * chars)
    return str(path)


def gzipped(path, text: str) -> str:
    with gzip.open(path, "wt") as fh:
        fh.write(text)
    return str(path)


def hostile_tour_files(folder) -> dict[str, str]:
    """Every hostile tour file of this module, by name, written in ``folder``."""
    folder = os.fspath(folder)
    j = os.path.join
    return {
        "bomb": gzip_bomb(j(folder, "bomb.gz")),
        "newline bomb": gzip_bomb(j(folder, "newlines.gz"), inflated=200 << 20, byte=b"\n"),
        "zero device": "/dev/zero",
        "random device": "/dev/urandom",
        "npy 10^11": npy_claiming(j(folder, "huge.npy")),
        "deep json": deep_json(j(folder, "deep.json")),
        "deep json within budget": deep_json(j(folder, "deep20k.json"), 20_000),
        "60 digits": json_tour_with(j(folder, "big.json"), "9" * 60),
        "5000 digits": json_tour_with(j(folder, "long.json"), "9" * 5000),
        "5000-digit pair": _write(j(folder, "pairs.txt"), "0,0\n" + "9" * 5000 + ",1\n"),
        "5000-digit name": _write(j(folder, "name.txt"), "a1 b" + "9" * 5000 + "\n"),
        "60-digit matrix": _write(j(folder, "matrix.txt"), "1 2 3 4 5 6 7 8\n" * 7 + "9" * 60 + " 2 3 4 5 6 7 8\n"),
        "long line": long_line(j(folder, "line.txt")),
        "json bomb": _write(j(folder, "jb.json"), json.dumps({"tour": [[0, 0]] * 3_000_000})),
    }


def _write(path, text: str) -> str:
    with open(path, "w") as fh:
        fh.write(text)
    return str(path)
