"""Parsing files of many tours, one per line, a block of lines at a time, without a Python object per square.

``ktsolve enumerate -o`` writes hundreds of thousands of tours, each a line
of square names separated by single spaces.  :func:`parse_block` turns a
block of such lines into a ``(k, N)`` array of square numbers with a few
vectorised passes over the bytes: the separators mark the names, each name's
bytes are packed into a uint64 key, and the keys are looked up in the
board's (a dense table for short names, a sorted array otherwise).  Any
line it cannot read that way (another length, names written otherwise)
makes it return None, and :mod:`ktsolve.files` reads the block with the
general parser, which names the fault.
"""

from __future__ import annotations

import re

import numpy as np

__all__ = ["name_keys", "parse_block", "split_line"]


def split_line(line: bytes) -> list[bytes]:
    """The names of one line: separated by whitespace, commas or semicolons."""
    if b"," in line or b";" in line:
        return [t for t in re.split(rb"[\s,;]+", line) if t]
    return line.split()


#: Longest square name the vectorised parser reads (``zzz99999`` fits; longer ones take the general parser).
_KEY_BYTES = 8


def name_keys(names) -> np.ndarray:
    """Each name's bytes packed little-endian into a uint64 (names of at most :data:`_KEY_BYTES` bytes)."""
    out = np.zeros(len(names), dtype=np.uint64)
    for i, nm in enumerate(names):
        b = nm.encode("ascii")
        out[i] = int.from_bytes(b, "little") if len(b) <= _KEY_BYTES else 0
    return out


def parse_block(block: list[bytes], keys: np.ndarray, order: np.ndarray, n: int) -> np.ndarray | None:
    """``(k, n)`` square numbers of ``k`` lines of ``n`` square names each, vectorised; None if any line differs.

    Tokens are found from the separator bytes, each packed into a uint64
    key and looked up in the board's sorted keys: no Python object per
    square, so half a million tours parse in seconds.  Anything unusual
    (a line of another length, a name not written as ktsolve writes it)
    returns None and is read by the general parser, which names the fault.
    """
    data = b"\n".join(block) + b"\n"
    a = np.frombuffer(data, dtype=np.uint8)
    sep = _SEPARATOR[a]
    word = ~sep
    starts = np.flatnonzero(word[1:] & sep[:-1]) + 1
    if word[0]:
        starts = np.concatenate(([0], starts))
    if starts.size != len(block) * n:
        return None
    ends = np.flatnonzero(word[:-1] & sep[1:]) + 1  # the data ends with a newline: every token ends
    lengths = ends - starts
    longest = int(lengths.max()) if lengths.size else 0
    if longest == 0 or longest > _KEY_BYTES:
        return None
    key = a[starts].astype(np.uint64)
    for pos in range(1, longest):  # byte pos of every token at once; past a token's end, nothing
        byte = a[np.minimum(starts + pos, a.size - 1)].astype(np.uint64)
        byte[lengths <= pos] = 0
        key |= byte << np.uint64(8 * pos)
    if keys.size and int(keys[-1]) < _DENSE_KEYS:  # short names (up to z99 is 3 bytes): one table lookup
        table = _dense_table(keys, order)
        squares = table[np.minimum(key, np.uint64(table.size - 1)).astype(np.intp)]
        if (squares < 0).any():
            return None
    else:
        at = np.minimum(np.searchsorted(keys, key), keys.size - 1)
        if not (keys[at] == key).all():
            return None
        squares = order[at]
    # tokens on each line: where each newline falls among the token starts
    before = np.searchsorted(starts, np.flatnonzero(a == 10))
    per_line = np.diff(before, prepend=0)
    if per_line.size != len(block) or (per_line != n).any():
        return None
    return squares.astype(np.int32, copy=False).reshape(len(block), n)


#: Bytes that separate square names: whitespace, commas and semicolons.
_SEPARATOR = np.zeros(256, dtype=bool)
_SEPARATOR[[9, 10, 11, 12, 13, 32, 44, 59]] = True


#: Largest packed name for which the parser builds a dense lookup table (4 MiB of int32).
_DENSE_KEYS = 1 << 20


def _dense_table(keys: np.ndarray, order: np.ndarray) -> np.ndarray:
    """``table[key]`` = square number of that name, -1 elsewhere (keys sorted, all below :data:`_DENSE_KEYS`)."""
    cached = _DENSE_CACHE.get(keys.tobytes())
    if cached is None:
        cached = np.full(int(keys[-1]) + 2, -1, dtype=np.int32)  # the last entry: every key beyond
        cached[keys.astype(np.int64)] = order
        _DENSE_CACHE.clear()  # one board at a time
        _DENSE_CACHE[keys.tobytes()] = cached
    return cached


_DENSE_CACHE: dict = {}
