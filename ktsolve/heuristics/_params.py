"""One declaration of a method's parameters, from which its signature, checks and docstring are built.

A method with many parameters (the colonies :mod:`.aco` and :mod:`.iaco`,
the GA :mod:`.ga`) declares them once, as a :class:`Params` table of
:class:`Param` rows: name, default, check and one doc entry.  From that
table come

* the public signature of its ``solve_*`` and ``enumerate_*`` functions
  (:meth:`Params.declare` sets ``__signature__``, so
  :func:`inspect.signature`, ``help()`` and
  :func:`ktsolve.request.check_params` see every parameter by name, with
  ``seed`` last);
* the checks of the values a call gives (:meth:`Params.check`), with the
  messages of :mod:`ktsolve.checks`;
* the ``Parameters`` section of the docstrings, defaults included
  (:meth:`Params.doc`);
* the defaults that the plain-Python references of ``tests/`` use;
* what ``ktsolve methods NAME`` prints: every parameter with its default,
  its range (:attr:`Param.range`, read off its check) and one line
  (:meth:`Params.rows`).

Every built-in method with parameters declares such a table, named
``PARAMS`` in its module and in its :class:`~ktsolve.registry.MethodInfo`
(``params=``); the methods with a few parameters check their values with
:meth:`Params.check` and keep their plain signature.

So a default changes in one place.  A check may read the checked value of
another parameter (``get("tau_lo")``), whatever their order; a default of
None may stand for a value computed from the board and the other
parameters (``computed``), which is trusted, not checked.

Examples
--------
>>> P = Params("demo", (Param("rho", 0.5, real(0.0, 1.0), "float", "Evaporation, in [0, 1]."),
...                     Param("ants", None, whole(1, 10), "int, optional", "Ants; default one per square.",
...                           computed=lambda get, n: n)))
>>> v = P.check({"rho": 0.25}, n=25)
>>> v.rho, v.ants
(0.25, 25)
>>> P.check({"rho": 2}, n=25)
Traceback (most recent call last):
...
ktsolve.errors.InvalidParameterError: method 'demo': rho = 2 is outside [0, 1]
>>> print(P.entries()[0])
rho : float
    Evaporation, in [0, 1].  Default ``0.5``.
"""

from __future__ import annotations

import inspect
import math
import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace

from ..checks import COUNT_MAX, check_choice, check_flag, check_int, check_real
from ..errors import InvalidParameterError
from ..seeds import SEED_DOC

__all__ = ["Param", "Params", "Range", "real", "whole", "choice", "exponent", "flag", "anything", "described",
           "by_method", "call_doc"]


@dataclass(frozen=True)
class Range:
    """What a check accepts, for people and for tests: a kind and its bounds.

    ``kind`` is ``"real"``, ``"whole"``, ``"choice"``, ``"flag"``,
    ``"exponent"`` or ``"other"`` (then ``text`` says it); a bound may name
    another parameter (``"tau_lo"``).  ``str()`` is what ``ktsolve methods
    NAME`` prints; :meth:`outside` gives values the check refuses.

    Examples
    --------
    >>> str(Range("real", 0.0, 1.0, hi_open=True)), str(Range("whole", 1, COUNT_MAX))
    ('[0, 1)', '1 or more')
    >>> str(Range("choice", options=("first", "roth"))), str(Range("flag"))
    ('first | roth', 'true | false')
    """

    kind: str
    lo: object = None
    hi: object = None
    lo_open: bool = False
    hi_open: bool = False
    options: tuple = ()
    text: str = ""

    def __str__(self) -> str:
        if self.kind == "choice":
            return " | ".join(self.options)
        if self.kind == "flag":
            return "true | false"
        if self.kind == "whole":
            if self.hi is None or self.hi == COUNT_MAX:
                return f"{_num(self.lo)} or more"
            return f"{_num(self.lo)} to {_num(self.hi)}"
        if self.kind in ("real", "exponent"):
            text = f"{'(' if self.lo_open else '['}{_num(self.lo)}, {_num(self.hi)}{')' if self.hi_open else ']'}"
            return text + (" or ±inf" if self.kind == "exponent" else "")
        return self.text

    def outside(self) -> list:
        """Values this range refuses (none when a bound names another parameter or it is not a number range)."""
        if self.kind == "choice":
            return ["no such choice"]
        if self.kind == "flag":
            return ["yes"]
        if isinstance(self.lo, str) or isinstance(self.hi, str) or self.kind not in ("whole", "real", "exponent"):
            return []
        out = []
        if self.kind == "whole":
            out.append(self.lo - 1)
            if self.hi is not None and self.hi < COUNT_MAX:
                out.append(self.hi + 1)
            return out
        step = max(1.0, abs(float(self.hi)) - abs(float(self.lo)))
        out.append(self.lo if self.lo_open else self.lo - step)
        out.append(self.hi if self.hi_open else self.hi + step)
        return out


