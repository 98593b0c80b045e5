"""The seed rule: one convention for every random choice in ktsolve.

* ``seed=None`` draws a fresh seed, and the seed actually used is recorded in
  the result (``result.seed``), so passing it back repeats the run exactly.
  This holds for every method, called through :func:`ktsolve.solve` or
  directly.
* A seed is a whole number from 0 to ``2**32 - 1``
  (:data:`~ktsolve.checks.SEED_MAX`).
* Independent streams under one seed (a restart, an attempt of the neural
  network, a block of bee-colony iterations, a step of a portfolio) come
  from :func:`derive_seed` and :func:`derive_seeds`, the only derivation in
  ktsolve: SplitMix64 (Steele, Lea & Flood 2014) applied to the seed, a
  stream key and a unit number.  A unit can therefore be replayed alone and
  a run does not depend on how its work was cut into chunks.

Every function that takes a seed documents it with the paragraph
:data:`SEED_DOC`, word for word; a method that draws no random number
(backtrack, csp, divide) takes ``seed`` only so that every method has the
same signature, and documents it with :data:`UNSEEDED_SEED_DOC` instead.

Examples
--------
>>> resolve_seed(7)
7
>>> s = resolve_seed(None)
>>> 0 <= s < 2**32
True
>>> derive_seed(7, "restart", 3) == int(derive_seeds(7, "restart", 3, 1)[0])
True
>>> derive_seed(7, 0, 0) != derive_seed(7, 1, 0)
True
"""

from __future__ import annotations

import secrets
import zlib

import numpy as np

from .checks import SEED_MAX, check_seed

__all__ = ["SEED_DOC", "UNSEEDED_SEED_DOC", "seed_doc", "resolve_seed", "derive_seed", "derive_seeds", "stream_key"]

#: The seed paragraph of every docstring (numpydoc ``Parameters`` entry).
SEED_DOC = """seed : int, optional
    Seed of every random choice, a whole number from 0 to 2**32 - 1.  None
    draws a fresh seed; the seed used is recorded in ``result.seed``, and
    passing it again repeats the run exactly."""

#: The seed paragraph of a method that draws no random number.
UNSEEDED_SEED_DOC = """seed : int, optional
    Checked like every seed (a whole number from 0 to 2**32 - 1) and then
    ignored: this method draws no random number, so every seed gives the
    same answer and ``result.seed`` is None."""

#: The lines of a docstring that :func:`seed_doc` replaces, and by what.
_SEED_TOKENS = {"%(seed)s": SEED_DOC, "%(unseeded seed)s": UNSEEDED_SEED_DOC}


def seed_doc(func):
    """Put the seed paragraph into ``func``'s docstring: a line holding only ``%(seed)s`` becomes
    :data:`SEED_DOC`, one holding only ``%(unseeded seed)s`` :data:`UNSEEDED_SEED_DOC`, indented like the
    line, so every method carries the paragraph word for word and it is written once, here.

    Examples
    --------
    >>> @seed_doc
    ... def f(seed=None):
    ...     '''Parameters
    ...     ----------
    ...     %(seed)s
    ...     '''
    >>> SEED_DOC.splitlines()[1] in f.__doc__
    True
    """
    lines = []
    for line in (func.__doc__ or "").split("\n"):
        doc = _SEED_TOKENS.get(line.strip())
        if doc is None:
            lines.append(line)
        else:
            indent = line[:len(line) - len(line.lstrip())]
            lines.extend(indent + part for part in doc.split("\n"))
    func.__doc__ = "\n".join(lines)
    return func


def resolve_seed(seed) -> int:
    """The seed to use: ``seed`` itself when given (checked), a fresh draw when None.

    Examples
    --------
    >>> resolve_seed(42)
    42
    >>> 0 <= resolve_seed(None) <= 2**32 - 1
    True
    """
    seed = check_seed(seed)
    return secrets.randbelow(SEED_MAX + 1) if seed is None else seed


def stream_key(stream) -> int:
    """A stream key as a 64-bit number: ints as they are, strings by their CRC-32.

    Examples
    --------
    >>> stream_key(5), stream_key("abc") == stream_key("abc")
    (5, True)
    """
    if isinstance(stream, str):
        return zlib.crc32(stream.encode("utf-8"))
    return int(stream) % 2**64


def derive_seeds(seed: int, stream, first: int, count: int) -> np.ndarray:
    """Seeds of units ``first .. first + count - 1`` of ``stream`` under ``seed``.

    Parameters
    ----------
    seed : int
        The run's seed.
    stream : int or str
        Separates independent sequences under one seed (an algorithm, a
        restart number, a step name).
    first, count : int
        The units wanted.

    Returns
    -------
    ndarray of int64
        Values in ``[0, 2**32)``, fit for any generator ktsolve seeds
        (``np.random.seed`` inside numba among them).

    Examples
    --------
    >>> a = derive_seeds(7, 0, 0, 5)
    >>> bool((a == derive_seeds(7, 0, 0, 5)).all()), bool((a[2:] == derive_seeds(7, 0, 2, 3)).all())
    (True, True)
    >>> bool((a == derive_seeds(7, 1, 0, 5)).any())
    False
    """
    # Imported here: the generator's module loads numba, which listing
    # methods or reading a census summary does not need.
    from ._splitmix import GOLDEN, mix_array

    base = mix_array(np.array([int(seed) % 2**64], dtype=np.uint64))
    base = mix_array(base ^ np.uint64(stream_key(stream)))
    units = np.arange(int(first), int(first) + int(count), dtype=np.uint64)
    with np.errstate(over="ignore"):
        out = mix_array(base ^ (units * GOLDEN))
    return (out >> np.uint64(32)).astype(np.int64)


def derive_seed(seed: int, stream=0, unit: int = 0) -> int:
    """The seed of one unit of one stream under ``seed`` (see :func:`derive_seeds`).

    Examples
    --------
    >>> derive_seed(1, "restart", 0) == derive_seed(1, "restart", 0) != derive_seed(1, "restart", 1)
    True
    """
    return int(derive_seeds(seed, stream, unit, 1)[0])
