"""Independent random streams for numba kernels, one 32-bit seed per unit of work.

Numba's ``np.random`` is a Mersenne Twister whose state is global to the
thread.  Kernels that run in chunks (so that Python can read the clock
between them) reseed it at the start of every unit of work -- an attempt of
the neural network, a block of bee-colony iterations -- with a seed derived
from the user's seed and the unit's number.  A run then does not depend on
how the work was cut into chunks, any unit can be replayed alone, and the
slow pure-Python references in the tests reproduce a kernel draw for draw
with :class:`numpy.random.RandomState` (whose ``random_sample`` is the same
generator as numba's ``np.random.random`` under the same 32-bit seed).

The derivation is SplitMix64 (Steele, Lea & Flood 2014) applied to the seed,
a stream number (which algorithm, which restart) and the unit's number.
"""

from __future__ import annotations

import numpy as np

__all__ = ["unit_seeds"]

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


def _splitmix(z: np.ndarray) -> np.ndarray:
    z = z + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


def unit_seeds(seed: int, stream: int, first: int, count: int) -> np.ndarray:
    """Seeds of units ``first .. first + count - 1`` of ``stream`` under ``seed``.

    Parameters
    ----------
    seed : int
        The user's seed (any non-negative int; reduced modulo 2**64).
    stream : int
        Separates independent sequences under one seed (a restart number, say).
    first, count : int
        The units wanted.

    Returns
    -------
    ndarray of int64
        Values in ``[0, 2**32)``, fit for ``np.random.seed`` inside numba.

    Examples
    --------
    >>> a = unit_seeds(7, 0, 0, 5)
    >>> bool((a == unit_seeds(7, 0, 0, 5)).all()), bool((a[2:] == unit_seeds(7, 0, 2, 3)).all())
    (True, True)
    >>> bool((a == unit_seeds(7, 1, 0, 5)).any())
    False
    """
    with np.errstate(over="ignore"):
        base = _splitmix(np.array([int(seed) % 2**64], dtype=np.uint64))
        base = _splitmix(base ^ np.uint64(int(stream) % 2**64))
        units = np.arange(int(first), int(first) + int(count), dtype=np.uint64)
        out = _splitmix(base ^ (units * _GOLDEN))
    return (out >> np.uint64(32)).astype(np.int64)