def _num(value) -> str:
    """A bound as people write it: 1e6 rather than 1000000.0, whole numbers with separators."""
    if isinstance(value, str):
        return value
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e6:
        value = int(value)
    if isinstance(value, int):
        digits = str(abs(value))
        if abs(value) >= 10**6 and digits.strip("0") == "1":  # a power of ten: 10^9
            return f"{'-' if value < 0 else ''}10^{len(digits) - 1}"
        return f"{value:,}"
    return f"{value:g}".replace("e+0", "e").replace("e+", "e").replace("e-0", "e-")


def described(range_: Range) -> Callable:
    """Decorate a check of one's own with the :class:`Range` it accepts (what ``ktsolve methods`` prints)."""
    def mark(check: Callable) -> Callable:
        check.range = range_
        return check
    return mark


@dataclass(frozen=True)
class Param:
    """One parameter: its name, default, check and doc entry.

    ``check(value, name, get, ctx)`` returns the checked value or raises
    :class:`~ktsolve.errors.InvalidParameterError`; ``get(other)`` is the
    checked value of another parameter, ``ctx.n`` the board's squares and
    ``ctx.method`` the method's name.  ``kind`` is the numpydoc type,
    ``doc`` the description (the default is appended unless it is None).
    ``computed(get, n)``, when given, is the value a default of None
    stands for.
    """

    name: str
    default: object
    check: Callable
    kind: str
    doc: str
    computed: Callable | None = None

    @property
    def range(self) -> Range:
        """What the check accepts (its :class:`Range`; ``"other"`` with the type when it says nothing)."""
        return getattr(self.check, "range", None) or Range("other", text=self.kind)

    @property
    def line(self) -> str:
        """The doc's first sentence, without reStructuredText marks: the one line ``ktsolve methods`` prints.

        Examples
        --------
        >>> Param("rho", 0.5, real(0, 1), "float", "Evaporation, see :func:`f`.  More.").line
        'Evaporation, see f.'
        """
        text = re.sub(r":\w+:`~?\.*([^`]+)`", r"\1", self.doc)
        text = text.replace("``", "")
        head = re.split(r"(?<=\.)\s+(?=[A-Z\"(])", text.strip(), maxsplit=1)[0]
        return " ".join(head.split())


def _bound(bound, get):
    return get(bound) if isinstance(bound, str) else bound


def real(lo, hi, *, lo_open: bool = False, hi_open: bool = False) -> Callable:
    """A finite real in ``[lo, hi]`` (open ends as asked); a bound may name another parameter."""
    @described(Range("real", lo, hi, lo_open=lo_open, hi_open=hi_open))
    def check(value, name, get, ctx):
        return check_real(name, value, _bound(lo, get), _bound(hi, get), lo_open=lo_open, hi_open=hi_open,
                          method=ctx.method)
    return check


def whole(lo: int, hi: int | None = COUNT_MAX) -> Callable:
    """A whole number in ``[lo, hi]``; the upper bound of every count by default (:data:`~ktsolve.checks.COUNT_MAX`)."""
    @described(Range("whole", lo, hi))
    def check(value, name, get, ctx):
        return check_int(name, value, lo, hi, method=ctx.method)
    return check


def choice(options) -> Callable:
    """One of ``options`` (strings)."""
    options = tuple(options)

    @described(Range("choice", options=options))
    def check(value, name, get, ctx):
        return check_choice(name, value, options, method=ctx.method)
    return check


def flag(value, name, get, ctx):
    """True or False, never coerced."""
    return check_flag(name, value, method=ctx.method)


flag.range = Range("flag")


def exponent(bound: float) -> Callable:
    """A real exponent in ``[-bound, bound]``, or one of the infinities (the limits of a power mean)."""
    @described(Range("exponent", -bound, bound))
    def check(value, name, get, ctx):
        if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isinf(value):
            return float(value)
        return check_real(name, value, -bound, bound, method=ctx.method)
    return check


def by_method(get, n):
    """``computed`` of a default the method works out itself from the board (None is passed on to it)."""
    return None


def anything(value, name, get, ctx):
    """No check here: the value is checked where it is used (a seed tour by :func:`~._colony.seed_moves`)."""
    return value


def _show(value) -> str:
    if isinstance(value, float) and math.isinf(value):
        return "``float(\"inf\")``" if value > 0 else "``float(\"-inf\")``"
    return f"``{value!r}``"


def call_doc(spec: str, units: str) -> dict[str, str]:
    """The doc entries every method shares: ``spec``, ``time_limit``, ``progress`` (its unit) and ``seed``."""
    return {
        "spec": spec,
        "time_limit": (f"Seconds for the whole call, or the caller's :class:`~ktsolve.driver.Deadline` "
                       f"(a plan passes its own on); the clock is read between chunks of {units} "
                       "(about 50 ms)."),
        "progress": f"``progress({units}_done, {units})``.",
    }


