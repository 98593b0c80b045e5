"""Exact integers for the frontier count: how many residues a count needs, the primes, and the Chinese remainder.

The frontier count only adds counts, so each of its counts can be kept
modulo a prime below 2**62 (a sum of two fits an int64) and the true
number recovered from its residues modulo several primes by the Chinese
remainder theorem, provided the primes' product exceeds the true number.
An upper bound on the number of tours, proved from the degrees alone,
says how many primes are enough:

* a directed Hamiltonian cycle is a permutation ``sigma`` with every
  ``i -> sigma(i)`` a move, so there are at most ``perm(A)`` of them, and
  Bregman's theorem bounds the permanent of a 0-1 matrix by
  ``prod_i (d_i!)**(1 / d_i)`` (``d_i`` the row sums: the degrees);
* a directed Hamiltonian path is a Hamiltonian cycle through one extra
  vertex joined both ways to every square: at most
  ``(n!)**(1/n) * prod_i ((d_i + 1)!)**(1 / (d_i + 1)) <= n * prod_i ...``.

The bound's base-2 logarithm is summed in floating point and rounded up
with a margin of two bits, far above the rounding error of a few thousand
terms; floats only choose how many primes to use, never a count.

Besides residues, a count may run in plain int64 that sticks at
2**63 - 1 once it would pass it (mod 0 in the kernels): every count that
flows into the answer is at most the answer, so an answer below 2**63 - 1
is exact, and one at 2**63 - 1 says the int64 pass was not enough.

Examples
--------
>>> primes(3, 0) == primes(3, 0) and all(is_prime(p) for p in primes(3, 0))
True
>>> ps = primes(2, 1)
>>> crt([123456789 % p for p in ps], ps)
123456789
"""

from __future__ import annotations

import math

__all__ = ["ARITHMETIC", "bound_bits", "crt", "is_prime", "primes", "residues_needed"]

#: How the frontier method keeps counts exact (:mod:`ktsolve.models.frontier`).
ARITHMETIC = ("auto", "int64", "residues")

#: Witnesses that make Miller-Rabin exact below 3.3 * 10**24 (Sorenson and Webster).
_WITNESSES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
#: Where each set of primes starts (downwards): two disjoint sets, so a count can be checked in both.
_TOPS = (2**62, 2**61)
_CACHE: dict[int, list[int]] = {0: [], 1: []}


def is_prime(n: int) -> bool:
    """Deterministic Miller-Rabin for ``n`` below 3.3 * 10**24.

    Examples
    --------
    >>> [k for k in range(30) if is_prime(k)]
    [2, 3, 5, 7, 11, 13, 17, 19, 23, 29]
    >>> is_prime(2**61 - 1), is_prime(2**62 - 1)
    (True, False)
    """
    if n < 2:
        return False
    for p in _WITNESSES:
        if n % p == 0:
            return n == p
    d, r = n - 1, 0
    while d % 2 == 0:
        d //= 2
        r += 1
    for a in _WITNESSES:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(r - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def primes(count: int, which: int = 0) -> list[int]:
    """The ``count`` largest primes below 2**62 (``which=0``) or below 2**61 (``which=1``)."""
    have = _CACHE[which]
    n = (have[-1] if have else _TOPS[which]) - 1
    while len(have) < count:
        if is_prime(n):
            have.append(n)
        n -= 1
    return have[:count]


def bound_bits(degrees, closed: bool) -> float:
    """An upper bound on log2 of the number of Hamiltonian cycles (closed) or paths of a graph.

    Examples
    --------
    >>> round(bound_bits([2, 2, 2, 2], True), 2)      # a 4-cycle: 8 directed cycles at most, 2 in fact
    4.0
    """
    degrees = [int(d) for d in degrees]
    n = len(degrees)
    if closed:
        bits = sum(math.log2(math.factorial(d)) / d for d in degrees if d > 0)
    else:
        bits = sum(math.log2(math.factorial(d + 1)) / (d + 1) for d in degrees) + math.log2(max(n, 1))
    return bits + 2.0


def residues_needed(bits: float, which: int = 0) -> int:
    """How many primes of set ``which`` have a product above 2**bits.

    Examples
    --------
    >>> residues_needed(100.0), residues_needed(61.0)
    (2, 1)
    """
    count, have = 0, 0.0
    while have <= bits:
        count += 1
        have = sum(math.log2(p) for p in primes(count, which))
        have -= 1e-9 * count  # each log2 rounded down
    return count


def crt(residues, moduli) -> int:
    """The number below the moduli's product with the given residues (moduli pairwise coprime).

    Examples
    --------
    >>> crt([2, 3], [3, 5])
    8
    """
    x, m = 0, 1
    for r, p in zip(residues, moduli):
        r, p = int(r), int(p)
        # x + m * t = r (mod p)
        t = (r - x) * pow(m, -1, p) % p
        x += m * t
        m *= p
    return x
