"""The one SplitMix64 of ktsolve, pinned by known answers.

``ktsolve._splitmix`` is the only generator of the kernels and of the seed
derivation; these tests pin its stream, so any change to its constants or
its arithmetic fails here, and the plain-Python reference the naive kernels
replay (``tests/naive_splitmix.py``) is held to the same answers.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from ktsolve import _splitmix
from naive_splitmix import KNOWN_1234567, SplitMix64


@njit(cache=False)
def _steps(state, n):
    rng = np.array([state], dtype=np.uint64)
    out = np.empty(n, dtype=np.uint64)
    for i in range(n):
        out[i] = _splitmix.step(rng)
    return out


@njit(cache=False)
def _draws(state, n, m):
    rng = np.array([state], dtype=np.uint64)
    u = np.empty(n, dtype=np.float64)
    b = np.empty(n, dtype=np.int64)
    for i in range(n):
        u[i] = _splitmix.uniform(rng)
        b[i] = _splitmix.below(rng, m)
    return u, b, rng[0]


def test_reference_gives_the_known_answers():
    g = SplitMix64(1234567)
    assert [g.step() for _ in range(5)] == KNOWN_1234567


def test_kernel_gives_the_known_answers():
    assert [int(x) for x in _steps(np.uint64(1234567), 5)] == KNOWN_1234567


def test_python_call_gives_the_known_answers():
    rng = np.array([1234567], dtype=np.uint64)
    assert [int(_splitmix.step(rng)) for _ in range(5)] == KNOWN_1234567
    assert int(rng[0]) == (1234567 + 5 * 0x9E3779B97F4A7C15) % 2**64


def test_mix_array_is_one_step_per_element():
    states = np.array([1234567, 0, 2**64 - 1], dtype=np.uint64)
    expect = [SplitMix64(int(s)).step() for s in states]
    assert [int(x) for x in _splitmix.mix_array(states)] == expect


@pytest.mark.parametrize("state,m", [(0, 1), (1234567, 7), (2**63 + 5, 1000), (99, 2**32)])
def test_uniform_and_below_replay_the_reference(state, m):
    u, b, final = _draws(np.uint64(state), 50, m)
    g = SplitMix64(state)
    for i in range(50):
        assert u[i] == g.uniform()
        assert b[i] == g.below(m)
        assert 0 <= b[i] < m and 0.0 <= u[i] < 1.0
    assert int(final) == g.state


def test_derive_seeds_stands_on_the_same_generator():
    from ktsolve.seeds import derive_seeds, stream_key

    g = lambda s: SplitMix64(s).step()  # noqa: E731
    base = g(g(7) ^ stream_key("restart"))
    expect = [g(base ^ ((u * 0x9E3779B97F4A7C15) % 2**64)) >> 32 for u in range(3)]
    assert [int(x) for x in derive_seeds(7, "restart", 0, 3)] == expect