class Params:
    """The parameter table of one method.

    Parameters
    ----------
    method : str
        The method's name, for messages.
    params : tuple of Param
        In the order of the signature and the docstring.
    """

    def __init__(self, method: str, params: tuple[Param, ...]):
        self.method = method
        self.params = tuple(params)
        self.by_name = {p.name: p for p in self.params}
        if len(self.by_name) != len(self.params):
            raise ValueError(f"method {method!r}: a parameter is declared twice")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.by_name)

    @property
    def defaults(self) -> dict:
        """Every parameter's declared default (None where the default is computed)."""
        return {p.name: p.default for p in self.params}

    def check(self, given: dict, *, n: int) -> SimpleNamespace:
        """Every parameter checked, ``given`` or by default, on a board of ``n`` squares.

        Raises :class:`~ktsolve.errors.InvalidParameterError` for a name the
        table does not declare and for a value its check refuses.
        """
        for key in given:
            if key not in self.by_name:
                takes = f"it takes {', '.join(self.names)}" if self.names else "it takes no parameters"
                raise InvalidParameterError(f"method {self.method!r} has no parameter {key!r} ({takes})")
        ctx = SimpleNamespace(n=int(n), method=self.method)
        done: dict = {}

        def get(name):
            if name not in done:
                p = self.by_name[name]
                value = given.get(name, p.default)
                if value is None and p.computed is not None:
                    done[name] = p.computed(get, ctx.n)
                elif value is None and p.default is None:
                    done[name] = None
                else:
                    done[name] = p.check(value, name, get, ctx)
            return done[name]

        for p in self.params:
            get(p.name)
        return SimpleNamespace(**done)

    def rows(self) -> list[dict]:
        """One dict per parameter for people (``ktsolve methods NAME``): name, default, range, one line.

        A default of None that the table computes from the board shows as
        ``"auto"`` (the line says how); one that means "none" as ``"none"``.
        """
        out = []
        for p in self.params:
            if p.default is None:
                default = "auto" if p.computed is not None else "none"
            elif isinstance(p.default, float) and math.isinf(p.default):
                default = "-inf" if p.default < 0 else "inf"
            else:
                default = p.default
            out.append({"name": p.name, "default": default, "range": str(p.range), "doc": p.line})
        return out

    def entries(self) -> list[str]:
        """The numpydoc entries of the declared parameters, not indented."""
        out = []
        for p in self.params:
            text = p.doc if p.default is None else f"{p.doc}  Default {_show(p.default)}."
            body = textwrap.fill(text, 72, initial_indent="    ", subsequent_indent="    ",
                                 break_long_words=False, break_on_hyphens=False)
            out.append(f"{p.name} : {p.kind}\n{body}")
        return out

    def doc(self, shared: dict[str, str]) -> str:
        """The ``Parameters`` section, indented for a function's docstring: the call's arguments and the table's.

        ``shared`` holds the descriptions of ``spec``, ``time_limit`` and
        ``progress`` (:func:`call_doc`); ``seed`` gets the seed rule's
        paragraph, :data:`ktsolve.seeds.SEED_DOC`, word for word.
        """
        def entry(name, kind, text):
            body = textwrap.fill(text, 72, initial_indent="    ", subsequent_indent="    ",
                                 break_long_words=False, break_on_hyphens=False)
            return f"{name} : {kind}\n{body}"

        parts = ["graph : KnightGraph", entry("spec", "TourSpec", shared["spec"]),
                 entry("time_limit", "float or Deadline, optional", shared["time_limit"]),
                 entry("progress", "callable, optional", shared["progress"]), *self.entries(), SEED_DOC]
        text = "Parameters\n----------\n" + "\n".join(parts)
        return textwrap.indent(text, "    ")

    def signature(self, **annotations) -> inspect.Signature:
        """``(graph, spec, *, time_limit=None, progress=None, <the table>, seed=None)``: ``seed`` last."""
        P = inspect.Parameter
        head = [P("graph", P.POSITIONAL_OR_KEYWORD), P("spec", P.POSITIONAL_OR_KEYWORD),
                P("time_limit", P.KEYWORD_ONLY, default=None), P("progress", P.KEYWORD_ONLY, default=None)]
        body = [P(p.name, P.KEYWORD_ONLY, default=p.default) for p in self.params]
        return inspect.Signature([*head, *body, P("seed", P.KEYWORD_ONLY, default=None)], **annotations)

    def declare(self, func: Callable, *, summary: str, shared: dict[str, str], rest: str) -> Callable:
        """Give ``func`` (which takes ``**params``) the table's signature and a docstring built from it.

        ``summary`` is the docstring's first paragraph, ``rest`` the
        sections after ``Parameters`` (Returns, Notes, Examples), both as
        they would be written in the function (indented by four spaces
        after the first line).
        """
        func.__signature__ = self.signature(return_annotation=inspect.signature(func).return_annotation)
        func.__doc__ = summary.rstrip() + "\n\n" + self.doc(shared) + "\n" + rest
        return func
