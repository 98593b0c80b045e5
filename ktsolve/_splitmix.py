"""SplitMix64, the one random-number generator of ktsolve's kernels.

SplitMix64 (Steele, Lea & Flood 2014, "Fast splittable pseudorandom number
generators") keeps its whole state in one 64-bit word: a step adds the
golden-ratio constant to the state and returns a mix of it.  The state
lives in the caller's array (``rng[0]``, uint64), so a walk or a colony cut
into chunks draws the same numbers however the chunks fall, and a kernel
needs no generator object.

Every kernel that draws a random number calls :func:`step`, :func:`uniform`
or :func:`below` from this module, and :mod:`ktsolve.seeds` derives seeds
with :func:`mix_array`, the same mixing function over numpy arrays.  This is
the one file of ktsolve that holds the generator's constants.

This module is the one exception to "a jitted function calls only jitted
functions of its own file" (numba's cache does not notice an edit in
another file): ``tests/test_kernel_cache.py`` pins its source, and
``tests/test_splitmix.py`` pins its stream by known answers, so an edit here
cannot go unnoticed.

Examples
--------
>>> import numpy as np
>>> rng = np.array([1234567], dtype=np.uint64)
>>> int(step(rng)), int(step(rng))
(6457827717110365317, 3203168211198807973)
>>> rng = np.array([7], dtype=np.uint64)
>>> 0.0 <= uniform(rng) < 1.0, 0 <= below(rng, 10) < 10
(True, True)
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["GOLDEN", "step", "uniform", "below", "mix_array"]

#: The increment of the state: 2**64 divided by the golden ratio, odd.
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_S11 = np.uint64(11)
_TWO_M53 = 1.0 / 9007199254740992.0


@njit(cache=True, inline="always")
def _mix(z):
    """The output function: a bijective mix of one 64-bit word."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True, inline="always")
def step(rng):
    """Advance the state ``rng[0]`` (uint64) and return the next 64-bit output (uint64)."""
    z = rng[0] + GOLDEN
    rng[0] = z
    return _mix(z)


@njit(cache=True, inline="always")
def uniform(rng):
    """The next double in ``[0, 1)``: the top 53 bits of :func:`step`."""
    return np.float64(step(rng) >> _S11) * _TWO_M53


@njit(cache=True, inline="always")
def below(rng, m):
    """The next whole number in ``0 .. m-1`` (int64), by Lemire's multiply-shift of the top 32 bits.

    ``m`` must be from 1 to 2**32.
    """
    return np.int64(((step(rng) >> _S32) * np.uint64(m)) >> _S32)


def mix_array(z: np.ndarray) -> np.ndarray:
    """One SplitMix64 step on every uint64 of ``z``, as numpy array code: ``mix(z + GOLDEN)``.

    This is :func:`step`'s arithmetic for a whole array of states at once,
    used by :mod:`ktsolve.seeds` to derive seeds without compiling anything.

    Examples
    --------
    >>> int(mix_array(np.array([1234567], dtype=np.uint64))[0])
    6457827717110365317
    """
    with np.errstate(over="ignore"):
        return _mix.py_func(np.asarray(z, dtype=np.uint64) + GOLDEN)
