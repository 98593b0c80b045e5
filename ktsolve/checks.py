"""One checker for every value that reaches a method or a kernel.

The command line and the Python API refuse the same values with the same
message: a flag must be a bool, a count a whole number in its range, a real
number finite (unless infinity is one of its meaningful values) and in its
interval, a seed a whole number from 0 to 2**32 - 1, a time limit a positive
finite number of seconds.  Every refusal is an
:class:`~ktsolve.errors.InvalidParameterError` (a :class:`ValueError`) whose
message names the parameter and the value.  No value that passes can make a
kernel crash the interpreter or run without end: counts have an upper bound
and reals a finite range.

Examples
--------
>>> check_real("rho", 0.25, 0.0, 1.0)
0.25
>>> check_real("alpha", float("inf"), 0.0)
Traceback (most recent call last):
...
ktsolve.errors.InvalidParameterError: alpha = inf must be a finite number
>>> check_int("cycles", 10.0, 0)
10
>>> check_int("cycles", 1e99, 0)
Traceback (most recent call last):
...
ktsolve.errors.InvalidParameterError: cycles = 1e+99 must be from 0 to 4611686018427387904
>>> check_flag("closed", "no")
Traceback (most recent call last):
...
ktsolve.errors.InvalidParameterError: closed must be True or False, not 'no'
"""

from __future__ import annotations

import math
import numbers

from .errors import InvalidParameterError

__all__ = [
    "SEED_MAX",
    "COUNT_MAX",
    "check_flag",
    "check_real",
    "check_int",
    "check_seed",
    "check_time_limit",
    "check_choice",
]

#: Largest seed: the generators of numba, numpy's legacy seeding and CP-SAT take 32 bits.
SEED_MAX = 2**32 - 1

#: Default upper bound of a count (cycles, restarts, nodes): large enough for any
#: budget a person means, small enough that a kernel's int64 counters cannot overflow.
COUNT_MAX = 2**62


def _prefix(method: str | None) -> str:
    return f"method {method!r}: " if method else ""


def check_flag(name: str, value, *, method: str | None = None) -> bool:
    """``value`` if it is a bool (numpy's included); anything else is refused, never coerced."""
    if isinstance(value, bool):
        return value
    kind = type(value)
    if kind.__module__ == "numpy" and kind.__name__ in ("bool_", "bool"):  # numpy's bool, without importing numpy
        return bool(value)
    raise InvalidParameterError(f"{_prefix(method)}{name} must be True or False, not {value!r}")


def check_real(
    name: str,
    value,
    lo: float = -math.inf,
    hi: float = math.inf,
    *,
    lo_open: bool = False,
    hi_open: bool = False,
    allow_inf: bool = False,
    method: str | None = None,
) -> float:
    """``value`` as a float inside ``[lo, hi]`` (ends open when asked).

    Infinite values are refused unless ``allow_inf`` (a parameter for which
    infinity means something, such as the exponent of a power mean).  NaN
    and booleans are always refused.
    """
    pre = _prefix(method)
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, str)):
        raise InvalidParameterError(f"{pre}{name} must be a number, not {value!r}")
    try:
        v = float(value)
    except (TypeError, ValueError, OverflowError):
        raise InvalidParameterError(f"{pre}{name} must be a number, not {value!r}") from None
    if math.isnan(v):
        raise InvalidParameterError(f"{pre}{name} must be a number, not nan")
    if math.isinf(v) and not allow_inf:
        raise InvalidParameterError(f"{pre}{name} = {value!r} must be a finite number")
    if v < lo or v > hi or (lo_open and v == lo) or (hi_open and v == hi):
        left = "(" if lo_open else "["
        right = ")" if hi_open else "]"
        raise InvalidParameterError(f"{pre}{name} = {value!r} is outside {left}{lo:g}, {hi:g}{right}")
    return v


def check_int(name: str, value, lo: int = 0, hi: int | None = COUNT_MAX, *, method: str | None = None) -> int:
    """``value`` as an int in ``[lo, hi]``; a float is taken only when it is a whole number in range."""
    pre = _prefix(method)
    if isinstance(value, bool):
        raise InvalidParameterError(f"{pre}{name} must be a whole number, not {value!r}")
    if isinstance(value, numbers.Integral):
        v = int(value)
    elif isinstance(value, numbers.Real) and math.isfinite(float(value)) and float(value).is_integer():
        v = int(value)
    else:
        raise InvalidParameterError(f"{pre}{name} must be a whole number, not {value!r}")
    if v < lo or (hi is not None and v > hi):
        rng = f"at least {lo}" if hi is None else f"from {lo} to {hi}"
        shown = v if isinstance(value, numbers.Integral) else f"{float(value):g}"  # 1e+99, not its 100 digits
        raise InvalidParameterError(f"{pre}{name} = {shown} must be {rng}")
    return v


def check_seed(seed) -> int | None:
    """None, or a whole number from 0 to :data:`SEED_MAX` (floats are refused, even 1.0)."""
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or not 0 <= seed <= SEED_MAX:
        raise InvalidParameterError(f"seed must be a whole number from 0 to {SEED_MAX}, not {seed!r}")
    return int(seed)


def check_time_limit(time_limit) -> float | None:
    """None, or a positive finite number of seconds."""
    if time_limit is None:
        return None
    if (
        isinstance(time_limit, bool)
        or not isinstance(time_limit, numbers.Real)
        or not math.isfinite(float(time_limit))
        or not time_limit > 0
    ):
        raise InvalidParameterError(f"time_limit must be a positive number of seconds, not {time_limit!r}")
    return float(time_limit)


def check_choice(name: str, value, choices, *, method: str | None = None):
    """``value`` if it is one of ``choices``."""
    if isinstance(value, str) and value in choices:
        return value
    raise InvalidParameterError(
        f"{_prefix(method)}{name} must be one of {', '.join(map(str, choices))}, not {value!r}"
    )
